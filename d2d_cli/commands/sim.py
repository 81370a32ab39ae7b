"""``d2d sim [SCENE]`` — play a scene to its end N times: each faction's chance of
reaching its goal (docs/solo.md "Simulating a fight")."""

from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _state
from d2d_cli.commands._convention import positional_or_option

app = _app.single("sim")



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
    force: Annotated[bool, typer.Option("--force", help="Replace the --log FILE if it "
                                        "exists.")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Play a scene to its end N times — Non-Players by the NPC policy, Players' units by
    --pc with their own Conflict Decks and hands — and report each faction's chance of
    reaching its goal (95% Wilson interval), the rounds taken and who went down.

    Reproducible: --seed gives the same report whatever --workers. The scene states its
    goals in a [goals] block (docs/solo.md).
    Example: d2d --seed 1 sim combat1 --runs 1000
    """
    from d2d_cli.operations import sim as ops

    n = None if runs_ is None and runs is None else positional_or_option(
        runs_, runs, "runs")
    with _progress(n if n is not None and precision is None else 0, json) as tick:
        report = ops.sim(_state.target(ctx), scene_file, n, precision=precision,
                         workers=workers, pc=pc, log=log, force=force, tick=tick)
    render.emit(report, _show, as_json=json)


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
