"""The Countdown never rises (issue 34 item 4): 001 l.499–505 "Countdown - Each Group
counts down from 10 / One each Count, do one of the following: Wait - Do nothing / IF
Move = Count THEN Move:-1". A unit that did something at a Count is next reached below
it, whatever Move a Burst of Speed or an Evade gives it (rules.units.unit_state.reach);
``round next`` lists every unit the Group's Count reaches."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _combat1(d2d: Any, tmp_path: Path) -> tuple[Any, ...]:
    s = ("--session", tmp_path / "c.toml")
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")
    d2d.ok(*s, "unit", "target", "Archer", "Goblin Scout")  # one Group
    d2d.ok(*s, "round", "start")
    return s


def _next(d2d: Any, s: tuple[Any, ...]) -> dict[str, int]:
    """The Archer's Group: who the Count reaches, and at which Count."""
    got = d2d.json(*s, "round", "next")["next"]
    group = next(u["group"] for u in got if u["name"] in ("Archer", "Goblin Scout"))
    return {u["name"]: u["count"] for u in got if u["group"] == group}


def test_a_burst_of_speed_does_not_raise_the_count(d2d: Any, tmp_path: Path) -> None:
    # 001 l.609 "Burst of Speed - Move:+2": Move 5 → 7, but the Count stays at 5, and the
    # Goblin Scout, Move 5 = Count 5, is still reached with it (it was dropped)
    s = _combat1(d2d, tmp_path)
    assert _next(d2d, s) == {"Archer": 5, "Goblin Scout": 5}
    d2d.ok(*s, "unit", "act", "Archer", "burst")
    assert _next(d2d, s) == {"Archer": 5, "Goblin Scout": 5}


def test_an_evade_after_the_targets_action_does_not_raise_it(d2d: Any,
                                                            tmp_path: Path) -> None:
    # 001 l.750 "Move:+2 (Win or Lose)": the Archer answered at Count 5, is next at 4
    s = _combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "act", "Goblin Scout", "interact", "Archer")
    d2d.ok(*s, "unit", "respond", "Archer")
    d2d.ok(*s, "unit", "act", "Archer", "evade")
    got = d2d.json(*s, "round", "next")["next"]
    mine = [(u["name"], u["count"], u["move"]) for u in got
            if u["name"] in ("Archer", "Goblin Scout")]
    assert mine == [("Archer", 4, 5)]  # and the Scout (Move 3) after it


def test_a_wait_takes_the_unit_below_the_count(d2d: Any, tmp_path: Path) -> None:
    # 001 l.503–504 "Wait - Do nothing / IF Move = Count THEN Move:-1"
    s = _combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "wait", "Archer", 5)
    d2d.ok(*s, "unit", "wait", "Goblin Scout", 5)
    assert _next(d2d, s) == {"Archer": 4, "Goblin Scout": 4}
    d2d.ok(*s, "unit", "act", "Archer", "burst")  # Move 4 → 6: still Count 4
    assert _next(d2d, s) == {"Archer": 4, "Goblin Scout": 4}
