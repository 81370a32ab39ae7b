"""The fight on the board as the rules read it (issue 27): each reading quoted, each on
a hand-drawn map or Combat #1's, through the commands the Narrator types."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tests.helpers import Runner, rule_line

ARENA = """\
name = "Arena"
map = "personal"

[factions.Heroes]
goal = "win"

[factions.Goblins]
goal = "win"

[board]
grid = \"\"\"
{grid}
\"\"\"

[units.Knight]
faction = "Heroes"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "5x0"
skills = {{ Melee = 2, Stealth = 1 }}
space = "{knight}"
facing = "{knight_facing}"

[units.Archer]
faction = "Heroes"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "5x0"
skills = {{ Ranged = 1, Stealth = 1 }}
space = "{archer}"
facing = "{archer_facing}"

[units.Scout]
faction = "Goblins"
body = "2x1"
mind = "6x1"
will = "2x1"
speed = "5x0"
skills = {{ "Close Combat" = 1, Stealth = 1 }}
player = "Non-Player"
space = "{scout}"
facing = "{scout_facing}"
"""

OPEN = "\n".join(". " * 10 for _ in range(8))


def arena(d2d: Runner, tmp_path: Path, grid: str = OPEN, **where: str) -> list[Any]:
    """A session on a hand-drawn map: ``where`` gives each unit's Space and Facing."""
    spots = {"knight": "B2", "knight_facing": "S", "archer": "B7", "archer_facing": "N",
             "scout": "H2", "scout_facing": "W", **where}
    f = tmp_path / "arena.toml"
    f.write_text(ARENA.format(grid=grid, **spots), "utf-8")
    s: list[Any] = ["--session", tmp_path / "arena-session.toml"]
    d2d.ok(*s, "--seed", 1, "scene", "load", f)
    d2d.ok(*s, "round", "start")
    return s


def combat1(d2d: Runner, tmp_path: Path) -> list[Any]:
    s: list[Any] = ["--session", tmp_path / "combat1.toml"]
    d2d.ok(*s, "--seed", 2, "scene", "load", "combat1")
    d2d.ok(*s, "round", "start")
    return s


# --------------------------------------------------------------------------- item 2


def test_the_defender_takes_no_range_disadvantage_001_l693(d2d: Runner,
                                                            tmp_path: Path) -> None:
    """001 l.693–695 "Other - Range depends on Power/Item / Disadvantage at Range:0-1" is
    the attacker's Item: the Archer struck in Close Combat next to him defends with no
    Disadvantage, so Counter against Block is a tie on the one Fate card revealed."""
    assert "Disadvantage at Range:0-1" in rule_line("001", 695)
    s = combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "place", "Goblin Scout", "E8", "S")
    r = d2d.json(*s, "conflict", "Goblin Scout", "Archer:5Hv", "--card", "2D")
    assert r["map"]["range"] == 1
    assert (r["advantage"]["a"]["mode"], r["advantage"]["b"]["mode"]) == ("normal", "normal")
    assert (r["approach_a"], r["approach_b"], r["outcome"]) == ("counter", "block", "tie")
    # The point-blank throw is the thrower's Disadvantage, whoever defends.
    d2d.ok(*s, "unit", "place", "Goblin Skirmisher", "E8", "S")
    r = d2d.json(*s, "conflict", "Goblin Skirmisher", "Archer:5Hv", "--skill", "Ranged",
                 "--card", "2D", "--card", "9S")
    assert (r["advantage"]["a"]["mode"], r["advantage"]["b"]["mode"]) == (
        "disadvantage", "normal")


# --------------------------------------------------------------------------- item 8


def test_outnumbered_is_the_attackers_only_000_l457(d2d: Runner, tmp_path: Path) -> None:
    """000 l.457 "IF you are attacking a target that is on or adjacent to an Ally THEN
    Initiative:+1": the Knight attacking the Scout beside the Archer gains +1; the
    Scout's Ally beside the Knight gives the Scout, who defends, nothing."""
    assert "IF you are attacking a target that is on or adjacent to an Ally" in \
        rule_line("000", 457)
    s = arena(d2d, tmp_path, knight="C3", knight_facing="E", scout="D3",
              scout_facing="W", archer="E4", archer_facing="N")
    r = d2d.json(*s, "conflict", "Knight:fast", "Scout:fast")
    assert r["map"]["terms"]["outnumbered"] == "b"
    assert ("outnumbered", "a", 1) in [(m["key"], m["side"], m["level"])
                                       for m in r["modifiers"]]
    # The Scout attacks back: the Archer (the Knight's Ally) stands next to the Scout,
    # now the attacker, and no Goblin stands by the Knight: nothing for either side.
    r = d2d.json(*s, "conflict", "Scout:fast", "Knight:fast")
    assert "outnumbered" not in r["map"]["terms"]
    assert [m for m in r["modifiers"] if m["key"] == "outnumbered"] == []


