"""The command line as a whole: help, version, exit codes, imports, internal errors."""

from __future__ import annotations

import importlib
import json
import sys

import pytest
import typer

from d2d_cli import __version__
from d2d_cli.cli import GROUPS, app
from tests.helpers import run_process


def test_version(d2d) -> None:
    assert d2d.ok("--version") == f"d2d {__version__}\n"


def test_help_lists_every_group_with_its_one_help_line(d2d) -> None:
    out = d2d.ok("--help")
    for name, group in GROUPS.items():
        assert f"  {name} " in out
        # The group's module reads its help from the same single copy (cli.GROUPS).
        module = importlib.import_module(f"d2d_cli.commands.{group.module}")
        assert module.app.info.help == group.help


def _leaf_commands() -> list[list[str]]:
    from d2d_cli.cli import D2DGroup

    root = typer.main.get_command(app)
    assert isinstance(root, D2DGroup)
    leaves: list[list[str]] = []

    def walk(path: list[str], cmd: object) -> None:
        subs = getattr(cmd, "commands", None)
        if not subs:
            leaves.append(path)
        for name, sub in (subs or {}).items():
            walk([*path, name], sub)

    for name in root.list_commands(None):  # type: ignore[arg-type]
        walk([name], root.get_command(None, name))  # type: ignore[arg-type]
    return leaves


@pytest.mark.parametrize("path", _leaf_commands(), ids=" ".join)
def test_every_command_has_help_with_an_example(d2d, path: list[str]) -> None:
    out = d2d.ok(*path, "--help")
    assert "Example: d2d" in " ".join(out.split()) or "Example:" in out


def test_fate_status_json_does_not_import_rich(tmp_path) -> None:
    code = (
        "import sys\n"
        "from d2d_cli.cli import main\n"
        "rc = main(['--session', sys.argv[1], 'fate', 'status', '--json'])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'tomlkit'))\n"
        "print('IMPORTED', bad, rc)\n"
    )
    path = tmp_path / "s.toml"
    assert run_process("session", "new", str(path)).returncode == 0
    import subprocess

    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip().endswith("IMPORTED [] 0")


def test_internal_error_is_exit_1_with_a_hint(d2d, monkeypatch: pytest.MonkeyPatch) -> None:
    from d2d_cli.rules.deck import fate

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(fate, "draw", boom)
    res = d2d("fate", "draw", "--json")
    assert res.exit_code == 1
    assert json.loads(res.stdout)["error"] == {"kind": "internal",
                                               "message": "internal error: RuntimeError: kaboom"}
    assert "--debug" in res.stderr and "Traceback" not in res.stderr
    res = d2d("--debug", "fate", "draw")
    assert res.exit_code == 1 and "Traceback" in res.stderr


def test_usage_errors_are_exit_2_one_line(d2d) -> None:
    res = d2d("fate", "nosuch")
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    res = d2d("nosuch")
    assert res.exit_code == 2 and res.stderr.startswith("d2d: error: No such command")


@pytest.mark.parametrize(("argv", "name"), [
    (["--seed", "7", "fate", "draw", "300"], "fate draw"),  # a rule's refusal
    (["fate", "draw", "x"], "fate draw"),  # a usage error, before the command ran
    (["session", "undo"], "session undo"),  # nothing to undo
    (["conflict", "chart", "--card", "7S"], "conflict chart"),
    (["conflict", "fast", "nosuch"], "conflict"),
    (["clock", "event", "add", "x", "y"], "clock event add"),
    (["hit", "ZZ"], "hit"),
])
def test_error_envelopes_name_the_command_that_failed(d2d, argv: list[str], name: str
                                                       ) -> None:
    envelope = d2d.json(*argv, code=2)
    assert envelope["ok"] is False and envelope["command"] == name


def test_python_dash_m_works() -> None:
    res = run_process("--version")
    assert res.returncode == 0 and res.stdout == f"d2d {__version__}\n"


def test_tour_runs(d2d) -> None:
    out = d2d.ok("tour")
    assert "That's the tour." in out


def test_journal_labels_are_the_command_line_as_typed(d2d, tmp_path) -> None:
    s = tmp_path / "t.toml"
    d2d.ok("--session", s, "char", "new", "Rook", "--template", "human-female", "--body", "7",
           "--will", "5", "--archetype", "thief")
    d2d.ok("--session", s, "char", "award", "Rook", "--ap", "1")
    d2d.ok("--session", s, "--seed", "3", "char", "learn", "Rook", "Pick Lock", "--json")
    log = d2d.json("--session", s, "session", "log")
    assert [e["command"] for e in log["entries"]][-2:] == [
        "char award Rook --ap 1", "char learn Rook 'Pick Lock'"]
