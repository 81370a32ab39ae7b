"""Tasks: Challenge and Progress tokens (000 "Tasks")."""

from __future__ import annotations

from collections.abc import Callable

from d2d_cli.operations import Target
from d2d_cli.rules.core.options import Options
from d2d_cli.rules.time import tasks

Step = Callable[[dict[str, tasks.Task], Options], tasks.TaskView]


def _change(t: Target, step: Step, summary: str) -> tasks.TaskView:
    with t.edit() as tx:
        board = tasks.board(tx.data)
        result = step(board, t.options(tx.data))
        tx.put("tasks", tasks.board_state(board))
        tx.summary = f"{summary}: Challenge {result.challenge}, Progress {result.progress}"
    return result


def new(t: Target, name: str, difficulty: int, *,
        worker: list[str] | None = None) -> tasks.TaskView:
    """``d2d task new NAME --difficulty D [--worker UNIT]…``."""
    tasks.check_difficulty(difficulty)
    return _change(t, lambda b, _: tasks.start(b, name, difficulty, worker),
                   f"task {name} started")


def win(t: Target, name: str, hits: int, *, by: str | None = None) -> tasks.TaskView:
    """``d2d task win NAME --hits H [--by UNIT]``."""
    tasks.check_hits(hits)
    return _change(t, lambda b, o: tasks.resolve(b, name, True, hits, by, o.task_win),
                   f"task {name} won")


def lose(t: Target, name: str, hits: int, *, by: str | None = None) -> tasks.TaskView:
    """``d2d task lose NAME --hits H [--by UNIT]``."""
    tasks.check_hits(hits)
    return _change(t, lambda b, _: tasks.resolve(b, name, False, hits, by),
                   f"task {name} lost")


def drop(t: Target, name: str) -> tasks.TaskDropped:
    """``d2d task drop NAME``: the task leaves the board. The bound workers a won task
    had freed stay free (their ``bound`` goes with it); any still bound are named."""
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.time import leaving
    from d2d_cli.rules.units import roster

    with t.edit() as tx:
        board = tasks.board(tx.data)
        state = tasks.board_state(board)[tasks.find(board, name).name]
        result = tasks.drop(board, name)
        tx.put("tasks", tasks.board_state(board))
        units = roster.roster(tx.data) if tx.data.get("units") else {}
        freed = leaving.freed_by(state, units)
        if freed:
            tx.put("units", roster.roster_state(units))
        result = replace(result, freed=freed,
                         still_bound=leaving.still_bound(state, units, tx.data["tasks"]))
        tx.summary = f"task {result.name} dropped"
    return result


def show(t: Target, name: str) -> tasks.TaskView:
    """``d2d task show NAME``."""
    return tasks.find(tasks.board(t.read(shared=True)), name).view()  # only read


def list_(t: Target) -> tasks.TaskList:
    """``d2d task list``: every task."""
    return tasks.listing(tasks.board(t.read(shared=True)))  # only read
