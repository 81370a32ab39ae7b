"""The engine's ninth cut (issue 40 item 1): the round's record of an Action or a move
(``unit_state.stepped``, ``keep_spent``) kept without a second table unpacked or a
``min`` called, and an Interact's Target found by its folded name in a plain loop.
A response in a fight without a log writes no result (``rules.time.exchange.respond``,
as ``turns.act`` writes no Spending), nor a round's end its steps' records
(``rules.time.rounds.end``); a Refresh with no Speed penalty reads the unit's own Speed
Stat (``status_bar.speed_now``); the hands settled, a Target's win and a round end's
picks read in plain loops, and no condition token no penalty at once. Each is checked
here against the rule written out plainly — over every case of its inputs, or over
whole fights."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.scale.stats import parse_stat
from d2d_cli.rules.time import exchange as time_exchange
from d2d_cli.rules.time import turns
from d2d_cli.rules.units import unit_state
from d2d_cli.rules.units.roster import Unit
from tests.test_sim_engine_cut12 import _settle_plainly


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def _unit(name: str = "A", **extra: Any) -> Unit:
    return Unit(name, {"speed": parse_stat("4x1")}, extra=dict(extra))


# --------------------------------------------------------------------------- the record


def _kept_plainly(record: unit_state.Spent) -> dict[str, Any]:
    """The record as a table, written out as the rule says: round, actions, boosts, and
    the Count last when set (the oracle)."""
    return {"round": record.round, "actions": record.actions,
            "boosts": list(record.boosts),
            **({"count": record.count} if record.count is not None else {})}


@pytest.mark.parametrize("count", [None, 0, 3, 10])
@pytest.mark.parametrize("boosts", [[], ["Push the Limit: Skill +1"]])
def test_a_kept_record_is_the_table_written_plainly(count: int | None,
                                                    boosts: list[str]) -> None:
    """The same keys, values and order; the boosts a list of the table's own."""
    u = _unit()
    rec = unit_state.Spent(2, 1, boosts, count)
    unit_state.keep_spent(u, rec)
    kept = u.extra[unit_state.SPENT]
    want = _kept_plainly(rec)
    assert list(kept.items()) == list(want.items())
    assert kept["boosts"] is not rec.boosts


def _stepped_plainly(move_before: int | None, count: int | None, free: bool) -> int | None:
    """The Count a step leaves, as 001 l.499–505 reads (the rule before the cut: ``reach``
    of the record, ``min`` of the two): the oracle."""
    at = unit_state.reach(move_before, unit_state.Spent(1, 0, [], count))
    if free:
        return at + 1 if count is None else count
    if at > 0:
        return at if count is None else min(count, at)
    return count


@pytest.mark.parametrize("free", [False, True])
def test_every_step_leaves_the_count_the_rule_says(free: bool) -> None:
    """Every Move before (none, 0–12) and Count last done at (none, 0–11), free or not:
    the record kept holds the Count written out plainly."""
    for move_before, count in itertools.product([None, *range(13)], [None, *range(12)]):
        u = _unit()
        rec = unit_state.Spent(1, 0, [], count)
        out = unit_state.stepped(u, 1, "started", move_before, rec, free=free)
        want = _stepped_plainly(move_before, count, free)
        assert out.count == want, (move_before, count, free)
        assert u.extra[unit_state.SPENT] == _kept_plainly(out)


# --------------------------------------------------------------------------- the Target


def _roster(*names: str) -> dict[str, Unit]:
    out = {}
    for n in names:
        u = _unit(n)
        u.move, u.action_cost, u.turn = 4, 2, 2
        out[n] = u
    return out


@pytest.mark.parametrize("typed", ["Goblin", "goblin", " GOBLIN ", "gOBLIN"])
def test_an_interact_marks_its_target_by_the_folded_name(typed: str) -> None:
    """The Target is found however its name is typed (case, spaces), as a table of the
    folded names finds it; an unknown name marks nobody."""
    units = _roster("Archer", "Goblin")
    turns.act(units, 1, "started", "Archer", "interact", typed)
    assert "interacted" in units["Goblin"].extra
    units = _roster("Archer", "Goblin")
    turns.act(units, 1, "started", "Archer", "interact", "Orc")
    assert "interacted" not in units["Goblin"].extra


