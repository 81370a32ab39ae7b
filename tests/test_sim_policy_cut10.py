"""The policy's tenth cut (issue 40 item 1): a plan hands the way to its target the
Hidden unit's Move cap (``policy.walk_cap``) rather than a closure made at every plan,
the movement planners' key takes its parts positionally, and the goal's open task is
not looked for when the goal wants none won. Each short cut is checked against the
rule written out — the Move budgets as ``_walkable`` gives them, the task as the loop
over every task finds it — and tests/test_sim.py and tests/golden/ pin whole fights
byte for byte."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli.rules.assistant import movement, policy
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


class _Short:
    """A Movement that does not reach: ``_way_to`` goes on to keep one Action fewer."""

    in_reach = False


@pytest.mark.parametrize("cap", [None, 0, 1, 2, 3, 4, 9])
@pytest.mark.parametrize("move,cost", [(5, 2), (4, 2), (6, 3), (2, 2), (7, 1), (1, 0)])
def test_the_way_asks_each_budget_the_hidden_cap_allows(
        monkeypatch: pytest.MonkeyPatch, cap: int | None, move: int, cost: int) -> None:
    """Every budget ``_way_to`` asks of the planner is the Move less the Actions it keeps,
    and all the Move, each at most the Hidden unit's cap (``_walkable``: 000 l.804) —
    as the rule reads, for each number of Actions kept, the most first."""
    start, _ = combat1()
    data = copy.deepcopy(start)
    data["units"]["Archer"].update(move=move, action_cost=cost, turn=1)
    asked: list[tuple[Any, ...]] = []

    def approach(data: Any, name: str, target: str, budget: int, full: int, turn: int,
                 keep: int) -> Any:
        asked.append((budget, full, turn, keep))
        return _Short()

    monkeypatch.setattr(movement, "approach", approach)
    policy._way_to(data, "Archer", "Goblin Scout", cap)
    keeps = range(max(1, move // cost) if cost > 0 else 1, 0, -1)
    assert asked == [(policy._walkable(move - k * cost, cap), policy._walkable(move, cap),
                      1, k) for k in keeps]


def test_every_way_of_whole_fights_with_hidden_units_is_the_rule_written_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole fights, with every unit planted Hidden now and then (Stealth tokens, and
    some Move already walked Hidden): each plan's budgets are those of ``walk_cap`` and
    ``_walkable``, worked out afresh from the unit's table."""
    start, goals = combat1()
    seen: list[int] = []
    plan = policy._plan

    def planted(data: Any, name: str, *args: Any) -> Any:
        unit = data["units"][name]
        if len(seen) % 3 == 0 and unit.get("space"):
            unit = data["units"][name] = {**unit, "stealth": 1 + len(seen) % 4, "effects": {
                **(unit.get("effects") or {}), "moved_hidden": len(seen) % 2}}
        seen.append(1)
        return plan(data, name, *args)

    def checked(asked: Any, data: Any, name: str, target: str, budget: int, full: int,
                turn: int, keep: int) -> Any:
        unit = data["units"][name]
        cap = policy.walk_cap(unit)
        m, c = int(unit["move"]), int(unit["action_cost"])
        assert (budget, full) == (policy._walkable(m - keep * c, cap),
                                  policy._walkable(m, cap))
        return asked(data, name, target, budget, full, turn, keep)

    monkeypatch.setattr(policy, "_plan", planted)
    looks = checking(monkeypatch, movement, "approach", checked)
    play(start, goals, 4)
    assert len(looks) > 5 * FIGHTS


@pytest.mark.parametrize("wanted", [frozenset(), frozenset({"Knot"}), frozenset({"Door"}),
                                    frozenset({"Knot", "Door"})])
def test_the_goals_task_is_the_first_open_one_wanted_that_the_unit_works(
        wanted: frozenset[str]) -> None:
    """``_goal_task``, a goal that wants no task won included, against the rule: the
    first task in the session's order that the goal wants, the unit works, and is open."""
    tasks = {"Door": {"challenge": 2, "progress": 2, "workers": ["Thief", "Archer"]},
             "Knot": {"challenge": 4, "progress": 4, "workers": ["Thief"]},
             "Lock": {"challenge": 0, "progress": 1, "workers": ["Thief"]}}
    for name in ("Thief", "Archer", "Goblin Scout"):
        for order in (tasks, dict(reversed(tasks.items()))):
            data = {"tasks": order}
            rule = next((t for t, v in order.items() if t in wanted and name in v["workers"]
                         and v["challenge"] > 0 and v["progress"] > 0), None)
            assert policy._goal_task(name, data, wanted) == rule
