"""``d2d roll`` and ``d2d odds`` through the CLI: exact outputs, the Fate deck (journal,
undo, table mode), exit codes, bounded work, and no Rich on a --json run."""

from __future__ import annotations

import json
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from d2d_cli.rules.core.result import to_json
from d2d_cli.rules.roll import notation as dn
from tests.helpers import run_process


def test_a_seeded_roll_is_the_rules_roll(d2d) -> None:  # type: ignore[no-untyped-def]
    got = d2d.json("--seed", "3", "roll", "4d6kh3")
    want = to_json(dn.roll(dn.parse("4d6kh3"), random.Random("d2d:3:roll")))
    assert got == want
    assert got["total"] == sum(v for v, k in zip(got["terms"][0]["dice"],
                                                  got["terms"][0]["kept"], strict=True) if k)
    assert d2d.json("--seed", "3", "roll", "4d6kh3") == got  # repeatable


def test_an_expression_may_be_given_as_words(d2d) -> None:  # type: ignore[no-untyped-def]
    got = d2d.json("--seed", "1", "roll", "d20", "+", "5", "vs", "15", "per", "5")
    assert got["expression"] == "d20 + 5 vs 15 per 5"
    assert got["target"] == 15 and got["margin"] == got["total"] - 15
    assert d2d.json("--seed", "1", "roll", "-d4", "+", "3")["total"] in (-1, 0, 1, 2)


def test_human_output(d2d) -> None:  # type: ignore[no-untyped-def]
    out = d2d.ok("--seed", "2", "roll", "d20 + 3[str] vs 12 -> 1-9: low, 10..: high # swing")
    assert "Total:" in out and "vs 12" in out and "→" in out and "# swing" in out
    out = d2d.ok("roll", "2d6", "--odds")
    assert "16.67%" in out and "1/6" in out and "Mean 7" in out


