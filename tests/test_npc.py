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
    assert [r["step"] for r in p["reasons"]] == ["target", "movement", "action", "approach"]
    # "Keep the prisoner and catch the Archer": the goal names the Archer; the bound Thief
    # is kept, not fought; a Non-Player reveals Fate (000 l.417).
    assert p["reasons"][0]["why"].startswith("the goal names it")
    assert "000 l.417" in p["reasons"][3]["why"]
    assert p["chance"] == pytest.approx(0.3860936408106219)
    # On Combat #1's map: C5 → B6 → A7 (Drift right ×2, facing S), beside the brush on
    # A8 that covers it against the Archer, in his Arc:Left; Turn 1 to face SE.
    assert p["moves"] == [["drift", "right", "2"], ["turn", "SE"]]
    assert p["space"] == "A7"
    why = p["reasons"][1]["why"]
    assert "Cover 25% against Archer (000 l.330–332)" in why
    assert "Arc:Left (Flanking, 000 l.324–326)" in why
    assert "Move 2 of 3 that leaves the Action Cost (001 l.545)" in why
    assert path.read_bytes() == before  # a plan changes nothing


def test_plan_route_is_legal_unit_moves_ending_in_reach(d2d, data_dir) -> None:
    """Every step the plan gives is a `unit move` the session takes; from where it ends
    the attack passes Verify (001 l.633–635 "Verify Target is in Arc, Range, and Line
    of Sight"), and the Move left pays the Action Cost (001 l.545)."""
    path = _combat1(d2d, data_dir)
    p = d2d.json("--session", path, "npc", "plan", "Goblin Skirmisher")
    for words in p["moves"]:
        d2d.ok("--session", path, "unit", "move", "Goblin Skirmisher", *words)
    data = tomllib.loads(path.read_text("utf-8"))
    me = data["units"]["Goblin Skirmisher"]
    assert (me["space"], me["facing"]) == ("A7", "SE")
    assert me["move"] >= me["action_cost"]
    from d2d_cli.rules.board.derive import field
    from d2d_cli.rules.units.roster import roster

    units = roster(data)
    f = field(data, units.values())
    assert f is not None
    assert f.refusal(units["Goblin Skirmisher"], units["Archer"], "ranged") is None
    # and the conflict on the map is not refused
    d2d.ok("--session", path, "unit", "act", "Goblin Skirmisher", "interact", "Archer")
    d2d.ok("--session", path, "conflict", "Goblin Skirmisher:fate", "Archer:fate",
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
    got = d2d.json("--session", path, "npc", "turn", "Goblin Skirmisher")
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
    copy = data_dir / "c2.toml"
    shutil.copy(path, copy)
    one = d2d.json("--session", path, "--seed", 8, "npc", "turn", "--all")
    two = d2d.json("--session", copy, "--seed", 8, "npc", "turn", "--all")
    assert one == two and one["units"] == ["Goblin Scout", "Goblin Skirmisher"]
    assert one["commands"][:5] == [
        "unit move 'Goblin Scout' forward 2", "unit move 'Goblin Scout' drift left 3",
        "unit move 'Goblin Skirmisher' drift right 2", "unit move 'Goblin Skirmisher' turn SE",
        "unit act 'Goblin Skirmisher' interact Archer"]
    assert not any("--no-map" in x for x in one["commands"])  # rolled on the map


def test_turn_is_journaled_and_undone_in_one_step(d2d, data_dir) -> None:
    path = _combat1(d2d, data_dir)
    before = tomllib.loads(path.read_text("utf-8"))
    got = d2d.json("--session", path, "--seed", 3, "npc", "turn", "Goblin Skirmisher")
    after = tomllib.loads(path.read_text("utf-8"))
    sk = after["units"]["Goblin Skirmisher"]
    # Drift ×2 (Move 2), one Action at Cost 2: Move 1 left, too little for another
    assert (sk["space"], sk["facing"], sk["move"]) == ("A7", "SE", 1)
    assert got["commands"].count("unit act 'Goblin Skirmisher' interact Archer") == 1
    d2d.ok("--session", path, "session", "undo")
    again = tomllib.loads(path.read_text("utf-8"))
    for key in ("units", "tasks", "fate"):
        assert again[key] == before[key]
    assert again["units"]["Goblin Skirmisher"]["space"] == "C5"


def test_table_mode_reads_the_cards_given(d2d, data_dir) -> None:
    """One Action, a conflict revealing the Skirmisher's Fate and the Archer's (the
    Archer Stays): 7♣ Upper vs 3♦ Lower; no Cover reveal (the Archer has none on E9)."""
    path = _combat1(d2d, data_dir)
    fate_before = tomllib.loads(path.read_text("utf-8"))["fate"]
    got = d2d.json("--session", path, "npc", "turn", "Goblin Skirmisher", "--card", "7C^",
                   "--card", "3Dv")
    assert [x for x in got["commands"] if x.startswith("conflict")] == [
        "conflict 'Goblin Skirmisher:fate' Archer:fate --card '7C^' --card 3Dv"]
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
    """Exact, from the board's own functions: of the Spaces reachable with Move 7 − 2
    (the Action Cost kept, 001 l.545) from which the Close Combat attack passes Verify
    (001 l.633–635), the plan takes the one with the most Cover against the Archer (000
    l.330–332 "IF a straight edge … is obstructed"), then on his flank (000 l.324–326),
    then the least Move."""
    from d2d_cli.rules.assistant import policy
    from d2d_cli.rules.board.derive import Field, field
    from d2d_cli.rules.board.grid import space_name
    from d2d_cli.rules.board.moves import reachable
    from d2d_cli.rules.board.placement import Placement
    from d2d_cli.rules.core.options import DEFAULTS
    from d2d_cli.rules.units.roster import roster

    data = _small_map(d2d, data_dir)
    units = roster(data)
    f = field(data, units.values())
    assert f is not None
    me, them = f.places["Goblin Scout"], f.places["Archer"]
    scout, archer = units["Goblin Scout"], units["Archer"]
    rows = []
    for space, route in reachable(f.board, me, 5, frozenset(them.spaces)).items():
        g = Field(f.board, {**f.places, "Goblin Scout": Placement(
            "Goblin Scout", space, me.facing, False, me.faction)})
        if g.refusal(scout, archer, "close") is not None:
            continue
        cover = g.derive(archer, scout).cover
        arc = g.derive(scout, archer).rival_arc
        flank = {"back": 2, "left": 1, "right": 1}.get(arc or "", 0)
        rows.append((-cover, -flank, route.move, space_name(space), route))
    rows.sort()
    assert rows[0][0] < 0  # a covered Space is in reach …
    assert min(r[2] for r in rows) < rows[0][2]  # … and an uncovered one costs less
    p = policy.plan(data, "Goblin Scout", {}, DEFAULTS)
    assert (p.action, p.space) == ("attack", rows[0][3]) == ("attack", "D6")
    assert p.moves == (("forward", "3"), ("drift", "right", "2"))
    assert "Cover 25% against Archer" in p.reasons[1].why


@pytest.mark.parametrize(("args", "message"), [
    (["npc", "plan", "Archer"], "Player1's unit"),
    (["npc", "plan", "Nobody"], "Nobody"),
    (["npc", "turn"], "or give --all"),
    (["npc", "turn", "Goblin Scout", "--all"], "or give --all"),
    (["npc", "turn", "Goblin Skirmisher", "--card", "7C^"], "not enough cards"),
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
        "round", "target", "movement", "action", "approach"]
    assert p["reasons"][0]["why"] == ("no round is under way: planned with the Move that "
                                      "d2d round start gives (Move 5, Action Cost 2)")
    assert "off the map" not in p["reasons"][2]["why"]
    assert path.read_bytes() == before  # nothing started, nothing written
    # the same plan as once the round is under way
    d2d.ok("--session", path, "round", "start")
    started = d2d.json("--session", path, "npc", "plan", "Goblin Skirmisher")
    assert (p["moves"], p["space"], p["action"]) == (
        started["moves"], started["space"], started["action"]) == (
        [["drift", "right", "2"], ["turn", "SE"]], "A7", "attack")
    assert p["reasons"][1:] == started["reasons"]
