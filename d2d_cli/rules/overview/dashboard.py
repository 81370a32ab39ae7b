"""The dashboard of ``d2d status``: the round, the scene clock and its next event, the
open tasks, the weather, and every unit with what it has left this round.

The round, clock and tasks are read through their own models (``rounds.Round``,
``clock.Clock``, ``tasks.board``); the weather is the record ``weather wind`` stored.
Each unit's row is the Status Bar's (``units.UnitRow``, the same keys as ``unit show``)
with what the round adds: Move and Actions left (001 l.491 "Move is a resource on the
Unit# card"; l.543 "Most Actions cost Move:-[Action Cost]"), the Abilities in Cooldown
(001 l.181), Facing, Stealth tokens, the round's boosts and the Continuous Powers kept
up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable
from typing import Any

from d2d_cli.rules.core.record import fields as record_fields
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.time.clock import Clock
from d2d_cli.rules.time.round_state import Round
from d2d_cli.rules.time.tasks import TaskView, board
from d2d_cli.rules.units import exchange
from d2d_cli.rules.units import unit_state as kept
from d2d_cli.rules.units.roster import (
    STATS,
    StatValues,
    Unit,
    UnitRow,
    roster,
    row_values,
    stat_values,
)

# The Move and Action Cost a unit's row shows: by default the tokens stored on the unit.
Bar = Callable[[Unit], tuple[int | None, int | None]]


@record
class RoundInfo(Result):
    number: int  # 0 before the first round start
    phase: str  # "none", "started" or "ended"


@record
class NextEvent(Result):
    at: int
    text: str
    ticks: int  # Clock ticks until it is revealed


@record
class ClockInfo(Result):
    value: int
    down: bool
    next_event: NextEvent | None


@record
class Weather(Result):
    direction: str
    speed_kph: int
    beaufort: str
    speed_stat: str | None


@record(kw_only=True)
class StatusRow(UnitRow):
    """A unit on the dashboard: its Status Bar row and this round's state."""

    move_left: int | None  # None when no round is under way
    actions_left: int | None
    cooldowns: tuple[str, ...]
    active: dict[str, list[str]]
    facing: str | None
    stealth: int  # Stealth tokens; 0 when not Hidden
    boosts: tuple[str, ...]
    continuous: tuple[str, ...]
    # What the table said this round (rules/units/exchange.py): cover, range, Interrupt…
    said: tuple[str, ...] = ()
    space: str | None = None  # its Space on the map, when placed (rules/board/placement.py)
    # issue 36: what it carries, one line (status --why; unit gear show --json has it all);
    # worked out only when asked (``dashboard(carries=True)``), "" otherwise
    carries: str = hidden("")


@record
class Dashboard(Result):
    round: RoundInfo
    clock: ClockInfo
    tasks: tuple[TaskView, ...]  # the open ones
    weather: Weather | None
    units: tuple[StatusRow, ...]


def next_event(clock: Clock) -> NextEvent | None:
    """The next Timed Event the Clock will reveal, ticking its own way."""
    ahead = [e for e in clock.timed if not e.get("done")
             and (e["at"] < clock.value if clock.down else e["at"] > clock.value)]
    if not ahead:
        return None
    e = (max if clock.down else min)(ahead, key=lambda e: int(e["at"]))
    return NextEvent(int(e["at"]), str(e["text"]), abs(int(e["at"]) - clock.value))


def _weather(raw: dict[str, Any] | None) -> Weather | None:
    if not raw or "direction" not in raw:
        return None
    return Weather(str(raw["direction"]), int(raw.get("speed_kph", 0)),
                   str(raw.get("beaufort", "")), raw.get("speed_stat"))


def kept_of(unit: Unit, carries: bool = False) -> dict[str, Any]:
    """The fields of a unit's row read from what it keeps besides its stats and tokens
    (``unit.extra``) whatever the round: functions of ``unit.extra`` alone (its name
    only names it in an error). ``carries``: what it carries too (only ``status --why``
    reads it: a lookup neither imports nor checks the weapons it does not show)."""
    if carries:
        from d2d_cli.rules.units import gear
    return dict(
        cooldowns=tuple(kept.cooldown(unit)), active=kept.active(unit),
        facing=kept.facing(unit), stealth=kept.stealth_tokens(unit),
        continuous=tuple(c["power"] for c in kept.continuous(unit)),
        space=str(unit.extra["space"]) if unit.extra.get("space") else None,
        carries=gear.summary_line(unit.extra, unit.name) if carries else "")


