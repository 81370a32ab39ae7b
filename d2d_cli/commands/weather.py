"""``d2d weather …`` — wind direction and speed from Fate reveals (000 "Weather")."""

from __future__ import annotations

from typing import Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _reveal, _state
from d2d_cli.rules.deck.cards import names as card_names
from d2d_cli.rules.time import weather

app = _app.group("weather")


@app.command(short_help="Reveal the wind: its direction and speed.")
def wind(ctx: typer.Context, card: _reveal.CardOpt = None, json: _app.JsonOpt = False) -> None:
    """Reveal the wind: direction from a d8 (N, S, E, W, NE, NW, SE, SW), speed from 3
    reveals where each J, Q, K or A adds 10 km/h and draws again. Stored as the scene's
    weather.

    Table mode reads the direction card(s) first, then the speed cards.
    Example: d2d weather wind --card 5Sv --card 3H --card KC --card 9D --card 2S
    """
    from d2d_cli.operations import weather as ops

    render.emit(ops.wind(_state.target(ctx), card=card), _show, as_json=json)


@app.command()
def show(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """The scene's current weather.

    Example: d2d weather show --json
    """
    from d2d_cli.operations import weather as ops

    render.emit(ops.show(_state.target(ctx)), _show, as_json=json)


def _show(con: Any, r: weather.Wind | weather.WeatherShown) -> None:
    stat = f", Speed {r.speed_stat}" if r.speed_stat else ""
    con.print(f"[bold]Wind:[/] direction {r.direction}, {r.speed_kph} km/h — "
              f"{r.beaufort} (Beaufort {r.beaufort_number}{stat})")
    con.print(f"[dim]Cards: {card_names(r.cards)}[/]")
