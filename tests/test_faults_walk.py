"""Every command that writes, killed at every step of the write path (issue 38 item 3):
the commands are not listed here but walked — every leaf of the Click tree that works on
a session (tests/test_api_commands.py holds a working call of each, and fails when a
new command has none). Each is run once cleanly on a copy of its set-up session; one
that changed the file is a writer, and is then run again, on a fresh copy for each
step, in a forked child that is killed (``os._exit``: no ``finally``, no clean-up, as a
SIGKILL or a power cut) when the write reaches that step. After every kill the session
file is, byte for byte, the old file or the clean run's new file; ``session log``
lists the command exactly when the file is the new one (the journal never runs ahead of
the file); and the session takes the next command. A command that did not change the
file is a lookup, and left the file and the journal as they were.

The steps (``errors.fault(name)`` calls, tests/test_faults.py): read, validated, render,
journal (half-way through the append), temp, backup (before the rename), renamed."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import env
from d2d_cli.session import journal
from tests.helpers import Runner
from tests.test_api_commands import CASES, LEAVES, NOT_SESSION
from tests.test_faults import STEPS

SESSION_COMMANDS = sorted(set(LEAVES) - set(NOT_SESSION))
# A kill before the write begins (read, validated) leaves the old file as trivially as
# an error does (tests/test_faults.py); from the output on, the write is under way.
KILL_STEPS = [s for s in STEPS if s not in ("read", "validated")]
KILLED = 137


def _set_up(d2d: Runner, folder: Path, setup: tuple[str, ...]) -> Path:
    """The session of the command's case (tests/test_api_commands.py), in ``folder``."""
    folder.mkdir(parents=True)
    f = folder / "s.toml"
    d2d.ok("--seed", "4", "session", "new", f)
    for line in setup:
        if line.startswith("@rules "):  # a [rules] key set by hand
            f.write_text(f.read_text("utf-8").replace("[rules]\n", f"[rules]\n{line[7:]}\n", 1),
                         "utf-8")
            continue
        d2d.ok("--seed", "4", "--session", f, *shlex.split(line.format(dir=folder)))
    return f


def _args(typed: str, folder: Path) -> list[str]:
    return ["--seed", "4", "--session", str(folder / "s.toml"),
            *shlex.split(typed.format(dir=folder))]


def _killed_at(step: str, args: list[str]) -> int:
    """Run ``d2d ARGS`` in a forked child killed at ``step``: its exit status (KILLED if
    the write reached the step)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork beside pytest's threads
        pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 98
        try:
            def kill(at: str) -> None:
                if at == step:
                    os._exit(KILLED)

            with env.active(env.Environment(fault=kill)):
                res = Runner()(*args)
            code = 0 if res.exit_code == 0 else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _journal(path: Path) -> bytes:
    jp = journal.path_for(path)
    return jp.read_bytes() if jp.exists() else b""


def _log(d2d: Runner, path: Path) -> list[tuple[Any, Any]]:
    rows = d2d.json("--session", path, "session", "log", "--last", "99")["entries"]
    here = str(path.parent)  # a command naming a file of its folder (char import)
    return [(r["command"].replace(here, "<dir>"), r["summary"].replace(here, "<dir>"))
            for r in rows]


@pytest.mark.parametrize("path", SESSION_COMMANDS)
def test_every_command_killed_at_every_step_leaves_old_or_new(path: str, d2d: Runner,
                                                              tmp_path: Path) -> None:
    setup, typed, _ = CASES[path]  # a command with no case fails tests/test_api_commands.py
    template = tmp_path / "template"
    _set_up(d2d, template, setup)
    old = (template / "s.toml").read_bytes()
    old_journal = _journal(template / "s.toml")
    # the clean run
    clean = tmp_path / "clean"
    shutil.copytree(template, clean)
    res = d2d(*_args(typed, clean), "--json")
    assert res.exit_code == 0, (typed, res.stdout, res.stderr)
    new = (clean / "s.toml").read_bytes()
    if new == old:  # a lookup
        assert _journal(clean / "s.toml") == old_journal, path
        return
    old_log, new_log = _log(d2d, template / "s.toml"), _log(d2d, clean / "s.toml")
    assert new_log[:-1] == old_log and len(new_log) == len(old_log) + 1
    killed = set()
    for step in KILL_STEPS:
        folder = tmp_path / step
        shutil.copytree(template, folder)
        f = folder / "s.toml"
        code = _killed_at(step, _args(typed, folder))
        now = f.read_bytes()
        assert code in (0, KILLED), (step, code)
        if code == KILLED:
            killed.add(step)
        assert now in (old, new), step  # byte for byte
        assert now == new or step != "renamed" or code != KILLED, step
        if code == 0:  # the step is not on this command's path: it ran to the end
            assert now == new, step
        # the journal never runs ahead of the file
        assert _log(d2d, f) == (new_log if now == new else old_log), step
        # and the session takes the next command, journalled against the file
        d2d.ok("--session", f, "clock", "tick")
        with open(journal.path_for(f), "rb") as j:
            last = next(journal.newest_first(j.fileno()))
        assert last["h1"] == journal.digest(f.read_bytes()), step
        assert json.dumps(_log(d2d, f)[-1]).startswith('["clock tick"'), step
    # every step of a write was reached, so every kill above was mid-write
    assert killed == set(KILL_STEPS), (path, killed)
    print(f"writer: {path}")
