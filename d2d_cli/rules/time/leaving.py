"""``d2d unit leave``: a unit at the map's edge steps off it and has left the scene's map
(docs/rules.md "Leaving the map").

The step is a Move like any other (000 l.272–277), paid from the round's tokens
(``rules.time.turns``), and the Space beyond is off the map (``rules.board.edge``). The
unit then has no Space, keeps ``off_map = true`` (what a goal's ``off map UNIT`` reads,
``rules.assistant.goals``) and is no one's Target (001 p.19 "Targets": a unit that is
not on the board). A bound unit (``bound``, e.g. Combat #1's "Restrict:Bind:4 tied with
a Knot:4", 000 l.556) cannot leave until a task it works is won — the Knot untied.
``unit place`` puts a unit that left back on a Space.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.board.edge import exit_by
from d2d_cli.rules.board.grid import Board, space_name
from d2d_cli.rules.board.placement import OFF_MAP, SPACE, placed
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.time import turns
from d2d_cli.rules.units import abilities, effects
from d2d_cli.rules.units import stealth as hiding
from d2d_cli.rules.units.roster import Unit, find

BOUND = turns.BOUND
binding = turns.binding  # what still binds a unit (kept here for its readers)


def has_left(unit: Mapping[str, Any]) -> bool:
    return bool(unit.get(OFF_MAP))


@record
class Left(Result):
    """A unit that stepped off the map."""

    unit: str
    step: str  # "Forward N"
    words: tuple[str, ...]  # as typed: ("drift", "left")
    space_before: str
    move_before: int
    move: int
    cost: int
    targets_cleared: tuple[str, ...]
    off_map: bool
    summary: str = hidden("")


def leave(units: dict[str, Unit], number: int, phase: str, name: str,
          board: Board | None, tasks: Mapping[str, Any], kind: str | None = None,
          way: str | None = None) -> Left:
    """``unit leave NAME [KIND [SIDE]]``: the unit's step off the map (the cheapest, or
    the one named) at its Move; refused away from the edge, for a bound or Dead unit,
    outside a round or with too little Move. Units that targeted it lose the Target."""
    unit = abilities.alive(find(units, name))
    if board is None:
        raise RuleViolation("the session has no map: load a scene with a [board] "
                            "(docs/board.md)")
    place = placed(unit)
    if place is None:
        why = "it has left the map already" if has_left(unit.extra) else \
            "it stands on no Space (d2d unit place)"
        raise RuleViolation(f"{unit.name} cannot leave the map: {why}")
    held = binding(unit.name, unit.extra, tasks)
    if held is not None:
        raise RuleViolation(f"{unit.name} is bound ({held}) and cannot leave the map: "
                            "win the task that frees it first (d2d task win), or free it "
                            f"another way (d2d unit free {unit.name!r})")
    step = exit_by(board, place, kind, way)
    turns.under_way(number, phase)
    if unit.move is None:
        raise RuleViolation(f"{unit.name} has no Move tokens this round (no Speed, or "
                            "added after d2d round start)")
    here = space_name(place.space)
    if step.move > unit.move:
        raise RuleViolation(f"{unit.name} has Move {unit.move}; {step.label} off the map "
                            f"from {here} costs {step.move}")
    effects.hidden_move(unit, hiding.tokens(unit), step.move)
    effects.moved(unit, step.move)
    before = unit.move
    unit.move = before - step.move
    unit.extra.pop(SPACE, None)
    unit.extra[OFF_MAP] = True
    cleared = tuple(u.name for u in units.values() if u.target == unit.name)
    for other in cleared:
        units[other].target = None
    unit.target = None
    return Left(unit.name, step.label, step.words, here, before, unit.move, step.move,
                cleared, True, f"{unit.name} leaves the map: {step.label} from {here}, "
                f"Move {before} → {unit.move}")


@record
class Freed(Result):
    """A bound unit set free by the table (``unit free``): who, and what had bound it."""

    unit: str
    bound: str  # what bound it
    summary: str = hidden("")


def free(units: dict[str, Unit], name: str) -> Freed:
    """``unit free NAME``: the table frees a bound unit another way than the task that
    would (an Ally cuts the rope, a Power, the Narrator's word). The rules free the
    Thief only by his task (000 l.599–606); d2d keeps that reading (:func:`binding`) and
    this is the table's override, so a dropped task never leaves a unit bound for good."""
    unit = find(units, name)
    bound = unit.extra.get(BOUND)
    if not bound:
        raise BadInput(f"{unit.name} is not bound (only a unit with a bound, e.g. Combat "
                       "#1's Thief, can be freed)")
    del unit.extra[BOUND]
    return Freed(unit.name, str(bound), f"{unit.name} is free: no longer {bound}")


def freed_by(task: Mapping[str, Any], units: dict[str, Unit]) -> tuple[str, ...]:
    """The bound workers a won task has freed (:func:`binding`): when it is dropped they
    stay free, so their ``bound`` goes with it."""
    if int(task.get("challenge", 1)) > 0:
        return ()
    out = []
    for name in task.get("workers", ()):
        unit = units.get(name)
        if unit is not None and unit.extra.pop(BOUND, None):
            out.append(unit.name)
    return tuple(out)


def still_bound(task: Mapping[str, Any], units: Mapping[str, Unit],
                tasks: Mapping[str, Any]) -> tuple[str, ...]:
    """The workers of a dropped task that are still bound with it gone (``task drop``
    says so, and how to free them: ``d2d unit free NAME``)."""
    return tuple(n for n in task.get("workers", ()) if n in units
                 and binding(n, units[n].extra, tasks) is not None)


__all__ = ["BOUND", "OFF_MAP", "Freed", "Left", "binding", "free", "freed_by", "has_left",
           "leave", "still_bound"]
