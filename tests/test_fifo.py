"""A FIFO or device where d2d keeps a file (issue 38 item 2): refused at once, naming it
(exit 3, one line), never waited on. Each command runs in its own process under a
10 s timeout that *fails* the test: today's journal reader hung on a FIFO for good."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def _d2d(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """d2d in a process; a hang is a TimeoutExpired, i.e. a failed test."""
    return subprocess.run([sys.executable, "-m", "d2d_cli", *args], capture_output=True,
                          text=True, timeout=10, stdin=subprocess.DEVNULL,
                          env={**os.environ, "D2D_DATA_DIR": str(tmp_path / "data"),
                               "D2D_LOCK_TIMEOUT": "5"})


def _session(tmp_path: Path) -> Path:
    path = tmp_path / "s.toml"
    for args in (("session", "new", str(path)), ("--session", str(path), "clock", "tick")):
        done = _d2d(tmp_path, *args)
        assert done.returncode == 0, done.stderr
    return path


def _refused(res: subprocess.CompletedProcess[str], name: Path) -> None:
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 3 and len(lines) == 1, res.stderr
    assert str(name) in lines[0] and "not a regular file" in lines[0], lines[0]


@pytest.mark.parametrize("args", [("session", "log"), ("session", "export", "-o", "-"),
                                  ("clock", "tick"), ("fate", "draw")])
def test_a_fifo_journal_is_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = _session(tmp_path)
    journal = path.with_name(path.name + ".journal")
    journal.unlink()
    os.mkfifo(journal)
    before = path.read_bytes()
    _refused(_d2d(tmp_path, "--session", str(path), *args), journal)
    assert path.read_bytes() == before


def test_a_device_journal_is_refused(tmp_path: Path) -> None:
    path = _session(tmp_path)
    journal = path.with_name(path.name + ".journal")
    journal.unlink()
    journal.symlink_to(os.devnull)
    _refused(_d2d(tmp_path, "--session", str(path), "session", "log"), journal)


def test_serve_refuses_a_fifo_journal(tmp_path: Path) -> None:
    path = _session(tmp_path)
    journal = path.with_name(path.name + ".journal")
    journal.unlink()
    os.mkfifo(journal)
    res = _d2d(tmp_path, "--session", str(path), "serve", "--host", "127.0.0.1",
               "--port", "0")
    _refused(res, journal)


@pytest.mark.parametrize("args", [("clock", "tick"), ("clock", "show")])
def test_a_fifo_session_is_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "f.toml"
    os.mkfifo(path)
    _refused(_d2d(tmp_path, "--session", str(path), *args), path)


def test_a_fifo_among_the_lock_tickets_is_refused(tmp_path: Path) -> None:
    path = _session(tmp_path)
    ticket = tmp_path / f".{path.name}.{1:020d}.1.wait"
    os.mkfifo(ticket)
    before = path.read_bytes()
    _refused(_d2d(tmp_path, "--session", str(path), "clock", "tick"), ticket)
    assert path.read_bytes() == before


@pytest.mark.parametrize("which", ["cache", "key"])
def test_a_fifo_in_the_cache_is_passed_by(tmp_path: Path, which: str) -> None:
    """The cache only saves time and is d2d's alone: a FIFO there (the cache of this
    session, or its key) is not read, not waited on — the command runs without it."""
    path = _session(tmp_path)
    folder = tmp_path / "data" / "cache" / "sessions"
    (cached,) = folder.glob("*.cache")
    victim = cached if which == "cache" else folder / "key"
    victim.unlink()
    os.mkfifo(victim)
    for args in (("clock", "show"), ("clock", "tick")):
        res = _d2d(tmp_path, "--session", str(path), *args)
        assert res.returncode == 0, res.stderr
    assert "Clock: 3" in _d2d(tmp_path, "--session", str(path), "clock", "show").stdout


def test_a_fifo_bak_is_replaced_not_opened(tmp_path: Path) -> None:
    """d2d never opens the ``.bak``: it links the old file there by rename, so a FIFO in
    its place is replaced by the real backup."""
    path = _session(tmp_path)
    bak = path.with_name(path.name + ".bak")
    bak.unlink()
    os.mkfifo(bak)
    before = path.read_bytes()
    res = _d2d(tmp_path, "--session", str(path), "clock", "tick")
    assert res.returncode == 0, res.stderr
    assert bak.is_file() and bak.read_bytes() == before


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_a_fifo_named_as_an_output_is_refused_not_read(tmp_path: Path,
                                                       force: tuple[str, ...]) -> None:
    """An output file d2d is told to write (``-o``) is looked at to see whether it is one
    of d2d's own; a FIFO there was opened for reading and hung. It is bad input (exit 2),
    left as it is."""
    path = _session(tmp_path)
    out = tmp_path / "story.md"
    os.mkfifo(out)
    res = _d2d(tmp_path, "--session", str(path), "session", "export", "-o", str(out), *force)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert out.is_fifo()
