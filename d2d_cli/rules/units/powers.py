"""Using a Power (``d2d unit power``): the Price of Power, the Standard, Effect points,
Area, and the upkeep of Continuous powers (000 "Powers", l.862–885; data in
``tables/powers.toml``).

000 l.866 "Price of Power - Using any Power has a price. Normally, you must take a
Minor Condition (Fatigue, Stun, Stress, Slow)"; l.867–871 "Standard - Initiative:+Level,
Result:+Levelx0 (+1x0 at Range:0-1), Range:Stat, Area:0"; l.872–873 "Effect - Describes
the energy level of the Power. This can be spent on Effects. Effects - You may divide
Effect points to gain additional bonuses"; l.878 "Continuous:+1. Each Event Phase, you
must pay the Price of Power to maintain the effect."

The text does not say how many Effect points a Power has (the Glossary's "Intensity -
Measure of the raw energy of a Power" is the nearest): the Narrator gives them
(``--effect``), and d2d checks that what is bought fits.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import record, replace
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units.abilities import alive, skill_level
from d2d_cli.rules.units.roster import Unit, find
from d2d_cli.rules.units.unit_state import CONTINUOUS, continuous, put

MAX_POINTS = 100
_BONUS_RE = re.compile(r"^\s*(\d+)\s*(?:x\s*(\d+))?\s*$")


@cache
def table() -> dict[str, Any]:
    return tables.load("powers")


@record
class PowerArea(Result):
    """``scale area``: the area ``points`` Effect points buy (000 l.879–885), by the
    table's reading; ``area_effect`` is the number of Area Effect cards (0: the one
    space). ``printed_row`` and ``formula`` are both readings (the row is None above 5
    points)."""

    points: int
    power_area: str
    area_effect: int
    text: str
    printed_row: int | None
    formula: int


def power_area(points: int, opts: Options = DEFAULTS) -> PowerArea:
    """Area from Effect points. ``"table"`` (default): the printed rows for 1–5 points
    ("1 point - 1 space … 5 points - Area Effect:8") and, above them, the rows' own
    doubling (6 points: 16, 7: 32), so more points never buy less and the count never
    jumps (the rows then the formula went 8, 25); ``"formula"``: "Area Effect:(X-1)^2"
    at every X (1 point: 0 cards, the one space, as the row says). Both rise with every
    point (docs/errata.md "Power area")."""
    spec = tables.load("powers")["area"]
    if not 1 <= points <= int(spec["max_points"]):
        raise BadInput(f"Effect points must be from 1 to {spec['max_points']}, not {points}")
    row = spec["rows"].get(str(points))
    formula = (points - 1) ** 2
    doubled = 0 if points == 1 else 2 ** (points - 2)  # the rows: 1, 2, 4, 8 from 2 points
    if row is not None:
        doubled = int(row)
    area = formula if opts.power_area == "formula" else doubled
    return PowerArea(points, opts.power_area, area,
                     "1 space" if area == 0 else f"Area Effect:{area}",
                     None if row is None else int(row), formula)


def area(points: int, rule: str = "table") -> tuple[int | None, int | None, str]:
    """Effect points spent on Area → (spaces, Area Effect cards, text): 0 points, the
    Standard "Area:0"; otherwise :func:`power_area` (1 point: one space)."""
    if points == 0:
        return None, None, "Area:0"
    got = power_area(points, replace(DEFAULTS, power_area=rule))
    if got.area_effect == 0:
        return 1, None, "1 space"
    return None, got.area_effect, got.text


@record
class Bonus:
    """``N`` or ``AxB`` Effect points on Result, Range or Duration: A Levels (+1x0 a
    point) and B scales (+0x1 a point), A + B points."""

    level: int
    scale: int

    @property
    def points(self) -> int:
        return self.level + self.scale

    def text(self, base: int = 0) -> str:
        return f"+{base + self.level}x{self.scale}"


def bonus(text: str | None, what: str) -> Bonus:
    if text is None:
        return Bonus(0, 0)
    m = _BONUS_RE.match(text)
    if not m:
        raise BadInput(f"--{what} {text!r}: give points as N (+Nx0) or AxB (+AxB: A + B "
                       "points, 000 l.874 \"+1x0/point OR +0x1/point\")")
    return Bonus(int(m.group(1)), int(m.group(2) or 0))


@record
class Order:
    """A checked ``unit power … use`` request."""

    power: str
    effect: int
    initiative: int
    result: Bonus
    range: Bonus
    duration: Bonus
    continuous: bool
    area: int
    close: bool
    price: str
    armor_pierce: int = 0  # issue 36: Magic's Armor Pierce points (000 l.914)
    observed: bool | None = None  # Vulgar (000 l.913): typed; None: read off the map


def order(power: str, effect: int, price: str | None, *, initiative: int = 0,
          result: str | None = None, range_: str | None = None,
          duration: str | None = None, continuous: bool = False, area_points: int = 0,
          close: bool = False, armor_pierce: int = 0,
          observed: bool | None = None) -> Order:
    for what, n in (("effect", effect), ("initiative", initiative), ("area", area_points),
                    ("armor-pierce", armor_pierce)):
        if not 0 <= n <= MAX_POINTS:
            raise BadInput(f"--{what} {n}: 0 to {MAX_POINTS} points")
    if price is None:
        raise BadInput("the Price of Power: name the Condition taken, e.g. --price fatigue "
                       "(000 l.866 \"Normally, you must take a Minor Condition (Fatigue, "
                       "Stun, Stress, Slow)\")")
    return Order(power, effect, initiative, bonus(result, "result"), bonus(range_, "range"),
                 bonus(duration, "duration"), continuous, area_points, close,
                 conditions.lookup(price).key, armor_pierce, observed)


@record
class PowerUsed(Result):
    """What a use of a Power gives, and what it cost."""

    unit: str
    power: str
    level: int
    effect: int
    points_spent: int
    points: dict[str, int]
    initiative: int
    result: str
    range: str
    duration: str | None
    continuous: bool
    area: str
    area_spaces: int | None
    area_effect: int | None
    price: str
    conditions: dict[str, int]
    summary: str = hidden("")
    # The Interact Action the use spent in a round under way (rules.time.upkeep): the
    # Move before and after, and the Action Cost paid; None outside a round.
    move_before: int | None = None
    move: int | None = None
    action_cost: int | None = None
    # issue 36, Magic only (000 l.909–914): Armor Pierce bought (+0xN), whether the use
    # was Vulgar (Result:-0x1) and who observed it (from the map and sides, or typed)
    armor_pierce: str | None = None
    vulgar: bool | None = None
    observers: tuple[str, ...] = ()


def _power(unit: Unit, name: str) -> tuple[str, int]:
    from d2d_cli.rules.units.characters import find_skill

    sk = find_skill(name)
    if sk.kind not in table()["kinds"]:
        raise BadInput(f"{sk.name} is a {sk.kind}, not a Power or Magic (d2d ref powers)")
    held, level = skill_level(unit, sk.name)
    if level == 0:
        powers = [k for k in unit.skills if _kind(k) in table()["kinds"]]
        raise RuleViolation(f"{unit.name} has no {sk.name} (Powers: "
                            f"{', '.join(powers) or 'none'})")
    return held, level


def _kind(skill: str) -> str | None:
    from d2d_cli.rules.units.characters import find_skill

    try:
        return find_skill(skill).kind
    except BadInput:
        return None


def use(units: dict[str, Unit], name: str, o: Order, area_rule: str = "table",
        paid_round: int | None = None) -> PowerUsed:
    """Use a Power: the Standard plus what the Effect points buy; the unit pays the
    Price of Power (one Condition token), and a Continuous Power is kept for upkeep.
    ``paid_round``: the round it was used in, whose Event phase its use has paid for
    (rules.time.upkeep; the Interact Action it spends is charged there too)."""
    unit = alive(find(units, name))
    power, level = _power(unit, o.power)
    magic = _kind(power) == "magic"
    if o.armor_pierce and not magic:
        raise RuleViolation(f"{power} is not Magic: Armor Pierce is Magic's (000 l.914 "
                            "\"Armor Pierce:+0x1/point\")")
    points = {"initiative": o.initiative, "result": o.result.points,
              "range": o.range.points, "duration": o.duration.points,
              "continuous": int(o.continuous), "area": o.area,
              "armor_pierce": o.armor_pierce}
    bought = {k: v for k, v in points.items() if v}
    total = sum(bought.values())
    if total > o.effect:
        parts = " + ".join(f"{k.title()} {v}" for k, v in bought.items())
        raise RuleViolation(f"{power} has Effect {o.effect}; {parts} = {total} points "
                            "(000 l.873 \"You may divide Effect points\")")
    spaces, cards, area_text = area(o.area, area_rule)
    unit.add_condition(o.price, 1)
    if o.continuous:
        kept = [c for c in _kept(unit) if c["power"] != power]
        entry: dict[str, Any] = {"power": power, "price": o.price}
        if paid_round is not None:
            entry[PAID] = paid_round
        unit.extra[CONTINUOUS] = [*kept, entry]
    duration = f"{o.duration.text()} Turns" if o.duration.points else None
    watching = _observers(units, unit) if magic else ()
    vulgar = (o.observed if o.observed is not None else bool(watching)) if magic else None
    result = o.result.text(level + int(o.close))
    if vulgar:  # 000 l.913 "Disbelief / Vulgar - … THEN Result:-0x1"
        result = f"+{level + int(o.close) + o.result.level}x{o.result.scale - 1}"
    return PowerUsed(
        unit.name, power, level, o.effect, total, bought, level + o.initiative,
        result, f"Stat {o.range.text()}", duration,
        o.continuous, area_text, spaces, cards, o.price, dict(unit.conditions),
        f"{unit.name} uses {power}: {conditions.name_of(o.price)} +1",
        armor_pierce=f"+0x{o.armor_pierce}" if magic else None, vulgar=vulgar,
        observers=watching if o.observed is None else ())


def _observers(units: dict[str, Unit], caster: Unit) -> tuple[str, ...]:
    """000 l.913 "Disbelief / Vulgar - IF any observers who are not Allies or Magic
    users/creatures": the units on the map (placed, not gone, not Dead) that are not of
    the caster's faction and hold no Magic skill — d2d's reading of an observer is a unit
    on the map (docs/rules.md "What a unit carries"); the caster off the map: none (the
    table says so with --observed)."""
    if not caster.extra.get("space"):
        return ()
    out = []
    for u in units.values():
        if u is caster or not u.extra.get("space") or u.extra.get("off_map") \
                or u.conditions.get("dead"):
            continue
        if caster.faction is not None and u.faction == caster.faction:
            continue  # an Ally
        if any(_kind(k) == "magic" for k in u.skills):
            continue  # a Magic user
        out.append(u.name)
    return tuple(out)


@record
class Upkeep(Result):
    """000 l.878: each Event phase a Continuous Power's Price is paid again (or it ends)."""

    unit: str
    action: str  # "upkeep" or "end"
    paid: dict[str, str]  # power → the Condition taken
    ended: str | None
    continuous: list[str]
    conditions: dict[str, int]
    summary: str = hidden("")


