"""Leftovers of killed writers and files too big to read (issue 20 item 12): a dead
writer's temp files are removed by the next writer; the session cache is bounded; an
oversize session or journal is refused before it is read; a file the user named that
cannot be written is bad input (exit 2), not the session (exit 3)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from d2d_cli import session
from d2d_cli.session import cache, files, journal
from tests.helpers import KILLABLE_WRITER, build_table, every_file, run_process

DEAD_PID = 99_999_999  # above any pid_max Linux allows (2**22): never a live process


def _one_line(res, code: int, *words: str) -> None:
    assert res.exit_code == code, (res.exit_code, res.stdout, res.stderr)
    assert res.stderr.startswith("d2d: error: ") and res.stderr.count("\n") == 1, res.stderr
    for w in words:
        assert w in res.stderr, res.stderr


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()
                  if p.name.endswith((".tmp", ".bak", ".oldbak")) and p.name.startswith("."))


# --------------------------------------------------------------------------- temp files


def test_a_dead_writers_temp_files_are_removed_by_the_next_writer(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "s.toml")
    other = tmp_path / "other.toml"
    dead = [f".s.toml.{DEAD_PID}.tmp", f".s.toml.{DEAD_PID}.bak", f".s.toml.{DEAD_PID}.oldbak",
            f".s.toml.journal.{DEAD_PID}.tmp", f"..s.toml.cache.{DEAD_PID}.tmp"]
    for name in dead:
        (tmp_path / name).write_bytes(path.read_bytes())  # a full copy, as a kill leaves it
    keep = [f".other.toml.{DEAD_PID}.tmp",  # another session's: its own writer sweeps it
            ".s.toml.notapid.tmp", "s.toml.1.tmp"]  # not d2d's naming
    for name in keep:
        (tmp_path / name).write_text("x")
    d2d.ok("--session", path, "fate", "status")  # a lookup removes nothing
    assert all((tmp_path / n).exists() for n in dead + keep)
    d2d.ok("--session", path, "fate", "draw")
    assert not any((tmp_path / n).exists() for n in dead)
    assert all((tmp_path / n).exists() for n in keep)
    assert not other.exists()


def test_a_live_writers_temp_file_is_kept_until_older_than_the_lock_allows(
        d2d, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = build_table(d2d, tmp_path / "s.toml")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        live = tmp_path / f".s.toml.{sleeper.pid}.tmp"
        live.write_text("a writer still at work")
        d2d.ok("--session", path, "fate", "draw")
        assert live.exists()  # its pid is alive and the file is fresh
        monkeypatch.setenv("D2D_LOCK_TIMEOUT", "15")
        old = time.time() - 16  # older than any writer may hold the lock
        os.utime(live, (old, old))
        d2d.ok("--session", path, "fate", "draw")
        assert not live.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_dead_writers_temp_file_of_the_current_pointer_is_removed(d2d,
                                                                     data_dir: Path) -> None:
    d2d.ok("session", "new", "game")
    orphan = data_dir / f".current.{DEAD_PID}.tmp"
    orphan.write_text("game\n")
    d2d.ok("session", "use", "game")
    assert not orphan.exists() and (data_dir / "current").read_text() == "game\n"


def test_the_sweep_names_what_it_removed_and_never_fails(tmp_path: Path) -> None:
    (tmp_path / f".a.toml.{DEAD_PID}.tmp").write_text("")
    (tmp_path / f".a.toml.{os.getpid()}.tmp").write_text("")  # ours: never swept
    (tmp_path / f".a.toml.{DEAD_PID}.tmp.d").mkdir()
    assert files.sweep_orphans(tmp_path, "a.toml") == [tmp_path / f".a.toml.{DEAD_PID}.tmp"]
    assert (tmp_path / f".a.toml.{os.getpid()}.tmp").exists()
    assert files.sweep_orphans(tmp_path / "missing", "a.toml") == []




def test_a_bak_that_already_is_the_session_leaves_no_temp_name(d2d, tmp_path: Path) -> None:
    """A writer killed after putting its ``.bak`` in place and before its rename leaves
    the ``.bak`` a second name of the session file. The next write links the session to
    its temp ``.bak`` name and renames that over the ``.bak``: a rename of two names of
    one file does nothing (POSIX), so the temp name was left behind by a live writer
    that no sweep removes (its own pid)."""
    path = build_table(d2d, tmp_path / "s.toml")
    bak = tmp_path / "s.toml.bak"
    bak.unlink()
    os.link(path, bak)  # as the killed writer left it
    before = path.read_bytes()
    res = d2d("--session", str(path), "fate", "draw")
    assert res.exit_code == 0, res.stderr
    assert _leftovers(tmp_path) == []
    assert bak.read_bytes() == before and path.read_bytes() != before


def test_after_killed_writers_one_command_leaves_no_temp_file(tmp_path: Path) -> None:
    """SIGKILL at different points of the write cycle, in real processes; whatever they
    leave, the next command that writes clears it (the pids are dead by then)."""
    path = tmp_path / "kill.toml"
    assert run_process("--seed", "2", "session", "new", str(path)).returncode == 0
    for i in range(8):
        p = subprocess.Popen([sys.executable, "-c", KILLABLE_WRITER, str(path)],
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        time.sleep(0.02 + 0.017 * i)
        p.send_signal(signal.SIGKILL)
        p.wait()
        p.stdout.close()
    # What a kill can leave, whether or not these kills happened to leave it.
    (tmp_path / f".kill.toml.{DEAD_PID}.tmp").write_bytes(path.read_bytes())
    res = run_process("--session", str(path), "fate", "draw")
    assert res.returncode == 0, res.stderr
    assert _leftovers(tmp_path) == []


# --------------------------------------------------------------------------- the cache


def _caches(data_dir: Path) -> list[Path]:
    folder = data_dir / "cache" / "sessions"
    return sorted(folder.glob("*.cache")) if folder.is_dir() else []


def test_the_cache_lives_in_the_cache_folder_private_not_beside_the_session(
        d2d, tmp_path: Path, data_dir: Path) -> None:
    path = build_table(d2d, tmp_path / "c.toml")
    old = tmp_path / ".c.toml.cache"
    old.write_bytes(b"a cache an older d2d kept beside the session")
    d2d.ok("--session", path, "fate", "draw")
    assert not old.exists()  # the old one goes when the new one is written
    assert _caches(data_dir) == [cache._cache_path(path.resolve())]
    assert _caches(data_dir)[0].stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "c.toml", "c.toml.bak", "c.toml.journal", "data"]


def test_no_cache_for_a_session_over_the_bound(d2d, tmp_path: Path, data_dir: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = build_table(d2d, tmp_path / "big.toml")
    assert _caches(data_dir)
    monkeypatch.setattr(cache, "CACHE_SESSION_LIMIT", path.stat().st_size - 1)
    d2d.ok("--session", path, "fate", "draw")  # a write drops it…
    assert _caches(data_dir) == []
    d2d.ok("--session", path, "fate", "status")  # …and a lookup writes none
    assert _caches(data_dir) == []
    (tmp_path / "big.toml").write_text(path.read_text() + "# by hand\n")
    d2d.ok("--session", path, "unit", "list")  # parsed, not cached
    assert _caches(data_dir) == []


def test_a_cache_file_is_never_over_its_limit(d2d, tmp_path: Path, data_dir: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = build_table(d2d, tmp_path / "c.toml")
    full = _caches(data_dir)[0].stat().st_size  # two slots: this file and the one before
    monkeypatch.setattr(cache, "CACHE_LIMIT", full - 1)
    d2d.ok("--session", path, "fate", "draw")
    one = _caches(data_dir)[0].stat().st_size
    assert one < full - 1  # the newest slot only
    monkeypatch.setattr(cache, "CACHE_LIMIT", 100)
    d2d.ok("--session", path, "fate", "draw")
    assert _caches(data_dir) == []
    # A cache file over the limit (put there by hand) is not read, only costs time.
    monkeypatch.setattr(cache, "CACHE_LIMIT", 32 << 20)
    cached = cache._cache_path(path.resolve())
    cached.write_bytes(b"x" * ((32 << 20) + 1))
    assert d2d.json("--session", path, "fate", "status")["remaining"] == 52


def test_the_cache_folder_keeps_the_newest_caches(d2d, tmp_path: Path, data_dir: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "CACHE_KEEP", 2)
    paths = [tmp_path / f"s{i}.toml" for i in range(4)]
    for p in paths:
        d2d.ok("--session", p, "fate", "draw")
        time.sleep(0.01)  # distinct mtimes
    assert _caches(data_dir) == sorted(cache._cache_path(p.resolve()) for p in paths[2:])


# --------------------------------------------------------------------------- oversize


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes every os.read / os.pread returns from here on."""
    counted: list[int] = []
    real_read, real_pread = os.read, os.pread

    def read(fd: int, n: int) -> bytes:
        out = real_read(fd, n)
        counted.append(len(out))
        return out

    def pread(fd: int, n: int, offset: int) -> bytes:
        out = real_pread(fd, n, offset)
        counted.append(len(out))
        return out

    monkeypatch.setattr(os, "read", read)
    monkeypatch.setattr(os, "pread", pread)
    return counted


