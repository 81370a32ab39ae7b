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

from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.combat.situation import (
    Assessed,
    Assessor,
    Fighter,
    Modifier,
    Situation,
    Terms,
    Who,
    assess,
    sources,
)
from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.deck import advantage
from d2d_cli.rules.deck.advantage import Standing
from d2d_cli.rules.deck.cards import SUIT_SYMBOL, Card, parse_card, parse_suit

if TYPE_CHECKING:
    from d2d_cli.rules.board.derive import Field, Geometry
    from d2d_cli.rules.deck.fate import Revealer
    from d2d_cli.rules.units.roster import Unit

# Read at every Conflict between units, imported when first read (a Conflict of two
# cards reads no roster and no map): rules.core.lazy_module
if TYPE_CHECKING:
    from d2d_cli.rules.board import derive as _derive
    from d2d_cli.rules.combat import remembered as _remembered
    from d2d_cli.rules.units import roster as _roster
else:
    _derive = lazy_module("d2d_cli.rules.board.derive", globals(), "_derive")
    _remembered = lazy_module("d2d_cli.rules.combat.remembered", globals(), "_remembered")
    _roster = lazy_module("d2d_cli.rules.units.roster", globals(), "_roster")

OUTCOMES = ("a", "b", "both", "tie", "rank")


@cache
def table() -> dict[str, Any]:
    return tables.load("conflict")


@cache
def approaches() -> tuple[str, ...]:
    return tuple(table()["approaches"])


def chart(reading: str = "001") -> dict[str, dict[str, str]]:
    """``chart[a][b]``: the outcome of approach ``a`` against ``b`` for every pair.
    ``reading`` is ``[rules] conflict_chart`` ("001" or "000", checked by rules.core.options)."""
    return {a: dict(row) for a, row in _chart(reading).items()}  # the caller's own copy


@cache  # a pure reading of the table, for each of its few readings (an unknown raises)
def _chart(reading: str) -> dict[str, dict[str, str]]:
    """:func:`chart`, shared: read it, never change it."""
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


@record
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


NON_PLAYER = "Non-Player"  # a unit's `player` in a scene file (000 l.554 "Non Player")


@record
class SideSpec:
    """One side as typed: an approach, a card, or ``fate`` (revealed later); and the unit
    it is, if any (``Archer:fast``, ``"Goblin Scout"``)."""

    text: str
    source: str  # "approach", "card" or "fate"
    approach: str | None = None
    card: Card | None = None
    unit: Unit | None = None


@lru_cache(maxsize=1024)  # a SideSpec without a unit is immutable; sides repeat a lot
def _play(text: str) -> SideSpec | None:
    """An approach, ``fate`` or a card; None if it is none of them."""
    word = text.strip().lower()
    if word in approaches():
        return SideSpec(text, "approach", word)
    if word == "fate":
        return SideSpec(text, "fate")
    try:
        card = parse_card(text)
    except BadInput:
        return None
    return SideSpec(text, "card", approach_of(card), card)


@lru_cache(maxsize=1024)  # a fight's sides are its units' names with a play: a few dozen
def _named_play(text: str) -> tuple[str, SideSpec] | None:
    """``NAME:PLAY`` (an approach, a card or ``fate`` after the last colon): the name,
    stripped, and the play; None for any other text (:func:`parse_side` reads it)."""
    name, sep, what = text.rpartition(":")
    if not (sep and name.strip() and what.strip()):
        return None
    played = _play(what)
    return None if played is None else (name.strip(), played)


@lru_cache(maxsize=1024)  # both readings of a side's text, frozen: one look-up a side
def _read_side(text: str) -> tuple[SideSpec | None, tuple[str, SideSpec] | None]:
    """A side's text read as a play (:func:`_play`), else as ``NAME:PLAY``
    (:func:`_named_play`; None when it is a play) — in :func:`parse_side`'s order."""
    played = _play(text)
    return played, None if played is not None else _named_play(text)


# The side last made of each ``NAME:PLAY`` text, with the Unit it names: a SideSpec is
# frozen and holds its Unit by reference, so the same text naming the very same Unit (a
# fight's live Unit, while its table is the session's) is the same side. The Unit is
# held in the side, so an identity compared is never another object's.
_UNIT_SIDES: dict[str, SideSpec] = {}
_UNIT_SIDES_KEPT = 256


