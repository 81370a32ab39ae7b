"""Damage Modifiers: what changes a Crit's Hits after they are counted and before they
are applied (000 l.520–533 "3) Damage Modifiers"), and where a unit's gear lives.

000 l.523 "Damage can be modified up or down before it is applied. You add/reduce from
the bottom of the Damage Stack": the Hit Location (the top card) stays while anything
is left. In the text's order:

- l.525 "Vulnerable - IF the Unit has a Vulnerability THEN Damage:+1";
- l.526 "Wild Luck - Discard a Wild Card to cancel ALL Successes";
- l.527 "Screens - … A Screen reduces Successes by that rating, but also reduces the
  Screen by the same amount. Screens are resolved before Armor";
- l.528–529 "Armor - … Armor Location - Match the Hit Location with any Armor on the
  location. IF there is any THEN reduce by the Armor value" — only with ``[rules]
  armor = "reduce"``: 001 rates armor against the Power instead (l.906–936,
  rules.combat.crits), and armor is not counted twice;
- l.530 "Shield - IF you have a Shield and it Shield covers that location THEN reduce
  by the Armor value";
- l.531 "Item Damage - IF you have 1 or more Items in the Hit Location THEN you may add
  Damaged:+1 to 1 Item to reduce by 1";
- l.533 "Luck - The Unit's Player (or an adjacent Unit's Player) may spend any number
  of Character Points to reduce the Damage by that amount".

Readings (docs/rules.md "Damage Modifiers"): an "Armor value" is a whole number, or
the Level of a rating (a Shield of 2x1 reduces by 2); a Screen reduces by at most the
Damage left and loses what it stopped; nothing goes below 0, and a Crit reduced to 0
does no damage; Luck spends only the Character Points that stop something.

The target's gear, where the session knows it (``[units.NAME.gear]``, declared in
session/shape.py): ``vulnerable`` (damage types, or "any"), ``screen`` (the Screen's
rating left), ``shield`` (a rating) with ``shield_covers`` (locations), ``items``
(item → location) and ``damaged`` (item → Damaged tokens). Options typed on ``crit``
add to or stand in for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.scale.stats import Stat, parse_stat

# Who may give Luck: read at every Crit on a Player's unit, imported when first read (a
# Crit's damage alone reads no map): rules.core.lazy_module
if TYPE_CHECKING:
    from d2d_cli.rules.board import placement as _placement
    from d2d_cli.rules.board import sight as _sight
    from d2d_cli.rules.units import sides as _sides
else:
    _placement = lazy_module("d2d_cli.rules.board.placement", globals(), "_placement")
    _sight = lazy_module("d2d_cli.rules.board.sight", globals(), "_sight")
    _sides = lazy_module("d2d_cli.rules.units.sides", globals(), "_sides")

GEAR = "gear"
ANY = "any"
SOURCES = {
    "vulnerable": '000 l.525 "Vulnerable - IF the Unit has a Vulnerability THEN Damage:+1"',
    "wild_luck": '000 l.526 "Wild Luck - Discard a Wild Card to cancel ALL Successes"',
    "screen": '000 l.527 "A Screen reduces Successes by that rating, but also reduces the '
              'Screen by the same amount"',
    "armor": '000 l.529 "Match the Hit Location with any Armor on the location. IF there '
             'is any THEN reduce by the Armor value"',
    "shield": '000 l.530 "Shield - IF you have a Shield and it Shield covers that location '
              'THEN reduce by the Armor value"',
    "item": '000 l.531 "Item Damage - IF you have 1 or more Items in the Hit Location THEN '
            'you may add Damaged:+1 to 1 Item to reduce by 1"',
    "luck": '000 l.533 "Luck - The Unit\'s Player (or an adjacent Unit\'s Player) may spend '
            'any number of Character Points to reduce the Damage by that amount"',
}
MAX_LUCK = 1000


@record
class Gear:
    """What the session knows of a unit's gear (``[units.NAME.gear]``)."""

    vulnerable: tuple[str, ...] = ()
    screen: int = 0
    shield: int | None = None  # the Shield's Armor value
    shield_covers: tuple[str, ...] = ()
    items: Mapping[str, str] = field(default_factory=dict)
    damaged: Mapping[str, int] = field(default_factory=dict)


def _key(text: str) -> str:
    return "_".join(str(text).strip().lower().replace("-", " ").split())


