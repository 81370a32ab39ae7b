"""Units: anything that acts on the board — a person, creature or vehicle
(001 p.7 "A Unit can be a person, creature, or vehicle"). Characters are units
with a creation record (``kind = "character"``).

This module is the shared data model: the roster (``[units.<name>]`` in the
session) is read and written only through :meth:`Unit.from_state` and
:meth:`Unit.to_state`. Conditions are kept as ``{key: count}`` where the key is
the condition's name in lower case with underscores (``blood_loss``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from sys import intern
from typing import Any

from d2d_cli.errors import BadInput, NotFound, RuleViolation
from d2d_cli.rules.core import by_identity
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.scale.stats import Stat, parse_stat
from d2d_cli.rules.units.condition_table import condition_key as condition_key
from d2d_cli.rules.units.condition_table import penalties
from d2d_cli.rules.units.sides import check_faction as check_faction
from d2d_cli.rules.units.sides import player_of

STATS = ("body", "mind", "will", "speed")


@lru_cache(maxsize=4096)
def _stat(text: str) -> Stat:
    """parse_stat, remembered: a roster of 1,000 units holds a handful of distinct stats,
    and Stat is immutable."""
    return parse_stat(text)


# A stat as its table stores it (``str(stat)``, 000's ``8x1``), remembered for the very Stat
# read (:func:`_stat` gives the same Stat for the same text, and a Stat is immutable): a
# fight stores units back about 100 times.
_text: Callable[[Stat], str] = by_identity(str, 4096)


def _head(kind: str, stats: dict[str, Stat]) -> tuple[Any, ...]:
    """The head of a unit's table as :meth:`Unit.to_state` writes it — its ``kind``,
    then its stats as the table stores them, in :data:`STATS` order — remembered (in
    :data:`_HEADS`) with what it was written from: the very stats table, a copy of what
    it held then (compared in C, Stat by Stat: the same Stats are the same objects) and
    the kind. Returns (stats, the copy, kind, head); the head is read only (shared)."""
    head: dict[str, Any] = {"kind": kind}
    for s in STATS:
        if s in stats:
            head[s] = _text(stats[s])
    got = (stats, dict(stats), kind, head)
    if len(_HEADS) >= 1024:
        _HEADS.clear()
    _HEADS[id(stats)] = got
    return got


# a Unit's stats table (by identity, held) → (it, what it held, the kind, the head):
# :func:`_head`. A Unit keeps its stats table from store to store (~70 stores a fight),
# so a store copies the head whole — no dict display and unpacking of the stat texts.
_HEADS: dict[int, tuple[dict[str, Stat], dict[str, Stat], str, dict[str, Any]]] = {}


@functools.cache
def _name_re() -> re.Pattern[str]:
    """Compiled on first use: a call that never asks (a lookup) does not pay for it."""
    return re.compile(r"^[^\x00-\x1f\x7f/\\]{1,40}$")


def check_unit_name(name: str) -> str:
    """Names are shown on the Status Bar and used as TOML keys: printable, no path
    separators, at most 40 characters."""
    if not _name_re().match(name) or not name.isprintable() or name != name.strip():
        raise BadInput(
            f"bad unit name {name!r}: 1–40 printable characters, no '/' or '\\', no "
            "control characters, no leading or trailing spaces"
        )
    return name


# The keys Unit.from_state reads into its fields; the rest of a unit's table is ``extra``.
_KNOWN = frozenset({"kind", "faction", "skills", "conditions", "target", "move",
                    "action_cost", "turn", *STATS})


@record(frozen=False)
class Unit:
    name: str
    stats: dict[str, Stat]
    kind: str = "unit"  # "unit" or "character"
    faction: str | None = None
    skills: dict[str, int] = field(default_factory=dict)
    conditions: dict[str, int] = field(default_factory=dict)
    target: str | None = None
    # The round's tokens (001 "Round: Start"); None until a round starts.
    move: int | None = None
    action_cost: int | None = None
    turn: int | None = None
    # Anything else a feature keeps on the unit (character record, items, notes…),
    # stored as-is so features can grow without changing this model.
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_state(cls, name: str, state: dict[str, Any]) -> Unit:
        # Positional, in the fields' order: a roster is built ~100 times a fight.
        # An empty skills or conditions table builds no comprehension (most units hold
        # no conditions most of a fight).
        # ``extra``'s keys interned (the same texts, in the same order): every store
        # writes them into the unit's new table (to_state), where the code looks them
        # up by name (``space``, ``spent``, ``off_map``…, many times an Action in a
        # simulated fight) — the very object is matched at once, where a text unpickled
        # or read from a file is matched by its letters after the hash.
        get = state.get
        skills = get("skills")
        conditions = get("conditions")
        return cls(
            name,
            {s: _stat(state[s]) for s in STATS if s in state},
            get("kind", "unit"),
            get("faction"),
            {k: int(v) for k, v in skills.items()} if skills else {},
            {k: int(v) for k, v in conditions.items() if v} if conditions else {},
            get("target"),
            get("move"),
            get("action_cost"),
            get("turn"),
            {intern(k) if type(k) is str else k: v for k, v in state.items()
             if k not in _KNOWN},
        )

    def to_state(self) -> dict[str, Any]:
        # One dict display where it can be (a fight stores ~100 units): the conditions
        # copied whole unless one is at 0 or below (add_condition drops those; only such
        # a count is filtered out), no comprehension's frame in the usual case.
        conditions, stats, kind = self.conditions, self.stats, self.kind
        got = _HEADS.get(id(stats))
        # the head remembered for this very stats table, holding what it held then, and
        # this kind (:func:`_head`); else written afresh
        if got is None or got[0] is not stats or got[2] != kind or got[1] != stats:
            got = _head(kind, stats)
        out: dict[str, Any] = got[3].copy()
        if self.faction:
            out["faction"] = self.faction
        out["skills"] = self.skills.copy()
        out["conditions"] = ({} if not conditions else conditions.copy()
                             if min(conditions.values()) > 0 else
                             {k: v for k, v in conditions.items() if v > 0})
        # target, move, action_cost, turn: when set
        if self.target is not None:
            out["target"] = self.target
        if self.move is not None:
            out["move"] = self.move
        if self.action_cost is not None:
            out["action_cost"] = self.action_cost
        if self.turn is not None:
            out["turn"] = self.turn
        out.update(self.extra)
        return out

    def add_condition(self, key: str, count: int = 1) -> int:
        """Add (or with a negative count, remove) tokens; returns the new count (min 0)."""
        new = max(0, self.conditions.get(key, 0) + count)
        if new:
            self.conditions[key] = new
        else:
            self.conditions.pop(key, None)
        return new


def roster(state: dict[str, Any]) -> dict[str, Unit]:
    """All units of a session's data, in the order they were added."""
    return {name: Unit.from_state(name, u) for name, u in state.get("units", {}).items()}


