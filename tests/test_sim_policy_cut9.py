"""The policy's ninth cut (issue 40 item 1): the movement planners' key reads the moving
unit's skills as the plan reads them (their items, not their ``repr``), a Rival's
Range for the weapon choice is remembered by the two Spaces' texts, and a unit without
Stealth tokens is not Hidden without an ``int``. Each short cut is checked here against
the full path — the plan worked out afresh, the Range measured afresh, the rule as
written before — over whole fights and on planted changes the key must see;
tests/test_sim.py and tests/golden/ pin whole fights byte for byte."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from d2d_cli.errors import BadInput
from d2d_cli.rules.assistant import movement, policy
from d2d_cli.rules.board.grid import parse_space
from d2d_cli.rules.board.sight import distance
from d2d_cli.rules.core.options import DEFAULTS
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def _answer(rule: Any, unit: Any) -> Any:
    """What ``rule`` answers of ``unit``, or the type of error it raises."""
    try:
        return rule(unit)
    except (TypeError, ValueError) as e:
        return type(e)


def _scout_against_the_archer(skills: Any) -> dict[str, Any]:
    start, _ = combat1()
    units = dict(start["units"])
    units["Goblin Scout"] = {**units["Goblin Scout"], "move": 3, "turn": 2,
                             "skills": skills}
    return {**start, "units": units}


def test_a_skill_the_plan_reads_is_a_new_plan_not_the_one_remembered() -> None:
    """Planted: the Scout given a Ranged skill attacks from where it stands, where
    without it (or at Level 0) it closes in — each plan, asked after the others filled
    the memory, is the one worked out afresh; Levels alike in value are one reading."""
    asked = ("Goblin Scout", "Archer", 1, 3, 2)
    plain = {"Close Combat": 1, "Stealth": 1}
    ranged = {"Close Combat": 1, "Stealth": 1, "Ranged": 1}
    zero = {"Close Combat": 1, "Stealth": 1, "Ranged": 0}
    plans = {}
    for skills in (plain, ranged, zero, {"Stealth": True, "Close Combat": 1.0}, ranged):
        data = _scout_against_the_archer(skills)
        got = movement.approach(data, *asked)
        assert got == movement._approach(data, *asked), skills
        plans[repr(skills)] = got
    assert plans[repr(plain)] != plans[repr(ranged)]  # a change the key must see
    assert plans[repr(zero)] == plans[repr(plain)]


def test_the_planners_key_tells_apart_every_reading_of_the_skills() -> None:
    """Names, Levels and their order each change the key; a table with none is one with
    no table; Levels equal in value (1, True, 1.0: ``int`` reads them alike) are one."""
    def key(skills: Any) -> Any:
        return movement._key(_scout_against_the_archer(skills), ("x",),
                             mover="Goblin Scout")

    told = [{"Close Combat": 1}, {"Close Combat": 2}, {"Close Combat": 0},
            {"Ranged": 1}, {"Close Combat": 1, "Ranged": 1},
            {"Ranged": 1, "Close Combat": 1}, {"Close Combat": "1"}]
    assert len({key(s) for s in told}) == len(told)
    assert key({}) == key(None) != key({"Close Combat": 1})
    assert key({"Close Combat": 1}) == key({"Close Combat": True}) == \
        key({"Close Combat": 1.0})


def test_every_range_of_the_weapon_choice_is_measured_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every weapon choice of whole fights the Range remembered by the two Spaces'
    texts is the one measured afresh from them."""
    start, goals = combat1()

    def checked(asked: Any, data: Any, name: str, target: str, space: Any) -> Any:
        got = asked(data, name, target, space)
        units = data.get("units", {})
        there = space or units[name].get("space")
        them = units.get(target, {}).get("space")
        fresh = None if not there or not them or not data.get("board") else distance(
            parse_space(str(there)), parse_space(str(them)))
        assert got == fresh
        return got

    looks = checking(monkeypatch, policy, "_range_to", checked)
    play(start, goals, 4)
    assert len(looks) > 5 * FIGHTS and any(r is not None for r in looks)


