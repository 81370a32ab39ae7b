"""Commit last: the open scopes (a CLI command's, a ``with Session(...)`` block's). A
change made inside a scope waits, with its lock held, until the scope commits.

The stack of scopes is **per thread** (``threading.local``): a call made by another
thread never joins a block this thread has open — it waits for the session's lock like
any other writer, and commits on its own. A scope holds the changes of **one** session
file: a change to a second file inside it is refused (``BadInput``, nothing changed),
so a scope always commits all it holds or nothing (docs/architecture.md "Commit
last")."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import field, record
from d2d_cli.session.files import real as _real

if TYPE_CHECKING:  # annotations only: a read imports neither the cache nor the splicer here
    from d2d_cli.session.cache import Slot
    from d2d_cli.session.text import Grouping


@record(frozen=False)
class _State:
    """A session file as a command found it (under the lock)."""

    real: Path
    text: str
    raw: bytes
    digest: str
    data: dict[str, Any]
    root: Grouping | None
    like: os.stat_result | None
    creating: bool = False
    twin: Callable[[], dict[str, Any]] = dict
    payload: bytes | None = None  # data, marshalled, when it came from the cache
    packed: bytes | None = None  # ``root`` as the cache holds it, until a change needs it

    def grouping(self) -> Grouping | None:
        """The file's grouping, unpacked from the cache on first use: an edit that
        changes nothing (a Conflict of the table's cards) never decodes it, nor imports
        the text splicer that does (issue 40 item 3)."""
        if self.root is None and self.packed is not None:
            from d2d_cli.session.cache import unpack

            self.root, self.packed = unpack(self.packed), None
        return self.root


@record(frozen=False)
class _Pending:
    """A change ready to commit: the state it starts from and the text it writes."""

    state: _State
    new_text: str
    new_data: dict[str, Any]
    new_root: Grouping | None
    command: str
    summary: str
    op: str = "do"
    ref: int | None = None
    lookup: bool = False  # a session created by a lookup: someone else's is as good
    cached: list[Slot] = field(default_factory=list)
    # what the command did as typed data (the journal entry's ``rec``): Transaction.record
    record: dict[str, Any] = field(default_factory=dict)


class Scope:
    """One CLI command's pending changes: the boundary commits them when the command
    has succeeded, and drops them (releasing the locks) otherwise."""

    def __init__(self, commit: Callable[[_Pending], None]) -> None:
        self._commit = commit
        self.pending: dict[Path, _Pending] = {}
        self.locks = contextlib.ExitStack()
        self.after: list[Callable[[], None]] = []

    def claim(self, real: Path) -> None:
        """Refuse a change to ``real`` when this scope holds another file's change."""
        for other in self.pending:
            if other != real:
                raise BadInput(
                    f"one command or `with Session(...)` block changes one session: it "
                    f"has changed {other}, so it cannot change {real} too (nothing was "
                    "changed there; use one block per session)")

    def hold(self, real: Path, pending: _Pending) -> None:
        """Keep ``pending`` until the scope commits (one session file per scope)."""
        self.claim(real)
        self.pending[real] = pending

    def commit(self) -> None:
        try:
            for p in self.pending.values():
                self._commit(p)
            for action in self.after:
                action()
        finally:
            self.close()

    def close(self) -> None:
        self.pending.clear()
        self.after.clear()
        self.locks.close()


class _Stack(threading.local):
    """This thread's open scopes, innermost last."""

    def __init__(self) -> None:
        self.scopes: list[Scope] = []


_local = _Stack()


def _stack() -> list[Scope]:
    """This thread's open scopes (another thread's are never seen)."""
    return _local.scopes


def _scope() -> Scope | None:
    scopes = _local.scopes
    return scopes[-1] if scopes else None


def _scope_pending(path: Path) -> bool:
    scope = _scope()
    return scope is not None and _real(path) in scope.pending


def _after_commit(action: Callable[[], None]) -> None:
    scope = _scope()
    if scope is None:
        action()
    else:
        scope.after.append(action)


