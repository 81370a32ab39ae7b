"""Powers (issue 12 item 8): the Price of Power, Effect points, Area and the upkeep of
Continuous powers (000 "Powers", l.862–885)."""

from __future__ import annotations

from pathlib import Path

import pytest

from d2d_cli.rules.units import powers
from tests.helpers import Runner, assert_refused, check_quotes, rule_text, with_rules
from tests.test_round_tokens import add


@pytest.fixture
def mage(d2d: Runner) -> Runner:
    add(d2d, "Mage", "4x0", "--skill", "Fire=3")
    return d2d


def test_the_table_quotes_the_text() -> None:
    t = powers.table()
    sources = [t["standard"]["source"], *t["effects"].values()]
    assert sum(check_quotes(s) for s in sources) == 7


def test_area_rows_are_the_printed_ones() -> None:
    # 000 l.880–884 "1 point - 1 space / 2 points - Area Effect:1 / 3 points - Area
    # Effect:2 / 4 points - Area Effect:4 / 5 points - Area Effect:8"
    lines = rule_text("000").splitlines()[879:884]
    printed = [line.strip().removeprefix("- ") for line in lines]
    assert printed == ["1 point - 1 space", "2 points - Area Effect:1",
                       "3 points - Area Effect:2", "4 points - Area Effect:4",
                       "5 points - Area Effect:8"]
    assert [powers.area(p)[2] for p in range(1, 6)] == [
        "1 space", "Area Effect:1", "Area Effect:2", "Area Effect:4", "Area Effect:8"]
    # Beyond the rows the default doubles on as the rows do: 16 at 6 points, where the
    # formula gives (6-1)^2 = 25 (docs/errata.md "Power area", issue 19 item 13); 0
    # points is the Standard "Area:0" (000 l.871).
    assert powers.area(6)[1] == 16 and powers.area(6, "formula")[1] == 25
    assert powers.area(0)[2] == "Area:0"
    assert powers.area(3, "formula")[1] == 4


def test_area_formula_is_a_table_option() -> None:
    # 000 l.885 "X points - Area Effect:(X-1)^2"
    assert [powers.area(p, "formula")[1] for p in range(2, 6)] == [1, 4, 9, 16]
    assert powers.area(1, "formula")[2] == "1 space"


def test_use_a_power(mage: Runner) -> None:
    r = mage.json("unit", "power", "Mage", "use", "Fire", "--effect", "4", "--area", "3",
                  "--initiative", "1", "--price", "fatigue")
    assert r == {
        "unit": "Mage", "power": "Fire", "level": 3, "effect": 4, "points_spent": 4,
        "points": {"initiative": 1, "area": 3},
        # Standard: "Initiative:+Level, Result:+Levelx0 … Range:Stat, Area:0"
        "initiative": 4, "result": "+3x0", "range": "Stat +0x0", "duration": None,
        "continuous": False, "area": "Area Effect:2", "area_spaces": None, "area_effect": 2,
        # 000 l.866 "Normally, you must take a Minor Condition"
        "price": "fatigue", "conditions": {"fatigue": 1},
        # no round under way: no Interact Action is spent (001 l.627)
        "move_before": None, "move": None, "action_cost": None,
        # Fire is a Power, not Magic: no Armor Pierce nor Vulgar (000 l.909–914)
        "armor_pierce": None, "vulgar": None, "observers": []}


def test_result_range_and_duration_by_level_or_scale(mage: Runner) -> None:
    # 000 l.874 "Result:+1x0/point OR +0x1/point"; "+1x0 at Range:0-1"
    r = mage.json("unit", "power", "Mage", "use", "Fire", "--effect", "5", "--result", "1x1",
                  "--duration", "2", "--close", "--price", "stun")
    assert (r["result"], r["duration"], r["points_spent"]) == ("+5x1", "+2x0 Turns", 4)


def test_the_area_rule_follows_the_session(d2d: Runner, tmp_path: Path) -> None:
    session = with_rules(d2d, tmp_path, power_area="formula")
    d2d.ok("--session", session, "unit", "add", "Mage", "--body", "8x1", "--mind", "5x1",
           "--will", "5x1", "--speed", "4x0", "--skill", "Fire=3")
    r = d2d.json("--session", session, "unit", "power", "Mage", "use", "Fire", "--effect",
                 "4", "--area", "4", "--price", "fatigue")
    assert r["area_effect"] == 9