def test_the_attackers_own_cover_does_not_lower_the_rival_in_the_hits_001_l711(
        d2d: Runner, tmp_path: Path) -> None:
    """001 l.711 "Cover makes it harder to hit the Target": Combat #1's Archer behind
    the rock is harder for the Scout to hit, but his own shot at the Scout is no
    easier; in the Conflict his Cover still counts (000 l.455 "Cover -
    Initiative:+1/Cover:25%")."""
    assert "Cover makes it harder to hit the Target" in rule_line("001", 711)
    s = combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "place", "Archer", "E7", "N")
    d2d.ok(*s, "unit", "place", "Goblin Scout", "G4", "SW")
    r = d2d.json(*s, "conflict", "Archer:7S^", "Goblin Scout", "--skill", "Ranged",
                 "--card", "4C")
    assert r["map"]["terms"]["cover"] == "a:25"
    assert [(m["key"], m["side"], m["level"]) for m in r["modifiers"]] == [("cover", "b", -1)]
    r = d2d.json(*s, "hit", "7S", "--by", "Archer", "--vs", "Goblin Scout", "--skill",
                 "Ranged")
    assert [m["key"] for m in r["modifiers"]] == []
    assert r["level"] == 0
    assert "does not count in the Hits" in r["sources"]["cover_ignored"]
    # The Scout's shot at the Archer: his Cover is the Target's, and it counts.
    r = d2d.json(*s, "hit", "7S", "--by", "Goblin Scout", "--vs", "Archer", "--attack",
                 "ranged")
    assert [(m["key"], m["side"], m["level"]) for m in r["modifiers"]] == [("cover", "a", -1)]


# --------------------------------------------------------------------------- item 3


def test_melee_strikes_into_arc_left_and_right_001_l669(d2d: Runner,
                                                         tmp_path: Path) -> None:
    """001 l.667–669 "Arc:Side - Arc:Left or Arc:Right as appropriate / Melee and Shields
    act on the Left OR Right": a Knight facing S strikes the Scout on his left (east),
    not one behind him; the Scout's Close Combat keeps to Arc:Front."""
    assert "Melee and Shields act on the Left OR Right" in rule_line("001", 669)
    s = arena(d2d, tmp_path, knight="H2", knight_facing="S", scout="I2", scout_facing="N")
    r = d2d.json(*s, "conflict", "Knight:fast", "Scout:fast")
    assert r["map"]["arc"] == "left"
    r = d2d.json(*s, "odds", "conflict", "Knight:fast", "Scout")
    assert r["map"]["arc"] == "left"
    # Behind him: refused.
    d2d.ok(*s, "unit", "place", "Scout", "H1", "S")
    res = d2d(*s, "conflict", "Knight:fast", "Scout:fast")
    assert res.exit_code == 2 and "out of Arc" in res.stderr and "Arc:Back" in res.stderr
    # Close Combat from the Scout's side: out of Arc.
    d2d.ok(*s, "unit", "place", "Scout", "I2", "N")
    res = d2d(*s, "conflict", "Scout:fast", "Knight:fast")
    assert res.exit_code == 2 and "needs Arc:Front" in res.stderr


# --------------------------------------------------------------------------- item 6


def test_a_bound_unit_does_not_walk_000_l599(d2d: Runner, tmp_path: Path) -> None:
    """000 l.556 "The Thief has Restrict:Bind:4 tied with a Knot:4"; l.599 "He is fully
    bound and tries to untie the Knot": he may not step, turn or slide until it is
    untied; the refusal changes nothing."""
    assert "He is fully bound" in rule_line("000", 599)
    s = combat1(d2d, tmp_path)
    before = Path(s[1]).read_bytes()
    for words in (["forward"], ["turn", "N"], ["2"]):
        res = d2d(*s, "unit", "move", "Thief", *words)
        assert res.exit_code == 2 and "Thief is bound" in res.stderr, res.stderr
        assert "000 l.599" in res.stderr
    assert Path(s[1]).read_bytes() == before
    # Freed, he walks.
    d2d.ok(*s, "unit", "free", "Thief")
    assert d2d.json(*s, "unit", "move", "Thief", "forward")["space"] == "K2"


