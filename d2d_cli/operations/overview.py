"""What a table looks at: the dashboard (``d2d status``) and the map (``d2d board``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from d2d_cli import session
from d2d_cli.errors import RuleViolation
from d2d_cli.operations import Target, on_the_bar

if TYPE_CHECKING:
    from d2d_cli.rules.board.view import BoardView
    from d2d_cli.rules.overview.dashboard import Dashboard


def status(t: Target, *, carries: bool = False) -> Dashboard:
    """``d2d status [--why]``: round, clock, tasks, weather and every unit's row (with
    ``carries``, as ``--why``: what each unit carries, its weapons checked)."""
    from d2d_cli.rules.overview.dashboard import dashboard
    from d2d_cli.rules.units import status_bar

    data = t.read(shared=True)  # the dashboard only reads it (tests/test_play_reads.py)
    opts, where = t.options(data), status_bar.map_of(data)
    # Before a unit's first Refresh, Move and Action Cost are what it will give: worked
    # out once a build (session.memo), not by every lookup.
    return on_the_bar(lambda known: dashboard(
        data, bar=lambda u: status_bar.on_the_bar(u, where, opts, known),
        same=(where, opts), carries=carries))


def board(t: Target, *, svg: str | Path | None = None, force: bool = False) -> BoardView:
    """``d2d board [--svg FILE [--force]]``: the map with its units (and, with ``svg``,
    the drawing written to that file: an existing one only with ``force``, never through
    a symlink nor over a session — session.outputs)."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.board.view import view
    from d2d_cli.rules.units.roster import roster

    data = t.read()
    drawn = board_of(data)
    if drawn is None:
        raise RuleViolation("the session has no map: load a scene with a [board] (d2d "
                            "scene load combat1; docs/board.md)")
    result = view(drawn, roster(data).values())
    if data.get("fog"):  # the Narrator's map shows everything, the fog marked
        from d2d_cli.rules.board import fog
        from d2d_cli.rules.board.view import with_fog

        f = fog.of(data, drawn)
        if f is not None:
            result = with_fog(result, drawn, f)
    if svg is not None:
        from d2d_cli import mapview

        name = str(data.get("scene", {}).get("name") or "d2d board")
        session.write_output(svg, mapview.svg(result, name), force=force, protect=(t.path(),))
    return result
