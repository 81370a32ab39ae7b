"""Issue 30's measurements of work under the lock (docs/architecture.md "Guarantees"):

* ``npc``: a 1,000-unit session (500 Non-Players) — ``npc turn --all`` (refused above
  ``NPC_TURN_LIMIT`` before it starts) and ``npc turn --all --group N``;
* ``rm``: a 10 MB session (1,000 units of ~10 KB) — the journal entry ``unit rm`` writes;
* ``big``: a 200 MB session — ``fate draw 1``: its time and peak memory (refused over
  ``MAX_SESSION_BYTES`` before a byte is parsed).

Each runs the installed ``d2d`` of this checkout (``.venv/bin/d2d``) in a fresh data
folder, timed with /usr/bin/time's peak RSS where it exists.

    .venv/bin/python bench/safe.py            # all three, ~2 minutes
    .venv/bin/python bench/safe.py npc rm
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
D2D = str(ROOT / ".venv" / "bin" / "d2d")


def run(env: dict[str, str], *args: str) -> tuple[int, float, float, str]:
    """Exit code, seconds, peak RSS of the child in MB, stderr's last line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    proc = subprocess.run([D2D, *args], capture_output=True, text=True, env=env)
    took = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    err = proc.stderr.strip().splitlines()[-1:] or [""]
    return proc.returncode, took, max(peak, before) / 1024, err[0][:160]


def session(folder: Path, units: int, npcs: int, skills: int = 1, side: int = 40) -> Path:
    """A session with a ``side``×``side`` open map and ``units`` placed units (the first
    ``npcs`` Non-Players), each with ``skills`` skills; no round yet."""
    env = {**os.environ, "D2D_DATA_DIR": str(folder)}
    subprocess.run([D2D, "fate", "status"], env=env, check=True, capture_output=True)
    path = folder / "default.toml"
    text = path.read_text("utf-8")
    rows = ", ".join(['"' + "." * side + '"'] * side)
    text = re.sub(r"^\[round\]\n.*?\n\n", "", text + "\n", flags=re.M | re.S)
    out = [text.rstrip("\n"), "", "[round]", "number = 0", 'phase = "none"', "",
           "[board]", f"rows = [{rows}]", "", "[scene]", 'name = "Bench"',
           'map = "personal"', "", "[scene.factions.Goblins]", 'goal = "rivals down"', "",
           "[scene.factions.Heroes]", 'goal = "rivals down"', "",
           "[scene.goals.Goblins]", 'any = [["rivals down"]]', "",
           "[scene.goals.Heroes]", 'any = [["rivals down"]]', ""]
    for i in range(units):
        x, y = i % side, (i // side) % side
        col = chr(65 + x) if x < 26 else "A" + chr(65 + x - 26)
        npc = i < npcs
        out += [f'[units."U{i}"]', 'kind = "unit"', 'body = "3x1"', 'mind = "3x1"',
                'will = "3x1"', 'speed = "4x0"', f'faction = "{"Goblins" if npc else "Heroes"}"',
                f'player = "{"Non-Player" if npc else "P"}"', f'space = "{col}{y + 1}"',
                'facing = "N"', "", f'[units."U{i}".skills]']
        out += [f'"Skill {k:05d} of U{i}" = 1' for k in range(skills)]
        out += [""]  # no [conditions]: as a hand-written unit (the roster adds one)
    path.write_text("\n".join(out) + "\n", "utf-8")
    return path


def npc() -> None:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        session(folder, 1000, 500)
        env = {**os.environ, "D2D_DATA_DIR": str(folder), "D2D_SEED": "1"}
        print("npc turn, 1,000 units (500 Non-Players):")
        print("  status (parse + check + cache):", fmt(run(env, "status", "--json")))
        print("  round start:", fmt(run(env, "round", "start", "--json")))
        print("  npc turn --all:", fmt(run(env, "npc", "turn", "--all", "--json")))
        print("  npc turn --all --group 1:",
              fmt(run(env, "npc", "turn", "--all", "--group", "1", "--json")))
        print("  npc turn U0:", fmt(run(env, "npc", "turn", "U0", "--json")))
    with tempfile.TemporaryDirectory() as d:  # as many Non-Players as one command plays
        folder = Path(d)
        session(folder, 1000, 25)
        env = {**os.environ, "D2D_DATA_DIR": str(folder), "D2D_SEED": "1"}
        run(env, "round", "start")
        print("  npc turn --all, 25 Non-Players (the bound):",
              fmt(run(env, "npc", "turn", "--all", "--json")))
        # the Players' units have spent their Move (U25…): nothing stops the Countdown,
        # so the 25 play to the end of the round one Count at a time (the most work under
        # the lock; the run above stops at Count 4, which reaches the Players' units too)
        path = folder / "default.toml"
        path.write_text(re.sub(
            r'(\[units\."?U(\d+)"?\]\n(?:[^\[\n][^\n]*\n)*?move = )(\d+)',
            lambda m: m.group(1) + ("0" if int(m.group(2)) >= 25 else m.group(3)),
            path.read_text("utf-8")), "utf-8")
        print("  npc turn --all, 25 Non-Players, the Players' units done:",
              fmt(run(env, "npc", "turn", "--all", "--json")))


def rm() -> None:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        path = session(folder, 1000, 0, skills=380)
        env = {**os.environ, "D2D_DATA_DIR": str(folder)}
        size = path.stat().st_size
        run(env, "status")
        jp = folder / "default.toml.journal"
        j0 = jp.stat().st_size if jp.exists() else 0
        res = run(env, "unit", "rm", "U500")
        j1 = jp.stat().st_size
        print(f"unit rm on a {size / 1e6:.1f} MB session: {fmt(res)}; journal entry "
              f"{(j1 - j0) / 1e3:.1f} kB ({(j1 - j0) / size:.4f}× the file)")


def big() -> None:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        path = session(folder, 0, 0)
        with path.open("a", encoding="utf-8") as f:
            f.write("\n[notes]\n")
            line = "x" * 1000
            for i in range(200_000):
                f.write(f'n{i} = "{line}"\n')
        env = {**os.environ, "D2D_DATA_DIR": str(folder)}
        size = path.stat().st_size
        print(f"fate draw 1 on a {size / 1e6:.0f} MB session: {fmt(run(env, 'fate', 'draw', '1'))}")


def fmt(res: tuple[int, float, float, str]) -> str:
    code, took, peak, err = res
    return f"exit {code}, {took:.2f} s, peak {peak:.0f} MB" + (f" — {err}" if err else "")


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["npc", "rm", "big"]
    for name in wanted:
        {"npc": npc, "rm": rm, "big": big}[name]()
