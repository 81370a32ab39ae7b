"""Native CLI manners (issue 14, item 3): what a new user trying d2d runs into first."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from d2d_cli.registry import hoist_globals
from tests.helpers import ROOT, run_process
from tests.test_cli import _leaf_commands


def test_a_typo_gets_a_did_you_mean(d2d) -> None:
    res = d2d("stauts")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: No such command 'stauts'. Did you mean 'status'? "
                          "(see 'd2d --help')\n")
    res = d2d("fate", "drwa")  # in a group too
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: No such command 'drwa'. Did you mean 'draw'? "
                          "(see 'd2d fate --help')\n")
    res = d2d("xyzzy")  # nothing near: no guess
    assert res.stderr == "d2d: error: No such command 'xyzzy'. (see 'd2d --help')\n"


def test_bare_d2d_prints_its_help_and_exits_0(d2d) -> None:
    res = d2d()
    assert res.exit_code == 0 and res.stderr == ""
    assert res.stdout == d2d.ok("--help")
    res = d2d("clock", "event")  # a bare group below the root, nested too
    assert res.exit_code == 0 and res.stdout == d2d.ok("clock", "event", "--help")


@pytest.mark.parametrize(("typed", "moved"), [
    (["fate", "coin", "--seed", "1"], ["--seed", "1", "fate", "coin"]),
    (["fate", "draw", "--session", "x", "2"], ["--session", "x", "fate", "draw", "2"]),
    (["fate", "draw", "--session=x"], ["--session=x", "fate", "draw"]),
    (["--seed", "3", "clock", "event", "list", "--debug"],
     ["--debug", "--seed", "3", "clock", "event", "list"]),
    (["ref", "--", "--seed"], ["ref", "--", "--seed"]),  # never past --
])
def test_global_options_after_the_command_move_in_front(typed: list[str],
                                                        moved: list[str]) -> None:
    assert hoist_globals(typed) == moved


def test_global_options_work_after_any_command(d2d, data_dir: Path) -> None:
    for name in ("a", "b"):  # two sessions in the same state
        d2d.ok("--seed", "5", "session", "new", name)
    after = d2d.ok("--session", "a", "fate", "coin", "--seed", "1")
    assert after == d2d.ok("--seed", "1", "--session", "b", "fate", "coin")
    assert after != d2d.ok("--session", "a", "fate", "coin")  # --seed did apply
    d2d.ok("session", "new", "x")  # a named session is made on purpose (issue 10)
    out = d2d.json("fate", "draw", "--session", "x", "2")
    assert len(out["cards"]) == 2
    assert (data_dir / "x.toml").exists()
    entries = d2d.json("session", "log", "--session", "x")["entries"]
    assert entries[-1]["command"] == "fate draw 2"  # globals stay out of labels


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`d2d fate draw 30 | head -1`: the reader has gone; no traceback, no noise."""
    env = {**os.environ, "D2D_DATA_DIR": str(tmp_path / "data")}
    # A change that was saved exits 0 even though nobody read its output (exit != 0
    # promises nothing changed: docs/architecture.md "Guarantees"); help exits 1.
    for args, code in ((["fate", "draw", "30"], 0), (["fate", "draw", "30", "--json"], 0),
                       (["--help"], 1)):
        read, write = os.pipe()
        os.close(read)  # the reader is gone before d2d writes a byte
        proc = subprocess.run([sys.executable, "-m", "d2d_cli", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=60)
        os.close(write)
        assert (proc.returncode, proc.stderr) == (code, ""), args
    # And through a real shell pipe, as typed:
    res = subprocess.run(["bash", "-c", f"{sys.executable} -m d2d_cli fate draw 30 | head -1"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.stderr == "" and res.stdout.startswith("Revealed: ")


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_the_tour_leaves_nothing_in_tmp(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    res = run_process("tour", env={"TMPDIR": str(tmp), "D2D_DATA_DIR": str(tmp_path / "d")})
    assert res.returncode == 0, res.stderr
    assert list(tmp.iterdir()) == []
    # …nor a cache of its throwaway session in the cache folder (README command 1)
    assert [p for p in (tmp_path / "d").rglob("*") if p.is_file()] == []


def test_session_show_reads_like_a_summary(d2d, data_dir: Path) -> None:
    d2d.ok("--seed", "7", "session", "new", "t", "--use")
    d2d.ok("scene", "load", "combat1")
    d2d.ok("round", "start")
    d2d.ok("fate", "draw", "3")
    created = tomllib.loads((data_dir / "t.toml").read_text())["meta"]["created"]
    day, time = created[:10], created[11:16]
    assert d2d.ok("session", "show") == (
        "Session t\n"
        f"  File     {data_dir / 't.toml'}\n"
        f"  Created  {day} {time} UTC (schema 1)\n"
        "  Scene    Combat #1 (personal map)\n"
        "  Round    1 (under way) · clock 1\n"
        "  Fate     51 cards to draw, 3 discarded\n"
        "  Units    4: Archer, Thief, Goblin Scout, Goblin Skirmisher\n"
        "  Tasks    1: Knot (Challenge 4, Progress 4)\n"
        "  Rules    defaults (docs/rules.md)\n")


def test_session_show_of_a_fresh_session_and_a_long_roster(d2d) -> None:
    d2d.ok("session", "new", "f", "--use")
    out = d2d.ok("session", "show").splitlines()
    assert out[3:] == ["  Round    none yet", "  Fate     54 cards to draw, 0 discarded",
                       "  Units    none", "  Tasks    none", "  Rules    defaults (docs/rules.md)"]
    for i in range(14):
        d2d.ok("unit", "add", f"Rat {i}", "--body", "1x0", "--mind", "1x0", "--will", "1x0",
               "--speed", "1x0")
    units = d2d.ok("session", "show").splitlines()[5]
    assert units == ("  Units    14: " + ", ".join(f"Rat {i}" for i in range(12))
                     + " … and 2 more (d2d unit list)")


def test_show_completion_zsh_is_a_zsh_completion_file(tmp_path: Path) -> None:
    res = run_process("--show-completion", "zsh")
    assert res.returncode == 0
    lines = res.stdout.splitlines()
    assert lines[0] == "#compdef d2d"  # compinit reads it only on the first line
    # Sourced, it registers the function; autoloaded from ~/.zfunc (where
    # --install-completion puts it), it completes at once: the first Tab works.
    assert lines[-5:] == ["if [[ $zsh_eval_context[-1] == loadautofunc ]]; then",
                          '  _d2d_completion "$@"', "else", "  compdef _d2d_completion d2d",
                          "fi"]
    home = tmp_path / "home"
    home.mkdir()
    installed = run_process("--install-completion", "zsh", env={"HOME": str(home)})
    assert installed.returncode == 0
    assert (home / ".zfunc" / "_d2d").read_text(encoding="utf-8") == res.stdout.rstrip("\n")
    assert "_D2D_COMPLETE=complete_zsh" in res.stdout
    # …and what the script asks for answers: names with spaces stay one candidate.
    env = {"D2D_DATA_DIR": str(tmp_path / "d")}
    assert run_process("scene", "load", "combat1", env=env).returncode == 0
    got = run_process(env={**env, "_D2D_COMPLETE": "complete_zsh",
                           "_TYPER_COMPLETE_ARGS": "d2d unit show Gob"})
    assert got.stdout == "_arguments '*: :((\"Goblin Scout\"\n\"Goblin Skirmisher\"))'\n"
    assert run_process("--show-completion", "bash").stdout.startswith("_d2d_completion() {")
    assert run_process("--show-completion").returncode == 0  # the shell is detected


def test_help_uses_the_terminal_up_to_120_columns() -> None:
    env = {"COLUMNS": "120"}
    widths = [len(line) for line in run_process("--help", env=env).stdout.splitlines()]
    assert 80 < max(widths) <= 120
    narrow = [len(line) for line in run_process("--help", env={"COLUMNS": "70"}).stdout
              .splitlines()]
    assert max(narrow) <= 70


def test_the_command_reference_lists_every_command() -> None:
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    headers = {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}
    missing = [p for p in _leaf_commands() if "d2d " + " ".join(p) not in headers]
    assert missing == []
    assert "d2d clock event add" in headers


# --------------------------------------------------------------------------- completion


@pytest.fixture
def table(d2d) -> None:
    d2d.ok("--seed", "7", "session", "new", "t", "--use")
    d2d.ok("scene", "load", "combat1")


@pytest.mark.parametrize(("line", "want"), [
    ("crit --target Gob", ["Goblin Scout", "Goblin Skirmisher"]),
    ("crit --target scout", ["Goblin Scout"]),  # a later word of the name
    ("task win K", ["Knot"]),
    ("task win Knot --by Th", ["Thief"]),
    ("task new Door -d 3 --worker A", ["Archer"]),
    ("unit condition Archer add Bl", ["Bleeding", "Blood Loss", "Blessed"]),
    ("char new Rook --archetype thi", ["Thief"]),
    ("char new Rook --template human-f", ["human-female"]),
    ("char train Rook Stea", ["Stealth"]),
    ("scale map na", ["naval", "narrative"]),
    ("fate high-card Archer T", ["Thief"]),
    ("hit 9S Q", ["QC", "QD", "QH", "QS"]),
    ("fate coin --card qh", ["qh^", "qhv"]),
    ("conflict fa", ["fast", "fate"]),
    ("ref blood", ["Bloodcraft", "Bloodmage", "Blood Loss"]),
    ("--session ", ["t"]),
])
def test_name_taking_options_complete(table, line: str, want: list[str]) -> None:
    from d2d_cli import cli
    from d2d_cli.completion import candidates
    from d2d_cli.registry import Settings

    got = [c.display for c in candidates(line, Settings(root=cli.root_command()))]
    assert got == want


def test_the_shell_completion_of_names_goes_through_the_same_completers(table,
                                                                       data_dir: Path) -> None:
    env = {"D2D_DATA_DIR": str(data_dir), "_D2D_COMPLETE": "complete_bash",
           "COMP_WORDS": "d2d crit --target G", "COMP_CWORD": "3"}
    got = run_process(env=env)
    assert got.stdout.splitlines() == ["Goblin\\ Scout", "Goblin\\ Skirmisher"]


def test_the_root_help_is_built_without_importing_any_group() -> None:
    """The command groups' modules stay unimported (their shared helpers, ``_app``, are
    what the root is built from)."""
    code = ("import sys\nfrom d2d_cli.cli import main\nmain(['--help'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('d2d_cli.commands.')\n"
            "             and not m.rpartition('.')[2].startswith('_')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.splitlines()[-1] == "[]"


def test_a_value_with_a_space_reads_as_one(d2d) -> None:
    # `d2d scale mass 62 kg` as a person types it: the same as "62kg".
    spaced, joined = d2d.json("scale", "mass", "62", "kg"), d2d.json("scale", "mass", "62kg")
    assert spaced["input"]["text"] == "62 kg"  # the input, as typed
    assert {**spaced, "input": None} == {**joined, "input": None}
    assert d2d.json("scale", "speed", "40", "km/h")["stat"] == "4x1"


def test_hit_without_vs_says_the_option_is_missing(d2d) -> None:
    res = d2d("hit", "2S")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: Missing option '--vs': the Difficulty — a number "
                          "(--vs 2), the Rival's stat (--vs 2x1) or a unit on the board "
                          "(--vs \"Goblin Scout\"); or --difficulty N\n")


def test_a_new_session_says_how_to_make_it_current(d2d, data_dir: Path) -> None:
    out = d2d.ok("session", "new", "friday")
    assert out == (f"Created session friday at {data_dir / 'friday.toml'}\n"
                   "Make it current with: d2d session use friday  (or add --session friday "
                   "to a command)\n")
    out = d2d.ok("session", "new", "saturday", "--use")
    assert out == f"Created session saturday at {data_dir / 'saturday.toml'} (now current)\n"
