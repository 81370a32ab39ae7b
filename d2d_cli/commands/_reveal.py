"""Cards from the table or the Fate deck: the ``--card`` option, its parsing, and the
one revealer every card-revealing command reads through."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from d2d_cli import session
from d2d_cli.commands._complete import complete_cards
from d2d_cli.commands._state import edit
from d2d_cli.rules.deck.cards import Card, parse_card

if TYPE_CHECKING:
    from d2d_cli.rules.deck.fate import Revealer

R = TypeVar("R")

CardOpt = Annotated[
    list[str] | None,
    typer.Option("--card", "-c", metavar="CARD", autocompletion=complete_cards,
                 help="Table mode: a card drawn at the table (e.g. QH^, 10sv, RW); repeat "
                      "for more. The virtual deck is not touched."),
]



def cards(values: list[str] | None) -> list[Card] | None:
    """Parse ``--card`` values; None when table mode is not used."""
    if not values:
        return None
    return [parse_card(v) for v in values]


# Every card-revealing command reads either the session's Fate deck or the cards drawn
# at the table (--card): ``reveals`` is the one path. Running out of table cards raises
# ``fate.OutOfCards`` from inside the rule; too many cards is refused when it ends.


@contextlib.contextmanager
def reveals(tx: session.Transaction | None, table: list[Card] | None) -> Iterator[Revealer]:
    """A ``rules.deck.fate.Revealer`` over the session's Fate deck (``tx``), or over the
    ``table`` cards. On a clean exit, leftover table cards are refused and the deck is
    stored with what it revealed (the last reveal)."""
    from d2d_cli.rules.deck import fate

    if table is not None:
        reveal = fate.Revealer(None, None, table)
    else:
        assert tx is not None, "the Fate deck needs a session transaction"
        reveal = fate.Revealer(fate.Deck.from_state(tx.data.get("fate")), tx.rng())
    yield reveal
    reveal.finish()
    if tx is not None and reveal.deck is not None and reveal.used:
        reveal.deck.last = reveal.used
        tx.put("fate", reveal.deck.to_state())


def with_reveals(ctx: typer.Context, table: list[Card] | None,
                 body: Callable[[Revealer], R],
                 note: Callable[[R, Revealer], str] | None = None) -> tuple[R, Revealer]:
    """Run ``body(reveal)`` on the Fate deck (saved and journalled) or on the table's
    cards (read only). Returns body's result and the revealer. ``note(result, reveal)``:
    what the journal adds (how a card was read), so the log says what was shown."""
    if table is not None:
        with reveals(None, table) as reveal:
            return body(reveal), reveal
    with edit(ctx) as tx, reveals(tx, None) as reveal:
        out = body(reveal)
        tx.summary = "revealed " + " ".join(x.code for x in reveal.used)
        extra = note(out, reveal) if note is not None else ""
        if extra:
            tx.summary += f"; {extra}"
    return out, reveal


