"""Where a unit's plan moves it (rules.assistant.movement), checked against the whole
geometry derived from every Space, as the planner did before it skipped what cannot
change its choice, from many starts on Combat #1's map. Closing in (no Space in reach
passes Verify): the least Range, then the most Cover, the least Move, the Space's name;
the planner measures the Range from every Space and derives Cover (a sweep) only where
the Range is the least. The attack's Space: the Rival's geometry (its Cover against
the unit) is derived only where the unit's own key could still win.
"""

from __future__ import annotations

import copy
from typing import Any

from d2d_cli import tables
from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board.derive import field
from d2d_cli.rules.board.grid import COMPASS, space_name
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


def _every_space_keyed(data: dict[str, Any], f: Any, name: str, target: str,
                       budget: int) -> tuple[Any, ...] | None:
    """The attack's Space by the planner's whole key, with both geometries derived from
    every Space in reach (as the planner did before it skipped the Rival's geometry
    where its own Cover could not make up for the rest)."""
    from d2d_cli.errors import RuleViolation
    from d2d_cli.rules.board import sight
    from d2d_cli.rules.board.derive import arcs_of

    units = roster_view(data)
    me, them = f.places[name], f.places[target]
    actor, rival = units[name], units[target]
    top = movement._weapon_reach(actor)
    kinds = sorted(movement._attack_kinds(actor),
                   key=lambda k: -(movement._reach_of(k, top) or 10**6))
    widest = movement._reach_of(kinds[0], top)
    best: tuple[Any, ...] | None = None
    for space, route in reachable(f.board, me, budget, movement._blocked(f, name)).items():
        at = Placement(me.unit, space, me.facing, me.double, me.faction)
        got = movement._facing_for(f, at, them, 2, arcs_of(kinds[0]))
        if got is None:
            continue
        p, steps = got
        g = movement._moved(f, p)
        try:
            geo = g.derive(actor, rival, kinds[0])
        except RuleViolation:
            continue
        back = g.derive(rival, actor)
        if widest is not None and geo.range > widest:
            continue
        kind = next(k for k in reversed(kinds) if movement._reach_of(k, top) is None
                    or geo.range <= (movement._reach_of(k, top) or 0))
        flank = {sight.BACK: 2, sight.LEFT: 1, sight.RIGHT: 1}.get(geo.rival_arc or "", 0)
        worse = geo.range in movement._disadvantage_at(kind)
        key = (worse, geo.cover, -back.cover, -flank, route.move, steps, space_name(space))
        if best is None or key < best[0]:
            best = (key, route, p, steps, back.cover, geo.rival_arc, kind, geo.range)
    return best


def test_the_attacks_space_is_what_the_whole_key_chooses() -> None:
    base = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    f0 = field(base)
    assert f0 is not None
    name, target = "Goblin Scout", "Archer"
    around = sorted(reachable(f0.board, f0.places[target], 6,
                              movement._blocked(f0, name)))[::2]
    found = 0
    for space in around:
        for facing in (0, 2, 5):
            data = copy.deepcopy(base)
            data["units"][name] = {**data["units"][name], "space": space_name(space),
                                   "facing": COMPASS[facing]}
            f = field(data)
            if f is None or f.places[name].space != space:
                continue
            for budget in (0, 2, 3):
                best = _every_space_keyed(data, f, name, target, budget)
                got = movement._approach(data, name, target, budget, budget, 2)
                if best is None:
                    assert got is None or not got.in_reach
                    continue
                assert got == movement._reached(best, target, budget, 1)
                found += 1
    assert found > 30
