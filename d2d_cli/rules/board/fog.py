"""Fog of War and the map's Events (001 l.441–447): Spaces the players have not explored
yet, named Places, and the Events placed on the map face down.

001 l.441–443 "Location Event … Placed under a Place on the Map. Revealed when searched
or explored." and l.445–447 "Fog of War Event … Placed face down on the Map. Revealed
when entered." d2d's readings (docs/rules.md "Fog of War and Location Events"):

* A Space under fog is revealed when a Player's unit enters it (every Space of its
  movement) or sees it: a Space within the fog's ``sight`` (Range, default
  :data:`SIGHT`) in that unit's Line of Sight (001 l.707–709, ``sight.sight_blocker``).
  What was revealed stays revealed: the map remembers what was explored. A
  Non-Player's movement reveals nothing (the Narrator knows the map).
* A Fog of War Event is revealed when a Player's unit enters its Space.
* A Location Event lies under a Place (a named set of Spaces, or one Space); it is
  revealed when a unit standing in the Place Searches (001 l.565 "Search … Quickly
  search the current Place") or when the Narrator marks the Place explored
  (``d2d board reveal PLACE``: 000 l.226 Exploration, "Some Scenes cover large areas").
  Entering the Place does not reveal it: it lies *under* the Place.

The session keeps it all in ``[fog]``: ``rows`` (``?`` a Space under fog, ``.`` one
revealed; absent when nothing is fogged), ``sight``, ``places`` (name → Space names) and
``events`` (``id``, ``kind`` fog|location, ``at`` a Space or a Place, ``text``,
``revealed``). Pure: a Board and the section's value in, records out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from d2d_cli.errors import BadInput, NotFound
from d2d_cli.rules.board.grid import Board, Space, column_name, parse_space, space_name
from d2d_cli.rules.core.record import record, replace
from d2d_cli.rules.core.result import Result

SECTION = "fog"
SIGHT = 4  # how far (Range) a Player's unit sees into fog, in its Line of Sight
MAX_SIGHT = 20
FOGGED, CLEAR = "?", "."
KINDS = ("fog", "location")
FOG_NAME = "fog (unexplored)"  # the players' map draws a fogged Space as this
MAX_EVENTS = 500
MAX_TEXT = 2_000

_RECT = re.compile(r"^\s*([A-Za-z]{1,2}[0-9]{1,3})\s*[:\-–]\s*([A-Za-z]{1,2}[0-9]{1,3})\s*$")


@record
class Event(Result):
    """One Event placed on the map: ``kind`` fog (face down on Space ``where``) or location
    (under Place ``where``, a Place's name or one Space; ``at`` in the session and a
    scene file, as a Clock event's), its ``text`` and whether it is
    ``revealed``."""

    id: int
    kind: str
    where: str
    text: str
    revealed: bool = False

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "at": self.where,
                               "text": self.text}
        if self.revealed:
            out["revealed"] = True
        return out

    @property
    def label(self) -> str:
        what = "Fog of War Event on" if self.kind == "fog" else "Location Event under"
        return f"#{self.id} {what} {self.where}"


@record
class Fog:
    """The ``[fog]`` section read: ``fogged`` the Spaces under fog, ``sight``, the named
    ``places`` and the ``events``."""

    fogged: frozenset[Space]
    sight: int
    places: dict[str, tuple[Space, ...]]
    events: tuple[Event, ...]

    def to_state(self, board: Board) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.fogged:
            out["rows"] = mask(board, self.fogged)
        if self.sight != SIGHT:
            out["sight"] = self.sight
        if self.places:
            out["places"] = {n: [space_name(s) for s in sp] for n, sp in self.places.items()}
        if self.events:
            out["events"] = [e.to_state() for e in self.events]
        return out


def mask(board: Board, fogged: Iterable[Space]) -> list[str]:
    """The fog as rows like the map's: ``?`` under fog, ``.`` revealed."""
    cells = [bytearray(b"." * board.width) for _ in range(board.height)]
    for x, y in fogged:
        if 0 <= y < board.height and 0 <= x < board.width:
            cells[y][x] = 63  # "?"
    return [r.decode("ascii") for r in cells]


EMPTY = Fog(frozenset(), SIGHT, {}, ())


def read(raw: Any, board: Board | None) -> Fog | None:
    """The session's ``[fog]`` (None when it has none, or no map to lay it on)."""
    if not raw or board is None or not isinstance(raw, Mapping):
        return None
    rows = raw.get("rows") or []
    fogged = _fogged(tuple(r for r in rows if isinstance(r, str)) if isinstance(rows, list)
                     else (), board.width, board.height)
    sight = raw.get("sight", SIGHT)
    sight = sight if type(sight) is int and 0 <= sight <= MAX_SIGHT else SIGHT
    # A hand-edited section is read as far as it makes sense: a Space that is no Space,
    # an Event without a number or kind, is left out (never a crash on a players' page).
    places: dict[str, tuple[Space, ...]] = {}
    given = raw.get("places")
    for name, spaces in (given.items() if isinstance(given, Mapping) else ()):
        if isinstance(spaces, list):
            places[str(name)] = tuple(s for s in map(_space_or_none, spaces)
                                      if s is not None)
    listed = raw.get("events")
    events = tuple(Event(e["id"], e.get("kind", "fog"), str(e.get("at", "")),
                         str(e.get("text", "")), bool(e.get("revealed", False)))
                   for e in (listed if isinstance(listed, list) else [])
                   if isinstance(e, Mapping) and type(e.get("id")) is int
                   and e.get("kind", "fog") in KINDS)
    return Fog(fogged, sight, places, events)


@lru_cache(maxsize=8)  # every command of a fogged fight reads the same rows again
def _fogged(rows: tuple[str, ...], width: int, height: int) -> frozenset[Space]:
    fogged: set[Space] = set()
    for y, row in enumerate(rows[:height]):
        if FOGGED not in row:
            continue
        row = row[:width]
        if row == FOGGED * len(row):  # a row all under fog: the common case
            fogged.update(zip(range(len(row)), [y] * len(row), strict=True))
        else:
            fogged.update((x, y) for x, ch in enumerate(row) if ch == FOGGED)
    return frozenset(fogged)


def _space_or_none(text: Any) -> Space | None:
    try:
        return parse_space(str(text))
    except BadInput:
        return None


def of(data: Mapping[str, Any], board: Board | None) -> Fog | None:
    return read(data.get(SECTION), board)


# --------------------------------------------------------------------------- areas


def place_named(fog: Fog, name: str) -> str | None:
    """The Place called ``name`` (any case), or None."""
    key = name.strip().casefold()
    return next((p for p in fog.places if p.casefold() == key), None)


def area(board: Board, fog: Fog, spec: str) -> tuple[str, frozenset[Space]]:
    """The Spaces ``spec`` names: ``all``, a Place's name, or Spaces and rectangles
    (``B2:D4``) separated by commas. Returns what it is called and the Spaces; refused
    naming what is wrong."""
    text = (spec or "").strip()
    if not text:
        raise BadInput("give a Space (G5), a rectangle (B2:D4), a Place's name or --all")
    if text.lower() == "all":
        return "the whole map", frozenset((x, y) for y in range(board.height)
                                          for x in range(board.width))
    named = place_named(fog, text)
    if named is not None:
        return named, frozenset(fog.places[named])
    out: set[Space] = set()
    for part in (p for p in re.split(r"[,\s]+", text) if p):
        m = _RECT.match(part)
        try:
            if m:
                a = board.check_inside(parse_space(m.group(1)))
                b = board.check_inside(parse_space(m.group(2)))
                out.update((x, y) for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
                           for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1))
            else:
                out.add(board.check_inside(parse_space(part)))
        except BadInput as e:
            known = f"; Places: {', '.join(fog.places)}" if fog.places else ""
            raise BadInput(f"{e.message} — or a rectangle (B2:D4), a Place's name or "
                           f"all{known}") from None
    return ", ".join(p.strip() for p in re.split(r"[,\s]+", text) if p).upper(), \
        frozenset(out)


