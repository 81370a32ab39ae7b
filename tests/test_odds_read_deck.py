"""A conflict's odds walk reads the piles into categories once for each reading of a card
(``rules.odds.conflict._read_deck``: the piles' faces, the Fate orientation, whether
ranks count, the approaches a tiebreak compares by rank) — the policy asks a fresh deck
for every new pair of sides and Levels (issue 40 item 1). Each walk is the one the walk
gives reading the piles afresh, as it did before (``walk.reveal_odds`` with the
procedure's own reading), whichever walk filled the memory first."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from d2d_cli.rules.combat import conflict
from d2d_cli.rules.deck.cards import full_deck
from d2d_cli.rules.odds import conflict as odds
from d2d_cli.rules.odds.walk import Piles, card_counts, oriented, reveal_odds

FACES = [c.flipped(u).code for c in full_deck() for u in (True, False)]


def procedure(side_a: str, side_b: str, difference: int, reading: str, orientation: str,
              modes: tuple[str, str]) -> Any:
    return odds._Procedure([conflict.parse_side(side_a), conflict.parse_side(side_b)],
                           max(difference, 0), max(-difference, 0), reading, orientation,
                           "001", modes)


def walked_afresh(proc: Any, piles: Piles) -> dict[Any, Fraction]:
    """The walk as it read the piles before: ``reveal_odds`` with the procedure's own
    reading of each card, nothing remembered."""
    reveals = proc.reveals

    def step(state: tuple[Any, ...], k: Any) -> tuple[bool, Any]:
        got = (*state, k)
        return (True, proc.outcome(got)) if len(got) == reveals else (False, got)

    return reveal_odds(card_counts(piles.pile), card_counts(piles.discard),
                       oriented(proc.key), (), step)


def test_every_walk_is_the_one_read_afresh_whatever_filled_the_memory() -> None:
    """Faces against Fate and Fate against them, Fate against Fate and against a bare
    approach, at two Level differences, both charts and both Fate orientations, normal
    and with Advantage (ranks then count against a bare approach), on a fresh deck and
    on a deck part drawn: each walk equals the
    one that reads the piles afresh, asked in an order that mixes every reading (a
    memory kept by less than all it reads would give one reading's categories to
    another)."""
    deck = list(full_deck())
    drawn = Piles.of(deck[:20], deck[20:31])
    odds._read_deck.cache_clear()
    walks = 0
    for piles in (Piles.fresh(), drawn):
        for reading in ("001", "000"):
            for orientation in ("color", "card"):
                for modes in (("normal", "normal"), ("advantage", "normal")):
                    for side in ("fate", "fast", *FACES[::23]):
                        for a, b in ((side, "fate"), ("fate", side)):
                            for difference in (-1, 2):
                                proc = procedure(a, b, difference, reading, orientation,
                                                 modes)
                                fresh = procedure(a, b, difference, reading, orientation,
                                                  modes)
                                assert proc.walk(piles) == walked_afresh(fresh, piles)
                                assert proc.rep == fresh.rep  # a card of each key alike
                                walks += 1
    info = odds._read_deck.cache_info()
    # the piles, the orientation, and whether ranks count (a bare approach with an
    # Advantage card: "fast") each read apart
    assert walks > 400 and info.hits > 400 and info.currsize == 8


def test_a_drawn_deck_is_never_read_as_the_fresh_one() -> None:
    """The same sides and Levels on a fresh deck, then on the deck with cards drawn: the
    second walk reads the piles it is given (other chances), not the fresh deck's."""
    odds._read_deck.cache_clear()
    deck = list(full_deck())
    drawn = Piles.of(deck[:10], deck[10:40])
    fresh = procedure("fate", "7C^", 1, "001", "color", ("normal", "normal"))
    first = fresh.walk(Piles.fresh())
    proc = procedure("fate", "7C^", 1, "001", "color", ("normal", "normal"))
    second = proc.walk(drawn)
    assert second != first
    assert second == walked_afresh(procedure("fate", "7C^", 1, "001", "color",
                                             ("normal", "normal")), drawn)
