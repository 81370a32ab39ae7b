"""Sides (issue 31; rules/units/sides.py): every unit belongs to a faction and is played by
a Player or is a Non-Player (000 "1. Setup": "Units - Assign the Units in the Factions to
the Players"); characters travel between sessions without the table's state."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from d2d_cli.rules.units import sides
from tests.helpers import assert_refused


def units(path: Path) -> dict[str, Any]:
    return dict(tomllib.loads(path.read_text("utf-8"))["units"])


def test_the_one_answer() -> None:
    # absent, empty or the scene files' "Non-Player": a Non-Player (000 l.417)
    assert [sides.player_of(u) for u in ({}, {"player": ""}, {"player": "Non-Player"},
                                         {"player": "Ann"})] == [None, None, None, "Ann"]
    assert sides.same_side({"faction": "A"}, {"faction": "A"})
    assert not sides.same_side({}, {})  # no faction: a side of its own
    assert sides.players({"units": {"a": {"player": "Bo"}, "b": {}},
                          "scene": {"factions": {"X": {"players": ["Non-Player", "Cy",
                                                                   "Bo"]}}}}) == ["Bo", "Cy"]


def test_char_new_and_unit_add_take_a_side_and_a_player(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    s = ("--session", path)
    r = d2d.json(*s, "char", "new", "Rook", "--body", "7", "--speed", "5", "--faction",
                 "Adventurers", "--player", "Ann")
    assert r["name"] == "Rook"
    r = d2d.json(*s, "unit", "add", "Gob", "--body", "2x1", "--mind", "2x1", "--will",
                 "2x1", "--speed", "5x0", "--faction", "Goblins", "--new")
    assert (r["faction"], r["player"]) == ("Goblins", None)
    assert (units(path)["Rook"]["faction"], units(path)["Rook"]["player"]) == (
        "Adventurers", "Ann")
    assert [u["player"] for u in d2d.json(*s, "status")["units"]] == ["Ann", None]


def test_unit_side_changes_faction_and_player(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    s = ("--session", path)
    d2d.ok(*s, "unit", "add", "Merc", "--body", "5x1", "--mind", "3x1", "--will", "3x1",
           "--speed", "5x0")
    r = d2d.json(*s, "unit", "side", "merc", "--faction", "Adventurers", "--player", "Bo")
    assert r == {"name": "Merc", "faction": "Adventurers", "player": "Bo"}
    assert d2d.ok(*s, "unit", "side", "Merc", "--player", "Non-Player") == (
        "Merc: faction Adventurers, a Non-Player\n")
    assert "player" not in units(path)["Merc"]
    r = d2d.json(*s, "unit", "side", "Merc", "--no-faction")
    assert r == {"name": "Merc", "faction": None, "player": None}
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, ["unit", "side", "Merc"],
                   "give --faction F, --no-faction or --player P")
    assert_refused(lambda *a: d2d(*s, *a), tmp_path,
                   ["unit", "side", "Merc", "--player", "Narrator"],
                   "'Narrator' is the Narrator's own hand, not a Player's name")


def test_a_non_players_bare_name_reveals_fate_a_players_is_refused(d2d: Any,
                                                                   tmp_path: Path) -> None:
    # 001 l.734 "NPCs use a Fate card instead"; a unit with no player is a Non-Player
    path = tmp_path / "s.toml"
    s = ("--session", path)
    d2d.ok(*s, "unit", "add", "Gob", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
           "--speed", "5x0")
    d2d.ok(*s, "unit", "add", "Ann", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
           "--speed", "5x0", "--player", "Ann")
    r = d2d.json(*s, "conflict", "Gob", "fast", "--skill", "none", "--card", "4H",
                 "--card", "5C")
    assert (r["side_a"]["source"], r["side_a"]["unit"]) == ("fate", "Gob")
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, ["conflict", "Ann", "fast", "--skill", "none"],
                   "Ann is not a Non-Player unit: give its approach or card")


def test_a_character_travels_without_the_tables_state(d2d: Any, tmp_path: Path) -> None:
    old, new = tmp_path / "old.toml", tmp_path / "new.toml"
    d2d.ok("--session", old, "scene", "load", "combat1")
    d2d.ok("--session", old, "char", "new", "Rook", "--body", "7", "--speed", "5",
           "--archetype", "thief", "--faction", "Player1", "--player", "Cy", "--new")
    d2d.ok("--session", old, "unit", "place", "Rook", "B2", "N")
    d2d.ok("--session", old, "round", "start")
    d2d.ok("--session", old, "unit", "condition", "Rook", "add", "fatigue")
    d2d.ok("--session", old, "unit", "act", "Rook", "push")
    held = units(old)["Rook"]
    assert {"space", "facing", "turn", "move", "spent", "faction"} <= set(held)
    out = tmp_path / "rook.toml"
    d2d.ok("--session", old, "char", "export", "Rook", "--format", "toml", "-o", out)
    text = out.read_text("utf-8")
    for key in ("space", "facing", "turn", "move", "action_cost", "spent", "faction"):
        assert f"\n{key} = " not in text and f".{key}]" not in text, key
    assert 'player = "Cy"' in text and "fatigue = 2" in text and "Stealth = 1" in text
    d2d.ok("--session", new, "scene", "load", "combat1")
    r = d2d.json("--session", new, "char", "import", out, "--faction", "Adventurers")
    assert r["name"] == "Rook"
    got = units(new)["Rook"]
    assert "space" not in got and got["faction"] == "Adventurers" and got["player"] == "Cy"
    d2d.ok("--session", new, "char", "import", out, "--replace", "--place", "C3", "E",
           "--player", "Di")
    got = units(new)["Rook"]
    assert (got["space"], got["facing"], got["player"]) == ("C3", "E", "Di")


def test_a_scene_names_each_factions_players(d2d: Any, tmp_path: Path) -> None:
    # 000 l.184 "Players - Divide the Players into the given Factions"
    from tests.test_hands import SCENE

    f = tmp_path / "night.toml"
    f.write_text(SCENE.replace('player = "Bo"', 'player = "Cy"'), "utf-8")
    assert_refused(lambda *a: d2d("--session", tmp_path / "s.toml", *a), tmp_path,
                   ["scene", "load", str(f)], "scene: units.Thief: player 'Cy' is not one of "
                   "the Adventurers faction's players (Ann, Bo)")


def test_sim_plays_a_players_character_on_its_factions_side(d2d: Any, tmp_path: Path
                                                           ) -> None:
    # "sim": a Player's unit plays its own hand by the PC policy, against the other side
    old, night = tmp_path / "old.toml", tmp_path / "night.toml"
    d2d.ok("--session", old, "char", "new", "Rook", "--body", "7", "--speed", "5",
           "--archetype", "thief")
    d2d.ok("--session", old, "char", "export", "Rook", "--format", "toml", "-o",
           tmp_path / "rook.toml")
    d2d.ok("--session", night, "scene", "load", "combat1")
    d2d.ok("--session", night, "char", "import", tmp_path / "rook.toml", "--faction",
           "Adventurers", "--player", "Cy", "--place", "F9", "N")
    lines: list[str] = []
    for seed in (1, 2, 3):
        log = tmp_path / f"fight{seed}.txt"
        d2d.ok("--session", night, "--seed", seed, "sim", "--runs", "1", "--log", log,
               "--workers", "1")
        lines += log.read_text("utf-8").splitlines()
    import shlex

    party = {"Archer", "Thief", "Rook"}
    rook = [shlex.split(x) for x in lines if x.startswith("unit act Rook interact")]
    assert rook and all(w[4] not in party for w in rook)  # Rook fights the Goblins only
    fights = [shlex.split(x) for x in lines if x.startswith("conflict 'Rook:")]
    assert fights and any(not w[1].endswith(":fate") for w in fights)  # cards of a hand
    for x in lines:  # no one of the party ever attacks Rook
        w = shlex.split(x)
        if w[:2] == ["unit", "act"] and len(w) > 4 and w[4] == "Rook":
            assert w[2] not in party, x
