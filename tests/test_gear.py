"""What a unit carries (issue 36): weapons on the unit record, read by ``crit``,
``conflict``, ``hit`` and ``odds``; Magic Weapons and Armor; a Shield on a side Arc;
Proficiency. A unit without gear fights exactly as before (000 l.506)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from d2d_cli import session
from tests.helpers import rule_text

GOBLIN = ("--body", "2x1", "--mind", "6x1", "--will", "2x1", "--speed", "5x0")
KNIGHT = ("--body", "4x1", "--mind", "5x1", "--will", "5x1", "--speed", "4x0")


def test_the_quoted_lines_are_the_rule_text() -> None:
    zero, one = rule_text("000").splitlines(), rule_text("001").splitlines()
    assert zero[505] == "Each weapon has a Damage value. IF no Weapon THEN use Hand to Hand Damage."
    assert zero[509].startswith("- Damage Types - Each Weapon has 1 or 2 Damage Types.")
    assert zero[378].startswith("    - Proficiency - In order to use a Weapon, Mount, or "
                                "specialized Item, you must have a Proficiency in that type.")
    assert zero[1212] == ("- Magic Armor - Rated from +1 to +5. In Combat, they provide "
                          "Armor:+1x1/point.")
    assert zero[1213].endswith("In Combat, they provide Initiative:+1/point and Target "
                               "Armor:-1x-1/point.")
    assert zero[587] == "      - Weapon - Javelin"
    assert zero[334] == ("  - IF the Weapon Scale is different from the Rival's Stat Scale "
                         "THEN Difference = Stat Scale - Weapon Scale.")
    assert one[267] == "Sword: Long  "
    assert one[273] == "\\* [Weapon]: Rating:[Body]+2 [Pierce] [Slash]  "
    assert one[274] == "[1-Handed] [Melee Weapon]  "
    assert one[668] == "Melee and Shields act on the Left OR Right"


@pytest.fixture
def table(d2d: Any, tmp_path: Path) -> Path:
    path = tmp_path / "s.toml"
    d2d.ok("--session", path, "unit", "add", "Goblin", *GOBLIN, "--skill", "Melee=1")
    d2d.ok("--session", path, "unit", "add", "Knight", *KNIGHT, "--skill", "Melee=1")
    return path


# --------------------------------------------------------------------------- the record


def test_gear_add_a_sample_writes_the_weapon_on_the_unit(d2d: Any, table: Path) -> None:
    r = d2d.json("--session", table, "unit", "gear", "add", "Goblin", "sword: long")
    assert [w["name"] for w in r["weapons"]] == ["Sword: Long"]
    w = r["weapons"][0]
    # 001 l.274–275 "Rating:[Body]+2 [Pierce] [Slash] [1-Handed] [Melee Weapon]"
    assert (w["rating"], w["types"], w["hands"], w["attack"]) == (
        "Body+2", ["pierce", "slash"], 1, "melee")
    unit = session.read(table)["units"]["Goblin"]
    assert unit["weapons"] == {"Sword: Long": {"rating": "Body+2", "types": ["pierce", "slash"],
                                               "hands": 1, "attack": "melee",
                                               "proficiency": "Sword"}}


def test_gear_add_your_own_and_take_it_off(d2d: Any, table: Path) -> None:
    r = d2d.json("--session", table, "unit", "gear", "add", "Goblin", "Sling", "--rating",
                 "Body+1", "--types", "bash", "--range", "6,12", "--magic", "2")
    w = r["weapons"][0]
    assert (w["attack"], w["range"], w["magic"]) == ("ranged", [6, 12], 2)
    r = d2d.json("--session", table, "unit", "gear", "rm", "Goblin", "sling")
    assert r["weapons"] == [] and r["hand_to_hand"] is True
    assert "weapons" not in session.read(table)["units"]["Goblin"]


@pytest.mark.parametrize(("args", "message"), [
    (("Foo",), "no sample item 'Foo'"),
    (("Club", "--rating", "Body+1", "--types", "bash,fear"), "different Damage Decks"),
    (("Club", "--rating", "Body+1", "--types", "bash,pierce,slash"), "1 or 2 Damage Types"),
    (("Club", "--rating", "Bdy+1"), "is a formula STAT"),
    (("Bow2", "--rating", "Body+1", "--thrown"), "needs its range"),
    (("Club", "--rating", "Body", "--melee", "--range", "3"), "--range is a ranged"),
    (("Helm", "--armor", "2x1", "--covers", "tail"), "the locations are"),
    (("Buckler", "--shield", "2x1", "--arc", "up"), "left or right"),
    (("Bow", "--magic", "9"), "magic is 0 to 5"),
])
def test_bad_gear_is_refused_and_changes_nothing(d2d: Any, table: Path, args: tuple[str, ...],
                                                 message: str) -> None:
    before = table.read_bytes()
    res = d2d("--session", table, "unit", "gear", "add", "Goblin", *args)
    assert res.exit_code == 2 and message in res.stderr, res.stderr
    assert table.read_bytes() == before


# --------------------------------------------------------------------------- crit


def test_crit_by_rates_with_the_wielders_sword_001_l274(d2d: Any, table: Path) -> None:
    # The measurement: a goblin's Body 2x1 against Armor 2x1 gives Hits 1 → Minor;
    # 001's sword "Rating:[Body]+2" makes it Power 4x1 (001 l.920): Hits 1 → Major.
    args = ("--session", table, "crit", "--by", "Goblin", "--armor", "2x1", "--hits", 1,
            "--card", "pierce@torso")
    bare = d2d.json(*args)
    assert (bare["power"], bare["severity"]) == ("2x1", "minor")  # Hand to Hand: Body
    assert bare["sources"]["weapon"].startswith("Goblin's Hand to Hand (000 l.506")
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Sword: Long")
    armed = d2d.json(*args)
    assert (armed["power"], armed["severity"], armed["types"]) == (
        "4x1", "major", ["pierce", "slash"])
    assert armed["sources"]["power"] == "Body+2 with Goblin's Body 2x1"
    two = d2d.json(*args[:-4], "--hits", 2, "--card", "slash@head")
    assert two["severity"] == "critical"


def test_hand_to_hand_is_crit_weapon_body_exactly(d2d: Any, table: Path) -> None:
    """000 l.506: a unit without a weapon rates as ``--weapon Body`` did before."""
    common = ("--session", table, "crit", "--by", "Knight", "--hits", 2, "--card", "bash@torso")
    a, b = d2d.json(*common), d2d.json(*common, "--weapon", "Body")
    for key in ("power", "hits", "severity", "bonus_hits", "types", "deck"):
        assert a[key] == b[key]


def test_with_chooses_and_a_typed_weapon_still_wins(d2d: Any, table: Path) -> None:
    for item in ("Dagger", "Spear"):
        d2d.ok("--session", table, "unit", "gear", "add", "Knight", item)
    base = ("--session", table, "crit", "--by", "Knight", "--card", "pierce@torso")
    res = d2d(*base)
    assert res.exit_code == 2 and "say which with --with NAME" in res.stderr
    assert d2d.json(*base, "--with", "spear")["power"] == "6x1"  # Body 4x1 +2
    assert d2d.json(*base, "--with", "dagger")["power"] == "5x1"
    assert d2d.json(*base, "--weapon", "Body+4")["power"] == "8x1"  # typed wins
    res = d2d(*base, "--with", "Axe")
    assert res.exit_code == 2 and "carries no weapon 'Axe'" in res.stderr


def test_weapon_takes_a_sample_name(d2d: Any) -> None:
    r = d2d.json("crit", "--weapon", "Sword: Long", "--stat", "4x1", "--card", "slash@head")
    assert (r["power"], r["types"]) == ("6x1", ["pierce", "slash"])


def test_magic_weapon_and_magic_armor_change_the_armor_met(d2d: Any, table: Path) -> None:
    # 000 l.1213 Magic Armor "Armor:+1x1/point"; l.1214 Magic Weapon "Target Armor:
    # -1x-1/point", read as -1x1 (docs/rules.md "What a unit carries").
    d2d.ok("--session", table, "unit", "gear", "add", "Knight", "Breastplate", "--armor", "3x1",
           "--covers", "torso")
    args = ("--session", table, "crit", "--power", "4x1", "--target", "Knight", "--card",
            "pierce@torso")
    assert d2d.json(*args)["armor"] == "3x1"
    d2d.ok("--session", table, "unit", "gear", "rm", "Knight", "armor")
    d2d.ok("--session", table, "unit", "gear", "add", "Knight", "Breastplate", "--armor", "3x1",
           "--covers", "torso", "--magic", "1")
    r = d2d.json(*args)
    assert (r["armor"], r["bonus_hits"]) == ("4x1", 0)  # 3x1 + 1x1: the 4x1 Power cancelled
    assert "Magic Armor +1" in r["sources"]["magic_armor"]
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Wand", "--rating", "Body+2",
           "--types", "pierce", "--magic", "2")
    r = d2d.json("--session", table, "crit", "--by", "Goblin", "--target", "Knight",
                 "--card", "pierce@torso")
    assert r["armor"] == "2x1"  # 4x1 − 2x1


# --------------------------------------------------------------------------- conflict


def test_a_melee_weapon_out_of_reach_is_refused(d2d: Any, table: Path) -> None:
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Dagger")
    before = table.read_bytes()
    res = d2d("--session", table, "conflict", "Goblin:7S^", "Knight:5H^", "--range", "3")
    assert res.exit_code == 2
    assert "Goblin's Dagger is a Melee weapon: Melee reaches Range 0-1" in res.stderr
    assert table.read_bytes() == before
    res = d2d("--session", table, "odds", "conflict", "Goblin:fast", "Knight:fast")
    assert res.exit_code == 0  # no range said: nothing to refuse


def test_a_ranged_weapon_reads_its_bands(d2d: Any, table: Path) -> None:
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Javelin")  # Range 4 / 8
    near = d2d.json("--session", table, "conflict", "Goblin:7S^", "Knight:5H^", "--range", "3")
    assert near["advantage"]["a"]["mode"] == "normal"
    far = d2d.json("--session", table, "conflict", "Goblin:7S^", "Knight:5H^", "--range", "6")
    assert [s["key"] for s in far["advantage"]["a"]["sources"]] == ["long_range"]
    res = d2d("--session", table, "conflict", "Goblin:7S^", "Knight:5H^", "--range", "9")
    assert res.exit_code == 2 and "reaches Range 8" in res.stderr
    # 001 l.695 "Disadvantage at Range:0-1" still holds for the thrown weapon
    close = d2d.json("--session", table, "conflict", "Goblin:7S^", "Knight:5H^", "--range", "1")
    assert [s["key"] for s in close["advantage"]["a"]["sources"]] == ["range"]


def test_magic_weapon_adds_initiative_000_l1214(d2d: Any, table: Path) -> None:
    args = ("--session", table, "conflict", "Goblin:7S^", "Knight:5H^", "--range", "1")
    before = d2d.json(*args)["side_a"]["level"]
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Dagger", "--magic", "2")
    r = d2d.json(*args)
    assert r["side_a"]["level"] == before + 2
    assert [m["key"] for m in r["modifiers"]] == ["magic_weapon"]


def test_no_proficiency_is_disadvantage_000_l379(d2d: Any, table: Path) -> None:
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Dagger")
    args = ("--session", table, "conflict", "Goblin:7S^", "Knight:5H^", "--range", "1")
    assert d2d.json(*args)["advantage"]["a"]["mode"] == "normal"  # keeps no list: unchecked
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "--proficient", "Bow")
    r = d2d.json(*args)
    assert [(s["key"], s["mode"]) for s in r["advantage"]["a"]["sources"]] == [
        ("proficiency", "disadvantage")]
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "--proficient", "dagger")
    assert d2d.json(*args)["advantage"]["a"]["mode"] == "normal"


def test_hit_applies_the_weapons_scale_000_l335(d2d: Any, table: Path) -> None:
    # Difference = Stat Scale − Weapon Scale: a Scale 2 weapon at the Knight's Body 4x1
    # (scale 1) is Difference −1: Level −1 and Disadvantage.
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Ballista", "--rating", "3x2",
           "--types", "pierce", "--scale", "2", "--range", "10")
    r = d2d.json("--session", table, "hit", "9S", "--by", "Goblin", "--vs", "Knight")
    assert [(m["key"], m["level"]) for m in r["modifiers"]] == [("weapon_scale", -1)]
    assert r["sources"]["weapon_scale"].startswith("2 (Goblin's Ballista")


# --------------------------------------------------------------------------- shields


def test_a_shield_covers_only_from_its_side_001_l669(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    d2d.ok("--session", path, "scene", "load", "combat1")
    d2d.ok("--session", path, "unit", "gear", "add", "Goblin Scout", "Shield")  # left, 2x1
    # The Scout on I2 faces SW; the Archer stands on its left, then on its right.
    args = ("--session", path, "crit", "--by", "Archer", "--target",  # with his Bow
            "Goblin Scout", "--card", "pierce@torso", "--hits", 2)
    d2d.ok("--session", path, "unit", "place", "Archer", "J3", "N")  # SE of I2: the left
    left = d2d.json(*args)
    assert [s["key"] for s in left["damage_modifiers"]["steps"]] == ["shield"]
    d2d.ok("--session", path, "session", "undo")
    d2d.ok("--session", path, "unit", "place", "Archer", "H1", "N")  # NW of I2: the right
    right = d2d.json(*args)
    assert right["damage_modifiers"] is None
    assert "does not cover" in right["sources"]["shield"]


# --------------------------------------------------------------------------- everywhere


def test_scene_file_weapons_are_checked(d2d: Any, tmp_path: Path) -> None:
    good = tmp_path / "a.toml"
    good.write_text('name = "A"\n[units.Orc]\nbody = "9x1"\nspeed = "4x0"\n'
                    '[units.Orc.weapons.Axe]\nrating = "Body+2"\ntypes = ["hack"]\n')
    d2d.ok("--session", tmp_path / "s.toml", "scene", "load", good)
    r = d2d.json("--session", tmp_path / "s.toml", "unit", "gear", "show", "Orc")
    assert r["weapons"][0]["name"] == "Axe"
    bad = tmp_path / "b.toml"
    bad.write_text(good.read_text().replace('["hack"]', '["fire", "ice", "x"]'))
    res = d2d("--session", tmp_path / "s.toml", "scene", "load", bad)
    assert res.exit_code == 2 and "scene: units.Orc:" in res.stderr


def test_char_new_gear_export_import_and_the_sheet(d2d: Any, tmp_path: Path) -> None:
    s = tmp_path / "s.toml"
    d2d.ok("--session", s, "char", "new", "Rook", "--body", "7", "--speed", "5", "--gear",
           "Dagger", "--gear", "Shield")
    out = tmp_path / "rook.toml"
    d2d.ok("--session", s, "char", "export", "Rook", "--format", "toml", "--output", out)
    d2d.ok("--session", tmp_path / "t.toml", "char", "import", out)
    r = d2d.json("--session", tmp_path / "t.toml", "unit", "gear", "show", "Rook")
    assert ([w["name"] for w in r["weapons"]], r["shield"], r["shield_arc"]) == (
        ["Dagger"], "2x1", "left")
    html = d2d.ok("--session", s, "char", "export", "Rook", "--format", "html", "--output", "-")
    assert "<h2>Weapons</h2><ul><li>Dagger (Body+1, pierce/slash, 1-handed, melee)" in html
    plain = d2d.ok("--session", tmp_path / "u.toml", "char", "new", "Bare", "--body", "7",
                   "--speed", "5")
    assert plain
    assert "Weapons" not in d2d.ok("--session", tmp_path / "u.toml", "char", "export", "Bare",
                                   "--format", "html", "--output", "-")


def test_status_why_and_the_players_page(d2d: Any, table: Path) -> None:
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Javelin")
    out = d2d.ok("--session", table, "--why", "status")
    assert "Goblin carries: Javelin (Body+1, pierce, 1-handed, thrown 4/8)" in out
    assert "Knight carries: Hand to Hand (Body)" in out
    assert "carries" not in d2d.ok("--session", table, "status")
    from d2d_cli.serve import project

    rows = {u["name"]: u for u in project.public(session.read(table), [], "t")["units"]}
    assert rows["Goblin"]["weapons"] == ["Javelin (Body+1, pierce, 1-handed, thrown 4/8)"]
    assert rows["Knight"]["weapons"] == []


def test_an_old_session_without_gear_reads_unchanged(d2d: Any, table: Path) -> None:
    before = table.read_bytes()
    d2d.ok("--session", table, "unit", "show", "Goblin")
    d2d.ok("--session", table, "unit", "gear", "show", "Goblin")
    assert table.read_bytes() == before


# --------------------------------------------------------------------------- Magic, Shield Block


def test_vulgar_magic_and_armor_pierce_000_l913_914(d2d: Any, tmp_path: Path) -> None:
    zero = rule_text("000").splitlines()
    assert zero[912].strip() == ("- Disbelief / Vulgar - IF any observers who are not Allies "
                                 "or Magic users/creatures THEN Result:-0x1")
    assert zero[913].strip() == "- Armor Pierce:+0x1/point"
    s = tmp_path / "m.toml"
    d2d.ok("--session", s, "scene", "load", "combat1")
    d2d.ok("--session", s, "unit", "add", "Mage", "--body", "5x1", "--mind", "6x1", "--will",
           "5x1", "--speed", "4x0", "--skill", "Alchemy=3", "--faction", "Adventurers")
    use = ("--session", s, "unit", "power", "Mage", "use", "Alchemy", "--effect", 4,
           "--price", "fatigue")
    unseen = d2d.json(*use)  # not on the map: no observer read
    assert (unseen["result"], unseen["vulgar"], unseen["observers"]) == ("+3x0", False, [])
    d2d.ok("--session", s, "unit", "place", "Mage", "E5", "N")
    seen = d2d.json(*use, "--armor-pierce", 2)
    # the Goblins are on the map, neither Allies nor Magic users; the Archer is an Ally
    assert (seen["result"], seen["vulgar"], seen["observers"]) == (
        "+3x-1", True, ["Goblin Scout", "Goblin Skirmisher"])
    assert (seen["armor_pierce"], seen["points"]) == ("+0x2", {"armor_pierce": 2})
    d2d.ok("--session", s, "session", "undo")  # the same use, told: how its Crit pierces
    assert "Armor Pierce +0x2 (its Crit: crit --armor-pierce 2)" in d2d.ok(
        *use, "--armor-pierce", 2)
    assert d2d.json(*use, "--unobserved")["result"] == "+3x0"
    d2d.ok("--session", s, "unit", "add", "Psion", "--body", "5x1", "--mind", "6x1",
           "--will", "5x1", "--speed", "4x0", "--skill", "Cold=2")
    res = d2d("--session", s, "unit", "power", "Psion", "use", "Cold", "--effect", 2,
              "--price", "stun", "--armor-pierce", 1)
    assert res.exit_code == 2 and "Armor Pierce is Magic's" in res.stderr


def test_shield_block_needs_a_shield(d2d: Any, table: Path) -> None:
    d2d.ok("--session", table, "unit", "add", "Guard", *KNIGHT, "--skill", "Defense=1")
    res = d2d("--session", table, "unit", "ability", "Guard", "use", "Shield Block")
    assert res.exit_code == 2 and "holds no Shield" in res.stderr
    d2d.ok("--session", table, "unit", "gear", "add", "Guard", "Shield")
    d2d.ok("--session", table, "unit", "ability", "Guard", "use", "Shield Block")


def test_odds_crit_by_reads_the_weapon_as_crit_does(d2d: Any, table: Path) -> None:
    # The issue's own measurement with odds crit --fresh: Body 2x1 vs Armor 2x1 at Hits 1
    # is Minor; the sword (001 l.274 "Rating:[Body]+2") makes every location Major.
    args = ("--session", table, "odds", "crit", "--by", "Goblin", "--armor", "2x1",
            "--fresh")
    bare = d2d.json(*args)
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Sword: Long")
    armed = d2d.json(*args)
    assert bare["power"] == "2x1" and armed["power"] == "4x1"
    assert {r["severity"] for r in bare["locations"]} == {"minor"}
    assert {r["severity"] for r in armed["locations"]} == {"major"}


# ------------------------------------------------- Armor Pierce; odds crit reads what crit reads


def test_armor_pierce_lowers_the_armor_a_crit_meets_000_l914(d2d: Any, table: Path) -> None:
    # 000 l.914 "Armor Pierce:+0x1/point": a Magic Power's points (unit power … use
    # --armor-pierce N) read the armor met N scales lower; 001 l.934–936 "IF Power Scale
    # >= Armor Scale THEN Hits:+Difference" then counts, never past no armor.
    assert rule_text("000").splitlines()[913].strip() == "- Armor Pierce:+0x1/point"
    args = ("--session", table, "crit", "--power", "4x1", "--armor", "torso=4x1", "--card",
            "pierce@torso")
    plain = d2d.json(*args)
    assert (plain["armor"], plain["bonus_hits"], plain["severity"]) == ("4x1", 0, "minor")
    one = d2d.json(*args, "--armor-pierce", 1)  # 4x1 met as 4x0: scale 1 − 0 = Hits +1
    assert (one["armor"], one["bonus_hits"], one["severity"]) == ("4x0", 1, "major")
    assert "Armor Pierce +0x1" in one["sources"]["armor_pierce"]
    # 4x-1: level 4 > 4 no, scale +2 — but no armor gives only +2 (level 4 > 0, scale 1)
    assert d2d.json(*args, "--armor-pierce", 2)["bonus_hits"] == 2
    before = table.read_bytes()
    res = d2d(*args, "--armor-pierce", -1)
    assert res.exit_code == 2 and "0 or more points" in res.stderr
    assert table.read_bytes() == before
    odds = d2d.json("--session", table, "odds", "crit", "--power", "4x1", "--armor", "4x1",
                    "--fresh", "--armor-pierce", 1)
    assert {(r["armor"], r["bonus_hits"]) for r in odds["locations"]} == {("4x0", 1)}


def _agree(d2d: Any, path: Path, tmp: Path, *case: Any) -> dict[str, Any]:
    """``odds crit CASE --fresh`` location by location against ``crit CASE --card`` of
    that location (on a copy of the session: crit places the Crit), and each location's
    chance against the fresh Damage Deck enumerated (001 l.892 "Draw until you find
    matching a Type": the first matching card)."""
    from fractions import Fraction

    from d2d_cli.rules.combat import crits

    odds = d2d.json("--session", path, "odds", "crit", *case, "--fresh")
    cards = crits.deck_cards(odds["damage_deck"], crits.chart("person"))
    kind = odds["types"][0]
    matching = [c.split("@")[1] for c in cards if c.split("@")[0] in odds["types"]]
    severities: dict[str, Fraction] = {}
    for row in odds["locations"]:
        p = Fraction(matching.count(row["location"]), len(matching))
        assert Fraction(row["probability"]["fraction"]) == p
        copy = tmp / f"{row['location']}.toml"
        copy.write_bytes(path.read_bytes())
        r = d2d.json("--session", copy, "crit", *case, "--card", f"{kind}@{row['location']}")
        assert (row["armor"], row["bonus_hits"], row["hits"], row["severity"],
                row["light_damage"] + row["flipped"]) == (
            r["armor"], r["bonus_hits"], r["hits"], r["severity"], len(r["light_damage"]))
        severities[r["severity"]] = severities.get(r["severity"], Fraction(0)) + p
    assert {s["severity"]: Fraction(s["probability"]["fraction"])
            for s in odds["severities"]} == severities
    return odds


def test_odds_crit_reads_magic_armor_and_weapons_as_crit_does(d2d: Any, table: Path,
                                                             tmp_path: Path) -> None:
    # 000 l.1213 Magic Armor "Armor:+1x1/point", l.1214 Magic Weapon "Target
    # Armor:-1x-1/point" (read as -1x1): odds crit --by/--target meets crit's armor.
    d2d.ok("--session", table, "unit", "gear", "add", "Knight", "Breastplate", "--armor",
           "3x1", "--covers", "torso", "--magic", "1")
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Wand", "--rating", "Body+2",
           "--types", "pierce")
    case = ("--by", "Goblin", "--target", "Knight")
    odds = _agree(d2d, table, tmp_path, *case)
    torso = next(r for r in odds["locations"] if r["location"] == "torso")
    assert (torso["armor"], torso["bonus_hits"]) == ("4x1", 0)  # 3x1 + 1x1 cancels 4x1
    d2d.ok("--session", table, "unit", "gear", "rm", "Goblin", "Wand")
    d2d.ok("--session", table, "unit", "gear", "add", "Goblin", "Wand", "--rating", "Body+2",
           "--types", "pierce", "--magic", "4")
    odds = _agree(d2d, table, tmp_path, *case)  # 4x1 − 4x1: no armor left at the torso
    torso = next(r for r in odds["locations"] if r["location"] == "torso")
    assert (torso["armor"], torso["bonus_hits"]) == (None, 2)
    _agree(d2d, table, tmp_path, *case, "--armor-pierce", 1)


def test_odds_crit_reads_the_shield_side_as_crit_does_001_l669(d2d: Any,
                                                               tmp_path: Path) -> None:
    # 001 l.669 "Melee and Shields act on the Left OR Right": the Scout's Shield (left,
    # 2x1 over Left Arm and Torso) stops the Archer's arrow from its left, not its right.
    path = tmp_path / "m.toml"
    d2d.ok("--session", path, "scene", "load", "combat1")
    d2d.ok("--session", path, "unit", "gear", "add", "Goblin Scout", "Shield")
    case = ("--by", "Archer", "--target", "Goblin Scout")
    d2d.ok("--session", path, "unit", "place", "Archer", "H1", "N")  # NW of I2: the right
    right = _agree(d2d, path, tmp_path, *case)
    assert {s["severity"] for s in right["severities"]} == {"critical"}
    d2d.ok("--session", path, "unit", "place", "Archer", "J3", "N")  # SE of I2: the left
    left = _agree(d2d, path, tmp_path, *case)
    assert {r["location"]: r["severity"] for r in left["locations"]
            if r["severity"] == "minor"} == {"torso": "minor", "left_arm": "minor"}
