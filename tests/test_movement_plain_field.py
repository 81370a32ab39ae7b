"""The movement planner's plain Field (``derive.Field(plain=True)``): the Geometries
it derives for every Space in reach are the full ones without the Cover's texts — the
same values, the same refusals — and no command is ever given one (issue 40 item 1:
the same rule functions, no result changed; tests/test_sim.py and tests/golden/ pin
whole fights byte for byte)."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board import derive
from d2d_cli.rules.core.record import replace
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def test_a_planners_geometry_is_the_full_one_without_the_cover_texts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every derivation the planner makes in whole fights of Combat #1, the same
    Placements on a full Field give the same Geometry once its Cover edges, reveal
    obstacles and Cover text are put in (001 l.712–720 read the same way), or the same
    refusal (001 l.633–635); the plain one holds none of those texts."""
    start, goals = combat1()
    covers: list[str | None] = []

    def checked(full: Any, f: derive.Field, pa: Any, pb: Any, attack: Any,
                typed: Any) -> derive.Geometry:
        if not f.plain:
            got: derive.Geometry = full(f, pa, pb, attack, typed)
            return got
        whole = derive.Field(f.board, f.places, f.cover_reading)
        try:
            want = full(whole, pa, pb, attack, typed)
        except RuleViolation as e:
            with pytest.raises(RuleViolation) as refused:
                full(f, pa, pb, attack, typed)
            assert refused.value.message == e.message
            raise
        got = full(f, pa, pb, attack, typed)
        assert (got.cover_edges, got.obstacles, got.sources["cover"]) == ((), {}, "")
        assert replace(got, cover_edges=want.cover_edges, obstacles=want.obstacles,
                       sources={**got.sources, "cover": want.sources["cover"]}) == want
        covers.append(want.terms.get("cover"))
        return got

    movement._PLANS.clear()  # every plan worked out, none found remembered
    looks = checking(monkeypatch, derive, "_derive", checked)
    play(start, goals, 5)
    assert len(covers) > 5 * FIGHTS  # the planner's derivations, each checked
    # both sides' Cover met (the Rival's, and the Actor's against its answer), and none
    assert {c[:2] for c in covers if c} == {"a:", "b:"} and None in covers
    # the Fields the commands' path finds (derive.field, remembered) are never plain
    assert looks and derive._FIELDS and not any(f.plain for f in derive._FIELDS.values())


def test_a_field_read_from_the_session_gives_the_cover_texts() -> None:
    """``derive.field`` (every command's Field) is never plain: the Cover's edges, the
    reveal's obstacles and the Cover text are in its Geometry (000 l.330–333)."""
    start, _ = combat1()
    f = derive.field(start)
    assert f is not None and not f.plain
    names = sorted(f.places)
    geos = [f.derive_named(a, b) for a in names for b in names if a != b]
    assert all(geo is not None and geo.cover_edges and geo.sources["cover"]
               for geo in geos)
    assert any(geo is not None and geo.obstacles for geo in geos)
