"""The map types and what one Move counts on each: Move and Action Cost of a Speed on
a map (000 l.1041–1071 "Map Types"; 001 l.459–463), and the conversions they read (a
Speed stat in m/s by its convention, a map's key).

The one rule for them (``round start``, ``status``, ``scale map``, ``scene`` and the
Status Bar of a unit not yet refreshed all call :func:`move_tokens`). A module of its
own, so a lookup that needs a unit's Move imports neither the quantities' readings nor
their records and patterns (:mod:`d2d_cli.rules.scale.quantities`, which re-exports
these names); the arithmetic is the same exact :class:`fractions.Fraction` one.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import record
from d2d_cli.rules.scale.stats import Stat, parse_stat

CONVENTIONS = ("001", "000")
DEFAULT_CONVENTION = "001"

KPH = Fraction(5, 18)  # one km/h in m/s


def check_convention(convention: object) -> str:
    if str(convention) not in CONVENTIONS:
        raise BadInput(f"speed convention {convention!r} is not one of 001 (the level counts "
                       "km/h) or 000 (below 20 km/h it counts m/s)")
    return str(convention)


def counts_mps(value: Fraction, convention: str, *, from_stat: bool) -> bool:
    """000 "Units > Speed": "Below 20 kph - Running Speed in m/s". For a real speed the
    test is its km/h; for a stat, its number (below 20 it is m/s: 2x1 = 20 kph)."""
    if convention != "000":
        return False
    below = Fraction(tables.load("units")["speed"]["conventions"]["000"]["below_kph"])
    return value < below if from_stat else value / KPH < below


def speed_mps(stat: Stat, convention: str = DEFAULT_CONVENTION) -> tuple[Fraction, str]:
    """A Speed stat → (its real speed in m/s, the unit its level counts)."""
    v = Fraction(stat.exact)
    if counts_mps(v, convention, from_stat=True):
        return v, "m/s"
    return v * KPH, "km/h"


def map_types() -> list[str]:
    return list(tables.load("maps"))


def map_key(text: str) -> str:
    """A map type as a scene file or ``scale map`` names it: ``personal``, ``Personal
    Map``, ``CAR`` → its key."""
    maps = tables.load("maps")
    key = str(text).strip().lower().removesuffix(" map").strip()
    if key not in maps:
        raise BadInput(f"unknown map type {text!r} — known: {', '.join(maps)}")
    return key


@record
class MoveTokens:
    """A unit's Move and Action Cost on a map (:func:`move_tokens`). ``spaces``: the
    exact Move before rounding down (None on a map without a scale)."""

    move: int
    action_cost: int
    spaces: Fraction | None


def move_1_mps(spec: dict[str, Any], opts: Options) -> Fraction | None:
    """The real speed (m/s) one Move stands for on a map; None where it has no scale."""
    if "move_1_stat" in spec:
        return speed_mps(parse_stat(spec["move_1_stat"]), opts.speed_convention)[0]
    if "move_1_kph" in spec:
        return Fraction(spec["move_1_kph"]) * KPH
    space, rnd = geometry(spec, opts)
    return space / rnd if space is not None and rnd is not None else None


def geometry(spec: dict[str, Any], opts: Options) -> tuple[Fraction | None, Fraction | None]:
    round_s = spec.get("round_s")
    if spec.get("round_key"):
        round_s = str(getattr(opts, spec["round_key"]))
    space = Fraction(spec["space_m"]) if "space_m" in spec else None
    return space, (Fraction(round_s) if round_s is not None else None)


def move_tokens(speed: Stat, key: str, opts: Options = DEFAULTS) -> MoveTokens:
    """Move and Action Cost of a unit whose Speed is ``speed`` on map ``key`` — the one
    rule ``round start``, ``status``, ``scale map`` and ``scene`` all use
    (docs/rules.md "Move and Action Cost").

    Move = the Speed divided by what one Move counts on the map, rounded down (a unit
    never enters part of a Space): on the Personal Map one Move per Speed 1x0, so Move
    = Speed (001 l.463 "Move = Speed"; a 4x1 tank is Speed 40, a 5x-1 snail 0.5); on
    the Car, Naval and Aerial Maps the printed "Move:1 = 10kph / 50kph / 100kph" (000
    l.1053, 1057, 1061); on the Planetary Map one Space per Round; on a map without a
    scale, the Speed Level. Only the whole Level counts (a partial is "only used in
    rare circumstances", 000 l.720).

    Action Cost = Move ÷ 2 rounded down (001 l.461 "Action Cost = Speed/2 (round
    down)"; 000 l.286 "half starting Move (rounded down)"), and at least 1: an Action
    is never free (a Move of 0 or 1 would make it cost nothing).
    """
    return _move_tokens(speed.level, speed.scale, key, opts)


@lru_cache(maxsize=1024)  # every unit at every Refresh: a few Speeds, maps and [rules]
def _move_tokens(level: int, scale: int, key: str, opts: Options) -> MoveTokens:
    spec = tables.load("maps")[map_key(key)]
    whole = Stat(level, scale)
    rate = move_1_mps(spec, opts)
    if rate is None:
        spaces, move = None, whole.level
    else:
        spaces = speed_mps(whole, check_convention(opts.speed_convention))[0] / rate
        move = math.floor(spaces)
    return MoveTokens(move, max(1, move // 2), spaces)
