"""Scenes: load a scene file (or a built-in scene) into the session."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from d2d_cli import session
from d2d_cli.errors import BadInput
from d2d_cli.operations import Target
from d2d_cli.rules.overview import scene


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
        raw = tomllib.loads(text)
    except RecursionError:
        raw = None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        where = f"line {m.group(1)}, column {m.group(2)}" if m else "?"
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e)) or "TOML syntax error"
        raise BadInput(f"{label}: {where}: {msg}") from None
    if raw is None or _nested_deeper(raw, session.MAX_DEPTH):
        # the parser's own limit is the interpreter's recursion limit, which other code
        # in the process may have raised: the depth is checked on what was parsed too
        raise BadInput(f"{label}: nested too deeply to be a scene file") from None
    return label, raw


def _nested_deeper(value: Any, limit: int) -> bool:
    """Tables and lists within each other deeper than ``limit`` (walked without
    recursion: the value may be as deep as the parser could read)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        children = v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()
        if children and depth + 1 > limit:
            return True
        stack.extend((c, depth + 1) for c in children)
    return False


MAX_SCENE_BYTES = 1 << 20  # docs/commands.md: a scene file is a regular file up to 1 MiB


def _read_bounded(path: Path) -> bytes:
    """A scene file's bytes: a regular file of at most MAX_SCENE_BYTES (the session
    module's bounded reader: a FIFO, device or folder is refused without waiting on it,
    /dev/zero is never read)."""
    data = session.read_limited(path, MAX_SCENE_BYTES, "a scene file", BadInput)
    if data is None:
        raise FileNotFoundError(2, "No such file or directory", str(path))
    return data


def load(t: Target, file: str | os.PathLike[str]) -> scene.SceneView:
    """``d2d scene load FILE``: a scene file's path, or a built-in scene (``combat1``)."""
    label, raw = read_scene_file(os.fspath(file))
    with t.edit() as tx:
        opts = t.options(tx.data)
        sections, result = scene.load(raw, tx.data, opts)
        _check(label, sections)
        if opts.hands == "d2d":  # 000 l.401 "5 new cards at the beginning of a Scene"
            from d2d_cli.operations.hands import deal_at_scene_start

            sections["players"] = deal_at_scene_start({**tx.data, **sections}, opts,
                                                      tx.rng()) or {}
        for key, value in sections.items():
            tx.put(key, value)
        tx.summary = f"scene {result.name!r} loaded from {label}"
    return result


def _check(label: str, sections: dict[str, Any]) -> None:
    """What a scene file sets up has the session's declared shape (a unit without a
    Body, a stat out of range…): refused naming the file, the table and the key, before
    anything is written."""
    problem = session.shape_problem(sections, list(sections))
    if problem is not None:
        raise BadInput(f"{label}: {problem}")


def show(t: Target) -> scene.SceneView:
    """``d2d scene show``: the scene — map, factions and goals, units, tasks, clock."""
    data = t.read()
    return scene.view(data, t.options(data))
