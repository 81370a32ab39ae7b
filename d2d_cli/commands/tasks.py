"""``d2d task …`` — task clocks: Challenge and Progress tokens (001 p.39 "Resolution")."""

from __future__ import annotations

import shlex
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.commands._convention import positional_or_option
from d2d_cli.operations import tasks as ops
from d2d_cli.rules.time import tasks

app = _app.group("task")

NameArg = Annotated[str, typer.Argument(click_type=_complete.TASK,
                                        help="The task's name, e.g. Knot.")]
HitsArg = Annotated[int | None, typer.Argument(metavar="[HITS]", show_default=False,
                                               help="The Hits of the Conflict (1–100).")]
HitsOpt = Annotated[int | None, typer.Option("--hits", "-H", help="The Hits, by name (the "
                                             "same as HITS).")]
ByOpt = Annotated[str | None, typer.Option("--by", click_type=_complete.UNIT,
                                           help="Who worked the task (Teamwork: "
                                           "several characters may work one task).")]


@app.command(short_help="Start a task: Challenge and Progress at its Difficulty.")
def new(ctx: typer.Context, name: NameArg,
        difficulty_: Annotated[int | None, typer.Argument(
            metavar="[DIFFICULTY]", show_default=False, help="The Difficulty (1–100).")]
        = None,
        difficulty: Annotated[int | None, typer.Option(
            "--difficulty", "-d", help="The Difficulty, by name (the same as "
            "DIFFICULTY).")] = None,
        worker: Annotated[list[str] | None, typer.Option(
            "--worker", "-w", click_type=_complete.UNIT,
            help="A character working the task (repeat for Teamwork).")]
        = None,
        json: _app.JsonOpt = False) -> None:
    """Start a task: Challenge and Progress tokens each equal to the Difficulty.

    Example: d2d task new Knot 4 --worker Thief
    """
    difficulty = positional_or_option(difficulty_, difficulty, "difficulty",
                                      what="the Difficulty")
    render.emit(ops.new(_state.target(ctx), name, difficulty, worker=worker), _show_one,
                as_json=json)


@app.command(short_help="A won Conflict on the task: Challenge −Hits.")
def win(ctx: typer.Context, name: NameArg, hits_: HitsArg = None, hits: HitsOpt = None,
        by: ByOpt = None, json: _app.JsonOpt = False) -> None:
    """A won Conflict on the task: Challenge −Hits; no Challenge left → complete.

    With [rules] task_win = "000" the Hits move from Challenge to Progress (000: "move
    Task Tokens (top) to Progress (bottom)"). Example: d2d task win Knot 2
    """
    hits = positional_or_option(hits_, hits, "hits", what="the Hits")
    render.emit(ops.win(_state.target(ctx), name, hits, by=by), _show_one, as_json=json)


@app.command(short_help="A lost Conflict on the task: Progress −Hits.")
def lose(ctx: typer.Context, name: NameArg, hits_: HitsArg = None, hits: HitsOpt = None,
         by: ByOpt = None, json: _app.JsonOpt = False) -> None:
    """A lost Conflict on the task: Progress −Hits; no Progress left → failed.

    Example: d2d task lose Knot 1
    """
    hits = positional_or_option(hits_, hits, "hits", what="the Hits")
    render.emit(ops.lose(_state.target(ctx), name, hits, by=by), _show_one, as_json=json)


@app.command()
def show(ctx: typer.Context, name: NameArg, json: _app.JsonOpt = False) -> None:
    """One task's tokens and state.

    Example: d2d task show Knot --json
    """
    render.emit(ops.show(_state.target(ctx), name), _show_one, as_json=json)


@app.command("list", short_help="Every task, as bars of Challenge and Progress.")
def list_(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """Every task, each drawn as a bar of Challenge and Progress tokens.

    Example: d2d task list
    """
    render.emit(ops.list_(_state.target(ctx)), _show_list, as_json=json)


@app.command(short_help="Remove a task from the table.")
def drop(ctx: typer.Context, name: NameArg, json: _app.JsonOpt = False) -> None:
    """Remove a task from the table. A bound unit that the task had freed (won) stays
    free; one it had not is still bound, and is named with how to free it (d2d unit
    free NAME).

    JSON: the task, dropped, freed, still_bound.

    Example: d2d task drop Knot
    """
    render.emit(ops.drop(_state.target(ctx), name), _show_one, as_json=json)


def bar(r: tasks.TaskView) -> str:
    """``Challenge ●●○○ Progress ●●●○``: filled tokens left, hollow ones spent (under
    000's task_win the Progress can grow past the Difficulty: more filled tokens)."""
    d = r.difficulty
    return (f"Challenge {'●' * r.challenge}{'○' * (d - r.challenge)} "
            f"Progress {'●' * r.progress}{'○' * max(0, d - r.progress)}")


_STATE = {"open": "open", "complete": "[green]complete[/]", "failed": "[red]failed[/]"}


def _line(r: tasks.TaskView) -> str:
    who = f" [dim]({render.escape(', '.join(r.workers))})[/]" if r.workers else ""
    return (f"[bold]{render.escape(r.name)}[/] (Difficulty {r.difficulty}): {bar(r)} "
            f"— {r.challenge}/{r.progress} {_STATE[r.state]}{who}")


def _show_one(con: Any, r: tasks.TaskView) -> None:
    con.print(("[dim]dropped:[/] " if isinstance(r, tasks.TaskDropped) else "") + _line(r))
    if isinstance(r, tasks.TaskDropped):
        for n in r.freed:
            con.print(f"  {render.escape(n)} stays free (the task was won)")
        for n in r.still_bound:
            con.print(f"  {render.escape(n)} is still bound: d2d unit free "
                      f"{render.escape(shlex.quote(n))} frees it")


def _show_list(con: Any, r: tasks.TaskList) -> None:
    if not r.tasks:
        con.print("No tasks. Start one: d2d task new NAME --difficulty D")
    for t in r.tasks:
        con.print(_line(t))
