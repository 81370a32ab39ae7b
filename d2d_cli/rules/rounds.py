"""Rounds: refresh at the start, upkeep at the end (001 p.19 "Round: Start",
p.40 "Round: End"; 000 "6) Events").

Round: Start — "Refresh - Place tokens on each Unit# card: Action Cost = Speed/2
(round down), Move = Speed, Turn = 2". Speed is the Speed stat's level after its
condition penalties (a Slow token gives Speed:-1), never below 0.

Round: End — "Do after all Groups complete Rounds: Draw - Each Player draws a card.
Recover - For each Unit: Remove a Fatigue, Stun, Stress, Slow OR Ready an Ability in
Cooldown. Task Clock - Progress:-1 on each Task. Events - Triggered Events happen
here. Clock - Discard the top card of the Clock. Resolve any revealed Clock Events."

A round record ``{number, phase}`` makes each round end once: a second end without a
new start is refused, so upkeep is never applied twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules import conditions, units
from d2d_cli.rules.cards import Card
from d2d_cli.rules.clock import Clock
from d2d_cli.rules.tasks import Task
from d2d_cli.rules.tasks import round_end as task_clock

TURN = 2
DRAW_TEXT = "Draw - Each Player draws a card (a hand holds at most 10)."


@dataclass
class Round:
    number: int = 0
    phase: str = "none"  # "none" (no round yet), "started" or "ended"

    @classmethod
    def from_state(cls, s: dict[str, Any] | None) -> Round:
        s = s or {}
        return cls(int(s.get("number", 0)), str(s.get("phase", "none")))

    def to_state(self) -> dict[str, Any]:
        return {"number": self.number, "phase": self.phase}


def speed_level(unit: units.Unit, penalties: bool = True) -> int | None:
    """The Speed stat's level, less its condition penalties (``[rules]
    refresh_penalties = false`` uses the printed level)."""
    stat = unit.stats.get("speed")
    if stat is None:
        return None
    change = conditions.penalties(unit.conditions).get("speed", 0) if penalties else 0
    return max(0, stat.level + change)


def refresh(unit: units.Unit, penalties: bool = True) -> None:
    """Move = Speed, Action Cost = Speed/2 (round down), Turn = 2."""
    speed = speed_level(unit, penalties)
    unit.move = speed
    unit.action_cost = None if speed is None else speed // 2
    unit.turn = TURN


def start(rnd: Round, roster: dict[str, units.Unit],
          penalties: bool = True) -> list[dict[str, Any]]:
    if rnd.phase == "started":
        raise RuleViolation(f"round {rnd.number} is under way: end it first (d2d round end)")
    rnd.number += 1
    rnd.phase = "started"
    rows = []
    for unit in roster.values():
        refresh(unit, penalties)
        rows.append({"unit": unit.name, "speed": unit.move, "move": unit.move,
                     "action_cost": unit.action_cost, "turn": unit.turn})
    return rows


def parse_recover(values: list[str], roster: dict[str, units.Unit]) -> dict[str, str]:
    """``NAME=fatigue`` (a minor condition) or ``NAME=ABILITY`` (an ability in cooldown)."""
    out: dict[str, str] = {}
    for v in values:
        name, sep, choice = v.partition("=")
        if not sep or not name.strip() or not choice.strip():
            raise BadInput(f"--recover {v!r}: give NAME=CHOICE, e.g. Archer=fatigue")
        unit = units.find(roster, name.strip())
        if unit.name in out:
            raise BadInput(f"--recover: {unit.name} recovers once a round")
        key = units.condition_key(choice)
        options = recover_choices(unit)
        if key not in options and choice.strip() not in options:
            raise BadInput(f"--recover {v!r}: {unit.name} can recover "
                           f"{', '.join(options) or 'nothing'}")
        out[unit.name] = key if key in options else choice.strip()
    return out


def recover_choices(unit: units.Unit) -> list[str]:
    """Minor conditions held, then abilities in cooldown (``cooldown`` on the unit)."""
    held = [k for k in conditions.MINOR if unit.conditions.get(k, 0) > 0]
    return held + [str(a) for a in unit.extra.get("cooldown", [])]


def _recover(roster: dict[str, units.Unit], chosen: dict[str, str]) -> dict[str, Any]:
    applied, choices = [], []
    for unit in roster.values():
        pick = chosen.get(unit.name)
        if pick is None:
            options = recover_choices(unit)
            if options:
                choices.append({"unit": unit.name, "choices": options})
        elif pick in conditions.MINOR:
            applied.append({"unit": unit.name, "removed": pick,
                            "left": unit.add_condition(pick, -1)})
        else:
            unit.extra["cooldown"] = [a for a in unit.extra.get("cooldown", []) if a != pick]
            applied.append({"unit": unit.name, "readied": pick})
    return {"kind": "recover", "applied": applied, "choices": choices}


def event_checks(roster: dict[str, units.Unit]) -> list[tuple[units.Unit, str]]:
    """Each (unit, condition) whose condition has a round-end event, in roster order
    and the conditions table's order: one Fate reveal each."""
    table = conditions.table()
    return [(u, k) for u in roster.values() for k in table
            if table[k].event and u.conditions.get(k, 0) > 0]


def _condition_events(checks: list[tuple[units.Unit, str]],
                      reveal: Callable[[], Card]) -> dict[str, Any]:
    cards = [reveal() for _ in checks]
    out = []
    for (unit, key), card in zip(checks, cards, strict=True):
        outcome = conditions.event_outcome(key, card)
        for k, delta in outcome.items():
            unit.add_condition(k, delta)
        out.append({"unit": unit.name, "condition": key, "card": card.to_json(),
                    "outcome": outcome, "conditions": dict(unit.conditions)})
    return {"kind": "condition_events", "reveals": out}


def end(rnd: Round, roster: dict[str, units.Unit], tasks: dict[str, Task], clock: Clock,
        reveal: Callable[[], Card],
        recover: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The upkeep, in order, once. Running out of table cards raises (the command then
    changes nothing)."""
    if rnd.phase == "ended":
        raise RuleViolation(f"round {rnd.number} has already ended — upkeep is applied "
                            "once; start the next round with d2d round start")
    if rnd.phase != "started":
        raise RuleViolation("no round is under way: start one with d2d round start")
    steps: list[dict[str, Any]] = [{"kind": "draw", "text": DRAW_TEXT}]
    steps.append(_recover(roster, recover or {}))
    steps.append({"kind": "task_clock", "changes": task_clock(tasks)})
    steps.append(_condition_events(event_checks(roster), reveal))
    randoms = clock.check_random(reveal)
    steps.append({"kind": "random_events", "checks": randoms})
    before = clock.value
    reached = clock.tick(clock.down)
    steps.append({"kind": "clock", "clock_before": before, "clock": clock.value,
                  "events": reached})
    rnd.phase = "ended"
    return steps
