"""Deck odds (rules/odds/exact.py, ``d2d odds``) against brute force.

The brute force here walks every sequence of reveals the way the deck makes them —
any card of the draw pile, Upper or Lower, the discard shuffled back in when the pile
is empty — and runs the real rule function (``conflict.resolve``, ``dice.roll``,
``weather.wind``, ``crits.find_crit``, ``hits.count_hits``) on each. The odds must
equal it exactly, and must not change when the hidden order of the pile does.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.combat import conflict, crits, hits
from d2d_cli.rules.deck import dice
from d2d_cli.rules.deck.cards import Card, full_deck, parse_card
from d2d_cli.rules.odds import exact as odds
from d2d_cli.rules.time import weather

FRESH = odds.DeckView("fresh", 54, 0)
ALL = sorted(c.face for c in full_deck())


class _Branch(Exception):
    def __init__(self, n: int) -> None:
        self.n = n


def brute(pile: list[str], discard: list[str], run: Callable[[Callable[[], Any]], Any],
          *, oriented: bool = True, card: Callable[[str], Any] = parse_card
          ) -> dict[Any, Fraction]:
    """Every reveal sequence from ``pile`` (then the reshuffled discard), by replay."""
    out: dict[Any, Fraction] = {}
    stack: list[list[tuple[int, bool]]] = [[]]
    while stack:
        prefix = stack.pop()
        state = {"pile": list(pile), "discard": list(discard), "i": 0, "p": Fraction(1)}

        def reveal(prefix: list[tuple[int, bool]] = prefix,
                   state: dict[str, Any] = state) -> Any:
            if not state["pile"]:
                state["pile"], state["discard"] = state["discard"], []
            if state["i"] == len(prefix):
                raise _Branch(len(state["pile"]))
            idx, up = prefix[state["i"]]
            state["i"] += 1
            state["p"] *= Fraction(1, len(state["pile"]) * (2 if oriented else 1))
            face = state["pile"].pop(idx)
            state["discard"].append(face)
            c = card(face)
            return c.flipped(up) if oriented else c

        try:
            got = run(reveal)
        except _Branch as b:
            for idx in range(b.n):
                for up in ((True, False) if oriented else (True,)):
                    stack.append([*prefix, (idx, up)])
            continue
        out[got] = out.get(got, 0) + state["p"]
    return out


def piles(pile: list[str], discard: list[str]) -> odds.Piles:
    return odds.Piles(tuple(sorted(pile)), tuple(sorted(discard)))


def rest(pile: list[str]) -> list[str]:
    return [f for f in ALL if f not in pile]


# --------------------------------------------------------------------------- conflict

SMALL = ["7S", "7C", "QH", "AS", "2D", "RW"]


class _Walk:
    """The brute-force walk's reveal, with the Revealer's ``reshuffled`` flag."""

    reshuffled = False

    def __init__(self, reveal: Callable[[], Card]) -> None:
        self.reveal = reveal

    def __call__(self) -> Card:
        return self.reveal()


@pytest.mark.parametrize("a,b,la,lb,orient,reading", [
    ("fate", "fate", 0, 0, "color", "001"),
    ("fate", "fate", 2, 0, "card", "001"),
    ("fate", "7S^", 0, 3, "card", "000"),
    ("QH^", "fate", 1, 0, "color", "001"),
    ("fast", "fate", 0, 0, "card", "001"),
])
def test_conflict_odds_match_every_reveal(a: str, b: str, la: int, lb: int, orient: str,
                                          reading: str) -> None:
    ask = conflict.ask([a, b], {}, level_a=la, level_b=lb, reading=reading,
                       fate_orientation=orient)

    def run(reveal: Callable[[], Card]) -> str:
        walk: Any = _Walk(reveal)
        return conflict.resolve(ask, walk).outcome

    for pile in (SMALL, ["9S"]):  # the second: B's card comes from the reshuffle
        discard = rest(pile) if pile == SMALL else ["9C", "3S", "KC", "BW"]
        want = brute(pile, discard, run)
        got = odds.conflict_odds(a, b, piles(pile, discard), FRESH, level_a=la, level_b=lb,
                                 reading=reading, fate_orientation=orient)
        assert {"a": got.a_wins, "b": got.b_wins, "both": got.both_win, "tie": got.tie,
                "rank": got.rank} == {k: odds.Probability.of(want.get(k, 0))
                                      for k in ("a", "b", "both", "tie", "rank")}


def test_conflict_fate_fate_from_a_full_deck() -> None:
    # By colour: ♣ Strong, ♠ Fast, ♥ Block, ♦ Counter, jokers Wild. Count the pairs of
    # distinct cards by hand: A wins when (A, B) is Strong–Block, Strong–Counter,
    # Fast–Strong, Block–Fast, Block–Wild, Counter–Fast, Counter–Wild, Wild–Fast,
    # Wild–Strong (13·13 each, 13·2 or 2·13 with a Wild), or a rank win inside ♣–♣ or
    # ♠–♠ (13·12/2 pairs each, no equal ranks in one deck).
    n = {"strong": 13, "fast": 13, "block": 13, "counter": 13, "wild": 2}
    beats = [("strong", "block"), ("strong", "counter"), ("fast", "strong"),
             ("block", "fast"), ("block", "wild"), ("counter", "fast"), ("counter", "wild"),
             ("wild", "fast"), ("wild", "strong")]
    wins = sum(n[x] * n[y] for x, y in beats) + 2 * (13 * 12 // 2)
    got = odds.conflict_odds("fate", "fate", odds.Piles.fresh(), FRESH)
    assert got.a_wins.fraction == got.b_wins.fraction == Fraction(wins, 54 * 53)
    assert got.both_win.fraction == 0
    assert got.tie.fraction == 1 - 2 * Fraction(wins, 54 * 53)


def test_conflict_without_fate_sides_is_certain() -> None:
    # Fast 7 vs Fast 9 with Level Bonus 3 for A: A's 7 counts as 4, which beats 9
    got = odds.conflict_odds("7S^", "9S^", odds.Piles.fresh(), FRESH, level_a=3)
    assert got.a_wins.fraction == 1
    got = odds.conflict_odds("7S^", "7H^", odds.Piles.fresh(), FRESH)
    assert got.both_win.fraction == 1
    got = odds.conflict_odds("strong", "block", odds.Piles.fresh(), FRESH)
    assert got.a_wins.fraction == 1
    got = odds.conflict_odds("fast", "fast", odds.Piles.fresh(), FRESH)
    assert got.rank.fraction == 1


# --------------------------------------------------------------------------- dice


@pytest.mark.parametrize("n", [2, 4, 6, 8, 10, 13, 16, 20, 42, 108])
def test_die_odds_match_every_reveal(n: int) -> None:
    spec = dice.spec(n)

    def run(reveal: Callable[[], Card]) -> int | None:
        return dice.roll(spec, reveal).value

    pile = ["JS", "BW", "3H", "KC", "10D"]
    discard = ["RW", "QS", "7C"]
    want = brute(pile, discard, run)
    got = odds.die_odds(n, piles(pile, discard), FRESH)
    assert {r.value: r.probability.fraction for r in got.values} == want


def test_die_odds_from_a_full_deck_are_uniform() -> None:
    for n in (6, 10, 52, 108):
        got = odds.die_odds(n, odds.Piles.fresh(), FRESH)
        assert {r.probability.fraction for r in got.values} == {Fraction(1, n)}


def test_a_die_whose_redraw_depends_on_orientation_is_not_quite_uniform() -> None:
    # d100 reads a card as a d104 and redraws 101–104: the Lower side of 10♠ J♠ Q♠ K♠.
    # A redrawn card leaves the pile and takes its Upper value (49–52) with it, so from
    # a real deck 49–52 come up a little less often than 1/100. (dice.py's uniformity
    # test counts outcomes as if each reveal were independent; odds follow the deck.)
    got = {r.value: r.probability.fraction
           for r in odds.die_odds(100, odds.Piles.fresh(), FRESH).values}
    assert sum(got.values()) == 1 and len(got) == 100
    assert sorted(v for v, p in got.items() if p < Fraction(1, 100)) == [49, 50, 51, 52]
    assert all(abs(p - Fraction(1, 100)) < Fraction(1, 5000) for p in got.values())


def test_two_card_dice_are_refused() -> None:
    with pytest.raises(BadInput, match="two cards"):
        odds.die_odds(200, odds.Piles.fresh(), FRESH)


@pytest.mark.parametrize("n", range(2, 109))
def test_every_one_card_die_returns_or_is_refused(n: int) -> None:
    try:
        got = odds.die_odds(n, odds.Piles.fresh(), FRESH)
        assert sum(r.probability.fraction for r in got.values) == 1
    except BadInput as e:
        assert "one side only" in str(e)


# --------------------------------------------------------------------------- weather


def test_weather_odds_match_every_reveal() -> None:
    # Small enough to walk every sequence: one high card, one Wild, one reshuffle.
    pile = ["KS", "3C", "BW", "5H"]
    discard = ["2S"]

    def run(reveal: Callable[[], Card]) -> tuple[str, int]:
        w = weather.wind(reveal)
        assert w is not None
        return w.direction, w.speed_kph

    want = brute(pile, discard, run)
    got = odds.weather_odds(piles(pile, discard), FRESH)
    dirs: dict[str, Fraction] = {}
    speeds: dict[int, Fraction] = {}
    for (d, s), p in want.items():
        dirs[d] = dirs.get(d, 0) + p
        speeds[s] = speeds.get(s, 0) + p
    assert {r.direction: r.probability.fraction for r in got.direction} == dirs
    assert {r.speed_kph: r.probability.fraction for r in got.speed} == speeds


def test_weather_speed_from_a_full_deck_matches_the_closed_form() -> None:
    got = odds.weather_odds(odds.Piles.fresh(), FRESH)
    closed = {k: p for k, p in weather.speed_distribution().items() if p}
    assert {r.speed_kph: r.probability.fraction for r in got.speed} == closed
    assert {r.probability.fraction for r in got.direction} == {Fraction(1, 8)}


# --------------------------------------------------------------------------- crits

CHART = crits.chart("person", {"person": {"locations": [
    {"key": "head", "cards": 1}, {"key": "torso", "cards": 2}]}})


def test_crit_location_odds_match_every_draw() -> None:
    cards = crits.deck_cards("wound", CHART)  # 4 types × 3 cards
    pile, discard = cards[:5], cards[5:]
    for types in (["pierce"], ["bash", "slash"], []):
        def run(draw: Callable[[], str], types: list[str] = types) -> str | None:
            return crits.find_crit(draw, types, limit=len(cards))[0]

        want = brute(pile, discard, run, oriented=False, card=str)
        locs: dict[str, Fraction] = {}
        for card, p in want.items():
            assert card is not None
            loc = card.split("@")[1]
            locs[loc] = locs.get(loc, 0) + p
        got = odds.crit_odds(power=crits.power_rating("6x1", None, None), armor=None,
                             hits_before=2, deck="wound", types=types, ch=CHART,
                             state={"draw": pile, "discard": discard}, fresh=False)
        assert {r.location: r.probability.fraction for r in got.locations} == locs
        # No armor: the 6x1 Power adds +2 (001 l.926–936, level 6 > 0, scale 1 ≥ 0).
        assert {r.severity for r in got.locations} == {crits.severity(4).level} == {"extreme"}


def test_crit_odds_fresh_deck_follow_the_chart() -> None:
    ch = crits.chart("person")
    got = odds.crit_odds(power=crits.power_rating("2x4", None, None),
                         armor=crits.Armor("option", crits.power_rating("9x1", None, None)),
                         hits_before=2, deck="wound", types=["pierce"], ch=ch, state=None,
                         fresh=True)
    # 001 l.936's own example: 2x4 against 9x1 is Hits +3 → 5: Extreme, one light damage.
    assert {(r.hits, r.severity, r.light_damage) for r in got.locations} == {(5, "extreme", 1)}
    assert [(s.severity, s.probability.fraction) for s in got.severities] == [("extreme", 1)]
    assert got.light == "fatigue"
    per = {k: Fraction(n, 12) for k, _, n in ch.locations}
    assert {r.location: r.probability.fraction for r in got.locations} == per


# --------------------------------------------------------------------------- hits


def best_play(hand: list[Card], level: int, rival: int, difficulty: int) -> tuple[int, ...]:
    """Try every ordered subset of the hand with count_hits (the lead turned Upper)."""
    best: tuple[int, ...] | None = None
    for r in range(1, len(hand) + 1):
        for combo in itertools.permutations(hand, r):
            cards = [combo[0].flipped(True), *combo[1:]]
            try:
                got = hits.count_hits(cards, level=level, rival_level=rival,
                                      difficulty=difficulty)
            except RuleViolation:
                continue
            key = (got.hits, 0 if got.glancing else 1, got.discard_takes, -r)
            best = key if best is None or key > best else best
    return best or (0, 0, 0, 0)


@pytest.mark.parametrize("pile,n,level,rival,diff", [
    (["2S", "3H", "4C", "QS", "QD", "BW", "9H"], 3, 1, 0, 3),
    (["AS", "AH", "AC", "KS", "5D", "6D", "7D", "RW"], 4, 0, 2, 5),
    (["10S", "JS", "2C", "BW", "RW"], 2, 3, 0, 9),
])
def test_hits_odds_match_every_hand(pile: list[str], n: int, level: int, rival: int,
                                    diff: int) -> None:
    dist: dict[int, Fraction] = {}
    glancing = combo = Fraction(0)
    hands = list(itertools.combinations(pile, n))
    for hand in hands:
        key = best_play([parse_card(f) for f in hand], level, rival, diff)
        p = Fraction(1, len(hands))
        dist[key[0]] = dist.get(key[0], 0) + p
        glancing += p if key[0] and key[1] == 0 else 0
        combo += p if -key[3] > 1 else 0
    got = odds.hits_odds(n, piles(pile, rest(pile)), FRESH, level=level, rival_level=rival,
                         difficulty=diff)
    assert {r.hits: r.probability.fraction for r in got.distribution} == dist
    assert got.glancing.fraction == glancing and got.combo.fraction == combo


def test_hits_odds_when_the_pile_runs_short() -> None:
    # One card left: the hand is that card and two of the reshuffled 54.
    pile = ["QS"]
    dist: dict[int, Fraction] = {}
    pairs = list(itertools.combinations(ALL, 2))
    for pair in pairs:
        hand = [parse_card(f) for f in (*pile, *pair)]
        h = best_play(hand, 0, 0, 5)[0]
        dist[h] = dist.get(h, 0) + Fraction(1, len(pairs))
    got = odds.hits_odds(3, piles(pile, rest(pile)), FRESH, level=0, rival_level=0,
                         difficulty=5)
    assert {r.hits: r.probability.fraction for r in got.distribution} == dist
    assert len(pairs) == comb(54, 2)


def test_hits_hand_size_is_bounded() -> None:
    with pytest.raises(BadInput, match="1 to 10"):
        odds.hits_odds(11, odds.Piles.fresh(), FRESH, level=0, rival_level=0, difficulty=2)


# --------------------------------------------------------------------------- hidden order


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.randoms(use_true_random=False))
def test_odds_never_depend_on_the_hidden_order(d2d: Any, tmp_path_factory: Any,
                                               rnd: random.Random) -> None:
    path = tmp_path_factory.mktemp("order") / "s.toml"
    d2d.ok("--session", path, "--seed", "4", "fate", "draw", "20")
    before = {cmd: d2d.json("--session", path, "odds", *cmd.split())
              for cmd in ("conflict fate fate", "die d10", "weather", "hits 3 --vs 4")}
    text = path.read_text()
    import tomllib

    data = tomllib.loads(text)
    order = list(data["fate"]["draw"])
    shuffled = [c[:-1] + rnd.choice("^v") for c in order]
    rnd.shuffle(shuffled)
    new_text = text.replace(json.dumps(order), json.dumps(shuffled))
    if new_text == text:  # tomlkit may wrap the array: rewrite the line by key
        import re

        new_text = re.sub(r"(?ms)^draw = \[.*?\]", "draw = " + json.dumps(shuffled), text,
                          count=1)
    path.write_text(new_text)
    assert tomllib.loads(path.read_text())["fate"]["draw"] == shuffled
    for cmd, want in before.items():
        assert d2d.json("--session", path, "odds", *cmd.split()) == want