def test_names_folded_alike_mark_the_last_as_a_table_of_them_does() -> None:
    """Two names folded alike (a roster the commands never make, but a rules call may be
    given): the one a table of the folded names keeps — the last — is marked."""
    units = _roster("Archer", "GOBLIN", "goblin")
    want = {n.lower(): u for n, u in units.items()}["goblin"]
    turns.act(units, 1, "started", "Archer", "interact", "Goblin")
    marked = [n for n, u in units.items() if "interacted" in u.extra]
    assert marked == [want.name] == ["goblin"]


# --------------------------------------------------------------------------- respond


def test_a_response_without_a_report_changes_the_units_the_same() -> None:
    """``respond`` with ``report`` False returns None and leaves both units as the
    reported response does, table for table."""
    tables = []
    for report in (True, False):
        units = _roster("Archer", "Goblin")
        turns.act(units, 1, "started", "Archer", "interact", "Goblin")
        out = time_exchange.respond(units, 1, "started", "Goblin", True, report=report)
        assert (out is None) is (not report)
        if out is not None:
            assert out.spending is not None and out.action
        tables.append({n: list(u.to_state().items()) for n, u in units.items()})
    assert tables[0] == tables[1]


def test_fights_with_and_without_a_log_end_in_the_same_session() -> None:
    """A fight with a log (every result written) and without (none) end in the same
    session, table by table, both policies, Targets responding in them."""
    start, goals = _combat1()
    responses = 0
    for pc in ("best", "fate"):
        for i in range(4):
            seed = sim.run_seed(9, i)
            o1, t1 = sim.fight(start, goals, seed, DEFAULTS, log=True, pc=pc)
            o2, t2 = sim.fight(start, goals, seed, DEFAULTS, log=False, pc=pc)
            assert o1 == o2
            assert t1.data == t2.data
            assert t1.lines is not None
            responses += sum(line.startswith("unit respond") for line in t1.lines)
    assert responses > 8


# --------------------------------------------------------------------------- round end


