"""The table of Conditions (000 "Reference > Units > Conditions" and the Glossary), read
from ``tables/conditions.toml``: each condition's name, severity, stat penalty per token,
round-end event and healing time. Kept apart from :mod:`conditions` (the token rules,
which work on units) so that a unit's stats after penalties (``roster.effective_stats``)
can read it without an import circle."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import field, record


@lru_cache(maxsize=1024)  # a pure reading of a name: a few conditions, asked of often
def condition_key(name: str) -> str:
    """``Blood Loss`` / ``blood-loss`` / ``blood_loss`` → ``blood_loss``."""
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


@record
class Condition:
    key: str
    name: str
    severity: str  # "minor", "major" (000 l.746–747) or "status" (a Glossary Status)
    penalty: dict[str, int] = field(default_factory=dict)  # per token
    event: dict[str, Any] | None = None
    lasts: str | None = None
    text: str = ""
    # Days for one token to heal ("Day: Blood Loss:-1" → 1); None: no time in the text.
    heal_days: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "severity": self.severity,
                "penalty": dict(self.penalty), "event": self.event, "lasts": self.lasts,
                "text": self.text}


@cache
def table() -> dict[str, Condition]:
    raw = tables.load("conditions")
    return {
        key: Condition(key=key, name=v["name"], severity=v["severity"],
                       penalty=dict(v.get("penalty", {})), event=v.get("event"),
                       lasts=v.get("lasts"), text=v.get("text", ""),
                       heal_days=v.get("heal_days"))
        for key, v in raw.items()
    }


def lookup(name: str) -> Condition:
    """A condition by name (``Blood Loss``, ``blood-loss``…), or an error with suggestions."""
    key = condition_key(name)
    conditions = table()
    if key in conditions:
        return conditions[key]
    names = [c.name for c in conditions.values()]
    import difflib  # only for a suggestion: an error's cost

    near = difflib.get_close_matches(name.title(), names, n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(near)}? " if near else ""
    raise BadInput(f"unknown condition {name!r} — {hint}known: {', '.join(names)}")


def name_of(key: str) -> str:
    """The condition's printed name (``blood_loss`` → ``Blood Loss``); an unknown key as
    it is stored."""
    cond = table().get(key)
    return cond.name if cond is not None else key


def penalties(conditions: dict[str, int]) -> dict[str, int]:
    """Total change per stat from a unit's condition tokens (each token counts)."""
    total: dict[str, int] = {}
    if not conditions:  # no token: no change (every unit at every Refresh, mostly)
        return total
    known = table()
    for key, count in conditions.items():
        cond = known.get(key)
        if cond is None or count <= 0:
            continue
        for stat, delta in cond.penalty.items():
            total[stat] = total.get(stat, 0) + delta * count
    return total


