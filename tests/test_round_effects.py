"""What a Special Action leaves on a unit for the Round, read by every command that reads
the unit (issue 19 items 1, 2, 8 and 12): Push the Limit, Grit your Teeth, Burst of
Speed, Evade, the Dead, and 000's readings as [rules] options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Runner, assert_refused, check_quotes, with_rules


def setup(d2d: Runner, *session: Any) -> Runner:
    """Archer (Ranged 1, Body 8x1, Speed 4x0: Move 4, Action Cost 2) and Goblin (Close
    Combat 1, Body 2x1, Speed 5x0), round 1 started."""
    d2d.ok(*session, "unit", "add", "Archer", "--body", "8x1", "--mind", "5x1", "--will",
           "5x1", "--speed", "4x0", "--skill", "Ranged=1")
    d2d.ok(*session, "unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1", "--will",
           "2x1", "--speed", "5x0", "--skill", "Close Combat=1")
    d2d.ok(*session, "round", "start")
    return d2d


@pytest.fixture
def table(d2d: Runner) -> Runner:
    return setup(d2d)


def mods(r: dict[str, Any]) -> dict[str, int]:
    return {m["key"]: m["level"] for m in r["modifiers"]}


def test_the_sources_quote_the_text() -> None:
    from d2d_cli.rules.units import effects

    assert check_quotes("\n".join([*effects.SOURCES.values(), effects.PUSH_000,
                                   effects.EVADE_001, effects.EVADE_000])) == 5


def test_push_the_limit_adds_skill_1_to_conflict_hit_and_odds(table: Runner) -> None:
    # 001 l.595–597 "Push the Limit - Fatigue:+1 / Skill:+1 this Round". Its Fatigue is
    # a Stat Penalty like any other (000 l.453): Ranged's Body −1, Skill +1.
    before = table.json("hit", "5S", "--by", "Archer", "--vs", "Goblin")
    before_2 = table.json("hit", "2S", "--by", "Archer", "--vs", "Goblin")
    odds_before = table.json("odds", "hits", "1", "--by", "Archer", "--vs", "Goblin")
    table.ok("unit", "act", "Archer", "push-the-limit")
    r = table.json("hit", "5S", "--by", "Archer", "--vs", "Goblin")
    assert mods(r) == {"stat_penalties": -1, "push_the_limit": 1}
    assert (before["your_level"], r["your_level"]) == (1, 1)
    # With Grit your Teeth too (001 l.603–605 "Ignore all penalties this Round"), the
    # Fatigue's penalty goes and the +1 shows: Level 2 − the Goblin's 1 = 1.
    table.ok("unit", "act", "Archer", "grit")
    r = table.json("hit", "2S", "--by", "Archer", "--vs", "Goblin")
    assert mods(r) == {"push_the_limit": 1, "grit_your_teeth": 0}
    assert (r["your_level"], r["level"], r["hits"], r["glancing"]) == (2, 1, 1, False)
    assert before_2["glancing"] is True  # 2+0 ≤ 2 before
    c = table.json("conflict", "Archer:5S^", "Goblin:5H^")
    assert (c["side_a"]["level"], c["tiebreak"]["a"]["level_bonus"], c["outcome"]) == (
        2, 1, "a")
    # The odds read the same Levels: a 2 now Hits.
    odds = table.json("odds", "hits", "1", "--by", "Archer", "--vs", "Goblin")
    assert (odds_before["level"], odds["level"]) == (0, 1)
    assert (odds_before["glancing"]["fraction"], odds["glancing"]["fraction"]) == ("2/27", "0/1")
    c_odds = table.json("odds", "conflict", "Archer:5S^", "Goblin:5H^")
    assert c_odds["a_wins"]["fraction"] == "1/1"  # 5−1=4 beats 5: A wins outright
    assert table.json("odds", "conflict", "5S^", "5H^", "--level-a", "1", "--level-b", "1")[
        "both_win"]["fraction"] == "1/1"


def test_grit_your_teeth_ignores_the_penalties_on_the_status_bar_and_as_difficulty(
        table: Runner) -> None:
    # 001 l.603–605 "Grit your Teeth - Stress:+1 / Ignore all penalties this Round"
    table.ok("unit", "condition", "Goblin", "add", "fatigue")
    assert table.json("unit", "show", "Goblin")["stats"]["body"] == "1x1"
    assert table.json("hit", "2S", "--level", "1", "--vs", "Goblin")["difficulty"] == 1
    table.ok("unit", "act", "Goblin", "grit")
    row = table.json("unit", "show", "Goblin")
    assert (row["stats"]["body"], row["stats"]["will"]) == ("2x1", "2x1")
    assert table.json("hit", "2S", "--level", "1", "--vs", "Goblin")["difficulty"] == 2
    status = table.json("status")["units"][1]
    assert status["boosts"] == ["Grit your Teeth: Ignore all penalties this Round"]


def test_the_effects_end_with_the_round(table: Runner) -> None:
    # "this Round" (001 l.597, l.605): round end takes them off; the Fatigue stays.
    table.ok("unit", "act", "Archer", "push")
    table.ok("unit", "act", "Archer", "grit")
    table.ok("round", "end", "--recover", "Archer=none")  # the Fatigue stays
    r = table.json("hit", "5S", "--by", "Archer", "--vs", "Goblin")
    assert mods(r) == {"stat_penalties": -1}
    assert table.json("unit", "show", "Archer")["stats"]["will"] == "4x1"
    assert table.json("status")["units"][0]["boosts"] == []


def test_push_the_limit_000_reading(d2d: Runner, tmp_path: Path) -> None:
    # 000 l.254 "Push the Limit - Fatigue:+1 to gain Initiative:+1 and Normal Damage:+1
    # this Turn": a Conflict's Level +1, and in hit Hits +1 instead of the Level.
    s = ("--session", with_rules(d2d, tmp_path, push_the_limit="000"))
    setup(d2d, *s)
    d2d.ok(*s, "unit", "act", "Archer", "push")
    c = d2d.json(*s, "conflict", "Archer:5S^", "Goblin:5H^")
    assert mods(c) == {"stat_penalties": -1, "push_the_limit": 1}
    r = d2d.json(*s, "hit", "5S", "--by", "Archer", "--vs", "Goblin")
    assert mods(r) == {"stat_penalties": -1, "push_the_limit_damage": 0}
    assert (r["your_level"], r["hits"]) == (0, 2)
    odds = d2d.json(*s, "odds", "hits", "1", "--by", "Archer", "--vs", "Goblin")
    assert [row["hits"] for row in odds["distribution"]] == [0, 2]  # a Wild: no play


def test_burst_of_speed_000_reading(d2d: Runner, tmp_path: Path) -> None:
    # 001 l.607–609 "Burst of Speed - Slow:+1 / Move:+2 AND Turn:+1"; 000 l.257 "Burst of
    # Speed - Slow:+1 to Move:+1 AND Facing:+1"
    setup(d2d)
    assert d2d.json("unit", "act", "Archer", "burst")["move"] == 6
    s = ("--session", with_rules(d2d, tmp_path, burst_of_speed="000"))
    setup(d2d, *s)
    r = d2d.json(*s, "unit", "act", "Archer", "burst")
    assert (r["move"], r["turn"], r["conditions_added"]) == (5, 3, {"slow": 1})


def test_evade_is_a_response_inside_a_conflict(table: Runner, data_dir: Path) -> None:
    # 001 l.748–750 "Evade - Win vs Strong / Move:+2 (Win or Lose)"; l.639–641 "Target
    # may spend an Action / IF not Target gains no benefits on a Win": one Evade per
    # Interact Action, never on its own (Move 5 → 7 → 9 is refused).
    assert_refused(table, data_dir, ["unit", "act", "Goblin", "evade"],
                   "Goblin has no Conflict to Evade in")
    table.ok("unit", "act", "Goblin", "interact")
    assert table.json("unit", "act", "Goblin", "evade")["move"] == 5
    assert_refused(table, data_dir, ["unit", "act", "Goblin", "evade"],
                   "took 1 Interact Action(s) this Round and claimed 1 Evade(s)")


def test_evade_000_regains_the_move_spent(d2d: Runner, tmp_path: Path) -> None:
    # 000 l.494 "Evade - IF the Winner played an Evade THEN they regain the Move spent on
    # the Action"
    s = ("--session", with_rules(d2d, tmp_path, evade="000"))
    setup(d2d, *s)
    d2d.ok(*s, "unit", "act", "Goblin", "interact")
    assert d2d.json(*s, "unit", "act", "Goblin", "evade")["move"] == 5  # 5 − 2 + 2
    d2d.ok(*s, "unit", "act", "Goblin", "interact")
    d2d.ok(*s, "unit", "act", "Goblin", "interact")
    assert d2d.json(*s, "unit", "act", "Goblin", "evade")["move"] == 3  # 1 + 2


def test_evade_000_in_the_conflict_only_on_a_win(d2d: Runner, tmp_path: Path) -> None:
    # 000 l.494 "Evade - IF the Winner played an Evade THEN they regain the Move spent on
    # the Action": conflict said 001's "Move +2 (win or lose)" under evade = "000" too,
    # and unit act "won or lost"; now both say 000's, and a lost Evade gets nothing.
    s = ("--session", with_rules(d2d, tmp_path, evade="000"))
    setup(d2d, *s)
    d2d.ok(*s, "unit", "act", "Goblin", "interact", "Archer")
    d2d.ok(*s, "unit", "respond", "Archer")  # the Target spends its Action (001 l.639)
    # No Range is said, so no Disadvantage reveals a card: each outcome is fixed.
    won = d2d(*s, "conflict", "Goblin:9C^", "Archer:5Sv", "--why")
    assert won.exit_code == 0 and won.stdout.splitlines()[-2:] == [
        "B wins", "  B: Regain the Move spent on the Action (won; 000 l.494)"]
    lost = d2d.json(*s, "conflict", "Goblin:9S^", "Archer:5Sv")
    assert (lost["outcome"], lost["effects"]["b"]) == ("a", [])
    act = d2d.json(*s, "unit", "act", "Archer", "evade")
    assert (act["move"], act["note"], act["source"]) == (
        4, "An Evade that won its Conflict: the Action Cost back",
        '000 l.494 "Evade - IF the Winner played an Evade THEN they regain the Move spent '
        'on the Action"')
    # 001 (the default): Move +2, win or lose (001 l.748–750).
    setup(d2d)
    d2d.ok("unit", "act", "Goblin", "interact", "Archer")
    d2d.ok("unit", "respond", "Archer")
    lost = d2d.json("conflict", "Goblin:9S^", "Archer:5Sv")
    assert [e["key"] for e in lost["effects"]["b"]] == ["move"]


def test_reach_000_reading(d2d: Runner, tmp_path: Path) -> None:
    # 001 l.689–691 "Reach - Range:0-2 / Disadvantage at Range:0"; 000 l.321 "Reach -
    # Range:1 or 2. IF Range:1 THEN Initiative:-1"
    setup(d2d)
    r = d2d.json("conflict", "Archer:5S^", "Goblin:5H^", "--attack", "reach", "--range", "1")
    assert mods(r) == {}
    s = ("--session", with_rules(d2d, tmp_path, reach="000"))
    setup(d2d, *s)
    r = d2d.json(*s, "conflict", "Archer:5S^", "Goblin:5H^", "--attack", "reach",
                 "--range", "1")
    assert mods(r) == {"range": -1}
    res = d2d(*s, "conflict", "Archer:5S^", "Goblin:5H^", "--attack", "reach", "--range", "0")
    assert (res.exit_code, res.stderr) == (2, "d2d: error: Reach reaches Range 1-2 (000 "
                                              "l.321): Range 0 is too close\n")


def test_the_dead_enter_no_conflict_and_do_not_recover(table: Runner,
                                                       data_dir: Path) -> None:
    # 000 l.1172 "Dead - Permanent Negative Status"
    table.ok("unit", "condition", "Goblin", "add", "bleeding")
    table.ok("unit", "condition", "Goblin", "add", "fatigue")
    table.ok("unit", "condition", "Goblin", "add", "dead")
    for args in (["conflict", "Archer:5S^", "Goblin:5H^"],
                 ["conflict", "Goblin:5S^", "Archer:5H^"],
                 ["hit", "5S", "--by", "Archer", "--vs", "Goblin"],
                 ["odds", "conflict", "5S^", "Goblin:5H^"]):
        assert_refused(table, data_dir, args, "Goblin is Dead and cannot enter a Conflict")
    assert_refused(table, data_dir, ["round", "end", "--recover", "Goblin=fatigue"],
                   "Goblin is Dead and does not recover")
    ended = table.json("round", "end")
    recover = ended["steps"][1]
    assert recover["choices"] == []  # the Archer holds nothing; the Goblin recovers not
    events = ended["steps"][3]
    assert events == {"kind": "condition_events", "reveals": []}  # no Bleeding reveal


def test_the_dead_take_no_target_no_tokens_and_join_no_group(table: Runner,
                                                            data_dir: Path) -> None:
    # 000 l.1172 "Dead - Permanent Negative Status"; 001 l.475 "Groups - Split Units into
    # Groups by Target": a Dead Goblin chose a Target and its Group counted down with it.
    table.ok("unit", "target", "Goblin", "Archer")
    table.ok("unit", "condition", "Goblin", "add", "dead")
    assert_refused(table, data_dir, ["unit", "target", "Goblin", "Archer"],
                   "Goblin is Dead (000 l.1172")
    got = table.json("round", "groups")["groups"]
    assert [[m["name"] for m in g["units"]] for g in got] == [["Archer"]]
    table.ok("unit", "target", "Archer", "Goblin")  # a body may still be aimed at
    got = table.json("round", "groups")["groups"]
    assert [[m["name"] for m in g["units"]] for g in got] == [["Archer"]]
    table.ok("unit", "target", "Goblin", "--clear")
    # 001 l.459 "Refresh - Place tokens on each Unit# card": none for the Dead, whose
    # Status Bar showed Move 5, Actions 2 every round.
    table.ok("round", "end")
    assert [u["unit"] for u in table.json("round", "start")["units"]] == ["Archer"]
    rows = {u["name"]: u for u in table.json("status")["units"]}
    assert [rows["Goblin"][k] for k in ("move", "action_cost", "turn", "actions_left")] == [
        None, None, None, None]
    assert (rows["Archer"]["move"], rows["Archer"]["actions_left"]) == (4, 2)


def test_heroic_feat_changes_the_hits_and_spends_the_point(d2d: Runner,
                                                           data_dir: Path) -> None:
    # 001 l.611–613 "Heroic Feat - Character Point:-1 / Hits:+1 or -1 (e.g. Damage)"
    d2d.ok("char", "new", "Rook", "--archetype", "thief")
    d2d.ok("unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
           "--speed", "5x0", "--skill", "Close Combat=1")
    assert_refused(d2d, data_dir, ["hit", "5S", "--by", "Rook", "--vs", "Goblin",
                                   "--skill", "Stealth", "--heroic-feat", "a"],
                   "a Heroic Feat costs 1 Character Point (001 l.611); Rook has 0")
    d2d.ok("char", "award", "Rook", "--cp", "1")
    r = d2d.json("hit", "5S", "--by", "Rook", "--vs", "Goblin", "--skill", "Stealth",
                 "--heroic-feat", "a")
    assert (r["hits"], mods(r)["heroic_feat"]) == (2, 0)
    assert d2d.json("char", "show", "Rook")["cp"] == 0
    # b: the Rival's player (the Goblin is no character: the point is the table's).
    r = d2d.json("hit", "5S", "--level", "1", "--vs", "Goblin", "--heroic-feat", "b")
    assert r["hits"] == 0
    # odds hits takes the Feat as hit does: every play one Hit more.
    got = d2d.json("odds", "hits", "1", "--vs", "2", "--heroic-feat", "a", "--fresh")
    assert [x["hits"] for x in got["distribution"]] == [0, 2]
