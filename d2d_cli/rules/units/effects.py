"""What a Special Action leaves on a unit for the rest of the Round, and who reads it.

001 l.595–597 "Push the Limit - Fatigue:+1 / Skill:+1 this Round"; l.603–605 "Grit your
Teeth - Stress:+1 / Ignore all penalties this Round". ``unit act`` (rules/time/turns.py)
pays the price; the effect is kept here, on the unit (``effects``: key → how many times
it was taken this Round), and read by every command that reads the unit: the Levels of
``conflict``, ``hit`` and ``odds`` (rules/combat/situation.py), the unit's stats on the
Status Bar and as a Difficulty (rules/units/roster.py ``effective_stats``). Round: End
ends them (:func:`end_of_round`, called by rules/time/rounds.py): "this Round" ends there.

The same record counts what later actions of the Round depend on: the Interact Actions
taken (a Power's use is one, 001 l.627) and the Evades claimed for them (001 l.750 "Evade
… Move:+2 (Win or Lose)" is a response inside a Conflict, l.639–641), and the Move a
Hidden unit has spent (000 l.804 "Forced: Maximum Move=Tokens").

Readings (docs/rules.md "Special Actions deliver their effect"): Push the Limit taken
twice is Skill +2 (each is paid); its own Fatigue counts like any other, the text
exempting nothing. "All penalties" are the condition penalties (000 l.453 "Stat
Penalties"). ``[rules] push_the_limit = "000"`` is 000 l.254's "Initiative:+1 and Normal
Damage:+1": a Conflict's Level +1, and in ``hit`` Hits +1 instead of the Level.
"""

from __future__ import annotations

from typing import Any

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.units.roster import Unit
from d2d_cli.rules.units.unit_state import put

EFFECTS = "effects"
PUSH = "push_the_limit"
GRIT = "grit_your_teeth"
KEPT = (PUSH, GRIT)  # the Special Actions whose effect lasts "this Round"
_KEPT = frozenset(KEPT)
INTERACT = "interact"  # Interact Actions taken this Round (a Power's use included)
EVADE = "evade"  # Evades claimed this Round
MOVED_HIDDEN = "moved_hidden"  # Move spent on Movement while Hidden this Round
EVADE_MOVE = "evade_move"  # Evade's Move:+2 not yet moved: for Movement, not Actions
EVADE_MOVE_LINE = ('001 l.1024–1025 "Evade - IF winner played Evade THEN they may '
                   'immediately move 2 spaces"')

NAMES = {PUSH: "Push the Limit", GRIT: "Grit your Teeth"}
SOURCES = {
    PUSH: '001 l.595–597 "Push the Limit - Fatigue:+1 Skill:+1 this Round"',
    GRIT: '001 l.603–605 "Grit your Teeth - Stress:+1 Ignore all penalties this Round"',
}
PUSH_000 = ('000 l.254 "Push the Limit - Fatigue:+1 to gain Initiative:+1 and Normal '
            'Damage:+1 this Turn"')
EVADE_001 = '001 l.748–750 "Evade - Win vs Strong Move:+2 (Win or Lose)"'
EVADE_000 = '000 l.494 "Evade - IF the Winner played an Evade THEN they regain the Move ' \
    'spent on the Action"'


def held(unit: Unit) -> dict[str, int]:
    """What is on the unit this Round: key → count."""
    raw: Any = unit.extra.get(EFFECTS)
    if not raw:  # the usual case outside an Interact's round: no comprehension run
        return {}
    # a plain loop (no comprehension's frame: ~50 a fight); a key stored as text and a
    # whole-number count taken as they are (str() and int() of one are that very object)
    out: dict[str, int] = {}
    for k, v in raw.items():
        n = v if type(v) is int else int(v)
        if n > 0:
            out[k if type(k) is str else str(k)] = n
    return out


def count(unit: Unit, key: str) -> int:
    """How many of one effect the unit holds this Round: ``held(unit).get(key, 0)``,
    read without a copy of the whole table (a fight asks it of both sides at every
    conflict, Hit and Action)."""
    raw: Any = unit.extra.get(EFFECTS)
    if not raw or key not in raw:
        return 0
    n = raw[key]
    if type(n) is not int:  # int() of an int is that int: not called
        n = int(n)
    return n if n > 0 else 0


