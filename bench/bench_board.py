"""The board's speed (issue 21, DESIGN.md "Budgets"): deriving a Conflict's geometry on a
60×60 map with 100 placed units (≤ 1 ms in-process), and ``d2d board`` against ``python -c
pass`` (a view: ≤ 9×).

    .venv/bin/python bench/bench_board.py               # 2,000 derivations, 10 rounds
    .venv/bin/python bench/bench_board.py --rounds 25

In-process: ``Field.derive`` (Range, Arcs, Flanking, Line of Sight, Cover with its
reveal, High Ground, Confined, Outnumbered and the Verify checks) for attacks between
placed units, medians; and the whole path of a command from the session's data
(``field(data)``: the map parsed, every unit's placement read, then one derive). One-shot:
``d2d board`` (human and ``--json``) on the Combat #1 scene and on the 100-unit 60×60 scene,
each run paired with a ``python -c pass`` just before it (bench/bench.py's method and its
installed-style ``d2d``). Nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SIDE, UNITS = 60, 100


def scene_data(seed: int = 21) -> dict[str, Any]:
    """A session's data: a 60×60 map (rocks, walls, brush, hills) and 100 placed units of
    two factions."""
    from d2d_cli.rules.board.grid import COMPASS, space_name
    from d2d_cli.rules.scale.stats import parse_stat
    from d2d_cli.rules.units import roster as units

    rng = random.Random(seed)
    rows = ["".join(rng.choices(".o#%~2", weights=(88, 4, 2, 3, 2, 1))[0]
                    for _ in range(SIDE)) for _ in range(SIDE)]
    open_spaces = [(x, y) for y in range(SIDE) for x in range(SIDE) if rows[y][x] in ".%~2"]
    roster = {}
    for i, (x, y) in enumerate(rng.sample(open_spaces, UNITS)):
        name = f"Unit {i}"
        roster[name] = units.Unit(
            name, {s: parse_stat(v) for s, v in zip(units.STATS, ("8x1", "5x1", "5x1", "5x0"),
                                                    strict=True)},
            faction="Heroes" if i % 2 else "Goblins", skills={"Ranged": 1},
            extra={"space": space_name((x, y)), "facing": rng.choice(COMPASS)})
    return {"board": {"rows": rows}, "units": units.roster_state(roster)}


def attacks(data: dict[str, Any], n: int) -> list[tuple[Any, Any]]:
    """``n`` pairs of units where the first may shoot the second (in Arc, in sight)."""
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.board.derive import field
    from d2d_cli.rules.units.roster import roster

    units = list(roster(data).values())
    f = field(data, units)
    assert f is not None
    pairs = []
    for a in units:
        for b in units:
            if a is b:
                continue
            try:
                f.derive(a, b, "ranged")
            except D2DError:
                continue
            pairs.append((a, b))
    random.Random(1).shuffle(pairs)
    return pairs[:n]


def in_process(runs: int) -> None:
    from d2d_cli.rules.board.derive import field
    from d2d_cli.rules.units.roster import roster

    data = scene_data()
    units = roster(data)
    f = field(data, units.values())
    assert f is not None
    pairs = attacks(data, runs)
    times = []
    for a, b in pairs:
        t = time.perf_counter()
        f.derive(a, b, "ranged")
        times.append(time.perf_counter() - t)
    whole = []
    for a, b in pairs[:200]:
        t = time.perf_counter()
        g = field(data, units.values())  # from the session's data, as a command does
        assert g is not None
        g.derive(units[a.name], units[b.name], "ranged")
        whole.append(time.perf_counter() - t)
    ranges = [f.derive(a, b, "ranged").range for a, b in pairs]  # type: ignore[union-attr]
    print(f"in-process, {SIDE}×{SIDE} map, {UNITS} placed units, {len(pairs)} attacks "
          f"(Range median {statistics.median(ranges)}, max {max(ranges)}):")
    print(f"  Field.derive                      median {statistics.median(times) * 1e3:.3f} ms"
          f"  p95 {sorted(times)[int(len(times) * .95)] * 1e3:.3f} ms   budget ≤ 1 ms")
    print(f"  field(data, roster) + derive      median {statistics.median(whole) * 1e3:.3f} ms"
          f"  p95 {sorted(whole)[int(len(whole) * .95)] * 1e3:.3f} ms")


def one_shot(rounds: int) -> None:
    from bench import installed  # bench/bench.py: a d2d as installed, no import hook
    from d2d_cli import session

    tmp = Path(tempfile.mkdtemp(prefix="d2d-bench-board-"))
    try:
        python, d2d = installed(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("D2D_")
               and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")}
        env.update(XDG_DATA_HOME=str(tmp / "xdg"), HOME=str(tmp / "home"), COLUMNS="80")
        subprocess.run([python, "-m", "compileall", "-q", str(ROOT / "d2d_cli")], env=env,
                       check=True)
        c1 = tmp / "combat1.toml"
        subprocess.run([d2d, "--session", str(c1), "scene", "load", "combat1"], env=env,
                       check=True, capture_output=True)
        big = tmp / "big.toml"
        session.create(big, seed=1)
        data = scene_data()
        with session.edit(big, "bench setup") as tx:
            tx.put("units", data["units"])
            tx.put("board", data["board"])
        cases = {"python -c pass": [python, "-c", "pass"]}
        for label, path in (("combat1", c1), (f"{UNITS} units, {SIDE}×{SIDE}", big)):
            for extra in ((), ("--json",)):
                cases[f"board {label} {' '.join(extra)}".strip()] = [
                    d2d, "--session", str(path), "board", *extra]
        walls: dict[str, list[float]] = {k: [] for k in cases}
        base: dict[str, list[float]] = {k: [] for k in cases}
        order = list(cases)
        for _ in range(rounds):
            random.shuffle(order)
            for label in order:
                t = time.perf_counter()
                subprocess.run(cases["python -c pass"], env=env, check=True,
                               stdout=subprocess.DEVNULL)
                b = time.perf_counter() - t
                t = time.perf_counter()
                subprocess.run(cases[label], env=env, check=True, stdout=subprocess.DEVNULL)
                walls[label].append(time.perf_counter() - t)
                base[label].append(b)
        print(f"\none-shot, {rounds} interleaved rounds on {os.cpu_count()} cores, load "
              f"{os.getloadavg()[0]:.1f} (each run paired with a python -c pass):")
        for label in cases:
            ratio = statistics.median(w / b for w, b in zip(walls[label], base[label],
                                                            strict=True))
            budget = "baseline" if label.startswith("python") else "view ≤ 9×"
            print(f"  {label:34} {statistics.median(walls[label]) * 1e3:7.1f} ms "
                  f"{ratio:6.2f}×  {budget}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--runs", type=int, default=2000, help="in-process derivations")
    ap.add_argument("--no-one-shot", action="store_true")
    args = ap.parse_args()
    in_process(args.runs)
    if not args.no_one_shot:
        one_shot(args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