def parse_side(text: str, units: Mapping[str, Unit] | None = None) -> SideSpec:
    """A side: an approach, a card or ``fate``; or a unit of the session as
    ``NAME:APPROACH``, ``NAME:CARD``, ``NAME:fate``, or a bare ``NAME`` — a Non-Player
    unit then reveals a Fate card (001 l.734 "NPCs use a Fate card instead")."""
    played, named = _read_side(text)
    if played is not None:
        return played
    find = _roster.find  # only a unit side needs the roster's code
    if units is None:  # (not ``units or {}``: a roster view's length is a call)
        units = {}
    if named is not None:  # NAME:PLAY, read as below (each text once)
        name = named[0]  # the name as the roster has it: no folding (roster.find's own)
        try:
            unit = units[name]
        except KeyError:
            unit = find(units, name)
        got = _UNIT_SIDES.get(text)
        if got is not None and got.unit is unit:  # this text, this very Unit: as made
            return got
        played = named[1]
        made = SideSpec(text, played.source, played.approach, played.card, unit)
        if len(_UNIT_SIDES) >= _UNIT_SIDES_KEPT:
            _UNIT_SIDES.clear()
        _UNIT_SIDES[text] = made
        return made
    name, sep, what = text.rpartition(":")
    if sep and name.strip() and not what.strip():  # "Goblin Scout:" as completion leaves it
        text = name
    elif sep and name.strip():
        played = _play(what)
        if played is None:
            raise BadInput(f"unknown side {text!r}: after {name.strip()}: give an approach "
                           f"({', '.join(approaches())}), a card (e.g. 7S^) or fate")
        unit = find(units, name.strip())
        return SideSpec(text, played.source, played.approach, played.card, unit)
    folded = {n.lower() for n in units}
    if text.strip().lower() not in folded:
        import difflib

        near = difflib.get_close_matches(text.strip(), list(units), n=3, cutoff=0.5)
        known = (f"did you mean {', '.join(near)}?" if near else
                 f"units: {', '.join(units) if units else 'none yet'}")
        raise BadInput(
            f"unknown side {text!r}: give an approach ({', '.join(approaches())}), a card "
            f"with orientation (e.g. 7S^, QHv, RW), fate, or a unit as NAME or "
            f"NAME:APPROACH ({known})")
    unit = find(units, text.strip())
    from d2d_cli.rules.units.sides import is_player_unit

    if is_player_unit(unit):  # the one answer to "does a person play it" (rules.units.sides)
        raise BadInput(f"{unit.name} is not a Non-Player unit: give its approach or card, "
                       f"e.g. '{unit.name}:fast' or '{unit.name}:7S^'")
    return SideSpec(text, "fate", unit=unit)


@record
class Matchup:
    """The two sides as typed, checked: ``reveals`` says whether a Fate card is needed."""

    a: SideSpec
    b: SideSpec

    @property
    def reveals(self) -> bool:
        return self.a.source == "fate" or self.b.source == "fate"


def unitless(sides: list[str]) -> bool:
    """Whether every side is an approach, a card or ``fate``: a Conflict that names no
    unit (a side's text is read as a play before it is read as a unit's name), so it
    reads no roster, no map and no hand."""
    for text in sides:  # noqa: SIM110 (a loop, not all() over a generator: every Conflict)
        if _play(text) is None:
            return False
    return True


def matchup(sides: list[str], units: Mapping[str, Unit] | None = None) -> Matchup:
    """``SIDE_A SIDE_B`` (each an approach, a card, ``fate`` or a unit)."""
    if len(sides) != 2:
        raise BadInput("a conflict has two sides: SIDE_A SIDE_B (or 'chart')")
    m = Matchup(parse_side(sides[0], units), parse_side(sides[1], units))
    if m.a.unit is not None and m.a.unit is m.b.unit:
        raise BadInput(f"{m.a.unit.name} is on both sides: a Conflict is between two "
                       "sides (001 l.789 \"facing Rival\")")
    return m


# --------------------------------------------------------------------------- tiebreak


@record
class RankSide(Result):
    """One side of a rank tiebreak: its rank, the Level Bonus it gains, and the rank it
    is compared with (a 2–10 after the bonus; a royal as it is)."""

    rank: str
    level_bonus: int
    adjusted: int | str


@record
class Tiebreak(Result):
    a: RankSide
    b: RankSide
    outcome: str


def _rank_key(rank: str, number: int | None, own_bonus: int, rival_bonus: int,
              rule: str) -> tuple[int, int | str]:
    """Smaller is better: A, J, Q, K, then 2 … 10. "001": the side's own 2–10 rank minus
    its Level Bonus, min 2. "000": its rank plus the Rival's Initiative, no minimum.
    ``number``: the card's rank as a number (``Card.number``)."""
    royals = table()["tiebreak"]["royals"]
    if rank in royals:
        return royals.index(rank), rank
    assert number is not None
    adjusted = number + rival_bonus if rule == "000" else max(2, number - own_bonus)
    return len(royals) + adjusted - 2, adjusted


def tiebreak(card_a: Card, card_b: Card, level_a: int, level_b: int,
             rule: str = "001") -> Tiebreak:
    """Both Fast or both Strong: compare Rank, A > J > Q > K > 2 > … > 10. The higher
    level's Level Bonus is the difference of levels (001 l.200). ``rule`` is ``[rules]
    level_bonus``: "001" (l.767 "IF 2-10 THEN subtract Level Bonus (min 2)") or "000"
    (000 l.460 "Apply Initiative to Rival's Conflict Rank": added to the Rival's 2–10
    rank, with no minimum or maximum). It reads of each card its rank alone (and that
    rank as a number): remembered by them (:func:`_tiebreak`)."""
    return _tiebreak(card_a.rank, card_a.number, card_b.rank, card_b.number, level_a,
                     level_b, rule)


