"""Spending the round's tokens: Movement, Actions, free actions, Wait and Facing
(``d2d unit move``, ``unit act``, ``unit wait``, ``unit face``).

001 l.491–493 "Move is a resource on the Unit# card. Move is spent for Movement or for
Actions"; l.543–545 "Most Actions cost Move:-[Action Cost]. Therefore, 2 Actions per
Round are possible"; l.533 "Spend Turn points to change facing to the next compass
heading (45 degrees)"; l.495–497 "Facing - N, S, E, W, NE, NW, SE, SW. Units must
always face a compass heading"; l.499–505 "Countdown - Each Group counts down from 10.
One each Count, do one of the following: Wait - Do nothing. IF Move = Count THEN
Move:-1". Costs and effects are data: ``tables/turns.toml``, each with its line.

The tokens are the unit's own (``Unit.move``, ``Unit.turn``, ``Unit.action_cost``, placed
by ``round start``): spending takes them off, so what is stored is what is left. What
else a unit did this round — Actions taken, the boosts of Push the Limit and Grit your
Teeth — is kept on the unit with the round's number (``spent``): a record of an earlier
round counts for nothing, so every round start begins afresh without touching the
Refresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, overload

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.board import moves, seen
from d2d_cli.rules.board.grid import Board, space_name
from d2d_cli.rules.board.placement import SPACE, placed
from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.time import round_state
from d2d_cli.rules.units import abilities, effects
from d2d_cli.rules.units import stealth as hiding
from d2d_cli.rules.units.roster import Unit, condition_key, find
from d2d_cli.rules.units.unit_state import (
    ACTIONS_AT_NO_COST,
    FACING,
    Spent,
    actions_left,
    keep_spent,
    spent,
    stepped,
)

# The round's record of an Interact's Target, read at every Interact, imported when first
# read (a move or another Action does not): rules.core.lazy_module
if TYPE_CHECKING:
    from d2d_cli.rules.units import exchange as _exchange
else:
    _exchange = lazy_module("d2d_cli.rules.units.exchange", globals(), "_exchange")

COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # clockwise, 45° apart
COUNTDOWN = round_state.COUNTDOWN  # 001 l.499 (with the round: `round next` reads it)
MAX_STEPS = 100
PUSH_000_BOOST = "Initiative:+1 and Hits:+1 this Round"  # [rules] push_the_limit = "000"
BURST_000_MOVE = 1  # 000 l.257 "Burst of Speed - Slow:+1 to Move:+1 AND Facing:+1"
# [rules] evade = "000": 000 l.494, what `unit act NAME evade` gives and when.
EVADE_000_NOTE = "An Evade that won its Conflict: the Action Cost back"


@record
class Movement:
    key: str
    name: str
    move: int
    turn: int
    source: str


@record
class Action:
    key: str
    name: str
    cost: str | int  # "action", "free" or a number of Move
    takes: dict[str, int]
    move: int
    turn: int
    removes: tuple[str, ...]
    boost: str | None
    note: str | None
    source: str

    @property
    def needs_round(self) -> bool:
        """Paid from (or giving) the round's tokens, or lasting "this Round"."""
        return self.cost != "free" or bool(self.move or self.turn or self.boost)


@cache
def movements() -> dict[str, Movement]:
    raw = tables.load("turns")["moves"]
    return {k: Movement(k, v["name"], v.get("move", 0), v.get("turn", 0), v["source"])
            for k, v in raw.items()}


@cache
def actions() -> dict[str, Action]:
    raw = tables.load("turns")["actions"]
    return {k: Action(k, v["name"], v["cost"], dict(v.get("takes", {})), v.get("move", 0),
                      v.get("turn", 0), tuple(v.get("removes", ())), v.get("boost"),
                      v.get("note"), v["source"]) for k, v in raw.items()}


# 001's Special Actions (l.583–613) that another command takes: said where, when typed here.
ELSEWHERE = {
    "ability": " (an Ability is used with d2d unit ability NAME use ABILITY, 001 l.585)",
    "heroic_feat": " (a Heroic Feat is taken on the roll: d2d hit … --heroic-feat a|b, "
                   "001 l.611)",
}


