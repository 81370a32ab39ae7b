"""``movement.from_behind`` reads the Flanking of two units from their Placements alone
(``derive.rival_arc``), not from the map's Field (issue 40 item 1): it answers as the
Field's Geometry does — at every Conflict of whole fights that asks it, and for every
Space, Facing and size around a Rival — so the defender's card (000 l.326 "Rival can't
Block") is chosen as before; tests/test_sim.py and tests/golden/ pin whole fights."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board import derive, sight
from d2d_cli.rules.board.grid import COMPASS, ahead, parse_space, space_name
from d2d_cli.rules.board.placement import placement_of
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def behind_by_the_field(data: dict[str, Any], actor: str, rival: str) -> bool:
    """The answer as the whole Geometry gives it: the session's Field, derived."""
    f = derive.field(data)
    geo = f.derive_named(actor, rival) if f is not None else None
    return geo is not None and geo.rival_arc == sight.BACK


def test_every_from_behind_of_whole_fights_is_the_fields_flanking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every Conflict of whole fights whose defender holds a hand, ``from_behind``
    says what the Field's Geometry of the two units says (some from Arc:Back, most
    not)."""
    start, goals = combat1()

    def checked(asked: Any, data: Any, actor: str, rival: str) -> Any:
        got = asked(data, actor, rival)
        assert got == behind_by_the_field(data, actor, rival), (actor, rival)
        return got

    # sim imported the function by name: checked where the fight calls it
    from d2d_cli.rules.assistant import sim
    looks = checking(monkeypatch, sim, "from_behind", checked)
    play(start, goals, 31)
    assert len(looks) > 2 * FIGHTS and True in looks and False in looks


def test_rival_arc_is_the_geometrys_for_every_space_facing_and_size() -> None:
    """Around a Rival on Combat #1's map — every Space within 3 of it, each of its 8
    Facings, Single- and Double-sized, the Actor facing anywhere — ``rival_arc`` and
    ``from_behind`` give the Geometry's ``rival_arc`` (Arc:Back among them)."""
    data, _ = combat1()
    units = data["units"]
    centre = parse_space("F5")
    board = derive.field(data)
    assert board is not None
    seen: set[str | None] = set()
    for double in (False, True):
        for facing in COMPASS:
            rival = {**units["Goblin Scout"], "space": "F5", "facing": facing,
                     "double": double}
            spaces = {space_name(s) for s in _around(centre, 3)}
            for at in sorted(spaces - {"F5"}):
                if not board.board.inside(parse_space(at)):
                    continue
                actor = {**units["Archer"], "space": at, "facing": "N"}
                data["units"] = {"Archer": actor, "Goblin Scout": rival}
                f = derive.field(data)
                assert f is not None
                geo = f.derive_named("Archer", "Goblin Scout")
                assert geo is not None
                pa, pb = placement_of("Archer", actor), placement_of("Goblin Scout", rival)
                assert pa is not None and pb is not None
                assert derive.rival_arc(pa, pb) == geo.rival_arc, (at, facing, double)
                assert movement.from_behind(data, "Archer", "Goblin Scout") == (
                    geo.rival_arc == sight.BACK)
                seen.add(geo.rival_arc)
    assert {sight.BACK, sight.FRONT, sight.LEFT, sight.RIGHT} <= seen


def test_off_the_map_or_unplaced_is_never_from_behind() -> None:
    """No map, or either unit not placed: not from behind (as the Field gives no
    Geometry)."""
    data, _ = combat1()
    assert movement.from_behind({**data, "board": None}, "Goblin Scout", "Archer") is False
    archer = {k: v for k, v in data["units"]["Archer"].items() if k != "space"}
    data["units"] = {**data["units"], "Archer": archer}
    assert movement.from_behind(data, "Goblin Scout", "Archer") is False
    assert movement.from_behind(data, "Archer", "Goblin Scout") is False
    assert movement.from_behind(data, "Nobody", "Goblin Scout") is False


def _around(centre: Any, reach: int) -> set[Any]:
    """Every Space within ``reach`` steps of ``centre`` (any direction)."""
    out, edge = {centre}, {centre}
    for _ in range(reach):
        edge = {ahead(s, h) for s in edge for h in range(8)} - out
        out |= edge
    return out
