"""Crits: serious damage from the Damage Decks (001 l.878–990 "Crits", 000 l.502–543
"Damage").

001 l.892–898 "Crit Location - Find Deck with matching Damage Types. Draw until you find
matching a Type … Armor Location - Find Armor at the Location": the location is drawn
first, then the armor there is found (``--armor torso=4x1``, a bare ``--armor 2x1`` for
every location, or the target unit's own ``armor`` in the session).

001 l.906–936 "Crits: Rating": "Power Rating adds Hits. Armor Rating cancels Power
Rating … Stat - Rating may include a Stat: Body+2 with Body:4x1 = Power Rating:6x1 …
Compare Levels: IF Power Level > Armor Level THEN Hits:+1 (eg 7x2 > 2x1 = Hits:+1).
Compare Scales: IF Power Scale >= Armor Scale THEN Hits:+Difference (eg 2x4 > 9x1 =
Hits:+3)". d2d's reading (docs/rules.md, docs/errata.md): both comparisons are made
only when the Power's scale is at least the Armor's; no armor is an Armor Rating of 0
(0x0), so the Power alone adds its Hits; and armor only cancels — it never adds more
Hits than no armor would.

001 l.951–955: "Severity - … Minor - Major - Critical - Extreme. Rotate - For each Hit
> 1, rotate the card to the left to the next Severity level". 001 l.1003 "Resolution":
"Hits - For any remaining Hits, place facedown Damage cards" (Light Damage: Fatigue,
Stun, Stress, Slow). 000 l.540: "Mortal Wound - IF 4 or more Crits then the Unit has
suffered a Mortal Wound and is Dying".

A damage card is written ``TYPE@LOCATION`` (``pierce@head``, ``fear@left_arm``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache, partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.combat.damage import DamageAsk, Gear, Modified, gear_of, modify, wear
from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import TupleRecord, field, record, replace
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.deck.fate import OutOfCards, TableCards
from d2d_cli.rules.scale.stats import Stat, canonical, parse_stat
from d2d_cli.rules.units import gear as gear_
from d2d_cli.rules.units.gear import Weapon
from d2d_cli.rules.units.roster import Unit, alive, find, roster_state
from d2d_cli.rules.units.roster import roster as roster_

if TYPE_CHECKING:
    import random

# Read at every Crit on a unit, imported when first read (a Crit of a given Power at a
# given armor reads neither): rules.core.lazy_module
if TYPE_CHECKING:
    from d2d_cli.rules.combat import situation as _situation
    from d2d_cli.rules.units import conditions as _conditions
    from d2d_cli.rules.units import effects as _effects
else:
    _situation = lazy_module("d2d_cli.rules.combat.situation", globals(), "_situation")
    _conditions = lazy_module("d2d_cli.rules.units.conditions", globals(), "_conditions")
    _effects = lazy_module("d2d_cli.rules.units.effects", globals(), "_effects")

CHARTS = ("person", "vehicle")


@cache
def damage_table() -> dict[str, Any]:
    return tables.load("damage")


@cache
def default_charts() -> dict[str, Any]:
    return tables.load("locations")


def _key(text: str) -> str:
    return re.sub(r"[\s\-]+", "_", text.strip().lower())


# --------------------------------------------------------------------------- charts


@record
class Chart:
    """A location chart: ``locations`` is [(key, name, cards per damage type)]."""

    kind: str
    name: str
    locations: tuple[tuple[str, str, int], ...]

    def names(self) -> dict[str, str]:
        return {k: n for k, n, _ in self.locations}


def chart(kind: str, custom: dict[str, Any] | None = None,
          source: str = "d2d default") -> Chart:
    """The person or vehicle chart: the table's own (a ``[rules] locations_file``
    parsed by the caller) where it defines one, else d2d's default."""
    if not (custom and custom.get(kind)):
        return _default_chart(kind)
    return _chart(kind, custom[kind], f"the {kind} chart ({source})")


@lru_cache(maxsize=8)
def _default_chart(kind: str) -> Chart:
    """d2d's own chart of ``kind``, read once (a Chart is a frozen record; every Crit
    asks for it)."""
    return _chart(kind, default_charts()[kind], f"the {kind} chart")


def _chart(kind: str, data: Any, where: str) -> Chart:
    rows = data.get("locations") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise BadInput(f"{where} needs `locations = [{{key, name, cards}}, …]`")
    out = []
    for row in rows:
        try:
            key, name, cards = _key(str(row["key"])), str(row.get("name", row["key"])), \
                int(row.get("cards", 1))
        except (KeyError, TypeError, ValueError):
            raise BadInput(f"{where}: each location needs a key and whole-number cards, "
                           f"not {row!r}") from None
        if cards < 1 or not key:
            raise BadInput(f"{where}: location {key!r} needs a key and cards ≥ 1")
        out.append((key, name, cards))
    if len({k for k, _, _ in out}) != len(out):
        raise BadInput(f"{where}: a location key is repeated")
    return Chart(kind, str(data.get("name", kind)), tuple(out))


# --------------------------------------------------------------------------- types


def type_decks() -> dict[str, str]:
    """Every damage type → its deck key (``pierce`` → ``wound``)."""
    decks = damage_table()["decks"]
    return {t: d for d in damage_table()["order"] for t in decks[d]["types"]}


def _accepted_types() -> str:
    decks = damage_table()["decks"]
    return "; ".join(f"{decks[d]['name']}: {', '.join(decks[d]['types'])}"
                     for d in damage_table()["order"])


def parse_types(text: str | None) -> tuple[str, list[str]]:
    """``--types pierce,slash`` → (``wound``, [pierce, slash]). No types: the Wound deck
    ("Weapons default to Body", 001 p.31) and the first card is the location."""
    if text is None or not text.strip():
        return "wound", []
    deck, names = _parse_types(text)
    return deck, list(names)  # a new list each call: the caller may change it


@lru_cache(maxsize=256)
def _parse_types(text: str) -> tuple[str, tuple[str, ...]]:
    """:func:`parse_types`, remembered by the text (the damage table is read once): a
    fight rates a weapon's same types at every Crit. A text refused is not remembered
    (the error is raised again)."""
    names = [_key(t) for t in re.split(r"[,\s]+", text.strip()) if t]
    known = type_decks()
    bad = [t for t in names if t not in known]
    if bad:
        raise BadInput(f"unknown damage type {', '.join(bad)} — known types: "
                       f"{_accepted_types()}")
    decks = sorted({known[t] for t in names})
    if len(decks) > 1:
        raise BadInput(f"--types {text} name types of different Damage Decks "
                       f"({', '.join(decks)}); rate each deck separately")
    return decks[0], tuple(dict.fromkeys(names))


# --------------------------------------------------------------------------- rating