def _lookup(word: str, table: dict[str, Any], what: str) -> Any:
    key = condition_key(word)
    if key in table:
        return table[key]
    raw = tables.load("turns")["moves" if what == "movement" else "actions"]
    for k, v in raw.items():
        if key in (condition_key(a) for a in v.get("aliases", ())):
            return table[k]
    names = ", ".join(v.name for v in table.values())
    elsewhere = ELSEWHERE.get(key, "") if what == "action" else ""
    raise BadInput(f"unknown {what} {word!r}: {names}{elsewhere}")


# --- the round's record (rules/units/unit_state.py) -------------------------------------


def under_way(number: int, phase: str) -> None:
    if phase != "started":
        what = f"round {number} has ended" if phase == "ended" else "no round is under way"
        raise RuleViolation(f"{what}: the round's tokens are placed by d2d round start")


def _tokens(unit: Unit) -> tuple[int, int]:
    if unit.move is None or unit.turn is None:
        raise RuleViolation(f"{unit.name} has no Move tokens this round (no Speed, or added "
                            "after d2d round start)")
    return unit.move, unit.turn


# --- results --------------------------------------------------------------------------


@record
class Spending(Result):
    """A unit's tokens after a Movement, an Action or a free action."""

    unit: str
    action: str
    move_before: int | None
    move: int | None
    turn_before: int | None
    turn: int | None
    action_cost: int | None
    actions_left: int | None
    facing: str | None
    conditions_added: dict[str, int]
    conditions_removed: dict[str, int]
    readied: str | None
    boosts: tuple[str, ...]
    stealth: int
    detect: hiding.Detect | None
    note: str | None
    source: str
    summary: str = hidden("")
    space: str | None = None  # a placed unit's Space after a movement (rules.board)


def _spending(unit: Unit, action: str, before: tuple[int | None, int | None],
              record: Spent, source: str, *, added: dict[str, int] | None = None,
              removed: dict[str, int] | None = None, readied: str | None = None,
              detect: hiding.Detect | None = None, note: str | None = None,
              space: str | None = None) -> Spending:
    move_before, turn_before = before
    moved = "" if unit.move == move_before else f", Move {move_before} → {unit.move}"
    turned = "" if unit.turn == turn_before else f", Turn {turn_before} → {unit.turn}"
    return Spending(
        unit.name, action, move_before, unit.move, turn_before, unit.turn, unit.action_cost,
        actions_left(unit.move, unit.action_cost, record.actions),
        unit.extra.get(FACING), dict(added or {}), dict(removed or {}), readied,
        tuple(record.boosts), hiding.tokens(unit), detect, note, source,
        f"{unit.name}: {action}{moved}{turned}", space)


# --- Movement -------------------------------------------------------------------------


def _count(text: str | None, what: str) -> int:
    if text is None:
        return 1
    if not text.isdigit() or not 1 <= int(text) <= MAX_STEPS:
        raise BadInput(f"{what} {text!r}: give a number of steps from 1 to {MAX_STEPS}")
    return int(text)


def _turning(unit: Unit, arg: str | None) -> tuple[int, str, str]:
    """Turn toward a heading, or ``left``/``right`` [N] steps of 45°: (steps, new facing,
    label)."""
    facing = unit.extra.get(FACING)
    if facing not in COMPASS:
        raise RuleViolation(f"{unit.name} has no Facing yet: d2d unit face {unit.name} N "
                            "(001 l.497 \"Units must always face a compass heading\")")
    here = COMPASS.index(facing)
    words = (arg or "").split()
    if arg and arg.upper() in COMPASS:
        there = COMPASS.index(arg.upper())
        clockwise = (there - here) % 8
        steps = min(clockwise, 8 - clockwise)
        if steps == 0:
            raise BadInput(f"{unit.name} already faces {facing}")
        return steps, COMPASS[there], f"Turn {facing} → {COMPASS[there]}"
    if words and words[0].lower() in ("left", "right"):
        steps = _count(words[1] if len(words) > 1 else None, "turn")
        sign = 1 if words[0].lower() == "right" else -1
        new = COMPASS[(here + sign * steps) % 8]
        return steps, new, f"Turn {words[0].lower()} {45 * steps}° ({facing} → {new})"
    raise BadInput(f"turn toward a heading ({', '.join(COMPASS)}) or left/right [N], "
                   f"not {arg!r}")


