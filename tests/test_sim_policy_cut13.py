"""The policy's thirteenth cut (issue 40 item 1): a plan's small readers without the work
nobody reads — the way to the target takes no ``int`` of a whole number and reads the
Turn once, the weapon choice and its Range take no ``str`` of a text nor make an empty
table to read nothing from, a task's chance is Fate's only when no card is held, the
rarer turns (none, withdrawing, getting away) write no reasons in a fight's plan, and
the goal's alternatives that want a unit off the map are gathered once a Goal. Each is
checked against the rule as it was written before — over whole fights and on planted
values — and tests/test_sim.py and tests/golden/ pin whole fights byte for byte."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from d2d_cli.errors import D2DError
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import movement, policy
from d2d_cli.rules.board.grid import parse_space
from d2d_cli.rules.board.sight import distance
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.core.record import replace
from d2d_cli.rules.deck.cards import full_deck
from tests.test_sim_plan_speed import getting_away_as_written_before
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


class _Way:
    def __init__(self, in_reach: bool) -> None:
        self.in_reach = in_reach


def _budgets_as_before(unit: dict[str, Any], cap: int | None,
                       reach_at: set[int]) -> list[tuple[int, int, int, int]]:
    """The budgets ``_way_to`` asked as it was written before: ``int`` of the Move, the
    Action Cost and the Turn, a ``range`` of the Actions kept, the most first, until a
    Space is in reach or none is asked (``reach_at``: the numbers kept where it stops)."""
    move, cost = unit.get("move"), unit.get("action_cost")
    asked: list[tuple[int, int, int, int]] = []
    if move is not None and cost is not None:
        m, c = int(move), int(cost)
        full = policy._walkable(m, cap)
        for keep in range(max(1, m // c) if c > 0 else 1, 0, -1):
            asked.append((policy._walkable(m - keep * c, cap), full,
                          int(unit.get("turn") or 0), keep))
            if keep in reach_at:
                break
    return asked


@pytest.mark.parametrize("turn", [None, 0, 1, 2, "2", True, False, 2.0, "0"])
@pytest.mark.parametrize("move,cost", [(5, 2), ("4", 2), (6, "3"), (2, 2), (7, 1), (1, 0),
                                       (True, 1), (3.0, 1), (None, 2), (3, None), (0, 2)])
def test_the_way_asks_the_budgets_and_turn_the_rule_gave(
        monkeypatch: pytest.MonkeyPatch, turn: Any, move: Any, cost: Any) -> None:
    """For Moves, Action Costs and Turns stored as whole numbers, texts, booleans and
    floats (and none), with a Space in reach at every number of Actions kept or none:
    ``_way_to`` asks the planner the very budgets, Turn and Actions kept, in the order,
    that the loop as written before asked, and gives its last answer."""
    start, _ = combat1()
    for cap, reach_at in itertools.product((None, 0, 2), ({1}, {2}, {3}, set(), {1, 2})):
        data = copy.deepcopy(start)
        unit = data["units"]["Archer"]
        for k, v in (("move", move), ("action_cost", cost), ("turn", turn)):
            unit.pop(k, None)
            if v is not None:
                unit[k] = v
        asked: list[tuple[Any, ...]] = []

        def approach(data: Any, name: str, target: str, budget: int, full: int, turn: int,
                     keep: int, reach_at: set[int] = reach_at,
                     asked: list[tuple[Any, ...]] = asked) -> Any:
            asked.append((budget, full, turn, keep))
            return _Way(keep in reach_at)

        monkeypatch.setattr(movement, "approach", approach)
        got = policy._way_to(data, "Archer", "Goblin Scout", cap)
        want = _budgets_as_before(unit, cap, reach_at)
        assert asked == want
        assert [type(a[2]) for a in asked] == [int] * len(want)  # the Turn as a number
        assert (got is None) == (not want)
        if want:
            assert got.in_reach == (want[-1][3] in reach_at)


def _range_as_before(data: Any, name: str, target: str, space: Any) -> Any:
    units = data.get("units", {})
    there = space or units[name].get("space")
    them = units.get(target, {}).get("space")
    if not there or not them or not data.get("board"):
        return None
    return distance(parse_space(str(there)), parse_space(str(them)))


def test_a_range_of_spaces_of_every_kind_is_the_one_measured_from_their_text() -> None:
    """Spaces stored as texts, in another case, missing, and a Rival not in the session:
    the Range is the one measured from both Spaces' text, or None, and a Space whose text
    is refused raises at every look."""
    start, _ = combat1()
    for there, them, space in itertools.product(("C7", "c7", None, ""), ("E9", "e9", None),
                                                (None, "B2", "b3")):
        units = copy.deepcopy(start["units"])
        for n, s in (("Archer", there), ("Goblin Scout", them)):
            units[n].pop("space", None)
            if s is not None:
                units[n]["space"] = s
        data = {**start, "units": units}
        for target in ("Goblin Scout", "Nobody"):
            assert policy._range_to(data, "Archer", target, space) == _range_as_before(
                data, "Archer", target, space)
        assert policy._range_to({**data, "board": None}, "Archer", "Goblin Scout",
                                space) is None
    units = {**start["units"], "Archer": {**start["units"]["Archer"], "space": "7C"}}
    for _ in range(2):
        with pytest.raises(D2DError):
            policy._range_to({**start, "units": units}, "Archer", "Goblin Scout", None)


@pytest.mark.parametrize("armor", [None, "4x1", "6x1", {"Leather": "3x1"}, {},
                                   {"Plate": "6x1", "Leather": "3x1"}])
def test_a_weapon_chosen_against_one_armor_is_never_handed_to_another(armor: Any) -> None:
    """The weapon choice is remembered by the Rival's armor (None when it has none, any
    other by its ``repr``): each armor, asked right after another's choice was kept, gets
    the choice worked out afresh for it (its reason names the armor it goes through)."""
    start, _ = combat1()
    data = copy.deepcopy(start)
    for n, s in (("Archer", "C7"), ("Goblin Scout", "E9")):
        data["units"][n]["space"] = s
    for before in (None, "4x1", {"Leather": "3x1"}):
        for rival_armor in (before, armor):
            rival = {k: v for k, v in data["units"]["Goblin Scout"].items() if k != "armor"}
            if rival_armor is not None:
                rival["armor"] = rival_armor
            data["units"] = {**data["units"], "Goblin Scout": rival}
            got = policy.choose_weapon(data, "Archer", "Goblin Scout")
            saved = dict(policy._WEAPON_CHOICE)
            policy._WEAPON_CHOICE.clear()
            try:
                assert policy.choose_weapon(data, "Archer", "Goblin Scout") == got
            finally:
                policy._WEAPON_CHOICE.clear()
                policy._WEAPON_CHOICE.update(saved)


def _task_plan_as_before(name: str, faction: Any, task: str, opts: Any,
                         hand: Any) -> tuple[str, float]:
    """A task's approach and chance as ``_task_plan`` worked them out before: Fate's own
    chance at Levels (0, 0), replaced by the best card's when a card is held."""
    approach, chance = ("fate", policy.win_chance("fate", "fate", 0, 0, opts.conflict_chart,
                                                  opts.fate_orientation,
                                                  opts.level_bonus)[0])
    if hand:
        approach, chance = policy.best_card(hand, (0, 0), opts, attacking=True)
    return approach, chance