def add(unit: Unit, key: str, n: int = 1) -> None:
    now = held(unit)
    now[key] = now.get(key, 0) + n
    put(unit, EFFECTS, now)


def shown(unit: Unit) -> list[str]:
    """The effects in force, for the Status Bar: "Push the Limit: Skill +1"."""
    got = held(unit)
    out = []
    if got.get(PUSH):
        out.append(f"Push the Limit: Skill +{got[PUSH]}")
    if got.get(GRIT):
        out.append("Grit your Teeth: penalties ignored")
    return out


def pushed(unit: Unit | None) -> int:
    """Push the Limit taken this Round: Skill +1 each."""
    return 0 if unit is None else count(unit, PUSH)


def gritted(unit: Unit | None) -> bool:
    """Grit your Teeth taken this Round: the unit's penalties are ignored."""
    return unit is not None and count(unit, GRIT) > 0


def evade(unit: Unit, action_cost: int | None, opts: Options = DEFAULTS) -> int:
    """An Evade claimed after a Conflict: the Move it gives (001: +2; ``[rules] evade =
    "000"``: the Action Cost spent on the Action). One per Interact Action the unit took
    this Round — an Evade is played in a Conflict (001 l.748–750), and a Target that
    spent no Action gains no benefit (001 l.639–641) — so it is never repeated on its
    own."""
    got = held(unit)
    if got.get(EVADE, 0) >= got.get(INTERACT, 0):
        spent = got.get(INTERACT, 0)
        raise RuleViolation(
            f"{unit.name} has no Conflict to Evade in: an Evade is played in a Conflict "
            f"the unit spent an Action on (001 l.748–750, l.639–641 \"Target may spend an "
            f"Action / IF not Target gains no benefits\"); {unit.name} took {spent} "
            f"Interact Action(s) this Round and claimed {got.get(EVADE, 0)} Evade(s)")
    add(unit, EVADE)
    if opts.evade == "000":
        return action_cost or 0
    add(unit, EVADE_MOVE, 2)  # to move with, not to pay an Action (001 l.1024–1025)
    return 2


def for_actions(unit: Unit, move: int) -> int:
    """The part of ``move`` that may pay for an Action: Evade's Move:+2 not yet moved is
    for Movement only (001 l.1024–1025 "they may immediately move 2 spaces"; l.545
    "Therefore, 2 Actions per Round are possible")."""
    return move - min(move, count(unit, EVADE_MOVE))


def moved(unit: Unit, cost: int) -> None:
    """Movement spends Evade's Move first."""
    credit = count(unit, EVADE_MOVE)
    if credit and cost > 0:
        add(unit, EVADE_MOVE, -min(credit, cost))


def hidden_move(unit: Unit, tokens: int, cost: int) -> None:
    """000 l.804 "Forced: Maximum Move=Tokens": a Hidden unit spends at most its Stealth
    tokens on Movement this Round (refused past it)."""
    if tokens <= 0 or cost <= 0:
        return
    so_far = held(unit).get(MOVED_HIDDEN, 0)
    if so_far + cost > tokens:
        raise RuleViolation(
            f"{unit.name} is Hidden with {tokens} Stealth token(s): it may Move at most "
            f"{tokens} this Round (000 l.804 \"Forced: Maximum Move=Tokens\"); it has "
            f"moved {so_far}, this costs {cost} (or Reveal first: d2d unit stealth "
            f"{unit.name!r} reveal)")
    add(unit, MOVED_HIDDEN, cost)


def end_of_round(roster: dict[str, Unit]) -> tuple[str, ...]:
    """Round: End — what lasted "this Round" ends; the units that had any."""
    ended = []
    for unit in roster.values():
        if not _KEPT.isdisjoint(held(unit)):  # no set built for each unit
            ended.append(unit.name)
        unit.extra.pop(EFFECTS, None)
    return tuple(ended)
