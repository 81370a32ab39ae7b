"""The reliability suite of issue 30 item 8 at a larger scale than the test suite runs it
(tests/reliability_suite.py; tests/test_reliability.py runs it small): concurrency of
CLI and API in processes, SIGKILLs during state-changing commands (scene load, npc
turn, char import, undo …), hand edits of every table and of the journal, argument
fuzz; and (issue 39 item 6) the API from threads, a full disk at each step of a write,
``d2d serve`` killed while a page chooses. Prints each part's figures: lost, corrupt,
exit 1, files changed on a failing exit.

    .venv/bin/python bench/reliability.py               # ~15 minutes on 2 cores
    .venv/bin/python bench/reliability.py --scale 0.2   # a fifth of it
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import reliability_suite as suite  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", default="", help="run only the parts whose name holds "
                        "this text")
    options = parser.parse_args()
    scale = options.scale

    def n(x: int) -> int:
        return max(1, int(x * scale))

    parts = [
        ("concurrency (CLI + API processes)",
         lambda d: suite.concurrency(d, procs=n(50), per=20)),
        ("SIGKILLs during state-changing commands", lambda d: suite.kills(d, n=n(100))),
        ("hand edits of every table and the journal", lambda d: suite.hand_edits(d, n=n(120))),
        ("argument fuzz", lambda d: suite.fuzz(d, n=n(1100))),
        # issue 39 item 6: threads, a full disk, the server killed mid-choose
        ("API threads in one process", lambda d: suite.threads(d, workers=n(16), per=10)),
        ("a full disk at each step of a write", lambda d: suite.full_disk(d, n=n(120))),
        ("d2d serve killed mid-choose", lambda d: suite.server_kills(d, n=n(20))),
    ]
    for name, run in parts:
        if options.only not in name:
            continue
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            got = run(Path(d))
            print(f"{name}: {got} ({time.perf_counter() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