_FORMULA_RE = gear_.FORMULA_RE  # a weapon formula, STAT[+N|-N] (001 l.918–920)


def power_rating(power: str | None, weapon: str | None, stat: str | None) -> Stat:
    """``--power 6x1``, or ``--weapon "Body+2" --stat 4x1`` → 6x1 (001 p.34)."""
    return _power_rating(power, weapon, stat)


@lru_cache(maxsize=1024)
def _power_rating(power: str | None, weapon: str | None, stat: str | None) -> Stat:
    """:func:`power_rating`, remembered by the three texts it reads (a Stat is
    immutable; a refusal is raised again, never remembered): a fight rates the same
    weapon with the same stat at every Crit and every weapon choice."""
    if power is not None and weapon is not None:
        raise BadInput("give --power or --weapon (with --stat), not both")
    if power is not None:
        return parse_stat(power)
    if weapon is None:
        raise BadInput('give the Power Rating: --power 6x1, or --weapon "Body+2" --stat 4x1')
    m = _FORMULA_RE.match(weapon)
    if not m:
        if "x" in weapon.lower():
            return parse_stat(weapon)
        raise BadInput(f"{weapon!r} is not a weapon formula: --weapon takes a formula "
                       "STAT[+N|-N] (STAT body, mind, will or speed), e.g. --weapon "
                       "\"Body+2\", or a rating such as 6x1")
    if stat is None:
        raise BadInput(f"--weapon {weapon} needs --stat: the wielder's "
                       f"{m.group(1).capitalize()}, e.g. --stat 4x1")
    base = parse_stat(stat)
    shift = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
    if base.exact_level + shift <= 0:
        raise BadInput(f"{weapon} with {stat} leaves no rating (level {base.level + shift})")
    return canonical(base.exact_level + shift, base.scale)


def wielder_stat(weapon: str | None, stat: str | None, by: Unit | None) -> tuple[str | None, str]:
    """The stat of a ``--weapon`` formula: ``--stat`` as typed, else the ``--by`` unit's
    stat the formula names, after its conditions ("Body+2 with Body:4x1", 001 l.920).
    Returns (stat, where it came from)."""
    if by is None:
        return stat, f"--stat {stat}" if stat is not None else ""
    m = _FORMULA_RE.match(weapon or "")
    if m is None and weapon is not None and "x" not in weapon.lower():
        raise BadInput(f"{weapon!r} is not a weapon formula: --weapon takes a formula "
                       "STAT[+N|-N] (STAT body, mind, will or speed), e.g. --weapon "
                       "\"Body+2\", or a rating such as 6x1")
    if m is None:
        raise BadInput("--by reads the stat of a --weapon formula (e.g. --weapon \"Body+2\" "
                       "--by Archer); --power and a --weapon rating need no unit")
    if stat is not None:
        return stat, f"--stat {stat} (over {by.name}'s)"
    name = m.group(1).lower()
    got = _situation.effective_stat(by, name)
    return str(got), f"{by.name}'s {name.capitalize()} {got}"


@record
class Bonus(Result):
    """The Hits of 001 l.926–936's two comparisons of Power with Armor."""

    level: int
    scale: int

    @property
    def total(self) -> int:
        return self.level + self.scale


@lru_cache(maxsize=1024)  # Stats and Bonus are frozen: a Crit compares ~4 times
def compare(power: Stat, armor: Stat | None) -> Bonus:
    """"IF Power Level > Armor Level THEN Hits:+1" and "IF Power Scale >= Armor Scale
    THEN Hits:+Difference", both made only when the Power's scale is at least the
    Armor's: a Power on a lower scale is smaller than the Armor whatever the levels
    (9x0 against 2x5 adds nothing). No armor is an Armor Rating of 0, written 0x0
    ("Scale - The number of zeroes after Rank", 001 l.307)."""
    level, scale = (0, 0) if armor is None else (armor.level, armor.scale)
    if power.scale < scale:
        return Bonus(0, 0)
    return Bonus(1 if power.level > level else 0, power.scale - scale)


def bonus_hits(power: Stat, armor: Stat | None) -> int:
    """The Hits the Power adds through the armor: "Armor Rating cancels Power Rating"
    (001 l.910), so never more than with no armor at all."""
    return _compared(power, armor)[1]


def _compared(power: Stat, armor: Stat | None) -> tuple[Bonus, int]:
    """The comparison with the armor (:func:`compare`) and the Hits it adds
    (:func:`bonus_hits`): a Crit's rating says both, from one comparison."""
    bonus = compare(power, armor)
    return bonus, min(bonus.total, compare(power, None).total)


# --------------------------------------------------------------------------- armor


@record
class Armor:
    """The armor worn: one rating for every location and/or one per location.
    ``source`` is "option" (``--armor``) or "unit" (the target's ``armor`` in the
    session)."""

    source: str
    every: Stat | None = None
    at: Mapping[str, Stat] = field(default_factory=dict)

    def at_location(self, location: str) -> tuple[Stat | None, str | None]:
        """The armor at ``location`` and its scope ("location" or "all"), or (None,
        None) where nothing covers it."""
        if location in self.at:
            return self.at[location], "location"
        if self.every is not None:
            return self.every, "all"
        return None, None


def _armor_entry(where: str, loc: str, text: str, ch: Chart) -> tuple[str, Stat]:
    key = _key(loc)
    if key not in ch.names():
        raise BadInput(f"{where}: {loc!r} is not a {ch.kind} location — the locations are "
                       f"{', '.join(ch.names())}")
    try:
        return key, parse_stat(text)
    except BadInput as e:
        raise BadInput(f"{where}: {e}") from None


def parse_armor(values: list[str] | tuple[str, ...], ch: Chart) -> Armor | None:
    """``--armor``: ``2x1`` (every location) and/or ``LOCATION=STAT`` (``head=2x1``),
    each location at most once."""
    if not values:
        return None
    every: Stat | None = None
    at: dict[str, Stat] = {}
    for value in values:
        loc, sep, text = value.rpartition("=")
        if not sep:
            if every is not None:
                raise BadInput(f"--armor {value}: a bare rating covers every location and "
                               "is given once; name a location for the others (head=2x1)")
            every = parse_stat(value)
            continue
        key, stat = _armor_entry(f"--armor {value}", loc, text, ch)
        if key in at:
            raise BadInput(f"--armor {value}: {key} is given twice")
        at[key] = stat
    return Armor("option", every, at)


def unit_armor(unit: Unit, ch: Chart) -> Armor | None:
    """The unit's own armor from the session: ``armor = "2x1"`` (every location) or a
    table ``[units.NAME.armor]`` of ``LOCATION = "STAT"``."""
    value = unit.extra.get("armor")
    where = f"the armor of unit {unit.name!r}"
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return Armor("unit", parse_stat(value))
        except BadInput as e:
            raise BadInput(f"{where}: {e}") from None
    if not isinstance(value, dict):
        raise BadInput(f"{where} must be a stat (\"2x1\") or a table of location = "
                       "stat, e.g. head = \"2x1\"")
    at = dict(_armor_entry(where, str(k), str(v), ch) for k, v in value.items())
    return Armor("unit", None, at)


