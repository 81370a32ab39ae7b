"""The engine's side of a simulated fight made cheaper (issue 40 item 1): each short cut
gives exactly what the plain way gives — a unit written out as its table, the fight
loop's reads — and whole fights are pinned byte for byte by tests/test_sim.py."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units import roster


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def _plain_state(u: roster.Unit) -> dict[str, object]:
    """Unit.to_state as it was written before the short cuts (the oracle)."""
    out: dict[str, object] = {"kind": u.kind}
    out.update({s: str(u.stats[s]) for s in roster.STATS if s in u.stats})
    if u.faction:
        out["faction"] = u.faction
    out["skills"] = dict(u.skills)
    out["conditions"] = {k: v for k, v in u.conditions.items() if v > 0}
    for k in ("target", "move", "action_cost", "turn"):
        if getattr(u, k) is not None:
            out[k] = getattr(u, k)
    out.update(u.extra)
    return out


def test_a_unit_written_out_is_what_the_plain_way_writes_for_every_count_of_conditions(
        ) -> None:
    """Conditions are copied whole unless a count is 0 or below (only those are left
    out): every mix of positive, zero and negative counts over three conditions, with
    and without the other fields, in the same order as the plain way; the table never
    shares a dict with the Unit (a later change to the Unit leaves it as written)."""
    base = {"body": "8x1", "mind": "5x1", "speed": "5x0", "faction": "Adventurers",
            "skills": {"Ranged": 1}, "move": 3, "action_cost": 2, "turn": 2,
            "player": "Player1", "space": "C7", "effects": {"interact": 1}}
    seen = 0
    for counts in itertools.product((-1, 0, 1, 2), repeat=3):
        for extra in ({}, base):
            u = roster.Unit.from_state("Archer", {"body": "8x1", **extra})
            u.conditions = {k: n for k, n in zip(("stun", "fatigue", "dying"), counts,
                                                  strict=True) if n or counts[0] == 0}
            got = u.to_state()
            want = _plain_state(u)
            assert got == want and list(got) == list(want), (counts, extra)
            assert got["conditions"] is not u.conditions and got["skills"] is not u.skills
            u.conditions["stun"] = 9
            u.skills["Ranged"] = 9
            assert got == want  # written out: not changed with the Unit
            seen += 1
    assert seen == 128


def _fights(pc: str, n: int = 12) -> list[tuple[sim.Outcome, Table]]:
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    blob = pickle.dumps(start, -1)
    return [sim._fight(blob, goals, sim.run_seed(11, i), DEFAULTS, True, pc) for i in range(n)]


def _written_out(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the units Unit.to_state writes out from now on."""
    names: list[str] = []
    real = roster.Unit.to_state

    def counted(self: roster.Unit) -> dict[str, Any]:
        names.append(self.name)
        return real(self)

    monkeypatch.setattr(roster.Unit, "to_state", counted)
    return names


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_round_start_writes_each_unit_as_a_whole_store_would(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``round start`` in a fight writes a unit whose table it wrote itself by its three
    tokens alone (Table._store_tokens): at every round start of 12 whole Combat #1 fights
    (logs kept), every unit's table equals, key for key and in order, what
    ``Unit.to_state`` writes of its live Unit; most were written by the tokens; and the
    fights end in the same sessions, with the same lines, as when every unit is written
    out in full (Table._store_all)."""
    real_tokens, real_to_state = Table._store_tokens, roster.Unit.to_state
    written = _written_out(monkeypatch)
    counts = {"units": 0, "by_tokens": 0}

    def checked(self: Table, units: dict[str, roster.Unit]) -> None:
        before = len(written)
        real_tokens(self, units)
        counts["units"] += len(units)
        counts["by_tokens"] += len(units) - (len(written) - before)
        for n, u in units.items():
            full = real_to_state(u)
            assert self.data["units"][n] == full and list(self.data["units"][n]) == list(full)

    monkeypatch.setattr(Table, "_store_tokens", checked)
    ours = _fights(pc)
    assert counts["units"] / 2 < counts["by_tokens"] < counts["units"], counts
    monkeypatch.setattr(Table, "_store_tokens", Table._store_all)
    theirs = _fights(pc)
    for (out_a, t_a), (out_b, t_b) in zip(ours, theirs, strict=True):
        assert out_a == out_b and t_a.lines == t_b.lines and t_a.data == t_b.data


def test_tokens_alone_are_written_only_for_a_table_written_from_the_very_unit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A table the Table did not write from its live Unit — the scene's own, one a Crit
    stored, one whose Unit a refused rules call may have half-changed (forgotten) — is
    written out in full at the next round start; a unit the Table stored is written by
    its tokens. Every table then is ``to_state`` of its live Unit."""
    t = Table(combat1(), random.Random(1))
    written = _written_out(monkeypatch)
    t.round_start()  # the scene's own tables: every unit written out
    assert sorted(written) == sorted(t.data["units"])
    t.round_end()
    archer = t.unit("Archer")
    archer.conditions["fatigue"] = 1
    t._store({"Archer": archer})
    t.data["units"]["Thief"] = dict(t.data["units"]["Thief"])  # as a Crit stores one
    t._live["Thief"] = (t.data["units"]["Thief"], t.unit("Thief"))
    t.unit("Goblin Scout").conditions["stun"] = 1  # half-changed by a refused call:
    t._forget(["Goblin Scout"])  # forgotten, built again from its table
    written.clear()
    t.round_start()
    assert sorted(written) == ["Goblin Scout", "Thief"]
    for n in t.data["units"]:
        assert t.data["units"][n] == t.unit(n).to_state()
    assert t.data["units"]["Archer"]["conditions"] == {"fatigue": 1}
    assert "stun" not in t.data["units"]["Goblin Scout"]["conditions"]


def test_a_round_start_that_changed_more_than_the_tokens_would_be_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """If ``rounds.start`` ever changed more of a unit than its tokens, the tokens alone
    would write a wrong table: with the live units checked (as tests/test_sim.py's
    whole fights run), the first such round start fails."""
    from d2d_cli.rules.time import rounds

    real = rounds.start

    def more(rnd: Any, units: Any, *a: Any, **kw: Any) -> Any:
        out = real(rnd, units, *a, **kw)
        for u in units.values():
            u.add_condition("fatigue")
        return out

    t = Table(combat1(), random.Random(1))
    t.verify_live = True
    t.round_start()
    t.round_end()
    monkeypatch.setattr(rounds, "start", more)
    with pytest.raises(AssertionError, match="tokens of"):
        t.round_start()


def _full_aimed(self: Table, name: str, unit: roster.Unit) -> None:
    """The Target of an Interact stored as every other unit is (the oracle)."""
    self._store({name: unit})


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_the_target_of_an_interact_is_written_as_a_whole_store_would(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Target of every Interact of 12 whole Combat #1 fights (logs kept): its table
    equals, key for key and in order, what ``Unit.to_state`` writes of its live Unit;
    most were written by the Interact alone (Table._store_aimed); and the fights end in
    the same sessions, with the same lines, as when the Target is written out in full."""
    real_aimed, real_to_state = Table._store_aimed, roster.Unit.to_state
    written = _written_out(monkeypatch)
    counts = {"targets": 0, "by_interact": 0}

    def checked(self: Table, name: str, unit: roster.Unit) -> None:
        before = len(written)
        real_aimed(self, name, unit)
        counts["targets"] += 1
        counts["by_interact"] += 1 - (len(written) - before)
        full = real_to_state(unit)
        assert self.data["units"][name] == full and list(self.data["units"][name]) == list(full)

    monkeypatch.setattr(Table, "_store_aimed", checked)
    ours = _fights(pc)
    assert counts["targets"] / 2 < counts["by_interact"] < counts["targets"], counts
    monkeypatch.setattr(Table, "_store_aimed", _full_aimed)
    theirs = _fights(pc)
    for (out_a, t_a), (out_b, t_b) in zip(ours, theirs, strict=True):
        assert out_a == out_b and t_a.lines == t_b.lines and t_a.data == t_b.data


def test_the_target_is_written_by_the_interact_only_from_a_table_written_from_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The scene's own table of the Target, or one whose pending Interrupt the Interact
    takes up (``interrupted`` changes too), is written out in full; a table the Table
    wrote from the very Unit is written by the Interact alone. Each equals ``to_state``."""
    t = Table(combat1(), random.Random(1))
    t.round_start()
    written = _written_out(monkeypatch)
    scout = t.unit("Goblin Scout")
    scout.extra["interrupted"] = {"round": 1, "by": ["Archer"], "pending": "Archer"}
    t._store({"Goblin Scout": scout})
    written.clear()
    t.act("Archer", "interact", "Goblin Scout")  # the Interrupt taken up: written out
    assert written == ["Archer", "Goblin Scout"]
    assert "pending" not in t.data["units"]["Goblin Scout"]["interrupted"]
    t.data["units"]["Thief"] = dict(t.data["units"]["Thief"])  # not the Table's own
    t._live["Thief"] = (t.data["units"]["Thief"], t.unit("Thief"))
    written.clear()
    t.act("Goblin Scout", "interact", "Thief")
    assert written == ["Goblin Scout", "Thief"]
    written.clear()
    t.act("Goblin Skirmisher", "interact", "Thief")  # the Table's own now: by the Interact
    assert written == ["Goblin Skirmisher"]
    for n in t.data["units"]:
        assert t.data["units"][n] == t.unit(n).to_state()
    assert t.data["units"]["Thief"]["interacted"]["by"] == "Goblin Skirmisher"


def test_an_interact_that_changed_more_of_its_target_would_be_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """If ``unit act … interact`` ever changed more of its Target than the Interact
    aimed at it, the Interact alone would write a wrong table: with the live units
    checked (as tests/test_sim.py's whole fights run), the first such store fails."""
    from d2d_cli.rules.time import turns

    real = turns.act

    def more(units: Any, *a: Any, **kw: Any) -> Any:
        out = real(units, *a, **kw)
        units["Goblin Scout"].add_condition("fatigue")
        return out

    t = Table(combat1(), random.Random(1))
    t.verify_live = True
    t.round_start()
    t.act("Archer", "interact", "Goblin Scout")  # the Table's own table from now on
    monkeypatch.setattr(turns, "act", more)
    with pytest.raises(AssertionError, match="the Interact on"):
        t.act("Goblin Skirmisher", "interact", "Goblin Scout")
