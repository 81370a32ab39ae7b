"""A move on the map remembered gives what walking it afresh gives (issue 40 item 1: the
rule function made cheaper for the fights a ``sim`` plays, no result changed —
tests/test_sim.py and tests/golden/ pin whole fights byte for byte)."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.board import moves
from d2d_cli.rules.board.grid import parse_board, parse_space
from d2d_cli.rules.board.placement import Placement
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play

OPEN = {"grid": "...\n...\n..."}
WALLED = {"grid": "...\n.#.\n..."}  # B2 is a wall (001's legend: not entered)


def test_every_move_of_whole_fights_is_the_one_walked_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every ``unit move`` of whole fights (Walks and Turns), the Moved given is the
    one walked with nothing remembered — and most are found, not walked again."""
    start, goals = combat1()
    walk_afresh = moves._on_map
    walked = []

    def fresh(board: Any, place: Any, kind: str, arg: Any, new_facing: Any = None) -> Any:
        return walk_afresh(board, place, kind, arg, new_facing)

    def checked(asked: Any, *args: Any) -> Any:
        got = asked(*args)
        assert got == fresh(*args)
        return got

    def counted(*args: Any) -> Any:
        walked.append(args[2])
        return walk_afresh(*args)

    looks = checking(monkeypatch, moves, "on_map", checked)
    monkeypatch.setattr(moves, "_on_map", counted)
    play(start, goals, 13)
    assert len(looks) > 5 * FIGHTS
    assert any(m is not None and m.walk is not None for m in looks)
    assert any(m is not None and m.walk is None for m in looks)  # Turns too
    assert len(walked) < len(looks) / 2  # the most found, not walked again


def test_the_same_placement_on_another_map_is_walked_on_that_map() -> None:
    """The map is in what is remembered: a step allowed on one map is refused on another
    (a wall there), for the very same Placement, whichever was asked first."""
    open_, walled = parse_board(OPEN), parse_board(WALLED)
    place = Placement("X", parse_space("B3"), 0)
    assert moves.on_map(open_, place, "forward", None).space == parse_space("B2")
    with pytest.raises(RuleViolation, match="cannot be entered"):
        moves.on_map(walled, place, "forward", None)
    with pytest.raises(RuleViolation, match="cannot be entered"):  # refused each time
        moves.on_map(walled, place, "forward", None)
    assert moves.on_map(open_, place, "forward", None).space == parse_space("B2")


def test_another_placement_or_other_words_are_walked_anew() -> None:
    """Another Placement (an equal one built anew, another Facing or Space) and other
    words (a count, a side, a Turn) each get their own move, never one remembered for
    another."""
    board = parse_board(OPEN)
    place = Placement("X", parse_space("B3"), 0)
    first = moves.on_map(board, place, "forward", None)
    assert moves.on_map(board, place, "forward", None) is first  # found
    assert moves.on_map(board, Placement("X", parse_space("B3"), 0), "forward",
                        None) == first
    assert moves.on_map(board, place, "forward", "2").space == parse_space("B1")
    assert moves.on_map(board, Placement("X", parse_space("B3"), 2), "forward",
                        None).space == parse_space("C3")
    assert moves.on_map(board, Placement("X", parse_space("A3"), 0), "forward",
                        None).space == parse_space("A2")
    assert moves.on_map(board, place, "turn", None, 4).facing == 4
    assert moves.on_map(board, place, "equip", None) is None  # no geometry
    assert moves.on_map(board, place, "forward", None) is first
