"""Instructions a Combat #1 fight costs: the figure every cut of the sim compares.

    .venv/bin/python bench/bench_sim_instructions.py [--against CHECKOUT]

CPU seconds move with the machine and its load (docs/solo.md "Speed"); instructions do
not: ``valgrind --tool=cachegrind`` counts them the same for the same code, interpreter,
inputs and hash seed (``PYTHONHASHSEED=0``), whatever else the machine is doing. Each
checkout (this one, and ``--against`` another, e.g. a ``git worktree`` of the commit
before) plays 20, 60, 100 and 300 Combat #1 fights in one process
(``rules.assistant.sim.play_runs``, ``--pc best``, seed 2, the cyclic collector's
first threshold raised as the ``d2d`` command raises it, ``d2d_cli.__main__``), each
count in a fresh process, and prints the start-up with the first 20 fights and the
instructions a fight over fights 20–60 and 100–300 (the difference of two runs over
the fights between). Without valgrind it says so and
stops. Nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGHTS = (20, 60, 100, 300)

PLAY = """import gc, sys
sys.path.insert(0, sys.argv[2])
from d2d_cli.__main__ import FIRST_THRESHOLD
gc.set_threshold(FIRST_THRESHOLD, *gc.get_threshold()[1:])  # as the d2d command runs
from d2d_cli.operations.sim import _start
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.core.options import DEFAULTS
_, start, _ = _start("combat1", {})
goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
sim.play_runs(start, goals, 2, range(int(sys.argv[1])), DEFAULTS, "best")
"""


def instructions(checkout: Path, fights: int) -> int:
    """The instructions of a fresh process playing ``fights`` fights of ``checkout``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as data:
        env.update(PYTHONHASHSEED="0", D2D_DATA_DIR=data)
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no",
             "--cachegrind-out-file=/dev/null", sys.executable, "-c", PLAY, str(fights),
             str(checkout)], cwd=checkout, env=env, capture_output=True, text=True,
            check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def measure(checkout: Path) -> dict[int, int]:
    instructions(checkout, 1)  # the bytecode of an edited module compiled, not counted
    return {n: instructions(checkout, n) for n in FIGHTS}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another checkout to measure beside")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("skipped: no valgrind on this machine (it counts the instructions)")
        return 0
    builds = [("this", ROOT)] + ([("against", a.against.resolve())] if a.against else [])
    got = {label: measure(path) for label, path in builds}
    print(f"{'':9} {'start + 20 fights':>18} {'a fight, 20–60':>15} {'a fight, 100–300':>17}")
    for label, n in got.items():
        print(f"{label:9} {n[20] / 1e9:16.3f} G {(n[60] - n[20]) / 40e6:13.2f} M "
              f"{(n[300] - n[100]) / 200e6:15.2f} M")
    if a.against:
        new, old = got["this"], got["against"]
        print(f"{'ratio':9} {new[20] / old[20]:18.3f} "
              f"{(new[60] - new[20]) / (old[60] - old[20]):15.3f} "
              f"{(new[300] - new[100]) / (old[300] - old[100]):17.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
