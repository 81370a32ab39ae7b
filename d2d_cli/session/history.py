"""History: ``session log``, ``undo`` and ``redo`` — the journal walked under the lock,
the hunks applied back or forth (:mod:`.journal`, :mod:`.text`).

The text splicer (:mod:`.text`) and the commit are imported by undo and redo, where
they are used: ``session log`` and an export (:func:`read_with_log`) only read."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from d2d_cli.errors import BadInput, NotFound, SessionError
from d2d_cli.session import files, journal
from d2d_cli.session.cache import Slot, _cache_read
from d2d_cli.session.journal import UNDO_DEPTH
from d2d_cli.session.names import _real
from d2d_cli.session.reads import _decode, _load, _parse, _read_raw, _root_schema, locked_read
from d2d_cli.session.scope import _Pending, _scope, _State


def log(path: Path, last: int) -> list[dict[str, Any]]:
    """The last ``last`` journal entries whose commit completed, oldest first, without
    their hunks (:func:`completed`)."""
    real = _real(path)
    raw = _read_raw(real)
    return _log(real, None if raw is None else journal.digest(raw), last)


def read_with_log(path: Path, last: int, typed: bool = False,
                  chapters: frozenset[str] | None = None
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The session's data and the last ``last`` entries of its journal, both of one read
    of the file: the log never runs ahead of (or behind) the data it is shown with
    (``d2d serve``'s snapshot, ``session export``). Nothing is created. ``typed``: each
    row with its entry's typed record (``rec``, journal.log_view). ``chapters``: the
    data's top-level tables the caller reads (None: all); others may be left out."""
    real = _real(path)
    raw = _read_raw(real)
    if raw is None:
        raise NotFound(f"no session at {path}")
    loaded = _load(real, raw, only=chapters)
    return loaded.data, _log(real, loaded.digest, last, typed)


def completed(entries: Iterator[dict[str, Any]], current: str | None
              ) -> Iterator[dict[str, Any]]:
    """``entries`` (newest first) without the entries whose commit never completed: a
    command killed after its journal append and before the session's rename leaves an
    entry whose ``h0`` is the file as it is (digest ``current``) and whose ``h1`` is
    not — the rule :meth:`journal.Writer.repair` cuts by, so every reader of history
    sees what the next write will keep (issue 38)."""
    tail = True
    for entry in entries:
        if tail and current is not None and _phantom(entry, current):
            continue
        tail = False
        yield entry


def _phantom(entry: dict[str, Any], current: str) -> bool:
    return ("bad" not in entry and "h1" in entry and entry.get("h0") == current
            and entry.get("h1") != current)


def _log(real: Path, current: str | None, last: int, typed: bool = False
         ) -> list[dict[str, Any]]:
    if last <= 0:
        return []
    try:
        with journal.opened(real) as fd:
            if fd is None:
                return []
            newest: list[dict[str, Any]] = []
            for entry in completed(journal.newest_first(fd), current):
                newest.append(entry)
                if len(newest) >= last:
                    break
    except OSError as e:
        raise files.trouble(journal.path_for(real), e, "read it") from None
    return journal.log_view(newest, typed)


def _history_step(path: Path, *, redo: bool, force: bool) -> dict[str, Any]:
    real = _real(path)
    scope = _scope()
    if scope is not None and real in scope.pending:
        raise BadInput("undo and redo cannot follow a change in the same command")
    if scope is not None:
        scope.claim(real)
    word = "redo" if redo else "undo"
    with contextlib.ExitStack() as stack:
        got = locked_read(real, scope.locks if scope is not None else stack)
        if got is None:
            raise NotFound(f"no session at {path}")
        like, raw = got
        text = _decode(real, raw)
        _root_schema(real, text)  # a newer or foreign file is never replaced
        h = journal.digest(raw)
        target = _target(real, like, h, text, redo)
        name = target.get("command") or "?"
        new_text = _restored(real, text, h, target, redo, force)
        state = _State(real, text, raw, h, {}, None, like)
        pending = _Pending(state, new_text, {}, None, f"session {word}",
                           f"{'re-applied' if redo else 'reverted'} '{name}'", op=word,
                           ref=int(target.get("id", 0)))
        pending.cached = _cache_swap(real, journal.digest(new_text.encode("utf-8")))
        from d2d_cli.session.commit import settle

        settle(pending, scope)
    return {"command": target.get("command"), "at": target.get("at"),
            "summary": target.get("summary", "")}


