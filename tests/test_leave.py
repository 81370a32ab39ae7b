"""Leaving the map (`d2d unit leave`; docs/rules.md "Leaving the map"): only from a Space
on the map's edge, at the Move of the step off it, never for a bound unit; the unit then
stands on no Space, is no one's Target, the board lists it as having left and the goal
`off map UNIT` holds. Journalled (undo) and refused without a byte changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals
from d2d_cli.rules.board.edge import exits
from d2d_cli.rules.board.grid import heading, parse_board, parse_space
from d2d_cli.rules.board.placement import Placement
from tests.helpers import Runner, assert_refused, rule_line


@pytest.fixture
def table(d2d: Runner, tmp_path: Path) -> tuple[Any, ...]:
    s = ("--session", tmp_path / "t.toml")
    d2d.ok(*s, "--seed", 2, "scene", "load", "combat1")
    d2d.ok(*s, "round", "start")
    return s


def test_the_steps_off_the_map_are_listed_cheapest_first() -> None:
    board = parse_board({"grid": "...\n...\n...", "legend": {}})

    def at(space: str, face: str) -> list[tuple[str, ...]]:
        p = Placement("U", parse_space(space), heading(face))
        return [(*e.words, e.toward, str(e.move)) for e in exits(board, p)]

    assert at("B2", "N") == []  # the middle: no step leaves
    # 000 l.273–277: Forward 1, Drift 1, Slide 2, Backward 2, Drift Back 2
    assert at("B1", "N") == [("forward", "N", "1"), ("drift", "left", "NW", "1"),
                             ("drift", "right", "NE", "1")]
    assert at("A3", "N") == [("drift", "left", "NW", "1"), ("slide", "left", "W", "2"),
                             ("backward", "S", "2"), ("drift-back", "left", "SW", "2"),
                             ("drift-back", "right", "SE", "2")]


def test_a_unit_on_the_edge_leaves_at_the_move_of_its_step(d2d: Runner, table: Any) -> None:
    # The Archer on E9 facing N: Backward to E10 (Move 2), then off the map southward.
    d2d.ok(*table, "unit", "target", "Goblin Scout", "Archer")
    d2d.ok(*table, "unit", "move", "Archer", "backward")
    r = d2d.json(*table, "unit", "leave", "Archer")
    assert r == {"unit": "Archer", "step": "Backward S", "words": ["backward"],
                 "space_before": "E10", "move_before": 3, "move": 1, "cost": 2,
                 "targets_cleared": ["Goblin Scout"], "off_map": True}
    board = d2d.json(*table, "board")
    assert board["left"] == ["Archer"] and "Archer" not in board["unplaced"]
    assert "Archer" not in [u["name"] for u in board["units"]]
    assert "Left the map: Archer" in d2d.ok(*table, "board")
    units = d2d.json(*table, "unit", "list")["units"]
    assert {u["name"]: u["target"] for u in units}["Goblin Scout"] is None
    # undo puts him back on E10, the Scout's Target too
    d2d.ok(*table, "session", "undo")
    board = d2d.json(*table, "board")
    assert board["left"] == [] and {u["name"]: u["space"] for u in board["units"]}[
        "Archer"] == "E10"


def test_a_named_step_is_taken_and_its_move_paid(d2d: Runner, table: Any) -> None:
    d2d.ok(*table, "unit", "move", "Archer", "drift", "left", "4")  # E9 → A5, Move 1
    r = d2d(*table, "unit", "leave", "Archer", "slide", "left")
    assert r.exit_code == 2 and "Archer has Move 1; Slide W off the map from A5 costs 2" \
        in r.stderr
    r = d2d.json(*table, "unit", "leave", "Archer", "drift", "nw")
    assert (r["step"], r["cost"], r["move"]) == ("Drift NW", 1, 0)


def test_leaving_is_refused_away_from_the_edge_bound_or_outside_a_round(
        d2d: Runner, table: Any, tmp_path: Path) -> None:
    for args, message in (
            (["Archer"], "Archer on E9 is not at the map's edge: move to a Space on the "
                         "edge first"),
            (["Thief"], "Thief is bound (Restrict:Bind:4 tied with a Knot:4) and cannot "
                        "leave the map"),
            (["Nobody"], "Nobody"),
            (["Archer", "sideways"], "unknown movement 'sideways'")):
        assert_refused(d2d, tmp_path, [*table, "unit", "leave", *args], message)
    d2d.ok(*table, "unit", "move", "Archer", "backward")
    assert_refused(d2d, tmp_path, [*table, "unit", "leave", "Archer", "forward"],
                   "Archer cannot leave by Forward N from E10: that Space is on the map; "
                   "off the map from E10: backward, drift-back left, drift-back right")
    # unit move still refuses the step off the map, and says how to leave
    assert_refused(d2d, tmp_path, [*table, "unit", "move", "Archer", "backward"],
                   "Archer cannot Backward S from E10: that Space is off the map (south "
                   "of row 10); to leave the map from E10: d2d unit leave Archer")
    d2d.ok(*table, "round", "end")
    assert_refused(d2d, tmp_path, [*table, "unit", "leave", "Archer"],
                   "round 1 has ended")


def test_the_freed_thief_leaves_and_the_goal_holds(d2d: Runner, table: Any,
                                                   tmp_path: Path) -> None:
    d2d.ok(*table, "task", "win", "Knot", "--hits", "4", "--by", "Thief")
    r = d2d.json(*table, "unit", "leave", "Thief")  # K1 facing S: Backward N, Move 2
    assert (r["step"], r["space_before"], r["move"]) == ("Backward N", "K1", 2)
    assert_refused(d2d, tmp_path, [*table, "unit", "leave", "Thief"],
                   "Thief cannot leave the map: it has left the map already")
    # each unit keeps its label, its place on the Status Bar (000 l.566 "laid out with
    # their colored Unit# cards"): the Goblins are still 3 and 4 with the Thief gone
    labels = {u["name"]: u["label"] for u in d2d.json(*table, "board")["units"]}
    assert "Unit# cards" in rule_line("000", 566)
    assert (labels["Archer"], labels["Goblin Scout"], labels["Goblin Skirmisher"]) == (
        "1", "3", "4")
    # gone from the Scene until put back: no Conflict, no Target (docs/rules.md)
    assert_refused(d2d, tmp_path, [*table, "conflict", "Goblin Scout:fast", "Thief:block"],
                   "Thief has left the map (d2d unit leave) and enters no Conflict")
    assert_refused(d2d, tmp_path, [*table, "hit", "7S", "--by", "Goblin Scout", "--vs",
                                   "Thief"], "Thief has left the map")
    assert_refused(d2d, tmp_path, [*table, "unit", "target", "Goblin Scout", "Thief"],
                   "Thief has left the map (d2d unit leave): it cannot be a Target")
    d2d.ok(*table, "unit", "move", "Archer", "backward")
    d2d.ok(*table, "unit", "leave", "Archer")
    from d2d_cli import session

    data = session.read(Path(table[1]))
    got = goals.parse(data["scene"]["goals"], data)
    assert goals.reached(got["Adventurers"], data)
    assert not goals.reached(got["Goblins"], data)
    # unit place puts a unit that left back on the map; the goal no longer holds
    d2d.ok(*table, "unit", "place", "Archer", "E10")
    data = session.read(Path(table[1]))
    assert "off_map" not in data["units"]["Archer"]
    assert not goals.reached(got["Adventurers"], data)


# --------------------------------------------------------------------------- the policy


def _plans(d2d: Runner, table: Any, *steps: list[Any]) -> Any:
    from d2d_cli import session
    from d2d_cli.rules.assistant import policy
    from d2d_cli.rules.core.options import DEFAULTS

    for step in steps:
        d2d.ok(*table, *step)
    data = session.read(Path(table[1]))
    got = goals.parse(data["scene"]["goals"], data)
    return {n: policy.plan(data, n, got, DEFAULTS) for n in ("Archer", "Thief")}


def test_once_the_knot_is_won_the_archer_and_thief_head_off_the_map(
        d2d: Runner, table: Any) -> None:
    # before: the Thief works his Knot, the Archer fights
    p = _plans(d2d, table)
    assert (p["Thief"].action, p["Archer"].action) == ("task", "attack")
    # "Free the Thief and get away": the Knot won, "off map Archer Thief" is what is left
    p = _plans(d2d, table, ["task", "win", "Knot", "--hits", "4", "--by", "Thief"])
    thief, archer = p["Thief"], p["Archer"]
    assert (thief.action, thief.moves, thief.leaves) == ("leave", (), ("backward",))
    # E9 facing N, Move 5: Drift Back SW to D10 (Move 2), then Backward S off the map (2)
    assert (archer.action, archer.moves, archer.space, archer.leaves) == (
        "leave", (("drift-back", "left"),), "D10", ("backward",))
    assert archer.reasons[0].why.startswith("the goal (task Knot won, off map Archer "
                                            "Thief)")
    # with Move 3 the way off (Move 4) is out of reach: as far along it as the Move goes
    p = _plans(d2d, table, ["unit", "move", "Archer", "2"])
    assert (p["Archer"].action, p["Archer"].moves, p["Archer"].space, p["Archer"].leaves) \
        == ("away", (("drift-back", "left"),), "D10", ())


def test_a_dropped_task_never_leaves_a_unit_bound_for_good(d2d: Runner, table: Any,
                                                           tmp_path: Path) -> None:
    """000 l.599–606 frees the Thief by his Knot's task; with the task dropped unwon he
    is still bound, `task drop` says so and `unit free` frees him (journaled, undone);
    dropped once won, the task leaves him free."""
    assert "Attempts to escape his Bindings" in rule_line("000", 599)
    r = d2d.json(*table, "task", "drop", "Knot")
    assert (r["dropped"], r["freed"], r["still_bound"]) == (True, [], ["Thief"])
    assert_refused(d2d, tmp_path, [*table, "unit", "leave", "Thief"],
                   "Thief is bound (Restrict:Bind:4 tied with a Knot:4) and cannot leave "
                   "the map: win the task that frees it first (d2d task win), or free it "
                   "another way (d2d unit free 'Thief')")
    assert_refused(d2d, tmp_path, [*table, "unit", "free", "Archer"], "Archer is not bound")
    r = d2d.json(*table, "unit", "free", "Thief")
    assert (r["unit"], r["bound"]) == ("Thief", "Restrict:Bind:4 tied with a Knot:4")
    assert d2d.json(*table, "unit", "leave", "Thief")["space_before"] == "K1"
    d2d.ok(*table, "session", "undo")  # the leave
    d2d.ok(*table, "session", "undo")  # the free
    d2d.ok(*table, "unit", "show", "Thief")  # (the session read afresh after the undo)
    assert_refused(d2d, tmp_path, [*table, "unit", "leave", "Thief"], "Thief is bound")


def test_a_won_task_dropped_leaves_its_unit_free(d2d: Runner, table: Any) -> None:
    d2d.ok(*table, "task", "win", "Knot", "--hits", "4", "--by", "Thief")
    r = d2d.json(*table, "task", "drop", "Knot")
    assert (r["state"], r["freed"], r["still_bound"]) == ("complete", ["Thief"], [])
    assert d2d.json(*table, "unit", "leave", "Thief")["step"] == "Backward N"
