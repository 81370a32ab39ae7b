"""Combat #1 (000 l.545–613) as one list of steps: each printed step of the text, the one
d2d command that plays it, and what its result must be.

The same list drives the test (tests/test_combat1_replay.py: each step run with --json
and checked, its quote checked against the rule text's line) and the Narrator's
transcript docs/combat1.md (scripts/gen_combat1.py: each step run for its human output),
so the two cannot drift. Nothing is retyped: the cover behind the rock, the Range of the
javelin, the Interrupt and the Archer's unspent Action are said once and read by the
later commands. Cards are given as drawn at the table (``--card``, ``7S^``), so every
number is fixed.

Not a test module itself (no ``test_`` prefix).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

Check = Callable[[dict[str, Any]], None]


class Step(NamedTuple):
    line: int  # the line of 000 it plays
    quote: str  # the words of that line it plays (checked against the text)
    argv: tuple[str, ...]  # the d2d command, after `d2d`
    check: Check
    note: str = ""  # d2d's reading where the text is silent


def _eq(got: Any, want: Any) -> None:
    assert got == want, (got, want)


def _units(r: dict[str, Any]) -> None:
    _eq([u["name"] for u in r["units"]], ["Archer", "Thief", "Goblin Scout",
                                         "Goblin Skirmisher"])


def _tokens(r: dict[str, Any]) -> None:
    _eq({u["unit"]: u["turn"] for u in r["units"]},
        {"Archer": 2, "Thief": 2, "Goblin Scout": 2, "Goblin Skirmisher": 2})


def _targets(who: str, whom: str) -> Check:
    return lambda r: _eq((r["name"], r["target"]), (who, whom))


def _groups(r: dict[str, Any]) -> None:
    _eq([sorted(u["name"] for u in g["units"]) for g in r["groups"]],
        [["Archer", "Goblin Scout", "Goblin Skirmisher"], ["Thief"]])


def _move(unit: str, before: int, after: int) -> Check:
    return lambda r: _eq((r["unit"], r["move_before"], r["move"]), (unit, before, after))


def _waited(r: dict[str, Any]) -> None:
    _eq((r["unit"], r["move_before"], r["move"], r["lost"]), ("Goblin Skirmisher", 5, 4, 1))


def _interrupted(r: dict[str, Any]) -> None:
    _eq((r["unit"], r["target"], r["interrupted_by"]),
        ("Goblin Skirmisher", "Archer", ["Goblin Skirmisher"]))


def _range(r: dict[str, Any]) -> None:
    _eq((r["unit"], r["range"]), ("Goblin Skirmisher", {"Archer": 3}))


def _no_action(r: dict[str, Any]) -> None:
    _eq((r["unit"], r["actor"], r["interrupt"], r["action"], r["benefit"], r["spending"]),
        ("Archer", "Goblin Skirmisher", True, False, False, None))


def _javelin(r: dict[str, Any]) -> None:
    # "Skill - Ranged": read from the session, at the Range said once, no --skill typed.
    _eq((r["side_a"]["skill"], r["side_a"]["level"], r["side_b"]["skill"]),
        ("Ranged", 1, "Ranged"))
    # "Weapon - Javelin" (l.588): the scene's Javelin, Range 3 inside its short band
    _eq(r["sources"]["weapon"], "Goblin Skirmisher's Javelin (Body+1, pierce, 1-handed, "
        "thrown 4/8)")
    _eq(r["sources"]["said_range"],
        "Range 3 between Goblin Skirmisher and Archer (said this round)")
    # On Combat #1's map the Range agrees, and the map's readout names it as said.
    _eq((r["map"]["range"], r["map"]["sources"]["range"].split(":")[0]),
        (3, "said this round (d2d unit situation)"))
    # The Archer's Block wins against the Fast javelin, but he spent no Action: no
    # "Keep … Draw a card" (001 l.641).
    _eq((r["approach_a"], r["approach_b"], r["outcome"]), ("fast", "block", "b"))
    _eq(r["effects"]["b"], [])
    assert r["notes"] and r["notes"][0].startswith(
        "No benefit for B: Archer spent no Action on Goblin Skirmisher's Interrupt"), r


def _cover(r: dict[str, Any]) -> None:
    _eq((r["unit"], r["cover"]), ("Archer", {"*": 25}))


def _attack(r: dict[str, Any]) -> None:
    _eq((r["side_a"]["skill"], r["side_b"]["skill"], r["side_b"]["skill_level"],
         r["side_b"]["level"]), ("Ranged", "Close Combat", 1, 0))
    _eq([(m["key"], m["side"], m["level"]) for m in r["modifiers"]], [("cover", "b", -1)])
    _eq(r["sources"]["said_cover"], "Archer in Cover 25% (said this round)")
    _eq(r["sources"]["weapon"], "Archer's Bow (Body+2, pierce, 2-handed, ranged 10/20)")
    _eq((r["approach_a"], r["approach_b"], r["outcome"]), ("fast", "strong", "a"))


def _hits(r: dict[str, Any]) -> None:
    # The Archer's own Cover is no Level off the Scout in his Hits (001 l.711 "Cover
    # makes it harder to hit the Target"): Level 1 - 1 = 0 (issue 27).
    _eq(r["modifiers"], [])
    _eq((r["level"], r["difficulty"], r["sources"]["difficulty"], r["hits"]),
        (0, 2, "Goblin Scout's Body 2x1", 1))


def _knot_conflict(approach_b: str) -> Check:
    def check(r: dict[str, Any]) -> None:
        for side in ("a", "b"):
            got = r["advantage"][side]
            _eq([x["key"] for x in got["sources"]], ["unskilled"])
            _eq((got["sources"][0]["mode"], got["mode"]), ("disadvantage", "normal"))
        _eq((r["approach_a"], r["approach_b"], r["outcome"]), ("strong", approach_b, "a"))
    return check


def _knot(challenge: int, progress: int) -> Check:
    return lambda r: _eq((r["difficulty"], r["challenge"], r["progress"]),
                         (4, challenge, progress))


def _knot_hits(r: dict[str, Any]) -> None:
    _eq((r["difficulty"], r["level"], r["hits"]), (4, 0, 1))


def _events(r: dict[str, Any]) -> None:
    _eq([st["kind"] for st in r["steps"]], ["draw", "recover", "task_clock",
                                             "condition_events", "random_events", "clock"])
    clock = r["steps"][-1]
    _eq((clock["clock_before"], clock["clock"], clock["events"]), (1, 2, []))


SCOUT, SKIRMISHER = "Goblin Scout", "Goblin Skirmisher"
KNOT_SIDES = ("--skill", "none", "--rival-skill", "none", "--skill-stat", "mind")
KNOT_HIT = ("--by", "Thief", "--vs", SCOUT, "--difficulty", "4", *KNOT_SIDES)

STEPS: tuple[Step, ...] = (
    Step(566, "Archer, Thief, Goblin Scout, and Goblin Skirmisher are laid out",
         ("--seed", "1", "scene", "load", "combat1"), _units),
    Step(571, "Setup - Place 2 Tokens on the bottom of each Unit",
         ("round", "start"), _tokens),
    Step(573, "Both Goblins Target the Archer", ("unit", "target", SCOUT, "Archer"),
         _targets(SCOUT, "Archer")),
    Step(573, "Both Goblins Target the Archer", ("unit", "target", SKIRMISHER, "Archer"),
         _targets(SKIRMISHER, "Archer")),
    Step(573, "The Archer Targets the Scout and the Thief doesn't Target",
         ("unit", "target", "Archer", SCOUT), _targets("Archer", SCOUT)),
    Step(575, "Group1 - The Archer and Goblins are in a Group", ("round", "groups"),
         _groups),
    Step(579, "Archer - Moves 1 toward the rock", ("unit", "move", "Archer", "forward"),
         _move("Archer", 5, 4)),
    Step(579, "and puts an Arrow in his offhand. Move:-2.",
         ("unit", "move", "Archer", "equip"), _move("Archer", 4, 3)),
    Step(580, "Scout - Moves 1 toward the Archer. Move:-1",
         ("unit", "move", SCOUT, "forward"), _move(SCOUT, 5, 4)),
    Step(581, "Skirmisher - Waits", ("unit", "wait", SKIRMISHER, "5"), _waited,
         "The Skirmisher has the most Move (5), so Waiting costs it one (000 l.125 \"The "
         "Unit(s) with the most Move must move or discard a Move\"; 001 l.505 \"IF Move = "
         "Count THEN Move:-1\")."),
    Step(584, "Skirmisher - Interrupts Movement",
         ("unit", "interrupt", SKIRMISHER, "Archer"), _interrupted,
         "l.583 \"Archer - Attempts to Move toward the rock but is interrupted\": his Move "
         "stops before he spends it."),
    Step(586, "Skirmisher - Throws a Javelin at the Archer. Fight. Move:-?.",
         ("unit", "act", SKIRMISHER, "interact", "Archer"), _move(SKIRMISHER, 4, 2),
         "Move:-? is the Action Cost, Speed 5 / 2 = 2 (001 l.461)."),
    Step(589, "Range -", ("unit", "situation", SKIRMISHER, "--vs", "Archer", "--range", "3"),
         _range, "The text leaves the Range blank; d2d's replay takes 3 Spaces, a throw "
         "beyond Close Combat's reach."),
    Step(590, "chooses not to use an Action to Fight back",
         ("unit", "respond", "Archer", "--no-action"), _no_action),
    Step(587, "Skill - Ranged",
         ("conflict", SKIRMISHER, "Archer:5Hv", "--card", "9S"), _javelin,
         "The Conflict of the Fight: the Skirmisher reveals a Fate (9♠, Fast), the Archer "
         "plays 5♥ Lower (Block). The text gives no cards; these show the rule of l.590."),
    Step(592, "Archer - Completes his move behind the Rock",
         ("unit", "move", "Archer", "forward"), _move("Archer", 3, 2)),
    Step(592, "and gains some Cover", ("unit", "situation", "Archer", "--cover", "25"),
         _cover, "\"some Cover\": d2d takes 25%, the least there is (001 l.716)."),
    Step(593, "Scout - Moves 1 toward the Archer. Move:-1.",
         ("unit", "move", SCOUT, "forward"), _move(SCOUT, 4, 3)),
    Step(594, "Skirmisher - Moves 1 toward the Archer",
         ("unit", "move", SKIRMISHER, "forward"), _move(SKIRMISHER, 2, 1)),
    Step(594, "and Readies another Javelin.", ("unit", "move", SKIRMISHER, "equip"),
         _move(SKIRMISHER, 1, 0)),
    Step(596, "Archer - Attacks the Scout.", ("unit", "act", "Archer", "interact", SCOUT),
         _move("Archer", 2, 0)),
    Step(596, "Archer - Attacks the Scout.",
         ("conflict", "Archer:7S^", SCOUT, "--card", "4C"), _attack,
         "The Scout holds no Ranged: it defends with Close Combat 1, less a Level for the "
         "Archer's Cover (001 l.718)."),
    Step(596, "Archer - Attacks the Scout.", ("hit", "7S", "--by", "Archer", "--vs", SCOUT),
         _hits, "The Scout's Body 2x1 is the Difficulty (001 l.824); the Archer's own "
         "Cover does not count in his Hits (001 l.711)."),
    Step(599, "Thief - Attempts to escape his Bindings. He is fully bound and tries to "
         "untie the Knot. Interact.", ("unit", "act", "Thief", "interact", "Knot"),
         _move("Thief", 4, 2)),
    Step(601, "The Disadvantages cancel, so it is a normal Task:Mind vs. Knot:4.",
         ("conflict", "Thief:strong", SCOUT, *KNOT_SIDES, "--card", "6H"),
         _knot_conflict("block"), "The Rival is the Scout's Knot (l.600 \"Neither he "
         "nor the Scout have Ability to help them\")."),
    Step(602, "places 4 Tokens on the top and bottom", ("task", "show", "Knot"),
         _knot(4, 4)),
    Step(604, "Resolution -", ("hit", "8C", *KNOT_HIT), _knot_hits),
    Step(604, "Resolution -", ("task", "win", "Knot", "--hits", "1", "--by", "Thief"),
         _knot(3, 4)),
    Step(606, "Thief - Attempts to escape his Bindings.",
         ("unit", "act", "Thief", "interact", "Knot"), _move("Thief", 2, 0)),
    Step(607, "Conflict -", ("conflict", "Thief:strong", SCOUT, *KNOT_SIDES, "--card", "3D"),
         _knot_conflict("counter")),
    Step(608, "Resolution -", ("hit", "9C", *KNOT_HIT), _knot_hits),
    Step(608, "Resolution -", ("task", "win", "Knot", "--hits", "1", "--by", "Thief"),
         _knot(2, 4)),
    Step(613, "Clock Ticks - Discard the top card of the Clock", ("round", "end"), _events,
         "l.609–613 \"Events … Draw … Recover … Clock Ticks\": one command."),
)
