"""``d2d odds die dN``: the value of the next Fate die (000 "Reference > Fate >
Randomizing": cards read as dice), each card read by ``rules.deck.dice.read`` — so odds
agree with ``fate die``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import Card
from d2d_cli.rules.odds.walk import FACES, DeckView, Piles, card_counts, oriented, prob, reveal_odds

MAX_DIE_STATES = 6_000  # die_odds: 2^(cards redrawn on one side) × (cards always redrawn)

@record
class ValueRow(Result):
    value: int
    probability: Probability


@record
class DieOdds(Result):
    """``d2d odds die dN``: the chance of each value of the next Fate die."""

    die: str
    deck: DeckView
    values: tuple[ValueRow, ...]
    mean: Fraction
    mean_value: float


def die_odds(n: int, piles: Piles, deck: DeckView) -> DieOdds:
    """The value of ``fate die dN`` read from the next reveals (redraws included), each
    card read by ``dice.read``."""
    from d2d_cli.rules.deck import dice

    spec = dice.spec(n)
    if spec.cards != 1:
        raise BadInput(f"exact odds are offered for the dice read from one card a try "
                       f"(d2…d108); d{n} reads two cards a try")

    def read(card: Card) -> int | None:
        return dice.read(spec, [card])

    # A card redrawn on one side only (d20 reads a d104 and redraws 101–104: four
    # Lower faces) leaves the pile with its other side's value, so the walk must track
    # which of those cards are gone: 2^n states. Refuse before the work when n is big.
    faces = [FACES[f] for f in set(piles.pile) | set(piles.discard)]
    sides = [(read(c.flipped(True)) is None, read(c.flipped(False)) is None) for c in faces]
    one_sided = sum(1 for up, down in sides if up != down)
    always = sum(1 for up, down in sides if up and down)
    if 2**one_sided * (always + 1) > MAX_DIE_STATES:
        raise BadInput(f"d{n} redraws {one_sided} cards on one side only, so its exact "
                       "odds would follow every subset of them: too much work (d2d offers "
                       "them for the printed dice and most others)")

    def step(_: Any, v: int | None) -> tuple[bool, Any]:
        return (False, None) if v is None else (True, v)

    dist = reveal_odds(card_counts(piles.pile), card_counts(piles.discard), oriented(read), None,
                       step)
    mean = sum((v * p for v, p in dist.items()), Fraction(0))
    return DieOdds(die=f"d{n}", deck=deck,
                   values=tuple(ValueRow(v, prob(p)) for v, p in sorted(dist.items())),
                   mean=mean, mean_value=float(mean))
