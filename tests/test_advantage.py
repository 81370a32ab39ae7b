"""Advantage and Disadvantage (issue 12 item 3): 000 l.423–424 "Reveal Fate. Use either
of the 2 Conflict cards / Use the worst of the 2", Glossary l.1122 / l.1178 "take the
best / worse result"; their sources (Unskilled, Blessed, Range, Weapon Scale) and how
they cancel (000 l.600–601)."""

from __future__ import annotations

import pytest

from d2d_cli.rules import advantage as adv
from d2d_cli.rules.cards import parse_card
from d2d_cli.rules.fate import OutOfCards, Revealer
from tests.helpers import rule_text


def test_the_rule_lines_quoted_here() -> None:
    t000 = rule_text("000").splitlines()
    assert t000[422] == ("- **Advantage** - IF you have Advantage THEN Reveal Fate. Use "
                         "either of the 2 Conflict cards.")
    assert t000[423] == ("- **Disadvantage** - IF you have Disadvantage THEN Reveal Fate. "
                         "Use the worst of the 2 Conflict cards.")
    assert t000[1121] == "- Advantage - Reveal another Conflict and take the best result."
    assert t000[1177] == ("- Disadvantage - Reveal another Conflict and take the worse "
                          "result.")
    assert t000[1144] == "- Blessed - Status. Advantage on next important Conflict"
    assert t000[599].strip() == ("- Disadvantage - Neither he nor the Scout have Ability to "
                                 "help them, so they will both be at Disadvantage.")
    assert t000[600].strip() == ("- Difficulty - The Disadvantages cancel, so it is a "
                                 "normal Task:Mind vs. Knot:4.")


# --------------------------------------------------------------------------- generic


def test_keep_best_and_worst_first_on_ties() -> None:
    values = [3, 7, 7, 1]
    assert adv.keep(values, adv.ADVANTAGE, lambda v: v) == 1
    assert adv.keep(values, adv.DISADVANTAGE, lambda v: v) == 3
    assert adv.keep(values, adv.NORMAL, lambda v: v) == 0
    assert adv.keep([5, 5], adv.DISADVANTAGE, lambda v: v) == 0


def test_reveal_keep_reveals_one_more_and_keeps_the_best_set() -> None:
    cards = iter([4, 9, 2])
    kept = adv.reveal_keep(lambda: next(cards), 2, adv.ADVANTAGE, sum)
    assert (kept.revealed, kept.kept, kept.cards, kept.dropped) == (
        (4, 9, 2), (0, 1), [4, 9], [2])
    cards = iter([4, 9, 2])
    kept = adv.reveal_keep(lambda: next(cards), 2, adv.DISADVANTAGE, sum)
    assert (kept.cards, kept.dropped) == ([4, 2], [9])
    cards = iter([4])
    assert adv.reveal_keep(lambda: next(cards), 1, adv.NORMAL, sum).cards == [4]


def test_reveal_keep_runs_out_of_table_cards() -> None:
    reveal = Revealer(None, None, [parse_card("5S")])
    with pytest.raises(OutOfCards):
        adv.reveal_keep(reveal, 1, adv.ADVANTAGE, lambda cs: 0)


def _src(mode: str) -> adv.Source:
    return adv.Source("option", mode, "--" + mode, "000 l.423–424")


def test_cancelling_within_a_side_and_across_sides() -> None:
    up, down = _src(adv.ADVANTAGE), _src(adv.DISADVANTAGE)
    assert adv.net([up, down]) == (adv.NORMAL, "1 Advantage and Disadvantage cancel on "
                                               "this side")
    assert adv.net([down, down, up])[0] == adv.DISADVANTAGE
    # 000 l.600–601: both sides at Disadvantage cancel; so do both at Advantage.
    a, b = adv.standings([down], [down], "000 l.600–601")
    assert (a.mode, b.mode) == (adv.NORMAL, adv.NORMAL)
    assert a.cancelled == "both sides at Disadvantage: they cancel (000 l.600–601)"
    a, b = adv.standings([up], [up])
    assert (a.mode, b.mode, a.extra) == (adv.NORMAL, adv.NORMAL, 0)
    a, b = adv.standings([up], [down])
    assert (a.mode, b.mode, a.extra, b.extra) == (adv.ADVANTAGE, adv.DISADVANTAGE, 1, 1)
