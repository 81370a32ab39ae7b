"""The start of a one-shot command (issue 40 item 3): what the console script does before
and around a lookup. Timings are bench/'s; this pins the mechanisms."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers import ROOT

# Each cyclic collection writes a line to fd 2 (the process leaves by os._exit, so
# nothing can be counted after it): "gc" for each one made while the command ran.
COUNT_COLLECTIONS = (
    "import gc, os, sys\n"
    "gc.callbacks.append(lambda phase, info: phase == 'start' and os.write(2, b'gc\\n'))\n"
    "sys.argv = ['d2d', '--session', sys.argv[1], *sys.argv[2:]]\n"
    "from d2d_cli.__main__ import run\n"
    "run()\n")


def _collections(session: str, *argv: str) -> tuple[str, int]:
    # As an installed d2d runs: its modules' bytecode written (compiling one from source
    # allocates enough to collect; a shell's PYTHONDONTWRITEBYTECODE would recompile
    # every module on every run)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", COUNT_COLLECTIONS, session, *argv],
                          cwd=ROOT, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.splitlines().count("gc")


def test_the_console_script_is_the_entry_that_sets_the_collector() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert scripts["d2d"] == "d2d_cli.__main__:run"


def test_a_lookup_makes_no_cyclic_collection(tmp_path: Path) -> None:
    """Start-up allocates tens of thousands of objects that are never garbage: at
    CPython's default threshold (700) a conflict of two cards walked them ~40 times.
    Counted warm, as a table runs them: the first command after an edit compiles the
    modules it imports (and compiling may collect)."""
    _collections(str(tmp_path / "warm.toml"), "scene", "load", "combat1")
    session = str(tmp_path / "s.toml")
    out, n = _collections(session, "scene", "load", "combat1")
    assert n == 0
    out, n = _collections(session, "conflict", "7S^", "5H^")
    # 7♠↑ and 5♥↑ are both Fast: the higher rank wins (001 p.28 "Fast vs Fast")
    assert out.startswith("B wins (rank 7 vs 5): Fast (7♠↑) vs Fast (5♥↑)\n")
    assert n == 0
    out, n = _collections(session, "status", "--json")
    assert out.startswith('{"ok": true')
    assert n == 0


def test_a_long_run_still_collects_cyclic_garbage() -> None:
    """The threshold is raised, not the collector turned off: a run that makes cycles
    by the hundred thousand (d2d play, sim, a long session) still frees them."""
    code = ("import gc, sys\n"
            "from d2d_cli import __main__ as entry\n"
            "sys.argv = ['d2d', '--version']\n"
            "import d2d_cli.cli as cli\n"
            "cli.run = lambda: None\n"  # the threshold as run() leaves it, no exit
            "entry.run()\n"
            "assert gc.isenabled() and gc.get_threshold()[0] == entry.FIRST_THRESHOLD\n"
            "class Node:\n    pass\n"
            "before = gc.get_count()[0]\n"
            "for _ in range(3 * entry.FIRST_THRESHOLD):\n"
            "    a, b = Node(), Node()\n    a.b, b.a = b, a\n"
            "print(gc.get_stats()[0]['collections'] >= 1, gc.get_count()[0] <"
            " entry.FIRST_THRESHOLD)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    assert out.split() == ["True", "True"]


def test_the_unit_list_reads_no_card(tmp_path: Path) -> None:
    """``unit list --json`` reads the roster and each unit's conditions: no card is
    parsed, so the card parser is not imported (rules/units/conditions.py names Card for
    mypy only; an event's card is read where it is drawn)."""
    session = str(tmp_path / "s.toml")
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "assert not main(['--session', sys.argv[1], 'scene', 'load', 'combat1'])\n"
            "assert not main(['--session', sys.argv[1], 'unit', 'list', '--json'])\n")
    subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                   capture_output=True)  # the cache written and read: a warm lookup
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "assert not main(['--session', sys.argv[1], 'unit', 'list', '--json'])\n"
            "print(sorted(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    assert '"name": "Archer"' in out  # it listed the scene's units
    loaded = set(eval(out.splitlines()[-1]))  # noqa: S307 - our own list
    assert "d2d_cli.rules.units.conditions" in loaded
    assert "d2d_cli.rules.deck.cards" not in loaded


def test_a_lookup_builds_no_journal_label_and_a_change_still_has_its_own(
        tmp_path: Path) -> None:
    """The journal's label (the command line's words, quoted by ``shlex``) is built when
    a change is journalled: a lookup journals nothing, so it neither builds it nor
    imports ``shlex``."""
    session = str(tmp_path / "s.toml")
    setup = ("import sys\nfrom d2d_cli.cli import main\n"
             "for words in (['scene', 'load', 'combat1'], ['fate', 'draw', '2'],\n"
             "              ['unit', 'condition', 'Goblin Scout', 'add', 'Fatigue'],\n"
             "              ['fate', 'status'], ['status', '--json']):\n"
             "    assert not main(['--session', sys.argv[1], *words]), words\n")
    subprocess.run([sys.executable, "-c", setup, session], cwd=ROOT, check=True,
                   capture_output=True)
    for argv in (["fate", "status"], ["conflict", "7S^", "5H^"], ["status", "--json"]):
        code = ("import sys\nfrom d2d_cli.cli import main\n"
                f"assert not main(['--session', sys.argv[1], *{argv!r}])\n"
                "print(sorted(sys.modules))\n")
        out = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        loaded = set(eval(out.splitlines()[-1]))  # noqa: S307 - our own list
        assert "d2d_cli.session.reads" in loaded and "shlex" not in loaded, argv
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "assert not main(['--session', sys.argv[1], 'session', 'log', '--json'])\n")
    log = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    # the changes were journalled under their command lines, a name with a space quoted
    assert "fate draw 2" in log
    assert "unit condition 'Goblin Scout' add Fatigue" in log
