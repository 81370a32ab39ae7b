"""Unit-aware rolls (issue 12 item 1): `conflict`, `hit` and `crit` read Levels,
Difficulty, armor and the weapon's stat from the session by unit name; explicit numbers
override; the output says where each number came from."""

from __future__ import annotations

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
    out = d2d.ok("--session", board, "conflict", "Merc:7S^", "Goblin", "--card", "5S")
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
