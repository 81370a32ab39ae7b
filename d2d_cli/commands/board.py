"""``d2d board`` — the map with its units, Facing and obstacles (docs/board.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _state
from d2d_cli.errors import RuleViolation

app = _app.single("board")


@app.command()
def board(
    ctx: typer.Context,
    svg: Annotated[Path | None, typer.Option(
        "--svg", metavar="FILE", help="Also write the map as an SVG picture to FILE (open "
        "it in a browser).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")
                     ] = False,
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
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.board.view import view
    from d2d_cli.rules.units.roster import roster

    data = _state.read(ctx)
    drawn = board_of(data)
    if drawn is None:
        raise RuleViolation("the session has no map: load a scene with a [board] (d2d "
                            "scene load combat1; docs/board.md)")
    result = view(drawn, roster(data).values())
    if svg is not None:
        from d2d_cli import mapview
        from d2d_cli.session import outputs

        name = str(data.get("scene", {}).get("name") or "d2d board")
        outputs.write(svg, mapview.svg(result, name), force=force,
                      protect=[_state.path(ctx)])
    render.emit(result, _show, as_json=json)


def _show(con: Any, r: Any) -> None:
    from d2d_cli import mapview

    for line in mapview.lines(r, con.width or 80):
        con.print(line)