# --------------------------------------------------------------------------- decks


def deck_cards(deck: str, ch: Chart) -> list[str]:
    """Every card of a Damage Deck for a chart: each type × each location × its cards."""
    return list(_deck_cards(deck, ch))


@lru_cache(maxsize=64)
def _deck_cards(deck: str, ch: Chart) -> tuple[str, ...]:
    """:func:`deck_cards`, remembered by the deck and the chart (a frozen record; the
    damage table is read once): every Crit counts the deck's cards."""
    types = damage_table()["decks"][deck]["types"]
    return tuple(f"{t}@{key}" for t in types for key, _, n in ch.locations
                 for _ in range(n))


def parse_damage_card(text: str, ch: Chart) -> str:
    """``pierce@head``, ``Pierce @ Left Arm`` → ``pierce@left_arm``."""
    type_, sep, loc = text.partition("@")
    type_, loc = _key(type_), _key(loc)
    if not sep or type_ not in type_decks() or loc not in ch.names():
        raise BadInput(
            f"not a damage card: {text!r} — a damage card is TYPE@LOCATION with a damage "
            f"type ({_accepted_types()}) and a {ch.kind} location "
            f"({', '.join(ch.names())}), e.g. pierce@{ch.locations[0][0]}")
    return f"{type_}@{loc}"


@record(frozen=False)
class DamageDeck:
    """One virtual Damage Deck: ``draw`` top first, ``discard`` newest last."""

    draw: list[str]
    discard: list[str] = field(default_factory=list)
    reshuffled: bool = False

    @classmethod
    def from_state(cls, state: dict[str, Any] | None, cards: Sequence[str],
                   rng: random.Random) -> tuple[DamageDeck, bool]:
        """The stored deck, or a freshly shuffled one when there is none or it no longer
        holds exactly ``cards`` (a new location chart). Returns (deck, rebuilt). A table
        a Crit stored (:func:`_kept_whole`) whose piles still equal what it stored, for
        the same cards, is read from that copy — the very texts it holds — without
        writing each card out again (a simulated fight reads back the table its Crit
        before stored)."""
        got = _WHOLE.get(id(state)) if state else None
        if got is not None and got[0] is state and got[3] == cards and \
                state.get("draw") == got[1] and state.get("discard") == got[2]:
            return cls(list(got[1]), list(got[2])), False
        if state:
            deck = cls(list(map(str, state.get("draw", []))),
                       list(map(str, state.get("discard", []))))
            if _whole(state, deck, cards):
                return deck, False
        order = list(cards)
        rng.shuffle(order)
        return cls(order), True

    def to_state(self) -> dict[str, Any]:
        return {"draw": list(self.draw), "discard": list(self.discard)}

    def take(self, rng: random.Random) -> str:
        if not self.draw:
            self.draw = self.discard
            rng.shuffle(self.draw)
            self.discard = []
            self.reshuffled = True
        card = self.draw.pop(0)
        self.discard.append(card)
        return card


# Damage Deck tables a Crit stored from a deck that held exactly ``cards`` (a Crit's
# draws move cards between the piles, never add or drop one): id(table) → (the table,
# held so that an id is never another's; its draw and discard piles as stored; the
# cards). A simulated fight reads back the table the Crit before stored ~6 times a fight.
_WHOLE: dict[int, tuple[dict[str, Any], list[str], list[str], Sequence[str]]] = {}


def _whole(state: dict[str, Any], deck: DamageDeck, cards: Sequence[str]) -> bool:
    """Whether a stored deck holds exactly ``cards``: a table a Crit stored
    (:func:`_kept_whole`) whose piles are still as stored, for the same cards, without
    sorting them again; else the two sorted."""
    got = _WHOLE.get(id(state))
    if got is not None and got[0] is state and got[1] == deck.draw and \
            got[2] == deck.discard and got[3] == cards:
        return True
    return sorted(deck.draw + deck.discard) == sorted(cards)


def _kept_whole(state: dict[str, Any], cards: Sequence[str]) -> None:
    """The table a Crit stores of a deck that holds exactly ``cards`` (:func:`_whole`)."""
    if len(_WHOLE) >= 256:
        _WHOLE.clear()
    _WHOLE[id(state)] = (state, list(state["draw"]), list(state["discard"]), cards)


def find_crit(draw: Callable[[], str], types: list[str],
              limit: int) -> tuple[str | None, list[str]]:
    """Draw until a card of a matching type (any card when no types): (card, skipped).
    Table cards that run out raise ``fate.OutOfCards``."""
    skipped: list[str] = []
    for _ in range(limit):
        card = draw()
        if not types or card.split("@")[0] in types:
            return card, skipped
        skipped.append(card)
    return None, skipped


# --------------------------------------------------------------------------- severity


@record
class Severity:
    level: str
    rotations: int
    remaining: int


def severity(hits: int) -> Severity:
    """Minor at Hits 1, one rotation per Hit above 1, up to Extreme; Hits past Extreme
    are remaining Hits (light damage)."""
    levels = damage_table()["severity"]["levels"]
    rotations = min(hits - 1, len(levels) - 1)
    return Severity(levels[rotations], rotations, max(0, hits - len(levels)))


MORTAL_CRITS = 4  # 000 l.540 "IF 4 or more Crits"


def mortal_wound(rule: str, hits: int, crit_count: int | None) -> bool | None:
    """``[rules] mortal_wound``: "crits4" (000 l.540, the default) — the target holds 4
    or more Crits counting this one (None, unknown, without a target); "extreme" — this
    Crit reaches Extreme (4 Hits); "past_extreme" — Hits beyond Extreme; "off"."""
    levels = len(damage_table()["severity"]["levels"])
    if rule == "crits4":
        return None if crit_count is None else crit_count >= MORTAL_CRITS
    return {"past_extreme": hits > levels, "extreme": hits >= levels}.get(rule, False)


# --------------------------------------------------------------------------- the Crit


def check_hits(hits: int) -> int:
    if hits < 1:
        raise BadInput(f"--hits must be 1 or more (a glancing blow is Hits 1), not {hits}")
    return hits


@record
class Placed(Result):
    """What ``--target`` changed on the unit (001 l.1001 "Crits - Place any Crits on
    Target")."""

    unit: str
    crit: dict[str, Any]
    conditions_added: dict[str, int]
    conditions: dict[str, int]


