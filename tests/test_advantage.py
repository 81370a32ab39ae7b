"""Advantage and Disadvantage (issue 12 item 3): 000 l.423–424 "Reveal Fate. Use either
of the 2 Conflict cards / Use the worst of the 2", Glossary l.1122 / l.1178 "take the
best / worse result"; their sources (Unskilled, Blessed, Range, Weapon Scale) and how
they cancel (000 l.600–601)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli.rules.combat import conflict
from d2d_cli.rules.combat.situation import Terms
from d2d_cli.rules.deck import advantage as adv
from d2d_cli.rules.deck.cards import all_outcomes, parse_card
from d2d_cli.rules.deck.fate import OutOfCards, Revealer
from tests.helpers import rule_text, with_rules
from tests.unit_board import load_board


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


# --------------------------------------------------------------------------- conflict


def test_fate_side_with_advantage_keeps_the_best(d2d: Any) -> None:
    # Two Fate cards for the fate side (A first): 4♥ turns Lower, Block (loses to
    # Strong); 9♠ stays Upper, Fast (beats Strong). Advantage keeps the win.
    r = d2d.json("conflict", "fate", "strong", "--advantage", "a", "--card", "4H",
                 "--card", "9S")
    assert (r["approach_a"], r["outcome"], r["side_a"]["set_aside"]) == ("fast", "a", "4Hv")
    assert [c["code"] for c in r["side_a"]["revealed"]] == ["4Hv", "9S^"]
    r = d2d.json("conflict", "fate", "strong", "--disadvantage", "a", "--card", "4H",
                 "--card", "9S")
    assert (r["approach_a"], r["outcome"], r["side_a"]["set_aside"]) == (
        "block", "b", "9S^")


def test_card_side_with_advantage_reveals_one_fate(d2d: Any) -> None:
    # 000 l.423 "IF you have Advantage THEN Reveal Fate. Use either of the 2 Conflict
    # cards": the player's 3♠ (Fast) or the Fate card (K♣, Strong by colour) against
    # the Rival's Evade: Fast wins, Strong loses.
    r = d2d.json("conflict", "3S^", "evade", "--advantage", "a", "--card", "KC")
    assert (r["side_a"]["card"]["code"], r["outcome"], r["side_a"]["set_aside"]) == (
        "3S^", "a", "KC^")
    # Equal results: the card scoring more Hits (a royal always Hits, 001 l.836).
    r = d2d.json("conflict", "3S^", "strong", "--advantage", "a", "--card", "KS")
    assert (r["side_a"]["card"]["code"], r["side_a"]["set_aside"]) == ("KS^", "3S^")


def test_both_sides_opposite_favour_the_same_side(d2d: Any) -> None:
    # A with Advantage, B with Disadvantage: A keeps its best, B its worst — the pair
    # best for A. Cards in order: A's extra, B's Fate, B's extra.
    r = d2d.json("conflict", "7S^", "fate", "--advantage", "a", "--disadvantage", "b",
                 "--card", "4H", "--card", "9C", "--card", "2D")
    # A: 7♠ Fast or 4♥ Block; B: 9♣ Strong or 2♦ Counter. Fast beats Strong: A wins.
    assert (r["approach_a"], r["approach_b"], r["outcome"]) == ("fast", "strong", "a")
    assert (r["side_a"]["set_aside"], r["side_b"]["set_aside"]) == ("4Hv", "2Dv")


def test_advantage_human_output(d2d: Any) -> None:
    out = d2d.ok("--why", "conflict", "fate", "strong", "--advantage", "a", "--card", "4H",
                 "--card", "9S")
    assert out == (
        "A: Fast (9♠ 9 of Swords ↑)   vs   B: Strong\n"
        "  A's Fate 4♥ 4 of Cups ↑ is read ↓: red → Lower for a Non-Player (000 l.420)\n"
        "Advantage for A: --advantage (000 l.423–424)\n"
        "A revealed 4♥ 4 of Cups ↓, 9♠ 9 of Swords ↑: kept 9♠ 9 of Swords ↑, set aside 4♥ "
        "4 of Cups ↓\n"
        "A wins\n"
        "  A: Hit: count the Hits of your cards (d2d hit)\n"
        "  A: Draw a card\n")


def test_advantage_from_the_deck_is_journalled(d2d: Any) -> None:
    before = d2d.json("fate", "status")["remaining"]
    r = d2d.json("conflict", "fast", "fate", "--disadvantage", "b")
    assert d2d.json("fate", "status")["remaining"] == before - 2
    assert len(r["side_b"]["revealed"]) == 2
    assert "conflict fast fate --disadvantage b" in d2d.ok("session", "log")


def test_blessed_gives_advantage_000_l1145(d2d: Any, tmp_path: Path) -> None:
    board = load_board(d2d, tmp_path)
    d2d.ok("--session", board, "unit", "condition", "Goblin", "add", "blessed")
    r = d2d.json("--session", board, "conflict", "Merc:7S^", "Goblin", "--card", "4H",
                 "--card", "9S")
    assert r["advantage"]["b"]["mode"] == "advantage"
    assert r["advantage"]["b"]["sources"][0]["key"] == "blessed"
    assert r["advantage"]["b"]["sources"][0]["source"] == (
        '000 l.1145 "Blessed - Status. Advantage on next important Conflict"')
    # The Goblin's Block (4♥) beats the Merc's Fast; its 9♠ would lose the rank tiebreak.
    assert (r["approach_b"], r["outcome"]) == ("block", "b")
    # An Unskilled Goblin that is Blessed: they cancel on its side.
    r = d2d.json("--session", board, "conflict", "Merc:7S^", "Goblin", "--rival-skill",
                 "none", "--card", "4H")
    assert r["advantage"]["b"]["mode"] == "normal"
    assert r["advantage"]["b"]["cancelled"] == ("1 Advantage and Disadvantage cancel on "
                                                "this side")


_VALUE = {"a": 3, "both": 2, "tie": 1, "rank": 1, "b": 0}


def _outcome(a: str, b: str, reveal: list[Any] | None = None, mode: str = "") -> Any:
    terms = Terms(advantage=("a",) if mode == "advantage" else (),
                  disadvantage=("a",) if mode == "disadvantage" else ())
    ask = conflict.ask([a, b], {}, terms=terms)
    return ask.resolve(Revealer(None, None, reveal) if reveal is not None else None)


@given(st.sampled_from(all_outcomes()), st.sampled_from(all_outcomes()),
       st.sampled_from(all_outcomes()), st.sampled_from(["advantage", "disadvantage"]))
@settings(max_examples=300, deadline=None)
def test_the_kept_card_is_the_best_or_the_worst(a: Any, b: Any, fate: Any,
                                                mode: str) -> None:
    # A's own card or the Fate card: Advantage is never worse than either alone, and
    # Disadvantage never better (for A, against the same B).
    got = _outcome(a.code, b.code, [fate], mode)
    turned = fate.flipped(fate.color == "black")
    alone = [_VALUE[_outcome(x.code, b.code).outcome] for x in (a, turned)]
    if mode == "advantage":
        assert _VALUE[got.outcome] == max(alone)
    else:
        assert _VALUE[got.outcome] == min(alone)


# --------------------------------------------------------------------------- hit


@pytest.fixture
def revealed(d2d: Any, tmp_path: Path) -> Path:
    return with_rules(d2d, tmp_path, combos="revealed")


def test_revealed_combo_with_advantage_keeps_the_best_cards(d2d: Any,
                                                           revealed: Path) -> None:
    # 000 l.483 "Normal - Reveal 2 Conflict. IF they are the next 2 in rank sequence
    # …": with Advantage 3 are revealed and the best 2 kept (6, 7 make 5-6-7).
    cards = ["--card", "6H", "--card", "9C", "--card", "7D"]
    r = d2d.json("--session", revealed, "hit", "5S", "--vs", 5, "--combo", "--advantage",
                 *cards)
    assert [x["card"]["code"] for x in r["revealed"]] == ["6H^", "7D^"]
    assert [c["code"] for c in r["set_aside"]] == ["9C^"]
    assert (r["hits"], r["combo_name"], r["advantage"]["mode"]) == (2, "5-6-7", "advantage")
    r = d2d.json("--session", revealed, "hit", "5S", "--vs", 5, "--combo",
                 "--disadvantage", *cards)
    assert [x["card"]["code"] for x in r["revealed"]] == ["6H^", "9C^"]
    assert (r["hits"], r["combo"], r["glancing"]) == (1, None, True)
    out = d2d.ok("--why", "--session", revealed, "hit", "5S", "--vs", 5, "--combo", "--advantage",
                 *cards)
    assert out == (
        "Your Level 0: not given (0)\n"
        "Rival Level 0: not given (0)\n"
        "Advantage for you: --advantage (000 l.423–424)\n"
        "Difficulty 5: --vs 5\n"
        "Level 0 vs Difficulty 5 (Fast)\n"
        "  5♠ 5 of Swords ↑: 5+0=5 ≤ 5 → no Hit\n"
        "Combo cards revealed:\n"
        "  6♥ 6 of Cups ↑: 6+0=6 > 5 → Hit\n"
        "  7♦ 7 of Coins ↑: 7+0=7 > 5 → Hit\n"
        "Set aside (Advantage): 9♣ 9 of Wands ↑\n"
        "Combo: Straight 5-6-7\n"
        "Gain:A — take an A from your discard pile or deck into your hand.\n"
        "Hits: 2\n")


def test_advantage_on_hit_needs_a_reveal(d2d: Any, revealed: Path) -> None:
    for session in ([], ["--session", revealed]):
        before = d2d.json(*session, "fate", "status")
        res = d2d(*session, "hit", "5S", "--vs", 5, "--advantage")
        assert res.exit_code == 2 and res.stderr.count("\n") == 1
        assert "--advantage/--disadvantage keep the best/worst of revealed cards" in \
            res.stderr
        assert d2d.json(*session, "fate", "status") == before


def test_unskilled_disadvantage_counts_for_a_revealed_combo(d2d: Any, tmp_path: Path
                                                           ) -> None:
    board = load_board(d2d, tmp_path)
    text = board.read_text()
    board.write_text(text.replace("[rules]\n", '[rules]\ncombos = "revealed"\n', 1))
    r = d2d.json("--session", board, "hit", "QS", "--by", "Archer", "--skill", "Melee",
                 "--vs", "Goblin", "--combo", "--card", "QH", "--card", "3C")
    assert r["advantage"]["mode"] == "disadvantage"
    assert (r["hits"], [c["code"] for c in r["set_aside"]]) == (1, ["QH^"])
