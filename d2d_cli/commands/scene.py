"""``d2d scene …`` — load a scene file into the session, and show the scene."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.operations import scene as ops
from d2d_cli.operations.scene import read_scene_file as read_scene_file  # sim reads it
from d2d_cli.rules.overview import scene

app = _app.group("scene")


@app.command(short_help="Set up a scene: map, factions, units, tasks, clock.")
def load(ctx: typer.Context,
         file: Annotated[str, typer.Argument(metavar="FILE.toml", click_type=_complete.SCENE,
                                             help="A scene file (a regular file up to "
                                                  "1 MiB), or a built-in scene: combat1.")],
         json: _app.JsonOpt = False) -> None:
    """Set up a scene: name, map, factions and goals, units, tasks, the clock and its
    events. Replaces the last scene (characters stay on the roster).

    Example: d2d scene load combat1   (or a file of your own: d2d scene load cave.toml)
    """
    render.emit(ops.load(_state.target(ctx), file), _show, as_json=json)


@app.command()
def show(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """The scene: map, factions and goals, units, tasks, the clock.

    Example: d2d scene show
    """
    render.emit(ops.show(_state.target(ctx)), _show, as_json=json)


def _unit_line(u: scene.SceneUnit) -> str:
    stats = " ".join(f"{k.title()} {v}" for k, v in u.stats)
    if u.move is None:
        return stats
    return f"{stats} — Move {u.move}, Action Cost {u.action_cost}"


def _show(con: Any, r: scene.SceneView) -> None:
    con.print(f"[bold]{render.escape(r.name)}[/] — {r.map_name}")
    if r.backstory:
        con.print(f"[dim]{render.escape(r.backstory)}[/]")
    for name, f in r.factions.items():
        con.print(f"[bold]{render.escape(name)}[/] — goal: {render.escape(f['goal'])}")
        for u in r.units:
            if u.faction == name:
                con.print(f"  {render.escape(u.name)}: {_unit_line(u)}")
    for u in r.units:
        if u.faction not in r.factions:
            con.print(f"  {render.escape(u.name)} [dim](no faction)[/]")
    for t in r.tasks:
        con.print(f"Task {render.escape(t.name)}: Difficulty {t.difficulty}, Challenge "
                  f"{t.challenge}, Progress {t.progress}")
    con.print(f"Clock: {r.clock}")
    for e in r.timed_events:
        con.print(f"  #{e.at}: {render.escape(e.text)}{' (done)' if e.done else ''}")
    for x in r.random_events:
        con.print(f"  random {x.k}/{x.n}: {render.escape(x.text)}")
    on_board = {u.name for u in r.units}
    for n in (n for n in r.reserves if n not in on_board):
        con.print(f"  in reserve: {render.escape(n)}")
