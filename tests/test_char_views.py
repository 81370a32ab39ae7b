"""The human views of characters, units, the Status Bar and ``ref``, asserted whole
(sqlite-utils' ``test_views`` style): every line, in order. Trailing spaces (Rich pads
table cells) are stripped line by line; nothing else is."""

from __future__ import annotations

import pytest

from tests.helpers import Runner


@pytest.fixture(autouse=True)
def columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")


def lines(d2d: Runner, *args: str) -> list[str]:
    return [line.rstrip() for line in d2d.ok(*args).splitlines()]


def rook(d2d: Runner) -> None:
    d2d.ok("char", "new", "Rook", "--template", "human-female", "--body", "7", "--will", "5",
           "--archetype", "thief", "--fear", "Drowning")


def gob(d2d: Runner) -> None:
    d2d.ok("unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0", "--skill", "Stealth=1", "--faction", "Goblins")
    # 001 p.39 "Crits - Place any Crits on Target" (table mode: the card drawn).
    # 5x-1 adds no Hits against no armor (001 l.934), so --hits 2 gives a Major Crit.
    d2d.ok("crit", "--power", "5x-1", "--hits", "2", "--card", "slash@torso", "--target", "Gob")


def test_the_sheet_shows_conditions_beside_the_base_stats(d2d: Runner) -> None:
    rook(d2d)
    d2d.ok("unit", "condition", "Rook", "add", "stun", "--count", "2")
    assert lines(d2d, "char", "show", "Rook") == [
        "╭────────────────────────────────────── Rook ───────────────────────────────────────╮",
        "│ Stat   Rating          Real terms                                                 │",
        "│ Body   7x1             70 kg / 154.3 lb; Deadlift 105 kg, Carry 70 kg, Load 35 kg │",
        "│ Mind   4x1 (base 6x1)  IQ 110                                                     │",
        "│ Will   5x1                                                                        │",
        "│ Speed  4x0             4 km/h / 2.485 mph                                         │",
        "│ Archetype: Thief   Points: 22 (template human-female)                             │",
        "│ CP 0   SP 0   AP 0                                                                │",
        "│ Skills: Athletics 1, Climbing 1, Crime 1, Evasion 1, Mechanics 1, Stealth 1       │",
        "│ Abilities: —                                                                      │",
        "│ Conditions: Stun×2                                                                │",
        "│ Fear: Drowning                                                                    │",
        "╰───────────────────────────────────────────────────────────────────────────────────╯",
    ]


def test_advancement_prints_the_change_and_the_points(d2d: Runner) -> None:
    rook(d2d)
    assert lines(d2d, "char", "award", "Rook", "--sp", "2", "--cp", "1") == [
        "Rook is awarded +1 CP  +2 SP", "CP 1   SP 2   AP 0"]
    # 001 l.1108 "Spend SP = Current Level of Skill or Power"
    assert lines(d2d, "char", "train", "Rook", "Stealth") == [
        "Rook: Stealth 1 → 2 (−1 SP)", "CP 1   SP 1   AP 0"]
    assert lines(d2d, "char", "feat", "Rook") == [
        "Rook: Heroic Feat — Hits +1 or −1 (−1 CP)", "CP 0   SP 1   AP 0"]


def test_unit_show_and_the_status_bar(d2d: Runner) -> None:
    rook(d2d)
    d2d.ok("unit", "condition", "Rook", "add", "stun", "--count", "2")
    gob(d2d)
    assert lines(d2d, "unit", "condition", "Gob", "add", "fatigue", "--count", "2") == [
        "Gob (unit)",
        " Unit  Body       Mind  Will  Speed  Conditions                     Move  AC  Turn"
        "  Target",
        " Gob   0x1 (2x1)  6x1   2x1   5x0    Fatigue×2, Crit Torso (Major)  5     2   —"
        "     —",
        "Gob: body at 0 — flip to Crit (001 p.35)",
        "Skills: Stealth 1",
    ]
    # The dashboard (issue 12 item 9; issue 28: one row a unit while it fits, the
    # columns that say nothing for every unit left out; tests/test_groups_dashboard.py
    # has the blocks of a narrower terminal).
    assert lines(d2d, "status") == [
        "No round yet (d2d round start)",
        "Clock 1 · no Timed Event ahead",
        "Tasks: none open",
        " Unit  Body       Mind       Will  Spd  Mv  AC  Act  Turn  Conditions",
        " Rook  7x1        4x1 (6x1)  5x1   4x0  4   2   —    —     Stun×2",
        " Gob   0x1 (2x1)  6x1        2x1   5x0  5   2   —    —     Fatigue×2, Crit Torso "
        "(Major)",
        "Gob: body at 0 — flip to Crit (001 p.35)",
    ]


def test_ref_prints_each_match(d2d: Runner) -> None:
    assert lines(d2d, "ref", "blood", "loss") == [
        "Blood Loss: Major condition. Body:-1. Day: Blood Loss:-1.",
        "Blood Loss: Glossary: Body:-1. Day: Blood Loss:-1.",
    ]
    assert lines(d2d, "ref", "pick", "lock") == ["Pick Lock: Specialty of Mechanics"]
