"""Growth: what a long campaign costs. Two measurements:

* ``--latency``: one interleaved run of a state change (``unit condition … add stun
  --json``, each run from the same saved files, restored untimed) on a long campaign
  (1,000 units, 2,000 journal entries) against the same change on a fresh session, as
  an installed ``d2d`` runs (bench.py's venv). DESIGN.md's budget: ≤ 1.5× the fresh one.
* otherwise: run N state-changing commands (default 10,000) in one process on a
  session and report the journal's size against its bound (docs/architecture.md "The
  journal": at most 4 × the session file + 1 MiB).

    .venv/bin/python bench/growth.py --latency    # 1,000 units, 15 rounds
    .venv/bin/python bench/growth.py              # 10,000 commands, a few minutes
    .venv/bin/python bench/growth.py --commands 2000 --units 100

Nothing here is asserted by a test (tests/test_session_undo.py checks the bound with a
small floor); the closing notes quote this report.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

COMMANDS = [
    ["fate", "draw", "2"], ["unit", "condition", "Goblin 3", "add", "stun"],
    ["clock", "advance", "1"], ["fate", "coin"], ["task", "win", "task 1", "--hits", "1"],
    ["unit", "condition", "Goblin 3", "remove", "stun"], ["fate", "shuffle"],
    ["clock", "set", "1"], ["fate", "die", "d6"], ["unit", "target", "Goblin 7", "Archer"],
    ["unit", "target", "Goblin 7", "--clear"], ["task", "new", "t", "--difficulty", "3"],
    ["task", "drop", "t"], ["session", "undo"], ["session", "redo"],
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, default=10_000)
    ap.add_argument("--units", type=int, default=100)
    ap.add_argument("--latency", action="store_true", help="a change on a long campaign "
                    "against a fresh session (one interleaved run)")
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    if args.latency:
        return latency(args.rounds, 1000 if args.units == 100 else args.units)
    from bench import build_long_campaign  # type: ignore[import-not-found]
    from d2d_cli.cli import main as d2d
    from d2d_cli.session import journal

    tmp = Path(tempfile.mkdtemp(prefix="d2d-growth-"))
    os.environ["D2D_DATA_DIR"] = str(tmp / "data")
    path = tmp / "g.toml"
    build_long_campaign(path, args.units)
    jp = journal.path_for(path)
    worst = 0.0
    codes: dict[int, int] = {}
    t0 = time.perf_counter()
    for i in range(args.commands):
        argv = COMMANDS[i % len(COMMANDS)]
        if argv[:2] == ["task", "win"]:
            argv = ["task", "new", f"t{i}", "--difficulty", "2"]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = d2d(["--session", str(path), *argv])
        codes[code] = codes.get(code, 0) + 1
        size, bound = jp.stat().st_size, journal.bound(path.stat().st_size)
        worst = max(worst, size / bound)
    took = time.perf_counter() - t0
    size, file_size = jp.stat().st_size, path.stat().st_size
    entries = len(jp.read_bytes().splitlines())
    print(f"{args.commands:,} commands on a {args.units}-unit session in {took:.0f} s "
          f"(exit codes {codes})")
    print(f"session file {file_size:,} bytes; journal {size:,} bytes = "
          f"{size / file_size:.2f} × the file, {entries:,} entries")
    print(f"bound 4 × file + 1 MiB = {journal.bound(file_size):,} bytes; the journal "
          f"peaked at {worst:.0%} of its bound")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def latency(rounds: int, units: int) -> int:
    """Paired, shuffled rounds: each run of a case right after a ``python -c pass``; a
    case's ratio is the median of its runs' ratios to their pairs (as bench.py)."""
    import random
    import statistics
    import subprocess

    from bench import _timed, build_long_campaign, installed  # type: ignore[import-not-found]

    tmp = Path(tempfile.mkdtemp(prefix="d2d-growth-"))
    try:
        python, d2d = installed(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("D2D_")
               and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")}
        env.update(XDG_DATA_HOME=str(tmp / "xdg"), HOME=str(tmp / "home"),
                   XDG_CACHE_HOME=str(tmp / "cache"))
        subprocess.run([python, "-m", "compileall", "-q",
                        str(Path(__file__).resolve().parent.parent / "d2d_cli")],
                       env=env, check=True)
        os.environ["D2D_DATA_DIR"] = str(tmp / "unused")
        long, fresh = tmp / "long.toml", tmp / "fresh.toml"
        build_long_campaign(long, units)
        subprocess.run([d2d, "--session", str(fresh), "unit", "add", "Goblin 5", "--body",
                        "2x1", "--mind", "2x1", "--will", "2x1", "--speed", "5x0"],
                       env=env, check=True, capture_output=True)
        cases = {"fresh": fresh, f"{units} units": long}
        saved = {}
        for path in cases.values():  # at the table: a write follows a write (the cache
            # holds the file d2d wrote, and its grouping; a file edited by hand pays
            # one parse and one check of its grouping on its first write)
            subprocess.run([d2d, "--session", str(path), "unit", "condition", "Goblin 5",
                            "add", "bleeding"], env=env, check=True, capture_output=True)
            saved[path] = {p: p.read_bytes() for p in path.parent.glob(path.name + "*")}
        ratios: dict[str, list[float]] = {k: [] for k in cases}
        cpu_ratios: dict[str, list[float]] = {k: [] for k in cases}
        walls: dict[str, list[float]] = {k: [] for k in cases}
        order = list(cases)
        for n in range(rounds):
            random.Random(n).shuffle(order)
            for label in order:
                path = cases[label]
                for p, raw in saved[path].items():
                    p.write_bytes(raw)
                b_wall, b_cpu, _ = _timed([python, "-c", "pass"], env)
                wall, cpu, code = _timed([d2d, "--session", str(path), "unit", "condition",
                                        "Goblin 5", "add", "stun", "--json"], env)
                if code != 0:
                    raise SystemExit(f"growth: {label}: exit {code}")
                ratios[label].append(wall / b_wall)
                cpu_ratios[label].append(cpu / b_cpu)
                walls[label].append(wall)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in ratios.items()}
    cpu_med = {k: statistics.median(v) for k, v in cpu_ratios.items()}
    print(f"{rounds} interleaved rounds, load average {os.getloadavg()[0]:.1f}: "
          "unit condition add --json")
    for label in cases:
        print(f"  {label:12} {statistics.median(walls[label]) * 1000:7.1f} ms  "
              f"{med[label]:5.2f}× python -c pass (cpu {cpu_med[label]:5.2f}×)")
    long = f"{units} units"
    print(f"{long} / fresh: {med[long] / med['fresh']:.2f}× wall, "
          f"{cpu_med[long] / cpu_med['fresh']:.2f}× cpu (budget ≤ 1.5×)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
