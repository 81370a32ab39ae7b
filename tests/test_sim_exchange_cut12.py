"""The exchange's twelfth cut gives what the full path gives (issue 40 item 1): what each
side of a Conflict gets once its outcome is known — the two sides' Effects, B's trimmed,
the notes, the side that counter-attacks — remembered by all it reads
(``conflict._outcome_effects``). Checked against the rule written out over every value
its arguments take and over whole fights (tests/test_sim.py and tests/golden pin whole
fights and every command's JSON)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.combat import conflict, remembered
from d2d_cli.rules.core.options import DEFAULTS


@pytest.fixture(autouse=True)
def _forgotten() -> Iterator[None]:
    """Each test starts and ends with nothing remembered (another test's planted rule
    never answers here, nor this one's elsewhere)."""
    conflict._outcome_effects.cache_clear()
    yield
    conflict._outcome_effects.cache_clear()


def _written_out(approach_a: str, approach_b: str, outcome: str, evade: str,
                 np_a: bool, np_b: bool, unspent: str | None, b_skill: str | None,
                 range_: int | None, target_action: str
                 ) -> tuple[Any, tuple[str, ...], str | None]:
    """The rule as ``resolve`` wrote it before the cut: each side's effects, B's trimmed,
    and the first side (A, then B) whose effects hold its Counter-attack."""
    effects_b, notes = remembered.trim(
        conflict.effects(approach_b, outcome in ("b", "both"), evade, np_b), unspent,
        remembered.rival_reaches(b_skill, range_), target_action)
    effects_a = conflict.effects(approach_a, outcome in ("a", "both"), evade, np_a)
    striker = None
    for name, got in (("a", effects_a), ("b", effects_b)):
        if any(e.key == "counterattack" for e in got):
            striker = name
            break
    return conflict.Effects(effects_a, effects_b), notes, striker


_GRID = list(itertools.product(
    conflict.approaches(), conflict.approaches(), conflict.OUTCOMES, ("001", "000"),
    (False, True), (False, True), (None, "Goblin spent no Action on Archer's Interact"),
    (None, "Close Combat", "Ranged"), (None, 1, 4), ("001", "000")))


def test_every_outcome_is_the_rule_written_out() -> None:
    """Every approach of each side, every outcome, both Evade and Target-Action
    readings, Non-Player or not, an Action spent or not, a Rival's skill that reaches
    or not at each Range: the answer worked out and the one found again are the rule
    written out."""
    for args in _GRID:
        want = _written_out(*args)
        assert conflict._outcome_effects(*args) == want, args  # worked out
        assert conflict._outcome_effects(*args) == want, args  # found again
    assert conflict._outcome_effects.cache_info().hits == len(_GRID)


def test_each_argument_is_read() -> None:
    """Planted: the same Conflict but for one thing — B's Counter-attack out of reach,
    its Action unspent, B a Non-Player, the Evade reading, the outcome — gives another
    answer, each as the rule says."""
    base = ("fast", "counter", "b", "001", False, False, None, "Close Combat", 1, "001")
    got = conflict._outcome_effects(*base)
    assert got[2] == "b" and got[1] == ()
    far = conflict._outcome_effects(*base[:8], 3, base[9])
    assert far[2] is None and "cannot reach" in far[1][0]
    unspent = conflict._outcome_effects(*base[:6], "B spent no Action", *base[7:])
    assert unspent[2] is None and "No benefit for B" in unspent[1][0]
    evading = ("fast", "evade", "b", "001", False, False, None, None, None, "001")
    assert conflict._outcome_effects(*evading) != conflict._outcome_effects(
        *evading[:3], "000", *evading[4:])
    keeping = ("fast", "block", "b", "001", False, False, None, None, None, "001")
    assert conflict._outcome_effects(*keeping) != conflict._outcome_effects(
        *keeping[:5], True, *keeping[6:])
    assert conflict._outcome_effects(*base[:2], "a", *base[3:]) != got
    for args in (base, evading, keeping):
        assert conflict._outcome_effects(*args) == _written_out(*args)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_conflict_of_whole_fights_gets_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Conflict of whole fights holds the Effects and notes worked out afresh, and
    counter-attacks on the side the rule names (none when either side is no unit)."""
    real = conflict.resolve
    seen = {"conflicts": 0, "counters": 0, "trimmed": 0}

    def resolving(ask: Any, reveal: Any) -> Any:
        out = real(ask, reveal)
        if not isinstance(out, conflict.Conflict):
            return out
        m, sit = ask.matchup, ask.situation
        want, notes, striker = _written_out(
            out.side_a.approach, out.side_b.approach, out.outcome, ask.evade,
            conflict._non_player(m.a), conflict._non_player(m.b), ask.unspent,
            sit.b.skill, ask.range, ask.target_action)
        assert out.effects == want
        assert out.notes == notes
        units = out.side_a.unit is not None and out.side_b.unit is not None
        assert (out.counter.side if out.counter is not None else None) == (
            striker if units else None)
        seen["conflicts"] += 1
        seen["counters"] += out.counter is not None
        seen["trimmed"] += bool(notes)
        return out

    monkeypatch.setattr(conflict, "resolve", resolving)
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 7, range(8), DEFAULTS, pc)
    assert seen["conflicts"] > 100 and seen["counters"] > 3 and seen["trimmed"] > 3
    assert conflict._outcome_effects.cache_info().hits > 40  # found again, not only made
