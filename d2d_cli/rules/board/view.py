"""``d2d board``: the map as it stands — its Spaces, the legend characters it uses, and
every placed unit with its Space(s), Facing and a one-character label for drawing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from d2d_cli.rules.board.grid import Board, column_name, space_name
from d2d_cli.rules.board.placement import OFF_MAP, placed
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.units.sides import player_of

if TYPE_CHECKING:
    from d2d_cli.rules.board.fog import Fog
    from d2d_cli.rules.units.roster import Unit

LABELS = "123456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"


@record
class Key(Result):
    """One legend character the map uses and what it means."""

    symbol: str
    name: str
    enter: bool
    cover: bool
    sight: bool
    elevation: int
    move: int


@record
class Standing(Result):
    """A placed unit: its label on the drawing, Space(s) and Facing."""

    label: str
    name: str
    faction: str | None
    space: str
    spaces: tuple[str, ...]
    facing: str | None
    double: bool
    player: str | None = None  # who plays it; None: a Non-Player (rules.units.sides)


@record
class BoardView(Result):
    """The map: ``columns`` × ``rows`` Spaces (columns named ``first_column`` to
    ``last_column``), ``grid`` its rows of legend characters, ``legend`` the characters
    used, ``units`` the placed units, ``unplaced`` the others (the table's own map) but
    ``left``, those that left the map at its edge (``d2d unit leave``)."""

    columns: int
    rows: int
    first_column: str
    last_column: str
    grid: tuple[str, ...]
    legend: tuple[Key, ...]
    units: tuple[Standing, ...]
    unplaced: tuple[str, ...]
    left: tuple[str, ...] = ()


def view(board: Board, units: Iterable[Unit]) -> BoardView:
    standing: list[Standing] = []
    unplaced: list[str] = []
    left: list[str] = []
    # A unit's label is its place among all the session's units (the Status Bar's Unit#
    # cards, 000 l.566), so it keeps its number when another leaves or is taken off.
    for i, u in enumerate(units):
        p = placed(u)
        if p is None:
            (left if u.extra.get(OFF_MAP) else unplaced).append(u.name)
            continue
        label = LABELS[i] if i < len(LABELS) else "+"
        standing.append(Standing(label, u.name, u.faction, space_name(p.space),
                                 tuple(space_name(s) for s in p.spaces), p.heading,
                                 p.double, player_of(u)))
    keys = tuple(Key(t.symbol, t.name, t.enter, t.cover, t.sight, t.elevation, t.move)
                 for t in board.used_legend().values())
    return BoardView(board.width, board.height, "A", column_name(board.width - 1),
                     board.rows, keys, tuple(standing), tuple(unplaced),
                     tuple(left))


@record
class FoggedView(BoardView):
    """The Narrator's map when the scene has Fog of War (rules.board.fog): everything,
    with ``fog`` (rows: ``?`` a Space under fog, ``.`` one explored), ``fogged`` (those
    Spaces in few words), ``sight``, the named ``places`` and the ``events`` on the map,
    face down or revealed."""

    fog: tuple[str, ...] = ()
    fogged: str = ""
    sight: int = 0
    places: dict[str, tuple[str, ...]] | None = None
    events: tuple[Any, ...] = ()


def with_fog(v: BoardView, board: Board, fog: Fog) -> FoggedView:
    from d2d_cli.rules.board.fog import mask, runs

    return FoggedView(v.columns, v.rows, v.first_column, v.last_column, v.grid, v.legend,
                      v.units, v.unplaced, v.left, tuple(mask(board, fog.fogged)),
                      runs(fog.fogged), fog.sight,
                      {n: tuple(space_name(s) for s in sp) for n, sp in fog.places.items()},
                      fog.events)


def players_view(v: BoardView, fog: Fog) -> BoardView:
    """The map as the players may see it: a Space under fog drawn as fog (its terrain
    unknown), no Non-Player's unit standing in fog (a Player's own unit is always seen
    by its Player), the legend of what shows."""
    from d2d_cli.rules.board.fog import FOG_NAME
    from d2d_cli.rules.board.grid import parse_space

    if not fog.fogged:
        return v
    keys = {k.symbol: k for k in v.legend}
    mark = next(c for c in "?░▒¿*" if c not in keys)
    grid = tuple("".join(mark if (x, y) in fog.fogged else ch for x, ch in enumerate(row))
                 for y, row in enumerate(v.grid))
    keys[mark] = Key(mark, FOG_NAME, True, False, True, 0, 0)
    used: dict[str, Key] = {}
    for row in grid:
        for ch in row:
            if ch not in used:
                used[ch] = keys[ch]
    units = tuple(u for u in v.units if u.player is not None  # a Player's own: seen
                  or not any(parse_space(s) in fog.fogged for s in u.spaces))
    return BoardView(v.columns, v.rows, v.first_column, v.last_column, grid,
                     tuple(used.values()), units, v.unplaced, v.left)