@lru_cache(maxsize=1024)  # ranks × Levels × the reading: a Tiebreak is frozen, shared
def _tiebreak(rank_a: str, number_a: int | None, rank_b: str, number_b: int | None,
              level_a: int, level_b: int, rule: str) -> Tiebreak:
    """:func:`tiebreak`, remembered by all it reads: a fight's same-approach Conflicts,
    and the exact odds' walks, compare the same few ranks at the same few Levels."""
    bonus_a, bonus_b = max(0, level_a - level_b), max(0, level_b - level_a)
    key_a = _rank_key(rank_a, number_a, bonus_a, bonus_b, rule)
    key_b = _rank_key(rank_b, number_b, bonus_b, bonus_a, rule)
    outcome = "both" if key_a[0] == key_b[0] else "a" if key_a[0] < key_b[0] else "b"
    royals = table()["tiebreak"]["royals"]
    return Tiebreak(RankSide(rank_a, bonus_a if rank_a not in royals else 0, key_a[1]),
                    RankSide(rank_b, bonus_b if rank_b not in royals else 0, key_b[1]),
                    outcome)


# --------------------------------------------------------------------------- resolve


@record
class Effect(Result):
    key: str
    text: str


@record
class Effects(Result):
    a: tuple[Effect, ...]
    b: tuple[Effect, ...]


# A Non-Player reveals a Fate card (000 l.420), it keeps no cards: its Block
# holds, no card is returned.
NON_PLAYER_TEXT = {"keep": "Keep: its Block holds (a Non-Player keeps no cards)"}


@lru_cache(maxsize=256)  # a few approaches × won × evade × non_player: frozen answers
def effects(approach: str, won: bool, evade: str = "001",
            non_player: bool = False) -> tuple[Effect, ...]:
    """What a side gets: its win effects when it wins, its always-effects anyway.
    ``evade`` is ``[rules] evade``: under "000" an Evade gives back the Move spent on
    the Action, and only to a winner (000 l.494). A ``non_player`` side is never told
    of a hand. The table is data read once, and the Effects are frozen, so the same
    four arguments give the very same tuple (in a fight, asked on a miss of
    :func:`_outcome_effects`)."""
    spec = table()["effects"][approach]
    if evade == "000" and approach in table()["effects_000"]:
        spec = table()["effects_000"][approach]
    keys = [*(spec["win"] if won else []), *spec["always"]]
    text = table()["effect_text"]
    return tuple(Effect(k, NON_PLAYER_TEXT.get(k, text[k]) if non_player else text[k])
                 for k in keys)


def _non_player(spec: SideSpec) -> bool:
    return spec.source == "fate" or (spec.unit is not None
                                     and spec.unit.extra.get("player") == NON_PLAYER)


@record
class Side(Result):
    """One side as resolved: what was typed, the approach and card it kept, its Level
    (after modifiers) and, for a unit, the skill and its Level before modifiers. With
    Advantage or Disadvantage ``revealed`` holds every Fate card revealed for the side
    and ``set_aside`` the candidate not kept (a card code or an approach)."""

    input: str
    source: str
    approach: str
    card: Card | None
    level: int
    unit: str | None = None
    skill: str | None = None
    skill_level: int = 0
    revealed: tuple[Card, ...] = ()
    set_aside: str | None = None

    @property
    def label(self) -> str:
        """How ``conflict`` names the side: ``Archer — Block (Q♥ Queen of Cups ↓)``."""
        card = f" ({self.card.name()})" if self.card else ""
        who = f"{self.unit} — " if self.unit else ""
        return f"{who}{self.approach.capitalize()}{card}"

    @property
    def short(self) -> str:
        """The side at a glance: ``Archer (Block Q♥↓)`` (who, the approach, the card)."""
        name = self.card.name() if self.card else ""
        card = f" {name.split(' ')[0]}{name[-1]}" if self.card else ""
        what = f"{self.approach.capitalize()}{card}"
        return f"{self.unit} ({what})" if self.unit else what


@record
class CoverTarget(Result):
    """001 l.718–720 "Before Conflict: Assign Suits to major obstacles. Reveal Fate IF
    Suit match THEN Target is the obstacle": the card revealed and the obstacle it names
    (``target``), or None when no obstacle's suit matches."""

    side: str  # the side in cover
    percent: int
    obstacles: dict[str, str]  # suit → obstacle
    card: Card
    target: str | None


