"""The session lock under load (issue 38 item 2), in real processes:

* **drain**: ``--waiters`` (100) ``clock tick`` commands queue behind a lock held for
  ``--hold`` (20) seconds; the time from the start until the last one is done, and the
  CPU seconds all of them used (waiting should cost none).
* **burst**: ``--burst`` (200) ``clock tick`` commands started at once with
  ``D2D_LOCK_TIMEOUT=300``: how many exited 3, whether the clock is start + 200.

Every command must exit 0 and the clock must end at start + N (no tick lost).
``--build DIR`` runs another checkout's ``d2d_cli`` (by PYTHONPATH) for a comparison —
e.g. the build before the queue in a temporary worktree; ``--rounds`` interleaves
this build and that one, so both see the same machine load. Compare as ratios.

    .venv/bin/python bench/lock.py --build /tmp/old-d2d --rounds 2
    .venv/bin/python bench/lock.py --waiters 20 --hold 3 --burst 40   # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOLDER = """
import fcntl, sys, time
f = open(sys.argv[1], "r+")
fcntl.flock(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def _env(build: str | None, data: Path) -> dict[str, str]:
    env = {**os.environ, "D2D_DATA_DIR": str(data), "D2D_LOCK_TIMEOUT": "300"}
    if build:
        env["PYTHONPATH"] = build
    return env


def _d2d(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "d2d_cli", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _clock(env: dict[str, str], path: Path) -> int:
    p = _d2d(env, "--session", str(path), "clock", "show", "--json")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    return int(json.loads(out)["result"]["clock"])


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(build: str | None, n: int, hold: float) -> dict[str, float]:
    """``n`` ticks started at once; with ``hold`` > 0 behind a lock held that long."""
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(build, Path(tmp) / "data")
        path = Path(tmp) / "s.toml"
        p = _d2d(env, "session", "new", str(path))
        assert p.wait(timeout=120) == 0
        start = _clock(env, path)
        cpu0 = _children_cpu()
        t0 = time.monotonic()
        holder = None
        if hold > 0:
            holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), str(hold)],
                                      stdout=subprocess.PIPE, text=True)
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        procs = [_d2d(env, "--session", str(path), "clock", "tick") for _ in range(n)]
        codes = [p.wait(timeout=900) for p in procs]
        wall = time.monotonic() - t0
        if holder is not None:
            holder.wait(timeout=60)
        cpu = _children_cpu() - cpu0
        end = _clock(env, path)
        return {"seconds": wall, "cpu": cpu, "exit0": codes.count(0), "exit3": codes.count(3),
                "other": sum(c not in (0, 3) for c in codes), "ticks": end - start, "n": n}


def _show(what: str, who: str, r: dict[str, float]) -> None:
    print(f"{what:6} {who:6} {r['seconds']:7.1f} s  cpu {r['cpu']:6.1f} s  exit0 {r['exit0']:4.0f}"
          f"  exit3 {r['exit3']:4.0f}  other {r['other']:3.0f}  clock +{r['ticks']:.0f}"
          f" of {r['n']:.0f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiters", type=int, default=100)
    parser.add_argument("--hold", type=float, default=20.0)
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--build", help="another checkout to compare (its folder)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--skip", choices=["drain", "burst"], action="append", default=[])
    a = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}", flush=True)
    builds = [("this", None)] + ([("other", a.build)] if a.build else [])
    drains: dict[str, list[float]] = {}
    for _ in range(a.rounds):
        for who, build in builds:
            if "drain" not in a.skip:
                r = _run(build, a.waiters, a.hold)
                _show("drain", who, r)
                drains.setdefault(who, []).append(r["seconds"])
            if "burst" not in a.skip:
                _show("burst", who, _run(build, a.burst, 0))
    if len(drains) == 2:
        mine, other = min(drains["this"]), min(drains["other"])
        print(f"drain ratio this/other (best of {a.rounds}): {mine / other:.2f}")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}", flush=True)


if __name__ == "__main__":
    main()
