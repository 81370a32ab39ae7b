"""``d2d odds conflict`` with Cover and obstacles (issue 19: "an effect that changes a
roll changes its odds"): the cover-target reveal comes first, as ``d2d conflict`` makes
it — 000 l.333 "IF there is any Cover THEN before Conflict, Reveal Conflict. IF a Suit
corresponds to a surrounding Space THEN that Space is the Target instead"; 001 l.719–720
"Assign Suits to major obstacles. Reveal Fate IF Suit match THEN Target is the obstacle".

The odds are checked against brute force: every sequence of reveals (any card of the
pile, Upper or Lower, the discard shuffled back in when the pile is empty) replayed
through ``conflict.resolve`` itself — the cover card, then A's Fate, then B's, then the
Advantage extras — so an outcome "obstacle" (``Redirected``) and the sides' outcomes on
the cards left must agree exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.rules.combat import conflict
from d2d_cli.rules.combat.situation import Terms
from d2d_cli.rules.deck.cards import Card, full_deck
from d2d_cli.rules.odds import exact as odds
from tests.helpers import Runner, rule_line
from tests.test_odds import ALL, FRESH, SMALL, _Walk, brute, piles, rest

PLAIN_KEYS = ["side_a", "side_b", "level_a", "level_b", "conflict_chart",
              "fate_orientation", "deck", "a_wins", "b_wins", "both_win", "tie", "rank",
              "map"]


def _quoted() -> None:
    """The rule lines this file rests on, as the rule texts print them."""
    assert "IF there is any Cover THEN before Conflict, Reveal Conflict. IF a Suit " \
        "corresponds to a surrounding Space THEN that Space is the Target instead" in \
        rule_line("000", 333)
    assert rule_line("001", 719).strip() == "Assign Suits to major obstacles. Reveal Fate"
    assert rule_line("001", 720).strip() == "IF Suit match THEN Target is the obstacle"


def test_the_rule_lines_are_quoted_as_printed() -> None:
    _quoted()


def _covered_ask(a: str, b: str, obstacles: tuple[str, ...], *, advantage: tuple[str, ...]
                 = (), orient: str = "color", la: int = 0, lb: int = 1
                 ) -> conflict.ConflictAsk:
    return conflict.ask([a, b], {}, level_a=la, level_b=lb, fate_orientation=orient,
                        terms=Terms(cover="25", advantage=advantage), obstacles=obstacles)


def _odds_of(ask: conflict.ConflictAsk, a: str, b: str, p: odds.Piles,
             orient: str = "color") -> odds.ConflictOdds:
    """conflict_odds for ``ask``'s sides as ``odds conflict`` hands them over."""
    sit = ask.situation
    assert sit.cover is not None
    return odds.conflict_odds(
        a, b, p, FRESH, level_a=sit.a.level, level_b=sit.b.level, fate_orientation=orient,
        typed=False, modes=(sit.advantage_a.mode, sit.advantage_b.mode),
        obstacles=ask.obstacles, cover=(sit.cover.side, sit.cover.percent))


def _run(ask: conflict.ConflictAsk) -> Callable[[Callable[[], Card]], Any]:
    def run(reveal: Callable[[], Card]) -> Any:
        got = conflict.resolve(ask, _Walk(reveal))  # type: ignore[arg-type]
        if isinstance(got, conflict.Redirected):
            return ("obstacle", got.target)
        return got.outcome
    return run


def _as_dist(r: odds.ConflictOdds) -> dict[Any, Fraction]:
    assert isinstance(r, odds.CoveredConflictOdds)
    out: dict[Any, Fraction] = {("obstacle", o.target): o.probability.fraction
                                for o in r.obstacles}
    out.update({"a": r.a_wins.fraction, "b": r.b_wins.fraction,
                "both": r.both_win.fraction, "tie": r.tie.fraction,
                "rank": r.rank.fraction})
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("a,b,obstacles,advantage,orient", [
    ("fate", "fate", ("C=rock",), (), "color"),
    ("fast", "fate", ("C=rock", "H=tree"), (), "card"),
    ("QH^", "fate", ("S=wall",), ("b",), "color"),  # B's extra card after its own
    ("fate", "7S^", ("D=cart", "C=rock"), ("a",), "card"),
    ("fast", "strong", ("C=rock",), (), "color"),  # only the cover card is revealed
])
def test_covered_odds_match_every_reveal_through_resolve(
        a: str, b: str, obstacles: tuple[str, ...], advantage: tuple[str, ...],
        orient: str) -> None:
    """Every ordered sequence of distinct cards of a small pile (the jokers included:
    a Wild has no suit, so it names no obstacle), and piles of 1, 3 and 4 cards whose
    later reveals may come from the reshuffled discard, as ``conflict.resolve`` reveals
    them. conflict_odds takes the cover card last when the pile holds every card the
    reveals take (their order does not change their joint chance) and first when a
    reshuffle comes among them: these piles reach both, on either side of the bound."""
    ask = _covered_ask(a, b, obstacles, advantage=advantage, orient=orient)
    assert ask.obstacles and ask.reveals
    for pile, discard in ((SMALL, rest(SMALL)), (["9S"], ["9C", "3S", "KC", "BW"]),
                          (["9S", "KC", "2H"], ["QH", "BW", "7C"]),
                          (["9S", "KC", "2H", "AC"], ["QH", "RW"])):
        want = brute(pile, discard, _run(ask))
        got = _as_dist(_odds_of(ask, a, b, piles(pile, discard), orient))
        assert got == want
        assert sum(got.values()) == 1


