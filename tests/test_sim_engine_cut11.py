"""The engine's eleventh cut (issue 40 item 1): ``Table.act``, ``move`` and ``respond``
call their rules function in line and store what it changed, with no generic wrapper
packing the arguments and keywords anew at every Action and move. A refused command
still leaves the session as it was and forgets the live Units the rules function may
have half-changed; a command carried out stores every changed unit as its live Unit
writes it. Checked here by refusals planted after a rules function has changed a unit,
and over whole fights with every live Unit checked against its stored table."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.time import turns
from d2d_cli.rules.units.roster import Unit


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def _started() -> Table:
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random("cut11"), DEFAULTS)
    t.round_start()
    return t


def _mover(t: Table) -> str:
    """A unit with Move to spend and a Facing (it can turn)."""
    for n, u in t.units().items():
        if u.get("move") and u.get("facing") and u.get("space"):
            return n
    raise AssertionError("no unit to move")


def _refused_after_a_change(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``turns.stepped`` planted to change the unit (its Move) and then refuse: the
    rules function has half-changed the live Unit when it raises."""
    seen: list[str] = []

    def refuse(unit: Unit, *args: Any, **kw: Any) -> Any:
        seen.append(unit.name)
        unit.move = 99
        raise RuleViolation("planted refusal")

    monkeypatch.setattr(turns, "stepped", refuse)
    return seen


def _commands(t: Table, name: str, other: str) -> dict[str, Callable[[], Any]]:
    return {"move": lambda: t.move(name, "turn", "right"),
            "act": lambda: t.act(name, "interact", other),
            "respond": lambda: t.respond(other, True)}


@pytest.mark.parametrize("command", ["move", "act", "respond"])
def test_a_refused_command_leaves_the_session_and_forgets_the_changed_unit(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's tables are the very ones before; the unit the rules function
    changed before refusing is read afresh from its table, not kept half-changed."""
    t = _started()
    name = _mover(t)
    other = next(n for n in t.units() if n != name)
    if command == "respond":  # an Interact aimed at ``other`` first, carried out
        t.act(name, "interact", other)
    for n in t.units():
        t.unit(n)  # every unit live before the refusal
    before = dict(t.units())
    kept = copy.deepcopy(before)
    seen = _refused_after_a_change(monkeypatch)
    with pytest.raises(RuleViolation, match="planted"):
        _commands(t, name, other)[command]()
    assert seen, "the planted refusal was reached"
    after = t.units()
    assert list(after) == list(before)
    for n, raw in after.items():
        assert raw is before[n] and raw == kept[n]
    for n in seen:
        assert t.unit(n) == Unit.from_state(n, after[n])
        assert t.unit(n).move != 99


@pytest.mark.parametrize("command", ["move", "act", "respond"])
def test_a_command_carried_out_stores_its_live_units(command: str) -> None:
    """Each unit the command changed is stored as its live Unit writes it, and read back
    as that very Unit."""
    t = _started()
    name = _mover(t)
    other = next(n for n in t.units() if n != name)
    if command == "respond":
        t.act(name, "interact", other)
    before = dict(t.units())
    _commands(t, name, other)[command]()
    changed = [n for n, raw in t.units().items() if raw is not before[n]]
    assert changed
    for n in changed:
        live = t.unit(n)
        assert live == Unit.from_state(n, t.units()[n])
        assert live.to_state() == t.units()[n]


@pytest.mark.parametrize("seed", range(6))
def test_whole_fights_keep_every_live_unit_its_tables(seed: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole fights every live Unit read equals one built afresh from the session's
    table of its name (``Table.verify_live``)."""
    start, goals = _combat1()
    monkeypatch.setattr(Table, "verify_live", True)
    outcome, t = sim.fight(start, goals, str(seed), DEFAULTS, pc="best")
    assert outcome.rounds >= 1
    for n, raw in t.units().items():
        assert t.unit(n) == Unit.from_state(n, raw)


def test_a_crit_on_a_name_typed_otherwise_reads_the_whole_roster() -> None:
    """A Crit whose Target is named in another case (not a key of the session) is played
    on the whole roster, as on the exact name: the same Crit and the same tables."""
    got = []
    for target in ("Goblin Scout", "goblin scout"):
        t = _started()
        out = t.crit("Archer", target, 2)
        got.append((out.card, out.hits, out.changes.get("units", {}).get("Goblin Scout"),
                    t.units()))
    assert got[0] == got[1]


def test_the_countdown_remembers_by_name_only_the_very_table_of_its_own_fight() -> None:
    """``sim._next`` keeps each unit's Count with the fight's Table, by name and the very
    table: a unit stored anew is read afresh, and another fight's Table, whose tables
    hold the same names, is never answered from this one's memory."""
    t = _started()
    first = sim._next(t, set(), None)
    assert first is not None and t.counts[first][0] is t.units()[first]
    other = _started()
    other.data["units"][first] = {**other.units()[first], "move": 0}  # no Move left
    assert sim._next(other, set(), None) not in (first, None)
    assert sim._next(t, set(), None) == first
    t.data["units"][first] = {**t.units()[first], "move": 0}
    assert sim._next(t, set(), None) == sim._next(other, set(), None)


def test_a_fight_starts_with_no_reading_of_a_table_of_the_fight_before() -> None:
    """``sim._fight`` forgets the readings remembered for the last fight's tables
    (``engine.forget_tables``): after a fight, every table whose reading is kept is one
    of that fight's, and each kept reading is the one worked out afresh."""
    from d2d_cli.rules.assistant import engine

    engine.forget_tables()  # the numberings started afresh: none emptied in between
    engine._BASES.forget()
    engine._READINGS.forget()
    start, goals = _combat1()
    _, before = sim.fight(start, goals, "one", DEFAULTS, pc="best")
    held_before = [got[0] for got in engine._READ.values()]
    assert held_before  # the first fight's readings were kept while it ran
    _, after = sim.fight(start, goals, "two", DEFAULTS, pc="best")
    kept = list(engine._READ.values())
    assert kept
    for old in held_before:
        assert all(got[0] is not old for got in kept)
    for raw, number, base in kept:
        assert base == engine._BASES(engine._base_key(raw))
        if number is not None:
            assert number == engine._READINGS(engine._reading_key(raw))
