"""``d2d crit``: 001 pp.33–38 "Crits" (rating, location, severity) and 000 "Damage"."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.rules.combat import crits
from d2d_cli.rules.scale.stats import parse_stat
from tests.helpers import rule_text, with_rules

# --------------------------------------------------------------------------- rating


def test_weapon_formula_page_34(d2d: Any) -> None:
    # 001 p.34 "Stat - Rating may include a Stat: Body+2 with Body:4x1 = Power Rating:6x1".
    r = d2d.json("crit", "--weapon", "Body+2", "--stat", "4x1", "--card", "pierce@head")
    assert r["power"] == "6x1"
    assert str(crits.power_rating(None, "[Body]+2", "4x1")) == "6x1"
    assert str(crits.power_rating(None, "body-1", "4x1")) == "3x1"
    assert str(crits.power_rating(None, "Body", "9x2")) == "9x2"


def test_compare_levels_page_34(d2d: Any) -> None:
    # 001 l.928–930 "IF Power Level > Armor Level THEN Hits:+1 (eg 7x2 > 2x1 = Hits:+1)":
    # the level comparison gives the printed +1 ...
    r = d2d.json("crit", "--power", "7x2", "--armor", "2x1", "--hits", 1,
                 "--card", "bash@torso")
    assert r["bonus"]["level"] == 1
    # ... and its scale is one above the armour's: l.934–936 "IF Power Scale >= Armor
    # Scale THEN Hits:+Difference" adds 1 more. The example's "= Hits:+1" is its level
    # part only (docs/errata.md "Crits: Rating").
    assert r["bonus"]["scale"] == 1
    assert (r["bonus_hits"], r["hits"]) == (2, 3)


def test_compare_scales_page_34(d2d: Any) -> None:
    # 001 l.936 "(eg 2x4 > 9x1 = Hits:+3)": level 2 < 9 adds nothing, scale 4−1 = 3.
    r = d2d.json("crit", "--power", "2x4", "--armor", "9x1", "--hits", 1,
                 "--card", "bash@torso")
    assert r["bonus"] == {"level": 0, "scale": 3}
    assert (r["bonus_hits"], r["hits"]) == (3, 4)


@pytest.mark.parametrize(("power", "armor", "level", "scale", "added"), [
    ("6x1", "6x1", 0, 0, 0),    # equal: the armor cancels the whole Power
    ("6x1", "2x2", 0, 0, 0),    # a Power on a lower scale is smaller: nothing
    ("2x1", "9x3", 0, 0, 0),    # armour never removes Hits below those of the Conflict
    ("9x0", "2x5", 0, 0, 0),    # issue 11: a Power 1/22,000 of the Armor adds no Hit
    ("6x1", "2x1", 1, 0, 1),
    ("2x2", "10x1", 0, 1, 1),   # 200 against 100: one scale up
    # No armor is an Armor Rating of 0, 0x0: the Power alone adds its Hits.
    ("6x1", None, 1, 1, 2),
    ("5x0", None, 1, 0, 1),
    ("6x24", None, 1, 24, 25),
    ("5x-1", None, 0, 0, 0),
    # Armor only cancels (001 l.910): a rating below 1 (scale < 0) would compare as
    # more than no armor; it adds no more than none.
    ("10x1", "2x-1", 1, 2, 2),
    ("5x-1", "2x-3", 1, 2, 0),
])
def test_compare_and_bonus_hits(power: str, armor: str | None, level: int, scale: int,
                                added: int) -> None:
    worn = parse_stat(armor) if armor else None
    assert crits.compare(parse_stat(power), worn) == crits.Bonus(level, scale)
    assert crits.bonus_hits(parse_stat(power), worn) == added


# --------------------------------------------------------------------------- severity


# An armor equal to the Power cancels it (bonus 0): the Hits given are the Crit's Hits.
CANCELLED = ("--power", "5x1", "--armor", "5x1")


@pytest.mark.parametrize(("hits", "severity", "rotations", "light"), [
    # 001 p.35 "For each Hit > 1, rotate the card to the left to the next Severity level.
    # For example: Hits:4 would rotate 3 times".
    (1, "minor", 0, []),
    (2, "major", 1, []),
    (3, "critical", 2, []),
    (4, "extreme", 3, []),
    (5, "extreme", 3, ["fatigue"]),
    (7, "extreme", 3, ["fatigue", "fatigue", "fatigue"]),
])
def test_severity(d2d: Any, hits: int, severity: str, rotations: int,
                  light: list[str]) -> None:
    r = d2d.json("crit", *CANCELLED, "--hits", hits, "--card", "slash@torso")
    assert (r["severity"], r["rotations"], r["light_damage"]) == (severity, rotations, light)
    # The default Mortal Wound counts the Crits on the target (000 l.540): without
    # --target the count is unknown (issue 11 item 9).
    assert (r["mortal_wound"], r["mortal_rule"], r["crit_count"]) == (None, "crits4", None)


def test_mortal_wound_options(d2d: Any, tmp_path: Path) -> None:
    # The other readings of 000 l.540 "IF 4 or more Crits" (issue 11 item 9: kept as
    # options): "extreme" — 4 Hits turn the card to Extreme; "past_extreme" — Hits
    # beyond Extreme; "off".
    s = with_rules(d2d, tmp_path, mortal_wound="extreme")
    assert d2d.json("--session", s, "crit", *CANCELLED, "--hits", 4,
                    "--card", "bash@head")["mortal_wound"] is True
    assert d2d.json("--session", s, "crit", *CANCELLED, "--hits", 3,
                    "--card", "bash@head")["mortal_wound"] is False
    s = with_rules(d2d, tmp_path, mortal_wound="past_extreme")
    assert d2d.json("--session", s, "crit", *CANCELLED, "--hits", 4,
                    "--card", "bash@head")["mortal_wound"] is False
    assert d2d.json("--session", s, "crit", *CANCELLED, "--hits", 5,
                    "--card", "bash@head")["mortal_wound"] is True
    s2 = tmp_path / "off.toml"
    d2d.ok("--session", s2, "fate", "status")
    s2.write_text(s2.read_text().replace("[rules]\n", '[rules]\nmortal_wound = "off"\n'))
    r = d2d.json("--session", s2, "crit", *CANCELLED, "--hits", 9, "--card", "bash@head")
    assert r["mortal_wound"] is False and len(r["light_damage"]) == 5
    assert r["mortal_rule"] == "off"


# --------------------------------------------------------------------------- decks


@pytest.mark.parametrize(("types", "deck", "light", "card"), [
    # 000 "Reference > Damage": Wounds (Body) bash pierce hack slash, Fatigue; Disorders
    # (Mind) loss delusion compulsion nerve, Stun; Traumas (Will) rage despair need fear,
    # Stress; Restraints (Speed; 001's Burden) constrict bind hold lock, Slow.
    ("pierce,slash", "wound", "fatigue", "slash@head"),
    ("nerve", "disorder", "stun", "nerve@torso"),
    ("fear", "trauma", "stress", "fear@left_leg"),
    ("bind,hold", "burden", "slow", "hold@right_arm"),
])
def test_types_choose_the_deck(d2d: Any, types: str, deck: str, light: str,
                               card: str) -> None:
    r = d2d.json("crit", *CANCELLED, "--hits", 5, "--types", types, "--card", card)
    assert (r["deck"], r["light_damage"], r["card"]) == (deck, [light], card)


def test_draw_until_a_matching_type_page_33(d2d: Any) -> None:
    # 001 p.33 "Find Deck with matching Damage Types. Draw until you find matching a Type".
    r = d2d.json("crit", "--power", "6x1", "--armor", "6x1", "--hits", 2, "--types",
                 "pierce,slash", "--card", "bash@head", "--card", "Hack @ Torso",
                 "--card", "slash@left-arm")
    assert r["skipped"] == ["bash@head", "hack@torso"]
    assert (r["card"], r["location"], r["location_name"]) == (
        "slash@left_arm", "left_arm", "Left Arm")
    assert r["severity"] == "major" and r["table_mode"] is True


def test_no_types_takes_the_first_wound_card(d2d: Any) -> None:
    r = d2d.json("crit", "--power", "6x1", "--card", "hack@head")
    assert (r["deck"], r["types"], r["location"]) == ("wound", [], "head")


def test_table_mode_errors(d2d: Any) -> None:
    res = d2d("crit", "--power", "6x1", "--types", "pierce", "--card", "bash@head")
    assert res.exit_code == 2
    assert "not enough cards with --card: 1 given, at least 2 needed" in res.stderr
    res = d2d("crit", "--power", "6x1", "--types", "pierce", "--card", "pierce@head",
              "--card", "bash@torso")
    assert res.exit_code == 2
    assert "too many cards with --card: 2 given, only 1 needed" in res.stderr
    res = d2d("crit", "--power", "6x1", "--card", "pierce@tail")
    assert res.exit_code == 2
    assert "head, torso, left_arm, right_arm, left_leg, right_leg" in res.stderr


def test_vehicle_chart(d2d: Any) -> None:
    r = d2d.json("crit", "--vehicle", "--power", "6x3", "--armor", "4x3", "--card",
                 "bash@engine")
    assert (r["chart"], r["location"], r["location_name"]) == ("vehicle", "engine", "Engine")
    res = d2d("crit", "--vehicle", "--power", "6x3", "--card", "bash@head")
    assert res.exit_code == 2 and "hull, propulsion, engine" in res.stderr


def test_deck_composition() -> None:
    person = crits.chart("person")
    cards = crits.deck_cards("wound", person)
    assert len(cards) == 48
    per_type = Counter(c.split("@")[0] for c in cards)
    assert per_type == {"bash": 12, "pierce": 12, "hack": 12, "slash": 12}
    locs = Counter(c.split("@")[1] for c in cards if c.startswith("pierce@"))
    assert locs == {"head": 1, "torso": 3, "left_arm": 2, "right_arm": 2,
                    "left_leg": 2, "right_leg": 2}
    assert len(crits.deck_cards("burden", crits.chart("vehicle"))) == 48


def test_virtual_deck_in_thewith_rules(d2d: Any) -> None:
    r1 = d2d.json("--seed", "5", "crit", "--power", "6x1", "--hits", 2, "--types", "pierce")
    assert r1["table_mode"] is False and r1["new_deck"] is True
    assert r1["card"].startswith("pierce@")
    path = Path(d2d.ok("session", "path").strip())
    import tomllib

    state = tomllib.loads(path.read_text())["damage"]["person"]["wound"]
    held = state["draw"] + state["discard"]
    assert sorted(held) == sorted(crits.deck_cards("wound", crits.chart("person")))
    assert state["discard"] == [*r1["skipped"], r1["card"]]
    r2 = d2d.json("crit", "--power", "6x1", "--types", "pierce")
    assert r2["new_deck"] is False
    # The journal names the command as it was typed (not flags never given).
    log = d2d.ok("session", "log")
    assert "  crit --power 6x1 --hits 2 --types pierce  Crit pierce@" in log
    assert "  crit --power 6x1 --types pierce  Crit pierce@" in log


def test_virtual_deck_is_reproducible_with_seed(d2d: Any, tmp_path: Path) -> None:
    a = d2d.json("--session", tmp_path / "a.toml", "--seed", "9", "crit", "--power", "5x1",
                 "--types", "fear")
    b = d2d.json("--session", tmp_path / "b.toml", "--seed", "9", "crit", "--power", "5x1",
                 "--types", "fear")
    assert (a["card"], a["skipped"]) == (b["card"], b["skipped"])


def test_damage_deck_reshuffles_its_discards() -> None:
    rng = random.Random(1)
    cards = crits.deck_cards("trauma", crits.chart("person"))
    deck, rebuilt = crits.DamageDeck.from_state(None, cards, rng)
    assert rebuilt
    for _ in range(len(cards)):
        deck.take(rng)
    assert not deck.draw and not deck.reshuffled
    deck.take(rng)
    assert deck.reshuffled
    assert sorted(deck.draw + deck.discard) == sorted(cards)
    # A stored deck that no longer fits the chart is rebuilt.
    again, rebuilt = crits.DamageDeck.from_state({"draw": ["fear@head"], "discard": []},
                                                 cards, rng)
    assert rebuilt and len(again.draw) == len(cards)


def test_table_location_chart_from_rules(d2d: Any, tmp_path: Path) -> None:
    (tmp_path / "charts.toml").write_text(
        '[person]\nname = "Our table"\nlocations = [\n'
        '  { key = "upper", name = "Upper body", cards = 1 },\n'
        '  { key = "lower", name = "Lower body", cards = 1 },\n]\n')
    s = with_rules(d2d, tmp_path, locations_file="charts.toml")
    r = d2d.json("--session", s, "crit", "--power", "5x1", "--card", "bash@lower")
    assert r["location_name"] == "Lower body"
    r = d2d.json("--session", s, "--seed", "1", "crit", "--power", "5x1", "--types", "bash")
    assert r["location"] in ("upper", "lower")
    # The vehicle chart, not in the file, stays d2d's default.
    r = d2d.json("--session", s, "crit", "--vehicle", "--power", "5x1", "--card", "bash@hull")
    assert r["location"] == "hull"
    (tmp_path / "x").mkdir()
    bad = with_rules(d2d, tmp_path / "x", locations_file="missing.toml")
    res = d2d("--session", bad, "crit", "--power", "5x1", "--card", "bash@head")
    assert res.exit_code == 2 and "locations_file 'missing.toml' cannot be read" in res.stderr


# --------------------------------------------------------------------------- input


@pytest.mark.parametrize(("args", "message"), [
    (["--power", "8x"], "a stat is <level>x<scale>"),
    (["--power", "x1"], "a stat is <level>x<scale>"),
    (["--power", "6x1", "--armor", "x1"], "a stat is <level>x<scale>"),
    (["--weapon", "Body+2", "--stat", "8x"], "a stat is <level>x<scale>"),
    (["--weapon", "Body+2"], "needs --stat"),
    (["--weapon", "Strength+2", "--stat", "4x1"],
     "'Strength+2' is not a weapon formula: --weapon takes a formula STAT[+N|-N]"),
    (["--power", "6x1", "--weapon", "Body+2"], "not both"),
    ([], "give the Power Rating"),
    (["--power", "6x1", "--types", "laser"], "known types: Wound: bash, pierce, hack, slash"),
    (["--power", "6x1", "--types", "pierce,fear"], "different Damage Decks"),
    (["--power", "6x1", "--hits", "0"], "--hits must be 1 or more"),
    (["--power", "6x1", "--card", "pierce"], "a damage card is TYPE@LOCATION"),
])
def test_bad_input(d2d: Any, args: list[str], message: str) -> None:
    before = d2d.json("fate", "status")
    res = d2d("crit", *args)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr
    assert res.stderr.count("\n") == 1
    assert d2d.json("fate", "status") == before


def test_bad_rules_option(d2d: Any, tmp_path: Path) -> None:
    s = with_rules(d2d, tmp_path, mortal_wound="sometimes")
    res = d2d("--session", s, "crit", "--power", "5x1", "--card", "bash@head")
    # A bad hand edit is a session the command cannot use (exit 3), named with its key.
    assert res.exit_code == 3
    assert f"{s}: [rules] mortal_wound: 'sometimes': use \"crits4\", \"past_extreme\", " \
        "\"extreme\" or \"off\"" in res.stderr


def test_crit_json_is_complete_and_stable(d2d: Any) -> None:
    # Issue 11 changed it: the armor found at the location and where it came from, the
    # Power's Hits with no armor, and the Mortal Wound rule with the Crit count.
    r = d2d.json("crit", "--weapon", "Body+2", "--stat", "4x1", "--armor", "2x1",
                 "--hits", 3, "--types", "pierce,slash", "--card", "pierce@head")
    assert r == {
        "power": "6x1", "armor": "2x1", "armor_source": "option", "armor_scope": "all",
        "bonus": {"level": 1, "scale": 0}, "bonus_unarmored": 2,
        "bonus_hits": 1, "hits_before": 3, "hits": 4, "deck": "wound",
        "deck_name": "Wound", "types": ["pierce", "slash"], "chart": "person",
        "card": "pierce@head", "type": "pierce", "location": "head",
        "location_name": "Head", "skipped": [], "severity": "extreme", "rotations": 3,
        "mortal_wound": None, "mortal_rule": "crits4", "crit_count": None,
        "light_damage": [], "table_mode": True,
        "reshuffled": False, "new_deck": False, "target": None,
        # Issue 12: where the Power and the armor came from.
        "sources": {"power": "Body+2 with --stat 4x1",
                    "armor": "--armor 2x1 (every location)"},
        # issue 19: no Damage Modifier given, no light damage flipped, 001's rating
        "damage_modifiers": None, "flipped": [], "rated_against": "armor", "stack": [],
        "hit_location": "001",
        # issue 34: no Wild of Wild Luck discarded from a hand
        "hand": None,
    }


def test_human_output(d2d: Any) -> None:
    out = d2d.ok("crit", "--power", "2x4", "--armor", "9x1", "--hits", 2,
                 "--card", "bash@torso")
    assert out == (
        "Wound deck: bash@torso → Crit location Torso\n"
        "Armor at Torso: 9x1 (from --armor, every location)\n"
        "Power 2x4 vs Armor 9x1: Hits +0 (level), +3 (scale) → Hits 2 + 3 = 5\n"
        "Severity Extreme (3 rotations)\n"
        "Light damage: Fatigue\n"
        "Mortal Wound: unknown without --target (000 l.540: the 4th Crit on a unit).\n"
    )


def test_human_output_skipped_cards_no_armor_and_the_cap(d2d: Any) -> None:
    out = d2d.ok("crit", "--power", "10x1", "--types", "pierce", "--armor", "head=2x-1",
                 "--card", "bash@head", "--card", "pierce@torso")
    assert out == (
        "Drawn, no matching type: bash@head\n"
        "Wound deck: pierce@torso → Crit location Torso\n"
        "Armor at Torso: none\n"
        "Power 10x1 vs no armor (0x0): Hits +1 (level), +1 (scale) → Hits 1 + 2 = 3\n"
        "Severity Critical (2 rotations)\n"
        "Mortal Wound: unknown without --target (000 l.540: the 4th Crit on a unit).\n"
    )
    out = d2d.ok("crit", "--power", "10x1", "--armor", "head=2x-1", "--card", "bash@head")
    assert out == (
        "Wound deck: bash@head → Crit location Head\n"
        "Armor at Head: 2x-1 (from --armor)\n"
        "Power 10x1 vs Armor 2x-1: Hits +1 (level), +2 (scale), at most +2 (no armor) → "
        "Hits 1 + 2 = 3\n"
        "Severity Critical (2 rotations)\n"
        "Mortal Wound: unknown without --target (000 l.540: the 4th Crit on a unit).\n"
    )


# --------------------------------------------------------------------------- --target


def _with_goblin(d2d: Any, tmp_path: Path) -> Path:
    path = tmp_path / "fight.toml"
    d2d.ok("--session", path, "fate", "status")
    path.write_text(path.read_text() + '\n[units.Goblin]\nkind = "unit"\nbody = "2x1"\n'
                    '[units.Goblin.conditions]\nfatigue = 1\n')
    return path


def test_target_gets_the_crit_and_light_damage(d2d: Any, tmp_path: Path) -> None:
    # 001 l.1001–1003 "Crits - Place any Crits on Target. Hits - For any remaining Hits,
    # place facedown Damage cards" (Light Damage: a Minor Condition, 000 "Fatigue -
    # Body:-1").
    import tomllib

    s = _with_goblin(d2d, tmp_path)
    # Body 2x1 with a Fatigue is 1x1: the first light Fatigue brings it to 0, the second
    # flips to a Crit (001 l.946–947 "IF Unit has Stat=0 THEN flip to Crit"), on the
    # next card drawn.
    r = d2d.json("--session", s, "crit", *CANCELLED, "--hits", 6, "--card",
                 "slash@torso", "--card", "pierce@head", "--target", "goblin")
    assert r["target"]["conditions_added"] == {"fatigue": 1}
    assert (r["mortal_wound"], r["crit_count"], r["flipped"]) == (False, 2, ["pierce@head"])
    gob = tomllib.loads(s.read_text())["units"]["Goblin"]
    assert gob["conditions"] == {"fatigue": 2}
    assert gob["crits"] == [{"card": "slash@torso", "deck": "wound", "location": "torso",
                             "severity": "extreme", "mortal_wound": False},
                            {"card": "pierce@head", "deck": "wound", "location": "head",
                             "severity": "minor", "mortal_wound": False}]
    assert gob["body"] == "2x1"
    d2d.json("--session", s, "--seed", "2", "crit", "--power", "5x1", "--types", "fear",
             "--target", "Goblin")
    gob = tomllib.loads(s.read_text())["units"]["Goblin"]
    assert [c["deck"] for c in gob["crits"]] == ["wound", "wound", "trauma"]
    assert "on Goblin" in d2d.ok("--session", s, "session", "log")


def test_mortal_wound_quote_is_the_rule_text() -> None:
    assert rule_text("000").splitlines()[539] == (
        "  - Mortal Wound - IF 4 or more Crits then the Unit has suffered a Mortal Wound "
        "and is Dying.")


def test_mortal_wound_is_the_fourth_crit_on_the_unit(d2d: Any, tmp_path: Path) -> None:
    # 000 l.540 "Mortal Wound - IF 4 or more Crits then the Unit has suffered a Mortal
    # Wound and is Dying": the default counts the Crits placed on the target, this one
    # included, whatever their severity. Dying is a status: it is placed once.
    import tomllib

    s = _with_goblin(d2d, tmp_path)
    got = [d2d.json("--session", s, "crit", *CANCELLED, "--card", f"bash@{loc}",
                    "--target", "Goblin")
           for loc in ("head", "torso", "left_arm", "right_arm", "left_leg")]
    assert [(r["crit_count"], r["mortal_wound"], r["severity"]) for r in got] == [
        (1, False, "minor"), (2, False, "minor"), (3, False, "minor"), (4, True, "minor"),
        (5, True, "minor")]
    assert [r["target"]["conditions_added"] for r in got] == [{}, {}, {}, {"dying": 1}, {}]
    gob = tomllib.loads(s.read_text())["units"]["Goblin"]
    assert gob["conditions"] == {"fatigue": 1, "dying": 1}
    assert [c["mortal_wound"] for c in gob["crits"]] == [False, False, False, True, True]
    out = d2d.ok("--session", s, "crit", *CANCELLED, "--card", "bash@right_leg",
                 "--target", "Goblin")
    assert out == (
        "Wound deck: bash@right_leg → Crit location Right Leg\n"
        "Armor at Right Leg: 5x1 (from --armor, every location)\n"
        "Power 5x1 vs Armor 5x1: Hits +0 (level), +0 (scale) → Hits 1 + 0 = 1\n"
        "Severity Minor (0 rotations)\n"
        "Mortal Wound: the Unit is Dying.\n"
        "Placed on Goblin (Crit 6)\n"
    )


def test_unknown_target_changes_nothing(d2d: Any, tmp_path: Path) -> None:
    s = _with_goblin(d2d, tmp_path)
    before = s.read_text()
    res = d2d("--session", s, "crit", "--power", "5x1", "--types", "fear", "--target", "Orc")
    assert res.exit_code == 2 and "no unit 'Orc'" in res.stderr
    assert s.read_text() == before
