"""Days passing for a unit's conditions (``unit heal --days``): the Glossary's healing
times with part-months carried, and the conditions no day outlasts.

000 Glossary: "Blood Loss - Body:-1. Day: Blood Loss:-1." (l.1148), "Burns - Speed:-1.
Month:Burns:-1." (l.1156). The days given are added to those carried from earlier heals,
so 31 heals of one day heal a Burn as one of 31 days does; what is left over is kept on
the unit (``healing``: condition → days toward its next token) while it holds the
condition.

Under ``[rules] days_heal = "rounds"`` (default) a day also ends what the round's end
takes off: each round end "Recover - Each Unit removes a Fatigue, Stun, Stress, or Slow"
(000 l.611; 001 l.1039) and a day holds 14,400 six-second rounds, so no Minor Condition
survives it; a condition whose round-end reveal can take it off (Bleeding "Cups=
Bleeding:-1", Burning, Diseased "IF Ace THEN Diseased:-1", Poisoned) has stopped within
it too (docs/rules.md "Healing over days"). ``"glossary"``: only the Glossary's Day and
Month times count.
"""

from __future__ import annotations

from typing import Any

from d2d_cli.rules.units.condition_table import Condition, table
from d2d_cli.rules.units.roster import Unit

HEALING = "healing"
READINGS = ("rounds", "glossary")


def ends_by_event(key: str, cond: Condition) -> bool:
    """Whether the condition's round-end reveal can take a token of it off."""
    event: dict[str, Any] = cond.event or {}
    return any(isinstance(v, dict) and v.get(key, 0) < 0 for v in event.values())


def ends_in_a_day(key: str, cond: Condition, reading: str) -> bool:
    return reading == "rounds" and (cond.severity == "minor" or ends_by_event(key, cond))


def carried(unit: Unit) -> dict[str, int]:
    raw = unit.extra.get(HEALING) or {}
    return {str(k): int(v) for k, v in raw.items()}


def pass_days(unit: Unit, days: int, reading: str = "rounds") -> tuple[dict[str, int],
                                                                        dict[str, int]]:
    """Let ``days`` pass: (tokens healed by condition, days carried toward the next
    token of each condition still held)."""
    before = carried(unit)
    healed: dict[str, int] = {}
    carry: dict[str, int] = {}
    for key, cond in table().items():
        held = unit.conditions.get(key, 0)
        if not held:
            continue
        if ends_in_a_day(key, cond, reading):
            unit.add_condition(key, -held)
            healed[key] = held
            continue
        if not cond.heal_days:
            continue
        total = before.get(key, 0) + days
        n = min(held, total // cond.heal_days)
        if n:
            unit.add_condition(key, -n)
            healed[key] = n
        left = total - n * cond.heal_days
        if unit.conditions.get(key, 0) and left:
            carry[key] = left
    if carry:
        unit.extra[HEALING] = carry
    else:
        unit.extra.pop(HEALING, None)
    return healed, carry
