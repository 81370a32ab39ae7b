"""The policy's eleventh cut (issue 40 item 1): a new movement plan, cheaper. The sweep
of Cover (001 l.714) finds a new offset's Spaces a column at a time, and tests what
obstructs before whether it is on the map. Each short cut is checked against the rule
as written before it — the sweep by every square of its box
(``tests/test_board_geometry.py``), the obstacles with the map asked first — and
tests/golden/ and tests/test_sim.py pin whole fights byte for byte."""

from __future__ import annotations

from typing import Any

from d2d_cli.rules.board import sight
from d2d_cli.rules.board.grid import Space
from tests.test_board_cover_percent import BC, BOARD, MARKS, _same
from tests.test_board_geometry import _swept_by_corners


def test_the_sweep_by_columns_is_every_square_of_a_wide_box() -> None:
    """Past the 41 x 41 offsets of tests/test_board_geometry.py: long, flat boxes (a
    column's run of rows bounded by each axis), the same Spaces in the same order."""
    for dx in range(-40, 41):
        for dy in (-23, -9, -2, -1, 0, 1, 3, 17, 31):
            for a, b in ((dx, dy), (dy, dx)):
                assert sight._swept_from_origin(a, b) == _swept_by_corners(a, b), (a, b)


def _swept_before(board: Any, unit: Space, rival: Space, obstacles: Any, occupied: Any,
                  key: Any) -> dict[Any, Space]:
    """``sight._swept_obstacles`` as written before: the map asked first of every Space."""
    seen: dict[Any, Space] = {}
    for s in sight.swept(unit, rival):
        if board.inside(s) and (s in obstacles or s in occupied):
            seen.setdefault(key(s), s)
    return seen


def test_the_obstacles_swept_are_the_ones_the_map_asked_first_gives() -> None:
    """Every pair of Spaces of a map with obstacles, units obstructing (a Double-sized
    pair as one obstacle) and occupied Spaces planted off the map: the same obstacles,
    in the same order, by the same key — and the Spaces off the map are met."""
    spaces = [(x, y) for y in range(BOARD.height) for x in range(BOARD.width)]
    off = {(-1, 3), (BOARD.width, 2), (4, -1), (5, BOARD.height)}
    met_off = 0
    for occupied, same in (((), sight._itself), ({MARKS["A"]}, sight._itself),
                           (BC, _same), ({MARKS["A"], *BC, *off}, _same)):
        for a in [*spaces, (-2, 3), (BOARD.width + 1, 1)]:
            for b in spaces:
                want = _swept_before(BOARD, a, b, BOARD.obstructing(), occupied, same)
                got = sight._swept_obstacles(BOARD, a, b, BOARD.obstructing(), occupied,
                                             same)
                assert list(got.items()) == list(want.items()), (a, b)
                met_off += any(s in off for s in sight.swept(a, b)) and bool(occupied)
    assert met_off > 50  # the planted Spaces off the map were swept, and not counted