def test_fate_deck_cards_are_consumed_journalled_and_undoable(d2d, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = tmp_path / "s.toml"
    d2d.ok("--session", s, "--seed", "5", "fate", "shuffle", "--reset")
    before = d2d.json("--session", s, "fate", "status")["remaining"]
    first = d2d.json("--session", s, "roll", "3c + d6")
    assert d2d.json("--session", s, "fate", "status")["remaining"] == before - 3
    assert first["deck"] == "fate"
    log = d2d.json("--session", s, "session", "log")
    assert "roll '3c + d6'" in [e["command"] for e in log["entries"]]
    d2d.ok("--session", s, "session", "undo")
    assert d2d.json("--session", s, "fate", "status")["remaining"] == before
    again = d2d.json("--session", s, "roll", "3c + d6")
    assert again == first  # the session's seed decides the cards and the dice alike


def test_table_mode_reads_the_cards_given(d2d, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = tmp_path / "s.toml"
    d2d.ok("--session", s, "fate", "status")
    before = s.read_text()
    got = d2d.json("--session", s, "roll", "2c", "--card", "QH", "--card", "3Sv")
    assert got["total"] == 15 and [c["code"] for c in got["terms"][0]["cards"]] == [
        "QH^", "3Sv"]
    assert s.read_text() == before
    res = d2d("--session", s, "roll", "3c", "--card", "QH", "--json")
    assert res.exit_code == 2 and "--card" in json.loads(res.stdout)["error"]["message"]
    res = d2d("--session", s, "roll", "1c", "--card", "QH", "--card", "2H")
    assert res.exit_code == 2
    res = d2d("--session", s, "roll", "d6", "--card", "QH")
    assert res.exit_code == 2


def test_roll_odds_from_the_session_pile_or_fresh(d2d, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = tmp_path / "s.toml"
    d2d.ok("--session", s, "--seed", "9", "fate", "draw", "52")  # two cards left
    got = d2d.json("--session", s, "roll", "1c", "--odds")
    assert got["deck"] == "session" and len(got["outcomes"]) <= 2
    assert sum(Fraction(o["probability"]["fraction"]) for o in got["outcomes"]) == 1
    fresh = d2d.json("--session", s, "roll", "1c", "--odds", "--fresh")
    assert fresh["deck"] == "fresh"
    assert {o["value"]: o["probability"]["fraction"] for o in fresh["outcomes"]}[0] == "1/27"
    assert d2d("--session", s, "roll", "1c", "--odds", "--card", "QH").exit_code == 2
    assert d2d("--session", s, "roll", "d6", "--fresh").exit_code == 2


def test_odds_json_shape(d2d) -> None:  # type: ignore[no-untyped-def]
    got = d2d.json("roll", "d20 + 2 vs 12 per 5 crit 20 fumble 1 -> ..10: low, else: high",
                   "--odds")
    assert got["success"] == {"fraction": "11/20", "value": 0.55}
    assert got["crit"] == {"fraction": "1/20", "value": 0.05}
    assert got["mean"] == "25/2" and got["mean_value"] == 12.5
    assert got["bands"] == [{"band": "low", "probability": {"fraction": "2/5", "value": 0.4}},
                            {"band": "high", "probability": {"fraction": "3/5", "value": 0.6}}]


@pytest.mark.parametrize("expr", ["d6 > 3", "1001d6", "100000d6", "d6 +", "((((d6",
                                  "(" * 500 + "1" + ")" * 500, "(" * 10_000 + ")" * 10_000,
                                  "d6r<=6", "1000d6!x100"])
def test_bad_expressions_exit_2_at_once(d2d, expr: str) -> None:  # type: ignore[no-untyped-def]
    res = d2d("roll", expr, "--json")
    assert res.exit_code == 2, res.stdout
    env = json.loads(res.stdout)
    assert env["ok"] is False and env["error"]["kind"] == "bad_input"
    assert "Traceback" not in res.stderr and res.stderr.count("\n") == 1


@pytest.mark.parametrize("expr", ["1000d6kh999", "500d100kh250", "1000d1000",
                                  "{d100, d100, d100, d100}kh1"])
def test_big_odds_exit_2_before_any_work(d2d, expr: str,  # type: ignore[no-untyped-def]
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from d2d_cli.rules.roll.notation import exact

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("an exact distribution was started before the refusal")

    with monkeypatch.context() as m:
        m.setattr(exact, "_Odds", no_work)
        res = d2d("roll", expr, "--odds")
    assert res.exit_code == 2 and "d2d: error: roll: exact odds" in res.stderr
    assert d2d("roll", expr).exit_code == 0  # rolling it once is cheap


def test_systems_from_the_command_line(d2d, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    got = d2d.json("--seed", "4", "roll", "--system", "hero", "check", "--skill", "3",
                   "--advantage", "2", "--dc", "15")
    assert got["system"] == "hero" and got["procedure"] == "check"
    assert got["expression"] == "d20 + 3 + d6 vs 15 per 5 max 5 crit 20 fumble 1"
    odds = d2d.json("roll", "--system", "poker", "test", "--cards", "3", "--suit", "hearts",
                    "--odds")
    assert odds["bands"][0] == {"band": "failure",
                                "probability": {"fraction": "703/1700",
                                                "value": 703 / 1700}}
    risk = d2d.json("--seed", "1", "roll", "--system", "drgn", "risk")
    assert risk["band"] in ("catastrophic failure", "one step below normal", "normal",
                            "one step above normal", "instant success")
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "mine"\n[procedures.hit]\nexpression = "2d6 + $b"\n'
                    '[procedures.hit.params.b]\ntype = "int"\ndefault = 0\nmin = 0\n'
                    'max = 5\n')
    assert d2d.json("roll", "--system", str(mine), "hit", "--b", "5", "--odds")[
        "outcomes"][0]["value"] == 7
    res = d2d("roll", "--system", "hero")
    assert res.exit_code == 2 and "check [--skill N] --dc N" in res.stderr
    assert d2d("roll", "--system", "nope", "x").exit_code == 2
    assert d2d("roll", "--system", str(tmp_path / "missing.toml"), "x").exit_code == 2
    assert d2d("roll", "--system", "hero", "check", "--dc", "200").exit_code == 2


def test_odds_commands(d2d) -> None:  # type: ignore[no-untyped-def]
    got = d2d.json("odds", "conflict", "fate", "fate", "--fresh")
    assert got["deck"] == {"source": "fresh", "remaining": 54, "discarded": 0}
    assert got["a_wins"]["fraction"] == got["b_wins"]["fraction"] == "1105/2862"
    assert got["tie"]["fraction"] == "326/1431"
    got = d2d.json("odds", "die", "d10", "--fresh")
    assert [v["probability"]["fraction"] for v in got["values"]] == ["1/10"] * 10
    got = d2d.json("odds", "hits", "1", "--vs", "5", "--fresh")
    # one card: A J Q K hit (16 of 54); 2–10 need rank > 5 (6–10: 20); the rest 1
    # (glancing: 2–5, 16 cards); the two Wilds cannot lead a play
    assert {r["hits"]: r["probability"]["fraction"] for r in got["distribution"]} == {
        0: "1/27", 1: "26/27"}
    assert got["glancing"]["fraction"] == "8/27"
    got = d2d.json("odds", "weather", "--fresh")
    assert got["speed"][0] == {"speed_kph": 0, "beaufort": "Calm",
                               "probability": {"fraction": "703/2067", "value": 703 / 2067}}
    got = d2d.json("odds", "crit", "--power", "6x1", "--armor", "2x1", "--hits", "2",
                   "--fresh")
    # 6x1 against 2x1 at every location: Hits +1 (level 6 > 2; the same scale adds 0).
    assert {(r["hits"], r["severity"]) for r in got["locations"]} == {(3, "critical")}
    assert got["severities"] == [{"severity": "critical",
                                  "probability": {"fraction": "1/1", "value": 1.0}}]
    for args in (["conflict", "fate", "7S^"], ["hits", "5", "--vs", "2x1"], ["die", "d8"],
                 ["weather"], ["crit", "--power", "6x1"]):
        assert "%" in d2d.ok("odds", *args)
    assert d2d("odds", "die", "d300").exit_code == 2
    assert d2d("odds", "hits", "11", "--vs", "2").exit_code == 2


def test_odds_never_draw(d2d, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = tmp_path / "s.toml"
    d2d.ok("--session", s, "fate", "status")
    before = s.read_text()
    for args in (["conflict", "fate", "fate"], ["die", "d10"], ["weather"], ["hits", "3",
                 "--vs", "3"], ["crit", "--power", "2x1"]):
        d2d.ok("--session", s, "odds", *args)
    d2d.ok("--session", s, "roll", "3c", "--odds")
    assert s.read_text() == before


@pytest.mark.parametrize("argv", [["odds", "conflict", "fate", "fate", "--json"],
                                  ["roll", "4d6kh3", "--json"],
                                  ["roll", "2c", "--odds", "--json"]])
def test_json_runs_never_import_rich(tmp_path: Path, argv: list[str]) -> None:
    code = (
        "import sys\n"
        "from d2d_cli.cli import main\n"
        "rc = main(['--session', sys.argv[1], *sys.argv[2:]])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'tomlkit', "
        "'icepool'))\n"
        "print('IMPORTED', bad, rc)\n"
    )
    path = tmp_path / "s.toml"
    assert run_process("session", "new", str(path)).returncode == 0
    import subprocess

    out = subprocess.run([sys.executable, "-c", code, str(path), *argv], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip().endswith("IMPORTED [] 0")