# --------------------------------------------------------------------------- item 7


def test_evades_move_is_for_moving_not_a_third_action_001_l1025(d2d: Runner,
                                                                  tmp_path: Path) -> None:
    """001 l.1024–1025 "Evade - IF winner played Evade THEN they may immediately move 2
    spaces" and l.545 "Therefore, 2 Actions per Round are possible": at Move 5 and an
    Action Cost of 2 the Archer's Evade gives Move +2 to move with; it pays no third
    Action, and moving spends it first."""
    assert "they may immediately move 2 spaces" in rule_line("001", 1025)
    assert "2 Actions per Round are possible" in rule_line("001", 545)
    s = combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "act", "Archer", "interact", "Goblin Scout")
    d2d.ok(*s, "unit", "act", "Archer", "evade")
    assert d2d.json(*s, "unit", "show", "Archer")["move"] == 5
    d2d.ok(*s, "unit", "act", "Archer", "interact", "Goblin Scout")
    res = d2d(*s, "unit", "act", "Archer", "interact", "Goblin Scout")
    assert res.exit_code == 2 and "Evade's, to move with" in res.stderr, res.stderr
    assert d2d.json(*s, "unit", "move", "Archer", "forward")["space"] == "E8"
    assert d2d.json(*s, "unit", "show", "Archer")["move"] == 2
    # The Evade's Move spent on moving, the last 2 may pay an Action again.
    d2d.ok(*s, "unit", "move", "Archer", "forward")
    res = d2d(*s, "unit", "act", "Archer", "interact", "Goblin Scout")
    assert res.exit_code == 2 and "Move 1" in res.stderr


# --------------------------------------------------------------------------- item 9


def test_a_level_below_0_is_planned_and_simulated_001_l718(d2d: Runner,
                                                           tmp_path: Path) -> None:
    """A Level after penalties may be below 0 (000 l.453 "IF the main Stat of the Skill
    has penalties THEN Initiative:+penalties"; 001 l.718 "Level:-1 for each 25%"): the
    Scout's Close Combat 1 with Fatigue ×2 is Level −1, and `npc plan`, `npc turn` and
    `sim` take it as `conflict` does instead of refusing an option nobody typed."""
    assert "Initiative:+penalties" in rule_line("000", 453)
    s = combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "condition", "Goblin Scout", "add", "fatigue", "-n", 2)
    p = d2d.json(*s, "npc", "plan", "Goblin Scout")
    assert p["action"] in ("attack", "move") and p["target"] == "Archer"
    d2d.ok(*s, "npc", "turn", "Goblin Scout")
    r = d2d.json(*s, "--seed", 3, "sim", "--runs", 4, "--workers", 1)
    assert r["runs"] == 4


# --------------------------------------------------------------------------- item 1

# Issue 27's map: a row of walls beside a clear line of fire (A1 → H1).
WALLS = """\
. . . . . . . . . .
. . # # # . # # . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . ."""


def _rules(path: Path, **rules: str) -> None:
    text = path.read_text("utf-8")
    lines = "".join(f'{k} = "{v}"\n' for k, v in rules.items())
    assert "[rules]\n" in text
    path.write_text(text.replace("[rules]\n", "[rules]\n" + lines, 1), "utf-8")


