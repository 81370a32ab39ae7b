"""Commit last: the stack of open scopes (a CLI command's, a ``with Session(...)``
block's). A change made inside a scope waits, with its lock held, until the scope
commits; the stack is per thread."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from d2d_cli.rules.core.record import field, record
from d2d_cli.session.cache import Slot
from d2d_cli.session.files import real as _real


@record(frozen=False)
class _State:
    """A session file as a command found it (under the lock)."""

    real: Path
    text: str
    raw: bytes
    digest: str
    data: dict[str, Any]
    root: frozenset[str] | None
    like: os.stat_result | None
    creating: bool = False
    twin: Callable[[], dict[str, Any]] = dict
    payload: bytes | None = None  # data, marshalled, when it came from the cache


@record(frozen=False)
class _Pending:
    """A change ready to commit: the state it starts from and the text it writes."""

    state: _State
    new_text: str
    new_data: dict[str, Any]
    new_root: frozenset[str] | None
    command: str
    summary: str
    op: str = "do"
    ref: int | None = None
    lookup: bool = False  # a session created by a lookup: someone else's is as good
    cached: list[Slot] = field(default_factory=list)


class Scope:
    """One CLI command's pending changes: the boundary commits them when the command
    has succeeded, and drops them (releasing the locks) otherwise."""

    def __init__(self, commit: Callable[[_Pending], None]) -> None:
        self._commit = commit
        self.pending: dict[Path, _Pending] = {}
        self.locks = contextlib.ExitStack()
        self.after: list[Callable[[], None]] = []

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


_scopes: list[Scope] = []


def _scope() -> Scope | None:
    return _scopes[-1] if _scopes else None


def _scope_pending(path: Path) -> bool:
    scope = _scope()
    return scope is not None and _real(path) in scope.pending


def _after_commit(action: Callable[[], None]) -> None:
    scope = _scope()
    if scope is None:
        action()
    else:
        scope.after.append(action)

