"""``d2d task …`` — task clocks: Challenge and Progress tokens (001 p.39 "Resolution")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.rules import tasks

app = c.group("task")

NameArg = Annotated[str, typer.Argument(autocompletion=c.complete_tasks,
                                        help="The task's name, e.g. Knot.")]
HitsOpt = Annotated[int, typer.Option("--hits", "-H", help="The Hits of the Conflict (1–100).")]
ByOpt = Annotated[str | None, typer.Option("--by", autocompletion=c.complete_units,
                                           help="Who worked the task (Teamwork: "
                                           "several characters may work one task).")]


def _change(ctx: typer.Context, name: str,
            step: Callable[[dict[str, tasks.Task]], tasks.Task], summary: str) -> dict[str, Any]:
    with c.edit(ctx) as tx:
        board = tasks.board(tx.data)
        task = step(board)
        tx.put("tasks", tasks.board_state(board))
        tx.summary = f"{summary}: Challenge {task.challenge}, Progress {task.progress}"
    return task.to_json()


@app.command()
def new(ctx: typer.Context, name: NameArg,
        difficulty: Annotated[int, typer.Option("--difficulty", "-d",
                                                help="The Difficulty (1–100).")],
        worker: Annotated[list[str] | None, typer.Option(
            "--worker", "-w", autocompletion=c.complete_units,
            help="A character working the task (repeat for Teamwork).")]
        = None,
        json: c.JsonOpt = False) -> None:
    """Start a task: Challenge and Progress tokens each equal to the Difficulty.

    Example: d2d task new Knot --difficulty 4 --worker Thief
    """
    tasks.check_difficulty(difficulty)
    result = _change(ctx, name,
                     lambda b: tasks.new(b, name, difficulty, worker), f"task {name} started")
    render.emit(result, _show_one, as_json=json)


@app.command()
def win(ctx: typer.Context, name: NameArg, hits: HitsOpt, by: ByOpt = None,
        json: c.JsonOpt = False) -> None:
    """A won Conflict on the task: Challenge −Hits; no Challenge left → complete.

    Example: d2d task win Knot --hits 2
    """
    tasks.check_hits(hits)
    result = _change(ctx, name,
                     lambda b: tasks.win(tasks.find(b, name), hits, by), f"task {name} won")
    render.emit(result, _show_one, as_json=json)


@app.command()
def lose(ctx: typer.Context, name: NameArg, hits: HitsOpt, by: ByOpt = None,
         json: c.JsonOpt = False) -> None:
    """A lost Conflict on the task: Progress −Hits; no Progress left → failed.

    Example: d2d task lose Knot --hits 1
    """
    tasks.check_hits(hits)
    result = _change(ctx, name,
                     lambda b: tasks.lose(tasks.find(b, name), hits, by), f"task {name} lost")
    render.emit(result, _show_one, as_json=json)


@app.command()
def show(ctx: typer.Context, name: NameArg, json: c.JsonOpt = False) -> None:
    """One task's tokens and state.

    Example: d2d task show Knot --json
    """
    result = tasks.find(tasks.board(c.read(ctx)), name).to_json()
    render.emit(result, _show_one, as_json=json)


@app.command("list")
def list_(ctx: typer.Context, json: c.JsonOpt = False) -> None:
    """Every task, each drawn as a bar of Challenge and Progress tokens.

    Example: d2d task list
    """
    result = {"tasks": [t.to_json() for t in tasks.board(c.read(ctx)).values()]}
    render.emit(result, _show_list, as_json=json)


@app.command()
def drop(ctx: typer.Context, name: NameArg, json: c.JsonOpt = False) -> None:
    """Remove a task from the table.

    Example: d2d task drop Knot
    """
    with c.edit(ctx) as tx:
        board = tasks.board(tx.data)
        task = tasks.find(board, name)
        del board[task.name]
        tx.put("tasks", tasks.board_state(board))
        tx.summary = f"task {task.name} dropped"
    render.emit({**task.to_json(), "dropped": True}, _show_one, as_json=json)


def bar(r: dict[str, Any]) -> str:
    """``Challenge ●●○○ Progress ●●●○``: filled tokens left, hollow ones spent."""
    d = r["difficulty"]
    return (f"Challenge {'●' * r['challenge']}{'○' * (d - r['challenge'])} "
            f"Progress {'●' * r['progress']}{'○' * (d - r['progress'])}")


_STATE = {"open": "open", "complete": "[green]complete[/]", "failed": "[red]failed[/]"}


def _line(r: dict[str, Any]) -> str:

    who = f" [dim]({render.escape(', '.join(r['workers']))})[/]" if r["workers"] else ""
    return (f"[bold]{render.escape(r['name'])}[/] (Difficulty {r['difficulty']}): {bar(r)} "
            f"— {r['challenge']}/{r['progress']} {_STATE[r['state']]}{who}")


def _show_one(con: Any, r: dict[str, Any]) -> None:
    con.print(("[dim]dropped:[/] " if r.get("dropped") else "") + _line(r))


def _show_list(con: Any, r: dict[str, Any]) -> None:
    if not r["tasks"]:
        con.print("No tasks. Start one: d2d task new NAME --difficulty D")
    for t in r["tasks"]:
        con.print(_line(t))
