"""Units: anything that acts on the board — a person, creature or vehicle
(001 p.7 "A Unit can be a person, creature, or vehicle"). Characters are units
with a creation record (``kind = "character"``).

This module is the shared data model: the roster (``[units.<name>]`` in the
session) is read and written only through :meth:`Unit.from_state` and
:meth:`Unit.to_state`. Conditions are kept as ``{key: count}`` where the key is
the condition's name in lower case with underscores (``blood_loss``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.stats import Stat, parse_stat

STATS = ("body", "mind", "will", "speed")
_NAME_RE = re.compile(r"^[^\x00-\x1f\x7f/\\]{1,40}$")


def check_unit_name(name: str) -> str:
    """Names are shown on the Status Bar and used as TOML keys: printable, no path
    separators, at most 40 characters."""
    if not _NAME_RE.match(name) or name != name.strip():
        raise BadInput(
            f"bad unit name {name!r}: 1–40 printable characters, no '/' or '\\', no "
            "control characters, no leading or trailing spaces"
        )
    return name


def condition_key(name: str) -> str:
    """``Blood Loss`` / ``blood-loss`` / ``blood_loss`` → ``blood_loss``."""
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


@dataclass
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
        known = {"kind", "faction", "skills", "conditions", "target", "move",
                 "action_cost", "turn", *STATS}
        return cls(
            name=name,
            stats={s: parse_stat(state[s]) for s in STATS if s in state},
            kind=state.get("kind", "unit"),
            faction=state.get("faction"),
            skills={k: int(v) for k, v in state.get("skills", {}).items()},
            conditions={k: int(v) for k, v in state.get("conditions", {}).items() if v},
            target=state.get("target"),
            move=state.get("move"),
            action_cost=state.get("action_cost"),
            turn=state.get("turn"),
            extra={k: v for k, v in state.items() if k not in known},
        )

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for s in STATS:
            if s in self.stats:
                out[s] = str(self.stats[s])
        if self.faction:
            out["faction"] = self.faction
        out["skills"] = dict(self.skills)
        out["conditions"] = {k: v for k, v in self.conditions.items() if v > 0}
        for key in ("target", "move", "action_cost", "turn"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
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


def roster_state(units: dict[str, Unit]) -> dict[str, Any]:
    return {name: u.to_state() for name, u in units.items()}


def find(units: dict[str, Unit], name: str) -> Unit:
    """A unit by name (case-insensitive), or a BadInput naming the nearest names."""
    if name in units:
        return units[name]
    folded = {n.lower(): u for n, u in units.items()}
    if name.lower() in folded:
        return folded[name.lower()]
    import difflib

    near = difflib.get_close_matches(name, list(units), n=3, cutoff=0.5)
    hint = f" — did you mean {', '.join(near)}?" if near else (
        f" — units: {', '.join(units) or 'none yet (d2d unit add)'}")
    from d2d_cli.errors import NotFound

    raise NotFound(f"no unit {name!r}{hint}")
