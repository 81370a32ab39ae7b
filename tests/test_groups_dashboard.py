"""Groups from Targets (issue 12 item 5, 001 l.475–483) and the dashboard of ``status``
(item 9): round, clock, tasks, weather and what each unit has left."""

from __future__ import annotations

from pathlib import Path

import pytest

from d2d_cli.rules.time import groups
from tests.helpers import Runner, check_quotes, session_file
from tests.test_round_tokens import add


def test_the_module_quotes_the_text() -> None:
    assert check_quotes(groups.__doc__ or "") >= 3


def names(r: dict) -> list[list[str]]:
    return [[m["name"] for m in g["units"]] for g in r["groups"]]


def test_combat1_groups(d2d: Runner) -> None:
    """000 l.573–576 "Both Goblins Target the Archer … The Archer Targets the Scout and
    the Thief doesn't Target. Grouping - Group1 - The Archer and Goblins are in a Group -
    Group2 - The Thief is alone in another Group"."""
    d2d.ok("scene", "load", "combat1")
    d2d.ok("unit", "target", "Goblin Scout", "Archer")
    d2d.ok("unit", "target", "Goblin Skirmisher", "Archer")
    d2d.ok("unit", "target", "Archer", "Goblin Scout")
    r = d2d.json("round", "groups")
    assert (r["round"], r["phase"], r["countdown"]) == (0, "none", 10)
    assert [sorted(g) for g in names(r)] == [
        ["Archer", "Goblin Scout", "Goblin Skirmisher"], ["Thief"]]
    assert r["groups"][0]["units"][0]["target"] in ("Goblin Scout", "Archer")


def test_groups_chain_and_a_unit_alone(d2d: Runner) -> None:
    # 001 l.477 "Unit and its Target are in the same Group": A→B and C→B join A and C;
    # D targets nobody and nobody targets D; E→F.
    for n in "ABCDEF":
        add(d2d, n, "5x0" if n in "CE" else "4x0")
    for a, b in (("A", "B"), ("C", "B"), ("E", "F")):
        d2d.ok("unit", "target", a, b)
    d2d.ok("round", "start")
    d2d.ok("unit", "move", "A", "2")
    r = d2d.json("round", "groups")
    # Most Move first (000 l.125 "The Unit(s) with the most Move must move"): C 5,
    # B 4, A 2.
    assert names(r) == [["C", "B", "A"], ["D"], ["E", "F"]]
    assert r["groups"][0]["units"] == [{"name": "C", "target": "B", "move": 5},
                                       {"name": "B", "target": None, "move": 4},
                                       {"name": "A", "target": "B", "move": 2}]
    assert d2d.ok("round", "groups") == (
        "Round 1 — Groups by Target (001 l.475); each counts down from 10, most Move first:\n"
        "  1. C → B (Move 5), B (Move 4), A → B (Move 2)\n"
        "  2. D (Move 4)\n"
        "  3. E → F (Move 5), F (Move 4)\n")


def test_no_units_no_groups(d2d: Runner) -> None:
    assert d2d.json("round", "groups")["groups"] == []


# --- the dashboard --------------------------------------------------------------------


@pytest.fixture
def board(d2d: Runner) -> Runner:
    """Three units, targets, two tasks (one failed), a clock event, the wind, round 1
    under way and some of it spent."""
    add(d2d, "Archer", "4x0", "--skill", "Ranged=1")
    add(d2d, "Thief", "4x0")
    add(d2d, "Goblin Scout", "5x0", "--skill", "Stealth=1", "--skill", "Close Combat=1")
    d2d.ok("unit", "target", "Goblin Scout", "Archer")
    d2d.ok("unit", "target", "Archer", "Goblin Scout")
    d2d.ok("task", "new", "Knot", "--difficulty", "4")
    d2d.ok("task", "win", "Knot", "--hits", "1")
    d2d.ok("task", "new", "Door", "--difficulty", "3")
    d2d.ok("task", "lose", "Door", "--hits", "3")  # failed: not on the dashboard
    d2d.ok("clock", "event", "add", "5", "Reinforcements arrive")
    d2d.ok("weather", "wind", "--card", "5Sv", "--card", "3H", "--card", "KC", "--card",
           "9D", "--card", "2S")
    d2d.ok("round", "start")
    d2d.ok("unit", "face", "Archer", "N")
    d2d.ok("unit", "move", "Archer", "forward")
    d2d.ok("unit", "move", "Archer", "equip")
    d2d.ok("unit", "act", "Goblin Scout", "push")
    d2d.ok("unit", "ability", "Goblin Scout", "use", "Sneak")
    d2d.ok("unit", "stealth", "Goblin Scout", "hide", "2")
    d2d.ok("unit", "condition", "Thief", "add", "dying")
    # 5x-1 adds no Hits unarmoured (001 l.934), so --hits 2 places a Major Crit.
    d2d.ok("crit", "--power", "5x-1", "--hits", "2", "--card", "slash@torso", "--target",
           "Thief")
    return d2d


