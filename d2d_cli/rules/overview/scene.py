"""Scenes (000 "1. Setup" and "2. Prologue"; 001 p.18 "Scene: Events"): a scene file
validated into the session's sections.

"Factions - Units are divided into different Factions. … Goals - Factions have
different Goals. Units - Assign the Units in the Factions to the Players. Events -
Scenes may have Clock Events and Milestones" (000 "1. Setup"). A scene file (TOML)
holds: ``name``, ``map`` (a map type), ``backstory``, ``[factions.NAME]`` with
``goal``, ``[units.NAME]`` (inline stats, or ``character = "NAME"`` for a character
defined in the file's ``[characters]`` or already in the session), ``[reserves.NAME]``
(units that arrive with a Timed Event), ``[tasks.NAME]`` with ``difficulty``,
``[clock]`` with ``start``, ``[[clock.events]]`` (``at``, ``text``, ``unit``) and
``[[clock.random]]`` (``text``, ``chance``, ``repeat``), and a map: ``[board]`` with
``grid`` and ``legend``, each unit's ``space``, ``facing`` and ``double`` (docs/board.md);
what a unit carries: ``[units.NAME.weapons.WEAPON]``, ``armor``, ``gear`` and
``proficiencies`` (rules/units/gear.py).
See examples/combat1.toml.
"""

from __future__ import annotations

from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, NotFound
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.scale import quantities as scale
from d2d_cli.rules.time import clock as clock_rules
from d2d_cli.rules.time import tasks as task_rules
from d2d_cli.rules.units import roster as units
from d2d_cli.rules.units import status_bar

TOP_KEYS = {"name", "map", "backstory", "factions", "characters", "units", "reserves",
            "tasks", "clock", "board", "goals", "fog"}
BUILT_IN = ("combat1",)
ROUND_TOKENS = ("move", "action_cost", "turn")


def _table(raw: dict[str, Any], key: str) -> dict[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, dict):
        raise BadInput(f"scene: [{key}] must be a table")
    return value


def _unit(name: str, spec: Any, where: str, characters: dict[str, Any],
          factions: dict[str, Any]) -> units.Unit:
    units.check_unit_name(name)
    if not isinstance(spec, dict):
        raise BadInput(f"scene: [{where}.{name}] must be a table")
    state = dict(spec)
    ref = state.pop("character", None)
    if ref is not None:
        if ref not in characters:
            raise BadInput(f"scene: {where}.{name} refers to character {ref!r}, which is not "
                           "defined (in the file's [characters] or the session's characters)")
        state = {**characters[ref], **state}
    try:
        unit = units.Unit.from_state(name, state)
    except BadInput as e:
        raise BadInput(f"scene: {where}.{name}: {e.message}") from None
    except (TypeError, ValueError, KeyError) as e:
        raise BadInput(f"scene: {where}.{name}: bad value ({e})") from None
    from d2d_cli.rules.scale.stats import check_stat_range

    try:
        for st in unit.stats.values():
            check_stat_range(st)
    except BadInput as e:
        raise BadInput(f"scene: {where}.{name}: {e.message}") from None
    if "speed" not in unit.stats:
        raise BadInput(f"scene: {where}.{name} needs a speed stat (e.g. speed = \"4x0\")")
    from d2d_cli.rules.units.gear import weapons_of

    try:  # issue 36: [units.NAME.weapons.WEAPON], checked as unit gear add checks it
        weapons_of(unit.extra, name)
    except BadInput as e:
        raise BadInput(f"scene: {where}.{name}: {e.message}") from None
    if factions and unit.faction and unit.faction not in factions:
        raise BadInput(f"scene: {where}.{name}: faction {unit.faction!r} is not in "
                       f"[factions] ({', '.join(factions)})")
    from d2d_cli.rules.units.sides import player_of

    named = factions.get(unit.faction, {}).get("players") if unit.faction else None
    who = player_of(unit)
    if who is not None and isinstance(named, list) and who not in named:
        # 000 l.184 "Players - Divide the Players into the given Factions"
        raise BadInput(f"scene: {where}.{name}: player {who!r} is not one of the "
                       f"{unit.faction} faction's players ({', '.join(map(str, named))})")
    return unit


