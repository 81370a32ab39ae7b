"""The exchange's rules path, made cheaper for a simulated fight, gives what the command's
path gives (issue 40 item 1: the same rule functions, no report changed;
tests/test_sim.py pins whole fights byte for byte). Each test here fails on a wrong
reuse: a table kept that no longer says what its live unit holds, an answer shared that
a later caller changed, a short cut that disagrees with the full path."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.combat import conflict, crits
from d2d_cli.rules.combat import exchange as combat_exchange
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import full_deck
from d2d_cli.rules.overview import scene
from d2d_cli.rules.scale.stats import Stat
from d2d_cli.rules.units.roster import Unit


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def _fights() -> tuple[dict[str, Any], dict[str, Any]]:
    _, start, _ = op._start("combat1", {})
    return start, g.parse(start.get("scene", {}).get("goals") or {}, start)


# --------------------------------------------------------------------------- the Crit


@pytest.mark.parametrize("seed", range(6))
def test_a_crit_on_live_units_stores_only_the_target_and_the_same_roster_as_the_command(
        seed: int) -> None:
    """A Crit on a fight's live units stores the units it changed — the target — over
    the roster: the wielder, read and never changed (001 l.1001 "Place any Crits on
    Target"), keeps its very table. The roster stored is the one the command's path
    stores (the whole roster written anew from the same session and random source)."""
    t = Table(combat1(), random.Random(seed))
    before = t.data["units"]
    archer = before["Archer"]
    ask = crits.CritAsk(hits=3, target="Goblin Scout", by="Archer", with_="Bow")
    data, rng = copy.deepcopy(t.data), copy.deepcopy(t.rng)
    command = crits.crit(ask, data, lambda: rng, t.opts)
    got = t._crit(ask)
    assert got.card == command.card and got.hits == command.hits
    assert set(got.changes["units"]) == {"Goblin Scout"}  # the target alone
    assert t.data["units"]["Archer"] is archer  # the wielder's very table
    assert t.data["units"] == command.changes["units"]  # the roster the command stores
    assert list(t.data["units"]) == list(command.changes["units"])  # in its order
    assert set(command.changes["units"]) == set(before)  # the command: every unit


def test_fights_keep_every_live_unit_equal_to_its_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole fights, every live Unit read equals its stored table read afresh
    (``Table.verify_live``): a wielder whose table a Crit no longer stores anew is still
    the unit it holds — and the fights end as the pinned ones do."""
    start, goals = _fights()
    plain = sim.play_runs(start, goals, 5, range(25), DEFAULTS, "best")
    built: list[int] = []
    real = Unit.from_state

    def counted(name: str, raw: dict[str, Any]) -> Unit:
        built.append(1)
        return real(name, raw)

    monkeypatch.setattr(Table, "verify_live", True)
    monkeypatch.setattr(Unit, "from_state", staticmethod(counted))
    assert sim.play_runs(start, goals, 5, range(25), DEFAULTS, "best") == plain
    assert built  # the check ran


def test_the_damage_comparison_remembered_is_the_rule_at_every_power_and_armor() -> None:
    """``compare`` (001 l.926–936) is remembered by the two frozen Stats it reads: every
    Power against every armor (none included), levels 1–9 and scales 0–3, asked twice,
    gives the rule's own answer — the same Bonus object the second time."""
    stats = [Stat(level, scale) for level in range(1, 10) for scale in range(4)]
    for power in stats:
        for armor in [None, *stats]:
            first = crits.compare(power, armor)
            worn = armor or Stat(0, 0)  # no armor: a Rating of 0x0 (001 l.307)
            if power.scale < worn.scale:  # a smaller Power adds nothing (9x0 vs 2x5)
                assert first == crits.Bonus(0, 0)
            else:  # "Power Level > Armor Level THEN Hits:+1", "Scale ... +Difference"
                assert first == crits.Bonus(int(power.level > worn.level),
                                            power.scale - worn.scale)
            assert crits.compare(power, armor) is first


# --------------------------------------------------------------------------- the Conflict


def test_every_candidate_remembered_is_the_one_built_afresh() -> None:
    """A Conflict's candidates (its approach or card, a revealed Fate card read by its
    face) are remembered by what they read: every approach, every card of the Fate deck
    with both faces, played or revealed, gives what the approach chart gives (001 p.28),
    and the very same _Option the second time."""
    for approach in conflict.approaches():
        got = conflict._option(approach, None)
        assert (got.approach, got.card, got.label) == (approach, None, approach)
    for card in full_deck():
        for face in (card, card.flipped(not card.upper)):
            played = conflict._option(conflict.approach_of(face), face)
            revealed = conflict._option(None, face)
            for got in (played, revealed):
                assert (got.approach, got.card, got.label) == (
                    conflict.approach_of(face), face, face.code)
            assert conflict._option(None, face) is revealed


def test_a_counterattack_is_found_in_every_effects_a_side_can_get() -> None:
    """Whether a side counter-attacks (001 l.752–754) is read by a plain loop: for every
    approach, won or not, each reading of Evade and a Non-Player or not, the answer is
    the chart's — only a Counter's win holds it."""
    for approach in conflict.approaches():
        for won in (True, False):
            for evade in ("001", "000"):
                for non_player in (True, False):
                    got = conflict.effects(approach, won, evade, non_player)
                    want = any(e.key == "counterattack" for e in got)
                    assert conflict._counterattacks(got) is want
                    assert want == (approach == "counter" and won)


def test_a_remembered_assessment_keeps_none_of_what_the_round_said(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's Assessor shares its answers (no copy): the Conflicts of whole fights
    merge what the round remembers (the Target's Action, 001 l.639–641) into a dict of
    their own, so no answer kept holds it, and the Conflicts' sources still name it."""
    engine._ASSESSED.clear()
    named: list[bool] = []
    real = conflict.resolve

    def noting(ask: Any, reveal: Any) -> Any:
        out = real(ask, reveal)
        named.append("target_action" in getattr(out, "sources", {}))
        return out

    monkeypatch.setattr(conflict, "resolve", noting)
    start, goals = _fights()
    sim.play_runs(start, goals, 3, range(10), DEFAULTS, "best")
    assert any(named)
    # the assessments (a Conflict found ready keeps its merged view apart, read-only:
    # tests/test_sim_conf_prepared.py)
    kept = [v[2] for k, v in engine._ASSESSED.items() if k[0] != "remember"]
    assert kept
    said = ("target_action", "said_range", "said_cover", "said_high_ground",
            "skill_by_reach")
    assert not any(k in sit.extra_sources for sit in kept for k in said)
    # and none can be changed by a caller: every later finder would read the change
    for sit in kept:
        with pytest.raises(TypeError):
            sit.extra_sources["said_range"] = "changed"  # type: ignore[index]


# --------------------------------------------------------------------------- the Hits


# --------------------------------------------------------------------------- the round


def _with_hits_by_the_record(data: dict[str, Any], by: str | None, vs: str | None,
                             hits_: int) -> dict[str, Any] | None:
    """``with_hits`` reading the remembered exchange as its record (the oracle)."""
    if by is None or vs is None:
        return None
    ex = combat_exchange.remembered(data)
    if ex is not None and (by.lower(), vs.lower()) == (ex.winner.lower(), ex.rival.lower()):
        rnd = dict(data["round"])
        rnd[combat_exchange.KEY] = {**rnd[combat_exchange.KEY], "hits": hits_}
        return rnd
    # not the exchange remembered: as a round that remembers none
    bare = {k: v for k, v in data["round"].items() if k != combat_exchange.KEY}
    return combat_exchange.with_hits({**data, "round": bare}, by, vs, hits_)


@pytest.mark.parametrize("kept", [
    None, {}, {"winner": "Archer"},
    {"winner": "Archer", "rival": "Goblin Scout", "cards": ["KS^"]},
    {"winner": "archer", "rival": "GOBLIN SCOUT", "hits": 2, "said": {"no_map": True}},
    {"winner": "Archer", "rival": "Goblin Scout", "played": True},
    {"winner": "Goblin Scout", "rival": "Archer", "skill": "Ranged"},
])
def test_the_hits_a_round_keeps_are_the_ones_the_remembered_exchange_gives(
        kept: dict[str, Any] | None) -> None:
    """``hit`` keeps its Hits on the exchange the round remembers, reading its two names
    only: for every exchange kept (none, half a one, one an ``npc turn`` played, names in
    another case) and every pair of sides typed, the round is the one reading the whole
    record gives."""
    data = combat1()
    data["round"] = {"number": 1, "phase": "started",
                     **({} if kept is None else {combat_exchange.KEY: kept})}
    names = [None, "Archer", "archer", "Goblin Scout", "Thief", "nobody", "3"]
    for by in names:
        for vs in names:
            want = _with_hits_by_the_record(copy.deepcopy(data), by, vs, 2)
            assert combat_exchange.with_hits(copy.deepcopy(data), by, vs, 2) == want
