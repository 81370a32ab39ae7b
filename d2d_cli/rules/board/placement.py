"""Where units stand: each placed unit's Space, Facing and size, as kept on the unit.

A unit is placed when it has a ``space`` (``Unit.extra["space"]``, a name such as
``G5``); its Facing is the ``facing`` the round's Turn already keeps (001 l.495–497).
A Double-sized unit (``double = true``) takes two Spaces: its own, the front one, and
the Space behind it (000 l.749 "Double-sized Units - These take up 2 Spaces. The front
Space is used for Moves."). A unit without a ``space`` is not on the map: every roll
about it works as before, from what the Narrator types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.board.grid import COMPASS, Board, Space, ahead, parse_space, space_name
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result

if TYPE_CHECKING:
    from d2d_cli.rules.units.roster import Unit

SPACE = "space"
FACING = "facing"  # the same key as rules.units.unit_state.FACING
DOUBLE = "double"
OFF_MAP = "off_map"  # the unit left the map at its edge (rules.time.leaving)


@record
class Placement:
    """A placed unit: its front Space, Facing (index into COMPASS, or None when it has
    none yet) and whether it is Double-sized."""

    unit: str
    space: Space
    facing: int | None
    double: bool = False
    faction: str | None = None

    @property
    def spaces(self) -> tuple[Space, ...]:
        """The Spaces it takes: the front one, and for a Double-sized unit the one behind."""
        if self.double and self.facing is not None:
            return self.space, ahead(self.space, self.facing + 4)
        return (self.space,)

    @property
    def heading(self) -> str | None:
        return None if self.facing is None else COMPASS[self.facing]


@lru_cache(maxsize=4096)
def _placement(name: str, raw: Any, face: Any, double: Any,
               faction: str | None) -> Placement | None:
    # Remembered: a Placement is frozen, and a fight asks for the same few again and
    # again (every map read of every Action).
    if raw is None:
        return None
    facing = COMPASS.index(face) if face in COMPASS else None
    return Placement(name, parse_space(str(raw)), facing, bool(double), faction)


def placed(unit: Unit) -> Placement | None:
    """The unit's Placement, or None when it is not on the map."""
    extra = unit.extra
    return _placement(unit.name, extra.get(SPACE), extra.get(FACING),
                      extra.get(DOUBLE, False), unit.faction)


def placements(units: Iterable[Unit]) -> dict[str, Placement]:
    out: dict[str, Placement] = {}
    for u in units:
        p = placed(u)
        if p is not None:
            out[u.name] = p
    return out


def placement_of(name: str, state: Mapping[str, Any]) -> Placement | None:
    """One unit's Placement from its table as stored (as :func:`placements_of` reads
    each), or None when it is not on the map."""
    return _placement(name, state.get(SPACE), state.get(FACING), state.get(DOUBLE, False),
                      state.get("faction"))


def placements_of(units: Mapping[str, Mapping[str, Any]]) -> dict[str, Placement]:
    """:func:`placements` of a session's ``[units]`` as stored, without building each
    Unit (a fight asks for the map ~100 times): ``space``, ``facing`` and ``double``
    are kept in the unit's table as they are in ``Unit.extra``, ``faction`` as its
    field (``Unit.from_state``); tests/test_board_cache.py holds the two alike."""
    out: dict[str, Placement] = {}
    for name, state in units.items():
        p = placement_of(name, state)
        if p is not None:
            out[name] = p
    return out


def occupancy(places: Iterable[Placement]) -> dict[Space, list[str]]:
    """Space → the units on it (a Double-sized unit on both of its Spaces)."""
    out: dict[Space, list[str]] = {}
    for p in places:
        for s in p.spaces:
            out.setdefault(s, []).append(p.unit)
    return out


def check_standing(board: Board, place: Placement) -> None:
    """Every Space the unit takes is on the map and may be entered."""
    for s in place.spaces:
        if not board.inside(s):
            raise RuleViolation(f"{place.unit} would stand off the map "
                                f"({board.beyond(s)})")
        t = board.terrain(s)
        if not t.enter:
            raise RuleViolation(f"{place.unit} cannot stand on {space_name(s)}: the "
                                f"{t.name} there cannot be entered")


