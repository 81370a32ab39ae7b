"""The exchange's eleventh cut gives what the full path gives (issue 40 item 1): a side's
candidate set aside read by its index, not found by a generator (``conflict._side``);
a Conflict's Effects made once for the very two tuples of effects it holds
(``conflict._effects_of``); the counter-attack found by two plain tests, each side's
Non-Player reading made once (``conflict.resolve``). Each is checked against the rule
written out, over whole fights and on planted values (tests/test_sim.py and
tests/golden pin whole fights and every command's JSON)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.combat import conflict, remembered
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import parse_card


def _fights(pc: str, runs: range) -> None:
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 5, runs, DEFAULTS, pc)


# --------------------------------------------------------------------------- _side


def _aside_written_out(opts: list[Any], k: int) -> str | None:
    return None if len(opts) == 1 else next(o.label for n, o in enumerate(opts) if n != k)


_CARDS = [parse_card(c) for c in ("7S^", "QHv", "2C^")]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_candidate_set_aside_is_the_first_other_than_the_one_kept(n: int) -> None:
    """Every candidate kept of one, two or three: the one set aside is the first of the
    others, as the generator found it."""
    opts = [conflict._option(None, c) for c in _CARDS[:n]]
    spec: Any = conflict.SideSpec("fate", "fate")
    fighter: Any = SimpleNamespace(level=2, unit=None, skill=None, skill_level=0)
    for k in range(n):
        side = conflict._side(spec, fighter, opts, k, tuple(_CARDS[:n]))
        assert side.set_aside == _aside_written_out(opts, k)
        assert side.card == _CARDS[k]


# --------------------------------------------------------------------------- _effects_of


def test_effects_are_made_for_the_very_two_tuples() -> None:
    """The same A with another B (an equal one, then a different one) is never given
    the Effects of the first pair; the very same pair is."""
    a = conflict.effects("fast", True)
    b1 = conflict.effects("block", True)  # a Block's win: its two effects
    b2 = conflict.effects("counter", True)
    first = conflict._effects_of(a, b1)
    assert first == conflict.Effects(a, b1)
    assert conflict._effects_of(a, b1) is first
    assert conflict._effects_of(a, b2) == conflict.Effects(a, b2) != first
    equal = tuple(list(b1))  # another tuple of the same effects: found by identity alone
    assert equal is not b1 and equal == b1
    again = conflict._effects_of(a, equal)
    assert again.b is equal and again is not first and again == first
    trimmed, _ = remembered.trim(b2, "no Action", True)  # a new tuple
    assert conflict._effects_of(a, trimmed) == conflict.Effects(a, trimmed)


# --------------------------------------------------------------------------- in fights


def _counter_written_out(ask: Any, out: Any) -> tuple[str, Any] | None:
    """The side whose Counter-attack is played and what it plays, as the loop over the
    two sides found it (the first side's only); for a Fate reveal, the source alone."""
    if out.side_a.unit is None or out.side_b.unit is None:
        return None
    m = ask.matchup
    for name, got, side, spec in (("a", out.effects.a, out.side_a, m.a),
                                  ("b", out.effects.b, out.side_b, m.b)):
        if not any(e.key == "counterattack" for e in got):
            continue
        if conflict._non_player(spec) and ask.counter != "000":
            return name, "fate"
        own = (side.card if ask.counter == "000" else
               None if conflict._non_player(spec) else ask.counter_cards[name == "b"])
        return name, conflict.counter_attack(
            name, side.unit, own, "fate" if conflict._non_player(spec) else "named",
            ask.counter, None)
    return None


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_conflict_of_whole_fights_is_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Conflict's Effects are the effects and the trim worked out afresh, each side
    set aside is one of its revealed cards or approach, and its counter-attack is the
    first side's whose effects hold one, playing what the loop played."""
    seen = _checked_fights(pc, monkeypatch)
    assert seen["conflicts"] > 100 and seen["counters"] > 3 and seen["aside"] > 10
    assert seen["trimmed"] > 3


def test_both_sides_holding_a_counter_attack_a_plays_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: every side's effects hold a Counter-attack (a fight never gives both
    sides one), so where both keep it, A's is the one played, as the loop played it."""
    real = conflict.effects
    strike = next(e for e in real("counter", True) if e.key == "counterattack")

    def every(approach: str, won: bool, evade: str = "001",
              non_player: bool = False) -> tuple[Any, ...]:
        got = real(approach, won, evade, non_player)
        return got if strike in got else (*got, strike)

    monkeypatch.setattr(conflict, "effects", every)
    # a Conflict's effects are remembered (the twelfth cut): none worked out before the
    # rule was planted is found here, and none worked out with it is found after
    conflict._outcome_effects.cache_clear()
    try:
        seen = _checked_fights("best", monkeypatch)
    finally:
        conflict._outcome_effects.cache_clear()
    assert seen["both"] > 10


def _checked_fights(pc: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    real = conflict.resolve
    seen = {"conflicts": 0, "counters": 0, "aside": 0, "trimmed": 0, "both": 0}

    def resolving(ask: Any, reveal: Any) -> Any:
        out = real(ask, reveal)
        if not isinstance(out, conflict.Conflict):
            return out
        m = ask.matchup
        want_a = conflict.effects(out.side_a.approach, out.outcome in ("a", "both"),
                                  ask.evade, conflict._non_player(m.a))
        full_b = conflict.effects(out.side_b.approach, out.outcome in ("b", "both"),
                                  ask.evade, conflict._non_player(m.b))
        want_b, notes = remembered.trim(
            full_b, ask.unspent,
            remembered.rival_reaches(ask.situation.b.skill, ask.range), ask.target_action)
        assert out.effects == conflict.Effects(want_a, want_b)
        assert out.notes == notes
        seen["trimmed"] += want_b != full_b
        for side, spec in ((out.side_a, m.a), (out.side_b, m.b)):
            # the candidates' labels: its own play (not a fate side's), then each card
            # revealed for it; the one kept is the first whose label is the side's
            labels = [c.code for c in side.revealed]
            if spec.source != "fate":
                labels = [spec.card.code if spec.card is not None else spec.approach,
                          *labels]
            if len(labels) == 1:
                assert side.set_aside is None
                continue
            seen["aside"] += 1
            kept = side.card.code if side.card is not None and side.card.code in labels \
                else side.approach
            k = labels.index(kept)
            assert side.set_aside == next(x for n, x in enumerate(labels) if n != k)
        seen["both"] += out.side_a.unit is not None and out.side_b.unit is not None and all(
            any(e.key == "counterattack" for e in got)
            for got in (out.effects.a, out.effects.b))
        want = _counter_written_out(ask, out)
        if want is None:
            assert out.counter is None
        else:
            seen["counters"] += 1
            name, what = want
            assert out.counter is not None and out.counter.side == name
            if what == "fate":
                assert out.counter.source == "fate"
            else:
                assert out.counter == what
        seen["conflicts"] += 1
        return out

    monkeypatch.setattr(conflict, "resolve", resolving)
    _fights(pc, range(8))
    return seen