def _target(real: Path, like: os.stat_result, h: str, text: str,
            redo: bool) -> dict[str, Any]:
    """The journal entry to undo (or redo), found under the lock."""
    target = None
    writer = journal.Writer(real, like)
    try:
        if writer.open(create=False):
            # A torn tail, an entry whose write never happened, the first journal
            # format: all put right first (under the lock), so the walk is exact.
            # Not cut here: this undo may yet fail, and a failing exit leaves the
            # journal as it was (the commit repairs it).
            good = writer.repair(h, text, cut=False)
            entries = journal.newest_first(writer.fd, good)
            target = journal.redo_target(entries) if redo else journal.undo_target(entries)
    except OSError as e:
        raise files.trouble(journal.path_for(real), e, "read it") from None
    finally:
        writer.close()
    if target is not None and "bad" in target:
        word = "redo" if redo else "undo"
        raise SessionError(
            f"{journal.path_for(real)}: an entry d2d cannot read ({target['bad']}) — "
            f"d2d did not write it, so {word} stops there, even with --force; nothing was "
            "changed (remove that line by hand to go further back)")
    if target is None or "d" not in target:
        if redo:
            raise BadInput("nothing to redo: no command was undone since the last change")
        raise BadInput(f"nothing to undo: the journal holds no earlier state (undo reaches "
                       f"back at least {UNDO_DEPTH} commands)")
    return target


def _restored(real: Path, text: str, h: str, target: dict[str, Any], redo: bool,
              force: bool) -> str:
    """The file's text with ``target``'s hunks taken back (or applied again): exactly,
    or (``force``) around the hand edits made since."""
    from d2d_cli.session import text as T

    name, word = target.get("command") or "?", "redo" if redo else "undo"
    if h != (target["h0"] if redo else target["h1"]):
        if not force:
            raise SessionError(
                f"{real}: the file was changed by hand since d2d last wrote it; {word} "
                f"would lose those edits — rerun with --force to {word} '{name}' anyway "
                "(edits elsewhere in the file are kept); nothing was changed")
        new_text = (T.apply_reverse_fuzzy(text, target["d"]) if not redo
                    else _apply_forward_fuzzy(text, target["d"]))
        if new_text is None:
            raise SessionError(
                f"{real}: the hand edits changed the same lines '{name}' did, so {word} "
                f"--force cannot apply; edit the file by hand, or restore {real.name}.bak "
                "(nothing was changed)")
        _parse(real, new_text)  # what --force writes must still be a good session
        return new_text
    new_text = T.apply(text, target["d"], reverse=not redo)
    if new_text is None or journal.digest(new_text.encode("utf-8")) != (
            target["h1"] if redo else target["h0"]):
        raise SessionError(f"{journal.path_for(real)}: the journal entry of '{name}' does not "
                           f"match the file, so {word} cannot restore it exactly; nothing "
                           "was changed")
    return new_text


def _apply_forward_fuzzy(text: str, hunks: list[Any]) -> str | None:
    """Redo --force: each hunk's old text found where it was or exactly once."""
    from d2d_cli.session import text as T

    return T.apply_reverse_fuzzy(text, [[off, new, old] for off, old, new in hunks])


def _cache_swap(real: Path, h: str) -> list[Slot]:
    """After undo or redo: the cache's slots with the restored file's first, if held."""
    slots = _cache_read(real)
    mine = [x for x in slots if x[0] == h]
    return mine + [x for x in slots if x[0] != h] if mine else []


def undo(path: Path, *, force: bool = False) -> dict[str, Any]:
    """Restore the state before the last state-changing command not yet undone."""
    return _history_step(path, redo=False, force=force)


def redo(path: Path, *, force: bool = False) -> dict[str, Any]:
    """Re-apply the command the last undo reverted (if nothing changed since)."""
    return _history_step(path, redo=True, force=force)
