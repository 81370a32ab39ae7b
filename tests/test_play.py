"""``d2d play`` line by line (the terminal itself is tests/test_play_pty.py): every line
behaves as the same one-shot command, the status line, the shell's own words, and the
completion of a half-typed line."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d2d_cli import cli
from d2d_cli.completion import NOT_IN_PLAY, candidates, quote, split_partial
from d2d_cli.rules.overview import summary
from d2d_cli.shell import SHELL_HELP, Shell
from tests.golden.script import LINES, argv_of, recorded
from tests.helpers import run_process

GOLDEN = Path(__file__).parent / "golden" / "combat1.jsonl"


def test_the_golden_transcript_through_the_shell_is_byte_identical(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every command of the Combat #1 transcript, as lines of one shell: the same JSON,
    errors and exit codes as the one-shot commands (so nothing leaks between lines) —
    all but play and the tour, which the shell does not run."""
    monkeypatch.setenv("D2D_DATA_DIR", str(tmp_path / "data"))
    shell = Shell(run_argv=cli.main, root=cli.root_command(),
                  session=str(tmp_path / "combat1.toml"))
    got, want = [], []
    golden = GOLDEN.read_text(encoding="utf-8").splitlines()
    for line, expected in zip(LINES.strip().splitlines(), golden, strict=True):
        words, _stdin = argv_of(line, tmp_path)
        if words[0] in NOT_IN_PLAY:
            continue
        code = shell.run_line(shlex.join(words))
        got.append(recorded(line, code or 0, capsys.readouterr().out, tmp_path))
        want.append(expected)
    assert got == want and len(got) == len(golden) - len(NOT_IN_PLAY)


def test_lines_print_what_the_one_shot_commands_print(d2d, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    lines = ["scene load combat1", "round start", "fate draw 3", "conflict fast block",
             'unit show "Goblin Scout"', "status", "task win Knot --hits 2 --by Thief",
             "undo", "fate draw 300", "clock event list"]
    for name in ("shell", "oneshot"):
        d2d.ok("--seed", "7", "session", "new", name)
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="shell")
    for line in lines:
        code = shell.run_line(line)
        out = capsys.readouterr()
        words = ["session", "undo"] if line == "undo" else shlex.split(line)
        want = d2d("--session", "oneshot", *words)
        assert (code, out.out, out.err) == (want.exit_code, want.stdout, want.stderr), line


def test_a_seed_applies_to_each_line_without_repeating_cards(
        d2d, capsys: pytest.CaptureFixture[str]) -> None:
    """`d2d --seed 7 play`: each line as if typed `d2d --seed 7 …` — the session's counter
    moves on, so two draws differ, and the same lines on the same file repeat."""
    for name in ("a", "b"):
        d2d.ok("session", "new", name)  # unseeded: only --seed makes them agree
    draws = {}
    for name in ("a", "b"):
        shell = Shell(run_argv=cli.main, root=cli.root_command(), session=name, seed=7)
        for _ in range(2):
            shell.run_line("fate shuffle --reset")  # a new deck, shuffled by the seed
            shell.run_line("fate draw 2 --json")
        outs = capsys.readouterr().out.splitlines()
        draws[name] = [[c["code"] for c in json.loads(o)["result"]["cards"]]
                       for o in outs if o.startswith("{")]
    assert draws["a"] == draws["b"]
    assert draws["a"][0] != draws["a"][1]


def test_a_change_from_another_terminal_is_seen_by_the_next_line(
        d2d, capsys: pytest.CaptureFixture[str]) -> None:
    d2d.ok("session", "new", "t")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    assert shell.status() == "no round yet · 54 cards left"
    d2d.ok("--session", "t", "fate", "draw", "3")  # the other terminal
    shell.run_line("fate status")
    assert capsys.readouterr().out.startswith("Fate deck: 51 to draw, 3 discarded")
    assert shell.status() == "no round yet · 51 cards left"


def test_an_edit_in_place_of_the_same_size_is_seen(d2d, data_dir: Path) -> None:
    """The shell's reads reuse the last parse only for the very same text."""
    d2d.ok("session", "new", "t")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    shell.data()
    path = data_dir / "t.toml"
    text = path.read_text()
    path.write_text(text.replace("shuffles = 1", "shuffles = 7"))  # same size, same inode
    assert shell.data()["fate"]["shuffles"] == 7


def test_without_session_the_shell_follows_session_use(d2d, capsys) -> None:
    d2d.ok("session", "new", "one", "--use")
    d2d.ok("session", "new", "two")
    shell = Shell(run_argv=cli.main, root=cli.root_command())
    assert shell.prompt() == "one> "
    shell.run_line("session use two")
    assert shell.prompt() == "two> "


