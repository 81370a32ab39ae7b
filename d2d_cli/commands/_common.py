"""What every command module shares: the ``--json`` and ``--card`` options and the
way to reach the session. Kept tiny so importing a command group stays cheap."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import session
from d2d_cli.rules.cards import Card, parse_card

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")]
CardOpt = Annotated[
    list[str] | None,
    typer.Option("--card", "-c", metavar="CARD",
                 help="Table mode: a card drawn at the table (e.g. QH^, 10sv, RW); repeat "
                      "for more. The virtual deck is not touched."),
]


_HELP = {"help_option_names": ["-h", "--help"]}


def group(help: str) -> typer.Typer:
    """A command group. Help is plain text (no Rich panels): it renders in ~half the
    time, and looks the same in every group."""
    return typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=None,
                       add_completion=False, context_settings=_HELP)


def single(help: str) -> typer.Typer:
    """An app holding one command (``d2d hit``, ``d2d status``…)."""
    return typer.Typer(help=help, rich_markup_mode=None, add_completion=False,
                       context_settings=_HELP)


def settings(ctx: typer.Context) -> Any:
    obj = ctx.find_root().obj
    if obj is None:  # a command app invoked on its own (tests of one group)
        from d2d_cli.cli import Settings

        obj = Settings()
    return obj


def path(ctx: typer.Context) -> Path:
    return session.resolve(settings(ctx).session)


def read(ctx: typer.Context) -> dict[str, Any]:
    """The session's data for a lookup (creates the default session on first use)."""
    s = settings(ctx)
    return session.read(session.resolve(s.session), seed=s.seed)


@contextlib.contextmanager
def edit(ctx: typer.Context, command: str) -> Iterator[session.Transaction]:
    """A locked read-modify-write of the session, journalled as ``command``."""
    s = settings(ctx)
    with session.edit(session.resolve(s.session), command, seed=s.seed) as tx:
        yield tx


def cards(values: list[str] | None) -> list[Card] | None:
    """Parse ``--card`` values; None when table mode is not used."""
    if not values:
        return None
    return [parse_card(v) for v in values]


def command_line(name: str, *parts: object) -> str:
    """The journal's label: ``fate draw 3``."""
    return " ".join([name, *(str(p) for p in parts if p not in (None, "", False))])
