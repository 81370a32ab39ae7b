"""The target choice reads less and picks the same Rival (issue 40 item 1): its own
unit's fighter key read once for all its candidates, the least of them found in one pass
(the first of equals, as the stable sort before it), a lone candidate taken without its
Difficulty and Crits, and the units a task holds read only when no Rival in view is
named by the goal. Each answer of whole fights is checked against the choice written
from the rule (docs/solo.md "The NPC policy", step 3) with Levels assessed afresh;
tests/test_sim.py and tests/golden/ pin whole fights byte for byte."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.rules.assistant import policy
from d2d_cli.rules.combat.situation import Terms, Who, assess
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.units.roster import Unit
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def fresh_levels(data: Any, a: str, b: str) -> tuple[int, int]:
    units = data["units"]
    sit = assess(Who(Unit.from_state(a, units[a]), None),
                 Who(Unit.from_state(b, units[b]), None, "--level-b"), Terms(),
                 skill=policy.skill_for(units[a]))
    return sit.a.level, sit.b.level


def candidates(data: Any, name: str, rivals: list[str], named: Any) -> list[str]:
    """The unit's own target if a Rival; else those the goal names, then those no task
    holds, then all."""
    units = data["units"]
    held = policy._held(data)  # read whatever the goal names
    first = [n for n in rivals if n in named] or [n for n in rivals if n not in held] \
        or rivals
    if units[name].get("target") in rivals:
        first = [units[name]["target"]]
    return first


def target_by_the_rule(data: Any, name: str, rivals: list[str], named: Any, opts: Any,
                       hand: Any) -> tuple[str, str, float]:
    """Step 3 as written: the :func:`candidates` sorted by the best chance to win (the
    best card of the hand, or Fate's, at Levels assessed afresh), the lowest Difficulty,
    the most Crits — the first of the sorted list."""
    units = data["units"]
    first = candidates(data, name, rivals, named)
    scored = []
    for n in first:
        levels = fresh_levels(data, name, n)
        if hand:
            approach, p = policy.best_card(list(hand), levels, opts, attacking=True)
        else:
            approach, p = "fate", policy.win_chance(
                "fate", "fate", *levels, opts.conflict_chart, opts.fate_orientation,
                opts.level_bonus)[0]
        body = int(str(units[n].get("body", "0x0")).split("x")[0])
        scored.append(((-round(p, 12), body, -len(units[n].get("crits", []))),
                       (n, approach, p)))
    return sorted(scored, key=lambda s: s[0])[0][1]


def test_every_target_of_whole_fights_is_the_one_the_rule_chooses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every target choice of whole fights (Players' hands and Non-Players, a lone
    candidate and several), the Rival, card and chance are those the rule written out
    gives with every Level assessed afresh and the held units always read — but for a
    fight's plan (no reasons) of a unit with no card to play at its one candidate, whose
    chance nobody reads: that one is None (its Levels are not worked out)."""
    start, goals = combat1()
    many: list[int] = []
    unread: list[str] = []

    def checked(asked: Any, data: Any, name: str, rivals: list[str], named: Any,
                held: Any, opts: Any, hand: Any, explain: bool = True) -> Any:
        got = asked(data, name, rivals, named, held, opts, hand, explain)
        rule = target_by_the_rule(data, name, rivals, named, opts, hand)
        if not explain and not hand and len(candidates(data, name, rivals, named)) == 1:
            assert got[:3] == (*rule[:2], None)
            unread.append(name)
        else:
            assert got[:3] == rule
        many.append(len(rivals))
        return got

    looks = checking(monkeypatch, policy, "_target", checked)
    play(start, goals, 4)
    assert len(looks) > 5 * FIGHTS and 1 in many and max(many) > 1
    assert unread and len(unread) < len(looks)  # both kinds were asked


def _two_skirmishers() -> tuple[dict[str, Any], list[str]]:
    data, _ = combat1()
    units = data["units"]
    skirmisher = units["Goblin Skirmisher"]
    units["Goblin Skirmisher 2"] = {**skirmisher, "space": "D5"}
    return data, ["Goblin Skirmisher", "Goblin Skirmisher 2"]


def test_alike_rivals_give_the_first_then_the_easier_then_the_one_with_more_crits() -> None:
    """Two Rivals alike: the first in roster order (the stable sort's choice); the
    second at a lower Difficulty: the second; alike but for a Crit held: the one with
    more Crits; a chance to win always counts first."""
    hand = [parse_card(c) for c in ("2H^", "8Dv", "10C^")]
    for h in (None, hand):
        data, rivals = _two_skirmishers()
        assert policy._target(data, "Archer", rivals, frozenset(), set(), DEFAULTS, h,
                              explain=False)[0] == "Goblin Skirmisher"
        data["units"]["Goblin Skirmisher"]["crits"] = ["Body:1"]
        assert policy._target(data, "Archer", rivals, frozenset(), set(), DEFAULTS, h,
                              explain=False)[0] == "Goblin Skirmisher"
        data["units"]["Goblin Skirmisher 2"]["crits"] = ["Body:1", "Body:2"]
        assert policy._target(data, "Archer", rivals, frozenset(), set(), DEFAULTS, h,
                              explain=False)[0] == "Goblin Skirmisher 2"
        data, rivals = _two_skirmishers()
        data["units"]["Goblin Skirmisher 2"]["body"] = "1x1"  # Difficulty 1, not 2
        got = policy._target(data, "Archer", rivals, frozenset(), set(), DEFAULTS, h,
                             explain=False)
        assert got[:3] == target_by_the_rule(data, "Archer", rivals, frozenset(),
                                             DEFAULTS, h)


def test_a_rival_held_by_a_task_is_passed_over_unless_the_goal_names_one() -> None:
    """The Thief held by the Knot (a prisoner, not a fighter) is not the Scout's
    target when another Rival stands; when the goal names a Rival in view, that one is
    chosen whoever is held (the held units are then not read)."""
    data, goals = combat1()
    rivals = ["Archer", "Thief"]
    held = policy._held(data)
    assert "Thief" in held
    assert policy._target(data, "Goblin Scout", ["Thief", "Archer"], frozenset(), held,
                          DEFAULTS, None, explain=False)[0] == "Archer"
    plan = policy.plan(data, "Goblin Skirmisher", goals, DEFAULTS, explain=False)
    assert plan.target == "Archer" and "Archer" in policy._goal_reads(goals["Goblins"])[1]
    assert policy._target(data, "Goblin Scout", rivals, frozenset({"Thief"}), set(),
                          DEFAULTS, None, explain=False)[0] == "Thief"
    # The Archer Hidden (no Rival in view the goal names): the held Thief is read as
    # held, and a Squire alike but free, after him in the roster, is the target
    units = data["units"]
    units["Archer"] = {**units["Archer"], "stealth": 1}
    units["Squire"] = {k: v for k, v in units["Thief"].items() if k != "bound"}
    units["Squire"]["space"] = "H1"
    plan = policy.plan(data, "Goblin Scout", goals, DEFAULTS, explain=False)
    assert plan.target == "Squire"


def test_a_fights_plan_leaves_out_the_levels_only_where_the_odds_choose_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight's plan (no reasons) reads no Levels only for a unit with no card to play
    at its one candidate: there the chance is None and no fighter key is read. With a
    hand at one candidate the card (and its chance) is the rule's; with no hand and two
    candidates the chance is worked out; explained, the lone Non-Player's chance is
    given too."""
    data, goals = combat1()
    hand = [parse_card(c) for c in ("2H^", "8Dv", "10C^")]
    got = policy._target(data, "Archer", ["Goblin Scout"], frozenset(), set(), DEFAULTS,
                         hand, explain=False)
    levels = fresh_levels(data, "Archer", "Goblin Scout")
    assert got[:3] == ("Goblin Scout",
                       *policy.best_card(hand, levels, DEFAULTS, attacking=True))
    assert got[1] != "fate" and got[2] is not None  # the odds chose a card
    two, rivals = _two_skirmishers()
    got = policy._target(two, "Archer", rivals, frozenset(), set(), DEFAULTS, None,
                         explain=False)
    assert got[:3] == target_by_the_rule(two, "Archer", rivals, frozenset(), DEFAULTS, None)
    keys = ("fate", DEFAULTS.conflict_chart, DEFAULTS.fate_orientation,
            DEFAULTS.level_bonus)
    full = policy.plan(data, "Goblin Scout", goals, DEFAULTS)
    assert full.target == "Archer" and full.chance == policy.win_chance(
        "fate", keys[0], *fresh_levels(data, "Goblin Scout", "Archer"), *keys[1:])[0]

    def no_key(unit: Any) -> int:
        raise AssertionError("a fighter key read")

    monkeypatch.setattr(policy, "_fighter_key", no_key)
    got_plan = policy.plan(data, "Goblin Scout", goals, DEFAULTS, explain=False)
    assert (got_plan.target, got_plan.approach, got_plan.chance) == ("Archer", "fate", None)
    with pytest.raises(AssertionError, match="fighter key"):
        policy._target(data, "Archer", ["Goblin Scout"], frozenset(), set(), DEFAULTS,
                       hand, explain=False)
