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
EMPTY = "(an empty line)"  # through the pty only: the prompt's redraw alone


def _in_process(path: Path, rounds: int) -> dict[str, float]:
    """Each line through the Shell in this process, its output to a pseudo-terminal of
    the pty run's size (styled and as wide as there: the same work as the real shell's
    command, without prompt_toolkit), drained by a thread."""
    import fcntl
    import io
    import struct
    import termios
    import threading

    from d2d_cli import cli
    from d2d_cli.shell import Shell

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    threading.Thread(target=_drain_fd, args=(master,), daemon=True).start()
    tty = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), encoding="utf-8",
                           write_through=True)
    saved, saved_env = sys.stdout, {k: os.environ.get(k) for k in ("TERM", "COLUMNS")}
    os.environ.update(TERM="xterm", COLUMNS="100")
    shell = Shell(session=str(path), out=tty, run_argv=cli.main, root=cli.root_command())
    out: dict[str, list[float]] = {line: [] for line in LINES}
    try:
        sys.stdout = tty
        for _ in range(rounds):
            for line in LINES:
                t = time.perf_counter()
                shell.run_line(line)
                shell.status()
                out[line].append((time.perf_counter() - t) * 1000)
    finally:
        sys.stdout = saved
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return {line: statistics.median(v) for line, v in out.items()}


def _drain_fd(fd: int) -> None:
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass


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
            # The line is typed first, as at the table (each key's echo, completion and
            # redraw happen while typing), then the clock runs from Enter: what the
            # Narrator waits for. Before this, pexpect sent the keys and Enter at once
            # and each key's processing counted as the line's redraw.
            child.send(line)
            _drain(child)  # the typed line's echo; the previous prompt's redraw
            t = time.perf_counter()
            child.send("\r")
            child.expect_exact(ENDS[line], timeout=30)
            child.expect(prompt, timeout=30)  # the next prompt, drawn after the output
            out[line].append((time.perf_counter() - t) * 1000)
            assert "error" not in child.before, child.before
    empty = []  # Enter on an empty line: prompt_toolkit's own cycle (accept, redraw)
    for _ in range(rounds):
        _drain(child)
        t = time.perf_counter()
        child.send("\r")
        child.expect(prompt, timeout=30)
        empty.append((time.perf_counter() - t) * 1000)
    child.sendcontrol("d")
    child.close()
    got = {line: statistics.median(v) for line, v in out.items()}
    got[EMPTY] = statistics.median(empty)
    return got


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
    print(f"{EMPTY:38} {'':>10} {shown[EMPTY]:6.1f}ms {shown[EMPTY]:7.1f}ms")


if __name__ == "__main__":
    main()
