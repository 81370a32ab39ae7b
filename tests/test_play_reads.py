"""``d2d play`` reads the session once per change, not after every line: the status line
and the unit named last reuse the last read while the file is unchanged — and only when
the file's stamp alone can tell a change (d2d_cli/shell.py ``Shell.data``)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import cli, session
from d2d_cli import shell as shell_module
from d2d_cli.shell import SETTLED, Shell


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The shell's own reads of the session (the commands read for themselves)."""
    reads: list[str] = []
    for name in ("read", "lookup"):
        real = getattr(session, name, None)
        if real is None:
            continue

        def counted(*args: Any, _real: Any = real, **kw: Any) -> Any:
            if sys._getframe(1).f_code.co_filename == shell_module.__file__:
                reads.append("shell")
            return _real(*args, **kw)

        monkeypatch.setattr(shell_module.session, name, counted)
    return reads


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_a_settled_session_is_read_once_for_many_lines(
        d2d, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    d2d.ok("session", "new", "t")
    d2d.ok("--session", "t", "unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1",
           "--will", "2x1", "--speed", "4x0")
    _age(data_dir / "t.toml", 10 * SETTLED)
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    reads = _counted(monkeypatch)
    first = shell.status()
    for _ in range(3):
        shell.run_line("fate status")  # a lookup: the file is not written
        assert shell.status() == first
    shell.run_line("unit show Goblin")
    assert shell.current == "Goblin"
    assert "Goblin: Move" in shell.status()
    assert len(reads) == 1  # it read 9 times before: after each line, twice
    capsys.readouterr()
    shell.run_line("fate draw 2")  # a change: a new file, read again
    assert "52 cards left" in shell.status()
    assert len(reads) > 1


def test_a_fresh_write_is_always_read_again(
        d2d, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written less than SETTLED seconds ago, a same-size edit in place could keep the
    stamp (coarse file times): every read goes to the file."""
    d2d.ok("session", "new", "t")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    reads = _counted(monkeypatch)
    shell.data()
    path = data_dir / "t.toml"
    stamp = session.stamp(path)
    path.write_text(path.read_text().replace("shuffles = 1", "shuffles = 7"))
    assert stamp is not None
    os.utime(path, ns=(stamp[0], stamp[0]))  # the same stamp: size, inode and time
    assert session.stamp(path) == stamp
    assert shell.data()["fate"]["shuffles"] == 7
    assert len(reads) == 2
