"""Abilities in play (issue 12 item 6: Cooldown, Ready, the Active limit) and Stealth
tokens, Hide and Detect (item 8: 000 l.801–807, 001 l.561, l.589–593)."""

from __future__ import annotations

from pathlib import Path

import pytest

from d2d_cli.rules.units import abilities, stealth
from tests.helpers import Runner, assert_refused, check_quotes
from tests.test_round_tokens import add


@pytest.fixture
def table(d2d: Runner) -> Runner:
    add(d2d, "Archer", "4x0", "--skill", "Ranged=1")
    add(d2d, "Goblin", "5x0", "--skill", "Stealth=1", "--skill", "Close Combat=1")
    d2d.ok("round", "start")
    return d2d


def test_the_modules_quote_the_text() -> None:
    assert check_quotes(abilities.__doc__ or "") >= 6
    assert check_quotes(stealth.__doc__ or "") >= 4


def test_using_an_ability_puts_it_in_cooldown(table: Runner) -> None:
    # 001 l.585 "Ability - Put the Ability in Cooldown"
    r = table.json("unit", "ability", "Archer", "use", "Rapid Shot", "--skill", "ranged")
    assert r == {"unit": "Archer", "action": "use", "ability": "Rapid Shot",
                 "skill": "Ranged", "level": 1, "limit": 2, "specialty": False,
                 "active": {"Ranged": ["Rapid Shot"]}, "cooldown": ["Rapid Shot"]}
    assert table.json("unit", "ability", "Archer", "list")["cooldown"] == ["Rapid Shot"]
    # It is free: no Move is spent.
    assert table.json("unit", "show", "Archer")["move"] == 4


def test_ready_action_takes_it_out_for_the_action_cost(table: Runner) -> None:
    # 001 l.557 "Ready - Move:-[Action Cost] Ready an Ability in Cooldown"
    table.ok("unit", "ability", "Archer", "use", "Rapid Shot", "--skill", "Ranged")
    r = table.json("unit", "act", "Archer", "ready")
    assert (r["readied"], r["move"]) == ("Rapid Shot", 2)
    # once Ready it is still Active: using it again needs no --skill
    assert table.json("unit", "ability", "Archer", "use", "rapid shot")["cooldown"] == [
        "Rapid Shot"]


def test_round_end_recover_readies_an_ability(table: Runner) -> None:
    # 001 l.1039–1043 "Recover - For each Unit: Remove a Fatigue, Stun, Stress, Slow OR
    # Ready an Ability in Cooldown"
    table.ok("unit", "ability", "Archer", "use", "Rapid Shot", "--skill", "Ranged")
    end = table.json("round", "end", "--recover", "Archer=Rapid Shot")
    assert end["steps"][1]["applied"] == [{"unit": "Archer", "readied": "Rapid Shot"}]
    assert table.json("unit", "ability", "Archer", "list")["cooldown"] == []


def test_the_active_limit_is_two_per_level_of_the_skill(table: Runner) -> None:
    # 001 l.415 "Active - Only 2 Abilities/Items per Level may be used. Specialty
    # Ability/Items ignore this"; 000 l.757 "Abilities are linked to Skills"
    table.ok("unit", "ability", "Archer", "use", "Rapid Shot", "--skill", "Ranged")
    table.ok("unit", "ability", "Archer", "use", "Aimed Shot", "--skill", "Ranged")
    res = table("unit", "ability", "Archer", "use", "Trick Shot", "--skill", "Ranged")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: Archer's Ranged 1 allows 2 Active Abilities (001 l.415 "
                          "\"2 Abilities/Items per Level\"); Active: Rapid Shot, Aimed Shot\n")
    # A Specialty of Ranged (tables/skills.toml: Bows) ignores the limit.
    r = table.json("unit", "ability", "Archer", "use", "Bows")
    assert (r["skill"], r["specialty"], r["limit"]) == ("Ranged", True, None)
    # Dropping one from Active frees its place.
    table.ok("unit", "ability", "Archer", "drop", "Aimed Shot")
    r = table.json("unit", "ability", "Archer", "use", "Trick Shot", "--skill", "Ranged")
    assert r["active"] == {"Ranged": ["Rapid Shot", "Bows", "Trick Shot"]}


def test_level_two_allows_four(d2d: Runner) -> None:
    add(d2d, "Vet", "4x0", "--skill", "Melee=2")
    for a in ("A", "B", "C", "D"):
        d2d.ok("unit", "ability", "Vet", "use", a, "--skill", "Melee")
    res = d2d("unit", "ability", "Vet", "use", "E", "--skill", "Melee")
    assert "Vet's Melee 2 allows 4 Active Abilities" in res.stderr


def test_a_character_uses_the_abilities_it_learned(d2d: Runner) -> None:
    d2d.ok("char", "new", "Rook", "--archetype", "thief")
    d2d.ok("char", "award", "Rook", "--ap", "1")
    d2d.ok("char", "learn", "Rook", "Pick Lock")  # a Specialty of Mechanics
    res = d2d("unit", "ability", "Rook", "use", "Backstab", "--skill", "Melee")
    assert res.stderr == ("d2d: error: Rook has no Ability 'Backstab' (abilities: Pick "
                          "Lock)\n")
    r = d2d.json("unit", "ability", "Rook", "use", "pick lock")
    assert (r["ability"], r["skill"], r["specialty"]) == ("Pick Lock", "Mechanics", True)


