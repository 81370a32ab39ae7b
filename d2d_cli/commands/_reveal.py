"""Cards from the table or the Fate deck: the ``--card`` option, its parsing, and the
one revealer every card-revealing command reads through."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from d2d_cli import operations
from d2d_cli.commands._complete import CARD
from d2d_cli.commands._state import target
from d2d_cli.rules.deck.cards import Card

if TYPE_CHECKING:
    from d2d_cli.rules.deck.fate import Revealer

R = TypeVar("R")

CardOpt = Annotated[
    list[str] | None,
    typer.Option("--card", "-c", metavar="CARD", click_type=CARD,
                 help="Table mode: a card drawn at the table (e.g. QH^, 10sv, RW); repeat "
                      "for more. The virtual deck is not touched."),
]



# The one path every card-revealing command reads through lives with the operations
# (d2d_cli.operations): a script's operation and a command reveal alike.
cards = operations.cards
reveals = operations.reveals


def with_reveals(ctx: typer.Context, table: list[Card] | None,
                 body: Callable[[Revealer], R]) -> tuple[R, Revealer]:
    """Run ``body(reveal)`` on the Fate deck (saved and journalled) or on the table's
    cards (read only). Returns body's result and the revealer."""
    return target(ctx).with_reveals(table, body)
