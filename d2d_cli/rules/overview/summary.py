"""The table at a glance: what a session holds, read from its plain data.

``d2d play`` shows it as a status line after every command (round, clock, Fate cards
left, the current unit's tokens) and ``d2d session show`` as a few readable lines. It
reads only the sections it names, so it stays cheap on a long campaign: no roster of
every unit is built for one line.
"""

from __future__ import annotations

from typing import Any

from d2d_cli.rules.core.record import record

PHASES = {"started": "under way", "ended": "ended"}


@record
class UnitTokens:
    """One unit's round tokens (001 p.19 "Round: Start"); None before a round starts."""

    name: str
    move: int | None
    action_cost: int | None
    turn: int | None
    conditions: int  # condition tokens on it, all kinds


@record
class TaskLine:
    name: str
    challenge: int
    progress: int


@record
class Summary:
    scene: str | None
    map: str | None
    round: int  # 0: no round started yet
    phase: str  # "none", "started" or "ended"
    clock: int | None  # None: no scene clock set
    cards_left: int
    discarded: int
    units: tuple[str, ...]
    tasks: tuple[TaskLine, ...]


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def summarize(data: dict[str, Any]) -> Summary:
    """The session's scene, round, clock, deck, units and tasks. A hand-edited value
    of the wrong type reads as its default: a summary never refuses a file."""
    scene, rnd, clock, fate = (_table(data, k) for k in ("scene", "round", "clock", "fate"))
    tasks = tuple(TaskLine(str(name), _int(t.get("challenge")), _int(t.get("progress")))
                  for name, t in _table(data, "tasks").items() if isinstance(t, dict))
    return Summary(
        scene=str(scene["name"]) if "name" in scene else None,
        map=str(scene["map"]) if "map" in scene else None,
        round=_int(rnd.get("number")),
        phase=str(rnd.get("phase", "none")),
        clock=_int(clock.get("value"), 1) if clock else None,
        cards_left=len(fate.get("draw", []) or []),
        discarded=len(fate.get("discard", []) or []),
        units=tuple(str(n) for n in _table(data, "units")),
        tasks=tasks,
    )


def unit_tokens(data: dict[str, Any], name: str | None) -> UnitTokens | None:
    """The tokens of the unit called ``name`` (any case), or None if it is not there."""
    if not name:
        return None
    units = _table(data, "units")
    found = name if name in units else next(
        (n for n in units if n.lower() == name.lower()), None)
    if found is None or not isinstance(units[found], dict):
        return None
    u = units[found]
    conditions = u.get("conditions") if isinstance(u.get("conditions"), dict) else {}
    return UnitTokens(found, u.get("move"), u.get("action_cost"), u.get("turn"),
                      sum(_int(n) for n in conditions.values()))


def named_unit(data: dict[str, Any], words: list[str]) -> str | None:
    """The last word of a command line that names a unit (any case), as the roster
    spells it: the unit a Narrator is dealing with now."""
    names = {n.lower(): n for n in _table(data, "units")}
    for word in reversed(words):
        if word.lower() in names:
            return names[word.lower()]
    return None


def round_text(s: Summary) -> str:
    if s.round == 0:
        return "no round yet"
    return f"round {s.round} {PHASES.get(s.phase, s.phase)}".rstrip()


def status_line(s: Summary, current: UnitTokens | None, up: str | None = None) -> str:
    """``Combat #1 · round 1 under way · next: Archer (5) · clock 1 · 51 cards left ·
    Archer: Move 4, AC 2, Turn 2`` — one line for the bottom of ``d2d play``; ``up``:
    who acts next (``round next``'s summary)."""
    parts = [s.scene] if s.scene else []
    parts.append(round_text(s))
    if up:
        parts.append(up)
    if s.clock is not None:
        parts.append(f"clock {s.clock}")
    parts.append(f"{s.cards_left} card{'' if s.cards_left == 1 else 's'} left")
    if current is not None:
        parts.append(f"{current.name}: {tokens_text(current)}")
    return " · ".join(parts)


def tokens_text(u: UnitTokens) -> str:
    def dash(v: int | None) -> str:
        return "—" if v is None else str(v)

    text = f"Move {dash(u.move)}, AC {dash(u.action_cost)}, Turn {dash(u.turn)}"
    if u.conditions:
        text += f", {u.conditions} condition token{'' if u.conditions == 1 else 's'}"
    return text