@record
class CounterAttack(Result):
    """A Counter's win played out (001 l.752–754 "Counter - Win vs Fast or Wild /
    Counterattack with a Fast or Strong"): the side that counter-attacks, the card it
    plays — a Player's from the hand (``hand``) or as named (``named``), a Non-Player's
    Fate reveal (``fate``) — read Upper, so Fast or Strong by its suit (a Wild is
    neither: no Hits). Under ``[rules] counter = "000"`` the Counter card itself
    scores (000 l.163 "IF a Fast, Strong, or Counter Succeeds THEN determine
    Successes"): ``source`` "counter". ``card`` None: the Player has not given it yet
    (hands held at the table: ``--counter CARD``)."""

    side: str
    unit: str | None
    card: Card | None
    approach: str | None  # "fast" or "strong"; None for a Wild or no card yet
    source: str
    reading: str

    @property
    def scores(self) -> bool:
        return self.card is not None and (self.approach in ("fast", "strong")
                                          or self.source == "counter")


def counter_attack(side: str, unit: str | None, counter_card: Card | None, source: str,
                   reading: str, reveal: Revealer | None) -> CounterAttack:
    """The counter-attack of a side whose Counter won (one function for ``conflict``,
    ``npc turn``, ``odds`` and ``sim``). ``reading`` "001" (the default, 001 l.754):
    another card — ``counter_card`` (a Player's), else for a Non-Player (``source``
    "fate") the next Fate card — played Upper against No Conflict (000 l.442 "Play
    another Conflict vs. No Conflict"), so it wins and, Fast or Strong, counts its
    Hits. "000": the Counter card is ``counter_card`` and scores itself (000 l.163)."""
    if reading == "000":
        return CounterAttack(side, unit, counter_card, "counter", "counter", reading)
    card = counter_card
    if card is None and source == "fate":
        assert reveal is not None, "a Non-Player's counter-attack reveals Fate"
        card = reveal()
        source = "fate"
    if card is None:
        return CounterAttack(side, unit, None, None, source, reading)
    card = card if card.upper else card.flipped(True)
    approach = None if card.is_wild else approach_of(card)
    return CounterAttack(side, unit, card, approach, source, reading)


@record
class Conflict(Result):
    """``d2d conflict SIDE_A SIDE_B``: who wins, the tiebreak if any, what each side
    gets; where each Level came from, the modifiers and Advantage of each side."""

    approach_a: str
    approach_b: str
    outcome: str
    side_a: Side
    side_b: Side
    tiebreak: Tiebreak | None
    effects: Effects
    conflict_chart: str
    reshuffled: bool
    sources: dict[str, str]
    modifiers: tuple[Modifier, ...]
    advantage: dict[str, Standing]
    cannot_block: tuple[str, ...]
    cover: CoverTarget | None
    # What the round's record took away from B (rules/combat/remembered.py).
    notes: tuple[str, ...] = ()
    map: Geometry | None = None  # the geometry read off the map (rules.board.derive)
    # What it did to the Players' hands under [rules] hands = "d2d" (rules.units.hands
    # HandMove: the card played, kept, drawn — never which card was drawn).
    hands: tuple[Any, ...] = ()
    counter: CounterAttack | None = None  # a Counter's win played out (001 l.754)
    # Each Fate card a side turned to read it by its colour: (side, as revealed, as read,
    # why), for the human view (operations.combat.read_by_colour); not in the JSON.
    turned: tuple[tuple[str, Any, Any, str], ...] = hidden(())

    @property
    def summary(self) -> str:
        """The Conflict in one line, for a report of many commands (``npc turn``): who
        won, and each side as ``conflict`` shows it."""
        a, b = self.side_a.short, self.side_b.short
        if self.outcome in ("a", "b"):  # the winner first
            won, lost = (a, b) if self.outcome == "a" else (b, a)
            return f"Conflict: {won} beats {lost}"
        verdict = {"both": "both win", "tie": "a tie, neither wins",
                   "rank": "decided by rank"}[self.outcome]
        return f"Conflict: {verdict} — {a} vs {b}"


@record
class Redirected(Result):
    """The cover-target reveal named an obstacle: the Conflict is against it instead, so
    the sides are not resolved (001 l.720 "IF Suit match THEN Target is the obstacle")."""

    outcome: str  # "obstacle"
    target: str
    cover: CoverTarget
    reshuffled: bool

    @property
    def summary(self) -> str:
        return (f"Conflict: the Cover reveal ({self.cover.card.name()}) makes {self.target} "
                "the target (001 l.720)")


def check_level(level: int, what: str) -> int:
    if level < 0:
        raise BadInput(f"{what} must be a whole number 0 or more, not {level}")
    return level


# A side's view of an outcome, best first (the Advantage rule's: rules.deck.advantage).
OUTCOME_VALUE = advantage.OUTCOME_VALUE
_ROYAL_HIT = 11  # A, K, Q, J always score a Hit (001 l.836): above any 2–10


def hit_value(card: Card | None) -> int:
    """How well a card scores Hits once it wins: a royal always Hits, a higher 2–10 is
    likelier to beat the Difficulty; a Wild or no card scores none."""
    if card is None or card.is_wild:
        return 0
    return _ROYAL_HIT if card.rank in table()["tiebreak"]["royals"] else card.number or 0


