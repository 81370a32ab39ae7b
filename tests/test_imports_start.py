"""The start of a one-shot command (issue 40 item 3): what the console script does before
and around a lookup. Timings are bench/'s; this pins the mechanisms."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from d2d_cli.rules.core.record import replace
from tests.helpers import ROOT, in_fresh_process

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
    setup = [["scene", "load", "combat1"], ["fate", "draw", "2"],
             ["unit", "condition", "Goblin Scout", "add", "Fatigue"],
             ["fate", "status"], ["status", "--json"]]
    lookups = (["fate", "status"], ["conflict", "7S^", "5H^"], ["status", "--json"])
    for i, argv in enumerate(lookups):  # the session set up before the first
        _, loaded = in_fresh_process(session, [] if i else setup, argv)
        assert "d2d_cli.session.reads" in loaded and "shlex" not in loaded, argv
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "assert not main(['--session', sys.argv[1], 'session', 'log', '--json'])\n")
    log = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    # the changes were journalled under their command lines, a name with a space quoted
    assert "fate draw 2" in log
    assert "unit condition 'Goblin Scout' add Fatigue" in log


# Patterns a lookup never matches are compiled on their first use, not at import (each
# ~50-200 µs of re's compiler a process paid): the module and its pattern's maker.
LAZY_PATTERNS = (("d2d_cli.rules.time.clock", "_chance_re"),
                 ("d2d_cli.rules.time.tasks", "_name_re"),
                 ("d2d_cli.rules.units.roster", "_name_re"),
                 ("d2d_cli.rules.units.sides", "_name_re"),
                 ("d2d_cli.rules.deck.cards", "_card_re"),
                 ("d2d_cli.rules.deck.cards", "_wild_re"),
                 ("d2d_cli.commands._complete", "_word_break"))
CARDS = "d2d_cli.rules.deck.cards"
GEAR = "d2d_cli.rules.units.gear"  # what a unit carries: its weapons read and checked
# The scale's Move rule and its exact arithmetic: a Status Bar needs them only for a
# unit that has not had its first Refresh (rules/units/status_bar.py).
MOVES = {"d2d_cli.rules.scale.maps", "fractions", "decimal"}
# The quantities' readings (records, patterns, unit tables): no Status Bar needs them
READINGS = "d2d_cli.rules.scale.quantities"


def _status_json(session: str) -> tuple[dict[str, Any], set[str], dict[str, int]]:
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "assert not main(['--session', sys.argv[1], 'status', '--json'])\n"
            f"lazy = {LAZY_PATTERNS!r}\n"
            "print({f'{m}.{f}': getattr(sys.modules[m], f).cache_info().currsize\n"
            "       for m, f in lazy if m in sys.modules})\n"
            "print(sorted(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    compiled = eval(out[-2])  # noqa: S307 - our own dict
    return json.loads("\n".join(out[:-2])), set(eval(out[-1])), compiled  # noqa: S307


def test_a_status_compiles_no_pattern_it_does_not_match(tmp_path: Path) -> None:
    """``status --json`` on Combat #1 under way (every unit refreshed, a task on the
    board, a Random Event on the Clock): none of the lazy patterns is compiled, and the
    scale's conversions are not imported — each unit's Move is the one its Refresh
    placed. A unit made after the Refresh gets the Move the Refresh would give it (001
    l.459), which is when the Move's rule and its exact arithmetic are imported — and
    not the quantities' readings (their records, patterns and unit tables)."""
    session = str(tmp_path / "s.toml")
    setup = ("import sys\nfrom d2d_cli.cli import main\n"
             "for words in (['scene', 'load', 'combat1'], ['round', 'start'],\n"
             "              ['clock', 'event', 'random', 'A patrol passes', '1/4'],\n"
             "              ['status', '--json']):\n"  # the cache warm
             "    assert not main(['--session', sys.argv[1], *words]), words\n")
    subprocess.run([sys.executable, "-c", setup, session], cwd=ROOT, check=True,
                   capture_output=True)
    shown, loaded, compiled = _status_json(session)
    assert shown["ok"] and shown["result"]["tasks"] and shown["result"]["units"]
    assert all(row["move"] is not None for row in shown["result"]["units"])
    # the modules are loaded (the dashboard reads the Clock, the tasks, the roster, the
    # sides; completion is the CLI's): the check is not vacuous
    assert {m for m, _ in LAZY_PATTERNS} - {CARDS} <= loaded
    assert compiled and set(compiled.values()) == {0}, compiled
    assert loaded & (MOVES | {READINGS}) == set()
    # no card is parsed (the Clock names a Card for mypy only: a Random Event's card is
    # read where it is revealed), and what each unit carries is not worked out: only
    # --why shows it (the Javelin of Combat #1's Goblin Skirmisher is not checked)
    assert CARDS not in loaded and GEAR not in loaded
    # the patterns still match when asked (a name, a chance, a card)
    from d2d_cli.rules.deck.cards import parse_card
    from d2d_cli.rules.time.clock import parse_chance
    assert parse_chance("1 in 4") == (1, 4) and str(parse_card("7 of swords v")) == "7Sv"

    add = ("import sys\nfrom d2d_cli.cli import main\n"
           "assert not main(['--session', sys.argv[1], 'char', 'new', 'Rook', '--template',"
           " 'human-female', '--body', '7', '--will', '5', '--archetype', 'thief'])\n")
    subprocess.run([sys.executable, "-c", add, session], cwd=ROOT, check=True,
                   capture_output=True)
    shown, loaded, _ = _status_json(session)
    assert GEAR not in loaded
    rook = next(r for r in shown["result"]["units"] if r["name"] == "Rook")
    from d2d_cli.rules.scale.quantities import move_tokens
    from d2d_cli.rules.scale.stats import parse_stat
    where = tomllib.loads(Path(session).read_text("utf-8"))["scene"]["map"]
    want = move_tokens(parse_stat(rook["stats"]["speed"]), where)
    assert (rook["move"], rook["action_cost"]) == (want.move, want.action_cost)
    assert loaded >= MOVES and READINGS not in loaded


