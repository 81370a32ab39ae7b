"""The scene's weather: the wind (docs/rules.md "Weather")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from d2d_cli.operations import Target, cards, reveals

if TYPE_CHECKING:
    from d2d_cli.rules.time import weather


def wind(t: Target, *, card: list[str] | None = None) -> weather.Wind:
    """``d2d weather wind [--card CARD]…``: direction from a d8, speed from 3 reveals;
    stored as the scene's weather."""
    from d2d_cli.rules.time import weather

    with t.edit() as tx, reveals(tx, cards(card)) as reveal:
        result = weather.wind(reveal, t.options(tx.data).speed_convention)
        tx.put("weather", result.state())
        tx.summary = f"wind {result.direction} {result.speed_kph} km/h"
    return result


def show(t: Target) -> weather.WeatherShown:
    """``d2d weather show``: the scene's current weather."""
    from d2d_cli.rules.time import weather

    return weather.shown(t.read().get("weather"))
