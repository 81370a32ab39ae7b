"""The policy's fourteenth cut (issue 40 item 1): a movement planner's look at the map
keeps no Field. A new plan meets positions the fight has not met (that is why it is new);
the Field it built for them was kept in the map's memory (``derive._FIELDS``, the last 32
positions, the oldest dropped first), pushing out one the fight's Conflicts read — which
then built it and derived its Geometries again. The planner reads of that Field only the
map and the Placements (it derives on plain copies, ``movement._moved``), so
``derive.field(data, keep=False)`` gives it the Field remembered when there is one and
else one built alike and not kept. Checked: the unkept Field is the kept one built the
same way, the memory is left as it was by a new plan, and every plan of whole fights is
the one worked out on the kept Field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board import derive
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def _moved_start(space: str) -> dict[str, Any]:
    start, _ = combat1()
    data = copy.deepcopy(start)
    data["units"]["Goblin Scout"]["space"] = space
    data["units"]["Goblin Scout"]["facing"] = "S"
    return data


@pytest.mark.parametrize("cover", [None, "sweep", "line"])
def test_a_field_not_kept_is_the_field_kept_built_alike(
        monkeypatch: pytest.MonkeyPatch, cover: str | None) -> None:
    """``field(data, keep=False)`` on positions not remembered is a Field of the same
    Board, Placements and ``[rules] cover`` as ``field(data)`` builds, and not kept; on
    positions remembered it is the very Field kept (its derivations shared)."""
    monkeypatch.setattr(derive, "_FIELDS", {})
    data = _moved_start("F5")
    if cover is not None:
        data["rules"] = {"cover": cover}
    loose = derive.field(data, keep=False)
    assert loose is not None and not derive._FIELDS
    kept = derive.field(data)
    assert kept is not None and kept is not loose and len(derive._FIELDS) == 1
    assert (loose.board, loose.places, loose.cover_reading, loose.plain) == (
        kept.board, kept.places, kept.cover_reading, kept.plain)
    assert derive.field(data, keep=False) is kept


def test_a_new_plan_leaves_the_maps_memory_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan worked out on positions no Field is remembered for builds one and keeps
    none: the Fields remembered, and their order (the oldest dropped first), are the
    ones before it."""
    monkeypatch.setattr(movement, "_PLANS", {})
    data = _moved_start("G6")
    before = list(derive._FIELDS.items())
    assert derive.field(data, keep=False) not in [f for _, f in before]  # positions new
    built: list[Any] = []
    looked = derive.Field.__init__

    def counted(self: Any, *args: Any, **kw: Any) -> None:
        built.append(kw.get("plain", args[3] if len(args) > 3 else False))
        looked(self, *args, **kw)

    monkeypatch.setattr(derive.Field, "__init__", counted)
    got = movement.approach(data, "Goblin Scout", "Archer", 3, 5, 1)
    assert got is not None and False in built  # a Field of the map was built for it
    assert list(derive._FIELDS.items()) == before


def test_every_plan_of_whole_fights_is_the_one_on_the_kept_field(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new approach, withdrawal and way off the map of whole fights is the one the
    planner works out on the Field kept (``derive.field`` as every other reader asks it),
    from the same session."""
    start, goals = combat1()

    def kept_field(data: Any, units: Any = None, keep: bool = True) -> Any:
        return derive.field(data, units)

    def on_kept(worker: Any) -> Any:
        def checked(asked: Any, data: Any, *args: Any) -> Any:
            got = asked(data, *args)
            with monkeypatch.context() as m:
                m.setattr(movement, "field", kept_field)
                assert got == worker(data, *args)
            return got
        return checked

    monkeypatch.setattr(movement, "_PLANS", {})
    looks = checking(monkeypatch, movement, "_approach", on_kept(movement._approach))
    checking(monkeypatch, movement, "_get_away", on_kept(movement._get_away))
    checking(monkeypatch, movement, "_withdraw", on_kept(movement._withdraw))
    play(start, goals, 8)
    assert len(looks) > FIGHTS
