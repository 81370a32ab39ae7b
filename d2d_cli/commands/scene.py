"""``d2d scene …`` — load a scene file into the session, and show the scene."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.errors import BadInput, NotFound
from d2d_cli.rules import scene

app = c.group("Load and show a scene file (units, tasks, clock, events).")


def read_scene_file(spec: str) -> tuple[str, dict[str, Any]]:
    """A path to a TOML file, or a built-in scene's name (``combat1``)."""
    if spec in scene.BUILT_IN and not Path(spec).exists():
        from importlib.resources import files

        text = files("d2d_cli.tables").joinpath(f"scenes/{spec}.toml").read_text("utf-8")
        label = f"built-in scene {spec}"
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
    """A scene file's bytes: a regular file of at most MAX_SCENE_BYTES. A FIFO, device or
    folder is refused without waiting on it (O_NONBLOCK), /dev/zero is never read."""
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput(f"cannot read scene file {path}: not a regular file")
        data = b""
        while len(data) <= MAX_SCENE_BYTES:
            block = os.read(fd, MAX_SCENE_BYTES + 1 - len(data))
            if not block:
                break
            data += block
    finally:
        os.close(fd)
    if len(data) > MAX_SCENE_BYTES or st.st_size > MAX_SCENE_BYTES:
        raise BadInput(f"scene file {path} is over {MAX_SCENE_BYTES:,} bytes; a scene file "
                       "is a small TOML file")
    return data


@app.command()
def load(ctx: typer.Context,
         file: Annotated[str, typer.Argument(metavar="FILE.toml",
                                             help="A scene file (a regular file up to "
                                                  "1 MiB), or a built-in scene: combat1.")],
         json: c.JsonOpt = False) -> None:
    """Set up a scene: name, map, factions and goals, units, tasks, the clock and its
    events. Replaces the last scene (characters stay on the roster).

    Example: d2d scene load examples/combat1.toml
    """
    label, raw = read_scene_file(file)
    with c.edit(ctx, c.command_line("scene load", file)) as tx:
        sections = scene.build(raw, tx.data)
        for key, value in sections.items():
            tx.put(key, value)
        if "weather" in tx.data:
            tx.put("weather", {})
        tx.summary = f"scene {sections['scene']['name']!r} loaded from {label}"
    render.emit("scene load", _result(tx.data), _show, as_json=json)


@app.command()
def show(ctx: typer.Context, json: c.JsonOpt = False) -> None:
    """The scene: map, factions and goals, units, tasks, the clock.

    Example: d2d scene show
    """
    data = c.read(ctx)
    if not data.get("scene"):
        raise NotFound("no scene loaded: d2d scene load FILE.toml (or combat1)")
    render.emit("scene show", _result(data), _show, as_json=json)


def _result(data: dict[str, Any]) -> dict[str, Any]:
    s = data["scene"]
    roster = data.get("units", {})
    return {**s, "map_name": scene.map_types()[s["map"]]["name"],
            "units": [{"name": n, "faction": u.get("faction"), "kind": u.get("kind", "unit"),
                       **{k: u[k] for k in ("body", "mind", "will", "speed") if k in u}}
                      for n, u in roster.items()],
            "tasks": [{"name": n, **t} for n, t in data.get("tasks", {}).items()],
            "clock": data.get("clock", {}).get("value", 1),
            "timed_events": data.get("clock", {}).get("timed", []),
            "random_events": data.get("clock", {}).get("random", [])}


def _show(con: Any, r: dict[str, Any]) -> None:
    from rich.markup import escape

    con.print(f"[bold]{escape(r['name'])}[/] — {r['map_name']}")
    if r["backstory"]:
        con.print(f"[dim]{escape(r['backstory'])}[/]")
    for name, f in r["factions"].items():
        con.print(f"[bold]{escape(name)}[/] — goal: {escape(f['goal'])}")
        for u in r["units"]:
            if u["faction"] == name:
                stats = " ".join(f"{k.title()} {u[k]}" for k in ("body", "mind", "will",
                                                                   "speed") if k in u)
                con.print(f"  {escape(u['name'])}: {stats}")
    for u in r["units"]:
        if u["faction"] not in r["factions"]:
            con.print(f"  {escape(u['name'])} [dim](no faction)[/]")
    for t in r["tasks"]:
        con.print(f"Task {escape(t['name'])}: Difficulty {t['difficulty']}, Challenge "
                  f"{t['challenge']}, Progress {t['progress']}")
    con.print(f"Clock: {r['clock']}")
    for e in r["timed_events"]:
        con.print(f"  #{e['at']}: {escape(e['text'])}{' (done)' if e['done'] else ''}")
    for e in r["random_events"]:
        con.print(f"  random {e['k']}/{e['n']}: {escape(e['text'])}")
    for n in (n for n in r["reserves"] if n not in {u["name"] for u in r["units"]}):
        con.print(f"  in reserve: {escape(n)}")
