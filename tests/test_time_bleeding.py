"""The Bleeding random walk (issue 11 "Text flaws"; docs/errata.md "Bleeding").

000 l.1140–1144: "Bleeding - Mind:-1. Event: Reveal Conflict. Wands=Bleeding:+1,
Coins=Nothing happens, Cups=Bleeding:-1, Swords=Blood Loss:+1". At each round end a unit
with Bleeding reveals one Fate card (docs/rules.md "Round end"; a Wild does nothing).
Its long-run behaviour, computed exactly with Fractions from d2d's condition event table
(each reveal read as a uniform card of the 54: a fresh deck; drawing without
replacement changes the odds slightly):

* the Bleeding count is a symmetric random walk (+1 and −1 are equally likely, 13/54
  each), so Bleeding stops with probability 1 — yet the expected number of round ends
  until it stops is infinite, and so is the expected Blood Loss;
* capped at M tokens: it stops before reaching M with probability (M−1)/M, after
  27(M−1)/13 round ends on average, with (M−1)/2 Blood Loss on average;
* it stops at the first round end with probability 13/54, within two 533/1458;
* it stops before any Blood Loss with probability (3−√5)/2 ≈ 0.382.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from d2d_cli.rules.deck.cards import full_deck
from d2d_cli.rules.units import conditions
from tests.helpers import ROOT, rule_text


def step_odds() -> dict[tuple[int, int], Fraction]:
    """(change of Bleeding, change of Blood Loss) → its chance on one reveal, from the
    event table and the 54 cards."""
    deck = full_deck()
    odds: dict[tuple[int, int], Fraction] = {}
    for card in deck:
        outcome = conditions.event_outcome("bleeding", card)
        key = (outcome.get("bleeding", 0), outcome.get("blood_loss", 0))
        odds[key] = odds.get(key, Fraction(0)) + Fraction(1, len(deck))
    return odds


def solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Gaussian elimination over Fractions (exact)."""
    n = len(rhs)
    a = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def capped(cap: int) -> tuple[Fraction, Fraction, Fraction]:
    """From Bleeding 1, with the walk stopped at 0 or at ``cap`` tokens: the chance it
    reaches 0 first, the expected round ends, the expected Blood Loss — each the
    solution of its linear system over the states 1…cap−1."""
    odds = step_odds()
    states = range(1, cap)
    results = []
    for kind in ("stops", "rounds", "blood_loss"):
        matrix = [[Fraction(0)] * len(states) for _ in states]
        rhs = [Fraction(0)] * len(states)
        for i, b in enumerate(states):
            matrix[i][i] += 1
            for (db, dl), p in odds.items():
                nb = b + db
                if kind == "rounds":
                    rhs[i] += p
                elif kind == "blood_loss":
                    rhs[i] += p * dl
                if nb == 0:
                    if kind == "stops":
                        rhs[i] += p
                elif nb < cap:
                    matrix[i][nb - 1] -= p
        results.append(solve(matrix, rhs)[0])
    return results[0], results[1], results[2]


def stopped_within(n: int) -> Fraction:
    """The exact chance that Bleeding 1 is gone after ``n`` round ends."""
    odds = step_odds()
    at = {1: Fraction(1)}
    gone = Fraction(0)
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for b, p in at.items():
            for (db, _dl), q in odds.items():
                if b + db == 0:
                    gone += p * q
                else:
                    nxt[b + db] = nxt.get(b + db, Fraction(0)) + p * q
        at = nxt
    return gone


def test_the_event_table_is_the_glossarys() -> None:
    """000 l.1140–1144, and d2d's table: 13 cards of each suit, 2 Wilds doing nothing."""
    text = rule_text("000").splitlines()
    assert text[1140 - 1] == "- Bleeding - Mind:-1. Event: Reveal Conflict"
    assert [line.strip() for line in text[1141 - 1:1144]] == [
        "- Wands=Bleeding:+1", "- Coins=Nothing happens", "- Cups=Bleeding:-1",
        "- Swords=Blood Loss:+1"]
    assert step_odds() == {(1, 0): Fraction(13, 54), (0, 0): Fraction(15, 54),
                           (-1, 0): Fraction(13, 54), (0, 1): Fraction(13, 54)}