@record
class Crit(Result):
    """``d2d crit``: the location, the armor there, the Hits, severity and light damage."""

    power: str
    armor: str | None  # the armor at the Crit location
    armor_source: str | None  # "option" (--armor), "unit" (the target's), None
    armor_scope: str | None  # "location" (given for it), "all" (every location), None
    bonus: Bonus  # the comparison with that armor (with 0x0 when there is none)
    bonus_unarmored: int  # the Hits the Power adds against no armor
    bonus_hits: int  # the Hits added: the comparison, never more than unarmored
    hits_before: int
    hits: int
    deck: str
    deck_name: str
    types: tuple[str, ...]
    chart: str
    card: str
    type: str
    location: str
    location_name: str
    skipped: tuple[str, ...]
    severity: str
    rotations: int
    mortal_wound: bool | None  # None: unknown (crits4 without a target)
    mortal_rule: str
    crit_count: int | None  # the target's Crits, this one included; None without target
    light_damage: tuple[str, ...]
    table_mode: bool
    reshuffled: bool
    new_deck: bool
    target: Placed | None
    sources: dict[str, str]  # where the Power and the armor came from
    # For the command: the session sections to write, and the journal's summary.
    changes: dict[str, Any] = hidden()
    summary: str = hidden()
    wielder: str | None = hidden(None)  # the --by unit whose stat made the Power
    # issue 19: the Damage Modifiers (000 l.520–533) and the light damage flipped to
    # Crits on a stat at 0 (001 l.946–947), each a card drawn after the Crit.
    damage_modifiers: Modified | None = None
    flipped: tuple[str, ...] = ()
    rated_against: str = "armor"  # [rules] weapon_damage: "armor" (001) or "difficulty"
    stack: tuple[str, ...] = ()  # [rules] hit_location = "000": the Damage Stack, top first
    hit_location: str = "001"
    # [rules] hands = "d2d": the Wild of Wild Luck discarded (rules.units.hands.Spent)
    hand: Any = None


@record
class CritAsk:
    """``d2d crit`` as given on the command line (checked by :func:`crit`)."""

    power: str | None = None
    weapon: str | None = None
    stat: str | None = None
    armor: tuple[str, ...] = ()
    hits: int = 1
    types: str | None = None
    vehicle: bool = False
    cards: tuple[str, ...] | None = None
    target: str | None = None
    by: str | None = None  # the wielder: the stat of a --weapon formula
    damage: DamageAsk = field(default_factory=DamageAsk)  # the Damage Modifiers typed
    difficulty: str | None = None  # [rules] weapon_damage = "difficulty": the stat
    said: tuple[tuple[str, str], ...] = ()  # further sources, last (the exchange's)
    # Luck's giver: an adjacent Ally whose Player spends the Character Points (000 l.533)
    luck_from: str | None = None
    with_: str | None = None  # issue 36: which of the --by unit's weapons (--with NAME)
    armor_pierce: int = 0  # issue 36: the Magic Power's Armor Pierce points (000 l.914)

    @property
    def writes(self) -> bool:
        """Whether the session changes: a virtual deck is drawn or a unit is hit."""
        return self.cards is None or self.target is not None


def crit(ask: CritAsk, data: Mapping[str, Any], new_rng: Callable[[], random.Random] | None,
         opts: Options = DEFAULTS, custom_charts: dict[str, Any] | None = None,
         roster: dict[str, Unit] | None = None, assessor: Any = None) -> Crit:
    """The whole Crit (001 l.878–955), in its steps: the Power (:func:`_power`), the
    card source (:func:`_source`), the location (:func:`_locate`) and the rating against
    the armor found there (:func:`_rate`), the Damage Modifiers (:func:`_modifiers`),
    the severity and light damage (:func:`_harm`), and with a target the placement
    (:func:`_land`). Under ``[rules] hit_location = "000"`` the rating comes first: it
    is the size of the Damage Stack the location is found in. ``data`` is the session's
    data (read, never changed: the sections to write are in ``Crit.changes``);
    ``custom_charts`` the table's ``[rules] locations_file``, read by the caller.
    ``roster``: the session's units already built (a simulated fight's live units), read
    and changed in place instead of built from ``data``; ``changes["units"]`` then holds
    only the units a Crit can change — the target and the Ally whose Luck is spent — to
    store over the roster's (the wielder is read, never changed: its table stays the
    one it has, so what is remembered for that very table still holds). ``assessor``: a
    fight's :class:`~rules.combat.situation.Assessor`, which remembers what the Crit
    reads before its first card (:func:`_prepare`) by the two units' readings."""
    check_pierce(ask.armor_pierce)
    units = (roster if roster is not None else roster_(dict(data))) \
        if ask.target is not None or ask.by is not None else {}
    holder = find(units, ask.by) if ask.by is not None else None
    if assessor is not None and holder is not None and ask.target is not None and \
            custom_charts is None and isinstance(assessor, _situation.Assessor):
        # A fight's Assessor remembers it by all it reads: the ask, the two units'
        # readings (weapons, stats, conditions, armour, gear) and the [rules]
        prep = assessor.remember(holder, find(units, ask.target), ("crit", ask), None,
                                 opts, _prepare, ask, units, opts, None)
    else:
        prep = _prepare(ask, units, opts, custom_charts)
    ask, arm, power, power_from, deck, wanted_, ch, given_, armor, gear, cards, names, \
        unarmored, power_text = prep
    wanted, given = list(wanted_), None if given_ is None else list(given_)
    wielder = (find(units, ask.by) if ask.by is not None else None) or holder
    unit = find(units, ask.target) if ask.target is not None else None  # alive: _prepare
    source = _source(given, data, ch, deck, new_rng, cards)
    extra_sources: dict[str, str] = {}
    gear = shield_side(gear, unit, wielder, extra_sources)
    first = _rate(ask, power, unit, None, opts) if opts.hit_location == "000" else None
    card, skipped, stack = _locate(source.draw, wanted, len(cards),
                                   first.total if first is not None else None)
    type_, location = card.split("@")
    worn, scope = armor.at_location(location) if armor is not None else (None, None)
    worn = armor_met(worn, unit, arm, armor, ask.armor_pierce, extra_sources)
    rated = first or _rate(ask, power, unit, worn, opts)
    modded = _modifiers(rated.total, ask.damage, gear, worn, location, type_, wanted, ch,
                        opts)
    spec = damage_table()["decks"][deck]
    harm = _harm(rated.total, modded, stack, wanted, spec["light"], unit, source.draw, opts)
    changes: dict[str, Any] = {}
    reshuffled = source.close(changes)
    giver = _giver(ask, unit, units)
    # the command stores the whole roster; a caller's live roster, the units changed
    stored = units
    if roster is not None:  # a plain loop, not a comprehension's frame (every Crit)
        stored = {}
        for n, u in units.items():
            if u is unit or u is giver:
                stored[n] = u
    mortal, count, placed = _land(unit, stored, card, deck, location, harm, modded,
                                  opts.mortal_wound, changes, giver)
    where = names[location]
    summary = (f"Crit {card} → {where} {harm.severity.level.capitalize()}"
               if harm.crit else f"no Crit ({card})") + (f" on {unit.name}" if unit else "")
    # By position, in the fields' order: a call of more than 15 keywords (its items on
    # the stack past CPython's guideline of 30) is compiled to build a dict of them and
    # unpack it again: a Crit made with its 37 fields by keyword measured ~46 k
    # instructions, by position ~24 k (issue 40)
    return Crit(
        power_text,  # power
        str(worn) if worn is not None else None,  # armor
        armor.source if worn is not None and armor is not None else None,  # armor_source
        scope,  # armor_scope
        rated.bonus, unarmored, rated.added,  # bonus, bonus_unarmored, bonus_hits
        ask.hits, harm.total,  # hits_before, hits
        deck, spec["name"], tuple(wanted), ch.kind,  # deck, deck_name, types, chart
        card, type_, location, where,  # card, type, location, location_name
        tuple(skipped),  # skipped
        harm.severity.level, harm.severity.rotations,  # severity, rotations
        mortal, opts.mortal_wound, count,  # mortal_wound, mortal_rule, crit_count
        harm.light, given is not None,  # light_damage, table_mode
        reshuffled, source.new_deck, placed,  # reshuffled, new_deck, target
        {"power": power_from, "armor": _armor_from(worn, armor, scope, unit, where),
         **extra_sources, **({"weapon": arm[1]} if arm is not None else {}),
         **dict(ask.said)},  # sources
        changes, summary,  # changes, summary
        wielder.name if wielder is not None else None,  # wielder
        modded, harm.flipped,  # damage_modifiers, flipped
        opts.weapon_damage, tuple(harm.stack),  # rated_against, stack
        opts.hit_location,  # hit_location
    )


