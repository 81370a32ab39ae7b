"""The Advantage rule of a Conflict in one function (issue 26 item 5): "who keeps which
card", ``advantage.keep_conflict``, over every pair of card reveals; and both of its
callers, ``conflict.resolve`` and ``odds conflict``, keep their cards by it.

000 l.423–424: "Advantage - IF you have Advantage THEN Reveal Fate. Use either of the 2
Conflict cards. Disadvantage - IF you have Disadvantage THEN Reveal Fate. Use the worst
of the 2 Conflict cards." d2d's "best" (docs/rules.md "Advantage"): the best result for
the side — a win, both win, neither, a loss — then the card scoring more Hits, then the
first revealed; with Advantage on one side and Disadvantage on the other, the pair best
for the side with Advantage."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from d2d_cli.rules.combat import conflict
from d2d_cli.rules.combat.situation import Terms
from d2d_cli.rules.deck import advantage as adv
from d2d_cli.rules.deck.cards import Card, all_outcomes, parse_card
from d2d_cli.rules.deck.fate import Revealer
from d2d_cli.rules.odds import exact as odds
from tests.test_odds import FRESH, _Walk, brute, piles, rest

EVERY = all_outcomes()  # the 108 (card, orientation) a reveal can show
# Rivals of every approach: Fast, Block, Strong, Counter, Evade, Wild.
RIVALS = [parse_card(c) for c in ("7S^", "QHv", "2C^", "9Dv", "5Sv", "RW")]


@cache
def _outcome(a: Card, b: Card) -> str:
    """A pair as the chart decides it at Level 0, then the rank tiebreak (001 l.767)."""
    got = conflict.chart()[conflict.approach_of(a)][conflict.approach_of(b)]
    return conflict.tiebreak(a, b, 0, 0).outcome if got == "rank" else got


def _worth(side: str, outcome: str) -> int:
    """docs/rules.md "Advantage": a win, then both win, then neither, then a loss."""
    if outcome == side:
        return 3
    return {"both": 2, "tie": 1, "rank": 1}.get(outcome, 0)


def _score(side: str, a: Card, b: Card) -> tuple[int, int]:
    mine = a if side == "a" else b
    return _worth(side, _outcome(a, b)), conflict.hit_value(mine)


def test_the_chooser_of_every_count_and_mode() -> None:
    up, down, normal = adv.ADVANTAGE, adv.DISADVANTAGE, adv.NORMAL
    assert adv.chooser(1, 1, (normal, normal)) == ("a", normal)
    assert adv.chooser(2, 1, (up, normal)) == ("a", up)
    assert adv.chooser(2, 1, (down, normal)) == ("a", down)
    assert adv.chooser(1, 2, (normal, up)) == ("b", up)
    assert adv.chooser(1, 2, (normal, down)) == ("b", down)
    # Opposite modes on both sides: the side with Advantage keeps the pair best for it.
    assert adv.chooser(2, 2, (up, down)) == ("a", up)
    assert adv.chooser(2, 2, (down, up)) == ("b", up)


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("mode", [adv.ADVANTAGE, adv.DISADVANTAGE])
def test_one_side_keeps_its_best_or_worst_of_every_pair_of_reveals(side: str,
                                                                   mode: str) -> None:
    # Every pair of reveals (108 × 108) for the side at Advantage or Disadvantage,
    # against Rivals of every approach.
    modes = (mode, adv.NORMAL) if side == "a" else (adv.NORMAL, mode)
    for rival in RIVALS:
        for first in EVERY:
            for second in EVERY:
                two, one = [first, second], [rival]
                opts_a, opts_b = (two, one) if side == "a" else (one, two)
                got = adv.keep_conflict(opts_a, opts_b, modes, _outcome,
                                        conflict.hit_value)
                s1 = _score(side, *((first, rival) if side == "a" else (rival, first)))
                s2 = _score(side, *((second, rival) if side == "a" else (rival, second)))
                kept = (0 if s1 >= s2 else 1) if mode == adv.ADVANTAGE else (
                    0 if s1 <= s2 else 1)
                assert got == ((kept, 0) if side == "a" else (0, kept)), (
                    first, second, rival)


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_opposite_modes_keep_the_pair_best_for_the_side_with_advantage() -> None:
    # Every pair of A's reveals against pairs of B's of every approach; A at Advantage
    # and B at Disadvantage, then the other way round: the chooser is the side with
    # Advantage, ranking the four pairs in order (A's first, B's first), first on ties.
    b_pairs = [(RIVALS[i], RIVALS[j]) for i, j in ((0, 1), (2, 3), (5, 4), (4, 0))]
    for modes, side in (((adv.ADVANTAGE, adv.DISADVANTAGE), "a"),
                        ((adv.DISADVANTAGE, adv.ADVANTAGE), "b")):
        for b1, b2 in b_pairs:
            for a1 in EVERY:
                for a2 in EVERY:
                    got = adv.keep_conflict([a1, a2], [b1, b2], modes, _outcome,
                                            conflict.hit_value)
                    order = [(0, 0), (0, 1), (1, 0), (1, 1)]
                    cands = ((a1, a2), (b1, b2))
                    scores = [_score(side, cands[0][i], cands[1][j]) for i, j in order]
                    assert got == order[scores.index(max(scores))], (a1, a2, b1, b2)


def test_normal_keeps_the_only_cards_without_scoring() -> None:
    def never(*_: Any) -> Any:
        raise AssertionError("nothing to choose: nothing is scored")

    assert adv.keep_conflict(["x"], ["y"], (adv.NORMAL, adv.NORMAL), never, never) == (0, 0)


# --------------------------------------------------------------------------- its callers


class _Spy:
    """``keep_conflict`` as it is, counting its calls."""

    def __init__(self, keeper: Callable[..., tuple[int, int]]) -> None:
        self.keeper, self.calls = keeper, 0

    def __call__(self, *args: Any) -> tuple[int, int]:
        self.calls += 1
        return self.keeper(*args)


def _first(*_: Any) -> tuple[int, int]:
    return 0, 0  # a rule that always keeps each side's first candidate


def _resolve(a: str, b: str, cards: list[str], adv_a: str = "") -> conflict.Conflict:
    terms = Terms(advantage=("a",) if adv_a == "advantage" else (),
                  disadvantage=("a",) if adv_a == "disadvantage" else ())
    got = conflict.ask([a, b], {}, terms=terms).resolve(
        Revealer(None, None, [parse_card(c) for c in cards]))
    assert isinstance(got, conflict.Conflict)
    return got


def test_resolve_keeps_its_card_by_keep_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    # 000 l.423: A's 3♠ (Fast) or the Fate K♣ (Strong) against Evade: Fast wins.
    spy = _Spy(adv.keep_conflict)
    monkeypatch.setattr(adv, "keep_conflict", spy)
    got = _resolve("3S^", "evade", ["KC"], "advantage")
    assert (spy.calls, got.side_a.card, got.outcome, got.side_a.set_aside) == (
        1, parse_card("3S^"), "a", "KC^")
    # Replaced by a rule that keeps the first candidate, resolve keeps what it is told.
    monkeypatch.setattr(adv, "keep_conflict", _first)
    got = _resolve("fate", "strong", ["4H", "9S"], "advantage")
    assert (got.side_a.card, got.outcome, got.side_a.set_aside) == (
        parse_card("4Hv"), "b", "9S^")


def test_conflict_odds_keep_their_cards_by_keep_conflict(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = odds.Piles.fresh()
    before = odds.conflict_odds("fate", "strong", fresh, FRESH, modes=("advantage", "normal"))
    spy = _Spy(adv.keep_conflict)
    monkeypatch.setattr(adv, "keep_conflict", spy)
    got = odds.conflict_odds("fate", "strong", fresh, FRESH, modes=("advantage", "normal"))
    assert spy.calls > 0 and got == before
    # Keeping the first card always, the odds are those of the first card alone: the
    # extra card is revealed and set aside.
    monkeypatch.setattr(adv, "keep_conflict", _first)
    first = odds.conflict_odds("fate", "strong", fresh, FRESH, modes=("advantage", "normal"))
    alone = odds.conflict_odds("fate", "strong", fresh, FRESH)
    assert (first.a_wins, first.b_wins, first.tie) == (alone.a_wins, alone.b_wins, alone.tie)
    assert first.a_wins != before.a_wins


@pytest.mark.parametrize("a,b,modes", [
    ("fate", "7S^", ("advantage", "normal")),
    ("fast", "fate", ("normal", "disadvantage")),
    ("QH^", "fate", ("advantage", "disadvantage")),
    ("fate", "fate", ("disadvantage", "advantage")),
])
def test_both_callers_agree_over_every_reveal(a: str, b: str, modes: tuple[str, str]) -> None:
    # conflict.resolve over every reveal of a small deck, against odds conflict.
    small = ["7S", "7C", "QH", "AS", "2D", "RW"]
    terms = Terms(advantage=tuple(s for s, m in zip("ab", modes, strict=True)
                                  if m == "advantage"),
                  disadvantage=tuple(s for s, m in zip("ab", modes, strict=True)
                                     if m == "disadvantage"))
    ask = conflict.ask([a, b], {}, terms=terms)
    assert (ask.situation.advantage_a.mode, ask.situation.advantage_b.mode) == modes

    def run(reveal: Callable[[], Card]) -> str:
        walk: Any = _Walk(reveal)
        got = conflict.resolve(ask, walk)
        assert isinstance(got, conflict.Conflict)
        return got.outcome

    want = brute(small, rest(small), run)
    got = odds.conflict_odds(a, b, piles(small, rest(small)), FRESH, modes=modes)
    assert {"a": got.a_wins.fraction, "b": got.b_wins.fraction, "both": got.both_win.fraction,
            "tie": got.tie.fraction, "rank": got.rank.fraction} == {
        k: Fraction(want.get(k, 0)) for k in ("a", "b", "both", "tie", "rank")}
