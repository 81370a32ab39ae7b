"""Rounds: refresh at the start, upkeep at the end (001 p.19 "Round: Start",
p.40 "Round: End"; 000 "6) Events").

Round: Start — "Refresh - Place tokens on each Unit# card: Action Cost = Speed/2
(round down), Move = Speed, Turn = 2". Speed is the Speed stat after its condition
penalties (a Slow token gives Speed:-1; the Level never below 0); Move and Action Cost
come from it and the scene's map through the one rule, ``scale.move_tokens``. The
Status Bar shows the tokens placed, or before a unit's first Refresh the ones it would
get (:func:`status_bar`).

Round: End — "Do after all Groups complete Rounds: Draw - Each Player draws a card.
Recover - For each Unit: Remove a Fatigue, Stun, Stress, Slow OR Ready an Ability in
Cooldown. Task Clock - Progress:-1 on each Task. Events - Triggered Events happen
here. Clock - Discard the top card of the Clock. Resolve any revealed Clock Events."

A round record ``{number, phase}`` makes each round end once: a second end without a
new start is refused, so upkeep is never applied twice.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, cast, overload

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.deck.cards import Card
from d2d_cli.rules.deck.fate import Revealer
from d2d_cli.rules.time import clock as clocks
from d2d_cli.rules.time import upkeep
from d2d_cli.rules.time.round_state import Round
from d2d_cli.rules.time.tasks import Task, TaskTick
from d2d_cli.rules.time.tasks import round_end as task_clock
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units import roster as units
from d2d_cli.rules.units.status_bar import map_of as map_of
from d2d_cli.rules.units.status_bar import on_the_bar as on_the_bar
from d2d_cli.rules.units.status_bar import speed_now as speed_now
from d2d_cli.rules.units.status_bar import status_bar as status_bar
from d2d_cli.rules.units.status_bar import tokens as tokens
from d2d_cli.rules.units.status_bar import tokens_of
from d2d_cli.rules.units.status_bar import unit_on_bar as unit_on_bar
from d2d_cli.rules.units.unit_state import CONTINUOUS, COOLDOWN, STEALTH

TURN = 2
DRAW_TEXT = "Draw - Each Player draws a card (a hand holds at most 10)."




# --- round start and the Status Bar ---------------------------------------------------


@record
class Refreshed(Result):
    """One unit's tokens after the Refresh: its Speed (the Level after penalties), Move,
    Action Cost and Turn (None where the unit has no Speed stat)."""

    unit: str
    speed: int | None
    move: int | None
    action_cost: int | None
    turn: int
    stat: str | None = hidden(None)  # the Speed after penalties, as a stat: 3x1


@record
class RoundStarted(Result):
    """``round start``: the round's number and every unit's refreshed tokens."""

    round: int
    units: tuple[Refreshed, ...]
    map: str = hidden("personal")


def refresh(unit: units.Unit, map_key: str = "personal", opts: Options = DEFAULTS, *,
            report: bool = True) -> Refreshed | None:
    """Move = Speed, Action Cost = Speed/2 (round down, at least 1), Turn = 2. With
    ``report`` False (a simulated fight without a log, which reads no result) the unit
    changes the same and no :class:`Refreshed` is written: None."""
    speed = speed_now(unit, opts.refresh_penalties)
    got = tokens_of(speed, map_key, opts)  # the Speed read once for both
    unit.move = None if got is None else got.move
    unit.action_cost = None if got is None else got.action_cost
    unit.turn = TURN
    if not report:
        return None
    return Refreshed(unit.name, None if speed is None else speed.level, unit.move,
                     unit.action_cost, unit.turn, None if speed is None else str(speed))


@overload
def start(rnd: Round, roster: dict[str, units.Unit], opts: Options = DEFAULTS,
          map_key: str = "personal", *, report: Literal[True] = True) -> RoundStarted: ...
@overload
def start(rnd: Round, roster: dict[str, units.Unit], opts: Options = DEFAULTS,
          map_key: str = "personal", *, report: bool) -> RoundStarted | None: ...
def start(rnd: Round, roster: dict[str, units.Unit], opts: Options = DEFAULTS,
          map_key: str = "personal", *, report: bool = True) -> RoundStarted | None:
    """Round: Start — the next round; every unit refreshes on the scene's map (the roster
    changes: store it). Of a unit, only its Move, Action Cost and Turn change (a simulated
    fight writes those alone into the table it had: rules.assistant.engine
    ``Table._store_tokens``, checked against a whole store by tests). With ``report``
    False (a simulated fight without a log) the units change the same and no result is
    written: None."""
    if rnd.phase == "started":
        raise RuleViolation(f"round {rnd.number} is under way: end it first (d2d round end)")
    rnd.number += 1
    rnd.phase = "started"
    living = []
    for u in roster.values():
        if u.conditions.get("dead"):  # no tokens: 000 l.1172 "Dead - Permanent Negative"
            u.move = u.action_cost = u.turn = None
        elif report:
            living.append(u)
        else:
            refresh(u, map_key, opts, report=False)
    if not report:
        return None
    return RoundStarted(rnd.number, tuple(cast(Refreshed, refresh(u, map_key, opts))
                                          for u in living), map_key)


# --- round end ------------------------------------------------------------------------


@record
class DrawStep(Result):
    kind: str = field(default="draw", init=False)
    text: str
    # [rules] hands = "d2d": each Player's draw (rules.units.hands.Drew: counts only).
    hands: tuple[Any, ...] = ()


@record
class Removed(Result):
    """A minor condition token a unit recovered from."""

    unit: str
    removed: str
    left: int


@record
class Readied(Result):
    """An ability a unit readied from cooldown."""

    unit: str
    readied: str


@record
class Choices(Result):
    """What a unit could have recovered when no ``--recover`` chose (001 l.1039 "Remove a
    Fatigue, Stun, Stress, Slow OR Ready an Ability in Cooldown"): d2d took the first,
    ``choices[0]``; ``round end --recover NAME=CHOICE`` (or ``=none``) chooses before the
    round ends."""

    unit: str
    choices: tuple[str, ...]


@record
class RecoverStep(Result):
    kind: str = field(default="recover", init=False)
    applied: tuple[Removed | Readied, ...]
    choices: tuple[Choices, ...]


@record
class TaskClockStep(Result):
    kind: str = field(default="task_clock", init=False)
    changes: tuple[TaskTick, ...]


@record
class ConditionEvent(Result):
    """One round-end reveal for a unit's condition and what it did."""

    unit: str
    condition: str
    card: Card
    outcome: dict[str, int]
    conditions: dict[str, int]


@record
class ConditionEventsStep(Result):
    kind: str = field(default="condition_events", init=False)
    reveals: tuple[ConditionEvent, ...]


@record
class RandomEventsStep(Result):
    kind: str = field(default="random_events", init=False)
    checks: tuple[clocks.RandomCheck, ...]


@record
class ClockStep(Result):
    kind: str = field(default="clock", init=False)
    clock_before: int
    clock: int
    events: tuple[clocks.TimedEvent, ...]
    arrived: tuple[str, ...]


Step = (DrawStep | RecoverStep | TaskClockStep | ConditionEventsStep | RandomEventsStep
        | ClockStep | upkeep.PowersStep | upkeep.StealthStep)


@record
class RoundEnded(Result):
    """``round end``: the upkeep's steps in 001's order, every card revealed."""

    round: int
    steps: tuple[Step, ...]
    cards: tuple[Card, ...]
    reshuffled: bool


def parse_recover(values: list[str], roster: dict[str, units.Unit]) -> dict[str, str]:
    """``NAME=fatigue`` (a minor condition) or ``NAME=ABILITY`` (an ability in cooldown)."""
    out: dict[str, str] = {}
    for v in values:
        name, sep, choice = v.partition("=")
        if not sep or not name.strip() or not choice.strip():
            raise BadInput(f"--recover {v!r}: give NAME=CHOICE, e.g. Archer=fatigue")
        unit = units.find(roster, name.strip())
        if unit.conditions.get("dead"):
            raise RuleViolation(f"--recover {v!r}: {unit.name} is Dead and does not recover "
                                "(000 l.1172 \"Dead - Permanent Negative Status\")")
        if unit.name in out:
            raise BadInput(f"--recover: {unit.name} recovers once a round")
        if choice.strip().lower() == "none":  # the Player declines (d2d's default: first)
            out[unit.name] = NO_RECOVER
            continue
        key = units.condition_key(choice)
        options = recover_choices(unit)
        if key not in options and choice.strip() not in options:
            raise BadInput(f"--recover {v!r}: {unit.name} can recover "
                           f"{', '.join(options) or 'nothing'} (or none)")
        out[unit.name] = key if key in options else choice.strip()
    return out


NO_RECOVER = "none"  # --recover NAME=none: the unit recovers nothing this round


def recover_choices(unit: units.Unit) -> list[str]:
    """Minor conditions held, then abilities in cooldown (``cooldown`` on the unit); a
    Dead unit recovers nothing (000 l.1172 "Dead - Permanent Negative Status")."""
    held_ = unit.conditions
    if held_.get("dead"):
        return []
    cooldown = unit.extra.get("cooldown", [])
    if not held_ and cooldown == []:  # the usual case: each unit at every round's end
        return []
    held = [k for k in conditions.MINOR if held_.get(k, 0) > 0]
    return held + [str(a) for a in cooldown]


def _recover(roster: dict[str, units.Unit], chosen: dict[str, str],
             report: bool = True) -> RecoverStep | None:
    """Each unit recovers what ``chosen`` names, else its first choice. With ``report``
    False (:func:`end` without a report) the units change the same and no record is
    written: None."""
    applied: list[Removed | Readied] = []
    choices = []
    for unit in roster.values():
        pick = chosen.get(unit.name)
        if pick == NO_RECOVER:
            continue
        if pick is None:  # d2d's default (docs/rules.md "Recover"): the first choice listed
            options = recover_choices(unit)
            if not options:
                continue
            pick = options[0]
            if len(options) > 1 and report:
                choices.append(Choices(unit.name, tuple(options)))
        if pick in conditions.MINOR:
            left = unit.add_condition(pick, -1)
            if report:
                applied.append(Removed(unit.name, pick, left))
        else:
            unit.extra["cooldown"] = [a for a in unit.extra.get("cooldown", []) if a != pick]
            if report:
                applied.append(Readied(unit.name, pick))
    return RecoverStep(tuple(applied), tuple(choices)) if report else None


@functools.cache
def _evented() -> tuple[str, ...]:
    """The conditions with a round-end event, in the conditions table's order (the
    table is read once, ``condition_table.table``: so is this)."""
    return tuple(k for k, c in conditions.table().items() if c.event)


def event_checks(roster: dict[str, units.Unit]) -> list[tuple[units.Unit, str]]:
    """Each (unit, condition) whose condition has a round-end event, in roster order
    and the conditions table's order: one Fate reveal each. A plain loop (no
    comprehension's frame at every round's end, when mostly no unit holds one)."""
    out = []
    for u in roster.values():
        held = u.conditions
        if held and not held.get("dead"):  # the Dead bleed no more (000 l.1172)
            for k in _evented():
                if held.get(k, 0) > 0:
                    out.append((u, k))
    return out


def _condition_events(checks: list[tuple[units.Unit, str]],
                      reveal: Callable[[], Card], report: bool = True
                      ) -> ConditionEventsStep | None:
    """One Fate reveal for each check, then each outcome applied. With ``report`` False
    the units change the same and no record is written: None."""
    cards = [reveal() for _ in checks] if checks else []  # mostly none: no frame
    out = []
    for (unit, key), card in zip(checks, cards, strict=True):
        outcome = conditions.event_outcome(key, card)
        for k, delta in outcome.items():
            unit.add_condition(k, delta)
        if report:
            out.append(ConditionEvent(unit.name, key, card, outcome, dict(unit.conditions)))
    return ConditionEventsStep(tuple(out)) if report else None


def ends_effects_only(unit: units.Unit) -> bool:
    """Whether :func:`end` changes nothing of ``unit`` but ending its round effects: it
    holds no condition (none to Recover from, none with an event), no Ability in
    Cooldown, no Continuous Power to pay for and no Stealth token to keep — what each
    upkeep step below looks for in a unit before it changes one. A simulated fight keeps
    the rest of such a unit's reading (rules.assistant.engine ``Table.round_end``,
    checked against the reading worked out afresh by tests)."""
    extra = unit.extra
    return not (unit.conditions or extra.get(COOLDOWN) or extra.get(CONTINUOUS)
                or extra.get(STEALTH))


@overload
def end(rnd: Round, roster: dict[str, units.Unit], tasks: dict[str, Task],
        clock: clocks.Clock, reveal: Revealer, recover: list[str] | None = None,
        reserves: dict[str, Any] | None = None, *,
        report: Literal[True] = True) -> RoundEnded: ...
@overload
def end(rnd: Round, roster: dict[str, units.Unit], tasks: dict[str, Task],
        clock: clocks.Clock, reveal: Revealer, recover: list[str] | None = None,
        reserves: dict[str, Any] | None = None, *, report: bool) -> RoundEnded | None: ...
def end(rnd: Round, roster: dict[str, units.Unit], tasks: dict[str, Task],
        clock: clocks.Clock, reveal: Revealer, recover: list[str] | None = None,
        reserves: dict[str, Any] | None = None, *, report: bool = True) -> RoundEnded | None:
    """Round: End — the upkeep, in 001's order, once (the roster, tasks, clock and round
    change: store them). ``recover`` holds the ``NAME=CHOICE`` picks; ``reserves`` the
    scene's units that a Timed Event brings. Running out of table cards raises (the
    command then changes nothing). With ``report`` False (a simulated fight without a
    log, which reads no result) every step changes the same and the steps' records and
    the result are not written: None (as :func:`start` writes no Refreshed)."""
    chosen = parse_recover(recover or [], roster)
    if rnd.phase == "ended":
        raise RuleViolation(f"round {rnd.number} has already ended — upkeep is applied "
                            "once; start the next round with d2d round start")
    if rnd.phase != "started":
        raise RuleViolation("no round is under way: start one with d2d round start")
    # each step in 001's order, what it changes changed whether or not it is reported
    recovered = _recover(roster, chosen, report)
    ticks = task_clock(tasks, report)
    events = _condition_events(event_checks(roster), reveal, report)
    checks = clock.check_random(reveal)
    # Events: the Continuous Powers' Price (000 l.878), only when one is kept up.
    paid = upkeep.pay_continuous(roster, rnd.number)
    moved = clocks.move(clock, 1, clock.down, reserves or {}, roster)
    hidden_ = upkeep.remain_hidden(roster)  # the Clock's "Tokens+1" (000 l.807)
    upkeep.end_effects(roster)  # "this Round" ends (rules.units.effects)
    rnd.phase = "ended"
    if not report:
        return None
    assert recovered is not None and events is not None  # written for a report
    steps: list[Step] = [DrawStep(DRAW_TEXT), recovered, TaskClockStep(ticks), events,
                         RandomEventsStep(checks)]
    if paid is not None:
        steps.append(paid)
    steps.append(ClockStep(moved.clock_before, moved.clock, moved.events, moved.arrived))
    if hidden_ is not None:
        steps.append(hidden_)
    return RoundEnded(rnd.number, tuple(steps), tuple(reveal.used), reveal.reshuffled)
