"""Conditions (000 "Reference > Units > Conditions" and the Glossary), from
``tables/conditions.toml``: their stat penalties, their round-end events, how they
go away — and healing, which also takes off the Crits placed on a unit.

The token rules of ``d2d unit condition`` live here: :func:`order` checks what was
typed before the session is touched, :func:`apply` changes the unit. Healing
(:func:`healing`, :func:`heal`) follows the recovery times the Glossary prints
(000 l.1148 "Blood Loss - Body:-1. Day: Blood Loss:-1."; l.1156 "Burns - Speed:-1.
Month:Burns:-1.") and removes Crits, for which neither text gives a time (000 l.1199
"Healing - This is done during Downtime."; docs/rules.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.units.condition_table import Condition as Condition
from d2d_cli.rules.units.condition_table import condition_key
from d2d_cli.rules.units.condition_table import lookup as lookup
from d2d_cli.rules.units.condition_table import name_of as name_of
from d2d_cli.rules.units.condition_table import penalties as penalties
from d2d_cli.rules.units.condition_table import table as table
from d2d_cli.rules.units.roster import Unit, UnitRow, find, row_values, status_row

if TYPE_CHECKING:  # a card is only read where an event is drawn: `unit list` parses none
    from d2d_cli.rules.deck.cards import Card

MINOR = ("fatigue", "stun", "stress", "slow")
DEATH = ("dying", "dead")  # Glossary Statuses, held or not (000 l.1172, l.1183)
MAX_TOKENS = 20
# 000 l.1156 "Month:Burns:-1": d2d counts a month as 30 days (docs/rules.md).
MAX_DAYS = 36500


def event_outcome(key: str, card: Card) -> dict[str, int]:
    """What a round-end reveal does to a unit with condition ``key`` (Glossary):
    condition key → token change. Empty: nothing happens (also for a Wild, which the
    Glossary does not cover — docs/rules.md)."""
    event = table()[key].event
    if not event or card.is_wild:
        return {}
    pick = card.suit if event["by"] == "suit" else card.rank
    return dict(event.get(str(pick), {}))


def crit_name(crit: dict[str, Any]) -> str:
    """``Crit Right Arm (Critical)``, as the Status Bar shows a placed Crit."""
    return f"Crit {_where(crit)}"


def _where(crit: dict[str, Any]) -> str:
    location = str(crit.get("location", "?")).replace("_", " ").title()
    return f"{location} ({str(crit.get('severity', '?')).title()})"


# --------------------------------------------------------------------------- tokens


@record
class Order:
    """A checked ``unit condition`` request: add or remove ``count`` tokens."""

    action: str
    condition: Condition
    count: int


def order(action: str, condition: str, count: int) -> Order:
    """What was typed, checked before the session is touched."""
    if action not in ("add", "remove"):
        raise BadInput(f"unknown action {action!r}: use add or remove")
    if not 1 <= count <= MAX_TOKENS:
        raise BadInput(f"--count {count}: use 1 to {MAX_TOKENS} tokens")
    return Order(action, lookup(condition), count)


def apply(units: dict[str, Unit], name: str, o: Order) -> UnitRow:
    """Add or remove the tokens; removing a condition the unit does not have is refused
    (removing more tokens than it has takes them all)."""
    unit = find(units, name)
    cnd = o.condition
    if o.action == "remove" and unit.conditions.get(cnd.key, 0) == 0:
        raise BadInput(f"{unit.name} has no {cnd.name} to remove")
    if o.action == "add" and cnd.key in DEATH and unit.conditions.get("dead"):
        raise RuleViolation(f"{unit.name} is already Dead (000 l.1172 \"Dead - Permanent "
                            "Negative Status\")")
    now = unit.add_condition(cnd.key, o.count if o.action == "add" else -o.count)
    summary = f"{unit.name}: {cnd.name} {o.action} {o.count} → {now}"
    if o.action == "add" and cnd.key in DEATH:
        # 000 l.1183 "Dying - Negative Status leading to Dead": one token of each at
        # most, and Dead ends Dying (docs/rules.md "Dying and Dead").
        unit.conditions[cnd.key] = 1
        if cnd.key == "dead" and unit.conditions.pop("dying", 0):
            summary = f"{unit.name}: Dying → Dead"
    return status_row(unit, summary)


# --------------------------------------------------------------------------- healing


@record
class Healing:
    """A checked ``unit heal`` request: Crits to take off, days of healing."""

    crits: tuple[str, ...]
    days: int | None
    reading: str = "rounds"  # [rules] days_heal (rules/units/downtime.py)


def healing(crits: list[str], days: int | None, reading: str = "rounds") -> Healing:
    if not crits and days is None:
        raise BadInput("nothing to heal: give --crit LOCATION (or its number) and/or "
                       "--days N")
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise BadInput(f"--days {days}: use 1 to {MAX_DAYS} days")
    for c in crits:
        if not c.strip():
            raise BadInput("--crit needs a location (e.g. torso) or a Crit's number")
    return Healing(tuple(c.strip() for c in crits), days, reading)


@record
class Healed(UnitRow):
    """The unit after healing, with what was healed."""

    days: int | None = None
    # Condition tokens the days took off (000 l.1148 "Day: Blood Loss:-1").
    healed: dict[str, int] = field(default_factory=dict)
    crits_healed: tuple[dict[str, Any], ...] = ()
    # Days carried toward each condition's next token (a part-month of Burns).
    carried: dict[str, int] = field(default_factory=dict)


def _take_crits(unit: Unit, chosen: tuple[str, ...]) -> list[dict[str, Any]]:
    """Take placed Crits off, each named by its number on the Status Bar (1 = the first
    placed) or by location (``right arm``, ``right_arm``: the first Crit there not named
    already). Every name is read against the Crits as they were, so ``--crit 1 --crit 2``
    takes the first two."""
    crits: list[dict[str, Any]] = list(unit.extra.get("crits", []))
    picked: list[int] = []
    for which in chosen:
        if which.isdigit():
            index = int(which) - 1
            if not 0 <= index < len(crits):
                raise BadInput(f"{unit.name} has no Crit #{which} ({_held(crits)})")
            if index in picked:
                raise BadInput(f"Crit #{which} of {unit.name} is named twice")
        else:
            at = [i for i, c in enumerate(crits)
                  if str(c.get("location")) == condition_key(which) and i not in picked]
            if not at:
                raise BadInput(f"{unit.name} has no {'other ' if picked else ''}Crit at "
                               f"{which} ({_held(crits)})")
            index = at[0]
        picked.append(index)
    left = [c for i, c in enumerate(crits) if i not in picked]
    if left:
        unit.extra["crits"] = left
    else:
        unit.extra.pop("crits", None)
    return [dict(crits[i]) for i in picked]


def _held(crits: list[dict[str, Any]]) -> str:
    if not crits:
        return "no Crits placed"
    return "Crits: " + ", ".join(f"#{i} {_where(c)}" for i, c in enumerate(crits, 1))


def heal(units: dict[str, Unit], name: str, h: Healing) -> Healed:
    """Take the named Crits off, then let ``days`` pass for the conditions that heal with
    time: each token of a condition with ``heal_days`` heals after that many days, one
    at a time (Blood Loss: 1 token a day; Burns: 1 a month = 30 days)."""
    unit = find(units, name)
    if unit.conditions.get("dead"):
        raise RuleViolation(f"{unit.name} is Dead (000 l.1172 \"Dead - Permanent Negative "
                            "Status\"): nothing heals (unit condition … remove dead, if the "
                            "table says otherwise)")
    taken = _take_crits(unit, h.crits)
    healed: dict[str, int] = {}
    carry: dict[str, int] = {}
    if h.days is not None:
        from d2d_cli.rules.units.downtime import pass_days

        healed, carry = pass_days(unit, h.days, h.reading)
    parts = [crit_name(c) for c in taken]
    parts += [f"{name_of(k)} −{n}" for k, n in healed.items()]
    if h.days is not None:
        parts.append(f"{h.days} day(s)")
    summary = f"{unit.name} healed: {', '.join(parts)}"
    return Healed(**row_values(unit), summary=summary, days=h.days, healed=healed,
                  crits_healed=tuple(taken), carried=carry)