class _Prepared(TupleRecord):
    """What a Crit reads before its first card (:func:`_prepare`)."""

    ask: CritAsk  # with the weapon's rating and types in place of the options
    arm: tuple[Weapon, str] | None
    power: Stat
    power_from: str
    deck: str
    wanted: tuple[str, ...]
    chart: Chart
    given: tuple[str, ...] | None  # the cards drawn at the table (--card)
    armor: Armor | None
    gear: Gear
    # read off the weapon's Power, the deck and the chart, the same for every Crit of
    # the preparation: the deck's cards, the chart's location names (read only), the
    # Hits the Power adds against no armour, and the Power as the Crit says it
    cards: list[str]  # read only (:func:`deck_cards`: a list of its own)
    names: Mapping[str, str]
    unarmored: int
    power_text: str


def _prepare(ask: CritAsk, units: Mapping[str, Unit], opts: Options,
             custom_charts: dict[str, Any] | None) -> _Prepared:
    """A Crit's first steps, in order: the weapon (:func:`armed`), the Power
    (:func:`_power`), the types, the checks, the chart, the cards and armour given, the
    target — alive (issue 27) — and its own armour and gear. It reads the ask, the
    wielder's and the target's tables and the ``[rules]``, nothing drawn."""
    ask, arm = armed(ask, units)
    power, power_from, _ = _power(ask, units)
    deck, wanted = parse_types(ask.types)
    check_hits(ask.hits)
    check_difficulty(ask.difficulty, opts)
    ch = chart("vehicle" if ask.vehicle else "person", custom_charts,
               str(opts.locations_file))
    given = [parse_damage_card(x, ch) for x in ask.cards] if ask.cards is not None else None
    armor = parse_armor(ask.armor, ch)
    unit = alive(find(units, ask.target)) if ask.target is not None else None  # issue 27
    if armor is None and unit is not None:
        armor = unit_armor(unit, ch)
    gear = gear_of(unit.extra, unit.name) if unit is not None else Gear()
    return _Prepared(ask, arm, power, power_from, deck, tuple(wanted), ch,
                     None if given is None else tuple(given), armor, gear,
                     deck_cards(deck, ch), MappingProxyType(ch.names()),
                     compare(power, None).total, str(power))


def armed(ask: CritAsk, units: Mapping[str, Unit]
           ) -> tuple[CritAsk, tuple[Weapon, str] | None]:
    """Issue 36: the weapon a Crit is rated with. ``--weapon NAME`` of a sample
    (tables/gear.toml); else with ``--by`` and neither ``--power`` nor ``--weapon``,
    the wielder's own weapon (``--with NAME`` when it carries several), or Hand to
    Hand — its Body (000 l.506). Its rating and (unless ``--types``) its damage types
    stand in for the options. Returns (the ask, (weapon, where it came from))."""
    if ask.with_ is not None and ask.by is None:
        raise BadInput("--with names one of the --by unit's weapons: give --by UNIT")
    if ask.weapon is not None and _FORMULA_RE.match(ask.weapon) is None \
            and "x" not in ask.weapon.lower():
        got = gear_.sample_weapon(ask.weapon)
        if got is not None:
            return _with_weapon(ask, got), (got, f"the sample {got.name} (tables/gear.toml)")
    if ask.by is None or ask.power is not None or ask.weapon is not None:
        if ask.with_ is not None:
            raise BadInput("--with chooses the --by unit's weapon; --power and --weapon "
                           "rate one typed instead")
        return ask, None
    wielder = find(units, ask.by)
    held = gear_.weapons_of(wielder.extra, wielder.name)
    if ask.with_ is not None:
        w = gear_.find_weapon(wielder.extra, wielder.name, ask.with_)
    elif len(held) > 1:
        raise BadInput(f"{wielder.name} carries {', '.join(x.name for x in held)}: say "
                       "which with --with NAME")
    else:
        w = held[0] if held else gear_.hand_to_hand()
    why = (f"{wielder.name}'s {w.name}" + ("" if held else
                                            f" ({gear_.SOURCES['hand_to_hand']})"))
    return _with_weapon(ask, w, with_=None), (w, why)


def _with_weapon(ask: CritAsk, w: Weapon, **also: Any) -> CritAsk:
    """The weapon's rating and types in place of the options: a formula keeps the
    wielder (its stat), a rating such as 6x1 needs none. ``also``: other fields changed
    in the same copy."""
    types = ask.types if ask.types is not None or not w.types else ",".join(w.types)
    if _FORMULA_RE.match(w.rating) is None:
        return replace(ask, weapon=None, power=w.rating, types=types, by=None, **also)
    return replace(ask, weapon=w.rating, types=types, **also)