def test_walls_beside_a_clear_line_are_not_full_cover_000_l331_001_l714(
        d2d: Runner, tmp_path: Path) -> None:
    """001 l.714 "Sweep edge across all of Target" (the default): no wall is in the
    sweep across H1, 0% — it was 100%, each wall the four edges met counted. `[rules]
    cover = "edges"`: 000 l.331 "Each obstructed Space gives Cover:+25%." caps it at the
    edges obstructed, two here (to G2 and H2), 50%; the Cover reveal names as many
    obstacles as the Cover counts, and `conflict`, `odds` and `hit` agree."""
    assert "Each obstructed Space gives Cover:+25%" in rule_line("000", 331)
    assert "Sweep edge across all of Target" in rule_line("001", 714)
    s = arena(d2d, tmp_path, WALLS, archer="A1", archer_facing="E", scout="H1",
              scout_facing="W", knight="A8", knight_facing="N")
    r = d2d.json(*s, "conflict", "Archer:7S^", "Scout", "--card", "4C")
    m = r["map"]
    assert (m["line_of_sight"], m["cover"], m["obstacles"], r["modifiers"]) == (
        True, 0, {}, [])
    assert "cover" not in m["terms"]
    assert d2d.json(*s, "odds", "conflict", "Archer:7S^", "Scout")["map"]["cover"] == 0
    _rules(Path(s[1]), cover="edges")
    r = d2d.json(*s, "conflict", "Archer:7S^", "Scout", "--card", "9H", "--card", "4C")
    m = r["map"]
    assert (m["line_of_sight"], m["cover"], m["terms"]["cover"]) == (True, 50, "b:50")
    assert len(m["obstacles"]) == 2
    assert "only 2 of the 4 edges obstructed" in m["sources"]["cover"]
    o = d2d.json(*s, "odds", "conflict", "Archer:7S^", "Scout")
    assert o["map"]["cover"] == 50
    h = d2d.json(*s, "hit", "7S", "--by", "Archer", "--vs", "Scout")
    assert [(x["key"], x["level"]) for x in h["modifiers"]] == [("cover", -2)]


CORRIDOR = """\
# # # # # # # #
. . . o . . . .
# # # # # # # #"""


def test_cover_in_a_corridor_and_beside_the_rival_both_readings_001_l716(
        d2d: Runner, tmp_path: Path) -> None:
    """001 l.716 "Cover:+25% - for each obstacle encountered": in a corridor a rock on
    the line is one obstacle, and the walls the edges to the Spaces beside the Rival
    cross block sight there, never the line: 000's count is what caps it. Either
    reading never exceeds 000's count (000 l.331)."""
    from d2d_cli.rules.board import grid, sight

    board = grid.parse_board({"grid": CORRIDOR, "legend": {}})
    a, b = grid.parse_space("A2"), grid.parse_space("H2")
    edges = sight.cover(board, a, b, set())
    sweep = sight.cover(board, a, b, set(), reading="sweep")
    assert edges.obstructed == 4  # the line and G2 (the rock), G1 and G3 (walls)
    assert edges.percent <= 25 * edges.obstructed and sweep.percent <= 25 * sweep.obstructed
    assert grid.parse_space("D2") in sweep.obstacles  # the rock is on the line
    assert sweep.percent == 25  # only the rock: the walls are beside the Rival's Space
    # An Ally diagonally beside the Rival, inside 000's edges and the sweep: 25%.
    open_board = grid.parse_board({"grid": "\n".join(". " * 6 for _ in range(6)),
                                   "legend": {}})
    a, b, ally = (0, 0), (4, 4), (3, 4)
    for reading in sight.READINGS:
        got = sight.cover(open_board, a, b, {ally}, reading=reading)
        assert (got.percent, got.obstacles) == (25, (ally,)), reading


# --------------------------------------------------------------------------- item 5


def test_what_was_said_lapses_when_the_units_move_001_l685(d2d: Runner,
                                                           tmp_path: Path) -> None:
    """001 l.685 "Close Combat - Range:0-1": a Range said with `unit situation` holds
    while the two stand where they stood when it was said; once the Scout steps back two
    Spaces the map's Range is read again and the attack is refused. A Cover said of a
    unit lapses when that unit moves, not when its Rival does (Combat #1's Archer keeps
    his Cover while the Scout closes in, 000 l.592–596)."""
    assert "Close Combat** - Range:0-1" in rule_line("001", 685)
    s = arena(d2d, tmp_path, knight="A8", knight_facing="N", archer="B7",
              archer_facing="N", scout="B6", scout_facing="S")
    d2d.ok(*s, "unit", "situation", "Scout", "--vs", "Archer", "--range", "1")
    r = d2d.json(*s, "conflict", "Scout:fast", "Archer:fast")
    assert "said_range" in r["sources"] and r["map"]["range"] == 1
    d2d.ok(*s, "unit", "move", "Scout", "backward")  # to B5: Range 2
    res = d2d(*s, "conflict", "Scout:fast", "Archer:fast")
    assert res.exit_code == 2 and "out of reach" in res.stderr, res.stderr
    # Cover said of the Archer holds while the Scout moves; it lapses when he moves.
    d2d.ok(*s, "unit", "situation", "Archer", "--cover", "50")
    d2d.ok(*s, "unit", "move", "Scout", "forward")  # back to B6
    r = d2d.json(*s, "hit", "7S", "--by", "Scout", "--vs", "Archer")
    assert "said_cover" in r["sources"]
    d2d.ok(*s, "unit", "move", "Archer", "turn", "NE")
    r = d2d.json(*s, "hit", "7S", "--by", "Scout", "--vs", "Archer")
    assert "said_cover" in r["sources"]  # a Turn is no step: still on B7
    d2d.ok(*s, "unit", "move", "Archer", "turn", "N")
    d2d.ok(*s, "unit", "move", "Archer", "slide", "right")  # to C7, still beside him
    r = d2d.json(*s, "hit", "7S", "--by", "Scout", "--vs", "Archer")
    assert "said_cover" not in r["sources"] and r["map"]["range"] == 1


