"""The session file's text: cut at its table headers, re-render only the tables that
changed (so comments written by hand survive and a big session costs no more to write
than a small one), and say exactly which bytes changed (the journal's hunks).

**Chunks.** The text is cut before every line that looks like a table header; a
chunk belongs to the header's first one or two keys (``[units."Goblin 1".skills]`` →
``("units", "Goblin 1")``; the text before the first header to ``None``). A group is
all chunks of one owner. A header look-alike inside a multi-line string or array
would cut wrongly, so before the first splice of a file its grouping is *verified*:
each group parsed on its own, merged with no key defined twice, must equal the whole
file parsed (:func:`groups`). Each re-rendered group is then parsed back and compared
with the data it must hold, and the file's data after the write is known without
parsing the whole file again (:func:`splice`).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

Owner = tuple[str, str | None] | None

# A table header's first one or two keys: [units."Goblin 1".skills] → units, Goblin 1.
_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_HEADER_RE = re.compile(rf"^[ \t]*\[\[?[ \t]*({_KEY})(?:[ \t]*\.[ \t]*({_KEY}))?", re.M)


def _unquote(key: str | None) -> str | None:
    if key is None or key[0] not in "\"'":
        return key
    if key[0] == "'" or "\\" not in key:
        return key[1:-1]
    import json  # a key with an escape: rare

    return str(json.loads(key))


def root_text(text: str) -> str:
    """The text before the first table header (where ``schema`` is)."""
    m = _HEADER_RE.search(text)
    return text if m is None else text[:m.start()]


def split(text: str) -> list[list[Any]]:
    """``[[owner, chunk_text], …]``: the text cut before each header-looking line."""
    chunks: list[list[Any]] = []
    owner: Owner = None
    start = 0
    for m in _HEADER_RE.finditer(text):
        chunks.append([owner, text[start:m.start()]])
        owner = (str(_unquote(m.group(1))), _unquote(m.group(2)))
        start = m.start()
    chunks.append([owner, text[start:]])
    return chunks


def groups(text: str) -> tuple[dict[str, Any], frozenset[str]] | None:
    """The data of ``text`` read group by group (see the module doc), and the top-level
    keys the root chunk defines; None if the groups do not read on their own or clash."""
    order: list[Owner] = []
    texts: dict[Owner, list[str]] = {}
    for owner, chunk in split(text):
        if owner not in texts:
            texts[owner] = []
            order.append(owner)
        texts[owner].append(chunk)
    import tomllib  # writes only: a lookup reads the session's cache

    data: dict[str, Any] = {}
    root: frozenset[str] = frozenset()
    try:
        for owner in order:
            part = tomllib.loads("".join(texts[owner]))
            if owner is None:
                data.update(part)
                root = frozenset(part)
                continue
            if not _place(data, owner, part):
                return None
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None
    return data, root


def _place(data: dict[str, Any], owner: tuple[str, str | None], part: dict[str, Any]) -> bool:
    key, sub = owner
    if list(part) != [key] or not isinstance(part[key], dict):
        return False
    table = data.setdefault(key, {})
    if not isinstance(table, dict):
        return False
    value = part[key]
    if sub is not None:
        if list(value) != [sub]:
            return False
        value = {sub: value[sub]}
    for k, v in value.items():
        if k in table:
            return False
        table[k] = v
    return True


def _headers_ok(text: str, key: str, subs: set[str | None] | None) -> bool:
    """Every header in a rendered group belongs to ``key`` (and to one of ``subs``)."""
    for m in _HEADER_RE.finditer(text):
        if _unquote(m.group(1)) != key:
            return False
        if subs is not None and _unquote(m.group(2)) not in subs:
            return False
    return '"""' not in text and "'''" not in text


def _tables(value: Any) -> bool:
    """An array of tables (``[[key.sub]]`` blocks)."""
    return isinstance(value, list) and bool(value) and all(isinstance(x, dict) for x in value)


