"""``d2d conflict``: the chart of 001 p.28, cards → approaches, Fate sides, the rank
tiebreak with the Level Bonus, effects, the 000 reading, bad input."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli.rules.combat import conflict
from d2d_cli.rules.deck.cards import all_outcomes, parse_card
from tests.helpers import rule_text, with_rules

APPROACHES = ["fast", "strong", "block", "evade", "counter", "wild"]

# Written out here from the rule text, NOT read from tables/conflict.toml, so that a
# wrong table fails. 001 p.28 "Conflict": "Fast - Win vs Strong or Evade", "Strong -
# Win vs Block or Counter", "Block - … Win vs Fast or Wild", "Evade - Win vs Strong",
# "Counter - Win vs Fast or Wild", "Wild - Win vs Fast or Strong", "IF both Fast or
# both Strong THEN use Rank". Row = A, column = B; "a" A wins, "b" B wins, "tie"
# neither wins, "rank" the rank tiebreak decides.
CHART_001 = {
    #           fast    strong  block   evade   counter wild
    "fast":    ["rank", "a",    "b",    "a",    "b",    "b"],
    "strong":  ["b",    "rank", "a",    "b",    "a",    "b"],
    "block":   ["a",    "b",    "tie",  "tie",  "tie",  "a"],
    "evade":   ["b",    "a",    "tie",  "tie",  "tie",  "tie"],
    "counter": ["a",    "b",    "tie",  "tie",  "tie",  "a"],
    "wild":    ["a",    "a",    "b",    "tie",  "b",    "tie"],
}


@pytest.mark.parametrize(("a", "b"), list(itertools.product(APPROACHES, APPROACHES)))
def test_every_pair_agrees_with_the_rules_chart(d2d: Any, a: str, b: str) -> None:
    # 001 p.28: all 36 ordered pairs through the command itself.
    r = d2d.json("conflict", a, b)
    assert (r["approach_a"], r["approach_b"]) == (a, b)
    assert r["outcome"] == CHART_001[a][APPROACHES.index(b)]


def test_conflict_sample_page_30(d2d: Any) -> None:
    # 001 p.30 "Conflict: Sample": "Here P1 chose Strong and P2 chose Block. Strong beats
    # Block, so Player 1 Wins".
    r = d2d.json("conflict", "strong", "block")
    assert r["outcome"] == "a"
    assert [e["key"] for e in r["effects"]["a"]] == ["hit"]
    assert r["effects"]["b"] == []
    # The same with cards: an Upper Wands card (Strong) against a Lower Cups card (Block).
    assert d2d.json("conflict", "9C^", "3Hv")["outcome"] == "a"


def test_chart_json_is_the_whole_chart(d2d: Any) -> None:
    r = d2d.json("conflict", "chart")
    assert r["conflict_chart"] == "001"
    assert r["approaches"] == APPROACHES
    assert r["chart"] == {a: dict(zip(APPROACHES, row, strict=True))
                          for a, row in CHART_001.items()}


def test_chart_is_consistent_both_ways() -> None:
    # If A wins vs B then B loses vs A, for both readings.
    flip = {"a": "b", "b": "a", "tie": "tie", "rank": "rank", "both": "both"}
    for reading in ("001", "000"):
        ch = conflict.chart(reading)
        for a, b in itertools.product(APPROACHES, APPROACHES):
            assert ch[b][a] == flip[ch[a][b]]


def test_000_reading_evade_beats_wild(d2d: Any, tmp_path: Path) -> None:
    # 000 "4) Compare": "Evade vs. Wild - Evade Succeeds. Move Bonus." — the only cell
    # where 000 and 001 differ.
    s = with_rules(d2d, tmp_path, conflict_chart="000")
    r = d2d.json("--session", s, "conflict", "evade", "wild")
    assert r["outcome"] == "a" and r["conflict_chart"] == "000"
    chart = d2d.json("--session", s, "conflict", "chart")["chart"]
    diffs = [(a, b) for a in APPROACHES for b in APPROACHES
             if chart[a][b] != CHART_001[a][APPROACHES.index(b)]]
    assert diffs == [("evade", "wild"), ("wild", "evade")]


def test_000_chart_matches_000_conflict_deck_counts() -> None:
    # 000 "Reference > Conflict Deck": "Block (26) - Succeed:28 Fail:26 Tie:52; Evade
    # (13) - Succeed:28 Fail:26 Tie:52; Counter (13) - Succeed:28 Fail:26 Tie:52; Wild
    # (2) - Succeed:52 Fail:52 Tie:2; Fast (26) - … Fail:41; Strong (26) - … Fail:41".
    # Against every card of a Conflict deck: 52 cards × Upper/Lower + the 2 jokers.
    deck = [c for c in all_outcomes() if not c.is_wild] + [parse_card("BW"), parse_card("RW")]
    assert len(deck) == 106
    ch = conflict.chart("000")
    counts = {a: {"a": 0, "b": 0, "tie": 0, "rank": 0} for a in APPROACHES}
    for a in APPROACHES:
        for card in deck:
            counts[a][ch[a][conflict.approach_of(card)]] += 1
    assert counts["block"] == {"a": 28, "b": 26, "tie": 52, "rank": 0}
    assert counts["evade"] == {"a": 28, "b": 26, "tie": 52, "rank": 0}
    assert counts["counter"] == {"a": 28, "b": 26, "tie": 52, "rank": 0}
    assert counts["wild"] == {"a": 52, "b": 52, "tie": 2, "rank": 0}
    # Printed "Succeed:40": 39 outright wins, and the 26 same-approach cards go to rank.
    assert counts["fast"] == {"a": 39, "b": 41, "tie": 0, "rank": 26}
    assert counts["strong"] == {"a": 39, "b": 41, "tie": 0, "rank": 26}


@pytest.mark.parametrize(("code", "approach"), [
    # 001 p.28 / 000 "Reference > Conflict Deck": Upper Wands/Coins Strong, Cups/Swords
    # Fast; Lower Wands/Cups Block, Coins Counter, Swords Evade; a joker Wild.
    ("5C^", "strong"), ("5D^", "strong"), ("5H^", "fast"), ("5S^", "fast"),
    ("5Cv", "block"), ("5Hv", "block"), ("5Dv", "counter"), ("5Sv", "evade"),
    ("BW", "wild"), ("RWv", "wild"), ("QH", "fast"),
])
def test_card_orientation_gives_the_approach(d2d: Any, code: str, approach: str) -> None:
    r = d2d.json("conflict", code, "block")
    assert r["approach_a"] == approach
    assert r["side_a"]["card"]["code"] == parse_card(code).code


@pytest.mark.parametrize(("a", "b", "level_a", "level_b", "outcome"), [
    ("AS", "JS", 0, 0, "a"),      # A > J
    ("JH", "QH", 0, 0, "a"),      # J > Q
    ("QS", "KS", 0, 0, "a"),      # Q > K
    ("KS", "2H", 0, 0, "a"),      # K > 2
    ("2S", "10H", 0, 0, "a"),     # 2 > … > 10
    ("9S", "8H", 0, 0, "b"),
    ("7S", "7H", 0, 0, "both"),   # "IF Tied THEN Both Win"
    ("QS", "QH", 0, 0, "both"),
    ("7S", "5H", 3, 0, "a"),      # Level Bonus 3: 7 → 4 beats 5
    ("7S", "5H", 2, 0, "both"),   # 7 → 5 ties 5
    ("5S", "3H", 0, 9, "b"),      # B has the Level Bonus 9: 3 → 2 (min 2) beats 5
    ("3S", "2H", 5, 0, "both"),   # min 2: 3 − 5 → 2 ties the 2
    ("10S", "KH", 9, 0, "b"),     # the bonus never lifts a 2–10 above a royal
    ("5C", "6D", 0, 0, "a"),      # Strong vs Strong too
])
def test_rank_tiebreak(d2d: Any, a: str, b: str, level_a: int, level_b: int,
                       outcome: str) -> None:
    # 001 p.28 "IF both Fast or both Strong THEN use Rank. IF 2-10 THEN subtract Level
    # Bonus (min 2). A > J > Q > K > 2 > 3 > ... > 10. IF Tied THEN Both Win."
    r = d2d.json("conflict", a, b, "--level-a", level_a, "--level-b", level_b)
    assert r["outcome"] == outcome
    assert r["tiebreak"]["outcome"] == outcome


def test_level_bonus_000_adds_initiative_to_the_rivals_rank(d2d: Any,
                                                             tmp_path: Path) -> None:
    # 000 l.460–461 "Apply Initiative to Rival's Conflict Rank. Lower is Faster - The
    # lower ranked Conflict number Succeeds. IF tied THEN Both Succeed" — no "(min 2)"
    # as in 001 l.767. A 3 with Level Bonus 5 against a 2: 001 3−5 → 2 ties; 000 2+5 = 7.
    lines = rule_text("000").splitlines()
    assert lines[459] == "  - Apply Initiative to Rival's Conflict Rank"
    assert rule_text("001").splitlines()[766] == "IF 2-10 THEN subtract Level Bonus (min 2)"
    assert d2d.json("conflict", "3S", "2H", "--level-a", 5)["outcome"] == "both"
    s = with_rules(d2d, tmp_path, level_bonus="000")
    r = d2d.json("--session", s, "conflict", "3S", "2H", "--level-a", 5)
    assert r["outcome"] == "a"
    assert r["tiebreak"] == {"a": {"rank": "3", "level_bonus": 5, "adjusted": 3},
                             "b": {"rank": "2", "level_bonus": 0, "adjusted": 7},
                             "outcome": "a"}
    # Where 001's clamp is not reached the readings agree, and royals are as before.
    assert d2d.json("--session", s, "conflict", "7S", "5H", "--level-a", 2)[
        "outcome"] == "both"
    assert d2d.json("--session", s, "conflict", "10S", "KH", "--level-a", 9)[
        "outcome"] == "b"
    out = d2d.ok("--why", "--session", s, "conflict", "3S^", "2H^", "--level-a", 5)
    assert out == ("A: Fast (3♠ 3 of Swords ↑)   vs   B: Fast (2♥ 2 of Cups ↑)\n"
                   "Tiebreak by rank: A 3 vs B 7 (Level Bonus A 5, B 0)\n"
                   "A wins\n"
                   "  A: Hit: count the Hits of your cards (d2d hit)\n"
                   "  A: Draw a card\n")


@given(st.sampled_from([c for c in all_outcomes() if not c.is_wild and c.upper]),
       st.sampled_from([c for c in all_outcomes() if not c.is_wild and c.upper]),
       st.integers(0, 12), st.integers(0, 12))
@settings(max_examples=200, deadline=None)
def test_level_bonus_readings_differ_only_at_the_clamp(a: Any, b: Any, la: int,
                                                       lb: int) -> None:
    t001 = conflict.tiebreak(a, b, la, lb, "001")
    t000 = conflict.tiebreak(a, b, la, lb, "000")
    bonus_a, bonus_b = max(0, la - lb), max(0, lb - la)
    clamped = any(c.rank not in ("A", "J", "Q", "K") and (c.number or 0) - bonus < 2
                  for c, bonus in ((a, bonus_a), (b, bonus_b)))
    if not clamped:
        assert t000.outcome == t001.outcome


def test_tiebreak_reports_adjusted_ranks(d2d: Any) -> None:
    r = d2d.json("conflict", "7S", "5H", "--level-a", 3, "--level-b", 1)
    assert r["tiebreak"]["a"] == {"rank": "7", "level_bonus": 2, "adjusted": 5}
    assert r["tiebreak"]["b"] == {"rank": "5", "level_bonus": 0, "adjusted": 5}
    assert r["outcome"] == "both"
    keys = [e["key"] for e in r["effects"]["a"]]
    assert keys == ["hit", "draw"] and [e["key"] for e in r["effects"]["b"]] == keys


def test_same_approach_without_cards_is_decided_by_rank(d2d: Any) -> None:
    r = d2d.json("conflict", "strong", "5C")
    assert r["outcome"] == "rank" and r["tiebreak"] is None
    assert r["effects"] == {"a": [], "b": []}


@pytest.mark.parametrize(("a", "b", "eff_a", "eff_b"), [
    # 001 p.28: Fast "Hit and Draw a card"; Evade "Move:+2 (Win or Lose)".
    ("fast", "evade", ["hit", "draw"], ["move"]),
    ("strong", "block", ["hit"], []),
    # Block "Keep Block and Draw a card".
    ("block", "fast", ["keep", "draw"], []),
    # Counter "Counterattack with a Fast or Strong".
    ("counter", "wild", ["counterattack"], ["reshuffle"]),
    # Wild "Draw from Discard. Always Shuffle."
    ("wild", "strong", ["take_from_discard", "reshuffle"], []),
    ("evade", "evade", ["move"], ["move"]),
    ("block", "counter", [], []),
])
def test_effects_per_side(d2d: Any, a: str, b: str, eff_a: list[str],
                          eff_b: list[str]) -> None:
    r = d2d.json("conflict", a, b)
    assert [e["key"] for e in r["effects"]["a"]] == eff_a
    assert [e["key"] for e in r["effects"]["b"]] == eff_b
    assert all(e["text"] for e in r["effects"]["a"] + r["effects"]["b"])


@pytest.mark.parametrize(("card", "approach"), [
    # 000 "3) Reveal": "Non-Player Units reveal a Fate where Black means Upper and Red
    # means Lower" — whatever way the card came out of the deck.
    ("4Hv", "block"), ("4H^", "block"), ("4D^", "counter"), ("4C", "strong"),
    ("4Sv", "fast"), ("BWv", "wild"), ("RW", "wild"),
])
def test_fate_side_in_table_mode_by_colour(d2d: Any, card: str, approach: str) -> None:
    r = d2d.json("conflict", "fate", "evade", "--card", card)
    assert r["approach_a"] == approach
    assert r["side_a"]["source"] == "fate"
    assert r["side_a"]["card"]["orientation"] == (
        "upper" if parse_card(card).color == "black" else "lower")


def test_fate_orientation_option_uses_the_card(d2d: Any, tmp_path: Path) -> None:
    s = with_rules(d2d, tmp_path, fate_orientation="card")
    assert d2d.json("--session", s, "conflict", "fate", "fast", "--card", "4H^")[
        "approach_a"] == "fast"
    assert d2d.json("--session", s, "conflict", "fate", "fast", "--card", "4Sv")[
        "approach_a"] == "evade"


def test_fate_side_reveals_from_the_session_deck(d2d: Any) -> None:
    before = d2d.json("fate", "status")["remaining"]
    r = d2d.json("--seed", "3", "conflict", "fate", "fate")
    after = d2d.json("fate", "status")
    assert after["remaining"] == before - 2
    assert [c["code"][:-1] for c in after["last"]] == [
        r["side_a"]["card"]["code"][:-1], r["side_b"]["card"]["code"][:-1]]
    for side in ("side_a", "side_b"):
        card = parse_card(r[side]["card"]["code"])
        assert r[side]["approach"] == conflict.approach_of(card)
        assert card.upper == (card.color == "black")
    assert "conflict fate fate" in d2d.ok("session", "log")


def test_table_mode_needs_one_card_per_fate_side(d2d: Any) -> None:
    res = d2d("conflict", "fate", "fate", "--card", "5S")
    assert res.exit_code == 2 and "not enough cards with --card: 1 given, at least 2 " \
        "needed" in res.stderr
    res = d2d("conflict", "fate", "block", "--card", "5S", "--card", "6S")
    assert res.exit_code == 2
    assert "too many cards with --card: 2 given, only 1 needed" in res.stderr
    res = d2d("conflict", "fast", "block", "--card", "5S")
    assert res.exit_code == 2 and "--card is for fate sides" in res.stderr


def test_table_mode_leaves_the_fate_deck_alone(d2d: Any) -> None:
    before = d2d.json("fate", "status")
    d2d.json("conflict", "fate", "fast", "--card", "9D")
    assert d2d.json("fate", "status") == before


@pytest.mark.parametrize("args", [
    ["quick", "fast"], ["fast", "ZZ"], ["11S", "fast"], ["fast"], ["fast", "block", "wild"],
])
def test_bad_sides_are_one_line_errors(d2d: Any, args: list[str]) -> None:
    res = d2d("conflict", *args)
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1
    if len(args) == 2:
        assert "fast, strong, block, evade, counter, wild" in res.stderr
        assert "fate" in res.stderr


def test_negative_level_is_refused(d2d: Any) -> None:
    res = d2d("conflict", "7S", "5H", "--level-a", "-1")
    assert res.exit_code == 2
    assert res.stderr == "d2d: error: --level-a must be a whole number 0 or more, not -1\n"


def test_errors_change_nothing(d2d: Any) -> None:
    before = d2d.json("fate", "status")
    assert d2d("conflict", "fate", "nonsense").exit_code == 2
    assert d2d.json("fate", "status") == before


def test_human_output(d2d: Any) -> None:
    out = d2d.ok("--why", "conflict", "7S^", "5H^", "--level-a", "3")
    assert "A wins" in out and "Tiebreak by rank: A 4 vs B 5" in out
    chart = d2d.ok("conflict", "chart")
    assert "Counter" in chart and "rank" in chart


def test_human_output_exact(d2d: Any) -> None:
    assert d2d.ok("--why", "conflict", "fate", "fast", "--card", "4H^") == (
        "A: Block (4♥ 4 of Cups ↓)   vs   B: Fast\n"
        "  A's Fate 4♥ 4 of Cups ↑ is read ↓: red → Lower for a Non-Player (000 l.420)\n"
        "A wins\n"
        "  A: Keep: its Block holds (a Non-Player keeps no cards)\n"
        "  A: Draw a card\n")
    assert d2d.ok("conflict", "chart") == (
        "Conflict chart (001): A's result\n"
        "┏━━━━━━━━━━━━┳━━━━━━━┳━━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━━━┳━━━━━━━┓\n"
        "┃ A ↓ vs B → ┃ Fast  ┃ Strong ┃ Block ┃ Evade ┃ Counter ┃ Wild  ┃\n"
        "┡━━━━━━━━━━━━╇━━━━━━━╇━━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━━━╇━━━━━━━┩\n"
        "│ Fast       │ rank  │ wins   │ loses │ wins  │ loses   │ loses │\n"
        "│ Strong     │ loses │ rank   │ wins  │ loses │ wins    │ loses │\n"
        "│ Block      │ wins  │ loses  │ tie   │ tie   │ tie     │ wins  │\n"
        "│ Evade      │ loses │ wins   │ tie   │ tie   │ tie     │ tie   │\n"
        "│ Counter    │ wins  │ loses  │ tie   │ tie   │ tie     │ wins  │\n"
        "│ Wild       │ wins  │ wins   │ loses │ tie   │ loses   │ tie   │\n"
        "└────────────┴───────┴────────┴───────┴───────┴─────────┴───────┘\n"
        "rank: both Fast or both Strong compare Rank, A > J > Q > K > 2 > … > 10 (2–10 "
        "lowered by the Level Bonus, min 2); equal ranks both win.\n")


def test_json_error_envelope(d2d: Any) -> None:
    env = d2d.json("conflict", "quick", "fast", code=2)
    assert env["ok"] is False and env["command"] == "conflict"
    assert env["error"]["kind"] == "bad_input"


def test_json_lookups_never_import_rich(tmp_path: Path) -> None:
    # DESIGN.md "Budgets": a --json lookup never pays for Rich (one process, 3 commands).
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from d2d_cli.cli import main\n"
        "main(['conflict', 'chart', '--json'])\n"
        "main(['hit', '2S', '3H', '4C', '--vs', '2', '--json'])\n"
        "main(['crit', '--power', '5x1', '--card', 'bash@head', '--json'])\n"
        "assert 'rich' not in sys.modules, 'rich imported'\n"
    )
    env = {**os.environ, "D2D_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"ok": true') == 3


def test_missing_sides_is_a_usage_error(d2d: Any) -> None:
    assert d2d("conflict").exit_code == 2


# --------------------------------------------------------------------------- properties

_numbered = [c for c in all_outcomes() if not c.is_wild and c.upper]


@given(st.sampled_from(_numbered), st.sampled_from(_numbered),
       st.integers(0, 12), st.integers(0, 12))
def test_tiebreak_is_symmetric(a: Any, b: Any, la: int, lb: int) -> None:
    flip = {"a": "b", "b": "a", "both": "both"}
    assert conflict.tiebreak(b, a, lb, la).outcome == flip[
        conflict.tiebreak(a, b, la, lb).outcome]


@given(st.sampled_from(_numbered), st.sampled_from(_numbered), st.integers(0, 12))
def test_level_bonus_never_hurts(a: Any, b: Any, la: int) -> None:
    # A higher level can only turn a loss into a tie or a tie into a win for that side.
    order = {"b": 0, "both": 1, "a": 2}
    base = conflict.tiebreak(a, b, 0, 0).outcome
    assert order[conflict.tiebreak(a, b, la, 0).outcome] >= order[base]


def test_a_unit_side_left_as_completion_leaves_it_is_the_bare_unit(d2d, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Tab completes a unit side to ``NAME:`` (then its approach); Enter on ``"Goblin
    Scout:"`` is the bare unit, a Non-Player revealing Fate (001 l.734 "NPCs use a Fate
    card instead"), not an unknown side."""
    s = ("--session", tmp_path / "c.toml")
    d2d.ok(*s, "scene", "load", "combat1")
    bare = d2d.json(*s, "conflict", "Archer:7S^", "Goblin Scout", "--card", "5H", "--no-map")
    colon = d2d.json(*s, "conflict", "Archer:7S^", "Goblin Scout:", "--card", "5H",
                     "--no-map")
    assert colon["side_b"] == bare["side_b"] and colon["outcome"] == bare["outcome"] == "b"