def test_status_json_has_the_round_clock_tasks_weather(board: Runner) -> None:
    r = board.json("status")
    assert list(r) == ["round", "clock", "tasks", "weather", "units"]
    assert r["round"] == {"number": 1, "phase": "started"}
    assert r["clock"] == {"value": 1, "down": False, "next_event": {
        "at": 5, "text": "Reinforcements arrive", "ticks": 4}}
    assert r["tasks"] == [{"name": "Knot", "difficulty": 4, "challenge": 3, "progress": 4,
                           "state": "open", "workers": []}]
    # 5S↓ reads 8 = SW on the d8 (errata: suit, +4 if Lower); one K: 10 km/h
    assert r["weather"] == {"direction": "SW", "speed_kph": 10, "beaufort": "Light breeze",
                            "speed_stat": "10x0"}
    archer, thief, scout = r["units"]
    assert {k: archer[k] for k in ("move", "move_left", "actions_left", "turn", "facing",
                                   "target")} == {
        "move": 2, "move_left": 2, "actions_left": 1, "turn": 2, "facing": "N",
        "target": "Goblin Scout"}
    assert (scout["cooldowns"], scout["active"], scout["stealth"]) == (
        ["Sneak"], {"Stealth": ["Sneak"]}, 2)
    assert scout["boosts"] == ["Push the Limit: Skill:+1 this Round"]
    assert thief["conditions"] == {"dying": 1}
    assert [(c["location"], c["severity"]) for c in thief["crits"]] == [("torso", "major")]
    for u in r["units"]:
        assert {"move_left", "actions_left", "cooldowns", "crits"} <= set(u)
    # The row keeps every key of unit show, in the same order, before the new ones.
    assert list(archer)[:len(board.json("unit", "show", "Archer"))] == list(
        board.json("unit", "show", "Archer"))


def test_status_outside_a_round_has_nothing_left(d2d: Runner) -> None:
    add(d2d, "Archer")
    r = d2d.json("status")
    assert r["round"] == {"number": 0, "phase": "none"}
    assert r["clock"] == {"value": 1, "down": False, "next_event": None}
    assert (r["tasks"], r["weather"]) == ([], None)
    assert (r["units"][0]["move_left"], r["units"][0]["actions_left"]) == (None, None)


def lines(d2d: Runner, *args: str) -> list[str]:
    return [line.rstrip() for line in d2d.ok(*args).splitlines()]


HEADER = [
    "Round 1 — under way",
    "Clock 1 · next: #5 in 4 ticks — Reinforcements arrive",
    "Wind SW 10 km/h (Light breeze)",
    "Tasks: Knot — Challenge 3/4, Progress 4/4",
]


def test_status_wide(board: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert lines(board, "status") == [
        *HEADER,
        " Unit          Body       Mind  Will  Spd  Mv  AC  Act  Turn  Target        "
        "Conditions",
        " Archer        8x1        5x1   5x1   4x0  2   2   1    2     Goblin Scout  —",
        " Thief         8x1        5x1   5x1   4x0  4   2   2    2     —             "
        "DYING, Crit Torso (Major)",
        " Goblin Scout  7x1 (8x1)  5x1   5x1   5x0  5   2   2    2     Archer        "
        "Fatigue",
        "  Archer: facing N",
        "  Goblin Scout: Cooldown: Sneak · Hidden (2 tokens) · Push the Limit: Skill:+1 this "
        "Round",
    ]


def test_status_stacks_at_60_columns(board: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    out = lines(board, "status")
    assert out == [
        *HEADER,
        "Archer → Goblin Scout",
        "  Body 8x1  Mind 5x1  Will 5x1  Speed 4x0",
        "  Move 2 · AC 2 · Actions 1 · Turn 2",
        "  facing N",
        "Thief",
        "  Body 8x1  Mind 5x1  Will 5x1  Speed 4x0",
        "  Move 4 · AC 2 · Actions 2 · Turn 2",
        "  DYING, Crit Torso (Major)",
        "Goblin Scout → Archer",
        "  Body 7x1 (8x1)  Mind 5x1  Will 5x1  Speed 5x0",
        "  Move 5 · AC 2 · Actions 2 · Turn 2",
        "  Fatigue",
        "  Cooldown: Sneak · Hidden (2 tokens) · Push the Limit:",
        "  Skill:+1 this Round",
    ]
    assert max(len(line) for line in out) <= 60


def test_dying_is_highlighted(board: Runner, data_dir: Path) -> None:
    from d2d_cli import session
    from d2d_cli.commands.status import _marks
    from d2d_cli.rules.overview.dashboard import dashboard

    rows = {u.name: u for u in dashboard(session.read(session_file(data_dir))).units}
    assert _marks(rows["Thief"]) == "[bold red]DYING[/], Crit Torso (Major)"


def test_status_rows_follow_the_round(d2d: Runner) -> None:
    # Boosts last "this Round" (001 l.597, l.605); a Continuous Power until it ends
    # (000 l.878); Move and Actions left only while a round is under way.
    add(d2d, "Mage", "4x0", "--skill", "Fire=2")
    d2d.ok("round", "start")
    d2d.ok("unit", "act", "Mage", "push")
    d2d.ok("unit", "power", "Mage", "use", "Fire", "--effect", "1", "--continuous",
           "--price", "stun")
    row = d2d.json("status")["units"][0]
    # The Power's use spent the Interact Action (001 l.627): Move 4 - Action Cost 2.
    assert (row["boosts"], row["continuous"], row["move_left"]) == (
        ["Push the Limit: Skill:+1 this Round"], ["Fire"], 2)
    d2d.ok("round", "end")
    row = d2d.json("status")["units"][0]
    assert (row["boosts"], row["continuous"], row["move_left"], row["actions_left"]) == (
        [], ["Fire"], None, None)