def test_continuous_powers_are_kept_up_each_event_phase(mage: Runner) -> None:
    # 000 l.878 "Continuous:+1. Each Event Phase, you must pay the Price of Power to
    # maintain the effect."
    r = mage.json("unit", "power", "Mage", "use", "Fire", "--effect", "1", "--continuous",
                  "--price", "stress")
    assert r["continuous"] is True and r["points"] == {"continuous": 1}
    assert mage.ok("unit", "power", "Mage", "upkeep", "--price", "slow") == (
        "Mage keeps up Fire (Slow +1)\n  Conditions: Stress, Slow\n")
    # Once a phase: a second payment before the next Event phase is refused.
    assert "paid for round 0's Event phase already" in mage("unit", "power", "Mage",
                                                             "upkeep").stderr
    r = mage.json("unit", "power", "Mage", "end", "fire")
    assert (r["ended"], r["continuous"]) == ("Fire", [])


def test_power_human_view(mage: Runner) -> None:
    assert mage.ok("unit", "power", "Mage", "use", "Fire", "--effect", "4", "--area", "3",
                   "--price", "fatigue") == (
        "Mage uses Fire 3 — Price of Power: Fatigue +1\n"
        "  Effect 3 of 4 points (Area 3)\n"
        "  Initiative +3 · Result +3x0 · Range Stat +0x0 · Area Effect:2\n")


POWER_REFUSALS = [
    (["unit", "power", "Mage", "use", "Fire", "--effect", "4", "--area", "3", "--result",
      "2", "--price", "fatigue"], "Fire has Effect 4; Result 2 + Area 3 = 5 points"),
    (["unit", "power", "Mage", "use", "Fire", "--area", "1"], "the Price of Power: name"),
    (["unit", "power", "Mage", "use", "Ice", "--price", "stun"], "Mage has no Ice"),
    (["unit", "power", "Mage", "use", "Stealth", "--price", "stun"], "not a Power or Magic"),
    (["unit", "power", "Mage", "use", "Fire", "--result", "x", "--price", "stun"],
     "give points as N"),
    (["unit", "power", "Mage", "upkeep"], "Mage keeps up no Continuous Power"),
    (["unit", "power", "Mage", "end", "Fire"], "Mage keeps up no Continuous Fire"),
    (["unit", "power", "Mage", "cast"], "give use POWER, upkeep, or end POWER"),
]


@pytest.mark.parametrize(("args", "message"), POWER_REFUSALS)
def test_refusals_are_one_line_exit_2_and_change_nothing(
        mage: Runner, data_dir: Path, args: list[str], message: str) -> None:
    assert_refused(mage, data_dir, args, message)


def test_round_end_pays_each_continuous_power_once(mage: Runner) -> None:
    # 000 l.878 "Continuous:+1. Each Event Phase, you must pay the Price of Power to
    # maintain the effect": the Event phase is Round: End's Events (001 l.1033).
    mage.ok("round", "start")
    r = mage.json("unit", "power", "Mage", "use", "Fire", "--effect", "1", "--continuous",
                  "--price", "stress")
    # 001 l.627 "Skill/Power/Item - Choose a Skill, Power, or Item to use": the
    # Interact Action, Move:-[Action Cost] (Speed 4x0: Move 4, Action Cost 2).
    assert (r["move_before"], r["move"], r["action_cost"]) == (4, 2, 2)
    # Its use pays for the use, not for the round's Event phase: that phase's Price is
    # paid as every later one's is ("Each Event Phase, you must pay", issue 27).
    ended = mage.json("round", "end", "--recover", "Mage=none")
    step = next(st for st in ended["steps"] if st["kind"] == "continuous_powers")
    assert step["paid"] == [{"unit": "Mage", "paid": {"Fire": "stress"},
                             "conditions": {"stress": 2}}]
    # Paid at the phase: the same phase is not paid twice by hand.
    assert "paid for round 1's Event phase already" in mage("unit", "power", "Mage",
                                                             "upkeep").stderr
    mage.ok("round", "start")
    mage.ok("unit", "power", "Mage", "upkeep")  # round 2's phase, paid early by hand
    ended = mage.json("round", "end", "--recover", "Mage=none")
    assert "continuous_powers" not in [st["kind"] for st in ended["steps"]]
    assert mage.json("unit", "show", "Mage")["conditions"] == {"stress": 3}
    assert "Continuous Powers — the Price of Power (000 l.878):\n   Mage: Fire (Stress " \
        "+1)" in (mage.ok("round", "start") and mage.ok("round", "end"))


def test_a_power_needs_the_move_for_its_action(mage: Runner, data_dir: Path) -> None:
    # 001 l.569 "Interact - Move:-[Action Cost]": with Move 1 left the use is refused.
    mage.ok("round", "start")
    mage.ok("unit", "move", "Mage", "3")
    assert_refused(mage, data_dir, ["unit", "power", "Mage", "use", "Fire", "--effect", "1",
                                    "--price", "stun"], "Mage has Move 1; Interact costs 2")