# --------------------------------------------------------------------------- item 4

SCREEN = """\
. . . . . . . . . .
. . . . # . . . . .
. . . . # . . . . .
. . . . # . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . ."""


def test_hide_only_out_of_sight_of_rivals_001_l563(d2d: Runner, tmp_path: Path) -> None:
    """001 l.561–563 "Hide - Move:-[Action Cost] IF out of sight THEN become Hidden":
    in a Rival's Arc:Front with Line of Sight clear, Hide is refused and changes
    nothing; behind a wall, or at a Rival's side, it succeeds."""
    assert "IF out of sight THEN become Hidden" in rule_line("001", 563)
    s = arena(d2d, tmp_path, SCREEN, knight="B8", knight_facing="N", archer="B7",
              archer_facing="N", scout="H3", scout_facing="W")
    # The Archer on B7 faces E: the Scout on H3 is in his Arc:Front, the wall at E2–E4
    # is not between them (the line passes south of it).
    d2d.ok(*s, "unit", "place", "Archer", "B7", "E")
    before = Path(s[1]).read_bytes()
    res = d2d(*s, "unit", "act", "Scout", "hide")
    assert res.exit_code == 2 and "in sight of Archer" in res.stderr, res.stderr
    assert "001 l.561–563" in res.stderr
    assert Path(s[1]).read_bytes() == before
    # Behind the wall from the Archer (B3 → H3 crosses E3): out of sight.
    d2d.ok(*s, "unit", "place", "Archer", "B3", "E")
    d2d.ok(*s, "unit", "act", "Scout", "hide")
    assert tomllib.loads(Path(s[1]).read_text("utf-8"))["units"]["Scout"]["stealth"] == 1


def test_detect_only_in_arc_front_and_npcs_leave_the_hidden_alone_001_l591(
        d2d: Runner, tmp_path: Path) -> None:
    """001 l.591 "IF something Hidden is in [Arc:Front]": the Knight cannot Detect the
    Hidden Scout behind him (no Stun paid); facing him, he can. 000 l.1201 "Hidden - A
    Unit or Item that cannot automatically be noticed": `conflict` and `odds` refuse to
    attack a Hidden unit, and the NPC policy does not target one. 000 l.804 "Forced:
    Maximum Move=Tokens": a Hidden NPC's plan moves at most its tokens, and `npc turn`
    carries it out."""
    assert "IF something Hidden is in [Arc:Front]" in rule_line("001", 591)
    assert "Hidden - A Unit or Item that cannot automatically be noticed" in \
        rule_line("000", 1201)
    assert "Forced: Maximum Move=Tokens" in rule_line("000", 804)
    s = arena(d2d, tmp_path, knight="B3", knight_facing="S", archer="J8",
              archer_facing="N", scout="G3", scout_facing="W")
    d2d.ok(*s, "unit", "stealth", "Scout", "hide", "2")
    before = Path(s[1]).read_bytes()
    res = d2d(*s, "unit", "act", "Knight", "detect", "Scout")
    assert res.exit_code == 2 and "not in Knight's Arc:Front" in res.stderr, res.stderr
    assert Path(s[1]).read_bytes() == before  # no Stun
    res = d2d(*s, "conflict", "Knight:fast", "Scout:fast")
    assert res.exit_code == 2 and "Scout is Hidden" in res.stderr
    res = d2d(*s, "odds", "conflict", "Knight:fast", "Scout")
    assert res.exit_code == 2 and "Scout is Hidden" in res.stderr
    # The Hidden Scout (G3, Move 5) plans a walk of at most its 2 tokens toward the
    # Knight (B3), and `npc turn` carries it out.
    p = d2d.json(*s, "npc", "plan", "Scout")
    assert (p["action"], p["target"]) == ("move", "Knight")
    d2d.ok(*s, "npc", "turn", "Scout")
    after = tomllib.loads(Path(s[1]).read_text("utf-8"))["units"]["Scout"]
    assert after["effects"]["moved_hidden"] == 2 and after["move"] == 3
    assert after["space"] == p["space"]
    # Every Rival Hidden: the NPC has no target.
    d2d.ok(*s, "unit", "stealth", "Knight", "hide", "1")
    d2d.ok(*s, "unit", "stealth", "Archer", "hide", "1")
    d2d.ok(*s, "unit", "stealth", "Scout", "reveal")
    p = d2d.json(*s, "npc", "plan", "Scout")
    assert (p["action"], p["target"]) == ("none", None)
    assert "Hidden" in p["reasons"][0]["why"]
    # Facing the Scout, the Knight may Detect it (and pays the Stun).
    d2d.ok(*s, "unit", "stealth", "Scout", "hide", "1")
    d2d.ok(*s, "unit", "place", "Knight", "B3", "E")
    r = d2d.json(*s, "unit", "act", "Knight", "detect", "Scout")
    assert r["detect"] is not None