def armor_met(worn: Stat | None, unit: Unit | None, arm: tuple[Weapon, str] | None,
              armor: Armor | None, pierce: int, sources: dict[str, str]) -> Stat | None:
    """The armor a Crit meets at its location: the armor worn there with the Magic of
    :func:`_magic`, then a Magic Power's Armor Pierce (:func:`pierced`). ``crit`` and
    ``odds crit`` both read it here."""
    return pierced(_magic(worn, unit, arm, armor, sources), pierce, sources)


def check_pierce(points: int) -> None:
    if points < 0:
        raise BadInput(f"--armor-pierce {points}: Armor Pierce is 0 or more points (000 "
                       "l.914 \"Armor Pierce:+0x1/point\")")


def pierced(worn: Stat | None, points: int, sources: dict[str, str]) -> Stat | None:
    """000 l.914 "Armor Pierce:+0x1/point": a Magic Power's Armor Pierce reads the armor
    it meets ``points`` scales lower (2x1 → 2x0), so the Power gains the scale
    difference (001 l.934–936 "IF Power Scale >= Armor Scale THEN Hits:+Difference")
    but never more than against no armor (:func:`bonus_hits`)."""
    check_pierce(points)
    if worn is None or not points:
        return worn
    got = Stat(worn.level, worn.scale - points, worn.partial)
    sources["armor_pierce"] = (f"Armor Pierce +0x{points}: Armor {worn} met as {got} "
                               "(000 l.914)")
    return got


def _magic(worn: Stat | None, unit: Unit | None, arm: tuple[Weapon, str] | None,
           armor: Armor | None, sources: dict[str, str]) -> Stat | None:
    """000 l.1213 Magic Armor "Armor:+1x1/point" on the armor worn there, 000 l.1214
    Magic Weapon "Target Armor:-1x-1/point" (read as −1x1, docs/rules.md "What a unit
    carries"); armor brought to 0 or below is none."""
    plus = 0
    if worn is not None and unit is not None and armor is not None and \
            armor.source == "unit":
        magic_armor = int((unit.extra.get("gear") or {}).get("magic_armor", 0))
        if magic_armor:
            plus += magic_armor
            sources["magic_armor"] = f"{unit.name}'s Magic Armor +{magic_armor} (000 l.1213)"
    if arm is not None and arm[0].magic and worn is not None:
        plus -= arm[0].magic
        sources["magic_weapon"] = (f"{arm[0].name} Magic +{arm[0].magic}: Target Armor "
                                   f"-{arm[0].magic}x1 (000 l.1214)")
    if worn is None or not plus:
        return worn
    value = worn.value + 10 * plus
    return canonical(value, 0) if value >= 1 else None


def shield_side(gear: Gear, unit: Unit | None, wielder: Unit | None,
                 sources: dict[str, str]) -> Gear:
    """001 l.669 "Melee and Shields act on the Left OR Right": a Shield held on one
    side covers an attack from the target's Arc:Front or that side, not from the other
    side or the back — read off the map when the wielder (``--by``) and the target are
    both placed; otherwise the Shield counts as before."""
    if unit is None or wielder is None or gear.shield is None:
        return gear
    side = (unit.extra.get("gear") or {}).get("shield_arc")
    if side is None:
        return gear
    from d2d_cli.rules.board import sight
    from d2d_cli.rules.board.placement import placed

    pa, pb = placed(wielder), placed(unit)
    if pa is None or pb is None or pb.facing is None:
        return gear
    arc = sight.arc(pb.space, pb.facing, pa.space)
    if arc is None or arc in (sight.FRONT, side):
        sources["shield"] = (f"{wielder.name} is in {unit.name}'s Arc:{(arc or 'front').title()}"
                             f": the Shield held on the {side} covers (001 l.669)")
        return gear
    sources["shield"] = (f"{wielder.name} is in {unit.name}'s Arc:{arc.title()}: the Shield "
                         f"held on the {side} does not cover (001 l.669 \"Melee and Shields "
                         "act on the Left OR Right\")")
    return replace(gear, shield=None, shield_covers=())


def _power(ask: CritAsk, units: Mapping[str, Unit]) -> tuple[Stat, str, Unit | None]:
    """The Power Rating and where it came from (001 l.918–920 "Stat - Rating may include
    a Stat: Body+2 with Body:4x1 = Power Rating:6x1"): ``--power``, or a ``--weapon``
    formula with ``--stat`` or the ``--by`` wielder's stat. Returns (power, from,
    wielder)."""
    wielder = find(units, ask.by) if ask.by is not None else None
    if wielder is not None and ask.power is not None:
        raise BadInput("--by reads the stat of a --weapon formula; --power needs no unit")
    stat, stat_from = wielder_stat(ask.weapon, ask.stat, wielder)
    power = power_rating(ask.power, ask.weapon, stat)
    power_from = (f"--power {ask.power}" if ask.power is not None else
                  f"{ask.weapon} with {stat_from}" if stat_from else f"--weapon {ask.weapon}")
    return power, power_from, wielder


class _Source(TupleRecord):
    """Where the damage cards come from: ``draw`` gives the next one; ``close`` puts
    the session's deck into the changes (or refuses table cards never read) and says
    whether the deck was reshuffled."""

    draw: Callable[[], str]
    close: Callable[[dict[str, Any]], bool]
    new_deck: bool


def _source(given: list[str] | None, data: Mapping[str, Any], ch: Chart, deck: str,
            new_rng: Callable[[], random.Random] | None,
            cards: Sequence[str] | None = None) -> _Source:
    """001 l.892 "Find Deck with matching Damage Types. Draw until you find matching a
    Type": the cards drawn at the table (``--card``, in order) or the session's virtual
    Damage Deck of the types (shuffled anew when there is none); ``cards``: every card
    of that deck (:func:`deck_cards`), read afresh when not given."""
    if given is not None:
        queue = TableCards(given)

        def finish(_: dict[str, Any]) -> bool:
            queue.finish()
            return False

        return _Source(queue, finish, False)
    assert new_rng is not None, "the virtual deck needs the session's random source"
    rng = new_rng()
    state = dict(data.get("damage", {}))
    decks = dict(state.get(ch.kind, {}))
    if cards is None:
        cards = deck_cards(deck, ch)
    pile, new_deck = DamageDeck.from_state(decks.get(deck), cards, rng)

    def keep(changes: dict[str, Any]) -> bool:
        stored = decks[deck] = pile.to_state()
        _kept_whole(stored, cards)  # the pile held exactly the cards: its draws keep them
        state[ch.kind] = decks
        changes["damage"] = state
        return pile.reshuffled

    return _Source(partial(pile.take, rng), keep, new_deck)  # no lambda's frame a card


