"""The turn half of a simulated fight made cheaper gives what a fresh reading gives, at
every look of whole fights (issue 40 item 1: the same rule functions, no result changed
— tests/test_sim.py and tests/golden/ pin whole fights byte for byte)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import movement, policy, sim
from d2d_cli.rules.combat.situation import Terms, Who, assess
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units.roster import Unit
from d2d_cli.rules.units.unit_state import SPENT, Spent, reach

FIGHTS = 12


def combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def play(start: dict[str, Any], goals: dict[str, g.Goal], seed: int) -> None:
    """FIGHTS whole fights of Combat #1, fight ``i`` seeded as ``d2d sim`` seeds it."""
    for i in range(FIGHTS):
        sim.fight(start, goals, sim.run_seed(seed, i), DEFAULTS)


def checking(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str,
             check: Callable[..., Any]) -> list[Any]:
    """Put ``check(original, *args)`` in the place of ``owner.name`` for the fights to
    come: its answer is the one the fight gets, and each is kept in the list returned
    (how many looks were checked, and what they said)."""
    original = getattr(owner, name)
    answers: list[Any] = []

    def checked(*args: Any, **kwargs: Any) -> Any:
        got = check(original, *args, **kwargs)
        answers.append(got)
        return got

    monkeypatch.setattr(owner, name, checked)
    return answers


def countdown_as_before(t: Any, passed: set[str], allowed: set[str] | None) -> str | None:
    """The next unit as the fight loop chose it before: the ready units listed, a Spent
    record built for each one's Count (``reach``), the first of the highest."""
    from d2d_cli.rules.assistant.asking import can_respond

    units = t.units()
    ready = [n for n, u in units.items() if n not in passed and not u.get("off_map")
             and (allowed is None or n in allowed) and u.get("move") is not None
             and (can_respond(u) if not g.is_down(u)
                  else u["move"] >= 1 and bool(u.get("space"))
                  and not u.get("conditions", {}).get("dead"))]
    rnd = t.data.get("round") or {}
    reaches = {}
    for n in ready:
        raw = units[n].get(SPENT) or {}
        count = raw.get("count") if raw.get("round") == rnd.get("number") else None
        reaches[n] = reach(units[n].get("move"),
                           Spent(0, count=None if count is None else int(count)))
    ready = [n for n in ready if reaches[n] > 0 or g.is_down(units[n])]
    return max(ready, key=reaches.__getitem__) if ready else None


