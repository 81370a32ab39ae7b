"""The engine's thirteenth cut (issue 40 item 1): a plan's way is made by one ``Table``
call that stores the unit's table once — ``Table.walk`` after its last move, and
``Table.act`` with ``moves`` after the Interact they lead to — not once a ``unit move``.
What the session holds after must not change: checked here against the same commands
played one by one (``Table.move`` for each move, then ``Table.act``) on a copy of the
session taken before, at every walk and every Action with moves of whole fights, and on
planted walks (one refused partway, a log kept). And ``unit_state.Spent``, which every
Action and move makes, is a plain class held here to the record it was; and the bases of
a fight's first round start's tables, remembered by what that round start reads, are
checked against the bases worked out afresh. A move without its report writes its label's
Spaces only for a refusal; ``reach_of`` takes a whole number as it is; and the round's
``Round`` is a plain class held to the record it was."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.board.grid import board_of
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.time import turns
from d2d_cli.rules.time.round_state import Round
from d2d_cli.rules.units import unit_state
from d2d_cli.rules.units.unit_state import Spent

_WALK, _ACT = Table.walk, Table.act  # the short cuts themselves


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a session (a pickle's round trip: its Fate deck is too deep for
    ``deepcopy``)."""
    got: dict[str, Any] = pickle.loads(pickle.dumps(data, -1))
    return got


def _same_session(got: dict[str, Any], want: dict[str, Any]) -> None:
    """The two sessions hold the same sections, units and tables, each in the same
    order (a unit's reading and the reports read a table's order)."""
    assert got == want
    assert list(got) == list(want)
    assert list(got["units"]) == list(want["units"])
    for n, u in want["units"].items():
        assert list(got["units"][n]) == list(u), n


def _one_by_one(t: Table, before: dict[str, Any], name: str,
                moves: tuple[tuple[str, ...], ...],
                action: tuple[str, str | None] | None) -> dict[str, Any]:
    """The full path: the session ``before``, copied, on a Table of its own, each move
    its own ``unit move`` (each stored), then the Action if any."""
    ref = Table(_copy(before), random.Random(0), t.opts, hands=False)
    for words in moves:
        ref.move(name, *words)
    if action is not None:
        _ACT(ref, name, action[0], action[1])  # the command alone, not a watched one
    return ref.data


