"""The exchange's rules path, made cheaper for a simulated fight, gives what the command's
path gives (issue 40 item 1: the same rule functions, no report changed;
tests/test_sim.py pins whole fights byte for byte). Each test here fails on a wrong
reuse: a table kept that no longer says what its live unit holds, an answer shared that
a later caller changed, a short cut that disagrees with the full path."""

from __future__ import annotations

import copy
import random
import sys
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.combat import conflict, crits, hits
from d2d_cli.rules.core import record
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import full_deck, parse_card
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
            assert first == crits.compare.__wrapped__(power, armor)
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
    kept = [v[2] for v in engine._ASSESSED.values()]
    assert kept
    said = ("target_action", "said_range", "said_cover", "said_high_ground",
            "skill_by_reach")
    assert not any(k in sit.extra_sources for sit in kept for k in said)


# --------------------------------------------------------------------------- replace


def _through_init(obj: Any, **changes: Any) -> Any:
    """``replace`` as it was: every field given to the class's init (the oracle)."""
    given = {f.name: getattr(obj, f.name) for f in record.fields(obj) if f.init}
    return type(obj)(**{**given, **changes})


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_replace_of_whole_fights_is_the_one_the_init_builds(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``replace`` copies a plain record (every field given to its init, no
    ``__post_init__``) in one step: over whole fights every copy, wherever made (the
    Hits between units, a Crit's ask, the engine's and the policy's records), equals
    the one its init builds — the same type, the same fields in the same order, the same
    JSON — and the record it was copied from is left as it was."""
    real = record.replace
    seen: list[bool] = []

    def checking(obj: Any, **changes: Any) -> Any:
        before = dict(obj.__dict__)
        got = real(obj, **changes)
        want = _through_init(obj, **changes)
        assert type(got) is type(want) and got == want and got is not obj
        assert [(f.name, getattr(got, f.name)) for f in record.fields(got)] == [
            (f.name, getattr(want, f.name)) for f in record.fields(want)]
        if hasattr(want, "to_json"):
            assert got.to_json() == want.to_json()
        assert obj.__dict__ == before
        seen.append(type(obj).__dict__.get("__record_plain__") is not None)
        return got

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("d2d_cli") and \
                getattr(module, "replace", None) is real:
            monkeypatch.setattr(module, "replace", checking)
    start, goals = _fights()
    sim.play_runs(start, goals, 9, range(15), DEFAULTS, pc)
    assert sum(seen) > 50  # the one-step copy, many times a fight


def test_a_replaced_card_works_out_its_own_faces_and_hash() -> None:
    """A Card keeps its code, hash and faces once read (cached on the card, beside its
    fields): a copy with a field changed is read afresh, never given the first card's."""
    card = parse_card("7S^")
    assert (card.code, card.face, hash(card)) == ("7S^", card.face, hash(card))
    down = record.replace(card, upper=False)
    assert down == parse_card("7Sv") and down.code == "7Sv"
    assert hash(down) == hash(parse_card("7Sv")) and down.face == parse_card("7Sv").face
    assert down.flipped(True) == card


def test_a_replace_naming_no_field_is_refused_as_the_init_refuses_it() -> None:
    """A change that names no field of the record goes through the init, which refuses
    it, as before."""
    with pytest.raises(TypeError):
        record.replace(parse_card("7S^"), colour="red")
    got = hits.reveal_combo(parse_card("KS^"), None, level=2, rival_level=1, difficulty=2,
                            ten_always_hits=False)
    changes = {"your_level": 3, "sources": {"level": "typed"}}
    assert record.replace(got, **changes) == _through_init(got, **changes)
    assert type(record.replace(got, **changes)) is type(got)  # a RevealedHits
