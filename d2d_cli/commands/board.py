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
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")
                     ] = False,
    legend: Annotated[bool, typer.Option(
        "--legend", help="Show the legend and how to read the map (shown once in d2d "
        "play, and with --why).")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Draw the map: its Spaces (columns A, B, … from the west, rows 1, 2, … from the
    north), obstacles and terrain by their legend character, and each placed unit as
    a label and an arrow for its Facing; then where each unit stands (the legend with
    --legend or --why, and the first time in d2d play).
    A map too wide for the terminal is drawn in strips of columns.

    JSON: columns, rows, first_column, last_column, grid (the rows of legend
    characters), legend [{symbol, name, enter, cover, sight, elevation, move}], units
    [{label, name, faction, space, spaces, facing, double}], unplaced, left (the units
    that left the map at its edge: d2d unit leave).

    Example: d2d board --svg combat1.svg
    """
    from d2d_cli.operations.overview import board as drawn

    t = _state.target(ctx)
    result = drawn(t, svg=svg, force=force)
    render.emit(result, lambda con, r: _show(con, r, legend or _first_in_play(t)),
                as_json=json)


# The sessions whose legend this process has shown: in d2d play (one process) the
# first `board` of a session shows it, the next ones only the map.
_LEGEND_SHOWN: set[str] = set()


def _first_in_play(t: Any) -> bool:
    from d2d_cli import env

    if env.current().explained is None:  # a one-shot command: --legend asks for it
        return False
    key = str(t.path())
    first = key not in _LEGEND_SHOWN
    _LEGEND_SHOWN.add(key)
    return first


def _show(con: Any, r: Any, legend: bool = False) -> None:
    from d2d_cli import mapview

    for line in mapview.lines(r, con.width or 80, legend=legend or render.why()):
        con.print(line)
