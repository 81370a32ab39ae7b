"""The Status Bar (001 l.459 "Refresh - Place tokens on each Unit# card"): each unit's
Move and Action Cost as the bar shows them, and the Speed they come from. A module of its
own, light to import: ``unit list``, ``unit show`` and every command that prints a unit's
row need these, not the round's procedures (``rules.time.rounds`` uses them too).
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from d2d_cli.rules.core import by_identity, lazy_module
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import fields
from d2d_cli.rules.scale.stats import Stat
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units import roster as units

if TYPE_CHECKING:  # imported when a Refresh's tokens are first worked out (tokens_of)
    from d2d_cli.rules.scale import maps as scale
else:  # rules.core.lazy_module: no import statement at every Refresh
    scale = lazy_module("d2d_cli.rules.scale.maps", globals(), "scale")

# :func:`bar_tokens`'s memo between processes (``session.memo``: the session package
# names this module among those that keep one, so an edit of it is a new build).
MEMO = __name__


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
    level = stat.level + change
    if change == 0 and level >= 0 and stat.partial is None:
        return stat  # the very Stat (immutable): what the Stat made below would hold
    return Stat(level if level > 0 else 0, stat.scale)


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


def on_the_bar(unit: units.Unit, map_key: str, opts: Options = DEFAULTS,
               known: MutableMapping[Any, Any] | None = None) -> tuple[int | None, int | None]:
    """(Move, Action Cost) as the Status Bar shows them: the tokens placed at the last
    Refresh, or before the unit's first one, those it would get.

    ``known``: the answers of :func:`bar_tokens` worked out before, by its arguments
    (a lookup's memo, kept between processes: ``session.memo``), read and added to."""
    if unit.move is not None:
        return unit.move, unit.action_cost
    speed = speed_now(unit, opts.refresh_penalties)
    if speed is None:
        return None, None
    if known is None:
        return bar_tokens(speed.level, speed.scale, map_key, opts)
    ask = (speed.level, speed.scale, map_key, _values(opts))
    got = known.get(ask)
    if got is None:
        got = known[ask] = bar_tokens(speed.level, speed.scale, map_key, opts)
    return got


def bar_tokens(level: int, scale_: int, map_key: str, opts: Options
               ) -> tuple[int, int]:
    """The Move and Action Cost the Refresh gives a Speed of ``level`` x ``scale_`` on
    ``map_key`` (``rules.scale.maps.move_tokens``, the one rule): a pure function of its
    arguments, so :func:`on_the_bar` may take its answer from a memo."""
    got = scale.move_tokens(Stat(level, scale_), map_key, opts)
    return got.move, got.action_cost


def _all_values(opts: Options) -> tuple[Any, ...]:
    """Every ``[rules]`` choice, in order: the options part of a memo's key (all of them,
    so the key holds whatever the Move rule reads, today or in a later version)."""
    return tuple(getattr(opts, f.name) for f in fields(opts))


# :func:`_all_values` of the very Options object: a Status Bar asks it for each unit of
# the roster (1,000 in a long campaign), all with the one Options (frozen) of the call
_values: Callable[[Options], tuple[Any, ...]] = by_identity(_all_values, 8)


def status_bar(data: dict[str, Any], opts: Options = DEFAULTS,
               known: MutableMapping[Any, Any] | None = None) -> units.Roster:
    """The Status Bar of the session's ``data`` (001 l.459 "Refresh - Place tokens on
    each Unit# card"; before a unit's first Refresh it shows what the Refresh will give,
    on the scene's map)."""
    where = map_of(data)
    return units.Roster(tuple(_on_bar_row(u, where, opts, known)
                              for u in units.roster(data).values()))


def unit_on_bar(data: dict[str, Any], name: str, opts: Options = DEFAULTS,
                known: MutableMapping[Any, Any] | None = None) -> units.UnitRow:
    """One unit's Status Bar row (``unit show``), the same as in :func:`status_bar`; only
    that unit is built (a RosterView: its row's Move is set on that throwaway copy)."""
    return _on_bar_row(units.find(units.roster_view(data), name), map_of(data), opts, known)


def _on_bar_row(unit: units.Unit, where: str, opts: Options,
                known: MutableMapping[Any, Any] | None = None) -> units.UnitRow:
    move, cost = on_the_bar(unit, where, opts, known)
    unit.move, unit.action_cost = move, cost  # this copy only: nothing is stored
    return units.status_row(unit)
