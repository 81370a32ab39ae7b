"""``d2d player …`` — the table's Players by name (000 "1. Setup": "Units - Assign the
Units in the Factions to the Players")."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _state
from d2d_cli.operations import players as ops
from d2d_cli.rules.units import sides

app = _app.group("player")


@app.command(short_help="Rename a Player: units, hand and the scene's list follow.")
def rename(ctx: typer.Context,
           old: Annotated[str, typer.Argument(help="The Player's name now (any case).")],
           new: Annotated[str, typer.Argument(help="The new name.")],
           json: _app.JsonOpt = False) -> None:
    """Rename a Player: a stand-in (Player1) becomes Ann with the units, the hand and the
    place in the scene's list of Players that were Player1's. The new name must not
    already play a unit or hold a hand. d2d serve gives the new name its own link.

    Example: d2d player rename Player1 Ann
    """
    render.emit(ops.rename(_state.target(ctx), old, new), _show, as_json=json)


def _show(con: Any, r: sides.Renamed) -> None:
    con.print(render.escape(r.summary))
