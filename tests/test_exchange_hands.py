"""Every card a Player plays comes from and goes to their hand (issue 34 item 3) when
d2d holds the hands (``[rules] hands = "d2d"``): a typed ``NAME:CARD``, the combo cards of
``hit``, the card set aside under Advantage or Disadvantage, the card a winning Wild gains,
the Wild of Wild Luck and the Character Points of Luck."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import assert_refused
from tests.test_hands import players, stack_hand, table


def test_a_typed_card_must_be_in_the_hand(d2d: Any, tmp_path: Path) -> None:
    # 001 l.732 "Play a Conflict facedown from hand"
    path = table(d2d, tmp_path)
    stack_hand(path, "Ann", ["7S", "QH", "2C"], top=["9D"])
    s = ("--session", path)
    assert_refused(lambda *a: d2d(*s, *a), tmp_path,
                   ["conflict", "Archer:5D^", "Goblin", "--skill", "Ranged"],
                   "5D is not in Ann's hand")
    # the README's own form: the card leaves the hand and, Fast winning, one is drawn
    # (001 l.740 "Fast - Win vs Strong or Evade. Hit and Draw a card")
    r = d2d.json(*s, "conflict", "Archer:7S^", "Goblin", "--skill", "Ranged",
                 "--card", "KC", "--card", "KS")
    assert r["outcome"] == "a" and r["side_a"]["card"]["code"] == "7S^"
    assert (r["hands"][0]["played"]["code"], r["hands"][0]["drew"]) == ("7S^", 1)
    got = players(path)["Ann"]
    assert (got["hand"], got["discard"]) == (["QH^", "2C^", "9D^"], ["7S^"])
    # a card already played is no longer held
    assert_refused(lambda *a: d2d(*s, *a), tmp_path,
                   ["conflict", "Archer:7S^", "Goblin", "--skill", "Ranged"],
                   "7S is not in Ann's hand")


def test_a_typed_card_that_is_the_face_down_one_plays_it(d2d: Any, tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    stack_hand(path, "Ann", ["7S", "QH"])
    s = ("--session", path)
    d2d.ok(*s, "hand", "choose", "Archer", "7S^")
    r = d2d.json(*s, "conflict", "Archer:7S^", "Goblin", "--skill", "Ranged",
                 "--card", "KC", "--card", "KS")
    assert r["hands"][0]["played"]["code"] == "7S^"
    got = players(path)["Ann"]
    assert "chosen" not in got and got["discard"] == ["7S^"]


def test_a_players_unit_without_a_card_is_told_how_to_give_one(d2d: Any,
                                                               tmp_path: Path) -> None:
    path = table(d2d, tmp_path)
    s = ("--session", path)
    res = assert_refused(lambda *a: d2d(*s, *a), tmp_path,
                         ["conflict", "Archer", "Goblin", "--skill", "Ranged"],
                         "Archer has no card chosen face down: Ann chooses one from the hand "
                         "(d2d hand choose Archer CARD) or names it here as Archer:CARD")
    assert "7S^" not in res.stderr  # no card suggested that may not be held


def test_the_card_set_aside_by_advantage_is_discarded_never_kept(d2d: Any,
                                                                tmp_path: Path) -> None:
    # 000 l.423 "Advantage - IF you have Advantage THEN Reveal Fate. Use either of the 2
    # Conflict cards"; 000 l.491 "Discard the remaining revealed Conflict cards";
    # 000 l.1208 "Keep - Return this card to your hand" (the Fate Block that won is not
    # the Player's: nothing returns, and the 2♣ set aside is discarded)
    path = table(d2d, tmp_path)
    stack_hand(path, "Ann", ["2C", "7S"], top=["9D"])
    s = ("--session", path)
    # A's 2♣ (Strong) or the Fate Q♥ (red: Lower, Block) against the Goblin's 10♠ and J♠
    # (black: Upper, Fast; Unskilled, the worst kept): the Block is kept and wins.
    r = d2d.json(*s, "conflict", "Archer:2C^", "Goblin", "--skill", "Ranged",
                 "--advantage", "a", "--card", "QH", "--card", "10S", "--card", "JS")
    assert r["outcome"] == "a" and r["side_a"]["card"]["code"] == "QHv", r["side_a"]
    move = r["hands"][0]
    assert (move["set_aside"], move["kept"], move["drew"]) == (True, False, 1)
    got = players(path)["Ann"]
    assert (got["hand"], got["discard"]) == (["7S^", "9D^"], ["2C^"])


def test_a_winning_wild_gains_the_card_the_player_names(d2d: Any, tmp_path: Path) -> None:
    # 000 l.444–445 "Wild vs. Fast - Wild Succeeds. Gain any card from Discard"
    path = table(d2d, tmp_path)
    stack_hand(path, "Ann", ["BW", "4D"], discard=["8C", "JH"])
    s = ("--session", path)
    argv = ["conflict", "Archer:BW", "Goblin", "--skill", "Ranged", "--card", "KC",
            "--card", "KS"]
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, argv,
                   "the Wild wins: Ann gains any card from the discard pile (000 "
                   "l.444–445): give --gain CARD, one of JH, 8C")
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, [*argv, "--gain", "QS"],
                   "--gain QS: not in Ann's discard pile (it holds JH, 8C)")
    r = d2d.json(*s, *argv, "--gain", "8C")
    assert r["hands"][0]["took"]["code"] == "8C^"  # the older card: the Player's pick
    got = players(path)["Ann"]
    assert got["hand"] == ["4D^", "8C^"] and "JH^" in got["deck"]


def test_gain_is_refused_without_hands(d2d: Any, tmp_path: Path) -> None:
    from tests.helpers import with_rules

    path = with_rules(d2d, tmp_path)
    assert_refused(lambda *a: d2d("--session", path, *a), tmp_path,
                   ["conflict", "wild", "fast", "--gain", "8C"],
                   "--gain names the card a Player's winning Wild takes")


def test_hit_takes_combo_cards_from_the_hand(d2d: Any, tmp_path: Path) -> None:
    # 001 l.826 "Combo - Play cards to make an allowed set"
    path = table(d2d, tmp_path)
    stack_hand(path, "Ann", ["QH", "QS", "4D"], top=["9D"])
    s = ("--session", path)
    # Strong (Q♥ … Upper Cups is Fast): Fast vs the Goblin's Strong (K♣, K♠ black Upper)
    r = d2d.json(*s, "conflict", "Archer:QH^", "Goblin", "--skill", "Ranged",
                 "--card", "KC", "--card", "KS")
    assert r["outcome"] == "a"
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, ["hit", "QH", "QC"],
                   "QC is not in Ann's hand")
    h = d2d.json(*s, "hit", "QH", "QS")
    assert h["combo"] == "of_a_kind" and h["hand"]["cards"][0]["code"] == "QS^"
    got = players(path)["Ann"]
    assert "QS^" not in got["hand"] and got["discard"] == ["QH^", "QS^"]
    assert "Ann played QS (combo)" in d2d.ok(*s, "session", "log")


def _cp(path: Path, unit: str) -> int:
    import tomllib

    return int(tomllib.loads(path.read_text("utf-8"))["units"][unit].get("cp", 0))


def test_wild_luck_discards_a_wild_from_the_hand(d2d: Any, tmp_path: Path) -> None:
    # 000 l.526 "Wild Luck - Discard a Wild Card to cancel ALL Successes. IF reasonable
    # THEN an adjacent Ally may do this instead."
    path = table(d2d, tmp_path)
    s = ("--session", path)
    stack_hand(path, "Ann", ["7S", "QH"])
    argv = ["crit", "--power", "6x1", "--target", "Archer", "--hits", "3", "--wild-luck"]
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, argv,
                   "--wild-luck: Ann holds no Wild to discard (000 l.526")
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, [*argv[:-3], "--target", "Goblin",
                                                        "--hits", "3", "--wild-luck"],
                   "--wild-luck: Goblin holds no hand to discard a Wild from")
    stack_hand(path, "Ann", ["7S", "BW", "RW"])
    r = d2d.json(*s, *argv)
    assert r["damage_modifiers"]["damage"] == 0
    assert r["hand"]["cards"][0]["code"] == "BW^" and r["hand"]["why"] == "Wild Luck"
    got = players(path)["Ann"]
    assert (got["hand"], got["discard"]) == (["7S^", "RW^"], ["BW^"])  # one Wild, not both
    # an adjacent Ally's Player may do it instead: Bo's Wild for Archer
    stack_hand(path, "Bo", ["RW", "2C"])
    r = d2d.json(*s, *argv, "--from", "Thief")
    assert r["hand"]["player"] == "Bo" and players(path)["Bo"]["hand"] == ["2C^"]
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, [*argv, "--from", "Goblin"],
                   "--from Goblin: not an Ally of Archer")


def test_luck_from_an_adjacent_allys_character_points(d2d: Any, tmp_path: Path) -> None:
    # 000 l.533 "Luck - The Unit's Player (or an adjacent Unit's Player) may spend any
    # number of Character Points to reduce the Damage by that amount."
    path = table(d2d, tmp_path)
    s = ("--session", path)
    from d2d_cli import session

    with session.edit(path, "test: character points") as tx:
        units = dict(tx.data["units"])
        units["Thief"] = {**units["Thief"], "cp": 3, "space": "C3", "facing": "N"}
        units["Archer"] = {**units["Archer"], "cp": 1, "space": "C4", "facing": "N"}
        tx.put("units", units)
    r = d2d.json(*s, "crit", "--power", "6x1", "--target", "Archer", "--hits", "2",
                 "--luck", "2", "--from", "Thief")
    assert r["damage_modifiers"]["cp_spent"] == 2
    assert (_cp(path, "Thief"), _cp(path, "Archer")) == (1, 1)
    with session.edit(path, "test: apart") as tx:
        units = dict(tx.data["units"])
        units["Thief"] = {**units["Thief"], "space": "C7"}
        tx.put("units", units)
    assert_refused(lambda *a: d2d(*s, *a), tmp_path,
                   ["crit", "--power", "6x1", "--target", "Archer", "--hits", "2",
                    "--luck", "1", "--from", "Thief"],
                   "--from Thief: not adjacent to Archer on the map (000 l.533")


def test_a_counter_win_plays_the_counter_attack_from_the_hand(d2d: Any,
                                                              tmp_path: Path) -> None:
    # 001 l.752–754 "Counter - Win vs Fast or Wild / Counterattack with a Fast or Strong";
    # 000 l.442 "Counter Succeeds. Discard Counter. Play another Conflict vs. No Conflict"
    path = table(d2d, tmp_path)
    s = ("--session", path)
    stack_hand(path, "Ann", ["5D", "KS", "3C", "BW"])
    d2d.ok(*s, "round", "start")
    d2d.ok(*s, "unit", "act", "Goblin", "interact", "Archer")
    d2d.ok(*s, "unit", "respond", "Archer")
    # the Goblin's 9♠ or 10♠ (black: Upper, Fast; Unskilled) against Archer's Counter (5♦ Lower)
    argv = ["conflict", "Goblin", "Archer:5Dv", "--skill", "none", "--card", "9S",
            "--card", "10S"]
    assert_refused(lambda *a: d2d(*s, *a), tmp_path, [*argv, "--counter", "QH"],
                   "QH is not in Ann's hand")
    r = d2d.json(*s, *argv)
    assert r["outcome"] == "b"
    # not named: the best card held for Hits, a royal (001 l.836), never the Wild
    assert r["counter"] == {"side": "b", "unit": "Archer", "card": r["counter"]["card"],
                            "approach": "fast", "source": "hand", "reading": "001"}
    assert r["counter"]["card"]["code"] == "KS^"
    got = players(path)["Ann"]
    assert sorted(got["hand"]) == ["3C^", "BW^"] and got["discard"] == ["5Dv", "KS^"]
    # hit then counts the counter-attack card's Hits, Archer on the Goblin
    h = d2d.json(*s, "hit")
    assert [c["card"]["code"] for c in h["cards"]] == ["KS^"] and h["hits"] >= 1
    assert h["sources"]["exchange"] == "From the conflict: Archer vs Goblin, KS^"


def test_a_non_players_counter_reveals_fate(d2d: Any, tmp_path: Path) -> None:
    # 001 l.734 "NPCs use a Fate card instead": the next Fate card, read Upper
    path = table(d2d, tmp_path)
    s = ("--session", path)
    stack_hand(path, "Ann", ["7S", "QH"])
    r = d2d.json(*s, "conflict", "Archer:7S^", "Goblin", "--skill", "Ranged", "--spent",
                 "--card", "5D", "--card", "6D", "--card", "JC")
    assert r["outcome"] == "b" and r["approach_b"] == "counter"
    assert (r["counter"]["card"]["code"], r["counter"]["approach"],
            r["counter"]["source"]) == ("JC^", "strong", "fate")
    # under [rules] counter = "000" the Counter card itself scores (000 l.163 "IF a Fast,
    # Strong, or Counter Succeeds THEN determine Successes"): no more Fate
    other = table(d2d, tmp_path / "o", counter="000")
    stack_hand(other, "Ann", ["7S", "QH"])
    r = d2d.json("--session", other, "conflict", "Archer:7S^", "Goblin", "--skill",
                 "Ranged", "--spent", "--card", "5D", "--card", "6D")
    assert (r["counter"]["card"]["code"], r["counter"]["source"]) == ("5Dv", "counter")


def test_the_docs_quote_every_rule_issue_34_rests_on() -> None:
    from tests.helpers import ROOT, check_quotes

    text = (ROOT / "docs" / "rules.md").read_text("utf-8")
    start = text.index("## The exchange through the Players' hands (issue 34)")
    section = text[start:text.index("\n## ", start + 1)]
    assert check_quotes(section) >= 9


def test_at_a_terminal_the_wilds_gain_is_asked(d2d: Any, tmp_path: Path,
                                               monkeypatch: Any) -> None:
    from d2d_cli.commands import conflict

    monkeypatch.setattr(conflict, "_interactive", lambda: True)
    path = table(d2d, tmp_path)
    stack_hand(path, "Ann", ["BW", "4D"], discard=["8C", "JH"])
    res = d2d("--session", path, "conflict", "Archer:BW", "Goblin", "--skill", "Ranged",
              "--card", "KC", "--card", "KS", input="8C\n")
    assert res.exit_code == 0, res.stderr
    assert "The Wild wins: Ann gains a card from the discard pile (JH, 8C)" in res.stdout
    assert players(path)["Ann"]["hand"] == ["4D^", "8C^"]
