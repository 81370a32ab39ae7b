"""Conflict: two approaches meet, the chart says who wins (001 p.28 "Conflict").

"Compare cards to resolve tests: Fast - Win vs Strong or Evade. Hit and Draw a card.
Strong - Win vs Block or Counter. Hit. Block - Keep Block and Draw a card. Win vs
Fast or Wild. Evade - Win vs Strong. Move:+2 (Win or Lose). Counter - Win vs Fast or
Wild. Counterattack with a Fast or Strong. Wild - Win vs Fast or Strong. Draw from
Discard. Always Shuffle." and "IF both Fast or both Strong THEN use Rank. IF 2-10 THEN
subtract Level Bonus (min 2). A > J > Q > K > 2 > 3 > ... > 10. IF Tied THEN Both Win."

The chart, the card → approach mapping and the effects are data
(``tables/conflict.toml``). Outcomes: ``"a"``, ``"b"``, ``"both"`` (a rank tie),
``"tie"`` (neither wins), and in the chart, or when a same-approach pair has no cards
to compare, ``"rank"`` (decided by the rank tiebreak).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.cards import Card, parse_card

READINGS = ("001", "000")
FATE_ORIENTATIONS = ("color", "card")
OUTCOMES = ("a", "b", "both", "tie", "rank")


@cache
def table() -> dict[str, Any]:
    return tables.load("conflict")


def approaches() -> tuple[str, ...]:
    return tuple(table()["approaches"])


def check_reading(value: object) -> str:
    """The ``[rules] conflict_chart`` option: "001" (default) or "000"."""
    text = str(value)
    if text not in READINGS:
        raise BadInput(f'[rules] conflict_chart must be "001" or "000", not {value!r}')
    return text


def check_fate_orientation(value: object) -> str:
    """The ``[rules] fate_orientation`` option: "color" (default) or "card"."""
    text = str(value)
    if text not in FATE_ORIENTATIONS:
        raise BadInput(f'[rules] fate_orientation must be "color" or "card", not {value!r}')
    return text


def chart(reading: str = "001") -> dict[str, dict[str, str]]:
    """``chart[a][b]``: the outcome of approach ``a`` against ``b`` for every pair."""
    wins = table()["wins"][check_reading(reading)]
    same = table()["tiebreak"]["same_approach"]
    out: dict[str, dict[str, str]] = {}
    for a in approaches():
        out[a] = {}
        for b in approaches():
            a_wins, b_wins = b in wins[a], a in wins[b]
            if a == b and a in same:
                out[a][b] = "rank"
            elif a_wins and b_wins:
                out[a][b] = "both"
            else:
                out[a][b] = "a" if a_wins else "b" if b_wins else "tie"
    return out


def approach_of(card: Card, *, by_color: bool = False) -> str:
    """A card's approach: Upper Wands/Coins Strong, Cups/Swords Fast; Lower Wands/Cups
    Block, Coins Counter, Swords Evade; a joker Wild. With ``by_color`` the card's colour
    decides the orientation (000 "3) Reveal": "Non-Player Units reveal a Fate where Black
    means Upper and Red means Lower")."""
    if card.is_wild:
        return "wild"
    assert card.suit is not None
    upper = card.color == "black" if by_color else card.upper
    return str(table()["card"]["upper" if upper else "lower"][card.suit])


@dataclass(frozen=True)
class SideSpec:
    """One side as typed: an approach, a card, or ``fate`` (revealed later)."""

    text: str
    source: str  # "approach", "card" or "fate"
    approach: str | None = None
    card: Card | None = None


def parse_side(text: str) -> SideSpec:
    word = text.strip().lower()
    if word in approaches():
        return SideSpec(text, "approach", word)
    if word == "fate":
        return SideSpec(text, "fate")
    try:
        card = parse_card(text)
    except BadInput:
        raise BadInput(
            f"unknown side {text!r}: give an approach ({', '.join(approaches())}), a card "
            "with orientation (e.g. 7S^, QHv, RW) or fate"
        ) from None
    return SideSpec(text, "card", approach_of(card), card)


def _rank_key(card: Card, bonus: int) -> tuple[int, int]:
    """Smaller is better: A, J, Q, K, then 2 … 10 after the Level Bonus (min 2)."""
    royals = table()["tiebreak"]["royals"]
    if card.rank in royals:
        return royals.index(card.rank), 0
    assert card.number is not None
    adjusted = max(2, card.number - bonus)
    return len(royals) + adjusted - 2, adjusted


def tiebreak(card_a: Card, card_b: Card, level_a: int, level_b: int) -> dict[str, Any]:
    """Both Fast or both Strong: compare Rank, the higher level's 2–10 rank lowered by
    the difference of levels (001 p.5 "Level Bonus"), A > J > Q > K > 2 > … > 10."""
    bonus_a, bonus_b = max(0, level_a - level_b), max(0, level_b - level_a)
    key_a, key_b = _rank_key(card_a, bonus_a), _rank_key(card_b, bonus_b)
    outcome = "both" if key_a[0] == key_b[0] else "a" if key_a[0] < key_b[0] else "b"

    def side(card: Card, key: tuple[int, int], bonus: int) -> dict[str, Any]:
        normal = card.rank not in table()["tiebreak"]["royals"]
        return {"rank": card.rank, "level_bonus": bonus if normal else 0,
                "adjusted": key[1] if normal else card.rank}

    return {"a": side(card_a, key_a, bonus_a), "b": side(card_b, key_b, bonus_b),
            "outcome": outcome}


def effects(approach: str, won: bool) -> list[dict[str, str]]:
    """What a side gets: its win effects when it wins, its always-effects anyway."""
    spec = table()["effects"][approach]
    keys = [*(spec["win"] if won else []), *spec["always"]]
    return [{"key": k, "text": table()["effect_text"][k]} for k in keys]


def check_level(level: int, what: str) -> int:
    if level < 0:
        raise BadInput(f"{what} must be a whole number 0 or more, not {level}")
    return level


def resolve(specs: list[SideSpec], reveal: Callable[[], Card], *,
            level_a: int = 0, level_b: int = 0, reading: str = "001",
            fate_orientation: str = "color") -> dict[str, Any]:
    """Resolve a conflict between two sides. ``reveal`` gives the Fate card of each
    ``fate`` side in turn (A first), or None when table mode ran out of cards."""
    if len(specs) != 2:
        raise BadInput("a conflict has two sides: SIDE_A SIDE_B (or 'chart')")
    check_level(level_a, "--level-a")
    check_level(level_b, "--level-b")
    by_color = check_fate_orientation(fate_orientation) == "color"
    sides: list[SideSpec] = []
    for spec in specs:
        if spec.source == "fate":
            card = reveal()
            if by_color:  # the card is turned the way its colour says
                card = card.flipped(card.color == "black")
            spec = SideSpec(spec.text, "fate", approach_of(card), card)
        sides.append(spec)
    a, b = sides
    assert a.approach is not None and b.approach is not None
    outcome = chart(reading)[a.approach][b.approach]
    broken = None
    if outcome == "rank" and a.card is not None and b.card is not None:
        broken = tiebreak(a.card, b.card, level_a, level_b)
        outcome = broken["outcome"]

    def side_json(s: SideSpec, level: int) -> dict[str, Any]:
        return {"input": s.text, "source": s.source, "approach": s.approach,
                "card": s.card.to_json() if s.card else None, "level": level}

    return {
        "approach_a": a.approach,
        "approach_b": b.approach,
        "outcome": outcome,
        "side_a": side_json(a, level_a),
        "side_b": side_json(b, level_b),
        "tiebreak": broken,
        "effects": {"a": effects(a.approach, outcome in ("a", "both")),
                    "b": effects(b.approach, outcome in ("b", "both"))},
        "conflict_chart": reading,
    }