def build(raw: dict[str, Any], session_data: dict[str, Any]) -> dict[str, Any]:
    """Validate a parsed scene file; returns the session sections it sets up:
    ``scene``, ``units``, ``tasks``, ``clock``, ``round``. Raises BadInput naming the
    first problem (nothing is changed then)."""
    unknown = sorted(set(raw) - TOP_KEYS)
    if unknown:
        raise BadInput(f"scene: unknown key(s) {', '.join(unknown)} — known: "
                       f"{', '.join(sorted(TOP_KEYS))}")
    name = str(raw.get("name", "")).strip()
    if not name:
        raise BadInput("scene: give the scene a name (name = \"…\")")
    mkey = scale.map_key(raw.get("map", "personal"))
    factions = _table(raw, "factions")
    for fname, f in factions.items():
        if not isinstance(f, dict):
            raise BadInput(f"scene: [factions.{fname}] must be a table with a goal")
    # characters: the session's own first, then the file's (the file wins on a clash)
    characters = {n: u for n, u in session_data.get("units", {}).items()
                  if u.get("kind") == "character"}
    characters.update({n: {**c, "kind": "character"}
                       for n, c in _table(raw, "characters").items()})
    # The party stays; the last scene's units go. No round has started in the new scene,
    # so the party's round tokens go too (the Status Bar derives them on the new map).
    roster: dict[str, units.Unit] = {
        n: units.Unit.from_state(n, {k: v for k, v in u.items() if k not in ROUND_TOKENS})
        for n, u in session_data.get("units", {}).items() if u.get("kind") == "character"}
    for uname, spec in _table(raw, "units").items():
        roster[uname] = _unit(uname, spec, "units", characters, factions)
    reserves = {n: _unit(n, s, "reserves", characters, factions).to_state()
                for n, s in _table(raw, "reserves").items()}
    board = _tasks(raw, roster)
    clock = _clock(_table(raw, "clock"), roster, reserves)
    scene: dict[str, Any] = {"name": name, "map": mkey, "backstory": str(raw.get("backstory", "")),
             "factions": {n: {"goal": str(f.get("goal", "")),
                              **({"players": [str(p) for p in f["players"]]}
                                 if "players" in f else {})}
                          for n, f in factions.items()},
             "reserves": reserves}
    if isinstance(raw.get("goals"), dict):  # checked by d2d sim (rules/assistant/goals)
        scene["goals"] = raw["goals"]
    sections = {"scene": scene, "units": units.roster_state(roster),
                "tasks": task_rules.board_state(board), "clock": clock.to_state(),
                "round": {"number": 0, "phase": "none"}}
    if "weather" in session_data:
        sections["weather"] = {}  # the last scene's weather goes with it
    from d2d_cli.rules.board.placement import on_scene_map

    # The map ([board], docs/board.md) and where the scene's units stand; the party's
    # Spaces on the last scene's map go with it.
    drawn = on_scene_map(raw.get("board"), roster, set(_table(raw, "units")), reserves)
    if drawn is not None or "board" in session_data:
        sections["board"] = drawn or {}
    # Fog of War and the map's Events (rules.board.fog); the last scene's go with it.
    if raw.get("fog") is not None or session_data.get("fog"):
        sections["fog"] = _fog(raw.get("fog"), drawn, roster)
    sections["units"] = units.roster_state(roster)
    return sections


def _fog(raw: Any, drawn: dict[str, Any] | None, roster: dict[str, units.Unit]
         ) -> dict[str, Any]:
    """The scene's ``[fog]`` (rules.board.fog.from_scene), each Player's unit placed on
    the map already seeing what is around it."""
    from d2d_cli.rules.board import fog
    from d2d_cli.rules.board.grid import parse_board
    from d2d_cli.rules.board.placement import placed
    from d2d_cli.rules.units.sides import player_of

    board = None if drawn is None else parse_board(drawn)
    state = fog.from_scene(raw, board)
    f = fog.read(state, board)
    if f is None or board is None:
        return state or {}
    for u in roster.values():
        p = placed(u) if player_of(u) is not None else None
        if p is not None:
            f = fog.entered(board, f, p.spaces, p.space).fog
    return f.to_state(board)


def _tasks(raw: dict[str, Any], roster: dict[str, units.Unit]) -> dict[str, task_rules.Task]:
    """The scene's ``[tasks.NAME]``: a Difficulty each, worked by units of the scene."""
    board: dict[str, task_rules.Task] = {}
    for tname, t in _table(raw, "tasks").items():
        if not isinstance(t, dict) or not isinstance(t.get("difficulty"), int):
            raise BadInput(f"scene: [tasks.{tname}] needs difficulty = N")
        workers = [str(w) for w in t.get("workers", [])]
        for w in workers:
            if w not in roster:
                raise BadInput(f"scene: tasks.{tname}: worker {w!r} is not a unit")
        task_rules.new(board, tname, t["difficulty"], workers)
    return board