def runs(spaces: Iterable[Space]) -> str:
    """Spaces in few words, as ``board fog`` takes them: rectangles of the same runs of
    columns on consecutive rows (``A1:L4, C5:D5, F7``)."""
    by_row: dict[int, list[int]] = {}
    for x, y in spaces:
        by_row.setdefault(y, []).append(x)
    row_runs: dict[int, tuple[tuple[int, int], ...]] = {}
    for y, xs in by_row.items():
        xs.sort()
        out: list[tuple[int, int]] = []
        for x in xs:
            if out and x == out[-1][1] + 1:
                out[-1] = (out[-1][0], x)
            else:
                out.append((x, x))
        row_runs[y] = tuple(out)
    parts: list[str] = []
    rows = sorted(row_runs)
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1] == rows[j] + 1 and \
                row_runs[rows[j + 1]] == row_runs[rows[i]]:
            j += 1
        for a, b in row_runs[rows[i]]:
            first, last = f"{column_name(a)}{rows[i] + 1}", f"{column_name(b)}{rows[j] + 1}"
            parts.append(first if first == last else f"{first}:{last}")
        i = j + 1
    return ", ".join(parts)


# --------------------------------------------------------------------------- results


@record
class FogChanged(Result):
    """``board fog`` / ``board reveal``: the Spaces changed and those now under fog."""

    action: str
    area: str
    changed: int
    fogged: int
    spaces: str
    sight: int
    events: tuple[Event, ...]
    summary: str