def _render(chunk_text: str, key: str, sub: str | None, value: Any) -> str | None:
    """A group re-rendered to hold ``value`` (a table, or an array of tables). Without
    comments it is written afresh (in linear time: tomlkit takes time quadratic in a
    table's keys); with comments, tomlkit merges the change into a table so the comments
    stay (None for an array of tables: the caller renders the whole document)."""
    if "#" not in chunk_text:
        if isinstance(value, list):  # [[key.sub]] blocks, no [key] header of their own
            body = dump((key,), {sub: value}) if sub is not None else ""
        else:
            body = dump((key,) if sub is None else (key, sub), value)
        return body + ("\n" if chunk_text.endswith("\n\n") else "")
    if isinstance(value, list):
        return None
    import tomlkit

    doc = tomlkit.parse(chunk_text)
    table = doc[key] if sub is None else doc[key][sub]
    merge(table, value)
    return tomlkit.dumps(doc)


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    return k if _BARE.fullmatch(k) else _string(k)


def _string(v: str) -> str:
    # JSON's escapes are TOML's, but for DEL, which TOML wants escaped too
    return _json_dumps()(v, ensure_ascii=False).replace("\x7f", "\\u007f")


@functools.cache
def _json_dumps() -> Callable[..., str]:
    """``json.dumps``, imported on the first write (a lookup never renders TOML)."""
    import json

    return json.dumps


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if v != v else "inf" if v == float("inf") else "-inf" \
            if v == float("-inf") else repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise ValueError(f"cannot write a {type(v).__name__} by hand")  # tomlkit will


def dump(path: tuple[str, ...], table: dict[str, Any]) -> str:
    """``[path]`` and its contents as tomlkit lays them out: keys, then sub-tables and
    arrays of tables, a blank line before each header; a table of tables alone gets no
    header of its own. Linear in the size of the data."""
    out: list[str] = []
    _dump(out, path, table, False)
    return "".join(out)


def _dump(out: list[str], path: tuple[str, ...], table: dict[str, Any], aot: bool) -> None:
    plain: list[str] = []
    subs: list[tuple[str, Any, bool]] = []
    for k, v in table.items():
        if isinstance(v, dict):
            subs.append((k, v, False))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            subs.append((k, v, True))
        else:
            plain.append(f"{_key(k)} = {_value(v)}\n")
    if aot or plain or not subs:
        name = ".".join(_key(k) for k in path)
        out.append(("\n" if out else "") + (f"[[{name}]]\n" if aot else f"[{name}]\n"))
        out.extend(plain)
    for k, v, is_aot in subs:
        for item in (v if is_aot else [v]):
            _dump(out, (*path, k), item, is_aot)


def merge(table: Any, value: dict[str, Any]) -> None:
    """Make tomlkit ``table`` hold ``value``, touching only what differs (so comments
    and formatting of the rest stay)."""
    for k in [k for k in table if k not in value]:
        del table[k]
    for k, v in value.items():
        if k in table and isinstance(v, dict) and hasattr(table[k], "items"):
            merge(table[k], v)
        elif k not in table or _plain(table[k]) != v:
            table[k] = v


def _plain(item: Any) -> Any:
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if callable(unwrap) else item


def _loads(text: str) -> dict[str, Any] | None:
    import tomllib

    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None


