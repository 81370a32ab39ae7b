"""Task clocks (001 p.39 "Resolution > Task"; 000 "Conflict > 1) Setup > Task").

"Task Start - Place a Task card from Reference. Progress - Place tokens equal to
Difficulty. Challenge - Place tokens equal to Difficulty. Win - Challenge:-Hits.
Lose - Progress:-Hits. Task End - Check if Task is over. Fail - IF no Progress THEN
Fail. Complete - IF no Challenge THEN Complete." (001 p.39), and at "Round: End",
"Task Clock - Progress:-1 on each Task" (001 p.40).

"Teamwork - IF applicable THEN multiple characters may work on the same Task either
separately or together." (000 "Conflict > 1) Setup"): a task keeps the names of the
characters who worked on it; any of them may win or lose it.

000 reads a win differently (``[rules] task_win = "000"``): "IF you Succeed THEN move
Task Tokens (top) to Progress (bottom) equal to the number of Successes. IF no Task
remains then the Task is complete." (000 l.497): the Hits taken off the Challenge are
added to the Progress. A loss is the same in both ("remove Progress Tokens (bottom)
equal to the number of your Rival's Successes", l.499).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from d2d_cli.errors import BadInput, NotFound, RuleViolation
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result

MAX_DIFFICULTY = 100
MAX_HITS = 100


@functools.cache
def _name_re() -> re.Pattern[str]:
    """Compiled on first use: a call that never asks (a lookup) does not pay for it."""
    return re.compile(r"^[^\x00-\x1f\x7f/\\]{1,40}$")


def check_name(name: str) -> str:
    if not _name_re().match(name) or name != name.strip():
        raise BadInput(f"bad task name {name!r}: 1–40 printable characters, no '/' or '\\', "
                       "no leading or trailing spaces")
    return name


def check_difficulty(d: int) -> int:
    if not 1 <= d <= MAX_DIFFICULTY:
        raise BadInput(f"--difficulty must be from 1 to {MAX_DIFFICULTY}, not {d}")
    return d


def check_hits(h: int) -> int:
    # 001 p.31: "IF Hits=0 THEN Hits=1" — a won Conflict always has at least one Hit.
    if not 1 <= h <= MAX_HITS:
        raise BadInput(f"--hits must be from 1 to {MAX_HITS}, not {h}")
    return h


@record(frozen=False)
class Task:
    name: str
    difficulty: int
    challenge: int
    progress: int
    workers: list[str] = field(default_factory=list)

    @property
    def state(self) -> str:
        """``complete`` when no Challenge is left, ``failed`` when no Progress is left."""
        if self.challenge <= 0:
            return "complete"
        if self.progress <= 0:
            return "failed"
        return "open"

    @classmethod
    def from_state(cls, name: str, s: dict[str, Any]) -> Task:
        # each worker's name by ``map`` (no comprehension's frame: a simulated fight
        # reads the board at every round's end and every task Action)
        return cls(name, int(s["difficulty"]), int(s["challenge"]), int(s["progress"]),
                   list(map(str, s.get("workers", []))))

    def to_state(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "challenge": self.challenge,
                "progress": self.progress, "workers": list(self.workers)}

    def view(self) -> TaskView:
        return TaskView(self.name, self.difficulty, self.challenge, self.progress,
                        self.state, tuple(self.workers))


@record
class TaskView(Result):
    """One task as ``task new|win|lose|show`` report it."""

    name: str
    difficulty: int
    challenge: int
    progress: int
    state: str
    workers: tuple[str, ...]

    @property
    def summary(self) -> str:
        return (f"{self.name}: Challenge {self.challenge}, Progress {self.progress} "
                f"({self.state})")


@record
class TaskDropped(TaskView):
    """``task drop``: the task as it was, and that it is gone; the bound workers a won
    task had freed (now free for good) and those still bound without it."""

    dropped: bool = True
    freed: tuple[str, ...] = ()
    still_bound: tuple[str, ...] = ()


@record
class TaskList(Result):
    tasks: tuple[TaskView, ...]


@record
class TaskTick(Result):
    """One task's Progress at the round end's Task Clock."""

    task: str
    progress_before: int
    progress: int
    state: str


def board(data: dict[str, Any]) -> dict[str, Task]:
    out = {}  # a plain loop, no comprehension's frame (a board holds a task or two)
    for n, s in data.get("tasks", {}).items():
        out[n] = Task.from_state(n, s)
    return out


def board_state(tasks: dict[str, Task]) -> dict[str, Any]:
    out = {}  # a plain loop, as :func:`board`
    for n, t in tasks.items():
        out[n] = t.to_state()
    return out


def find(tasks: dict[str, Task], name: str) -> Task:
    if name in tasks:
        return tasks[name]
    for n, t in tasks.items():
        if n.lower() == name.lower():
            return t
    known = ", ".join(tasks) or "none yet (d2d task new NAME --difficulty D)"
    raise NotFound(f"no task {name!r} — tasks: {known}")


def new(tasks: dict[str, Task], name: str, difficulty: int,
        workers: list[str] | None = None) -> Task:
    """Task Start: Challenge and Progress tokens each equal to the Difficulty."""
    check_name(name)
    check_difficulty(difficulty)
    if any(n.lower() == name.lower() for n in tasks):
        raise BadInput(f"task {name!r} already exists (d2d task drop {name} first)")
    task = Task(name, difficulty, difficulty, difficulty, list(dict.fromkeys(workers or [])))
    tasks[name] = task
    return task


def _open(task: Task) -> None:
    if task.state != "open":
        raise RuleViolation(f"task {task.name!r} is already {task.state}")


def _worker(task: Task, by: str | None) -> None:
    if by and by not in task.workers:
        task.workers.append(by)  # Teamwork: another character joins the task


def win(task: Task, hits: int, by: str | None = None, rule: str = "001") -> Task:
    """Win - Challenge:-Hits (never below 0). ``rule="000"``: the tokens taken off the
    Challenge move to the Progress (000 l.497 "move Task Tokens (top) to Progress
    (bottom) equal to the number of Successes")."""
    check_hits(hits)
    _open(task)
    _worker(task, by)
    moved = min(hits, task.challenge)
    task.challenge -= moved
    if rule == "000":
        task.progress += moved
    return task


def lose(task: Task, hits: int, by: str | None = None) -> Task:
    """Lose - Progress:-Hits (never below 0)."""
    check_hits(hits)
    _open(task)
    _worker(task, by)
    task.progress = max(0, task.progress - hits)
    return task


def round_end(tasks: dict[str, Task], report: bool = True) -> tuple[TaskTick, ...]:
    """Round: End "Task Clock - Progress:-1 on each Task" (open tasks only: a complete
    or failed task is over). Returns what changed, in board order; with ``report``
    False (a round's end without a report) the tasks change the same and nothing is
    written: ()."""
    changes = []
    for task in tasks.values():
        if task.state != "open":
            continue
        before = task.progress
        task.progress -= 1
        if report:
            changes.append(TaskTick(task.name, before, task.progress, task.state))
    return tuple(changes)


# --- what the task commands do to the board ------------------------------------------


def start(tasks: dict[str, Task], name: str, difficulty: int,
          workers: list[str] | None = None) -> TaskView:
    """``task new``."""
    return new(tasks, name, difficulty, workers).view()


def resolve(tasks: dict[str, Task], name: str, won: bool, hits: int,
            by: str | None = None, rule: str = "001") -> TaskView:
    """``task win`` / ``task lose``: a Conflict on the task, won or lost; ``rule`` is
    ``[rules] task_win``."""
    task = find(tasks, name)
    return (win(task, hits, by, rule) if won else lose(task, hits, by)).view()


def drop(tasks: dict[str, Task], name: str) -> TaskDropped:
    """``task drop``: the task leaves the board."""
    task = tasks.pop(find(tasks, name).name)
    v = task.view()
    return TaskDropped(v.name, v.difficulty, v.challenge, v.progress, v.state, v.workers)


def listing(tasks: dict[str, Task]) -> TaskList:
    return TaskList(tuple(t.view() for t in tasks.values()))