class RosterView(Mapping[str, "Unit"]):
    """The roster for a reader: each Unit built from the session's data when first looked
    up (a conflict between two of a thousand units builds two). For commands that only
    read; a command that changes units takes :func:`roster` and stores it."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self._raw: Mapping[str, Any] = state.get("units", {})
        self._built: dict[str, Unit] = {}

    def __getitem__(self, name: str) -> Unit:
        unit = self._built.get(name)
        if unit is None:
            unit = self._built[name] = Unit.from_state(name, self._raw[name])
        return unit

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def roster_view(state: Mapping[str, Any]) -> RosterView:
    """All units of a session's data, built as they are looked up (read only)."""
    return RosterView(state)


def roster_state(units: dict[str, Unit]) -> dict[str, Any]:
    out = {}  # a plain loop, no comprehension's frame (a Crit stores one unit or two)
    for name, u in units.items():
        out[name] = u.to_state()
    return out


def find(units: Mapping[str, Unit], name: str) -> Unit:
    """A unit by name (case-insensitive), or NotFound naming the nearest names."""
    if name in units:
        return units[name]
    folded = {n.lower(): u for n, u in units.items()}
    if name.lower() in folded:
        return folded[name.lower()]
    import difflib

    near = difflib.get_close_matches(name, list(units), n=3, cutoff=0.5)
    hint = f" — did you mean {', '.join(near)}?" if near else (
        f" — units: {', '.join(units) or 'none yet (d2d unit add)'}")
    raise NotFound(f"no unit {name!r}{hint}")


