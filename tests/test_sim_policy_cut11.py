"""The policy's eleventh cut (issue 40 item 1): a new movement plan, cheaper. The sweep
of Cover (001 l.714) finds a new offset's Spaces a column at a time, and tests what
obstructs before whether it is on the map; ``movement._approach`` reads each kind's
reach once and measures a Space's Range before its geometry, passing over without
deriving it a Space past the longest band or at Disadvantage where one without it is
found. Each short cut is checked against the rule as written before it — the sweep by
every square of its box (``tests/test_board_geometry.py``), the obstacles with the map
asked first, every new movement plan of whole fights by the loop that derived every
Space — and tests/golden/ and tests/test_sim.py pin whole fights byte for byte."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board import sight
from d2d_cli.rules.board.derive import arcs_of, placed_range
from d2d_cli.rules.board.grid import Space, space_name
from d2d_cli.rules.board.moves import reachable
from d2d_cli.rules.board.placement import Placement
from tests.test_board_cover_percent import BC, BOARD, MARKS, _same
from tests.test_board_geometry import _swept_by_corners
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


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


def _approach_before(data: Any, name: str, target: str, budget: int, move: int,
                     turn: int, actions: int, dropped: list[str]) -> Any:
    """``movement._approach`` as written before: every Space's geometry derived, then its
    Range read from it. ``dropped``: why a Space derived was passed over by its Range."""
    from d2d_cli.rules.board.derive import field
    from d2d_cli.rules.units.roster import roster_view

    units = roster_view(data)
    f = field(data)
    if f is None or name not in f.places or target not in f.places:
        return None
    me, them = f.places[name], f.places[target]
    if me.facing is None:
        return None
    actor, rival = units[name], units[target]
    top = movement._weapon_reach(actor)
    kinds = sorted(movement._attack_kinds(actor),
                   key=lambda k: -(movement._reach_of(k, top) or 10**6))
    widest = movement._reach_of(kinds[0], top)
    blocked = movement._blocked(f, name)
    best: tuple[Any, ...] | None = None
    for space, route in reachable(f.board, me, max(0, budget), blocked).items():
        at = Placement(me.unit, space, me.facing, me.double, me.faction)
        got = movement._facing_for(f, at, them, turn, arcs_of(kinds[0]))
        if got is None:
            continue
        p, steps = got
        if widest is not None and sight.distance(space, them.space) > widest + 2:
            continue
        g = movement._moved(f, p)
        try:
            geo = g.derive(actor, rival, kinds[0])
        except RuleViolation:
            if widest is not None and placed_range(p, them) > widest:
                dropped.append("refused")  # derived only to be refused out of reach
            continue
        assert geo is not None
        if widest is not None and geo.range > widest:
            dropped.append("band")
            continue
        kind = next(k for k in reversed(kinds)
                    if (movement._reach_of(k, top) is None
                        or geo.range <= (movement._reach_of(k, top) or 0)))
        flank = {sight.BACK: 2, sight.LEFT: 1, sight.RIGHT: 1}.get(geo.rival_arc or "", 0)
        worse = geo.range in movement._disadvantage_at(kind)
        if best is not None and (worse, geo.cover) > best[0][:2]:
            if worse and not best[0][0]:
                dropped.append("disadvantage")
            continue
        mine = movement._own_cover(g, geo, p, them)
        key = (worse, geo.cover, -mine, -flank, route.move, steps, space_name(space))
        if best is None or key < best[0]:
            best = (key, route, p, steps, mine, geo.rival_arc, kind, geo.range)
    if best is not None:
        return movement._reached(best, target, budget, actions)
    return movement._closing_in(f, me, actor, rival, target, budget, move, blocked)


@pytest.mark.parametrize("seed", [2, 5])
def test_every_new_movement_plan_of_whole_fights_is_the_one_every_space_derived_gives(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Whole fights with no plan remembered (every one worked out): each Movement, its
    reason included, equals the one the loop deriving every Space's geometry gives —
    and the Spaces the Range now passes over (past the band, at Disadvantage) were met."""
    start, goals = combat1()
    dropped: list[str] = []

    def checked(original: Any, data: Any, name: str, target: str, budget: int, move: int,
                *rest: Any) -> Any:
        # and with more Move: more Spaces in reach, some at Disadvantage for the Archer
        for more in (4, 2, 0):
            args = (data, name, target, budget + more, move + more, *rest)
            got = original(*args)
            assert got == _approach_before(*args, dropped), args[1:]
        return got

    monkeypatch.setattr(movement, "_PLANS", {})
    looks = checking(monkeypatch, movement, "_approach", checked)
    play(start, goals, seed)
    assert len(looks) > FIGHTS
    assert dropped.count("refused") > 0 and dropped.count("disadvantage") > 0
