"""Fault injection (issue 10): for every state-changing command, a failure injected at
each step of the write path leaves either the old state with exit != 0 and a journal
that matches it, or the new state with exit 0 — never a changed file with exit != 0.

The steps (``errors.fault(name)`` calls in the session code and the renderer, which
call the fault hook of the running command's Environment, d2d_cli/env.py):
read — the file read, before it is validated; validated — after; render — the
command's output rendered; journal — half-way through the journal append; temp —
the temp file being written; backup — .bak replaced, before the rename; renamed —
after the rename (the commit point: the command must then succeed).
"""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from d2d_cli import env
from d2d_cli.session import journal
from tests.helpers import build_table

STEPS = ["read", "validated", "render", "journal", "temp", "backup", "renamed"]

# State-changing commands whose failures (an exception at each step, rolled back) are
# checked here, with arguments that succeed on build_table's session plus a character
# Rook. Every command that writes — walked from the Click tree, not listed — is killed
# at every step of its write in tests/test_faults_walk.py.
COMMANDS = [
    ("fate", "draw", "3"), ("fate", "shuffle"), ("fate", "coin"),
    ("fate", "high-card", "A", "B"), ("fate", "die", "d6"),
    ("conflict", "fate", "7S^"),
    ("crit", "--power", "6x1", "--armor", "2x1", "--hits", "3", "--types", "pierce",
     "--target", "Gob"),
    ("char", "new", "Mira", "--body", "7", "--speed", "5"),
    ("char", "award", "Rook", "--cp", "1", "--sp", "2"),
    ("char", "train", "Rook", "Stealth"), ("char", "learn", "Rook", "Lockpicking"),
    ("unit", "add", "Orc", "--body", "3x1", "--mind", "2x1", "--will", "2x1",
     "--speed", "4x0"),
    ("unit", "rm", "Gob"), ("unit", "condition", "Gob", "add", "stun"),
    ("unit", "target", "Gob", "Rook"),
    ("task", "new", "gate", "--difficulty", "3"), ("task", "win", "knot", "--hits", "1"),
    ("task", "lose", "knot", "--hits", "1"), ("task", "drop", "knot"),
    ("clock", "advance", "2"), ("clock", "set", "4"), ("clock", "tick"),
    ("clock", "event", "add", "7", "rain"),
    ("clock", "event", "random", "wolves", "--chance", "1/4"),
    ("round", "start"), ("round", "end", "--recover", "Gob=fatigue"),
    ("weather", "wind"),
    ("scene", "load", "combat1"),
    ("session", "undo"), ("session", "redo"),
]


# What a command needs done first (on the copy, without faults).
SETUP = {("round", "end"): ("round", "start")}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.helpers import Runner

    folder = tmp_path_factory.mktemp("template")
    d2d = Runner()
    path = build_table(d2d, folder / "s.toml")
    d2d.ok("--session", path, "char", "new", "Rook", "--body", "7", "--speed", "5")
    d2d.ok("--session", path, "char", "award", "Rook", "--sp", "3", "--ap", "1")
    d2d.ok("--session", path, "fate", "draw")
    d2d.ok("--session", path, "session", "undo")  # so that redo has something to do
    return folder


def _journal_matches(path: Path) -> bool:
    """The journal's last entry says it produced the file as it is."""
    jp = journal.path_for(path)
    with open(jp, "rb") as f:
        last = next(journal.newest_first(f.fileno()))
    return last["h1"] == journal.digest(path.read_bytes())


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_a_fault_at_every_step_leaves_old_or_new(d2d, tmp_path: Path, template: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 args: tuple[str, ...]) -> None:
    changed_once = False
    for step in STEPS:
        folder = tmp_path / step
        shutil.copytree(template, folder)
        path = folder / "s.toml"
        if args[:2] in SETUP:
            d2d.ok("--session", path, *SETUP[args[:2]])
        jp = journal.path_for(path)
        before, journal_before = path.read_bytes(), jp.read_bytes()
        hit = []

        def fail(at: str, step: str = step, path: Path = path, hit: list = hit) -> None:
            if at == step:
                hit.append(at)
                if at in ("read", "validated", "render"):
                    raise RuntimeError(f"injected at {at}")
                raise OSError(errno.ENOSPC, "No space left on device (injected)", str(path))

        with env.active(env.Environment(fault=fail)):
            res = d2d("--session", path, *args)
        assert "Traceback" not in res.stdout + res.stderr
        if res.exit_code != 0:
            assert hit, (step, res.exit_code, res.stderr)  # failed only because of the fault
            assert path.read_bytes() == before, (step, res.stderr)
            assert jp.read_bytes() == journal_before, step
            assert res.stdout == ""  # nothing printed as if it had worked
        else:
            assert not hit or step == "renamed", (step, res.stdout)
            changed_once |= path.read_bytes() != before
            assert _journal_matches(path), step
        # and the session is as usable as before
        assert d2d("--session", path, "session", "show").exit_code == 0
    assert changed_once  # the command does change the session


@pytest.mark.parametrize("args", [("session", "new", "fresh"),
                                  ("session", "new", "fresh", "--use"),
                                  ("fate", "draw"), ("fate", "status")],
                         ids=["new", "new --use", "first draw", "first lookup"])
def test_a_fault_while_creating_a_session_creates_nothing(d2d, data_dir: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          args: tuple[str, ...]) -> None:
    """A session created by `session new` or by first use exists only if the command
    succeeded (and `--use` points at it only then)."""
    name = "fresh" if args[0] == "session" else "default"
    for step in ["render", "journal", "temp", "renamed"]:
        for p in [p for p in data_dir.glob("*") if p.is_file()]:  # not the cache folder
            p.unlink()

        def fail(at: str, step: str = step) -> None:
            if at == step:
                raise OSError(errno.ENOSPC, "No space left on device (injected)")

        with env.active(env.Environment(fault=fail)):
            res = d2d(*args)
        created = (data_dir / f"{name}.toml").exists()
        assert created == (res.exit_code == 0), (step, res.exit_code, res.stderr)
        assert (data_dir / "current").exists() == ("--use" in args and created)
