"""``d2d board`` — the map with its units, Facing and obstacles (docs/board.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _state

app = _app.single("board")


@app.command()
def board(
    ctx: typer.Context,
    svg: Annotated[Path | None, typer.Option(
        "--svg", metavar="FILE", help="Also write the map as an SVG picture to FILE (open "
        "it in a browser).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Draw the map: its Spaces (columns A, B, … from the west, rows 1, 2, … from the
    north), obstacles and terrain by their legend character, and each placed unit as
    a label and an arrow for its Facing; then the legend and where each unit stands.
    A map too wide for the terminal is drawn in strips of columns.

    JSON: columns, rows, first_column, last_column, grid (the rows of legend
    characters), legend [{symbol, name, enter, cover, sight, elevation, move}], units
    [{label, name, faction, space, spaces, facing, double}], unplaced, left (the units
    that left the map at its edge: d2d unit leave).

    Example: d2d board --svg combat1.svg
    """
    from d2d_cli.operations.overview import board as drawn

    result = drawn(_state.target(ctx), svg=svg)
    render.emit(result, _show, as_json=json)


def _show(con: Any, r: Any) -> None:
    from d2d_cli import mapview

    for line in mapview.lines(r, con.width or 80):
        con.print(line)
