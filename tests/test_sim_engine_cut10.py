"""The engine's tenth cut (issue 40 item 1): a goal's condition reads only what its kind
needs and takes a count stored as a whole number as it is (``goals.holds``); an
Action's round number and phase are read again for a new round table only when what
``Round.from_state`` reads of it differs (``Table._now``); a unit's round record and
effects are read with no ``int`` of a whole number nor ``str`` of a text, the effects by
a plain loop (``unit_state.spent``, ``effects.held``, ``effects.count``). Each is checked
here against the rule written out plainly — over whole fights and over planted values."""

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


# --------------------------------------------------------------------------- the counts


def _spent_plainly(unit: Any, number: int, phase: str) -> Any:
    """``unit_state.spent`` as written before the cut: every count through ``int``."""
    from d2d_cli.rules.units.unit_state import SPENT, Spent

    raw = unit.extra.get(SPENT) or {}
    if phase != "started" or int(raw.get("round", -1)) != number:
        return Spent(number)
    boosts = raw.get("boosts", [])
    return Spent(number, int(raw.get("actions", 0)), [str(b) for b in boosts],
                 int(raw["count"]) if raw.get("count") is not None else None)


def _held_plainly(unit: Any) -> dict[str, int]:
    raw = unit.extra.get("effects")
    return {str(k): int(v) for k, v in (raw or {}).items() if int(v) > 0}


_VALUES = [0, 1, 3, -2, "2", "0", True, False, 2.0, 1.5]


def test_a_record_read_with_counts_of_any_number_is_the_rule_written_plainly() -> None:
    """``spent`` of a record whose round, actions and Count are stored as whole numbers,
    texts, bools or floats (or left out), for a round started and not: the same record,
    field by field and of the same types, as every count read through ``int``."""
    from d2d_cli.rules.units.roster import Unit
    from d2d_cli.rules.units.unit_state import SPENT, spent

    tried = 0
    for field_, value in itertools.product(("round", "actions", "count"), [*_VALUES, None]):
        rec: dict[str, Any] = {"round": 2, "actions": 1, "boosts": ["Push"], "count": 4}
        if value is None:
            del rec[field_]
        else:
            rec[field_] = value
        for number, phase in ((2, "started"), (1, "started"), (2, "ended"), (-1, "started")):
            u = Unit("A", {}, extra={SPENT: rec})
            got, want = spent(u, number, phase), _spent_plainly(u, number, phase)
            assert got == want, (field_, value, number, phase)
            assert [type(x) for x in (got.round, got.actions, got.count)] == \
                [type(x) for x in (want.round, want.actions, want.count)]
            tried += 1
    assert tried == 3 * 11 * 4


def test_the_effects_held_and_counted_of_any_number_are_the_rule_written_plainly() -> None:
    """``held`` and ``count`` of round effects stored as whole numbers, texts, bools or
    floats, under text and other keys: as every count read through ``int`` and every
    key through ``str`` — the same table, in the same order, of the same types."""
    from d2d_cli.rules.units import effects
    from d2d_cli.rules.units.roster import Unit

    for a, b in itertools.product(_VALUES, repeat=2):
        raw: dict[Any, Any] = {"interact": a, "evade_move": b, 7: b}
        u = Unit("A", {}, extra={"effects": raw})
        got, want = effects.held(u), _held_plainly(u)
        assert list(got.items()) == list(want.items()), (a, b)
        assert [type(v) for v in got.values()] == [int] * len(got)
        assert [type(k) for k in got] == [str] * len(got)
        for key in ("interact", "evade_move", "nothing"):
            assert effects.count(u, key) == max(0, int(raw.get(key, 0)))
            assert type(effects.count(u, key)) is int
    assert effects.held(Unit("A", {})) == {}


def test_every_record_and_effects_read_in_whole_fights_is_the_rule_written_plainly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``spent``, ``held`` and ``count`` of whole fights (both policies) against the
    rule written plainly on the same unit."""
    from d2d_cli.rules.units import effects, unit_state

    start, goals = _combat1()
    real_spent, real_held, real_count = unit_state.spent, effects.held, effects.count
    n = {"spent": 0, "held": 0, "count": 0}

    def spent(unit: Any, number: int, phase: str) -> Any:
        out = real_spent(unit, number, phase)
        assert out == _spent_plainly(unit, number, phase)
        n["spent"] += 1
        return out

    def held(unit: Any) -> dict[str, int]:
        out = real_held(unit)
        assert list(out.items()) == list(_held_plainly(unit).items())
        n["held"] += bool(out)
        return out

    def count(unit: Any, key: str) -> int:
        out = real_count(unit, key)
        assert out == _held_plainly(unit).get(key, 0)
        n["count"] += 1
        return out

    from d2d_cli.rules.time import turns

    monkeypatch.setattr(unit_state, "spent", spent)
    monkeypatch.setattr(turns, "spent", spent)
    monkeypatch.setattr(effects, "held", held)
    monkeypatch.setattr(effects, "count", count)
    for pc in ("best", "fate"):
        for i in range(5):
            sim.fight(start, goals, sim.run_seed(7, i), DEFAULTS, pc=pc)
    assert n["spent"] > 300 and n["held"] > 100 and n["count"] > 20, n
