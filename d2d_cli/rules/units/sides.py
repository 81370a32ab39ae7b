"""Sides: whose side a unit is on, and whether a person plays it (000 "1. Setup":
"Factions - Units are divided into different Factions … Units - Assign the Units in the
Factions to the Players").

This is the one answer every command reads — ``npc plan/turn`` (never plays a Player's
unit), ``sim`` (a Player's unit plays by the PC policy on its faction's side),
Outnumbered and Groups, the board's colours and legend, ``status``, ``conflict`` (a
Non-Player's bare name reveals Fate) and the hands (``rules.units.hands``).

A unit's table holds ``faction`` (absent: a side of its own) and ``player`` (a person's
name; absent, or the scene files' ``"Non-Player"``, means a Non-Player unit — 000 l.417
"Non-Player Units don't have hands, so they always choose Stay").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden

NON_PLAYER = "Non-Player"  # a unit's `player` in a scene file (000 l.554 "Non Player")
NARRATOR = "Narrator"  # the Narrator's own hand (000 l.401 "including Narrators if any")


@functools.cache
def _name_re() -> re.Pattern[str]:
    """Compiled on first use: a call that never asks (a lookup) does not pay for it."""
    return re.compile(r"^[^\x00-\x1f\x7f\"\\]{1,40}$")


def _get(unit: Any, key: str) -> Any:
    """A key of a unit's table, or of a ``roster.Unit`` (faction a field, player in
    ``extra``)."""
    if type(unit) is dict:  # a session's table: the usual case (no ABC check)
        return unit.get(key)
    if isinstance(unit, Mapping):
        return unit.get(key)
    if key == "faction":
        return unit.faction
    return unit.extra.get(key)


def player_of(unit: Any) -> str | None:
    """The Player who plays ``unit`` (its table, or a ``roster.Unit``), or None for a
    Non-Player unit (no ``player``, or ``"Non-Player"``). A fight asks this of a
    unit's table about a hundred times: a table is read here without a further call."""
    p = unit.get("player") if type(unit) is dict else _get(unit, "player")
    if p is None or p == "" or p == NON_PLAYER:
        return None
    return p if type(p) is str else str(p)


def faction_of(unit: Any) -> str | None:
    """The faction ``unit`` fights for (None: no faction, a side of its own)."""
    f = _get(unit, "faction")
    return None if f in (None, "") else str(f)


def is_player_unit(unit: Any) -> bool:
    """Whether a person plays ``unit`` (and so chooses its cards: 001 l.732 "Play a
    Conflict facedown from hand / NPCs use a Fate card instead")."""
    return player_of(unit) is not None


def same_side(a: Any, b: Any) -> bool:
    """Whether two units fight on one side: the same faction (a unit with no faction is
    on a side of its own)."""
    fa = faction_of(a)
    return fa is not None and fa == faction_of(b)


def check_faction(faction: str | None) -> str | None:
    """A faction's name as typed: 1–40 printable characters, no path separators."""
    if faction is not None and not re.match(r"^[^\x00-\x1f\x7f/\\]{1,40}$", faction):
        raise BadInput(f"bad faction {faction!r}: 1–40 printable characters")
    return faction


def check_player(name: str | None) -> str | None:
    """A Player's name as typed (``--player Ann``): 1–40 printable characters; ``""`` or
    ``Non-Player`` (any case) makes the unit a Non-Player again (None)."""
    if name is None:
        return None
    text = name.strip()
    if text == "" or text.lower() == NON_PLAYER.lower():
        return None
    if not _name_re().match(text) or not text.isprintable():
        raise BadInput(f"bad player name {name!r}: 1–40 printable characters, no '\"' or "
                       "'\\'")
    if text.lower() == NARRATOR.lower():
        raise BadInput(f"{NARRATOR!r} is the Narrator's own hand, not a Player's name: a "
                       "Non-Player unit has no --player")
    return text


def players(data: Mapping[str, Any]) -> list[str]:
    """Every Player of the session, in the order first named: by a unit (its
    ``player``), then by the scene's factions (``[scene.factions.F] players``)."""
    seen: dict[str, None] = {}
    for u in (data.get("units") or {}).values():
        p = player_of(u)
        if p is not None:
            seen.setdefault(p)
    for f in ((data.get("scene") or {}).get("factions") or {}).values():
        for p in f.get("players", []) if isinstance(f, Mapping) else ():
            if p not in (None, "", NON_PLAYER):
                seen.setdefault(str(p))
    return list(seen)


def units_of(data: Mapping[str, Any], player: str) -> list[str]:
    """The units ``player`` plays, in roster order."""
    return [n for n, u in (data.get("units") or {}).items() if player_of(u) == player]


def factions(units: Iterable[Any]) -> list[str]:
    """The factions of ``units``, in the order first met (no faction left out)."""
    seen: dict[str, None] = {}
    for u in units:
        f = faction_of(u)
        if f is not None:
            seen.setdefault(f)
    return list(seen)


