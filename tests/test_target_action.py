"""The Target's Action in ``npc turn`` (issue 34 item 1): 001 l.639–641 "Target may spend
an Action / IF not Target gains no benefits on a Win" (000 l.310 for an Interrupt). A
Player's unit attacked by a Non-Player spends it with ``--respond UNIT`` (or a terminal's
yes), and a Win then gives everything ``unit respond`` gives by hand; without it the
Conflict says what no Action cost. A Non-Player Target spends it by the policy."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tests.helpers import with_rules


def _stopped(d2d: Any, tmp_path: Path) -> Path:
    """Combat #1, d2d holding the hands, seed 2: the Goblin Skirmisher is about to
    attack the Archer (Player1 holds Q♣ 3♥ 9♠ 5♦ 6♣); the Archer Waited at Count 5, the
    first Count that reaches him (001 l.505 "IF Move = Count THEN Move:-1": Move 4)."""
    path = with_rules(d2d, tmp_path, hands="d2d")
    s = ("--session", path)
    d2d.ok(*s, "--seed", 2, "scene", "load", "combat1")
    d2d.ok(*s, "round", "start")
    d2d.ok(*s, "unit", "wait", "Archer", "5")
    r = d2d.json(*s, "--seed", 2, "npc", "turn", "--all")
    assert r["asked"]["target"] == "Archer"
    return path


def _archer(path: Path) -> dict[str, Any]:
    return dict(tomllib.loads(path.read_text("utf-8"))["units"]["Archer"])


def test_respond_spends_the_action_and_a_winning_block_keeps_and_draws(
        d2d: Any, tmp_path: Path) -> None:
    # 001 l.746 "Block - Keep Block and Draw a card"; l.639 "Target may spend an Action"
    path = _stopped(d2d, tmp_path)
    r = d2d.json("--session", path, "--seed", 2, "npc", "turn", "--all", "--answer",
                 "Archer=3Hv", "--card", "5S^", "--respond", "Archer")
    assert r["commands"][:3] == ["unit act 'Goblin Skirmisher' interact Archer",
                                 "unit respond Archer",
                                 "conflict 'Goblin Skirmisher:fate' Archer:3Hv --with Javelin "
                                 "--card '5S^'"]
    fight = r["done"][2]["result"]
    assert fight["outcome"] == "b" and fight["notes"] == []
    move = r["hands"][0]
    assert (move["kept"], move["drew"], move["hand"]) == (True, 1, 6)
    assert _archer(path)["move"] == 2  # Move 4, Action Cost 2: as unit respond by hand


def test_without_respond_the_conflict_says_what_no_action_cost(d2d: Any,
                                                               tmp_path: Path) -> None:
    path = _stopped(d2d, tmp_path)
    r = d2d.json("--session", path, "--seed", 2, "npc", "turn", "--all", "--answer",
                 "Archer=3Hv", "--card", "5S^")
    assert "unit respond Archer" not in r["commands"]
    fight = r["done"][1]["result"]
    assert fight["outcome"] == "b"
    assert fight["notes"][0].startswith(
        "No benefit for B: Archer spent no Action on Goblin Skirmisher's Interact, so no "
        "Keep, no Draw (001 l.639–641")
    move = r["hands"][0]
    assert (move["kept"], move["drew"], move["hand"]) == (False, 0, 4)
    assert _archer(path)["move"] == 4


def test_respond_is_for_a_players_unit(d2d: Any, tmp_path: Path) -> None:
    from tests.helpers import assert_refused

    path = _stopped(d2d, tmp_path)
    assert_refused(lambda *a: d2d("--session", path, *a), tmp_path,
                   ["npc", "turn", "--all", "--respond", "Goblin Scout"],
                   "--respond Goblin Scout: Goblin Scout is a Non-Player unit: the NPC "
                   "policy decides")


def test_a_non_player_target_responds_by_the_policy(d2d: Any, tmp_path: Path) -> None:
    # docs/solo.md "The Target's Action": a Non-Player spends it when its Move pays the
    # Action Cost; in sim every Target does, and the log replays it as typed
    from d2d_cli.rules.assistant import policy

    data = {"units": {"G": {"move": 2, "action_cost": 2}, "H": {"move": 1,
                                                                "action_cost": 2},
                      "E": {"move": 3, "action_cost": 2, "effects": {"evade_move": 2}}}}
    assert [policy.responds(data, n, None) for n in ("G", "H", "E")] == [True, False,
                                                                          False]


def test_a_non_players_counter_win_counter_attacks_in_npc_turn(d2d: Any,
                                                               tmp_path: Path) -> None:
    # 001 l.752–754 "Counter - Win vs Fast or Wild / Counterattack with a Fast or Strong":
    # the Skirmisher's 5♦ (red: Lower, Coins: Counter) beats the Archer's Fast 9♠; its
    # counter-attack is the next Fate card, K♠ read Upper (Fast), and its Hits are counted
    path = _stopped(d2d, tmp_path)
    r = d2d.json("--session", path, "--seed", 2, "npc", "turn", "--all", "--answer",
                 "Archer=9S^", "--card", "5D", "--card", "KS")
    fight = r["done"][1]["result"]
    assert fight["outcome"] == "a" and fight["approach_a"] == "counter"
    assert (fight["counter"]["card"]["code"], fight["counter"]["source"]) == ("KS^", "fate")
    assert r["commands"][2] == "hit 'KS^' --by 'Goblin Skirmisher' --vs Archer --skill Ranged"
    assert r["commands"][3].startswith("crit --weapon Body --by 'Goblin Skirmisher' --hits ")