def upkeep(units: dict[str, Unit], name: str, price: str | None = None,
           round_number: int = 0) -> Upkeep:
    """Pay the Price again for every Continuous Power the unit keeps up (the Condition
    it was used with, or ``price``) — once in round ``round_number``'s Event phase:
    ``round end`` pays what is not paid yet (:func:`charge`), and a second payment in
    the same phase is refused."""
    unit = alive(find(units, name))
    held = continuous(unit)
    if not held:
        raise RuleViolation(f"{unit.name} keeps up no Continuous Power (000 l.878)")
    key = conditions.lookup(price).key if price else None
    due = [c for c in _kept(unit) if c.get(PAID) != round_number]
    if not due:
        raise RuleViolation(
            f"{unit.name}'s Continuous Powers are paid for round {round_number}'s Event "
            "phase already (000 l.878 \"Each Event Phase, you must pay the Price of Power\": "
            "once)")
    paid = charge(unit, round_number, key)
    names = ", ".join(f"{p} ({conditions.name_of(k)} +1)" for p, k in paid.items())
    return Upkeep(unit.name, "upkeep", paid, None, [c["power"] for c in held],
                  dict(unit.conditions), f"{unit.name} keeps up {names}")


def end(units: dict[str, Unit], name: str, power: str) -> Upkeep:
    """Let a Continuous Power lapse (its Price is no longer paid)."""
    unit = find(units, name)
    held = _kept(unit)
    match = next((c for c in held if str(c["power"]).casefold() == power.casefold()), None)
    if match is None:
        raise RuleViolation(f"{unit.name} keeps up no Continuous {power} (kept up: "
                            f"{', '.join(c['power'] for c in held) or 'none'})")
    left = [c for c in held if c is not match]
    put(unit, CONTINUOUS, left)
    return Upkeep(unit.name, "end", {}, match["power"], [c["power"] for c in left],
                  dict(unit.conditions), f"{unit.name} ends {match['power']}")


PAID = "paid"  # the round whose Event phase a Continuous Power's Price was paid for


def _kept(unit: Unit) -> list[dict[str, Any]]:
    return [dict(c) for c in unit.extra.get(CONTINUOUS, [])]


def charge(unit: Unit, round_number: int, price: str | None = None) -> dict[str, str]:
    """Each Event phase (000 l.878 "Continuous:+1. Each Event Phase, you must pay the
    Price of Power to maintain the effect"): the Price of each Continuous Power not yet
    paid for round ``round_number`` — its own Condition, or ``price`` — marked paid, so
    it is never paid twice in one phase. Returns power → the Condition taken."""
    paid: dict[str, str] = {}
    kept = _kept(unit)
    for c in kept:
        if c.get(PAID) == round_number:
            continue
        taken = price or str(c["price"])
        unit.add_condition(taken, 1)
        c[PAID] = round_number
        paid[str(c["power"])] = taken
    if paid:
        unit.extra[CONTINUOUS] = kept
    return paid
