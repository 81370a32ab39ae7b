"""A unit that cannot reach its target this round closes in (rules.assistant.movement):
to the least Range, then the most Cover, the least Move, the Space's name. The planner
measures the Range from every Space and works out the rest of the geometry (Cover's
sweep) only where the Range is the least; this checks it against the whole geometry
derived from every Space, as it was, from many starts on Combat #1's map."""

from __future__ import annotations

import copy
from typing import Any

from d2d_cli import tables
from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board.derive import field
from d2d_cli.rules.board.grid import space_name
from d2d_cli.rules.board.moves import reachable
from d2d_cli.rules.board.placement import Placement
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units.roster import roster_view


def _every_space_derived(f: Any, me: Placement, actor: Any, rival: Any, move: int,
                         blocked: Any) -> tuple[Any, ...]:
    best: tuple[Any, ...] | None = None
    for space, route in reachable(f.board, me, max(0, move), blocked).items():
        g = movement._moved(f, Placement(me.unit, space, me.facing, me.double, me.faction))
        back = g.derive(rival, actor)
        near = (back.range, -back.cover, route.move, space_name(space))
        if best is None or near < best[0]:
            best = (near, route)
    assert best is not None
    return best


def test_closing_in_chooses_what_the_whole_geometry_chooses() -> None:
    data = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    f = field(data)
    assert f is not None
    units = roster_view(data)
    name, target = "Goblin Scout", "Archer"
    actor, rival = units[name], units[target]
    start = f.places[name]
    blocked = movement._blocked(f, name)
    starts = sorted(reachable(f.board, start, 40, blocked))[::3]
    assert len(starts) > 20
    checked = by_cover = 0
    for space in starts:
        for facing in (0, 3):
            me = Placement(name, space, facing, start.double, start.faction)
            g = movement._moved(f, me)
            for move in (1, 2, 4):
                (rng, cover, spent, where), route = _every_space_derived(
                    g, me, actor, rival, move, blocked)
                got = movement._closing_in(g, me, actor, rival, target, move, move,
                                           blocked)
                assert (got.space, got.move, got.steps) == (where, spent, route.steps)
                assert f"closes in to Range {rng} with Move {spent} of {move}" in got.why
                checked += 1
                by_cover += cover != 0
    assert checked == len(starts) * 6
    assert by_cover  # somewhere the Space chosen has Cover: it was weighed
