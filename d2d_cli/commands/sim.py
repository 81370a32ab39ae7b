"""``d2d sim [SCENE]`` — play a scene to its end N times: each faction's chance of
reaching its goal (docs/solo.md "Simulating a fight")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _state
from d2d_cli.commands._convention import positional_or_option
from d2d_cli.errors import BadInput

app = _app.single("sim")

MAX_WORKERS = 64


@app.command()
def sim(
    ctx: typer.Context,
    scene_file: Annotated[str | None, typer.Argument(
        metavar="[SCENE]", help="A scene file or a built-in scene (combat1); without it, "
        "the session as it stands (never written).")] = None,
    runs_: Annotated[int | None, typer.Argument(
        metavar="[RUNS]", show_default=False,
        help="How many fights (1–1,000,000); without it, as many as --precision needs.")
    ] = None,
    runs: Annotated[int | None, typer.Option(
        "--runs", "-n", help="How many fights, by name (the same as RUNS).")] = None,
    precision: Annotated[float | None, typer.Option(
        "--precision", metavar="POINTS", help="Stop once every faction's 95% interval is "
        "at most ±POINTS (checked every 100 fights, in order; default 2 when no RUNS is "
        "given; with RUNS, RUNS is the most).")] = None,
    workers: Annotated[int | None, typer.Option(
        help="Worker processes (default: every core). The report does not depend on it.")
    ] = None,
    pc: Annotated[str, typer.Option(
        "--pc", metavar="best|fate", help="The Players' policy: best — play the card of "
        "the hand likeliest to win, Stay when none beats Fate; fate — always Stay.")
    ] = "best",
    log: Annotated[Path | None, typer.Option(
        "--log", metavar="FILE", help="With --runs 1: write the fight as d2d commands "
        "(every card given with --card), to replay with d2d play.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Play a scene to its end N times — Non-Players by the NPC policy, Players' units by
    --pc with their own Conflict Decks and hands — and report each faction's chance of
    reaching its goal (95% Wilson interval), the rounds taken and who went down.

    Reproducible: --seed gives the same report whatever --workers. The scene states its
    goals in a [goals] block (docs/solo.md).
    Example: d2d --seed 1 sim combat1 --runs 1000
    """
    import os

    from d2d_cli.rules.assistant import goals as g
    from d2d_cli.rules.assistant import sim as rules

    fixed = runs_ is not None or runs is not None
    runs = positional_or_option(runs_, runs, "runs", rules.MAX_RUNS)
    if precision is None and not fixed:
        precision = rules.DEFAULT_PRECISION
    if precision is not None and not 0 < precision <= 50:
        raise BadInput(f"--precision is a half-width in points, above 0 and at most 50, "
                       f"not {precision:g}")
    if not 1 <= runs <= rules.MAX_RUNS:
        raise BadInput(f"--runs must be from 1 to {rules.MAX_RUNS:,}, not {runs}")
    if pc not in ("best", "fate"):
        raise BadInput(f"--pc is best or fate, not {pc!r}")
    if log is not None and (runs != 1 or not fixed):
        raise BadInput("--log writes one fight: give --runs 1")
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if not 1 <= workers <= MAX_WORKERS:
        raise BadInput(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
    data = _state.read(ctx)
    opts = _state.options(ctx, data)
    label, start, prefix = _start(scene_file, data)
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    seed = _app.settings(ctx).seed
    seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    if log is not None:
        out, table = rules.fight(start, goals, rules.run_seed(seed, 0), opts, True, pc)
        tally = rules.Tally()
        tally.add(out)
        lines = [*prefix, *(table.lines or [])]
        try:
            log.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
        except OSError as e:
            raise BadInput(f"cannot write {log}: {e.strerror or e}") from None
        report = rules.report(label, goals, tally, seed, 1, pc, str(log))
    else:
        with _progress(runs if precision is None else 0, json) as tick:
            tally = rules.simulate(start, goals, seed, runs, min(workers, runs), opts, pc,
                                   tick, precision)
        report = rules.report(label, goals, tally, seed, workers, pc, precision=precision)
    render.emit(report, _show, as_json=json)


def _start(spec: str | None, data: dict[str, Any]) -> tuple[str, dict[str, Any], list[str]]:
    """The fight's starting state: the session as it stands, or a scene loaded on it (and
    the log's first line, which loads it)."""
    import copy
    import shlex

    if spec is None:
        if not data.get("scene"):
            raise BadInput("no scene in this session: d2d sim SCENE, or d2d scene load first")
        return str(data["scene"].get("name", "the session")), copy.deepcopy(data), []
    from d2d_cli.commands.scene import read_scene_file
    from d2d_cli.rules.overview import scene

    _, raw = read_scene_file(spec)
    sections, view = scene.load(raw, data)
    return view.name, {**copy.deepcopy(data), **sections}, [shlex.join(["scene", "load",
                                                                        spec])]


class _progress:
    """A progress bar on a terminal's stderr (Rich), nothing otherwise."""

    def __init__(self, total: int, quiet: bool) -> None:
        import sys

        self.total = total
        self.bar: Any = None
        self.task: Any = None
        self.on = not quiet and sys.stderr.isatty() and total > 1

    def __enter__(self) -> Any:
        if not self.on:
            return None
        from rich.progress import Progress

        self.bar = Progress(transient=True)
        self.bar.start()
        self.task = self.bar.add_task("fights", total=self.total)
        return lambda n: self.bar.advance(self.task, n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _show(con: Any, r: Any) -> None:  # rules.assistant.sim.SimReport
    from d2d_cli.layout import Table

    con.print(f"[bold]{render.escape(r.scene)}[/]: {r.runs:,} fight"
              f"{'s' if r.runs != 1 else ''} (seed {r.seed}, Players: {r.pc_policy})")
    t = Table("Faction", "Goal", "Reached", "Chance", "95% interval", box=None)
    for f in r.factions:
        t.add_row(render.escape(f.faction), render.escape(f.goal), f"{f.reached:,}",
                  f"{f.chance:.1%}", f"{f.low:.1%}–{f.high:.1%}")
    con.print(t)
    if r.undecided:
        con.print(f"No goal reached (one side left standing, or 20 rounds): "
                  f"{r.undecided:,}")
    con.print(f"Rounds: {r.rounds_mean:.2f} on average "
              f"({', '.join(f'{k}: {v}' for k, v in r.rounds.items())})")
    if r.precision is not None:
        con.print(f"Precision: every interval within ±{r.half_width:.2f} points "
                  f"(wanted ±{r.precision:g}, checked every 100 fights in order)")
    if r.down:
        con.print("Went down (Dying or Dead): " + ", ".join(
            f"{render.escape(d.unit)} {d.share:.0%}" for d in r.down))
    if r.log:
        con.print(f"The fight as d2d commands: {render.escape(r.log)} "
                  "(replay: d2d play < FILE)")