@record
class Placed(Result):
    """``d2d unit place``: where the unit now stands."""

    unit: str
    space: str | None
    facing: str | None
    double: bool
    spaces: tuple[str, ...]
    space_before: str | None
    facing_before: str | None
    summary: str


def place(board: Board | None, unit: Unit, space: str | None, facing: str | None = None,
          double: bool | None = None) -> Placed:
    """Put ``unit`` on ``space`` facing ``facing`` (kept when not given; a unit with no
    Facing yet must be given one), or take it off the map (``space`` None). No Move or
    Turn is spent: this is setting up, or the Narrator's correction."""
    before = placed(unit)
    was = space_name(before.space) if before is not None else None
    face_before = unit.extra.get(FACING)
    if space is None:  # on the table's own map: neither here nor gone (rules.time.leaving)
        unit.extra.pop(SPACE, None)
        unit.extra.pop(OFF_MAP, None)
        return Placed(unit.name, None, face_before, False, (), was, face_before,
                      f"{unit.name} is taken off the map")
    if board is None:
        raise RuleViolation("the session has no map: load a scene with a [board] "
                            "(docs/board.md) before placing units")
    where = board.check_inside(parse_space(space))
    if facing is not None:
        from d2d_cli.rules.board.grid import heading

        face = COMPASS[heading(facing)]
    elif face_before in COMPASS:
        face = str(face_before)
    else:
        raise BadInput(f"{unit.name} has no Facing yet: give one, e.g. d2d unit place "
                       f"{unit.name!r} {space_name(where)} N (001 l.497 \"Units must always "
                       "face a compass heading\")")
    big = bool(unit.extra.get(DOUBLE, False)) if double is None else double
    new = Placement(unit.name, where, COMPASS.index(face), big, unit.faction)
    check_standing(board, new)
    unit.extra.pop(OFF_MAP, None)  # a unit that left the map is back on it
    unit.extra[SPACE] = space_name(where)
    unit.extra[FACING] = face
    if big:
        unit.extra[DOUBLE] = True
    else:
        unit.extra.pop(DOUBLE, None)
    names = tuple(space_name(s) for s in new.spaces)
    size = f" (Double-sized: {', '.join(names)})" if big else ""
    return Placed(unit.name, space_name(where), face, big, names,
                  was, face_before,
                  f"{unit.name} stands on {space_name(where)} facing {face}{size}")


def on_scene_map(raw: Any, units: dict[str, Unit], placed_here: set[str],
                 reserves: dict[str, dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """A scene's ``[board]`` checked with the Spaces of its units: the session's
    ``[board]`` (None when the scene has no map). A unit from the scene (``placed_here``)
    may give ``space`` and ``facing`` (and ``double``); any other unit (the party kept
    from the last scene) is taken off the last map. A reserve (arriving with a Timed
    Event) may give its Space too. Refused naming the unit or the row and column."""
    from d2d_cli.rules.board.grid import parse_board
    from d2d_cli.rules.units.roster import Unit

    for name, unit in units.items():
        if name not in placed_here:
            unit.extra.pop(SPACE, None)
        unit.extra.pop(OFF_MAP, None)  # a new scene's map: nobody has left it yet
    units = {**units, **{n: Unit.from_state(n, dict(r)) for n, r in (reserves or {}).items()
                         if SPACE in r}}
    if raw is None:
        stray = sorted(n for n, u in units.items() if SPACE in u.extra)
        if stray:
            raise BadInput(f"scene: units.{stray[0]} has a space but the scene has no "
                           "[board] map (docs/board.md)")
        return None
    board = parse_board(raw)
    for name, unit in units.items():
        if SPACE not in unit.extra:
            continue
        try:
            where = board.check_inside(parse_space(str(unit.extra[SPACE])))
            place(board, unit, space_name(where), unit.extra.get(FACING))
        except (BadInput, RuleViolation) as e:
            table = "reserves" if name in (reserves or {}) else "units"
            raise BadInput(f"scene: {table}.{name}: {e.message}") from None
    return board.to_state()
