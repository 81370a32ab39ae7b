"""The engine's eighth cut (issue 40 item 1): a unit's table written out
(``Unit.to_state``, ~70 a fight) starts from its head — the kind, then the stats' texts
in STATS order — remembered for the very stats table while it holds the same Stats and
for the same kind, and copied whole, instead of a dict display unpacking the stats'
texts. Checked here: every store of whole fights against the head written afresh, and
a head planted with another kind or with stats changed in place."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.units.roster import Unit


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


# --------------------------------------------------------------------------- the head


def _written_afresh(u: Unit, out: dict[str, Any]) -> list[tuple[str, Any]]:
    """A unit's table ``out`` as ``to_state`` wrote it, its head written out afresh
    (the kind, then each stat's text in STATS order), nothing remembered: the oracle."""
    from d2d_cli.rules.units import roster

    head: dict[str, Any] = {"kind": u.kind}
    for s in roster.STATS:
        if s in u.stats:
            head[s] = str(u.stats[s])
    rest = {k: v for k, v in out.items() if k != "kind" and k not in roster.STATS}
    return list({**head, **rest}.items())


def test_every_store_of_whole_fights_writes_the_head_written_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``Unit.to_state`` of whole fights (both policies) equals the table written
    with its head worked out afresh — same keys, same order, same values — and most
    find their head remembered."""
    from d2d_cli.rules.units import roster

    start, goals = _combat1()
    to_state = Unit.to_state
    made = roster._head
    stores, heads = 0, 0

    def stored(self: Unit) -> dict[str, Any]:
        nonlocal stores
        out = to_state(self)
        assert list(out.items()) == _written_afresh(self, out)
        stores += 1
        return out

    def head(kind: str, stats: dict[str, Any]) -> tuple[Any, ...]:
        nonlocal heads
        heads += 1
        return made(kind, stats)

    roster._HEADS.clear()
    monkeypatch.setattr(Unit, "to_state", stored)
    monkeypatch.setattr(roster, "_head", head)
    for pc in ("best", "fate"):
        for i in range(6):
            sim.fight(start, goals, sim.run_seed(5, i), DEFAULTS, pc=pc)
    assert stores > 300 and heads < stores / 3


def test_a_head_follows_its_kind_and_its_stats_changed_in_place() -> None:
    """The head is keyed by all it is written from: the same stats table with another
    kind, a Stat changed in place, a stat added or taken off — each written anew."""
    from d2d_cli.rules.units import roster

    u = Unit.from_state("Ogre", {"kind": "unit", "body": "8x1", "mind": "5x1",
                                 "faction": "Goblins"})
    assert u.to_state()["kind"] == "unit"
    u.kind = "character"
    assert list(u.to_state().items())[:3] == [("kind", "character"), ("body", "8x1"),
                                             ("mind", "5x1")]
    u.stats["body"] = roster._stat("9x2")
    assert u.to_state()["body"] == "9x2"
    u.stats["speed"] = roster._stat("4x0")
    assert list(u.to_state())[:4] == ["kind", "body", "mind", "speed"]
    del u.stats["mind"]
    assert "mind" not in u.to_state()
    for _ in range(3):
        out = u.to_state()
        assert list(out.items()) == _written_afresh(u, out)
    u.to_state()["body"] = "changed"  # a stored table is the caller's own
    assert u.to_state()["body"] == "9x2"
