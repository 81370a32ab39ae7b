"""``d2d npc plan|turn`` (rules/assistant/policy.py; docs/solo.md "The NPC policy"): the
policy the simulator plays by, for one Non-Player unit at the table."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from tests.helpers import assert_refused


def _combat1(d2d, data_dir: Path, start: bool = True) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "c1.toml"
    d2d.ok("--session", path, "--seed", 1, "scene", "load", "combat1")
    if start:
        d2d.ok("--session", path, "round", "start")
    return path


def test_plan_names_target_movement_action_and_approach_with_reasons(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    before = path.read_bytes()
    p = d2d.json("--session", path, "npc", "plan", "goblin skirmisher")
    assert (p["unit"], p["action"], p["target"], p["approach"]) == (
        "Goblin Skirmisher", "attack", "Archer", "fate")
    assert [r["step"] for r in p["reasons"]] == [
        "target", "movement", "action", "weapon", "approach"]
    # "Keep the prisoner and catch the Archer": the goal names the Archer; the bound Thief
    # is kept, not fought; a Non-Player reveals Fate (000 l.417).
    assert p["reasons"][0]["why"].startswith("the goal names it")
    assert "000 l.417" in p["reasons"][4]["why"]
    # issue 36: its Javelin (000 l.588), rated against the Archer's armor (none)
    assert (p["weapon"], p["reasons"][3]["choice"]) == ("Javelin", "Javelin")
    assert p["reasons"][3]["why"].startswith("Javelin (Body+1, pierce, 1-handed, thrown "
                                             "4/8): Power 3x1 vs Archer: no armor: Hits +2")
    assert p["chance"] == pytest.approx(0.3860936408106219)
    # On Combat #1's map the Skirmisher's Javelin reaches the Archer from C5 (Range 4, no
    # Disadvantage, no Cover for him): it keeps both Actions (Move 5, Action Cost 2)
    # rather than spend one on a Space with Cover (A7 cost Move 2, leaving one attack).
    assert (p["moves"], p["space"]) == ([], "C5")
    why = p["reasons"][1]["why"]
    assert "no Disadvantage at Range 4 (001 l.693–695)" in why
    assert "Archer has no Cover against it" in why
    assert "no Move spent (2 Action Costs kept, 001 l.545)" in why
    assert path.read_bytes() == before  # a plan changes nothing


def _round_two(d2d, data_dir) -> Path:
    """Combat #1 in round 2, after the Scout closed in to G7 in round 1."""
    path = _combat1(d2d, data_dir)
    d2d.ok("--session", path, "--seed", 8, "npc", "turn", "Goblin Scout", "--players-stay")
    d2d.ok("--session", path, "round", "end")
    d2d.ok("--session", path, "round", "start")
    return path


def test_plan_route_is_legal_unit_moves_ending_in_reach(d2d, data_dir) -> None:
    """Every step the plan gives is a `unit move` the session takes; from where it ends
    the attack passes Verify (001 l.633–635 "Verify Target is in Arc, Range, and Line
    of Sight"), and the Move left pays both Actions' Cost (001 l.545)."""
    path = _round_two(d2d, data_dir)
    p = d2d.json("--session", path, "npc", "plan", "Goblin Scout")
    assert (p["action"], p["moves"], p["space"]) == ("attack", [["forward"]], "F8")
    assert "Move 1 of 1 that leaves 2 Action Costs (001 l.545)" in p["reasons"][1]["why"]
    for words in p["moves"]:
        d2d.ok("--session", path, "unit", "move", "Goblin Scout", *words)
    data = tomllib.loads(path.read_text("utf-8"))
    me = data["units"]["Goblin Scout"]
    assert me["space"] == "F8"
    assert me["move"] >= 2 * me["action_cost"]
    from d2d_cli.rules.board.derive import field
    from d2d_cli.rules.units.roster import roster

    units = roster(data)
    f = field(data, units.values())
    assert f is not None
    assert f.refusal(units["Goblin Scout"], units["Archer"], "close") is None
    # and the conflict on the map is not refused (the Archer answers at Range 1 with his
    # Ranged skill, with no Disadvantage: 001 l.693–695 is the attacker's Item, issue 27)
    d2d.ok("--session", path, "unit", "act", "Goblin Scout", "interact", "Archer")
    d2d.ok("--session", path, "conflict", "Goblin Scout:fate", "Archer:fate",
           "--card", "KC^", "--card", "QHv")


