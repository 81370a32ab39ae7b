"""Fate dice (000 "Reference > Fate > Randomizing"), proved uniform by enumeration.

A reveal has 108 equally likely outcomes (54 cards × Upper/Lower). For every die the
test walks every outcome (every pair of outcomes above d108) and checks each value
1..N is reached by exactly the same number of them; the rest are "redraw".
"""

from __future__ import annotations

from collections import Counter

import pytest

from d2d_cli.errors import BadInput
from d2d_cli.rules.deck import dice
from d2d_cli.rules.deck.cards import all_outcomes, parse_card

OUTCOMES = all_outcomes()


def _single_card_counts(n: int) -> Counter[int | None]:
    s = dice.spec(n)
    assert s.cards == 1
    return Counter(dice.read(s, [c]) for c in OUTCOMES)


def test_there_are_108_distinct_outcomes() -> None:
    assert len(OUTCOMES) == 108 == len({c.code for c in OUTCOMES})


@pytest.mark.parametrize("n", range(2, 109))
def test_every_die_up_to_d108_is_exactly_uniform(n: int) -> None:
    counts = _single_card_counts(n)
    per_value = {counts[v] for v in range(1, n + 1)}
    assert len(per_value) == 1 and per_value.pop() > 0
    assert set(counts) - {None} == set(range(1, n + 1))