def check_new_name(units: dict[str, Unit], name: str) -> str:
    """A valid name no other unit has (names are compared case-insensitively)."""
    check_unit_name(name)
    taken = {n.lower(): n for n in units}
    if name.lower() in taken:
        raise BadInput(f"a unit named {taken[name.lower()]!r} already exists — pick another "
                       f"name or remove it first (d2d unit rm {taken[name.lower()]!r})")
    return name




# --------------------------------------------------------------------------- the Status Bar


def effective_stats(unit: Unit, base: dict[str, str] | None = None) -> dict[str, str]:
    """Stats after the unit's condition penalties, per token (000 Glossary: "Fatigue - A
    Minor Condition that gives Body:-1"). The scale stays; the level may fall below 2
    and stops at 0 ("6x1" with 2 Fatigue → "4x1"; → "0x1" at worst): 001 p.35 "IF Unit
    has Stat=0 THEN flip to Crit". Unchanged stats keep their canonical form. Grit your
    Teeth ignores them for the Round (001 l.605 "Ignore all penalties this Round";
    rules.units.effects). ``base``: :func:`base_stats`, when already written."""
    delta = {} if (unit.extra.get("effects") or {}).get("grit_your_teeth") else \
        penalties(unit.conditions)
    out = {}
    for s, st in unit.stats.items():
        d = delta.get(s, 0)
        out[s] = (base[s] if base is not None else str(st)) if d == 0 else \
            f"{max(0, st.level + d)}x{st.scale}"
    return out


def base_stats(unit: Unit) -> dict[str, str]:
    """The unit's own stats, before conditions (each Stat's text remembered: the
    dashboard writes 4,000 on 1,000 units)."""
    return {s: _text(st) for s, st in unit.stats.items()}


def zero_stats(unit: Unit, effective: dict[str, str] | None = None) -> list[str]:
    """Stats brought to 0 by conditions (001 p.35: "flip to Crit")."""
    eff = effective_stats(unit) if effective is None else effective
    return [s for s, v in eff.items() if v.startswith("0x")]


@record
class UnitRow(Result):
    """One unit as ``status``, ``unit show`` and every ``unit`` command report it.
    ``stats`` are after conditions, ``base_stats`` the unit's own (one meaning per key in
    every command, the character sheet included)."""

    name: str
    kind: str
    stats: dict[str, str]
    base_stats: dict[str, str]
    conditions: dict[str, int]
    # 000 l.542 "Status Bar - Place the Hit Location and any other Statuses above the
    # Unit on the Status Bar": the Crits placed by `d2d crit --target`, as stored.
    crits: tuple[dict[str, Any], ...]
    move: int | None
    action_cost: int | None
    turn: int | None
    target: str | None
    skills: dict[str, int]
    faction: str | None
    player: str | None  # who plays it; None: a Non-Player (rules.units.sides)
    zero: tuple[str, ...]
    # The journal's one-line summary of the change that produced this row (not JSON).
    summary: str = hidden("")


# A unit's stats as a row shows them: its own, after conditions, and those at 0.
StatValues = tuple[dict[str, str], dict[str, str], tuple[str, ...]]


def stat_values(unit: Unit) -> StatValues:
    """:func:`base_stats`, :func:`effective_stats` and :func:`zero_stats` of ``unit``:
    functions of its stats, its conditions and Grit your Teeth alone."""
    base = base_stats(unit)
    eff = effective_stats(unit, base)  # each stat written once
    return base, eff, tuple(zero_stats(unit, eff))


