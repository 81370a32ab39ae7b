"""Card notation (DESIGN.md "Cards"; suits per 000 "Conflict > 1) Setup > Suits")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d2d_cli.errors import BadInput
from d2d_cli.rules.deck.cards import all_outcomes, full_deck, parse_card


@pytest.mark.parametrize(("text", "code", "suit", "color", "orientation"), [
    ("QH^", "QH^", "cups", "red", "upper"),
    ("10sv", "10Sv", "swords", "black", "lower"),
    ("A♣", "AC^", "wands", "black", "upper"),
    ("k♦v", "KDv", "coins", "red", "lower"),
    ("7 of wands", "7C^", "wands", "black", "upper"),
    ("JCups", "JH^", "cups", "red", "upper"),
    ("2 spades v", "2Sv", "swords", "black", "lower"),
    ("RW", "RW^", "wild", "red", "upper"),
    ("bwv", "BWv", "wild", "black", "lower"),
])
def test_parse(text: str, code: str, suit: str, color: str, orientation: str) -> None:
    card = parse_card(text)
    assert card.to_json() == {"code": code, "rank": card.rank, "suit": suit, "color": color,
                              "orientation": orientation}


def test_suits_map_to_stats() -> None:
    assert [parse_card(f"A{s}").stat for s in "CDHS"] == ["body", "mind", "will", "speed"]


def test_names_for_people() -> None:
    assert parse_card("QH^").name() == "Q♥ Queen of Cups ↑"
    assert parse_card("10sv").name() == "10♠ 10 of Swords ↓"
    assert parse_card("BW").name() == "Black Wild (joker) ↑"


@pytest.mark.parametrize("bad", ["QX", "", "H", "1", "ZW", "Q^", "10"])
def test_bad_cards(bad: str) -> None:
    with pytest.raises(BadInput, match="e.g. QH"):
        parse_card(bad)


@pytest.mark.parametrize(("bad", "says"), [
    ("11H", "no rank '11': the ranks are A 2–10 J Q K, e.g. 10S"),
    ("ZS", "no rank 'Z'"),
    ("QX", "no suit 'X': the suits are C D H S"),
    ("7Y^", "no suit 'Y'"),
])
def test_a_card_like_word_names_what_is_wrong(bad: str, says: str) -> None:
    """Issue 28 item 4: the rank or the suit that is wrong, by name."""
    with pytest.raises(BadInput) as e:
        parse_card(bad)
    assert says in e.value.message


def test_deck_is_54_and_outcomes_108() -> None:
    assert len({c.face for c in full_deck()}) == 54
    assert len({c.code for c in all_outcomes()}) == 108


@given(st.sampled_from(all_outcomes()))
def test_code_round_trips(card: object) -> None:
    assert parse_card(card.code) == card  # type: ignore[attr-defined]
