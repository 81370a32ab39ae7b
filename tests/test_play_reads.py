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


def test_a_line_unmarshals_the_session_once(
        d2d, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Each line of d2d play read the cache file again, checked its MAC and unmarshalled
    # it (both slots) and then the session's slot: two unmarshallings of the whole
    # session a line. The process keeps the slot it read or wrote last, keyed by the
    # file's digest and the build (session/cache.py ``recent``).
    from d2d_cli.session import cache, reads

    d2d.ok("session", "new", "t")
    d2d.ok("--session", "t", "unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1",
           "--will", "2x1", "--speed", "4x0")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    shell.run_line("fate draw 2")  # a change: its commit leaves the new slot
    capsys.readouterr()
    files_read: list[Path] = []
    loads: list[int] = []
    real_read, real_load = reads._cache_read, cache.load
    monkeypatch.setattr(reads, "_cache_read", lambda r: files_read.append(r) or real_read(r))
    # a slot's data is unmarshalled by cache.load (chapter by chapter)
    monkeypatch.setattr(cache, "load", lambda b, only=None: loads.append(len(b))
                        or real_load(b, only))
    # (a lookup that takes a copy of its own: `fate status` now takes the shared read)
    for _ in range(3):
        assert shell.run_line("clock show --json") == 0
        assert '"clock": 1,' in capsys.readouterr().out
    assert files_read == []  # the cache file is not read again for the same bytes
    assert len(loads) == 3  # one unmarshalling of the session a line (two before)
    before = (data_dir / "t.toml").read_bytes()
    d2d.ok("--session", "t", "clock", "tick")  # another change: new bytes
    assert shell.run_line("clock show --json") == 0
    assert '"clock": 2,' in capsys.readouterr().out
    (data_dir / "t.toml").write_bytes(before)  # the old bytes back, by hand
    assert shell.run_line("clock show --json") == 0
    assert '"clock": 1,' in capsys.readouterr().out
    assert len(files_read) == 1  # not the remembered slot's bytes: the cache file read


def test_the_session_path_is_resolved_once_while_it_reaches_the_same_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every line resolved the session's path ~5 times (realpath: ~10 lstat each). It is
    # now served again while a stat through it reaches the same file (session/files.py).
    from d2d_cli.session import files

    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "s.toml").write_text("1", "utf-8")
    (b / "s.toml").write_text("2", "utf-8")
    link = tmp_path / "here"
    link.symlink_to(a)
    calls: list[str] = []
    realpath = os.path.realpath
    monkeypatch.setattr(files.os.path, "realpath",
                        lambda p, *a, **k: calls.append(str(p)) or realpath(p, *a, **k))
    path = link / "s.toml"
    assert files.real(path) == a / "s.toml"
    assert files.real(path) == a / "s.toml"
    assert files.real(str(path)) == a / "s.toml"
    assert len(calls) == 1
    link.unlink()
    link.symlink_to(b)  # pointed elsewhere: resolved again
    assert files.real(path) == b / "s.toml"
    tmp = b / "new"
    tmp.write_text("3", "utf-8")
    os.replace(tmp, b / "s.toml")  # replaced, as a write does: a new inode
    assert files.real(path) == b / "s.toml"
    assert len(calls) == 3
    (b / "s.toml").unlink()  # gone: resolved every time, nothing remembered
    assert files.real(path) == b / "s.toml"
    assert files.real(path) == b / "s.toml"
    assert len(calls) == 5


def _goblin_and_archer(d2d: Any) -> None:
    """Session "t" with a Goblin and an Archer, each 2x1 / 2x1 / 2x1 / 4x0."""
    d2d.ok("session", "new", "t")
    for name in ("Goblin", "Archer"):
        d2d.ok("--session", "t", "unit", "add", name, "--body", "2x1", "--mind", "2x1",
               "--will", "2x1", "--speed", "4x0")