def test_a_tasks_card_and_chance_are_the_rules_with_and_without_a_hand() -> None:
    """No hand, an empty hand, and 200 seeded hands of one to seven cards: the task's
    approach and chance, explained or not, are the ones the rule as written before gave,
    and the explained plan gives its reasons."""
    import random

    deck = list(full_deck())
    rng = random.Random(13)
    hands: list[Any] = [None, [], *([rng.sample(deck, rng.randint(1, 7)) for _ in range(200)])]
    for hand in hands:
        want = _task_plan_as_before("Thief", "Adventurers", "Knot", DEFAULTS, hand)
        for explain in (True, False):
            p = policy._task_plan("Thief", "Adventurers", "Knot", DEFAULTS, hand, explain)
            assert (p.approach, p.chance) == want
            assert bool(p.reasons) is explain


def _reasonless(planned: Any, data: Any, name: str, goals: Any, hand: Any = None,
                opts: Any = DEFAULTS) -> Any:
    """A fight's plan (no reasons) checked against the explained one."""
    got = planned(data, name, goals, opts, hand, False)
    full = planned(data, name, goals, opts, hand)
    assert full.reasons
    assert got == replace(full, reasons=(), chance=got.chance)
    return got


def test_the_rarer_turns_without_reasons_are_the_explained_ones_planted() -> None:
    """Turns planted that whole fights seldom play: a unit gone off the map, no Rival in
    view (each Hidden) and none standing, the Thief still bound by a failed Knot, a Dying
    unit with and without a way away and a Dead one, getting away to the edge and off
    it — a fight's plan of each is the explained one without its reasons, moves and
    steps kept."""
    start, goals = combat1()
    base = copy.deepcopy(start)
    for u, (space, facing) in {"Archer": ("C7", "NE"), "Goblin Scout": ("E9", "SW"),
                               "Goblin Skirmisher": ("H4", "W"), "Thief": ("K1", "S")
                               }.items():
        base["units"][u].update(space=space, facing=facing, move=3, action_cost=2,
                                turn=2)
    seen: set[str] = set()

    def planted(**changes: dict[str, Any]) -> dict[str, Any]:
        data = copy.deepcopy(base)
        for n, c in changes.items():
            data["units"][n.replace("_", " ")].update(c)
        return data

    cases = [
        ("Archer", planted(Archer={"off_map": True})),
        ("Archer", planted(Goblin_Scout={"stealth": 2},
                           Goblin_Skirmisher={"stealth": 1})),
        ("Archer", planted(Goblin_Scout={"conditions": {"dead": True}},
                           Goblin_Skirmisher={"conditions": {"dying": True}})),
        ("Goblin Scout", planted(Goblin_Scout={"conditions": {"dying": True}})),
        ("Goblin Scout", planted(Goblin_Scout={"conditions": {"dead": True}})),
        ("Goblin Scout", planted(Goblin_Scout={"conditions": {"dying": True}, "move": 0})),
        ("Goblin Scout", planted(Goblin_Scout={"conditions": {"dying": True},
                                               "space": "A10", "facing": "S"},
                                 Archer={"space": "H10"})),
    ]
    failed = planted()
    failed["tasks"]["Knot"].update(progress=0, challenge=2)
    failed["units"]["Thief"]["bound"] = "Restrict:Bind:4 tied with a Knot:4"
    cases.append(("Thief", failed))
    for edge, move in (("A1", 9), ("B2", 9), ("F6", 2), ("F6", 9)):
        free = planted(Archer={"space": edge, "facing": "N", "move": move})
        free["tasks"]["Knot"].update(progress=0, challenge=0)
        free["units"]["Thief"].pop("bound", None)
        cases.append(("Archer", free))
        cases.append(("Thief", copy.deepcopy(free)))
    for name, data in cases:
        p = _reasonless(policy.plan, data, name, goals)
        seen.add(p.action)
        if p.action in ("away", "leave", "withdraw") and p.moves:
            seen.add(p.action + " moving")
    assert seen >= {"none", "withdraw", "withdraw moving", "away", "leave"}


