"""``d2d status`` — the Status Bar: the view a Narrator keeps open during a scene."""

from __future__ import annotations

from typing import Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.rules import rounds, units

app = c.single("status")


@app.command()
def status(ctx: typer.Context, json: c.JsonOpt = False) -> None:
    """Every unit: stats after conditions, conditions, Move, Action Cost, Turn, target.

    Move, Action Cost and Turn are the tokens of the round's Refresh (001 p.19 "Round:
    Start": "Action Cost = Speed/2 (round down), Move = Speed, Turn = 2"). Before a
    unit's first d2d round start, Move and Action Cost show what the Refresh will give
    on the scene's map, and Turn shows "—". Example: d2d status
    """
    data = c.read(ctx)
    render.emit(rounds.status_bar(data, c.options(ctx, data)), _show, as_json=json)


def _show(con: Any, r: units.Roster) -> None:
    from d2d_cli.commands.units import show_table

    show_table(con, r)
