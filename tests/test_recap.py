"""The recap tells the story (issue 37 items 3 and 4): each conflict's winner, cards and
approaches, the Hits, each Crit's place and severity, each NPC step as ``npc turn``
prints it, the oracle's whole question; no face-down choice or undo bookkeeping, no path
of the Narrator's machine, local times with the offset, card symbols. And one exchange
typed once: ``hit`` reuses the conflict's ``--cover`` and ``--no-map`` (also after
``npc turn``), a ``crit`` after ``hit --by … --vs …`` lands on that Rival."""

from __future__ import annotations

import json
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.operations.export import symbols, told
from d2d_cli.rules.assistant.oracle import asked


@pytest.fixture
def tokyo(monkeypatch: Any) -> Any:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def night(d2d: Any, tmp_path: Path) -> tuple[Path, tuple[Any, ...]]:
    path = tmp_path / "friday.toml"
    d2d.ok("--seed", 1, "session", "new", path, "--rule", "hands=d2d")
    s = ("--session", path, "--seed", 1)
    d2d.ok(*s, "scene", "load", "combat1")
    d2d.ok(*s, "round", "start")
    return path, s


def test_the_recap_tells_outcomes_not_commands(d2d: Any, tmp_path: Path, tokyo: Any) -> None:
    path, s = night(d2d, tmp_path)
    card = tomllib.loads(path.read_text("utf-8"))["players"]["Player1"]["hand"][0]
    d2d.ok(*s, "hand", "choose", "Archer", card)
    d2d.ok(*s, "conflict", "Archer", "Goblin Scout", "--skill", "Ranged", "--no-map",
           "--cover", "b:0")
    d2d.ok(*s, "hit")
    d2d.ok(*s, "crit", "--power", "6x1")
    d2d.ok(*s, "npc", "turn", "Goblin Skirmisher", "--players-stay")
    d2d.ok(*s, "oracle", "Do", "the", "goblins", "flee", "--likely")
    d2d.ok(*s, "fate", "draw", "1")
    d2d.ok(*s, "session", "undo")
    text = d2d.ok(*s, "session", "export", "-o", "-")
    front, body = text.split("\n---\n", 1)
    meta = {k: json.loads(v) for k, v in (ln.split(": ", 1) for ln in
                                          front.removeprefix("---\n").splitlines())}
    assert meta["d2d_session"] == "friday" and str(tmp_path) not in text
    assert meta["date"].endswith("+09:00") and meta["d2d_last"].endswith("+09:00")
    local = meta["date"][11:16]  # the first thing told, at Tokyo's time
    assert f"- {local} **Scene**" in body
    # seed 1: the Goblin Scout's Strong K♣ beats the Archer's 10♦ from Player1's hand
    assert "**Conflict**: Goblin Scout (Strong K♣↑) beats Archer (Strong 10♦↑); Player1 " \
           "played 10♦" in body
    assert "**Hit**: Goblin Scout: 1 Hit on Archer" in body
    assert "**Crit**: Crit pierce@torso → Torso Critical on Archer" in body
    assert "**NPC**: Goblin Skirmisher's turn\n  - Goblin Skirmisher: Interact Archer, " \
           "Move 5 → 3\n  - Conflict: " in body
    assert "**Oracle**: Do the goblins flee (likely) — Yes" in body
    assert "hand choose" not in body and "face down" not in body
    assert "**Fate**" not in body.split("**Oracle**")[1]  # the undone draw
    assert "reverted" not in body and "`" not in body


def test_told_lines_are_typed_and_one_function_makes_them() -> None:
    rows = [{"at": "2026-11-28T19:11:00+00:00", "command": "round start",
             "summary": "round 1 started"},
            {"at": "2026-11-28T19:12:00+00:00", "command": "hand choose Archer (a card "
             "face down)", "summary": "Player1 chose a card"},
            {"at": "2026-11-28T19:13:00+00:00", "command": "fate draw 2",
             "summary": "revealed 2Hv QS^"},
            {"at": "2026-11-28T19:14:00+00:00", "command": "session undo",
             "summary": "reverted 'x'"}]
    lines = told(rows)
    assert [(ln.kind, ln.round, ln.text) for ln in lines] == [
        ("round", 1, "round 1 started"), ("fate", 1, "drew 2♥↓ Q♠↑")]


def test_card_symbols_and_the_oracles_whole_question() -> None:
    assert symbols("revealed KS^ 2Hv BW^ 10D; 3 Hits; A unit") == \
        "revealed K♠↑ 2♥↓ BW↑ 10♦; 3 Hits; A unit"
    assert asked(["oracle", "Do", "the", "goblins", "flee", "--likely"]) == (
        "Do the goblins flee", "likely")
    assert asked(["oracle", "Is it raining?", "--card", "9Dv"]) == ("Is it raining?", "even")