def test_ability_human_view(table: Runner) -> None:
    assert table.ok("unit", "ability", "Goblin", "use", "Sneak") == (
        "Goblin uses Sneak — in Cooldown (a Specialty: no limit)\n"
        "  Active: Stealth: Sneak\n"
        "  Cooldown: Sneak\n")
    assert table.ok("unit", "ability", "Goblin", "list") == (
        "Goblin's Abilities in play\n"
        "  Active: Stealth: Sneak\n"
        "  Cooldown: Sneak\n")


ABILITY_REFUSALS = [
    (["unit", "ability", "Goblin", "use", "Sneak"],
     "Goblin's Sneak is in Cooldown (001 l.181): Ready it first"),
    (["unit", "ability", "Goblin", "use", "Feint"], "say which Skill Feint uses: --skill"),
    (["unit", "ability", "Goblin", "use", "Aim", "--skill", "Ranged"],
     "Goblin has no Ranged: an Ability uses its Skill's Level"),
    (["unit", "ability", "Goblin", "use", "Aim", "--skill", "Rangd"], "did you mean Ranged"),
    (["unit", "ability", "Goblin", "drop", "Aim"], "Goblin's Aim is not Active"),
    (["unit", "ability", "Goblin", "juggle", "Aim"], "give use ABILITY, drop ABILITY or list"),
    (["unit", "act", "Goblin", "ready", "Feint"], "Goblin's Feint is not in Cooldown"),
    (["unit", "stealth", "Archer", "hide"], "Archer has no Stealth: tokens may not be more "
                                            "than 2xStealth = 0 (000 l.803)"),
    (["unit", "stealth", "Goblin", "hide", "3"], "Goblin may hold 1 to 2 Stealth tokens"),
    (["unit", "stealth", "Goblin", "tick"], "Goblin is not Hidden"),
    (["unit", "stealth", "Goblin", "fade"], "unknown stealth action 'fade'"),
    (["unit", "act", "Archer", "detect", "Goblin"], "Goblin is not Hidden: nothing to Detect"),
    (["unit", "act", "Archer", "detect"], "Detect whom?"),
]


@pytest.mark.parametrize(("args", "message"), ABILITY_REFUSALS)
def test_refusals_are_one_line_exit_2_and_change_nothing(
        table: Runner, data_dir: Path, args: list[str], message: str) -> None:
    table.ok("unit", "ability", "Goblin", "use", "Sneak")
    assert_refused(table, data_dir, args, message)


def test_stealth_tokens(table: Runner) -> None:
    # 000 l.803 "Tokens may not be more than 2xStealth"; l.807 "Remain Hidden - Clock:
    # Tokens+1"; l.804 "IF Tokens=0 THEN you Reveal immediately"
    r = table.json("unit", "stealth", "Goblin", "hide")
    assert (r["tokens"], r["max_tokens"], r["hidden"]) == (1, 2, True)
    assert table.json("unit", "stealth", "Goblin", "tick")["tokens"] == 2
    assert table.json("unit", "stealth", "Goblin", "tick")["tokens"] == 2  # at 2xStealth
    r = table.json("unit", "stealth", "Goblin", "spot")
    assert (r["tokens"], r["revealed"]) == (1, False)
    r = table.json("unit", "stealth", "Goblin", "spot")
    assert (r["tokens"], r["hidden"], r["revealed"], r["forced"], r["place_within"]) == (
        0, False, True, True, 0)


def test_reveal_places_within_move_tokens(table: Runner) -> None:
    # 000 l.805 "Reveal - Free: You may place your unit anywhere within Move:Tokens of
    # your Stealth unit … Remove Tokens and Stealth Units."
    table.ok("unit", "stealth", "Goblin", "hide", "2")
    assert table.ok("unit", "stealth", "Goblin", "reveal") == (
        "Goblin Reveals: place it within Move:2 of its Stealth unit, out of sight of "
        "Rivals (000 l.805).\n")
    assert table.json("unit", "stealth", "Goblin", "show")["hidden"] is False


def test_hide_action_pays_the_action_cost(table: Runner) -> None:
    # 001 l.561 "Hide - Move:-[Action Cost] IF out of sight THEN become Hidden"
    r = table.json("unit", "act", "Goblin", "hide")
    assert (r["move"], r["stealth"]) == (3, 1)
    assert table.json("unit", "stealth", "Goblin", "show")["tokens"] == 1


def test_detect_costs_a_stun_and_names_the_test(table: Runner) -> None:
    # 001 l.589–593 "Detect - Stun:+1 … THEN [Mind] vs [Body]-[Range] to detect": d2d
    # reads Body + Range, distance making the Hidden harder to find (docs/errata.md).
    table.ok("unit", "stealth", "Goblin", "hide")
    r = table.json("unit", "act", "Archer", "detect", "Goblin", "--range", "3")
    assert r["conditions_added"] == {"stun": 1} and r["move"] == 4
    # Archer's Mind 5x1 less the Stun just taken; the Goblin's Body 8x1 plus Range 3.
    assert r["detect"] == {"target": "Goblin", "mind": 4, "body": 8, "range": 3,
                           "difficulty": 11, "target_tokens": 1, "reading": "001",
                           "sense": None, "source": stealth.DETECT_001}
    out = table.ok("unit", "act", "Archer", "detect", "Goblin", "--range", "9")
    assert "Detect Goblin: Mind 3 vs Body 8 + Range 9 = Difficulty 17 (001 l.593, " \
        "docs/errata.md)" in out