@record
class EventPlaced(Result):
    """``board event add|rm|reveal``: the Event, and what was done with it."""

    action: str
    event: Event
    summary: str


@record
class Events(Result):
    """``board event list``: every Event on the map, face down or revealed, and the
    Places."""

    events: tuple[Event, ...]
    places: dict[str, tuple[str, ...]]
    fogged: int
    sight: int


@record
class Explored:
    """What a Player's unit revealed by moving: Spaces and Events."""

    fog: Fog
    spaces: frozenset[Space]
    events: tuple[Event, ...]

    @property
    def words(self) -> str:
        """The line a movement's report adds (empty when nothing was revealed)."""
        bits = []
        if self.spaces:
            bits.append(f"fog lifts from {runs(self.spaces)}")
        bits += [f"{e.label} revealed: {e.text}" for e in self.events]
        return "; ".join(bits)


# --------------------------------------------------------------------------- changes


def cover(board: Board, fog: Fog, spec: str, sight: int | None = None) -> tuple[Fog, FogChanged]:
    """``board fog AREA``: put the Spaces under fog (again)."""
    name, spaces = area(board, fog, spec)
    if sight is not None and not 0 <= sight <= MAX_SIGHT:
        raise BadInput(f"--sight {sight}: 0 to {MAX_SIGHT} Spaces")
    new = replace(fog, fogged=fog.fogged | spaces,
                  sight=fog.sight if sight is None else sight)
    changed = len(new.fogged) - len(fog.fogged)
    return new, FogChanged("fog", name, changed, len(new.fogged), runs(new.fogged),
                           new.sight, (), f"fog over {name}: {changed} Space"
                           f"{'s' * (changed != 1)} more under fog, {len(new.fogged)} in all")


def reveal(board: Board, fog: Fog, spec: str) -> tuple[Fog, FogChanged]:
    """``board reveal AREA``: lift the fog; a Place named is explored (000 l.226), so its
    Location Events are revealed too (001 l.441–443)."""
    name, spaces = area(board, fog, spec)
    new = replace(fog, fogged=fog.fogged - spaces)
    shown: tuple[Event, ...] = ()
    if place_named(fog, spec) is not None:
        new, shown = _show(new, lambda e: e.kind == "location" and e.where == name)
    changed = len(fog.fogged) - len(new.fogged)
    words = f"{name} revealed: {changed} Space{'s' * (changed != 1)} out of the fog, " \
        f"{len(new.fogged)} still under it"
    words += "".join(f"; {e.label} revealed: {e.text}" for e in shown)
    return new, FogChanged("reveal", name, changed, len(new.fogged), runs(new.fogged),
                           new.sight, shown, words)


def _show(fog: Fog, which: Any) -> tuple[Fog, tuple[Event, ...]]:
    shown = tuple(e for e in fog.events if not e.revealed and which(e))
    if not shown:
        return fog, ()
    ids = {e.id for e in shown}
    return replace(fog, events=tuple(replace(e, revealed=True) if e.id in ids else e
                                     for e in fog.events)), \
        tuple(replace(e, revealed=True) for e in shown)