def test_the_shells_own_words(d2d, capsys: pytest.CaptureFixture[str]) -> None:
    shell = Shell(run_argv=cli.main, root=cli.root_command())
    assert shell.run_line("help") == 0
    out = capsys.readouterr().out
    assert out.startswith(SHELL_HELP + "\nCommands:\n  fate      The Fate deck: draw")
    # Only what a line can start with: not the shell itself, the tour or the root's
    # one-shot options (issue 20.10).
    for absent in ("  play ", "  tour ", "--install-completion", "--show-completion"):
        assert absent not in out
    assert shell.run_line("help fate draw") == 0
    assert capsys.readouterr().out.startswith("Usage: d2d fate draw [OPTIONS] [COUNT]")
    assert shell.run_line("d2d fate status") == 0  # the prefix, typed out of habit
    assert capsys.readouterr().out.startswith("Fate deck: 54 to draw")
    assert shell.run_line("undo") == 2
    assert capsys.readouterr().err == (
        "d2d: error: nothing to undo: the journal holds no earlier state (undo reaches "
        "back at least 50 commands)\n")
    assert shell.run_line('unit show "Goblin') == 2
    assert capsys.readouterr().err == "d2d: error: No closing quotation\n"
    assert shell.run_line("play") == 2
    assert capsys.readouterr().err == "d2d: error: this is d2d play already: type a command\n"
    assert shell.run_line("") == 0 and shell.run_line("# a note") == 0
    assert shell.run_line("exit") is None and shell.run_line("quit") is None


def test_play_reads_lines_from_a_pipe(tmp_path: Path) -> None:
    """Not a terminal: no prompt, no status line, the lines' output; the last line fails,
    so the exit code is its own, and stderr names it."""
    env = {"D2D_DATA_DIR": str(tmp_path / "d")}
    proc = subprocess.run([sys.executable, "-m", "d2d_cli", "--seed", "7", "play"],
                          input="fate draw 2\nfate coin --card 7H\nfate draw x\n",
                          capture_output=True, text=True, env={**_env(), **env}, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ("Revealed: 6♥ 6 of Cups ↑, J♣ Jack of Wands ↑\n"
                           "52 left to draw, 2 in the discard pile\n"
                           "7♥ 7 of Cups ↑ → Tails\n")
    assert proc.stderr == ("d2d: error: Invalid value for '[COUNT]': 'x' is not a valid int. "
                           "(type 'help fate draw')\n"
                           "d2d play: line 3 failed (exit 2): fate draw x\n")
    ok = run_process("play", env=env)  # empty input: nothing run, exit 0
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "", "")


SCRIPT = "fate coin --card 7H\nfate draw x\nfate coin --card 8S\nunit show Nobody\n"


def test_a_script_stops_at_its_first_failing_line(tmp_path: Path) -> None:
    """Like ``sqlite3 -bail`` or ``sh -e``: line 2 fails, line 3 never runs, the exit
    code is line 2's."""
    env = {**_env(), "D2D_DATA_DIR": str(tmp_path / "d")}
    proc = subprocess.run([sys.executable, "-m", "d2d_cli", "play"], input=SCRIPT,
                          capture_output=True, text=True, env=env, timeout=60)
    assert (proc.returncode, proc.stdout) == (2, "7♥ 7 of Cups ↑ → Tails\n")
    assert proc.stderr.splitlines()[-1] == "d2d play: line 2 failed (exit 2): fate draw x"


def test_keep_going_runs_every_line_and_exits_with_the_first_failure(tmp_path: Path) -> None:
    env = {**_env(), "D2D_DATA_DIR": str(tmp_path / "d")}
    proc = subprocess.run([sys.executable, "-m", "d2d_cli", "play", "--keep-going"],
                          input=SCRIPT, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == "7♥ 7 of Cups ↑ → Tails\n8♠ 8 of Swords ↑ → Heads\n"
    failed = [x for x in proc.stderr.splitlines() if x.startswith("d2d play:")]
    assert failed == ["d2d play: line 2 failed (exit 2): fate draw x",
                      "d2d play: line 4 failed (exit 2): unit show Nobody"]


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("D2D_")}


def test_a_bad_session_is_refused_before_the_shell_starts(d2d) -> None:
    res = d2d("play", "--session", "../x")
    assert res.exit_code == 2 and res.stderr.startswith("d2d: error: bad session name")


# --------------------------------------------------------------------------- status line


def test_the_status_line(d2d, tmp_path: Path) -> None:
    d2d.ok("--seed", "7", "session", "new", "t", "--use")
    shell = Shell(run_argv=cli.main, root=cli.root_command())
    assert shell.status() == "no round yet · 54 cards left"
    for line in ("scene load combat1", "round start", "fate draw 53"):
        d2d.ok(*shlex.split(line))
    d2d.ok("unit", "condition", "Archer", "add", "fatigue", "--count", "2")
    shell.run_line("unit show archer")  # any case: shown as the roster spells it
    assert shell.status() == ("Combat #1 · round 1 under way · next at Count 5: Archer, "
                              "Goblin Scout, Goblin Skirmisher · clock 1 · 1 card left · "
                              "Archer: Move 5, AC 2, Turn 2, 2 condition tokens")
    d2d.ok("unit", "rm", "Archer")  # gone from the board: gone from the line
    assert shell.status() == ("Combat #1 · round 1 under way · next at Count 5: Goblin "
                              "Scout, Goblin Skirmisher · clock 1 · 1 card left")


