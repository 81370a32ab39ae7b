"""What the round charges beyond the tokens: a Power's use spends the Interact Action,
and Round: End pays the Continuous Powers, adds the Stealth tokens of "Remain Hidden"
and ends what lasted "this Round".

000 l.299 (Interact/Fight) "Powers and Magic - Area Effects resolve at Event"; 001
l.627 (Action: Interact) "Skill/Power/Item - Choose a Skill, Power, or Item to use": a
Power is used by the Interact Action, Move:-[Action Cost] (001 l.569). 000 l.878
"Continuous:+1. Each Event Phase, you must pay the Price of Power to maintain the
effect": the Event phase is Round: End's "Events" (001 l.1033); every Event phase
after a use pays once, the round it was used in included (``rules.units.powers.charge``
marks it). 000 l.807 "Remain Hidden - Clock: Tokens+1": at the Clock step each Hidden
unit gains a token, never above 2×Stealth (000 l.803). The Dead pay nothing and gain
nothing (000 l.1172 "Dead - Permanent Negative Status").
"""

from __future__ import annotations

from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import field, record, replace
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.time import turns
from d2d_cli.rules.units import effects, powers, stealth
from d2d_cli.rules.units.roster import Unit, find
from d2d_cli.rules.units.unit_state import CONTINUOUS


def use_power(roster: dict[str, Unit], number: int, phase: str, name: str,
              order: powers.Order, area_rule: str = "table",
              opts: Options = DEFAULTS) -> powers.PowerUsed:
    """``unit power NAME use POWER``: in a round under way the unit spends its Interact
    Action (Move:-[Action Cost], refused with the numbers when Move is short); outside
    a round (scene prep, the table's own count) no token is spent."""
    unit = find(roster, name)
    spent = None
    if phase == "started" and unit.move is not None:
        spent = turns.act(roster, number, phase, name, "interact", opts=opts)
    # The use pays the Price of the use; the round's own Event phase is paid at round
    # end like every later one (000 l.878 "Each Event Phase, you must pay", issue 27).
    used = powers.use(roster, name, order, area_rule, paid_round=None)
    if spent is None:
        return used
    return replace(used, move_before=spent.move_before, move=spent.move,
                   action_cost=spent.action_cost)


@record
class PaidPowers(Result):
    """One unit's Continuous Powers paid at the Event phase."""

    unit: str
    paid: dict[str, str]  # power → the Condition taken
    conditions: dict[str, int]


@record
class PowersStep(Result):
    kind: str = field(default="continuous_powers", init=False)
    paid: tuple[PaidPowers, ...]


@record
class Hidden(Result):
    unit: str
    tokens_before: int
    tokens: int
    max_tokens: int


@record
class StealthStep(Result):
    kind: str = field(default="remain_hidden", init=False)
    units: tuple[Hidden, ...]


def _alive(unit: Unit) -> bool:
    return not unit.conditions.get("dead")


def pay_continuous(roster: dict[str, Unit], number: int) -> PowersStep | None:
    """The Event phase's upkeep of every Continuous Power not yet paid for this round
    (None when no unit keeps one up)."""
    out = []
    for unit in roster.values():
        if unit.extra.get(CONTINUOUS) and _alive(unit):  # mostly none kept up: no call
            paid = powers.charge(unit, number)
            if paid:
                out.append(PaidPowers(unit.name, paid, dict(unit.conditions)))
    return PowersStep(tuple(out)) if out else None


def remain_hidden(roster: dict[str, Unit]) -> StealthStep | None:
    """"Remain Hidden - Clock: Tokens+1" for every Hidden unit (None when none is)."""
    out = []
    for unit in roster.values():
        before = stealth.tokens(unit)
        if before and _alive(unit):
            got = stealth.tick(unit)
            out.append(Hidden(unit.name, before, got.tokens, got.max_tokens))
    return StealthStep(tuple(out)) if out else None


def end_effects(roster: dict[str, Unit]) -> tuple[str, ...]:
    """What lasted "this Round" ends (rules.units.effects)."""
    return effects.end_of_round(roster)
