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

**Layout.** The verified grouping keeps the owner and length of every chunk
(:class:`Grouping`, cached with the data), so a write finds the chunks of the tables it
changed without cutting the whole text again, and the new text's layout is the old
one with only the re-rendered chunks cut anew.
"""

from __future__ import annotations

import bisect
import functools
import itertools
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


def groups(text: str) -> tuple[dict[str, Any], Grouping] | None:
    """The data of ``text`` read group by group (see the module doc), and its grouping
    (the top-level keys the root chunk defines, the layout); None if the groups do not
    read on their own or clash."""
    order: list[Owner] = []
    texts: dict[Owner, list[str]] = {}
    chunks = split(text)
    for owner, chunk in chunks:
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
    return data, Grouping(root, _layout(chunks))


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
        if v == {} and isinstance(v, dict):
            # emptied: a table whose text held only sub-tables ([scene.factions.X]) is
            # a "super table" tomlkit writes no header for, so once empty it would
            # vanish; an explicit empty table keeps its [header] (issue 30 item 1)
            if _plain(table.get(k)) != {} or _super(table.get(k)):
                import tomlkit

                table[k] = tomlkit.table()
        elif k in table and isinstance(v, dict) and hasattr(table[k], "items"):
            merge(table[k], v)
        elif k not in table or _plain(table[k]) != v:
            table[k] = v


def _super(item: Any) -> bool:
    is_super = getattr(item, "is_super_table", None)
    return bool(is_super()) if callable(is_super) else False


def _plain(item: Any) -> Any:
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if callable(unwrap) else item


def _loads(text: str) -> dict[str, Any] | None:
    import tomllib

    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None


class Grouping:
    """A text's verified grouping: the top-level keys its root chunk defines, and its
    layout — ``(key, sub, length)`` for every chunk in file order (the root chunk's key
    None) — so a write finds the chunks of the tables it changes without cutting the
    whole text again, and the next write gets the new text's layout from this one's."""

    __slots__ = ("layout", "root")

    def __init__(self, root: frozenset[str], layout: Layout) -> None:
        self.root, self.layout = root, layout

    def dumps(self) -> tuple[list[str], Layout]:
        """Plain data, for the cache (marshal)."""
        return sorted(self.root), self.layout

    @classmethod
    def loads(cls, plain: Any) -> Grouping | None:
        try:
            root, layout = plain
            return cls(frozenset(root), [(k, s, n) for k, s, n in layout])
        except (TypeError, ValueError):
            return None


Layout = list[tuple[str | None, str | None, int]]


def layout(text: str) -> Layout:
    """``(key, sub, length)`` of every chunk of ``text`` (:func:`split`)."""
    return _layout(split(text))


def _layout(chunks: list[list[Any]]) -> Layout:
    return [(None, None, len(t)) if o is None else (o[0], o[1], len(t)) for o, t in chunks]


class _Edits:
    """The chunks of one text being replaced, found through its layout; the result is
    the new text and its layout, with only the replaced chunks cut again."""

    def __init__(self, text: str, lay: Layout) -> None:
        self.text, self.layout = text, lay
        self.offs = [0, *itertools.accumulate(n for _, _, n in lay)]
        self.edits: dict[int, str] = {}
        self.tail: list[str] = []

    def fits(self) -> bool:
        return self.offs[-1] == len(self.text)

    def owned(self, keys: set[str]) -> dict[str, list[int]]:
        """The chunk indexes of each of ``keys``, in file order."""
        out: dict[str, list[int]] = {}
        for i, (k, _, _) in enumerate(self.layout):
            if k in keys:
                out.setdefault(k, []).append(i)
        return out

    def sub(self, i: int) -> str | None:
        return self.layout[i][1]

    def chunk(self, i: int) -> str:
        got = self.edits.get(i)
        return self.text[self.offs[i]:self.offs[i + 1]] if got is None else got

    def put(self, i: int, text: str) -> None:
        self.edits[i] = text

    def result(self) -> tuple[str, Layout] | None:
        """The new text and its layout; None if a replaced chunk would run into the
        next header (it must end at a line end)."""
        text, offs, lay = self.text, self.offs, self.layout
        out: list[str] = []
        new: Layout = []
        prev = 0
        for i in sorted(self.edits):
            t = self.edits[i]
            if t and not t.endswith("\n") and i + 1 < len(lay):
                return None
            out.append(text[offs[prev]:offs[i]])
            new.extend(lay[prev:i])
            _cut(out, new, t)
            prev = i + 1
        out.append(text[offs[prev]:])
        new.extend(lay[prev:])
        for t in self.tail:
            _cut(out, new, t)
        return "".join(out), new


def _cut(out: list[str], lay: Layout, text: str) -> None:
    """Append ``text`` (starting at a line start, or at the end of the text) and its
    chunks: what comes before its first header belongs to the chunk before it."""
    out.append(text)
    for n, (owner, piece) in enumerate(split(text)):
        if n == 0:
            if piece:
                k, s, length = lay[-1]
                lay[-1] = (k, s, length + len(piece))
        else:
            lay.append((owner[0], owner[1], len(piece)))


def splice(text: str, old: dict[str, Any], new: dict[str, Any], changed: set[str],
           grouping: Grouping) -> tuple[str, dict[str, Any], Grouping] | None:
    """The new text with only the changed groups re-rendered, the data it holds (in
    file order, as a full parse would give it) and its grouping. ``old`` is the data of
    ``text``, whose grouping was verified. None when the fast path does not apply (the
    caller renders the whole document instead)."""
    ed = _Edits(text, grouping.layout)
    if not ed.fits():
        return None
    out_data = dict(old)
    owned = ed.owned(changed)
    for key in sorted(changed):
        new_k, old_k = new.get(key), old.get(key)
        if key in old and key in new and new_k == old_k:
            continue  # named as changed, but the same: its text stays as it is
        if key in grouping.root or not isinstance(new_k, dict) or (
                key in old and not isinstance(old_k, dict)):
            return None
        value = _splice_key(ed, key, owned.get(key, []), old_k or {}, new_k)
        if value is None:
            return None
        out_data[key] = value
    done = ed.result()
    if done is None:
        return None
    return done[0], out_data, Grouping(grouping.root, done[1])


def _splice_key(ed: _Edits, key: str, mine: list[int], old_k: dict[str, Any],
                new_k: dict[str, Any]) -> dict[str, Any] | None:
    """Table ``key`` re-rendered where it changed; the data it now holds, or None."""
    if not mine:
        rendered = dump((key,), new_k)  # a new table, or an empty one: its bare [header]
        parsed = _loads(rendered)
        if parsed != {key: new_k} or not _headers_ok(rendered, key, None):
            return None
        sep = "" if not ed.text or ed.text.endswith("\n\n") else "\n"
        ed.tail.append(sep + rendered)
        return dict(parsed[key])
    if not new_k:  # emptied (the last task dropped): its bare [header] stays
        if any("#" in ed.chunk(i) for i in mine):
            return None  # comments: the general path keeps them
        ed.put(mine[0], dump((key,), {}) + ("\n" if ed.chunk(mine[-1]).endswith("\n\n")
                                              else ""))
        for i in mine[1:]:
            ed.put(i, "")
        return {}
    order: dict[str | None, list[int]] = {}
    for i in mine:
        order.setdefault(ed.sub(i), []).append(i)
    subs = {s for s in order if s is not None}
    rebuilt: dict[str, Any] = {}
    for sub, idxs in order.items():
        got = _splice_sub(ed, key, sub, idxs, subs, old_k, new_k)
        if got is None:
            return None
        rebuilt.update(got)
    if None not in order and not _append_plain(ed, key, mine[-1], subs, new_k, rebuilt):
        return None
    return rebuilt if rebuilt == new_k else None


def _splice_sub(ed: _Edits, key: str, sub: str | None, idxs: list[int], subs: set[str],
                old_k: dict[str, Any], new_k: dict[str, Any]) -> dict[str, Any] | None:
    """One group of table ``key`` (its own plain keys when ``sub`` is None, else
    ``[key.sub]``): kept, dropped or re-rendered; the data it holds, or None."""
    if sub is None:
        value = {k: v for k, v in new_k.items() if k not in subs}
        before = {k: v for k, v in old_k.items() if k not in subs}
        if value == before:
            return before
        allowed: set[str | None] = {None} | (set(value) - subs)
        want: Any = value
    elif sub not in new_k:
        for i in idxs:
            ed.put(i, "")
        return {}
    elif new_k[sub] == old_k.get(sub):
        return {sub: old_k[sub]}
    elif not isinstance(new_k[sub], dict) and not _tables(new_k[sub]):
        return None
    else:
        value, allowed, want = {sub: new_k[sub]}, {sub}, new_k[sub]
    redone = _render("".join(ed.chunk(i) for i in idxs), key, sub, want)
    if redone is None:
        return None
    parsed = _loads(redone)
    if parsed != {key: value} or not _headers_ok(redone, key, allowed):
        return None
    for n, i in enumerate(idxs):
        ed.put(i, redone if n == 0 else "")
    return dict(parsed[key])


def _append_plain(ed: _Edits, key: str, last: int, subs: set[str], new_k: dict[str, Any],
                  rebuilt: dict[str, Any]) -> bool:
    """Table ``key`` has no ``[key]`` chunk of its own: new sub-tables go after its last
    chunk (plain keys cannot: False)."""
    if any(k not in subs and not isinstance(v, dict) for k, v in new_k.items()):
        return False  # plain keys but no [key] table to hold them
    added = {k: v for k, v in new_k.items() if k not in subs}
    if not added:
        return True
    extra = "\n".join(dump((key, k), v) for k, v in added.items())
    parsed = _loads(extra)
    if parsed != {key: added} or not _headers_ok(extra, key, set(added)):
        return False
    text = ed.chunk(last)
    ed.put(last, text + ("" if text.endswith("\n\n") or not text else "\n") + extra)
    rebuilt.update(parsed[key])
    return True


def render(text: str, old: dict[str, Any], new: dict[str, Any], changed: set[str],
           grouping: Grouping | None) -> tuple[str, dict[str, Any], Grouping | None]:
    """The new text for ``new`` (``old`` is the data of ``text``), the data it holds in
    file order, and its verified grouping (None: not verified). The fast path splices
    changed groups; anything unusual falls back to tomlkit on the whole document, whose
    output is parsed back in full. ValueError if it would not read back as ``new``."""
    if grouping is None:  # first write since the file was parsed: verify its grouping once
        grouped = groups(text)
        if grouped is not None and grouped[0] == old:
            grouping = grouped[1]
    out = None
    if grouping is not None:
        try:
            out = splice(text, old, new, changed, grouping)
        except Exception:  # noqa: BLE001 - any surprise means: use the general path
            out = None
    if out is not None:
        return out
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
