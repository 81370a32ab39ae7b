"""``d2d npc plan|turn`` (rules/assistant/policy.py; docs/solo.md "The NPC policy"): the
policy the simulator plays by, for one Non-Player unit at the table."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from tests.helpers import assert_refused


def _combat1(d2d, data_dir: Path, start: bool = True) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "c1.toml"
    d2d.ok("--session", path, "--seed", 1, "scene", "load", "combat1")
    if start:
        d2d.ok("--session", path, "round", "start")
    return path


def test_plan_names_target_movement_action_and_approach_with_reasons(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    before = path.read_bytes()
    p = d2d.json("--session", path, "npc", "plan", "goblin scout")
    assert (p["unit"], p["action"], p["target"], p["approach"]) == (
        "Goblin Scout", "attack", "Archer", "fate")
    assert [r["step"] for r in p["reasons"]] == ["target", "movement", "action", "approach"]
    # "Keep the prisoner and catch the Archer": the goal names the Archer; the bound Thief
    # is kept, not fought; a Non-Player reveals Fate (000 l.417).
    assert p["reasons"][0]["why"].startswith("the goal names it")
    assert "000 l.417" in p["reasons"][3]["why"]
    assert p["chance"] == pytest.approx(0.3860936408106219)
    assert path.read_bytes() == before  # a plan changes nothing


def test_a_dying_unit_withdraws(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    d2d.ok("--session", path, "unit", "condition", "Goblin Scout", "add", "dying")
    p = d2d.json("--session", path, "npc", "plan", "Goblin Scout")
    assert (p["action"], p["target"]) == ("withdraw", None)


def test_same_seed_same_deck_same_turn(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    copy = data_dir / "c2.toml"
    shutil.copy(path, copy)
    one = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all")
    two = d2d.json("--session", copy, "--seed", 8, "npc", "turn", "--all")
    assert one == two and one["units"] == ["Goblin Scout", "Goblin Skirmisher"]
    assert one["commands"][0] == "unit act 'Goblin Scout' interact Archer"


def test_turn_is_journaled_and_undone_in_one_step(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    before = tomllib.loads(path.read_text("utf-8"))
    got = d2d.json("--session", path, "--seed", 3, "npc", "turn", "Goblin Skirmisher")
    after = tomllib.loads(path.read_text("utf-8"))
    assert after["units"]["Goblin Skirmisher"]["move"] == 1  # two Actions at Cost 2
    assert got["commands"].count("unit act 'Goblin Skirmisher' interact Archer") == 2
    d2d.ok("--session", path, "session", "undo")
    again = tomllib.loads(path.read_text("utf-8"))
    for key in ("units", "tasks", "fate"):
        assert again[key] == before[key]


def test_table_mode_reads_the_cards_given(d2d, data_dir) -> None:
    """Two Actions, each a conflict revealing the Scout's Fate and the Archer's (the
    Archer Stays): 7♣ Upper vs 3♦ Lower, then Q♥ Lower vs 2♠ Upper."""
    path = _combat1(d2d, data_dir)
    fate_before = tomllib.loads(path.read_text("utf-8"))["fate"]
    got = d2d.json("--session", path, "npc", "turn", "Goblin Scout", "--card", "7C^",
                   "--card", "3Dv", "--card", "QHv", "--card", "2S^")
    assert [x for x in got["commands"] if x.startswith("conflict")] == [
        "conflict 'Goblin Scout:fate' Archer:fate --no-map --card '7C^' --card 3Dv",
        "conflict 'Goblin Scout:fate' Archer:fate --no-map --card QHv --card '2S^'"]
    assert tomllib.loads(path.read_text("utf-8"))["fate"] == fate_before


@pytest.mark.parametrize(("args", "message"), [
    (["npc", "plan", "Archer"], "Player1's unit"),
    (["npc", "plan", "Nobody"], "Nobody"),
    (["npc", "turn"], "or give --all"),
    (["npc", "turn", "Goblin Scout", "--all"], "or give --all"),
    (["npc", "turn", "Goblin Scout", "--card", "7C^"], "not enough cards"),
])
def test_refusals_change_nothing(d2d, data_dir, args, message) -> None:
    path = _combat1(d2d, data_dir)
    assert_refused(d2d, data_dir, ["--session", str(path), *args], message)


def test_turn_needs_a_round_under_way(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir, start=False)
    res = d2d("--session", path, "npc", "turn", "Goblin Scout")
    assert res.exit_code == 2 and "round" in res.stderr
