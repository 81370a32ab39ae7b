"""The Fate deck: draw, shuffle, read as a die (000 "Reference > Fate")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from d2d_cli.operations import Target, cards
from d2d_cli.rules.deck import fate

if TYPE_CHECKING:
    from d2d_cli.rules.deck import dice


def draw(t: Target, count: int = 1, *, peek: bool = False) -> fate.Drawn:
    """``d2d fate draw N [--peek]``: reveal the top N cards (or only look at them)."""
    n = count
    fate.check_count(n)
    if peek:
        return fate.peek(fate.Deck.from_state(t.read().get("fate")), n)
    with t.edit() as tx:
        deck = fate.Deck.from_state(tx.data.get("fate"))
        result = fate.draw(deck, n, tx.rng())
        tx.put("fate", deck.to_state())
        tx.summary = "revealed " + " ".join(x.code for x in result.cards)
    return result


def shuffle(t: Target, *, reset: bool = False) -> fate.DeckCounts:
    """``d2d fate shuffle [--reset]``: the discard pile back into the deck."""
    with t.edit() as tx:
        deck, result = fate.shuffle(tx.data.get("fate"), tx.rng(), reset)
        tx.put("fate", deck.to_state())
        tx.summary = "shuffled all 54 cards"
    return result


def die(t: Target, sides: str, count: int = 1, *, explain: bool = False,
        advantage: bool = False, disadvantage: bool = False,
        card: list[str] | None = None) -> dice.Thrown:
    """``d2d fate die dN``: Fate cards read as a die (a ``rules.deck.dice.Thrown``)."""
    from d2d_cli.rules.deck import dice  # only this operation reads dice

    spec = dice.check(sides, count)
    mode = ("advantage" if advantage and not disadvantage else
            "disadvantage" if disadvantage and not advantage else "normal")
    return t.with_reveals(cards(card), lambda r: dice.throw(spec, count, r, explain, mode))[0]


def coin(t: Target, *, card: list[str] | None = None) -> fate.Coin:
    """``d2d fate coin [--card CARD]``: black is Heads, red is Tails (000 "Fate >
    Randomizing")."""
    return t.with_reveals(cards(card), fate.coin)[0]


def high_card(t: Target, names: list[str], *,
              card: list[str] | None = None) -> fate.HighCard:
    """``d2d fate high-card NAME… [--card CARD]…``: who acts first (000 "Fate > High
    Card")."""
    return t.with_reveals(cards(card), lambda r: fate.high_card(names, r))[0]


def status(t: Target) -> fate.FateStatus:
    """``d2d fate status``: the deck's counts and the last reveal."""
    return fate.status(t.read(shared=True).get("fate"))  # only read (tests/test_play_reads.py)