def test_every_way_of_whole_fights_stores_what_its_moves_one_by_one_store(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every walk and every Action with moves of whole fights (both ``--pc``), played
    again one command at a time on a copy of the session before it: the same session
    after, table for table and in order — every live Unit checked against its table
    (``verify_live``) — and the fights end as they do unwatched."""
    start, goals = _combat1()
    plain = {pc: sim.play_runs(start, goals, 5, range(14), DEFAULTS, pc)
             for pc in ("best", "fate")}
    seen = {"walk": 0, "act": 0}

    def walk(self: Table, name: str, moves: tuple[tuple[str, ...], ...]) -> None:
        before = _copy(self.data)
        _WALK(self, name, moves)
        _same_session(self.data, _one_by_one(self, before, name, moves, None))
        seen["walk"] += len(moves) > 1

    def act(self: Table, name: str, action: str, arg: str | None = None,
            moves: tuple[tuple[str, ...], ...] = ()) -> Any:
        before = _copy(self.data)
        out = _ACT(self, name, action, arg, moves)
        _same_session(self.data, _one_by_one(self, before, name, moves, (action, arg)))
        seen["act"] += bool(moves)
        return out

    monkeypatch.setattr(Table, "walk", walk)
    monkeypatch.setattr(Table, "act", act)
    monkeypatch.setattr(Table, "verify_live", True)
    for pc in ("best", "fate"):
        assert sim.play_runs(start, goals, 5, range(14), DEFAULTS, pc) == plain[pc]
    assert seen["walk"] > 20 and seen["act"] > 20  # both short cuts were taken


def _placed(t: Table) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """A unit of Combat #1 on the map after a round start, and a way of two moves for
    it (one step ahead, then a Turn)."""
    t.round_start()
    for name, u in t.data["units"].items():
        if u.get("space") and (u.get("move") or 0) >= 3 and u.get("turn"):
            return name, (("forward",), ("turn", "right"))
    raise AssertionError("no unit to walk")


def test_a_planted_walk_stores_once_what_its_moves_store_one_by_one() -> None:
    """A walk of two moves on Combat #1's start: the session after is the one the two
    ``unit move`` give one by one — and the walk is taken (one table stored, not two)."""
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random(3), DEFAULTS, hands=False)
    name, moves = _placed(t)
    before = _copy(t.data)
    stored: list[str] = []
    t._store_one = lambda n, u, same: (stored.append(n),  # type: ignore[method-assign]
                                       Table._store_one(t, n, u, same))[1]
    t.walk(name, moves)
    assert stored == [name]
    _same_session(t.data, _one_by_one(t, before, name, moves, None))
    assert t.data["units"][name] != before["units"][name]


def test_a_walk_refused_partway_leaves_the_session_as_before_it() -> None:
    """A walk whose second move is refused (a Turn it has no tokens for): the refusal
    raised, the session's tables the very ones of before the walk, and the unit read
    afresh from them (its live Unit, half-moved, forgotten)."""
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random(3), DEFAULTS, hands=False)
    name, _moves = _placed(t)
    units = dict(t.data["units"])
    t.data["units"][name] = units[name] = {**units[name], "turn": 0}
    with pytest.raises(RuleViolation):
        t.walk(name, (("forward",), ("turn", "right")))
    assert t.data["units"] == units
    for n, u in units.items():
        assert t.data["units"][n] is u
    assert t.unit(name).extra.get("space") == units[name]["space"]
    with pytest.raises(RuleViolation):
        t.act(name, "interact", next(n for n in units if n != name),
              moves=(("forward",), ("turn", "right")))
    assert t.data["units"] == units


def test_with_a_log_each_move_is_its_own_command() -> None:
    """With a log kept, a walk and an Action's moves are each their own ``unit move``
    line, then the ``unit act`` line: the log replays command by command."""
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random(3), DEFAULTS, log=True, hands=False)
    name, moves = _placed(t)
    before = _copy(t.data)
    t.walk(name, moves)
    assert t.lines is not None
    assert t.lines[-2:] == [f"unit move {name} forward", f"unit move {name} turn right"]
    _same_session(t.data, _one_by_one(t, before, name, moves, None))


# --------------------------------------------------------------------------- Spent


@record(frozen=False)
class _RecordSpent:
    """``rules.units.unit_state.Spent`` as the record it was."""

    round: int
    actions: int = 0
    boosts: list[str] = field(default_factory=list)
    count: int | None = None


_MADE: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}), ((2, 1), {}), ((2, 1, ["Push the Limit: x"]), {}), ((3, 0, [], 5), {}),
    ((3,), {"count": 4}), ((), {"round": 2, "actions": 2, "boosts": ["b"], "count": 1}),
    ((0,), {"boosts": []}), ((7, True), {}), ((1, 1.0, [], 9), {}), (("2",), {}),
]


def test_spent_is_the_record_it_was() -> None:
    """Spent, a plain class with slots, against the ``@record(frozen=False)`` it was:
    the same values for every way of making one, equal exactly when the records are
    (each pair, and against another type), the same ``repr``, unhashable, a new list of
    boosts each, changed in place, and the same refusals of a missing or extra
    argument."""
    spents = [Spent(*a, **kw) for a, kw in _MADE]
    records = [_RecordSpent(*a, **kw) for a, kw in _MADE]
    for s, r in zip(spents, records, strict=True):
        assert (s.round, s.actions, s.boosts, s.count) == (
            r.round, r.actions, r.boosts, r.count)
        assert repr(s) == repr(r).replace("_RecordSpent(", "Spent(")
        assert (s == 1) is (r == 1) is False
        with pytest.raises(TypeError):
            hash(s)
        with pytest.raises(TypeError):
            hash(r)
    for i, (s, r) in enumerate(zip(spents, records, strict=True)):
        for s2, r2 in zip(spents[i:], records[i:], strict=True):
            assert (s == s2) is (r == r2) and (s != s2) is (r != r2)
        for change in ({"round": 9}, {"actions": 9}, {"boosts": ["z"]}, {"count": 0}):
            vals = {"round": s.round, "actions": s.actions, "boosts": list(s.boosts),
                    "count": s.count, **change}
            assert (s == Spent(**vals)) is (r == _RecordSpent(**vals))
    a, b = Spent(1), Spent(1)
    a.boosts.append("x")
    a.actions += 1
    a.count = 3
    assert b.boosts == [] and (a.actions, a.count) == (1, 3)
    for args, kw in (((), {}), ((1, 0, [], None, 5), {}), ((1,), {"turn": 2})):
        with pytest.raises(TypeError):
            _RecordSpent(*args, **kw)
        with pytest.raises(TypeError):
            Spent(*args, **kw)


# ------------------------------------------------------- the first round start's bases


def _started_table(start: dict[str, Any], blob: bytes, log: bool = False) -> Table:
    """A fight's Table of ``blob`` after its first ``round start`` (as ``sim._fight``)."""
    t = Table(pickle.loads(blob), random.Random(1), DEFAULTS, log)
    t.round_start()
    return t


def test_every_first_round_start_base_is_the_one_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole fights (both ``--pc``) of Combat #1 and of starts planted with what a base
    reads changed — a skill (``True`` for 1 too), a condition, a weapon's table, a Stat, a
    key's place — played in turn on one process's memory: every base a first round start's
    table is given equals the one worked out afresh (``verify_live``), and the fights end
    as they do unwatched."""
    start, goals = _combat1()
    planted = []
    bow = copy.deepcopy(start["units"]["Archer"]["weapons"])
    bow["Bow"]["range"] = [10, 30]
    for change in ({"skills": {"Ranged": 2}}, {"conditions": {"fatigue": 1}},
                   {"weapons": bow}, {"body": "9x1"}, {"skills": {"Ranged": True}}):
        s = copy.deepcopy(start)
        s["units"]["Archer"] = {**s["units"]["Archer"], **change}
        planted.append(s)
    moved = copy.deepcopy(start)  # the same fields, "faction" put last
    moved["units"]["Archer"]["faction"] = moved["units"]["Archer"].pop("faction")
    planted.append(moved)
    plain = [sim.play_runs(s, goals, 4, range(3), DEFAULTS, pc)
             for s in (start, *planted) for pc in ("best", "fate")]
    engine._STARTED.clear()
    monkeypatch.setattr(Table, "verify_live", True)
    for _ in range(2):  # the second time round, every start is remembered
        got = [sim.play_runs(s, goals, 4, range(3), DEFAULTS, pc)
               for s in (start, *planted) for pc in ("best", "fate")]
        assert got == plain
    assert len(engine._STARTED) == len(planted) + 1


def test_a_remembered_first_round_start_works_out_no_base(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same start pickled again (another bytes object, the same bytes): its first
    round start's tables are given their bases without one worked out — each the base
    worked out afresh; with a log kept (another key) they are worked out."""
    start, _ = _combat1()
    engine._STARTED.clear()
    t = _started_table(start, pickle.dumps(start, -1))
    engine.started(t, pickle.dumps(start, -1))
    t2 = _started_table(start, pickle.dumps(start, -1))
    worked: list[int] = []
    real = engine._base_key
    monkeypatch.setattr(engine, "_base_key", lambda raw: worked.append(1) or real(raw))
    engine.started(t2, pickle.dumps(start, -1))
    assert worked == []
    for d in t2.data["units"].values():
        assert engine._READ[id(d)][0] is d
        assert engine._READ[id(d)][2] == engine._BASES(real(d))
    t3 = _started_table(start, pickle.dumps(start, -1), log=True)
    engine.started(t3, pickle.dumps(start, -1))
    assert len(worked) == len(t3.data["units"])


# ------------------------------------- a move's label, a Count's record, the round record


def _placed_roster() -> tuple[Table, str, dict[str, Any]]:
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random(3), DEFAULTS, hands=False)
    name, _moves = _placed(t)
    return t, name, t._some(name)


