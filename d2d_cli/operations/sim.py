"""``d2d sim``: a scene played to its end N times (docs/solo.md "Simulating a fight");
the session is read, never written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d2d_cli import session
from d2d_cli.errors import BadInput
from d2d_cli.operations import Target

if TYPE_CHECKING:
    from d2d_cli.rules.assistant.sim import SimReport

MAX_WORKERS = 64


def sim(t: Target, scene_file: str | None = None, runs: int | None = None, *,
        precision: float | None = None, workers: int | None = None, pc: str = "best",
        log: str | Path | None = None, force: bool = False,
        tick: Callable[[int], None] | None = None) -> SimReport:
    """``d2d sim [SCENE] [RUNS] [--precision POINTS] [--workers N] [--pc best|fate]
    [--log FILE [--force]]``: each faction's chance of reaching its goal. Without
    ``runs``, as many fights as ``precision`` needs (±2 points at 95% by default); with
    it, at most ``runs``, stopping at ``precision`` when given (the log replaces an
    existing file only with ``force``: session.outputs). ``tick(n)`` (not an option: the
    command's progress bar) is called as fights end."""
    import os

    from d2d_cli.rules.assistant import goals as g
    from d2d_cli.rules.assistant import sim as rules

    fixed = runs is not None
    if precision is None and not fixed:
        precision = rules.DEFAULT_PRECISION
    if precision is not None and not 0 < precision <= 50:
        raise BadInput(f"--precision is a half-width in points, above 0 and at most 50, "
                       f"not {precision:g}")
    runs = runs if runs is not None else rules.MAX_RUNS
    if not 1 <= runs <= rules.MAX_RUNS:
        raise BadInput(f"--runs must be from 1 to {rules.MAX_RUNS:,}, not {runs}")
    if pc not in ("best", "fate"):
        raise BadInput(f"--pc is best or fate, not {pc!r}")
    if log is not None and (runs != 1 or not fixed):
        raise BadInput("--log writes one fight: give --runs 1")
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if not 1 <= workers <= MAX_WORKERS:
        raise BadInput(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
    data = t.read()
    opts = t.options(data)
    label, start, prefix = _start(scene_file, data)
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    seed = t.seed
    seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    log = Path(log) if log is not None else None
    if log is not None:
        out, table = rules.fight(start, goals, rules.run_seed(seed, 0), opts, True, pc)
        tally = rules.Tally()
        tally.add(out)
        lines = [*prefix, *(table.lines or [])]

        session.write_output(log, "".join(f"{x}\n" for x in lines), force=force,
                      protect=(t.path(),))
        report = rules.report(label, goals, tally, seed, 1, pc, str(log))
    else:
        tally = rules.simulate(start, goals, seed, runs, min(workers, runs), opts, pc, tick,
                               precision)
        report = rules.report(label, goals, tally, seed, workers, pc, precision=precision)
    return report


def _start(spec: str | None, data: dict[str, Any]) -> tuple[str, dict[str, Any], list[str]]:
    """The fight's starting state: the session as it stands, or a scene loaded on it (and
    the log's first line, which loads it)."""
    import copy
    import shlex

    if spec is None:
        if not data.get("scene"):
            raise BadInput("no scene in this session: d2d sim SCENE, or d2d scene load first")
        return str(data["scene"].get("name", "the session")), copy.deepcopy(data), []
    from d2d_cli.operations.scene import read_scene_file
    from d2d_cli.rules.overview import scene

    _, raw = read_scene_file(spec)
    sections, view = scene.load(raw, data)
    return view.name, {**copy.deepcopy(data), **sections}, [shlex.join(["scene", "load",
                                                                        spec])]
