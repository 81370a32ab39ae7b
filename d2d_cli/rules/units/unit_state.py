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

from collections.abc import Mapping
from typing import Any

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


class Spent:
    """What a unit did in round ``round`` beyond its Move and Turn tokens.

    A mutable record as ``@record(frozen=False)`` makes one — built by position or
    keyword in this order, ``boosts`` a new list when not given, equal by its four
    values, unhashable, its ``repr`` naming them — written as a plain class with
    slots: every Action and move reads one and changes it (~40 a fight), and a
    record's init (its instance table written through ``object.__setattr__``) cost
    ~2.7 k instructions more a record (tests/test_sim_engine_cut13.py holds it to the
    record it was)."""

    __slots__ = ("round", "actions", "boosts", "count")
    __hash__ = None  # type: ignore[assignment]  # mutable: as a record(frozen=False)

    def __init__(self, round: int, actions: int = 0,  # noqa: A002 (the field's name)
                 boosts: list[str] | None = None, count: int | None = None) -> None:
        self.round = round
        self.actions = actions
        self.boosts: list[str] = [] if boosts is None else boosts
        # The Count at which the unit last did something this round (001 l.499–505
        # "Each Group counts down from 10 / One each Count, do one of the following"):
        # it is next reached at a lower Count, so the Countdown never rises
        # (rules.time.groups).
        self.count = count

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Spent)
        return (self.round, self.actions, self.boosts, self.count) == (
            other.round, other.actions, other.boosts, other.count)

    def __repr__(self) -> str:
        return (f"Spent(round={self.round!r}, actions={self.actions!r}, "
                f"boosts={self.boosts!r}, count={self.count!r})")


def spent(unit: Unit, number: int, phase: str) -> Spent:
    """This round's record (an empty one when the stored record is of another round, or
    no round is under way)."""
    raw = unit.extra.get(SPENT) or {}
    if phase != "started":
        return Spent(number)
    # each count as the table stores it: int() of an int is that int, not called
    # (every Action and move reads its record, ~40 a fight)
    was = raw.get("round", -1)
    if (was if type(was) is int else int(was)) != number:
        return Spent(number)
    actions, count = raw.get("actions", 0), raw.get("count")
    boosts = raw.get("boosts", [])  # mostly none: no comprehension run
    return Spent(number, actions if type(actions) is int else int(actions),
                 [] if boosts == [] else [str(b) for b in boosts],
                 None if count is None else count if type(count) is int else int(count))


def keep_spent(unit: Unit, record: Spent) -> None:
    # the Count last, when set: a key put in, not a second table unpacked into the
    # first (every Action and move keeps its record, ~40 a fight)
    kept = {"round": record.round, "actions": record.actions, "boosts": list(record.boosts)}
    if record.count is not None:
        kept["count"] = record.count
    unit.extra[SPENT] = kept


COUNTDOWN_FROM = 10  # 001 l.499 "Each Group counts down from 10"


def reach(move: int | None, record: Spent) -> int:
    """The Count that reaches the unit next: its Move left (at most 10), and below the
    Count it last did something at — a Move gained later (Burst of Speed, Evade) never
    brings it back up (001 l.499–505)."""
    return reach_at(move, record.count)


def reach_at(move: int | None, count: int | None) -> int:
    """:func:`reach` from the Count the unit last did something at (None: nothing yet
    this round), with no record built: a simulated fight asks it of every unit before
    each Action. Compared in place, no ``min``/``max`` called: ~50 a fight."""
    at = move or 0
    cap = COUNTDOWN_FROM if count is None else count - 1
    if cap < at:
        at = cap
    return at if at > 0 else 0


def reach_of(unit: Mapping[str, Any], number: int | None) -> int:
    """:func:`reach` of a unit as stored (``[units.NAME]``) in round ``number``: a record
    of another round counts for nothing (None: no round yet, a record of none counts)."""
    raw = unit.get(SPENT)
    count = raw.get("count") if raw and raw.get("round") == number else None
    # a whole number taken as it is (``int`` of an int is that int: not called)
    return reach_at(unit.get("move"),
                    count if count is None or type(count) is int else int(count))


def stepped(unit: Unit, number: int, phase: str, move_before: int | None,
            record: Spent | None = None, free: bool = False) -> Spent:
    """Record that the unit did something (Movement, an Action) at the Count that
    reached it: :func:`reach` before the step (its Move then, if nothing reached it
    yet); it is next reached below that Count. A ``free`` action (Burst of Speed, Evade,
    Push the Limit…) takes no Count of its own: the unit stays at the Count it was at,
    and the Move it gains never lifts it above. Returns the record, kept on the unit."""
    if phase != "started":
        return record or spent(unit, number, phase)
    rec = record or spent(unit, number, phase)
    count = rec.count
    at = reach_at(move_before, count)  # :func:`reach` of the record, read in place
    if free:  # no Count of its own: capped where it stood, never lowered
        if count is None:
            rec.count = at + 1
    elif at > 0 and (count is None or at < count):  # the lower Count, no min() called
        rec.count = at
    keep_spent(unit, rec)
    return rec


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
