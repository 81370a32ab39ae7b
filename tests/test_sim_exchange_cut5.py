"""The exchange's fifth cut (issue 40 item 1): what a fight reads of a card again and
again is worked out once and kept on the card. Each test checks the kept answer against
the rule written out afresh here (not through the code under test), for every card, and
fails when one card's answer is handed to another; tests/test_sim.py pins whole fights
byte for byte."""

from __future__ import annotations

import pickle

from d2d_cli.rules.deck.cards import Card, full_deck, parse_card

# The deck as the rules deal it (000 "Terms", 001 p.5), written out for the test: the
# letter of each suit, its colour, and the ranks' numbers A=1 ... K=13.
_LETTER = {"wands": "C", "coins": "D", "cups": "H", "swords": "S"}
_COLOUR = {"wands": "black", "coins": "red", "cups": "red", "swords": "black"}
_NUMBER = {r: i for i, r in enumerate(
    ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), 1)}


def _expected(card: Card) -> tuple[str, bool, str, int | None]:
    """A card's face, whether it is a Wild, its colour and its number, from its fields."""
    if card.rank == "W":
        colour = card.wild_color or "black"
        return ("BW" if colour == "black" else "RW"), True, colour, None
    assert card.suit is not None
    return (f"{card.rank}{_LETTER[card.suit]}", False, _COLOUR[card.suit],
            _NUMBER[card.rank])


def _read(card: Card) -> tuple[str, bool, str, int | None]:
    return card.face, card.is_wild, card.color, card.number


def test_what_a_card_keeps_is_its_own_rule_for_each_of_the_108_outcomes() -> None:
    """Every outcome of the Fate deck (54 faces, each Upper and Lower) reads its face,
    Wild, colour and number as the rule gives them — read in one order, then again in
    the other (what one card kept is never another's), and the same read twice."""
    outcomes = [c.flipped(u) for c in full_deck() for u in (True, False)]
    assert len(set(outcomes)) == 108
    first = {c.code: _read(c) for c in outcomes}
    for card in reversed(outcomes):
        assert _read(card) == _expected(card) == first[card.code]
    # each face's two orientations share the face, the colour and the number only
    for card in full_deck():
        up, down = card.flipped(True), card.flipped(False)
        assert up is not down and _read(up) == _read(down)


def test_a_card_built_or_rebuilt_reads_its_own_fields() -> None:
    """A card made outside the deck, one parsed from each notation, a Wild of either
    colour and a card pickled to a worker (rebuilt from its fields only) each read what
    their own fields give, whatever another equal card kept."""
    kept = parse_card("QH^")
    assert _read(kept) == ("QH", False, "red", 12)
    loose = Card("Q", "cups", False)  # not the deck's own object
    assert loose is not kept.flipped(False) and _read(loose) == _expected(loose)
    for text, want in (("10sv", ("10S", False, "black", 10)), ("A♣", ("AC", False, "black", 1)),
                       ("RW", ("RW", True, "red", None)), ("BWv", ("BW", True, "black", None)),
                       ("3 of coins", ("3D", False, "red", 3))):
        card = parse_card(text)
        assert _read(card) == want == _expected(card), text
    kept.__dict__["face"] = "XX"  # what another process could never have kept
    back = pickle.loads(pickle.dumps(kept, -1))
    assert back == kept and back.face == "QH"