def test_the_status_line_of_an_unusable_file(d2d, data_dir: Path) -> None:
    d2d.ok("session", "new", "t")
    shell = Shell(run_argv=cli.main, root=cli.root_command(), session="t")
    (data_dir / "t.toml").write_text("schema = 1\n[fate\n")
    assert shell.status().startswith(f"session unusable: {data_dir / 't.toml'}: not valid TOML")


def test_summary_tolerates_hand_edits() -> None:
    s = summary.summarize({"round": {"number": "x"}, "clock": "no", "fate": {"draw": ["AS"]},
                           "units": {"Rat": "nope"}, "tasks": {"T": {"challenge": 2}}})
    assert summary.status_line(s, summary.unit_tokens({"units": {"Rat": "nope"}}, "Rat")) \
        == "no round yet · 1 card left"
    assert s.tasks == (summary.TaskLine("T", 2, 0),)


# --------------------------------------------------------------------------- completion


@pytest.mark.parametrize(("line", "words", "incomplete", "start", "quote_"), [
    ("", [], "", 0, None),
    ("fate dr", ["fate"], "dr", 5, None),
    ("fate draw ", ["fate", "draw"], "", 10, None),
    ('unit show "Goblin Sc', ["unit", "show"], "Goblin Sc", 10, '"'),
    ("unit show 'Gob", ["unit", "show"], "Gob", 10, "'"),
    (r"unit show Goblin\ S", ["unit", "show"], "Goblin S", 10, None),
    ('unit show "Goblin Scout" Ar', ["unit", "show", "Goblin Scout"], "Ar", 25, None),
    ('ref "a \\" b', ["ref"], 'a " b', 4, '"'),
])
def test_split_partial(line: str, words: list[str], incomplete: str, start: int,
                       quote_: str | None) -> None:
    assert split_partial(line) == (split_partial(line).__class__(words, incomplete, start,
                                                                 quote_))


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")),
                        min_size=1, max_size=12), max_size=5))
def test_quoted_names_read_back_as_they_were(words: list[str]) -> None:
    line = " ".join(quote(w) for w in words) + " "
    assert split_partial(line).words == words
    assert shlex.split(line) == words


def test_completing_a_line(d2d) -> None:
    from d2d_cli.registry import Settings

    d2d.ok("scene", "load", "combat1")

    def complete(line: str) -> list[tuple[str, int]]:
        return [(c.text, c.start) for c in candidates(line, Settings(root=cli.root_command()))]

    assert complete("fa") == [("fate", 0)]
    assert ("undo", 0) in complete("u") and ("unit", 0) in complete("u")
    assert complete("fate dr") == [("draw", 5)]
    assert complete("unit show Goblin") == [('"Goblin Scout"', 10),
                                            ('"Goblin Skirmisher"', 10)]
    assert complete('unit show "Goblin Sc') == [('"Goblin Scout"', 10)]
    assert complete("unit show 'goblin sc") == [("'Goblin Scout'", 10)]
    assert complete("unit show Arch") == [("Archer", 10)]
    assert complete("fate draw --j") == [("--json", 10)]
    assert complete("fate draw --se") == [("--session", 10), ("--seed", 10)]
    assert complete("help fate st") == [("status", 10)]
    assert complete("undo --j") == [("--json", 5)]
    assert complete("nosuch x") == []


def test_the_readme_says_how_to_put_d2d_on_path_then_play() -> None:
    from tests.helpers import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    order = [text.index(s) for s in ("<!-- main-command -->", "<!-- test-command -->",
                                     "## `d2d` on your PATH", "source .venv/bin/activate",
                                     "pipx install .", "## At the table: `d2d play`")]
    assert order == sorted(order)


def test_inside_play_a_usage_error_points_at_help(d2d, capsys) -> None:
    """Inside the shell a line has no "d2d" and help is a word of its own; outside, the
    one-shot hint is unchanged (the shell's hint does not leak from its lines)."""
    shell = Shell(run_argv=cli.main, root=cli.root_command())
    assert shell.run_line("fate draw x") == 2
    assert capsys.readouterr().err == (
        "d2d: error: Invalid value for '[COUNT]': 'x' is not a valid int. "
        "(type 'help fate draw')\n")
    assert shell.run_line("nosuch") == 2
    assert capsys.readouterr().err.endswith("(type 'help')\n")
    assert cli.main(["fate", "draw", "x"]) == 2
    assert capsys.readouterr().err.endswith("(see 'd2d fate draw --help')\n")