def test_getting_away_of_planted_goals_is_the_alternatives_read_in_order() -> None:
    """Goals planted with a unit wanted off the map by several alternatives (the first
    not holding, the second holding; both holding), two off-map conditions in one, an
    alternative of off-map conditions alone, and none: for every unit, every state of
    the Knot, bound or not, the answer is the one every alternative read in order gave."""
    start, _ = combat1()
    C = g.Condition
    knot_won, knot_lost = C("task_won", ("Knot",)), C("task_lost", ("Knot",))
    away_a, away_t = C("off_map", ("Archer",)), C("off_map", ("Archer", "Thief"))
    down = C("down", ("Goblin Scout",))
    goals = [
        g.Goal("Adventurers", "x", ((knot_won, away_t), (knot_won, C("rivals_down")))),
        g.Goal("Adventurers", "x", ((knot_lost, away_a), (knot_won, away_t))),
        g.Goal("Adventurers", "x", ((down, away_a, away_t), (away_t,))),
        g.Goal("Adventurers", "x", ((away_a,), (knot_won, away_t))),
        g.Goal("Adventurers", "x", ((knot_won, down),)),
        g.Goal("Adventurers", "x", ((knot_won, away_a), (down, away_a), (away_t,))),
    ]
    answers = set()
    for goal in goals:
        for progress, challenge, bound, dead in itertools.product(
                (0, 1), (0, 2), (None, "Restrict:Bind:4"), (False, True)):
            data = copy.deepcopy(start)
            data["tasks"]["Knot"].update(progress=progress, challenge=challenge)
            if bound is None:
                data["units"]["Thief"].pop("bound", None)
            else:
                data["units"]["Thief"]["bound"] = bound
            data["units"]["Goblin Scout"]["conditions"] = {"dead": True} if dead else {}
            for name in data["units"]:
                got = policy._getting_away(name, data, goal)
                assert got == getting_away_as_written_before(name, data, goal), (goal, name)
                answers.add(got)
    assert len(answers) >= 4  # None and several alternatives' texts