def test_it_is_a_symmetric_walk_so_it_stops_surely_but_not_soon() -> None:
    odds = step_odds()
    up = sum((p for (db, _), p in odds.items() if db > 0), Fraction(0))
    down = sum((p for (db, _), p in odds.items() if db < 0), Fraction(0))
    assert up == down == Fraction(13, 54)  # symmetric: recurrent, so it stops w.p. 1
    for cap in range(2, 13):
        stops, rounds, blood = capped(cap)
        assert stops == Fraction(cap - 1, cap)  # → 1 as the cap is lifted
        assert rounds == Fraction(27 * (cap - 1), 13)  # → ∞: no finite expected duration
        assert blood == Fraction(cap - 1, 2)  # → ∞: no finite expected Blood Loss


def test_how_soon_it_stops() -> None:
    assert stopped_within(1) == Fraction(13, 54)
    assert stopped_within(2) == Fraction(533, 1458)
    got = [float(stopped_within(n)) for n in (10, 100)]
    assert got == pytest.approx([0.6575, 0.8857], abs=5e-5)


def test_chance_of_no_blood_loss_at_all() -> None:
    """Only Wands, Cups and Swords matter (1/3 each): it stops before any Swords with
    chance E[(2/3)^T], T the ±1 steps to reach 0 — (1 − √(1 − 4/9)) / (2/3) = (3 − √5)/2.
    The exact chance after n relevant reveals rises to it."""
    at = {1: Fraction(1)}
    gone = Fraction(0)
    third = Fraction(1, 3)
    for _ in range(400):
        nxt: dict[int, Fraction] = {}
        for b, p in at.items():
            if b == 1:
                gone += p * third
            else:
                nxt[b - 1] = nxt.get(b - 1, Fraction(0)) + p * third
            nxt[b + 1] = nxt.get(b + 1, Fraction(0)) + p * third
        at = {b: p for b, p in nxt.items() if p > Fraction(1, 10**30)}
    limit = (3 - math.sqrt(5)) / 2
    assert float(gone) <= limit + 1e-15  # a lower bound (float rounding aside)
    assert float(gone) == pytest.approx(limit, abs=1e-12)


def test_errata_states_it() -> None:
    text = (ROOT / "docs" / "errata.md").read_text("utf-8")
    for needle in ("(M−1)/M", "27(M−1)/13", "(M−1)/2", "13/54", "533/1458", "(3−√5)/2"):
        assert needle in text, needle


def blood_loss_chance(k: int, terms: int = 3000) -> float:
    """P(exactly ``k`` Blood Loss before Bleeding 1 stops): the ±1 steps to reach 0 are
    T = 2n−1 with chance C(n−1)/2^(2n−1) (Catalan: first passage of a symmetric walk),
    and given T steps the Swords among the relevant reveals are negative binomial."""
    total, first_passage = 0.0, 0.5
    for n in range(1, terms):
        t = 2 * n - 1
        total += first_passage * math.comb(k + t - 1, k) * (1 / 3) ** k * (2 / 3) ** t
        first_passage *= (2 * n - 1) / (2 * (n + 1))
    return total


def test_blood_loss_has_a_heavy_tail() -> None:
    """errata.md: "about 1 unit in 5 reaches 8 Blood Loss … before Bleeding stops"."""
    assert blood_loss_chance(0) == pytest.approx((3 - math.sqrt(5)) / 2, abs=1e-12)
    assert 1 - sum(blood_loss_chance(k) for k in range(8)) == pytest.approx(0.2074, abs=1e-4)