def row(unit: Unit, rnd: Round, bar: Bar | None = None,
        stats: StatValues | None = None, held: dict[str, Any] | None = None,
        carries: bool = False) -> StatusRow:
    """``stats``: the unit's ``roster.stat_values``, when already worked out; ``held``:
    its :func:`kept_of`, likewise (copied where a row may change it); ``carries``: as
    :func:`kept_of`'s."""
    values = row_values(unit, stats)
    if bar is not None:
        values["move"], values["action_cost"] = bar(unit)
    if unit.conditions.get("dead"):  # the Refresh gives the Dead nothing (round start)
        values["move"] = values["action_cost"] = None
    # Outside a round under way nothing was spent or said this round (kept.spent and
    # exchange.lines would give an empty record): neither is asked.
    now = rnd.phase == "started"
    record = kept.spent(unit, rnd.number, rnd.phase) if now else None
    if held is None:
        held = kept_of(unit, carries)
    else:  # its own ``active``: a caller may change what it is given
        held = {**held, "active": {k: list(v) for k, v in held["active"].items()}}
    return StatusRow(
        **values, **held,
        move_left=unit.move if now else None,
        actions_left=kept.actions_left(unit.move, unit.action_cost, record.actions)
        if record is not None else None,
        boosts=tuple(record.boosts) if record is not None else (),
        said=exchange.lines(unit, rnd.number, rnd.phase) if now else ())


def dashboard(data: dict[str, Any], bar: Bar | None = None, *,
              same: Hashable | None = None, carries: bool = False) -> Dashboard:
    """The dashboard of the session's ``data``; ``bar``: each unit's Move and Action
    Cost. ``same``: all that ``bar`` reads besides the unit (the map, the table's
    options), when rows may be remembered (:func:`_rows`). ``carries``: each row's
    ``carries`` too (what the unit carries: ``status --why``; "" without it)."""
    rnd = Round.from_state(data.get("round"))
    clock = Clock.from_state(data.get("clock"))
    return Dashboard(
        RoundInfo(rnd.number, rnd.phase),
        ClockInfo(clock.value, clock.down, next_event(clock)),
        tuple(t.view() for t in board(data).values() if t.state == "open"),
        _weather(data.get("weather")),
        _rows(data.get("units", {}), rnd, bar, same, carries) if same is not None else
        tuple(row(u, rnd, bar, carries=carries) for u in roster(data).values()))


# Rows built in this process: (same, round, phase, name, the unit's table marshalled) →
# the row's fields marshalled. From a process's second dashboard on (d2d play's): the
# first one (a one-shot's only one) keeps nothing.
_ROWS: dict[tuple[Any, ...], bytes] = {}
_ROWS_KEEP = 4096
_SAME: dict[Hashable, int] = {}  # each ``same`` met, numbered; never renumbered
_DASHBOARDS = [0]


def _rows(units: dict[str, Any], rnd: Round, bar: Bar | None,
          same: Hashable, carries: bool = False) -> tuple[StatusRow, ...]:
    """Each unit's row; a unit whose table, round and ``same`` are those of a row built
    before gets that row again, built afresh from its fields (its own dicts: a caller
    may change what it is given). A row is a function of them alone (:func:`row`)."""
    import marshal

    _DASHBOARDS[0] += 1
    tag = None  # ``same`` as a number: hashed once a call, not once a unit
    if _DASHBOARDS[0] > 1:
        with contextlib.suppress(TypeError):  # an option that cannot be hashed: none kept
            tag = _SAME.setdefault(same, len(_SAME))
    out = []
    # Units alike (a horde made from one template) share their stats' texts: each
    # distinct stats, conditions and Grit worked out once a dashboard (roster.stat_values).
    alike: dict[tuple[Any, ...], StatValues] = {}
    bare: dict[str, Any] | None = None  # kept_of a unit that keeps nothing else
    for name, raw in units.items():
        key = None
        if tag is not None:
            with contextlib.suppress(ValueError):  # what marshal cannot hold: not kept
                key = (tag, carries, rnd.number, rnd.phase, name, marshal.dumps(raw))
            blob = _ROWS.get(key) if key is not None else None
            if blob is not None:
                out.append(StatusRow(**marshal.loads(blob)))
                continue
        unit = Unit.from_state(name, raw)
        # The stats are the texts of the table (roster.Unit.from_state parses them).
        same = (*[raw.get(s) for s in STATS], tuple(unit.conditions.items()),
                bool((unit.extra.get("effects") or {}).get("grit_your_teeth")))
        try:
            stats = alike.get(same)
            if stats is None:
                stats = alike[same] = stat_values(unit)
        except TypeError:  # a stat's value that cannot be hashed: not shared
            stats = stat_values(unit)
        held = None
        if not unit.extra:  # most of a horde: what it keeps is read once a dashboard
            if bare is None:
                bare = kept_of(unit, carries)
            held = bare
        r = row(unit, rnd, bar, stats, held, carries)
        if key is not None:
            with contextlib.suppress(ValueError):
                fields = {f: getattr(r, f) for f in _INIT}
                if len(_ROWS) >= _ROWS_KEEP:
                    _ROWS.clear()
                _ROWS[key] = marshal.dumps(fields)
        out.append(r)
    return tuple(out)


_INIT = tuple(f.name for f in record_fields(StatusRow) if f.init)
