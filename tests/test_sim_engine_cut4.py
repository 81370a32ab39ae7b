"""The engine's fourth cut (issue 40 item 1): the fight loop's small readers written
without a generator or a builtin called, each checked here against the rule written out
plainly (the oracle), over every value a fight can give it."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.units import sides, unit_state


def test_the_count_that_reaches_a_unit_is_its_move_capped_below_its_last_count() -> None:
    """001 l.499–505: counted down from 10, a unit is reached at its Move left, and below
    the Count it last did something at; never below 0. Every Move from -3 to 14 (None:
    no round yet) against every last Count (None: nothing yet)."""
    for move, count in itertools.product([None, *range(-3, 15)], [None, *range(-2, 12)]):
        cap = 10 if count is None else count - 1
        want = min(move or 0, cap)
        want = want if want > 0 else 0
        got = unit_state.reach_at(move, count)
        assert got == want and type(got) is int, (move, count)


def test_down_is_dying_or_dead_whatever_else_the_unit_holds() -> None:
    """000 l.540 and the Glossary's Statuses: Dying or Dead, at any count above 0."""
    for dying, dead, other in itertools.product([None, 0, 1, 2], [None, 0, 1], [None, 0, 1]):
        cond = {k: v for k, v in (("stun", other), ("dying", dying), ("dead", dead))
                if v is not None}
        want = bool(dying) or bool(dead)
        assert g.is_down({"conditions": cond}) is want, cond
    assert g.is_down({}) is False and g.is_down({"conditions": {}}) is False


def test_a_units_player_is_its_player_field_unless_a_non_player() -> None:
    """000 l.417: no ``player``, an empty one or "Non-Player" is a Non-Player's unit;
    anything else names the Player, as text."""
    for raw, want in [({}, None), ({"player": None}, None), ({"player": ""}, None),
                      ({"player": "Non-Player"}, None), ({"player": "Ana"}, "Ana"),
                      ({"player": 7}, "7"), ({"player": "non-player"}, "non-player")]:
        got = sides.player_of(raw)
        assert got == want and (got is None or type(got) is str), raw


def _roster() -> dict[str, Any]:
    from d2d_cli.rules.scale.stats import parse_stat
    from d2d_cli.rules.units.roster import Unit

    return {"Fast": Unit("Fast", {"speed": parse_stat("5x0")}),
            "Slowed": Unit("Slowed", {"speed": parse_stat("5x0")}, conditions={"slow": 2}),
            "Dead": Unit("Dead", {"speed": parse_stat("4x0")}, conditions={"dead": 1},
                         move=3, action_cost=1, turn=2),
            "Still": Unit("Still", {})}


def test_a_round_start_without_a_report_changes_the_units_as_one_with_it() -> None:
    """``rounds.start(..., report=False)`` — a simulated fight without a log — writes no
    result and leaves every unit as the command's round start does (Move, Action Cost
    and Turn of the Refresh, 001 "Round: Start"; a Dead unit's taken off, 000 l.1172;
    a Slowed unit's Speed lowered; a unit without Speed has no Move); the command's
    result still names every living unit."""
    from d2d_cli.rules.time import rounds
    from d2d_cli.rules.time.round_state import Round

    told, quiet = _roster(), _roster()
    rnd_told, rnd_quiet = Round(), Round()
    got = rounds.start(rnd_told, told, map_key="personal")
    assert rounds.start(rnd_quiet, quiet, map_key="personal", report=False) is None
    assert quiet == told and rnd_quiet == rnd_told
    assert [r.unit for r in got.units] == ["Fast", "Slowed", "Still"]
    assert told["Dead"].move is None and told["Fast"].move is not None
    assert told["Slowed"].move is not None and told["Slowed"].move < told["Fast"].move


def test_a_fight_without_a_log_builds_no_refresh_and_ends_as_one_that_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight without a log builds no Refreshed at its round starts (nobody reads
    them) and ends in the very same session, table by table, as the same fight with a
    log, whose round starts write every living unit's."""
    from d2d_cli.rules.time import rounds

    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    built: list[str] = []
    real = rounds.Refreshed

    def counted(name: str, *args: Any) -> Any:
        built.append(name)
        return real(name, *args)

    monkeypatch.setattr(rounds, "Refreshed", counted)
    for i in range(8):
        seed = sim.run_seed(13, i)
        logged, full = sim.fight(start, goals, seed, log=True)
        assert built and full.done is not None
        starts = [d.result for d in full.done if d.command == "round start"]
        assert starts and all(r.units for r in starts)
        built.clear()
        quiet, table = sim.fight(start, goals, seed)
        assert built == []
        assert quiet == logged and table.data == full.data
