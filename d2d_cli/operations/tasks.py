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


def new(t: Target, name: str, difficulty: int,
        workers: list[str] | None = None) -> tasks.TaskView:
    """``d2d task new NAME --difficulty D [--worker UNIT]…``."""
    tasks.check_difficulty(difficulty)
    return _change(t, lambda b, _: tasks.start(b, name, difficulty, workers),
                   f"task {name} started")


def win(t: Target, name: str, hits: int, by: str | None = None) -> tasks.TaskView:
    """``d2d task win NAME --hits H [--by UNIT]``."""
    tasks.check_hits(hits)
    return _change(t, lambda b, o: tasks.resolve(b, name, True, hits, by, o.task_win),
                   f"task {name} won")


def lose(t: Target, name: str, hits: int, by: str | None = None) -> tasks.TaskView:
    """``d2d task lose NAME --hits H [--by UNIT]``."""
    tasks.check_hits(hits)
    return _change(t, lambda b, _: tasks.resolve(b, name, False, hits, by),
                   f"task {name} lost")


def show(t: Target, name: str) -> tasks.TaskView:
    """``d2d task show NAME``."""
    return tasks.find(tasks.board(t.read()), name).view()
