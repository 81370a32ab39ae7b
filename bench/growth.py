"""Journal growth: run N state-changing commands (default 10,000) in one process on a
session and report the journal's size against its bound (docs/architecture.md "The
journal": at most 4 × the session file + 1 MiB).

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
    args = ap.parse_args()
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


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
