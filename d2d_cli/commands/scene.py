"""``d2d scene …`` — load a scene file into the session, and show the scene."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.errors import BadInput
from d2d_cli.rules.overview import scene

app = _app.group("scene")


def read_scene_file(spec: str) -> tuple[str, dict[str, Any]]:
    """A path to a TOML file, or a built-in scene's name (``combat1``)."""
    if spec in scene.BUILT_IN and not Path(spec).exists():
        import copy

        from d2d_cli import tables

        # A copy: the loaded scene is changed as it is applied, the table is shared.
        return f"built-in scene {spec}", copy.deepcopy(tables.load(f"scenes/{spec}"))
    else:
        try:
            text = _read_bounded(Path(spec)).decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise BadInput(f"cannot read scene file {spec}: {getattr(e, 'strerror', e) or e} "
                           f"— give a .toml path or a built-in scene "
                           f"({', '.join(scene.BUILT_IN)})") from None
        label = spec
    try:
        return label, tomllib.loads(text)
    except RecursionError:
        raise BadInput(f"{label}: nested too deeply to be a scene file") from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        where = f"line {m.group(1)}, column {m.group(2)}" if m else "?"
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e)) or "TOML syntax error"
        raise BadInput(f"{label}: {where}: {msg}") from None


MAX_SCENE_BYTES = 1 << 20  # docs/commands.md: a scene file is a regular file up to 1 MiB


def _read_bounded(path: Path) -> bytes:
    """A scene file's bytes: a regular file of at most MAX_SCENE_BYTES (the session
    module's bounded reader: a FIFO, device or folder is refused without waiting on it,
    /dev/zero is never read)."""
    from d2d_cli.session.files import read_limited

    data = read_limited(path, MAX_SCENE_BYTES, "a scene file", BadInput)
    if data is None:
        raise FileNotFoundError(2, "No such file or directory", str(path))
    return data


@app.command()
def load(ctx: typer.Context,
         file: Annotated[str, typer.Argument(metavar="FILE.toml", click_type=_complete.SCENE,
                                             help="A scene file (a regular file up to "
                                                  "1 MiB), or a built-in scene: combat1.")],
         json: _app.JsonOpt = False) -> None:
    """Set up a scene: name, map, factions and goals, units, tasks, the clock and its
    events. Replaces the last scene (characters stay on the roster).

    Example: d2d scene load combat1   (or a file of your own: d2d scene load cave.toml)
    """
    label, raw = read_scene_file(file)
    with _state.edit(ctx) as tx:
        sections, result = scene.load(raw, tx.data, _state.options(ctx, tx.data))
        for key, value in sections.items():
            tx.put(key, value)
        tx.summary = f"scene {result.name!r} loaded from {label}"
    render.emit(result, _show, as_json=json)


@app.command()
def show(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """The scene: map, factions and goals, units, tasks, the clock.

    Example: d2d scene show
    """
    data = _state.read(ctx)
    render.emit(scene.view(data, _state.options(ctx, data)), _show, as_json=json)


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