def gear_of(extra: Mapping[str, Any], name: str) -> Gear:
    """A unit's gear from its ``extra`` (the session's ``[units.NAME.gear]``)."""
    raw = extra.get(GEAR)
    if raw is None:
        return Gear()
    where = f"the gear of unit {name!r}"
    if not isinstance(raw, dict):
        raise BadInput(f"{where} must be a table (vulnerable, screen, shield, "
                       "shield_covers, items, damaged)")
    try:
        shield = raw.get("shield")
        return Gear(tuple(_key(t) for t in raw.get("vulnerable", ())),
                    int(raw.get("screen", 0)),
                    armor_value(shield) if shield is not None else None,
                    tuple(_key(x) for x in raw.get("shield_covers", ())),
                    {str(k): _key(v) for k, v in dict(raw.get("items", {})).items()},
                    {str(k): int(v) for k, v in dict(raw.get("damaged", {})).items()})
    except (TypeError, ValueError, BadInput) as e:
        raise BadInput(f"{where}: {e}") from None


@record
class DamageAsk:
    """The Damage Modifiers as typed on ``crit``/``odds crit`` (over the target's gear)."""

    vulnerable: bool = False
    wild_luck: bool = False
    screen: int | None = None  # a Screen's rating (default: the target's gear)
    shield: str | None = None  # "STAT" (every location) or "LOC[+LOC…]=STAT"
    item: str | None = None  # Item Damage: the Item that takes Damaged +1
    luck: int = 0  # Character Points spent

    @property
    def given(self) -> bool:
        return bool(self.vulnerable or self.wild_luck or self.screen is not None
                    or self.shield is not None or self.item is not None or self.luck)


def adjacent_ally(target: Any, giver: Any) -> str:
    """The Unit whose Player spends for ``target`` (000 l.526 "IF reasonable THEN an
    adjacent Ally may do this instead"; l.533 "The Unit's Player (or an adjacent Unit's
    Player)"): ``giver`` itself, or an Ally of the target's faction on or next to it on
    the map (units not both placed: the table's own map, trusted). Returns the words
    saying who gave; refused otherwise (:func:`ally_refusal` says why)."""
    refused = ally_refusal(target, giver)
    if refused is not None:
        raise RuleViolation(refused)
    if giver.name == target.name:
        return str(giver.name)
    return f"{giver.name}, {target.name}'s adjacent Ally"


def ally_refusal(target: Any, giver: Any) -> str | None:
    """Why ``giver`` may not spend for ``target`` (:func:`adjacent_ally`'s refusal), or
    None when it may — asked without raising by a caller that weighs every unit (the
    simulated fight's Luck offers: a raise and its catch, ~3 a fight, cost more than
    the test)."""
    if giver.name == target.name:
        return None
    placed, sides = _placement.placed, _sides
    mine, theirs = sides.faction_of(target), sides.faction_of(giver)
    if mine is None or mine != theirs:
        return (f"--from {giver.name}: not an Ally of {target.name} (000 l.526 "
                "\"an adjacent Ally may do this instead\")")
    pa, pb = placed(target), placed(giver)
    if pa is not None and pb is not None and _apart(pa, pb) > 1:
        return (f"--from {giver.name}: not adjacent to {target.name} on the map "
                "(000 l.533 \"or an adjacent Unit's Player\")")
    return None


def _apart(pa: Any, pb: Any) -> int:
    """The Range between two placed units' nearest Spaces."""
    distance = _sight.distance
    if not (pa.double or pb.double):  # one Space each (a fight's usual case): no search
        return distance(pa.space, pb.space)
    return min(distance(a, b) for a in pa.spaces for b in pb.spaces)


def check(ask: DamageAsk) -> DamageAsk:
    if ask.screen is not None and not 0 <= ask.screen <= MAX_LUCK:
        raise BadInput(f"--screen {ask.screen}: a Screen's rating, 0 to {MAX_LUCK}")
    if not 0 <= ask.luck <= MAX_LUCK:
        raise BadInput(f"--luck {ask.luck}: Character Points, 0 to {MAX_LUCK}")
    if ask.item is not None and not ask.item.strip():
        raise BadInput("--item-damage names the Item that takes Damaged +1")
    return ask


def armor_value(value: Any) -> int:
    """An "Armor value" (000 l.529–530): a whole number (000's "Armor:+1", l.447), or a
    rating whose Level is the value (2x1 → 2)."""
    if isinstance(value, bool):
        raise BadInput(f"an Armor value is a number or a rating, not {value!r}")
    if isinstance(value, int) or str(value).strip().isdigit():
        n = int(value)
        if not 0 <= n <= MAX_LUCK:
            raise BadInput(f"an Armor value is 0 to {MAX_LUCK}, not {n}")
        return n
    return parse_stat(str(value)).level


