"""What a plan reads of each unit's table, and the Levels of a pair of tables, are
remembered for the very tables read (``policy._standing``, ``policy._LEVELS_OF``; issue 40
item 1): at every look of whole fights they are what the tables hold, read here afresh,
and a table stored anew is read anew — tests/test_sim.py and tests/golden/ pin whole
fights byte for byte."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import policy
from d2d_cli.rules.combat.situation import Terms, Who, assess
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.units.roster import Unit
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def standing_read_afresh(u: dict[str, Any]) -> tuple[Any, bool, bool, int, int]:
    """What the target choice reads of a unit, as the plan read it before it was
    remembered: its faction; standing (not Dying or Dead, ``goals.DOWN``, 000 l.540,
    and not off the map); Hidden (Stealth tokens, 000 l.1201); its Body's Level (the
    Difficulty, the first number of ``8x1``); its Crits."""
    body = str(u.get("body", "0x0")).lower().replace("×", "x").split("x")[0]
    return (u.get("faction"), not any((u.get("conditions") or {}).get(k) for k in g.DOWN)
            and not u.get("off_map"), int(u.get("stealth", 0) or 0) > 0,
            int(float(body)), len(u.get("crits", [])))


def levels_read_afresh(data: dict[str, Any], a: str, b: str) -> tuple[int, int]:
    """Both sides' Levels as ``conflict`` works them out off the map, from Units built
    here from the tables (nothing remembered)."""
    ta, tb = data["units"][a], data["units"][b]
    sit = assess(Who(Unit.from_state(a, ta), None),
                 Who(Unit.from_state(b, tb), None, "--level-b"), Terms(),
                 skill=policy.skill_for(ta))
    return sit.a.level, sit.b.level


def test_every_standing_read_in_whole_fights_is_the_tables_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every plan of whole fights, each table's reading is what the table holds now
    (a reading kept by name, or for a table changed in place, fails here: a unit goes
    down, gets Crits, leaves the map within each fight)."""
    start, goals = combat1()

    def checked(asked: Any, u: dict[str, Any]) -> Any:
        got = asked(u)
        assert got == standing_read_afresh(u)
        return got

    looks = checking(monkeypatch, policy, "_standing", checked)
    play(start, goals, 21)
    assert len(looks) > 20 * FIGHTS
    assert any(not s[1] for s in looks) and any(s[4] for s in looks)  # down; with Crits


def test_every_levels_in_whole_fights_are_those_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every plan (and every defender's card) of whole fights, the Levels of a pair
    of units are those a situation works out from their tables now (Combat #1's units
    keep Levels 1 and 1 throughout: the test below changes a Rival's)."""
    start, goals = combat1()

    def checked(asked: Any, data: Any, a: str, b: str, *args: Any) -> Any:
        got = asked(data, a, b, *args)
        assert got == levels_read_afresh(data, a, b)
        return got

    looks = checking(monkeypatch, policy, "_levels", checked)
    play(start, goals, 22)
    assert len(looks) > 10 * FIGHTS


def test_a_table_stored_anew_is_read_anew() -> None:
    """A Rival's table replaced by another (as a fight stores any change): the plan
    reads the new one — the Rival downed is no longer a target, one trained up has other
    Levels — never what was remembered for the same name."""
    data, goals = combat1()
    units = data["units"]
    rivals = [n for n, u in units.items() if u.get("faction") == "Goblins"]
    first = policy.plan(data, "Archer", goals, DEFAULTS, explain=False)
    assert first.target in rivals
    before = policy._levels(data, "Archer", first.target, DEFAULTS)

    trained = {**units[first.target], "skills": {"Close Combat": 4, "Dodge": 4}}
    units[first.target] = trained
    after = policy._levels(data, "Archer", first.target, DEFAULTS)
    assert after == levels_read_afresh(data, "Archer", first.target) and after != before

    units[first.target] = {**trained, "conditions": {"dead": True}}
    again = policy.plan(data, "Archer", goals, DEFAULTS, explain=False)
    assert again.target in rivals and again.target != first.target
    assert policy._standing(units[first.target])[1] is False
