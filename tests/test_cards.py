"""Card notation (DESIGN.md "Cards"; suits per 000 "Conflict > 1) Setup > Suits")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d2d_cli.errors import BadInput
from d2d_cli.rules.deck.cards import Card, all_outcomes, full_deck, parse_card


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


def test_what_a_card_keeps_is_its_own() -> None:
    """A card's notation, hash and two faces are kept on the card once read (a fight
    reads them hundreds of times): each is what the card's four fields give, on a card
    built afresh as on the deck's own, and never another card's."""
    from d2d_cli.rules.deck.cards import Card, _code

    outcomes = all_outcomes()
    for card in outcomes:
        fresh = Card(card.rank, card.suit, card.upper, card.wild_color)
        assert fresh is not card
        fields = (card.rank, card.suit, card.upper, card.wild_color)
        for c in (card, fresh, card):  # twice on the deck's card: kept, then read again
            assert c.code == _code(*fields)
            assert hash(c) == hash(fields)  # the hash a record of these fields has
            for upper in (True, False):
                turned = c.flipped(upper)
                assert (turned.rank, turned.suit, turned.upper, turned.wild_color) == \
                    (card.rank, card.suit, upper, card.wild_color)
        assert fresh == card and {fresh: 1}[card] == 1
        assert repr(fresh) == (f"Card(rank={card.rank!r}, suit={card.suit!r}, "
                               f"upper={card.upper!r}, wild_color={card.wild_color!r})")
    # 108 different outcomes: 108 notations, 108 kept hashes, each face its own card
    assert len({c.code for c in outcomes}) == len({hash(c) for c in outcomes}) == 108
    assert len({c.flipped(u) for c in outcomes for u in (True, False)}) == 108


def test_a_pickled_card_brings_no_kept_hash() -> None:
    """A hash belongs to its process (text hashes are salted per process): a card
    pickled to a worker is rebuilt from its fields, not from what it kept."""
    import pickle

    card = parse_card("QH^")
    card.__dict__["_hash"] = hash(card) + 1  # as another process's salt would give
    back = pickle.loads(pickle.dumps(card, -1))
    assert back == card
    assert hash(back) == hash(("Q", "cups", True, None))
    del card.__dict__["_hash"]  # the deck's card read afresh
    assert hash(card) == hash(back)


def test_only_a_b_or_an_r_is_read_as_a_joker_and_other_cards_never_ask() -> None:
    # Issue 40: a card that cannot be a joker no longer compiles the joker pattern. The
    # short cut on the first character is the pattern's own judgement, over every code
    # point (case-insensitive matching maps no other character onto b or r).
    from d2d_cli.rules.deck import cards

    wild = cards._wild_re()
    first = {c for c in map(chr, range(0x110000)) if wild.match(c + "w")}
    assert first == cards._WILD_FIRST
    assert all(wild.match(c + rest) for c in first for rest in ("W^", "wv", "w ^"))
    cards._wild_re.cache_clear()
    assert parse_card("7S^") == Card("7", "swords", True) and parse_card("qh") == \
        Card("Q", "cups", True)
    assert cards._wild_re.cache_info().currsize == 0
    assert parse_card("rw").is_wild and parse_card("Bw v").is_wild


def test_the_full_deck_is_each_callers_own_list_of_the_same_54_faces() -> None:
    """``full_deck`` builds its Cards once: each call still gives a list of its own, in
    the fixed order (suits, ranks, then BW, RW), whatever a caller did to the last one."""
    first = full_deck()
    codes = [c.code for c in first]
    assert len(codes) == 54 and len(set(codes)) == 54
    assert codes[:2] == ["AC^", "2C^"] and codes[-2:] == ["BW^", "RW^"]
    first.reverse()
    first.pop()
    again = full_deck()
    assert again is not first and [c.code for c in again] == codes
