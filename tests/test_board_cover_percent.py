"""``sight.cover_percent``, the planner's reading of Cover (a plain Field,
``rules.board.derive``): the same percent as ``sight.cover`` (000 l.330–332, 001 l.714),
which it is on every pair of Spaces — it only looks at the sweep first and answers 0,
drawing no edge, where the sweep meets no obstacle (issue 40 item 1)."""

from __future__ import annotations

from d2d_cli.rules.board import sight
from d2d_cli.rules.board.grid import Space
from tests.test_board_geometry import drawn

MAP = """
. . . . . . . . . .
. . o . . . . # . .
. . o . . . . # . .
. . . . . . . . . .
. . . . A . . . . .
. . . . . . . . B .
. # # . . . . . . .
. . . . . . C . . .
"""


def _same(s: Space) -> object:  # B and C one obstacle, as a Double-sized unit's two Spaces
    return "BC" if s in BC else s


BOARD, MARKS = drawn(MAP)
BC = {MARKS["B"], MARKS["C"]}


def test_the_planners_percent_is_the_covers_on_every_pair_of_spaces() -> None:
    """Every Space against every other (both ways), with no unit, one unit and two
    units obstructing (one of them Double-sized, by ``same``), under both readings of
    ``[rules] cover``: ``cover_percent`` equals ``cover(...).percent`` — and the pairs
    met include Cover 0 with and without an obstacle swept, and every step of it."""
    spaces = [(x, y) for y in range(BOARD.height) for x in range(BOARD.width)]
    seen: dict[tuple[str, bool], set[int]] = {}
    for occupied, same in (((), None), ({MARKS["A"]}, None), (BC, _same),
                           ({MARKS["A"], *BC}, _same)):
        for reading in sight.READINGS:
            for a in spaces:
                for b in spaces:
                    want = sight.cover(BOARD, a, b, occupied, same, reading)
                    assert sight.cover_percent(BOARD, a, b, occupied, same,
                                               reading) == want.percent, (a, b, reading)
                    swept = bool(sight._swept_obstacles(
                        BOARD, a, b, BOARD.obstructing(), occupied, same or sight._itself))
                    seen.setdefault((reading, swept), set()).add(want.percent)
    # the short cut taken (nothing swept, Cover 0) and the full path where something is,
    # including a swept obstacle the edges do not count (0), and each step of Cover
    assert seen[("sweep", False)] == {0}
    assert {0, 25, 50} <= seen[("sweep", True)]
    assert {0, 25, 50} <= seen[("edges", True)] | seen[("edges", False)]