def _clock(raw: dict[str, Any], roster: dict[str, Any],
           reserves: dict[str, Any]) -> clock_rules.Clock:
    start = raw.get("start", 1)
    if not isinstance(start, int):
        raise BadInput("scene: [clock] start must be a whole number")
    clock = clock_rules.Clock(clock_rules.check_value(start, "[clock] start"),
                              bool(raw.get("down", False)))
    for i, e in enumerate(raw.get("events", []), 1):
        if not isinstance(e, dict) or not isinstance(e.get("at"), int) or "text" not in e:
            raise BadInput(f"scene: clock event #{i} needs at = N and text = \"…\"")
        unit = e.get("unit")
        if unit is not None and unit not in roster and unit not in reserves:
            raise BadInput(f"scene: clock event #{i} brings unit {unit!r}, which is not "
                           "defined in [units] or [reserves]")
        clock.add_timed(e["at"], str(e["text"]), unit)
    for i, e in enumerate(raw.get("random", []), 1):
        if not isinstance(e, dict) or "text" not in e or "chance" not in e:
            raise BadInput(f"scene: random event #{i} needs text = \"…\" and chance = \"K/N\"")
        clock.add_random(str(e["text"]), str(e["chance"]), bool(e.get("repeat", False)))
    return clock


# --- results ------------------------------------------------------------------------


@record
class SceneUnit:
    """A unit of the scene as ``scene load|show`` list it: its name, faction, kind, the
    stats it has (a stat it lacks is left out of the JSON), and its Move and Action
    Cost on the scene's map as the Status Bar shows them (``status_bar.on_the_bar``)."""

    name: str
    faction: str | None
    kind: str
    stats: tuple[tuple[str, str], ...]
    move: int | None
    action_cost: int | None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "faction": self.faction, "kind": self.kind,
                **dict(self.stats), "move": self.move, "action_cost": self.action_cost}


@record
class SceneTask(Result):
    name: str
    difficulty: int
    challenge: int
    progress: int
    workers: tuple[str, ...]


@record
class SceneView(Result):
    """``scene load|show``: the scene file's name, map, backstory, factions and
    reserves as loaded, then the board: units, tasks, the clock and its events."""

    name: str
    map: str
    backstory: str
    factions: dict[str, Any]
    reserves: dict[str, Any]
    map_name: str
    units: tuple[SceneUnit, ...]
    tasks: tuple[SceneTask, ...]
    clock: int
    timed_events: tuple[clock_rules.TimedEvent, ...]
    random_events: tuple[clock_rules.RandomEvent, ...]


def _unit_row(unit: units.Unit, stored: dict[str, Any], map_key: str,
              opts: Options) -> SceneUnit:
    move, cost = status_bar.on_the_bar(unit, map_key, opts)
    return SceneUnit(unit.name, unit.faction, unit.kind,
                     tuple((k, stored[k]) for k in units.STATS if k in stored), move, cost)


def view(data: dict[str, Any], opts: Options = DEFAULTS) -> SceneView:
    """The loaded scene and its board, from the session's data."""
    s = data.get("scene")
    if not s:
        raise NotFound("no scene loaded: d2d scene load FILE.toml (or combat1)")
    clock = data.get("clock", {})
    stored = data.get("units", {})
    return SceneView(
        str(s["name"]), str(s["map"]), str(s.get("backstory", "")),
        dict(s.get("factions", {})), dict(s.get("reserves", {})),
        tables.load("maps")[s["map"]]["name"],
        tuple(_unit_row(u, stored[n], s["map"], opts) for n, u in units.roster(data).items()),
        tuple(SceneTask(n, t["difficulty"], t["challenge"], t["progress"],
                        tuple(t.get("workers", []))) for n, t in data.get("tasks", {}).items()),
        int(clock.get("value", 1)),
        tuple(clock_rules.TimedEvent.of(e) for e in clock.get("timed", [])),
        tuple(clock_rules.RandomEvent.of(e) for e in clock.get("random", [])))


def load(raw: dict[str, Any], session_data: dict[str, Any], opts: Options = DEFAULTS
         ) -> tuple[dict[str, Any], SceneView]:
    """``scene load``: the session sections the scene sets up (see :func:`build`), and
    the scene as it then stands, each unit's Move and Action Cost on its map."""
    sections = build(raw, session_data)
    return sections, view({**session_data, **sections}, opts)
