"""The policy's ninth cut (issue 40 item 1): the movement planners' key reads the moving
unit's skills as the plan reads them (their items, not their ``repr``). Checked here
against the full path — the plan worked out afresh — over whole fights and on planted
changes the key must see; tests/test_sim.py and tests/golden/ pin whole fights byte for
byte."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.rules.assistant import movement
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def test_every_movement_plan_of_whole_fights_is_the_one_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every look of whole fights the plan remembered by the key (the moving unit's
    skills as their items) is the one ``_approach`` works out afresh from the tables."""
    start, goals = combat1()

    def checked(asked: Any, data: Any, name: str, target: str, *args: Any) -> Any:
        got = asked(data, name, target, *args)
        assert got == movement._approach(data, name, target, *args)
        return got

    looks = checking(monkeypatch, movement, "approach", checked)
    play(start, goals, 9)
    assert len(looks) > 10 * FIGHTS


def _scout_against_the_archer(skills: Any) -> dict[str, Any]:
    start, _ = combat1()
    units = dict(start["units"])
    units["Goblin Scout"] = {**units["Goblin Scout"], "move": 3, "turn": 2,
                             "skills": skills}
    return {**start, "units": units}


def test_a_skill_the_plan_reads_is_a_new_plan_not_the_one_remembered() -> None:
    """Planted: the Scout given a Ranged skill attacks from where it stands, where
    without it (or at Level 0) it closes in — each plan, asked after the others filled
    the memory, is the one worked out afresh; Levels alike in value are one reading."""
    asked = ("Goblin Scout", "Archer", 1, 3, 2)
    plain = {"Close Combat": 1, "Stealth": 1}
    ranged = {"Close Combat": 1, "Stealth": 1, "Ranged": 1}
    zero = {"Close Combat": 1, "Stealth": 1, "Ranged": 0}
    plans = {}
    for skills in (plain, ranged, zero, {"Stealth": True, "Close Combat": 1.0}, ranged):
        data = _scout_against_the_archer(skills)
        got = movement.approach(data, *asked)
        assert got == movement._approach(data, *asked), skills
        plans[repr(skills)] = got
    assert plans[repr(plain)] != plans[repr(ranged)]  # a change the key must see
    assert plans[repr(zero)] == plans[repr(plain)]


def test_the_planners_key_tells_apart_every_reading_of_the_skills() -> None:
    """Names, Levels and their order each change the key; a table with none is one with
    no table; Levels equal in value (1, True, 1.0: ``int`` reads them alike) are one."""
    def key(skills: Any) -> Any:
        return movement._key(_scout_against_the_archer(skills), "x", mover="Goblin Scout")

    told = [{"Close Combat": 1}, {"Close Combat": 2}, {"Close Combat": 0},
            {"Ranged": 1}, {"Close Combat": 1, "Ranged": 1},
            {"Ranged": 1, "Close Combat": 1}, {"Close Combat": "1"}]
    assert len({key(s) for s in told}) == len(told)
    assert key({}) == key(None) != key({"Close Combat": 1})
    assert key({"Close Combat": 1}) == key({"Close Combat": True}) == \
        key({"Close Combat": 1.0})
