"""Cross-checks of ``d2d roll``: exact odds against icepool (a test dependency, never
imported by d2d itself) and against 20,000 seeded rolls; every expression of the
grammar returns or is refused with BadInput, in bounded time."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from fractions import Fraction
from math import sqrt

import pytest
from hypothesis import HealthCheck, given, settings

from d2d_cli.errors import BadInput
from d2d_cli.rules.roll import notation as dn
from tests.dice_grammar import any_text, expression, valid_expressions

ROLLS = 20_000


def _exact(text: str) -> dict[int, Fraction]:
    return {o.value: o.probability.fraction for o in dn.odds(dn.parse(text)).outcomes}


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_exact_odds_match_icepool_on_300_random_expressions() -> None:
    rng = random.Random(13)
    checked = 0
    for _ in range(300):
        text, ice = expression(rng)
        want = {int(v): Fraction(ice.probability(v)) for v in ice.outcomes()
                if ice.quantity(v)}
        assert _exact(text) == want, text
        checked += 1
    assert checked == 300


def within_bound(probs: dict[int, Fraction], counts: Counter[int], n: int) -> bool:
    """Every outcome's frequency within 5 standard errors of its exact chance (and no
    outcome the odds call impossible). A false alarm is ~1 in 10^6 per outcome; the
    seeds are fixed, so the test is deterministic."""
    if set(counts) - set(probs):
        return False
    for v, p in probs.items():
        q = float(p)
        if abs(counts[v] / n - q) > 5 * sqrt(q * (1 - q) / n) + 1 / n:
            return False
    return True


def _rolls(text: str, seed: int) -> Counter[int]:
    e = dn.parse(text)
    rng = random.Random(seed)
    return Counter(dn.sample_total(e, rng) for _ in range(ROLLS))


FIXED = ["4d6kh3", "3d6", "d20 + d4", "6d6>=5", "d6!x3", "2d6r1", "d6ro<=2", "4dF",
         "{d20, d{11..20}}kh1", "3cp=hearts", "2cf", "2d4 * d3 - 2", "d{1,1,2,3} + d%"]


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_odds_match_20000_seeded_rolls() -> None:
    for i, text in enumerate(FIXED):
        assert within_bound(_exact(text), _rolls(text, i), ROLLS), text


def test_the_bound_fails_a_wrong_distribution() -> None:
    # The same rolls judged against a nearby wrong answer must fail: keep-lowest for
    # keep-highest, a d6 for a d6 rerolling 1s, 3d6 shifted by one, a fair coin for
    # a 55:45 one.
    assert not within_bound(_exact("4d6kl3"), _rolls("4d6kh3", 0), ROLLS)
    assert not within_bound(_exact("d6"), _rolls("d6r1", 0), ROLLS)
    assert not within_bound({v + 1: p for v, p in _exact("3d6").items()}, _rolls("3d6", 0),
                            ROLLS)
    assert not within_bound({0: Fraction(1, 2), 1: Fraction(1, 2)},
                            _rolls("d20>=10", 0), ROLLS)  # 11/20 vs 1/2
    assert within_bound(_exact("d20>=10"), _rolls("d20>=10", 0), ROLLS)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(valid_expressions)
def test_odds_match_rolls_for_grammar_expressions(text: str) -> None:
    try:
        probs = _exact(text)
    except BadInput:
        return  # refused as too big: fine, the refusal test covers it
    assert sum(probs.values()) == 1
    assert within_bound(probs, _rolls(text, 7), ROLLS), text


@settings(max_examples=300, deadline=None, derandomize=True)
@given(any_text)
def test_every_expression_returns_or_is_refused(text: str) -> None:
    """Every generated expression parses, rolls and gives exact odds, or is refused with
    BadInput (exit 2) — never another exception. How long that takes is bench/'s to
    measure (bench_roll.py), not a test's."""
    try:
        e = dn.parse(text)
    except BadInput:
        return
    r = dn.roll(e, random.Random(0), lambda: None) if not e.fate_terms() else None
    if r is not None:
        assert isinstance(r.total, int)
    with contextlib.suppress(BadInput):
        dn.odds(e)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(valid_expressions)
def test_rolls_stay_inside_the_exact_support(text: str) -> None:
    try:
        probs = _exact(text)
    except BadInput:
        return
    e = dn.parse(text)
    rng = random.Random(3)
    for _ in range(200):
        assert dn.sample_total(e, rng) in probs