def test_a_markdown_export_imports_no_digest_no_splicer_no_shlex(tmp_path: Path) -> None:
    """``session export --format markdown -o -`` reads the session and its journal: it
    writes nothing, so the text splicer and the commit (undo's and redo's) are not
    imported; its ids are Foundry's, so ``hashlib`` (OpenSSL's digests, ~4 ms to load)
    is not; a journal of plain words needs no ``shlex``. A Foundry export still has its
    stable ids (``hashlib`` is imported where it is used; undo's and redo's own tests
    run the splicer and the commit)."""
    session = str(tmp_path / "s.toml")
    export = ["session", "export", "--format", "markdown", "-o", "-"]
    out, loaded = in_fresh_process(
        session, [["scene", "load", "combat1"], ["round", "start"], ["fate", "draw", "2"],
                  export], export)
    assert out.startswith("---\n") and "round 1 started" in out  # the story, its log
    assert "d2d_cli.session.history" in loaded  # it did read the journal
    assert loaded & {"hashlib", "_hashlib", "shlex", "d2d_cli.session.text",
                     "d2d_cli.session.commit", "d2d_cli.session.headers",
                     "d2d_cli.session.hunks", "d2d_cli.session.tomltext"} == set()
    again = ("import sys\nfrom d2d_cli.cli import main\n"
             "assert not main(['--session', sys.argv[1], 'session', 'export', '--format',"
             " 'foundry-cards', '-o', sys.argv[2]])\n")
    for name in ("a.json", "b.json"):
        subprocess.run([sys.executable, "-c", again, session, str(tmp_path / name)],
                       cwd=ROOT, check=True, capture_output=True)
    # the deck's id is a digest of what it is: the same in both exports
    a, b = (json.loads((tmp_path / n).read_text("utf-8")) for n in ("a.json", "b.json"))
    assert len(a["_id"]) == 16 and a["_id"].isalnum() and a["_id"] == b["_id"]


def test_status_works_out_what_units_carry_only_with_why(tmp_path: Path) -> None:
    """``status --why`` adds what each unit carries (issue 36: its weapons, Hand to Hand
    without one); that line alone reads and checks the weapons, so a plain ``status``
    does not import them (issue 40 item 3) — and still says the same of every unit."""
    session = str(tmp_path / "s.toml")
    setup = [["scene", "load", "combat1"], ["round", "start"]]
    plain, loaded = in_fresh_process(session, setup, ["status"])
    assert "Goblin Skirmisher" in plain and "carries" not in plain
    assert GEAR not in loaded
    why, loaded = in_fresh_process(session, [], ["--why", "status"])
    assert GEAR in loaded
    # 001 l.274 "[Weapon]: Rating:[Body]+2 …": the scene's Javelin, as unit gear show has it
    assert "  Goblin Skirmisher carries: Javelin (Body+1, pierce, 1-handed, thrown 4/8)" \
        in why.splitlines()
    assert "  Thief carries: Hand to Hand (Body)" in why.splitlines()
    # the Python API: each row's carries only when asked, the rest of the row the same
    from d2d_cli import api
    table = api.Session(session)
    bare, full = table.status(), table.status(carries=True)
    assert {u.carries for u in bare.units} == {""}
    assert {u.name: u.carries for u in full.units}["Goblin Skirmisher"].startswith("Javelin")
    assert [replace(u, carries="") for u in full.units] == list(bare.units)