BOUND = "bound"  # a unit held until a task it works is won (docs/rules.md "Leaving the map")


def binding(name: str, unit: Mapping[str, Any], tasks: Mapping[str, Any]) -> str | None:
    """What still binds a unit: its ``bound`` text while no task it works is won (the
    Knot untied frees the Thief, 000 l.599–606), else None."""
    bound = unit.get(BOUND)
    if not bound:
        return None
    for t in tasks.values():
        if name in t.get("workers", ()) and int(t.get("challenge", 1)) <= 0:
            return None
    return str(bound)


@overload
def move(units: dict[str, Unit], number: int, phase: str, name: str, what: str,
         arg: str | None = None, board: Board | None = None,
         tasks: Mapping[str, Any] | None = None, *,
         report: Literal[True] = True) -> Spending: ...
@overload
def move(units: dict[str, Unit], number: int, phase: str, name: str, what: str,
         arg: str | None = None, board: Board | None = None,
         tasks: Mapping[str, Any] | None = None, *, report: bool) -> Spending | None: ...
def move(units: dict[str, Unit], number: int, phase: str, name: str, what: str,
         arg: str | None = None, board: Board | None = None,
         tasks: Mapping[str, Any] | None = None, *, report: bool = True
         ) -> Spending | None:
    """``unit move NAME N`` (N Move: Spaces, terrain, anything the table prices) or
    ``unit move NAME KIND [COUNT]`` (Forward, Drift 1; Slide, Backward, Drift Back 2;
    Equip 1), ``unit move NAME turn HEADING|left|right [N]`` (Turn tokens). A unit
    placed on ``board`` moves there too (``KIND [left|right|HEADING] [COUNT]``), paying
    the terrain's extra Move (rules.board.moves). A ``bound`` unit does not move until
    a task it works is won (``tasks``: the session's; 000 l.599 "He is fully bound"):
    its Move goes on Actions (untying the Knot) or a Wait. With ``report`` False (a
    simulated fight without a log, which reads no result) the unit changes the same and
    no :class:`Spending` is written: None. Of the unit, only its tokens, its Spending
    (``spent``), Facing, Space and round effects change (a simulated fight keeps the rest
    of its reading: rules.assistant.engine ``_same_base``, checked by tests)."""
    unit = abilities.alive(find(units, name))
    held = binding(unit.name, unit.extra, tasks or {})
    if held is not None:
        raise RuleViolation(f"{unit.name} is bound ({held}) and cannot move (000 l.599 "
                            "\"He is fully bound\"): win the task that frees it first (d2d "
                            f"task win), or free it another way (d2d unit free {unit.name!r})")
    under_way(number, phase)
    have_move, have_turn = _tokens(unit)
    record = spent(unit, number, phase)
    mapped = walked = None
    if what.isdigit():
        if arg is not None:
            raise BadInput(f"give a number of Move or a movement, not both ({what} {arg})")
        cost = _count(what, "Move")
        label, source = f"Move {cost}", '001 l.527 "Spend Move points to move"'
        turn_cost, facing = 0, None
    else:
        kind: Movement = _lookup(what, movements(), "movement")
        source = kind.source
        if kind.turn:
            steps, facing, label = _turning(unit, arg)
            cost, turn_cost = 0, kind.turn * steps
            mapped = moves.on_map(board, placed(unit), kind.key, arg, COMPASS.index(facing))
        else:
            mapped = moves.on_map(board, placed(unit), kind.key, arg)
            walked = mapped.walk if mapped is not None else None
            steps = len(walked.path) if walked is not None else _count(arg, kind.name)
            cost, turn_cost, facing = kind.move * steps, 0, None
            label = kind.name if steps == 1 else f"{kind.name} ×{steps}"
            if mapped is not None and walked is not None:
                cost = walked.cost
    # the walk's Spaces said in the label (``Moved.label``) only where the label is read:
    # a refusal, or the result (a simulated fight without a log reads neither)
    if walked is not None and (report or cost > have_move or turn_cost > have_turn):
        assert mapped is not None
        label += mapped.label
    if cost > have_move:
        raise RuleViolation(f"{unit.name} has Move {have_move}; {label} costs {cost}")
    if turn_cost > have_turn:
        raise RuleViolation(f"{unit.name} has Turn {have_turn}; {label} costs {turn_cost}")
    effects.hidden_move(unit, hiding.tokens(unit), cost)
    effects.moved(unit, cost)
    record = stepped(unit, number, phase, have_move, record)  # the Countdown (001 l.499)
    unit.move, unit.turn = have_move - cost, have_turn - turn_cost
    if facing is not None:
        unit.extra[FACING] = facing
    if mapped is not None:  # the Space it ends on, in the one result (no second copy)
        unit.extra[SPACE] = space_name(mapped.space)
    if not report:
        return None
    return _spending(unit, label, (have_move, have_turn), record, source,
                     space=None if mapped is None else unit.extra[SPACE])


