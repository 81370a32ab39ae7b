"""The dice and deck notation of ``d2d roll`` (rules/roll/notation/).

Exact distributions are checked against enumerations written here (every outcome of
the dice, with itertools), never against the module's own arithmetic; rolls are
checked with a seeded ``random.Random``. Limits are checked to refuse before work.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.probability import Dist, Probability, keep_highest
from d2d_cli.rules.deck.cards import RANKS, SUITS, Card
from d2d_cli.rules.roll import notation as dn
from d2d_cli.rules.roll.notation import exact as exact_stage


def _no_work(*args: object, **kwargs: object) -> None:
    raise AssertionError("an exact distribution was started: the refusal came too late")


def exact(text: str) -> dict[int, Fraction]:
    return {o.value: o.probability.fraction for o in dn.odds(dn.parse(text)).outcomes}


def enumerate_dice(dice: list[list[int]], f) -> dict[int, Fraction]:  # type: ignore[no-untyped-def]
    """Every joint outcome of independent dice (lists of equally likely faces)."""
    counts: Counter[int] = Counter()
    for combo in itertools.product(*dice):
        counts[f(combo)] += 1
    total = sum(counts.values())
    return {v: Fraction(n, total) for v, n in counts.items()}


# --------------------------------------------------------------------------- exact


@pytest.mark.parametrize("text,dice,f", [
    ("3d6", [range(1, 7)] * 3, sum),
    ("4d6kh3", [range(1, 7)] * 4, lambda c: sum(sorted(c)[1:])),
    ("4d6dl1", [range(1, 7)] * 4, lambda c: sum(sorted(c)[1:])),
    ("5d4kl2", [range(1, 5)] * 5, lambda c: sum(sorted(c)[:2])),
    ("3d8dh1", [range(1, 9)] * 3, lambda c: sum(sorted(c)[:2])),
    ("2d20kh1", [range(1, 21)] * 2, max),
    ("6d6>=5", [range(1, 7)] * 6, lambda c: sum(v >= 5 for v in c)),
    ("5d10kh3>=8", [range(1, 11)] * 5, lambda c: sum(v >= 8 for v in sorted(c)[2:])),
    ("4d6kl2<=2", [range(1, 7)] * 4, lambda c: sum(v <= 2 for v in sorted(c)[:2])),
    ("3d{1,1,2,3}", [[1, 1, 2, 3]] * 3, sum),
    ("4dF", [[-1, 0, 1]] * 4, sum),
    ("d{-2..2}kh1", [[-2, -1, 0, 1, 2]], sum),
    ("2d6 * d4 - 3", [range(1, 7)] * 2 + [range(1, 5)], lambda c: (c[0] + c[1]) * c[2] - 3),
    ("(d6 + d6) / d3", [range(1, 7)] * 2 + [range(1, 4)], lambda c: (c[0] + c[1]) // c[2]),
    ("-d6 / 4", [range(1, 7)], lambda c: -c[0] // 4),
    ("{d20, d{11..20}}kh1", [range(1, 21), range(11, 21)], max),
    ("{d20, d{11..20}, d{1..10}}dh1dl1", [range(1, 21), range(11, 21), range(1, 11)],
     lambda c: sorted(c)[1]),
    ("{2d4, d8}kl1 + 1", [range(1, 5)] * 2 + [range(1, 9)],
     lambda c: min(c[0] + c[1], c[2]) + 1),
])
def test_exact_distribution_matches_enumeration(text: str, dice, f) -> None:  # type: ignore[no-untyped-def]
    assert exact(text) == enumerate_dice([list(d) for d in dice], f)


def test_d_percent_and_fudge() -> None:
    assert exact("d%") == {v: Fraction(1, 100) for v in range(1, 101)}
    assert exact("dF") == {-1: Fraction(1, 3), 0: Fraction(1, 3), 1: Fraction(1, 3)}


def test_explode_with_its_cap_enumerated() -> None:
    # d6!x2: a 6 rolls again, at most twice; a 6 on the last allowed roll stays 6.
    want: Counter[int] = Counter()
    for a, b, c in itertools.product(range(1, 7), repeat=3):
        # each triple of rolls is equally likely; later rolls are unused after a stop
        want[a if a < 6 else 6 + b if b < 6 else 12 + c] += 1
    assert exact("d6!x2") == {v: Fraction(n, 216) for v, n in want.items()}
    # explode on >=5, once
    got = exact("d6!>=5x1")
    assert got[3] == Fraction(1, 6) and got[12] == Fraction(1, 36)  # 6 then 6
    assert got[10] == Fraction(2, 36)  # 5 then 5, or 6 then 4
    assert sum(got.values()) == 1


def test_rerolls_enumerated() -> None:
    # r1: reroll 1s until they are not — the other faces, equally likely
    assert exact("d6r1") == {v: Fraction(1, 5) for v in range(2, 7)}
    # ro<=2: reroll a 1 or 2 once and keep the second roll
    want = enumerate_dice([list(range(1, 7))] * 2, lambda c: c[1] if c[0] <= 2 else c[0])
    assert exact("d6ro<=2") == want


def test_card_terms_enumerated_from_a_poker_deck() -> None:
    poker = [Card(r, s) for s in SUITS for r in RANKS]
    hearts = Counter(sum(c.suit == "cups" for c in hand)
                     for hand in itertools.combinations(poker, 3))
    total = comb(52, 3)
    assert exact("3cp=hearts") == {k: Fraction(n, total) for k, n in hearts.items()}
    ranks = Counter(sum(c.number for c in hand) for hand in itertools.combinations(poker, 2))
    assert exact("2cp") == {k: Fraction(n, comb(52, 2)) for k, n in ranks.items()}
    high = Counter(max(c.number for c in hand) for hand in itertools.combinations(poker, 3))
    assert exact("3cpkh1") == {k: Fraction(n, total) for k, n in high.items()}
    assert exact("1cp=AH") == {0: Fraction(51, 52), 1: Fraction(1, 52)}
    tens = Counter(sum(c.number >= 10 for c in hand) for hand in itertools.combinations(
        poker, 2))
    assert exact("2cp>=10") == {k: Fraction(n, comb(52, 2)) for k, n in tens.items()}


def test_fate_deck_cards_from_the_pile_then_the_reshuffled_deck() -> None:
    # Two cards left (a 5 and a King): 3c reveals both, then one of the 54 reshuffled.
    e = dn.parse("3c")
    got = {o.value: o.probability.fraction
           for o in dn.odds(e, dn.FateCounts(("5H", "KS"))).outcomes}
    faces = [c.number or 0 for c in dn.FATE]
    want = Counter(18 + v for v in faces)
    assert got == {v: Fraction(n, 54) for v, n in want.items()}
    # A pile big enough: sums over pairs of the pile only.
    got = {o.value: o.probability.fraction
           for o in dn.odds(dn.parse("2c"), dn.FateCounts(("5H", "KS", "BW"))).outcomes}
    assert got == {18: Fraction(1, 3), 5: Fraction(1, 3), 13: Fraction(1, 3)}


def test_keep_highest_weights_are_counts() -> None:
    d6 = Dist.of_faces(range(1, 7))
    got = keep_highest(d6, 4, 3, lambda v: v)
    assert got.total == 6**4
    assert got.chance(18) == Fraction(21, 1296)  # 6,6,6 with any fourth (4·5 + 1)


def test_vs_degrees_crit_and_fumble_enumerated() -> None:
    o = dn.odds(dn.parse("d20 + 2 vs 12 per 5 max 5 crit 20 fumble 1"))
    want: Counter[int] = Counter()
    for f in range(1, 21):
        want[dn.degrees(f + 2 - 12, 5, 5, f == 20, f == 1)] += 1
    assert {r.degrees: r.probability.fraction for r in o.degrees or ()} == {
        g: Fraction(n, 20) for g, n in want.items()}
    assert o.success == Probability.of(Fraction(sum(n for g, n in want.items() if g > 0), 20))
    assert o.crit == Probability.of(Fraction(1, 20))
    assert o.fumble == Probability.of(Fraction(1, 20))


def test_opposed_roll_against_a_random_target() -> None:
    o = dn.odds(dn.parse("d6 vs d6"))
    assert o.success == Probability.of(Fraction(21, 36))  # ties go to the roller


def test_degrees_ladder() -> None:
    # 002 l.88: "DC 10 check with a result of 13 is one degree of success, just as a
    # result of 8 is one degree of failure"; every five full points adds a degree.
    assert dn.degrees(13 - 10, 5, None, False, False) == 1
    assert dn.degrees(8 - 10, 5, None, False, False) == -1
    assert dn.degrees(15 - 10, 5, None, False, False) == 2
    assert dn.degrees(5 - 10, 5, None, False, False) == -2
    assert dn.degrees(40, 5, 5, False, False) == 5  # l.90: up to five degrees
    assert dn.degrees(-1, 5, 5, True, False) == 1  # a crit turns one failure degree …
    assert dn.degrees(-6, 5, 5, True, False) == -1  # … into a success, else one step up
    assert dn.degrees(0, 5, 5, False, True) == -1
    assert dn.degrees(24, 5, 5, True, False) == 5


def test_bands_cover_in_order() -> None:
    o = dn.odds(dn.parse("d6 -> 1: low, 2-3: mid, 4..: high"))
    assert [(b.band, b.probability.fraction) for b in o.bands or ()] == [
        ("low", Fraction(1, 6)), ("mid", Fraction(1, 3)), ("high", Fraction(1, 2))]
    o = dn.odds(dn.parse("d6 - 4 -> -3--1: below, 0: even, 1+: above"))
    assert [b.band for b in o.bands or ()] == ["below", "even", "above"]
    o = dn.odds(dn.parse("d6 -> 6: top"))
    assert [(b.band, b.probability.fraction) for b in o.bands or ()] == [
        ("top", Fraction(1, 6)), ("(no band)", Fraction(5, 6))]
    o = dn.odds(dn.parse("d6 -> 6: top, else: rest"))
    assert [b.band for b in o.bands or ()] == ["top", "rest"]


# --------------------------------------------------------------------------- rolling


def test_a_seeded_roll_is_repeatable_and_reads_like_the_dice() -> None:
    e = dn.parse("4d6kh3 + 2[bonus] # stats")
    a, b = dn.roll(e, random.Random(5)), dn.roll(e, random.Random(5))
    assert a == b
    (term,) = a.terms
    assert sum(v for v, k in zip(term.dice, term.kept, strict=True) if k) == term.value
    assert term.kept.count(False) == 1 and min(term.dice) == [
        v for v, k in zip(term.dice, term.kept, strict=True) if not k][0]
    assert a.total == term.value + 2 and a.comment == "stats"


def test_labels_and_term_details() -> None:
    r = dn.roll(dn.parse("d20[attack] + d4[bless]"), random.Random(1))
    assert [t.label for t in r.terms] == ["attack", "bless"]
    assert r.total == sum(t.value for t in r.terms)


def test_roll_vs_reports_margin_degrees_and_naturals() -> None:
    e = dn.parse("d20 + 3 vs 15 per 5 max 5 crit 20 fumble 1")
    for seed in range(40):
        r = dn.roll(e, random.Random(seed))
        nat = r.terms[0].value
        assert r.natural == nat and r.margin == r.total - 15
        assert r.degrees == dn.degrees(r.margin, 5, 5, nat == 20, nat == 1)
        assert r.success == (r.degrees > 0)


def test_roll_band() -> None:
    e = dn.parse("d20 -> 1: fail, 2-19: go, 20: great")
    for seed in range(20):
        r = dn.roll(e, random.Random(seed))
        assert r.band == ("fail" if r.total == 1 else "great" if r.total == 20 else "go")


def test_exploding_roll_respects_the_cap() -> None:
    e = dn.parse("d1!x7")  # a d1 always explodes: the cap is what stops it
    assert dn.roll(e, random.Random(0)).total == 8
    assert exact("d1!x7") == {8: Fraction(1)}


def test_fate_deck_cards_come_from_the_revealer() -> None:
    queue = [Card("Q", "cups"), Card("3", "wands", False)]
    r = dn.roll(dn.parse("2c"), random.Random(0), lambda: queue.pop(0))
    assert r.total == 15 and [c.code for c in r.terms[0].cards] == ["QH^", "3Cv"]
    with pytest.raises(BadInput, match="--card"):
        dn.roll(dn.parse("3c"), random.Random(0), lambda: None)


# --------------------------------------------------------------------------- limits


@pytest.mark.parametrize("text,message", [
    ("", "give an expression"),
    ("d6 > 3", "ambiguous"),
    ("4d6<3", "ambiguous"),
    ("d6r>3", "ambiguous"),
    ("3cp>10", "ambiguous"),
    ("0d6", "1 to 1000 dice"),
    ("1001d6", "1 to 1000 dice"),
    ("100000d6", "1 to 1000 dice"),
    ("d0", "1 to 10000 sides"),
    ("d10001", "1 to 10000 sides"),
    ("d6r<=6", "forever"),
    ("4d6kh5", "keep from 1 to 4"),
    ("4d6dl4", "drop from 0 to 3"),
    ("d6!x101", "cap is 1 to 100"),
    ("1000d6!x100", "could roll"),
    ("d6kh1kh1", "twice"),
    ("55c", "1 to 54 cards"),
    ("53cp", "1 to 52 cards"),
    ("4cpkh2=hearts", "ambiguous"),
    ("d6 +", "ends too early"),
    ("(d6", r"expected \)"),
    ("d6)", "unexpected"),
    ("d6 $", "unexpected character"),
    ("12345678", "may not exceed"),
    ("d6 crit 6 fumble 6", "overlap"),
    ("3 crit 3", "natural value"),
    ("d6 per 5", "unexpected"),
    ("d6 -> 1 fail", "RANGE: LABEL"),
    ("d20 -> 5-2: x", "runs upwards"),
    ("1000000 * 1000000 * 2", "could pass"),
    ("d{1..1000}", "at most 100"),
    ("x" * 1001, "1001 characters"),
])
def test_refused_before_any_work(text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        dn.parse(text)


def test_nesting_is_bounded_without_recursion_errors() -> None:
    ok = "(" * dn.MAX_DEPTH + "d6" + ")" * dn.MAX_DEPTH
    assert dn.parse(ok).expr.hi == 6
    for depth in (dn.MAX_DEPTH + 1, 400, 499):
        with pytest.raises(BadInput, match="nested"):
            dn.parse("(" * depth + "1" + ")" * depth)
    with pytest.raises(BadInput, match="characters"):
        dn.parse("(" * 10_000 + "1" + ")" * 10_000)
    # long flat chains are flat lists, not deep trees
    chain = "+".join(["1"] * 100)
    assert dn.roll(dn.parse(chain), random.Random(0)).total == 100
    neg = "-" * 990 + "3"
    assert dn.roll(dn.parse(neg), random.Random(0)).total == 3


def test_too_many_atoms() -> None:
    with pytest.raises(BadInput, match="more than 100"):
        dn.parse("+".join(["d6"] * 101))


@pytest.mark.parametrize("text", ["1000d6kh999", "1000d1000", "500d100kh250",
                                  "{d100, d100, d100, d100, d100}kh2", "100d6!x10",
                                  "20d20 * 20d20 * 20d20"])
def test_big_exact_odds_are_refused_before_any_work(text: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimate refuses them before a distribution is built (bench/bench_roll.py
    measures how long that takes; no test times it)."""
    e = dn.parse(text)
    monkeypatch.setattr(exact_stage, "_Odds", _no_work)
    with pytest.raises(BadInput, match="too much work|distinct totals|joint outcomes"):
        dn.odds(e)


def test_odds_refuse_two_fate_terms_and_zero_divisors() -> None:
    with pytest.raises(BadInput, match="one term"):
        dn.odds(dn.parse("2c + 3c"))
    with pytest.raises(BadInput, match="divisor can be zero"):
        dn.odds(dn.parse("d6 / (d2 - 1)"))
    with pytest.raises(BadInput, match="division by zero"):
        for seed in range(50):
            dn.roll(dn.parse("d6 / (d2 - 1)"), random.Random(seed))


def test_the_largest_pool_is_exact() -> None:
    o = dn.odds(dn.parse("100d6kh99"))  # bench/bench_roll.py measures it (~0.1 s)
    assert o.outcomes[0] == dn.Outcome(99, Probability.of(Fraction(1, 6**100)))
    # 594: at least 99 sixes — all 100, or 99 and one of five other faces anywhere
    assert o.outcomes[-1] == dn.Outcome(594, Probability.of(Fraction(1 + 100 * 5, 6**100)))
    assert sum(x.probability.fraction for x in o.outcomes) == 1