def test_a_range_follows_the_spaces_and_a_refused_space_raises_at_every_look() -> None:
    start, _ = combat1()
    for there in ("A1", "E9", "e9", "K12", "D8"):
        for them in ("E9", "C5", "A1"):
            units = {**start["units"], "Archer": {**start["units"]["Archer"],
                                                  "space": there}}
            data = {**start, "units": units}
            want = distance(parse_space(there), parse_space(them))
            units["Goblin Scout"] = {**units["Goblin Scout"], "space": them}
            assert policy._range_to(data, "Archer", "Goblin Scout", None) == want
            assert policy._range_to(data, "Goblin Scout", "Archer", "B2") == distance(
                parse_space("B2"), parse_space(there))
    units = {**start["units"], "Archer": {**start["units"]["Archer"], "space": "9E"}}
    for _ in range(2):
        with pytest.raises(BadInput):
            policy._range_to({**start, "units": units}, "Archer", "Goblin Scout", None)


def test_hidden_is_the_rule_as_written_before_for_every_kind_of_token_count() -> None:
    """``int(stealth or 0) > 0``, a refusal where it refused — the early exit takes only
    what that reads as 0."""
    def before(unit: Any) -> Any:
        return int(unit.get("stealth", 0) or 0) > 0

    values: list[Any] = [0, 1, 2, -1, "0", "3", "", None, False, True, 0.0, 0.5, 1.5,
                         "x", [], [1]]
    for v, absent in itertools.product(values, (False, True)):
        unit = {} if absent else {"stealth": v}
        want, got = _answer(before, unit), _answer(policy.hidden, unit)
        assert got == want, (v, absent)
        if want in (True, False):
            cap = policy.walk_cap({**unit, "effects": {"moved_hidden": 1}})
            assert (cap is None) is (not want)


def test_the_rivals_and_candidates_of_every_plan_of_whole_fights_are_the_rules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Gathered by plain loops: at every target choice of whole fights the Rivals in
    view are those of another faction, not down, not off the map, not Hidden, in roster
    order (docs/solo.md "The NPC policy", step 3); and planted, each Goblin but one
    Hidden, down or off the map in turn, the one left is the Archer's only Rival."""
    start, goals = combat1()

    def checked(asked: Any, data: Any, name: str, rivals: list[str], *args: Any) -> Any:
        units = data["units"]
        mine = units[name].get("faction")
        assert rivals == [n for n, u in units.items() if u.get("faction") != mine
                          and not policy.is_down(u) and not u.get("off_map")
                          and not int(u.get("stealth", 0) or 0) > 0]
        return asked(data, name, rivals, *args)

    looks = checking(monkeypatch, policy, "_target", checked)
    play(start, goals, 6)
    assert len(looks) > 10 * FIGHTS

    start, goals = combat1()
    start["units"]["Archer"] = {**start["units"]["Archer"], "move": 2, "action_cost": 2,
                                "turn": 2}
    goblins = [n for n, u in start["units"].items() if u.get("faction") == "Goblins"]
    for gone in ({"stealth": 2}, {"conditions": {"dying": 1}}, {"off_map": True}):
        for left in goblins:
            units = {n: ({**u, **gone} if n in goblins and n != left else u)
                     for n, u in start["units"].items()}
            looks.clear()
            got = policy.plan({**start, "units": units}, "Archer", goals, DEFAULTS)
            assert got.target == left and len(looks) == 1, (gone, left, got)


