"""The table says it once: ``unit situation`` (cover, range, high ground this round),
``unit interrupt`` (who Interrupted whom) and ``unit respond`` (the Target spends an
Action on the Interact, or not). Stored by rules/units/exchange.py; read by
``conflict`` and ``hit`` (rules/combat/remembered.py).

001 l.625 "Interrupt - Pause the Countdown"; l.637–641 "Target - Target chooses
Skill/Power/Item / Target may spend an Action / IF not Target gains no benefits on a
Win"; 000 l.126 "IF your Move is Interrupted by an Action THEN stop moving, resolve the
Action, and then continue your Move"; l.310.
"""

from __future__ import annotations

from typing import Any, Literal, overload

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.time.turns import Spending, act, under_way
from d2d_cli.rules.units import abilities, exchange
from d2d_cli.rules.units.roster import Unit, find

MAX_RANGE = 10_000


@record
class Said(Result):
    """What the table said of a unit this round (``unit situation``)."""

    unit: str
    round: int
    cover: dict[str, int]  # "*" (every Rival) or a Rival's name → percent
    range: dict[str, int]  # unit → Spaces
    high_ground: tuple[str, ...]  # the units it is higher than
    summary: str = hidden("")


def _cover(pct: int) -> int:
    spec = tables.load("modifiers")["cover"]
    if pct < 0 or pct > spec["max"] or pct % spec["step"]:
        raise BadInput(f"--cover {pct}: a cover of 0 to {spec['max']}% in steps of "
                       f"{spec['step']} (001 l.716 \"Cover:+25% - for each obstacle\")")
    return pct


def _other(units: dict[str, Unit], unit: Unit, name: str, what: str = "--vs") -> Unit:
    rival = find(units, name)
    if rival.name == unit.name:
        raise BadInput(f"{what} {name}: name another unit than {unit.name}")
    return rival


def say(units: dict[str, Unit], number: int, phase: str, name: str, vs: str | None = None,
        cover: int | None = None, range_: int | None = None,
        high_ground: bool | None = None, clear: bool = False) -> Said:
    """``unit situation NAME [--vs OTHER] [--cover PCT] [--range N] [--high-ground]``:
    what holds for the rest of the round, until said again. Cover without ``--vs`` is
    against every Rival; range and high ground are between two units."""
    unit = find(units, name)
    under_way(number, phase)
    if clear and (cover is not None or range_ is not None or high_ground is not None):
        raise BadInput("--clear forgets what was said of the unit: give it alone")
    if not clear and cover is None and range_ is None and high_ground is None:
        raise BadInput("say something: --cover PCT, --range N --vs OTHER, --high-ground "
                       "--vs OTHER (or --clear)")
    rival = _other(units, unit, vs) if vs is not None else None
    if rival is None and (range_ is not None or high_ground is not None):
        raise BadInput("--range and --high-ground are between two units: add --vs OTHER")
    if range_ is not None and not 0 <= range_ <= MAX_RANGE:
        raise BadInput(f"--range {range_}: Spaces from 0 to {MAX_RANGE}")
    mine = exchange.said(unit, number, phase)
    if clear:
        for other in units.values():
            if other is unit:
                continue
            theirs = exchange.said(other, number, phase)
            if unit.name in theirs["range"] or unit.name in theirs["high_ground"]:
                theirs["range"].pop(unit.name, None)
                theirs["high_ground"] = [n for n in theirs["high_ground"] if n != unit.name]
                exchange.keep_said(other, number, theirs)
        mine = {"cover": {}, "range": {}, "high_ground": []}
    if cover is not None:
        key = rival.name if rival is not None else exchange.ANY
        if _cover(cover):
            mine["cover"][key] = cover
        else:
            mine["cover"].pop(key, None)
    if rival is not None and range_ is not None:
        mine["range"][rival.name] = range_
        theirs = exchange.said(rival, number, phase)
        theirs["range"][unit.name] = range_
        exchange.keep_said(rival, number, theirs)
    if rival is not None and high_ground is not None:
        theirs = exchange.said(rival, number, phase)
        theirs["high_ground"] = [n for n in theirs["high_ground"] if n != unit.name]
        exchange.keep_said(rival, number, theirs)
        mine["high_ground"] = [n for n in mine["high_ground"] if n != rival.name]
        if high_ground:
            mine["high_ground"].append(rival.name)
    exchange.keep_said(unit, number, mine)
    parts = [f"Cover {v}%" + ("" if k == exchange.ANY else f" vs {k}")
             for k, v in mine["cover"].items()]
    parts += [f"Range {v} to {k}" for k, v in mine["range"].items()]
    parts += [f"High Ground over {k}" for k in mine["high_ground"]]
    return Said(unit.name, number, mine["cover"], mine["range"], tuple(mine["high_ground"]),
                f"{unit.name}: " + (", ".join(parts) if parts else "nothing said"))


