"""What the round remembers (issue 19 items 3 and 11): the table says a thing once.

001 l.639–641 "Target may spend an Action / IF not Target gains no benefits on a Win";
000 l.310 "Interrupt - IF target was moving THEN the target stops moving until this
Interrupt is complete. The target must now choose to spend an Action or not. IF they do
not THEN they gain no benefit if they Succeed in the Conflict"; 001 l.625 "Interrupt -
Pause the Countdown"; 001 l.685 "Close Combat - Range:0-1"; l.716 "Cover:+25% - for each
obstacle encountered".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import assert_refused, rule_line, with_rules

UNITS = ("Archer", "Thief", "Goblin Scout", "Goblin Skirmisher")


def _table(d2d: Any, path: Path, *, on_map: bool = False) -> list[Any]:
    """Combat #1's units in a round; off its map unless ``on_map`` (what is said here is
    tested without the map's geometry; tests/test_combat1_replay.py plays both)."""
    s = ["--session", path]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")
    if not on_map:
        for name in UNITS:
            d2d.ok(*s, "unit", "place", name, "off")
    d2d.ok(*s, "round", "start")
    return s


def test_the_quoted_lines() -> None:
    assert rule_line("001", 639) == "Target may spend an Action"
    assert rule_line("001", 641) == "IF not Target gains no benefits on a Win"
    assert "The target must now choose to spend an Action or not" in rule_line("000", 310)


def test_a_target_that_spends_an_action_keeps_its_benefit(d2d: Any, tmp_path: Path) -> None:
    s = _table(d2d, tmp_path / "t.toml")
    d2d.ok(*s, "unit", "act", "Goblin Skirmisher", "interact", "Archer")
    r = d2d.json(*s, "unit", "respond", "Archer")
    assert (r["action"], r["benefit"], r["spending"]["move"]) == (True, True, 3)
    r = d2d.json(*s, "conflict", "Goblin Skirmisher", "Archer:5Hv", "--card", "9S")
    assert [e["key"] for e in r["effects"]["b"]] == ["keep", "draw"]
    assert r["notes"] == [] and r["sources"]["target_action"] == "Archer spent an Action"


def test_an_unanswered_interact_gives_no_benefit(d2d: Any, tmp_path: Path) -> None:
    # 001: the Target of any Interact that spent no Action (it never answered).
    s = _table(d2d, tmp_path / "t.toml")
    d2d.ok(*s, "unit", "act", "Archer", "interact", "Goblin Scout")
    r = d2d.json(*s, "conflict", "Archer:4H^", "Goblin Scout", "--card", "5D")
    assert (r["approach_b"], r["outcome"], r["effects"]["b"]) == ("counter", "b", [])
    assert r["notes"][0].startswith("No benefit for B: Goblin Scout spent no Action on "
                                    "Archer's Interact, so no Counter-attack (001 "
                                    "l.639–641")
    # --spent overrides what the round recorded.
    # (and the Scout's Counter, a Non-Player's, counter-attacks with the next Fate card
    # read Upper: 001 l.754 "Counterattack with a Fast or Strong")
    r = d2d.json(*s, "conflict", "Archer:4H^", "Goblin Scout", "--card", "5D", "--card", "KS",
                 "--spent")
    assert [e["key"] for e in r["effects"]["b"]] == ["counterattack"]
    assert r["counter"]["card"]["code"] == "KS^" and r["counter"]["approach"] == "fast"


def test_000_reading_asks_only_an_interrupted_target(d2d: Any, tmp_path: Path) -> None:
    path = with_rules(d2d, tmp_path, target_action="000")
    s = ["--session", path]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")
    for name in UNITS:
        d2d.ok(*s, "unit", "place", name, "off")
    d2d.ok(*s, "round", "start")
    d2d.ok(*s, "unit", "act", "Archer", "interact", "Goblin Scout")
    r = d2d.json(*s, "conflict", "Archer:4H^", "Goblin Scout", "--card", "5D", "--card",
                 "KS")
    assert [e["key"] for e in r["effects"]["b"]] == ["counterattack"]  # not interrupted
    d2d.ok(*s, "unit", "interrupt", "Goblin Skirmisher", "Archer")
    d2d.ok(*s, "unit", "act", "Goblin Skirmisher", "interact", "Archer")
    r = d2d.json(*s, "conflict", "Goblin Skirmisher", "Archer:5Hv", "--card", "9S")
    assert r["effects"]["b"] == [] and "(000 l.310" in r["notes"][0]


def test_unnamed_sides_say_it_with_a_flag(d2d: Any) -> None:
    r = d2d.json("conflict", "fast", "block", "--unspent")
    assert (r["outcome"], r["effects"]["b"]) == ("b", [])
    r = d2d.json("conflict", "fast", "block")
    assert [e["key"] for e in r["effects"]["b"]] == ["keep", "draw"]