def _locate(draw: Callable[[], str], wanted: list[str], limit: int,
            stack_size: int | None) -> tuple[str, list[str], list[str]]:
    """The card that gives the location: (card, skipped, Damage Stack). 001 l.892–894
    "Crit Location - … Draw until you find matching a Type" (:func:`find_crit`); under
    ``[rules] hit_location = "000"`` (``stack_size`` given) 000 l.518–519: the Damage
    Stack of that many cards, its first matching card moved to the top
    (:func:`damage_stack`)."""
    if stack_size is not None:
        stack = damage_stack(draw, stack_size, wanted)
        return stack[0], [], stack
    found, skipped = find_crit(draw, wanted, limit)
    if found is None:
        want = ", ".join(wanted) or "any type"
        raise BadInput(f"no damage card matching {want} was drawn: keep drawing at the "
                       "table and give every card drawn, in order, with --card")
    return found, skipped, []


class _Rated(TupleRecord):
    bonus: Bonus  # the comparison of the Power with what it meets
    added: int  # the Hits it adds (never more than against no armor)
    total: int  # the Hits before the Damage Modifiers


def _rate(ask: CritAsk, power: Stat, unit: Unit | None, worn: Stat | None,
          opts: Options) -> _Rated:
    """The Hits the Power adds. 001 l.906–936 "Crits: Rating": against the armor worn at
    the location (``[rules] armor = "rating"``; under "reduce" the armor is a Damage
    Modifier instead, and so always under 000's Damage Stack); ``[rules] weapon_damage
    = "difficulty"``: against the target's Difficulty (000 l.508–509)."""
    against: Stat | None
    if opts.weapon_damage == "difficulty":
        against = _difficulty(ask, unit)
    elif opts.armor == "rating" and opts.hit_location != "000":
        against = worn
    else:
        against = None
    bonus, added = _compared(power, against)
    return _Rated(bonus, added, ask.hits + added)


_NO_GEAR = Gear()  # a target with no gear known (compared with, never changed)


def _modifiers(total: int, damage: DamageAsk, gear: Gear, worn: Stat | None,
               location: str, type_: str, wanted: list[str], ch: Chart,
               opts: Options) -> Modified | None:
    """The Damage Modifiers (000 l.520–533: ``damage.modify``), when there are any: the
    ones typed, the target's gear, and the armor worn when it reduces the Damage
    (``[rules] armor = "reduce"``, or 000's Damage Stack, l.529)."""
    reduce = opts.armor == "reduce" or opts.hit_location == "000"
    if not (damage.given or gear != _NO_GEAR or (worn is not None and reduce)):
        return None
    return modify(total, location=location, location_name=ch.names()[location],
                  types=tuple(wanted) or (type_,), gear=gear, ask=damage,
                  locations=tuple(ch.names()), armor=worn if reduce else None)


class _Harm(TupleRecord):
    severity: Severity
    crit: bool  # whether the location card is a Crit
    light: tuple[str, ...]  # the light damage placed as Conditions
    flipped: tuple[str, ...]  # the cards drawn for light damage flipped to Crits
    total: int  # the Hits after the Damage Modifiers
    stack: list[str]  # 000's Damage Stack, top first (001: empty)


def _harm(total: int, modded: Modified | None, stack: list[str], wanted: list[str],
          light_key: str, unit: Unit | None, draw: Callable[[], str],
          opts: Options) -> _Harm:
    """What the Hits do. 001 l.951–955 "Severity - … Rotate - For each Hit > 1, rotate
    the card … to the next Severity level", the Hits past Extreme light damage (l.1003);
    under 000's Damage Stack the Modifiers add or remove cards "from the bottom" (000
    l.523) and the stack rotates the card (:func:`harm_000`, l.535–541). Light damage on
    a stat at 0 flips to a Crit, one more card drawn each (001 l.946–947)."""
    try:
        if opts.hit_location == "000":
            left = modded.damage if modded is not None else total
            stack = stack[:left] + [draw() for _ in range(left - len(stack))]
            sev, crit_here, light = harm_000(stack, wanted, light_key)
            total = left
        else:
            total = modded.damage if modded is not None else total
            sev = severity(total) if total else Severity("none", 0, 0)
            crit_here = total > 0
            light = (light_key,) * sev.remaining
        flips = flipped_count(unit, light) if unit is not None and total else 0
        light = light[:len(light) - flips]
        drawn = []  # a plain loop, not a generator's frame (every Crit; rarely a card)
        for _ in range(flips):
            drawn.append(draw())
        flipped = tuple(drawn)
    except OutOfCards:
        raise BadInput("more damage cards are needed (the Damage Stack, or a light damage "
                       "flipped to a Crit on a stat at 0, 001 l.946–947): give every card "
                       "drawn with --card, in order") from None
    return _Harm(sev, crit_here, light, flipped, total, stack)


def _giver(ask: CritAsk, unit: Unit | None, units: dict[str, Unit]) -> Unit | None:
    """``--from UNIT``: the adjacent Ally whose Player spends the Luck (000 l.533),
    checked (rules.combat.damage.adjacent_ally); None: the target's own."""
    if ask.luck_from is None:
        return None
    if unit is None:
        raise BadInput(f"--from {ask.luck_from}: give --target, the unit the Luck is spent "
                       "for (000 l.533)")
    from d2d_cli.rules.combat.damage import adjacent_ally

    giver = find(units, ask.luck_from)
    adjacent_ally(unit, giver)
    return giver


def _land(unit: Unit | None, units: dict[str, Unit], card: str, deck: str,
          location: str, harm: _Harm, modded: Modified | None, mortal_rule: str,
          changes: dict[str, Any], giver: Unit | None = None
          ) -> tuple[bool | None, int | None, Placed | None]:
    """The Mortal Wound (000 l.540 "IF 4 or more Crits", ``[rules] mortal_wound``) and,
    with a target, the Crit placed on it (001 l.1001 "Crits - Place any Crits on
    Target") and the Damage Modifiers paid (:func:`_pay`). Returns (mortal, the target's
    Crits counting these, what was placed)."""
    crits_now = int(harm.crit) + len(harm.flipped)
    count = len(unit.extra.get("crits", [])) + crits_now if unit is not None else None
    mortal = mortal_wound(mortal_rule, harm.total, count) if harm.crit else False
    placed = None
    if unit is not None:
        if harm.crit or harm.light or harm.flipped:
            placed = place(unit, card=card, deck=deck, location=location,
                           severity=harm.severity.level, mortal=bool(mortal),
                           light=harm.light, flipped=harm.flipped, crit=harm.crit)
        if modded is not None:
            _pay(unit, modded, giver)
        changes["units"] = roster_state(units)
    return mortal, count, placed


def _armor_from(worn: Stat | None, armor: Armor | None, scope: str | None,
                unit: Unit | None, where: str) -> str:
    if worn is None or armor is None:
        return f"none at {where}"
    whose = "--armor" if armor.source == "option" else (
        f"{unit.name}'s armor" if unit is not None else "the unit's armor")
    return f"{whose} {worn} ({'every location' if scope == 'all' else where})"


