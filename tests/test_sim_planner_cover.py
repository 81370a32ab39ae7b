"""The movement planner reads the unit's own Cover against its Rival (000 l.330–332) as a
value alone (issue 40 item 1): ``Field.cover_named``, or the Cover the unit's own
geometry measured already (``Geometry.actor_cover``) where the Rival has none and both
units take one Space — never a whole geometry derived from the Rival's side for one
number. Each answer is the one that geometry gives: at every Space weighed in whole
fights, and around a Rival for both sizes (a Double-sized unit's nearest Spaces can pair
otherwise from the Rival's side, where the short way would be wrong);
tests/test_sim.py and tests/golden/ pin whole fights byte for byte."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board import derive
from d2d_cli.rules.board.grid import COMPASS, space_name
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def rivals_geometry_cover(f: derive.Field, unit: str, rival: str) -> int:
    """The unit's Cover against its Rival as before: the whole geometry derived from the
    Rival's side, on a full Field (not the planner's plain one), its ``cover``."""
    whole = derive.Field(f.board, f.places, f.cover_reading)
    geo = whole.derive_named(rival, unit)
    assert geo is not None
    return geo.cover


def test_every_cover_the_planner_weighs_in_whole_fights_is_the_rivals_geometrys(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every Space the planner weighs (the attack's and the closing in's), the Cover
    it reads for the unit is the one the Rival's whole geometry gives — by the short
    way (the unit's own ``actor_cover``) and by ``cover_named``, both met, with Cover
    and without."""
    start, goals = combat1()
    ways: list[str] = []
    short: list[int] = []  # the answers taken the short way (no cover_named asked)

    def checked_own(own: Any, g: derive.Field, geo: derive.Geometry, p: Any,
                    them: Any) -> int:
        asked = len(ways)
        got = own(g, geo, p, them)
        assert got == rivals_geometry_cover(g, p.unit, them.unit), (p, them)
        if len(ways) == asked:
            short.append(got)
        return int(got)

    def checked_named(named: Any, f: derive.Field, actor: str, rival: str) -> int | None:
        got = named(f, actor, rival)
        whole = derive.Field(f.board, f.places, f.cover_reading).derive_named(actor, rival)
        assert whole is not None and got == whole.cover, (actor, rival)
        ways.append("named")
        return got  # type: ignore[no-any-return]

    movement._PLANS.clear()  # every plan worked out, none found remembered
    own = checking(monkeypatch, movement, "_own_cover", checked_own)
    monkeypatch.setattr(derive.Field, "cover_named",
                        lambda f, a, r, _n=derive.Field.cover_named: checked_named(_n, f, a, r))
    play(start, goals, 5)
    assert len(own) > 4 * FIGHTS  # the Spaces weighed, each checked
    assert 0 in own and any(c > 0 for c in own)  # with Cover and without
    assert ways and len(short) > len(own) / 2  # both ways taken: the short one most often
    assert 0 in short and any(c > 0 for c in short)  # the short way with Cover too


def _field(data: dict[str, Any], archer: tuple[str, str], scout: tuple[str, str],
           double: bool, third: str) -> derive.Field | None:
    units = data["units"]
    data["units"] = {
        "Archer": {**units["Archer"], "space": archer[0], "facing": archer[1],
                   "double": double},
        "Goblin Scout": {**units["Goblin Scout"], "space": scout[0], "facing": scout[1],
                         "double": double},
        "Goblin Skirmisher": {**units["Goblin Skirmisher"], "space": third,
                              "facing": "N"}}
    return derive.field(data)


def test_a_double_sized_pair_is_read_from_the_rivals_side() -> None:
    """Two Double-sized units whose nearest Spaces pair otherwise from the Rival's side
    (the Archer on H3 facing N, the Scout on G6 facing SE, a Skirmisher on H5): the
    Rival has no Cover and the unit's own geometry says it has none either, yet from
    the Scout's side the Archer has Cover 25% — the planner reads that one."""
    data, _ = combat1()
    f = _field(data, ("H3", "N"), ("G6", "SE"), True, "H5")
    assert f is not None
    geo = f.derive_named("Archer", "Goblin Scout")
    assert geo is not None and geo.cover == 0 and geo.range > 0
    assert geo.actor_cover == 0  # the short way would say no Cover
    assert rivals_geometry_cover(f, "Archer", "Goblin Scout") == 25
    got = movement._own_cover(f, geo, f.places["Archer"], f.places["Goblin Scout"])
    assert got == 25


def test_the_units_cover_around_a_rival_is_the_rivals_geometrys_for_both_sizes() -> None:
    """Every Space of Combat #1's map around a Rival on G6, each size, four Facings a
    side, a third unit beside the Rival that obstructs: the planner's reading of the unit's Cover
    is the Rival's geometry's, and Cover is met both ways (the Rival's and the
    unit's)."""
    data, _ = combat1()
    seen: set[tuple[bool, int, int]] = set()
    for double in (False, True):
        for facing in COMPASS[::2]:
            for rival_facing in COMPASS[1::2]:
                for x in range(12):
                    for y in range(10):
                        at = space_name((x, y))
                        if at in ("G6", "H5"):
                            continue
                        f = _field(data, (at, facing), ("G6", rival_facing), double, "H5")
                        if f is None or "Archer" not in f.places:
                            continue  # not standing there (the map refuses it)
                        geo = f.derive_named("Archer", "Goblin Scout")
                        assert geo is not None
                        got = movement._own_cover(f, geo, f.places["Archer"],
                                                  f.places["Goblin Scout"])
                        assert got == rivals_geometry_cover(f, "Archer", "Goblin Scout"), (
                            at, facing, rival_facing, double)
                        seen.add((double, geo.cover > 0, got > 0))
    # each size with Cover on one side only, and on neither
    assert {(False, False, False), (False, True, False), (True, True, False),
            (True, False, True)} <= seen
