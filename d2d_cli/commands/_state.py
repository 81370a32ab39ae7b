"""The session a command works on, as an operation takes it: the global ``--session``
and ``--seed``, and the journal's label for the command line (an edit, a read, the
``[rules]`` table are always an operation's: d2d_cli/operations)."""

import typer

from d2d_cli.commands._app import label, settings
from d2d_cli.operations import Target


def target(ctx: typer.Context) -> Target:
    """The session this command works on, as an operation takes it (d2d_cli.operations):
    the global ``--session`` and ``--seed``, and the command line as the journal's label
    (built only if the command journals a change: a lookup never needs it)."""
    s = settings(ctx)
    return Target(s.session, s.seed, lambda: label(ctx))
