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
)
from d2d_cli.session.names import _exists
from d2d_cli.session.scope import Scope, _Pending


def _commit(p: _Pending) -> None:
    """Journal, then temp file, ``.bak``, rename (the commit point). Any failure before
    the rename takes the journal entry back and leaves the file as it was."""
    s = p.state
    real = s.real
    raw_new = p.new_text.encode("utf-8")
    h1 = journal.digest(raw_new)
    entry: dict[str, Any] | None = None
    if p.op != "do" or p.command:
        entry = {"v": journal.VERSION, "id": 0, "op": p.op, "at": _now(),
                 "command": p.command, "summary": p.summary}
        if p.ref is not None:
            entry["ref"] = p.ref
    base_digest = s.digest if not s.creating else journal.digest(s.text.encode("utf-8"))
    if entry is not None:
        entry["h0"], entry["h1"] = base_digest, h1
        if p.op == "do":
            entry["d"] = T.diff(s.text, p.new_text)
    writer = journal.Writer(real, s.like)
    tmp: Path | None = None
    try:
        try:
            if s.creating:
                files.create_exclusive(real, raw_new)  # the commit point of a new session
            else:
                files.sweep_orphans(real.parent, real.name)  # a killed writer's temp files
                writer.open()
                writer.repair(base_digest, s.text)
                if entry is not None:
                    entry["id"] = writer.last_id() + 1
                    writer.append(entry, len(raw_new))
                assert s.like is not None
                tmp = files.write_temp(real, raw_new, s.like)
                bak = files.Backup(real, s.raw, s.like)
                try:
                    fault("backup")
                    files.replace(tmp, real)  # the commit point
                except BaseException:
                    bak.restore()
                    raise
                tmp = None
                bak.done()
        except BaseException as e:
            if writer.appended:
                with contextlib.suppress(OSError):
                    writer.rollback()
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            if isinstance(e, FileExistsError) and s.creating:
                if p.lookup:
                    return  # another command created it first: a lookup needs no more
                raise SessionError(f"{real}: another d2d command created this session at the "
                                   "same moment; nothing was changed — run it again") from None
            if isinstance(e, OSError):
                name = str(e.filename or real)
                if Path(name).name.startswith(f".{real.name}."):
                    name = str(real)  # our temp file: name the session, not the temp
                raise files.trouble(name, e, "write it") from None
            raise
    finally:
        writer.close()
    if s.creating:
        # A journal left by a deleted session of the same name is kept aside; the new
        # session's first command is journalled after the file exists (a failure here
        # only costs that one undo: the command has succeeded).
        with contextlib.suppress(Exception):
            _retire_journal(real)
            if entry is not None:
                writer = journal.Writer(real, _stat_or_none(real))
                try:
                    writer.open()
                    entry["id"] = 1
                    writer.append(entry, len(raw_new))
                finally:
                    writer.close()
    # After the commit point nothing may fail the command: the change is made.
    with contextlib.suppress(Exception):
        fault("renamed")
    with contextlib.suppress(Exception):
        files.sync_dir(real.parent)
    with contextlib.suppress(Exception):
        import marshal

        if len(raw_new) > cache.CACHE_SESSION_LIMIT:
            _cache_drop(real)
        elif p.op == "do":
            slots: list[Slot] = [(h1, marshal.dumps(p.new_data), p.new_root)]
            if not s.creating and s.digest:
                slots.append((s.digest, s.payload or marshal.dumps(s.twin()), s.root))
            _cache_write(real, slots)
        elif p.cached:
            _cache_write(real, p.cached)


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