def _shield(text: str, locations: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    where, sep, rating = text.rpartition("=")
    stat = armor_value(rating)
    if not sep:
        return stat, locations
    covers = tuple(_key(x) for x in where.split("+") if x.strip())
    bad = [c for c in covers if c not in locations]
    if bad or not covers:
        raise BadInput(f"--shield {text}: {', '.join(bad) or 'no location'} — the locations "
                       f"are {', '.join(locations)} (e.g. left_arm+torso=2x1)")
    return stat, covers


@record
class Step(Result):
    """One Damage Modifier applied: the change to the Damage and what is left."""

    key: str
    name: str
    change: int
    damage: int
    source: str


@record
class Modified(Result):
    """The Damage after its modifiers, and what they cost the target."""

    damage_before: int
    damage: int
    steps: tuple[Step, ...]
    screen_left: int | None  # the Screen after it stopped Damage (ablative)
    item_damaged: str | None  # the Item that took Damaged +1
    cp_spent: int


def modify(damage: int, *, location: str, location_name: str, types: tuple[str, ...],
           gear: Gear, ask: DamageAsk, locations: tuple[str, ...],
           armor: Stat | None = None, strict: bool = True) -> Modified:
    """The Damage Modifiers in 000's order (module doc). ``armor`` is the armor at the
    Hit Location under ``[rules] armor = "reduce"`` (None otherwise); ``locations`` the
    chart's, for ``--shield``. ``strict``: an Item not in the Hit Location is refused
    (``crit``); otherwise it stops nothing there (``odds crit``, every location)."""
    steps: list[Step] = []
    left = damage

    def step(key: str, name: str, change: int) -> None:
        nonlocal left
        change = max(change, -left)
        left += change
        steps.append(Step(key, name, change, left, SOURCES[key]))

    vulnerable = ask.vulnerable or ANY in gear.vulnerable or bool(
        set(types) & set(gear.vulnerable))
    if vulnerable:
        step("vulnerable", "Vulnerable", 1)
    if ask.wild_luck and left:
        step("wild_luck", "Wild Luck: a Wild discarded, ALL Successes cancelled", -left)
    screen = gear.screen if ask.screen is None else ask.screen
    screen_left = None
    if screen and left:
        stopped = min(screen, left)
        step("screen", f"Screen {screen} (left: {screen - stopped})", -stopped)
        screen_left = screen - stopped
    if armor is not None and armor.level and left:
        step("armor", f"Armor {armor} at {location_name}", -armor.level)
    shield, covers = _shield_of(gear, ask, locations)
    if shield is not None and location in covers and left:
        step("shield", f"Shield {shield} covers {location_name}", -shield)
    item = None
    if ask.item is not None and left and _item_here(ask.item, gear, location,
                                                    location_name, strict):
        item = ask.item
        step("item", f"Item Damage: {item} Damaged +1", -1)
    spent = 0
    if ask.luck and left:
        spent = min(ask.luck, left)
        step("luck", f"Luck: {spent} Character Point(s)", -spent)
    return Modified(damage, left, tuple(steps), screen_left, item, spent)


def _shield_of(gear: Gear, ask: DamageAsk, locations: tuple[str, ...]
               ) -> tuple[int | None, tuple[str, ...]]:
    """The Shield and what it covers (000 l.530): ``--shield`` as typed, else the gear's,
    written by hand — and a Shield covers something."""
    if ask.shield is not None:
        return _shield(ask.shield, locations)
    shield, covers = gear.shield, gear.shield_covers
    if shield is not None:
        bad = [c for c in covers if c not in locations]
        if bad or not covers:
            raise BadInput(f"[units.NAME.gear] shield_covers: {', '.join(bad) or 'no location'}"
                           f" — a Shield covers some of {', '.join(locations)} (000 l.530)")
    return shield, covers


def _item_here(item: str, gear: Gear, location: str, location_name: str,
               strict: bool) -> bool:
    """Whether ``--item-damage`` ITEM stops Damage at the Hit Location (000 l.531): an
    Item of the gear, there (refused elsewhere when ``strict``), or an Item the gear
    does not place."""
    where = gear.items.get(item) if gear.items else None
    if gear.items and item not in gear.items:
        raise RuleViolation(f"--item-damage {item}: no such Item in the gear "
                            f"(items: {', '.join(gear.items)})")
    if where is not None and where != location and strict:
        raise RuleViolation(f"--item-damage {item}: it is at {where}, not in the Hit "
                            f"Location {location_name} (000 l.531)")
    return where is None or where == location


def wear(extra: dict[str, Any], mod: Modified) -> None:
    """What the modifiers cost the target's gear: the Screen loses what it stopped, the
    Item takes its Damaged token (the session's ``[units.NAME.gear]``)."""
    gear = dict(extra.get(GEAR) or {})
    if mod.screen_left is not None and "screen" in gear:
        gear["screen"] = mod.screen_left
    if mod.item_damaged is not None:
        damaged = dict(gear.get("damaged", {}))
        damaged[mod.item_damaged] = int(damaged.get(mod.item_damaged, 0)) + 1
        gear["damaged"] = damaged
    if gear:
        extra[GEAR] = gear
