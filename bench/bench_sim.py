"""Benchmark of ``d2d sim`` (issue 22 item 7).

    .venv/bin/python bench/bench_sim.py [--runs N] [--workers W] [--profile]

Reports, on this machine:
- complete Combat #1 fights per second, in-process on one core and on ``--workers``
  processes (``rules.assistant.sim.simulate``);
- the wall time of ``d2d --seed 1 sim combat1 --runs N --workers W --json`` in a fresh
  process, start-up included (the budget: 10,000 fights in under 15 s on 2 cores);
- the wall time of the default ``d2d --seed 2 sim combat1`` (``--precision 2``: 2,200
  fights) in a fresh process (issue 27's budget: at most 10 s on 2 cores);
- how the cost grows with units: a 1-versus-1, a 10-versus-10 and a 50-versus-50 scene
  of Goblins
  (every unit a Non-Player; goal: every Rival down), fights per second on one core;
- with ``--profile``, where a Combat #1 fight's time goes (cProfile, top 25, then the
  share of each step of a fight: :data:`PARTS`).
The budget figure (sim's CPU over a fixed yardstick's, issue 40) is
``bench/bench_sim_yardstick.py``.
Nothing here is asserted by a test: numbers are read by people (the closing notes).
"""

from __future__ import annotations

import argparse
import copy
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from d2d_cli import tables  # noqa: E402
from d2d_cli.rules.assistant import goals as g  # noqa: E402
from d2d_cli.rules.assistant import sim  # noqa: E402
from d2d_cli.rules.overview import scene  # noqa: E402

GOBLIN = {"body": "2x1", "mind": "6x1", "will": "2x1", "speed": "5x0",
          "skills": {"Close Combat": 1}, "player": "Non-Player"}


def combat1() -> dict:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def versus(n: int) -> dict:
    raw = {"name": f"{n} v {n}", "map": "personal",
           "factions": {"Red": {"goal": "rout Blue"}, "Blue": {"goal": "rout Red"}},
           "units": {f"{side} {i}": {**GOBLIN, "faction": side}
                     for side in ("Red", "Blue") for i in range(1, n + 1)},
           "goals": {"Red": {"any": [["rivals down"]]}, "Blue": {"any": [["rivals down"]]}}}
    return dict(scene.load(raw, {})[0])


def rate(start: dict, runs: int, workers: int = 1) -> float:
    goals = g.parse(start["scene"]["goals"], start)
    t0 = time.perf_counter()
    sim.simulate(start, goals, 1, runs, workers)
    return runs / (time.perf_counter() - t0)


def wall(runs: int | None, workers: int, seed: int = 1) -> float:
    """A fresh ``d2d sim combat1`` end to end; ``runs`` None: the default ``--precision
    2`` (issue 27 item 12's budget: at most 10 s on 2 cores)."""
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "D2D_DATA_DIR": d}
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "d2d_cli", "--seed", str(seed), "sim",
                        "combat1", *(["--runs", str(runs)] if runs is not None else []),
                        "--workers", str(workers), "--json"],
                       check=True, capture_output=True, env=env)
        return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--profile-only", action="store_true",
                    help="only the profile (no rates, no wall times)")
    a = ap.parse_args()
    start = combat1()
    if a.profile_only:
        profile(start)
        return
    rate(start, 20)  # warm the caches (tables, odds) as a long run would
    print(f"Combat #1, 1 core:            {rate(start, max(50, a.runs // 10)):8.1f} fights/s")
    print(f"Combat #1, {a.workers} workers:          "
          f"{rate(start, a.runs, a.workers):8.1f} fights/s")
    w = wall(a.runs, a.workers)
    print(f"d2d sim combat1 --runs {a.runs} --workers {a.workers}: {w:.2f} s wall "
          f"({a.runs / w:.0f} fights/s, start-up included)")
    print(f"d2d --seed 2 sim combat1 (--precision 2, 2,200 fights) --workers {a.workers}: "
          f"{wall(None, a.workers, 2):.2f} s wall (load {os.getloadavg()[0]:.1f})")
    for n, runs in ((1, 200), (10, 20), (50, 4)):
        print(f"{n} v {n}, 1 core:              {rate(versus(n), runs):8.2f} fights/s")
    if a.profile:
        profile(start)


def profile(start: dict, runs: int = 100) -> None:
    """cProfile on ``runs`` Combat #1 fights (after 20 that warm the caches)."""
    import cProfile
    import pstats

    goals = g.parse(start["scene"]["goals"], start)
    sim.play_runs(start, goals, 2, range(1000, 1020))
    import time as clock

    prof = cProfile.Profile(clock.process_time)  # CPU, not wall: robust to load
    prof.enable()
    sim.play_runs(start, goals, 2, range(runs))
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(25)
    shares(stats)


# Where a fight's time goes, by the step of the fight (each a rules call the command
# makes) and by what every step pays (the unit tables turned into Units and back, the
# situation both a conflict and a hit assess). Cumulative: the parts overlap.
PARTS = (("sim.py", "turns", "the round's Actions (all of a round but start and end)"),
         ("sim.py", "exchange", "an attack or a task: act, conflict, hit, crit, task"),
         ("engine.py", "conflict", "  conflict (ask: situation; resolve: the cards)"),
         ("engine.py", "hit", "  hit"),
         ("engine.py", "crit", "  crit (and the Luck it may play)"),
         ("engine.py", "act", "  unit act"),
         ("engine.py", "respond", "  unit respond (the Target's Action)"),
         ("policy.py", "plan", "the policy's plan (target, movement, weapon, card)"),
         ("engine.py", "move", "unit move"),
         ("engine.py", "round_start", "round start"),
         ("engine.py", "round_end", "round end"),
         ("sim.py", "_check", "the goals looked at after each Action"),
         ("situation.py", "assess", "every situation assessed (conflict, hit, policy)"),
         ("roster.py", "from_state", "every unit table made a Unit"),
         ("roster.py", "to_state", "every Unit stored as a table"))


def shares(stats: object) -> None:
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(ct for (f, _, name), (_, _, _, ct, _) in raw.items()
                if f.endswith("/sim.py") and name == "play_runs")
    print(f"Where a Combat #1 fight's time goes (cumulative, of {total:.2f} s profiled):")
    for file, func, what in PARTS:
        got = [(cc, ct) for (f, _, name), (cc, _, _, ct, _) in raw.items()
               if f.endswith("/" + file) and name == func]
        calls = sum(c for c, _ in got)
        ct = sum(t for _, t in got)
        print(f"  {100 * ct / total:5.1f}%  {calls:7d} calls  {what}")


if __name__ == "__main__":
    main()
