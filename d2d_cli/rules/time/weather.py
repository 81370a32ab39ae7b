"""Weather (000 "Weather"): wind direction and speed from Fate reveals.

"Direction - Reveal Conflict d8 - N, S, E, W, NE, NW, SE, SW" — the d8 reading of
``rules.deck.dice`` (suit 1–4, +4 if Lower; a Wild is redrawn), 1 → N … 8 → SW.
"Wind Velocity - Reveal 3xConflict. For each J, Q, K, or A revealed, add 10km/hr and
draw again." — three reveals; each J, Q, K or A adds 10 km/h and one more reveal
(which can add again). So the speed is 10 km/h × the number of J, Q, K and A revealed
before the third other card (a 2–10 or a Wild).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import NotFound
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, to_json
from d2d_cli.rules.deck import dice
from d2d_cli.rules.deck.cards import Card, parse_card
from d2d_cli.rules.scale.stats import canonical

COMPASS = ("N", "S", "E", "W", "NE", "NW", "SE", "SW")
HIGH = ("J", "Q", "K", "A")
STEP_KPH = 10
FIRST_REVEALS = 3


@cache
def beaufort_table() -> list[dict[str, Any]]:
    return list(tables.load("beaufort")["force"])


def beaufort(kph: float) -> dict[str, Any]:
    for row in beaufort_table():
        if row["from"] <= kph < row["below"]:
            return {"number": row["number"], "name": row["name"]}
    raise ValueError(kph)  # pragma: no cover - the table covers 0…100000


def speed_stat(kph: int, convention: str = "001") -> str | None:
    """The wind's Speed stat. 001 p.10: "Speed - 5x0 = 5kph", "4x1 = 40kph" (km/h at any
    speed); 000 "Stats > Speed": "Below 20 kph - Running Speed in m/s". Calm: none."""
    if kph <= 0:
        return None
    if convention == "000" and kph < 20:
        return str(canonical(kph / 3.6, 0))
    return str(canonical(kph, 0))


def is_high(card: Card) -> bool:
    return not card.is_wild and card.rank in HIGH


def direction(reveal: Callable[[], Card]) -> tuple[str, list[Card]]:
    rolled = dice.roll(dice.spec(8), reveal)
    assert rolled.value is not None  # dice.roll returns a value or raises
    return COMPASS[rolled.value - 1], rolled.cards


def velocity(reveal: Callable[[], Card]) -> tuple[int, list[Card]]:
    """Reveal 3; each J, Q, K or A adds 10 km/h and draws again."""
    pending, speed = FIRST_REVEALS, 0
    used: list[Card] = []
    while pending:
        card = reveal()
        used.append(card)
        pending -= 1
        if is_high(card):
            speed += STEP_KPH
            pending += 1
    return speed, used


@record
class Wind(Result):
    """``weather wind``: the wind revealed — direction, speed (km/h, its Beaufort name and
    number, its Speed stat; None when calm) and the cards read, direction's first."""

    direction: str
    speed_kph: int
    beaufort: str
    beaufort_number: int
    speed_stat: str | None
    cards: tuple[Card, ...]
    direction_cards: tuple[str, ...]
    speed_cards: tuple[str, ...]

    def state(self) -> dict[str, Any]:
        """What the session keeps as the scene's weather (TOML has no null)."""
        return {k: v for k, v in to_json(self).items() if v is not None}


@record
class WeatherShown(Result):
    """``weather show``: the scene's weather as stored."""

    direction: str
    speed_kph: int
    beaufort: str
    beaufort_number: int
    speed_stat: str | None
    direction_cards: tuple[str, ...]
    speed_cards: tuple[str, ...]
    cards: tuple[Card, ...]


def wind(reveal: Callable[[], Card], convention: str = "001") -> Wind:
    """Direction (a d8), then velocity."""
    heading, dir_cards = direction(reveal)
    kph, speed_cards = velocity(reveal)
    force = beaufort(kph)
    return Wind(heading, kph, force["name"], force["number"], speed_stat(kph, convention),
                tuple(dir_cards + speed_cards), tuple(c.code for c in dir_cards),
                tuple(c.code for c in speed_cards))


def shown(stored: dict[str, Any] | None) -> WeatherShown:
    """The weather the session keeps (``weather show``)."""
    if not stored:
        raise NotFound("no weather yet: reveal it with d2d weather wind")
    return WeatherShown(str(stored["direction"]), int(stored["speed_kph"]),
                        str(stored["beaufort"]), int(stored["beaufort_number"]),
                        stored.get("speed_stat"), tuple(stored["direction_cards"]),
                        tuple(stored["speed_cards"]),
                        tuple(parse_card(c["code"]) for c in stored["cards"]))


def speed_distribution(deck: int = 54, high: int = 16) -> dict[int, Fraction]:
    """The exact chance of each wind speed from a full shuffled Fate deck (16 of the
    54 cards are J, Q, K or A; the 2–10s and the Wilds are "other"): the speed is
    10·k km/h when the first k+3 cards hold k high and 3 other cards and the last of
    them is an other card — P(k) = C(16, k)·C(38, 3)/C(54, k+3) · 3/(k+3)."""
    low = deck - high
    return {STEP_KPH * k: Fraction(comb(high, k) * comb(low, 3), comb(deck, k + 3))
            * Fraction(3, k + 3) for k in range(high + 1)}
