"""The Status Bar (001 l.459 "Refresh - Place tokens on each Unit# card"): each unit's
Move and Action Cost as the bar shows them, and the Speed they come from. A module of its
own, light to import: ``unit list``, ``unit show`` and every command that prints a unit's
row need these, not the round's procedures (:mod:`d2d_cli.rules.time.rounds` uses them too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.scale.stats import Stat
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units import roster as units

if TYPE_CHECKING:  # imported when a Refresh's tokens are first worked out (tokens_of)
    from d2d_cli.rules.scale import maps as scale
else:  # rules.core.lazy_module: no import statement at every Refresh
    scale = lazy_module("d2d_cli.rules.scale.maps", globals(), "scale")


def map_of(data: dict[str, Any]) -> str:
    """The map the session's scene is played on; without a scene, the Personal Map
    ("On normal Maps, a Round is 6 seconds", 001 l.457)."""
    return str(data.get("scene", {}).get("map", "personal"))


def speed_now(unit: units.Unit, penalties: bool = True) -> Stat | None:
    """The Speed stat less its condition penalties on the Level, never below 0 (``[rules]
    refresh_penalties = false``: the printed Speed)."""
    stat = unit.stats.get("speed")
    if stat is None:
        return None
    change = conditions.penalties(unit.conditions).get("speed", 0) if penalties else 0
    return Stat(max(0, stat.level + change), stat.scale)


def tokens(unit: units.Unit, map_key: str, opts: Options = DEFAULTS
           ) -> scale.MoveTokens | None:
    """The Move and Action Cost the Refresh gives ``unit`` on ``map_key`` (None: no Speed)."""
    return tokens_of(speed_now(unit, opts.refresh_penalties), map_key, opts)


def tokens_of(speed: Stat | None, map_key: str, opts: Options = DEFAULTS
              ) -> scale.MoveTokens | None:
    """:func:`tokens` from the unit's Speed after penalties (``speed_now``), already read.

    The Move rule's module (:mod:`d2d_cli.rules.scale.maps`: ``fractions``, ``decimal``
    and the map tables) is imported here, when first used: a Status Bar whose units all
    hold the tokens of their last Refresh never needs it."""
    if speed is None:
        return None
    return scale.move_tokens(speed, map_key, opts)


def on_the_bar(unit: units.Unit, map_key: str, opts: Options = DEFAULTS
               ) -> tuple[int | None, int | None]:
    """(Move, Action Cost) as the Status Bar shows them: the tokens placed at the last
    Refresh, or before the unit's first one, those it would get."""
    if unit.move is not None:
        return unit.move, unit.action_cost
    got = tokens(unit, map_key, opts)
    return (None, None) if got is None else (got.move, got.action_cost)


def status_bar(data: dict[str, Any], opts: Options = DEFAULTS) -> units.Roster:
    """The Status Bar of the session's ``data`` (001 l.459 "Refresh - Place tokens on
    each Unit# card"; before a unit's first Refresh it shows what the Refresh will give,
    on the scene's map)."""
    where = map_of(data)
    return units.Roster(tuple(_on_bar_row(u, where, opts)
                              for u in units.roster(data).values()))


def unit_on_bar(data: dict[str, Any], name: str, opts: Options = DEFAULTS) -> units.UnitRow:
    """One unit's Status Bar row (``unit show``), the same as in :func:`status_bar`; only
    that unit is built (a RosterView: its row's Move is set on that throwaway copy)."""
    return _on_bar_row(units.find(units.roster_view(data), name), map_of(data), opts)


def _on_bar_row(unit: units.Unit, where: str, opts: Options) -> units.UnitRow:
    move, cost = on_the_bar(unit, where, opts)
    unit.move, unit.action_cost = move, cost  # this copy only: nothing is stored
    return units.status_row(unit)