def place(unit: Unit, *, card: str, deck: str, location: str, severity: str,
          mortal: bool, light: tuple[str, ...], flipped: tuple[str, ...] = (),
          crit: bool = True) -> Placed:
    """Place the Crit on its target (001 l.1001 "Crits - Place any Crits on Target"): the
    Crit is kept in the unit's ``crits`` list, each light damage adds its Minor
    Condition — or, on a stat already at 0, is flipped to a Crit (001 l.946–947: the
    ``flipped`` cards, Minor) — and a Mortal Wound makes the unit Dying (once)."""
    entry = {"card": card, "deck": deck, "location": location, "severity": severity,
             "mortal_wound": mortal}
    more = []  # a plain loop, not a comprehension's frame (every Crit; rarely a card)
    for c in flipped:
        more.append({"card": c, "deck": deck, "location": c.split("@")[1],
                     "severity": _levels()[0], "mortal_wound": mortal})
    unit.extra["crits"] = [*unit.extra.get("crits", []), *([entry] if crit else []), *more]
    added: dict[str, int] = {}
    for key in light:
        added[key] = added.get(key, 0) + 1
    if mortal and not unit.conditions.get("dying"):
        added["dying"] = 1
    for key, n in added.items():
        unit.add_condition(key, n)
    return Placed(unit.name, entry, added, dict(unit.conditions))


# --------------------------------------------------------------------------- issue 19


def _levels() -> list[str]:
    return list(damage_table()["severity"]["levels"])


def flipped_count(unit: Unit, light: tuple[str, ...]) -> int:
    """001 l.946–947 "Light Damage - The back of a Damage card represents Light Damage
    (eg Fatigue) / IF Unit has Stat=0 THEN flip to Crit": the light damage that lands on
    a stat already at 0 — counting the tokens placed before it — becomes a Crit. The
    flips come last: the tokens that still lower the stat are placed first."""
    conds, gritted = _conditions, _effects.gritted
    held = dict(unit.conditions)
    known = conds.table()
    flips = 0
    for key in light:
        stats = list(known[key].penalty) if key in known else []
        at_zero = False
        for stat in stats:
            base = unit.stats.get(stat)
            if base is None:
                continue
            delta = 0 if gritted(unit) else conds.penalties(held).get(stat, 0)
            at_zero = at_zero or base.level + delta <= 0
        if at_zero:
            flips += 1
        else:
            held[key] = held.get(key, 0) + 1
    return flips


def _difficulty(ask: CritAsk, unit: Unit | None) -> Stat:
    """``[rules] weapon_damage = "difficulty"`` (000 l.508–509 "Level - IF the Damage
    Level > Difficulty THEN Success:+1. Scale - IF there is a difference between Damage
    Scale and Difficulty Scale THEN Success:+Difference"): the Power is compared with
    the target's Body (after its conditions), or ``--difficulty``."""
    if ask.difficulty is not None:
        return parse_stat(ask.difficulty)
    if unit is None:
        raise BadInput('[rules] weapon_damage = "difficulty" compares the Power with the '
                       "target's Difficulty: give --target UNIT or --difficulty STAT "
                       "(000 l.508)")
    return _situation.effective_stat(unit, "body")


def _pay(unit: Unit, modded: Modified, giver: Unit | None = None) -> None:
    """The target's side of the Damage Modifiers: its Screen and Items wear (``gear``)
    and the Character Points of its Luck are spent (a character's ``cp``) — or the
    ``giver``'s, an adjacent Ally's (000 l.533 "or an adjacent Unit's Player")."""
    wear(unit.extra, modded)
    payer = giver or unit
    if modded.cp_spent and ("cp" in payer.extra or giver is not None):
        have = int(payer.extra.get("cp", 0))
        if have < modded.cp_spent:
            raise RuleViolation(f"{payer.name} has {have} Character Point(s); Luck spends "
                                f"{modded.cp_spent} (000 l.533)")
        payer.extra["cp"] = have - modded.cp_spent


def check_difficulty(text: str | None, opts: Options) -> None:
    """``--difficulty`` is read only under ``[rules] weapon_damage = "difficulty"``
    (000 l.508); under 001's reading the Power meets the Armor (001 l.910) and a typed
    Difficulty would be dropped without a word, so it is refused."""
    if text is not None and opts.weapon_damage != "difficulty":
        raise BadInput(f"--difficulty {text}: this session rates the Power against the Armor "
                       "(001 l.910 \"Armor Rating cancels Power Rating\"); the Difficulty "
                       "counts only with [rules] weapon_damage = \"difficulty\" (000 l.508)")


def difficulty_of(text: str | None, unit: Unit | None, opts: Options) -> Stat | None:
    """The Difficulty ``odds crit`` compares the Power with under ``[rules]
    weapon_damage = "difficulty"`` (None under 001's reading)."""
    check_difficulty(text, opts)
    if opts.weapon_damage != "difficulty":
        return None
    return _difficulty(CritAsk(difficulty=text), unit)


def target_gear(unit: Unit | None) -> Gear | None:
    """The target's gear (``[units.NAME.gear]``), or None without a target."""
    return gear_of(unit.extra, unit.name) if unit is not None else None


def damage_stack(draw: Callable[[], str], count: int, types: list[str]) -> list[str]:
    """``[rules] hit_location = "000"``: 000 l.518–519 "Damage Stack - IF Successes remain
    THEN reveal Damage Cards equal to Successes. Hit Location - Find the first Card that
    matches the Damage Type of the Weapon (if any) and move it to the top. The top card
    is the Hit Location". Top first."""
    cards = [draw() for _ in range(count)]
    first = next((i for i, c in enumerate(cards) if not types or c.split("@")[0] in types),
                 None)
    if first:
        cards.insert(0, cards.pop(first))
    return cards


def harm_000(stack: list[str], types: list[str], light_key: str
             ) -> tuple[Severity, bool, tuple[str, ...]]:
    """000 l.535–541 "Harm - Crits - Rotate the Hit Location Card to the right for each
    other Damage that matches Weapon Damage Types then discard them … Successes - For
    each card that doesn't match flip them back over and apply as Temporary Damage":
    (severity, whether the top card is a Crit, the Temporary Damage). A top card that
    does not match (no card matched) is no Crit; rotations past Extreme are Temporary
    Damage as in 001."""
    def matches(c: str) -> bool:
        return not types or c.split("@")[0] in types

    if not stack or not matches(stack[0]):
        return Severity("none", 0, 0), False, (light_key,) * len(stack)
    rotations = sum(matches(c) for c in stack[1:])
    sev = severity(rotations + 1)
    temporary = sum(not matches(c) for c in stack[1:])
    return sev, True, (light_key,) * (temporary + sev.remaining)
