"""The session writer's splice as it was before issue 26 (d2d 0.x, commit f899d50): it
cut the whole text on every write. Kept here, unchanged, as the oracle the new splice
(which finds the changed chunks through the cached layout) must match byte for byte
(tests/test_splice.py)."""

from __future__ import annotations

from typing import Any

from d2d_cli.session.text import _headers_ok, _loads, _render, _tables, dump, split


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
