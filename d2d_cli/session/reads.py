"""Reading a session: the file's bytes to checked plain data, through the cache when
it holds them (:mod:`.cache`), else parsed and checked against the declared shape
(:mod:`.shape`). Reads take no lock: writes are atomic renames.

A read the cache answers imports none of the writing side (issue 40 item 3): the text
splicer (:mod:`.text`), the commit, a fresh session's making and the lock are imported
where a file is created, parsed or locked for a change (~4 ms a lookup paid at its
start); ``tests/test_imports.py`` pins it."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from d2d_cli.errors import NotFound, SessionError
from d2d_cli.rules.core.record import record
from d2d_cli.session import cache, files, journal
from d2d_cli.session.cache import (
    SCHEMA,
    _cache_drop,
    _cache_read,
    _cache_write,
    _copy,
)
from d2d_cli.session.names import _real
from d2d_cli.session.scope import _after_commit, _Pending, _scope

# The biggest session file d2d reads (issue 30 item 6): parsing costs ~0.14 s and ~10 MB
# of memory per MB of TOML (a 200 MB file took 28 s and 2 GB for `fate draw 1`), and a
# write holds the lock for that long; a 1,000-unit session is under 1 MB.
MAX_SESSION_BYTES = 32 * 1024 * 1024


def _fail_shape(path: Path, bad: Any) -> SessionError:
    from d2d_cli.session.shape import where_text

    table, key = where_text(bad.where)
    place = f"[{table}] {key}" if table else f"{key} (top level)"
    return SessionError(f"{path}: {place}: {bad.problem}; the file was left as it is — fix "
                        f"it by hand, or restore {path.name}.bak")


def _parse(path: Path, text: str) -> dict[str, Any]:
    """Parse and check a file d2d did not write itself."""
    import tomllib  # a file met for the first time; else the cache answers (see below)

    from d2d_cli.session import shape

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SessionError(
            f"{path}: not valid TOML ({e}); the file was left as it is — fix it by hand, "
            f"or restore {path.name}.bak"
        ) from None
    except RecursionError:
        raise _too_deep(path, text) from None
    _check_schema(path, data.get("schema"))
    try:
        shape.check(data)
    except shape.Bad as bad:
        raise _fail_shape(path, bad) from None
    return data


def _too_deep(path: Path, text: str) -> SessionError:
    """A value nested past what the TOML parser itself can read: named by its table and
    key as every other refusal is (the parser does not say where)."""
    from d2d_cli.session.shape import MAX_DEPTH, deep_place

    place = deep_place(text)
    where = "" if place is None else (f"[{place[0]}] {place[1]}: " if place[0]
                                      else f"{place[1]} (top level): ")
    return SessionError(f"{path}: {where}nested deeper than {MAX_DEPTH} tables and lists, "
                        f"too deep to be a d2d session; the file was left as it is — fix it "
                        f"by hand, or restore {path.name}.bak")


def _check_schema(path: Path, schema: Any) -> None:
    if type(schema) is not int:
        raise SessionError(f"{path}: not a d2d session (no 'schema = {SCHEMA}' at the top)")
    if schema > SCHEMA:
        raise SessionError(
            f"{path}: written by a newer d2d (schema {schema}, this d2d reads {SCHEMA}); "
            "refusing to read or overwrite it — upgrade d2d"
        )
    if schema < 1:
        raise SessionError(f"{path}: schema (top level): {schema} is not a d2d schema (this "
                           f"d2d reads {SCHEMA}); the file was left as it is")


def _root_schema(path: Path, text: str) -> None:
    """The schema check alone, from the text before the first table (cheap)."""
    import tomllib

    from d2d_cli.session import text as T

    try:
        root = tomllib.loads(T.root_text(text))
    except (tomllib.TOMLDecodeError, RecursionError):
        root = {}
    _check_schema(path, root.get("schema"))


def _read_raw(real: Path) -> bytes | None:
    try:
        return files.read_limited(real, MAX_SESSION_BYTES, "the session file")
    except OSError as e:
        raise files.trouble(real, e, "read it") from None


def _decode(real: Path, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SessionError(f"{real}: not a UTF-8 text file; the file was left as it is") from None


@record(frozen=False)
class _Loaded:
    text: str
    digest: str
    data: dict[str, Any]
    root: bytes | None  # the grouping, packed (cache.unpack)
    twin: Callable[[], dict[str, Any]]  # an independent copy of data
    payload: bytes | None  # data, marshalled (for the cache)


def _load(real: Path, raw: bytes, h: str | None = None,
          only: frozenset[str] | None = None) -> _Loaded:
    """The session's bytes ``raw`` as data (``h``: their digest, when already taken).
    ``only``: the chapters the caller reads — from the cache, only those are unmarshalled
    (``data`` holds no other; a parse gives them all); ``twin`` is always whole."""
    h = h or journal.digest(raw)
    text = _decode(real, raw)
    slot = cache.recent(real, h)  # this process's last read or write of the same bytes
    for digest, payload, root in [slot] if slot is not None else _cache_read(real):
        if digest == h:
            if slot is None:
                cache.remember(real, (digest, payload, root))
            return _Loaded(text, h, cache.load(payload, only), root,
                           functools.partial(cache.load, payload), payload)
    data = _parse(real, text)
    payload_or_none: bytes | None = None
    if len(raw) > cache.CACHE_SESSION_LIMIT:
        _cache_drop(real)  # too big to keep a copy of (and to marshal for nothing)
    else:
        with contextlib.suppress(ValueError):  # a hand-written date: marshal cannot hold it
            payload_or_none = cache.dump(data)
        if payload_or_none is not None:
            _keep_when_done(real, h, payload_or_none)
    pristine = _copy(data)  # the command may change ``data`` in place
    return _Loaded(text, h, data, None, lambda: _copy(pristine), payload_or_none)



def _keep_when_done(real: Path, h: str, payload: bytes) -> None:
    """Cache what was parsed — once the command has succeeded (a failing exit leaves
    the cache as it was too, issue 30), and not when the command's own change is
    committed (its commit caches the new file)."""
    scope = _scope()

    def keep() -> None:
        if scope is None or real not in scope.pending:
            _cache_write(real, [(h, payload, None)])

    _after_commit(keep)


def stamp(path: Path) -> tuple[int, int, int] | None:
    """The session file's modification time (ns), size and inode, or None when it is
    not there: what changes whenever a write lands (a write renames a new file into
    place), for a reader that watches it (``d2d serve``) without reading it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def lookup(spec: str | None, *, seed: int | None = None,
           shared: bool = False) -> dict[str, Any]:
    """The data of the session ``spec`` names (None: the current one) for a lookup —
    the one home of "a lookup creates the default session": only the default session,
    or a ``.toml`` path in an existing folder, is created on first use (DESIGN.md "No
    setup step"; :func:`.names.locate` says which); any other missing name is refused
    with the nearest names."""
    from d2d_cli.session.names import locate

    where, create = locate(spec)
    return read(where, seed=seed, create=create, shared=shared)


