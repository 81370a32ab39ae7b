"""Latency benchmark: interleaved medians against ``python -c pass`` and a Typer hello-world.

Run from the project root with the venv's interpreter:

    .venv/bin/python bench/bench.py                 # every command, 10 rounds
    .venv/bin/python bench/bench.py --rounds 25
    .venv/bin/python bench/bench.py --only fate     # the cases whose label holds "fate"
    .venv/bin/python bench/bench.py --speed         # issue 40's figures (below)
    .venv/bin/python bench/bench.py --speed --against ../old   # and another build's

``--speed`` runs only the figures issue 40 items 2 and 3 hold to a budget, in one
interleaved run: the one-shot lookups and views against the Typer hello-world, the
1,000-unit ``status`` and ``session export`` against a fresh session, then the lines
inside ``d2d play`` (ms, with the load) and the prompt's redraw through a pty
(bench_play_pty.py). ``--against DIR`` runs every one-shot case of the run a second time
with the build checked out in DIR (its own venv and cache folder, the same data), each
paired and shuffled like the others, and prints new/old per case: before/after measured
in the same conditions.

One interleaved run measures (1) every one-shot command of docs/commands.md, human
output and ``--json``, against ``python -c pass`` and against a Typer hello-world app run by
the same interpreter with the same Typer (the floor the chosen library sets: DESIGN.md
"Budgets" are ratios to it); (2) a long campaign against a fresh
session; (3) the time of a line inside ``d2d play`` on a 100-unit session. Each round runs
every case once, in turn, so slow drift of the machine touches all cases alike; a
state-changing case starts each time from the same saved session (restored, untimed).
Every run of a command is paired with a ``python -c pass`` run just before it, and the
cases are shuffled anew each round, so a machine whose speed drifts during a round (boost
clocks, a busy neighbour) moves a case and its baseline together: a case's ratio is the
median of its runs' ratios to their pairs. The table gives wall-clock medians (what the
budgets are about) and CPU medians (user + system, which a busy machine disturbs less).
Nothing here is asserted by a test: timings are measured, reported and judged by people.

The one-shot commands run as an installed ``d2d`` does: a venv made here, without the
editable-install hook that ``pip install -e`` adds to every interpreter start (it imports
pathlib, fnmatch and more before any code runs, and so would flatter the ratios), its
console script written from pyproject.toml's entry point as pip writes it, the package's
bytecode compiled (PYTHONDONTWRITEBYTECODE and PYTHONUNBUFFERED are not passed on), and
the data folder found the default way (``XDG_DATA_HOME``, not ``D2D_DATA_DIR``).
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A build's play child (--play-json) imports the build it was started for.
sys.path.insert(0, os.environ.get("D2D_BENCH_ROOT", str(ROOT)))
sys.path.insert(1, str(Path(__file__).resolve().parent))

# DESIGN.md "Budgets" (issue 28): ratios to a Typer hello-world app of the same Typer in the
# same venv, not to bare Python — Typer's own start-up is 6.4–6.6× `python -c pass` here, so
# a budget in × pass sat below the library's floor. A lookup that prints lines ≤ 1.15× the
# hello-world; a view that draws a table or panel (Rich) ≤ 1.5×; a state change ≤ 1.3×. A
# command whose human output draws a table is a VIEW (or a VIEW_CHANGE when it also changes
# the session); its --json run draws nothing and is held to LOOKUP (or CHANGE).
LOOKUP, CHANGE = "lookup ≤ 1.15× hello", "change ≤ 1.3× hello"
VIEW, VIEW_CHANGE = "view ≤ 1.5× hello", "view ≤ 1.5× hello (change)"
LIMITS = {LOOKUP: 1.15, CHANGE: 1.3, VIEW: 1.5, VIEW_CHANGE: 1.5}
JSON_BUDGET = {VIEW: LOOKUP, VIEW_CHANGE: CHANGE}

# The character file `char import` reads (written, untimed, before each run).
_ROOK = str(Path(tempfile.gettempdir()) / "d2d-bench-rook.toml")

# Every command of docs/commands.md (the tour and play aside): (words, budget, setup lines
# run untimed before each timed run, on top of the restored session "bench").
COMMANDS: list[tuple[str, str, tuple[str, ...]]] = [
    ("fate draw 3", CHANGE, ()),
    ("fate shuffle", CHANGE, ()),
    ("fate status", LOOKUP, ()),
    ("fate coin", CHANGE, ()),
    ("fate high-card Archer Thief Goblin", VIEW_CHANGE, ()),
    ("fate die d10 --count 2", CHANGE, ()),
    ("fate die d20 --card 7S", LOOKUP, ()),
    ("scale mass 80kg", LOOKUP, ()),
    ("scale speed 40kph", LOOKUP, ()),
    ("scale iq 110", LOOKUP, ()),
    ("scale show 1x9 --as speed", LOOKUP, ()),
    ("scale compare 2x4 9x1", LOOKUP, ()),
    ("scale samples", VIEW, ()),
    ("scale map car --speed 5x1", LOOKUP, ()),
    ("conflict strong block", LOOKUP, ()),
    ("conflict 7S^ 5H^", LOOKUP, ()),  # two cards: reads no unit, no map, no hand
    ("conflict chart", VIEW, ()),
    ("hit 2S 3H 4C --level 2 --rival-level 1 --vs 2x1", LOOKUP, ()),
    ("crit --weapon Body+2 --stat 4x1 --armor 2x1 --hits 3 --types pierce", CHANGE, ()),
    ("char new Vex --template human-female --body 7 --will 5 --archetype thief", VIEW_CHANGE,
     ()),
    ("char show Rook", VIEW, ()),
    ("char export Rook --format toml -o -", LOOKUP, ()),
    ("char award Rook --sp 2 --ap 1", CHANGE, ()),
    ("char train Rook Stealth", CHANGE, ()),
    ("char respec Rook Stealth", CHANGE, ()),
    ("char learn Rook 'Pick Lock'", CHANGE, ()),
    ("char feat Rook", CHANGE, ()),
    ("unit add Ogre --body 6x2 --mind 2x1 --will 4x1 --speed 4x0", VIEW_CHANGE, ()),
    ("unit list", VIEW, ()),
    ("unit show 'Goblin Scout'", VIEW, ()),
    ("unit rm 'Goblin Scout'", CHANGE, ()),
    ("unit condition 'Goblin Scout' add Fatigue --count 2", VIEW_CHANGE, ()),
    ("unit target 'Goblin Scout' Rook", VIEW_CHANGE, ()),
    ("status", VIEW, ()),
    ("ref 'blood loss'", LOOKUP, ()),
    ("task new Door --difficulty 3", CHANGE, ()),
    ("task win Knot --hits 2 --by Thief", CHANGE, ()),
    ("task lose Knot --hits 1", CHANGE, ()),
    ("task show Knot", LOOKUP, ()),
    ("task list", LOOKUP, ()),
    ("task drop Knot", CHANGE, ()),
    ("clock show", LOOKUP, ()),
    ("clock set 3", CHANGE, ()),
    ("clock tick", CHANGE, ()),
    ("clock advance 3", CHANGE, ()),
    ("clock event add 9 'The bridge collapses'", CHANGE, ()),
    ("clock event random 'A patrol passes' --chance 1/6", CHANGE, ()),
    ("clock event list", LOOKUP, ()),
    ("clock event rm 'The bridge collapses'", CHANGE,
     ("clock event add 'The bridge collapses' 9",)),
    ("round start", VIEW_CHANGE, ("round end",)),
    ("round end", CHANGE, ()),
    ("weather wind", CHANGE, ()),
    ("weather show", LOOKUP, ()),
    ("scene load combat1", CHANGE, ()),
    ("scene show", LOOKUP, ()),
    ("session new other", CHANGE, ()),
    ("session list", LOOKUP, ()),
    ("session use bench", CHANGE, ()),
    ("session path", LOOKUP, ()),
    ("session show", LOOKUP, ()),
    ("session log", LOOKUP, ()),
    ("session undo", CHANGE, ()),
    ("session redo", CHANGE, ("session undo",)),
    ("scale area 4", LOOKUP, ()),
    ("char downtime Rook", CHANGE, ()),
    ("unit move Archer forward", CHANGE, ()),
    ("unit act Archer evade", CHANGE, ("unit act Archer interact 'Goblin Scout'",)),
    ("unit wait Archer 5", CHANGE, ()),
    ("unit face Archer N", CHANGE, ()),
    ("unit ability Rook use 'Pick Lock'", CHANGE, ("char learn Rook 'Pick Lock'",)),
    ("unit stealth Rook hide", CHANGE, ()),
    ("unit power Rook use Fire --effect 2 --price fatigue", CHANGE, ()),
    ("unit heal 'Goblin Scout' --days 1", VIEW_CHANGE, ("unit condition 'Goblin Scout' add "
                                                   "'blood loss'",)),
    ("round groups", LOOKUP, ()),
    ("round next", LOOKUP, ()),
    # between units the conflict is kept for hit and crit (issue 28): a state change
    ("conflict Archer:7S^ 'Goblin Scout:5S^' --skill Ranged --range 3 --cover 25", CHANGE,
     ()),
    ("hit 9S 10H 8C --by Archer --vs 'Goblin Scout'", LOOKUP, ()),
    ("roll 4d6kh3 --seed 1", LOOKUP, ()),
    ("roll '4d6kh3' --odds", VIEW, ()),
    ("roll 3c", CHANGE, ()),
    ("roll --system hero check --skill 3 --advantage 2 --dc 15 --seed 1", LOOKUP, ()),
    ("odds conflict fate fate", VIEW, ()),
    ("odds hits 5 --level 1 --vs 2x1", VIEW, ()),
    ("odds die d20", VIEW, ()),
    ("odds weather", VIEW, ()),
    ("odds crit --power 6x1 --armor 2x1 --hits 2", VIEW, ()),
    ("board", VIEW, ()),
    ("unit place Archer E9 N", CHANGE, ()),
    ("char list", VIEW, ()),
    (f"char import {_ROOK} --rename Rook2", CHANGE,
     (f"char export Rook --format toml -o {_ROOK} --force",)),
    ("char unlearn Rook 'Pick Lock'", CHANGE, ("char learn Rook 'Pick Lock'",)),
    ("unit situation Archer --vs 'Goblin Scout' --cover 25", CHANGE, ()),
    ("unit interrupt Archer 'Goblin Scout'", CHANGE, ()),
    ("unit respond 'Goblin Scout'", CHANGE, ("unit act Archer interact 'Goblin Scout'",)),
    ("oracle 'Is the bridge guarded?'", CHANGE, ()),
    ("npc plan 'Goblin Scout'", LOOKUP, ()),
    ("npc turn 'Goblin Scout'", CHANGE, ()),
    ("unit leave Archer", CHANGE, ("unit place Archer E10 S",)),
    ("unit free Thief", CHANGE, ()),
    ("unit side Ogre --faction Goblins", CHANGE, ("unit add Ogre --body 6x2 --mind 2x1 "
                                                  "--will 4x1 --speed 4x0",)),
    ("session export --format markdown -o -", LOOKUP, ()),
    ("hand deal", CHANGE, ()),
    ("hand show Player1", LOOKUP, ()),
    ("hand choose Archer 6S^", CHANGE, ()),  # 6S: the first card SETUP deals Player1
    ("hand draw Player1", CHANGE, ()),
    ("hand gain Player1", CHANGE, ()),
    ("hand drop Player1", CHANGE, ()),
    ("player rename Player1 Ann", CHANGE, ()),
    ("unit gear show Archer", LOOKUP, ()),
    ("unit gear add Archer Dagger", CHANGE, ()),
    ("unit gear rm Archer Dagger", CHANGE, ("unit gear add Archer Dagger",)),
    ("rules show", VIEW, ()),
    ("rules set cover edges", CHANGE, ()),
    ("rules unset hands", CHANGE, ()),
    ("board fog B2:D4", CHANGE, ()),
    ("board reveal B2:D4", CHANGE, ("board fog B2:D4",)),
    ("board place Cellar B2:C3", CHANGE, ()),
    ("board event add C3 'A pit trap'", CHANGE, ()),
    ("board event list", LOOKUP, ("board event add C3 'A pit trap'",)),
    ("board event reveal 1", CHANGE, ("board event add C3 'A pit trap'",)),
    ("board event rm 1", CHANGE, ("board event add C3 'A pit trap'",)),
]
# A whole tour; a shell (measured by its lines, below); a simulation of many fights
# (bench/bench_sim.py measures it: fights per second, not a command's latency).
NOT_ONE_SHOT = {"tour", "play", "sim", "serve"}  # serve: a server, measured by its tests
JSONLESS = ("char export",)  # writes the sheet itself (-o -)

# The session every one-shot case starts from (made once, restored before each run).
# A line "@rules KEY = VALUE" is a hand edit of the session's [rules] (d2d's hands).
SETUP = ["--seed 7 session new bench --use", '@rules hands = "d2d"', "scene load combat1",
         "round start",
         "char new Rook --template human-female --body 7 --will 5 --archetype thief",
         "char award Rook --cp 1 --sp 4 --ap 2", "char train Rook Stealth",
         "char train Rook Fire", "weather wind",
         "fate draw 2"]

# Issue 40 items 2 and 3 (--speed): the one-shot figures held to a budget, with
# `fate status` beside them as the lookup that is within it.
SPEED = {"conflict 7S^ 5H^", "conflict 7S^ 5H^ --json", "round next", "round next --json",
         "status", "status --json", "unit list", "unit list --json", "fate status",
         "session export --format markdown -o -", "long campaign: status",
         "long campaign: status --json", "long campaign: session export --format markdown -o -"}

# Lines timed inside `d2d play` on the long campaign (100 units, 50 tasks).
PLAY_LINES: list[tuple[str, str]] = [
    ("fate status", "lookup ≤ 2.5 ms"),
    ("unit show 'Goblin 5'", "lookup ≤ 2.5 ms"),
    ("task show 'task 3'", "lookup ≤ 2.5 ms"),
    ("scale mass 80kg", "lookup ≤ 2.5 ms"),
    ("conflict strong block", "lookup ≤ 2.5 ms"),
    ("ref thief", "lookup ≤ 2.5 ms"),
    ("status", "dashboard ≤ 10 ms"),
    ("unit list", "table ≤ 25 ms"),
    ("fate draw", "change ≤ 15 ms"),
    ("unit condition 'Goblin 5' add stun", "change ≤ 15 ms"),
    ("unit target 'Goblin 7' 'Goblin 8'", "change ≤ 15 ms"),
    ("clock tick", "change ≤ 15 ms"),
]


def _roster(n: int) -> dict[str, object]:
    from d2d_cli.rules.scale.stats import parse_stat
    from d2d_cli.rules.units import roster as units

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
    """A session as a long campaign leaves it: ``n_units`` units, 50 tasks, 2,000 journal
    entries (the newest 50 undoable, written by real edits)."""
    from d2d_cli import session
    from d2d_cli.rules.deck import fate
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


# --------------------------------------------------------------------------- installed d2d

SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from {module} import {function}
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit({function}())
"""


