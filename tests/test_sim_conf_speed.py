"""The exchange's rules path, made cheaper for a simulated fight, gives what the command's
path gives (issue 40 item 1: the same rule functions, no report changed;
tests/test_sim.py pins whole fights byte for byte). Each test here fails on a wrong
reuse: a table kept that no longer says what its live unit holds, an answer shared that
a later caller changed, a short cut that disagrees with the full path."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.combat import crits
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units.roster import Unit


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def _fights() -> tuple[dict[str, Any], dict[str, Any]]:
    _, start, _ = op._start("combat1", {})
    return start, g.parse(start.get("scene", {}).get("goals") or {}, start)


# --------------------------------------------------------------------------- the Crit


@pytest.mark.parametrize("seed", range(6))
def test_a_crit_on_live_units_stores_only_the_target_and_the_same_roster_as_the_command(
        seed: int) -> None:
    """A Crit on a fight's live units stores the units it changed — the target — over
    the roster: the wielder, read and never changed (001 l.1001 "Place any Crits on
    Target"), keeps its very table. The roster stored is the one the command's path
    stores (the whole roster written anew from the same session and random source)."""
    t = Table(combat1(), random.Random(seed))
    before = t.data["units"]
    archer = before["Archer"]
    ask = crits.CritAsk(hits=3, target="Goblin Scout", by="Archer", with_="Bow")
    data, rng = copy.deepcopy(t.data), copy.deepcopy(t.rng)
    command = crits.crit(ask, data, lambda: rng, t.opts)
    got = t._crit(ask)
    assert got.card == command.card and got.hits == command.hits
    assert set(got.changes["units"]) == {"Goblin Scout"}  # the target alone
    assert t.data["units"]["Archer"] is archer  # the wielder's very table
    assert t.data["units"] == command.changes["units"]  # the roster the command stores
    assert list(t.data["units"]) == list(command.changes["units"])  # in its order
    assert set(command.changes["units"]) == set(before)  # the command: every unit


def test_fights_keep_every_live_unit_equal_to_its_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole fights, every live Unit read equals its stored table read afresh
    (``Table.verify_live``): a wielder whose table a Crit no longer stores anew is still
    the unit it holds — and the fights end as the pinned ones do."""
    start, goals = _fights()
    plain = sim.play_runs(start, goals, 5, range(25), DEFAULTS, "best")
    built: list[int] = []
    real = Unit.from_state

    def counted(name: str, raw: dict[str, Any]) -> Unit:
        built.append(1)
        return real(name, raw)

    monkeypatch.setattr(Table, "verify_live", True)
    monkeypatch.setattr(Unit, "from_state", staticmethod(counted))
    assert sim.play_runs(start, goals, 5, range(25), DEFAULTS, "best") == plain
    assert built  # the check ran
