"""Undo and redo: the journal beside the session (docs/architecture.md "The journal")."""

from __future__ import annotations

from d2d_cli import session
from d2d_cli.operations import Target
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result


@record
class Step(Result):
    """The command an undo reverted (or a redo re-applied), as the journal holds it."""

    command: str | None
    at: str | None
    summary: str


def undo(t: Target, *, force: bool = False) -> Step:
    """``d2d session undo [--force]``: the state before the last change not yet undone."""
    return Step(**session.undo(t.existing(), force=force))


def redo(t: Target, *, force: bool = False) -> Step:
    """``d2d session redo [--force]``: re-apply what the last undo reverted."""
    return Step(**session.redo(t.existing(), force=force))
