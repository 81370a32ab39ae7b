"""``d2d odds weather``: the wind ``weather wind`` would reveal next (000 "Weather"):
its direction read as a d8 (``rules.deck.dice.read``), then its velocity from the cards
left (``rules.time.weather``'s constants and ``is_high``)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import Card
from d2d_cli.rules.odds.walk import DeckView, Key, Piles, card_counts, oriented, prob, reveal_odds


@record
class DirectionRow(Result):
    direction: str
    probability: Probability


@record
class SpeedRow(Result):
    speed_kph: int
    beaufort: str
    probability: Probability


@record
class WeatherOdds(Result):
    """``d2d odds weather``: the wind ``weather wind`` would reveal next."""

    deck: DeckView
    direction: tuple[DirectionRow, ...]
    speed: tuple[SpeedRow, ...]
    mean_kph: Fraction
    mean_kph_value: float


def weather_odds(piles: Piles, deck: DeckView) -> WeatherOdds:
    """Direction (a d8, ``dice.read``), then velocity from the cards left: reveal
    ``weather.FIRST_REVEALS``; each card ``weather.is_high`` adds ``STEP_KPH`` and one
    more reveal (``weather.velocity``)."""
    from d2d_cli.rules.deck import dice
    from d2d_cli.rules.time import weather

    d8 = dice.spec(8)

    def read_dir(card: Card) -> Key:
        return (dice.read(d8, [card]), weather.is_high(card))

    def step_dir(_: Any, k: tuple[int | None, bool]) -> tuple[bool, Any]:
        return (False, None) if k[0] is None else (True, weather.COMPASS[k[0] - 1])

    first = reveal_odds(card_counts(piles.pile), card_counts(piles.discard), oriented(read_dir),
                        None, step_dir, keep_deck=True)

    def step_speed(state: tuple[int, int], high: bool) -> tuple[bool, Any]:
        pending, kph = state
        pending -= 1
        if high:
            kph += weather.STEP_KPH
            pending += 1
        return (True, kph) if pending == 0 else (False, (pending, kph))

    directions: dict[str, Fraction] = {}
    speeds: dict[int, Fraction] = {}
    memo: dict[Any, dict[Any, Fraction]] = {}
    for (heading, pile, discard), p in first.items():
        directions[heading] = directions.get(heading, 0) + p
        sig = (_high_sig(pile), _high_sig(discard))
        if sig not in memo:
            memo[sig] = reveal_odds(dict(pile), dict(discard),
                                    lambda c: [(weather.is_high(c), 1)],
                                    (weather.FIRST_REVEALS, 0), step_speed)
        for kph, q in memo[sig].items():
            speeds[kph] = speeds.get(kph, 0) + p * q
    mean = sum((k * p for k, p in speeds.items()), Fraction(0))
    return WeatherOdds(
        deck=deck,
        direction=tuple(DirectionRow(d, prob(directions[d])) for d in weather.COMPASS
                        if d in directions),
        speed=tuple(SpeedRow(k, weather.beaufort(k)["name"], prob(p))
                    for k, p in sorted(speeds.items())),
        mean_kph=mean, mean_kph_value=float(mean))


def _high_sig(counts: Iterable[tuple[Card, int]]) -> tuple[int, int]:
    from d2d_cli.rules.time import weather

    hi = sum(n for c, n in counts if weather.is_high(c))
    return hi, sum(n for _, n in counts) - hi