# --- Actions --------------------------------------------------------------------------


def _choose(unit: Unit, options: tuple[str, ...], arg: str | None, label: str) -> str:
    """The condition a Recover or State of Mind takes off: the one named, or the only
    one the unit holds."""
    held = [k for k in options if unit.conditions.get(k, 0) > 0]
    names = ", ".join(k.title() for k in options)
    if arg is None:
        if not held:
            raise RuleViolation(f"{unit.name} has no {names} for {label} to remove")
        if len(held) > 1:
            raise BadInput(f"which does {label} remove? {unit.name} has "
                           f"{', '.join(k.title() for k in held)}")
        return held[0]
    key = condition_key(arg)
    if key not in options:
        raise BadInput(f"{label} removes {names}, not {arg!r}")
    if key not in held:
        raise RuleViolation(f"{unit.name} has no {key.title()} to remove")
    return key


def _check_args(action: Action, arg: str | None, range_: int | None) -> None:
    """An argument only for an Action that takes one; ``--range`` only for Detect."""
    takes_arg = bool(action.removes) or action.key in ("ready", "detect", "interact")
    if arg is not None and not takes_arg:
        raise BadInput(f"{action.name} takes no argument (got {arg!r})")
    if range_ is not None and action.key != "detect":
        raise BadInput("--range is for Detect (001 l.593 \"[Body]-[Range]\")")


def _as_read(action: Action, opts: Options) -> tuple[str | None, str, str | None]:
    """What the Action gives under the table's reading: (boost, source, note). Push the
    Limit under ``[rules] push_the_limit = "000"``, Evade under ``[rules] evade =
    "000"``."""
    boost, source, note = action.boost, action.source, action.note
    if action.key == effects.PUSH and opts.push_the_limit == "000":  # what it gives then
        boost, source = PUSH_000_BOOST, effects.PUSH_000
    if action.key == "evade" and opts.evade == "000":
        note, source = EVADE_000_NOTE, effects.EVADE_000
    return boost, source, note


def _action_cost(unit: Unit, action: Action, record: Spent, have_move: int | None) -> int:
    """What the Action costs in Move, refused when the unit lacks it: an Action costs the
    Action Cost, at most 2 Actions a Round at Action Cost 0 (001 l.545); Evade's Move is
    not for actions."""
    if action.cost == "action":
        cost = unit.action_cost or 0
        if cost == 0 and record.actions >= ACTIONS_AT_NO_COST:
            raise RuleViolation(f"{unit.name} has taken {record.actions} Actions at Action "
                                "Cost 0 (001 l.545 \"2 Actions per Round\")")
    else:
        cost = action.cost if isinstance(action.cost, int) else 0
    if have_move is not None and cost > have_move:
        raise RuleViolation(f"{unit.name} has Move {have_move}; {action.name} costs {cost}")
    if have_move is not None and cost > 0 and cost > effects.for_actions(unit, have_move):
        raise RuleViolation(
            f"{unit.name} has Move {have_move}, of which "
            f"{have_move - effects.for_actions(unit, have_move)} is Evade's, to move with "
            f"({effects.EVADE_MOVE_LINE}); {action.name} costs {cost}")
    return cost


