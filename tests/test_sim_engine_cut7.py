"""The engine's seventh cut (issue 40 item 1): a unit table's reading in two parts — its
base (every field an assessment reads but the round's ``effects``) and its effects. A
move, an Interact's Action and a Target's response change nothing of a unit that a
reading reads but its effects (``turns.move``, ``turns.act``, ``rules.time.exchange
.respond``, as each says), so the table each stores keeps the base of the one it
replaces and its reading pays only for its effects. Each kept base is checked here
against the base worked out afresh, over whole fights, and a rules call that changed
a field read is caught."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.time import turns


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_kept_base_of_whole_fights_is_the_base_worked_out_afresh(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In whole fights every base a move, an Interact or a response keeps equals the
    base of its new table worked out afresh (``Table.verify_live``: the oracle,
    ``_base_key`` numbered), every reading asked equals the reading worked out afresh
    (``_reading_key`` numbered), and most of those stores keep a base."""
    start, goals = _combat1()
    kept: list[Any] = []
    same = engine._same_base

    def noted(was: Any, new: Any) -> Any:
        got = same(was, new)
        kept.append(got)
        return got

    asked: list[tuple[dict[str, Any], int]] = []
    reading = engine._reading

    def read(raw: dict[str, Any]) -> int:
        got = reading(raw)
        asked.append((raw, got))
        return got

    engine._READ.clear()
    monkeypatch.setattr(engine.Table, "verify_live", True)
    monkeypatch.setattr(engine, "_same_base", noted)
    monkeypatch.setattr(engine, "_reading", read)
    monkeypatch.setattr(engine, "reading", read)
    for i in range(10):
        sim.fight(start, goals, sim.run_seed(13, i), DEFAULTS, pc=pc)
    assert len([b for b in kept if b is not None]) > len(kept) // 2 > 50
    assert len(asked) > 300
    for raw, number in asked:
        assert number == engine._READINGS(engine._reading_key(raw))


def test_a_rules_call_that_changed_a_field_read_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Were an Interact to change a field a reading reads (here a Fatigue token put on
    its unit), the base kept would not be the new table's: ``verify_live`` fails the
    fight, and without it the base would be carried wrongly — the short cut rests on the
    rules calls changing only what their docstrings say."""
    start, goals = _combat1()
    act = turns.act

    def tiring(units: Any, number: int, phase: str, name: str, what: str, *a: Any,
               **kw: Any) -> Any:
        out = act(units, number, phase, name, what, *a, **kw)
        if what == "interact" and a and a[0] is not None:
            units[name].add_condition("fatigue", 1)
        return out

    monkeypatch.setattr(engine.Table, "verify_live", True)
    monkeypatch.setattr(turns, "act", tiring)
    with pytest.raises(AssertionError, match="the base of"):
        for i in range(3):
            sim.fight(start, goals, sim.run_seed(13, i), DEFAULTS)


def _archer() -> dict[str, Any]:
    start, _ = _combat1()
    raw = start["units"]["Archer"]
    return {**raw, "skills": dict(raw["skills"]), "conditions": dict(raw["conditions"])}


def test_a_kept_base_needs_the_one_before_known_and_reads_the_new_effects() -> None:
    """The base is kept only where the table replaced has one known (read, or itself
    kept); the new table's reading is its own effects on that base — what a reading
    worked out afresh gives, other than the one before where the effects differ."""
    engine._READ.clear()
    was = _archer()
    new = {**was, "move": 3, "effects": {"interact": 1}}
    assert engine._same_base(was, new) is None  # nothing known of ``was``
    assert id(new) not in engine._READ
    known = engine._reading(was)
    base = engine._same_base(was, new)
    assert base == engine._BASES(engine._base_key(was))
    assert engine._READ[id(new)] == (new, None, base)
    last = {**new, "effects": {"interact": 2}}
    assert engine._same_base(new, last) == base  # kept on from a base kept
    for raw in (new, last):
        assert engine._reading(raw) == engine._READINGS(engine._reading_key(raw)) != known
    assert engine._reading(new) != engine._reading(last)


def test_the_reading_tells_apart_effects_present_absent_or_not_a_table() -> None:
    """The effects part: none, an empty table, a table, a text — four readings."""
    was = _archer()
    got = {engine._reading({**was, **extra}) for extra in (
        {}, {"effects": {}}, {"effects": {"interact": 1}}, {"effects": "{}"})}
    assert len(got) == 4


def _ended(extra_of: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any],
                                                         dict[str, bool]]:
    """Combat #1's roster after a round start, each unit given what ``extra_of`` says
    and an Interact's effects, its tables before and after ``rounds.end``, and what
    ``ends_effects_only`` said of each before it."""
    from d2d_cli.rules.deck import fate
    from d2d_cli.rules.time import rounds, tasks
    from d2d_cli.rules.time.clock import Clock
    from d2d_cli.rules.time.round_state import Round
    from d2d_cli.rules.units.roster import Unit

    start, _ = _combat1()
    t = engine.Table(copy.deepcopy(start), __import__("random").Random(3), DEFAULTS)
    t.round_start()
    roster = {n: Unit.from_state(n, u) for n, u in t.data["units"].items()}
    for n, u in roster.items():
        u.extra["effects"] = {"interact": 1}
        for k, v in extra_of.get(n, {}).items():
            if k == "conditions":
                u.conditions.update(v)
            else:
                u.extra[k] = v
    before = {n: u.to_state() for n, u in roster.items()}
    said = {n: rounds.ends_effects_only(u) for n, u in roster.items()}
    rounds.end(Round.from_state(t.data["round"]), roster, tasks.board(t.data),
               Clock.from_state(t.data.get("clock")), fate.Revealer(t.deck, t.rng), [],
               t.data.get("scene", {}).get("reserves", {}))
    return before, {n: u.to_state() for n, u in roster.items()}, said


def test_a_round_end_changes_only_the_effects_of_a_unit_it_says_so_of() -> None:
    """``rounds.ends_effects_only`` against ``rounds.end`` itself: a unit it names keeps
    every field but its effects; a Fatigue (Recovered), a Bleeding (its event), an Ability
    in Cooldown (readied), a Stealth token (kept up): each is named not so."""
    before, after, said = _ended({})
    assert all(said.values())
    for n in before:
        assert {k: v for k, v in after[n].items() if k != "effects"} == {
            k: v for k, v in before[n].items() if k != "effects"}
    names = list(before)
    held = {names[0]: {"conditions": {"fatigue": 1}},
            names[1]: {"conditions": {"bleeding": 1}},
            names[2]: {"cooldown": ["Dodge"]}, names[3]: {"stealth": 1}}
    before, after, said = _ended(held)
    for n in held:
        assert not said[n], n
        assert {k: v for k, v in after[n].items() if k != "effects"} != {
            k: v for k, v in before[n].items() if k != "effects"}, n


def test_a_goal_reached_is_the_rule_written_out_with_a_failed_condition_asked_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``goals.reached`` asks a condition found not to hold no second time in a call —
    equal conditions of a goal are one object — and answers as the rule written out
    (some alternative whose every condition holds) at every check of whole fights."""
    start, goals = _combat1()
    adventurers = goals["Adventurers"].any
    assert adventurers[0][0] is adventurers[1][0]  # "task Knot won", parsed once
    asked: list[tuple[g.Condition, bool]] = []
    holds = g.holds
    checks: list[bool] = []

    def noted(c: g.Condition, faction: str, data: Any) -> bool:
        got = holds(c, faction, data)
        asked.append((c, got))
        return got

    real = g.reached

    def checked(goal: g.Goal, data: Any) -> bool:
        asked.clear()
        got = real(goal, data)
        plain = any(all(holds(c, goal.faction, data) for c in alt) for alt in goal.any)
        assert got is plain
        failed = [id(c) for c, held in asked if not held]
        assert len(failed) == len(set(failed))  # none found false asked again
        checks.append(got)
        return got

    monkeypatch.setattr(g, "holds", noted)
    monkeypatch.setattr(sim, "reached", checked)
    for i in range(8):
        sim.fight(start, goals, sim.run_seed(17, i), DEFAULTS)
    assert len(checks) > 100 and any(checks)