def add_event(board: Board, fog: Fog, where: str, text: str, kind: str) -> tuple[Fog, EventPlaced]:
    """``board event add WHERE TEXT [--location]``: a Fog of War Event face down on a
    Space, or a Location Event under a Place (or one Space)."""
    text = (text or "").strip()
    if not text:
        raise BadInput("give the Event's text")
    if len(text) > MAX_TEXT:
        raise BadInput(f"the Event's text is {len(text)} characters; at most {MAX_TEXT}")
    if len(fog.events) >= MAX_EVENTS:
        raise BadInput(f"{MAX_EVENTS} Events on the map already: take one off first")
    named = place_named(fog, where) if kind == "location" else None
    if named is not None:
        at = named
    else:
        try:
            at = space_name(board.check_inside(parse_space(where)))
        except BadInput as e:
            known = (f" or a Place ({', '.join(fog.places) or 'none yet: d2d board place'})"
                     if kind == "location" else "")
            raise BadInput(f"{e.message}{known}") from None
    event = Event(max((e.id for e in fog.events), default=0) + 1, kind, at, text)
    return replace(fog, events=(*fog.events, event)), EventPlaced(
        "add", event, f"{event.label} placed face down")


def find_event(fog: Fog, ident: int) -> Event:
    for e in fog.events:
        if e.id == ident:
            return e
    known = ", ".join(f"#{e.id}" for e in fog.events) or "none"
    raise NotFound(f"no Event #{ident} on the map (Events: {known}; d2d board event list)")


def remove_event(fog: Fog, ident: int) -> tuple[Fog, EventPlaced]:
    e = find_event(fog, ident)
    return replace(fog, events=tuple(x for x in fog.events if x.id != ident)), \
        EventPlaced("rm", e, f"{e.label} taken off the map")


def reveal_event(fog: Fog, ident: int) -> tuple[Fog, EventPlaced]:
    """The Narrator turns an Event up by hand (a Non-Player walked onto it, say)."""
    e = find_event(fog, ident)
    if e.revealed:
        raise BadInput(f"{e.label} is revealed already")
    new, shown = _show(fog, lambda x: x.id == ident)
    return new, EventPlaced("reveal", shown[0], f"{e.label} revealed: {e.text}")


def set_place(board: Board, fog: Fog, name: str, spec: str | None) -> tuple[Fog, Events]:
    """``board place NAME AREA`` names a Place; ``board place NAME --rm`` forgets it."""
    name = (name or "").strip()
    if not name or len(name) > 60 or not name.isprintable():
        raise BadInput("a Place's name: 1 to 60 printable characters")
    if name.lower() == "all" or _RECT.match(name) or re.fullmatch(
            r"[A-Za-z]{1,2}[0-9]{1,3}", name):
        raise BadInput(f"{name!r} reads as Spaces: give a Place a word for a name")
    old = place_named(fog, name)
    places = {k: v for k, v in fog.places.items() if k != old}
    if spec is None:
        if old is None:
            raise NotFound(f"no Place {name!r} (Places: {', '.join(fog.places) or 'none'})")
        if any(e.where == old and e.kind == "location" and not e.revealed for e in fog.events):
            raise BadInput(f"a Location Event lies under {old}: take it off first "
                           "(d2d board event rm N)")
    else:
        _, spaces = area(board, replace(fog, places=places), spec)
        places[old or name] = tuple(sorted(spaces, key=lambda s: (s[1], s[0])))
    new = replace(fog, places=places)
    return new, listing(new)


def listing(fog: Fog) -> Events:
    return Events(fog.events, {n: tuple(space_name(s) for s in sp)
                               for n, sp in fog.places.items()},
                  len(fog.fogged), fog.sight)


# --------------------------------------------------------------------------- exploring


def entered(board: Board, fog: Fog, path: Iterable[Space], stand: Space) -> Explored:
    """A Player's unit entered the Spaces of ``path`` and stands on ``stand``: those
    Spaces, and the fogged ones within ``sight`` in its Line of Sight, are revealed; a
    Fog of War Event on a Space entered is revealed (001 l.445–447)."""
    from d2d_cli.rules.board.sight import sight_blocker

    walked = frozenset(path) | {stand}
    seen = set(walked & fog.fogged)
    r = fog.sight
    if r and fog.fogged:
        sx, sy = stand
        for y in range(max(0, sy - r), min(board.height, sy + r + 1)):
            for x in range(max(0, sx - r), min(board.width, sx + r + 1)):
                if (x, y) in fog.fogged and sight_blocker(board, stand, (x, y)) is None:
                    seen.add((x, y))
    new = replace(fog, fogged=fog.fogged - seen) if seen else fog
    names = {space_name(s) for s in walked}
    new, shown = _show(new, lambda e: e.kind == "fog" and e.where in names)
    return Explored(new, frozenset(seen), shown)


