"""``d2d play`` through a real pseudo-terminal (pexpect): the time from Enter to the next
prompt, per line, on a 100-unit session — the command, the status line and the prompt's
own redraw (prompt_toolkit) together — beside the same line run in this process through
the Shell (command and status line, no terminal). The difference is what the terminal
side costs: the redraw of the prompt and its bottom toolbar.

    .venv/bin/python bench/bench_play_pty.py [--rounds 15]

Nothing here is asserted by a test: timings are measured, reported and judged by people
(docs/architecture.md "Budgets")."""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, os.environ.get("D2D_BENCH_ROOT", str(ROOT)))  # bench.py --against's build

# Each line, and words of its output's end (never in the line typed): the prompt is
# awaited after them, not the redraw of the line being accepted.
ENDS = {"fate status": "to draw", "unit show 'Goblin 5'": "Skills:",
        "conflict strong block": "A wins", "status": "Goblin 98: body",
        "unit list": "Goblin 98: body", "unit condition 'Goblin 5' add stun": "Skills:",
        "next": "No round under way"}
LINES = list(ENDS)


def _in_process(path: Path, rounds: int) -> dict[str, float]:
    from d2d_cli import cli
    from d2d_cli.shell import Shell

    shell = Shell(session=str(path), run_argv=cli.main, root=cli.root_command())
    out: dict[str, list[float]] = {line: [] for line in LINES}
    devnull = open(os.devnull, "w")  # noqa: SIM115 - held for the whole run
    saved = sys.stdout
    try:
        sys.stdout = devnull
        shell.out = devnull
        for _ in range(rounds):
            for line in LINES:
                t = time.perf_counter()
                shell.run_line(line)
                shell.status()
                out[line].append((time.perf_counter() - t) * 1000)
    finally:
        sys.stdout = saved
    return {line: statistics.median(v) for line, v in out.items()}


def _drain(child: object) -> None:
    import pexpect

    try:
        while True:
            child.read_nonblocking(1_000_000, timeout=0.05)  # type: ignore[attr-defined]
    except pexpect.TIMEOUT:
        return


def _pty(path: Path, rounds: int) -> dict[str, float]:
    import pexpect

    # No terminal here answers a cursor-position request: prompt_toolkit is told not to
    # wait for one (its own switch), as a terminal that answers at once would cost nothing.
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "40",
           "PROMPT_TOOLKIT_NO_CPR": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "d2d_cli", "--session", str(path), "play"],
                          env=env, dimensions=(40, 100), encoding="utf-8")
    child.delaybeforesend = None  # pexpect's pause before a send is not d2d's time
    prompt = re.escape(path.name) + ">"
    child.expect(prompt, timeout=30)
    out: dict[str, list[float]] = {line: [] for line in LINES}
    for _ in range(rounds):
        for line in LINES:
            _drain(child)  # what the previous redraw still sends is not this line's
            t = time.perf_counter()
            child.sendline(line)
            child.expect_exact(ENDS[line], timeout=30)
            child.expect(prompt, timeout=30)  # the next prompt, drawn after the output
            out[line].append((time.perf_counter() - t) * 1000)
            assert "error" not in child.before, child.before
    child.sendcontrol("d")
    child.close()
    return {line: statistics.median(v) for line, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    from bench import build_long_campaign  # bench/bench.py

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["D2D_DATA_DIR"] = str(Path(tmp) / "data")
        path = Path(tmp) / "hundred.toml"
        build_long_campaign(path, 100)
        inside = _in_process(path, args.rounds)
        shown = _pty(path, args.rounds)
    print(f"{'d2d play, 100 units':38} {'in process':>10} {'pty':>8} {'terminal':>9}")
    for line in LINES:
        print(f"{line:38} {inside[line]:8.1f}ms {shown[line]:6.1f}ms "
              f"{shown[line] - inside[line]:7.1f}ms")


if __name__ == "__main__":
    main()
