"""Movement on the map: where Forward, Drift, Slide, Backward and Drift Back take a unit,
and what they cost.

000 l.272–277 "Turn (Facing:-1) - Change Facing 45 degrees … Forward (Move:-1) - Move
directly forward 1 Space. Drift (Move:-1) - Move diagonally forward 1 Space. Slide
(Move:-2) - Move directly Left or Right 1 Space. Backward (Move:-2) - Move directly
backward 1 Space. Drift Back (Move:-2) - Move diagonally backward 1 Space." 001 l.529
"Note: this does not change facing". 000 l.264 "Move Penalties - Some Locations are
difficult to traverse and require you to spend additional Move Points for each Space
you enter."

Each movement is a turn of the unit's Facing, in 45° steps (:data:`TURNS`): Forward 0;
Drift 1 left or right; Slide 2 (a right angle); Backward 4; Drift Back 3. Drift, Slide
and Drift Back name their side: ``left``/``right`` or the compass heading of the step.
The Move of each kind is ``tables/turns.toml``'s (the same numbers ``unit move`` spends
for an unplaced unit); the terrain's extra Move is charged for each Space the front of
the unit enters.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.board.grid import COMPASS, Board, Space, ahead, space_name
from d2d_cli.rules.board.placement import Placement, check_standing
from d2d_cli.rules.core.record import record

# movement → its steps in 45° turns from the Facing: (left, right), or one for both
TURNS: dict[str, tuple[int, ...]] = {
    "forward": (0,),
    "drift": (-1, 1),
    "slide": (-2, 2),
    "backward": (4,),
    "drift_back": (-3, 3),
}
KINDS = tuple(TURNS)


@cache
def costs() -> dict[str, int]:
    """Move per step of each kind, from ``tables/turns.toml`` (000 l.273–277)."""
    raw = tables.load("turns")["moves"]
    return {k: int(raw[k]["move"]) for k in KINDS}


@cache
def sources() -> dict[str, str]:
    raw = tables.load("turns")["moves"]
    return {k: str(raw[k]["source"]) for k in KINDS}


def direction(kind: str, facing: int, way: str | None = None) -> int:
    """The compass index a movement steps toward, for a unit facing ``facing``.
    ``way``: ``left``/``right`` or a compass heading, for the kinds with two sides."""
    turns = TURNS[kind]
    name = kind.replace("_", " ").title()
    if len(turns) == 1:
        if way is not None and way.strip().lower() not in ("", COMPASS[(facing + turns[0])
                                                                      % 8].lower()):
            raise BadInput(f"{name} goes one way only ({COMPASS[(facing + turns[0]) % 8]} "
                           f"when facing {COMPASS[facing]}), not {way!r}")
        return (facing + turns[0]) % 8
    left, right = ((facing + t) % 8 for t in turns)
    word = (way or "").strip().lower()
    if word == "left":
        return left
    if word == "right":
        return right
    if word.upper() in (COMPASS[left], COMPASS[right]):
        return COMPASS.index(word.upper())
    raise BadInput(f"{name} which way? left ({COMPASS[left]}) or right ({COMPASS[right]}) "
                   f"when facing {COMPASS[facing]}" + (f", not {way!r}" if way else ""))


@record
class Walk:
    """A movement of ``count`` steps: the Spaces entered (``path``, the front's), the
    Move of the steps (``move``) and of the terrain (``terrain``), and where the unit
    ends (``end``, with ``spaces`` it then takes)."""

    kind: str
    toward: str
    start: Space
    end: Space
    path: tuple[Space, ...]
    move: int
    terrain: int
    terrain_why: tuple[str, ...]
    spaces: tuple[Space, ...]

    @property
    def cost(self) -> int:
        return self.move + self.terrain


def walk(board: Board, place: Placement, kind: str, way: str | None = None,
         count: int = 1) -> Walk:
    """Move ``place`` by ``count`` steps of ``kind``: refused when a step leaves the map
    or enters a Space no unit may enter (a Double-sized unit's Space behind as well)."""
    if kind not in TURNS:
        raise BadInput(f"unknown movement {kind!r}: {', '.join(KINDS)}")
    if place.facing is None:
        raise RuleViolation(f"{place.unit} has no Facing: d2d unit face {place.unit} N "
                            "(001 l.497)")
    toward = direction(kind, place.facing, way)
    here = place.space
    path: list[Space] = []
    extra = 0
    why: list[str] = []
    label = kind.replace("_", " ").title()
    for _ in range(count):
        there = ahead(here, toward)
        if not board.inside(there):
            raise RuleViolation(f"{place.unit} cannot {label} {COMPASS[toward]} from "
                                f"{space_name(here)}: that Space is off the map "
                                f"({board.beyond(there)}); to leave the map from "
                                f"{space_name(here)}: d2d unit leave "
                                f"{_quoted(place.unit)}")
        t = board.terrain(there)
        if not t.enter:
            raise RuleViolation(f"{place.unit} cannot {label} into {space_name(there)}: "
                                f"the {t.name} there cannot be entered")
        check_standing(board, Placement(place.unit, there, place.facing, place.double))
        if t.move:
            extra += t.move
            why.append(f"{space_name(there)} {t.name} Move +{t.move}")
        path.append(there)
        here = there
    end = Placement(place.unit, here, place.facing, place.double)
    return Walk(kind, COMPASS[toward], place.space, here, tuple(path),
                costs()[kind] * count, extra, tuple(why), end.spaces)


def _quoted(name: str) -> str:
    import shlex

    return shlex.quote(name)


def turned(board: Board, place: Placement, facing: int) -> Placement:
    """The unit turned to ``facing`` where it stands (a Double-sized unit swings its
    Space behind, which must be on the map and enterable)."""
    new = Placement(place.unit, place.space, facing % 8, place.double, place.faction)
    check_standing(board, new)
    return new


def way_and_count(arg: str | None) -> tuple[str | None, int]:
    """``left 2`` / ``2 NE`` / ``right`` / ``3`` → (way, count); count 1 by default."""
    way: str | None = None
    count: int | None = None
    for word in (arg or "").split():
        if word.isdigit() and count is None:
            count = int(word)
        elif way is None and (word.lower() in ("left", "right") or word.upper() in COMPASS):
            way = word
        else:
            raise BadInput(f"{arg!r}: a side (left, right or a compass heading) and a number "
                           "of steps, e.g. left 2")
    if count is not None and not 1 <= count <= 100:
        raise BadInput(f"{count} steps: give a number of steps from 1 to 100")
    return way, count or 1


@record
class Moved:
    """A placed unit's movement as ``unit move`` spends it: the Walk, or a Turn's new
    Facing, and the Space(s) it ends on."""

    walk: Walk | None
    facing: int
    space: Space
    spaces: tuple[Space, ...]

    @property
    def label(self) -> str:
        if self.walk is None:
            return ""
        w = self.walk
        terrain = f", terrain Move +{w.terrain} ({'; '.join(w.terrain_why)})" if w.terrain else ""
        return f" {w.toward}: {space_name(w.start)} → {space_name(w.end)}{terrain}"


def on_map(board: Board | None, place: Placement | None, kind: str, arg: str | None,
           new_facing: int | None = None) -> Moved | None:
    """``unit move`` for a placed unit: a movement of ``kind`` (``arg``: its side and
    count), or a Turn to ``new_facing``. None when the unit is not on the map or the
    movement has no geometry (Equip).

    Remembered by all it reads — the map and the Placement by identity (both immutable;
    a fight's Placements are the remembered ones of ``rules.board.placement``), the
    words — so a simulated fight, whose planners send the same moves from the same
    Spaces run after run, walks each once; the entry holds both, so an id in its key is
    never another object's. A refused move is not remembered: it raises each time."""
    if board is None or place is None:
        return None
    key = (id(board), id(place), kind, arg, new_facing)
    got = _MOVED.get(key)
    if got is not None and got[0] is board and got[1] is place:
        return got[2]
    moved = _on_map(board, place, kind, arg, new_facing)
    if len(_MOVED) >= MOVED_KEPT:
        _MOVED.clear()
    _MOVED[key] = (board, place, moved)
    return moved


MOVED_KEPT = 1024  # moves remembered (a fight meets a few dozen) before all are forgotten
_MOVED: dict[tuple[Any, ...], tuple[Board, Placement, Moved | None]] = {}


def _on_map(board: Board, place: Placement, kind: str, arg: str | None,
            new_facing: int | None) -> Moved | None:
    if new_facing is not None:
        p = turned(board, place, new_facing)
        return Moved(None, p.facing or 0, p.space, p.spaces)
    if kind not in TURNS:
        return None
    way, count = way_and_count(arg)
    w = walk(board, place, kind, way, count)
    return Moved(w, place.facing or 0, w.end, w.spaces)


@record
class Route:
    """The cheapest way found to a Space with the Facing kept: its Move (terrain
    included) and the steps, each (kind, side) as :func:`walk` takes them."""

    space: Space
    move: int
    steps: tuple[tuple[str, str | None], ...]


def reachable(board: Board, place: Placement, move: int,
              blocked: frozenset[Space] = frozenset()) -> dict[Space, Route]:
    """Every Space ``place`` can reach with ``move`` Move without turning (movement does
    not change the Facing, 001 l.529), the cheapest Route to each (the start at Move 0).
    ``blocked``: Spaces a planner wants kept out of (other units, say: sharing a Space is
    allowed by the rules, 000 l.279). For NPC turns and simulated fights."""
    import heapq

    if place.facing is None:
        raise RuleViolation(f"{place.unit} has no Facing (001 l.497)")
    # each step: kind, side, the offset of the Space it goes to (``ahead`` of the
    # origin toward its heading: a step's offset is the same from every Space), its Move
    options: list[tuple[str, str | None, int, int, int]] = []
    for kind, turns in TURNS.items():
        for turn in turns:
            side = None if len(turns) == 1 else ("left" if turn < 0 else "right")
            dx, dy = ahead((0, 0), (place.facing + turn) % 8)
            options.append((kind, side, dx, dy, costs()[kind]))
    rear = ahead((0, 0), place.facing + 4) if place.double else None  # behind the front
    best: dict[Space, Route] = {place.space: Route(place.space, 0, ())}
    cheapest = {place.space: 0}  # each Space's Move in ``best``, read at every step
    queue: list[tuple[int, int, Space]] = [(0, 0, place.space)]
    spaces = board.spaces()  # a Space's terrain, None off the map: one look-up for both
    order = 0
    while queue:
        spent, _, here = heapq.heappop(queue)
        if spent > cheapest[here]:
            continue
        x, y = here
        steps = best[here].steps
        for kind, side, dx, dy, base in options:
            there = (x + dx, y + dy)
            t = spaces.get(there)
            if t is None or there in blocked:
                continue
            cost = spent + base + t.move
            if not t.enter or cost > move:
                continue
            known = cheapest.get(there)
            if known is not None and known <= cost:
                continue
            if rear is not None:
                behind = spaces.get((there[0] + rear[0], there[1] + rear[1]))
                if behind is None or not behind.enter:
                    continue
            best[there] = Route(there, cost, (*steps, (kind, side)))
            cheapest[there] = cost
            order += 1
            heapq.heappush(queue, (cost, order, there))
    return best