@pytest.mark.parametrize("words", [("forward",), ("forward", "2"), ("backward",),
                                   ("slide", "left")])
def test_a_move_refused_without_its_report_says_the_spaces_it_would_walk(
        words: tuple[str, ...]) -> None:
    """A move on the map refused for its cost, with and without its report (a simulated
    fight): the same refusal, naming the Spaces it would walk (``Moved.label``: written
    only where the label is read) — and one allowed changes the unit the same both ways,
    its result (with the report) naming them."""
    said = []
    for report in (True, False):
        t, name, roster = _placed_roster()
        roster[name].move = 0
        number, phase = t._now()
        with pytest.raises(RuleViolation) as refused:
            turns.move(roster, number, phase, name, words[0], " ".join(words[1:]) or None,
                       board=board_of(t.data), tasks={}, report=report)
        said.append(str(refused.value))
    assert said[0] == said[1] and " → " in said[0] and "has Move 0" in said[0]
    units = []
    for report in (True, False):
        t, name, roster = _placed_roster()
        number, phase = t._now()
        out = turns.move(roster, number, phase, name, words[0], " ".join(words[1:]) or None,
                         board=board_of(t.data), tasks={}, report=report)
        if report:
            assert out is not None and " → " in out.summary
        else:
            assert out is None
        units.append(roster[name].to_state())
    assert units[0] == units[1]


