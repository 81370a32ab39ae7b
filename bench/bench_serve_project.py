"""What one refresh of ``d2d serve`` costs (issue 35 item 6): the public projection and
each Player's, from a session's data and its last 32 journal entries, as the server
projects on every change (``serve/server.py`` ``refresh``: ``LOG_SHOWN * 4`` entries).

    .venv/bin/python bench/bench_serve_project.py             # 200 projections, 7 rounds
    .venv/bin/python bench/bench_serve_project.py --rounds 15 --profile

The session: Combat #1 under ``[rules] hands = "d2d"``, a round started, and 32 commands
of a night's play run through the CLI (oracles with quoted questions, Fate draws, Clock
ticks and events, moves, a conflict, round next…), so the journal holds what this build
writes. Measured two ways on the same data: the entries as written (``typed``), and the
same entries with their typed records taken out (``text``: a session journalled before
them, which the projection reads by parsing each command's text). Medians of the rounds;
``--profile`` prints where a projection spends its time. Nothing here is asserted by a
test: the figures are read as ratios (the machine is shared)."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COMMANDS = [
    ("oracle", "Is the gate open?", "--likely"),
    ("fate", "draw"),
    ("clock", "tick"),
    ("oracle", "Does the Goblin Scout see Wren's torch?", "--unlikely"),
    ("clock", "event", "add", "Reinforcements from the north", "4"),
    ("unit", "move", "Goblin Scout", "forward", "1"),
    ("oracle", "Will it rain before dusk?"),
    ("fate", "draw", "2"),
    ("round", "next"),
    ("oracle", "Is the bridge 'safe'?", "--likely"),
    ("clock", "tick"),
    ("weather", "wind"),
    ("oracle", "Do the goblins flee?"),
    ("fate", "draw"),
    ("unit", "move", "Goblin Skirmisher", "forward", "1"),
]


def make_session(folder: Path) -> Path:
    path = folder / "bench.toml"

    def d2d(*args: str) -> None:
        done = subprocess.run([sys.executable, "-m", "d2d_cli", "--session", str(path),
                               "--seed", "7", *args], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"d2d {' '.join(args)}: {done.stderr}")

    d2d("fate", "status")
    text = path.read_text("utf-8")
    path.write_text(text.replace("[rules]\n", '[rules]\nhands = "d2d"\n', 1), "utf-8")
    d2d("scene", "load", "combat1")
    d2d("round", "start")
    d2d("task", "new", "Pick the lock", "3")
    for line in COMMANDS * 2:
        d2d(*line)
    return path


def project_once(data: dict[str, Any], log: list[dict[str, Any]]) -> None:
    from d2d_cli.serve import project

    project.public(data, log, "bench")
    for name in project.player_names(data):
        project.player(data, name)


def timed(data: dict[str, Any], logs: list[list[dict[str, Any]]], n: int, rounds: int
          ) -> list[float]:
    """For each log, the median over ``rounds`` of the mean seconds of one whole
    projection; the logs take turns within each round (the load drifts, not the ratio)."""
    out: list[list[float]] = [[] for _ in logs]
    for _ in range(rounds):
        for i, log in enumerate(logs):
            t = time.perf_counter()
            for _ in range(n):
                project_once(data, log)
            out[i].append((time.perf_counter() - t) / n)
    return [statistics.median(x) for x in out]


def untyped(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "rec"} for row in log]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    from d2d_cli import session
    from d2d_cli.serve import project

    with tempfile.TemporaryDirectory() as tmp:
        path = make_session(Path(tmp))
        data, log = session.read_with_log(path, project.LOG_SHOWN * 4, typed=True)
    typed_rows = sum(1 for r in log if isinstance(r.get("rec"), dict))
    print(f"{len(log)} journal entries, {typed_rows} with a typed record; load "
          f"{os.getloadavg()[0]:.2f}")
    project_once(data, log)  # imports and caches outside the timing
    plain = untyped(log)
    t_text, t_typed = timed(data, [plain, log], args.n, args.rounds)
    t_log_text = timed_part(lambda: (project._log(plain), project._oracle(plain)),
                            args.n, args.rounds)
    t_log_typed = timed_part(lambda: (project._log(log), project._oracle(log)),
                             args.n, args.rounds)
    print(f"whole projection: text {t_text * 1e3:.2f} ms, typed {t_typed * 1e3:.2f} ms "
          f"(typed/text {t_typed / t_text:.2f})")
    print(f"log + oracle: text {t_log_text * 1e3:.3f} ms ({t_log_text / t_text:.0%} of a "
          f"projection), typed {t_log_typed * 1e3:.3f} ms ({t_log_typed / t_typed:.0%}); "
          f"typed/text {t_log_typed / t_log_text:.2f}")
    # issue 35 item 2: the odds of the asked Player's cards (3 cards, Upper and Lower)
    # against an NPC's attack, worked out anew on every projection or kept by the cache
    asked = {**data, "round": {**data["round"], "asking": {
        "attacker": "Goblin Skirmisher", "target": "Archer", "player": "Player1"}}}
    project.player(asked, "Player1")
    n = max(args.n // 10, 5)
    fresh = timed_part(lambda: (project._ODDS_CACHE.clear(), project.player(asked, "Player1")),
                       n, args.rounds)
    kept = timed_part(lambda: project.player(asked, "Player1"), n, args.rounds)
    plain_page = timed_part(lambda: project.player(data, "Player1"), n, args.rounds)
    print(f"asked Player's page: odds worked out {fresh * 1e3:.2f} ms, cached "
          f"{kept * 1e3:.2f} ms, no question {plain_page * 1e3:.2f} ms (cached/no question "
          f"{kept / plain_page:.2f}, worked out/no question {fresh / plain_page:.1f})")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    if args.profile:
        import cProfile
        import pstats

        for name, rows in (("text", plain), ("typed", log)):
            print(f"--- {name}")
            prof = cProfile.Profile()
            prof.runcall(lambda rows=rows: [project_once(data, rows) for _ in range(50)])
            pstats.Stats(prof).sort_stats("cumulative").print_stats(12)


def timed_part(fn: Any, n: int, rounds: int) -> float:
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        out.append((time.perf_counter() - t) / n)
    return statistics.median(out)


if __name__ == "__main__":
    main()