def row_values(unit: Unit, stats: StatValues | None = None) -> dict[str, Any]:
    """The fields of a unit's :class:`UnitRow` (for results that extend the row).
    ``stats``: :func:`stat_values` of a unit with the same stats, conditions and Grit
    (copied: each row has dicts of its own)."""
    if stats is None:
        base, eff, zero = stat_values(unit)
    else:
        base, eff, zero = dict(stats[0]), dict(stats[1]), stats[2]
    return dict(
        name=unit.name, kind=unit.kind, stats=eff,
        base_stats=base, conditions=dict(unit.conditions),
        crits=tuple(dict(c) for c in unit.extra.get("crits", [])),
        move=unit.move, action_cost=unit.action_cost, turn=unit.turn, target=unit.target,
        skills=dict(unit.skills), faction=unit.faction, player=_player(unit),
        zero=zero)


def _player(unit: Unit) -> str | None:
    return player_of(unit)  # the one answer (rules.units.sides)


def status_row(unit: Unit, summary: str = "") -> UnitRow:
    """One unit as ``status`` and ``unit show`` report it."""
    return UnitRow(**row_values(unit), summary=summary)


@record
class Roster(Result):
    """Every unit on the board, in the order they were added (``status``, ``unit list``)."""

    units: tuple[UnitRow, ...]



# --------------------------------------------------------------------------- changes


def new_unit(name: str, stats: dict[str, str], skills: list[str],
             faction: str | None) -> Unit:
    """A unit from what was typed: its four stats (``2x1``), skills as ``NAME=LEVEL``, an
    optional faction. Checked before the session is touched."""
    from d2d_cli.rules.scale.stats import check_stat_range
    from d2d_cli.rules.units.skills import parse_skill_spec

    # Within the range d2d reads (docs/rules.md), or later views could not show it.
    parsed = {s: check_stat_range(parse_stat(stats[s])) for s in STATS}
    held = dict(parse_skill_spec(s) for s in skills)
    check_faction(faction)
    check_unit_name(name)
    return Unit(name=name, stats=parsed, skills=held, faction=faction)


def enroll(units: dict[str, Unit], unit: Unit) -> Unit:
    """Put a new unit (or character) on the roster under a name no other unit has."""
    check_new_name(units, unit.name)
    units[unit.name] = unit
    return unit


def add(units: dict[str, Unit], unit: Unit) -> UnitRow:
    """``unit add``: the new unit on the roster, as the Status Bar shows it."""
    return status_row(enroll(units, unit), f"added unit {unit.name}")


@record
class Removed(Result):
    name: str
    removed: bool
    targets_cleared: tuple[str, ...]
    summary: str = hidden("")


def remove(units: dict[str, Unit], name: str) -> Removed:
    """Take a unit off the board; units that targeted it lose their target (001 p.19
    "Targets")."""
    unit = find(units, name)
    del units[unit.name]
    cleared = [u.name for u in units.values() if u.target == unit.name]
    for other in cleared:
        units[other].target = None
    return Removed(unit.name, True, tuple(cleared), f"removed unit {unit.name}")


def alive(unit: Unit) -> Unit:
    """A Dead unit does nothing (000 l.1172 "Dead - Permanent Negative Status")."""
    if unit.conditions.get("dead"):
        raise RuleViolation(f"{unit.name} is Dead (000 l.1172 \"Dead - Permanent Negative "
                            "Status\")")
    return unit


def set_target(units: dict[str, Unit], name: str, target: str | None,
               clear: bool = False) -> UnitRow:
    """001 p.19 "Targets - Choose a Target (if any) for each Unit": a unit on the board,
    or none with ``clear``."""
    if (target is None) == (not clear):
        raise BadInput("give a TARGET or --clear (not both)")
    unit = find(units, name)
    if target:  # a Dead unit would join a Group (001 l.475)
        alive(unit)
    rival = find(units, target) if target else None
    if rival is not None and rival.extra.get("off_map"):  # docs/rules.md "Leaving the map"
        raise RuleViolation(f"{rival.name} has left the map (d2d unit leave): it cannot be "
                            f"a Target; d2d unit place {rival.name!r} SPACE brings it back")
    unit.target = rival.name if rival is not None else None
    return status_row(unit, f"{unit.name} targets {unit.target or 'nothing'}")
