"""The session lock (issue 38 item 2): first come, first served whatever each waiter's
D2D_LOCK_TIMEOUT; a ticket is stale only when its owner is gone. Real processes, small
scale, no timing asserted (the drain and burst figures live in bench/lock.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers import run_process

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock and SIGKILL")

# A holder of the session's lock in its own process (the lock is an flock on the file).
HOLDER = """
import fcntl, sys, time
f = open(sys.argv[1], "r+")
fcntl.flock(f, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.readline()
"""


def _new(tmp_path: Path, name: str = "s.toml") -> Path:
    path = tmp_path / name
    assert run_process("session", "new", str(path)).returncode == 0
    return path


def _start(path: Path) -> int:
    res = run_process("--session", str(path), "clock", "show", "--json")
    assert res.returncode == 0, res.stderr
    return int(json.loads(res.stdout)["result"]["clock"])


def _tickets(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f".{path.name}.*.wait"))


def _until(what: str, ok: object) -> None:
    """Poll ``ok()`` (bounded: 60 s) — the test's own waiting, not d2d's."""
    deadline = time.monotonic() + 60
    while not ok():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


@contextmanager
def _holder(path: Path) -> Iterator[subprocess.Popen[str]]:
    p = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "locked"
        yield p
    finally:
        if p.poll() is None:
            p.kill()
        p.wait(timeout=10)


def _tick(path: Path, timeout: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "d2d_cli", "--session", str(path), "clock", "tick", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "D2D_LOCK_TIMEOUT": timeout})


def _queue(path: Path, timeouts: list[str]) -> list[subprocess.Popen[str]]:
    """Start one ``clock tick`` per timeout, each after the one before holds a ticket."""
    procs = []
    for t in timeouts:
        procs.append(_tick(path, t))
        n = len(procs)
        _until("no ticket taken", lambda n=n: len(_tickets(path)) >= n)
    return procs


def _clock(p: subprocess.Popen[str]) -> int:
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    return int(json.loads(out)["result"]["clock"])


def test_waiters_are_served_in_order_whatever_their_timeouts(tmp_path: Path) -> None:
    """First come, first served: six waiters with different D2D_LOCK_TIMEOUTs queue
    behind a holder; on release the clock ticks 1..6 in the order they queued."""
    path = _new(tmp_path)
    t0 = _start(path)
    with _holder(path) as h:
        procs = _queue(path, ["90", "20", "300", "30", "60", "25"])
        names = [t.name for t in _tickets(path)]
        assert len(names) == 6 and names == sorted(names)  # tickets in arrival order
        h.kill()
    assert [_clock(p) for p in procs] == [t0 + i for i in range(1, 7)]
    assert _tickets(path) == []  # every ticket taken back


def test_a_waiter_that_times_out_removes_only_its_own_ticket(tmp_path: Path) -> None:
    """Issue 38: a waiter judged another's ticket stale by its *own* timeout and deleted
    it, so the first in line lost its place for good. Now a short-timeout waiter that
    arrives after the first has waited longer than that timeout gives up (exit 3) and
    takes back only its own ticket; the first is still in line and served first."""
    path = _new(tmp_path)
    t0 = _start(path)
    with _holder(path) as h:
        (first,) = _queue(path, ["120"])
        mine = _tickets(path)
        time.sleep(1.5)  # the first's ticket is now older than 0.2 s + 1 s
        late = run_process("--session", str(path), "clock", "tick",
                           env={"D2D_LOCK_TIMEOUT": "0.2"})
        assert late.returncode == 3 and "locked by another d2d command" in late.stderr
        assert _tickets(path) == mine  # the first's ticket untouched, the late one gone
        after = _queue(path, ["120"])  # a newcomer still queues behind the first
        h.kill()
    assert [_clock(first), _clock(after[0])] == [t0 + 1, t0 + 2]


def test_a_ticket_whose_owner_is_dead_is_passed_over(tmp_path: Path) -> None:
    """A ticket left by a killed command (its pid gone, its flock freed) does not hold
    up the line: the next command removes it and runs."""
    path = _new(tmp_path)
    t0 = _start(path)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait(timeout=30)
    stale = tmp_path / f".{path.name}.{time.time_ns() - 10**9:020d}.{gone.pid}.wait"
    stale.write_bytes(b"")
    res = run_process("--session", str(path), "clock", "tick", "--json",
                      env={"D2D_LOCK_TIMEOUT": "30"})
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["result"]["clock"] == t0 + 1
    assert not stale.exists() and _tickets(path) == []


def test_a_killed_waiter_in_the_middle_does_not_stop_the_line(tmp_path: Path) -> None:
    path = _new(tmp_path)
    t0 = _start(path)
    with _holder(path) as h:
        a, b, c = _queue(path, ["120", "120", "120"])
        b.send_signal(signal.SIGKILL)
        b.wait(timeout=30)
        # the one behind it wakes (its owner's flock is gone) and removes it at once
        _until("the dead waiter's ticket removed", lambda: len(_tickets(path)) == 2)
        assert a.poll() is None and c.poll() is None  # both still in line
        h.kill()
    assert [_clock(a), _clock(c)] == [t0 + 1, t0 + 2]
    assert _tickets(path) == []


def test_a_sigkilled_holder_frees_the_lock(tmp_path: Path) -> None:
    path = _new(tmp_path)
    t0 = _start(path)
    with _holder(path) as h:
        (waiter,) = _queue(path, ["120"])
        assert waiter.poll() is None
        h.send_signal(signal.SIGKILL)
    assert _clock(waiter) == t0 + 1


def test_threads_of_one_process_queue_in_order(tmp_path: Path) -> None:
    """``d2d serve`` runs commands in threads: a flock belongs to an open file, so two
    threads of one process wait for each other and queue like processes."""
    import fcntl
    import threading

    from d2d_cli.session.lock import locked

    path = _new(tmp_path)
    order: list[int] = []
    with open(path, "r+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        threads = []
        for i in range(4):
            def run(i: int = i) -> None:
                with locked(path):
                    order.append(i)
            threads.append(threading.Thread(target=run))
            threads[-1].start()
            _until("no ticket taken", lambda i=i: len(_tickets(path)) >= i + 1)
        fcntl.flock(f, fcntl.LOCK_UN)
    for t in threads:
        t.join(timeout=60)
    assert order == [0, 1, 2, 3] and _tickets(path) == []