def test_the_tvs_oracle_takes_the_words_whole(d2d: Any, tmp_path: Path) -> None:
    from d2d_cli.serve import project

    path, s = night(d2d, tmp_path)
    d2d.ok(*s, "oracle", "Do", "the", "goblins", "flee")
    log = [dict(r) for r in d2d.json("--session", path, "session", "log")["entries"]]
    assert project._oracle(log)[0]["question"] == "Do the goblins flee"


def test_hit_reuses_the_conflicts_cover_and_no_map(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    s = ("--session", path, "--seed", 3)
    d2d.ok(*s, "scene", "load", "combat1")
    d2d.ok(*s, "round", "start")
    # Off the map the Archer's Ranged attack is in reach; the map says 7 Spaces.
    d2d.ok(*s, "conflict", "Archer:7S^", "Goblin Scout", "--skill", "Ranged", "--no-map",
           "--cover", "b:0")
    said = tomllib.loads(path.read_text("utf-8"))["round"]["exchange"]["said"]
    assert said == {"cover": "b:0", "no_map": True}
    out = d2d.ok(*s, "hit")  # before: "out of reach … on the map" (the map re-applied)
    assert "From the conflict: Goblin Scout vs Archer, JS^, --cover b:0 --no-map" in out
    assert d2d.json(*s, "crit", "--power", "6x1")["target"]["unit"] == "Archer"


def test_a_crit_after_hit_by_lands_on_that_rival(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    s = ("--session", path, "--seed", 3)
    d2d.ok(*s, "scene", "load", "combat1")
    d2d.ok(*s, "round", "start")
    # The Conflict was played at the table; its Hits are counted by d2d.
    d2d.ok(*s, "hit", "9S^", "--by", "Archer", "--vs", "Goblin Scout", "--no-map",
           "--skill", "Ranged")
    got = d2d.json(*s, "crit", "--power", "6x1")
    assert got["target"]["unit"] == "Goblin Scout"


def test_a_conflict_npc_turn_ended_on_is_kept_and_one_it_played_out_is_not(
        d2d: Any, tmp_path: Path) -> None:
    """npc turn keeps the turn's last Conflict for hit when the turn ended on it (its
    --no-map as the turn typed it); a Conflict the turn went on to hit and crit leaves
    nothing to reuse, and an older exchange is forgotten."""
    from d2d_cli.api import Session
    from d2d_cli.operations.npc import _remember_last
    from d2d_cli.rules.assistant.engine import Typed

    s = Session.new(tmp_path / "k.toml", seed=3)
    s.scene.load("combat1")
    s.round.start()
    fought = s.conflict("Archer:7S^", "Goblin Scout", skill="Ranged", no_map=True,
                        card=["4C"])

    class Tx:
        def __init__(self) -> None:
            self.data: dict[str, Any] = {"round": {"number": 1, "phase": "started"}}

        def put(self, key: str, value: Any) -> None:
            self.data[key] = value

    tx = Tx()
    line = "conflict Archer:7S^ 'Goblin Scout' --no-map --cover b:0 --card 4C"
    _remember_last(tx, [Typed("unit act Archer interact 'Goblin Scout'", None),
                        Typed(line, fought)])
    kept = tx.data["round"]["exchange"]
    assert (kept["winner"], kept["rival"]) == (fought.side_a.unit, fought.side_b.unit) \
        or (kept["winner"], kept["rival"]) == (fought.side_b.unit, fought.side_a.unit)
    assert kept["said"] == {"cover": "b:0", "no_map": True}
    _remember_last(tx, [Typed(line, fought), Typed("hit 7S^", None)])
    from d2d_cli.rules.combat import exchange

    # played out: nothing to reuse, only the table's last result (the pages' headline)
    assert tx.data["round"]["exchange"]["played"] is True
    assert exchange.remembered(tx.data) is None
    assert exchange.remembered(tx.data, played=True) is not None
    # Through the command: seed 1, the Archer responds, wins, and the turn plays its
    # Hits and Crit: no exchange is left for a second hit.
    path = tmp_path / "c.toml"
    args = ("--session", path, "--seed", 1)
    d2d.ok(*args, "scene", "load", "combat1")
    d2d.ok(*args, "round", "start")
    d2d.ok(*args, "npc", "turn", "Goblin Skirmisher", "--players-stay", "--respond", "Archer")
    after = tomllib.loads(path.read_text("utf-8"))
    assert exchange.remembered(after) is None  # no exchange left for a second hit