def installed(tmp: Path, root: Path = ROOT, name: str = "venv") -> tuple[str, str]:
    """A venv that sees the checkout ``root`` (this one by default) and this venv's
    packages as a regular install does (a .pth of plain paths: no import hook), and its
    ``d2d`` script, written as pip writes console scripts. Returns (python, d2d)."""
    venv = tmp / name
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig."
                           "get_paths()['purelib'])"], capture_output=True, text=True,
                          check=True).stdout.strip()
    Path(site, "d2d_bench.pth").write_text(f"{root}\n{sysconfig.get_paths()['purelib']}\n")
    import tomllib

    entry = tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]["d2d"]
    module, function = entry.split(":")
    script = venv / "bin" / "d2d"
    script.write_text(SCRIPT.format(python=python, module=module, function=function))
    script.chmod(0o755)
    return str(python), str(script)


# --------------------------------------------------------------------------- one-shot

# The floor: the smallest Typer app that prints a line, run by the venv's interpreter.
HELLO = """import typer

app = typer.Typer()


@app.command()
def hello(name: str = "Narrator") -> None:
    print(f"Hello {name}")


app()
"""


def one_shot_cases(d2d: str, python: str, data: Path, long: Path, huge: Path | None,
                   only: str | None, speed: bool = False) -> list[dict[str, object]]:
    hello = data.parent.parent / "hello.py"
    hello.write_text(HELLO)
    cases: list[dict[str, object]] = [
        {"label": "python -c pass", "argv": [python, "-c", "pass"], "budget": "baseline"},
        {"label": "typer hello-world", "argv": [python, str(hello)], "budget": "floor"}]
    for words, budget, setup in COMMANDS:
        for as_json in (False, True):
            if as_json and words.startswith(JSONLESS):
                continue
            argv = [d2d, *shlex.split(words), *(["--json"] if as_json else [])]
            held = JSON_BUDGET.get(budget, budget) if as_json else budget
            cases.append({"label": words + (" --json" if as_json else ""), "argv": argv,
                          "budget": held,
                          "restore": budget in (CHANGE, VIEW_CHANGE) or bool(setup),
                          "setup": [[d2d, *shlex.split(s)] for s in setup]})
    cases += [
        {"label": "--help", "argv": [d2d, "--help"], "budget": "(reported)"},
        {"label": "--version", "argv": [d2d, "--version"], "budget": "(reported)"},
        {"label": "long campaign: fate draw --json",
         "argv": [d2d, "--session", str(long), "fate", "draw", "--json"],
         "budget": "≤ 1.5× fresh draw"},
        {"label": "long campaign: fate status --json",
         "argv": [d2d, "--session", str(long), "fate", "status", "--json"],
         "budget": "≤ 1.5× fresh status"},
        {"label": "long campaign: unit condition add --json",
         "argv": [d2d, "--session", str(long), "unit", "condition", "Goblin 5", "add", "stun",
                  "--json"], "budget": "≤ 1.5× fresh change"},
        {"label": "long campaign: status",
         "argv": [d2d, "--session", str(long), "status"], "budget": "≤ 1.5× fresh status"},
        {"label": "long campaign: status --json",
         "argv": [d2d, "--session", str(long), "status", "--json"],
         "budget": "≤ 1.5× fresh status"},
        {"label": "long campaign: session export --format markdown -o -",
         "argv": [d2d, "--session", str(long), "session", "export", "--format", "markdown",
                  "-o", "-"], "budget": "≤ 1.5× fresh export"},
    ]
    if huge is not None:  # 10,000 units: undo and redo alternate, so each has work to do
        cases += [{"label": "10,000 units: session redo --json",
                   "argv": [d2d, "--session", str(huge), "session", "redo", "--json"],
                   "budget": "≤ 0.5 s"},
                  {"label": "10,000 units: session undo --json",
                   "argv": [d2d, "--session", str(huge), "session", "undo", "--json"],
                   "budget": "≤ 0.5 s"}]
    if only:
        cases = [c for c in cases if only in str(c["label"])
                 or c["budget"] in ("baseline", "floor")]
    if speed:
        cases = [c for c in cases if c["label"] in SPEED or c["budget"] in ("baseline",
                                                                            "floor")]
    return cases


