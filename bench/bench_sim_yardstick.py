"""The budget figure of ``d2d sim`` (issue 40 item 1): its CPU over the yardstick's.

    .venv/bin/python bench/bench_sim_yardstick.py [--repeat N] [--yardstick PATH]
                                                  [--workers W]

The yardstick is a fixed pure-Python workload kept beside the project
(``../shared/yardstick.py`` from the project root, or ``--yardstick PATH``); it is run as
it is meant to be run, ``python yardstick.py`` in a fresh process. Each repetition runs,
in this order and one at a time: the yardstick, the default ``d2d --seed 2 sim combat1``
(Combat #1 to ±2 points at 95%: 2,200 fights) in a fresh process with a fresh data
folder, then the yardstick again. The CPU of each is its user + system time as a child
of this process (``resource.getrusage(RUSAGE_CHILDREN)`` before and after), so the sim's
figure includes its pool workers, which it waits for. Printed: each repetition's

    ratio = CPU(sim and its workers) / mean CPU(the two yardsticks around it)

with the load average (``os.getloadavg()``), then the median ratio. A ratio, not
seconds: it holds on a machine several times faster or slower, and under load as long as
the load is steady (the two yardsticks around it say how steady: their spread is
printed). The budget is ≤ 30× (about 10 s on 2 cores); the aim 6× (docs/solo.md
"Speed"). Nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_of(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """User + system CPU seconds of ``cmd`` and the children it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True,
                         cwd=ROOT).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--yardstick", type=Path, default=ROOT.parent / "shared" / "yardstick.py")
    ap.add_argument("--workers", type=int, default=None,
                    help="sim's --workers (default: sim's own, one per core)")
    a = ap.parse_args()
    if not a.yardstick.is_file():
        print(f"skipped: no yardstick at {a.yardstick} (the ratio needs the same fixed "
              "workload on the same machine; give --yardstick PATH)")
        return 0
    yard = [sys.executable, str(a.yardstick)]
    sim = [sys.executable, "-m", "d2d_cli", "--seed", "2", "sim", "combat1", "--json",
           *(["--workers", str(a.workers)] if a.workers else [])]
    ratios = []
    for i in range(a.repeat):
        y1, _ = cpu_of(yard)
        with tempfile.TemporaryDirectory() as d:
            s, out = cpu_of(sim, {**os.environ, "D2D_DATA_DIR": d})
        y2, _ = cpu_of(yard)
        import json

        runs = json.loads(out)["result"]["runs"]
        ratio = s / ((y1 + y2) / 2)
        ratios.append(ratio)
        load = os.getloadavg()
        print(f"run {i + 1}: sim combat1 ({runs:,} fights) {s:.2f} s CPU; yardstick "
              f"{y1:.2f} / {y2:.2f} s CPU; ratio {ratio:.1f}x "
              f"(load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    print(f"d2d --seed 2 sim combat1: {statistics.median(ratios):.1f}x the yardstick's CPU "
          f"(median of {len(ratios)}; budget <= 30x, aim 6x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
