"""Damage Modifiers (000 l.520–533) and light damage on a stat at 0 (001 l.946–947),
issue 19 items 4, 5 and 12: `crit` and `odds crit` apply them alike, in the text's
order, from the options and the target's gear ([units.NAME.gear])."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from d2d_cli import session
from d2d_cli.rules.combat import damage
from tests.helpers import Runner, assert_refused, check_quotes, session_file, with_rules

CRIT = ("crit", "--power", "1x0", "--types", "pierce")  # a Power that adds no Hits


@pytest.fixture
def goblin(d2d: Runner) -> Runner:
    d2d.ok("unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
           "--speed", "5x0")
    return d2d


def gear(data_dir: Path, name: str, **values: Any) -> None:
    """Give a unit gear, as a table hand-edits [units.NAME.gear]."""
    with session.edit(session_file(data_dir), "test: gear") as tx:
        units = tx.data["units"]
        units[name]["gear"] = values
        tx.put("units", units)


def test_the_sources_quote_the_text() -> None:
    assert check_quotes("\n".join(damage.SOURCES.values())) == 7


def test_vulnerable_adds_one(goblin: Runner) -> None:
    # 000 l.525 "Vulnerable - IF the Unit has a Vulnerability THEN Damage:+1"
    r = goblin.json(*CRIT, "--hits", "1", "--vulnerable", "--card", "pierce@torso")
    m = r["damage_modifiers"]
    assert (m["damage_before"], m["damage"], r["hits"], r["severity"]) == (1, 2, 2, "major")
    assert [s["key"] for s in m["steps"]] == ["vulnerable"]


def test_wild_luck_cancels_all_and_nothing_is_placed(goblin: Runner) -> None:
    # 000 l.526 "Wild Luck - Discard a Wild Card to cancel ALL Successes"
    r = goblin.json(*CRIT, "--hits", "4", "--wild-luck", "--target", "Goblin", "--card",
                    "pierce@torso")
    assert (r["hits"], r["severity"], r["target"], r["light_damage"]) == (0, "none", None, [])
    assert goblin.json("unit", "show", "Goblin")["crits"] == []
    assert "No damage" in goblin.ok(*CRIT, "--hits", "4", "--wild-luck", "--card",
                                    "pierce@torso")


def test_a_screen_is_ablative_and_comes_before_armor(goblin: Runner, data_dir: Path,
                                                     tmp_path: Path) -> None:
    # 000 l.527 "A Screen reduces Successes by that rating, but also reduces the Screen by
    # the same amount. Screens are resolved before Armor."
    gear(data_dir, "Goblin", screen=2)
    r = goblin.json(*CRIT, "--hits", "3", "--target", "Goblin", "--card", "pierce@torso")
    assert (r["damage_modifiers"]["screen_left"], r["hits"], r["severity"]) == (0, 1, "minor")
    assert goblin.json("unit", "show", "Goblin", "--json") is not None
    with session.edit(session_file(data_dir), "test: read") as tx:
        assert tx.data["units"]["Goblin"]["gear"]["screen"] == 0
    r = goblin.json(*CRIT, "--hits", "3", "--target", "Goblin", "--card", "pierce@torso")
    assert (r["damage_modifiers"], r["severity"]) == (None, "critical")  # worn out


def test_armor_reduces_by_its_value_with_the_000_reading(d2d: Runner, tmp_path: Path) -> None:
    # 001 l.910 "Armor Rating cancels Power Rating" (default); 000 l.529 "IF there is any
    # THEN reduce by the Armor value" with [rules] armor = "reduce".
    r = d2d.json(*CRIT, "--hits", "3", "--armor", "torso=2x1", "--card", "pierce@torso")
    assert (r["hits"], r["severity"], r["damage_modifiers"]) == (3, "critical", None)
    s = ("--session", with_rules(d2d, tmp_path, armor="reduce"))
    r = d2d.json(*s, *CRIT, "--hits", "3", "--armor", "torso=2x1", "--screen", "1",
                 "--card", "pierce@torso")
    steps = r["damage_modifiers"]["steps"]
    assert [(st["key"], st["change"], st["damage"]) for st in steps] == [
        ("screen", -1, 2), ("armor", -2, 0)]
    assert r["severity"] == "none"


def test_shield_item_damage_and_luck(goblin: Runner, data_dir: Path) -> None:
    # 000 l.530 "Shield - IF you have a Shield and it Shield covers that location THEN
    # reduce by the Armor value"; l.531 "Item Damage - … add Damaged:+1 to 1 Item to
    # reduce by 1"; l.533 "Luck - … spend any number of Character Points to reduce the
    # Damage by that amount"
    gear(data_dir, "Goblin", shield="2x1", shield_covers=["left_arm"],
         items={"Buckler": "left_arm", "Dagger": "torso"})
    with session.edit(session_file(data_dir), "test: cp") as tx:
        units = tx.data["units"]
        units["Goblin"]["cp"] = 5
        tx.put("units", units)
    r = goblin.json(*CRIT, "--hits", "6", "--target", "Goblin", "--item-damage", "Buckler",
                    "--luck", "2", "--card", "pierce@left_arm")
    assert [(s["key"], s["change"]) for s in r["damage_modifiers"]["steps"]] == [
        ("shield", -2), ("item", -1), ("luck", -2)]
    assert (r["hits"], r["severity"], r["damage_modifiers"]["cp_spent"]) == (1, "minor", 2)
    with session.edit(session_file(data_dir), "test: read") as tx:
        goblin_now = tx.data["units"]["Goblin"]
        assert (goblin_now["cp"], goblin_now["gear"]["damaged"]) == (3, {"Buckler": 1})
    # Not at the Hit Location: the Buckler stops nothing at the torso.
    assert_refused(goblin, data_dir, [*CRIT, "--hits", "2", "--target", "Goblin",
                                      "--item-damage", "Buckler", "--card", "pierce@torso"],
                   "it is at left_arm, not in the Hit Location Torso")
    assert_refused(goblin, data_dir, [*CRIT, "--hits", "9", "--target", "Goblin", "--luck",
                                      "9", "--card", "pierce@torso"],
                   "Goblin has 3 Character Point(s); Luck spends 9")


def test_odds_crit_takes_the_modifiers(goblin: Runner, data_dir: Path) -> None:
    # An effect that changes a roll changes its odds: the shield on the left arm only.
    plain = goblin.json("odds", "crit", "--power", "1x0", "--hits", "2", "--types",
                        "pierce", "--fresh")
    assert {x["severity"] for x in plain["locations"]} == {"major"}
    gear(data_dir, "Goblin", shield=1, shield_covers=["left_arm"])
    got = goblin.json("odds", "crit", "--power", "1x0", "--hits", "2", "--types", "pierce",
                      "--fresh", "--target", "Goblin")
    rows = {x["location"]: (x["hits"], x["severity"]) for x in got["locations"]}
    assert rows["left_arm"] == (1, "minor") and rows["torso"] == (2, "major")
    assert [s["severity"] for s in got["severities"]] == ["minor", "major"]
    wild = goblin.json("odds", "crit", "--power", "1x0", "--hits", "2", "--types", "pierce",
                       "--fresh", "--wild-luck")
    assert [(s["severity"], s["probability"]["fraction"]) for s in wild["severities"]] == [
        ("none", "1/1")]


def test_weapon_damage_against_the_difficulty(goblin: Runner, tmp_path: Path) -> None:
    # 000 l.508–509 "Level - IF the Damage Level > Difficulty THEN Success:+1. Scale - IF
    # there is a difference between Damage Scale and Difficulty Scale THEN
    # Success:+Difference": 6x2 against the Goblin's Body 2x1 is +1 +1.
    s = ("--session", with_rules(goblin, tmp_path, weapon_damage="difficulty"))
    goblin.ok(*s, "unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1", "--will",
              "2x1", "--speed", "5x0")
    r = goblin.json(*s, "crit", "--power", "6x2", "--hits", "1", "--armor", "9x2",
                    "--target", "Goblin", "--card", "pierce@torso")
    assert (r["bonus_hits"], r["hits"], r["rated_against"]) == (2, 3, "difficulty")
    res = goblin(*s, "crit", "--power", "6x2", "--card", "pierce@torso")
    assert res.exit_code == 2 and "--target UNIT or --difficulty STAT" in res.stderr
    assert goblin.json(*s, "crit", "--power", "6x2", "--difficulty", "7x1", "--card",
                       "pierce@torso")["bonus_hits"] == 1


def test_a_difficulty_the_session_does_not_read_is_refused(goblin: Runner,
                                                          data_dir: Path) -> None:
    # 001 l.910 "Armor Rating cancels Power Rating" is the default: the Difficulty of
    # 000 l.508 "Level - IF the Damage Level > Difficulty THEN Success:+1" is not read, so
    # a typed --difficulty was dropped without a word (Hits as if never typed). Refused.
    for cmd in (["crit", "--power", "6x2", "--card", "pierce@torso"],
                ["odds", "crit", "--power", "6x2", "--fresh"]):
        assert_refused(goblin, data_dir, [*cmd, "--difficulty", "7x1"],
                       'the Difficulty counts only with [rules] weapon_damage = "difficulty"')


def test_light_damage_on_a_stat_at_0_flips_to_a_crit(goblin: Runner, data_dir: Path) -> None:
    # 001 l.946–947 "Light Damage - The back of a Damage card represents Light Damage (eg
    # Fatigue) / IF Unit has Stat=0 THEN flip to Crit". A Goblin of Body 2x1: Hits 6 is
    # Extreme and 2 Fatigue, which bring its Body to 0; the next light damage flips.
    r = goblin.json(*CRIT, "--hits", "6", "--target", "Goblin", "--card", "pierce@torso")
    assert (r["light_damage"], r["flipped"]) == (["fatigue", "fatigue"], [])
    assert goblin.json("unit", "show", "Goblin")["stats"]["body"] == "0x1"
    # Hits 6 again: both Fatigue land on Body 0 — each flips, a card drawn for each.
    assert_refused(goblin, data_dir, [*CRIT, "--hits", "6", "--target", "Goblin", "--card",
                                      "pierce@head"], "more damage cards are needed")
    r = goblin.json(*CRIT, "--hits", "6", "--target", "Goblin", "--card", "pierce@head",
                    "--card", "slash@left_arm", "--card", "pierce@right_leg")
    assert (r["light_damage"], r["flipped"]) == ([], ["slash@left_arm", "pierce@right_leg"])
    row = goblin.json("unit", "show", "Goblin")
    # No more Fatigue: Crits instead (and Dying: the Mortal Wound below).
    assert row["conditions"] == {"fatigue": 2, "dying": 1}
    assert [(c["card"], c["severity"]) for c in row["crits"]] == [
        ("pierce@torso", "extreme"), ("pierce@head", "extreme"),
        ("slash@left_arm", "minor"), ("pierce@right_leg", "minor")]
    # 000 l.540 "IF 4 or more Crits then the Unit has suffered a Mortal Wound": the flips
    # count, so this fourth Crit is one.
    assert r["crit_count"] == 4 and r["mortal_wound"] is True


def test_000_hit_location_reveals_a_damage_stack(goblin: Runner, tmp_path: Path,
                                                 data_dir: Path) -> None:
    # 000 l.518–519 "Damage Stack - IF Successes remain THEN reveal Damage Cards equal to
    # Successes. Hit Location - Find the first Card that matches the Damage Type of the
    # Weapon (if any) and move it to the top"; l.539 "Crits - Rotate the Hit Location
    # Card to the right for each other Damage that matches Weapon Damage Types"; l.541
    # "Successes - For each card that doesn't match … apply as Temporary Damage".
    s = ("--session", str(with_rules(goblin, tmp_path, hit_location="000")))
    goblin.ok(*s, "unit", "add", "Goblin", "--body", "6x1", "--mind", "2x1", "--will",
              "2x1", "--speed", "5x0")
    r = goblin.json(*s, *CRIT, "--hits", "4", "--target", "Goblin", "--card", "slash@head",
                    "--card", "pierce@torso", "--card", "pierce@left_arm", "--card",
                    "bash@right_leg")
    assert r["stack"] == ["pierce@torso", "slash@head", "pierce@left_arm", "bash@right_leg"]
    assert (r["card"], r["severity"], r["light_damage"]) == (
        "pierce@torso", "major", ["fatigue", "fatigue"])
    assert goblin.json(*s, "unit", "show", "Goblin")["conditions"] == {"fatigue": 2}
    # Reduced from the bottom (l.523): a Screen of 3 leaves the top card alone: Minor.
    r = goblin.json(*s, *CRIT, "--hits", "4", "--screen", "3", "--card", "slash@head",
                    "--card", "pierce@torso", "--card", "pierce@left_arm", "--card",
                    "bash@right_leg")
    assert (r["stack"], r["severity"], r["light_damage"]) == (["pierce@torso"], "minor", [])
    # No matching card: no Crit, all Temporary Damage.
    r = goblin.json(*s, *CRIT, "--hits", "2", "--card", "slash@head", "--card",
                    "bash@torso")
    assert (r["severity"], r["light_damage"]) == ("none", ["fatigue", "fatigue"])
    assert_refused(goblin, data_dir, [*s, "odds", "crit", "--power", "1x0"],
                   'under [rules] hit_location = "000"')


def test_odds_crit_refuses_a_dead_target_as_crit_does(goblin: Runner, data_dir: Path) -> None:
    # 000 l.1172 "Dead - Permanent Negative Status": crit refuses a Dead target, so the odds
    # of that Crit are refused too (they were given as if the unit stood).
    goblin.ok("unit", "condition", "Goblin", "add", "dead")
    for cmd in (["crit", "--power", "5x1", "--target", "Goblin", "--card", "pierce@torso"],
                ["odds", "crit", "--power", "5x1", "--target", "Goblin"]):
        assert_refused(goblin, data_dir, cmd, "Goblin is Dead (000 l.1172")
