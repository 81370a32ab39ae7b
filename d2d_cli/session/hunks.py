"""The journal's hunks: exactly which bytes of the session file a command changed
(:func:`diff`), and those bytes taken back or applied again (:func:`apply`; with
``--force``, around hand edits made since: :func:`apply_reverse_fuzzy`).

A hunk is ``[offset in the old text, old text, new text]``; hunks are sorted, apart and
start at line starts; a hunk's new text is never empty unless the file is (so undo
--force can find where it is in a file edited by hand since)."""

from __future__ import annotations

import bisect
from collections import Counter
from typing import Any

from d2d_cli.session.headers import split

Hunk = list[Any]
_SMALL = 64 * 1024


def _prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    lo, step = 0, 256
    while lo < n:
        hi = min(lo + step, n)
        if a[lo:hi] != b[lo:hi]:
            break
        lo, step = hi, step * 2
    else:
        return n
    hi = min(lo + step, n)
    while lo < hi:  # a[:lo] == b[:lo]; the first difference is before hi
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _suffix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    lo, step = 0, 256
    while lo < n:
        hi = min(lo + step, n)
        if a[len(a) - hi:len(a) - lo] != b[len(b) - hi:len(b) - lo]:
            break
        lo, step = hi, step * 2
    else:
        return n
    hi = min(lo + step, n)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid:len(a) - lo] == b[len(b) - mid:len(b) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def diff(a: str, b: str) -> list[Hunk]:
    """The hunks that turn ``a`` into ``b``: what changed, at table granularity."""
    if a == b:
        return []
    p = _prefix(a, b)
    p = a.rfind("\n", 0, p) + 1  # back to a line start
    s = _suffix(a[p:], b[p:])
    i = len(a) - s
    if s and i > p and a[i - 1] != "\n":  # forward to a line start
        j = a.find("\n", i)
        s = 0 if j < 0 else len(a) - (j + 1)
    a_mid, b_mid = a[p:len(a) - s], b[p:len(b) - s]
    if len(a_mid) + len(b_mid) <= _SMALL:
        hunks = [[p, a_mid, b_mid]]
    else:
        hunks = _chunk_diff(a_mid, b_mid, p)
    return _anchor(hunks, a)


def _chunk_diff(a: str, b: str, base: int) -> list[Hunk]:
    ac = [t for _, t in split(a)]
    bc = [t for _, t in split(b)]
    a_off = [0]
    for t in ac:
        a_off.append(a_off[-1] + len(t))
    return [[base + a_off[alo], "".join(ac[alo:ahi]), "".join(bc[blo:bhi])]
            for alo, ahi, blo, bhi in _seq_diff(ac, bc)]


def _seq_diff(a: list[str], b: list[str]) -> list[tuple[int, int, int, int]]:
    """Replaced ranges between two sequences (patience diff: unique items anchor)."""
    out = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi, bhi = ahi - 1, bhi - 1
        if alo == ahi and blo == bhi:
            continue
        if alo == ahi or blo == bhi:
            out.append((alo, ahi, blo, bhi))
            continue
        ca, cb = Counter(a[alo:ahi]), Counter(b[blo:bhi])
        where = {x: j for j, x in enumerate(b[blo:bhi], blo) if cb[x] == 1 and ca[x] == 1}
        pairs = [(i, where[x]) for i, x in enumerate(a[alo:ahi], alo) if x in where]
        anchors = _lis(pairs)
        if not anchors:
            out.append((alo, ahi, blo, bhi))
            continue
        pi, pj = alo, blo
        for i, j in anchors:
            stack.append((pi, i, pj, j))
            pi, pj = i + 1, j + 1
        stack.append((pi, ahi, pj, bhi))
    return sorted(out)


def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of pairs increasing in both (they come sorted by the first)."""
    tails: list[int] = []
    tail_idx: list[int] = []
    prev = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_idx.append(n)
        else:
            tails[k] = j
            tail_idx[k] = n
        prev[n] = tail_idx[k - 1] if k else -1
    out = []
    n = tail_idx[-1] if tail_idx else -1
    while n >= 0:
        out.append(pairs[n])
        n = prev[n]
    return out[::-1]


def _anchor(hunks: list[Hunk], a: str) -> list[Hunk]:
    """Give every hunk a non-empty new text: a deletion takes the line before it along
    (or, at the very start, the line after). Touching hunks are merged first, so the
    line taken along is never part of another hunk."""
    merged: list[Hunk] = []
    for off, old, new in hunks:
        if merged and merged[-1][0] + len(merged[-1][1]) == off:
            merged[-1][1] += old
            merged[-1][2] += new
        else:
            merged.append([off, old, new])
    for h in merged:
        off, old, new = h
        if new:
            continue
        if off > 0:
            ls = a.rfind("\n", 0, off - 1) + 1
            h[:] = [ls, a[ls:off] + old, a[ls:off]]
        else:
            end = off + len(old)
            le = a.find("\n", end)
            le = len(a) if le < 0 else le + 1
            h[:] = [off, old + a[end:le], a[end:le]]
    return merged


def apply(text: str, hunks: list[Hunk], *, reverse: bool = False) -> str | None:
    """Forward: ``text`` is the old text, returns the new. Reverse: ``text`` is the new
    text, returns the old. None if the hunks do not fit ``text`` exactly."""
    out: list[str] = []
    pos = delta = 0
    for off, old, new in hunks:
        at = off + delta if reverse else off
        want, put = (new, old) if reverse else (old, new)
        if at < pos or text[at:at + len(want)] != want:
            return None
        out += [text[pos:at], put]
        pos = at + len(want)
        delta += len(new) - len(old)
    out.append(text[pos:])
    return "".join(out)


def apply_reverse_fuzzy(text: str, hunks: list[Hunk]) -> str | None:
    """Reverse hunks in a file edited by hand since: each hunk's new text must still be
    there, where it was or found exactly once further on. None if any is not."""
    out: list[str] = []
    pos = delta = drift = 0
    for off, old, new in hunks:
        if not new:
            return None
        at = off + delta + drift
        if not (at >= pos and text.startswith(new, at)):
            at = text.find(new, pos)
            if at < 0 or text.find(new, at + 1) >= 0:
                return None
            drift = at - (off + delta)
        out += [text[pos:at], old]
        pos = at + len(new)
        delta += len(new) - len(old)
    out.append(text[pos:])
    return "".join(out)
