"""A `d2d sim` stopped any way leaves no worker behind (issue 40 item 1): the workers of a
`d2d sim --precision 2 --workers 2` killed by a caller's timeout (SIGKILL) lived on as
orphans for 52 minutes. Each worker now ends itself when its parent is gone, and leaves
Ctrl-C to the parent, which terminates the pool.

Real processes: the sim runs as `python -m d2d_cli`, its workers are found through
/proc (Linux), the parent is stopped by SIGKILL, SIGTERM or SIGINT, and the test waits
(up to a bound, never asserting a time) until no worker is left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="finds the workers through /proc (Linux)")


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid …: comm may hold spaces, so read after its last ")"
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"  # a zombie has ended


def _wait_for(check: object, bound: float) -> bool:
    end = time.monotonic() + bound
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return bool(check())  # type: ignore[operator]


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT],
                         ids=["SIGKILL", "SIGTERM", "SIGINT"])
@pytest.mark.parametrize("mode", [["--precision", "0.1"], ["--runs", "100000"]],
                         ids=["precision", "runs"])
def test_a_stopped_sim_leaves_no_worker(how: int, mode: list[str], data_dir: Path) -> None:
    env = {**os.environ, "D2D_DATA_DIR": str(data_dir)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "d2d_cli", "--seed", "2", "sim", "combat1", "--workers",
         "2", *mode, "--json"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # the pool is up: two workers (children of the sim) exist
        assert _wait_for(lambda: len(_children(proc.pid)) >= 2, 60), "no workers started"
        workers = _children(proc.pid)
        os.kill(proc.pid, how)
        proc.wait(timeout=30)
        assert _wait_for(lambda: not any(_alive(w) for w in workers), 10), \
            f"workers left after {signal.Signals(how).name}: {workers}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for w in _children(proc.pid):
            os.kill(w, signal.SIGKILL)