def _action_effects(units: dict[str, Unit], unit: Unit, action: Action, arg: str | None,
                    range_: int | None, number: int, phase: str, opts: Options,
                    board: Board | None) -> hiding.Detect | None:
    """What the Action does beyond its tokens: Detect's test, Hide's tokens, the effects
    kept "this Round", Interact's Target (001 l.583–613)."""
    detect = None
    if action.key == "detect":  # tested after its Stun (001 l.589 "Detect - Stun:+1")
        if arg is None:
            raise BadInput("Detect whom? d2d unit act NAME detect TARGET --range N")
        hidden_one = find(units, arg)
        if hidden_one is not unit:
            seen.check_detect(board, unit, hidden_one)  # Arc:Front, on a map
        if range_ is None and hidden_one is not unit and hiding.tokens(hidden_one):
            range_ = _detect_range(unit, hidden_one, number, phase)
        detect = hiding.detect(unit, hidden_one, range_ or 0, opts.detect)
    if action.key == "hide":
        seen.check_hide(board, units, unit)  # out of sight of Rivals, on a map
        hiding.hide(unit)
    if action.key in effects.KEPT:  # "this Round": read by conflict, hit, odds, status
        effects.add(unit, action.key)
    if action.key == "interact":
        effects.add(unit, effects.INTERACT)
    if action.key == "interact" and arg is not None:  # the round remembers its Target
        # by its name folded (the last of names folded alike, as a dict of them keeps),
        # in a plain loop: no comprehension's table built at every Interact
        folded = arg.strip().lower()
        aimed: Unit | None = None
        for n, u in units.items():
            if n.lower() == folded:
                aimed = u
        if aimed is not None and aimed is not unit:
            _exchange.open_interact(unit, aimed, number, phase)
    return detect


@overload
def act(units: dict[str, Unit], number: int, phase: str, name: str, what: str,
        arg: str | None = None, range_: int | None = None,
        opts: Options = DEFAULTS, board: Board | None = None, *,
        report: Literal[True] = True) -> Spending: ...
@overload
def act(units: dict[str, Unit], number: int, phase: str, name: str, what: str,
        arg: str | None = None, range_: int | None = None,
        opts: Options = DEFAULTS, board: Board | None = None, *,
        report: bool) -> Spending | None: ...
def act(units: dict[str, Unit], number: int, phase: str, name: str, what: str,
        arg: str | None = None, range_: int | None = None,
        opts: Options = DEFAULTS, board: Board | None = None, *,
        report: bool = True) -> Spending | None:
    """An Action (Recover, Ready, Hide, Search, Interact: Move:-[Action Cost]) or a free
    action (Detect, Push the Limit, State of Mind, Grit your Teeth, Burst of Speed; and
    Evade's Move:+2), as ``tables/turns.toml`` prices it. With ``report`` False (a
    simulated fight without a log, which reads no result) the unit changes the same and
    no :class:`Spending` is written: None. An Interact changes, of its unit, only its
    tokens, its Spending and round effects, and of its Target the Interact aimed at it
    and an Interrupt pending on it, used up (a simulated fight keeps the rest of their
    readings: rules.assistant.engine ``_same_base``, checked by tests)."""
    unit = abilities.alive(find(units, name))
    action: Action = _lookup(what, actions(), "action")
    have_move: int | None = unit.move
    have_turn: int | None = unit.turn
    record = spent(unit, number, phase)
    needs_round = action.needs_round  # read once (a property)
    if needs_round:
        under_way(number, phase)
        have_move, have_turn = _tokens(unit)
    _check_args(action, arg, range_)
    cost = _action_cost(unit, action, record, have_move)
    # A refusal anywhere below still changes nothing: the session is written only when
    # the command finishes.
    removed: dict[str, int] = {}
    if action.removes:
        removed[_choose(unit, action.removes, arg, action.name)] = 1
    readied = abilities.ready(unit, arg) if action.key == "ready" else None
    gain = action.move
    if action.key == "evade":  # a response inside a Conflict, never on its own
        gain = effects.evade(unit, unit.action_cost, opts)
    elif action.key == "burst_of_speed" and opts.burst_of_speed == "000":
        gain = BURST_000_MOVE
    if have_move is not None:
        unit.move = have_move - cost + gain
    if have_turn is not None:
        unit.turn = have_turn + action.turn
    for key, n in action.takes.items():
        unit.add_condition(key, n)
    for key, n in removed.items():
        unit.add_condition(key, -n)
    detect = _action_effects(units, unit, action, arg, range_, number, phase, opts, board)
    if action.cost == "action":
        record.actions += 1
    boost, source, note = _as_read(action, opts)
    if boost:
        record.boosts.append(f"{action.name}: {boost}")
    if needs_round:
        stepped(unit, number, phase, have_move, record,  # the Countdown (001 l.499)
                free=action.cost != "action")
    if not report:
        return None
    label = action.name if arg is None or action.removes or readied else f"{action.name} {arg}"
    return _spending(unit, label, (have_move, have_turn), record, source,
                     added=action.takes, removed=removed, readied=readied, detect=detect,
                     note=note)