def counter_card(cards: Any) -> Card | None:
    """The card a Player's counter-attack plays when none is named (001 l.754
    "Counterattack with a Fast or Strong"): the one of ``cards`` (the hand) that scores
    best once played Upper — a royal (always a Hit, 001 l.836), else the highest 2–10;
    never a Wild (neither Fast nor Strong). None: no such card. The first card of the
    best value wins (as ``max`` keeps it), found by a plain loop: a generator's frame and
    ``max`` cost more than the few cards of a hand (every Conflict a fight plays asks)."""
    best: Card | None = None
    top = 0
    for card in cards:
        if card.is_wild:
            continue
        value = hit_value(card)
        if best is None or value > top:
            best, top = card, value
    return None if best is None else (best if best.upper else best.flipped(True))


@record
class _Option:  # a record: a NamedTuple class cost ~0.19 ms to build (issue 40 item 3)
    approach: str
    card: Card | None
    label: str


def _pair(a: _Option, b: _Option, sit: Situation, reading: str,
          level_bonus: str) -> tuple[str, Tiebreak | None]:
    """The outcome of two candidates. A side that can't Block (000 l.326, Flanking from
    Arc:Back) loses its Block to a Fast or Strong and ties anything else."""
    outcome = _chart(reading)[a.approach][b.approach]
    broken = None
    if outcome == "rank" and a.card is not None and b.card is not None:
        broken = tiebreak(a.card, b.card, sit.a.level, sit.b.level, level_bonus)
        outcome = broken.outcome
    if not sit.no_block:  # both may Block (the usual case)
        return outcome, broken
    blocked = [s for s, o in (("a", a), ("b", b)) if s in sit.no_block and
               o.approach == "block"]
    if len(blocked) == 2:
        return "tie", None
    if blocked:
        attacker = b if blocked[0] == "a" else a
        outcome = ("b" if blocked[0] == "a" else "a") if attacker.approach in (
            "fast", "strong") else "tie"
    return outcome, broken


@record
class ConflictAsk:
    """``d2d conflict`` as typed and checked against the session: the sides, the
    situation, the obstacles of a cover-target reveal. :attr:`reveals` says whether
    Fate cards are revealed (from the deck, or ``table``)."""

    matchup: Matchup
    situation: Situation
    obstacles: dict[str, str]
    table: list[Card] | None
    reading: str = "001"
    fate_orientation: str = "color"
    level_bonus: str = "001"
    unspent: str | None = None  # why B, the Target, gains no benefit (001 l.639–641)
    target_action: str = "001"  # [rules] target_action
    range: int | None = None  # Spaces between the sides, typed or said
    evade: str = "001"  # [rules] evade: what an Evade gives (001 l.750; 000 l.494)
    counter: str = "001"  # [rules] counter: what a Counter's win plays (001 l.754)
    # The card a Player's side counter-attacks with, if its Counter wins (--counter)
    counter_cards: tuple[Card | None, Card | None] = (None, None)
    # The assessment as made, before the round's labels: the Hits that follow may read
    # it (rules.combat.situation.scoring_from)
    assessed: Assessed | None = None

    @property
    def reveals(self) -> bool:
        sit = self.situation
        return (self.matchup.reveals or bool(self.obstacles) or
                sit.advantage_a.extra > 0 or sit.advantage_b.extra > 0 or
                (self.counter == "001" and self.matchup.a.unit is not None
                 and self.matchup.b.unit is not None and any(  # a Non-Player's counter
                     _non_player(s) and s.approach == "counter"  # reveals Fate
                     for s in (self.matchup.a, self.matchup.b))))

    def resolve(self, reveal: Revealer | None) -> Conflict | Redirected:
        return resolve(self, reveal)


def _obstacles(values: tuple[str, ...], sit: Situation) -> dict[str, str]:
    """``--obstacle SUIT=NAME``: each suit once, and only with cover (000 l.333 "IF
    there is any Cover THEN before Conflict, Reveal Conflict")."""
    out: dict[str, str] = {}
    for value in values:
        suit, sep, name = value.partition("=")
        if not sep or not name.strip():
            raise BadInput(f"--obstacle {value}: write SUIT=NAME, e.g. C=rock (001 l.719 "
                           "\"Assign Suits to major obstacles\")")
        key = parse_suit(suit)
        if key in out:
            raise BadInput(f"--obstacle {value}: {SUIT_SYMBOL[key]} is given twice")
        out[key] = name.strip()
    if out and (sit.cover is None or not sit.cover.percent):
        raise BadInput("--obstacle needs --cover: the cover-target reveal is made only when "
                       "there is Cover (000 l.333)")
    return out


