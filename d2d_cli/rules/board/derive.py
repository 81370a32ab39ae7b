"""A Conflict's geometry read off the map: Range, Arcs and Flanking, Line of Sight,
Cover and its reveal, High Ground, Confined and Outnumbered — each with where it came
from.

001 l.633–635 "Verify - Verify Target is in Arc, Range, and Line of Sight": an attack
(an Actor with a kind of attack: close, melee, reach, ranged) is refused with the
reason when the Rival is out of its Arc:Front (001 l.663 "Arc:Front - Default Arc"),
beyond its reach (001 l.685–689) or out of sight (001 l.709).

The modifiers themselves are ``rules.combat.situation``'s: :meth:`Field.derive` gives
the values the Narrator would otherwise type (``range``, ``cover``, ``high_ground``,
``flank``, ``confined``, ``outnumbered``, as :class:`~d2d_cli.rules.combat.situation.
Terms` spells them); a value typed is kept and said to override the map.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from d2d_cli import tables
from d2d_cli.errors import RuleViolation
from d2d_cli.rules.board import sight
from d2d_cli.rules.board.grid import COMPASS, Board, Space, parse_board, space_name
from d2d_cli.rules.board.placement import (
    DOUBLE,
    FACING,
    SPACE,
    Placement,
    occupancy,
    placements,
    placements_of,
)
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden

if TYPE_CHECKING:
    from d2d_cli.rules.units.roster import Unit

# The cover reveal (000 l.333; 001 l.718–720 "Assign Suits to major obstacles"): the
# obstacles the Cover rule's straight edges meet — edge by edge, the 3 Spaces around
# the Rival from the Actor's left to its right, then the line between them — take these
# suits in turn, and one becomes the target when its suit is revealed (docs/rules.md
# "The Cover reveal on the map").
EDGE_SUITS = ("C", "D", "H", "S")
TYPED = {"range": "--range", "cover": "--cover", "high_ground": "--high-ground",
         "flank": "--flank", "confined": "--confined", "outnumbered": "--outnumbered"}
# What :meth:`Field.derive_named`'s key holds of TYPED when nothing was typed (each value
# None, with its type): the part a mapping of Nones gives, built once.
_UNTYPED = tuple((type(None), None) for _ in TYPED)


@cache
def _reach() -> dict[str, tuple[str, int | None, str]]:
    raw = tables.load("modifiers")["range"]
    return {k: (str(v["name"]), v.get("max"), str(v["source"]).split(' "')[0])
            for k, v in raw.items()}


@record
class CoverEdge(Result):
    """One straight edge of the Cover rule: to which Space (``line``: the line to the
    Rival itself), and the obstacles it meets, nearest the Actor first (none: clear)."""

    to: str
    line: bool
    obstacles: tuple[str, ...]


@record
class Geometry(Result):
    """What the map says about a Conflict between ``actor`` and ``rival``: the Spaces
    measured (a Double-sized unit's nearer one), and each derived value with its
    source. ``terms`` holds the values for the situation's options (``None`` where the
    map gives nothing); ``sources`` the text of each."""

    actor: str
    rival: str
    actor_space: str
    rival_space: str
    range: int
    arc: str | None  # the Rival in the Actor's Arcs
    rival_arc: str | None  # the Actor in the Rival's Arcs (Flanking)
    line_of_sight: bool
    cover: int  # the Rival's Cover against the Actor
    cover_edges: tuple[CoverEdge, ...]
    obstacles: dict[str, str]  # suit → obstacle, for the cover reveal
    elevation_a: int
    elevation_b: int
    sources: dict[str, str]
    terms: dict[str, Any]
    # The Actor's Cover against the Rival's answer, read when the Rival has none (one
    # side's Cover per Conflict, as `unit situation` says it: docs/rules.md).
    actor_cover: int = 0
    # The options typed that override the map (by :data:`TYPED`'s keys), for the short
    # line: a typed Range is the one the rules read, not the map's ``range`` above.
    typed: Mapping[str, Any] | None = hidden(None)


def _nearest(a: Placement, b: Placement) -> tuple[Space, Space]:
    """The pair of Spaces the two units are measured between: the nearest (a
    Double-sized unit's front Space first when equally near)."""
    best = (a.space, b.space)
    d = sight.distance(*best)
    for sa in a.spaces:
        for sb in b.spaces:
            n = sight.distance(sa, sb)
            if n < d:
                best, d = (sa, sb), n
    return best


def _what(board: Board, at: Space, units: Mapping[Space, list[str]]) -> str:
    """The obstacle on ``at``: the units standing there, else the terrain."""
    who = units.get(at)
    if who:
        return f"{' and '.join(who)} ({space_name(at)})"
    return f"the {board.terrain(at).name} at {space_name(at)}"


class Field:
    """The map and every placed unit, read once; :meth:`derive` for any two of them.
    Build it with :func:`field` from the session's data. Immutable: a unit that moves
    makes another Field (so a Geometry, once derived, is remembered in it).

    ``plain``: a planner's Field (``rules.assistant.movement`` tries every Space in
    reach): its Geometries hold every value and every other source, but not the Cover's
    texts — no ``cover_edges``, no ``obstacles`` for the reveal and an empty
    ``sources["cover"]`` — which nothing choosing a Space reads, and which cost most of
    a derivation. :func:`field` never builds one, so no command is given one."""

    __slots__ = ("board", "places", "cover_reading", "plain", "_occupied", "_derived")

    def __init__(self, board: Board, places: Mapping[str, Placement],
                 cover_reading: str = "sweep", plain: bool = False) -> None:
        self.board = board
        self.places = dict(places)
        self.cover_reading = cover_reading  # [rules] cover (rules.board.sight.cover)
        self.plain = plain
        self._occupied = occupancy(self.places.values())
        # (actor, rival, attack, typed) → Geometry, or the RuleViolation's message
        self._derived: dict[tuple[Any, ...], Geometry | str] = {}

    def place_of(self, unit: Unit | None) -> Placement | None:
        return None if unit is None else self.places.get(unit.name)

    def derive(self, actor: Unit | None, rival: Unit | None, attack: str | None = None,
               typed: Mapping[str, Any] | None = None) -> Geometry | None:
        """The geometry of ``actor`` against ``rival``, or None unless both are placed.
        ``attack``: the Actor's kind of attack (close, melee, reach, ranged) — with one
        the Rival must be in Arc:Front, within reach and in sight, else the roll is
        refused with the reason. ``typed``: the options the Narrator typed (by
        :data:`TYPED`'s keys); those keep their typed value and say so."""
        return self.derive_named(actor.name if actor is not None else None,
                                 rival.name if rival is not None else None, attack, typed)

    def derive_named(self, actor: str | None, rival: str | None, attack: str | None = None,
                     typed: Mapping[str, Any] | None = None) -> Geometry | None:
        """:meth:`derive` by the units' names: a derivation reads only where they stand
        (the Field's Placements), so a caller holding names builds no Unit for it."""
        pa = self.places.get(actor) if actor is not None else None
        pb = self.places.get(rival) if rival is not None else None
        if pa is None or pb is None:
            return None
        key: tuple[Any, ...]
        if typed:
            # Only TYPED's keys are read; a value's type is kept (0 and False print apart).
            key = (pa.unit, pb.unit, attack,
                   *((type(v), v) for v in (typed.get(k) for k in TYPED)))
        else:  # nothing typed (a fight's every Conflict): the same key, its part ready
            typed, key = {}, (pa.unit, pb.unit, attack, *_UNTYPED)
        try:
            got = self._derived.get(key)
        except TypeError:  # a typed value that cannot be hashed: derived each time
            return _derive(self, pa, pb, attack, typed)
        if got is None:
            try:
                got = _derive(self, pa, pb, attack, typed)
            except RuleViolation as e:
                got = e.message
            if len(self._derived) >= DERIVED_KEPT:
                self._derived.clear()
            self._derived[key] = got
        if isinstance(got, str):
            raise RuleViolation(got)
        return got

    def range(self, actor: Unit | None, rival: Unit | None) -> int | None:
        """The Range between two placed units, as :meth:`derive` measures it (between
        their nearest Spaces), without the rest of the geometry; None unless both are
        placed."""
        pa, pb = self.place_of(actor), self.place_of(rival)
        if pa is None or pb is None:
            return None
        return placed_range(pa, pb)

    def cover_named(self, actor: str, rival: str) -> int | None:
        """The Rival's Cover against the Actor, as :meth:`derive_named` finds it (its
        Geometry's ``cover``, 000 l.330–332: the same Spaces measured, the same
        obstructing units and map), without the rest of the geometry; None unless both
        are placed. A planner weighing the Cover a Space gives the unit against its
        Rival (``rules.assistant.movement``) reads this value alone."""
        pa, pb = self.places.get(actor), self.places.get(rival)
        if pa is None or pb is None:
            return None
        sa, sb = _nearest(pa, pb)
        occupied, same = _obstructing(self, pa, pb)
        return sight.cover_percent(self.board, sa, sb, occupied, same, self.cover_reading)

    def refusal(self, actor: Unit, rival: Unit, attack: str) -> str | None:
        """Why ``actor`` cannot make this attack on ``rival`` from where they stand (out
        of reach, Arc or sight), or None when it can — :meth:`derive` without raising,
        for a planner choosing a target."""
        try:
            self.derive(actor, rival, attack)
        except RuleViolation as e:
            return e.message
        return None


def placed_range(pa: Placement, pb: Placement) -> int:
    """The Range between two Placements, as :meth:`Field.derive` measures it (between
    their nearest Spaces, 001 l.681–683) and :meth:`Field.range` reads it: what a
    planner closing in measures from every Space its Move reaches, building no Field
    for each (``rules.assistant.movement``)."""
    return sight.distance(*_nearest(pa, pb))


def cover_reading(data: Mapping[str, Any]) -> str:
    """The session's ``[rules] cover`` (``rules.board.sight.READINGS``; "sweep" when not
    set): how the Cover of every :class:`Field` built from it is read — so a planner
    that remembers what it derived keys it too (``rules.assistant.movement``)."""
    rules = data.get("rules")
    if rules is None:  # no [rules] (a fight's every look): no Mapping check, a call in Python
        return "sweep"
    return str(rules.get("cover", "sweep")) if isinstance(rules, Mapping) else "sweep"


def field(data: Mapping[str, Any], units: Iterable[Unit] | None = None,
          keep: bool = True) -> Field | None:
    """The session's map and placed units (``units``: the roster when already read), or
    None when the session holds no map. ``keep`` False: the Field remembered for these
    positions if there is one, else one built alike and not remembered — for a movement
    planner (``rules.assistant.movement``), which reads only its map and Placements and
    meets positions no later reader asks for: kept, it pushed out of the memory
    (:data:`FIELDS_KEPT`, the oldest dropped first) a Field the fight's Conflicts read
    again."""
    raw = data.get("board")
    if not raw:
        return None
    board = parse_board(raw)
    reading = cover_reading(data)
    if units is None:
        # The same map with the units' tables giving the same Placements (their name,
        # Space, Facing, size and faction as stored: what ``placements_of`` reads, so
        # equal values make equal Placements) in the same order is the same Field: no
        # Placement is looked up to find it (a fight asks ~20 times a fight, every
        # Conflict and Hits on the map).
        # Gathered by a plain loop (a comprehension is a call of its own, at every look).
        stored = data.get("units", {})
        parts: list[Any] = [id(board), reading]
        for n, u in stored.items():
            parts.append((n, u.get(SPACE), u.get(FACING), u.get(DOUBLE, False),
                          u.get("faction")))
        key = tuple(parts)
        got = _FIELDS.get(key)
        if got is None:
            got = Field(board, placements_of(stored), reading)
            if keep:
                _kept(key, got)
        return got
    places = placements(units)
    # The same map (one Board while remembered) with the same units in the same places,
    # in the same order, is the same Field: its derivations are kept. The Board and the
    # Placements (remembered, frozen) go in the key by identity — no record hashed at
    # every look-up: a Field kept holds them, so an id in a kept key is never another
    # object's; an equal Placement built anew is only a miss (a new, equal Field).
    key = (id(board), reading, *[(n, id(p)) for n, p in places.items()])
    got = _FIELDS.get(key)
    if got is None:
        got = _kept(key, Field(board, places, reading))
    return got


def _kept(key: tuple[Any, ...], f: Field) -> Field:
    """``f`` remembered by ``key`` (the oldest Field dropped past :data:`FIELDS_KEPT`).
    A key holds the Board by its id: the Field kept holds the Board, so that id is
    never another object's while the key is kept."""
    if len(_FIELDS) >= FIELDS_KEPT:
        del _FIELDS[next(iter(_FIELDS))]
    _FIELDS[key] = f
    return f


FIELDS_KEPT = 32  # Fields remembered (a fight's last few positions); oldest dropped first
DERIVED_KEPT = 256  # Geometries kept by one Field before they are forgotten
_FIELDS: dict[tuple[Any, ...], Field] = {}


def _derive(f: Field, pa: Placement, pb: Placement, attack: str | None,
            typed: Mapping[str, Any]) -> Geometry:
    board = f.board
    sa, sb = _nearest(pa, pb)
    na, nb = space_name(sa), space_name(sb)
    who = f"{pa.unit} {na} → {pb.unit} {nb}"
    rng = sight.distance(sa, sb)
    src: dict[str, str] = {"range": f"Range {rng} on the map: {who} "
                           '(001 l.681–683 "Count Spaces to the Target")'}
    values: dict[str, Any] = {"range": rng}

    arc_ab, arc_ba = _arcs(pa, pb, sa, sb, rng, src, values)

    # Line of Sight (001 l.705–709)
    wall = sight.sight_blocker(board, sa, sb) if rng > 1 else None
    if wall is None:
        src["line_of_sight"] = (f"clear from {na} to {nb} (001 l.709 \"IF no obstacle THEN "
                                "Line of Sight\")")
    else:
        src["line_of_sight"] = (f"blocked from {na} to {nb} by "
                                f"{_what(board, wall, {})} (001 l.707–709)")

    percent, edges, obstacles, actor_cover = _cover(f, pa, pb, sa, sb, rng, src, values)

    # High Ground (000 l.323)
    ea, eb = board.terrain(sa).elevation, board.terrain(sb).elevation
    values["high_ground"] = "a" if ea > eb else "b" if eb > ea else None
    src["high_ground"] = (f"Elevation {ea} ({pa.unit}, {na}) vs {eb} ({pb.unit}, {nb}) "
                          "(000 l.323 \"High Ground - IF Elevation higher than Rival THEN "
                          "Initiative:+1\")")

    _confined(f, pa, pb, src, values)

    # Outnumbered (000 l.457): the attacked side on or next to an Ally of its attacker
    values["outnumbered"], src["outnumbered"] = _outnumbered(f, pa, pb)

    _verify(pa, pb, None if typed.get("range") is not None else rng, arc_ab, wall, attack,
            src)
    overridden = {}
    for key, option in TYPED.items():
        if typed.get(key) is not None:
            src[key] = f"typed: {option} {typed[key]} (the map: {src[key]})"
            values[key] = None
            overridden[key] = typed[key]
    return Geometry(pa.unit, pb.unit, na, nb, rng, arc_ab, arc_ba, wall is None,
                    percent, edges, obstacles, ea, eb, src,
                    {k: v for k, v in values.items() if v is not None}, actor_cover,
                    MappingProxyType(overridden) if overridden else None)


def rival_arc(pa: Placement, pb: Placement) -> str | None:
    """The Arc of ``pb`` that ``pa`` stands in, between their nearest Spaces: the
    Geometry's ``rival_arc`` (Flanking, 000 l.324–326) without the rest of it — no
    Field, no Cover, no texts; None when ``pb`` has no Facing."""
    if pb.facing is None:
        return None
    sa, sb = _nearest(pa, pb)
    return _arc_of(pb, sb, sa)


def _arc_of(p: Placement, at: Space, other: Space) -> str | None:
    """The Arc of ``p`` (standing on ``at``) that ``other`` is in (001 l.655–667), or
    None when ``p`` has no Facing: what :func:`_arcs` and :func:`rival_arc` read."""
    return sight.arc(at, p.facing, other) if p.facing is not None else None


def _arcs(pa: Placement, pb: Placement, sa: Space, sb: Space, rng: int,
          src: dict[str, str], values: dict[str, Any]) -> tuple[str | None, str | None]:
    """Arcs (001 l.655–667) and Flanking (000 l.324–326): each side's Arc of the other."""
    na = space_name(sa)
    arc_ab, arc_ba = _arc_of(pa, sa, sb), _arc_of(pb, sb, sa)
    if rng == 0:
        src["arc"] = f"{pa.unit} and {pb.unit} share {na}: no Arc (001 l.657 \"in your Space\")"
    elif arc_ab is None:
        src["arc"] = f"{pa.unit} has no Facing: its Arc is not known"
    else:
        src["arc"] = (f"{pb.unit} is in {pa.unit}'s Arc:{arc_ab.title()} (facing "
                      f"{COMPASS[pa.facing or 0]}) (001 l.663 \"Arc:Front - Default Arc\")")
    flank: str | None = None
    if rng and arc_ba is not None:
        if arc_ba in (sight.LEFT, sight.RIGHT):
            flank = "a:side"
        elif arc_ba == sight.BACK:
            flank = "a:back"
        src["flank"] = (f"{pa.unit} is in {pb.unit}'s Arc:{arc_ba.title()} (facing "
                        f"{COMPASS[pb.facing or 0]})" + ("" if flank else ": no Flanking")
                        + " (000 l.324–326)")
    elif rng:
        src["flank"] = f"{pb.unit} has no Facing: no Flanking read from the map"
    values["flank"] = flank
    return arc_ab, arc_ba


def _cover(f: Field, pa: Placement, pb: Placement, sa: Space, sb: Space, rng: int,
           src: dict[str, str], values: dict[str, Any]
           ) -> tuple[int, tuple[CoverEdge, ...], dict[str, str], int]:
    """Cover (000 l.330–332): other units' Spaces obstruct as well (001 l.712). The
    Rival's Cover, the edges and obstacles of its text, and the Actor's own Cover. A
    planner's Field reads the percents alone (``sight.cover_percent``: no edge drawn
    where the sweep meets nothing)."""
    board = f.board
    occupied, same = _obstructing(f, pa, pb)
    edges: tuple[CoverEdge, ...] = ()
    obstacles: dict[str, str] = {}
    if f.plain:  # a planner's Field: the same values, the Cover's texts left out
        percent = sight.cover_percent(board, sa, sb, occupied, same, f.cover_reading)
        src["cover"] = ""
    else:
        found = sight.cover(board, sa, sb, occupied, same, f.cover_reading)
        percent = found.percent
        edges, obstacles = _edges(board, f, sa, sb, found, same)
        src["cover"] = _cover_text(
            percent, pb.unit, edges, found, f.cover_reading,
            tuple(_what(board, s, f._occupied) for s in found.obstacles))
    values["cover"] = f"b:{percent}" if percent else None
    actor_cover = 0
    if not percent and rng:
        # The Rival has none: the Actor's Cover from the Rival, against its answer (000
        # l.330 read from the Rival's Space; Combat #1's Archer "gains some Cover" behind
        # the rock, then attacks the Scout, 000 l.592–594).
        # It lowers the Rival's Level only: the cover-target reveal is the Target's
        # (001 l.718–720 "IF Suit match THEN Target is the obstacle").
        if f.plain:
            actor_cover = sight.cover_percent(board, sb, sa, occupied, same,
                                              f.cover_reading)
            if actor_cover:
                values["cover"] = f"a:{actor_cover}"
            return percent, edges, obstacles, actor_cover
        back = sight.cover(board, sb, sa, occupied, same, f.cover_reading)
        if back.percent:
            actor_cover = back.percent
            values["cover"] = f"a:{back.percent}"
            back_edges, _ = _edges(board, f, sb, sa, back, same)
            src["cover"] = (_cover_text(
                back.percent, pa.unit, back_edges, back, f.cover_reading,
                tuple(_what(board, s, f._occupied) for s in back.obstacles)).replace(
                " on the map", f" against {pb.unit}'s answer on the map", 1)
                + f"; {pb.unit} has none from {pa.unit}")
    return percent, edges, obstacles, actor_cover


def _obstructing(f: Field, pa: Placement, pb: Placement
                 ) -> tuple[set[Space], Callable[[Space], Any]]:
    """What obstructs between two units besides the map (001 l.712): the other units'
    Spaces (neither side's own), and what one obstacle is for a Space — the units on it,
    so both Spaces of a Double-sized unit are one; the Space itself off them."""
    own = set(pa.spaces) | set(pb.spaces)
    occupied = {s for s in f._occupied if s not in own}

    def same(s: Space) -> Any:  # one obstacle: the units on a Space (both of an Ogre's)
        return tuple(f._occupied[s]) if s in occupied else s

    return occupied, same


def _confined(f: Field, pa: Placement, pb: Placement, src: dict[str, str],
              values: dict[str, Any]) -> None:
    """Confined (000 l.454): another unit on one of the side's Spaces."""
    conf = []
    for side, p in (("a", pa), ("b", pb)):
        others = sorted({n for s in p.spaces for n in f._occupied.get(s, ()) if n != p.unit})
        if others:
            conf.append(side)
            src[f"confined_{side}"] = f"{', '.join(others)} shares {p.unit}'s Space"
    values["confined"] = "both" if len(conf) == 2 else conf[0] if conf else None
    src["confined"] = ("; ".join(src.pop(f"confined_{s}") for s in conf) or
                       "no other unit shares either Space") + (
        " (000 l.454 \"Confined - IF another Unit shares your Space THEN Initiative:-1\")")


def _edges(board: Board, f: Field, sa: Space, sb: Space, found: sight.CoverFound,
           same: Any) -> tuple[tuple[CoverEdge, ...], dict[str, str]]:
    """The edges in order: the 3 surrounding Spaces from the Actor's left to its right,
    then the line; and suit → obstacle for the Cover reveal: the obstacles in the order
    those edges meet them, each once, take ♣, ♦, ♥, ♠ in turn (001 l.719 "Assign Suits
    to major obstacles"), so the reveal finds one as often as the Cover says (+25% an
    obstacle, 001 l.716)."""
    vx, vy = sb[0] - sa[0], sb[1] - sa[1]
    around = sorted((e for e in found.edges if not e.line),
                    key=lambda e: vx * (e.to[1] - sa[1]) - vy * (e.to[0] - sa[0]))
    ordered = around + [e for e in found.edges if e.line]
    out: list[CoverEdge] = []
    obstacles: dict[str, str] = {}
    suited: set[Any] = set()
    counted = {same(s) for s in found.obstacles}  # those the Cover counts (sight.cover)

    def suit(s: Space) -> None:
        if same(s) in counted and same(s) not in suited and len(obstacles) < len(EDGE_SUITS):
            suited.add(same(s))
            obstacles[EDGE_SUITS[len(obstacles)]] = _what(board, s, f._occupied)

    for e in ordered:
        out.append(CoverEdge(space_name(e.to), e.line,
                             tuple(_what(board, s, f._occupied) for s in e.met)))
        for s in e.met:
            suit(s)
    for s in found.obstacles:  # a sweep's obstacle no edge met: after them
        suit(s)
    return tuple(out), obstacles


def _cover_text(percent: int, rival: str, edges: tuple[CoverEdge, ...],
                found: sight.CoverFound | None = None, reading: str = "sweep",
                counted: tuple[str, ...] = ()) -> str:
    if not edges:
        return "no Cover: the two share a Space (000 l.330–332)"
    parts = []
    for e in edges:
        to = f"the line to {rival}" if e.line else f"the edge to {e.to}"
        parts.append(f"{to}: {', '.join(e.obstacles)}" if e.obstacles else f"{to} clear")
    if reading == "sweep":
        most = found.obstructed if found is not None else 0
        return (f"Cover {percent}% of {rival} on the map, +25% for each obstacle the sweep "
                f"across its Space meets (001 l.714, l.716): {', '.join(counted) or 'none'}"
                f"; at most 000's count, {most} of the 4 edges obstructed (000 l.330–332): "
                f"{'; '.join(parts)}")
    cap = ""
    if found is not None:
        met = {o for e in edges for o in e.obstacles}
        if len(met) > len(found.obstacles):
            cap = (f"; {len(met)} obstacles, but only {found.obstructed} of the 4 edges "
                   "obstructed: 000's count is the most (000 l.331)")
    return (f"Cover {percent}% of {rival} on the map, +25% for each obstacle met: "
            f"{'; '.join(parts)}{cap} (000 l.330–332; 001 l.716)")


def _outnumbered(f: Field, pa: Placement, pb: Placement) -> tuple[str | None, str]:
    def allies_beside(attacker: Placement, target: Placement) -> list[str]:
        if attacker.faction is None:
            return []
        near = {n for tx, ty in target.spaces for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                for n in f._occupied.get((tx + dx, ty + dy), ())}
        return sorted(n for n in near if n not in (attacker.unit, target.unit)
                      and f.places[n].faction == attacker.faction)

    # Only the one attacking (000 l.457, "you are attacking"): the Actor's Allies beside
    # the Rival; the Rival defends, so its Allies beside the Actor give it nothing.
    near_b = allies_beside(pa, pb)
    line = ' (000 l.457 "IF you are attacking a target that is on or adjacent to an Ally")'
    if near_b:
        return "b", f"{pb.unit} is on or next to {pa.unit}'s Ally {', '.join(near_b)}{line}"
    return None, f"no Ally of {pa.unit} stands on or next to {pb.unit}{line}"


def arcs_of(attack: str | None) -> tuple[str, ...]:
    """The Arcs an attack of this kind reaches: Arc:Front (001 l.663 "Use Arc:Front if
    Arc not specified"), and for Melee Arc:Left and Arc:Right too (001 l.667–669
    "Arc:Side - Arc:Left or Arc:Right as appropriate / Melee and Shields act on the Left
    OR Right", which wins over 000 l.318's "Arc:Forward")."""
    if attack == "melee":
        return (sight.FRONT, sight.LEFT, sight.RIGHT)
    return (sight.FRONT,)


def _verify(pa: Placement, pb: Placement, rng: int | None, arc_ab: str | None,
            wall: Space | None, attack: str | None, src: Mapping[str, str]) -> None:
    """001 l.633–635 "Verify Target is in Arc, Range, and Line of Sight", for an attack."""
    if attack is None:
        return
    name, top, line = _reach().get(attack, (attack, None, ""))
    where = f"{pa.unit} on {space_name(pa.space)}, {pb.unit} on {space_name(pb.space)}"
    if top is not None and rng is not None and rng > top:
        raise RuleViolation(f"out of reach: {pb.unit} is {rng} Spaces from {pa.unit} on the "
                            f"map ({where}); {name} reaches Range 0-{top} ({line})")
    if arc_ab is not None and arc_ab not in arcs_of(attack):
        why = ("Melee reaches Arc:Front, Arc:Left and Arc:Right (001 l.667–669 \"Arc:Side"
               " - Arc:Left or Arc:Right as appropriate / Melee and Shields act on the Left"
               " OR Right\")" if attack == "melee" else
               "an attack needs Arc:Front (001 l.663 \"Arc:Front - Default Arc\")")
        raise RuleViolation(f"out of Arc: {pb.unit} is in {pa.unit}'s Arc:{arc_ab.title()} "
                            f"({where}, facing {COMPASS[pa.facing or 0]}); {why}")
    if wall is not None:
        raise RuleViolation(f"out of sight: {src['line_of_sight']}; 001 l.633–635 "
                            "\"Verify Target is in Arc, Range, and Line of Sight\"")


def reveal_obstacles(geometry: Geometry | None) -> tuple[str, ...]:
    """The Cover reveal's obstacles as ``conflict --obstacle`` spells them (``C=the rock
    at F7``), when the Cover came from the map (000 l.333 "IF there is any Cover THEN
    before Conflict, Reveal Conflict"; 001 l.718–720)."""
    if geometry is None or "cover" not in geometry.terms:
        return ()
    return tuple(f"{suit}={what}" for suit, what in geometry.obstacles.items())
