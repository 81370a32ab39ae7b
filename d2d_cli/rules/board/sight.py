"""Geometry between two Spaces: Range, Arcs, straight edges, Line of Sight and Cover.

- **Range** (001 l.681–683 "Count Spaces to the Target / Find the shortest path to
  Target"): with 8 neighbours a diagonal step is one Space like any other (Drift costs
  Move 1 as Forward does, 000 l.273–274), so the Range is the larger of the column and
  row differences. Obstacles do not lengthen it: the Range is counted, not walked
  (docs/rules.md "Range on the map").
- **Arcs** (001 l.659–667): four quarters around the unit's Facing. A Space exactly on
  a diagonal between two Arcs belongs to Arc:Front when ahead and Arc:Back when behind,
  as Drift ("diagonally forward") and Drift Back ("diagonally backward") name those
  Spaces (docs/rules.md "Arcs on the map").
- **Straight edge** (001 l.707–708 "Use a straight edge between dots / Measure from
  center of your Space to Target"): the segment between two dots passes through the
  Spaces whose inside it crosses; a Space it only touches at a corner is not crossed
  (docs/rules.md "A straight edge through a corner").
- **Line of Sight** (001 l.709 "IF no obstacle THEN Line of Sight"): no Space between
  that blocks sight (``sight = false``: a wall).
- **Cover**: +25% for each obstacle (001 l.716 "Cover:+25% - for each obstacle
  encountered") a sweep across the Rival's own Space meets (001 l.714 "Sweep edge across
  all of Target"; ``[rules] cover = "edges"``: that 000 l.330–332's edges meet, to the 3
  Spaces around the Rival's closest to the Unit and to the Rival's own), never more than
  000's count of those edges obstructed (000 l.331 "Each obstructed Space gives
  Cover:+25%."), at most 100%. Obstructing: terrain that gives cover or blocks sight,
  and the Spaces of other units (001 l.712 "Rivals, Allies, and obsurment offer
  Cover").

All integer arithmetic: a Space's dot is at its integer (column, row); its inside is the
open square of side 1 around it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from functools import lru_cache

from d2d_cli.rules.board.grid import VECTORS, Board, Space
from d2d_cli.rules.core.record import record

FRONT, LEFT, RIGHT, BACK = "front", "left", "right", "back"
ARCS = (FRONT, RIGHT, BACK, LEFT)
COVER_STEP = 25  # 000 l.331 "Each obstructed Space gives Cover:+25%."


def distance(a: Space, b: Space) -> int:
    """Range between two Spaces (001 l.681–683): the shortest path on 8 neighbours."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def arc(origin: Space, facing: int, other: Space) -> str | None:
    """Which Arc of a unit on ``origin`` facing ``facing`` holds ``other``: front,
    left, right or back; None for the same Space (no Arc: 001 l.657 "in your Space")."""
    dx, dy = other[0] - origin[0], other[1] - origin[1]
    if dx == 0 and dy == 0:
        return None
    fx, fy = VECTORS[facing % 8]
    dot = fx * dx + fy * dy
    cross = fx * dy - fy * dx  # > 0: clockwise of the Facing (the right, as y grows south)
    if dot >= abs(cross):
        return FRONT
    if -dot >= abs(cross):
        return BACK
    return RIGHT if cross > 0 else LEFT


def crossed(a: Space, b: Space) -> list[Space]:
    """The Spaces a straight edge from dot ``a`` to dot ``b`` passes through, in order,
    ``b`` included and ``a`` not. Where the edge passes exactly through a corner it goes
    on diagonally: the two Spaces beside the corner are only touched."""
    return list(_crossed(a, b))


@lru_cache(maxsize=8192)  # pure geometry: ~20 edges a derivation, among few Spaces
def _crossed(a: Space, b: Space) -> tuple[Space, ...]:
    """:func:`crossed`, shared: read it, never change it."""
    x, y = a
    dx, dy = b[0] - x, b[1] - y
    ax, ay = abs(dx), abs(dy)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    i = j = 0  # borders crossed so far, between columns and between rows
    out: list[Space] = []
    while i < ax or j < ay:
        # the next border between columns is crossed at t = (2i+1)/(2ax), rows (2j+1)/(2ay)
        tx = (2 * i + 1) * ay
        ty = (2 * j + 1) * ax
        if j >= ay or (i < ax and tx < ty):
            x += sx
            i += 1
        elif i >= ax or ty < tx:
            y += sy
            j += 1
        else:  # both at once: through a corner
            x += sx
            y += sy
            i += 1
            j += 1
        out.append((x, y))
    return tuple(out)


