"""What every command module shares: the ``--json`` and ``--card`` options and the
way to reach the session. Kept tiny so importing a command group stays cheap."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import session
from d2d_cli.errors import BadInput
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


def settings_path(ctx: typer.Context) -> Path:
    """The session file of an existing session (a typo is refused with the nearest
    names; nothing is created)."""
    return session.locate(settings(ctx).session)[0]


def read(ctx: typer.Context) -> dict[str, Any]:
    """The session's data for a lookup (creates the default session on first use; a
    name that does not exist is refused with the nearest names)."""
    s = settings(ctx)
    where, create = session.locate(s.session)
    return session.read(where, seed=s.seed, create=create)


@contextlib.contextmanager
def edit(ctx: typer.Context, command: str) -> Iterator[session.Transaction]:
    """A locked read-modify-write of the session, journalled as ``command``."""
    s = settings(ctx)
    where, create = session.locate(s.session)
    with session.edit(where, command, seed=s.seed, create=create) as tx:
        yield tx


def cards(values: list[str] | None) -> list[Card] | None:
    """Parse ``--card`` values; None when table mode is not used."""
    if not values:
        return None
    return [parse_card(v) for v in values]


def command_line(name: str, *parts: object) -> str:
    """The journal's label: ``fate draw 3``."""
    return " ".join([name, *(str(p) for p in parts if p not in (None, "", False))])


# --------------------------------------------------------------------------- reveals
# Every card-revealing command reads either the session's Fate deck or the cards drawn
# at the table (--card); these four helpers are the one way commands do that.


def revealer(tx: session.Transaction, table: list[Card] | None) -> Any:
    """A ``rules.fate.Revealer`` over the session's Fate deck, or over ``table`` cards."""
    from d2d_cli.rules import fate

    if table is not None:
        return fate.Revealer(None, None, table)
    return fate.Revealer(fate.Deck.from_state(tx.data.get("fate")), tx.rng())


def save_reveals(tx: session.Transaction, reveal: Any) -> None:
    """Store the deck after reveals (and remember them as the last reveal)."""
    if reveal.deck is not None and reveal.used:
        reveal.deck.last = reveal.used
        tx.put("fate", reveal.deck.to_state())


def check_table(reveal: Any, table: list[Card] | None, needed: int, what: str) -> None:
    """Table mode: refuse (changing nothing) when the cards ran out or were too many."""
    if table is None:
        return
    if reveal.exhausted:
        raise BadInput(f"{what} needs at least {max(needed, len(reveal.used) + 1)} card(s) "
                       f"with --card; {len(table)} given (a Wild or a redraw needs more)")
    if reveal.leftover():
        raise BadInput(f"{len(table)} cards given with --card, only {len(reveal.used)} needed")


def with_reveals(ctx: typer.Context, label: str, table: list[Card] | None,
                 body: Callable[[Any], Any]) -> tuple[Any, Any]:
    """Run ``body(reveal)`` on the Fate deck (saved and journalled as ``label``) or on
    the table's cards (read only). Returns body's result and the revealer."""
    if table is not None:
        from d2d_cli.rules import fate

        reveal = fate.Revealer(None, None, table)
        return body(reveal), reveal
    with edit(ctx, label) as tx:
        reveal = revealer(tx, None)
        out = body(reveal)
        save_reveals(tx, reveal)
        tx.summary = "revealed " + " ".join(x.code for x in reveal.used)
    return out, reveal
