"""``d2d hit``: 001 p.31 "Hits" and the sample of p.32."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.rules.combat import hits
from d2d_cli.rules.deck.cards import parse_card
from tests.helpers import rule_text, stack_deck, with_rules


def test_sample_mercenary_vs_goblin_page_32(d2d: Any) -> None:
    # 001 p.32 "Hits: Sample": Goblin (Close Combat:1) vs Mercenary (Melee:2). "Merc
    # wins and plays a Fast 2"; "Level - Merc is 2-1=Level:1"; "The Goblin Body is 2x1";
    # "Merc plays a 3 and a 4 to make 2,3,4. The 3 Hit Combo lets the Merc take ANY card
    # from their Discard to hand."; "3, 4, 5 - 2+1, 3+1, 4+1"; "Hits:3 - All three Ranks
    # are above Body:2".
    r = d2d.json("hit", "2S^", "3H", "4C", "--level", 2, "--rival-level", 1, "--vs", "2x1")
    assert r["hits"] == 3
    assert r["glancing"] is False
    assert r["combo"] == "straight"
    assert r["discard_takes"] == 1
    assert r["level"] == 1 and r["difficulty"] == 2
    assert [row["why"] for row in r["cards"]] == ["2+1=3 > 2", "3+1=4 > 2", "4+1=5 > 2"]


def test_sample_goblin_level_is_zero_page_32() -> None:
    # "Gob is 1-2=Level:0" (Level - Your Level - Rival Level (min: 0)).
    r = hits.count_hits([parse_card("5S")], level=1, rival_level=2, difficulty=4)
    assert r.level == 0 and r.hits == 1 and r.glancing is False


@pytest.mark.parametrize(("cards", "level", "vs", "expected"), [
    (["3S"], 0, 3, 1),            # 3+0 = 3 is not > 3: glancing blow, Hits 1
    (["4S"], 0, 3, 1),            # 4 > 3
    (["10S"], 0, 10, 1),          # 001: a 10 is only a Hit when 10+Level > Difficulty
    (["AS"], 0, 10, 1),           # "A-J - Hits:+1" whatever the Difficulty
    (["QS", "QH"], 0, 10, 2),     # QQ: each Q Hits +1
    (["KS", "KH", "KC"], 0, 10, 3),
    (["AS", "AH", "AC", "AD"], 0, 10, 4),
    (["5S", "6H", "7C", "8D", "9S"], 2, 8, 3),  # 7,8,9,10,11 vs 8 → 9,10,11 Hit
])
def test_rank_hits(d2d: Any, cards: list[str], level: int, vs: int, expected: int) -> None:
    r = d2d.json("hit", *cards, "--level", level, "--vs", vs)
    assert r["hits"] == expected


def test_glancing_blow(d2d: Any) -> None:
    # 001 p.31 "No Hits - Glancing Blow. IF Hits=0 THEN Hits=1 and go to Resolution".
    r = d2d.json("hit", "2S", "--vs", 9)
    assert (r["hits"], r["glancing"], r["combo"], r["discard_takes"]) == (1, True, None, 0)


@pytest.mark.parametrize(("cards", "kind", "name", "takes"), [
    (["QS", "QH"], "of_a_kind", "QQ", 0),
    (["KS", "KH"], "of_a_kind", "KK", 0),
    (["AS", "AH"], "of_a_kind", "AA", 0),
    (["KS", "KH", "KD"], "of_a_kind", "KKK", 0),
    (["AS", "AH", "AD"], "of_a_kind", "AAA", 0),
    (["AS", "AH", "AD", "AC"], "of_a_kind", "AAAA", 0),
    (["2S", "3H", "4C"], "straight", "2-3-4", 1),
    (["6S", "4H", "5C"], "straight", "4-5-6", 1),   # any order at the table
    (["6S", "7H", "8C", "9D", "10S"], "straight", "6-7-8-9-10", 3),
    (["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"], "straight",
     "2-3-4-5-6-7-8-9-10", 7),
])
def test_allowed_combos(d2d: Any, cards: list[str], kind: str, name: str,
                        takes: int) -> None:
    # 001 p.31 "Of a Kind - QQ, KK, AA, KKK, AAA, AAAA. Straight - 3+ ordered cards of any
    # suit. For each > 2, take any card from Discard".
    r = d2d.json("hit", *cards, "--vs", 5)
    assert (r["combo"], r["combo_name"], r["discard_takes"]) == (kind, name, takes)


@pytest.mark.parametrize(("cards", "reason"), [
    (["JS", "JH"], "JJ is not an allowed set of a kind"),
    (["QS", "QH", "QC"], "QQQ is not an allowed set of a kind"),
    (["KS", "KH", "KC", "KD"], "KKKK is not an allowed set of a kind"),
    (["5S", "5H"], "55 is not an allowed set of a kind"),
    (["2S", "3H"], "a straight needs 3 or more cards"),
    (["2S", "4H", "5C"], "the ranks do not follow each other (2, 4, 5)"),
    (["9S", "10H", "JC"], "a straight is of 2–10 cards"),
    (["2S", "3H", "3C"], "the ranks do not follow each other"),
    (["5S", "BW"], "a Wild is in no combo"),
])
def test_invalid_combos_are_refused_with_the_reason(d2d: Any, cards: list[str],
                                                     reason: str) -> None:
    res = d2d("hit", *cards, "--vs", 5)
    assert res.exit_code == 2
    assert reason in res.stderr
    assert "allowed: QQ, KK, AA, KKK, AAA, AAAA" in res.stderr
    assert res.stderr.count("\n") == 1


@pytest.mark.parametrize("card", ["5Sv", "5Cv", "5Dv", "RW"])
def test_only_fast_or_strong_scores_hits(d2d: Any, card: str) -> None:
    # 001 p.31 "Only Fast or Strong Approach score Hits".
    res = d2d("hit", card, "--vs", 2)
    assert res.exit_code == 2 and "only a Fast or Strong winner scores Hits" in res.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["5S", "--vs", "0"], "--vs takes a Difficulty of 1 or more"),
    (["5S", "--vs", "-3"], "--vs takes a Difficulty of 1 or more"),
    (["5S"], "Missing option '--vs': the Difficulty"),  # issue 14: the option is named
    (["5S", "--vs", "hard"], "a whole number 1 or more or a stat like 2x1"),
    (["5S", "--vs", "8x"], "a stat is <level>x<scale>"),
    (["5S", "--vs", "x1"], "a stat is <level>x<scale>"),
    (["5S", "--vs", "3", "--level", "-1"], "--level must be a whole number 0 or more"),
    (["5S", "--vs", "3", "--rival-level", "-2"], "--rival-level must be a whole number 0"),
    (["5Z", "--vs", "3"], "not a card: '5Z' — no suit 'Z'"),
])
def test_bad_input(d2d: Any, args: list[str], message: str) -> None:
    res = d2d("hit", *args)
    assert res.exit_code == 2
    assert message in res.stderr
    assert res.stderr.count("\n") == 1


def test_ten_always_hits_option_000(d2d: Any, tmp_path: Path) -> None:
    # 000 "5) Successes": "10, J, Q, K, A - Success:+1" — a table may prefer it.
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "fate", "status")
    path.write_text(path.read_text().replace(
        "[rules]\n", "[rules]\nten_always_hits = " + json.dumps(True) + "\n", 1))
    assert d2d.json("--session", path, "hit", "10S", "--vs", 10)["hits"] == 1
    assert d2d.json("--session", path, "hit", "10S", "--vs", 10)["glancing"] is False
    assert d2d.json("hit", "10S", "--vs", 10)["glancing"] is True


def test_human_output(d2d: Any) -> None:
    out = d2d.ok("--why", "hit", "2S", "3H", "4C", "--level", 2, "--rival-level", 1, "--vs", "2x1")
    assert "Combo: Straight 2-3-4" in out and "Hits: 3" in out
    assert "glancing blow" in d2d.ok("hit", "2S", "--vs", 9)


def test_hit_json_fields(d2d: Any) -> None:
    r = d2d.json("hit", "QS", "QH", "--vs", 5)
    assert list(r) == ["hits", "glancing", "combo", "combo_name", "discard_takes",
                       "approach", "level", "difficulty", "cards", "your_level",
                       "rival_level", "sources", "modifiers", "advantage", "map", "hand"]
    assert r["sources"] == {"level": "not given (0)", "rival_level": "not given (0)",
                            "difficulty": "--vs 5"}
    assert isinstance(r["hits"], int) and isinstance(r["discard_takes"], int)


# --------------------------------------------------------------------------- 000 combos


def test_combo_quotes_are_the_rule_text() -> None:
    lines = rule_text("000").splitlines()
    assert lines[481].startswith("  - Combo - IF you Succeed with a 2-8, Q, K, or A, you may")
    assert lines[482] == (
        "    - Normal - Reveal 2 Conflict. IF they are the next 2 in rank sequence (e.g. 5 "
        "then 6, 7) THEN Gain:A and for each IF Rank+Skill Level > Difficulty THEN "
        "Success:+1.")
    assert lines[483:486] == ["    - Q - Reveal Conflict. IF Q THEN Success:+1.",
                              "    - K - Reveal 2 Conflict. IF K THEN Success:+1 / K.",
                              "    - A - Reveal 3 Conflict. IF A THEN Success:+1 / A."]
    assert rule_text("001").splitlines()[825] == (
        "**Combo** - Play cards to make an allowed set:")


def test_played_combos_are_the_default_001_l826(d2d: Any) -> None:
    for args in (["5S", "--combo"], ["5S", "--card", "6H"]):
        res = d2d("hit", *args, "--vs", 3)
        assert res.exit_code == 2
        assert res.stderr == (
            'd2d: error: --combo and --card reveal combo cards under [rules] combos = '
            '"revealed" (000); under 001 give the combo cards after the winning card '
            '(e.g. 2S 3H 4C)\n')


@pytest.fixture
def revealed(d2d: Any, tmp_path: Path) -> Path:
    return with_rules(d2d, tmp_path, combos="revealed")


@pytest.mark.parametrize(("played", "shown", "hits", "combo", "name", "rows", "ace"), [
    # 000 l.483 "Normal - Reveal 2 Conflict. IF they are the next 2 in rank sequence
    # (e.g. 5 then 6, 7) THEN Gain:A and for each IF Rank+Skill Level > Difficulty THEN
    # Success:+1". Difficulty 5, Level 0: the played 5 does not Hit, 6 and 7 do.
    ("5S", ["6H", "7C"], 2, "straight", "5-6-7", [True, True], True),
    ("5S", ["7C", "6H"], 2, "straight", "5-6-7", [True, True], True),  # either order
    ("5S", ["6H", "9C"], 1, None, None, [False, False], False),  # not the next two
    ("2S", ["3H", "4C"], 1, "straight", "2-3-4", [False, False], True),  # 3, 4 ≤ 5
    # l.484–486: "Q - Reveal Conflict. IF Q THEN Success:+1. K - Reveal 2 Conflict. IF K
    # THEN Success:+1 / K. A - Reveal 3 Conflict. IF A THEN Success:+1 / A."
    ("QS", ["QH"], 2, "of_a_kind", "QQ", [True], False),
    ("QS", ["KH"], 1, None, None, [False], False),
    ("KS", ["KH", "3C"], 2, "of_a_kind", "KK", [True, False], False),
    ("AS", ["AH", "AC", "AD"], 4, "of_a_kind", "AAAA", [True, True, True], False),
    ("AS", ["BW", "2C", "AD"], 2, "of_a_kind", "AA", [False, False, True], False),
])
def test_revealed_combos_000_l482(d2d: Any, revealed: Path, played: str, shown: list[str],
                                  hits: int, combo: str | None, name: str | None,
                                  rows: list[bool], ace: bool) -> None:
    cards = [x for c in shown for x in ("--card", c)]
    r = d2d.json("--session", revealed, "hit", played, "--vs", 5, "--combo", *cards)
    assert (r["hits"], r["combo"], r["combo_name"], r["gain_ace"]) == (hits, combo, name, ace)
    assert [row["hit"] for row in r["revealed"]] == rows
    assert [row["card"]["code"][:-1] for row in r["revealed"]] == [c.upper() for c in shown]
    assert (r["discard_takes"], len(r["cards"]), r["reshuffled"]) == (0, 1, False)


def test_revealed_combo_is_optional(d2d: Any, revealed: Path) -> None:
    # "you may increase your Successes by doing a Combo": without --combo, no reveal.
    r = d2d.json("--session", revealed, "hit", "5S", "--vs", 3)
    assert (r["hits"], r["revealed"], r["combo"], r["gain_ace"]) == (1, [], None, False)


@pytest.mark.parametrize(("args", "message"), [
    (["9S", "--combo", "--card", "10H", "--card", "JC"],
     'no combo after a 9 (000 l.482: "IF you Succeed with a 2-8, Q, K, or A")'),
    (["JS", "--combo"], "no combo after a J"),
    (["5S", "6H", "7C"], '[rules] combos = "revealed" (000 l.482): combo cards are '
                         "revealed, not played"),
    (["5S", "--card", "6H"], "--card gives the combo cards revealed at the table: add "
                             "--combo"),
    (["5S", "--combo", "--card", "6H"], "not enough cards with --card: 1 given"),
    (["QS", "--combo", "--card", "QH", "--card", "KH"], "too many cards with --card: 2 "
                                                        "given, only 1 needed"),
])
def test_revealed_combo_errors(d2d: Any, revealed: Path, args: list[str],
                               message: str) -> None:
    before = revealed.read_text()
    res = d2d("--session", revealed, "hit", *args, "--vs", 5)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1
    assert revealed.read_text() == before


def test_revealed_combo_from_the_fate_deck(d2d: Any, revealed: Path) -> None:
    stack_deck(revealed, "6H^", "7Cv")
    before = d2d.json("--session", revealed, "fate", "status")["remaining"]
    r = d2d.json("--session", revealed, "hit", "5S", "--vs", 5, "--level", 1, "--combo")
    assert [row["card"]["code"] for row in r["revealed"]] == ["6H^", "7Cv"]
    assert (r["hits"], r["combo_name"], r["gain_ace"]) == (3, "5-6-7", True)
    assert [row["why"] for row in r["cards"] + r["revealed"]] == [
        "5+1=6 > 5", "6+1=7 > 5", "7+1=8 > 5"]
    after = d2d.json("--session", revealed, "fate", "status")
    assert after["remaining"] == before - 2
    assert "hit 5S --level 1 --vs 5 --combo" in d2d.ok("--session", revealed, "session",
                                                         "log")
    stack_deck(revealed, "6H^", "7Cv")
    out = d2d.ok("--why", "--session", revealed, "hit", "5S", "--vs", 5, "--combo")
    assert out == (
        "Level 0 vs Difficulty 5 (Fast)\n"
        "  5♠ 5 of Swords ↑: 5+0=5 ≤ 5 → no Hit\n"
        "Combo cards revealed:\n"
        "  6♥ 6 of Cups ↑: 6+0=6 > 5 → Hit\n"
        "  7♣ 7 of Wands ↓: 7+0=7 > 5 → Hit\n"
        "Combo: Straight 5-6-7\n"
        "Gain:A — take an A from your discard pile or deck into your hand.\n"
        "Hits: 2\n")


def test_human_output_exact(d2d: Any) -> None:
    out = d2d.ok("--why", "hit", "2S", "3H", "4C", "--level", 2, "--rival-level", 1, "--vs", "2x1")
    assert out == (
        "Level 1 vs Difficulty 2 (Fast)\n"
        "  2♠ 2 of Swords ↑: 2+1=3 > 2 → Hit\n"
        "  3♥ 3 of Cups ↑: 3+1=4 > 2 → Hit\n"
        "  4♣ 4 of Wands ↑: 4+1=5 > 2 → Hit\n"
        "Combo: Straight 2-3-4\n"
        "Take 1 card(s) of your choice from your discard pile.\n"
        "Hits: 3\n")


def test_remembered_hits_of_one_card_follow_every_level_difficulty_and_reading() -> None:
    """``count_hits`` is remembered by all it reads: each Fast card, at every Level,
    Rival Level and Difficulty, under both readings of the 10, scored twice in a row
    (the second found, not made) gives the rule's own answer — 001 l.816 "Your Level -
    Rival Level (min: 0)", l.836 "A-J" always Hit (000's "10, J, Q, K, A", with
    ``ten_always_hits``) — so a memory keyed on less than all of them would answer one
    of these with another's Hits."""
    for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]:
        card = parse_card(f"{rank}S^")
        for ten in (False, True):
            for level in range(4):
                for rival in range(4):
                    for difficulty in range(1, 12):
                        net = max(0, level - rival)
                        hit = rank in ("J", "Q", "K", "A") or (ten and rank == "10") or (
                            rank.isdigit() and int(rank) + net > difficulty)
                        for _ in range(2):
                            got = hits.count_hits([card], level=level, rival_level=rival,
                                                  difficulty=difficulty,
                                                  ten_always_hits=ten)
                            assert (got.hits, got.glancing, got.level) == (1, not hit, net)
                            assert got.cards[0].hit is hit and got.difficulty == difficulty
    with pytest.raises(Exception, match="only a Fast or Strong winner"):
        hits.count_hits([parse_card("5Sv")], level=0, rival_level=0, difficulty=3)  # Evade
    with pytest.raises(Exception, match="only a Fast or Strong winner"):
        hits.count_hits([parse_card("5Sv")], level=0, rival_level=0, difficulty=3)