# The data last read with ``shared=True`` for each session file, by the digest of its
# bytes (``d2d play``'s status line after each line: it unmarshalled the session again
# for bytes it had read a line before).
_SHARED: dict[Path, tuple[str, str, dict[str, Any]]] = {}


def read(path: Path, *, seed: int | None = None, create: bool = False,
         shared: bool = False) -> dict[str, Any]:
    """The session as plain data. A missing session is refused, or created when
    ``create`` (:func:`lookup` decides); inside a CLI run, only if the command
    succeeds. ``shared``: for a caller that never changes what it is given — the same
    object as the last shared read while the file holds the same bytes."""
    real = _real(path)
    scope = _scope()
    if scope is not None and real in scope.pending and scope.pending[real].op == "do":
        return _copy(scope.pending[real].new_data)
    raw = _read_raw(real)
    if raw is None:
        if not create:
            raise NotFound(f"no session at {path}")
        from d2d_cli.session.commit import settle
        from d2d_cli.session.fresh import _fresh

        state = _fresh(real, seed)
        pending = _Pending(state, state.text, state.data, state.root, "", "", lookup=True)
        settle(pending, scope)
        return state.twin()
    if not shared:
        return _load(real, raw).data
    h = journal.digest(raw)
    known = _SHARED.get(real)
    if known is not None and known[0] == h and known[1] == cache.checker():
        return known[2]  # the same bytes, checked by the same build
    data = _load(real, raw, h).data
    _SHARED.clear()  # one session at a time: the shell's
    _SHARED[real] = (h, cache.checker(), data)
    return data



def locked_read(real: Path, stack: contextlib.ExitStack) -> tuple[os.stat_result, bytes] | None:
    """Lock the session file (``stack`` keeps the lock), check that it may be written
    and is not too big, and read it: its stat and bytes; None if there is no file. The
    one lock-check-read sequence of every read-modify-write (edit, undo, redo)."""
    from d2d_cli.session.lock import locked

    try:
        fd = stack.enter_context(locked(real))
    except FileNotFoundError:
        return None
    except OSError as e:
        raise files.trouble(real, e, "open it for writing") from None
    with files.guard(real, "read it"):
        like = os.fstat(fd)
        files.check_writable(real, like)
        files.check_size(real, like.st_size, MAX_SESSION_BYTES, "the session file")
        return like, files.read_fd(fd)
