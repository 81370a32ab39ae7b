"""The map: Spaces on a grid, compass headings, and what each Space holds.

000 l.1043 "Spaces - A space on a Map or Location marked with a Dot. When a Unit Moves 1
Space, it goes from one Dot to an adjacent Dot." d2d lays the dots out as a grid, each
Space with 8 neighbours (Drift moves diagonally, 000 l.274). A Space is named as on a
chess board or a spreadsheet: a column letter (A, B, … Z, AA, AB …) from west to east
and a row number from 1 in the north: ``G5``. North is the top of the map.

A map is written as a small text grid, one character a Space, and a legend saying what
each character is (:data:`DEFAULT_LEGEND`, which a scene may extend or change): open
ground, obstacles that give Cover (000 l.330–332) or block Line of Sight (001
l.707–709), Spaces no unit may enter, Elevation (000 l.323) and terrain that costs extra
Move to enter (000 l.264).
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record

# 001 l.495 "Facing - N, S, E, W, NE, NW, SE, SW": clockwise from North, 45° apart.
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# The step of each heading on the grid: x grows east, y grows south (row 1 is north).
VECTORS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
MAX_SIDE = 100  # columns and rows: far past a Personal Map's fight, small enough to draw

Space = tuple[int, int]  # (column, row), both from 0; named "A1" for (0, 0)

_NAME_RE = re.compile(r"^\s*([A-Za-z]{1,2})\s*([0-9]{1,3})\s*$")  # ASCII digits: E٩ is no E9


def column_name(x: int) -> str:
    """0 → A, 25 → Z, 26 → AA (as a spreadsheet names its columns)."""
    name = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        name = chr(65 + rest) + name
    return name


@lru_cache(maxsize=16384)  # every derivation names its Spaces in its sources, again
def space_name(space: Space) -> str:
    return f"{column_name(space[0])}{space[1] + 1}"


@lru_cache(maxsize=16384)
def parse_space(text: str) -> Space:
    """``G5`` (any case) → (6, 4). Refused unless a column letter and a row number.
    Remembered: a map's Space names are few and read again by every command."""
    m = _NAME_RE.match(text or "")
    if not m:
        raise BadInput(f"space {text!r}: a column letter and a row number, e.g. G5 "
                       "(columns A, B, … from the west; rows 1, 2, … from the north)")
    x = 0
    for ch in m.group(1).upper():
        x = x * 26 + ord(ch) - 64
    row = int(m.group(2))
    if row < 1:
        raise BadInput(f"space {text!r}: rows count from 1")
    return x - 1, row - 1


def heading(text: str) -> int:
    """A compass heading (``ne``, ``NE``) → its index in :data:`COMPASS`."""
    word = (text or "").strip().upper()
    if word not in COMPASS:
        raise BadInput(f"facing {text!r}: one of {', '.join(COMPASS)} (001 l.495)")
    return COMPASS.index(word)


def ahead(space: Space, facing: int, steps: int = 1) -> Space:
    """The Space ``steps`` away toward compass index ``facing``."""
    dx, dy = VECTORS[facing % 8]
    return space[0] + dx * steps, space[1] + dy * steps


# --------------------------------------------------------------------------- terrain


@record
class Terrain:
    """What one legend character means. ``enter``: a unit may stand there; ``cover``: it
    obstructs a straight edge (000 l.330–332, Cover); ``sight``: a straight edge sees past
    it (001 l.707–709; False blocks Line of Sight and gives Cover as well); ``elevation``
    (000 l.323, High Ground); ``move``: the extra Move to enter it (000 l.264)."""

    symbol: str
    name: str
    enter: bool = True
    cover: bool = False
    sight: bool = True
    elevation: int = 0
    move: int = 0

    @property
    def obstructs(self) -> bool:
        return self.cover or not self.sight

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        for key, default in (("enter", True), ("cover", False), ("sight", True),
                             ("elevation", 0), ("move", 0)):
            if getattr(self, key) != default:
                out[key] = getattr(self, key)
        return out


def _defaults() -> dict[str, Terrain]:
    out = {
        ".": Terrain(".", "open ground"),
        "#": Terrain("#", "wall", enter=False, sight=False),
        "o": Terrain("o", "rock", enter=False, cover=True),
        "%": Terrain("%", "brush", cover=True, move=1),
        "~": Terrain("~", "rough ground", move=1),
    }
    for n in range(1, 10):
        out[str(n)] = Terrain(str(n), f"high ground, Elevation {n}", elevation=n)
    return out


DEFAULT_LEGEND: dict[str, Terrain] = _defaults()
_TERRAIN_KEYS = {"name": str, "enter": bool, "cover": bool, "sight": bool,
                 "elevation": int, "move": int}


