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
``[[clock.random]]`` (``text``, ``chance``, ``repeat``). See examples/combat1.toml.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules import clock as clock_rules
from d2d_cli.rules import tasks as task_rules
from d2d_cli.rules import units

TOP_KEYS = {"name", "map", "backstory", "factions", "characters", "units", "reserves",
            "tasks", "clock"}
BUILT_IN = ("combat1",)


@cache
def map_types() -> dict[str, dict[str, str]]:
    raw = files("d2d_cli.tables").joinpath("scene_maps.toml").read_text("utf-8")
    return tomllib.loads(raw)


def map_key(text: str) -> str:
    key = str(text).strip().lower().removesuffix(" map").strip()
    if key not in map_types():
        known = ", ".join(map_types())
        raise BadInput(f"unknown map type {text!r} — known: {known}")
    return key


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
    from d2d_cli.rules.scale import check_stat_range

    try:
        for st in unit.stats.values():
            check_stat_range(st)
    except BadInput as e:
        raise BadInput(f"scene: {where}.{name}: {e.message}") from None
    if "speed" not in unit.stats:
        raise BadInput(f"scene: {where}.{name} needs a speed stat (e.g. speed = \"4x0\")")
    if factions and unit.faction and unit.faction not in factions:
        raise BadInput(f"scene: {where}.{name}: faction {unit.faction!r} is not in "
                       f"[factions] ({', '.join(factions)})")
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
    mkey = map_key(raw.get("map", "personal"))
    factions = _table(raw, "factions")
    for fname, f in factions.items():
        if not isinstance(f, dict):
            raise BadInput(f"scene: [factions.{fname}] must be a table with a goal")
    # characters: the session's own first, then the file's (the file wins on a clash)
    characters = {n: u for n, u in session_data.get("units", {}).items()
                  if u.get("kind") == "character"}
    characters.update({n: {**c, "kind": "character"}
                       for n, c in _table(raw, "characters").items()})
    roster: dict[str, units.Unit] = {
        n: units.Unit.from_state(n, u) for n, u in session_data.get("units", {}).items()
        if u.get("kind") == "character"}  # the party stays; the last scene's units go
    for uname, spec in _table(raw, "units").items():
        roster[uname] = _unit(uname, spec, "units", characters, factions)
    reserves = {n: _unit(n, s, "reserves", characters, factions).to_state()
                for n, s in _table(raw, "reserves").items()}
    board: dict[str, task_rules.Task] = {}
    for tname, t in _table(raw, "tasks").items():
        if not isinstance(t, dict) or not isinstance(t.get("difficulty"), int):
            raise BadInput(f"scene: [tasks.{tname}] needs difficulty = N")
        workers = [str(w) for w in t.get("workers", [])]
        for w in workers:
            if w not in roster:
                raise BadInput(f"scene: tasks.{tname}: worker {w!r} is not a unit")
        task_rules.new(board, tname, t["difficulty"], workers)
    clock = _clock(_table(raw, "clock"), roster, reserves)
    scene = {"name": name, "map": mkey, "backstory": str(raw.get("backstory", "")),
             "factions": {n: {"goal": str(f.get("goal", "")),
                              **({"players": [str(p) for p in f["players"]]}
                                 if "players" in f else {})}
                          for n, f in factions.items()},
             "reserves": reserves}
    return {"scene": scene, "units": units.roster_state(roster),
            "tasks": task_rules.board_state(board), "clock": clock.to_state(),
            "round": {"number": 0, "phase": "none"}}


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


def arrivals(reached: list[dict[str, Any]], scene: dict[str, Any],
             roster: dict[str, units.Unit]) -> list[str]:
    """Reserves brought in by the Timed Events just reached ("Reinforcements arrive on
    the 5th Turn", 000 "Example > Combat #1"): they join the roster."""
    came = []
    reserves = scene.get("reserves", {})
    for event in reached:
        name = event.get("unit")
        if name and name in reserves and name not in roster:
            roster[name] = units.Unit.from_state(name, reserves[name])
            came.append(name)
    return came
