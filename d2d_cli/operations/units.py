"""Units on the board: add, conditions, spending Move and taking Actions (001 p.7,
l.527–609)."""

from __future__ import annotations

from typing import Any

from d2d_cli.operations import Target, in_round, roster_change
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units import roster as units


def add(t: Target, name: str, *, body: str, mind: str, will: str, speed: str,
        skills: list[str] | None = None, faction: str | None = None) -> units.UnitRow:
    """``d2d unit add NAME --body … --mind … --will … --speed … [--skill NAME=LEVEL]…``."""
    unit = units.new_unit(name, {"body": body, "mind": mind, "will": will, "speed": speed},
                          skills or [], faction)
    result: units.UnitRow = roster_change(t, lambda roster: units.add(roster, unit))
    return result


def condition(t: Target, name: str, action: str, cond: str, count: int = 1) -> units.UnitRow:
    """``d2d unit condition NAME add|remove CONDITION [--count N]``."""
    order = conditions.order(action, cond, count)
    result: units.UnitRow = roster_change(t, lambda roster: conditions.apply(roster, name,
                                                                             order))
    return result


def move(t: Target, name: str, what: str, rest: list[str] | None = None) -> Any:
    """``d2d unit move NAME N|KIND [COUNT|HEADING]`` (a ``rules.time.turns.Spending``)."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.time import turns
    from d2d_cli.rules.time.round_state import Round

    arg = " ".join(rest) if rest else None
    with t.edit() as tx:  # as in_round, with the map for a placed unit
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        result = turns.move(roster, rnd.number, rnd.phase, name, what, arg,
                            board=board_of(tx.data), tasks=tx.data.get("tasks", {}))
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result


def leave(t: Target, name: str, kind: str | None = None, side: str | None = None) -> Any:
    """``d2d unit leave NAME [KIND [SIDE]]`` (a ``rules.time.leaving.Left``)."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.time import leaving
    from d2d_cli.rules.time.round_state import Round

    with t.edit() as tx:
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        result = leaving.leave(roster, rnd.number, rnd.phase, name, board_of(tx.data),
                               tx.data.get("tasks", {}), kind, side)
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result


def free(t: Target, name: str) -> Any:
    """``d2d unit free NAME`` (a ``rules.time.leaving.Freed``)."""
    from d2d_cli.rules.time import leaving

    with t.edit() as tx:
        roster = units.roster(tx.data)
        result = leaving.free(roster, name)
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result


def act(t: Target, name: str, action: str, arg: str | None = None, *,
        range_: int | None = None) -> Any:
    """``d2d unit act NAME ACTION [CHOICE] [--range N]`` (a ``turns.Spending``)."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.time import turns

    data = t.read()
    opts, board = t.options(data), board_of(data)
    return in_round(t, lambda roster, n, phase: turns.act(roster, n, phase, name, action,
                                                          arg, range_, opts, board))