def _lines_after_a_change(shell: Shell, lines: tuple[str, ...], change: str,
                          monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``lines`` once (each module imported once: an import unmarshals its code),
    then ``change`` (new bytes, read by the status line), then ``lines`` again with the
    status line after each: what they printed. Each must take the status line's read —
    no session loaded again — and leave that read as it was."""
    import copy

    from d2d_cli.session import reads

    for line in lines:
        assert shell.run_line(line) == 0
    assert shell.run_line(change) == 0
    shared = shell.data()  # the status line's read of the new bytes
    before = copy.deepcopy(shared)
    capsys.readouterr()
    loads: list[Path] = []  # the session's bytes loaded (unmarshalled from the cache)
    real_load = reads._load
    monkeypatch.setattr(reads, "_load", lambda r, *a: loads.append(r) or real_load(r, *a))
    for line in lines:
        assert shell.run_line(line) == 0
        shell.status()
    assert loads == []  # one unmarshalling a line before, for the same bytes
    assert shell.data() is shared and shared == before  # read, never changed
    return capsys.readouterr().out


LINES = ("status", "status --json", "--why status", "status", "unit show Goblin",
         "unit show archer --json")


def test_the_dashboard_reads_the_status_lines_data(
        d2d, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # `status` and `unit show` inside d2d play unmarshalled the whole session again for
    # bytes the status line had just read: they now take the shared read (they never
    # change their data), so a dashboard or a unit after a change unmarshals nothing
    # more, and leaves the data as it was.
    _goblin_and_archer(d2d)
    d2d.ok("--session", "t", "unit", "condition", "Goblin", "add", "fatigue")
    d2d.ok("--session", "t", "unit", "target", "Goblin", "Archer")
    d2d.ok("--session", "t", "round", "start")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    out = _lines_after_a_change(shell, LINES, "unit condition Goblin add bleeding",
                                monkeypatch, capsys)
    assert "Goblin" in out and "Bleeding" in out and '"target": "Archer"' in out
    assert '"name": "Archer"' in out


def test_a_conflict_that_changes_nothing_is_a_lookup(
        d2d, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # `conflict strong block` took the session's lock and read it twice (the locked
    # state and its pristine copy) to change nothing: approaches reveal no Fate and
    # leave no exchange. It is now answered from the status line's read. One that must
    # forget the round's exchange (hit's) still changes the session, under the lock.
    import marshal

    from d2d_cli.session import lock

    _goblin_and_archer(d2d)
    d2d.ok("--session", "t", "round", "start")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    lines = ("conflict strong block", "conflict fast 7S^ --json", "conflict 7S^ 5H^")
    for line in lines:  # each module imported once
        assert shell.run_line(line) == 0
    path = data_dir / "t.toml"
    before = path.read_bytes()
    shell.status()
    locks: list[Path] = []
    real_locked = lock.locked  # every read-modify-write's lock (reads.locked_read)
    monkeypatch.setattr(lock, "locked", lambda p, *a, **k: locks.append(p)
                        or real_locked(p, *a, **k))
    loads: list[int] = []
    real_loads = marshal.loads
    monkeypatch.setattr(marshal, "loads", lambda b: loads.append(len(b)) or real_loads(b))
    capsys.readouterr()
    for line in lines:
        assert shell.run_line(line) == 0
        shell.status()
    out = capsys.readouterr().out
    assert "A wins: Strong vs Block" in out and '"ok": true' in out and "B wins (rank 7" in out
    assert (locks, loads) == ([], [])  # a lock and two unmarshallings a line before
    assert path.read_bytes() == before
    # A Conflict of two units is kept for hit; a Conflict of approaches then forgets it.
    d2d.ok("--session", "t", "conflict", "Archer:strong", "Goblin:block", "--skill", "none")
    assert "exchange" in session.read(path)["round"]
    assert shell.run_line("conflict strong block") == 0
    assert "exchange" not in session.read(path)["round"]
    assert locks  # under the lock


LOOKUP_LINES = ("fate status", "fate status --json", "task show 'Pick the lock'",
                "task show 'pick the LOCK' --json", "task list", "task list --json")


def test_fate_and_task_lookups_read_the_status_lines_data(
        d2d, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # `fate status`, `task show` and `task list` inside d2d play unmarshalled the whole
    # session again for bytes the status line had just read (a new copy each call):
    # they only read it (rules.deck.fate.status and rules.time.tasks.board build their
    # own objects from it), so they now take the shared read, and leave it as it was.
    _goblin_and_archer(d2d)
    d2d.ok("--session", "t", "task", "new", "Pick the lock", "--difficulty", "3")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    out = _lines_after_a_change(shell, LOOKUP_LINES, "fate draw 2", monkeypatch, capsys)
    assert '"remaining": 52,' in out and '"name": "Pick the lock"' in out
    assert "Challenge" in out and '"challenge": 3' in out
