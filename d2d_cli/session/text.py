"""The session file's text: cut at its table headers, re-render only the tables that
changed (so comments written by hand survive and a big session costs no more to write
than a small one). How a table is written (:mod:`.tomltext`) and the journal's hunks
— exactly which bytes changed — (:mod:`.hunks`) live beside it.

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

import itertools
from typing import Any

from d2d_cli.session.headers import Owner, owners, root_text, split
from d2d_cli.session.hunks import Hunk, apply, apply_reverse_fuzzy, diff
from d2d_cli.session.tomltext import dump


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
    for first, second in owners(text):
        if first != key:
            return False
        if subs is not None and second not in subs:
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


__all__ = ["Hunk", "Owner", "apply", "apply_reverse_fuzzy", "diff", "dump", "root_text",
           "split"]  # the text's tools, one door