@pytest.mark.parametrize("count", [None, 3, 1, 0, 11, "4", 5.0, True])
def test_reach_of_takes_a_whole_number_as_it_is(count: Any) -> None:
    """``reach_of`` against the rule written out (``reach_at`` of the stored Count made
    a whole number): the same Count, a whole number, for Counts stored as whole numbers,
    texts, floats and bools, in the round and in another."""
    for move in (None, 0, 2, 5, 12):
        for number in (2, 3):
            spent_ = {"round": 2, "actions": 0, "boosts": []}
            if count is not None:
                spent_["count"] = count
            unit = {"move": move, "spent": spent_}
            want = unit_state.reach_at(move, None if count is None or number != 2
                                       else int(count))
            got = unit_state.reach_of(unit, number)
            assert got == want and type(got) is int


@record(frozen=False)
class _RecordRound:
    """``rules.time.round_state.Round`` as the record it was."""

    number: int = 0
    phase: str = "none"


@pytest.mark.parametrize("state", [None, {}, {"number": 3, "phase": "started"},
                                   {"number": "4", "phase": "ended"}, {"number": 2.0},
                                   {"phase": "none"}, {"number": True, "phase": 7}])
def test_the_round_is_the_record_it_was(state: dict[str, Any] | None) -> None:
    """Round, a plain class with slots, against the ``@record(frozen=False)`` it was:
    read from a table (``from_state``: the values ``int`` and ``str`` give, of their
    types), made by position and keyword, equal exactly when the records are, the same
    ``repr``, unhashable, changed in place, written back the same."""
    s = state or {}
    want = _RecordRound(int(s.get("number", 0)), str(s.get("phase", "none")))
    got = Round.from_state(state)
    assert (got.number, got.phase) == (want.number, want.phase)
    assert (type(got.number), type(got.phase)) == (int, str)
    assert repr(got) == repr(want).replace("_RecordRound(", "Round(")
    assert got.to_state() == {"number": want.number, "phase": want.phase}
    with pytest.raises(TypeError):
        hash(got)
    made = [((), {}), ((2,), {}), ((2, "started"), {}), ((), {"phase": "ended"}),
            ((5,), {"phase": "none"})]
    for a, kw in made:
        for a2, kw2 in made:
            assert (Round(*a, **kw) == Round(*a2, **kw2)) is (
                _RecordRound(*a, **kw) == _RecordRound(*a2, **kw2))
        assert (Round(*a, **kw) == (2, "started")) is False
    got.number += 1
    got.phase = "ended"
    assert got == Round(want.number + 1, "ended")
    for a, kw in (((1, "x", 2), {}), ((), {"turn": 1})):
        with pytest.raises(TypeError):
            _RecordRound(*a, **kw)
        with pytest.raises(TypeError):
            Round(*a, **kw)
