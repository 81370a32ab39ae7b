"""Latency of the ``d2d scale`` lookups against the bare interpreter (DESIGN.md "Budgets").

Runs each command and ``python -c pass`` interleaved, N rounds, and prints medians and
ratios. A read-only lookup must stay within 8× the bare interpreter; exits 1 if not.

    .venv/bin/python bench/bench_scale.py [ROUNDS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

BUDGET = 8.0
LOOKUPS = {
    "scale mass 80kg --json": ["scale", "mass", "80kg", "--json"],
    "scale compare 2x4 9x1 --json": ["scale", "compare", "2x4", "9x1", "--json"],
    "scale speed 40kph --json": ["scale", "speed", "40kph", "--json"],
    "scale map car --speed 5x1 --json": ["scale", "map", "car", "--speed", "5x1", "--json"],
}


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    env = {**os.environ, "D2D_DATA_DIR": tempfile.mkdtemp(prefix="d2d-bench-")}
    cmds = {"python -c pass": [sys.executable, "-c", "pass"]}
    cmds.update({k: [sys.executable, "-m", "d2d_cli", *v] for k, v in LOOKUPS.items()})
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(rounds):
        for name, cmd in cmds.items():
            start = time.perf_counter()
            subprocess.run(cmd, capture_output=True, env=env, check=True)
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times["python -c pass"])
    worst = 0.0
    for name, ts in times.items():
        med = statistics.median(ts)
        worst = max(worst, med / base)
        print(f"{name:36} {med * 1000:7.1f} ms  {med / base:4.1f}×")
    print(f"budget: a lookup ≤ {BUDGET}× the bare interpreter — "
          f"{'met' if worst <= BUDGET else 'MISSED'} (worst {worst:.1f}×)")
    return 0 if worst <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
