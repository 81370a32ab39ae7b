"""Conditions (000 "Reference > Units > Conditions" and the Glossary), from
``tables/conditions.toml``: their stat penalties and their round-end events.

The token rules of ``d2d unit condition`` live here: :func:`order` checks what was
typed before the session is touched, :func:`apply` changes the unit.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.cards import Card
from d2d_cli.rules.units import Unit, UnitRow, condition_key, find, status_row

MINOR = ("fatigue", "stun", "stress", "slow")
MAX_TOKENS = 20


@dataclass(frozen=True)
class Condition:
    key: str
    name: str
    severity: str  # "minor" or "major"
    penalty: dict[str, int] = field(default_factory=dict)  # per token
    event: dict[str, Any] | None = None
    lasts: str | None = None
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "severity": self.severity,
                "penalty": dict(self.penalty), "event": self.event, "lasts": self.lasts,
                "text": self.text}


@cache
def table() -> dict[str, Condition]:
    raw = tables.load("conditions")
    return {
        key: Condition(key=key, name=v["name"], severity=v["severity"],
                       penalty=dict(v.get("penalty", {})), event=v.get("event"),
                       lasts=v.get("lasts"), text=v.get("text", ""))
        for key, v in raw.items()
    }


def lookup(name: str) -> Condition:
    """A condition by name (``Blood Loss``, ``blood-loss``…), or an error with suggestions."""
    key = condition_key(name)
    conditions = table()
    if key in conditions:
        return conditions[key]
    names = [c.name for c in conditions.values()]
    near = difflib.get_close_matches(name.title(), names, n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(near)}? " if near else ""
    raise BadInput(f"unknown condition {name!r} — {hint}known: {', '.join(names)}")


def name_of(key: str) -> str:
    """The condition's printed name (``blood_loss`` → ``Blood Loss``); an unknown key as
    it is stored."""
    cond = table().get(key)
    return cond.name if cond is not None else key


def penalties(conditions: dict[str, int]) -> dict[str, int]:
    """Total change per stat from a unit's condition tokens (each token counts)."""
    total: dict[str, int] = {}
    known = table()
    for key, count in conditions.items():
        cond = known.get(key)
        if cond is None or count <= 0:
            continue
        for stat, delta in cond.penalty.items():
            total[stat] = total.get(stat, 0) + delta * count
    return total


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
    location = str(crit.get("location", "?")).replace("_", " ").title()
    return f"Crit {location} ({str(crit.get('severity', '?')).title()})"


# --------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
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
    now = unit.add_condition(cnd.key, o.count if o.action == "add" else -o.count)
    return status_row(unit, f"{unit.name}: {cnd.name} {o.action} {o.count} → {now}")