def terrain_of(symbol: str, spec: Any) -> Terrain:
    """One legend entry as written (``o = { name = "rock", cover = true, enter = false }``
    or just a name, for open ground with that name)."""
    if len(symbol) != 1 or symbol.isspace() or not symbol.isprintable():
        raise BadInput(f"board legend: {symbol!r} is not one printable character")
    if isinstance(spec, str):
        spec = {"name": spec}
    if not isinstance(spec, dict):
        raise BadInput(f"board legend {symbol!r}: a name or a table such as "
                       "{ name = \"rock\", cover = true, enter = false }")
    base = DEFAULT_LEGEND.get(symbol)
    values: dict[str, Any] = {}
    for key, value in spec.items():
        kind = _TERRAIN_KEYS.get(key)
        if kind is None:
            raise BadInput(f"board legend {symbol!r}: unknown key {key!r} — known: "
                           f"{', '.join(_TERRAIN_KEYS)}")
        if type(value) is not kind:
            raise BadInput(f"board legend {symbol!r}: {key} must be "
                           f"{'true or false' if kind is bool else kind.__name__}")
        low = -100 if key == "elevation" else 0
        if isinstance(value, int) and not low <= value <= 100:
            raise BadInput(f"board legend {symbol!r}: {key} {value} is out of range")
        values[key] = value
    if "name" not in values:
        if base is None:
            raise BadInput(f"board legend {symbol!r}: give it a name")
        values["name"] = base.name
    return Terrain(symbol, **values)


# --------------------------------------------------------------------------- the board


_SERIALS = itertools.count()  # Board.serial


class Board:
    """A map: its rows of legend characters and the legend. Immutable by convention;
    cheap to build (a 60×60 map is 3,600 characters, checked once)."""

    __slots__ = ("rows", "legend", "width", "height", "serial", "_cells", "_obstructing",
                 "_spaces")

    def __init__(self, rows: tuple[str, ...], legend: dict[str, Terrain]) -> None:
        self.rows = rows
        self.legend = legend
        self.height = len(rows)
        self.width = len(rows[0]) if rows else 0
        # A number of its own, never another Board's in this process: a memory of what
        # was worked out on this map keys it by the number (a plain int: the key holds no
        # Board, and no number is given again, as an ``id`` may be once a Board is freed).
        self.serial = next(_SERIALS)
        self._cells: dict[str, Terrain] = legend
        self._obstructing: frozenset[Space] | None = None
        self._spaces: dict[Space, Terrain] | None = None

    def inside(self, space: Space) -> bool:
        x, y = space
        return 0 <= x < self.width and 0 <= y < self.height

    def beyond(self, space: Space) -> str:
        """Where a Space off the map lies, by the edges it is past (``west of column
        A``): such a Space has no name of its own (there is no column left of A, no row
        0)."""
        x, y = space
        past = ["north of row 1" if y < 0 else f"south of row {self.height}"
                if y >= self.height else "",
                "west of column A" if x < 0 else f"east of column "
                f"{column_name(self.width - 1)}" if x >= self.width else ""]
        return " and ".join(p for p in past if p)

    def terrain(self, space: Space) -> Terrain:
        """What is at ``space`` (which must be inside the map)."""
        return self._cells[self.rows[space[1]][space[0]]]

    def obstructing(self) -> frozenset[Space]:
        """Every Space of the map whose terrain obstructs a straight edge
        (:attr:`Terrain.obstructs`: Cover, 000 l.330–332), worked out once for the map
        (it is never changed): Cover asks it of every Space a straight edge crosses."""
        got = self._obstructing
        if got is None:
            cells = self._cells
            got = self._obstructing = frozenset(
                (x, y) for y, row in enumerate(self.rows) for x, ch in enumerate(row)
                if cells[ch].obstructs)
        return got

    def spaces(self) -> dict[Space, Terrain]:
        """Every Space of the map with its terrain (:meth:`inside` and :meth:`terrain`
        in one look-up: a Space is in it exactly when it is inside), worked out once for
        the map (it is never changed): a planner's search for Routes asks both of every
        Space it steps to. Read it, never change it."""
        got = self._spaces
        if got is None:
            cells = self._cells
            got = self._spaces = {(x, y): cells[ch] for y, row in enumerate(self.rows)
                                  for x, ch in enumerate(row)}
        return got

    def check_inside(self, space: Space, what: str = "space") -> Space:
        if not self.inside(space):
            raise BadInput(f"{what} {space_name(space)} is off the map (columns A–"
                           f"{column_name(self.width - 1)}, rows 1–{self.height})")
        return space

    def used_legend(self) -> dict[str, Terrain]:
        """The legend entries the map uses, in the order they first appear."""
        seen: dict[str, Terrain] = {}
        for row in self.rows:
            for ch in row:
                if ch not in seen:
                    seen[ch] = self.legend[ch]
        return seen

    def to_state(self) -> dict[str, Any]:
        """The session's ``[board]``: the rows, and the legend entries that are not
        d2d's defaults."""
        own = {s: t.to_state() for s, t in self.legend.items()
               if DEFAULT_LEGEND.get(s) != t}
        out: dict[str, Any] = {"rows": list(self.rows)}
        if own:
            out["legend"] = own
        return out


