"""Sides and Players that forgive typos (issue 37 item 2): factions and Players matched
whatever their case, a name the session does not know refused with the nearest one
(exit 2, file unchanged) unless --new; ``player rename`` and ``hand drop`` for Combat
#1's stand-in Players; no round-end Draw for a Player with no unit (001 l.1037 "Draw -
Each Player draws a card" — a Player with no unit is not at the fight); the NPC policy
honouring ``unit target``."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tests.helpers import assert_refused


def state(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text("utf-8"))


def combat1(d2d: Any, tmp_path: Path, *rules: str) -> tuple[Path, tuple[Any, ...]]:
    path = tmp_path / "c1.toml"
    d2d.ok("--seed", 5, "session", "new", path, *[w for r in rules for w in ("--rule", r)])
    d2d.ok("--session", path, "scene", "load", "combat1")
    return path, ("--session", path)


def test_a_faction_or_player_typo_is_refused_with_the_nearest(d2d: Any,
                                                             tmp_path: Path) -> None:
    path, s = combat1(d2d, tmp_path)
    assert_refused(d2d, tmp_path, [*s, "unit", "side", "Archer", "--faction", "Adventurrs"],
                   "no faction 'Adventurrs' in this session (did you mean 'Adventurers'? "
                   "factions: Adventurers, Goblins); add --new to make a new one")
    assert_refused(d2d, tmp_path, [*s, "unit", "side", "Archer", "--player", "Playr1"],
                   "no Player 'Playr1' in this session (did you mean 'Player1'?")
    assert_refused(d2d, tmp_path, [*s, "unit", "add", "Wren", "--body", "4x1", "--mind",
                                   "4x1", "--will", "4x1", "--speed", "5x0", "--faction",
                                   "adventurer"], "did you mean 'Adventurers'?")
    assert_refused(d2d, tmp_path, [*s, "char", "new", "Rook", "--body", "7", "--speed", "5",
                                   "--faction", "Goblin"], "did you mean 'Goblins'?")
    # Any case is the session's own spelling: no third faction (sim would see one).
    r = d2d.json(*s, "unit", "side", "Archer", "--faction", "adventurers", "--player",
                 "player1")
    assert r == {"name": "Archer", "faction": "Adventurers", "player": "Player1"}
    r = d2d.json(*s, "unit", "add", "Wren", "--body", "4x1", "--mind", "4x1", "--will",
                 "4x1", "--speed", "5x0", "--faction", "ADVENTURERS")
    assert state(path)["units"]["Wren"]["faction"] == "Adventurers"
    # A new one, said so.
    r = d2d.json(*s, "unit", "side", "Wren", "--faction", "Rangers", "--player", "Ann",
                 "--new")
    assert r == {"name": "Wren", "faction": "Rangers", "player": "Ann"}


def test_player_rename_moves_hand_units_and_the_scenes_list(d2d: Any,
                                                            tmp_path: Path) -> None:
    path, s = combat1(d2d, tmp_path, "hands=d2d")
    before = state(path)
    hand = before["players"]["Player1"]
    r = d2d.json(*s, "player", "rename", "player1", "Ann")
    assert r == {"old": "Player1", "new": "Ann", "units": ["Archer"], "hand": True}
    after = state(path)
    assert after["players"]["Ann"] == hand and "Player1" not in after["players"]
    assert after["units"]["Archer"]["player"] == "Ann"
    assert d2d.json(*s, "hand", "show", "ann")["units"] == ["Archer"]
    players = after["scene"]["factions"]["Adventurers"].get("players")
    assert players is None or "Player1" not in players
    assert_refused(d2d, tmp_path, [*s, "player", "rename", "Ann", "player2"],
                   "Player2 already plays a unit or holds a hand")
    assert_refused(d2d, tmp_path, [*s, "player", "rename", "Plyer2", "Ben"],
                   "no Player 'Plyer2' in this session (did you mean 'Player2'?")
    d2d.ok(*s, "session", "undo")
    assert state(path)["players"] == before["players"]


def test_hand_drop_and_a_player_never_dealt(d2d: Any, tmp_path: Path) -> None:
    path, s = combat1(d2d, tmp_path, "hands=d2d")
    r = d2d.json(*s, "hand", "drop", "player2")
    assert r == {"player": "Player2", "hand": 5, "units": ["Thief"]}
    assert list(state(path)["players"]) == ["Player1"]
    # Player2 still plays the Thief: hand show says how to deal them again.
    assert_refused(d2d, tmp_path, [*s, "hand", "show", "Player2"],
                   "Player2 holds no hand yet: d2d hand deal Player2")
    assert_refused(d2d, tmp_path, [*s, "hand", "drop", "Player2"], "Player2 holds no hand")


def test_a_player_with_no_unit_draws_nothing_at_round_end(d2d: Any, tmp_path: Path) -> None:
    path, s = combat1(d2d, tmp_path, "hands=d2d")
    d2d.ok(*s, "unit", "side", "Thief", "--player", "Player1")  # Player2 now plays none
    d2d.ok(*s, "round", "start")
    r = d2d.json(*s, "round", "end")
    assert [(h["player"], h["hand"]) for h in r["steps"][0]["hands"]] == [("Player1", 6)]
    held = state(path)["players"]
    assert (len(held["Player1"]["hand"]), len(held["Player2"]["hand"])) == (6, 5)


def test_the_npc_policy_honours_unit_target(d2d: Any, tmp_path: Path) -> None:
    path, s = combat1(d2d, tmp_path)
    d2d.ok(*s, "round", "start")
    assert d2d.json(*s, "npc", "plan", "Goblin Scout")["target"] == "Archer"  # its goal
    d2d.ok(*s, "unit", "target", "Goblin Scout", "Thief")
    plan = d2d.json(*s, "npc", "plan", "Goblin Scout")
    assert plan["target"] == "Thief"
    assert plan["reasons"][0]["why"].startswith("its target (d2d unit target)")
