"""``d2d hit``: 001 p.31 "Hits" and the sample of p.32."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.rules import hits
from d2d_cli.rules.cards import parse_card


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
    (["5S"], "--vs takes a Difficulty"),
    (["5S", "--vs", "hard"], "a whole number 1 or more or a stat like 2x1"),
    (["5S", "--vs", "8x"], "a stat is <level>x<scale>"),
    (["5S", "--vs", "x1"], "a stat is <level>x<scale>"),
    (["5S", "--vs", "3", "--level", "-1"], "--level must be a whole number 0 or more"),
    (["5S", "--vs", "3", "--rival-level", "-2"], "--rival-level must be a whole number 0"),
    (["5Z", "--vs", "3"], "a card is <rank><suit>"),
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
    out = d2d.ok("hit", "2S", "3H", "4C", "--level", 2, "--rival-level", 1, "--vs", "2x1")
    assert "Combo: Straight 2-3-4" in out and "Hits: 3" in out
    assert "glancing blow" in d2d.ok("hit", "2S", "--vs", 9)


def test_hit_json_fields(d2d: Any) -> None:
    r = d2d.json("hit", "QS", "QH", "--vs", 5)
    assert set(r) == {"hits", "glancing", "combo", "combo_name", "discard_takes",
                      "approach", "level", "difficulty", "cards"}
    assert isinstance(r["hits"], int) and isinstance(r["discard_takes"], int)