def test_a_later_alternative_holding_a_failed_condition_fails() -> None:
    """Combat #1's Adventurers: the Knot won and then off the map, or the Knot won and
    the Rivals down. Every Goblin down while the Knot holds reaches nothing; with the
    Knot won it is reached — as the rule written out says."""
    start, goals = _combat1()
    goal = goals["Adventurers"]
    data = copy.deepcopy(start)
    for u in data["units"].values():
        if u.get("faction") == "Goblins":
            u["conditions"] = {"dying": 1}
    for won in (False, True):
        data["tasks"]["Knot"]["challenge"] = 0 if won else 4
        plain = any(all(g.holds(c, goal.faction, data) for c in alt) for alt in goal.any)
        assert g.reached(goal, data) is plain is won


def test_an_interact_that_uses_up_a_pending_interrupt_keeps_no_stale_base(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An Interact on a Target with an Interrupt pending on it (``d2d unit interrupt``,
    then ``npc turn``, which plays on a Table) uses the Interrupt up: the Target's
    ``interrupted`` changes, a field its base holds, so the base it had is not kept for
    its new table (``verify_live`` checks every base kept) and its reading is the one
    worked out afresh. The sim never interrupts: whole fights do not meet this."""
    start, _ = _combat1()
    monkeypatch.setattr(engine.Table, "verify_live", True)
    engine._READ.clear()
    t = engine.Table(copy.deepcopy(start), __import__("random").Random(3), DEFAULTS)
    t.round_start()
    target = "Goblin Skirmisher"
    pending = {"round": 1, "by": ["Archer"], "pending": "Archer"}
    t.data["units"][target] = {**t.data["units"][target], "interrupted": pending}
    t._live.pop(target, None)
    before = t.data["units"][target]
    engine.reading(before)  # its base known: the one a wrong keep would carry over
    t.act("Archer", "interact", target)
    after = t.data["units"][target]
    assert after is not before and after["interrupted"] != pending  # used up
    assert "pending" not in after["interrupted"]
    assert engine.reading(after) == engine._READINGS(engine._reading_key(after))
    assert engine._READ.get(id(after), (None, None, None))[2] in (
        None, engine._BASES(engine._base_key(after)))