def ask(sides: list[str], data: dict[str, Any], table_cards: list[Card] | None = None, *,
        level_a: int | None = None, level_b: int | None = None,
        terms: Terms | None = None, skill: str | None = None,
        rival_skill: str | None = None, obstacles: tuple[str, ...] = (),
        reading: str = "001", fate_orientation: str = "color",
        level_bonus: str = "001", use_map: bool = True, spent: bool | None = None,
        target_action: str = "001", opts: Options = DEFAULTS,
        counter_card: Card | None = None,
        roster: Mapping[str, Unit] | None = None,
        assessor: Callable[..., Situation] | None = None) -> ConflictAsk:
    """Check ``d2d conflict`` against the session before anything is revealed: the
    sides (units by name), their Levels and the situation (read off the session's map
    when both are placed, unless ``use_map`` is False). ``roster``: the session's units
    already built (a simulated fight's live units), read instead of ``data``'s tables;
    ``assessor``: :func:`~rules.combat.situation.assess` as the caller remembers it
    (rules.combat.situation.Assessor)."""
    if level_a is not None:
        check_level(level_a, "--level-a")
    if level_b is not None:
        check_level(level_b, "--level-b")
    units: Mapping[str, Unit] = {}
    if data.get("units"):
        if roster is not None:  # built already: a side that is a play never reads it
            units = roster
        elif not unitless(sides):  # two cards name no unit: no roster view made
            units = _roster.roster_view(data)  # only the units named are built
    m = matchup(sides, units)
    remembered = _remembered
    ua, ub = m.a.unit, m.b.unit
    # the map gives a geometry only between two units: else it is not read
    placed = use_map and ua is not None and ub is not None
    fld = _derive.field(data) if placed else None
    terms = terms or Terms()

    # A fight's Assessor remembers all three by what they read: the units' readings,
    # the Field, the [rules], what the round remembers of the two, the rest as given
    view = remembered.recalled_view(data, ua, ub) if isinstance(assessor, Assessor) and \
        ua is not None and ub is not None else None
    if view is not None:
        assert isinstance(assessor, Assessor) and ua is not None and ub is not None
        got, made, sit, range_, on_map = assessor.remember(
            ua, ub, ("conflict", view, level_a, level_b, terms, skill, rival_skill, spent,
                     target_action, use_map), fld, opts,
            _prepare, data, ua, ub, terms, skill, spent, target_action, use_map, level_a,
            level_b, rival_skill, fld, opts, assessor, True)
    else:
        got, made, sit, range_, on_map = _prepare(
            data, ua, ub, terms, skill, spent, target_action, use_map, level_a, level_b,
            rival_skill, fld, opts, assessor)
    assessed = Assessed(ua, ub, got.terms, got.skill, rival_skill, fld, opts, made)
    if not obstacles:  # none typed: the map's, if its Cover has any
        obstacles = on_map
    for side, spec in (("a", m.a), ("b", m.b)):
        if side in sit.no_block and spec.approach == "block":
            raise RuleViolation(f"{side.upper()} can't Block: the other side is in its "
                                "Arc:Back (000 l.326 \"Rival can't Block\")")
    out = ConflictAsk(m, sit, _obstacles(obstacles, sit), table_cards, reading,
                      fate_orientation, level_bonus, got.unspent, target_action,
                      range_, opts.evade, opts.counter,
                      (counter_card, counter_card), assessed)
    if table_cards is not None and not out.reveals:
        raise BadInput("--card is for fate sides (and the Fate cards of Advantage or a "
                       "cover-target reveal); give the cards as sides instead")
    return out


def _prepare(data: dict[str, Any], ua: Unit | None, ub: Unit | None, terms: Terms,
             skill: str | None, spent: bool | None, target_action: str, use_map: bool,
             level_a: int | None, level_b: int | None, rival_skill: str | None,
             fld: Field | None, opts: Options, assessor: Callable[..., Situation] | None,
             shared: bool = False
             ) -> tuple[_remembered.Recalled, Situation, Situation, int | None,
                        tuple[str, ...]]:
    """What the round remembers, the assessment, the two together, and what :func:`ask`
    reads of them: the Range between the sides and the obstacles of the map's Cover
    reveal (``shared``: remembered for later callers, so what was said is kept as a
    read-only view). A function of its arguments alone, so that a Conflict whose
    Assessor finds them remembered makes no closure of its own."""
    remembered = _remembered
    got = remembered.recall(data, ua, ub, terms, skill, spent, target_action, use_map)
    sit = (assessor or assess)(Who(ua, level_a, "--level-a"),
                               Who(ub, level_b, "--level-b"),
                               got.terms, skill=got.skill, rival_skill=rival_skill,
                               field=fld, opts=opts)
    said = sit
    if got.sources:
        said = remembered.with_said(sit, got.sources, got)
        if shared:
            said = said._replace(extra_sources=MappingProxyType(said.extra_sources))
            got = got._replace(sources=MappingProxyType(got.sources))
    # off the map the map's module is not imported (a Conflict of two cards: issue 40)
    on_map = () if said.geometry is None else _derive.reveal_obstacles(said.geometry)
    return got, sit, said, _range_of(got.terms, said), on_map


