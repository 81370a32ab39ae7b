"""Reaching the session from a command: the session file the global options name, its
data for a lookup, its ``[rules]`` parsed, and the :class:`~d2d_cli.operations.Target` an
operation takes (an edit is always an operation's: d2d_cli/operations)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from d2d_cli import session
from d2d_cli.commands._app import label, settings
from d2d_cli.operations import Target

if TYPE_CHECKING:
    from d2d_cli.rules.core.options import Options


def path(ctx: typer.Context) -> Path:
    return session.resolve(settings(ctx).session)


def options(ctx: typer.Context, data: dict[str, Any]) -> Options:
    """The session's ``[rules]``, parsed and checked (a bad hand edit: exit 3, the file
    and key named, before anything changes)."""
    return Target(settings(ctx).session).options(data)


def settings_path(ctx: typer.Context) -> Path:
    """The session file of an existing session (a typo is refused with the nearest
    names; nothing is created)."""
    return session.locate(settings(ctx).session)[0]


def read(ctx: typer.Context) -> dict[str, Any]:
    """The session's data for a lookup (creates the default session on first use; a
    name that does not exist is refused with the nearest names)."""
    return target(ctx).read()


def target(ctx: typer.Context) -> Target:
    """The session this command works on, as an operation takes it (d2d_cli.operations):
    the global ``--session`` and ``--seed``, and the command line as the journal's label."""
    s = settings(ctx)
    return Target(s.session, s.seed, label(ctx))