@record
class Interrupted(Result):
    """``unit interrupt ACTOR TARGET``: ACTOR's Action stops TARGET's Move."""

    unit: str
    target: str
    interrupted_by: tuple[str, ...]  # everyone who Interrupted TARGET this round
    summary: str = hidden("")


def interrupt(units: dict[str, Unit], number: int, phase: str, name: str,
              target: str) -> Interrupted:
    """000 l.126 "IF your Move is Interrupted by an Action THEN stop moving, resolve the
    Action, and then continue your Move"; 001 l.625 "Interrupt - Pause the Countdown".
    The Interrupt is made by an Action: the unit must have one left (its Interact comes
    next, ``unit act NAME interact TARGET``)."""
    unit = abilities.alive(find(units, name))
    other = abilities.alive(_other(units, unit, target, "TARGET"))
    under_way(number, phase)
    if unit.move is None or unit.action_cost is None:
        raise RuleViolation(f"{unit.name} has no Move tokens this round")
    if unit.move < unit.action_cost:
        raise RuleViolation(f"{unit.name} has Move {unit.move}; an Interrupt is an Action "
                            f"(Action Cost {unit.action_cost}, 000 l.128 \"Actions can "
                            "Interrupt Moves\")")
    by = exchange.interrupt(unit, other, number, phase)
    return Interrupted(unit.name, other.name, tuple(by),
                       f"{unit.name} Interrupts {other.name}'s Move")


@record
class Responded(Result):
    """``unit respond NAME [--no-action]``: the Target of an Interact answers."""

    unit: str
    actor: str
    interrupt: bool
    action: bool
    spending: Spending | None
    benefit: bool  # whether a Win brings it the benefits of its approach
    source: str
    summary: str = hidden("")


@overload
def respond(units: dict[str, Unit], number: int, phase: str, name: str,
            action: bool, *, report: Literal[True] = True) -> Responded: ...
@overload
def respond(units: dict[str, Unit], number: int, phase: str, name: str,
            action: bool, *, report: bool) -> Responded | None: ...
def respond(units: dict[str, Unit], number: int, phase: str, name: str,
            action: bool, *, report: bool = True) -> Responded | None:
    """001 l.639–641: the Target may spend an Action (Move:-[Action Cost]); if not, it
    gains no benefits on a Win. With ``report`` False (a simulated fight without a log,
    which reads no result) the unit changes the same and no result is written: None,
    as ``turns.act`` writes no Spending. Of the unit, only its tokens, Spending, round
    effects and the Interact aimed at it change (a simulated fight keeps the rest of its
    reading: rules.assistant.engine ``_same_base``, checked by tests)."""
    unit = find(units, name)
    under_way(number, phase)
    rec: dict[str, Any] | None = exchange.interacted(unit, number, phase)
    if rec is None:
        raise RuleViolation(f"no Interact aims at {unit.name} this round: the Actor's "
                            f"Action comes first (d2d unit act ACTOR interact {unit.name!r})")
    if "action" in rec:
        said = "spent an Action" if rec["action"] else "chose not to spend an Action"
        raise RuleViolation(f"{unit.name} already {said} on {rec['by']}'s Interact")
    spending = act(units, number, phase, name, "interact", None,
                   report=report) if action else None
    exchange.answer(unit, action)
    if not report:
        return None
    what = "spends an Action" if action else "spends no Action (no benefit on a Win)"
    return Responded(unit.name, str(rec["by"]), bool(rec.get("interrupt")), action, spending,
                     action, '001 l.639–641 "Target may spend an Action / IF not Target '
                     'gains no benefits on a Win"',
                     f"{unit.name} {what} against {rec['by']}")
