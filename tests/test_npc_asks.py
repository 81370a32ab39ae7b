"""``npc turn`` asks the Player (issue 31; rules/assistant/asking.py): the card a Player's
unit plays is its Player's (001 l.732 "Play a Conflict facedown from hand / NPCs use a
Fate card instead"), never d2d's."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tests.helpers import with_rules


def _combat1(d2d: Any, tmp_path: Path, **rules: Any) -> Path:
    path = with_rules(d2d, tmp_path, **rules)
    d2d.ok("--session", path, "--seed", 8, "scene", "load", "combat1")
    d2d.ok("--session", path, "round", "start")
    return path


def test_the_turn_stops_and_says_what_to_type(d2d: Any, tmp_path: Path) -> None:
    path = _combat1(d2d, tmp_path)
    d2d.ok("--session", path, "unit", "wait", "Archer", "5")  # his Count 5 comes first
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all")
    assert r["asked"] == {"attacker": "Goblin Skirmisher", "target": "Archer",
                          "player": "Player1", "type": [
                              "d2d npc turn --all --answer Archer=CARD",
                              "d2d npc turn --all --answer Archer=fate  (Stay: 000 l.419)"]}
    # the Scout's Movement at the same Count is kept; the attack is not begun, no Fate
    assert r["commands"] == ["unit move 'Goblin Scout' forward 2"]
    skirmisher = tomllib.loads(path.read_text("utf-8"))["units"]["Goblin Skirmisher"]
    assert skirmisher["move"] == 5  # no Action spent
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--answer",
                 "Archer=7S^")
    assert r["commands"][:2] == ["unit act 'Goblin Skirmisher' interact Archer",
                                 r["commands"][1]]
    assert r["commands"][1].startswith("conflict 'Goblin Skirmisher:fate' 'Archer:7S^' ")
    # Count 4 reaches the Archer and the Thief before the Skirmisher's second throw
    assert r["asked"] is None and r["stopped"]["count"] == 4


def test_players_stay_only_when_told(d2d: Any, tmp_path: Path) -> None:
    path = _combat1(d2d, tmp_path)
    d2d.ok("--session", path, "unit", "wait", "Archer", "5")
    r = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert r["asked"] is None
    fights = [c for c in r["commands"] if c.startswith("conflict")]
    assert fights and all("Archer:fate" in c or "Thief:fate" in c for c in fights)
    # the NPC policy never acts for a Player's unit (000 l.185)
    actors = {c.split()[2].strip("'") for c in r["commands"] if c.startswith("unit ")}
    assert actors <= {"Goblin", "Goblin Scout", "Goblin Skirmisher"}, actors


def test_a_card_chosen_face_down_is_played_without_asking(d2d: Any, tmp_path: Path) -> None:
    path = _combat1(d2d, tmp_path, hands="d2d")
    s = ("--session", path)
    hand = d2d.json(*s, "hand", "show", "Player1")["hand"]
    card = hand[0]["code"]
    d2d.ok(*s, "hand", "choose", "Archer", card)
    r = d2d.json(*s, "--seed", 8, "npc", "turn", "Goblin Skirmisher")
    fight = next(c for c in r["commands"] if c.startswith("conflict"))
    assert f"Archer:{card}" in fight
    after = d2d.json(*s, "hand", "show", "Player1")
    assert after["chosen"] is None and card[:-1] in {c["code"][:-1] for c in after["discard"]}
    # the second attack of the turn asks: nothing is chosen any more
    assert r["asked"]["target"] == "Archer"


def test_at_a_terminal_it_asks_for_the_card(d2d: Any, tmp_path: Path, monkeypatch: Any
                                            ) -> None:
    # in d2d play (or any terminal) the turn asks, and "fate" Stays (000 l.419)
    from d2d_cli.commands import npc

    monkeypatch.setattr(npc, "_interactive", lambda: True)
    path = _combat1(d2d, tmp_path)
    res = d2d("--session", path, "--seed", 8, "npc", "turn", "Goblin Skirmisher", "--why",
              input="7S^\nfate\n")
    assert res.exit_code == 0, res.stderr
    # it waits for the card without holding the session (issue 35): the Player's page or
    # this terminal answers; each part up to a question is saved, one journal entry each;
    # the Target's Action (001 l.639–641) comes with the answer ("7S^ respond"): none here
    assert "Waiting: Goblin Skirmisher attacks Archer — Player1 chooses Archer's card" \
        in res.stderr
    assert "7S^ respond to spend Archer's Action on the defence" in res.stderr  # how to say yes
    assert "respond with an Action?" not in res.stdout  # no prompt holds the session
    assert "'Archer:7S^'" in res.stdout and "Archer:fate" in res.stdout
    log = d2d.ok("--session", path, "session", "log")
    assert sum("npc turn" in line for line in log.splitlines()) == 3
