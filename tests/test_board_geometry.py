"""The board's geometry against the rule text (issue 21): movement, Range, Arcs, the
straight edge, Line of Sight and Cover, on hand-drawn maps (rules.board)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.board import grid, moves, sight
from d2d_cli.rules.board.grid import COMPASS, parse_board, parse_space, space_name
from d2d_cli.rules.board.placement import Placement
from tests.helpers import rule_line


def open_board(width: int = 9, height: int = 9) -> grid.Board:
    return parse_board({"grid": "\n".join("." * width for _ in range(height))})


def drawn(picture: str) -> tuple[grid.Board, dict[str, grid.Space]]:
    """A hand-drawn map: letters A–Z are units' Spaces (open ground), the rest legend
    characters; returns the map and each letter's Space."""
    rows = [r.replace(" ", "") for r in picture.strip().splitlines()]
    marks = {ch: (x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch.isupper()}
    clean = ["".join("." if ch.isupper() else ch for ch in r) for r in rows]
    return parse_board({"grid": "\n".join(clean)}), marks


# --------------------------------------------------------------------------- Spaces


def test_space_names_read_as_a_map_does() -> None:
    # 000 l.1043 "Spaces - A space on a Map or Location marked with a Dot."
    assert "marked with a Dot" in rule_line("000", 1043)
    assert parse_space("A1") == (0, 0)
    assert parse_space("g5") == (6, 4)
    assert parse_space("AA10") == (26, 9)
    assert [space_name(s) for s in ((0, 0), (25, 0), (26, 1), (59, 59))] == [
        "A1", "Z1", "AA2", "BH60"]
    for bad in ("5G", "G0", "", "G-1", "ABC1"):
        with pytest.raises(BadInput):
            parse_space(bad)


# --------------------------------------------------------------------------- movement

# From D4 the ring of neighbours clockwise from North: D3, E3, E4, E5, D5, C5, C4, C3.
# Each row: the facing, then where each movement ends (000 l.273–277), hand-written.
ENDS = {
    #      forward drift-L drift-R slide-L slide-R back  dback-L dback-R
    "N": ("D3", "C3", "E3", "C4", "E4", "D5", "C5", "E5"),
    "NE": ("E3", "D3", "E4", "C3", "E5", "C5", "C4", "D5"),
    "E": ("E4", "E3", "E5", "D3", "D5", "C4", "C3", "C5"),
    "SE": ("E5", "E4", "D5", "E3", "C5", "C3", "D3", "C4"),
    "S": ("D5", "E5", "C5", "E4", "C4", "D3", "E3", "C3"),
    "SW": ("C5", "D5", "C4", "E5", "C3", "E3", "E4", "D3"),
    "W": ("C4", "C5", "C3", "D5", "D3", "E4", "E5", "E3"),
    "NW": ("C3", "C4", "D3", "C5", "E3", "E5", "D5", "E4"),
}
STEPS = (("forward", None), ("drift", "left"), ("drift", "right"), ("slide", "left"),
         ("slide", "right"), ("backward", None), ("drift_back", "left"),
         ("drift_back", "right"))
# 000 l.273–277: Forward and Drift Move:-1; Slide, Backward and Drift Back Move:-2.
COST = {"forward": 1, "drift": 1, "slide": 2, "backward": 2, "drift_back": 2}


@pytest.mark.parametrize("facing", COMPASS)
def test_every_movement_ends_and_costs_as_written_for_every_facing(facing: str) -> None:
    lines = {n: rule_line("000", n) for n in range(273, 278)}
    assert "Forward (Move:-1) - Move directly forward 1 Space." in lines[273]
    assert "Drift (Move:-1) - Move diagonally forward 1 Space." in lines[274]
    assert "Slide (Move:-2) - Move directly Left or Right 1 Space." in lines[275]
    assert "Backward (Move:-2) - Move directly backward 1 Space." in lines[276]
    assert "Drift Back (Move:-2) - Move diagonally backward 1 Space." in lines[277]
    board = open_board()
    start = Placement("Archer", parse_space("D4"), COMPASS.index(facing))
    for (kind, side), end in zip(STEPS, ENDS[facing], strict=True):
        w = moves.walk(board, start, kind, side)
        assert (space_name(w.end), w.cost) == (end, COST[kind]), (facing, kind, side)
        # the side may be named by its compass heading as well
        assert moves.walk(board, start, kind, w.toward).end == w.end


def test_a_side_is_needed_and_must_be_one_of_the_two() -> None:
    board = open_board()
    at = Placement("Archer", parse_space("D4"), COMPASS.index("N"))
    with pytest.raises(BadInput, match=r"Drift which way\? left \(NW\) or right \(NE\)"):
        moves.walk(board, at, "drift")
    with pytest.raises(BadInput, match="Slide which way"):
        moves.walk(board, at, "slide", "N")


def test_terrain_costs_extra_move_for_each_space_entered() -> None:
    # 000 l.264 "require you to spend additional Move Points for each Space you enter".
    assert "additional Move Points for each Space you enter" in rule_line("000", 264)
    board, at = drawn("""
        . . . .
        . ~ ~ .
        . A . .
    """)
    w = moves.walk(board, Placement("A", at["A"], COMPASS.index("N")), "forward", None, 2)
    assert (space_name(w.end), w.move, w.terrain, w.cost) == ("B1", 2, 1, 3)
    w = moves.walk(board, Placement("A", at["A"], COMPASS.index("N")), "drift", "right")
    assert (space_name(w.end), w.cost) == ("C2", 1 + 1)


def test_off_the_map_and_into_a_rock_are_refused() -> None:
    board, at = drawn("""
        A o
        . .
    """)
    with pytest.raises(RuleViolation, match=r"A cannot Forward N from A1: that Space is "
                       r"off the map \(north of row 1\); to leave the map from A1: d2d unit "
                       r"leave A$"):
        moves.walk(board, Placement("A", at["A"], 0), "forward")
    # a Space past the west or north edge has no name (no column left of A, no row 0):
    # the refusal says which edge instead of naming it "1" or "A0"
    with pytest.raises(RuleViolation, match=r"A cannot Slide W from A1: that Space is off "
                       r"the map \(west of column A\); to leave"):
        moves.walk(board, Placement("A", at["A"], 0), "slide", "left")
    with pytest.raises(RuleViolation, match=r"A cannot Drift NW from A1: that Space is off "
                       r"the map \(north of row 1 and west of column A\); to leave"):
        moves.walk(board, Placement("A", at["A"], 0), "drift", "left")
    with pytest.raises(RuleViolation, match=r"from B2: that Space is off the map \(south "
                       r"of row 2 and east of column B\); to leave"):
        moves.walk(board, Placement("A", (1, 1), 3), "forward")
    with pytest.raises(RuleViolation, match="the rock there cannot be entered"):
        moves.walk(board, Placement("A", at["A"], 2), "forward")


def test_a_double_sized_unit_takes_two_spaces_and_moves_by_its_front() -> None:
    # 000 l.749 "Double-sized Units - These take up 2 Spaces. The front Space is used
    # for Moves."
    assert "The front Space is used for Moves" in rule_line("000", 749)
    board = open_board(5, 5)
    ogre = Placement("Ogre", parse_space("C3"), COMPASS.index("N"), double=True)
    assert [space_name(s) for s in ogre.spaces] == ["C3", "C4"]
    w = moves.walk(board, ogre, "forward")
    assert [space_name(s) for s in w.spaces] == ["C2", "C3"]
    w = moves.walk(board, ogre, "slide", "right")
    assert [space_name(s) for s in w.spaces] == ["D3", "D4"]
    # backed against the south edge, its rear would leave the map
    edge = Placement("Ogre", parse_space("C4"), COMPASS.index("N"), double=True)
    with pytest.raises(RuleViolation, match=r"off the map \(south of row 5\)"):
        moves.walk(board, edge, "backward")
    with pytest.raises(RuleViolation, match=r"Ogre would stand off the map \(north of row "
                       r"1\)$"):
        moves.turned(board, Placement("Ogre", parse_space("C1"), 4, double=True), 4)
    with pytest.raises(RuleViolation, match=r"Ogre would stand off the map \(west of "
                       r"column A\)$"):
        moves.turned(board, Placement("Ogre", parse_space("A3"), 0, double=True), 2)


SPACES = st.tuples(st.integers(0, 59), st.integers(0, 59))


@given(SPACES, st.integers(0, 7))
def test_forward_then_backward_returns_to_the_start(at: grid.Space, facing: int) -> None:
    board = open_board(60, 60)
    start = Placement("U", at, facing)
    try:
        there = moves.walk(board, start, "forward")
    except RuleViolation:
        return  # the map's edge
    back = moves.walk(board, Placement("U", there.end, facing), "backward")
    assert back.end == at and there.cost + back.cost == 1 + 2


@given(SPACES, st.integers(0, 7), st.sampled_from([("drift", "left"), ("slide", "right"),
                                                   ("slide", "left")]))
def test_each_sideways_step_has_its_way_back(at: grid.Space, facing: int,
                                              step: tuple[str, str]) -> None:
    board = open_board(60, 60)
    undo = {("drift", "left"): ("drift_back", "right"), ("slide", "right"): ("slide", "left"),
            ("slide", "left"): ("slide", "right")}[step]
    try:
        there = moves.walk(board, Placement("U", at, facing), *step)
    except RuleViolation:
        return
    assert moves.walk(board, Placement("U", there.end, facing), *undo).end == at


# --------------------------------------------------------------------------- Range


def test_range_counts_spaces_and_a_diagonal_step_is_one_space() -> None:
    # 001 l.681–683 "Range - Count Spaces to the Target / Find the shortest path to
    # Target"; a diagonal step is a Drift, Move:-1 like Forward (000 l.273–274).
    assert "Count Spaces to the Target" in rule_line("001", 681)
    assert "Find the shortest path to Target" in rule_line("001", 683)
    d = sight.distance
    assert d((0, 0), (0, 0)) == 0
    assert d((0, 0), (1, 1)) == 1
    assert d((0, 0), (3, 3)) == 3
    assert d((0, 0), (3, 1)) == 3
    assert d((2, 7), (5, 1)) == 6
    # obstacles do not lengthen it: counted, not walked (docs/rules.md "Range on the map")
    board, at = drawn("""
        A # .
        . # B
        . . .
    """)
    assert d(at["A"], at["B"]) == 2


@given(SPACES, SPACES)
def test_range_is_symmetric(a: grid.Space, b: grid.Space) -> None:
    assert sight.distance(a, b) == sight.distance(b, a)


# --------------------------------------------------------------------------- Arcs

# Around a unit facing N, and one facing NE: F front, L left, R right, B back (001
# l.661 "Arc:Front, Arc:Back, Arc:Left, Arc:Right"). The quarters' diagonals go to
# Front ahead and Back behind, as Drift and Drift Back name those Spaces.
ARC_N = """
F F F F F
L F F F R
L L @ R R
L B B B R
B B B B B
"""
ARC_NE = """
L L F F F
L L F F F
B B @ F F
B B B R R
B B B R R
"""


def arcs_around(facing: int) -> str:
    letter = {sight.FRONT: "F", sight.LEFT: "L", sight.RIGHT: "R", sight.BACK: "B"}
    rows = []
    for y in range(5):
        rows.append(" ".join(letter[a] if (a := sight.arc((2, 2), facing, (x, y)))
                             else "@" for x in range(5)))
    return "\n".join(rows)


def turn_picture(picture: str) -> str:
    """The picture turned 90° clockwise (a unit facing 2 steps further round)."""
    rows = [r.split() for r in picture.strip().splitlines()]
    turned = [[rows[len(rows) - 1 - c][r] for c in range(len(rows))] for r in range(5)]
    return "\n".join(" ".join(row) for row in turned)


@pytest.mark.parametrize("facing", COMPASS)
def test_arcs_at_each_of_the_8_facings(facing: str) -> None:
    assert "Arc:Front, Arc:Back, Arc:Left, Arc:Right" in rule_line("001", 661)
    i = COMPASS.index(facing)
    picture = (ARC_N if i % 2 == 0 else ARC_NE).strip()
    for _ in range(i // 2):
        picture = turn_picture(picture)
    assert arcs_around(i) == picture
    assert sight.arc((2, 2), i, (2, 2)) is None  # one's own Space has no Arc (001 l.657)


# --------------------------------------------------------------------------- straight edge


def test_a_straight_edge_through_a_corner_crosses_neither_space_beside_it() -> None:
    # docs/rules.md "A straight edge through a corner": touching is not crossing.
    assert sight.crossed((0, 0), (2, 2)) == [(1, 1), (2, 2)]
    assert sight.crossed((0, 0), (3, 1)) == [(1, 0), (2, 1), (3, 1)]
    assert sight.crossed((0, 0), (2, 1)) == [(1, 0), (1, 1), (2, 1)]
    assert sight.crossed((3, 0), (2, 2)) == [(3, 1), (2, 1), (2, 2)]


@given(SPACES, SPACES)
def test_a_straight_edge_crosses_the_same_spaces_both_ways(a: grid.Space,
                                                           b: grid.Space) -> None:
    there = set(sight.crossed(a, b)) | {a}
    back = set(sight.crossed(b, a)) | {b}
    assert there == back


def test_line_of_sight_is_blocked_by_a_wall_not_by_a_rock() -> None:
    # 001 l.707–709 "Use a straight edge between dots / Measure from center of your
    # Space to Target / IF no obstacle THEN Line of Sight".
    assert "IF no obstacle THEN Line of Sight" in rule_line("001", 709)
    board, at = drawn("""
        A # D . .
        # . . . .
        . . B . .
        . o . . .
        C . . . .
    """)
    assert sight.sight_blocker(board, at["A"], at["B"]) is None  # between the walls' corners
    assert sight.sight_blocker(board, at["A"], at["D"]) == (1, 0)
    assert sight.sight_blocker(board, at["C"], at["B"]) is None  # a rock is low: Cover only


# --------------------------------------------------------------------------- Cover


def cover_of(picture: str) -> tuple[int, int]:
    """Cover of T against A on a drawn map, by each reading ("edges", "sweep"); other
    capital letters are units."""
    board, at = drawn(picture)
    others = {s for k, s in at.items() if k not in "AT"}
    edges, sweep = (sight.cover(board, at["A"], at["T"], others, reading=r).percent
                    for r in ("edges", "sweep"))
    return edges, sweep


def test_cover_on_hand_drawn_maps() -> None:
    # 000 l.330–332 "Cover - Use a straight-edge from Unit Space to the closest 3 Spaces
    # surrounding the Rival Space. / Each obstructed Space gives Cover:+25%. / IF a
    # straight line between Unit and Rival is obstructed THEN Cover:+25%."
    assert "closest 3 Spaces surrounding the Rival Space" in rule_line("000", 330)
    assert "Each obstructed Space gives Cover:+25%." in rule_line("000", 331)
    assert "is obstructed THEN Cover:+25%" in rule_line("000", 332)
    # … and 001 l.714–716 "Sweep edge across all of Target / Cover:+25% - for each
    # obstacle encountered": each pair is (`[rules] cover = "edges"`: every obstacle those
    # edges meet, once, at most one an obstructed edge; "sweep", the default: the
    # obstacles a sweep across the Target's own Space meets, within the same count)
    assert "Sweep edge across all of Target" in rule_line("001", 714)
    assert "Cover:+25%** - for each obstacle encountered" in rule_line("001", 716)
    # open ground: none
    assert cover_of("""
        . A .
        . . .
        . . .
        . T .
    """) == (0, 0)
    # a rock on the line: it obstructs the line and the edge to the Space behind it,
    # one obstacle (25%)
    assert cover_of("""
        . A .
        . . .
        . o .
        . . .
        . T .
    """) == (25, 25)
    # a rock beside the Target, toward the Unit: it is one of the 3 Spaces and on the
    # line, one obstacle (25%)
    assert cover_of("""
        . . . A .
        . . . . .
        . . . o .
        . . . T .
    """) == (25, 25)
    # a rock beside the Unit meets every edge to a Target far off: still one obstacle
    # (000 l.331 alone would make it 100%: Combat #1's Archer on E9 and the Scout on I2)
    assert cover_of("""
        . . . . T
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . o . . .
        A . . . .
    """) == (25, 25)
    # two rocks, each on a different edge: two obstacles; the sweep passes between them
    assert cover_of("""
        . . A . .
        . . . . .
        . o . o .
        . . . . .
        . . T . .
    """) == (50, 0)
    # two rocks one behind the other on the line: the edges meet both, 50%
    assert cover_of("""
        . A .
        . o .
        . . .
        . o .
        . . .
        . T .
    """) == (50, 50)
    # at most 100% (000 l.455 "Cover:25%" a step, 001 l.718 "Level:-1 for each 25%"): a
    # wood of brush between them
    assert cover_of("""
        . . A . .
        % % % % %
        % % % % %
        . . . . .
        . . T . .
    """) == (100, 50)
    # the line passes exactly between two rocks, through their shared corner: the line is
    # clear, but the two edges to the Spaces beside it cross a rock each
    assert cover_of("""
        A o .
        o . .
        . . T
    """) == (50, 50)
    # walled in toward the Unit: the 3 Spaces hold a rock each (the line meets the middle
    # one again), three obstacles, 75%; the sweep meets only the middle one
    assert cover_of("""
        . . A . .
        . o o o .
        . . T . .
    """) == (75, 25)
    # … and brush in front of them, met by every edge: a fourth obstacle, 100%
    assert cover_of("""
        . . A . .
        . . % . .
        . . . . .
        . o o o .
        . . T . .
    """) == (100, 50)
    # units give Cover too (001 l.712 "Rivals, Allies, and obsurment offer Cover"), brush
    # as well
    assert "Rivals, Allies, and obsurment offer Cover" in rule_line("001", 712)
    assert cover_of("""
        . A .
        . . .
        . G .
        . T .
    """) == (25, 25)
    # brush on the Target's corner toward the Unit: every edge and the line cross it,
    # one obstacle
    assert cover_of("""
        A . . .
        . . . .
        . . % .
        . . . T
    """) == (25, 25)


def test_the_line_to_the_rival_adds_no_obstacle_of_its_own() -> None:
    # docs/rules.md "Line of Sight and Cover": every Space the line (000 l.332) crosses
    # is crossed by an edge to one of the 3 surrounding Spaces too (l.330), so with each
    # obstacle counted once (001 l.716) the line never raises the Cover by itself.
    board = open_board(21, 21)
    target = (10, 10)
    for x in range(21):
        for y in range(21):
            if (x, y) == target:
                continue
            line = {s for s in sight.crossed((x, y), target) if s != target}
            edges = {s for to in sight.surrounding(board, (x, y), target) if to != (x, y)
                     for s in sight.crossed((x, y), to)}
            assert line <= edges, (x, y)


def test_the_3_surrounding_spaces_are_the_nearest_to_the_unit() -> None:
    board = open_board(9, 9)
    around = sight.surrounding(board, parse_space("E1"), parse_space("E5"))
    assert sorted(space_name(s) for s in around) == ["D4", "E4", "F4"]
    around = sight.surrounding(board, parse_space("A1"), parse_space("E5"))
    assert sorted(space_name(s) for s in around) == ["D4", "D5", "E4"]
    around = sight.surrounding(board, parse_space("G2"), parse_space("E5"))
    assert sorted(space_name(s) for s in around) == ["E4", "F4", "F5"]


# --------------------------------------------------------------------------- the map text


def test_a_malformed_map_is_refused_naming_row_and_column() -> None:
    with pytest.raises(BadInput, match=r"row 2, column 3 \(C2\): 'x' is not in the legend"):
        parse_board({"grid": "....\n..x.\n...."})
    with pytest.raises(BadInput, match="row 3 has 3 Spaces, row 1 has 4"):
        parse_board({"grid": "....\n....\n...\n"})
    with pytest.raises(BadInput, match="unknown key 'height'"):
        parse_board({"grid": "..", "legend": {"h": {"name": "hill", "height": 2}}})
    with pytest.raises(BadInput, match="board: the grid has no rows"):
        parse_board({"grid": "\n \n"})
    b = parse_board({"grid": ". . h\n2 . .", "legend": {"h": {"name": "hill",
                                                               "elevation": 3}}})
    assert (b.width, b.height, b.terrain((2, 0)).elevation, b.terrain((0, 1)).elevation) == (
        3, 2, 3, 2)


def test_reachable_spaces_for_a_planner() -> None:
    # With Move 2 and the Facing kept: Forward/Drift cost 1, Slide/Backward/Drift Back 2
    # (000 l.273–277), the rough ground 1 more to enter (000 l.264), the rock never.
    board, at = drawn("""
        . . . . .
        . . ~ . .
        . o A . .
        . . . . .
    """)
    routes = moves.reachable(board, Placement("A", at["A"], COMPASS.index("N")), 2)
    got = {space_name(s): (r.move, r.steps) for s, r in routes.items()}
    assert got["C3"] == (0, ())
    assert got["C2"] == (2, (("forward", None),))  # onto the rough ground: 1 + 1
    assert got["B2"] == (1, (("drift", "left"),))
    assert got["D3"] == (2, (("slide", "right"),))
    assert got["C1"] == (2, (("drift", "left"), ("drift", "right")))
    assert got["C4"] == (2, (("backward", None),))
    assert "B3" not in got  # the rock
    assert sorted(got) == ["A1", "B1", "B2", "B4", "C1", "C2", "C3", "C4", "D1", "D2", "D3",
                           "D4", "E1"]
    # every Route walks as it says, to where it says, for what it says
    for space, route in routes.items():
        here, spent = Placement("A", at["A"], 0), 0
        for kind, side in route.steps:
            w = moves.walk(board, here, kind, side)
            here, spent = Placement("A", w.end, 0), spent + w.cost
        assert (here.space, spent) == (space, route.move)


BOARDS = st.lists(st.text(".o#%~", min_size=8, max_size=8), min_size=8, max_size=8)
SMALL = st.tuples(st.integers(0, 7), st.integers(0, 7))


@given(BOARDS, SMALL, SMALL)
def test_sight_is_mutual_and_cover_comes_in_quarters(rows: list[str], a: grid.Space,
                                                     b: grid.Space) -> None:
    board = parse_board({"grid": "\n".join(rows)})
    assert (sight.sight_blocker(board, a, b) is None) == (sight.sight_blocker(board, b, a)
                                                          is None)
    found = sight.cover(board, a, b, set(), reading="edges")
    assert found.percent in (0, 25, 50, 75, 100)
    # each obstacle any edge meets, once (001 l.716), never more than 000's count of
    # obstructed edges (000 l.331 "Each obstructed Space gives Cover:+25%"; issue 27)
    met = {s for e in found.edges for s in e.met}
    obstructed = sum(1 for e in found.edges if e.met)
    assert found.obstructed == obstructed
    assert set(found.obstacles) <= met
    assert found.percent == 25 * min(4, len(met), obstructed) == 25 * len(found.obstacles)
    # the sweep across the Rival's Space (001 l.714): its obstacles, within 000's count
    swept = sight.cover(board, a, b, set(), reading="sweep")
    assert swept.percent <= 25 * obstructed
    blocking = {s for s in sight.swept(a, b) if board.terrain(s).obstructs}
    assert swept.percent == 25 * min(4, len(blocking), obstructed)
    if a != b:
        assert len(found.edges) == 1 + len(sight.surrounding(board, a, b))


def test_a_double_sized_unit_between_is_one_obstacle() -> None:
    # 000 l.749 "Double-sized Units - These take up 2 Spaces"; 001 l.716 "Cover:+25% -
    # for each obstacle encountered": the Ogre on C3 and C2, both on the line from the
    # Archer to the Goblin, is one obstacle — Cover 25%, and one suit for the reveal.
    from d2d_cli.rules.board.derive import Field
    from d2d_cli.rules.board.placement import placed
    from d2d_cli.rules.units.roster import Unit

    board = open_board(5, 5)

    def unit(name: str, space: str, facing: str, double: bool = False) -> Unit:
        extra: dict[str, object] = {"space": space, "facing": facing}
        if double:
            extra["double"] = True
        return Unit(name, {}, faction=name, extra=extra)

    archer, goblin = unit("Archer", "C5", "N"), unit("Goblin", "C1", "S")
    ogre = unit("Ogre", "C3", "S", double=True)
    f = Field(board, {u.name: p for u in (archer, goblin, ogre)
                      if (p := placed(u)) is not None})
    assert f.places["Ogre"].spaces == ((2, 2), (2, 1))
    geo = f.derive(archer, goblin, "ranged")
    assert geo is not None
    assert (geo.cover, geo.obstacles) == (25, {"C": "Ogre (C3)"})
    # the bare geometry, each Space its own obstacle, would count it twice
    assert sight.cover(board, (2, 4), (2, 0), {(2, 2), (2, 1)}).percent == 50


def _swept_by_corners(dx: int, dy: int) -> tuple[grid.Space, ...]:
    """001 l.714 "Sweep edge across all of Target", from first principles: the Spaces
    (neither end's) whose open square overlaps the cone from the dot (0, 0) over the
    Rival's square by more than a point, by separating axes with every corner of both
    projected (half-Spaces, integers); nearest first, then by distance, then the Space."""
    rival = [(2 * dx + ex, 2 * dy + ey) for ex in (-1, 1) for ey in (-1, 1)]
    cone = [(0, 0), *rival]
    axes = [(1, 0), (0, 1)] + [(cy, -cx) for cx, cy in rival]

    def overlap(a: list[tuple[int, int]], b: list[tuple[int, int]],
                ax: tuple[int, int]) -> bool:
        pa = [x * ax[0] + y * ax[1] for x, y in a]
        pb = [x * ax[0] + y * ax[1] for x, y in b]
        return max(pa) > min(pb) and max(pb) > min(pa)

    out = []
    for x in range(min(0, dx), max(0, dx) + 1):
        for y in range(min(0, dy), max(0, dy) + 1):
            if (x, y) in ((0, 0), (dx, dy)):
                continue
            sq = [(2 * x + ex, 2 * y + ey) for ex in (-1, 1) for ey in (-1, 1)]
            if all(overlap(cone, sq, ax) for ax in axes):
                out.append((x, y))
    out.sort(key=lambda s: (max(abs(s[0]), abs(s[1])), s[0] ** 2 + s[1] ** 2, s))
    return tuple(out)


def test_the_sweep_is_every_square_the_cone_overlaps_at_every_offset() -> None:
    # The sweep projects the cone once per axis and each square by its centre (a
    # planned move asks it of every Space in reach): the same Spaces, in the same
    # order, as projecting every corner, at every offset of a 41 x 41 map — and moved
    # with the two Spaces.
    for dx in range(-20, 21):
        for dy in range(-20, 21):
            want = _swept_by_corners(dx, dy)
            assert sight._swept_from_origin(dx, dy) == want, (dx, dy)
            assert sight.swept((3, 5), (3 + dx, 5 + dy)) == tuple(
                (x + 3, y + 5) for x, y in want)
    # along a row the cone stays inside it; past a corner it reaches the next row
    assert sight.swept((0, 0), (3, 0)) == ((1, 0), (2, 0))
    assert sight.swept((0, 0), (2, 1)) == ((1, 0), (1, 1), (2, 0))


def test_each_map_has_its_own_obstacles_for_cover() -> None:
    # Cover reads the map's obstructing Spaces as one set, worked out once for each map
    # (000 l.330–332): two maps of one size with their rocks elsewhere never share it,
    # and it is every Space whose terrain obstructs, walls (sight = false) included.
    rock, _ = drawn("""
        .....
        ..o..
        .....
    """)
    wall, _ = drawn("""
        .....
        .....
        ..#..
    """)
    assert rock.obstructing() == {(2, 1)} and wall.obstructing() == {(2, 2)}
    assert rock.obstructing() is rock.obstructing()  # once per map
    a, t = (0, 1), (4, 1)
    assert sight.cover(rock, a, t, set()).percent == 25
    assert sight.cover(wall, a, t, set()).percent == 0
    assert sight.cover(wall, (0, 2), (4, 2), set()).percent == 25
    # another unit's Space obstructs as well (001 l.712), on either map
    assert sight.cover(wall, a, t, {(2, 1)}).percent == 25
    for board in (rock, wall):
        want = {(x, y) for y in range(board.height) for x in range(board.width)
                if board.terrain((x, y)).obstructs}
        assert board.obstructing() == want
