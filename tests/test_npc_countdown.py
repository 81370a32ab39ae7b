"""``npc turn --all`` one Count at a time (issue 34 item 4; docs/rules.md "npc turn --all,
one Count at a time").

001 l.499–513 "Countdown - Each Group counts down from 10 / One each Count, do one of the
following: / Wait - Do nothing / IF Move = Count THEN Move:-1 / Movement - Move somewhere
/ … / Action - Perform an Action"; 000 l.124 "Simultaneous - All Units that choose to
Move, move simultaneously"; 000 l.126 "Interrupt - IF your Move is Interrupted by an
Action THEN stop moving, resolve the Action, and then continue your Move".

Combat #1 after round start: the Archer (Player1) Move 5, the Thief (Player2, bound)
Move 4, the Goblin Scout and Goblin Skirmisher Move 5 each; the Scout closes in with two
Movements (Forward 2, Drift 3), the Skirmisher throws its Javelin twice.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tests.helpers import check_quotes, hand_edit, with_rules

QUOTES = """
001 l.499 "Countdown - Each Group counts down from 10"
001 l.501 "One each Count, do one of the following:"
000 l.124 "Simultaneous - All Units that choose to Move, move simultaneously."
000 l.126 "Interrupt - IF your Move is Interrupted by an Action THEN stop moving"
001 l.511 "Action - Perform an Action"
001 l.479 "Each group will simultaneously resolve their"
"""


def test_the_lines_quoted_are_in_the_rule_texts() -> None:
    assert check_quotes(QUOTES) == 6


def _combat1(d2d: Any, tmp_path: Path, **rules: Any) -> Path:
    path = with_rules(d2d, tmp_path, **rules)
    d2d.ok("--session", path, "--seed", 8, "scene", "load", "combat1")
    d2d.ok("--session", path, "round", "start")
    return path


def _units(path: Path) -> dict[str, Any]:
    return dict(tomllib.loads(path.read_text("utf-8"))["units"])


def _aside(path: Path, *names: str) -> None:
    """The Players' units ``names`` have no Move left this round (they have acted)."""
    for name in names:
        hand_edit(path, rf"(^\[units\.{name}\]\n(?:[^\[\n][^\n]*\n)*?)move = \d+", r"\g<1>move = 0")


def test_a_players_unit_at_the_same_count_is_not_passed_over(d2d: Any,
                                                              tmp_path: Path) -> None:
    # Count 5 reaches the Archer and both Goblins: the Archer may act first, so nothing
    # is played and the turn says where it stopped and what to type (old: the Goblins
    # played their whole turns through)
    path = _combat1(d2d, tmp_path)
    before = path.read_bytes()
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert r["commands"] == [] and r["asked"] is None
    assert r["stopped"] == {"count": 5, "units": ["Archer"], "players": ["Player1"],
                            "type": ["d2d unit act|move Archer …  or  d2d unit wait Archer 5",
                                     "d2d npc turn --all"]}
    units = _units(path)
    assert (units["Goblin Scout"]["move"], units["Goblin Skirmisher"]["move"]) == (5, 5)
    assert tomllib.loads(path.read_bytes().decode())["units"] == \
        tomllib.loads(before.decode())["units"]
    # the Archer Waits at 5 (Move 5 → 4): the Goblins take Count 5, one thing each, and
    # the turn stops again where Count 4 reaches the Archer and the Thief
    d2d.ok("--session", path, "unit", "wait", "Archer", "5")
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert r["counts"] == [5, 5]
    assert [p["unit"] for p in r["plans"]] == ["Goblin Scout", "Goblin Skirmisher"]
    assert r["commands"][:2] == ["unit move 'Goblin Scout' forward 2",
                                 "unit act 'Goblin Skirmisher' interact Archer"]
    assert (r["stopped"]["count"], r["stopped"]["units"]) == (4, ["Archer", "Thief"])


def test_the_output_says_where_it_stopped_and_what_to_type(d2d: Any,
                                                           tmp_path: Path) -> None:
    path = _combat1(d2d, tmp_path)
    out = d2d.ok("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert out == ("Stopped at Count 5: Archer (Player1) may act now (001 l.499–505). "
                   "Type:\n"
                   "  d2d unit act|move Archer …  or  d2d unit wait Archer 5\n"
                   "  d2d npc turn --all\n")
    log = d2d.ok("--session", path, "session", "log")
    assert "Stopped at Count 5: Archer (Player1) may act — then: d2d npc turn --all" in log


