"""The map's remembered parts give what a fresh reading gives (issue 22 item 7: the rule
functions made faster, no result changed): a Board remembered by value, a Field
remembered while no unit moves, and a Geometry remembered by its Field."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.board import derive, grid
from d2d_cli.rules.board.derive import Field, field
from d2d_cli.rules.board.grid import COMPASS, parse_board, space_name
from d2d_cli.rules.board.placement import placements
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units.roster import roster


def combat1() -> dict:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def same_board(a: grid.Board, b: grid.Board) -> bool:
    return (a.rows, a.legend, a.width, a.height) == (b.rows, b.legend, b.width, b.height)


def fresh_field(data: dict) -> Field:
    """The Field built from nothing remembered."""
    return Field(grid._parse_board(data["board"]), placements(roster(data).values()))


def outcome(f: Field, data: dict, a: str, b: str, attack: str | None) -> object:
    units = roster(data)
    try:
        return f.derive(units[a], units[b], attack)
    except RuleViolation as e:
        return ("refused", e.message)


def test_a_board_read_again_is_the_one_read_first_and_equals_a_fresh_reading() -> None:
    raw = combat1()["board"]
    first = parse_board(raw)
    assert parse_board(copy.deepcopy(raw)) is first
    assert same_board(first, grid._parse_board(raw))
    changed = copy.deepcopy(raw)
    changed["rows"][0] = "#" + changed["rows"][0][1:]
    other = parse_board(changed)
    assert other is not first and other.terrain((0, 0)).name == "ruined wall"
    assert same_board(other, grid._parse_board(changed))


def test_a_legend_value_of_another_type_is_another_board() -> None:
    # true == 1 in Python, but Elevation must be a number: the remembered map with 1
    # must not answer for the one with true.
    ok = {"grid": "a.\n..", "legend": {"a": {"name": "hill", "elevation": 1}}}
    assert parse_board(ok).terrain((0, 0)).elevation == 1
    bad = {"grid": "a.\n..", "legend": {"a": {"name": "hill", "elevation": True}}}
    for _ in range(2):
        with pytest.raises(BadInput, match="elevation must be int"):
            parse_board(bad)


def test_a_refused_map_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(BadInput, match="row 2 has 1 Spaces"):
            parse_board({"grid": "..\n."})


def test_the_remembered_maps_and_fields_stay_bounded() -> None:
    data = combat1()
    for i in range(grid.BOARDS_KEPT + 10):
        data["board"] = {"rows": ["." * (i % 90 + 2), "." * (i % 90 + 2)]}
        field(data)
    assert len(grid._BOARDS) <= grid.BOARDS_KEPT
    assert len(derive._FIELDS) <= derive.FIELDS_KEPT


def test_a_field_is_remembered_until_a_unit_moves() -> None:
    data = combat1()
    f = field(data)
    assert f is not None and field(copy.deepcopy(data)) is f
    data["units"]["Archer"]["space"] = "E8"
    moved = field(data)
    assert moved is not f and moved is not None
    assert moved.places == fresh_field(data).places
    assert outcome(moved, data, "Archer", "Goblin Scout", "ranged") == outcome(
        fresh_field(data), data, "Archer", "Goblin Scout", "ranged")
    data["units"]["Archer"]["facing"] = "S"  # a turn is a change of the Field too
    assert field(data) is not moved


def test_a_refusal_is_given_again_with_the_same_reason() -> None:
    data = combat1()
    f = field(data)
    assert f is not None
    first = outcome(f, data, "Goblin Scout", "Archer", "close")
    assert first[0] == "refused"  # type: ignore[index]
    assert outcome(f, data, "Goblin Scout", "Archer", "close") == first
    assert outcome(fresh_field(data), data, "Goblin Scout", "Archer", "close") == first


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 6), st.sampled_from(COMPASS)),
                min_size=4, max_size=4),
       st.sampled_from([None, "close", "melee", "reach", "ranged"]))
def test_every_derivation_equals_one_from_nothing_remembered(
        where: list[tuple[int, int, str]], attack: str | None) -> None:
    data = combat1()
    for (x, y, facing), unit in zip(where, data["units"].values(), strict=True):
        unit["space"], unit["facing"] = space_name((x, y)), facing
    names = list(data["units"])
    for _ in range(2):  # the second time from what the first remembered
        got = field(data)
        assert got is not None
        for a in names:
            for b in names:
                if a != b:
                    assert outcome(got, data, a, b, attack) == outcome(
                        fresh_field(data), data, a, b, attack)


@settings(max_examples=100, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "space": st.sampled_from(["A1", "g5", " K10 ", "AB3"]),
    "facing": st.sampled_from([*COMPASS, "north", ""]),
    "double": st.sampled_from([True, False, 1, 0]),
    "faction": st.sampled_from(["Goblins", "Adventurers"])}))
def test_placements_of_stored_units_are_those_of_the_units_built(extra: dict) -> None:
    from d2d_cli.rules.board.placement import placements_of

    units = {"Rook": {"kind": "unit", "body": "2x1", **extra},
             "Wren": {"kind": "unit", "space": "B2", "facing": "N"}}
    assert placements_of(units) == placements(roster({"units": units}).values())


def test_a_remembered_reading_is_the_callers_own_to_change() -> None:
    from d2d_cli.rules.board import sight
    from d2d_cli.rules.combat import conflict

    line = sight.crossed((0, 0), (5, 3))
    line.append((99, 99))
    assert sight.crossed((0, 0), (5, 3)) == line[:-1]
    chart = conflict.chart("001")
    before = chart["strong"]["fast"]
    chart["strong"]["fast"] = "changed"
    assert conflict.chart("001")["strong"]["fast"] == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10), st.integers(1, 6), st.sampled_from(COMPASS),
                          st.booleans()), min_size=4, max_size=4))  # both Spaces on the map
def test_the_range_alone_is_the_range_of_the_whole_geometry(
        where: list[tuple[int, int, str, bool]]) -> None:
    data = combat1()
    for (x, y, facing, double), unit in zip(where, data["units"].values(), strict=True):
        unit["space"], unit["facing"], unit["double"] = space_name((x, y)), facing, double
    units, f = roster(data), fresh_field(data)
    for a in units.values():
        for b in units.values():
            if a is not b:
                geo = f.derive(a, b)
                assert geo is not None and f.range(a, b) == geo.range
    data["units"]["Archer"].pop("space")
    units = roster(data)
    assert fresh_field(data).range(units["Archer"], units["Thief"]) is None
