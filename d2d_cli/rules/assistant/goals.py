"""Faction goals in a form the simulator can check (docs/solo.md "Goals").

"Goals - Each Faction has Goals and they may be different. E.g. Rob the bank/Catch the
robbers. Completing your Goals completes the Scene." (000 l.186). A scene's
``[goals.FACTION]`` block states each goal as alternatives (``any``), each a list of
conditions that must all hold:

- ``rivals down`` — every unit of another faction is Dying or Dead;
- ``down UNIT`` — that unit is Dying or Dead;
- ``task NAME won`` / ``task NAME lost`` / ``task NAME not won``;
- ``off map UNIT [UNIT…]`` — those units have left the map (needs a board: a unit with
  no position never counts as gone);
- ``clock N`` — the scene clock has reached N.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record

DOWN = ("dying", "dead")  # 000 l.540 "Mortal Wound … is Dying"; Glossary Statuses


@record
class Condition:
    kind: str  # rivals_down, down, task_won, task_lost, task_not_won, off_map, clock
    names: tuple[str, ...] = ()
    number: int = 0

    @property
    def text(self) -> str:
        return {"rivals_down": "rivals down", "down": f"down {' '.join(self.names)}",
                "task_won": f"task {' '.join(self.names)} won",
                "task_lost": f"task {' '.join(self.names)} lost",
                "task_not_won": f"task {' '.join(self.names)} not won",
                "off_map": f"off map {' '.join(self.names)}",
                "clock": f"clock {self.number}"}[self.kind]


@record
class Goal:
    faction: str
    text: str  # the scene's own words (its [factions] goal)
    any: tuple[tuple[Condition, ...], ...]


def parse_condition(text: str, units: Mapping[str, Any], tasks: Mapping[str, Any],
                    where: str) -> Condition:
    words = str(text).split()
    low = [w.lower() for w in words]

    def unit_names(rest: list[str]) -> tuple[str, ...]:
        # unit names may hold spaces: match the longest known name at each point
        names: list[str] = []
        i = 0
        while i < len(rest):
            for j in range(len(rest), i, -1):
                cand = " ".join(rest[i:j])
                if cand in units:
                    names.append(cand)
                    i = j
                    break
            else:
                raise BadInput(f"{where}: {' '.join(rest[i:])!r} is not a unit of the scene")
        if not names:
            raise BadInput(f"{where}: {text!r} names no unit")
        return tuple(names)

    if low == ["rivals", "down"]:
        return Condition("rivals_down")
    if low[:1] == ["down"]:
        names = unit_names(words[1:])
        return Condition("down", names)
    if low[:2] == ["off", "map"]:
        return Condition("off_map", unit_names(words[2:]))
    if low[:1] == ["clock"] and len(words) == 2 and words[1].isdigit():
        return Condition("clock", (), int(words[1]))
    if low[:1] == ["task"] and len(words) >= 3:
        state = "not won" if low[-2:] == ["not", "won"] else low[-1]
        name = " ".join(words[1:-2] if state == "not won" else words[1:-1])
        kind = {"won": "task_won", "lost": "task_lost", "not won": "task_not_won"}.get(state)
        if kind is not None:
            if name not in tasks:
                raise BadInput(f"{where}: task {name!r} is not a task of the scene")
            return Condition(kind, (name,))
    raise BadInput(f"{where}: {text!r} is not a goal condition — rivals down, down UNIT, "
                   "task NAME won|lost|not won, off map UNIT…, clock N")


def parse(raw: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Goal]:
    """The scene's ``[goals]`` (stored under the session's ``scene.goals``) checked
    against its factions, units (and reserves) and tasks."""
    scene = data.get("scene", {})
    factions = scene.get("factions", {})
    units = {**data.get("units", {}), **scene.get("reserves", {})}
    tasks = data.get("tasks", {})
    out: dict[str, Goal] = {}
    seen: dict[Condition, Condition] = {}  # equal conditions are one object (reached)
    for faction, spec in raw.items():
        where = f"goals.{faction}"
        if faction not in factions:
            raise BadInput(f"{where}: {faction!r} is not a faction of the scene")
        alts = spec.get("any") if isinstance(spec, dict) else None
        if not isinstance(alts, list) or not alts or not all(
                isinstance(a, list) and a for a in alts):
            raise BadInput(f"{where}: give any = [[\"CONDITION\", …], …]")
        out[faction] = Goal(faction, str(factions[faction].get("goal", "")), tuple(
            tuple(seen.setdefault(cond, cond) for cond in (
                parse_condition(c, units, tasks, where) for c in alt)) for alt in alts))
    if not out:
        raise BadInput("the scene states no goals in a form sim can check: add a [goals] "
                       "block (docs/solo.md \"Goals\")")
    return out


def is_down(unit: Mapping[str, Any]) -> bool:
    cond = unit.get("conditions")
    if not cond:  # the usual case: checked for every unit after every Action
        return False
    for k in DOWN:  # noqa: SIM110 (``any`` over a generator built a frame at each call)
        if cond.get(k):
            return True
    return False


def holds(c: Condition, faction: str, data: Mapping[str, Any]) -> bool:
    """Whether one condition holds. Plain loops, no generators (each ``all`` over a
    generator built a frame and resumed it per unit): a fight asks after every Action,
    ~3 conditions a check. Each kind reads only what it needs (the units' tables, the
    clock, or one task: a task's Progress only where it counts), and a count stored as
    a whole number is taken as it is (``int`` of an int is that int: not called)."""
    kind = c.kind
    if kind == "rivals_down":
        for u in data.get("units", {}).values():  # noqa: SIM110 (a loop, not all())
            if u.get("faction") != faction and not is_down(u):
                return False
        return True
    if kind == "down":
        units = data.get("units", {})
        for n in c.names:  # noqa: SIM110
            if n not in units or not is_down(units[n]):
                return False
        return True
    if kind == "off_map":
        units = data.get("units", {})
        for n in c.names:  # noqa: SIM110
            if n not in units or not units[n].get("off_map"):
                return False
        return True
    if kind == "clock":
        value = data.get("clock", {}).get("value", 0)
        return (value if type(value) is int else int(value)) >= c.number
    task = data.get("tasks", {}).get(c.names[0], {})
    challenge = task.get("challenge", 1)
    won = (challenge if type(challenge) is int else int(challenge)) <= 0
    if kind == "task_lost":
        progress = task.get("progress", 1)
        return (progress if type(progress) is int else int(progress)) <= 0 and not won
    return won if kind == "task_won" else not won


def reached(goal: Goal, data: Mapping[str, Any]) -> bool:
    """Whether every condition of one of the goal's alternatives holds. Plain loops, no
    generators: a fight asks after every Action (~24 times a fight, both factions). A
    condition found not to hold is not asked again in the same call: a later alternative
    holding it fails at once (equal conditions of a goal are one object, :func:`parse`;
    Combat #1's Adventurers: the Knot won, and then off the map or the Rivals down)."""
    faction = goal.faction
    failed = None
    for alt in goal.any:
        for c in alt:
            if c is failed or not holds(c, faction, data):
                failed = c
                break
        else:
            return True
    return False