def _rows(grid: Any) -> list[tuple[int, str]]:
    """The grid's non-blank lines (number in the text, characters without spaces)."""
    if isinstance(grid, list):
        lines = [str(r) if isinstance(r, str) else None for r in grid]
        if any(r is None for r in lines):
            raise BadInput("board: rows must be text, one character a Space")
        text_lines = [r for r in lines if r is not None]
    elif isinstance(grid, str):
        text_lines = grid.split("\n")
    else:
        raise BadInput("board: give the map as grid = \"\"\"…\"\"\" (one character a Space)")
    return [(i, "".join(line.split())) for i, line in enumerate(text_lines, 1)
            if line.strip()]


_BOARD_KEYS = frozenset({"grid", "rows", "legend"})


def _board_key(raw: Any) -> tuple[Any, ...] | None:
    """A hashable key that equals another's exactly when the two ``[board]`` values
    parse alike (the type of each legend value is part of it: ``true`` is not ``1``), or
    None for a value that is not plain text, numbers and booleans (parsed each time)."""
    if not isinstance(raw, dict) or not raw.keys() <= _BOARD_KEYS:
        return None
    grid = raw["grid"] if "grid" in raw else raw.get("rows")
    if type(grid) is list and all(type(r) is str for r in grid):
        grid_key: Any = tuple(grid)
    elif type(grid) is str:
        grid_key = grid
    else:
        return None
    own = raw.get("legend", {})
    if type(own) is not dict:
        return None
    legend: list[Any] = []
    for symbol, spec in own.items():
        if type(symbol) is not str:
            return None
        if type(spec) is str:
            legend.append((symbol, spec))
        elif type(spec) is dict:
            types = tuple(map(type, spec.values()))
            if not _PLAIN.issuperset(types) or not all(type(k) is str for k in spec):
                return None
            legend.append((symbol, tuple(spec.items()), types))
        else:
            return None
    return type(grid), grid_key, tuple(legend)


_PLAIN = frozenset((str, bool, int))


_BOARDS: dict[tuple[Any, ...], Board] = {}
BOARDS_KEPT = 64  # distinct maps remembered; the oldest is dropped past this


def parse_board(raw: Any) -> Board:
    """A scene's ``[board]`` (``grid`` text and an optional ``legend``) or the session's
    (``rows`` and ``legend``). Refused, naming the row and column, when a character is
    not in the legend or a row is not as long as the first.

    Remembered by value (a fight reads its one map ~100 times): the same rows and legend
    give the same :class:`Board`, which is immutable. The very ``raw`` object read last
    (a fight's one ``[board]`` table, which nothing changes in place) is not even
    looked at again."""
    last = _LAST
    if raw is last[0] and last[1] is not None:
        board: Board = last[1]
        return board
    key = _board_key(raw)
    if key is None:
        return _parse_board(raw)
    got = _BOARDS.get(key)
    if got is None:
        got = _parse_board(raw)  # a refused map raises here and is not remembered
        if len(_BOARDS) >= BOARDS_KEPT:
            del _BOARDS[next(iter(_BOARDS))]
        _BOARDS[key] = got
    _LAST[0], _LAST[1] = raw, got
    return got


_LAST: list[Any] = [None, None]  # the raw [board] read last and its Board


def _parse_board(raw: Any) -> Board:
    if not isinstance(raw, dict):
        raise BadInput("board: [board] must be a table with grid = \"\"\"…\"\"\"")
    unknown = sorted(set(raw) - {"grid", "rows", "legend"})
    if unknown:
        raise BadInput(f"board: unknown key(s) {', '.join(unknown)} — known: grid, legend")
    legend = dict(DEFAULT_LEGEND)
    own = raw.get("legend", {})
    if not isinstance(own, dict):
        raise BadInput("board: [board.legend] must be a table of characters")
    for symbol, spec in own.items():
        legend[symbol] = terrain_of(symbol, spec)
    rows = _rows(raw["grid"] if "grid" in raw else raw.get("rows"))
    if not rows:
        raise BadInput("board: the grid has no rows")
    width = len(rows[0][1])
    if len(rows) > MAX_SIDE or width > MAX_SIDE:
        raise BadInput(f"board: {width} columns × {len(rows)} rows; at most {MAX_SIDE} "
                       "of each")
    known = legend.keys()
    for n, (_, row) in enumerate(rows, 1):
        for x, ch in enumerate(row) if not set(row) <= known else ():
            if ch not in legend:
                raise BadInput(f"board: row {n}, column {x + 1} ({column_name(x)}{n}): "
                               f"{ch!r} is not in the legend (known: "
                               f"{' '.join(sorted(legend))})")
        if len(row) != width:
            raise BadInput(f"board: row {n} has {len(row)} Spaces, row 1 has {width}: "
                           f"every row must be as long (column {min(len(row), width) + 1}"
                           " is where they differ)")
    return Board(tuple(r for _, r in rows), legend)


def board_of(data: Any) -> Board | None:
    """The session's map (its ``[board]``), or None when it has none."""
    raw = data.get("board") if isinstance(data, dict) else None
    return parse_board(raw) if raw else None
