"""The Environment (d2d_cli/env.py, issue 18 item 4): one object carries the streams,
the terminal's width, colour, the running command's name, the held output and the
fault hook; a test hands d2d its own instead of patching module globals."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import env, errors, render
from d2d_cli.cli import main
from d2d_cli.env import Environment


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _double(**kwargs: object) -> tuple[Environment, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Environment(stdout=out, stderr=err, **kwargs), out, err  # type: ignore[arg-type]


def test_a_command_prints_to_the_streams_of_its_environment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    here, out, err = _double()
    s = str(tmp_path / "s.toml")
    assert main(["--session", s, "fate", "status"], env=here) == 0
    assert out.getvalue() == "Fate deck: 54 to draw, 0 discarded (shuffled 1×)\n"
    assert main(["--session", s, "fate", "draw", "x"], env=here) == 2
    assert err.getvalue().startswith("d2d: error: ")
    assert main(["--session", s, "fate", "status", "--json"], env=here) == 0
    envelope = json.loads(out.getvalue().splitlines()[-1])
    assert envelope["command"] == "fate status"  # the command's name, from its environment
    assert capsys.readouterr() == ("", "")  # nothing reached the process's own streams
    assert here.command is None  # each command line ran in its own copy


def test_the_width_is_given_or_columns_or_80() -> None:
    assert Environment(stdout=io.StringIO(), width=40).width == 40
    assert Environment(stdout=io.StringIO(), environ={"COLUMNS": "120"}).width == 120
    assert Environment(stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO(),
                       environ={}).width == 80
    assert Environment(stdout=io.StringIO(), environ={"COLUMNS": "0"}, stdin=io.StringIO(),
                       stderr=io.StringIO()).width == 80


def test_styles_follow_the_terminal_and_no_color() -> None:
    tty = Environment(stdout=_Tty(), environ={"TERM": "xterm"})
    assert tty.styled() is True and tty.colors
    assert Environment(stdout=io.StringIO(), environ={}).styled() is False
    assert not Environment(stdout=_Tty(), environ={"NO_COLOR": "1"}).colors
    # Rich's own switches, or a dumb terminal: Rich judges, the plain printer steps aside.
    assert Environment(stdout=_Tty(), environ={"TERM": "dumb"}).styled() is None
    assert Environment(stdout=io.StringIO(), environ={"FORCE_COLOR": "1"}).styled() is None


def test_a_styled_narrow_double_shapes_the_human_view(tmp_path: Path) -> None:
    """A terminal of 30 columns, no colour: bold kept, the table stacked."""
    here, out, _ = _double(width=30, styled=True, colors=False)
    s = str(tmp_path / "s.toml")
    assert main(["--session", s, "scene", "load", "combat1"], env=_double()[0]) == 0
    assert main(["--session", s, "fate", "status"], env=here) == 0
    assert out.getvalue() == ("\x1b[1mFate deck:\x1b[0m 54 to draw, 0 \n"  # wrapped by Rich
                              "discarded (shuffled 1×)\n")
    assert main(["--session", s, "unit", "list"], env=here) == 0
    assert "\x1b[1mGoblin Scout\x1b[0m\n" in out.getvalue()
    assert "\x1b[3" not in out.getvalue()  # no colour


def test_the_fault_hook_is_the_environments(tmp_path: Path) -> None:
    steps: list[str] = []
    here, _, _ = _double(fault=steps.append)
    s = str(tmp_path / "s.toml")
    assert main(["--session", s, "fate", "draw"], env=Environment(stdout=io.StringIO())) == 0
    assert main(["--session", s, "fate", "draw"], env=here) == 0
    assert steps == ["read", "validated", "render", "journal", "temp", "backup", "renamed",
                     "temp"]  # the write path's steps, in order (tests/test_faults.py)
    errors.fault("read")  # outside a command: the process's environment, no hook


def test_output_is_held_until_flushed() -> None:
    here, out, _ = _double()
    with env.active(here), here.buffered() as held:
        render.emit({"x": 1}, lambda con, r: con.print("held"), as_json=False)
        assert out.getvalue() == "" and held == ["held\n"]
        here.flush(held)
    assert out.getvalue() == "held\n"


def test_no_module_keeps_what_the_environment_carries() -> None:
    assert not hasattr(render, "_current_command") and not hasattr(render, "_buffers")
    assert not hasattr(errors, "FAULT")


def test_the_root_keeps_its_own_state_on_its_objects_not_in_module_or_class_globals(
        tmp_path: Path) -> None:
    """Issue 26 item 6: the built root belongs to the app, the built groups to a root;
    a second root (as a test or CliRunner builds) shares nothing with the first."""
    import typer

    from d2d_cli import cli

    assert not hasattr(cli, "_root") and "_built" not in vars(cli.D2DGroup)
    assert cli.root_command() is cli.app.root() is cli.app.root()
    first: Any = cli.app.root()
    second: Any = typer.main.get_command(cli.app)
    ctx = typer.Context(first)
    fate = first.get_command(ctx, "fate")
    assert first.get_command(ctx, "fate") is fate  # built once per root
    assert second.get_command(typer.Context(second), "fate") is not fate
    third: Any = typer.main.get_command(cli.app)
    assert "fate" not in third._built


def test_the_root_writes_errors_and_the_version_to_the_environment_it_was_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The root's own output (--version, a usage error, an internal error) goes to the
    Environment passed in, as a command's does: nothing reaches the process's streams."""
    from d2d_cli import __version__

    here, out, err = _double()
    assert main(["--version"], env=here) == 0
    assert out.getvalue() == f"d2d {__version__}\n"
    assert main(["fate", "draw", "--nope", "--json"], env=here) == 2
    usage = json.loads(out.getvalue().splitlines()[-1])
    assert usage["command"] == "fate draw" and usage["error"]["kind"] == "usage"
    assert err.getvalue().startswith("d2d: error: No such option: --nope")
    assert capsys.readouterr() == ("", "")