def test_out_of_reach_the_unit_closes_in(d2d, data_dir) -> None:
    """The Scout (Close Combat, Range:0-1, 001 l.685) cannot reach the Archer with the
    Move that leaves its Action Cost: it closes in with all its Move and takes no
    Action."""
    path = _combat1(d2d, data_dir)
    p = d2d.json("--session", path, "npc", "plan", "Goblin Scout")
    assert (p["action"], p["target"], p["space"]) == ("move", "Archer", "G7")
    assert [r["step"] for r in p["reasons"]] == ["target", "movement", "action"]
    assert "closes in to Range 2 with Move 5 of 5" in p["reasons"][1]["why"]


def test_a_dying_unit_withdraws(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    d2d.ok("--session", path, "unit", "condition", "Goblin Skirmisher", "add", "dying")
    p = d2d.json("--session", path, "npc", "plan", "Goblin Skirmisher")
    assert (p["action"], p["target"]) == ("withdraw", None)
    assert p["reasons"][0]["step"] == "movement" and p["moves"]
    got = d2d.json("--session", path, "npc", "turn", "Goblin Skirmisher", "--players-stay")
    assert all(x.startswith("unit move 'Goblin Skirmisher' ") for x in got["commands"])
    from d2d_cli.rules.board.grid import parse_space
    from d2d_cli.rules.board.sight import distance

    after = tomllib.loads(path.read_text("utf-8"))["units"]
    archer = parse_space(after["Archer"]["space"])
    # farther from the Archer (the only Rival on the map: the Thief stands at K1 too)
    rivals = [parse_space(after[n]["space"]) for n in ("Archer", "Thief")]
    assert min(distance(parse_space(after["Goblin Skirmisher"]["space"]), r)
               for r in rivals) > min(distance(parse_space("C5"), r) for r in rivals)
    assert archer == parse_space("E9")


def test_a_dying_unit_off_the_map_just_withdraws(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    data = tomllib.loads(path.read_text("utf-8"))
    data.pop("board")
    from d2d_cli.rules.assistant import policy
    from d2d_cli.rules.core.options import DEFAULTS

    data["units"]["Goblin Scout"]["conditions"] = {"dying": 1}
    p = policy.plan(data, "Goblin Scout", {}, DEFAULTS)
    assert (p.action, p.moves, p.space) == ("withdraw", (), None)
    p = policy.plan(data, "Goblin Skirmisher", {}, DEFAULTS)
    assert (p.moves, p.reasons[1].choice) == ((), "stay put")  # off the map, as before


def test_same_plan_twice(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    one = d2d.json("--session", path, "--seed", 4, "npc", "plan", "Goblin Skirmisher")
    two = d2d.json("--session", path, "--seed", 9, "npc", "plan", "Goblin Skirmisher")
    assert one == two


def test_same_seed_same_deck_same_turn(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    # Count 5 reaches the Archer too: he Waits first (docs/rules.md "npc turn --all, one
    # Count at a time"), then the Goblins take Count 5 and the turn stops at Count 4
    d2d.ok("--session", path, "unit", "wait", "Archer", "5")
    copy = data_dir / "c2.toml"
    shutil.copy(path, copy)
    one = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    two = d2d.json("--session", copy, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    assert one == two and one["units"] == ["Goblin Scout", "Goblin Skirmisher"]
    assert one["commands"][:3] == [
        "unit move 'Goblin Scout' forward 2",
        "unit act 'Goblin Skirmisher' interact Archer",
        "conflict 'Goblin Skirmisher:fate' Archer:fate --with Javelin --card 'KC^' --card QHv"]
    assert one["commands"].count("unit act 'Goblin Skirmisher' interact Archer") == 1
    assert one["stopped"]["count"] == 4
    assert not any("--no-map" in x for x in one["commands"])  # rolled on the map


def test_turn_is_journaled_and_undone_in_one_step(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    before = tomllib.loads(path.read_text("utf-8"))
    got = d2d.json("--session", path, "--seed", 3, "npc", "turn", "Goblin Skirmisher",
                   "--players-stay")
    after = tomllib.loads(path.read_text("utf-8"))
    sk = after["units"]["Goblin Skirmisher"]
    # It stays on C5 and takes both Actions at Cost 2: Move 1 left, too little for a third
    assert (sk["space"], sk["facing"], sk["move"]) == ("C5", "S", 1)
    assert got["commands"].count("unit act 'Goblin Skirmisher' interact Archer") == 2
    d2d.ok("--session", path, "session", "undo")
    again = tomllib.loads(path.read_text("utf-8"))
    for key in ("units", "tasks", "fate"):
        assert again[key] == before[key]
    assert again["units"]["Goblin Skirmisher"]["space"] == "C5"


def test_table_mode_reads_the_cards_given(d2d, data_dir) -> None:
    """Two Actions, each a conflict revealing the Skirmisher's Fate and the Archer's (the
    Archer Stays): 7♣ Upper vs 3♦ Lower (Strong against Counter: a Hit, and the Crit's
    damage card comes from the virtual Damage Deck), then 2♥ Lower vs 5♠ Lower (Block
    against Evade: a tie); no Cover reveal (the Archer has none on E9)."""
    path = _combat1(d2d, data_dir)
    fate_before = tomllib.loads(path.read_text("utf-8"))["fate"]
    got = d2d.json("--session", path, "npc", "turn", "Goblin Skirmisher",
                   "--players-stay", "--card", "7C^",
                   "--card", "3Dv", "--card", "2Hv", "--card", "5Sv")
    assert [x for x in got["commands"] if x.startswith("conflict")] == [
        "conflict 'Goblin Skirmisher:fate' Archer:fate --with Javelin --card '7C^' --card 3Dv",
        "conflict 'Goblin Skirmisher:fate' Archer:fate --with Javelin --card 2Hv --card 5Sv"]
    assert tomllib.loads(path.read_text("utf-8"))["fate"] == fate_before


def _small_map(d2d, data_dir) -> dict:
    """Combat #1's session on a hand-drawn 6×6 map: the Scout on A1 facing SE, Move 7
    and no Turn left (its Facing is kept); the Archer on E6 facing N; a rock on E5."""
    path = _combat1(d2d, data_dir)
    data = tomllib.loads(path.read_text("utf-8"))
    data["board"] = {"grid": "\n".join([". . . . . ."] * 4 + [". . . . o .", ". . . . . ."])}
    for n in ("Thief", "Goblin Skirmisher"):
        data["units"][n].pop("space", None)
        data["units"][n].pop("facing", None)
    data["units"]["Goblin Scout"].update(space="A1", facing="SE", move=7, turn=0)
    data["units"]["Archer"].update(space="E6", facing="N")
    return data


def test_the_space_chosen_is_the_best_covered_in_reach(d2d, data_dir) -> None:
    """Exact, from the board's own functions: no Space within Move 7 − 2×2 or 7 − 3×2
    (two or three Actions kept) lets the Close Combat attack pass Verify (001
    l.633–635); of those reachable with Move 7 − 2 (one Action Cost kept, 001 l.545)
    that do, the plan takes the one leaving the Archer the least Cover (001 l.712–720),
    then with the most Cover against him (000 l.330–332 "IF a straight edge … is
    obstructed"), then on his flank (000 l.324–326), then the least Move."""
    from d2d_cli.rules.assistant import policy
    from d2d_cli.rules.board.derive import Field, field
    from d2d_cli.rules.board.grid import space_name
    from d2d_cli.rules.board.moves import reachable
    from d2d_cli.rules.board.placement import Placement
    from d2d_cli.rules.core.options import DEFAULTS
    from d2d_cli.rules.units.roster import roster

    data = _small_map(d2d, data_dir)
    # 000's edges (`[rules] cover = "edges"`): Spaces beside the Archer differ in Cover
    # there; the sweep across a neighbour's Space (the default) meets no obstacle here.
    data.setdefault("rules", {})["cover"] = "edges"
    units = roster(data)
    f = field(data, units.values())
    assert f is not None and f.cover_reading == "edges"
    me, them = f.places["Goblin Scout"], f.places["Archer"]
    scout, archer = units["Goblin Scout"], units["Archer"]
    rows = []
    for space, route in reachable(f.board, me, 5, frozenset(them.spaces)).items():
        g = Field(f.board, {**f.places, "Goblin Scout": Placement(
            "Goblin Scout", space, me.facing, False, me.faction)}, "edges")
        if g.refusal(scout, archer, "close") is not None:
            continue
        cover = g.derive(archer, scout).cover
        geo = g.derive(scout, archer, "close")
        flank = {"back": 2, "left": 1, "right": 1}.get(geo.rival_arc or "", 0)
        rows.append((geo.cover, -cover, -flank, route.move, space_name(space), route))
    rows.sort()
    assert min(r[3] for r in rows) > 3  # none in reach with two Actions kept
    assert rows[0][:2] == (25, -25)  # the least Cover for the Archer, the Scout covered …
    assert min(r[3] for r in rows) < rows[0][3]  # … and an uncovered one costs less
    p = policy.plan(data, "Goblin Scout", {}, DEFAULTS)
    assert (p.action, p.space) == ("attack", rows[0][4]) == ("attack", "D6")
    assert p.moves == (("forward", "3"), ("drift", "right", "2"))
    assert "Cover 25% against Archer" in p.reasons[1].why


def test_a_session_that_changes_its_cover_rule_is_planned_anew(d2d, data_dir) -> None:
    """The movement plan weighs Cover as ``[rules] cover`` reads it (001 l.714 "Sweep
    edge across all of Target", the default; "edges": 000 l.330–332), and remembers its
    plans by what it reads: a long process (``d2d play``) whose session is read again
    with the other reading, the same map and units otherwise, gets the plan that reading
    gives — never the one remembered for the other (each checked against a fresh one)."""
    import copy

    from d2d_cli.rules.assistant import movement, policy
    from d2d_cli.rules.core.options import DEFAULTS

    sweep = _small_map(d2d, data_dir)
    edges = copy.deepcopy(sweep)  # the session read again, its rule changed
    edges.setdefault("rules", {})["cover"] = "edges"
    movement._PLANS.clear()
    first = policy.plan(sweep, "Goblin Scout", {}, DEFAULTS)
    then = policy.plan(edges, "Goblin Scout", {}, DEFAULTS)  # the sweep's plan is kept
    assert (then.action, then.space) == ("attack", "D6")  # as the test above works out
    assert "Cover 25% against Archer" in then.reasons[1].why
    assert (first.space, first.reasons[1].why) != (then.space, then.reasons[1].why)
    movement._PLANS.clear()  # each worked out afresh: the same plans
    assert policy.plan(edges, "Goblin Scout", {}, DEFAULTS) == then
    movement._PLANS.clear()
    assert policy.plan(sweep, "Goblin Scout", {}, DEFAULTS) == first


@pytest.mark.parametrize(("args", "message"), [
    (["npc", "plan", "Archer"], "Player1's unit"),
    (["npc", "plan", "Nobody"], "Nobody"),
    (["npc", "turn"], "or give --all"),
    (["npc", "turn", "Goblin Scout", "--all"], "or give --all"),
    (["npc", "turn", "Goblin Skirmisher", "--players-stay", "--card", "7C^"], "not enough cards"),
    (["npc", "turn", "Goblin Skirmisher", "--players-stay", "--card", "7C^", "--card", "3Dv"],
     "not enough cards"),  # its second Action needs two more
])
def test_refusals_change_nothing(d2d, data_dir, args, message) -> None:
    path = _combat1(d2d, data_dir)
    assert_refused(d2d, data_dir, ["--session", str(path), *args], message)


def test_turn_needs_a_round_under_way(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir, start=False)
    res = d2d("--session", path, "npc", "turn", "Goblin Scout")
    assert res.exit_code == 2 and "round" in res.stderr


def test_plan_between_rounds_is_the_next_rounds_plan(d2d, data_dir) -> None:
    """Before `round start` every unit of Combat #1 is placed but has no Move yet: the
    plan is made as the round would start (the same rules call), not "off the map"."""
    path = _combat1(d2d, data_dir, start=False)
    before = path.read_bytes()
    p = d2d.json("--session", path, "npc", "plan", "Goblin Skirmisher")
    assert [r["step"] for r in p["reasons"]] == [
        "round", "target", "movement", "action", "weapon", "approach"]
    assert p["reasons"][0]["why"] == ("no round is under way: planned with the Move that "
                                      "d2d round start gives (Move 5, Action Cost 2)")
    assert "off the map" not in p["reasons"][2]["why"]
    assert path.read_bytes() == before  # nothing started, nothing written
    # the same plan as once the round is under way
    d2d.ok("--session", path, "round", "start")
    started = d2d.json("--session", path, "npc", "plan", "Goblin Skirmisher")
    assert (p["moves"], p["space"], p["action"]) == (
        started["moves"], started["space"], started["action"]) == ([], "C5", "attack")
    assert p["reasons"][1:] == started["reasons"]


def _skirmisher_on(d2d, data_dir, space: str, facing: str, ranged_only: bool = False
                   ) -> dict:
    """The small map of :func:`_small_map`, the Skirmisher (Move 5, Action Cost 2: its
    budget keeping both Actions is Move 1) on ``space`` and the Scout off the map."""
    data = _small_map(d2d, data_dir)
    data["units"]["Goblin Scout"].pop("space")
    data["units"]["Goblin Scout"].pop("facing")
    data["units"]["Goblin Skirmisher"].update(space=space, facing=facing)
    if ranged_only:
        data["units"]["Goblin Skirmisher"]["skills"] = {"Ranged": 1}
    return data


def _archer_cover_from(data: dict, space: str) -> int:
    from d2d_cli.rules.board.derive import Field, field
    from d2d_cli.rules.board.grid import parse_space
    from d2d_cli.rules.board.placement import Placement
    from d2d_cli.rules.units.roster import roster

    units = roster(data)
    f = field(data, units.values())
    assert f is not None
    me = f.places["Goblin Skirmisher"]
    g = Field(f.board, {**f.places, "Goblin Skirmisher": Placement(
        "Goblin Skirmisher", parse_space(space), me.facing, False, me.faction)})
    geo = g.derive(units["Goblin Skirmisher"], units["Archer"], "ranged")
    assert geo is not None
    return geo.cover


def test_the_space_chosen_leaves_the_target_the_least_cover(d2d, data_dir) -> None:
    """With a second rock on B3, from A1 (facing SE) the two rocks give the Archer Cover
    50% against the Javelin (+25% for each obstacle met, 001 l.716); one Drift (Move 1,
    both Actions kept) to B1 leaves him 25%, where a Forward (B2) or the other Drift (A2)
    leaves 50%: each 25% is Level −1 and a chance the attack hits the obstacle (001
    l.712–720), so the plan steps to B1."""
    from d2d_cli.rules.assistant import policy
    from d2d_cli.rules.core.options import DEFAULTS

    data = _skirmisher_on(d2d, data_dir, "A1", "SE")
    rows = data["board"]["grid"].split("\n")
    rows[2] = ". o . . . ."
    data["board"]["grid"] = "\n".join(rows)
    assert {s: _archer_cover_from(data, s) for s in ("A1", "A2", "B1", "B2")} == {
        "A1": 50, "A2": 50, "B1": 25, "B2": 50}
    p = policy.plan(data, "Goblin Skirmisher", {}, DEFAULTS)
    assert (p.action, p.moves, p.space) == ("attack", (("drift", "left"),), "B1")
    assert "Archer has Cover 25% against it there, the least in reach" in p.reasons[1].why


def test_a_ranged_attack_steps_out_of_disadvantage(d2d, data_dir) -> None:
    """Javelins only, beside the Archer (D6, Range 1: Ranged at Disadvantage, 001
    l.693–695): one Drift (Move 1) to C5 makes it Range 2, and a Turn faces him."""
    from d2d_cli.rules.assistant import policy
    from d2d_cli.rules.core.options import DEFAULTS

    data = _skirmisher_on(d2d, data_dir, "D6", "N", ranged_only=True)
    p = policy.plan(data, "Goblin Skirmisher", {}, DEFAULTS)
    assert (p.action, p.moves, p.space) == (
        "attack", (("drift", "left"), ("turn", "E")), "C5")
    assert "no Disadvantage at Range 2 (001 l.693–695)" in p.reasons[1].why


def test_a_bound_unit_whose_task_failed_stays_bound(d2d, data_dir) -> None:
    """The Task Clock runs the Knot's Progress out (001 l.1045, l.1020 "Fail - IF no
    Progress THEN Fail"): the attempt failed, the Thief is still bound. He neither
    moves nor fights, and the Goblins still keep him rather than fight him."""
    from d2d_cli.rules.assistant import goals, policy
    from d2d_cli.rules.core.options import DEFAULTS

    path = _combat1(d2d, data_dir)
    data = tomllib.loads(path.read_text("utf-8"))
    data["tasks"]["Knot"]["progress"] = 0
    g = goals.parse(data["scene"]["goals"], data)
    p = policy.plan(data, "Thief", g, DEFAULTS)
    assert (p.action, p.target, p.moves) == ("none", None, ())
    assert p.reasons[0].why.startswith("still Restrict:Bind:4 tied with a Knot:4: the task "
                                       "Knot failed")
    # with no goal to name the Archer, the Goblins still leave the prisoner alone
    scout = policy.plan(data, "Goblin Scout", {}, DEFAULTS)
    assert scout.target == "Archer"
    assert scout.reasons[0].why.startswith("a Rival not held by a task; ")


def test_all_of_one_group(d2d, data_dir) -> None:
    """`--all --group N`: the Non-Player units of Group N as `round groups` numbers them
    (001 l.475 "Split Units into Groups by Target"): the Scout and the Archer target
    each other (Group 1), the Thief is alone (2), the Skirmisher too (3)."""
    path = _combat1(d2d, data_dir)
    d2d.ok("--session", path, "unit", "target", "Goblin Scout", "Archer")
    d2d.ok("--session", path, "unit", "target", "Archer", "Goblin Scout")
    groups = d2d.json("--session", path, "round", "groups")["groups"]
    assert [[m["name"] for m in g["units"]] for g in groups] == [
        ["Archer", "Goblin Scout"], ["Thief"], ["Goblin Skirmisher"]]
    got = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all",
                   "--players-stay", "--group", 3)
    assert got["units"] == ["Goblin Skirmisher"]
    assert {x.split("'")[1] for x in got["commands"] if x.startswith("unit ")} == {
        "Goblin Skirmisher"}
    got = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all",
                   "--players-stay", "--group", 1)
    assert got["units"] == ["Goblin Scout"]
    for args, message in ((["--all", "--group", 2], "Group 2 (Thief) has no Non-Player"),
                          (["--all", "--group", 4], "no Group 4: this round has 3"),
                          (["Goblin Scout", "--group", 1], "--group goes with --all")):
        assert_refused(d2d, data_dir, ["--session", str(path), "npc", "turn", *args],
                       message)


def _typed_results(d2d, path: Path, lines: list[str], monkeypatch) -> list:
    """Each line of ``npc turn``'s "As typed", run as the Narrator would type it on
    ``path``: the typed result each command hands to its view."""
    import shlex

    from d2d_cli import render

    got: list = []
    emit = render.emit

    def keep(result, human, *, as_json):
        got.append(result)
        return emit(result, human, as_json=as_json)

    monkeypatch.setattr(render, "emit", keep)
    for line in lines:
        d2d.ok("--session", path, *shlex.split(line))
    monkeypatch.setattr(render, "emit", emit)
    return got


@pytest.mark.parametrize("cards", [
    [],  # the session's Fate deck (--seed)
    ["--card", "7C^", "--card", "3Dv", "--card", "2Hv", "--card", "5Sv"],  # the table's
], ids=["deck", "table"])
def test_turn_says_what_happened_as_the_commands_would(d2d, data_dir, monkeypatch,
                                                        cards) -> None:
    """The bug: npc turn printed the plan and the commands but never what they gave.
    Now, under each plan, each command's one-line summary in order — the Action, who won
    the Conflict, the Hits, the Crit (location and severity) — and --json's ``done``
    carries the same. The "As typed" lines run by hand on a copy of the starting session
    give the very same summaries and the same units: one engine, not a second account."""
    path = _combat1(d2d, data_dir)
    start = tomllib.loads(path.read_text("utf-8"))
    by_hand, shown = data_dir / "by_hand.toml", data_dir / "shown.toml"
    shutil.copy(path, by_hand)
    shutil.copy(path, shown)
    got = d2d.json("--session", path, "--seed", 1, "npc", "turn", "Goblin Skirmisher",
                   "--players-stay",
                   *cards)
    summaries = [d["summary"] for d in got["done"]]
    assert [d["command"] for d in got["done"]] == got["commands"]  # one result a line
    assert [d["plan"] for d in got["done"]] == [0, 0, 0, 0, 1, 1]  # two Actions
    assert summaries[0] == "Goblin Skirmisher: Interact Archer, Move 5 → 3"
    assert summaries[1].startswith("Conflict: Goblin Skirmisher (Strong ")
    assert " beats Archer (" in summaries[1]
    assert summaries[2] == ("Hits: 1" if not cards else "Hits: 1 (glancing blow)")
    # the Javelin's Pierce picks the card (000 l.510; issue 36), no longer any type
    assert summaries[3].startswith("Crit pierce@") and summaries[3].endswith(
        " Critical on Archer")
    assert got["done"][2]["result"]["hits"] == 1  # the command's --json result, whole

    typed = _typed_results(d2d, by_hand, got["commands"], monkeypatch)
    assert [r.summary for r in typed] == summaries
    after = tomllib.loads(path.read_text("utf-8"))
    hand = tomllib.loads(by_hand.read_text("utf-8"))
    assert hand["units"] == after["units"]  # (the decks differ: by hand, --card)
    # the crit typed by hand is journalled under the same words
    assert any(x.endswith(f"  {summaries[3]}") and "  crit " in x and "--with Javelin" in x
               for x in d2d.ok("--session", by_hand, "session", "log").splitlines())

    out = d2d.ok("--session", shown, "--seed", 1, "npc", "turn", "Goblin Skirmisher",
                 "--players-stay", *cards, "--why")
    lines = out.splitlines()
    reported = [x.removeprefix("  → ") for x in lines if x.startswith("  → ")]
    assert reported == summaries
    # in order: each plan's results under it, all before the bare command list
    assert lines.index("  → " + summaries[3]) < [i for i, x in enumerate(lines)
                                                 if x.startswith("Goblin Skirmisher: ")][1]
    assert lines.index("  → " + summaries[-1]) < lines.index("As typed:")
    # still one journal entry: one undo takes the whole turn back
    assert tomllib.loads(shown.read_text("utf-8"))["units"] != start["units"]
    d2d.ok("--session", shown, "session", "undo")
    again = tomllib.loads(shown.read_text("utf-8"))
    for key in ("units", "tasks", "fate"):
        assert again.get(key) == start.get(key)


def test_turn_all_says_what_happened_for_each_unit(d2d, data_dir, monkeypatch) -> None:
    """--all: each plan with its own results under it, Count by Count — the Scout's
    first Movement (where it went), then the Skirmisher's Action at the same Count — the
    same summaries the typed commands give."""
    path = _combat1(d2d, data_dir)
    d2d.ok("--session", path, "unit", "wait", "Archer", "5")  # Count 5 is his first
    by_hand = data_dir / "by_hand.toml"
    shutil.copy(path, by_hand)
    got = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all", "--players-stay")
    done = [(d["plan"], d["summary"]) for d in got["done"]]
    assert [p["unit"] for p in got["plans"]][:2] == ["Goblin Scout", "Goblin Skirmisher"]
    assert done[:2] == [(0, "Goblin Scout: Forward ×2 SW: I2 → G4, Move 5 → 3"),
                        (1, "Goblin Skirmisher: Interact Archer, Move 5 → 3")]
    assert done[2][1].startswith("Conflict: Goblin Skirmisher (") and " beats " in done[2][1]
    typed = _typed_results(d2d, by_hand, got["commands"], monkeypatch)
    assert [r.summary for r in typed] == [s for _, s in done]