def test_can_respond_is_the_rule_as_written_before_for_every_kind_of_value() -> None:
    """Whether a unit's Move pays an Action (001 l.639): no ``int`` taken of what is an
    int already, and no Evade's Move read as 0 — the same answer, or the same refusal,
    as the rule written before for every Move, Evade's Move and Action Cost."""
    from d2d_cli.rules.assistant.asking import can_respond
    from d2d_cli.rules.units.effects import EFFECTS, EVADE_MOVE

    def before(unit: Any) -> Any:
        move = unit.get("move")
        if move is None:
            return False
        move = int(move)
        effects = unit.get(EFFECTS)
        if effects:
            evading = int(effects.get(EVADE_MOVE, 0) or 0)
            if evading > 0:
                move = move - evading if evading < move else 0
        cost = int(unit.get("action_cost") or 1)
        return move >= (cost if cost > 1 else 1)

    moves: list[Any] = [None, 0, 1, 2, 3, 5, -1, "2", 2.0, 2.5, True, False, "x"]
    evades: list[Any] = [0, 1, 2, 3, 5, -1, "1", "0", None, 0.5, 1.5, True, False, ""]
    effects: list[Any] = [None, {}, {"interact": 1},
                          *({EVADE_MOVE: v, "interact": 1} for v in evades)]
    costs: list[Any] = [None, 0, 1, 2, 3, -2, "2", "0", 2.5, True, False, "x"]
    asked = 0
    for move, eff, cost in itertools.product(moves, effects, costs):
        unit = {k: v for k, v in (("move", move), (EFFECTS, eff), ("action_cost", cost))
                if v is not None}
        want, got = _answer(before, unit), _answer(can_respond, unit)
        assert got == want, unit
        asked += 1
    assert asked == len(moves) * len(effects) * len(costs)


def test_a_score_table_finds_a_card_by_the_very_card_it_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A card is looked up in the best card's score table by its identity, the card held
    beside its faces: an entry under its id that holds another card (an id reused) is
    not read — the card is scored afresh — and an equal card built anew gets the same
    choice; every choice is the one written from the rule."""
    from d2d_cli.rules.deck.cards import Card, full_deck
    from tests.test_sim_policy_tables import best_by_the_rule

    monkeypatch.setattr(policy, "_SCORES", {})
    deck = list(full_deck())
    o = DEFAULTS
    for attacking in (True, False):
        strong = max(deck, key=lambda c: policy.best_card(
            [c], (1, 1), o, attacking=attacking)[1])
        weak = min(deck, key=lambda c: policy.best_card(
            [c], (1, 1), o, attacking=attacking)[1])
        _, table = policy._scores(1, 1, o.conflict_chart, o.fate_orientation,
                                  o.level_bonus, attacking, False)
        table[id(weak)] = (strong, table[id(strong)][1])  # planted: another card's faces
        assert policy.best_card([weak], (1, 1), o, attacking=attacking) == \
            best_by_the_rule([weak], 1, 1, attacking, False) != \
            policy.best_card([strong], (1, 1), o, attacking=attacking)
        anew = Card(weak.rank, weak.suit, weak.upper, weak.wild_color)
        assert anew is not weak
        assert policy.best_card([anew, strong], (1, 1), o, attacking=attacking) == \
            best_by_the_rule([weak, strong], 1, 1, attacking, False)


def test_skill_for_is_the_rule_as_written_before_for_every_kind_of_skills_table() -> None:
    """The skill a unit fights with, each name's skill looked up once: the same answer,
    or the same refusal, as the rule written before — asked twice of each table, so the
    second reads the names remembered by the first and by every table before it."""
    from d2d_cli.rules.combat.situation import known_skill

    def before(unit: Any) -> Any:
        for name, level in unit.get("skills", {}).items():
            sk = known_skill(name)
            if sk is not None and int(level) > 0 and sk.category == "Combat":
                return None
        return "none"

    names = ["Ranged", "ranged", "Close Combat", "close_combat", "Stealth", "Nonesuch",
             "Melee", "Athletics"]
    levels: list[Any] = [0, 1, 2, -1, "1", "0", True, False, 1.5, "x"]
    tables: list[Any] = [{}, None]
    for size in (1, 2):
        for picked in itertools.permutations(names, size):
            for lv in itertools.product(levels, repeat=size):
                tables.append(dict(zip(picked, lv, strict=True)))
    for skills in tables:
        unit = {} if skills is None else {"skills": skills}
        for _ in range(2):
            want, got = _answer(before, unit), _answer(policy.skill_for, unit)
            assert got == want, skills
