"""Undo and redo: the journal beside the session (docs/architecture.md "The journal")."""

from __future__ import annotations

from typing import Any

from d2d_cli import session
from d2d_cli.operations import Target
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden


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


@record
class Entry(Result):
    """One journal entry as ``session log`` lists it."""

    at: str | None
    command: str | None
    summary: str
    undone: bool
    undoable: bool


@record
class Log(Result):
    """``session log``: the last entries, oldest first."""

    entries: tuple[Entry, ...]


def log(t: Target, last: int = 20) -> Log:
    """``d2d session log [LAST]``: the journal's last entries (what each change was)."""
    return Log(tuple(Entry(**e) for e in session.log(t.path(), max(last, 0))))


@record
class Where(Result):
    """``session path``: the session file, and whether it exists yet."""

    path: str
    exists: bool


def path(t: Target) -> Where:
    """``d2d session path``: the session file."""
    p = t.path()
    return Where(str(p), p.exists())


@record
class Shown(Result):
    """``session show``: the file, its schema, the deck's counts, how many of each thing
    it holds and its ``[rules]``; ``table`` is what the human view reads beyond them."""

    name: str
    path: str
    schema: Any
    created: Any
    fate: dict[str, int]
    sections: dict[str, int]
    rules: dict[str, Any]
    table: Any = hidden(None)  # rules.overview.summary.Summary


def show(t: Target) -> Shown:
    """``d2d session show``: what the session holds."""
    from d2d_cli.rules.overview import summary

    p = t.path()
    data = t.read()
    fate = data.get("fate", {})
    t.options(data)  # a bad hand-edited [rules] is named here too
    return Shown(session.display_name(p), str(p), data.get("schema"),
                 data.get("meta", {}).get("created"),
                 {"remaining": len(fate.get("draw", [])),
                  "discarded": len(fate.get("discard", []))},
                 {k: len(v) for k, v in data.items() if isinstance(v, dict)
                  and k not in ("meta", "rules", "fate")},
                 data.get("rules", {}), summary.summarize(data))
