"""The session file: the only code that reads or writes it (DESIGN.md "Session file";
docs/architecture.md "The session file" and "Guarantees").

A session is one TOML file with ``schema = 1`` at the top. Reads use ``tomllib`` and
take no lock (writes are atomic renames, so a reader sees the old or the new file);
every file d2d did not write itself is checked against the declared shape
(:mod:`.shape`). Every read-modify-write runs inside :func:`edit` (or is an
:func:`undo` / :func:`redo`), which

* holds an exclusive lock on the session file itself (:mod:`.files`; the one
  lock-check-read sequence is :func:`.reads.locked_read`),
* re-renders only the tables that changed so hand-written comments survive
  (:mod:`.text`; the layout of the file's chunks comes from the cache),
* appends one entry to the journal ``<file>.journal`` with the hunks that changed
  (:mod:`.journal`), then writes a temp file, keeps the old file as ``<file>.bak``
  and renames the temp file over the session — the commit point.

**Commit last.** Inside a CLI command (:func:`deferred`, opened by the error boundary
in ``cli.py``), :func:`edit` does not write when its block ends: it renders the new
text, checks it, and leaves it pending with the lock still held. The boundary commits
it only when the whole command — its output included — has succeeded, so an exit code
other than 0 means the file did not change. Outside a CLI run (tests, the bench)
:func:`edit` commits when its block ends. The stack of scopes is per thread, and a
scope holds one session file's change (:mod:`.scope`).

**The interface** (issue 38 item 4). This module is the facade, and the only door:
the names in ``__all__`` below are what the rest of d2d may use; the modules behind it
are private to the package (the import-linter contract ``session-facade`` in
pyproject.toml refuses ``d2d_cli.session.<module>`` anywhere outside ``session/``).
The code lives in :mod:`.names` (resolution),
:mod:`.cache` and :mod:`.reads`, :mod:`.fresh` (a new session), :mod:`.scope`,
:mod:`.boundary` (deferred: a command's scope, which imports the commit only when it
has a change to commit), :mod:`.transact` (edit, create), :mod:`.commit` and
:mod:`.history` (log, undo, redo). Each name is imported from its module on first use (PEP 562
``__getattr__``), so a lookup loads what reads, not what undoes or checks a new file.

**The cache** (one file per session in the user cache folder, :mod:`.dirs`) holds the
parsed data of the last file d2d wrote or read, keyed by the digest of its bytes, so a
1,000-unit session is not parsed (~100 ms) by every command. A file whose digest is
not in the cache is parsed and checked in full. It is bounded: a session file over
``CACHE_SESSION_LIMIT`` bytes gets none, a cache file is at most ``CACHE_LIMIT`` bytes,
and the folder keeps the ``CACHE_KEEP`` most recently written.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are; at run time each is imported when first used
    from d2d_cli.session.boundary import deferred
    from d2d_cli.session.cache import (
        CACHE_KEEP,
        CACHE_LIMIT,
        CACHE_SESSION_LIMIT,
        SCHEMA,
        forget,
        keep_memo,
        memo,
    )
    from d2d_cli.session.dirs import play_history
    from d2d_cli.session.files import check_writable, read_limited
    from d2d_cli.session.fresh import new_state, rng_for
    from d2d_cli.session.history import log, read_with_log, redo, undo
    from d2d_cli.session.journal import JOURNAL_KEEP, UNDO_DEPTH
    from d2d_cli.session.names import (
        DEFAULT_NAME,
        check_name,
        current_name,
        data_dir,
        display_name,
        is_path,
        journal_path,
        list_sessions,
        locate,
        resolve,
        set_current,
    )
    from d2d_cli.session.reads import MAX_SESSION_BYTES, lookup, read, stamp
    from d2d_cli.session.scope import Scope
    from d2d_cli.session.shape import MAX_DEPTH
    from d2d_cli.session.transact import Transaction, create, edit

# Lazy (PEP 562): a name of the facade is imported from its module on first use, so a
# lookup loads the modules that read (names, reads, cache…), not the history's undo
# and redo, the shape check of a file met for the first time, or the edit's (a command
# imports what it calls; docs/architecture.md "Speed of a one-shot command").
_WHERE = {
    "boundary": ("deferred",),
    "cache": ("CACHE_KEEP", "CACHE_LIMIT", "CACHE_SESSION_LIMIT", "SCHEMA", "forget",
              "keep_memo", "memo"),
    "dirs": ("play_history",),
    "files": ("check_writable", "read_limited"),
    "fresh": ("new_state", "rng_for"),
    "history": ("log", "read_with_log", "redo", "undo"),
    "journal": ("JOURNAL_KEEP", "UNDO_DEPTH"),
    "names": ("DEFAULT_NAME", "check_name", "current_name", "data_dir", "display_name",
              "is_path", "journal_path", "list_sessions", "locate", "resolve",
              "set_current"),
    "reads": ("MAX_SESSION_BYTES", "lookup", "read", "stamp"),
    "scope": ("Scope",),
    "shape": ("MAX_DEPTH",),
    "transact": ("Transaction", "create", "edit"),
}
_MODULE = {name: module for module, names in _WHERE.items() for name in names}
_SUBMODULES = frozenset({"boundary", "cache", "commit", "dirs", "files", "fresh", "headers",
                         "history", "hunks", "journal", "links", "lock", "names",
                         "outputs", "reads", "scope", "shape", "text", "tomltext",
                         "transact"})


def __getattr__(name: str) -> Any:
    module = _MODULE.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f"d2d_cli.session.{module}"), name)
        globals()[name] = value  # once: the next use is a plain attribute
        return value
    if name in _SUBMODULES:  # ``session.files`` as an eager package had it (tests)
        return importlib.import_module(f"d2d_cli.session.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE})


def scope_open() -> bool:
    """This thread has a scope open (a CLI command, a ``with Session(...)`` block): a
    change joins it and is committed when it closes."""
    from d2d_cli.session.scope import _scope

    return _scope() is not None


def write_output(path: Path | str, data: str | bytes, *, force: bool = False,
                 protect: Iterable[Path | str] = ()) -> Path:
    """A file the user named (an export, a map, a sim log), written whole or not at all:
    never through a symlink, an existing file only with ``force``, never over a file of
    ``protect`` (the running session) — :func:`.outputs.write`."""
    from d2d_cli.session import outputs

    return outputs.write(path, data, force=force, protect=protect)


def dump_table(path: tuple[str, ...], table: dict[str, Any]) -> str:
    """``[path]`` and its contents laid out as the session file lays them out (TOML)."""
    from d2d_cli.session.text import dump

    return dump(path, table)


def shape_problem(data: dict[str, Any], keys: Iterable[str] | None = None) -> str | None:
    """What is wrong first with ``data`` (or its tables ``keys``) against the session's
    declared shape, as ``[table] key: problem``; None when nothing is."""
    from d2d_cli.session.shape import problem

    return problem(data, keys)


def read_links(path: Path) -> dict[str, Any] | None:
    """The links ``d2d serve`` kept beside the session (:mod:`.links`), or None."""
    from d2d_cli.session import links

    return links.read(path)


def write_links(path: Path, token: str, players: dict[str, str]) -> None:
    """Keep ``d2d serve``'s links beside the session, mode 600 (:mod:`.links`)."""
    from d2d_cli.session import links

    links.write(path, token, players)


def drop_links(path: Path) -> None:
    from d2d_cli.session import links

    links.drop(path)


def unit_problem(name: str, state: Any) -> str | None:
    """What is wrong with ``state`` as the session's ``[units.NAME]`` table, or None."""
    from d2d_cli.session.shape import unit_problem as check

    return check(name, state)


__all__ = [
    "CACHE_KEEP", "CACHE_LIMIT", "CACHE_SESSION_LIMIT", "DEFAULT_NAME", "JOURNAL_KEEP",
    "MAX_DEPTH",
    "MAX_SESSION_BYTES", "SCHEMA", "UNDO_DEPTH", "Scope", "Transaction", "check_name",
    "check_writable",
    "create", "current_name", "data_dir", "deferred", "display_name", "drop_links",
    "dump_table", "edit", "forget", "is_path", "journal_path", "keep_memo", "list_sessions",
    "locate", "log", "lookup", "memo", "new_state", "play_history", "read", "read_limited",
    "read_links",
    "read_with_log", "redo", "resolve", "rng_for", "scope_open", "set_current",
    "shape_problem", "stamp", "undo", "unit_problem", "write_links", "write_output",
]
