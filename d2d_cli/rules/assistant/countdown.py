"""``npc turn --all`` one Count at a time (docs/rules.md "The Countdown never rises").

001 l.499–513 "Countdown - Each Group counts down from 10 / One each Count, do one of
the following: Wait … Movement - Move somewhere … Action - Perform an Action"; 000
l.124 "Simultaneous - All Units that choose to Move, move simultaneously"; 000 l.126
"Interrupt - IF your Move is Interrupted by an Action THEN stop moving, resolve the
Action, and then continue your Move".

The Countdown is walked as ``round next`` reads it (rules.time.groups.reached, each
unit's Count by rules.units.unit_state.reach): at each Count every Non-Player it reaches
does one thing — one ``unit move`` (a Movement), or its Action (``unit act`` and the
exchange that follows), as its plan (rules.assistant.policy.plan, made afresh at that
Count) says. Where the Count reaches a Player's unit, the walk stops and says so: by
default before the Non-Players at that Count (``[rules] shared_count = "players"``:
the Player acts first), or after them (``"npcs"``). A Non-Player whose plan has
nothing left to do this round (out of reach, nothing to work) takes no more Counts, as
in ``sim``.
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from d2d_cli.rules.assistant import policy, sim
from d2d_cli.rules.assistant.asking import can_respond
from d2d_cli.rules.assistant.engine import Table, player_of
from d2d_cli.rules.assistant.goals import Goal, is_down
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result

# [rules] shared_count: who takes a Count first when it reaches a Player's unit and a
# Non-Player together (docs/rules.md "npc turn --all, one Count at a time").
PLAYERS_FIRST = "players"
SHOWN = 6  # the Players' units a stop spells out what to type for
NPCS_FIRST = "npcs"


@record
class Stop(Result):
    """Where ``npc turn --all`` stopped: the Count that reaches Players' units, those
    units and their Players (in roster order), and what to type next."""

    count: int
    units: tuple[str, ...]
    players: tuple[str, ...]
    type: tuple[str, ...]

    @property
    def summary(self) -> str:
        who = ", ".join(f"{u} ({p})" for u, p in zip(self.units, self.players, strict=True))
        return (f"Stopped at Count {self.count}: {who} may act"
                + (f" — then: {self.type[-1]}" if self.type else ""))


def _standing(u: Mapping[str, Any]) -> bool:
    """Reached by the Countdown at all (as ``round next`` lists it): Move left, on the
    table, not Dead (000 l.1172)."""
    return bool(u.get("move")) and not u.get("off_map") and \
        not (u.get("conditions") or {}).get("dead")


def _able(u: Mapping[str, Any]) -> bool:
    """A Non-Player the policy plays this round (as ``sim`` does): Move that pays an
    Action, or a Dying unit on the map with a step left to withdraw."""
    if u.get("off_map") or u.get("move") is None:
        return False
    if is_down(u):
        return int(u["move"]) >= 1 and bool(u.get("space")) and \
            not (u.get("conditions") or {}).get("dead")
    return can_respond(u)


def _next_command(again: Sequence[str] | None) -> str:
    return shlex.join(["d2d", "npc", "turn", *(again or ["--all"])])


def play(t: Table, goals: Mapping[str, Goal], names: Sequence[str],
         players: Collection[str] | None, plans: list[policy.Plan], counts: list[int],
         passed: set[str], again: Sequence[str] | None = None
         ) -> tuple[str | None, Stop | None]:
    """Walk the Countdown for the Non-Player units ``names``: at each Count every one it
    reaches does one thing (:func:`one_count`), until none is left to play (``(None,
    None)``), a goal is reached (``(faction, None)``) or the Count reaches a Player's
    unit (``(None, Stop)``). ``players``: the Players' units whose Counts stop it (None:
    every Player's unit standing; ``--group N``: those of the Group). ``plans`` and
    ``counts`` get each plan carried out and the Count it was played at; ``passed``
    holds the units with nothing left to do this round (kept across calls)."""
    from d2d_cli.rules.time.groups import reached
    from d2d_cli.rules.units.unit_state import reach_of

    first = t.opts.shared_count
    while True:
        units = t.units()
        number = t.round().number
        ours = {n: reach_of(units[n], number) for n in names
                if n not in passed and n in units and _able(units[n])}
        ours = {n: c for n, c in ours.items() if c > 0}
        if not ours:
            return None, None
        theirs = {n: reach_of(u, number) for n, u in units.items()
                  if player_of(u) is not None and _standing(u)
                  and (players is None or n in players)}
        count, at = reached({n: c for n, c in ((n, ours.get(n, theirs.get(n, 0)))
                                                for n in units) if c > 0})
        waiting = [n for n in at if n in theirs]
        playing = [n for n in at if n in ours]
        if waiting and (first == PLAYERS_FIRST or not playing):
            return None, _stop(t, count, waiting, again)
        for name in playing:
            u = t.units()[name]
            # an earlier unit at this Count may have changed it (attacked it: its Target's
            # Action takes its Count; brought it down)
            if not _able(u) or reach_of(u, number) != count:
                continue
            counts.append(count)  # one_count adds its plan (before it may stop to ask)
            winner = one_count(t, name, goals, plans)
            if winner is not None:
                return winner, None
            if reach_of(t.units()[name], number) >= count:
                passed.add(name)  # it did nothing at this Count: nothing left to do


def _stop(t: Table, count: int, waiting: list[str], again: Sequence[str] | None) -> Stop:
    units = t.units()
    owners = tuple(str(player_of(units[n])) for n in waiting)
    typed = [f"d2d unit act|move {shlex.quote(n)} …  or  d2d unit wait "
             f"{shlex.quote(n)} {count}" for n in waiting[:SHOWN]]
    if len(waiting) > SHOWN:  # the units are all in ``units``; the lines stay readable
        typed.append(f"… and the same for {len(waiting) - SHOWN} more (d2d round next)")
    return Stop(count, tuple(waiting), owners, (*typed, _next_command(again)))


def _goal(t: Table, goals: Mapping[str, Goal]) -> str | None:
    from d2d_cli.rules.assistant.goals import reached

    return next((f for f, g in goals.items() if reached(g, t.data)), None)


def one_count(t: Table, name: str, goals: Mapping[str, Goal],
              plans: list[policy.Plan]) -> str | None:
    """One Count of a Non-Player's turn (001 l.499–505 "One each Count, do one of the
    following"): its plan made now (``policy.plan``), then its next Movement — one
    ``unit move``, so another unit may act between two of them (000 l.126) — or, with
    no Movement left, its Action (``unit act`` and the Conflict, Hits and Crit of
    ``sim.exchange``) or its step off the map. A plan with nothing left does nothing.
    Returns the faction whose goal is reached, if one is."""
    p = policy.plan(t.data, name, goals, t.opts, None)
    plans.append(p)
    t.acting = len(plans) - 1
    if p.moves:
        t.move(name, *p.moves[0])
        return None
    if p.action == "leave":
        t.leave(name, *p.leaves)
        return _goal(t, goals)
    if p.action in ("attack", "task"):
        sim.exchange(t, p, goals)
        return _goal(t, goals)
    return None