def against_cases(cases: list[dict[str, object]], d2d: str, other: str,
                  cache: Path) -> list[dict[str, object]]:
    """Each d2d case again with the other build's ``d2d`` (label ``old: …``), its own
    cache folder (the parsed cache is keyed by the build that checked it)."""
    def swap(a: list[str]) -> list[str]:
        return [other if x == d2d else x for x in a]

    twins = []
    for c in cases:
        argv = list(c["argv"])  # type: ignore[call-overload]
        if argv[0] != d2d:
            continue
        twins.append({**c, "label": "old: " + str(c["label"]), "argv": swap(argv),
                      "setup": [swap(a) for a in c.get("setup", [])],  # type: ignore[attr-defined]
                      "env": {"XDG_CACHE_HOME": str(cache)}})
    return cases + twins


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall, cpu, exit code) of one run, output discarded."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - t0, usage.ru_utime + usage.ru_stime,
            os.waitstatus_to_exitcode(status))


Times = dict[str, tuple[list[float], list[float], list[float], list[float]]]


def run_one_shot(cases: list[dict[str, object]], rounds: int, env: dict[str, str],
                 data: Path) -> Times:
    """Per case: wall and CPU times, and those of the ``python -c pass`` run just before
    each (its pair). Each round runs the cases in a new order, each right after its own
    bare interpreter: a machine whose speed drifts within a round (boost clocks, a busy
    neighbour) then moves a case and its baseline together, wherever the case stands."""
    saved = data.parent / "saved"
    baseline = next(c for c in cases if c["budget"] == "baseline")
    times: Times = {str(c["label"]): ([], [], [], []) for c in cases}
    order = list(cases)
    for n in range(rounds):
        random.Random(n).shuffle(order)
        pair = [i for i, c in enumerate(order) if str(c["label"]).startswith("10,000 units")]
        if len(pair) == 2:  # redo before undo in every round, wherever they stand
            i, j = pair
            order[i], order[j] = sorted((order[i], order[j]), key=lambda c: "redo" not in
                                        str(c["label"]))
        dirty = True
        for case in order:  # shuffled: each case starts from the saved session
            own = {**env, **case.get("env", {})}  # type: ignore[dict-item]
            if case.get("restore") or dirty:
                shutil.rmtree(data, ignore_errors=True)
                shutil.copytree(saved, data)
                for argv in case.get("setup", []):  # type: ignore[attr-defined]
                    subprocess.run(argv, env=own, capture_output=True, check=True)
            dirty = bool(case.get("restore"))  # a state change leaves its change behind
            b_wall, b_cpu, _ = _timed(baseline["argv"], env)  # type: ignore[arg-type]
            wall, cpu, code = _timed(case["argv"], own)  # type: ignore[arg-type]
            if code != 0 and case["budget"] != "baseline":
                raise SystemExit(f"bench: {case['label']!r} failed (exit {code})")
            for into, value in zip(times[str(case["label"])], (wall, cpu, b_wall, b_cpu),
                                   strict=True):
                into.append(value)
    return times


