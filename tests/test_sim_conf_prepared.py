"""A fight's Conflict found ready: what the round remembers of its two units, their
assessment and the two together, remembered by the engine's Assessor (issue 40 item 1;
``rules.combat.situation.Assessor.remember``, ``rules.combat.remembered.recalled_view``).
Each test fails on a wrong reuse — an answer kept while what ``recall`` reads changed
(the Interact aimed at the Target, 001 l.639–641 "Target may spend an Action / IF not
Target gains no benefits on a Win") — or on a remembered answer that differs from the
command's path, which remembers nothing."""

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
from d2d_cli.rules.combat import conflict, crits, remembered, situation
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.overview import scene


def _combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def _plain(ask: conflict.ConflictAsk) -> tuple[Any, ...]:
    """Everything a ConflictAsk says, the units by name, every mapping as a plain dict."""
    sit = ask.situation
    got = ask.assessed
    assert got is not None
    return (ask.matchup.a.text, ask.matchup.b.text, sit._replace(
        extra_sources=dict(sit.extra_sources)), ask.obstacles, ask.table, ask.reading,
        ask.fate_orientation, ask.level_bonus, ask.unspent, ask.target_action, ask.range,
        ask.evade, ask.counter, ask.counter_cards, got.terms, got.skill, got.rival_skill,
        got.field, got.opts, got.situation._replace(
            extra_sources=dict(got.situation.extra_sources)),
        None if got.a is None else got.a.name, None if got.b is None else got.b.name)