def test_every_turn_of_whole_fights_is_the_rule_written_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole fights: every way asked is the budgets of the loop written before, every
    Range the one measured from the Spaces' text, every getting-away answer the goal's
    alternatives read in order — and every fight's plan the explained one without its
    reasons."""
    start, goals = combat1()

    def way(asked: Any, data: Any, name: str, target: str, cap: Any) -> Any:
        budgets: list[tuple[Any, ...]] = []
        original = movement.approach

        def approach(*args: Any) -> Any:
            budgets.append(args[3:])
            return original(*args)

        movement.approach = approach  # type: ignore[assignment]
        try:
            got = asked(data, name, target, cap)
        finally:
            movement.approach = original  # type: ignore[assignment]
        # the numbers kept where the loop stops: a Space in reach, or off the map (None)
        reach_at = set()
        for b in budgets:
            w = original(data, name, target, *b)
            if w is None or w.in_reach:
                reach_at.add(b[3])
        assert budgets == _budgets_as_before(data["units"][name], cap, reach_at)
        return got

    def rng(asked: Any, data: Any, name: str, target: str, space: Any) -> Any:
        got = asked(data, name, target, space)
        assert got == _range_as_before(data, name, target, space)
        return got

    def away(asked: Any, name: str, data: Any, goal: Any) -> Any:
        got = asked(name, data, goal)
        assert got == getting_away_as_written_before(name, data, goal)
        return got

    def planned(asked: Any, data: Any, name: str, goals_: Any, opts: Any,
                hand: Any = None, explain: bool = True) -> Any:
        if explain:
            return asked(data, name, goals_, opts, hand, explain)
        return _reasonless(asked, data, name, goals_, hand, opts)

    ways = checking(monkeypatch, policy, "_way_to", way)
    ranges = checking(monkeypatch, policy, "_range_to", rng)
    aways = checking(monkeypatch, policy, "_getting_away", away)
    plans = checking(monkeypatch, policy, "plan", planned)
    play(start, goals, 13)
    assert len(ways) > 5 * FIGHTS and any(r is not None for r in ranges)
    assert any(w is not None for w in aways)
    assert {p.action for p in plans} >= {"attack", "task", "move", "none"}