def test_said_once_read_by_conflict_and_hit(d2d: Any, tmp_path: Path) -> None:
    s = _table(d2d, tmp_path / "t.toml")
    r = d2d.json(*s, "unit", "situation", "Goblin Skirmisher", "--vs", "Archer", "--range",
                 "3", "--high-ground")
    assert (r["range"], r["high_ground"]) == ({"Archer": 3}, ["Archer"])
    d2d.ok(*s, "unit", "situation", "Archer", "--cover", "50", "--vs", "Goblin Skirmisher")
    # The Skirmisher's javelin at Range 3: Ranged by reach, without --skill (its Close
    # Combat 1 comes first but reaches Range 0-1 only, 001 l.685).
    r = d2d.json(*s, "conflict", "Goblin Skirmisher", "Archer:5Hv", "--card", "9S")
    assert (r["side_a"]["skill"], r["sources"]["skill_by_reach"].split(":")[0]) == (
        "Ranged", "Goblin Skirmisher Ranged")
    assert [(m["key"], m["side"], m["level"]) for m in r["modifiers"]] == [
        ("cover", "a", -2), ("high_ground", "a", 1)]
    r = d2d.json(*s, "hit", "9S", "--by", "Goblin Skirmisher", "--vs", "Archer")
    assert [(m["key"], m["side"], m["level"]) for m in r["modifiers"]] == [
        ("cover", "a", -2), ("high_ground", "a", 1)]
    # A typed option wins over what was said.
    r = d2d.json(*s, "hit", "9S", "--by", "Goblin Skirmisher", "--vs", "Archer", "--cover",
                 "b:25")
    assert [(m["key"], m["level"]) for m in r["modifiers"]] == [("cover", -1),
                                                                ("high_ground", 1)]
    # Said again, it changes; --clear forgets it; the round's end ends it.
    d2d.ok(*s, "unit", "situation", "Archer", "--cover", "0", "--vs", "Goblin Skirmisher")
    d2d.ok(*s, "unit", "situation", "Goblin Skirmisher", "--clear")
    r = d2d.json(*s, "hit", "9S", "--by", "Goblin Skirmisher", "--vs", "Archer")
    assert r["modifiers"] == [] and "said_range" not in r["sources"]
    d2d.ok(*s, "unit", "situation", "Archer", "--cover", "25")
    d2d.ok(*s, "round", "end")
    d2d.ok(*s, "round", "start")
    r = d2d.json(*s, "hit", "9S", "--by", "Goblin Skirmisher", "--vs", "Archer")
    assert r["modifiers"] == []


def test_a_rival_out_of_reach_is_not_offered_a_counter(d2d: Any, tmp_path: Path) -> None:
    s = _table(d2d, tmp_path / "t.toml")
    d2d.ok(*s, "unit", "situation", "Archer", "--vs", "Goblin Scout", "--range", "3")
    # The Scout's Close Combat reaches Range 0-1 (001 l.685): at 3 its Counter wins
    # nothing to strike back with.
    r = d2d.json(*s, "conflict", "Archer:4H^", "Goblin Scout", "--card", "5D")
    assert (r["approach_b"], r["outcome"], r["effects"]["b"]) == ("counter", "b", [])
    assert r["notes"] == ["No Counter-attack for B: it cannot reach A at this Range "
                          "(001 l.685–695)"]


def test_interrupt_and_respond_are_tracked(d2d: Any, tmp_path: Path) -> None:
    s = _table(d2d, tmp_path / "t.toml")
    r = d2d.json(*s, "unit", "interrupt", "Goblin Skirmisher", "Archer")
    assert r["interrupted_by"] == ["Goblin Skirmisher"]
    d2d.ok(*s, "unit", "act", "Goblin Skirmisher", "interact", "Archer")
    r = d2d.json(*s, "unit", "respond", "Archer", "--no-action")
    assert (r["interrupt"], r["action"], r["benefit"]) == (True, False, False)
    # The Status Bar shows what the round remembers.
    d2d.ok(*s, "unit", "situation", "Archer", "--cover", "25")
    rows = {u["name"]: u["said"] for u in d2d.json(*s, "status")["units"]}
    assert rows["Archer"] == ["Cover 25%", "Interrupted by Goblin Skirmisher",
                              "Target of Goblin Skirmisher: no Action"]
    assert rows["Thief"] == []
    d2d.ok(*s, "round", "end")
    assert all(not u["said"] for u in d2d.json(*s, "status")["units"])


