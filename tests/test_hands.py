"""The Players' Conflict hands held by d2d (issue 31; rules/units/hands.py): dealt 5 at a
scene's start, at most 10 (000 l.401), one Player's hand shown, a card chosen face down
(001 l.732 "Play a Conflict facedown from hand") and hidden from every other view."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.deck.cards import full_deck, parse_card
from d2d_cli.rules.units import hands
from tests.helpers import assert_refused, every_file, with_rules

SCENE = """\
name = "Night"
map = "personal"
[factions.Adventurers]
goal = "win"
players = ["Ann", "Bo"]
[factions.Goblins]
goal = "win"
players = ["Non-Player"]
[units.Archer]
faction = "Adventurers"
player = "Ann"
body = "4x1"
mind = "3x1"
will = "3x1"
speed = "5x0"
skills = {Ranged = 2}
[units.Thief]
faction = "Adventurers"
player = "Bo"
body = "3x1"
mind = "4x1"
will = "3x1"
speed = "6x0"
[units.Goblin]
faction = "Goblins"
body = "2x1"
mind = "2x1"
will = "2x1"
speed = "5x0"
"""


def table(d2d: Any, tmp_path: Path, **rules: Any) -> Path:
    path = with_rules(d2d, tmp_path, hands="d2d", **rules)
    f = tmp_path / "night.toml"
    f.write_text(SCENE, "utf-8")
    d2d.ok("--session", path, "--seed", 3, "scene", "load", f)
    return path


def players(path: Path) -> dict[str, Any]:
    import tomllib

    return dict(tomllib.loads(path.read_text("utf-8")).get("players", {}))


def test_scene_load_deals_five_new_cards_to_each_player(d2d: Any, tmp_path: Path) -> None:
    # 000 l.401 "The hand starts with 5 new cards at the beginning of a Scene"
    path = table(d2d, tmp_path)
    got = players(path)
    assert list(got) == ["Ann", "Bo"]  # the Goblins' "Non-Player" holds no hand
    for p in got.values():
        assert len(p["hand"]) == 5 and len(p["deck"]) == 49 and p["discard"] == []
        faces = sorted(parse_card(c).face for c in p["deck"] + p["hand"])
        assert faces == sorted(c.face for c in full_deck())  # a 54-card deck each


def test_hand_show_shows_one_players_hand_only(d2d: Any, tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    ann = d2d.json("--session", path, "hand", "show", "Ann")
    assert ann["player"] == "Ann" and ann["units"] == ["Archer"]
    assert [c["code"] for c in ann["hand"]] == players(path)["Ann"]["hand"]
    text = d2d.ok("--session", path, "hand", "show", "ann")
    for code in players(path)["Bo"]["hand"]:
        assert f"  {code[:-1]:<3} " not in text or code in players(path)["Ann"]["hand"]
    assert text.startswith("Ann (Archer): 5 cards\n")


def test_hand_deal_counts_but_never_names_cards(d2d: Any, tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    r = d2d.json("--session", path, "hand", "deal")
    assert r == {"hands": [
        {"player": "Ann", "hand": 5, "deck": 49, "discard": 0, "chosen": None},
        {"player": "Bo", "hand": 5, "deck": 49, "discard": 0, "chosen": None}]}


def test_a_face_down_choice_is_hidden_from_every_other_view(d2d: Any, tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    card = players(path)["Ann"]["hand"][2]
    lower = card[:-1] + "v"
    r = d2d.json("--session", path, "hand", "choose", "Archer", lower)
    assert r == {"player": "Ann", "unit": "Archer", "replaced": False}
    stored = players(path)["Ann"]
    assert stored["chosen"] == {"unit": "Archer", "card": lower}
    assert len(stored["hand"]) == 4 and card not in stored["hand"]
    face = card[:-1]
    for argv in (["status"], ["session", "log"], ["session", "show"], ["unit", "show",
                                                                      "Archer"],
                 ["hand", "show", "Bo"], ["scene", "show"]):
        for out in (d2d.ok("--session", path, *argv),
                    json.dumps(d2d.json("--session", path, *argv))):
            assert face not in out.replace(f"{face}0", ""), (argv, out)
    undone = d2d.ok("--session", path, "session", "undo")
    assert undone.startswith("Reverted hand choose Archer (a card face down)")
    assert face not in undone
    # its owner sees it
    d2d.ok("--session", path, "session", "redo")
    assert d2d.json("--session", path, "hand", "show", "Ann")["chosen"]["code"] == lower


def test_a_card_not_in_the_hand_is_refused_and_nothing_changes(d2d: Any,
                                                               tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    held = {parse_card(c).face for c in players(path)["Ann"]["hand"]}
    other = next(c.code for c in full_deck() if c.face not in held)
    assert_refused(lambda *a: d2d("--session", path, *a), tmp_path,
                   ["hand", "choose", "Archer", other],
                   f"{other[:-1]} is not in Ann's hand (d2d hand show Ann)")


def test_a_non_player_has_no_hand_unless_the_narrator_holds_one(d2d: Any,
                                                                tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    assert_refused(lambda *a: d2d("--session", path, *a), tmp_path,
                   ["hand", "choose", "Goblin", "7S^"],
                   "Goblin is a Non-Player unit: it has no hand and reveals Fate (000 l.417")
    narrated = table(d2d, tmp_path / "n", narrator_hand=True)
    assert list(players(narrated)) == ["Ann", "Bo", "Narrator"]
    card = players(narrated)["Narrator"]["hand"][0]
    assert d2d.json("--session", narrated, "hand", "choose", "Goblin", card)["player"] == (
        "Narrator")


def test_hands_held_at_the_table_keep_no_hand(d2d: Any, tmp_path: Path) -> None:
    path = with_rules(d2d, tmp_path)  # [rules] hands defaults to "table"
    f = tmp_path / "night.toml"
    f.write_text(SCENE, "utf-8")
    d2d.ok("--session", path, "scene", "load", f)
    assert players(path) == {}
    assert_refused(lambda *a: d2d("--session", path, *a), tmp_path, ["hand", "deal"],
                   'the Players hold their Conflict cards at the table ([rules] hands = '
                   '"table")')


def test_a_hand_edited_players_table_is_refused(d2d: Any, tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    text = path.read_text("utf-8")
    first = players(path)["Ann"]["deck"][0]
    path.write_text(text.replace(f'deck = ["{first}", ', 'deck = [', 1), "utf-8")
    before = every_file(tmp_path)
    res = d2d("--session", path, "hand", "show", "Ann")
    assert res.exit_code == 3
    assert "[players.Ann] deck: a Player's deck, hand, discard and chosen card must hold " \
           "the 54 cards exactly once" in res.stderr
    assert every_file(tmp_path) == before


def test_the_choice_through_the_api_is_the_same_operation(tmp_path: Path, d2d: Any) -> None:
    from d2d_cli.api import Session

    path = table(d2d, tmp_path)
    s = Session(path)
    card = s.hand.show("Bo").hand[0]
    assert s.hand.choose("Thief", card.code).unit == "Thief"
    assert s.hand.show("Bo").chosen == card
    assert "hand choose Thief (a card face down)" in d2d.ok("--session", path, "session",
                                                           "log")


# --------------------------------------------------------------------------- the rules


def test_draw_stops_at_ten_held_and_reshuffles_the_discard() -> None:
    rng = random.Random(1)
    h = hands.new_hand("Ann", rng)
    assert h.draw(rng, 20) == (5, False) and len(h.hand) == 10  # 000 l.401 "maximum of 10"
    h.discard, h.deck = h.deck, []
    h.hand, h.discard = h.hand[:2], h.discard + h.hand[2:]
    got, again = h.draw(rng, 1)
    assert (got, again, len(h.hand), len(h.deck)) == (1, True, 3, 51)
    h.check()


def test_a_choice_counts_as_held() -> None:
    rng = random.Random(2)
    h = hands.new_hand("Ann", rng)
    h.draw(rng, 5)
    all_ = {"Ann": h}
    hands.choose(all_, "Ann", "Archer", h.hand[0])
    assert h.held == 10 and h.draw(rng, 1) == (0, False)  # the face-down card is held
    with pytest.raises(RuleViolation, match="is Ann's card chosen face down for Archer"):
        h.find(h.chosen.card if h.chosen else h.hand[0])


# --------------------------------------------------------------------------- conflicts


def stack_hand(path: Path, player: str, hand: list[str], discard: list[str] = (),  # type: ignore[assignment]
               top: list[str] = ()) -> None:  # type: ignore[assignment]
    """Give ``player`` exactly this hand and discard pile, ``top`` on top of the deck."""
    from d2d_cli import session

    with session.edit(path, "test: stack a hand") as tx:
        table = dict(tx.data["players"])
        named = [parse_card(c) for c in [*hand, *discard, *top]]
        faces = {c.face for c in named}
        rest = [c.code for c in full_deck() if c.face not in faces]
        table[player] = {"deck": [*(parse_card(c).code for c in top), *rest],
                         "hand": [parse_card(c).code for c in hand],
                         "discard": [parse_card(c).code for c in discard]}
        tx.put("players", table)


def test_a_card_played_from_the_hand_leaves_it(d2d: Any, tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    stack_hand(path, "Ann", ["7S", "QH", "2C"], top=["9D"])
    s = ("--session", path)
    assert_refused(lambda *a: d2d(*s, *a), tmp_path,
                   ["conflict", "Archer:hand:5D^", "Goblin", "--skill", "Ranged"],
                   "5D is not in Ann's hand")
    # Strong (2♣ Upper) vs the Goblin's Block (4♥, red: Lower): Strong wins, no draw
    r = d2d.json(*s, "conflict", "Archer:hand:2C^", "Goblin", "--skill", "Ranged",
                 "--card", "4H", "--card", "5H")
    assert r["outcome"] == "a" and r["side_a"]["card"]["code"] == "2C^"
    assert r["hands"] == [{"player": "Ann", "unit": "Archer", "played": r["side_a"]["card"],
                           "stayed": False, "kept": False, "drew": 0, "took": None,
                           "shuffled": False, "hand": 2, "set_aside": False}]
    got = players(path)["Ann"]
    assert (got["hand"], got["discard"]) == (["7S^", "QH^"], ["2C^"])


def test_fast_draws_block_keeps_and_draws(d2d: Any, tmp_path: Path) -> None:
    # 001 l.740 "Fast … Hit and Draw a card"; l.746 "Block - Keep Block and Draw a card"
    path = table(d2d, tmp_path)
    s = ("--session", path)
    stack_hand(path, "Ann", ["7S", "QH"], top=["9D", "3C"])
    # Fast (7♠ Upper) vs Strong (K♣ black: Upper): Fast wins and draws 9♦
    r = d2d.json(*s, "conflict", "Archer:hand:7S^", "Goblin", "--skill", "Ranged",
                 "--card", "KC", "--card", "KS")
    assert r["outcome"] == "a" and r["hands"][0]["drew"] == 1
    assert players(path)["Ann"]["hand"] == ["QH^", "9D^"]
    # Block (Q♥ Lower) vs Fast (the Goblin's 10♠ black: Upper): Block keeps and draws 3♣
    r = d2d.json(*s, "conflict", "Goblin", "Archer:hand:QHv", "--skill", "Ranged",
                 "--card", "10S", "--card", "JS")
    assert r["outcome"] == "b", r
    assert (r["hands"][0]["kept"], r["hands"][0]["drew"]) == (True, 1)
    got = players(path)["Ann"]
    assert (got["hand"], got["discard"]) == (["9D^", "QH^", "3C^"], ["7S^"])


def test_a_wild_takes_from_the_discard_and_shuffles(d2d: Any, tmp_path: Path) -> None:
    # 001 l.757–758 "Wild - Win vs Fast or Strong / Draw from Discard. Always Shuffle"
    path = table(d2d, tmp_path)
    s = ("--session", path)
    stack_hand(path, "Ann", ["BW", "4D"], discard=["8C", "JH"])
    r = d2d.json(*s, "conflict", "Archer:hand:BW", "Goblin", "--skill", "Ranged",
                 "--card", "KC", "--card", "KS", "--gain", "JH")
    assert r["outcome"] == "a", r
    move = r["hands"][0]
    assert (move["took"]["code"], move["shuffled"], move["hand"]) == ("JH^", True, 2)
    got = players(path)["Ann"]
    assert got["hand"] == ["4D^", "JH^"] and got["discard"] == [] and len(got["deck"]) == 52
    assert "BW^" in got["deck"] and "8C^" in got["deck"]


def test_face_down_both_sides_then_revealed_together(d2d: Any, tmp_path: Path) -> None:
    # 001 l.732 "Play a Conflict facedown from hand"; l.760 "Both Players Reveal"
    path = table(d2d, tmp_path, narrator_hand=True)
    s = ("--session", path)
    stack_hand(path, "Ann", ["7S", "QH"])
    stack_hand(path, "Narrator", ["KC", "3D"])
    d2d.ok(*s, "hand", "choose", "Goblin", "KC^")  # either side first
    d2d.ok(*s, "hand", "choose", "Archer", "7S^")
    r = d2d.json(*s, "conflict", "Archer", "Goblin", "--skill", "none")  # both Unskilled
    assert (r["side_a"]["card"]["code"], r["side_b"]["card"]["code"]) == ("7S^", "KC^")
    assert [m["player"] for m in r["hands"]] == ["Ann", "Narrator"]
    got = players(path)
    assert "chosen" not in got["Ann"] and "chosen" not in got["Narrator"]
    assert got["Ann"]["discard"] == ["7S^"] and got["Narrator"]["discard"] == ["KC^"]


def test_stay_returns_the_card_and_reveals_fate(d2d: Any, tmp_path: Path) -> None:
    # 000 l.419 "Stay - Return your Conflict card to your hand and Reveal a Fate card"
    path = table(d2d, tmp_path)
    s = ("--session", path)
    stack_hand(path, "Ann", ["7S", "QH"])
    d2d.ok(*s, "hand", "choose", "Archer", "QHv")
    r = d2d.json(*s, "conflict", "Archer:stay", "Goblin", "--skill", "Ranged",
                 "--card", "5S", "--card", "4H", "--card", "5H")
    assert r["side_a"]["source"] == "fate" and r["hands"][0]["stayed"] is True
    got = players(path)["Ann"]
    assert sorted(got["hand"]) == ["7S^", "QH^"] and "chosen" not in got


def test_round_end_draws_a_card_for_each_player(d2d: Any, tmp_path: Path) -> None:
    # 001 l.1037 "Draw - Each Player draws a card"
    path = table(d2d, tmp_path)
    s = ("--session", path)
    d2d.ok(*s, "round", "start")
    draw = d2d.json(*s, "round", "end")["steps"][0]
    assert draw["hands"] == [{"player": "Ann", "drew": 1, "reshuffled": False, "hand": 6},
                             {"player": "Bo", "drew": 1, "reshuffled": False, "hand": 6}]
    assert [len(p["hand"]) for p in players(path).values()] == [6, 6]


def test_the_docs_quote_every_rule_they_rest_on() -> None:
    from tests.helpers import ROOT, check_quotes

    text = (ROOT / "docs" / "rules.md").read_text("utf-8")
    start = text.index("## The table: sides, hands and face-down cards (issue 31)")
    section = text[start:text.index("\n## ", start + 1)]
    assert check_quotes(section) >= 12
    assert check_quotes(hands.__doc__ or "") >= 3


def test_a_units_name_may_hold_a_colon() -> None:
    from d2d_cli.rules.units.roster import roster_view

    rng = random.Random(3)
    h = hands.new_hand("Ann", rng)
    data = {"units": {"Sir: Rook": {"player": "Ann", "body": "5x1"}},
            "players": {"Ann": h.to_state()}}
    card = h.hand[0].code
    typed, plays = hands.sides_from_hands([f"Sir: Rook:hand:{card}", "fast"], data,
                                          roster_view(data), "d2d", False)
    assert typed == [f"Sir: Rook:{card}", "fast"] and plays[0].player == "Ann"
    hands.choose({"Ann": h}, "Ann", "Sir: Rook", h.hand[1])
    data["players"] = {"Ann": h.to_state()}
    typed, plays = hands.sides_from_hands(["sir: rook", "fast"], data, roster_view(data),
                                          "d2d", False)
    assert typed[0] == f"Sir: Rook:{h.chosen.card.code if h.chosen else ''}"
    assert plays[0].how == "chosen"