def test_two_non_players_at_different_counts_interleave_by_count(d2d: Any,
                                                                 tmp_path: Path) -> None:
    # The Skirmisher Waits at Count 5 (Move 5 → 4): the Countdown reaches the Scout at 5
    # (its first Movement), the Skirmisher at 4 (its first throw), the Scout at 3 (its
    # second Movement), the Skirmisher at 2 (its second throw) — not the Scout's whole
    # turn first (old: Forward, Drift, then both throws)
    path = _combat1(d2d, tmp_path)
    _aside(path, "Archer", "Thief")
    d2d.ok("--session", path, "unit", "wait", "Goblin Skirmisher", "5")
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert r["stopped"] is None
    assert r["counts"] == [5, 4, 3, 2]
    assert [p["unit"] for p in r["plans"]] == ["Goblin Scout", "Goblin Skirmisher",
                                               "Goblin Scout", "Goblin Skirmisher"]
    acted = [c for c in r["commands"] if c.startswith("unit ")]
    assert acted == ["unit move 'Goblin Scout' forward 2",
                     "unit act 'Goblin Skirmisher' interact Archer",
                     "unit move 'Goblin Scout' drift left 3",
                     "unit act 'Goblin Skirmisher' interact Archer"]
    # each did its thing at the Count that reached it, which round next now lies below
    spent = {n: u["spent"]["count"] for n, u in _units(path).items() if n.startswith("Gob")}
    assert spent == {"Goblin Scout": 3, "Goblin Skirmisher": 2}


def test_with_no_players_unit_reached_it_plays_to_the_end_of_the_round(
        d2d: Any, tmp_path: Path) -> None:
    path = _combat1(d2d, tmp_path)
    _aside(path, "Archer", "Thief")
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert r["stopped"] is None and r["asked"] is None
    units = _units(path)
    assert units["Goblin Scout"]["space"] == "G7"  # where its plan closes in to
    assert units["Goblin Skirmisher"]["move"] == 1  # two throws: Move 5 → 3 → 1
    # nothing is left to play: the same command again does nothing
    again = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all")
    assert again["commands"] == [] and again["stopped"] is None


def test_a_player_reached_alone_above_the_npcs_acts_first(d2d: Any, tmp_path: Path) -> None:
    # Count 4 reaches only the Archer and the Thief, the Goblins are at 3: the Players'
    # units still go before Count 3 comes
    path = _combat1(d2d, tmp_path)
    for unit in ("Goblin Scout", "Goblin Skirmisher"):
        d2d.ok("--session", path, "unit", "wait", unit, "5")
        d2d.ok("--session", path, "unit", "wait", unit, "4")
    d2d.ok("--session", path, "unit", "wait", "Archer", "5")
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert r["commands"] == []
    assert (r["stopped"]["count"], r["stopped"]["units"]) == (4, ["Archer", "Thief"])


def test_npcs_first_at_a_shared_count_under_rules(d2d: Any, tmp_path: Path) -> None:
    # [rules] shared_count = "npcs": the Goblins take Count 5, then the Archer, still at
    # Count 5, is not passed over
    path = _combat1(d2d, tmp_path, shared_count="npcs")
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert r["counts"] == [5, 5]
    assert (r["stopped"]["count"], r["stopped"]["units"]) == (5, ["Archer"])
    assert _units(path)["Archer"]["move"] == 5


def test_a_group_stops_only_for_its_own_players_units(d2d: Any, tmp_path: Path) -> None:
    # 001 l.479–481 "Each group will simultaneously resolve their Round": the Skirmisher
    # alone in Group 3 plays its round through; Group 1 (the Archer and the Scout) stops
    # at Count 5 for the Archer
    path = _combat1(d2d, tmp_path)
    d2d.ok("--session", path, "unit", "target", "Goblin Scout", "Archer")
    d2d.ok("--session", path, "unit", "target", "Archer", "Goblin Scout")
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay",
                 "--group", "3")
    assert r["stopped"] is None and r["counts"][:2] == [5, 3]
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay",
                 "--group", "1")
    assert r["commands"] == []
    assert r["stopped"]["type"][-1] == "d2d npc turn --all --group 1"


def test_reached_is_the_countdowns_one_answer() -> None:
    from d2d_cli.rules.time.groups import reached

    assert reached({"A": 5, "B": 3, "C": 5}) == (5, ("A", "C"))  # roster order kept
    assert reached({"A": 0, "B": 0}) == (0, ())
    assert reached({}) == (0, ())