def known_factions(data: Mapping[str, Any]) -> list[str]:
    """The factions a session knows: its units', then its scene's ``[factions]``."""
    seen = dict.fromkeys(factions((data.get("units") or {}).values()))
    for f in ((data.get("scene") or {}).get("factions") or {}):
        seen.setdefault(str(f))
    return list(seen)


def matched(name: str, known: list[str], what: str, *, new: bool = False,
            otherwise: str = "; add --new to make a new one") -> str:
    """``name`` as the session spells it: a known faction or Player matched whatever its
    case (``adventurers`` is ``Adventurers``). A name the session does not know is a
    typo until said otherwise — refused (exit 2) with the nearest known one — unless
    ``new`` (``--new``) or the session knows none yet (nothing to mistype)."""
    folded = {k.lower(): k for k in known}
    if name.lower() in folded:
        return folded[name.lower()]
    if new or not known:
        return name
    import difflib

    near = difflib.get_close_matches(name.lower(), folded, n=1, cutoff=0.6)
    hint = f"did you mean {folded[near[0]]!r}? " if near else ""
    raise BadInput(f"no {what} {name!r} in this session ({hint}{what}s: "
                   f"{', '.join(known)}){otherwise}")


def resolve_side(data: Mapping[str, Any], faction: str | None, player: str | None,
                 new: bool = False) -> tuple[str | None, str | None]:
    """A ``--faction`` and ``--player`` as typed, matched against the session's own
    (:func:`matched`); a Player's "Non-Player" or "" stays as typed (it clears)."""
    if faction is not None:
        faction = matched(check_faction(faction) or faction, known_factions(data),
                          "faction", new=new)
    if player is not None and check_player(player) is not None:
        player = matched(player.strip(), players(data), "Player", new=new)
    return faction, player


@record
class SideRow(Result):
    """``unit side NAME``: the unit's faction and Player after the change."""

    name: str
    faction: str | None
    player: str | None
    summary: str = hidden("")


def set_side(state: dict[str, Any], name: str, *, faction: str | None = None,
             player: str | None = None, clear_faction: bool = False) -> SideRow:
    """Change a unit's table (``units.NAME``) in place: ``faction`` (a new one) or
    ``clear_faction``; ``player`` (a name; ``"Non-Player"`` or ``""`` makes it a
    Non-Player again). Checked before anything changes."""
    if faction is not None:
        check_faction(faction)
    who = check_player(player) if player is not None else None
    if faction is not None:
        state["faction"] = faction
    elif clear_faction:
        state.pop("faction", None)
    if player is not None:
        if who is None:
            state.pop("player", None)
        else:
            state["player"] = who
    row = SideRow(name, faction_of(state), player_of(state), "")
    said = (f"{name}: faction {row.faction or '(none)'}, "
            f"{'played by ' + row.player if row.player else 'a Non-Player'}")
    return SideRow(row.name, row.faction, row.player, said)


@record
class Renamed(Result):
    """``player rename OLD NEW``: what moved to the new name."""

    old: str
    new: str
    units: tuple[str, ...]  # the units NEW now plays
    hand: bool  # NEW now holds OLD's Conflict Deck, hand and discard
    summary: str = hidden("")


def rename(data: dict[str, Any], old: str, new: str) -> Renamed:
    """A Player renamed everywhere the session names them, in place: each unit's
    ``player``, the scene's ``[factions] players`` and the ``[players]`` hand (a stand-in
    Player1 becomes Ann). OLD is matched whatever its case (a typo: the nearest Player);
    NEW must not already play a unit or hold a hand (that would merge two Players)."""
    every = players(data)
    if not every:
        raise BadInput("this session has no Player to rename (d2d unit side NAME --player P)")
    was = matched(old, every, "Player", otherwise="")
    if was not in every:  # matched() lets a name through only when it knows none
        raise BadInput(f"no Player {old!r} in this session (Players: {', '.join(every)})")
    now = check_player(new)
    if now is None:
        raise BadInput(f"{new!r} is no Player's name: to make {was}'s units Non-Players, "
                       "d2d unit side NAME --player Non-Player")
    hands = data.get("players") or {}
    busy = {p.lower(): p for p in [*every, *hands] if p != was and (units_of(data, p)
                                                                    or p in hands)}
    if now.lower() in busy:
        other = busy[now.lower()]
        raise BadInput(f"{other} already plays a unit or holds a hand: give {was}'s units "
                       f"with d2d unit side NAME --player {other}")
    moved = []
    for name, unit in (data.get("units") or {}).items():
        if player_of(unit) == was:
            unit["player"] = now
            moved.append(name)
    for f in ((data.get("scene") or {}).get("factions") or {}).values():
        if isinstance(f, dict) and isinstance(f.get("players"), list):
            f["players"] = list(dict.fromkeys(now if p == was else p for p in f["players"]))
    held = was in hands
    if held:
        data["players"] = {now if p == was else p: h for p, h in hands.items()}
    said = f"player {was} is now {now}" + (f" ({', '.join(moved)})" if moved else "") + (
        ", with the hand" if held else "")
    return Renamed(was, now, tuple(moved), held, said)
