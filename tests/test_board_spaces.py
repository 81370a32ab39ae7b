"""``Board.spaces``: every Space of a map with its terrain, one look-up for
``inside`` and ``terrain`` — which the planner's search for Routes
(``moves.reachable``) reads at every step, with each step's offset worked out once by
``ahead`` and each Space's least Move kept beside its Route (issue 40 item 1). Checked
against the two methods on and around maps, and ``reachable`` against the search as it
was written before, with ``ahead``, ``inside`` and ``terrain`` at every step."""

from __future__ import annotations

import heapq

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.operations.sim import _start
from d2d_cli.rules.board import grid, moves
from d2d_cli.rules.board.grid import Space, ahead
from d2d_cli.rules.board.placement import Placement
from tests.test_board_geometry import drawn

ROCKY, _ = drawn("""
. . ~ ~ . . .
. o . ~ . # .
. o . . . # .
. . . % % . .
. . . . . . o
""")


def boards() -> list[grid.Board]:
    _, start, _ = _start("combat1", {})
    return [grid.parse_board(start["board"]), ROCKY]


@pytest.mark.parametrize("board", boards(), ids=["combat1", "rocky"])
def test_every_space_on_and_around_the_map(board: grid.Board) -> None:
    """A Space is in ``spaces()`` exactly when ``inside`` says so, with ``terrain``'s
    Terrain; two rows and columns beyond every edge are not."""
    got = board.spaces()
    around = [(x, y) for y in range(-2, board.height + 2) for x in range(-2, board.width + 2)]
    for s in around:
        if board.inside(s):
            assert got[s] is board.terrain(s)
        else:
            assert s not in got
    assert len(got) == board.width * board.height
    assert board.spaces() is got  # worked out once for the map


def _reachable_by_the_methods(board: grid.Board, place: Placement, move: int,
                              blocked: frozenset[Space]) -> dict[Space, moves.Route]:
    """``moves.reachable`` as it read the map before ``spaces()``: ``inside`` then
    ``terrain`` at every step."""
    options = []
    for kind, turns in moves.TURNS.items():
        for turn in turns:
            side = None if len(turns) == 1 else ("left" if turn < 0 else "right")
            options.append((kind, side, ((place.facing or 0) + turn) % 8,
                            moves.costs()[kind]))
    best = {place.space: moves.Route(place.space, 0, ())}
    queue: list[tuple[int, int, Space]] = [(0, 0, place.space)]
    order = 0
    while queue:
        spent, _, here = heapq.heappop(queue)
        if spent > best[here].move:
            continue
        for kind, side, toward, base in options:
            there = ahead(here, toward)
            if there in blocked or not board.inside(there):
                continue
            t = board.terrain(there)
            cost = spent + base + t.move
            if not t.enter or cost > move or (there in best and best[there].move <= cost):
                continue
            if place.double:
                rear = ahead(there, (place.facing or 0) + 4)
                if not board.inside(rear) or not board.terrain(rear).enter:
                    continue
            best[there] = moves.Route(there, cost, (*best[here].steps, (kind, side)))
            order += 1
            heapq.heappush(queue, (cost, order, there))
    return best


@pytest.mark.parametrize("board", boards(), ids=["combat1", "rocky"])
def test_reachable_is_the_search_by_inside_and_terrain(board: grid.Board) -> None:
    """From every Space a unit may stand on, every Facing, Single- and Double-sized,
    with and without Spaces blocked: the same Routes, in the same order."""
    blocked = frozenset({(1, 1), (2, 3), (4, 0)})
    met = 0
    for (x, y), terrain in board.spaces().items():
        if not terrain.enter:
            continue
        for facing in range(8):
            for double in (False, True):
                place = Placement("U", (x, y), facing, double, "F")
                for move, block in ((4, frozenset()), (6, blocked - {(x, y)})):
                    got = moves.reachable(board, place, move, block)
                    want = _reachable_by_the_methods(board, place, move, block)
                    assert list(got.items()) == list(want.items())
                    met += len(got) > 1
    assert met  # routes found, not only the start
    with pytest.raises(RuleViolation):
        moves.reachable(board, Placement("U", (0, 0), None, False, "F"), 3)
