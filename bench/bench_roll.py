"""In-process micro-benchmark of ``d2d roll`` and ``d2d odds`` (issue 13).

    .venv/bin/python bench/bench_roll.py

Reports, as medians of repeated runs on this machine:
- rolls per second of ``4d6kh3`` (the whole typed result, and the total alone);
- ``odds conflict fate fate`` in ms: the rules function, and the whole command
  in-process (session read, JSON out);
- the time of exact odds of ``100d6kh99`` and of the largest pools the limits allow,
  beside the cost estimated before the work;
- the import cost of the two command modules.
Nothing here is asserted by a test: numbers are read by people (the closing notes).
"""

from __future__ import annotations

import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from d2d_cli.rules.odds import exact as odds  # noqa: E402
from d2d_cli.rules.roll import notation as dn  # noqa: E402


def rolls_per_second(text: str, full: bool, seconds: float = 1.0) -> float:
    e = dn.parse(text)
    rng = random.Random(1)
    rates = []
    for _ in range(5):
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 5:
            for _ in range(1000):
                if full:
                    dn.roll(e, rng)
                else:
                    dn.sample_total(e, rng)
            n += 1000
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def largest_allowed(pattern: str) -> str:
    """The largest N for which the limits allow exact odds of the pattern (kh N−1)."""
    def text(n: int) -> str:
        return pattern.format(n, n - 1)

    lo, hi = 2, dn.MAX_DICE
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            dn.check_odds(dn.parse(text(mid)))
            lo = mid
        except Exception:
            hi = mid - 1
    return text(lo)


def median_ms(fn, runs: int = 30) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    for text in ("4d6kh3", "d20 + 5 vs 15 per 5 crit 20 fumble 1", "3cp=hearts"):
        full = rolls_per_second(text, True)
        total = rolls_per_second(text, False)
        print(f"roll {text!r}: {full:,.0f} rolls/s (typed result), {total:,.0f} rolls/s "
              "(total only)")

    fresh = odds.Piles.fresh()
    view = odds.DeckView("fresh", 54, 0)
    first = time.perf_counter()
    odds.conflict_odds("fate", "fate", fresh, view)
    cold = (time.perf_counter() - first) * 1000
    warm = median_ms(lambda: odds.conflict_odds("fate", "fate", fresh, view))
    card = median_ms(lambda: odds.conflict_odds("fate", "fate", fresh, view,
                                                fate_orientation="card"))
    print(f"\nodds conflict fate fate (rules): {warm:.2f} ms median, {cold:.2f} ms first "
          f"call; fate_orientation=card: {card:.2f} ms")

    from d2d_cli.cli import main as cli_main

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["D2D_DATA_DIR"] = tmp
        session = str(Path(tmp) / "bench.toml")
        with redirect_stdout(io.StringIO()):
            cli_main(["--session", session, "--seed", "1", "fate", "draw", "5"])

            def command() -> None:
                cli_main(["--session", session, "odds", "conflict", "fate", "fate", "--json"])

            cmd = median_ms(command)
        print(f"odds conflict fate fate --json (whole command in-process): {cmd:.2f} ms")

    print("\nexact odds (estimate before work → real time):")
    largest = [largest_allowed(f) for f in ("{}d6", "{}d6kh{}", "{}d20", "{}d20kh{}",
                                            "{}d100", "{}d6>=5")]
    for text in ("100d6kh99", "4d6kh3", *largest, "20d1000", "60d6!x5",
                 "{d20, d20, d20}kh2", "40cf", "30d6 * 30d6",
                 "d20 + 20d20 vs 200 crit 20 fumble 1"):
        e = dn.parse(text)
        est = dn.estimate(e)
        start = time.perf_counter()
        dn.odds(e)
        real = time.perf_counter() - start
        print(f"  {text:26} estimated {est:6.3f} s   real {real:6.3f} s")
    for text in ("1000d6kh999", "10d1000kh5", "1000d1000", "500d100kh250",
                 "{d20, d20, d20, d20}kh2", "54cf"):
        start = time.perf_counter()
        try:
            dn.odds(dn.parse(text))
            verdict = "computed"
        except Exception as err:  # BadInput: refused
            verdict = f"refused ({type(err).__name__})"
        print(f"  {text:26} {verdict} in {(time.perf_counter() - start) * 1000:.1f} ms")

    print("\nimport cost (python -X importtime, cumulative µs):")
    for mod in ("d2d_cli.commands.roll", "d2d_cli.commands.odds"):
        out = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {mod}"],
                             capture_output=True, text=True).stderr.splitlines()
        line = next((x for x in out if x.rstrip().endswith(f"| {mod}")), "")
        print(f"  {mod}: {line.split('|')[1].strip() if line else '?'} µs (with Typer)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
