"""The command line as a whole: help, version, exit codes, imports, internal errors."""

from __future__ import annotations

import json
import sys

import pytest
import typer
from conftest import run_process

from d2d_cli import __version__
from d2d_cli.cli import GROUPS, _available, _command_name, app


def test_version(d2d) -> None:
    assert d2d.ok("--version") == f"d2d {__version__}\n"


def test_help_lists_every_available_group(d2d) -> None:
    out = d2d.ok("--help")
    for name in GROUPS:
        assert (f"  {name} " in out) == _available(name)


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
    from d2d_cli.rules import fate

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
    (["--seed", "7", "fate", "draw", "3", "--json"], "fate draw"),
    (["--session", "x", "session", "undo"], "session undo"),
    (["tour"], "tour"),
    (["--json"], None),
])
def test_command_name_for_error_envelopes(argv: list[str], name: str | None) -> None:
    assert _command_name(argv) == name


def test_python_dash_m_works() -> None:
    res = run_process("--version")
    assert res.returncode == 0 and res.stdout == f"d2d {__version__}\n"


def test_tour_runs(d2d) -> None:
    out = d2d.ok("tour")
    assert "That's the tour." in out
