"""Healing: Dying and the placed Crits come off, conditions heal with the Glossary's
times (issue 11 item 6). 000 l.540 "Mortal Wound - IF 4 or more Crits then the Unit has
suffered a Mortal Wound and is Dying"; l.1183 "Dying - Negative Status leading to Dead";
l.1172 "Dead - Permanent Negative Status"; l.1148 "Blood Loss - Body:-1. Day: Blood
Loss:-1."; l.1156 "Burns - Speed:-1. Month:Burns:-1."; l.1199 "Healing - This is done
during Downtime." Neither text gives a time for a Crit or for Dying (docs/rules.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from d2d_cli.rules.units import conditions
from tests.helpers import Runner, rule_text


def session_bytes(data_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(data_dir.rglob("*.toml"))}


@pytest.fixture
def gob(d2d: Runner) -> Runner:
    d2d.ok("unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0")
    # Three Crits placed at the table (001 p.39 "Crits - Place any Crits on Target").
    for hits, card in ((3, "slash@torso"), (2, "slash@right_arm"), (1, "slash@torso")):
        # 5x-1 adds no Hits against no armor (001 l.934: scale -1 < 0), so --hits sets the severity.
        d2d.ok("crit", "--power", "5x-1", "--hits", hits, "--card", card, "--target", "Gob")
    return d2d


def crits(d2d: Runner) -> list[tuple[str, str]]:
    return [(c["location"], c["severity"]) for c in d2d.json("unit", "show", "Gob")["crits"]]


def test_dying_is_a_condition_that_comes_off(d2d: Runner) -> None:
    # `unit condition G remove dying` was "unknown condition". rules.combat.crits places the
    # Mortal Wound as the token "dying"; it is now in the conditions table.
    assert conditions.lookup("Dying").key == "dying"
    d2d.ok("unit", "add", "G", "--body", "2x1", "--mind", "6x1", "--will", "2x1", "--speed",
           "5x0")
    assert d2d.json("unit", "condition", "G", "add", "dying")["conditions"] == {"dying": 1}
    r = d2d.json("unit", "condition", "G", "remove", "dying")
    assert r["conditions"] == {} and r["stats"] == r["base_stats"]
    d2d.ok("unit", "condition", "G", "add", "Dead")
    [cond, gloss] = d2d.json("ref", "dying")["matches"]
    assert (cond["kind"], cond["severity"], cond["penalty"], cond["lasts"]) == (
        "condition", "status", {}, None)
    assert gloss == {"kind": "glossary", "name": "Dying",
                     "text": "Negative Status leading to Dead"}
    assert d2d.ok("ref", "dead") == ("Dead: Status. Permanent Negative Status\n"
                                     "Dead: Glossary: Permanent Negative Status\n")


def test_crits_come_off_by_location_or_number(gob: Runner, data_dir: Path) -> None:
    assert crits(gob) == [("torso", "critical"), ("right_arm", "major"), ("torso", "minor")]
    r = gob.json("unit", "heal", "Gob", "--crit", "Torso")
    assert [(c["location"], c["severity"]) for c in r["crits_healed"]] == [
        ("torso", "critical")]
    assert (r["days"], r["healed"]) == (None, {})
    assert [(c["location"], c["severity"]) for c in r["crits"]] == [
        ("right_arm", "major"), ("torso", "minor")]
    # Numbers are the Status Bar's order, read before any is taken off.
    r = gob.json("unit", "heal", "Gob", "--crit", "2", "--crit", "right arm")
    assert [c["severity"] for c in r["crits_healed"]] == ["minor", "major"]
    assert r["crits"] == []
    assert "crits" not in (data_dir / "default.toml").read_text("utf-8").split(
        "[units.Gob]")[1]


@pytest.mark.parametrize("args,message", [
    (["--crit", "head"], "Gob has no Crit at head (Crits: #1 Torso (Critical), #2 Right Arm "
                         "(Major), #3 Torso (Minor))"),
    (["--crit", "4"], "Gob has no Crit #4 (Crits: #1 Torso (Critical)"),
    (["--crit", "1", "--crit", "1"], "Crit #1 of Gob is named twice"),
    (["--crit", "right_arm", "--crit", "right arm"], "Gob has no other Crit at right arm"),
    ([], "nothing to heal: give --crit LOCATION (or its number) and/or --days N"),
    (["--days", "0"], "--days 0: use 1 to 36500 days"),
    (["--crit", " "], "--crit needs a location"),
])
def test_bad_heals_are_one_line_exit_2_nothing_changed(gob: Runner, data_dir: Path,
                                                       args: list[str], message: str) -> None:
    before = session_bytes(data_dir)
    res = gob("unit", "heal", "Gob", *args)
    assert res.exit_code == 2
    assert res.stderr.startswith(f"d2d: error: {message}") and res.stderr.count("\n") == 1
    assert session_bytes(data_dir) == before


def test_days_heal_blood_loss_daily_and_burns_monthly(d2d: Runner) -> None:
    d2d.ok("unit", "add", "G", "--body", "6x1", "--mind", "6x1", "--will", "6x1", "--speed",
           "5x0")
    for cond, n in (("Blood Loss", 3), ("Burns", 2), ("Bleeding", 1), ("Fatigue", 1)):
        d2d.ok("unit", "condition", "G", "add", cond, "--count", n)
    r = d2d.json("unit", "heal", "G", "--days", "2")  # "Day: Blood Loss:-1"
    # A day holds thousands of round ends: no Fatigue (Recover) or Bleeding (its reveal)
    # outlasts it (issue 19 item 9; tests/test_downtime.py).
    assert (r["days"], r["healed"]) == (2, {"fatigue": 1, "bleeding": 1, "blood_loss": 2})
    assert (r["conditions"], r["carried"]) == ({"blood_loss": 1, "burns": 2}, {"burns": 2})
    r = d2d.json("unit", "heal", "G", "--days", "27")  # a month is 30 days: 2 carried
    assert (r["healed"], r["carried"]) == ({"blood_loss": 1}, {"burns": 29})
    r = d2d.json("unit", "heal", "G", "--days", "1")  # "Month:Burns:-1"
    assert (r["healed"], r["carried"]) == ({"burns": 1}, {})
    assert r["conditions"] == {"burns": 1}
    assert r["stats"] == {"body": "6x1", "mind": "6x1", "will": "6x1", "speed": "4x0"}


def test_the_heal_times_are_the_glossarys() -> None:
    glossary = rule_text("000").split("## Glossary")[1]
    printed = {}
    for m in re.finditer(r"^- ([A-Za-z ]+) - .*?(Day|Month): ?\1:-1", glossary, re.M):
        printed[m.group(1).lower().replace(" ", "_")] = {"Day": 1, "Month": 30}[m.group(2)]
    assert printed == {"blood_loss": 1, "burns": 30}
    assert {k: c.heal_days for k, c in conditions.table().items() if c.heal_days} == printed


def test_the_dead_do_not_heal(gob: Runner, data_dir: Path) -> None:
    gob.ok("unit", "condition", "Gob", "add", "dead")
    before = session_bytes(data_dir)
    res = gob("unit", "heal", "Gob", "--crit", "1")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: Gob is Dead (000 l.1172 \"Dead - Permanent Negative "
                          "Status\"): nothing heals (unit condition … remove dead, if the "
                          "table says otherwise)\n")
    assert session_bytes(data_dir) == before


def test_heal_human_view(gob: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    gob.ok("unit", "condition", "Gob", "add", "Blood Loss", "--count", "2")
    out = gob.ok("unit", "heal", "Gob", "--crit", "torso", "--days", "1")
    assert [line.rstrip() for line in out.splitlines()] == [
        "Gob healed after 1 day(s): Crit Torso (Critical), Blood Loss −1",
        "Gob (unit)",
        " Unit  Body       Mind  Will  Speed  Conditions                              Move  AC"
        "  Turn  Target",
        " Gob   1x1 (2x1)  6x1   2x1   5x0    Blood Loss, Crit Right Arm (Major),     —     —"
        "   —     —",
        "                                     Crit Torso (Minor)",
    ]
    assert gob.json("session", "log", "--last", "1")["entries"][0]["summary"] == (
        "Gob healed: Crit Torso (Critical), Blood Loss −1, 1 day(s)")


def test_dying_becomes_dead(d2d: Runner, data_dir: Path) -> None:
    # 000 l.1183 "Dying - Negative Status leading to Dead"; l.1172 "Dead - Permanent
    # Negative Status": one or the other, one token at most (docs/rules.md).
    d2d.ok("unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0")
    r = d2d.json("unit", "condition", "Gob", "add", "dying", "--count", "3")
    assert r["conditions"] == {"dying": 1}
    assert d2d.json("unit", "condition", "Gob", "add", "dead")["conditions"] == {"dead": 1}
    entry = d2d.json("session", "log", "--last", "1")["entries"][0]
    assert entry["summary"] == "Gob: Dying → Dead"
    before = session_bytes(data_dir)
    for again in ("dying", "dead"):
        res = d2d("unit", "condition", "Gob", "add", again)
        assert res.exit_code == 2 and res.stderr == (
            "d2d: error: Gob is already Dead (000 l.1172 \"Dead - Permanent Negative "
            "Status\")\n")
    assert session_bytes(data_dir) == before