def test_every_die_above_d108_is_exactly_uniform() -> None:
    # Two cards make one try; enumerate the d108 reading of each pair once, then the
    # exact number of pairs that give each value for every N.
    d108 = Counter(dice.READINGS[108](c) for c in OUTCOMES)
    assert d108 == Counter({v: 1 for v in range(1, 109)})  # a bijection: 108 ↔ 1..108
    pair_values = [dice.read(dice.spec(109), [h, lo]) for h in OUTCOMES[:3] for lo in OUTCOMES]
    assert all(v is not None for v in pair_values)
    for n in range(109, 1001):
        s = dice.spec(n)
        assert s.cards == 2 and s.limit == n * (11664 // n)
        # every try value V in 1..11664 comes from exactly one pair (bijection above),
        # so counting over V is counting over the 11,664 pairs.
        counts = Counter((v - 1) % n + 1 for v in range(1, s.limit + 1))
        assert set(counts.values()) == {11664 // n} and len(counts) == n


def test_two_card_reading_matches_the_formula() -> None:
    s = dice.spec(1000)
    hi, lo = parse_card("2C^"), parse_card("3C^")  # d108 readings 2 and 3
    assert dice.read(s, [hi, lo]) == ((2 - 1) * 108 + 3 - 1) % 1000 + 1 == 111
    assert dice.read(s, [parse_card("RWv"), parse_card("RWv")]) is None  # 11664 > 11000


@pytest.mark.parametrize(("n", "card", "value"), [
    (2, "KC", 1), (2, "AH", 2), (2, "BW", 1), (2, "RW", 2),  # black Heads, red Tails
    (4, "5C", 1), (4, "5D", 2), (4, "5H", 3), (4, "5S", 4), (4, "BW", None),
    (8, "5H^", 3), (8, "5Hv", 7), (8, "2Sv", 8),  # errata: +4 if Lower
    (10, "AC", 1), (10, "10S", 10), (10, "JC", None), (10, "KH", None), (10, "RW", None),
    (12, "JD", 11), (12, "QD", 12), (12, "KD", None),
    (13, "KD", 13), (13, "BW", None),
    (16, "6S^", 4), (16, "7S^", 12), (16, "QHv", 15), (16, "KH", None),  # errata
    (40, "10C", 10), (40, "AD", 11), (40, "5H", 25), (40, "10S", 40), (40, "QS", None),
    (42, "BW", 41), (42, "RW", 42), (42, "JC", None),
    (52, "KC", 13), (52, "AD", 14), (52, "KS", 52),
    (54, "BW", 53), (54, "RW", 54),
    (80, "10S^", 40), (80, "ACv", 41), (80, "10Sv", 80),
    (84, "RW^", 42), (84, "ACv", 43), (84, "RWv", 84),  # errata: +42
    (104, "KS^", 52), (104, "ACv", 53), (104, "KSv", 104),  # errata: +52
    (108, "RW^", 54), (108, "ACv", 55), (108, "RWv", 108),  # errata: +54
])
def test_printed_readings(n: int, card: str, value: int | None) -> None:
    assert dice.read(dice.spec(n), [parse_card(card)]) == value


def test_printed_d8_would_not_be_uniform() -> None:
    # Why the errata exists: "IF Red THEN add 4" can only give 1, 4, 6, 7.
    printed = Counter(
        None if c.is_wild else (["wands", "coins", "cups", "swords"].index(c.suit or "") + 1
                                + (4 if c.color == "red" else 0))
        for c in OUTCOMES)
    assert sorted(v for v in printed if v) == [1, 4, 6, 7]


@pytest.mark.parametrize(("n", "base", "limit"), [
    (6, 54, 54), (3, 54, 54), (9, 54, 54), (7, 108, 105), (20, 104, 100), (100, 104, 100),
])
def test_generic_dice_pick_the_least_wasteful_printed_die(n: int, base: int, limit: int) -> None:
    s = dice.spec(n)
    assert (s.base, s.limit, s.cards) == (base, limit, 1)


def test_explain_says_how_to_read_by_hand() -> None:
    assert dice.explain(dice.spec(10)) == (
        "d10: Rank: A is 1, 2–10 as printed. J, Q, K, Wild: redraw.")
    assert dice.explain(dice.spec(20)) == (
        "d20: Read the card as a d104 — As d52; add 52 if the card is Lower. Wild: redraw. "
        "If the value is above 100, redraw. Then subtract 20 until it is 20 or less.")
    assert "two cards" in dice.explain(dice.spec(500))


@pytest.mark.parametrize("text", ["d1", "d0", "d1001", "dX", "d", "10x", "-4"])
def test_bad_dice_are_refused(text: str) -> None:
    with pytest.raises(BadInput):
        dice.parse_die(text)


def test_roll_redraws_until_a_value() -> None:
    cards = iter([parse_card(x) for x in ("KH", "RW", "7S")])
    r = dice.roll(dice.spec(10), lambda: next(cards))
    assert (r.value, [c.code for c in r.cards], r.redraws) == (7, ["KH^", "RW^", "7S^"], 2)


@pytest.mark.parametrize("n", [109, 200, 997, 1000])
def test_two_card_dice_enumerated_through_the_reader(n: int) -> None:
    s = dice.spec(n)
    counts = Counter(dice.read(s, [h, lo]) for h in OUTCOMES for lo in OUTCOMES)
    assert {counts[v] for v in range(1, n + 1)} == {11664 // n}
    assert counts[None] == 11664 - n * (11664 // n)


def test_die_with_advantage_keeps_the_better_reading(d2d) -> None:
    # 000 l.1122 "Advantage - Reveal another Conflict and take the best result"; l.1178
    # Disadvantage "take the worse result": a die is read twice, the higher (lower) kept.
    # d6 at the table: 5S reads 2 and 2H reads 4 (the first test above reads them alike).
    cards = ["--card", "5S", "--card", "2H"]
    best = d2d.json("fate", "die", "d6", *cards, "--advantage")
    worst = d2d.json("fate", "die", "d6", *cards, "--disadvantage")
    assert [r["value"] for r in best["rolls"]] == [2, 4]
    assert (best["values"], best["kept"], best["advantage"]) == ([4], [1], "advantage")
    assert (worst["values"], worst["kept"], worst["advantage"]) == ([2], [0], "disadvantage")
    both = d2d.json("fate", "die", "d6", "--card", "5S", "--advantage", "--disadvantage")
    assert (both["values"], both["advantage"]) == ([2], "normal")  # they cancel
    res = d2d("fate", "die", "d6", "--card", "5S", "--advantage")
    assert res.exit_code == 0 and "redraw" in res.stdout  # the second reading ran out


def test_advantage_distribution_of_a_d6_is_exact() -> None:
    # Two independent uniform d6 readings, the higher kept: P(k) = (2k - 1) / 36.
    from fractions import Fraction
    from itertools import product

    from d2d_cli.rules.deck import advantage

    counts: dict[int, int] = {}
    for a, b in product(range(1, 7), repeat=2):
        kept = (a, b)[advantage.keep([a, b], advantage.ADVANTAGE, lambda v: v)]
        counts[kept] = counts.get(kept, 0) + 1
    assert {k: Fraction(n, 36) for k, n in counts.items()} == {
        k: Fraction(2 * k - 1, 36) for k in range(1, 7)}