def test_covered_odds_on_the_full_deck_match_resolve() -> None:
    """The full deck: every first card (the cover card), every card B reveals after it,
    Upper and Lower, each replayed through conflict.resolve."""
    ask = _covered_ask("7S^", "fate", ("C=rock",))
    want = brute(ALL, [], _run(ask))
    got = _odds_of(ask, "7S^", "fate", odds.Piles.fresh())
    assert _as_dist(got) == want
    assert isinstance(got, odds.CoveredConflictOdds)
    # ♣ are Wands in the Fate deck: 13 of the 54 cards name the rock
    assert got.obstacle.fraction == Fraction(13, 54)


def test_the_sides_reveal_from_the_deck_without_the_cover_card() -> None:
    """Composition: a non-matching first card leaves the plain conflict on the other 53
    (that card now in the discard); a matching one ends it. Over all 54 first cards."""
    ask = _covered_ask("fate", "fate", ("C=rock", "H=tree"))
    got = _as_dist(_odds_of(ask, "fate", "fate", odds.Piles.fresh()))
    want: dict[Any, Fraction] = {}
    sit = ask.situation
    for first in full_deck():
        w = Fraction(1, 54)
        if first.suit in ask.obstacles:
            key = ("obstacle", ask.obstacles[first.suit])
            want[key] = want.get(key, Fraction(0)) + w
            continue
        left = [f for f in ALL if f != first.face]
        plain = odds.conflict_odds("fate", "fate", piles(left, [first.face]), FRESH,
                                   level_a=sit.a.level, level_b=sit.b.level, typed=False)
        assert not isinstance(plain, odds.CoveredConflictOdds)
        for k, p in (("a", plain.a_wins), ("b", plain.b_wins), ("both", plain.both_win),
                     ("tie", plain.tie), ("rank", plain.rank)):
            want[k] = want.get(k, Fraction(0)) + w * p.fraction
    assert got == {k: v for k, v in want.items() if v}
    assert got[("obstacle", "rock")] == got[("obstacle", "tree")] == Fraction(13, 54)


def test_without_obstacles_the_result_is_the_plain_one() -> None:
    """No obstacles, no cover-target reveal (conflict.ask refuses --obstacle without
    --cover): the plain ConflictOdds, its JSON keys as before."""
    got = odds.conflict_odds("fate", "7S^", odds.Piles.fresh(), FRESH, obstacles={})
    assert type(got) is odds.ConflictOdds
    assert list(got.to_json()) == PLAIN_KEYS


# --------------------------------------------------------------------------- the CLI


def test_combat1_odds_show_the_rock_as_the_target(d2d: Runner, tmp_path: Path) -> None:
    """Combat #1: the Goblin Scout has Cover 25% behind the rock at F7 from the
    Archer's Space, so d2d conflict reveals a card for the rock first; odds conflict
    shows that outcome with chance (cards of its suit) / (cards to draw), the rest
    summing to 1 with it."""
    _quoted()
    s = ["--session", tmp_path / "c1.toml"]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")
    r = d2d.json(*s, "odds", "conflict", "Archer:7S^", "Goblin Scout")
    assert (r["map"]["cover"], r["map"]["obstacles"]) == (25, {"C": "the rock at F7"})
    assert (r["cover_side"], r["cover_percent"]) == ("b", 25)
    remaining = r["deck"]["remaining"]
    assert remaining == 54
    clubs = sum(1 for c in full_deck() if c.suit == "wands")
    assert r["obstacle"]["fraction"] == str(Fraction(clubs, remaining)) == "13/54"
    assert r["obstacles"] == [{"suit": "wands", "target": "the rock at F7",
                               "probability": r["obstacle"]}]
    total = sum(Fraction(r[k]["fraction"]) for k in
                ("obstacle", "a_wins", "b_wins", "both_win", "tie", "rank"))
    assert total == 1
    assert list(r)[:len(PLAIN_KEYS)] == PLAIN_KEYS
    # the plain conflict's A wins (5/18 on the full deck) happens only when the rock is
    # not named: less than 41/54 of it, since the first card is gone too
    assert Fraction(r["a_wins"]["fraction"]) < Fraction(5, 18)
    out = d2d.ok(*s, "odds", "conflict", "Archer:7S^", "Goblin Scout")
    assert "a Fate card is revealed first" in out
    assert "the rock at F7 is the target" in out and "13/54" in out
    # d2d conflict makes that reveal: a ♣ names the rock, as the odds say
    c = d2d.json(*s, "conflict", "Archer:7S^", "Goblin Scout", "--card", "3C")
    assert (c["outcome"], c["target"], c["cover"]["card"]["code"][:2]) == (
        "obstacle", "the rock at F7", "3C")


def test_combat1_a_drawn_card_changes_the_obstacle_odds(d2d: Runner,
                                                        tmp_path: Path) -> None:
    """The obstacle's chance is from the deck as it stands: after Fate cards are drawn,
    (♣ left in the pile) / (cards left)."""
    s = ["--session", tmp_path / "c1.toml"]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")
    drawn = d2d.json(*s, "fate", "draw", "5")
    clubs = 13 - sum(1 for c in drawn["cards"] if c["suit"] == "wands")
    r = d2d.json(*s, "odds", "conflict", "Archer:7S^", "Goblin Scout")
    assert r["deck"]["remaining"] == 49
    assert Fraction(r["obstacle"]["fraction"]) == Fraction(clubs, 49)
    assert sum(Fraction(r[k]["fraction"]) for k in
               ("obstacle", "a_wins", "b_wins", "both_win", "tie", "rank")) == 1