def test_an_oversize_journal_is_refused_before_it_is_read(d2d, tmp_path: Path,
                                                          reads: list[int]) -> None:
    path = build_table(d2d, tmp_path / "j.toml")
    jp = session.journal_path(path)
    with jp.open("r+b") as f:
        f.truncate(300 << 20)  # 300 MiB (sparse): a journal d2d never writes
    before = every_file(tmp_path / "data") | {str(path): path.read_bytes()}
    reads.clear()
    for args in (("session", "undo"), ("session", "redo"), ("session", "log"),
                 ("fate", "draw")):
        res = d2d("--session", path, *args)
        _one_line(res, 3, str(jp), "the journal is over 268,435,456 bytes (314,572,800)")
    assert sum(reads) < 1 << 20  # the session and the cache, never the journal
    assert path.read_bytes() == before[str(path)]
    assert os.path.getsize(jp) == 300 << 20


def test_an_oversize_session_is_refused_before_it_is_read(d2d, tmp_path: Path,
                                                          reads: list[int]) -> None:
    path = build_table(d2d, tmp_path / "s.toml")
    with path.open("r+b") as f:
        f.truncate(300 << 20)
    reads.clear()
    for args in (("session", "undo"), ("session", "redo"), ("fate", "draw"),
                 ("fate", "status")):
        res = d2d("--session", path, *args)
        _one_line(res, 3, str(path.resolve()), "over 33,554,432 bytes")
    assert sum(reads) < 1 << 20
    assert os.path.getsize(path) == 300 << 20