# --------------------------------------------------------------------------- inside play


def run_play(long: Path, rounds: int, data: Path) -> dict[str, tuple[list[float], list[float]]]:
    """Each line through d2d play's Shell, in this process, on the long campaign; output
    goes to a pseudo-terminal (as at the table: Rich draws for a terminal). Returns per
    line the ms of each run of the command, and of line-to-prompt incl. the status line."""
    import io
    import threading

    os.environ["D2D_DATA_DIR"] = str(data)
    from d2d_cli import cli
    from d2d_cli.shell import Shell

    master, slave = os.openpty()
    drain = threading.Thread(target=_drain, args=(master,), daemon=True)
    drain.start()
    tty = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), encoding="utf-8",
                           write_through=True)
    shell = Shell(session=str(long), out=tty, run_argv=cli.main, root=cli.root_command())
    real_out, real_err = sys.stdout, sys.stderr
    results: dict[str, tuple[list[float], list[float]]] = {x: ([], []) for x, _ in PLAY_LINES}
    try:
        sys.stdout = sys.stderr = tty
        for line, _ in PLAY_LINES:  # warm up: each group built, each table loaded once
            shell.run_line(line)
        for _ in range(rounds):
            for line, _ in PLAY_LINES:
                t0 = time.perf_counter()
                code = shell.run_line(line)
                t1 = time.perf_counter()
                shell.status()
                t2 = time.perf_counter()
                if code != 0:
                    raise SystemExit(f"bench: play line {line!r} failed (exit {code})")
                results[line][0].append((t1 - t0) * 1000)
                results[line][1].append((t2 - t0) * 1000)
    finally:
        sys.stdout, sys.stderr = real_out, real_err
    return results