# --------------------------------------------------------------------------- item 10


def test_a_simulated_round_end_recovers_000_l611(d2d: Runner, tmp_path: Path) -> None:
    """000 l.611 "Recover - Each Unit removes a Fatigue, Stun, Stress, or Slow": a
    simulated fight's `round end` takes one off each unit that holds one (the Scout's
    Fatigue ×2 is one after round 1), and its log replays with `--recover`."""
    assert "Recover - Each Unit removes a Fatigue, Stun, Stress, or Slow" in \
        rule_line("000", 611)
    from d2d_cli.rules.assistant import goals as g
    from d2d_cli.rules.assistant import sim

    s = combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "condition", "Goblin Scout", "add", "fatigue", "-n", 2)
    data = tomllib.loads(Path(s[1]).read_text("utf-8"))
    goals = g.parse(data["scene"]["goals"], data)
    _, t = sim.fight(data, goals, sim.run_seed(1, 0), log=True)
    assert t.lines is not None
    ends = [x for x in t.lines if x.startswith("round end")]
    assert ends and "--recover 'Goblin Scout=fatigue'" in ends[0]


def test_no_crit_is_placed_on_a_dead_unit_000_l1172(d2d: Runner, tmp_path: Path) -> None:
    """000 l.1172 "Dead - Permanent Negative Status": `crit --target` refuses a Dead
    unit, and changes nothing."""
    assert "Dead - Permanent Negative Status" in rule_line("000", 1172)
    s = combat1(d2d, tmp_path)
    d2d.ok(*s, "unit", "condition", "Goblin Scout", "add", "dead")
    before = Path(s[1]).read_bytes()
    res = d2d(*s, "crit", "--weapon", "Body", "--by", "Archer", "--hits", 1, "--target",
              "Goblin Scout")
    assert res.exit_code == 2 and "Goblin Scout is Dead" in res.stderr, res.stderr
    assert Path(s[1]).read_bytes() == before


def test_a_melee_planner_needs_no_turn_for_a_side_arc_001_l669() -> None:
    """001 l.667–669 "Melee and Shields act on the Left OR Right": the NPC planner takes
    a Space from which a Melee attack reaches a Rival in its Arc:Left as it stands (no
    Turn), where any other attack must turn to face it."""
    assert "Melee and Shields act on the Left OR Right" in rule_line("001", 669)
    from d2d_cli.rules.assistant.movement import _facing_for
    from d2d_cli.rules.board import grid
    from d2d_cli.rules.board.derive import Field, arcs_of
    from d2d_cli.rules.board.placement import Placement

    board = grid.parse_board({"grid": OPEN, "legend": {}})
    knight = Placement("Knight", grid.parse_space("H2"), grid.COMPASS.index("S"))
    scout = Placement("Scout", grid.parse_space("I2"), grid.COMPASS.index("N"))
    f = Field(board, {"Knight": knight, "Scout": scout})
    assert _facing_for(f, knight, scout, 0, arcs_of("melee")) == (knight, 0)
    assert _facing_for(f, knight, scout, 0, arcs_of("close")) is None  # a Turn short
    turned, steps = _facing_for(f, knight, scout, 2, arcs_of("close")) or (None, 0)
    assert steps == 1 and turned is not None  # to SE: I2 on the front diagonal
