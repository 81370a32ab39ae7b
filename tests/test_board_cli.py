"""The board from the command line (issue 21): a scene's map, `unit place`, `unit move` on
the map, `d2d board` (terminal, SVG, JSON), and `conflict`/`hit` reading the geometry off
the map with its sources; every refusal changes nothing."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Runner, assert_refused, rule_line

SCENE = """\
name = "Skirmish"
map = "personal"

[factions.Heroes]
goal = "win"

[factions.Goblins]
goal = "win"

[units.Archer]
faction = "Heroes"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "5x0"
skills = {{ Ranged = 1 }}
space = "B6"
facing = "N"

[units.Merc]
faction = "Heroes"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "4x0"
skills = {{ Melee = 2 }}
space = "E3"
facing = "E"

[units.Goblin]
faction = "Goblins"
body = "2x1"
mind = "6x1"
will = "2x1"
speed = "5x0"
skills = {{ "Close Combat" = 1 }}
space = "B2"
facing = "S"

[units.Ogre]
faction = "Goblins"
body = "6x2"
mind = "2x1"
will = "4x1"
speed = "4x0"
skills = {{ "Close Combat" = 2 }}
{ogre}

[board]
grid = \"\"\"
{grid}
\"\"\"

[board.legend]
"h" = {{ name = "hillock", elevation = 1 }}
"""

GRID = """\
. . . . . . . .
. . . . . . . .
. . . . . . . .
. o . . . # . .
. . ~ . . # . .
. . . . h . . .
"""


def scene(tmp_path: Path, grid: str = GRID, ogre: str = 'space = "F2"\nfacing = "W"') -> Path:
    f = tmp_path / "skirmish.toml"
    f.write_text(SCENE.format(grid=grid.strip("\n"), ogre=ogre), "utf-8")
    return f


@pytest.fixture
def table(d2d: Runner, tmp_path: Path) -> tuple[Any, ...]:
    path = tmp_path / "table.toml"
    s = ("--session", path)
    d2d.ok(*s, "--seed", 3, "scene", "load", scene(tmp_path))
    return s


# --------------------------------------------------------------------------- scene files


def test_a_scene_carries_its_map_and_each_units_space(d2d: Runner, table: Any) -> None:
    r = d2d.json(*table, "board")
    assert (r["columns"], r["rows"], r["first_column"], r["last_column"]) == (8, 6, "A", "H")
    assert r["grid"][3] == ".o...#.."
    assert {u["name"]: (u["space"], u["facing"]) for u in r["units"]} == {
        "Archer": ("B6", "N"), "Merc": ("E3", "E"), "Goblin": ("B2", "S"),
        "Ogre": ("F2", "W")}
    legend = {k["symbol"]: k for k in r["legend"]}
    assert legend["h"]["elevation"] == 1 and legend["#"]["sight"] is False
    assert legend["o"] == {"symbol": "o", "name": "rock", "enter": False, "cover": True,
                           "sight": True, "elevation": 0, "move": 0}


@pytest.mark.parametrize(("grid", "ogre", "message"), [
    (GRID.replace(". . ~", ". . x"), 'space = "F2"\nfacing = "W"',
     "board: row 5, column 3 (C5): 'x' is not in the legend"),
    (GRID.replace(". . . . h . . .", ". . . . h . ."), 'space = "F2"\nfacing = "W"',
     "board: row 6 has 7 Spaces, row 1 has 8"),
    (GRID, 'space = "F4"\nfacing = "W"',
     "scene: units.Ogre: Ogre cannot stand on F4: the wall there cannot be entered"),
    (GRID, 'space = "J2"\nfacing = "W"', "scene: units.Ogre: space J2 is off the map"),
    (GRID, 'space = "F2"', "scene: units.Ogre: Ogre has no Facing yet"),
    (GRID, 'space = "F1"\nfacing = "S"\ndouble = true',
     "scene: units.Ogre: Ogre would stand off the map (north of row 1)"),
])
def test_a_malformed_map_or_placement_is_refused_naming_where(
        d2d: Runner, tmp_path: Path, grid: str, ogre: str, message: str) -> None:
    path = tmp_path / "table.toml"
    d2d.ok("--session", path, "fate", "status")
    assert_refused(d2d, tmp_path, ["--session", path, "scene", "load",
                                   scene(tmp_path, grid, ogre)], message)


def test_the_party_leaves_the_last_map(d2d: Runner, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "char", "new", "Rook", "--template", "human-female",
           "--body", 7, "--will", 5, "--archetype", "thief", "--fear", "Drowning")
    d2d.ok("--session", path, "scene", "load", scene(tmp_path))
    d2d.ok("--session", path, "unit", "place", "Rook", "A1", "S")
    d2d.ok("--session", path, "scene", "load", "combat1")
    r = d2d.json("--session", path, "board")
    assert "Rook" in r["unplaced"]


# --------------------------------------------------------------------------- unit place


def test_unit_place_puts_a_unit_on_a_space(d2d: Runner, table: Any, tmp_path: Path) -> None:
    r = d2d.json(*table, "unit", "place", "Ogre", "g5", "ne", "--double")
    assert (r["space"], r["facing"], r["double"], r["spaces"], r["space_before"]) == (
        "G5", "NE", True, ["G5", "F6"], "F2")
    r = d2d.json(*table, "unit", "place", "Ogre", "off")
    assert r["space"] is None
    assert "Ogre" in d2d.json(*table, "board")["unplaced"]
    for args, message in (
            (["unit", "place", "Archer", "B4"], "the rock there cannot be entered"),
            (["unit", "place", "Archer", "I1"], "space I1 is off the map (columns A–H, "
                                                "rows 1–6)"),
            (["unit", "place", "Archer", "B1", "up"], "facing 'up': one of N, NE"),
            (["unit", "place", "Nobody", "B1", "N"], "Nobody")):
        assert_refused(d2d, tmp_path, [*table, *args], message)


def test_unit_place_needs_a_map(d2d: Runner, tmp_path: Path) -> None:
    s = ("--session", tmp_path / "bare.toml")
    d2d.ok(*s, "unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0")
    assert_refused(d2d, tmp_path, [*s, "unit", "place", "Gob", "A1", "N"],
                   "the session has no map")
    assert_refused(d2d, tmp_path, [*s, "board"], "the session has no map")


# --------------------------------------------------------------------------- unit move


def test_a_placed_unit_moves_on_the_map(d2d: Runner, table: Any, tmp_path: Path) -> None:
    d2d.ok(*table, "round", "start")
    # 000 l.273 "Forward (Move:-1) - Move directly forward 1 Space."
    r = d2d.json(*table, "unit", "move", "Archer", "forward")
    assert (r["space"], r["move_before"], r["move"], r["action"]) == (
        "B5", 5, 4, "Forward N: B6 → B5")
    # 000 l.264 "additional Move Points for each Space you enter": the stream at C5
    r = d2d.json(*table, "unit", "move", "Archer", "slide", "right")
    assert (r["space"], r["move"]) == ("C5", 4 - 2 - 1)
    assert r["action"] == "Slide E: B5 → C5, terrain Move +1 (C5 rough ground Move +1)"
    # refused, nothing changed: a side is needed, a rock, the map's edge, too little Move
    for args, message in (
            (["drift"], "Drift which way? left (NW) or right (NE) when facing N"),
            (["drift", "left"], "Archer cannot Drift into B4: the rock there cannot be "
                                "entered"),
            (["forward", "5"], "Archer cannot Forward N from C1: that Space is off the map "
                                  "(north of row 1)"),
            (["backward"], "Archer has Move 1; Backward S: C5 → C6 costs 2")):
        assert_refused(d2d, tmp_path, [*table, "unit", "move", "Archer", *args], message)
    assert d2d.json(*table, "board")["units"][0]["space"] == "C5"
    d2d.ok(*table, "session", "undo")
    assert d2d.json(*table, "board")["units"][0]["space"] == "B5"


def test_a_double_sized_unit_turns_only_where_its_back_has_room(d2d: Runner, table: Any,
                                                                 tmp_path: Path) -> None:
    d2d.ok(*table, "unit", "place", "Ogre", "H2", "S", "--double")
    d2d.ok(*table, "round", "start")
    assert_refused(d2d, tmp_path, [*table, "unit", "move", "Ogre", "turn", "W"],
                   "Ogre would stand off the map (east of column H)")
    assert_refused(d2d, tmp_path, [*table, "unit", "face", "Ogre", "W"],
                   "Ogre would stand off the map (east of column H)")
    r = d2d.json(*table, "unit", "move", "Ogre", "forward")
    assert r["space"] == "H3"
    assert d2d.json(*table, "board")["units"][3]["spaces"] == ["H3", "H2"]


def test_an_unplaced_unit_moves_as_before(d2d: Runner, table: Any) -> None:
    d2d.ok(*table, "unit", "place", "Goblin", "off")
    d2d.ok(*table, "round", "start")
    r = d2d.json(*table, "unit", "move", "Goblin", "drift", "2")
    assert (r["space"], r["move"], r["action"]) == (None, 5 - 2, "Drift ×2")


# --------------------------------------------------------------------------- d2d board


def test_board_is_drawn_at_80_columns_with_a_legend(d2d: Runner, table: Any) -> None:
    res = d2d(*table, "board", "--legend")
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert lines[0] == "  A  B  C  D  E  F  G  H"
    assert lines[2] == "2 .  3↓ .  .  .  4← .  ."  # the Goblin facing S, the Ogre W
    assert lines[4] == "4 .  o  .  .  .  #  .  ."
    assert ("Legend: . open ground · o rock (Cover, no entry) · # wall (blocks sight, no"
            in res.stdout)
    assert "  1 Archer (Heroes): B6, facing N ↑" in lines
    assert all(len(line) <= 80 for line in lines)
    assert "\x1b[" not in res.stdout  # piped: plain, NO_COLOR-safe


def test_a_wide_map_is_drawn_in_strips_that_fit(d2d: Runner, tmp_path: Path) -> None:
    wide = "\n".join("." * 100 for _ in range(6))
    s = ("--session", tmp_path / "t.toml")
    d2d.ok(*s, "scene", "load", scene(tmp_path, wide, 'space = "CV3"\nfacing = "W"'))
    out = d2d.ok(*s, "board").splitlines()
    assert all(len(line) <= 80 for line in out)
    assert out[0].strip().startswith("A") and "CV" not in out[0]
    assert any(line.startswith("3 ") and line.rstrip().endswith("4") for line in out)


def test_board_svg_is_a_picture_of_the_map(d2d: Runner, table: Any, tmp_path: Path) -> None:
    f = tmp_path / "map.svg"
    d2d.ok(*table, "board", "--svg", f)
    root = ET.parse(f).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    titles = [t.text for t in root.iter(f"{ns}title")]
    assert titles[0] == "Skirmish"
    assert {"Archer", "Merc", "Goblin", "Ogre"} <= set(titles)
    assert "wall (blocks sight, no entry)" in titles
    assert_refused(d2d, tmp_path, [*table, "board", "--svg", tmp_path / "no" / "x.svg"],
                   "cannot write")


def test_board_svg_shows_every_unit_sharing_a_space(d2d: Runner, table: Any,
                                                   tmp_path: Path) -> None:
    # 000 l.279 "Sharing a Space - Normal Units can share a Space": the Merc joins the
    # Archer on B6. Each is drawn, neither under the other (the second circle was drawn
    # on the first, hiding the Archer).
    assert "Normal Units can share a Space" in rule_line("000", 279)
    d2d.ok(*table, "unit", "place", "Merc", "B6")
    f = tmp_path / "map.svg"
    d2d.ok(*table, "board", "--svg", f)
    ns = "{http://www.w3.org/2000/svg}"
    circles = {c.findtext(f"{ns}title"): (c.get("cx"), c.get("cy"), c.get("r"))
               for c in ET.parse(f).getroot().iter(f"{ns}circle") if c.find(f"{ns}title")
               is not None}
    # B6's dot is at (30 + 28 + 14, 30 + 5 × 28 + 14) = (72, 184)
    assert circles["Archer"] == ("66", "178", "6")
    assert circles["Merc"] == ("78", "190", "6")
    assert circles["Goblin"] == ("72", "72", "9")  # alone on B2: on its dot


# --------------------------------------------------------------------------- the geometry


def test_conflict_reads_the_geometry_off_the_map(d2d: Runner, table: Any) -> None:
    # The Archer (B6, facing N) shoots the Goblin (B2, facing S): Range 4, the rock at B4
    # on the line between them (000 l.332) and on the edge to B3 (l.331): one obstacle,
    # Cover 25% (001 l.716 "Cover:+25% - for each obstacle encountered").
    r = d2d.json(*table, "conflict", "Archer:7S^", "Goblin:block", "--card", "4H")
    m = r["map"]
    assert (m["range"], m["arc"], m["rival_arc"], m["line_of_sight"], m["cover"]) == (
        4, "front", "front", True, 25)
    assert m["terms"] == {"range": 4, "cover": "b:25"}
    assert m["sources"]["range"] == ('Range 4 on the map: Archer B6 → Goblin B2 (001 '
                                     'l.681–683 "Count Spaces to the Target")')
    assert m["sources"]["cover"] == (
        "Cover 25% of Goblin on the map, +25% for each obstacle the sweep across its Space "
        "meets (001 l.714, l.716): the rock at B4; at most 000's count, 2 of the 4 edges "
        "obstructed (000 l.330–332): the edge to A3 clear; the edge to B3: the rock at B4; "
        "the edge to C3 clear; the line to Goblin: the rock at B4")
    assert [(x["key"], x["side"], x["level"], x["origin"]) for x in r["modifiers"]] == [
        ("cover", "a", -1, "map")]
    # 000 l.333 "IF there is any Cover THEN before Conflict, Reveal"; 001 l.719 "Assign
    # Suits to major obstacles": the one obstacle, the rock, takes ♣ (the first suit); the
    # 4♥ matches none — the Goblin stays the target.
    assert r["cover"]["obstacles"] == {"wands": "the rock at B4"}
    assert (r["cover"]["card"]["code"], r["cover"]["target"]) == ("4H^", None)


def test_the_cover_reveal_can_make_the_rock_the_target(d2d: Runner, table: Any) -> None:
    assert "that Space is the Target instead" in rule_line("000", 333)
    r = d2d.json(*table, "conflict", "Archer:7S^", "Goblin:block", "--card", "2C")
    assert (r["outcome"], r["target"]) == ("obstacle", "the rock at B4")


def test_a_typed_option_overrides_the_map_and_says_so(d2d: Runner, table: Any) -> None:
    r = d2d.json(*table, "conflict", "Archer:7S^", "Goblin:block", "--cover", "25", "--range", 3)
    assert r["map"]["terms"] == {}
    assert r["map"]["sources"]["cover"].startswith("typed: --cover 25 (the map: Cover 25%")
    assert r["map"]["sources"]["range"].startswith("typed: --range 3 (the map: Range 4")
    assert [(x["key"], x["level"], x["origin"]) for x in r["modifiers"]] == [
        ("cover", -1, "option")]
    assert r["cover"] is None  # typed Cover without --obstacle: no reveal


def test_flanking_high_ground_confined_and_outnumbered_come_from_the_map(
        d2d: Runner, table: Any) -> None:
    # 000 l.132 "Range, Line of Sight, and Cover" are the Fight's; l.323–326 High Ground
    # and Flanking; l.454 Confined.
    assert "Range, Line of Sight, and Cover" in rule_line("000", 132)
    assert "High Ground - IF Elevation higher than Rival THEN Initiative:+1" in rule_line(
        "000", 323)
    assert "Flanking" in rule_line("000", 324)
    assert "IF you are within Arc:Left or Arc:Right of your Rival THEN Initiative:+1." in \
        rule_line("000", 325)
    assert "Confined** - IF another Unit shares your Space THEN Initiative:-1." in rule_line(
        "000", 454)
    # The Merc (Melee 2) on E3 facing E attacks the Ogre on F3 facing N (Range 1); the
    # Archer, the Merc's Ally, stands on G3.
    d2d.ok(*table, "unit", "place", "Ogre", "F3", "N")
    d2d.ok(*table, "unit", "place", "Archer", "G3", "W")
    r = d2d.json(*table, "conflict", "Merc:strong", "Ogre:block")
    m = r["map"]
    # 000 l.325 the Merc is in the Ogre's Arc:Left (it faces N, the Merc is W of it): +1
    assert m["rival_arc"] == "left"
    # 000 l.457 the Archer (the Merc's Ally) stands next to the Ogre: Outnumbered, +1;
    # the wall at F4, beside both, is in no sweep across either's Space (001 l.714
    # "Sweep edge across all of Target"): no Cover
    assert m["terms"] == {"range": 1, "flank": "a:side", "outnumbered": "b"}
    assert (m["cover"], m["actor_cover"]) == (0, 0)
    assert {(x["key"], x["side"], x["level"], x["origin"]) for x in r["modifiers"]} >= {
        ("flank", "a", 1, "map"), ("outnumbered", "a", 1, "map")}
    # High Ground (000 l.323) and Confined (000 l.454): the Merc on the hillock with the
    # Goblin sharing the Ogre's Space
    d2d.ok(*table, "unit", "place", "Merc", "E6", "E")
    d2d.ok(*table, "unit", "place", "Ogre", "F6", "N")
    d2d.ok(*table, "unit", "place", "Goblin", "F6", "N")
    r = d2d.json(*table, "conflict", "Merc:strong", "Ogre:block")
    assert r["map"]["terms"]["high_ground"] == "a"
    assert r["map"]["terms"]["confined"] == "b"
    assert r["map"]["sources"]["confined"] == (
        "Goblin shares Ogre's Space (000 l.454 \"Confined - IF another Unit shares your "
        "Space THEN Initiative:-1\")")


def test_out_of_reach_arc_or_sight_is_refused_with_the_reason(
        d2d: Runner, table: Any, tmp_path: Path) -> None:
    assert "Verify Target is in Arc, Range," in rule_line("001", 633)
    assert_refused(d2d, tmp_path, [*table, "conflict", "Goblin:fast", "Archer:fast"],
                   "out of reach: Archer is 4 Spaces from Goblin on the map (Goblin on "
                   "B2, Archer on B6); Close Combat reaches Range 0-1 (001 l.685)")
    d2d.ok(*table, "unit", "place", "Merc", "D6", "E")
    assert_refused(d2d, tmp_path, [*table, "conflict", "Archer:fast", "Merc:fast",
                                   "--skill", "Ranged"],
                   "out of Arc: Merc is in Archer's Arc:Right")
    d2d.ok(*table, "unit", "place", "Archer", "H5", "W")
    d2d.ok(*table, "unit", "place", "Merc", "D5", "E")
    assert_refused(d2d, tmp_path, [*table, "hit", "7S", "--by", "Archer", "--vs", "Merc",
                                   "--skill", "Ranged"],
                   "out of sight: blocked from H5 to D5 by the wall at F5")


def test_hit_reads_the_map_too_and_says_where_it_came_from(d2d: Runner, table: Any) -> None:
    r = d2d.json(*table, "hit", "7S", "--by", "Archer", "--vs", "Goblin")
    assert r["map"]["range"] == 4 and r["map"]["cover"] == 25
    assert (r["your_level"], r["level"]) == (1 - 1, 0)
    out = d2d.ok("--why", *table, "hit", "7S", "--by", "Archer", "--vs", "Goblin")
    assert "From the map (Archer B6 → Goblin B2; d2d board):" in out
    assert re.search(r"Cover: Cover 25% of Goblin on the map", out)


def test_odds_read_the_map_and_say_where_it_came_from(d2d: Runner, table: Any) -> None:
    # Issue 21 item 3: "when both units of a conflict, hit, crit or odds are placed …
    # The result says each one and where it came from". The Archer's Level 1 less the
    # Goblin's Cover 25% behind the rock at B4 (001 l.718 "Level:-1 for each 25%").
    assert "Level:-1 for each 25%" in rule_line("001", 718)
    r = d2d.json(*table, "odds", "conflict", "Archer:fast", "Goblin:strong")
    assert (r["level_a"], r["map"]["range"], r["map"]["cover"]) == (0, 4, 25)
    assert r["map"]["sources"]["cover"].startswith("Cover 25% of Goblin on the map")
    out = d2d.ok(*table, "odds", "conflict", "Archer:fast", "Goblin:strong")
    assert out.startswith("From the map (Archer B6 → Goblin B2; d2d board):\n"
                          "  Range: Range 4 on the map: Archer B6 → Goblin B2")
    r = d2d.json(*table, "odds", "hits", "1", "--by", "Archer", "--vs", "Goblin")
    assert (r["level"], r["map"]["cover"]) == (0, 25)
    out = d2d.ok(*table, "odds", "hits", "1", "--by", "Archer", "--vs", "Goblin")
    assert "\n  Cover: Cover 25% of Goblin on the map" in out
    # a side not placed: nothing read off the map, as before
    d2d.ok(*table, "unit", "place", "Goblin", "off")
    assert d2d.json(*table, "odds", "conflict", "Archer:fast", "Goblin:strong")["map"] is None
    assert not d2d.ok(*table, "odds", "conflict", "Archer:fast", "Goblin:strong").startswith(
        "From the map")


def test_a_roll_that_is_not_an_attack_reads_nothing_off_the_map(d2d: Runner,
                                                                table: Any) -> None:
    r = d2d.json(*table, "conflict", "Archer:strong", "Goblin:block", "--skill", "none",
                 "--rival-skill", "none")
    assert r["map"] is None and r["modifiers"] == []


def test_no_map_takes_the_roll_off_the_map(d2d: Runner, table: Any) -> None:
    # the Goblin's Close Combat cannot reach the Archer on the map; --no-map is the
    # table's own measure (as for units not placed)
    r = d2d.json(*table, "conflict", "Goblin:fast", "Archer:fast", "--no-map", "--range", 1)
    assert r["map"] is None
    assert [(m["key"], m["origin"]) for m in r["modifiers"]] == []
    r = d2d.json(*table, "hit", "7S", "--by", "Archer", "--vs", "Goblin", "--no-map")
    assert r["map"] is None and r["modifiers"] == []


def test_a_planner_asks_why_not_without_raising(d2d: Runner, table: Any, tmp_path: Path
                                                ) -> None:
    import tomllib

    from d2d_cli.rules.board.derive import field
    from d2d_cli.rules.units.roster import roster

    data = tomllib.loads((tmp_path / "table.toml").read_text(encoding="utf-8"))
    units = roster(data)
    f = field(data, units.values())
    assert f is not None
    assert f.refusal(units["Archer"], units["Goblin"], "ranged") is None
    assert (f.refusal(units["Goblin"], units["Archer"], "close") or "").startswith(
        "out of reach: Archer is 4 Spaces from Goblin")


def test_a_hand_edited_map_that_does_not_fit_is_refused_with_exit_3(
        d2d: Runner, table: Any, tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    text = path.read_text(encoding="utf-8")
    bad = text.replace('".o...#.."', '".o..x#.."', 1)
    assert bad != text
    path.write_text(bad, encoding="utf-8")
    res = d2d(*table, "board")
    assert res.exit_code == 3
    assert "board: row 4, column 5 (E4): 'x' is not in the legend" in res.stderr


@pytest.mark.parametrize(("edit", "message"), [
    ('space = "I2"\nfacing = "S"', "space I2 is off the map (columns A–H, rows 1–6)"),
    ('space = "B7"\nfacing = "S"', "space B7 is off the map (columns A–H, rows 1–6)"),
    ('space = "B4"\nfacing = "S"', "Goblin cannot stand on B4: the rock there cannot be "
                                    "entered"),
    ('space = "banana"\nfacing = "S"', "space 'banana': a column letter and a row number"),
    ('space = "B1"\nfacing = "S"\ndouble = true', "Goblin would stand off the map (north "
                                                   "of row 1)"),
])
def test_a_hand_edited_units_space_that_does_not_fit_is_refused_with_exit_3(
        d2d: Runner, table: Any, tmp_path: Path, edit: str, message: str) -> None:
    # The session file's units.Goblin moved by hand off the map, into the rock, to no
    # Space at all, or made Double-sized with its back off the map: every command refuses
    # the file naming the unit (it crashed with an IndexError in conflict and hit, and
    # d2d board listed the unit on a Space it could not draw), the file left as it is.
    path = tmp_path / "table.toml"
    text = path.read_text(encoding="utf-8")
    old = 'space = "B2"\nfacing = "S"'
    assert text.count(old) == 1
    bad = text.replace(old, edit, 1)
    path.write_text(bad, encoding="utf-8")
    for argv in (["board"], ["conflict", "Archer:7S^", "Goblin:block", "--card", "4H"],
                 ["hit", "7S", "--by", "Archer", "--vs", "Goblin"]):
        res = d2d(*table, *argv)
        assert res.exit_code == 3, (argv, res.stderr)
        assert f'[units.Goblin] space: {message}' in res.stderr
        assert path.read_text(encoding="utf-8") == bad


def test_a_reserves_space_is_checked_too(d2d: Runner, tmp_path: Path) -> None:
    text = scene(tmp_path).read_text(encoding="utf-8") + (
        '\n[reserves.Wolf]\nfaction = "Goblins"\nbody = "3x1"\nmind = "2x1"\nwill = "3x1"\n'
        'speed = "6x0"\nspace = "B4"\nfacing = "N"\n')
    f = tmp_path / "with_reserve.toml"
    f.write_text(text, encoding="utf-8")
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "fate", "status")
    assert_refused(d2d, tmp_path, ["--session", path, "scene", "load", f],
                   "scene: reserves.Wolf: Wolf cannot stand on B4: the rock there cannot be "
                   "entered")


def test_from_the_rivals_back_arc_it_cannot_block(d2d: Runner, table: Any,
                                                  tmp_path: Path) -> None:
    # 000 l.326 "IF you are within Arc:Back of your Target THEN Initiative:+2 and Rival
    # can't Block." The Merc on E3 facing E; the Ogre on F3 facing E, its back to him.
    assert "Rival can't Block" in rule_line("000", 326)
    d2d.ok(*table, "unit", "place", "Ogre", "F3", "E")
    r = d2d.json(*table, "conflict", "Merc:strong", "Ogre:fast")
    assert (r["map"]["rival_arc"], r["map"]["terms"]["flank"]) == ("back", "a:back")
    assert ("flank", "a", 2, "map") in {(m["key"], m["side"], m["level"], m["origin"])
                                        for m in r["modifiers"]}
    assert r["cannot_block"] == ["b"]
    assert_refused(d2d, tmp_path, [*table, "conflict", "Merc:strong", "Ogre:block"],
                   "B can't Block")



@pytest.mark.parametrize("text", ["hill\\top", "x[bold]y", "c:\\[red]", "a\\\\b"])
def test_the_map_escapes_text_with_the_one_markup_escape(text: str) -> None:
    """The terminal map escapes its text as every view does (render.escape): Rich then
    prints it as typed. A second, hand-made escape doubled every backslash."""
    from rich.console import Console

    from d2d_cli import mapview

    console = Console(width=80, color_system=None)
    with console.capture() as cap:
        console.print(mapview._esc(text), end="")
    assert cap.get() == text


def test_a_typed_range_is_the_range_the_short_line_gives(d2d: Any, tmp_path: Path) -> None:
    """docs/board.md: "A typed option overrides the map and says so". The rules read
    the typed ``--range``, but the short line of ``conflict`` and ``hit`` gave the
    map's Range (7 between the Archer on E9 and the Goblin Scout on I2) beside it."""
    s = ["--session", tmp_path / "c.toml"]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")
    sides = ("conflict", "Archer:7S^", "Goblin Scout:5H^", "--card", "10S^")  # ♠: no rock
    assert " · Range 7 · " in d2d.ok(*s, *sides).splitlines()[1]
    line = d2d.ok(*s, *sides, "--range", "3").splitlines()[1]
    assert " · Range 3 (typed; the map: 7) · " in line, line
    assert "Range 7 ·" not in line
    same = d2d.ok(*s, *sides, "--range", "7").splitlines()[1]
    assert " · Range 7 · " in same and "typed" not in same  # the map's own: said once
    why = d2d.ok(*s, *sides, "--range", "3", "--why")
    assert "Range: typed: --range 3 (the map: Range 7 on the map" in why
    hit = ("hit", "5H^", "--by", "Archer", "--vs", "Goblin Scout")
    assert d2d.ok(*s, *hit).splitlines()[1].endswith(" · Range 7")
    assert d2d.ok(*s, *hit, "--range", "2").splitlines()[1].endswith(
        " · Range 2 (typed; the map: 7)")