def play_samples(hundred: Path, rounds: int, data: Path, pty: bool) -> dict[str, object]:
    """What one build's ``--play-json`` child prints: the play lines' samples and, with
    ``pty``, bench_play_pty's lines in process and through a pseudo-terminal."""
    import bench_play_pty

    out: dict[str, object] = {"play": run_play(hundred, rounds, data)}
    if pty:
        out["inside"] = bench_play_pty._in_process(hundred, rounds)
        out["pty"] = bench_play_pty._pty(hundred, rounds)
    return out


def play_builds(builds: list[tuple[str, str, Path]], hundred: Path, rounds: int,
                tmp: Path, pty: bool) -> dict[str, dict[str, object]]:
    """Each build's play figures, in a child run by that build's interpreter (one
    process imports one build), the builds alternated in two halves so both meet the
    same load. Returns per build: line → (command ms, to-prompt ms) medians, and the
    pty lines → (in process ms, through the pty ms)."""
    import json

    runs: dict[str, list[dict[str, object]]] = {name: [] for name, _, _ in builds}
    for half in range(2):
        for name, python, root in builds:
            env = {**os.environ, "D2D_BENCH_ROOT": str(root)}
            own = tmp / f"play-{name}-{half}"  # each child from the same saved files
            own.mkdir()
            for f in hundred.parent.glob(hundred.name + "*"):
                shutil.copy2(f, own / f.name)
            child = subprocess.run(
                [python, str(Path(__file__).resolve()), "--play-json", str(own / hundred.name),
                 "--rounds", str(max(rounds // 2, 5)), "--play-data", str(own / "data"),
                 *(["--pty"] if pty else [])],
                env=env, capture_output=True, text=True)
            if child.returncode != 0:
                raise SystemExit(f"bench: play ({name}) failed:\n{child.stderr[-2000:]}")
            runs[name].append(json.loads(child.stdout.splitlines()[-1]))
    out: dict[str, dict[str, object]] = {}
    for name, got in runs.items():
        play = {line: (statistics.median(x for g in got for x in g["play"][line][0]),  # type: ignore[index]
                       statistics.median(x for g in got for x in g["play"][line][1]))  # type: ignore[index]
                for line, _ in PLAY_LINES}
        shown = {}
        if pty:
            shown = {line: (statistics.median(g["inside"].get(line, 0.0)  # type: ignore[attr-defined]
                                              for g in got),
                            statistics.median(g["pty"][line] for g in got))  # type: ignore[index]
                     for line in got[0]["pty"]}  # type: ignore[attr-defined]
        out[name] = {"play": play, "pty": shown}
    return out


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass


# --------------------------------------------------------------------------- report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--only", help="only the cases whose label holds this text")
    ap.add_argument("--no-play", action="store_true", help="skip the d2d play lines")
    ap.add_argument("--speed", action="store_true",
                    help="only issue 40's figures, the prompt's redraw included")
    ap.add_argument("--against", type=Path, metavar="DIR",
                    help="another build's checkout, run interleaved with this one")
    ap.add_argument("--play-json", type=Path, help=argparse.SUPPRESS)  # a build's child
    ap.add_argument("--play-data", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--pty", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.play_json:
        import json

        print(json.dumps(play_samples(args.play_json, args.rounds, args.play_data, args.pty)))
        return 0
    from tests.test_cli import _leaf_commands

    words = [w for w, _, _ in COMMANDS]
    missing = [p for p in (" ".join(path) for path in _leaf_commands())
               if p not in NOT_ONE_SHOT and not any(w == p or w.startswith(p + " ")
                                                    for w in words)]
    if missing:
        raise SystemExit(f"bench: no case for {missing}: add them to COMMANDS")

    tmp = Path(tempfile.mkdtemp(prefix="d2d-bench-"))
    try:
        python, d2d = installed(tmp)
        builds = [("new", python, ROOT)]
        # As a user runs it: bytecode cached (an install compiles it; a shell that sets
        # PYTHONDONTWRITEBYTECODE would recompile every edited module on every run),
        # stdout buffered.
        env = {k: v for k, v in os.environ.items() if not k.startswith("D2D_")
               and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")}
        env.update(XDG_DATA_HOME=str(tmp / "xdg"), HOME=str(tmp / "home"))
        subprocess.run([python, "-m", "compileall", "-q", str(ROOT / "d2d_cli")], env=env,
                       check=True)
        if args.against:
            other_python, other = installed(tmp, args.against.resolve(), "venv-old")
            builds.append(("old", other_python, args.against.resolve()))
            subprocess.run([other_python, "-m", "compileall", "-q",
                            str(args.against / "d2d_cli")], env=env, check=True)
        data = tmp / "xdg" / "d2d"
        for line in SETUP:
            if line.startswith("@rules "):
                f = data / "bench.toml"
                f.write_text(f.read_text("utf-8").replace("[rules]\n", f"[rules]\n{line[7:]}\n",
                                                          1), "utf-8")
                continue
            subprocess.run([d2d, *shlex.split(line)], env=env, capture_output=True, check=True)
        shutil.copytree(data, tmp / "xdg" / "saved")
        long, huge, hundred = tmp / "long.toml", tmp / "huge.toml", tmp / "hundred.toml"
        build_long_campaign(long)  # 1,000 units (DESIGN.md: at most 1.5× a fresh one)
        build_long_campaign(hundred, 100)  # inside d2d play: a 100-unit session
        if not args.speed:
            build_long_campaign(huge, 10_000)
            subprocess.run([d2d, "--session", str(huge), "session", "undo"], env=env,
                           check=True, capture_output=True)  # rounds alternate redo, undo…
        cases = one_shot_cases(d2d, python, data, long, None if args.speed else huge,
                               args.only, args.speed)
        if args.against:
            cases = against_cases(cases, d2d, other, tmp / "cache-old")
        times = run_one_shot(cases, args.rounds, env, data)
        _report_one_shot(args.rounds, cases, times)  # printed before play can fail
        play = {} if args.no_play else play_builds(builds, hundred, args.rounds, tmp,
                                                   args.speed)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if play:
        _report_play(play)
    return 0


def _report_play(play: dict[str, dict[str, object]]) -> None:
    new, old = play["new"], play.get("old")
    print(f"\ninside d2d play, 100-unit session, load average {os.getloadavg()[0]:.1f}"
          + (" (old: the --against build, alternated with this one)" if old else ""))
    print(f"{'line':44} {'command ms':>10} {'to prompt ms':>12}"
          + (f" {'old ms':>7} {'new/old':>7}" if old else "") + "  budget")
    for line, budget in PLAY_LINES:
        ms, prompt_ms = new["play"][line]  # type: ignore[index]
        limit = float(budget.split("≤ ")[1].split()[0])
        mark = " OVER" if ms > limit else ""
        was = ""
        if old:
            old_ms = old["play"][line][0]  # type: ignore[index]
            was = f" {old_ms:7.2f} {ms / old_ms:7.2f}"
        print(f"{line:44} {ms:10.2f} {prompt_ms:12.2f}{was}  {budget}{mark}")
    if new["pty"]:
        print("\nthrough a pty (bench_play_pty.py): the line typed, then Enter to the next "
              "prompt; the terminal's side = pty − in process (the same line in this process, "
              "output to a pty); an empty line is the prompt's redraw alone (budget ≤ 5 ms)")
        print(f"{'line':38} {'in process':>10} {'pty':>8} {'redraw':>8}"
              + (f" {'old redraw':>10}" if old else ""))
        for line, (inside, shown) in new["pty"].items():  # type: ignore[attr-defined]
            was = ""
            if old:
                o_in, o_pty = old["pty"][line]  # type: ignore[index]
                was = f" {o_pty - o_in:8.1f}ms"
            mark = " OVER" if inside == 0 and shown > 5 else ""  # the empty line's
            print(f"{line:38} {inside:8.1f}ms {shown:6.1f}ms {shown - inside:6.1f}ms{was}{mark}")


def _report_one_shot(rounds: int, cases: list[dict[str, object]], times: Times) -> None:
    print(f"{rounds} interleaved rounds on {os.cpu_count()} cores, Python "
          f"{sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}; each run "
          "paired with a python -c pass just before it, the cases shuffled each round;"
          "\n× pass = the median of a case's ratios to its pairs; × hello = × pass over the"
          " Typer hello-world's × pass (what the budgets are about)\n")
    med = {k: statistics.median(w / b for w, b in zip(v[0], v[2], strict=True))
           for k, v in times.items()}  # each case's paired ratio to python -c pass
    floor = med.get("typer hello-world", float("nan"))
    # The same in CPU time (user + system), which a busy machine disturbs less.
    cpu_med = {k: statistics.median(c / b for c, b in zip(v[1], v[3], strict=True))
               for k, v in times.items()}
    cpu_floor = cpu_med.get("typer hello-world", float("nan"))
    print(f"{'one-shot command':58} {'wall ms':>8} {'× pass':>7} {'× hello':>8} "
          f"{'cpu ms':>7} {'cpu×h':>6}  budget")
    over = []
    for case in cases:
        label, budget = str(case["label"]), str(case["budget"])
        walls, cpus, _, _ = times[label]
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        to_hello = med[label] / floor
        limit = LIMITS.get(budget)
        mark = " OVER" if limit and to_hello > limit else ""
        if mark:
            over.append(label)
        short = label if len(label) <= 58 else label[:55] + "..."
        print(f"{short:58} {wall * 1000:8.1f} {med[label]:7.2f} {to_hello:8.2f} "
              f"{cpu * 1000:7.1f} {cpu_med[label] / cpu_floor:6.2f}  {budget}{mark}")
    pairs = [("draw", "long campaign: fate draw --json", "fate draw 3 --json"),
             ("fate status", "long campaign: fate status --json", "fate status --json"),
             ("change", "long campaign: unit condition add --json",
              "unit condition 'Goblin Scout' add Fatigue --count 2 --json"),
             ("status", "long campaign: status", "status"),
             ("status --json", "long campaign: status --json", "status --json"),
             ("export", "long campaign: session export --format markdown -o -",
              "session export --format markdown -o -")]
    for who in ("", "old: ") if any(k.startswith("old: ") for k in med) else ("",):
        growth = [f"{name} {med[who + long] / med[who + fresh]:.2f}×"
                  for name, long, fresh in pairs if who + long in med and who + fresh in med]
        if growth:
            print(f"\n{who}long campaign (1,000 units) / fresh: {', '.join(growth)} "
                  "(budget ≤ 1.5×)")
    olds = [k for k in med if k.startswith("old: ")]
    if olds:
        print("\nnew / old (the --against build), same run: wall, cpu")
        for k in olds:
            print(f"  {k[5:]:56} {med[k[5:]] / med[k]:5.2f}× {cpu_med[k[5:]] / cpu_med[k]:5.2f}×")
    budgeted = sum(1 for c in cases if str(c["budget"]) in LIMITS)
    print(f"\nover budget: {len(over)} of {budgeted}" + (f": {', '.join(over)}"
                                                        if over else ""), flush=True)


if __name__ == "__main__":
    sys.exit(main())
