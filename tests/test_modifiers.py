"""Situational modifiers (issue 12 item 4) on `conflict` and `hit`: range bands, cover
and the cover-target reveal, high ground, flanking, confined, outnumbered, weapon
scale — each with its source line, from tables/modifiers.toml."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import tables
from tests.helpers import rule_text, stack_deck
from tests.unit_board import load_board


@pytest.fixture
def board(d2d: Any, tmp_path: Path) -> Path:
    return load_board(d2d, tmp_path)


_QUOTE = re.compile(r"(?:(000|001) )?l\.(\d+)(?:–(\d+))? \"([^\"]*)\"")


def _quotes(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [q for v in value.values() for q in _quotes(v)]
    return [value] if isinstance(value, str) and _QUOTE.search(value) else []


def test_every_quote_in_the_table_is_the_rule_text() -> None:
    # Each `source` (and `also`, `common`…) names a file and line(s) and quotes them:
    # every piece of the quote (split at " / " and "…") is on those lines, in order.
    texts = {k: [ln.replace("**", "").replace("\\*", "").strip()
                 for ln in rule_text(k).splitlines()] for k in ("000", "001")}
    checked = 0
    for value in _quotes(tables.load("modifiers")):
        book = None
        for m in _QUOTE.finditer(value):
            book = m.group(1) or book
            assert book is not None, value
            first, last = int(m.group(2)), int(m.group(3) or m.group(2))
            lines = " ".join(texts[book][first - 1:last])
            at = 0
            for piece in re.split(r" / |…", m.group(4)):
                piece = piece.strip()
                found = lines.find(piece, at)
                assert piece and found >= 0, (value, piece, lines)
                at = found + len(piece)
            checked += 1
    assert checked >= 20


# --------------------------------------------------------------------------- range


def test_melee_at_range_0_is_level_minus_1_001_l687(d2d: Any, board: Path) -> None:
    # 001 l.687 "Melee - Range:0-1. Level:-1 at Range:0". The Merc's Melee 2 → 1; the
    # Goblin's Close Combat has no Range modifier (l.685 "Close Combat - Range:0-1").
    r = d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Goblin",
                 "--range", 0)
    assert (r["your_level"], r["rival_level"], r["level"]) == (1, 1, 0)
    assert r["modifiers"] == [{"key": "range", "name": "Melee at Range 0", "side": "a",
                               "level": -1, "origin": "option",
                               "source": '001 l.687 "Melee - Range:0-1. Level:-1 at '
                                         'Range:0"'}]
    assert d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Goblin",
                    "--range", 1)["modifiers"] == []


@pytest.mark.parametrize(("args", "message"), [
    (["Merc:fast", "Goblin", "--range", "2"],
     "Melee reaches Range 0-1 (001 l.687): Range 2 is out of reach"),
    (["Goblin:fast", "Merc:fast", "--range", "3"],
     "Close Combat reaches Range 0-1 (001 l.685): Range 3 is out of reach"),
    (["fast", "fast", "--attack", "reach", "--range", "3"],
     "Reach reaches Range 0-2 (001 l.689–691): Range 3 is out of reach"),
    (["fast", "fast", "--range", "1"], "--range needs a kind of attack"),
    (["fast", "fast", "--attack", "bow", "--range", "1"], "--attack bow: one of close, "
                                                           "melee, reach, ranged"),
    (["fast", "fast", "--attack", "melee", "--range", "-1"], "--range must be 0 or more"),
])
def test_range_refusals(d2d: Any, board: Path, args: list[str], message: str) -> None:
    before = board.read_bytes()
    res = d2d("--session", board, "conflict", *args)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1
    assert board.read_bytes() == before


def test_ranged_at_range_1_is_disadvantage_001_l695(d2d: Any, board: Path) -> None:
    # 001 l.693–695 "Other - Range depends on Power/Item / Disadvantage at Range:0-1"
    # (000 l.328). The Archer's 7♠ and the extra Fate card 5♠ both beat the Goblin's
    # Strong 9♣; the worst of the two for the Archer is the one scoring fewer Hits: 5♠.
    r = d2d.json("--session", board, "conflict", "Archer:7S^", "Goblin", "--range", 1,
                 "--card", "5S", "--card", "9C")
    assert r["advantage"]["a"]["mode"] == "disadvantage"
    assert r["advantage"]["a"]["sources"][0]["why"] == "Ranged at Range 1"
    assert (r["side_a"]["card"]["code"], r["side_a"]["set_aside"]) == ("5S^", "7S^")
    assert [c["code"] for c in r["side_a"]["revealed"]] == ["5S^"]
    assert (r["approach_b"], r["outcome"]) == ("strong", "a")
    # At Range 3 nothing is revealed for the Archer: a lookup.
    r = d2d.json("--session", board, "conflict", "Archer:7S^", "Goblin:9C^", "--range", 3)
    assert r["advantage"]["a"]["mode"] == "normal" and r["side_a"]["revealed"] == []


def test_reach_at_range_0_is_disadvantage_001_l691(d2d: Any, board: Path) -> None:
    r = d2d.json("--session", board, "conflict", "fast", "block", "--attack", "reach",
                 "--range", 0, "--card", "3H")
    assert r["advantage"]["a"]["sources"] == [{
        "key": "range", "mode": "disadvantage", "why": "Reach at Range 0",
        "source": '001 l.689–691 "Reach - Range:0-2 / Disadvantage at Range:0"'}]
    # Fast (loses to Block) or the Fate 3♥ turned Lower (Block: a tie): the worst, Fast.
    assert (r["approach_a"], r["side_a"]["set_aside"], r["outcome"]) == ("fast", "3Hv", "b")


# --------------------------------------------------------------------------- cover


@pytest.mark.parametrize(("cover", "side", "level"), [
    ("25", "a", -1), ("50", "a", -2), ("75%", "a", -3), ("100", "a", -4),
    ("b:50", "a", -2),
])
def test_cover_is_level_minus_1_per_25_percent_001_l718(d2d: Any, board: Path, cover: str,
                                                        side: str, level: int) -> None:
    # 001 l.716–718 "Cover:+25% - for each obstacle encountered / Effect - Level:-1 for
    # each 25%": the side attacking into cover loses a Level per 25%.
    r = d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Goblin",
                 "--cover", cover)
    [m] = r["modifiers"]
    assert (m["key"], m["side"], m["level"]) == ("cover", side, level)
    assert (r["your_level"], r["rival_level"]) == (
        (2 + level, 1) if side == "a" else (2, 1 + level))


def test_the_actors_own_cover_counts_in_the_conflict_not_the_hits_001_l711(
        d2d: Any, board: Path) -> None:
    # 001 l.711 "Cover makes it harder to hit the Target": the Target is the Rival, so the
    # Actor's Cover (a:25) is no Level off the Rival in the Hits; in the Conflict it is
    # (000 l.455 "Cover - Initiative:+1/Cover:25%").
    r = d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Goblin",
                 "--cover", "a:25")
    assert r["modifiers"] == [] and (r["your_level"], r["rival_level"]) == (2, 1)
    assert "cover_ignored" in r["sources"]
    r = d2d.json("--session", board, "conflict", "Merc:7S^", "Goblin:5S^", "--cover", "a:25")
    assert [(m["key"], m["side"], m["level"]) for m in r["modifiers"]] == [("cover", "b", -1)]


@pytest.mark.parametrize("cover", ["30", "125", "c:25", "half", "-25"])
def test_bad_cover_is_refused(d2d: Any, cover: str) -> None:
    res = d2d("hit", "9S", "--vs", 2, "--cover", cover)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "--cover" in res.stderr


def test_cover_target_reveal_hits_the_obstacle_001_l718(d2d: Any, board: Path) -> None:
    # 001 l.718–720 "Before Conflict: Assign Suits to major obstacles. Reveal Fate IF Suit
    # match THEN Target is the obstacle". ♣ is the rock: a 3♣ makes it the target, and
    # the Conflict with the Goblin is not resolved.
    before = d2d.json("--session", board, "fate", "status")
    r = d2d.json("--session", board, "conflict", "Archer:7S^", "Goblin", "--cover", 50,
                 "--obstacle", "C=rock", "--obstacle", "hearts=Ogre", "--card", "3C")
    assert r == {"outcome": "obstacle", "target": "rock",
                 "cover": {"side": "b", "percent": 50,
                           "obstacles": {"wands": "rock", "cups": "Ogre"},
                           "card": {"code": "3C^", "rank": "3", "suit": "wands",
                                    "color": "black", "orientation": "upper"},
                           "target": "rock"},
                 "reshuffled": False}
    assert d2d.json("--session", board, "fate", "status") == before  # table mode
    out = d2d.ok("--why", "--session", board, "conflict", "Archer:7S^", "Goblin", "--cover", 50,
                 "--obstacle", "C=rock", "--card", "3C")
    assert out == ("Cover 50% (B; ♣ rock): revealed 3♣ 3 of Wands ↑ — ♣ is rock (001 "
                   "l.718–720)\n"
                   "The target is rock: resolve the Conflict against the obstacle instead.\n")


def test_cover_target_reveal_misses_then_the_conflict_goes_on(d2d: Any,
                                                             board: Path) -> None:
    # The cover card comes first, then the Goblin's Fate card; from the session's deck.
    stack_deck(board, "3Dv", "5S^")
    r = d2d.json("--session", board, "conflict", "Archer:7S^", "Goblin", "--cover", 50,
                 "--obstacle", "C=rock")
    assert r["cover"]["target"] is None and r["cover"]["card"]["code"] == "3Dv"
    assert r["side_b"]["card"]["code"] == "5S^"
    assert r["side_a"]["level"] == -1  # Ranged 1, Cover 50% -2
    assert [c["code"] for c in d2d.json("--session", board, "fate", "status")["last"]] == [
        "3Dv", "5S^"]


@pytest.mark.parametrize(("args", "message"), [
    (["--obstacle", "C=rock"], "--obstacle needs --cover"),
    (["--cover", "0", "--obstacle", "C=rock"], "--obstacle needs --cover"),
    (["--cover", "25", "--obstacle", "X=rock"], "not a suit: 'X'"),
    (["--cover", "25", "--obstacle", "rock"], "--obstacle rock: write SUIT=NAME"),
    (["--cover", "25", "--obstacle", "C=rock", "--obstacle", "clubs=tree"],
     "♣ is given twice"),
])
def test_obstacle_refusals(d2d: Any, board: Path, args: list[str], message: str) -> None:
    before = board.read_bytes()
    res = d2d("--session", board, "conflict", "Archer:7S^", "Goblin", *args)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1
    assert board.read_bytes() == before


# --------------------------------------------------------------------------- position


def test_high_ground_flanking_outnumbered_move_the_level_bonus(d2d: Any) -> None:
    # 000 l.323 "High Ground - … Initiative:+1", l.325 "Arc:Left or Arc:Right … +1",
    # l.457 "Outnumbered - … Initiative:+1". A 5 against a 7, both Fast: the 5 wins; B
    # on high ground flanking from the side has a Level Bonus of 2: 7 → 5, both win.
    assert d2d.json("conflict", "5S", "7H")["outcome"] == "a"
    r = d2d.json("conflict", "5S", "7H", "--high-ground", "b", "--flank", "b:side")
    assert [(m["key"], m["side"], m["level"]) for m in r["modifiers"]] == [
        ("high_ground", "b", 1), ("flank", "b", 1)]
    assert (r["side_b"]["level"], r["tiebreak"]["b"]["adjusted"], r["outcome"]) == (
        2, 5, "both")
    r = d2d.json("conflict", "5S", "7H", "--outnumbered", "a", "--flank", "b:side")
    assert [(m["key"], m["side"], m["level"]) for m in r["modifiers"]] == [
        ("flank", "b", 1), ("outnumbered", "b", 1)]
    assert r["outcome"] == "both"


def test_flanking_from_the_back_rival_cannot_block_000_l326(d2d: Any, board: Path) -> None:
    # 000 l.326 "IF you are within Arc:Back of your Target THEN Initiative:+2 and Rival
    # can't Block." A typed Block is refused; a Fate Block (4♥, Lower by its colour)
    # loses to the Fast it could not block.
    res = d2d("--session", board, "conflict", "Merc:fast", "Goblin:block", "--flank", "back")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: B can't Block: the other side is in its Arc:Back "
                          "(000 l.326 \"Rival can't Block\")\n")
    assert d2d.json("--session", board, "conflict", "Merc:7S^", "Goblin", "--card", "4H")[
        "outcome"] == "b"
    r = d2d.json("--session", board, "conflict", "Merc:7S^", "Goblin", "--card", "4H",
                 "--flank", "back")
    assert (r["approach_b"], r["outcome"], r["cannot_block"]) == ("block", "a", ["b"])
    assert [e["key"] for e in r["effects"]["b"]] == []
    assert (r["side_a"]["level"], r["modifiers"][0]["name"]) == (4, "Flanking (Arc:Back)")
    # Against an attack that is not Fast or Strong, the Block that can't be made ties.
    r = d2d.json("conflict", "wild", "fate", "--flank", "back", "--card", "4H")
    assert (r["approach_b"], r["outcome"]) == ("block", "tie")


def test_confined_and_close_combat_000_l454(d2d: Any, board: Path) -> None:
    # 000 l.454 "Confined - IF another Unit shares your Space THEN Initiative:-1. Close
    # Combat ignores Confined." Both sides share a Space: the Merc (Melee) -1, the
    # Goblin (Close Combat) 0.
    r = d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Goblin",
                 "--confined", "both")
    assert [(m["name"], m["side"], m["level"]) for m in r["modifiers"]] == [
        ("Confined", "a", -1), ("Confined (ignored: Close Combat)", "b", 0)]
    assert (r["your_level"], r["rival_level"]) == (1, 1)


@pytest.mark.parametrize(("args", "message"), [
    (["--high-ground", "c"], "--high-ground c: name a side, a or b"),
    (["--flank", "front"], "--flank front: side or back"),
    (["--flank", "c:back"], "--flank c: name a side"),
    (["--confined", "x"], "--confined x: name a side, a or b or both"),
    (["--outnumbered", "q"], "--outnumbered q: name a side"),
    (["--advantage", "c"], "--advantage c: name a side"),
])
def test_bad_sides_are_refused(d2d: Any, args: list[str], message: str) -> None:
    res = d2d("conflict", "fast", "strong", *args)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1


# --------------------------------------------------------------------------- weapon scale


def test_weapon_scale_in_a_conflict(d2d: Any, board: Path) -> None:
    # 000 l.337 "IF Difference < 0 THEN Initiative:+Difference and Disadvantage": the
    # Ogre (Body 6x2) strikes the Merc (Body 8x1): Difference 1 - 2 = -1. Its Close
    # Combat 2 becomes 1 and it reveals one more Fate card, keeping the worse: its 5♠
    # would beat the Merc's 7♥ (Level Bonus 1: 7 → 6), the 9♠ loses.
    r = d2d.json("--session", board, "conflict", "Ogre:5S^", "Merc:7H^", "--card", "9S")
    assert [(m["key"], m["side"], m["level"], m["origin"]) for m in r["modifiers"]] == [
        ("weapon_scale", "a", -1, "session")]
    assert [s["key"] for s in r["advantage"]["a"]["sources"]] == ["weapon_scale"]
    assert (r["side_a"]["level"], r["side_b"]["level"]) == (1, 2)
    assert (r["side_a"]["card"]["code"], r["side_a"]["set_aside"], r["outcome"]) == (
        "9S^", "5S^", "b")


def test_weapon_scale_from_the_units_body_000_l334(d2d: Any, board: Path) -> None:
    # 000 l.335–337 "Difference = Stat Scale - Weapon Scale. IF Difference > 0 THEN
    # Initiative:+Difference and Advantage / IF Difference < 0 THEN … Disadvantage". The
    # Ogre's own weapon is on its Body's scale 2 (001 l.920): against the Merc's Body 8x1
    # the Difference is 1 - 2 = -1; the Merc against the Ogre's 6x2 has +1.
    r = d2d.json("--session", board, "hit", "9S", "--by", "Ogre", "--vs", "Merc")
    assert [(m["key"], m["side"], m["level"], m["origin"]) for m in r["modifiers"]] == [
        ("weapon_scale", "a", -1, "session")]
    assert r["advantage"]["mode"] == "disadvantage"
    assert (r["sources"]["weapon_scale"], r["sources"]["rival_stat_scale"]) == (
        "2 (Ogre's Body 6x2)", "1 (Merc's Body 8x1)")
    assert (r["your_level"], r["rival_level"], r["difficulty"]) == (1, 2, 8)
    r = d2d.json("--session", board, "hit", "9S", "--by", "Merc", "--vs", "Ogre")
    assert [(m["level"], r["advantage"]["mode"]) for m in r["modifiers"]] == [
        (1, "advantage")]
    # --weapon-scale gives the weapon's scale; with --vs STAT the Rival's stat scale.
    r = d2d.json("hit", "9S", "--vs", "2x3", "--weapon-scale", 1)
    assert (r["modifiers"][0]["level"], r["your_level"], r["advantage"]["mode"]) == (
        2, 2, "advantage")
    res = d2d("conflict", "fast", "fast", "--weapon-scale", 1)
    assert res.exit_code == 2 and "--weapon-scale needs the Rival's stat scale" in res.stderr


def test_modifiers_human_output(d2d: Any, board: Path) -> None:
    out = d2d.ok("--why", "--session", board, "conflict", "Merc:7S^", "Goblin:5S^", "--range", 0,
                 "--cover", "50", "--high-ground", "a")
    assert out == (
        "A: Merc — Fast (7♠ 7 of Swords ↑)   vs   B: Goblin — Fast (5♠ 5 of Swords ↑)\n"
        "Level A 2 → 0: Merc Melee 2 (its best Combat skill)\n"
        "Level B 1: Goblin Close Combat 1 (its best Combat skill; no Melee)\n"
        "  A -1 Melee at Range 0 (001 l.687)\n"
        "  A -2 Cover 50% (B in cover) (001 l.716–718)\n"
        "  A +1 High Ground (000 l.323)\n"
        "Tiebreak by rank: A 7 vs B 4 (Level Bonus A 0, B 1)\n"
        "B wins\n"
        "  B: Hit: count the Hits of your cards (d2d hit)\n"
        "  B: Draw a card\n")