def test_the_unit_the_countdown_reaches_is_the_one_the_lists_chose(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One pass over the roster picks, before every Action of whole fights (the Dying
    withdrawing, the units gone off the map, the round's last Actions among them), the
    unit the ready list and its Counts picked — and fights really end their rounds on
    it (None asked and answered)."""
    start, goals = combat1()

    def checked(found: Any, t: Any, passed: set[str], allowed: set[str] | None
                ) -> str | None:
        got = found(t, passed, allowed)
        assert got == countdown_as_before(t, passed, allowed)
        return got

    seen = checking(monkeypatch, sim, "_next", checked)
    play(start, goals, 7)
    assert None in seen and len(set(seen)) >= 6  # every unit, and the round's end


def test_a_units_count_is_read_again_for_a_new_table_or_another_round() -> None:
    """The Count each unit's table gives is remembered for the very table in one round:
    a unit stored anew (Move spent, Dying) or the next round is read afresh, never
    given the Count remembered for the table or round before."""
    import pickle
    import random

    from d2d_cli.rules.assistant.engine import Table

    start, _ = combat1()
    t = Table(pickle.loads(pickle.dumps(start)), random.Random(0))
    t.round_start()
    units = t.data["units"]
    first = sim._next(t, set(), None)
    assert first is not None and sim._next(t, set(), None) == first
    top = units[first]
    units[first] = {**top, "move": 0}  # stored anew with no Move left: not reached
    assert sim._next(t, set(), None) not in (first, None)
    units[first] = {**top, "move": 1, "conditions": {"dying": 1}}  # down: withdraws
    assert sim._count_of(units[first], t.data["round"]["number"]) == 1
    units[first] = top  # the very table again: the Count it gave
    assert sim._next(t, set(), None) == first
    rnd = t.data["round"]["number"]
    units[first] = {**top, SPENT: {"round": rnd, "count": 2}}  # reached at Count 2
    assert sim._count_of(units[first], rnd) == 1
    assert sim._next(t, set(), None) != first  # the others' Counts are higher
    t.data["round"] = {**t.data["round"], "number": rnd + 1}  # a record of another round
    assert sim._next(t, set(), None) == first
    assert sim._count_of(units[first], rnd + 1) == sim._count_of(top, rnd)


def test_the_movement_plans_remembered_are_the_ones_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The movement planner remembers by every placed unit's Space, Facing, size and
    faction, and the moving unit's skills and weapons: at every plan of whole fights,
    the Movement given is the one worked out afresh."""
    start, goals = combat1()

    def checked(asked: Any, data: Any, name: str, target: str, *args: Any) -> Any:
        got = asked(data, name, target, *args)
        assert got == movement._approach(data, name, target, *args)
        return got

    looks = checking(monkeypatch, movement, "approach", checked)
    play(start, goals, 8)
    assert len(looks) > 10 * FIGHTS


def test_a_unit_moved_or_given_a_weapon_is_planned_anew() -> None:
    """The planner's key follows what a plan reads: another Space of any unit, or
    another weapon or skill of the unit that moves, is another key (never the plan
    remembered for the old one); another unit's weapons or skills, which no plan reads,
    are not."""
    start, _ = combat1()
    units = start["units"]

    def key(**changed: dict[str, Any]) -> tuple[Any, ...]:
        data = {**start, "units": {n: changed.get(n, u) for n, u in units.items()}}
        return movement._key(data, ("Archer", "Goblin Scout"), mover="Archer")

    first = key()
    archer, scout = units["Archer"], units["Goblin Scout"]
    club = {"Club": {"rating": "Body+1", "types": ["bash"]}}
    assert key(Archer={**archer, "space": "C6"}) != first
    assert key(**{"Goblin Scout": {**scout, "space": "C6"}}) != first
    assert key(Archer={**archer, "weapons": club}) != first
    assert key(Archer={**archer, "skills": {"Ranged": 2}}) != first
    assert key(**{"Goblin Scout": {**scout, "weapons": club}}) == first
    assert key(**{"Goblin Scout": {**scout, "skills": {"Melee": 2}}}) == first


def test_the_unit_that_moves_is_planned_by_its_own_skills_and_weapons() -> None:
    """The same positions, the Archer armed otherwise: with its Bow it shoots the Scout
    from a Space in reach; bare-handed with no Ranged skill no Space in reach lets it
    attack, so it closes in — two Movements, so a plan remembered for one is never
    given to the other (the moving unit's skills and weapons are in the planner's key;
    001 l.685–695)."""
    start, _ = combat1()
    units = start["units"]
    bare = {k: v for k, v in units["Archer"].items() if k != "weapons"}
    bare["skills"] = {"Close Combat": 1}
    got = []
    for archer in (units["Archer"], bare):
        data = {**start, "units": {**units, "Archer": archer}}
        got.append(movement.approach(data, "Archer", "Goblin Scout", 5, 5, 1))
    assert got[0] is not None and got[1] is not None
    assert got[0].in_reach and "ranged attack" in got[0].why
    assert not got[1].in_reach and got[1] != got[0]  # bare-handed, it closes in


def test_the_levels_and_weapons_remembered_are_a_fresh_looks_at_every_plan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The fighter's key is built in the table's own order (not sorted): at every look of
    whole fights (the plan's target choice, which reads its own unit's key once for all
    its candidates, and the exchange's) the Levels remembered by it are those a fresh
    situation gives, and the weapon chosen is the one chosen with nothing remembered."""
    start, goals = combat1()

    def checked_levels(levels: Any, units: Any, a: str, b: str, key_a: int,
                       roster: Any = None) -> Any:
        got = levels(units, a, b, key_a, roster)
        assert key_a == policy._fighter_key(units[a])  # the key of the very unit asked
        sit = assess(Who(Unit.from_state(a, units[a]), None),
                     Who(Unit.from_state(b, units[b]), None, "--level-b"), Terms(),
                     skill=policy.skill_for(units[a]))
        assert got == (sit.a.level, sit.b.level)
        return got

    def checked_weapon(weapon: Any, data: Any, name: str, target: str,
                       space: Any = None) -> Any:
        got = weapon(data, name, target, space)
        saved = dict(policy._WEAPON_CHOICE)
        policy._WEAPON_CHOICE.clear()
        try:
            assert weapon(data, name, target, space) == got
        finally:
            policy._WEAPON_CHOICE.clear()
            policy._WEAPON_CHOICE.update(saved)
        return got

    looks = checking(monkeypatch, policy, "_levels_of", checked_levels)
    chosen = checking(monkeypatch, policy, "choose_weapon", checked_weapon)
    play(start, goals, 9)
    assert len(looks) > 10 * FIGHTS and chosen


def test_a_fighters_key_tells_readings_apart_in_any_order() -> None:
    """Two tables of the same reading in the same order share a key; the same reading in
    another order may get another (a miss, worked out afresh), never a reading that
    differs."""
    start, _ = combat1()
    archer = dict(start["units"]["Archer"])
    key = policy._fighter_key(archer)
    assert policy._fighter_key(dict(archer)) == key
    reordered = dict(reversed(list(archer.items())))
    other = {**archer, "skills": {"Ranged": 2}}
    assert policy._fighter_key(other) != key
    assert policy._fighter_key(reordered) != policy._fighter_key(other)
    # a table that differs, in any order, never gets the Archer's key
    assert policy._fighter_key(dict(reversed(list(other.items())))) != key


def test_a_plan_without_its_reasons_is_the_same_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulated fight asks for its plans without reasons (nobody reads them): at every
    turn of whole fights — attacks, closing in, the Thief's Knot, getting away, the Dying
    withdrawing — that Plan is the explained one with no reasons, and the explained one
    (what ``npc plan`` and ``npc turn`` show) still gives each of them."""
    from d2d_cli.rules.core.record import replace

    start, goals = combat1()

    def checked(planned: Any, data: Any, name: str, goals_: Any, opts: Any,
                hand: Any = None, explain: bool = True) -> policy.Plan:
        got = planned(data, name, goals_, opts, hand, explain)
        full = planned(data, name, goals_, opts, hand)
        assert full.reasons and {r.step for r in full.reasons} >= {"action"}
        if explain:
            assert got == full
        else:  # no reasons; the chance unread where the odds choose nothing
            # (tests/test_sim_plan_target.py checks which plans those are)
            assert got == replace(full, reasons=(), chance=got.chance)
            assert got.chance == full.chance or (got.chance is None and not hand
                                                 and got.approach == "fate")
        return got

    plans = checking(monkeypatch, policy, "plan", checked)
    play(start, goals, 10)
    actions = {p.action for p in plans}
    assert actions >= {"attack", "task", "move", "none"}
    assert actions & {"away", "leave", "withdraw"}  # a rarer turn, its reasons dropped


def test_one_effects_count_is_the_one_the_whole_table_gives() -> None:
    """``effects.count`` reads one effect without copying the table: for every effect
    and every table of counts (none, zero, negative, several), what ``held`` gives —
    and so Push the Limit, Grit your Teeth and Evade's Move read the same."""
    import itertools

    from d2d_cli.rules.units import effects

    keys = (effects.PUSH, effects.GRIT, effects.EVADE_MOVE, effects.INTERACT)
    unit = Unit.from_state("Archer", {"body": "8x1", "speed": "5x0"})
    for counts in itertools.product((None, -1, 0, 1, 2), repeat=len(keys)):
        table = {k: n for k, n in zip(keys, counts, strict=True) if n is not None}
        unit.extra = {effects.EFFECTS: table} if table else {}
        for k in (*keys, effects.EVADE):
            assert effects.count(unit, k) == effects.held(unit).get(k, 0)
        assert effects.pushed(unit) == effects.held(unit).get(effects.PUSH, 0)
        assert effects.gritted(unit) is (effects.held(unit).get(effects.GRIT, 0) > 0)
        assert effects.for_actions(unit, 4) == 4 - min(
            4, effects.held(unit).get(effects.EVADE_MOVE, 0))


def test_the_round_end_reveals_for_the_conditions_with_an_event_as_before() -> None:
    """Round end reveals a Fate card for each unit's condition with an event (the
    conditions table's order, the roster's order, none for the Dead): the same list as
    a look at every condition of the table for every unit, for every mix of them."""
    import itertools

    from d2d_cli.rules.time import rounds
    from d2d_cli.rules.units import conditions

    table = conditions.table()
    evented = [k for k in table if table[k].event]
    assert evented  # Blood Loss and the like
    some = [*evented[:3], "stun", "dead"]
    roster = {}
    for i, held in enumerate(itertools.product((0, 1), repeat=len(some))):
        roster[f"U{i}"] = Unit.from_state(f"U{i}", {"body": "2x1", "conditions": dict(
            zip(some, held, strict=True))})
    before = [(u, k) for u in roster.values() for k in table
              if table[k].event and u.conditions.get(k, 0) > 0
              and not u.conditions.get("dead")]
    assert rounds.event_checks(roster) == before and len(before) > 10


def test_what_a_plan_reads_of_a_goal_is_that_goals_own() -> None:
    """The tasks a goal wants won, the units it wants down and those it wants off the
    map, worked out once per Goal: Combat #1's as its conditions say, and another Goal
    (another scene's, or the same words parsed again) gets its own."""
    start, goals = combat1()
    adventurers, goblins = goals["Adventurers"], goals["Goblins"]
    assert policy._goal_reads(adventurers) == (frozenset({"Knot"}), frozenset())
    assert set(policy._goal_away(adventurers)) == {"Archer", "Thief"}
    assert policy._goal_reads(goblins) == (frozenset(), frozenset({"Archer"}))
    assert policy._goal_away(goblins) == {}
    other = g.parse({"Goblins": {"any": [["down Thief"], ["task Knot won"]]}}, start)
    assert policy._goal_reads(other["Goblins"]) == (frozenset({"Knot"}),
                                                    frozenset({"Thief"}))
    assert policy._goal_reads(goblins)[1] == frozenset({"Archer"})  # not the other's


def test_a_weapon_table_is_read_on_a_miss_and_a_refused_one_every_time() -> None:
    """The weapon choice reads the unit's weapons only when it has nothing remembered
    for the reading: no weapons, no choice (Hand to Hand, 000 l.506); a refused table
    is refused at every look (never remembered), and the same table put right is chosen
    from as a fresh look chooses."""
    from d2d_cli.errors import BadInput

    start, _ = combat1()
    units = start["units"]
    units["Goblin Skirmisher"] = {**units["Goblin Skirmisher"], "weapons": {}}
    assert policy.choose_weapon(start, "Goblin Skirmisher", "Archer") == (None, None)
    bad = {"Bow": {"rating": "Body+2", "types": ["pierce"], "attack": "ranged",
                   "range": [24, 12]}}
    units["Archer"] = {**units["Archer"], "weapons": bad}
    for _ in range(2):
        with pytest.raises(BadInput, match="short < long"):
            policy.choose_weapon(start, "Archer", "Goblin Scout")
    units["Archer"] = {**units["Archer"], "weapons": {"Bow": {**bad["Bow"],
                                                              "range": [10, 20]}}}
    got = policy.choose_weapon(start, "Archer", "Goblin Scout")
    policy._WEAPON_CHOICE.clear()
    assert got[0] == "Bow" and policy.choose_weapon(start, "Archer", "Goblin Scout") == got


def test_the_weapons_text_remembered_is_the_fresh_repr_and_follows_a_new_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """movement.weapons_text (the planner's weapons part) is
    remembered for the very weapons table read: over whole fights, each time it is
    asked, the text given is repr of the table as it is then; a new weapons table (a
    unit given another weapon) gets its own text, the one it was built from keeps its."""
    start, goals = combat1()
    text = movement.weapons_text

    def checked(original: Any, weapons: Any) -> str:
        got = original(weapons)
        assert got == repr(weapons)
        return got

    asked = checking(monkeypatch, movement, "weapons_text", checked)
    play(start, goals, 9)
    assert len(asked) > 10 * FIGHTS
    bow = {"Bow": {"rating": "Body+2", "types": ["pierce"], "attack": "ranged"}}
    first = text(bow)
    other = {**bow, "Knife": {"rating": "Body+1", "types": ["cut"], "attack": "close"}}
    assert text(other) == repr(other) != first
    assert text(bow) == first == repr(bow)


def test_a_fights_terms_built_once_are_the_terms_told() -> None:
    """The engine's Terms for a Conflict or Hits (``--disadvantage``, ``--with``) are
    built once per value told: equal to a fresh Terms, and one immutable tuple."""
    from d2d_cli.rules.assistant import engine
    from d2d_cli.rules.combat import hits

    for told in [((), None), (("b",), None), ((), "Javelin"), (("a", "b"), "Bow")]:
        got = engine._terms(*told)
        assert got == Terms(disadvantage=told[0], with_=told[1])
        assert engine._terms(*told) is got and isinstance(got, tuple)
    assert Terms() == hits._NO_TERMS


def test_a_goal_is_reached_when_every_condition_of_one_alternative_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """goals.reached (plain loops, asked after every Action) says what "any alternative
    whose conditions all hold" says, for every way three alternatives of up to three
    conditions can hold (enumerated: 2^6 truth tables over the shapes below), and asks
    the conditions of each alternative in order, stopping at the first that fails."""
    import itertools

    conds = [g.Condition("clock", (), n) for n in range(6)]
    shapes = [((0,), (1, 2), (3, 4, 5)), ((0, 1, 2),), ((0,), (1,)), ()]
    for shape in shapes:
        goal = g.Goal("F", "", tuple(tuple(conds[i] for i in alt) for alt in shape))
        for truth in itertools.product((False, True), repeat=6):
            asked: list[int] = []

            def holds(c: g.Condition, faction: str, data: Any,
                      truth: tuple[bool, ...] = truth, asked: list[int] = asked) -> bool:
                assert faction == "F"
                asked.append(c.number)
                return truth[c.number]

            monkeypatch.setattr(g, "holds", holds)
            want = any(all(truth[i] for i in alt) for alt in shape)
            assert g.reached(goal, {}) is want
            expected: list[int] = []
            for alt in shape:
                for i in alt:
                    expected.append(i)
                    if not truth[i]:
                        break
                else:
                    break
            assert asked == expected


def test_can_respond_is_the_formula_it_was_for_every_reading() -> None:
    """Whether a unit's Move pays an Action (001 l.639, Evade's Move for Movement only,
    001 l.1024–1025) read without builtins gives what ``move - min(move, max(0,
    evading)) >= max(1, action_cost or 1)`` gave, for every Move, Evade's Move and
    Action Cost a table can hold (absent, None, 0, negative, text)."""
    from d2d_cli.rules.assistant.asking import can_respond
    from d2d_cli.rules.units.effects import EFFECTS, EVADE_MOVE

    missing = object()
    moves: list[Any] = [None, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, "3"]
    evades: list[Any] = [missing, None, 0, -1, 1, 2, 3, 4, 5, 6, 8, "2"]
    costs: list[Any] = [missing, None, 0, -1, 1, 2, 3, 4, "3"]
    seen = {True: 0, False: 0}
    for move in moves:
        for evading in evades:
            for cost in costs:
                unit: dict[str, Any] = {"move": move}
                if evading is not missing:
                    unit[EFFECTS] = {EVADE_MOVE: evading}
                if cost is not missing:
                    unit["action_cost"] = cost
                if move is None:
                    expected = False
                else:
                    m = int(move)
                    e = int(evading or 0) if evading is not missing else 0
                    expected = m - min(m, max(0, e)) >= max(1, int(cost or 1)
                                                           if cost is not missing else 1)
                assert can_respond(unit) is expected, unit
                seen[expected] += 1
    assert seen[True] > 50 and seen[False] > 50
    assert can_respond({"move": 2, "action_cost": 2, EFFECTS: {}})
    assert not can_respond({"move": 1, "action_cost": 2, EFFECTS: {}})
