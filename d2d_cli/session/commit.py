"""The commit: a pending change (its base state and new text) made durable — journal
entry, temp file, ``.bak``, rename (the commit point), then the cache."""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from d2d_cli.errors import SessionError, fault
from d2d_cli.session import cache, files, journal
from d2d_cli.session import text as T
from d2d_cli.session.cache import (
    Slot,
    _cache_drop,
    _cache_write,
    _stat_or_none,
    pack,
)
from d2d_cli.session.names import _exists
from d2d_cli.session.scope import Scope, _Pending, _State


def _commit(p: _Pending) -> None:
    """Journal, then temp file, ``.bak``, rename (the commit point). Any failure before
    the rename takes the journal entry back and leaves the file as it was."""
    raw_new = p.new_text.encode("utf-8")
    h1 = journal.digest(raw_new)
    entry = _entry(p, h1)
    if not _write(p, raw_new, entry):
        return  # a lookup's new session, created by another command first
    if p.state.creating:
        _journal_new(p.state.real, entry, len(raw_new))
    # After the commit point nothing may fail the command: the change is made.
    with contextlib.suppress(Exception):
        fault("renamed")
    with contextlib.suppress(Exception):
        files.sync_dir(p.state.real.parent)
    with contextlib.suppress(Exception):
        _keep_in_cache(p, raw_new, h1)


def _entry(p: _Pending, h1: str) -> dict[str, Any] | None:
    """The journal entry of ``p`` (None: a new session's own creation, unjournalled)."""
    if p.op == "do" and not p.command:
        return None
    s = p.state
    entry: dict[str, Any] = {"v": journal.VERSION, "id": 0, "op": p.op, "at": _now(),
                             "command": p.command, "summary": p.summary}
    if p.ref is not None:
        entry["ref"] = p.ref
    if p.record and p.op == "do":
        entry["rec"] = p.record
    entry["h0"], entry["h1"] = _base_digest(s), h1
    if p.op == "do":
        entry["d"] = T.diff(s.text, p.new_text)
    return entry


def _base_digest(s: _State) -> str:
    return s.digest if not s.creating else journal.digest(s.text.encode("utf-8"))


def _write(p: _Pending, raw_new: bytes, entry: dict[str, Any] | None) -> bool:
    """Make the change durable (the commit point is the rename, or the exclusive create
    of a new session); on any failure before it, undo what was done and raise. False
    when a lookup's new session was created by another command first."""
    s = p.state
    writer = journal.Writer(s.real, s.like)
    tmp: list[Path] = []  # the temp file, while it exists
    try:
        if s.creating:
            # the commit point of a new session: private (mode 600), like its cache
            files.create_exclusive(s.real, raw_new, private=True)
        else:
            _replace(s, writer, raw_new, entry, tmp)
    except BaseException as e:
        if writer.appended:
            with contextlib.suppress(OSError):
                writer.rollback()
        for t in tmp:
            with contextlib.suppress(OSError):
                os.unlink(t)
        if isinstance(e, FileExistsError) and s.creating and p.lookup:
            return False
        failure = _failure(s.real, e, s.creating)
        if failure is e:
            raise
        raise failure from None
    finally:
        writer.close()
    return True


def _replace(s: _State, writer: journal.Writer, raw_new: bytes,
             entry: dict[str, Any] | None, tmp: list[Path]) -> None:
    """Journal the entry (the journal put right first), write the temp file, keep the
    ``.bak`` and rename the temp file over the session."""
    files.sweep_orphans(s.real.parent, s.real.name)  # a killed writer's temp files
    writer.open()
    writer.repair(_base_digest(s), s.text)
    if entry is not None:
        entry["id"] = writer.last_id() + 1
        writer.append(entry, len(raw_new))
    assert s.like is not None
    tmp.append(files.write_temp(s.real, raw_new, s.like))
    bak = files.Backup(s.real, s.raw, s.like)
    try:
        fault("backup")
        files.replace(tmp[0], s.real)  # the commit point
    except BaseException:
        bak.restore()
        raise
    tmp.clear()
    bak.done()


def _failure(real: Path, e: BaseException, creating: bool) -> BaseException:
    """What a failed write raises: a race to create, or file-system trouble naming the
    session (not our temp file)."""
    if isinstance(e, FileExistsError) and creating:
        return SessionError(f"{real}: another d2d command created this session at the same "
                            "moment; nothing was changed — run it again")
    if not isinstance(e, OSError):
        return e
    name = str(e.filename or real)
    if Path(name).name.startswith(f".{real.name}."):
        name = str(real)  # our temp file: name the session, not the temp
    return files.trouble(name, e, "write it")


def _journal_new(real: Path, entry: dict[str, Any] | None, size: int) -> None:
    """A journal left by a deleted session of the same name is kept aside; the new
    session's first command is journalled after the file exists (a failure here only
    costs that one undo: the command has succeeded)."""
    with contextlib.suppress(Exception):
        _retire_journal(real)
        if entry is not None:
            writer = journal.Writer(real, _stat_or_none(real))
            try:
                writer.open()
                entry["id"] = 1
                writer.append(entry, size)
            finally:
                writer.close()


def _keep_in_cache(p: _Pending, raw_new: bytes, h1: str) -> None:
    """The new file's data (and the old file's, for an undo) in the cache."""
    s = p.state
    if len(raw_new) > cache.CACHE_SESSION_LIMIT:
        _cache_drop(s.real)
    elif p.op == "do":
        slots: list[Slot] = [(h1, cache.dump(p.new_data), pack(p.new_root))]
        if not s.creating and s.digest:
            slots.append((s.digest, s.payload or cache.dump(s.twin()),
                          s.packed if s.root is None else pack(s.root)))
        _cache_write(s.real, slots)
    elif p.cached:
        _cache_write(s.real, p.cached)


def _retire_journal(real: Path) -> None:
    """A journal left by a deleted session of the same name is kept as .journal.old."""
    jp = journal.path_for(real)
    if _exists(jp):
        os.replace(jp, jp.with_name(jp.name + ".old"))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def settle(p: _Pending, scope: Scope | None) -> None:
    """Hold ``p`` in the scope open when the change began (commit last), else commit it
    now."""
    if scope is not None:
        scope.hold(p.state.real, p)
    else:
        _commit(p)