def splice(text: str, old: dict[str, Any], new: dict[str, Any], changed: set[str],
           root: frozenset[str]) -> tuple[str, dict[str, Any]] | None:
    """The new text with only the changed groups re-rendered, and the data it holds (in
    file order, as a full parse would give it). ``old`` is the data of ``text``, whose
    grouping was verified; ``root`` the keys its root chunk defines. None when the fast
    path does not apply (the caller renders the whole document instead)."""
    chunks = split(text)
    out_data = dict(old)
    for key in sorted(changed):
        new_k, old_k = new.get(key), old.get(key)
        if key in old and key in new and new_k == old_k:
            continue  # named as changed, but the same: its text stays as it is
        if key in root or not isinstance(new_k, dict) or (
                key in old and not isinstance(old_k, dict)):
            return None
        mine = [i for i, (o, _) in enumerate(chunks) if o is not None and o[0] == key]
        if not mine:
            rendered = dump((key,), new_k)  # an empty table: its bare [header]
            parsed = _loads(rendered)
            if parsed != {key: new_k} or not _headers_ok(rendered, key, None):
                return None
            sep = "" if not text or text.endswith("\n\n") else "\n"
            chunks.append([None, sep + rendered])
            out_data[key] = parsed[key]
            continue
        old_k = old_k or {}
        if not new_k:  # emptied (the last task dropped): its bare [header] stays
            if any("#" in chunks[i][1] for i in mine):
                return None  # comments: the general path keeps them
            bare = dump((key,), {})
            chunks[mine[0]][1] = bare + ("\n" if chunks[mine[-1]][1].endswith("\n\n") else "")
            for i in mine[1:]:
                chunks[i][1] = ""
            out_data[key] = {}
            continue
        order: list[str | None] = []
        idxs: dict[str | None, list[int]] = {}
        for i in mine:
            sub = chunks[i][0][1]
            if sub not in idxs:
                idxs[sub] = []
                order.append(sub)
            idxs[sub].append(i)
        subs = {s for s in order if s is not None}
        rebuilt: dict[str, Any] = {}
        for sub in order:
            if sub is None:
                value = {k: v for k, v in new_k.items() if k not in subs}
                before = {k: v for k, v in old_k.items() if k not in subs}
                if value == before:
                    rebuilt.update(before)
                    continue
                allowed: set[str | None] | None = {None} | (set(value) - subs)
            elif sub not in new_k:
                for i in idxs[sub]:
                    chunks[i][1] = ""
                continue
            elif new_k[sub] == old_k.get(sub):
                rebuilt[sub] = old_k[sub]
                continue
            elif not isinstance(new_k[sub], dict) and not _tables(new_k[sub]):
                return None
            else:
                value = {sub: new_k[sub]}
                allowed = {sub}
            combined = "".join(chunks[i][1] for i in idxs[sub])
            redone = _render(combined, key, sub, value if sub is None else value[sub])
            if redone is None:
                return None
            parsed = _loads(redone)
            if parsed != {key: value} or not _headers_ok(redone, key, allowed):
                return None
            rebuilt.update(parsed[key])
            for n, i in enumerate(idxs[sub]):
                chunks[i][1] = redone if n == 0 else ""
        if None not in idxs:
            if any(k not in subs and not isinstance(v, dict) for k, v in new_k.items()):
                return None  # plain keys but no [key] table to hold them
            added = {k: v for k, v in new_k.items() if k not in subs}
            if added:
                extra = "\n".join(dump((key, k), v) for k, v in added.items())
                parsed = _loads(extra)
                if parsed != {key: added} or not _headers_ok(extra, key, set(added)):
                    return None
                last = chunks[mine[-1]]
                sep = "" if last[1].endswith("\n\n") or not last[1] else "\n"
                last[1] = last[1] + sep + extra
                rebuilt.update(parsed[key])
        if rebuilt != new_k:
            return None
        out_data[key] = rebuilt
    return "".join(t for _, t in chunks), out_data


def render(text: str, old: dict[str, Any], new: dict[str, Any], changed: set[str],
           root: frozenset[str] | None) -> tuple[str, dict[str, Any], frozenset[str] | None]:
    """The new text for ``new`` (``old`` is the data of ``text``), the data it holds in
    file order, and its verified root keys (None: not verified). The fast path splices
    changed groups; anything unusual falls back to tomlkit on the whole document, whose
    output is parsed back in full. ValueError if it would not read back as ``new``."""
    if root is None:  # first write since the file was parsed: verify its grouping once
        grouped = groups(text)
        if grouped is not None and grouped[0] == old:
            root = grouped[1]
    out = None
    if root is not None:
        try:
            out = splice(text, old, new, changed, root)
        except Exception:  # noqa: BLE001 - any surprise means: use the general path
            out = None
    if out is not None:
        return out[0], out[1], root
    new_text = render_whole(text, new, changed)
    parsed = _loads(new_text)
    if parsed != new:
        raise ValueError("the new session text would not read back as written")
    return new_text, parsed, None


def render_whole(text: str, new: dict[str, Any], changed: set[str]) -> str:
    """The general path: tomlkit on the whole document (comments are kept too)."""
    import tomlkit

    doc = tomlkit.parse(text)
    for key in changed:
        value = new[key]
        if value == {}:
            doc[key] = tomlkit.table()  # an empty table keeps its [header]
        elif key in doc and isinstance(value, dict) and hasattr(doc[key], "items"):
            merge(doc[key], value)
        else:
            doc[key] = value
    return tomlkit.dumps(doc)


# --------------------------------------------------------------------------- hunks
# A hunk is [offset in the old text, old text, new text]; hunks are sorted, apart and
# start at line starts; a hunk's new text is never empty unless the file is (so undo
# --force can find where it is in a file edited by hand since).

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