def test_refusals_change_nothing(d2d: Any, tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    path = folder / "t.toml"
    s = ["--session", path]
    d2d.ok(*s, "--seed", 1, "scene", "load", "combat1")
    for name in UNITS:
        d2d.ok(*s, "unit", "place", name, "off")
    assert_refused(d2d, folder, [*s, "unit", "situation", "Archer", "--cover", "25"],
                   "no round is under way")
    d2d.ok(*s, "round", "start")
    for args, message in (
            (["unit", "situation", "Archer", "--cover", "30"], "in steps of 25"),
            (["unit", "situation", "Archer", "--range", "3"], "add --vs OTHER"),
            (["unit", "situation", "Archer", "--vs", "Archer", "--range", "3"],
             "name another unit"),
            (["unit", "situation", "Archer"], "say something"),
            (["unit", "situation", "Archer", "--clear", "--cover", "25"], "give it alone"),
            (["unit", "situation", "Nobody", "--cover", "25"], "Nobody"),
            (["unit", "respond", "Archer"], "no Interact aims at Archer"),
            (["unit", "interrupt", "Archer", "Archer"], "name another unit")):
        assert_refused(d2d, folder, [*s, *args], message)
    d2d.ok(*s, "unit", "act", "Goblin Skirmisher", "interact", "Archer")
    d2d.ok(*s, "unit", "respond", "Archer", "--no-action")
    assert_refused(d2d, folder, [*s, "unit", "respond", "Archer"],
                   "Archer already chose not to spend an Action")
    d2d.ok(*s, "unit", "act", "Thief", "interact")
    d2d.ok(*s, "unit", "act", "Thief", "interact")
    assert_refused(d2d, folder, [*s, "unit", "interrupt", "Thief", "Archer"],
                   "Thief has Move 0; an Interrupt is an Action")
    assert_refused(d2d, folder, [*s, "unit", "act", "Thief", "interact"],
                   "Thief has Move 0; Interact costs 2")


def test_odds_read_the_same_levels(d2d: Any, tmp_path: Path) -> None:
    # "an effect that changes a roll changes its odds": the Archer's Cover said once
    # lowers the Scout's Level in `odds conflict` as in `conflict` (001 l.718 "Level:-1
    # for each 25%").
    folder = tmp_path / "s"
    folder.mkdir()
    s = _table(d2d, folder / "t.toml")
    bare = d2d.json(*s, "odds", "conflict", "Archer:7S^", "Goblin Scout")
    assert (bare["level_a"], bare["level_b"]) == (1, 1)
    d2d.ok(*s, "unit", "situation", "Archer", "--cover", "25")
    got = d2d.json(*s, "odds", "conflict", "Archer:7S^", "Goblin Scout")
    assert (got["side_a"], got["level_a"], got["level_b"]) == ("Archer:7S^", 1, 0)
    same = d2d.json(*s, "odds", "conflict", "7S^", "fate", "--level-a", "1", "--level-b",
                    "0")
    assert [got[k] for k in ("a_wins", "b_wins", "both_win", "tie")] == [
        same[k] for k in ("a_wins", "b_wins", "both_win", "tie")]
    assert got["a_wins"] != bare["a_wins"]  # the Level Bonus of a Fast-Fast tiebreak
    # Blessed: Advantage (000 l.423 "Reveal Fate. Use either of the 2 Conflict cards"),
    # counted by the odds since qa19 (tests/test_qa19.py checks them card by card).
    d2d.ok(*s, "unit", "condition", "Archer", "add", "blessed")
    blessed = d2d.json(*s, "odds", "conflict", "Archer:7S^", "Goblin Scout")
    assert (blessed["level_a"], blessed["level_b"]) == (1, 0)
    assert blessed["a_wins"]["value"] > got["a_wins"]["value"]
    assert blessed["b_wins"]["value"] < got["b_wins"]["value"]


def test_on_the_map_the_default_skill_follows_the_maps_range(d2d: Any,
                                                             tmp_path: Path) -> None:
    # Combat #1's map puts the Skirmisher 4 Spaces from the Archer: its javelin (Ranged),
    # not its Close Combat (001 l.685 "Close Combat - Range:0-1"), with nothing said.
    s = _table(d2d, tmp_path / "t.toml", on_map=True)
    r = d2d.json(*s, "conflict", "Goblin Skirmisher", "Archer:5Hv", "--card", "9S")
    assert (r["side_a"]["skill"], r["map"]["range"]) == ("Ranged", 4)
    assert r["sources"]["skill_by_reach"] == ("Goblin Skirmisher Ranged: its best Combat "
                                              "skill that reaches Range 4 (001 l.685–695)")
    r = d2d.json(*s, "hit", "9S", "--by", "Goblin Skirmisher", "--vs", "Archer")
    assert r["sources"]["skill_by_reach"].startswith("Goblin Skirmisher Ranged")