def test_one_commands_hunks_too_big_for_the_journal_are_not_kept(
        d2d, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "h.toml"
    d2d.ok("session", "new", path)
    jp = session.journal_path(path)
    assert not jp.exists() or jp.stat().st_size < 600
    monkeypatch.setattr(journal, "MAX_JOURNAL_BYTES", 4 * 150)  # a quarter: 150 bytes
    d2d.ok("--session", path, "unit", "add", "Goblin Scout", "--body", "2x1", "--mind",
           "6x1", "--will", "2x1", "--speed", "5x0", "--skill", "Stealth=1")
    assert jp.stat().st_size < 600
    res = d2d("--session", path, "session", "undo")
    assert res.exit_code == 2 and "nothing to undo" in res.stderr
    last = d2d.json("--session", path, "session", "log")["entries"][-1]
    assert last["command"].startswith("unit add") and last["undoable"] is False


# --------------------------------------------------------------------------- exit codes


def test_an_export_that_cannot_be_written_is_bad_input(d2d, tmp_path: Path,
                                                       data_dir: Path) -> None:
    d2d.ok("char", "new", "Rook", "--archetype", "thief")
    before = every_file(data_dir)
    for target in ("/nonexistent/x", str(tmp_path)):
        res = d2d("char", "export", "Rook", "--format", "toml", "-o", target)
        _one_line(res, 2, target.split("/")[1] if target == "/nonexistent/x" else target)
    assert every_file(data_dir) == before
    assert not Path("/nonexistent").exists()


def test_temp_files_left_under_our_own_pid_are_written_over(d2d, tmp_path: Path) -> None:
    # A killed writer whose pid is now this process's left its temp file, its .bak
    # link and its previous-.bak link: a commit writes over each (it used to remove
    # each first, present or not: a syscall a file, 0.1-0.3 ms right after an fsync).
    sess = tmp_path / "s.toml"
    d2d.ok("--session", sess, "--seed", "1", "fate", "draw")  # in this process
    d2d.ok("--session", sess, "fate", "draw")  # a .bak now: the next commit links it aside
    before = sess.read_text("utf-8")
    for suffix in ("tmp", "bak", "oldbak"):
        files.temp_path(sess, suffix).write_text(f"stale {suffix}\n", "utf-8")
    d2d.ok("--session", sess, "fate", "draw", "2")
    assert sess.read_text("utf-8") != before and "stale" not in sess.read_text("utf-8")
    assert (tmp_path / "s.toml.bak").read_text("utf-8") == before  # the file as it was
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".s.toml.")]
    assert left == []
    out = tmp_path / "out.txt"
    files.temp_path(out, "tmp").write_text("stale\n", "utf-8")
    files.write_atomic(out, b"new\n", None)
    assert out.read_bytes() == b"new\n" and not files.temp_path(out, "tmp").exists()
