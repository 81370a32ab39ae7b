"""The neighbouring systems as data (tables/systems/*.toml), against their texts.

Every expected value is computed here by hand or by enumeration, citing the seed file
and line: 002 = ../shared/seeds/002_278d2c820faaad44.txt, 003 = …/003_5942f35a06013995.txt,
004 = …/004_83d7bea2fb475415.txt.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from d2d_cli.errors import BadInput, NotFound
from d2d_cli.rules.roll import notation as dn
from d2d_cli.rules.roll import systems
from tests.helpers import RULE_TEXTS, rule_line, rule_text

SEED_002, SEED_003, SEED_004 = "002", "003", "004"
line = rule_line


def run(system: str, proc: str, *args: str) -> dn.RollOdds:
    text = systems.expand(systems.load(system).procedure(proc), list(args))
    return dn.odds(dn.parse(text))


def degrees(o: dn.RollOdds) -> dict[int, Fraction]:
    return {r.degrees: r.probability.fraction for r in o.degrees or ()}


def bands(o: dn.RollOdds) -> dict[str, Fraction]:
    return {b.band: b.probability.fraction for b in o.bands or ()}


def test_the_shipped_systems() -> None:
    assert systems.packaged() == ["drgn", "hero", "poker"]
    for name, seed in (("hero", "002"), ("poker", "003"), ("drgn", "004")):
        s = systems.load(name)
        assert s.source.startswith(seed) and s.source == RULE_TEXTS[seed]
        rule_text(seed)  # the text it names is the one beside the checkout


# --------------------------------------------------------------------------- 002


def test_002_advantage_ladder() -> None:
    # l.11: "+2 … roll a d6 Advantage die and add the result"; "-4 … roll a d10
    # Disadvantage die and subtract the result"; d4 → d6 → d8 → d10 → d12.
    assert "+2" in line(SEED_002, 11) and "d6 Advantage die" in line(SEED_002, 11)
    proc = systems.load("hero").procedure("check")
    assert systems.expand(proc, ["--advantage", "2", "--dc", "15"]).startswith(
        "d20 + 0 + d6 vs 15")
    assert "- d10 vs" in systems.expand(proc, ["--advantage=-4", "--dc", "15"])
    ladder = [systems.expand(proc, ["--advantage", str(r), "--dc", "10"]).split()[4]
              for r in range(1, 6)]
    assert ladder == ["d4", "d6", "d8", "d10", "d12"]


def test_002_degrees_and_natural_20_and_1() -> None:
    # l.88: success on total ≥ DC; one degree, plus one per five full points over or
    # under ("DC 10 check with a result of 13 is one degree of success, just as a
    # result of 8 is one degree of failure"); l.100: a 20 is one degree better; l.106: a
    # 1 one degree worse. Skill 0 vs DC 10, by hand over the twenty faces:
    #   1 → 2 degrees of failure, then one worse: −3;   2–5 → −2;   6–9 → −1
    #   10–14 → +1;   15–19 → +2;   20 → +3, then one better: +4
    assert "result of 13 is one degree of success" in line(SEED_002, 88)
    o = run("hero", "check", "--dc", "10")
    assert degrees(o) == {-3: Fraction(1, 20), -2: Fraction(4, 20), -1: Fraction(4, 20),
                          1: Fraction(5, 20), 2: Fraction(5, 20), 4: Fraction(1, 20)}
    assert o.success is not None and o.success.fraction == Fraction(11, 20)
    # l.100: a natural 20 turns a failure into a success: skill 0 vs DC 21
    o = run("hero", "check", "--dc", "21")
    assert o.success is not None and o.success.fraction == Fraction(1, 20)
    assert degrees(o)[1] == Fraction(1, 20)  # 20 vs 21: −1, one better: +1
    # l.106: a natural 1 turns a success into a failure: skill 10 vs DC 11
    o = run("hero", "check", "--skill", "10", "--dc", "11")
    assert o.success is not None and o.success.fraction == Fraction(19, 20)
    # l.90: "up to five degrees"
    assert max(degrees(run("hero", "check", "--skill", "40", "--dc", "1"))) == 5


def test_002_the_text_examples_as_constant_rolls() -> None:
    r13 = dn.roll(dn.parse("13 vs 10 per 5"), __import__("random").Random(0))
    r8 = dn.roll(dn.parse("8 vs 10 per 5"), __import__("random").Random(0))
    assert (r13.success, r13.degrees, r8.success, r8.degrees) == (True, 1, False, -1)


def test_002_fortune_and_misfortune_dice() -> None:
    # l.298: the Fortune die adds 10 when it shows 10 or lower, and the higher die
    # counts; the Misfortune die subtracts 10 when it shows 11 or higher, the lower
    # counts; with both, the middle of the three. Enumerate the real dice: 20 × 20.
    text = line(SEED_002, 298)
    assert "If the result of this die is 10 or lower, you add 10" in text
    assert "use which ever of the three rolls falls in the middle" in text

    def fortune(f: int) -> int:
        return f + 10 if f <= 10 else f

    def misfortune(m: int) -> int:
        return m - 10 if m >= 11 else m

    d20 = range(1, 21)
    for luck, pick in (
        ("fortune", lambda a, f, m: max(a, fortune(f))),
        ("misfortune", lambda a, f, m: min(a, misfortune(m))),
        ("both", lambda a, f, m: sorted([a, fortune(f), misfortune(m)])[1]),
    ):
        nat = Counter(pick(a, f, m) for a, f, m in itertools.product(d20, d20, d20))
        for dc in (8, 15):
            want = sum(n for v, n in nat.items() if v >= dc or v == 20) - sum(
                n for v, n in nat.items() if v == 1 and v >= dc)
            o = run("hero", "check", "--dc", str(dc), "--luck", luck)
            assert o.success is not None
            assert o.success.fraction == Fraction(want, 8000), (luck, dc)
    # the check die alone with Fortune: P(v) for v = 11 is 11/200 (d20 ≤ 11 and the
    # Fortune die showing 1 or 11)
    got = {x.value: x.probability.fraction
           for x in dn.odds(dn.parse("{d20, d{11..20}}kh1")).outcomes}
    assert got[11] == Fraction(11, 200) and min(got) == 11


def test_002_percent() -> None:
    # l.17: "if there's a 45% chance of something, that's a roll of 9 or less on the die"
    assert "that’s a roll of 9 or less" in line(SEED_002, 17)
    assert bands(run("hero", "percent", "--chance", "45")) == {
        "success": Fraction(9, 20), "failure": Fraction(11, 20)}


def test_002_passive() -> None:
    # l.24: "instead of rolling a d20 they simply add 10 to the appropriate Skill ranks"
    o = run("hero", "passive", "--skill", "3")
    assert [(x.value, x.probability.fraction) for x in o.outcomes] == [(13, 1)]


# --------------------------------------------------------------------------- 003


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_003_success_and_benefit_for_1_to_4_cards(n: int) -> None:
    # l.5: success if at least one card shows the skill's suit; l.7: "more than one
    # required symbol" is a benefit; l.18: difficulty 1–4 cards; 13 of 52 per suit.
    assert "more than one required symbol" in line(SEED_003, 7)
    none = Fraction(comb(39, n), comb(52, n))
    one = Fraction(13 * comb(39, n - 1), comb(52, n))
    got = bands(run("poker", "test", "--cards", str(n), "--suit", "spirit"))
    assert got["failure"] == none
    assert got["success"] == one
    assert got.get("success with benefit", 0) == 1 - none - one
    if n == 1:
        assert "success with benefit" not in got


def test_003_difficulty_zero() -> None:
    # l.19: draw one card "and have it be the highest value card of the suit tested"
    assert "highest value card of the suit tested" in line(SEED_003, 19)
    assert bands(run("poker", "long-shot", "--suit", "hearts")) == {
        "failure": Fraction(51, 52), "success": Fraction(1, 52)}


def test_003_five_card_competition() -> None:
    # l.21: each draws 5 cards and counts its suit; most successes wins. Both draw from
    # their own full deck, so the counts are independent hypergeometrics.
    assert "draw 5 cards each" in line(SEED_003, 21)
    h = [Fraction(comb(13, k) * comb(39, 5 - k), comb(52, 5)) for k in range(6)]
    win = sum(h[a] * h[b] for a in range(6) for b in range(6) if a > b)
    draw = sum(h[a] ** 2 for a in range(6))
    got = bands(run("poker", "compete", "--suit", "body", "--rival-suit", "mind"))
    assert got == {"you win": win, "draw": draw, "rival wins": win}


def test_003_skills_name_their_suits() -> None:
    # l.5: Body (♠), Dexterity (♣), Spirit (♥) and Mind (♦)
    assert "Body ( ♠ ), Dexterity ( ♣ ), Spirit ( ♥ ) and Mind ( ♦ )" in line(SEED_003, 5)
    proc = systems.load("poker").procedure("test")
    assert [systems.expand(proc, ["--cards", "1", "--suit", s]).split()[0]
            for s in ("body", "dexterity", "spirit", "mind")] == [
        "1cp=spades", "1cp=clubs", "1cp=hearts", "1cp=diamonds"]


# --------------------------------------------------------------------------- 004


def test_004_risk_it_all_bands() -> None:
    # l.98–102: 1 catastrophic failure; 2–7 one step below; 8–13 normal; 14–19 one
    # step above; 20 instant success.
    assert line(SEED_004, 98).startswith("- On a 1, the outcome is a catastrophic failure")
    assert line(SEED_004, 102).startswith("- On a 20, the outcome is an instant success")
    want = {"catastrophic failure": Fraction(1, 20), "one step below normal": Fraction(6, 20),
            "normal": Fraction(6, 20), "one step above normal": Fraction(6, 20),
            "instant success": Fraction(1, 20)}
    assert bands(run("drgn", "risk")) == want
    assert bands(run("drgn", "close")) == want  # l.131: "follow the chart above"


# --------------------------------------------------------------------------- files


def test_a_table_can_add_its_own_system() -> None:
    data = {"name": "mine", "procedures": {"attack": {
        "expression": "2d6 + $bonus vs 8 -> ..6: miss, 7-9: graze, 10..: hit",
        "params": {"bonus": {"type": "int", "default": 0, "min": -3, "max": 3}}}}}
    s = systems.from_data(data, "mine.toml")
    text = systems.expand(s.procedure("attack"), ["--bonus", "1"])
    assert text == "2d6 + 1 vs 8 -> ..6: miss, 7-9: graze, 10..: hit"
    assert bands(dn.odds(dn.parse(text)))["hit"] == Fraction(10, 36)  # 9+ on 2d6


@pytest.mark.parametrize("data,message", [
    ({}, "name"),
    ({"name": "x"}, "at least one"),
    ({"name": "x", "procedures": {"p": {}}}, "expression"),
    ({"name": "x", "procedures": {"p": {"expression": "d6 + $n"}}}, r"\$n without"),
    ({"name": "x", "procedures": {"p": {"expression": "d6", "params": {"n": {
        "type": "float"}}}}}, "int or choice"),
])
def test_a_bad_system_file_is_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(BadInput, match=message):
        systems.from_data(data, "bad.toml")  # type: ignore[arg-type]


def test_parameters_are_checked() -> None:
    proc = systems.load("hero").procedure("check")
    for args, message in ((["--dc", "x"], "whole number"), (["--dc", "0"], "from 1 to 100"),
                          ([], "needs --dc"), (["--dc", "5", "--luck", "great"], "one of"),
                          (["--dc", "5", "--dc", "6"], "twice"), (["--foo", "1"], "no --foo"),
                          (["15"], "expected --NAME")):
        with pytest.raises(BadInput, match=message):
            systems.expand(proc, args)
    with pytest.raises(NotFound, match="no procedure"):
        systems.load("hero").procedure("attack")
    with pytest.raises(NotFound, match="no system"):
        systems.load("d&d")
