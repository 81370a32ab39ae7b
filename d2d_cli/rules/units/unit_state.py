"""What a unit keeps in play besides its stats, conditions and the round's Move, Action
Cost and Turn tokens (``Unit.move``, ``Unit.action_cost``, ``Unit.turn``, placed by
``round start``): the keys it is stored under in ``Unit.extra`` and how to read them.

Kept small and free of results so that ``status --json`` reads every unit's state
without loading the commands' rules (``turns``, ``abilities``, ``stealth``, ``powers``,
which write it).

- ``spent``: what the unit did in round N beyond its tokens — Actions taken, the boosts
  that last "this Round" (001 l.597, l.605). A record of another round counts for
  nothing, so each round start begins afresh without the Refresh knowing about it.
- ``cooldown``: the Abilities in Cooldown (001 l.181 "Cooldown - A sideways card"), a
  list of names; ``rules.time.rounds`` readies them at round end.
- ``active``: Skill → the Abilities used in the scene (001 l.415 "Active").
- ``facing``: a compass heading (001 l.495–497).
- ``stealth``: Stealth tokens (000 l.803); absent when the unit is not Hidden.
- ``continuous``: the Continuous Powers kept up, each with its Price (000 l.878) and the
  round whose Event phase it was paid for (``paid``: rules.units.powers).
- ``effects``: what a Special Action leaves for the Round, and the Round's counts that
  later actions read (rules.units.effects; cleared at Round: End).
- ``gear``: what the Damage Modifiers read (rules.combat.damage).
"""

from __future__ import annotations

from typing import Any

from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.units.roster import Unit

SPENT = "spent"
COOLDOWN = "cooldown"
ACTIVE = "active"
FACING = "facing"
STEALTH = "stealth"
CONTINUOUS = "continuous"
# 001 l.545 "Therefore, 2 Actions per Round are possible": the cap d2d applies when the
# Action Cost is 0 (Speed 0 or 1), where Move alone would allow any number.
ACTIONS_AT_NO_COST = 2


@record(frozen=False)
class Spent:
    """What a unit did in round ``round`` beyond its Move and Turn tokens."""

    round: int
    actions: int = 0
    boosts: list[str] = field(default_factory=list)


def spent(unit: Unit, number: int, phase: str) -> Spent:
    """This round's record (an empty one when the stored record is of another round, or
    no round is under way)."""
    raw = unit.extra.get(SPENT) or {}
    if phase != "started" or int(raw.get("round", -1)) != number:
        return Spent(number)
    return Spent(number, int(raw.get("actions", 0)), [str(b) for b in raw.get("boosts", [])])


def keep_spent(unit: Unit, record: Spent) -> None:
    unit.extra[SPENT] = {"round": record.round, "actions": record.actions,
                         "boosts": list(record.boosts)}


def actions_left(move: int | None, action_cost: int | None, taken: int) -> int | None:
    """How many more Actions the Move left pays for: Move ÷ Action Cost (001 l.543), or
    with an Action Cost of 0 the 2 a round of 001 l.545."""
    if move is None or action_cost is None:
        return None
    if action_cost <= 0:
        return max(0, ACTIONS_AT_NO_COST - taken)
    return move // action_cost


def cooldown(unit: Unit) -> list[str]:
    return [str(a) for a in unit.extra.get(COOLDOWN, [])]


def active(unit: Unit) -> dict[str, list[str]]:
    return {str(k): [str(a) for a in v] for k, v in unit.extra.get(ACTIVE, {}).items()}


def facing(unit: Unit) -> str | None:
    value = unit.extra.get(FACING)
    return None if value is None else str(value)


def stealth_tokens(unit: Unit) -> int:
    return int(unit.extra.get(STEALTH, 0) or 0)


def continuous(unit: Unit) -> list[dict[str, str]]:
    """The Continuous Powers kept up: ``{"power", "price"}`` each."""
    return [{"power": str(c["power"]), "price": str(c["price"])}
            for c in unit.extra.get(CONTINUOUS, [])]


def put(unit: Unit, key: str, value: Any) -> None:
    """Store ``value`` under ``key``, or drop the key when the value is empty (the session
    file keeps no empty tables)."""
    if value:
        unit.extra[key] = value
    else:
        unit.extra.pop(key, None)