# --- Wait and Facing ------------------------------------------------------------------


@record
class Waited(Result):
    """001 l.503–505 "Wait - Do nothing. IF Move = Count THEN Move:-1"."""

    unit: str
    count: int
    move_before: int
    move: int
    lost: int
    summary: str = hidden("")


def _detect_range(unit: Unit, target: Unit, number: int, phase: str) -> int:
    """Detect's Range when ``--range`` is not typed: the Range said this round (``unit
    situation``), else the map's (001 l.681 "Count Spaces to the Target"); refused when
    neither knows it, rather than read as 0."""
    from d2d_cli.rules.board import sight
    from d2d_cli.rules.units import exchange

    said = exchange.range_between(unit, target, number, phase)
    if said is not None:
        return said
    pa, pb = placed(unit), placed(target)
    if pa is not None and pb is not None:
        return min(sight.distance(a, b) for a in pa.spaces for b in pb.spaces)
    raise BadInput(f"Detect {target.name} at what Range? Give --range N (001 l.593 "
                   f"\"[Body]-[Range]\"), or say it once: d2d unit situation {unit.name} "
                   f"--range N --vs {target.name!r}")


def wait(units: dict[str, Unit], number: int, phase: str, name: str, count: int) -> Waited:
    unit = abilities.alive(find(units, name))
    under_way(number, phase)
    if not 1 <= count <= COUNTDOWN:
        raise BadInput(f"Count {count}: the Countdown goes from {COUNTDOWN} to 1 (001 l.499)")
    have, _ = _tokens(unit)
    lost = 1 if have == count and have > 0 else 0
    record = spent(unit, number, phase)
    record.count = min(count, record.count) if record.count is not None else count
    keep_spent(unit, record)  # it Waited at this Count: reached next below it
    unit.move = have - lost
    return Waited(unit.name, count, have, unit.move, lost,
                  f"{unit.name} waits at Count {count}: Move {have} → {unit.move}")


@record
class Faced(Result):
    unit: str
    facing: str
    facing_before: str | None
    summary: str = hidden("")


def face(units: dict[str, Unit], name: str, heading: str,
         board: Board | None = None) -> Faced:
    """Place the unit facing a compass heading (setting up, or the Narrator's
    correction): no Turn is spent. Turning in the round is ``unit move NAME turn``. A
    Double-sized unit on ``board`` must have room for its back (rules.board.moves)."""
    unit = find(units, name)
    if heading.upper() not in COMPASS:
        raise BadInput(f"facing {heading!r}: one of {', '.join(COMPASS)} (001 l.495)")
    moves.on_map(board, placed(unit), "turn", None, COMPASS.index(heading.upper()))
    before = unit.extra.get(FACING)
    unit.extra[FACING] = heading.upper()
    return Faced(unit.name, heading.upper(), before,
                 f"{unit.name} faces {heading.upper()}")
