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

from dataclasses import dataclass
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.cards import Card, parse_card
from d2d_cli.rules.fate import Revealer
from d2d_cli.rules.result import Result

OUTCOMES = ("a", "b", "both", "tie", "rank")


@cache
def table() -> dict[str, Any]:
    return tables.load("conflict")


def approaches() -> tuple[str, ...]:
    return tuple(table()["approaches"])


def chart(reading: str = "001") -> dict[str, dict[str, str]]:
    """``chart[a][b]``: the outcome of approach ``a`` against ``b`` for every pair.
    ``reading`` is ``[rules] conflict_chart`` ("001" or "000", checked by rules.options)."""
    wins = table()["wins"][reading]
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


@dataclass(frozen=True)
class Chart(Result):
    """``d2d conflict chart``: the whole chart of one reading."""

    conflict_chart: str
    approaches: tuple[str, ...]
    chart: dict[str, dict[str, str]]


def chart_result(reading: str, table_cards: list[Card] | None = None) -> Chart:
    if table_cards:
        raise BadInput("--card is for fate sides; the chart reveals nothing")
    return Chart(reading, approaches(), chart(reading))


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


@dataclass(frozen=True)
class Matchup:
    """The two sides as typed, checked: ``reveals`` says whether a Fate card is needed."""

    a: SideSpec
    b: SideSpec

    @property
    def reveals(self) -> bool:
        return self.a.source == "fate" or self.b.source == "fate"


def matchup(sides: list[str], table_cards: list[Card] | None = None) -> Matchup:
    """``SIDE_A SIDE_B`` (each an approach, a card or ``fate``); cards drawn at the
    table (``--card``) are only for ``fate`` sides."""
    if len(sides) != 2:
        raise BadInput("a conflict has two sides: SIDE_A SIDE_B (or 'chart')")
    m = Matchup(parse_side(sides[0]), parse_side(sides[1]))
    if table_cards is not None and not m.reveals:
        raise BadInput("--card is for fate sides; give the cards as sides instead")
    return m


# --------------------------------------------------------------------------- tiebreak


@dataclass(frozen=True)
class RankSide(Result):
    """One side of a rank tiebreak: its rank, the Level Bonus it gains, and the rank it
    is compared with (a 2–10 after the bonus; a royal as it is)."""

    rank: str
    level_bonus: int
    adjusted: int | str


@dataclass(frozen=True)
class Tiebreak(Result):
    a: RankSide
    b: RankSide
    outcome: str


def _rank_key(card: Card, own_bonus: int, rival_bonus: int,
              rule: str) -> tuple[int, int | str]:
    """Smaller is better: A, J, Q, K, then 2 … 10. "001": the side's own 2–10 rank minus
    its Level Bonus, min 2. "000": its rank plus the Rival's Initiative, no minimum."""
    royals = table()["tiebreak"]["royals"]
    if card.rank in royals:
        return royals.index(card.rank), card.rank
    assert card.number is not None
    adjusted = card.number + rival_bonus if rule == "000" else max(2, card.number - own_bonus)
    return len(royals) + adjusted - 2, adjusted


def tiebreak(card_a: Card, card_b: Card, level_a: int, level_b: int,
             rule: str = "001") -> Tiebreak:
    """Both Fast or both Strong: compare Rank, A > J > Q > K > 2 > … > 10. The higher
    level's Level Bonus is the difference of levels (001 l.200). ``rule`` is ``[rules]
    level_bonus``: "001" (l.767 "IF 2-10 THEN subtract Level Bonus (min 2)") or "000"
    (000 l.460 "Apply Initiative to Rival's Conflict Rank": added to the Rival's 2–10
    rank, with no minimum or maximum)."""
    bonus_a, bonus_b = max(0, level_a - level_b), max(0, level_b - level_a)
    key_a = _rank_key(card_a, bonus_a, bonus_b, rule)
    key_b = _rank_key(card_b, bonus_b, bonus_a, rule)
    outcome = "both" if key_a[0] == key_b[0] else "a" if key_a[0] < key_b[0] else "b"

    def side(card: Card, key: tuple[int, int | str], bonus: int) -> RankSide:
        normal = card.rank not in table()["tiebreak"]["royals"]
        return RankSide(card.rank, bonus if normal else 0, key[1])

    return Tiebreak(side(card_a, key_a, bonus_a), side(card_b, key_b, bonus_b), outcome)


# --------------------------------------------------------------------------- resolve


@dataclass(frozen=True)
class Effect(Result):
    key: str
    text: str


@dataclass(frozen=True)
class Effects(Result):
    a: tuple[Effect, ...]
    b: tuple[Effect, ...]


def effects(approach: str, won: bool) -> tuple[Effect, ...]:
    """What a side gets: its win effects when it wins, its always-effects anyway."""
    spec = table()["effects"][approach]
    keys = [*(spec["win"] if won else []), *spec["always"]]
    return tuple(Effect(k, table()["effect_text"][k]) for k in keys)


@dataclass(frozen=True)
class Side(Result):
    input: str
    source: str
    approach: str
    card: Card | None
    level: int


@dataclass(frozen=True)
class Conflict(Result):
    """``d2d conflict SIDE_A SIDE_B``: who wins, the tiebreak if any, what each side gets."""

    approach_a: str
    approach_b: str
    outcome: str
    side_a: Side
    side_b: Side
    tiebreak: Tiebreak | None
    effects: Effects
    conflict_chart: str
    reshuffled: bool


def check_level(level: int, what: str) -> int:
    if level < 0:
        raise BadInput(f"{what} must be a whole number 0 or more, not {level}")
    return level


def resolve(m: Matchup, reveal: Revealer | None, *, level_a: int = 0, level_b: int = 0,
            reading: str = "001", fate_orientation: str = "color",
            level_bonus: str = "001") -> Conflict:
    """Resolve a conflict. ``reveal`` gives the Fate card of each ``fate`` side in turn
    (A first); it is needed only when :attr:`Matchup.reveals`. ``reading``,
    ``fate_orientation`` and ``level_bonus`` are the ``[rules]`` keys of those names."""
    check_level(level_a, "--level-a")
    check_level(level_b, "--level-b")
    by_color = fate_orientation == "color"

    def typed(spec: SideSpec, level: int) -> Side:
        card, approach = spec.card, spec.approach
        if spec.source == "fate":
            assert reveal is not None, "a fate side needs a revealer"
            card = reveal()
            if by_color:  # the card is turned the way its colour says
                card = card.flipped(card.color == "black")
            approach = approach_of(card)
        assert approach is not None
        return Side(spec.text, spec.source, approach, card, level)

    a, b = typed(m.a, level_a), typed(m.b, level_b)
    outcome = chart(reading)[a.approach][b.approach]
    broken = None
    if outcome == "rank" and a.card is not None and b.card is not None:
        broken = tiebreak(a.card, b.card, level_a, level_b, level_bonus)
        outcome = broken.outcome
    return Conflict(
        approach_a=a.approach, approach_b=b.approach, outcome=outcome, side_a=a, side_b=b,
        tiebreak=broken,
        effects=Effects(effects(a.approach, outcome in ("a", "both")),
                        effects(b.approach, outcome in ("b", "both"))),
        conflict_chart=reading,
        reshuffled=reveal.reshuffled if reveal is not None else False,
    )
