"""Combat #1 (000 l.545–613) replayed with the map doing the geometry (issue 21): the
scene's map places every unit, each printed move is a move on the map, and the Javelin
and the Archer's shot read Range, Arcs, Line of Sight and Cover off it — no --range or
--cover is typed. tests/test_combat1_play.py plays the same turn with the situation
typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import rule_line


def test_combat_1_with_the_map_doing_the_geometry(d2d: Any, tmp_path: Path) -> None:
    s = ["--session", tmp_path / "combat1.toml"]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")

    def where() -> dict[str, tuple[str, str]]:
        return {u["name"]: (u["space"], u["facing"]) for u in d2d.json(*s, "board")["units"]}

    def move_of(name: str) -> int:
        return int(d2d.json(*s, "unit", "show", name)["move"])

    # The scene's choice (the text gives no positions, l.589 "Range -"): the Archer two
    # Spaces from the rock at F7, the Goblins to his north and north-east, the Thief apart.
    assert where() == {"Archer": ("E9", "N"), "Thief": ("K1", "S"),
                       "Goblin Scout": ("I2", "SW"), "Goblin Skirmisher": ("C5", "S")}
    board = d2d.json(*s, "board")
    assert board["grid"][6][5] == "o"  # F7
    d2d.ok(*s, "round", "start")

    # l.579 "Archer - Moves 1 toward the rock and puts an Arrow in his offhand. Move:-2."
    assert "Moves 1 toward the rock and puts an Arrow in his offhand. Move:-2." in \
        rule_line("000", 579)
    r = d2d.json(*s, "unit", "move", "Archer", "forward")
    assert (r["action"], r["space"]) == ("Forward N: E9 → E8", "E8")
    d2d.ok(*s, "unit", "move", "Archer", "equip")
    assert move_of("Archer") == 5 - 2
    # l.580 "Scout - Moves 1 toward the Archer. Move:-1"
    assert "Scout - Moves 1 toward the Archer. Move:-1" in rule_line("000", 580)
    assert d2d.json(*s, "unit", "move", "Goblin Scout", "forward")["space"] == "H3"
    assert move_of("Goblin Scout") == 5 - 1
    # l.581 "Skirmisher - Waits": it has the most Move at the Count of 5, so it discards
    # one (000 l.125 "The Unit(s) with the most Move must move or discard a Move").
    assert "Skirmisher - Waits" in rule_line("000", 581)
    assert d2d.json(*s, "unit", "wait", "Goblin Skirmisher", 5)["lost"] == 1

    # l.584–589 "Skirmisher - Interrupts Movement … Throws a Javelin at the Archer. Fight.
    # … Skill - Ranged … Range -": an Action (Move:-2), and the Range from the map.
    assert "Throws a Javelin at the Archer" in rule_line("000", 586)
    assert rule_line("000", 589).strip() == "- Range -"
    d2d.ok(*s, "unit", "act", "Goblin Skirmisher", "interact")
    assert move_of("Goblin Skirmisher") == 5 - 1 - 2
    # l.590 "chooses not to use an Action to Fight back": the Archer plays Evade.
    r = d2d.json(*s, "conflict", "Goblin Skirmisher", "Archer:evade", "--skill", "Ranged",
                 "--card", "9C")
    m = r["map"]
    assert (m["actor_space"], m["rival_space"], m["range"]) == ("C5", "E8", 3)
    # 001 l.633–635 Verify: the Archer is in the Skirmisher's Arc:Front, and the
    # Skirmisher in the Archer's (no Flanking); in sight; no Cover in the open.
    assert (m["arc"], m["rival_arc"], m["line_of_sight"], m["cover"]) == (
        "front", "front", True, 0)
    assert m["terms"] == {"range": 3}
    assert r["modifiers"] == [] and r["cover"] is None
    # Ranged at Range 3: no Disadvantage (001 l.695 "Disadvantage at Range:0-1")
    assert r["advantage"]["a"]["mode"] == "normal"
    assert (r["side_a"]["level"], r["side_b"]["level"]) == (1, 1)
    assert (r["approach_a"], r["outcome"]) == ("strong", "b")

    # l.592 "Archer - Completes his move behind the Rock and gains some Cover.. Move:-1";
    # l.593 "Scout - Moves 1 toward the Archer. Move:-1."; l.594 "Skirmisher - Moves 1
    # toward the Archer and Readies another Javelin."
    assert "Completes his move behind the Rock" in rule_line("000", 592)
    assert d2d.json(*s, "unit", "move", "Archer", "forward")["space"] == "E7"
    assert d2d.json(*s, "unit", "move", "Goblin Scout", "forward")["space"] == "G4"
    assert d2d.json(*s, "unit", "move", "Goblin Skirmisher", "forward")["space"] == "C6"
    d2d.ok(*s, "unit", "move", "Goblin Skirmisher", "equip")
    assert (move_of("Archer"), move_of("Goblin Scout"), move_of("Goblin Skirmisher")) == (
        2, 3, 0)
    # Behind the rock: against the Scout the rock is one of the 3 Spaces around him
    # (000 l.330–331), Cover 25%.
    r = d2d.json(*s, "hit", "7S", "--by", "Goblin Scout", "--vs", "Archer", "--attack",
                 "ranged")
    assert (r["map"]["cover"], r["map"]["terms"]["cover"]) == (25, "b:25")
    assert "the edge to F7: the rock at F7" in r["map"]["sources"]["cover"]

    # l.596 "Archer - Attacks the Scout": an Action, the last of his Move; the Range, his
    # Arc:Front and the Scout's (no Flanking), sight and Cover (none) from the map.
    assert "Archer - Attacks the Scout." in rule_line("000", 596)
    d2d.ok(*s, "unit", "act", "Archer", "interact")
    assert move_of("Archer") == 0
    r = d2d.json(*s, "conflict", "Archer:7S^", "Goblin Scout", "--skill", "Ranged",
                 "--card", "4C")
    # l.592 "gains some Cover": the Scout has none from the Archer, but the rock beside
    # the Archer covers him against the Scout's answer, a Level off the Scout (001
    # l.716–718), as the table replay says it with `unit situation`; no cover-target
    # reveal (that is the Target's, 001 l.718–720), so --card 4C is the Scout's Fate.
    m = r["map"]
    assert (m["actor_space"], m["rival_space"], m["range"], m["arc"], m["rival_arc"],
            m["line_of_sight"], m["cover"], m["actor_cover"]) == (
        "E7", "G4", 3, "front", "front", True, 0, 25)
    assert m["terms"] == {"range": 3, "cover": "a:25"}
    assert "the edge to F7: the rock at F7" in m["sources"]["cover"]
    assert [(x["key"], x["side"], x["level"]) for x in r["modifiers"]] == [("cover", "b", -1)]
    assert (r["side_a"]["level"], r["side_b"]["level"]) == (1, 0)
    assert (r["approach_a"], r["approach_b"], r["outcome"]) == ("fast", "strong", "a")
    r = d2d.json(*s, "hit", "7S", "--by", "Archer", "--vs", "Goblin Scout", "--skill",
                 "Ranged")
    # His own Cover is no Level off the Scout in the Hits (001 l.711 "Cover makes it
    # harder to hit the Target"): Level 1 - 1 = 0; the 7 still beats Difficulty 2.
    assert (r["map"]["range"], r["level"], r["difficulty"], r["hits"]) == (3, 0, 2, 1)

    # Group2 (l.598–608): the Thief works at his Knot — not an attack, so nothing is read
    # off the map.
    r = d2d.json(*s, "conflict", "Thief:strong", "Goblin Scout", "--skill", "none",
                 "--rival-skill", "none", "--skill-stat", "mind", "--card", "6H")
    assert r["map"] is None
    d2d.ok(*s, "unit", "act", "Thief", "interact")
    d2d.ok(*s, "unit", "act", "Thief", "interact")
    assert move_of("Thief") == 0

    # Where the turn leaves everyone.
    assert where() == {"Archer": ("E7", "N"), "Thief": ("K1", "S"),
                       "Goblin Scout": ("G4", "SW"), "Goblin Skirmisher": ("C6", "S")}
    d2d.ok(*s, "round", "end")


def test_round2s_replay_with_the_map_instead_of_what_is_said(d2d: Any,
                                                              tmp_path: Path) -> None:
    """tests/combat1_replay.py's steps (the table replay), with the two steps that say
    the situation (l.589 "Range -" and l.592 "gains some Cover": ``unit situation``)
    left out: the map gives the Range, and the Conflicts and the Hits are checked for
    what the map says instead."""
    from tests.combat1_replay import STEPS

    def javelin(r: dict[str, Any]) -> None:
        m = r["map"]
        assert (m["range"], m["terms"], m["sources"]["range"].split(" (")[0]) == (
            3, {"range": 3}, "Range 3 on the map: Goblin Skirmisher C5 → Archer E8")
        assert "said_range" not in r["sources"] and r["modifiers"] == []
        assert (r["side_a"]["level"], r["side_b"]["level"]) == (1, 1)
        assert (r["approach_a"], r["approach_b"], r["outcome"]) == ("fast", "block", "b")

    def attack(r: dict[str, Any]) -> None:
        # The Archer's Cover behind the rock comes from the map (the Scout's answer
        # meets it), where the table replay said it: the same Levels as there.
        m = r["map"]
        assert (m["actor_space"], m["rival_space"], m["range"], m["cover"],
                m["actor_cover"]) == ("E7", "G4", 3, 0, 25)
        assert m["terms"]["cover"] == "a:25" and "said_cover" not in r["sources"]
        assert [(x["key"], x["side"], x["level"]) for x in r["modifiers"]] == [
            ("cover", "b", -1)]
        assert (r["side_b"]["skill"], r["side_b"]["skill_level"], r["side_b"]["level"]) == (
            "Close Combat", 1, 0)
        assert (r["approach_a"], r["approach_b"], r["outcome"]) == ("fast", "strong", "a")

    def hits(r: dict[str, Any]) -> None:
        # The Archer's own Cover counts in the Conflict, not in his Hits (001 l.711).
        assert r["modifiers"] == [] and "cover_ignored" in r["sources"]
        assert (r["map"]["range"], r["level"], r["difficulty"], r["hits"]) == (3, 0, 2, 1)

    instead = {(587, "conflict"): javelin, (596, "conflict"): attack, (596, "hit"): hits}
    s = ["--session", tmp_path / "combat1.toml"]
    played = 0
    for step in STEPS:
        if step.argv[:2] == ("unit", "situation"):
            continue
        check = instead.get((step.line, step.argv[0]), step.check)
        result = d2d.json(*s, *step.argv)
        try:
            check(result)
        except AssertionError as e:
            raise AssertionError(f"l.{step.line} {step.quote!r}: d2d {' '.join(step.argv)}"
                                 f" gave {e}") from None
        played += 1
    assert played == len(STEPS) - 2
