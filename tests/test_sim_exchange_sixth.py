"""The exchange's sixth cut gives what a fresh reading gives (issue 40 item 1): a
Conflict's sides kept for the very Unit they name — no result changed
(tests/test_sim.py pins whole fights byte for byte)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.combat import conflict
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units.roster import Unit, roster_view


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def _fights(pc: str, runs: range) -> None:
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 5, runs, DEFAULTS, pc)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_side_of_whole_fights_names_the_unit_the_roster_holds_now(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights, each side ``parse_side`` gives equals one made afresh
    from its text and names the very Unit the roster holds for it at that moment; some
    are the side made before (the same text, the same live Unit), some made anew."""
    real = conflict.parse_side
    seen = {"kept": 0, "made": 0}
    before: dict[str, Any] = {}

    def checking(text: str, units: Any = None) -> conflict.SideSpec:
        got = real(text, units)
        named = conflict._named_play(text)
        if named is not None and conflict._play(text) is None:
            name, played = named
            assert got.unit is units[name]
            assert got == conflict.SideSpec(text, played.source, played.approach,
                                            played.card, units[name])
            seen["kept" if before.get(text) is got else "made"] += 1
            before[text] = got
        return got

    monkeypatch.setattr(conflict, "parse_side", checking)
    _fights(pc, range(6))
    assert seen["kept"] > 0 and seen["made"] > 0


def test_a_side_typed_again_for_another_unit_object_names_that_one() -> None:
    """The same ``NAME:PLAY`` read against a roster whose Unit of that name is another
    object — equal or changed — names that object, never the one read before."""
    conflict._UNIT_SIDES.clear()
    data = combat1()
    units = roster_view(data)
    first = conflict.parse_side("Archer:fast", units)
    assert conflict.parse_side("Archer:fast", units) is first  # the very Unit: kept
    other = {n: Unit.from_state(n, data["units"][n]) for n in data["units"]}
    again = conflict.parse_side("Archer:fast", other)
    assert again.unit is other["Archer"] and again is not first
    other["Archer"].extra["player"] = "Someone else"  # changed in place: still that Unit
    assert conflict.parse_side("Archer:fast", other).unit is other["Archer"]
    assert conflict.parse_side("archer:fast", units).unit is units["Archer"]  # folded
    with pytest.raises(Exception, match="Nobody"):
        conflict.parse_side("Nobody:fast", units)


def test_two_plays_read_no_unit_with_a_roster_given_or_not() -> None:
    """A Conflict of two plays names no unit: given the roster already built (a fight's)
    it reads the same as the command, which builds none."""
    data = combat1()
    for sides in (["fast", "7S^"], ["fate", "block"]):
        with_roster = conflict.ask(sides, data, roster=roster_view(data))
        without = conflict.ask(sides, data)
        assert with_roster.matchup == without.matchup
        assert with_roster.matchup.a.unit is None and with_roster.matchup.b.unit is None
        assert with_roster.situation == without.situation
