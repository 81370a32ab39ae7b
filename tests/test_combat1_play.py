"""Combat #1 (000 l.547–613) played step by step from the session, by unit names.

Issue 12 asks for the whole example as one test: the round's tokens (Setup, Targeting,
Grouping, every Move and Action), the Conflicts, Hits and the Task, and the Events. The
cards are given as drawn at the table (`--card`), so every number is fixed; the example
prints few numbers, and every one it prints is asserted: "2 Tokens" (l.571), the Groups
(l.574–575), "Move:-2" / "Move:-1" (l.579–580, l.592–593), the Skirmisher's Skill
(l.587 "Skill - Ranged"), the Disadvantages of the Thief and the Scout and their
cancelling (l.600–601), "Task:Mind vs. Knot:4" (l.601), the Task's 4 tokens (l.602) and
the Events (l.609–613: Draw, Recover, Clock tick; the reinforcements wait on Clock #5,
l.566).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import rule_text


def test_combat_1_step_by_step(d2d: Any, tmp_path: Path) -> None:
    lines = rule_text("000").splitlines()
    at = {n: lines[n - 1].strip() for n in (561, 586, 587, 590, 592, 596, 599, 600, 601,
                                             602)}
    assert at[587] == "- Skill - Ranged"
    assert at[601] == ("- Difficulty - The Disadvantages cancel, so it is a normal "
                       "Task:Mind vs. Knot:4.")
    s = ["--session", tmp_path / "combat1.toml"]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")

    def move_of(name: str) -> int:
        return int(d2d.json(*s, "unit", "show", name)["move"])

    # l.571 "Setup - Place 2 Tokens on the bottom of each Unit": Turn = 2 (Facing).
    started = d2d.json(*s, "round", "start")
    assert {u["unit"]: (u["move"], u["turn"]) for u in started["units"]} == {
        "Archer": (5, 2), "Thief": (4, 2), "Goblin Scout": (5, 2),
        "Goblin Skirmisher": (5, 2)}
    # l.573 "Both Goblins Target the Archer … The Archer Targets the Scout and the Thief
    # doesn't Target"; l.574–575 "Group1 - The Archer and Goblins … Group2 - The Thief
    # is alone".
    for who, whom in (("Goblin Scout", "Archer"), ("Goblin Skirmisher", "Archer"),
                      ("Archer", "Goblin Scout")):
        d2d.ok(*s, "unit", "target", who, whom)
    groups = d2d.json(*s, "round", "groups")["groups"]
    assert [sorted(u["name"] for u in g["units"]) for g in groups] == [
        ["Archer", "Goblin Scout", "Goblin Skirmisher"], ["Thief"]]
    # l.579 "Archer - Moves 1 toward the rock and puts an Arrow in his offhand. Move:-2."
    d2d.ok(*s, "unit", "move", "Archer", "forward")
    d2d.ok(*s, "unit", "move", "Archer", "equip")
    assert move_of("Archer") == 5 - 2
    # l.580 "Scout - Moves 1 toward the Archer. Move:-1"; l.581 "Skirmisher - Waits".
    d2d.ok(*s, "unit", "move", "Goblin Scout", "forward")
    assert move_of("Goblin Scout") == 5 - 1
    # l.585–586 "Skirmisher - Interrupts … Throws a Javelin at the Archer. Fight.
    # Move:-?": an Action costs the Action Cost, 2 (001 l.543).
    d2d.ok(*s, "unit", "act", "Goblin Skirmisher", "interact")
    assert move_of("Goblin Skirmisher") == 5 - 2

    # l.586–589 "Skirmisher - Throws a Javelin at the Archer. Fight. … Skill - Ranged".
    # l.590 "Archer - Wants to get behind the rocks, so chooses not to use an Action to
    # Fight back": the Archer plays Evade. Both Levels are Ranged 1, from the session.
    r = d2d.json(*s, "conflict", "Goblin Skirmisher", "Archer:evade", "--skill", "Ranged",
                 "--card", "9C")
    assert (r["side_a"]["skill"], r["side_a"]["level"]) == ("Ranged", 1)
    assert (r["side_b"]["skill"], r["side_b"]["level"]) == ("Ranged", 1)
    assert r["sources"]["level_a"] == "Goblin Skirmisher Ranged 1"
    assert (r["side_a"]["source"], r["approach_a"], r["outcome"]) == ("fate", "strong", "b")
    assert [e["key"] for e in r["effects"]["b"]] == ["move"]  # Evade: Move:+2

    # The Archer spent no Action on it (l.590), so Evade's Move:+2 is not his (001 l.626
    # "IF not Target gains no benefits on a Win"): his Move is untouched.
    assert move_of("Archer") == 3
    # l.592 "Archer - Completes his move behind the Rock … Move:-1"; l.593 "Scout - Moves
    # 1 toward the Archer. Move:-1."; l.594 "Skirmisher - Moves 1 … and Readies another
    # Javelin" (Forward and Equip).
    d2d.ok(*s, "unit", "move", "Archer", "forward")
    d2d.ok(*s, "unit", "move", "Goblin Scout", "forward")
    d2d.ok(*s, "unit", "move", "Goblin Skirmisher", "forward")
    d2d.ok(*s, "unit", "move", "Goblin Skirmisher", "equip")
    assert (move_of("Archer"), move_of("Goblin Scout"), move_of("Goblin Skirmisher")) == (
        3 - 1, 4 - 1, 3 - 2)
    # l.596 "Archer - Attacks the Scout": an Action (Move:-2), the last of his 5 Move.
    d2d.ok(*s, "unit", "act", "Archer", "interact")
    assert move_of("Archer") == 0

    # l.592 "Archer - Completes his move behind the Rock and gains some Cover" (d2d takes
    # 25%, the least there is); l.596 "Archer - Attacks the Scout". The Scout holds no
    # Ranged: it defends with its best Combat skill, Close Combat 1 (001 p.6), and
    # attacking into the Archer's cover costs it a Level (001 l.718).
    r = d2d.json(*s, "conflict", "Archer:7S^", "Goblin Scout", "--skill", "Ranged",
                 "--cover", "a:25", "--card", "4C")
    assert r["sources"] == {
        "level_a": "Archer Ranged 1",
        "level_b": "Goblin Scout Close Combat 1 (its best Combat skill; no Ranged)",
        "weapon_scale": "1 (Archer's Body 8x1)",
        "rival_stat_scale": "1 (Goblin Scout's Body 2x1)"}
    assert (r["side_a"]["level"], r["side_b"]["skill_level"], r["side_b"]["level"]) == (
        1, 1, 0)
    assert (r["approach_a"], r["approach_b"], r["outcome"]) == ("fast", "strong", "a")
    r = d2d.json(*s, "hit", "7S", "--by", "Archer", "--vs", "Goblin Scout", "--skill",
                 "Ranged", "--cover", "a:25")
    # The Scout's Body 2x1 is the Difficulty (001 l.824 "Weapons default to Body").
    assert (r["level"], r["difficulty"], r["sources"]["difficulty"], r["hits"]) == (
        1, 2, "Goblin Scout's Body 2x1", 1)

    # l.599–601 "Thief - Attempts to escape his Bindings … Neither he nor the Scout have
    # Ability to help them, so they will both be at Disadvantage. … The Disadvantages
    # cancel, so it is a normal Task:Mind vs. Knot:4." The Rival is the Scout's Knot.
    r = d2d.json(*s, "conflict", "Thief:strong", "Goblin Scout", "--skill", "none",
                 "--rival-skill", "none", "--skill-stat", "mind", "--card", "6H")
    for side in ("a", "b"):
        got = r["advantage"][side]
        assert [x["key"] for x in got["sources"]] == ["unskilled"]
        assert got["sources"][0]["mode"] == "disadvantage"
        assert got["mode"] == "normal"
        assert got["cancelled"] == ('both sides at Disadvantage: they cancel (000 l.600–601 '
                                    '"they will both be at Disadvantage … The Disadvantages '
                                    'cancel")')
    assert (r["side_a"]["revealed"], len(r["side_b"]["revealed"])) == ([], 1)  # normal
    assert (r["approach_b"], r["outcome"]) == ("block", "a")
    # l.602 "Setup - The Player takes a Task Card and places 4 Tokens on the top and
    # bottom" (the scene's Task Knot).
    task = d2d.json(*s, "task", "show", "Knot")
    assert (task["difficulty"], task["challenge"], task["progress"]) == (4, 4, 4)
    r = d2d.json(*s, "hit", "8C", "--by", "Thief", "--skill", "none", "--skill-stat",
                 "mind", "--vs", "Goblin Scout", "--rival-skill", "none",
                 "--difficulty", task["difficulty"])
    assert (r["difficulty"], r["level"], r["advantage"]["mode"], r["hits"]) == (4, 0,
                                                                               "normal", 1)
    task = d2d.json(*s, "task", "win", "Knot", "--hits", r["hits"], "--by", "Thief")
    assert (task["challenge"], task["progress"]) == (3, 4)

    # l.599 and l.605 "Thief - Attempts to escape his Bindings … Interact": two Actions,
    # his whole Move of 4 (Speed 4x0, the Human Male template).
    d2d.ok(*s, "unit", "act", "Thief", "interact")
    d2d.ok(*s, "unit", "act", "Thief", "interact")
    assert move_of("Thief") == 0
    res = d2d(*s, "unit", "act", "Thief", "interact")  # a third Action: no Move left
    assert res.exit_code == 2 and "Thief has Move 0; Interact costs 2" in res.stderr

    # l.609–613 "Events - … Draw … Recover … Clock Ticks - Discard the top card of the
    # Clock": the Clock goes 1 → 2; the reinforcements wait on Clock #5 (l.566).
    ended = d2d.json(*s, "round", "end")
    assert [st["kind"] for st in ended["steps"]] == [
        "draw", "recover", "task_clock", "condition_events", "random_events", "clock"]
    clock = ended["steps"][-1]
    assert (clock["clock_before"], clock["clock"], clock["events"]) == (1, 2, [])
    knot = d2d.json(*s, "task", "show", "Knot")
    assert (knot["challenge"], knot["progress"]) == (3, 3)  # 001 l.1038 "Progress:-1"