def first_on_line(a: Space, b: Space, hit: Callable[[Space], bool],
                  include_end: bool) -> Space | None:
    """The first Space between ``a`` and ``b`` (``b`` itself when ``include_end``) for
    which ``hit`` holds, or None."""
    for s in _crossed(a, b):
        if s == b and not include_end:
            return None
        if hit(s):
            return s
    return None


def sight_blocker(board: Board, a: Space, b: Space) -> Space | None:
    """The first Space between ``a`` and ``b`` whose terrain blocks sight, or None: Line
    of Sight (001 l.707–709)."""
    legend, rows = board.legend, board.rows
    return first_on_line(a, b, lambda s: not legend[rows[s[1]][s[0]]].sight, False)


def surrounding(board: Board, unit: Space, rival: Space) -> list[Space]:
    """The 3 Spaces around ``rival`` closest to ``unit`` (000 l.330), on the map;
    nearest first, and between equally near ones the first clockwise from North."""
    found: list[tuple[int, int, Space]] = []
    for k, (vx, vy) in enumerate(VECTORS):
        s = (rival[0] + vx, rival[1] + vy)
        if board.inside(s):
            d = (s[0] - unit[0]) ** 2 + (s[1] - unit[1]) ** 2
            found.append((d, k, s))
    found.sort()
    return [s for _, _, s in found[:3]]


@record
class Edge:
    """One straight edge of the Cover rule: to ``to`` (a Space around the Rival, or the
    Rival's own for the line between them), and the obstacles it meets, nearest the
    Unit first (``obstacle``: the first of them, if any)."""

    to: Space
    line: bool  # the straight line between Unit and Rival (000 l.332)
    met: tuple[Space, ...]

    @property
    def obstacle(self) -> Space | None:
        return self.met[0] if self.met else None


@record
class CoverFound:
    """``percent``: +25% for each obstacle that counts (at most 100%); ``obstacles``:
    those, each once (its first Space met); ``obstructed``: 000's count, the edges of
    000 l.330–332 that meet an obstacle (the most that ever counts)."""

    percent: int
    edges: tuple[Edge, ...]
    obstacles: tuple[Space, ...]
    obstructed: int = 0


READINGS = ("edges", "sweep")  # [rules] cover (docs/rules.md "Line of Sight and Cover")