def searched(fog: Fog, space: Space) -> tuple[Fog, tuple[Event, ...]]:
    """A unit on ``space`` Searched (001 l.565): the Location Events under each Place
    holding that Space (or under that Space itself) are revealed (001 l.441–443)."""
    here = space_name(space)
    places = {n for n, sp in fog.places.items() if space in sp}
    return _show(fog, lambda e: e.kind == "location" and (e.where == here or e.where in places))


def hidden_spaces(fog: Fog, units_at: Iterable[Space]) -> frozenset[Space]:
    """The fogged Spaces that hold something the players must not learn: a unit, or an
    Event face down (by its Space, or any Space of its Place)."""
    out = {s for s in units_at if s in fog.fogged}
    for e in fog.events:
        if e.revealed:
            continue
        spaces = fog.places.get(e.where) if e.kind == "location" and e.where in fog.places \
            else None
        if spaces is None:
            try:
                spaces = (parse_space(e.where),)
            except BadInput:
                continue
        out.update(s for s in spaces if s in fog.fogged)
    return frozenset(out)


# --------------------------------------------------------------------------- scene files


def from_scene(raw: Any, board: Board | None) -> dict[str, Any] | None:
    """A scene's ``[fog]``: ``spaces`` (``"all"`` or a list of Spaces and rectangles;
    default all), ``sight``, ``[fog.places]`` (name = Spaces) and ``[[fog.events]]``
    (``at``, ``text``, ``kind`` fog|location): the session's ``[fog]``."""
    if raw is None:
        return None
    if board is None:
        raise BadInput("scene: [fog] needs a [board] map to lie on (docs/board.md)")
    if not isinstance(raw, dict):
        raise BadInput("scene: [fog] must be a table (spaces, sight, places, events)")
    unknown = sorted(set(raw) - {"spaces", "sight", "places", "events"})
    if unknown:
        raise BadInput(f"scene: [fog] unknown key(s) {', '.join(unknown)} — known: "
                       "spaces, sight, places, events")
    fog = EMPTY
    sight = raw.get("sight", SIGHT)
    if type(sight) is not int or not 0 <= sight <= MAX_SIGHT:
        raise BadInput(f"scene: [fog] sight must be a whole number 0 to {MAX_SIGHT}")
    fog = replace(fog, sight=sight)
    places = raw.get("places", {})
    if not isinstance(places, dict):
        raise BadInput("scene: [fog.places] must be a table: Name = \"B2:D4\"")
    for name, spec in places.items():
        text = ", ".join(map(str, spec)) if isinstance(spec, list) else str(spec)
        try:
            fog, _ = set_place(board, fog, str(name), text)
        except BadInput as e:
            raise BadInput(f"scene: fog.places.{name}: {e.message}") from None
    spaces = raw.get("spaces", "all")
    text = ", ".join(map(str, spaces)) if isinstance(spaces, list) else str(spaces)
    try:
        fog, _ = cover(board, fog, text) if text.strip() else (fog, None)
    except BadInput as e:
        raise BadInput(f"scene: fog.spaces: {e.message}") from None
    for i, spec in enumerate(raw.get("events", []) or [], 1):
        if not isinstance(spec, dict) or "at" not in spec or "text" not in spec:
            raise BadInput(f"scene: fog event #{i} needs at = \"C3\" and text = \"…\"")
        kind = str(spec.get("kind", "fog"))
        if kind not in KINDS:
            raise BadInput(f"scene: fog event #{i}: kind is fog or location, not {kind!r}")
        try:
            fog, _ = add_event(board, fog, str(spec["at"]), str(spec["text"]), kind)
        except BadInput as err:
            raise BadInput(f"scene: fog event #{i}: {err.message}") from None
    return fog.to_state(board)