def _range_of(terms: Terms, sit: Situation) -> int | None:
    """The Range between the sides: typed or said, else read off the map."""
    if terms.range is not None or sit.geometry is None:
        return terms.range
    got = sit.geometry.terms.get("range")
    return None if got is None else int(got)


def _fate(reveal: Revealer | None, by_color: bool) -> Card:
    """The next Fate card of a side; an NPC's Fate is turned the way its colour says
    (000 l.420) under ``[rules] fate_orientation = "color"``."""
    assert reveal is not None, "a reveal needs a revealer"
    card = reveal()
    return card.flipped(card.color == "black") if by_color else card


def _cover_target(ask: ConflictAsk, reveal: Revealer | None) -> CoverTarget | None:
    """The cover-target reveal, first of all (001 l.718–720 "Reveal Fate IF Suit match
    THEN Target is the obstacle"): only the card's suit counts."""
    sit = ask.situation
    if not ask.obstacles:
        return None
    assert sit.cover is not None and reveal is not None
    card = reveal()
    hit = ask.obstacles.get(card.suit) if card.suit is not None else None
    return CoverTarget(sit.cover.side, sit.cover.percent, dict(ask.obstacles), card, hit)


@lru_cache(maxsize=512)  # 54 cards × two faces, and the approaches: frozen answers
def _option(approach: str | None, card: Card | None) -> _Option:
    """A candidate: an approach or a card played as it is (``approach`` given), or a
    Fate card revealed, read by its face (``approach`` None: :func:`approach_of`).
    A Card and an _Option are frozen, so the same two arguments give the very same
    _Option (a fight's ~38 candidates a fight are a few dozen of them)."""
    if approach is None:
        assert card is not None
        return _Option(approach_of(card), card, card.code)
    return _Option(approach, card, card.code if card else approach)


def _candidates(spec: SideSpec, extra: int, reveal: Revealer | None,
                by_color: bool) -> tuple[list[_Option], tuple[Card, ...]]:
    """A side's candidates: its own approach or card (a ``fate`` side's revealed card),
    then one more Fate card for Advantage or Disadvantage (000 l.423–424); and the Fate
    cards revealed for it."""
    if spec.source != "fate":
        assert spec.approach is not None
        own = _option(spec.approach, spec.card)
        if not extra:  # its own approach or card alone
            return [own], ()
        shown: list[Card] = []
        opts = [own]
    else:
        shown = [_fate(reveal, by_color)]
        opts = [_option(None, shown[0])]
        if not extra:  # the Fate card revealed alone
            return opts, (shown[0],)
    for _ in range(extra):
        card = _fate(reveal, by_color)
        shown.append(card)
        opts.append(_option(None, card))
    return opts, tuple(shown)


def _side(spec: SideSpec, fighter: Fighter, opts: list[_Option], k: int,
          shown: tuple[Card, ...]) -> Side:
    """The side as resolved: candidate ``k`` kept, the other set aside."""
    kept = opts[k]
    # the first candidate other than ``k`` (read by index: no generator made for it)
    aside = None if len(opts) == 1 else opts[1 if k == 0 else 0].label
    return Side(spec.text, spec.source, kept.approach, kept.card, fighter.level,
                fighter.unit, fighter.skill, fighter.skill_level, shown, aside)


def _counterattacks(got: tuple[Effect, ...]) -> bool:
    """Whether a side's effects hold its Counter-attack (a plain loop: both sides of
    every Conflict between units ask)."""
    for e in got:  # noqa: SIM110 (a loop, not any() over a generator)
        if e.key == "counterattack":
            return True
    return False


def _counter(ask: ConflictAsk, name: str, side: Side, non_player: bool,
             reveal: Revealer | None) -> CounterAttack:
    """The counter-attack of side ``name``, whose effects hold its Counter-attack: a
    Player's card named (--counter) is theirs alone; a Non-Player's counter-attack
    reveals Fate (001 l.754), whatever the other side named."""
    own = (side.card if ask.counter == "000" else
           None if non_player else ask.counter_cards[name == "b"])
    return counter_attack(name, side.unit, own, "fate" if non_player else "named",
                          ask.counter, reveal)


# The Effects made of two tuples of effects, by the very tuples (``effects`` gives the
# same frozen tuple for the same arguments, and ``trim`` hands it on when it takes
# nothing away): id(a), id(b) -> (a, b, their Effects). Both tuples are held beside
# their Effects, so an id is never another object's while kept; an Effects is frozen,
# of frozen parts, so Conflicts may share it. Emptied past _EFFECTS_KEPT.
_EFFECTS: dict[tuple[int, int], tuple[tuple[Effect, ...], tuple[Effect, ...], Effects]] = {}
_EFFECTS_KEPT = 256


