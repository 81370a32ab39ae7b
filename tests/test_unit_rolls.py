"""Unit-aware rolls (issue 12 item 1): `conflict`, `hit` and `crit` read Levels,
Difficulty, armor and the weapon's stat from the session by unit name; explicit numbers
override; the output says where each number came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import rule_text, stack_deck
from tests.unit_board import load_board


@pytest.fixture
def board(d2d: Any, tmp_path: Path) -> Path:
    return load_board(d2d, tmp_path)


def test_the_rule_lines_quoted_here() -> None:
    t000, t001 = rule_text("000").splitlines(), rule_text("001").splitlines()
    assert t001[851] == ("**Units** - Goblin with Close Combat:1 attacks a Mercenary with "
                         "Melee:2")
    assert t001[858] == "**Level** - Merc is 2-1=Level:1. Gob is 1-2=Level:0"
    assert t001[860] == "**Difficulty** - The Goblin Body is 2x1"
    assert t001[823] == "Weapons default to Body"
    assert t001[733] == "NPCs use a Fate card instead"
    assert t000[450] == "    - **Initiative** - Initiative:Level of the current Skill."
    assert t000[452] == ("      - **Stat Penalties** - IF the main Stat of the Skill has "
                         "penalties THEN Initiative:+penalties.")
    assert t000[763].endswith("Common Skills can be performed even without the Skill "
                              "though at Disadvantage.")
    assert t000[1271].startswith("- Unskilled - IF a Unit attempts a Conflict where they "
                                 "have no applicable Skill or Ability")
    assert t000[1120] == "- Actor - Your Unit in a Conflict. It is opposed by the Rival."


# --------------------------------------------------------------------------- hit


def test_hits_sample_by_unit_names_001_l852(d2d: Any, board: Path) -> None:
    # 001 l.852–870: "Goblin with Close Combat:1 attacks a Mercenary with Melee:2 … Merc
    # is 2-1=Level:1. Gob is 1-2=Level:0 … Difficulty - The Goblin Body is 2x1 … 3, 4, 5
    # - 2+1, 3+1, 4+1 … Hits:3". The Merc's Melee 2 against the Goblin's Close Combat 1
    # (its defending skill: it holds no Melee, so its best Combat skill).
    r = d2d.json("--session", board, "hit", "2S", "3H", "4C", "--by", "Merc", "--vs",
                 "Goblin")
    assert (r["your_level"], r["rival_level"], r["level"], r["difficulty"], r["hits"]) == (
        2, 1, 1, 2, 3)
    assert r["sources"] == {
        "level": "Merc Melee 2 (its best Combat skill)",
        "rival_level": "Goblin Close Combat 1 (its best Combat skill; no Melee)",
        "difficulty": "Goblin's Body 2x1",
        "weapon_scale": "1 (Merc's Body 8x1)",
        "rival_stat_scale": "1 (Goblin's Body 2x1)"}
    assert [row["why"] for row in r["cards"]] == ["2+1=3 > 2", "3+1=4 > 2", "4+1=5 > 2"]
    # "Gob is 1-2=Level:0": the other way round, Difficulty the Merc's Body 8x1.
    r = d2d.json("--session", board, "hit", "5S", "--by", "Goblin", "--vs", "Merc")
    assert (r["your_level"], r["rival_level"], r["level"], r["difficulty"]) == (1, 2, 0, 8)


def test_hit_by_units_human_output(d2d: Any, board: Path) -> None:
    out = d2d.ok("--why", "--session", board, "hit", "2S", "3H", "4C", "--by", "Merc", "--vs",
                 "Goblin")
    assert out == (
        "Your Level 2: Merc Melee 2 (its best Combat skill)\n"
        "Rival Level 1: Goblin Close Combat 1 (its best Combat skill; no Melee)\n"
        "Difficulty 2: Goblin's Body 2x1\n"
        "Level 1 vs Difficulty 2 (Fast)\n"
        "  2♠ 2 of Swords ↑: 2+1=3 > 2 → Hit\n"
        "  3♥ 3 of Cups ↑: 3+1=4 > 2 → Hit\n"
        "  4♣ 4 of Wands ↑: 4+1=5 > 2 → Hit\n"
        "Combo: Straight 2-3-4\n"
        "Take 1 card(s) of your choice from your discard pile.\n"
        "Hits: 3\n")


def test_explicit_numbers_override_the_session(d2d: Any, board: Path) -> None:
    r = d2d.json("--session", board, "hit", "5S", "--by", "Merc", "--vs", "Goblin",
                 "--level", 4, "--rival-level", 0, "--difficulty", 6)
    assert (r["your_level"], r["rival_level"], r["level"], r["difficulty"]) == (4, 0, 4, 6)
    assert r["sources"]["level"] == ("--level (the session: Merc Melee 2 (its best Combat "
                                     "skill))")
    assert r["sources"]["rival_level"].startswith("--rival-level (the session: Goblin")
    assert r["sources"]["difficulty"] == "--difficulty"


def test_difficulty_is_the_rivals_stat_after_conditions(d2d: Any, board: Path) -> None:
    # 001 l.822 "vs - Found after the term vs. (eg vs Body)"; a Fatigue token lowers Body
    # by 1 (000 l.1190), as the Status Bar shows it.
    r = d2d.json("--session", board, "hit", "5S", "--by", "Merc", "--vs", "Goblin",
                 "--stat", "mind")
    assert (r["difficulty"], r["sources"]["difficulty"]) == (6, "Goblin's Mind 6x1")
    d2d.ok("--session", board, "unit", "condition", "Goblin", "add", "fatigue")
    r = d2d.json("--session", board, "hit", "5S", "--by", "Merc", "--vs", "Goblin")
    assert (r["difficulty"], r["sources"]["difficulty"]) == (1, "Goblin's Body 1x1")


def test_stat_penalties_lower_the_level_000_l453(d2d: Any, board: Path) -> None:
    # 000 l.453 "IF the main Stat of the Skill has penalties THEN Initiative:+penalties":
    # two Fatigue (Body:-1 each) on the Merc lower its Melee (a Combat skill: main Stat
    # Body, d2d's choice) by 2; Stun (Mind) does not, unless --skill-stat mind.
    d2d.ok("--session", board, "unit", "condition", "Merc", "add", "fatigue", "--count", 2)
    d2d.ok("--session", board, "unit", "condition", "Merc", "add", "stun")
    r = d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Goblin")
    assert (r["your_level"], r["level"]) == (0, 0)
    assert r["modifiers"] == [{
        "key": "stat_penalties", "name": "Stat Penalties: Body -2 (Fatigue 2)", "side": "a",
        "level": -2, "origin": "session",
        "source": '000 l.453 "Stat Penalties - IF the main Stat of the Skill has penalties '
                  'THEN Initiative:+penalties."'}]
    r = d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Goblin",
                 "--skill-stat", "mind")
    assert [(m["name"], m["level"]) for m in r["modifiers"]] == [
        ("Stat Penalties: Mind -1 (Stun 1)", -1)]


@pytest.mark.parametrize(("args", "message"), [
    (["--by", "Nobody", "--vs", "2"], "no unit 'Nobody'"),
    (["--by", "Merc", "--vs", "Gobln"], "--vs takes a Difficulty: a whole number 1 or more "
                                        "or a stat like 2x1, or a unit on the board, not "
                                        "'Gobln' — did you mean Goblin?"),
    (["--vs", "2", "--difficulty", "3"], "give the Difficulty once"),
    (["--by", "Merc", "--vs", "Goblin", "--difficulty", "0"], "--difficulty takes a "
                                                             "Difficulty of 1 or more"),
    (["--by", "Merc", "--vs", "Goblin", "--stat", "luck"], "--stat luck: the Rival's stat"),
    (["--by", "Merc", "--vs", "2", "--stat", "mind"], "--stat names the Rival unit's stat"),
    (["--by", "Merc", "--vs", "2", "--skill", "Gunnery"],
     "Merc has no Gunnery, and Gunnery is not a Common Skill: an Unskilled unit cannot do "
     "it (000 l.764, l.1272)"),
    (["--by", "Sage", "--vs", "2"], "Sage holds no Combat skill: name the skill with --skill"),
    (["--vs", "2", "--skill", "Melee"], "--skill reads a unit's Level: name a unit"),
    (["--by", "Merc", "--vs", "2", "--rival-skill", "Melee"], "--rival-skill reads the "
                                                              "Rival's Level"),
    (["--by", "Merc", "--vs", "2", "--skill", "Swordplay"], "unknown skill 'Swordplay'"),
    (["--by", "Merc", "--vs", "2", "--skill-stat", "luck"], "--skill-stat luck: one of"),
])
def test_hit_refusals_are_one_line_and_change_nothing(d2d: Any, board: Path,
                                                      args: list[str], message: str) -> None:
    before = board.read_bytes()
    res = d2d("--session", board, "hit", "9S", *args)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1
    assert board.read_bytes() == before


# --------------------------------------------------------------------------- conflict


def test_conflict_by_unit_names(d2d: Any, board: Path) -> None:
    # 000 l.451 "Initiative:Level of the current Skill": the Merc's Melee 2 against the
    # Goblin's Close Combat 1; the Goblin is a Non-Player, so it reveals a Fate card (001
    # l.734 "NPCs use a Fate card instead"), turned by its colour (000 l.420).
    stack_deck(board, "5Sv")
    r = d2d.json("--session", board, "conflict", "Merc:7S^", "Goblin")
    assert (r["side_a"]["unit"], r["side_a"]["skill"], r["side_a"]["level"]) == (
        "Merc", "Melee", 2)
    assert (r["side_b"]["unit"], r["side_b"]["skill"], r["side_b"]["level"]) == (
        "Goblin", "Close Combat", 1)
    assert r["side_b"]["source"] == "fate" and r["side_b"]["card"]["code"] == "5S^"
    assert r["sources"]["level_a"] == "Merc Melee 2 (its best Combat skill)"
    assert r["sources"]["level_b"] == "Goblin Close Combat 1 (its best Combat skill; no " \
        "Melee)"
    # Fast vs Fast: rank; the Merc's Level Bonus 1 lowers its 7 to 6, the Goblin's 5 wins.
    assert r["tiebreak"] == {"a": {"rank": "7", "level_bonus": 1, "adjusted": 6},
                             "b": {"rank": "5", "level_bonus": 0, "adjusted": 5},
                             "outcome": "b"}
    assert d2d.json("--session", board, "fate", "status")["last"][0]["code"] == "5Sv"


def test_conflict_by_unit_names_human_output(d2d: Any, board: Path) -> None:
    out = d2d.ok("--why", "--session", board, "conflict", "Merc:7S^", "Goblin", "--card", "5S")
    assert out == (
        "A: Merc — Fast (7♠ 7 of Swords ↑)   vs   B: Goblin — Fast (5♠ 5 of Swords ↑)\n"
        "Level A 2: Merc Melee 2 (its best Combat skill)\n"
        "Level B 1: Goblin Close Combat 1 (its best Combat skill; no Melee)\n"
        "Tiebreak by rank: A 6 vs B 5 (Level Bonus A 1, B 0)\n"
        "B wins\n"
        "  B: Hit: count the Hits of your cards (d2d hit)\n"
        "  B: Draw a card\n")


def test_conflict_side_syntax(d2d: Any, board: Path) -> None:
    # NAME:APPROACH, NAME:CARD, NAME:fate, a Non-Player's bare NAME; case-insensitive.
    r = d2d.json("--session", board, "conflict", "merc:strong", "goblin:block")
    assert (r["approach_a"], r["approach_b"], r["outcome"]) == ("strong", "block", "a")
    assert (r["side_a"]["unit"], r["side_b"]["unit"]) == ("Merc", "Goblin")
    r = d2d.json("--session", board, "conflict", "Merc:fate", "Goblin", "--card", "4H",
                 "--card", "9C")
    assert (r["side_a"]["source"], r["approach_a"], r["approach_b"]) == (
        "fate", "block", "strong")
    # Approaches, cards and fate keep their meaning (today's `conflict SIDE_A SIDE_B`).
    r = d2d.json("--session", board, "conflict", "fast", "7S^")
    assert (r["side_a"]["unit"], r["side_b"]["unit"], r["sources"]) == (
        None, None, {"level_a": "not given (0)", "level_b": "not given (0)"})


@pytest.mark.parametrize(("sides", "message"), [
    (["Merc", "Goblin"], "Merc is not a Non-Player unit: give its approach or card, e.g. "
                         "'Merc:fast' or 'Merc:7S^'"),
    (["Merc:7S^", "Gobln"], "(did you mean Goblin?)"),
    (["Merc:quick", "Goblin"], "unknown side 'Merc:quick': after Merc: give an approach"),
    (["Nobody:fast", "Goblin"], "no unit 'Nobody'"),
])
def test_conflict_side_refusals(d2d: Any, board: Path, sides: list[str],
                                message: str) -> None:
    before = board.read_bytes()
    res = d2d("--session", board, "conflict", *sides)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1
    assert board.read_bytes() == before


def test_rival_defending_skill(d2d: Any, board: Path) -> None:
    # The Rival uses the Actor's skill if it holds it, else (against a Combat skill) its
    # best Combat skill — the Mercenary's Melee answers the Goblin's Close Combat (001
    # l.852–859); --rival-skill names it. A Rival with none is Unskilled, Level 0.
    r = d2d.json("--session", board, "conflict", "Archer:fast", "Goblin:fast",
                 "--skill", "Stealth")
    assert (r["side_a"]["skill"], r["side_a"]["level"]) == ("Stealth", 2)
    assert (r["side_b"]["skill"], r["side_b"]["level"]) == ("Stealth", 1)
    r = d2d.json("--session", board, "conflict", "Archer:fast", "Goblin:fast",
                 "--skill", "Stealth", "--rival-skill", "Close Combat")
    assert (r["side_b"]["skill"], r["side_b"]["level"]) == ("Close Combat", 1)
    r = d2d.json("--session", board, "conflict", "Sage:fast", "Goblin:fast", "--skill",
                 "Persuasion")
    assert (r["side_b"]["skill"], r["side_b"]["level"]) == ("Persuasion", 0)
    assert r["sources"]["level_b"] == "Goblin: no Persuasion, Unskilled, Level 0"
    assert r["advantage"]["b"]["sources"][0]["key"] == "unskilled"


def test_unskilled_common_skill_is_disadvantage_000_l764(d2d: Any, board: Path) -> None:
    # 000 l.764 "Common Skills can be performed even without the Skill though at
    # Disadvantage"; l.1272 "…will either be at Disadvantage or be unable to do it".
    r = d2d.json("--session", board, "conflict", "Archer:fast", "Goblin", "--skill",
                 "Melee", "--card", "4S", "--card", "9H")
    assert (r["side_a"]["level"], r["sources"]["level_a"]) == (
        0, "Archer: no Melee, Unskilled, Level 0")
    assert r["advantage"]["a"] == {
        "mode": "disadvantage",
        "sources": [{"key": "unskilled", "mode": "disadvantage",
                     "why": "Unskilled: Archer has no Melee (a Common Skill)",
                     "source": '000 l.764 "Common Skills can be performed even without the '
                               'Skill though at Disadvantage."'}],
        "cancelled": None}
    res = d2d("--session", board, "conflict", "Archer:fast", "Goblin", "--skill", "Gunnery")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: Archer has no Gunnery, and Gunnery is not a Common "
                          "Skill: an Unskilled unit cannot do it (000 l.764, l.1272)\n")


def test_explicit_levels_override_in_conflict(d2d: Any, board: Path) -> None:
    r = d2d.json("--session", board, "conflict", "Merc:7S^", "Goblin:5S^",
                 "--level-a", 0, "--level-b", 3)
    assert (r["side_a"]["level"], r["side_b"]["level"]) == (0, 3)
    assert r["sources"]["level_a"] == "--level-a (the session: Merc Melee 2 (its best " \
        "Combat skill))"
    assert r["tiebreak"]["b"]["level_bonus"] == 3


def test_json_lookup_with_unit_names_never_imports_rich(d2d: Any, board: Path) -> None:
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from d2d_cli.cli import main\n"
        f"main(['--session', {str(board)!r}, 'conflict', 'Merc:7S^', 'Goblin:5S^', "
        "'--cover', '25', '--json'])\n"
        f"main(['--session', {str(board)!r}, 'hit', '9S', '--by', 'Merc', '--vs', "
        "'Goblin', '--json'])\n"
        "assert 'rich' not in sys.modules, 'rich imported'\n"
    )
    env = {**os.environ}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [json.loads(x)["ok"] for x in done.stdout.splitlines()] == [True, True]


# --------------------------------------------------------------------------- crit


def test_crit_by_wielder_and_target(d2d: Any, board: Path) -> None:
    # 001 l.920 "Body+2 with Body:4x1 = Power Rating:6x1": the Merc's Body 8x1 → 10x1;
    # with a Fatigue token its Body is 7x1 → 9x1. The target's armor is found at the
    # location (001 l.898); the Ogre has none.
    r = d2d.json("--session", board, "crit", "--weapon", "Body+2", "--by", "Merc",
                 "--target", "Ogre", "--card", "pierce@torso", "--types", "pierce")
    assert (r["power"], r["sources"]) == ("10x1", {
        "power": "Body+2 with Merc's Body 8x1", "armor": "none at Torso"})
    d2d.ok("--session", board, "unit", "condition", "Merc", "add", "fatigue")
    r = d2d.json("--session", board, "crit", "--weapon", "Body+2", "--by", "Merc",
                 "--card", "pierce@torso")
    assert (r["power"], r["sources"]["power"]) == ("9x1", "Body+2 with Merc's Body 7x1")
    # An explicit --stat overrides the unit's.
    r = d2d.json("--session", board, "crit", "--weapon", "Body+2", "--by", "Merc",
                 "--stat", "4x1", "--card", "pierce@torso")
    assert (r["power"], r["sources"]["power"]) == ("6x1", "Body+2 with --stat 4x1 (over "
                                                          "Merc's)")


def test_crit_by_human_output(d2d: Any, board: Path) -> None:
    out = d2d.ok("--session", board, "crit", "--weapon", "Body+2", "--by", "Merc",
                 "--armor", "torso=2x1", "--card", "pierce@torso", "--hits", 2)
    assert out == (
        "Wound deck: pierce@torso → Crit location Torso\n"
        "Armor at Torso: 2x1 (from --armor)\n"
        "Power 10x1: Body+2 with Merc's Body 8x1\n"
        "Power 10x1 vs Armor 2x1: Hits +1 (level), +0 (scale) → Hits 2 + 1 = 3\n"
        "Severity Critical (2 rotations)\n"
        "Mortal Wound: unknown without --target (000 l.540: the 4th Crit on a unit).\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--power", "6x1", "--by", "Merc"], "--by reads the stat of a --weapon formula"),
    (["--weapon", "6x1", "--by", "Merc"], "--by reads the stat of a --weapon formula"),
    (["--weapon", "Body+2", "--by", "Nobody"], "no unit 'Nobody'"),
])
def test_crit_by_refusals(d2d: Any, board: Path, args: list[str], message: str) -> None:
    before = board.read_bytes()
    res = d2d("--session", board, "crit", *args, "--card", "pierce@torso")
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1
    assert board.read_bytes() == before
