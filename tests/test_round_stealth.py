"""Stealth in the round (issue 19 item 6): Remain Hidden at Round: End, Forced: Maximum
Move=Tokens, and Detect's test as d2d reads it (docs/errata.md "Detect")."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import Runner, assert_refused, with_rules


def setup(d2d: Runner, *s: str) -> Runner:
    d2d.ok(*s, "unit", "add", "Archer", "--body", "8x1", "--mind", "5x1", "--will", "5x1",
           "--speed", "4x0", "--skill", "Ranged=1")
    d2d.ok(*s, "unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
           "--speed", "5x0", "--skill", "Stealth=2")
    d2d.ok(*s, "round", "start")
    return d2d


def test_remain_hidden_adds_a_token_at_round_end(d2d: Runner) -> None:
    # 000 l.807 "Remain Hidden - Clock: Tokens+1"; l.803 "Tokens may not be more than
    # 2xStealth" (Stealth 2: at most 4).
    setup(d2d)
    d2d.ok("unit", "stealth", "Goblin", "hide", "3")
    ended = d2d.json("round", "end")
    assert ended["steps"][-1] == {"kind": "remain_hidden", "units": [
        {"unit": "Goblin", "tokens_before": 3, "tokens": 4, "max_tokens": 4}]}
    d2d.ok("round", "start")
    out = d2d.ok("round", "end")
    assert "Remain Hidden — Stealth tokens +1 (000 l.807):\n   Goblin: 4 → 4 (at most 4)" \
        in out
    assert d2d.json("unit", "stealth", "Goblin", "show")["tokens"] == 4


def test_forced_maximum_move_is_the_tokens(d2d: Runner, data_dir: Path) -> None:
    # 000 l.804 "Forced: Maximum Move=Tokens. IF Tokens=0 THEN you Reveal immediately."
    setup(d2d)
    d2d.ok("unit", "stealth", "Goblin", "hide", "2")
    d2d.ok("unit", "move", "Goblin", "forward")
    assert_refused(d2d, data_dir, ["unit", "move", "Goblin", "slide"],
                   "Goblin is Hidden with 2 Stealth token(s): it may Move at most 2 this "
                   "Round")
    d2d.ok("unit", "move", "Goblin", "drift")
    assert_refused(d2d, data_dir, ["unit", "move", "Goblin", "1"], "it has moved 2")
    d2d.ok("unit", "act", "Goblin", "search")  # an Action is not Movement
    d2d.ok("unit", "stealth", "Goblin", "reveal")
    assert d2d.json("unit", "move", "Goblin", "1")["move"] == 0
    # The next round counts afresh.
    d2d.ok("round", "end")
    d2d.ok("round", "start")
    d2d.ok("unit", "stealth", "Goblin", "hide", "1")
    d2d.ok("unit", "move", "Goblin", "1")
    assert d2d("unit", "move", "Goblin", "1").exit_code == 2


def test_detect_000_reads_sight_and_hearing(d2d: Runner, tmp_path: Path,
                                            data_dir: Path) -> None:
    # 000 l.252–253 "Sight - IF a Hidden Unit in Range:Mindx2 enters your Arc:Forward Test
    # Mind vs. Body to notice them. Hearing - IF a Hidden Unit enters Range:Mindx1 THEN
    # Test Mind vs. Body to notice them."
    s = ("--session", str(with_rules(d2d, tmp_path, detect="000")))
    setup(d2d, *s)
    d2d.ok(*s, "unit", "stealth", "Goblin", "hide")
    r = d2d.json(*s, "unit", "act", "Archer", "detect", "Goblin", "--range", "4")
    # The Stun is taken first: Mind 4, Hearing to 4, Sight to 8.
    assert {k: r["detect"][k] for k in ("mind", "body", "difficulty", "sense")} == {
        "mind": 4, "body": 2, "difficulty": 2, "sense": "hearing"}
    r = d2d.json(*s, "unit", "act", "Archer", "detect", "Goblin", "--range", "6")
    assert (r["detect"]["sense"], r["detect"]["difficulty"]) == ("sight", 2)
    res = d2d(*s, "unit", "act", "Archer", "detect", "Goblin", "--range", "7")
    # Each Detect's Stun lowers the Mind: 3 Stuns, Mind 2, Sight to Range 4.
    assert res.exit_code == 2 and "past Archer's Sight (Range Mind×2 = 4)" in res.stderr