def _effects_of(a: tuple[Effect, ...], b: tuple[Effect, ...]) -> Effects:
    """``Effects(a, b)``, the one made before for these very two tuples."""
    key = (id(a), id(b))
    got = _EFFECTS.get(key)
    if got is not None and got[0] is a and got[1] is b:
        return got[2]
    made = Effects(a, b)
    if len(_EFFECTS) >= _EFFECTS_KEPT:
        _EFFECTS.clear()
    _EFFECTS[key] = (a, b, made)
    return made


@lru_cache(maxsize=1024)
def _outcome_effects(approach_a: str, approach_b: str, outcome: str, evade: str,
                     np_a: bool, np_b: bool, unspent: str | None, b_skill: str | None,
                     range_: int | None, target_action: str
                     ) -> tuple[Effects, tuple[str, ...], str | None]:
    """What each side of a Conflict gets once its outcome is known: the two sides'
    Effects — B's trimmed for an unspent Action or a Rival that cannot reach
    (rules.combat.remembered.trim) —, the notes of what was trimmed, and the side whose
    effects hold its Counter-attack (A's first; None: neither). Remembered by all it
    reads: ten texts, flags and numbers, and the tables, read once; the answer is of
    frozen parts (Effects, tuples of texts), so Conflicts may share it. A fight's ~20
    Conflicts ask for a few dozen of them: one look-up where seven calls were (``effects``
    twice, ``trim``, ``rival_reaches``, the Effects and two scans for a Counter-attack)."""
    remembered = _remembered
    effects_b, notes = remembered.trim(
        effects(approach_b, outcome in ("b", "both"), evade, np_b), unspent,
        remembered.rival_reaches(b_skill, range_), target_action)
    effects_a = effects(approach_a, outcome in ("a", "both"), evade, np_a)
    striker = "a" if _counterattacks(effects_a) else "b" if _counterattacks(effects_b) \
        else None
    return _effects_of(effects_a, effects_b), notes, striker


_LEVEL_KEYS = {"a": "level_a", "b": "level_b"}  # each side's Level in ``sources`` (read only)


def resolve(ask: ConflictAsk, reveal: Revealer | None) -> Conflict | Redirected:
    """Resolve a conflict. ``reveal`` gives every Fate card, in this order: the
    cover-target card, then side A's, then side B's (a ``fate`` side's card, then the
    extra card of Advantage or Disadvantage); it is needed only when
    :attr:`ConflictAsk.reveals`."""
    m, sit = ask.matchup, ask.situation
    by_color = ask.fate_orientation == "color"
    cover = _cover_target(ask, reveal)
    if cover is not None and cover.target is not None:
        return Redirected("obstacle", cover.target, cover,
                          reveal.reshuffled if reveal is not None else False)
    opts_a, shown_a = _candidates(m.a, sit.advantage_a.extra, reveal, by_color)
    opts_b, shown_b = _candidates(m.b, sit.advantage_b.extra, reveal, by_color)
    # one candidate a side (no Advantage or Disadvantage: most Conflicts of a fight): the
    # one pair is kept, as keep_conflict keeps it, without making its two scorers
    i, j = (0, 0) if len(opts_a) == 1 and len(opts_b) == 1 else advantage.keep_conflict(
        opts_a, opts_b, (sit.advantage_a.mode, sit.advantage_b.mode),
        lambda oa, ob: _pair(oa, ob, sit, ask.reading, ask.level_bonus)[0],
        lambda o: hit_value(o.card))
    outcome, broken = _pair(opts_a[i], opts_b[j], sit, ask.reading, ask.level_bonus)
    a = _side(m.a, sit.a, opts_a, i, shown_a)
    b = _side(m.b, sit.b, opts_b, j, shown_b)
    # each side's Non-Player reading once, for its effects and its counter-attack
    np_a, np_b = _non_player(m.a), _non_player(m.b)
    got, notes, striker = _outcome_effects(a.approach, b.approach, outcome, ask.evade,
                                           np_a, np_b, ask.unspent, sit.b.skill,
                                           ask.range, ask.target_action)
    counter = None
    if striker is not None and a.unit is not None and b.unit is not None:
        counter = _counter(ask, "a", a, np_a, reveal) if striker == "a" else \
            _counter(ask, "b", b, np_b, reveal)
    # By position, in the fields' order, a comment naming each: a call of more than 15
    # keywords (its items on the stack past CPython's guideline of 30) is compiled to
    # build a dict of them and unpack it again, ~10 k instructions a Conflict, and each
    # keyword is matched against the parameters' names (issue 40)
    return Conflict(
        a.approach, b.approach, outcome, a, b,  # approach_a, approach_b, outcome, sides
        broken,  # tiebreak
        got,  # effects
        ask.reading,  # conflict_chart
        reveal.reshuffled if reveal is not None else False,  # reshuffled
        sources(sit, _LEVEL_KEYS),  # sources
        sit.modifiers,  # modifiers
        {"a": sit.advantage_a, "b": sit.advantage_b},  # advantage
        sit.no_block, cover, notes, sit.geometry,  # cannot_block, cover, notes, map
        (),  # hands
        counter)  # counter