def test_every_round_end_of_whole_fights_changes_the_same_unreported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``round end`` of whole fights (both policies) run again on copies of what it
    was given, with the other ``report``: the round, every unit's table, the tasks, the
    Clock and the cards revealed come out the same; unreported it returns None."""
    from d2d_cli.rules.time import rounds, tasks

    start, goals = _combat1()
    real = rounds.end
    ends, recovered = 0, 0

    def state(rnd: Any, roster: Any, board: Any, clock: Any, reveal: Any) -> Any:
        return (rnd.to_state(), {n: list(u.to_state().items()) for n, u in roster.items()},
                tasks.board_state(board), clock.to_state(), list(reveal.used))

    store_all = Table._store_all
    wanted: list[Any] = []

    def stored(self: Table, roster: Any, same_base: Any = ()) -> None:
        if wanted:  # a round end's: those whose upkeep changes but their effects
            assert list(same_base) == wanted.pop()
        store_all(self, roster, same_base)

    def both(*args: Any, report: bool = True) -> Any:
        nonlocal ends, recovered
        roster = args[1]  # the Recover picks and the units ending their effects alone,
        # written out as the rule reads them before the upkeep changes anything
        assert args[5] == [f"{n}={c[0]}" for n, u in roster.items() if not u.extra.get(
            "off_map") and (c := rounds.recover_choices(u))]
        wanted.append([n for n, u in roster.items() if rounds.ends_effects_only(u)])
        again = copy.deepcopy(args)
        out = real(*args, report=report)
        other = real(*again, report=not report)
        assert (out is None) is (not report) and (other is None) is report
        assert state(*args[:5]) == state(*again[:5])
        ends += 1
        recovered += bool(args[5])
        return out

    monkeypatch.setattr(rounds, "end", both)
    monkeypatch.setattr(Table, "_store_all", stored)
    for pc in ("best", "fate"):
        for i in range(8):
            sim.fight(start, goals, sim.run_seed(4, i), DEFAULTS, pc=pc)
    assert ends > 40
    # planted: conditions to recover from and with events, an Ability in Cooldown,
    # Stealth tokens, the round's effects — every step of the upkeep has work
    import random

    t = Table(copy.deepcopy(start), random.Random(2), DEFAULTS)
    t.round_start()
    planted = {"Archer": {"conditions": {"fatigue": 2, "bleeding": 1}},
               "Thief": {"cooldown": ["Pick"], "stealth": 2, "effects": {"interact": 1}},
               "Goblin Scout": {"conditions": {"stun": 1, "slow": 1}}}
    t.data["units"] = {n: {**u, **planted.get(n, {})} for n, u in t.data["units"].items()}
    t.round_end()
    assert recovered == 1 and ends > 41


# --------------------------------------------------------------------------- Speed


@pytest.mark.parametrize("penalties", [True, False])
def test_the_speed_now_is_the_stat_the_rule_makes(penalties: bool) -> None:
    """Every Speed from 0x1 to 10x2, with and without a partial Level, under no
    condition, a Slow or two and a Fatigue: ``speed_now`` equals the Stat made as the rule
    says — the Level less the penalties, never below 0, on the same scale, no partial."""
    from d2d_cli.rules.scale.stats import Stat
    from d2d_cli.rules.units import conditions as conds
    from d2d_cli.rules.units.status_bar import speed_now

    for level, scale, partial in itertools.product(range(11), (0, 1, 2), (None, 4.5)):
        for held in ({}, {"slow": 1}, {"slow": 2}, {"fatigue": 1}):
            u = Unit("A", {"speed": Stat(level, scale, partial)}, conditions=dict(held))
            change = conds.penalties(held).get("speed", 0) if penalties else 0
            want = Stat(max(0, level + change), scale)
            got = speed_now(u, penalties)
            assert got == want and got is not None and got.partial is None, (level, held)
    assert speed_now(Unit("A", {}), penalties) is None


def test_no_condition_token_is_no_penalty_a_table_of_its_own() -> None:
    """``penalties`` of no token is an empty table, a new one at each call (a caller may
    fill it), as the loop over no token gives; tokens still count."""
    from d2d_cli.rules.units.condition_table import penalties

    a, b = penalties({}), penalties({})
    assert a == {} and b == {} and a is not b
    assert penalties({"slow": 2}) == {"speed": -2}


# --------------------------------------------------------------------------- the hands


def test_every_settle_and_target_win_of_whole_fights_reads_the_effects_as_sets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand settled after a Conflict of whole fights (both policies) ends as the
    rule written with the sets of the winner's effect keys leaves it — the hand, the
    deck, the discard pile and the generator — and every Target's win takes Evade's
    Move and its Hits exactly where those sets say."""
    import random as _random

    start, goals = _combat1()
    settle, wins = sim._settle, sim._target_wins
    settled, won = 0, 0

    def plainly(t: Table, name: str, played: str, c: Any, side: str, benefits: bool) -> None:
        owner = sim.player_of(t.data["units"][name])
        p = t.players.get(owner) if owner is not None else None
        if p is not None:  # the hand settled as the rule was written (one copy of it)
            _settle_plainly(p, t.rng, played, c, side, benefits)

    def hands(t: Any) -> Any:
        return {n: (list(p.hand), list(p.deck), list(p.discard)) for n, p in t.players.items()}

    def checked_settle(t: Table, *args: Any) -> None:
        nonlocal settled
        twin = _random.Random()
        twin.setstate(t.rng.getstate())
        other = copy.copy(t)
        other.rng = twin
        other.players = {n: copy.copy(p) for n, p in t.players.items()}
        for p in other.players.values():
            p.hand, p.deck, p.discard = list(p.hand), list(p.deck), list(p.discard)
        plainly(other, *args)
        settle(t, *args)
        assert hands(t) == hands(other) and t.rng.getstate() == twin.getstate()
        settled += 1

    def checked_wins(t: Table, target: str, attacker: str, c: Any) -> None:
        nonlocal won
        keys = {e.key for e in c.effects.b}
        calls: list[str] = []
        act, hit = t.act, t.hit
        t.act = lambda *a, **k: (calls.append("evade" if a[1] == "evade" else "act"),  # type: ignore[method-assign]
                                 act(*a, **k))[1]
        t.hit = lambda *a, **k: (calls.append("hit"), hit(*a, **k))[1]  # type: ignore[method-assign]
        try:
            wins(t, target, attacker, c)
        finally:
            del t.act, t.hit
        assert ("evade" in calls) == bool(keys & {"move", "regain_move"})
        assert ("hit" in calls) == (c.outcome in ("b", "both") and c.approach_b in
                                    sim.policy.SCORING and "hit" in keys)
        won += 1

    monkeypatch.setattr(sim, "_settle", checked_settle)
    monkeypatch.setattr(sim, "_target_wins", checked_wins)
    for pc in ("best", "fate"):
        for i in range(8):
            sim.fight(start, goals, sim.run_seed(6, i), DEFAULTS, pc=pc)
    assert settled > 200 and won > 40

