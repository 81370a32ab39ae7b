"""The policy's exact odds (``policy.win_chance``, issue 40 item 1) are walked once for
each reading of the sides and each difference of Levels: a card side read as its
approach and, where the chart can tiebreak it, its rank; the Levels by their difference
(``conflict.tiebreak`` reads only each side's Level Bonus, 001 l.200 and l.767). Each
answer is checked here against the full walk (``odds.conflict_odds``) asked with the
very sides and Levels given, for every face of the deck, both sides and Levels a fight
meets, under two ``[rules]`` tables that between them give each of the three keys the walk
reads (``conflict_chart``, ``fate_orientation``, ``level_bonus``) both of its values."""

from __future__ import annotations

import pytest

from d2d_cli.rules.assistant import policy
from d2d_cli.rules.deck.cards import full_deck
from d2d_cli.rules.odds.exact import DeckView, Piles, conflict_odds

FACES = [f.code for c in full_deck() for f in (c.flipped(True), c.flipped(False))]
# Levels a fight meets (0-2, a penalty below 0), both ways round, and pairs of one
# difference at other Levels (a wrong reading of the difference would differ there)
LEVELS = ((0, 0), (1, 0), (0, 1), (2, 1), (3, 2), (1, 3), (-1, 1), (2, -1), (4, 0))
RULES = (("001", "color", "001"), ("000", "card", "000"))


def walked(a: str, b: str, la: int, lb: int, rules: tuple[str, str, str]
           ) -> tuple[float, float]:
    """The oracle: the whole walk with the sides and Levels as given, no memory."""
    got = conflict_odds(a, b, Piles.fresh(), DeckView("fresh", 54, 0), level_a=la,
                        level_b=lb, reading=rules[0], fate_orientation=rules[1],
                        level_bonus=rules[2], typed=False)
    both = got.both_win.value
    return got.a_wins.value + both, got.b_wins.value + both


@pytest.mark.parametrize("rules", RULES)
def test_every_face_at_every_level_pair_is_the_full_walk(rules: tuple[str, str, str]
                                                         ) -> None:
    for la, lb in LEVELS:
        assert policy.win_chance("fate", "fate", la, lb, *rules) == walked(
            "fate", "fate", la, lb, rules)
        for face in FACES:
            assert policy.win_chance(face, "fate", la, lb, *rules) == walked(
                face, "fate", la, lb, rules), (face, la, lb)
            assert policy.win_chance("fate", face, la, lb, *rules) == walked(
                "fate", face, la, lb, rules), (face, la, lb)


def test_faces_are_read_alike_only_where_the_walk_cannot_tell_them_apart() -> None:
    """The reading is coarse where it may be — a Fast 7 of Cups and of Swords are one
    walk — and keeps the rank where a tiebreak reads it: two Fast cards of different
    ranks are different walks, and their odds differ at some pair of Levels."""
    alike = policy._sides_alike("001")
    assert alike["7H^"] == alike["7S^"]  # Upper Cups and Swords: Fast (001 chart)
    assert alike["7H^"] != alike["8H^"]  # Fast against Fate's Fast: a tiebreak by rank
    assert any(walked("7H^", "fate", la, lb, RULES[0]) != walked("8H^", "fate", la, lb,
                                                                   RULES[0])
               for la, lb in LEVELS)
    assert len(set(alike.values())) < len(FACES)
    assert alike.get("fate", "fate") == "fate"
