"""The policy's twelfth cut (issue 40 item 1): the movement planners' key holds the map
as the number of the Board every plan reads (``parse_board``, which gives the same
Board for maps alike; ``Board.serial``, never given to another Board), not the ``repr``
of the session's ``[board]`` table — written out again for every fight, whose state is
a new copy with a new ``[board]`` table. Checked against the plans worked out afresh
over whole fights (each fight's map a table of its own, the plans remembered from fight
to fight), and by maps planted: a map changed in one character or one legend value is
another key, a map alike in a new table the same."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board.grid import parse_board
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def test_the_plans_remembered_across_fights_are_the_ones_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every approach, withdrawal and way off the map of whole fights — each fight with
    its own ``[board]`` table, the planners' memories kept from fight to fight — is the
    one worked out afresh from that fight's session."""
    start, goals = combat1()
    boards: set[int] = set()
    held: list[Any] = []  # the tables seen, held so that their ids stay theirs

    def fresh(worker: Any) -> Any:
        def checked(asked: Any, data: Any, *args: Any) -> Any:
            boards.add(id(data["board"]))
            held.append(data["board"])
            got = asked(data, *args)
            assert got == worker(data, *args)
            return got
        return checked

    looks = checking(monkeypatch, movement, "approach", fresh(movement._approach))
    away = checking(monkeypatch, movement, "get_away", fresh(movement._get_away))
    checking(monkeypatch, movement, "withdraw", fresh(movement._withdraw))
    play(start, goals, 8)
    play(start, goals, 9)
    assert len(looks) > 10 * FIGHTS and away
    assert len(boards) > FIGHTS  # a [board] table of its own for each fight


def _key(board: dict[str, Any]) -> tuple[Any, ...]:
    start, _ = combat1()
    return movement._key({**start, "board": board}, ("Archer", "Goblin Scout"),
                         "Archer")


def test_a_map_changed_is_another_key_and_a_map_alike_the_same() -> None:
    """The key follows the map read: one Space changed (a wall planted), one legend
    value changed (the stream's Move), or a legend entry added is another key; the same
    map in a new table (every fight's copy) is the same key, holding the number of the
    very Board the plan reads (``parse_board``); a Board parsed anew is numbered anew."""
    start, _ = combat1()
    board = start["board"]
    first = _key(board)
    assert _key(copy.deepcopy(board)) == first
    assert first[0] == parse_board(copy.deepcopy(board)).serial

    from d2d_cli.rules.board.grid import Board

    again = Board(parse_board(board).rows, parse_board(board).legend)
    assert again.serial != parse_board(board).serial  # no number given twice

    rows = list(board["rows"])
    rows[3] = "#" + rows[3][1:]
    assert _key({**board, "rows": rows}) != first
    legend = copy.deepcopy(board["legend"])
    legend["~"]["move"] = 2
    assert _key({**board, "legend": legend}) != first
    assert _key({**board, "legend": {**board["legend"], "x": "open ground"}}) != first


def test_a_plan_on_a_map_changed_is_worked_out_anew() -> None:
    """The Archer's approach on Combat #1's map, then on the map with the Space it
    moves to walled off: the second plan is the one worked out afresh for that map, not
    the first remembered."""
    start, _ = combat1()
    data = copy.deepcopy(start)
    for u, (space, facing) in {"Archer": ("C7", "NE"), "Goblin Scout": ("I2", "SW")}.items():
        data["units"][u] = {**data["units"][u], "space": space, "facing": facing}
    args = ("Archer", "Goblin Scout", 2, 4, 2, 1)
    first = movement.approach(data, *args)
    assert first is not None and first.space != "C7"  # it moves
    x = ord(first.space[0]) - ord("A")
    y = int(first.space[1:]) - 1
    rows = list(data["board"]["rows"])
    rows[y] = rows[y][:x] + "#" + rows[y][x + 1:]
    walled = {**data, "board": {**data["board"], "rows": rows}}
    second = movement.approach(walled, *args)
    assert second == movement._approach(walled, *args)
    assert second != first


def test_the_engine_and_the_planners_write_a_weapons_table_out_once() -> None:
    """One memory of a weapons table's text for the engine's reading of a unit and the
    planners' key (every fight's units are new tables, their weapons too): the text
    either reads is that table's ``repr``, and a table changed (a new one, as a fight
    stores it) is written out anew for both."""
    from d2d_cli.rules.assistant import engine

    assert engine._weapons_text is movement.weapons_text
    start, _ = combat1()
    archer = copy.deepcopy(start["units"]["Archer"])
    engine._reading(archer)  # the engine reads it first, as a fight's Conflict does
    data = {**start, "units": {**start["units"], "Archer": archer}}
    key = movement._key(data, ("Archer", "Goblin Scout"), "Archer")
    assert key[2][1] == repr(archer["weapons"])
    other = {**archer, "weapons": {**archer["weapons"], "Club": {"rating": "Body+1"}}}
    assert engine._weapons_text(other["weapons"]) == repr(other["weapons"])
    data = {**start, "units": {**start["units"], "Archer": other}}
    assert movement._key(data, ("Archer", "Goblin Scout"), "Archer")[2][1] == repr(
        other["weapons"])