def cover(board: Board, unit: Space, rival: Space, occupied: Collection[Space],
          same: Callable[[Space], Hashable] | None = None,
          reading: str = "sweep") -> CoverFound:
    """Cover of the Rival on ``rival`` against the Unit on ``unit``. 000 l.330–332: a
    straight edge to each of the 3 surrounding Spaces and the line between them, "Each
    obstructed Space gives Cover:+25%" — 000's count, the edges that meet an obstacle,
    is the most there ever is. Within it, 001 l.716 "Cover:+25% - for each obstacle
    encountered" counts each obstacle once (``reading`` "edges", the default: the
    obstacles those edges meet, at most as many as the edges they obstruct), or
    (``reading`` "sweep") the obstacles met by sweeping a straight edge across all of
    the Rival's own Space (001 l.714 "Sweep edge across all of Target"), never more than
    000's count either. At most 100%. ``occupied``: the Spaces of the other units, which
    obstruct (001 l.712); neither side's own Spaces are in it. ``same``: what one
    obstacle is, for a Space (default the Space itself; a Double-sized unit's two Spaces
    are one obstacle)."""
    if unit == rival:
        return CoverFound(0, (), ())
    # what obstructs: the other units' Spaces and the map's own obstacles, worked out
    # once for the map (Spaces inside it: a straight edge between two of its Spaces
    # stays inside); two look-ups, not a union copying the map's set at every call
    obstacles = board.obstructing()

    def met(to: Space, include_end: bool) -> tuple[Space, ...]:
        return tuple(s for s in _crossed(unit, to)
                     if (include_end or s != to) and (s in obstacles or s in occupied))

    edges = [Edge(s, False, () if s == unit else met(s, True))
             for s in surrounding(board, unit, rival)]
    edges.append(Edge(rival, True, met(rival, False)))
    obstructed = sum(1 for e in edges if e.met)
    key = same or (lambda s: s)
    seen: dict[Hashable, Space] = {}
    if reading == "sweep":
        seen = _swept_obstacles(board, unit, rival, obstacles, occupied, key)
    else:
        for e in edges:
            for s in e.met:
                seen.setdefault(key(s), s)
    found = tuple(seen.values())[:min(obstructed, 100 // COVER_STEP)]
    return CoverFound(COVER_STEP * len(found), tuple(edges), found, obstructed)


def _swept_obstacles(board: Board, unit: Space, rival: Space, obstacles: Collection[Space],
                     occupied: Collection[Space], key: Callable[[Space], Hashable]
                     ) -> dict[Hashable, Space]:
    """The obstacles the sweep across the Rival's Space meets (001 l.714), each once by
    ``key`` (its first Space met), nearest the Unit first: what :func:`cover` counts
    under ``[rules] cover = "sweep"``, at most as many as the edges it obstructs."""
    seen: dict[Hashable, Space] = {}
    for s in swept(unit, rival):
        # what obstructs first, then whether it is on the map: most Spaces swept
        # obstruct nothing, and a membership test is cheaper than the map's method
        if (s in obstacles or s in occupied) and board.inside(s):
            seen.setdefault(key(s), s)
    return seen


def cover_percent(board: Board, unit: Space, rival: Space, occupied: Collection[Space],
                  same: Callable[[Space], Hashable] | None = None,
                  reading: str = "sweep") -> int:
    """``cover(...).percent``, for a reader of the value alone (a planner's Field,
    ``rules.board.derive``): under ``[rules] cover = "sweep"`` the sweep is looked at
    first, and where it meets no obstacle the Cover is 0 — :func:`cover` counts at
    most the obstacles the sweep meets — with no edge drawn; else :func:`cover` itself."""
    if reading == "sweep" and not _swept_obstacles(
            board, unit, rival, board.obstructing(), occupied, same or _itself):
        return 0
    return cover(board, unit, rival, occupied, same, reading).percent


def _itself(s: Space) -> Space:
    return s


def swept(unit: Space, rival: Space) -> tuple[Space, ...]:
    """The Spaces (neither ``unit``'s nor ``rival``'s) whose inside a straight edge from
    ``unit``'s dot to some point of ``rival``'s Space passes through: 001 l.714 "Sweep
    edge across all of Target". Nearest ``unit`` first. In half-Spaces (integers): the
    cone from the dot over the Rival's square, against each square by separating axes
    (touching at a corner or along a side is not passing through). The same at any
    offset: worked out once for ``rival``'s place relative to ``unit``
    (:func:`_swept_from_origin`) and moved to ``unit``."""
    ux, uy = unit
    return tuple((x + ux, y + uy) for x, y in
                 _swept_from_origin(rival[0] - ux, rival[1] - uy))


@lru_cache(maxsize=8192)
def _swept_from_origin(dx: int, dy: int) -> tuple[Space, ...]:
    """:func:`swept` from the Space (0, 0) to (``dx``, ``dy``): the geometry only
    depends on the offset, and moving both Spaces keeps the order (nearest ``unit``
    first, then by the Spaces themselves). Each axis's projection of the cone is
    worked out once; a square's, of side 2 in half-Spaces, is its centre's ± the
    axis's two components (the same integers its four corners would give)."""
    rx, ry = 2 * dx, 2 * dy
    corners = [(rx + ex, ry + ey) for ex in (-1, 1) for ey in (-1, 1)]
    cone = [(0, 0), *corners]
    axes = [(1, 0), (0, 1)] + [(cy, -cx) for cx, cy in corners]
    spans = []
    for a0, a1 in axes:
        pa = [x * a0 + y * a1 for x, y in cone]
        spans.append((2 * a0, 2 * a1, abs(a0) + abs(a1), min(pa), max(pa)))
    # Each axis bounds a column's squares to one run of rows (the cone and a square are
    # convex): ``lo - r < x * b + y * a < hi + r`` solved for ``y`` in integers, so a
    # column's run is found from the six spans, not by testing each of its squares
    # against them (a new offset, met ~30 times in 40 fights, tested every square of
    # its bounding box against up to six axes).
    out = []
    x0, x1 = (0, dx) if dx >= 0 else (dx, 0)
    y0, y1 = (0, dy) if dy >= 0 else (dy, 0)
    for x in range(x0, x1 + 1):
        top, bottom = y0, y1
        for b, a, r, lo, hi in spans:
            low, up = lo - r - x * b, hi + r - x * b  # low < y * a < up
            if a > 0:
                first, last = low // a + 1, -(-up // a) - 1
            elif a < 0:
                first, last = -up // -a + 1, -(low // -a) - 1
            elif low < 0 < up:
                continue  # this axis bounds no row of the column
            else:
                top = bottom + 1  # nor any square of it
                break
            if first > top:
                top = first
            if last < bottom:
                bottom = last
        for y in range(top, bottom + 1):
            if (x == 0 and y == 0) or (x == dx and y == dy):
                continue
            out.append((x, y))
    out.sort(key=lambda s: (max(abs(s[0]), abs(s[1])), s[0] ** 2 + s[1] ** 2, s))
    return tuple(out)
