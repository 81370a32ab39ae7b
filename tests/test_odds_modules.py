"""``rules/odds`` as the reveal walk plus one module per kind of odds (issue 26 item 5):
``exact`` still answers every old name with the modules' own objects, and the walk's
seams (categories, one reveal, the reshuffle) hold alone. The odds themselves are tested
against brute force in test_odds.py and test_odds_cover.py."""

from __future__ import annotations

import importlib
from fractions import Fraction
from typing import Any

import pytest

from d2d_cli.errors import BadInput
from d2d_cli.rules.deck.cards import full_deck
from d2d_cli.rules.odds import exact, walk
from d2d_cli.rules.odds import hits as hits_odds

MODULES = ("walk", "conflict", "hits", "dice", "weather", "crit")


def test_exact_reexports_the_modules_own_objects() -> None:
    homes = [importlib.import_module(f"d2d_cli.rules.odds.{m}") for m in MODULES]
    for name in exact.__all__:
        if name == "Probability":
            continue
        owners = [m for m in homes if name in vars(m) and vars(m)[name] is getattr(exact, name)]
        assert owners, f"exact.{name} is none of the odds modules' own"
    # What callers import from exact (commands/odds.py, oracle, policy, bench, tests).
    for name in ("Piles", "DeckView", "conflict_odds", "hits_odds", "die_odds",
                 "weather_odds", "crit_odds", "reveal_odds", "oriented", "ConflictOdds",
                 "CoveredConflictOdds", "HitsOdds", "DieOdds", "WeatherOdds", "CritOdds"):
        assert name in exact.__all__


def test_cards_that_read_the_same_are_one_category() -> None:
    # Read by suit only: 4 suits and the jokers (no suit) — 5 categories, 13 cards each
    # and 2 jokers, whatever their ranks.
    deck = walk.card_counts(c.face for c in full_deck())
    cats = walk._categories(deck, {}, lambda c: [(c.suit, 1)])
    assert sorted(cats.pile) == [2, 13, 13, 13, 13]
    assert cats.discard == (0,) * 5 and cats.common == 1
    # Weights are scaled to one common sum: a card read with weights 1+1 and one with 3.
    cats = walk._categories({"x": 1, "y": 1}, {}, lambda it: [("k", 1), ("l", 1)]
                            if it == "x" else [("k", 3)])
    assert cats.common == 6
    assert cats.keys == [[("k", 3), ("l", 3)], [("k", 6)]]


def _two(state: tuple[Any, ...], key: Any) -> tuple[bool, Any]:
    got = (*state, key)
    return (True, got) if len(got) == 2 else (False, got)


def test_the_walk_reshuffles_the_discard_with_the_cards_revealed() -> None:
    # As fate draw does (rules.deck.fate.Deck.take): the pile {A} runs out after one
    # reveal; the discard {B} and the revealed A are shuffled back in.
    got = walk.reveal_odds({"A": 1}, {"B": 1}, lambda it: [(it, 1)], (), _two)
    assert got == {("A", "A"): Fraction(1, 2), ("A", "B"): Fraction(1, 2)}
    got = walk.reveal_odds({"A": 1, "B": 1}, {}, lambda it: [(it, 1)], (), _two)
    assert got == {("A", "B"): Fraction(1, 2), ("B", "A"): Fraction(1, 2)}


def test_one_reveal_from_every_state() -> None:
    cats = walk._categories({"A": 2, "B": 1}, {}, lambda it: [(it, 1)])
    out: dict[Any, list[int]] = {}
    nxt = walk._reveal_once({(cats.pile, cats.discard, ()): [1, 1]}, cats, _two, False, out)
    assert out == {}  # nothing ends after one reveal
    assert {state: Fraction(*p) for (_, _, state), p in nxt.items()} == {
        ("A",): Fraction(2, 3), ("B",): Fraction(1, 3)}


def test_no_cards_to_reveal() -> None:
    with pytest.raises(BadInput, match="there are no cards to reveal"):
        walk.reveal_odds({}, {}, lambda it: [(it, 1)], (), _two)


def test_a_hand_larger_than_the_pile_takes_the_pile_then_the_reshuffled_deck() -> None:
    # 3 cards, 2 in the pile: both held for sure, 1 drawn from all 54.
    by_rank, draw, pool = hits_odds._hand(exact.Piles(("7S", "QH"), ()), 3)
    assert (draw, pool) == (1, 54)
    assert by_rank["7"] == [1, 4] and by_rank["Q"] == [1, 4] and by_rank["W"] == [0, 2]
    by_rank, draw, pool = hits_odds._hand(exact.Piles(("7S", "QH", "2C"), ()), 2)
    assert (draw, pool, by_rank["7"]) == (2, 3, [0, 1])
