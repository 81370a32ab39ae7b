"""The engine's tenth cut (issue 40 item 1): a goal's condition reads only what its kind
needs and takes a count stored as a whole number as it is (``goals.holds``); an
Action's round number and phase are read again for a new round table only when what
``Round.from_state`` reads of it differs (``Table._now``). Each is checked here against
the rule written out plainly — over whole fights and over planted values."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.time.round_state import Round


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


# --------------------------------------------------------------------------- the goals


def _holds_plainly(c: g.Condition, faction: str, data: Any) -> bool:
    """The rule as written before the cut (the oracle): every count through ``int``."""
    units = data.get("units", {})
    if c.kind == "rivals_down":
        return all(g.is_down(u) for u in units.values() if u.get("faction") != faction)
    if c.kind == "down":
        return all(n in units and g.is_down(units[n]) for n in c.names)
    if c.kind == "off_map":
        return all(n in units and bool(units[n].get("off_map")) for n in c.names)
    if c.kind == "clock":
        return int(data.get("clock", {}).get("value", 0)) >= c.number
    task = data.get("tasks", {}).get(c.names[0], {})
    challenge, progress = int(task.get("challenge", 1)), int(task.get("progress", 1))
    won = challenge <= 0
    if c.kind == "task_won":
        return won
    if c.kind == "task_lost":
        return progress <= 0 and not won
    return not won


_KINDS = [g.Condition("rivals_down"), g.Condition("down", ("Archer",)),
          g.Condition("down", ("Archer", "Thief")), g.Condition("off_map", ("Archer", "Thief")),
          g.Condition("off_map", ("Nobody",)), g.Condition("clock", (), 3),
          g.Condition("task_won", ("Knot",)), g.Condition("task_lost", ("Knot",)),
          g.Condition("task_not_won", ("Knot",)), g.Condition("task_won", ("None such",))]


def test_every_goal_check_of_whole_fights_is_the_rule_written_plainly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every goal check of whole fights (both policies) each condition of every kind,
    for each faction, holds exactly where the rule written plainly says; and so does
    each goal's ``reached``."""
    start, goals = _combat1()
    real = sim._check
    seen = {"checks": 0, "true": 0}

    def both(t: Table, goals_: Any) -> Any:
        for faction in ("Adventurers", "Goblins"):
            for c in _KINDS:
                got = g.holds(c, faction, t.data)
                assert got is _holds_plainly(c, faction, t.data), (c, faction)
                seen["true"] += got
        for goal in goals_.values():
            assert g.reached(goal, t.data) is any(
                all(_holds_plainly(c, goal.faction, t.data) for c in alt) for alt in goal.any)
        seen["checks"] += 1
        return real(t, goals_)

    monkeypatch.setattr(sim, "_check", both)
    for pc in ("best", "fate"):
        for i in range(6):
            sim.fight(start, goals, sim.run_seed(5, i), DEFAULTS, pc=pc)
    assert seen["checks"] > 100 and seen["true"] > 100


@pytest.mark.parametrize("value", [0, 1, 4, -1, "0", "4", True, False, 0.0, 2.5])
def test_a_count_stored_as_any_number_holds_as_the_rule_reads_it(value: Any) -> None:
    """A task's Challenge and Progress and the Clock's value stored as a text, a bool or a
    float are read through ``int`` as the rule says; a whole number as it is."""
    for field in ("challenge", "progress"):
        data = {"tasks": {"Knot": {"challenge": 2, "progress": 2, field: value}},
                "clock": {"value": value}, "units": {}}
        for c in _KINDS[5:]:
            assert g.holds(c, "Goblins", data) is _holds_plainly(c, "Goblins", data), (c, field)
    empty: dict[str, Any] = {}
    for c, faction in itertools.product(_KINDS, ("Adventurers", "Goblins")):
        assert g.holds(c, faction, empty) is _holds_plainly(c, faction, empty), c


# --------------------------------------------------------------------------- the round


def test_every_action_of_whole_fights_reads_the_round_as_it_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round number and phase an Action's rules call is given in whole fights
    (both policies) is what ``Round.from_state`` reads of the session's round table
    then."""
    start, goals = _combat1()
    real = Table._now
    calls = {"n": 0}

    def checked(self: Table) -> tuple[int, str]:
        out = real(self)
        rnd = Round.from_state(self.data.get("round"))
        assert out == (rnd.number, rnd.phase)
        calls["n"] += 1
        return out

    monkeypatch.setattr(Table, "_now", checked)
    for pc in ("best", "fate"):
        for i in range(6):
            sim.fight(start, goals, sim.run_seed(6, i), DEFAULTS, pc=pc)
    assert calls["n"] > 300


@pytest.mark.parametrize("planted", [
    {"number": 2, "phase": "started"}, {"number": 1, "phase": "ended"},
    {"number": "1", "phase": "started"}, {"number": 1.0, "phase": "started"},
    {"phase": "started"}, {"number": 1}, {}, None])
def test_a_new_round_table_holding_other_values_is_read_again(planted: Any) -> None:
    """A round table stored anew with another number or phase — or the same number
    written as another object, or either left out — is read again, not taken for the
    last one: what ``Round.from_state`` reads of it."""
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random(3), DEFAULTS)
    t.round_start()
    before = t._now()
    assert before == (1, "started")
    t.data["round"] = dict(t.data["round"])  # a copy: the same values, kept
    assert t._now() == before
    t.data["round"] = copy.copy(planted)
    rnd = Round.from_state(t.data["round"])
    assert t._now() == (rnd.number, rnd.phase)