def test_every_conflict_of_whole_fights_is_the_one_the_command_path_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Conflict a fight asks with its Assessor (most of them found ready) equals
    the one asked with no memory at all, as the ``conflict`` command asks it; the
    fights end as the pinned ones do."""
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    plain = sim.play_runs(start, goals, 7, range(40), DEFAULTS, "best")
    engine._ASSESSED.clear()
    real = conflict.ask
    found = {"ready": 0, "asked": 0}
    real_remember = conflict.Assessor.remember

    def counted(self: Any, *a: Any, **k: Any) -> Any:
        found["ready"] += 1
        return real_remember(self, *a, **k)

    def both(sides: list[str], data: dict[str, Any], *args: Any, **kw: Any) -> Any:
        out = real(sides, data, *args, **kw)
        fresh = real(sides, data, *args, **{**kw, "assessor": None})
        assert _plain(out) == _plain(fresh), sides
        found["asked"] += 1
        return out

    monkeypatch.setattr(conflict, "ask", both)
    monkeypatch.setattr(conflict.Assessor, "remember", counted)
    assert sim.play_runs(start, goals, 7, range(40), DEFAULTS, "best") == plain
    assert found["asked"] > 400 and found["ready"] > 300  # the memory was in play


def _ask(t: Table) -> conflict.ConflictAsk:
    return conflict.ask(["Goblin Scout:fast", "Archer:block"], t.data, roster=t.live(),
                        assessor=t._assess, opts=t.opts, use_map=False)


def test_the_target_s_action_is_read_again_once_it_answers_the_interact() -> None:
    """The same two units with the same readings, before and after the Target answers
    the Interact aimed at it: what the round remembers changed (the Interact is no part
    of a unit's reading), so the Conflict is not the one remembered — the Target that
    spent no Action gains no benefit, then the one that spent it does."""
    engine._ASSESSED.clear()
    t = Table(_combat1(), random.Random(3))
    t.round_start()
    t.act("Goblin Scout", "interact", "Archer")
    first = _ask(t)
    assert first.unspent == "Archer spent no Action on Goblin Scout's Interact"
    assert first.situation.extra_sources["target_action"] == "Archer spent no Action"
    again = _ask(t)  # found ready: the same answer
    assert again.unspent == first.unspent
    t.respond("Archer", True)
    answered = _ask(t)
    assert answered.unspent is None
    assert answered.situation.extra_sources["target_action"] == "Archer spent an Action"


def test_an_interact_by_another_unit_is_not_the_actor_s() -> None:
    """The Interact aimed at the Target by a third unit is not the Actor's (001 l.639:
    the Target of the Actor's own Interact): the view of the round says whose it is, so
    the Conflict remembered for the Actor's own Interact is not given for another's."""
    engine._ASSESSED.clear()
    t = Table(_combat1(), random.Random(5))
    t.round_start()
    t.act("Goblin Scout", "interact", "Archer")
    own = _ask(t)
    assert own.unspent is not None
    names = [n for n in t.units() if n not in ("Goblin Scout", "Archer")]
    other = next(n for n in names if t.units()[n].get("faction") ==
                 t.units()["Goblin Scout"].get("faction"))
    t.act(other, "interact", "Archer")
    view = remembered.recalled_view(t.data, t.unit("Goblin Scout"), t.unit("Archer"))
    assert view is not None and view[0] is False  # the Interact is the other unit's
    theirs = _ask(t)
    assert theirs.unspent is None
    assert "target_action" not in theirs.situation.extra_sources


def test_what_was_said_of_a_unit_is_recalled_afresh() -> None:
    """A unit something was said of this round (``unit situation``: Range, Cover, High
    Ground, and where it stood) is read afresh: no view, nothing remembered."""
    t = Table(_combat1(), random.Random(1))
    t.round_start()
    archer = t.unit("Archer")
    scout = t.unit("Goblin Scout")
    assert remembered.recalled_view(t.data, scout, archer) == ()
    said = copy.copy(archer)
    said.extra = {**archer.extra, "said": {"round": 1, "range": {"Goblin Scout": 3}}}
    assert remembered.recalled_view(t.data, scout, said) is None
    assert remembered.recalled_view(t.data, said, scout) is None


def test_a_remembered_conflict_can_not_be_changed_by_a_caller() -> None:
    """The Conflict found ready is shared by every later finder: what the round said is
    held as read-only views, so a caller adding to it raises rather than changing the
    answer every later Conflict is given."""
    engine._ASSESSED.clear()
    t = Table(_combat1(), random.Random(3))
    t.round_start()
    t.act("Goblin Scout", "interact", "Archer")
    _ask(t)
    ready = _ask(t)
    with pytest.raises(TypeError):
        ready.situation.extra_sources["said_range"] = "changed"  # type: ignore[index]
    kept = [v[2] for k, v in engine._ASSESSED.items()
            if k[0] == "remember" and k[7] == "conflict"]
    assert kept
    for got, _, said, *_ in kept:  # (then the Range and the map's obstacles, immutable)
        with pytest.raises(TypeError):
            got.sources["said_range"] = "changed"
        with pytest.raises(TypeError):
            said.extra_sources["said_range"] = "changed"


# --------------------------------------------------------------------------- the Crit


def test_every_crit_found_ready_in_whole_fights_is_its_preparation_made_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What a Crit reads before its first card (the weapon, the Power, the types, the
    chart, the target's armour and gear: ``crits._prepare``), found ready by the fight's
    Assessor, equals the preparation made afresh at every Crit of 40 whole fights; the
    fights end as the pinned ones do."""
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    plain = sim.play_runs(start, goals, 9, range(40), DEFAULTS, "best")
    engine._ASSESSED.clear()
    real = situation.Assessor.remember
    seen = {"crit": 0, "found": 0}

    def checked(self: Any, a: Any, b: Any, rest: tuple[Any, ...], fld: Any, opts: Any,
                compute: Any, *args: Any) -> Any:
        got = real(self, a, b, rest, fld, opts, compute, *args)
        if rest[0] == "crit":
            seen["crit"] += 1
            fresh = compute(*args)
            seen["found"] += fresh is not got
            assert got == fresh, rest
        return got

    monkeypatch.setattr(situation.Assessor, "remember", checked)
    assert sim.play_runs(start, goals, 9, range(40), DEFAULTS, "best") == plain
    assert seen["crit"] > 100 and seen["found"] > 80  # most found ready, each checked


def test_a_crit_is_prepared_anew_for_a_target_wearing_other_armour() -> None:
    """Two fights sharing the process's memory: the same Crit on a target whose table
    holds other armour (001 l.906-936 "Crits: Rating") reads that armour, not the one
    remembered for the first target's reading."""
    engine._ASSESSED.clear()
    ask = crits.CritAsk(hits=2, target="Goblin Scout", by="Archer", with_="Bow")
    bare = Table(_combat1(), random.Random(4))
    first = bare._crit(ask, stored=False)
    data = _combat1()
    data["units"]["Goblin Scout"] = {**data["units"]["Goblin Scout"], "armor": "5x2"}
    worn = Table(data, random.Random(4))
    second = worn._crit(ask, stored=False)
    assert first.card == second.card  # the same draw
    assert second.armor == "5x2" and first.armor != "5x2"
    assert second.sources["armor"].startswith("Goblin Scout's armor 5x2")
