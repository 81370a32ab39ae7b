"""Latency benchmark: interleaved medians against ``python -c pass`` (DESIGN.md "Budgets").

Run from the project root with the venv's interpreter:

    .venv/bin/python bench/bench.py            # 25 rounds
    .venv/bin/python bench/bench.py --rounds 60

Each round runs every case once, in turn, so slow drift of the machine touches all
cases alike; the report gives each case's median, its ratio to the bare interpreter and
the budget it belongs to. Nothing here is asserted by a test: timings are measured,
reported and judged by people (the closing notes quote these numbers).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
D2D = shutil.which("d2d", path=str(BIN)) or shutil.which("d2d")


def _roster(n: int) -> dict:
    from d2d_cli.rules import units
    from d2d_cli.rules.stats import parse_stat

    return units.roster_state({
        f"Goblin {i}": units.Unit(
            f"Goblin {i}",
            {s: parse_stat(v) for s, v in zip(units.STATS, ("2x1", "6x1", "2x1", "5x0"),
                                               strict=True)},
            skills={"Close Combat": 1, "Stealth": 1},
            conditions={"fatigue": i % 3, "bleeding": i % 2},
            target="Archer", move=5, action_cost=2, turn=2)
        for i in range(n)})


def build_long_campaign(path: Path, n_units: int = 1000) -> None:
    """A session as a long campaign leaves it: 1,000 units, 50 tasks, 2,000 journal
    entries (the newest 50 undoable, written by real edits)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from d2d_cli import session
    from d2d_cli.rules import fate
    from d2d_cli.session import journal

    session.create(path, seed=42)
    with session.edit(path, "bench setup") as tx:
        tx.put("units", _roster(n_units))
        tx.put("tasks", {f"task {i}": {"difficulty": 4, "challenge": 4 - i % 4,
                                       "progress": 4, "workers": ["Thief"]}
                         for i in range(50)})
    jp = session.journal_path(path)
    old = [journal.encode({"v": 2, "id": i, "op": "do", "at": "2026-01-01T00:00:00+00:00",
                           "command": f"fate draw {i % 5 + 1}", "summary": "revealed QH^ 10Sv"})
           for i in range(1, 1951)]
    jp.write_bytes(b"".join(old))
    for _ in range(50):
        with session.edit(path, "fate draw 2") as tx:
            deck = fate.Deck.from_state(tx.data["fate"])
            fate.draw(deck, 2, tx.rng())
            tx.put("fate", deck.to_state())
            tx.summary = "revealed two"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=25)
    args = ap.parse_args()
    if D2D is None:
        print("bench: no d2d on PATH or beside this interpreter; pip install the project")
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="d2d-bench-"))
    env = {**os.environ, "D2D_DATA_DIR": str(tmp / "data")}
    env.pop("D2D_SESSION", None)
    fresh, long, huge = tmp / "fresh.toml", tmp / "long.toml", tmp / "huge.toml"
    subprocess.run([D2D, "--seed", "1", "session", "new", str(fresh)], env=env, check=True,
                   capture_output=True)
    build_long_campaign(long)
    build_long_campaign(huge, 10_000)
    subprocess.run([D2D, "--session", str(huge), "session", "undo"], env=env, check=True,
                   capture_output=True)  # so the rounds alternate redo, undo, redo…

    def d2d(*a: str) -> list[str]:
        return [D2D, *a]  # type: ignore[list-item]

    cases: dict[str, tuple[list[str], str]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], "baseline"),
        "fate status --json": (d2d("--session", str(fresh), "fate", "status", "--json"),
                               "lookup ≤ 6×"),
        "fate draw --json": (d2d("--session", str(fresh), "fate", "draw", "--json"),
                             "state change ≤ 7×"),
        "fate die d20 --card 7S --json": (d2d("fate", "die", "d20", "--card", "7S", "--json"),
                                          "lookup ≤ 6×"),
        "--help": (d2d("--help"), "(reported)"),
        "long campaign: fate draw --json": (
            d2d("--session", str(long), "fate", "draw", "--json"), "≤ 1.5× fresh draw"),
        "long campaign: fate status --json": (
            d2d("--session", str(long), "fate", "status", "--json"), "≤ 1.5× fresh status"),
    }
    lookups = [  # one or more per area, all read-only
        ["scale", "mass", "80kg", "--json"],
        ["scale", "speed", "40kph", "--json"],
        ["scale", "compare", "2x4", "9x1", "--json"],
        ["scale", "map", "car", "--speed", "5x1", "--json"],
        ["conflict", "chart", "--json"],
        ["hit", "2S", "3H", "4C", "--level", "2", "--rival-level", "1", "--vs", "2x1", "--json"],
        ["crit", "--power", "6x1", "--armor", "2x1", "--hits", "3", "--types", "pierce",
         "--card", "pierce@torso", "--json"],
        ["ref", "bleeding", "--json"],
        ["--session", str(long), "status", "--json"],
        ["--session", str(long), "task", "list", "--json"],
    ]
    for argv in lookups:
        label = " ".join(a for a in argv if a != str(long) and a != "--session")
        if "--session" in argv:
            label = f"long campaign: {label}"
        cases[label] = (d2d(*argv), "lookup ≤ 6×")
    # Unit-aware rolls (issue 12): Levels, Difficulty and modifiers read by unit name.
    combat = tmp / "combat1.toml"
    subprocess.run([D2D, "--session", str(combat), "--seed", "1", "scene", "load", "combat1"],
                   env=env, check=True, capture_output=True)
    for argv in (["conflict", "Archer:7S^", "Goblin Scout:5S^", "--skill", "Ranged",
                  "--range", "3", "--cover", "25", "--json"],
                 ["hit", "9S", "10H", "8C", "--by", "Archer", "--vs", "Goblin Scout",
                  "--json"]):
        cases[f"units: {' '.join(argv)}"] = (d2d("--session", str(combat), *argv),
                                             "lookup ≤ 6×")
    cases["long campaign: unit condition add"] = (
        d2d("--session", str(long), "unit", "condition", "Goblin 5", "add", "stun",
            "--json"), "≤ 1.5× fresh draw")
    # 10,000 units: undo and redo alternate, so each always has something to do
    cases["10,000 units: session redo"] = (
        d2d("--session", str(huge), "session", "redo", "--json"), "≤ 0.5 s")
    cases["10,000 units: session undo"] = (
        d2d("--session", str(huge), "session", "undo", "--json"), "≤ 0.5 s")
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(args.rounds):
        for label, (argv, _) in cases.items():
            t0 = time.perf_counter()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[label].append(time.perf_counter() - t0)
    base = statistics.median(times["python -c pass"])
    medians = {k: statistics.median(v) for k, v in times.items()}
    print(f"{args.rounds} interleaved rounds on {os.cpu_count()} cores, Python "
          f"{sys.version.split()[0]}\n")
    print(f"{'case':50} {'median ms':>10} {'× pass':>8}  budget")
    for label, (_, budget) in cases.items():
        short = label if len(label) <= 50 else label[:47] + "..."
        print(f"{short:50} {medians[label] * 1000:10.1f} {medians[label] / base:8.2f}  {budget}")
    ratio_draw = medians["long campaign: fate draw --json"] / medians["fate draw --json"]
    ratio_status = medians["long campaign: fate status --json"] / medians["fate status --json"]
    print(f"\nlong campaign (1,000 units) / fresh: draw {ratio_draw:.2f}×, status "
          f"{ratio_status:.2f}× (budget ≤ 1.5×)")
    print(f"10,000 units ({huge.stat().st_size:,} bytes): session undo "
          f"{medians['10,000 units: session undo'] * 1000:.0f} ms, redo "
          f"{medians['10,000 units: session redo'] * 1000:.0f} ms (budget ≤ 500 ms)")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
