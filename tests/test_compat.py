"""d2d_cli/compat.py holds every use of a private Typer/Click/Rich name (issue 18 item 2):
the installed versions are those it was written for, each name still resolves, and no
other module reaches a private name."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import compat
from tests.helpers import ROOT

# A private name of the libraries: `typer._click`, `from rich._wrap import`, `sc._resolve…`
# on a module imported from them, a `_click_…` method of Typer's classes.
_PRIVATE = re.compile(r"\b(?:typer|click|rich)(?:\.\w+)*\._[a-z]|\._click_[a-z]|"
                      r"\bsc\._[a-z]")


def _parts(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", v)[:3])


@pytest.mark.parametrize("package", sorted(compat.WRITTEN_FOR))
def test_the_installed_version_is_one_compat_was_written_for(package: str) -> None:
    low, high = compat.WRITTEN_FOR[package]
    have = version(package)
    assert _parts(low) <= _parts(have) < _parts(high), (
        f"d2d_cli/compat.py was written for {package} >={low},<{high}, but {package} "
        f"{have} is installed. Check each private name in compat.py against {have} (and "
        "the suite, with the views Rich draws), then widen WRITTEN_FOR and pyproject.toml's "
        "bounds together.")


def test_pyprojects_bounds_are_those_compat_names() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for package, (low, high) in compat.WRITTEN_FOR.items():
        spec = next(d for d in deps if re.match(rf"{package}\b", d))
        assert f">={low}" in spec, (spec, low)
        assert package != "typer" or f"<{high}" in spec, (spec, high)


# Typer's names its documentation does not give (typer.tiangolo.com documents the Typer
# app, typer.main.get_command, typer.core's classes for `cls=`, typer.testing): the
# builders d2d makes each command with on first use, and the completion installer.
_UNDOCUMENTED = ("TyperInfo", "get_group_from_info", "get_command_from_info",
                 "get_command_name", "registered_commands", "registered_groups",
                 "install_callback", "get_completion_script", "typer.models",
                 "typer.completion", "_completion_scripts", "_get_shell_name")


def test_typers_undocumented_names_are_used_in_compat_only() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted((ROOT / "d2d_cli").rglob("*.py")) if path.name != "compat.py"
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if any(name in line.split("#")[0] for name in _UNDOCUMENTED)]
    assert not found, "Typer's undocumented names outside d2d_cli/compat.py:\n" + \
        "\n".join(found)


def test_the_lazy_builders_make_what_typer_makes() -> None:
    """compat's builders give the group Typer builds at once, command for command."""
    import typer

    from d2d_cli import cli
    from d2d_cli.commands.fate import app

    whole: Any = typer.main.get_command(app)
    lazy = cli.lazy_group(compat.group_info(app), app)
    assert type(lazy) is type(whole) and lazy.help == whole.help
    assert sorted(lazy.commands) == sorted(whole.commands)
    for name, command in whole.commands.items():
        built = lazy.commands[name]
        assert type(built) is type(command) and built.help == command.help
        assert [p.name for p in built.params] == [p.name for p in command.params]


def test_every_private_name_still_resolves(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert issubclass(compat.UsageError, compat.ClickException)
    compat.completion_init()
    for shell in ("bash", "zsh", "fish", "powershell", "pwsh"):
        assert compat.get_completion_class(shell) is not None, shell
    monkeypatch.setenv("HOME", str(tmp_path))
    path = compat.install_completion("fish", "d2d", "_D2D_COMPLETE")
    assert path == tmp_path / ".config" / "fish" / "completions" / "d2d.fish"
    assert "_D2D_COMPLETE=complete_fish" in path.read_text()


def test_zsh_completion_is_a_registered_class_not_a_patched_table() -> None:
    """Typer's own script table is left as Typer ships it: d2d's zsh script comes from
    the class d2d registers with Click (completion.register), a subclass of Typer's."""
    from typer._click.shell_completion import get_completion_class
    from typer._completion_shared import _completion_scripts

    from d2d_cli import cli, completion

    completion.register()
    zsh = get_completion_class("zsh")
    assert zsh is not None and zsh.source_template == completion.ZSH_SCRIPT
    assert zsh.__mro__[1].__module__ == "typer._completion_classes"
    assert "loadautofunc" not in _completion_scripts["zsh"]
    text = completion.script(cli.root_command(), "d2d", cli.COMPLETE_VAR, "zsh")
    assert text.splitlines()[0] == "#compdef d2d" and "loadautofunc" in text


def test_the_shell_is_detected_by_shellingham_declared_in_pyproject(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import shellingham

    from d2d_cli import completion

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(re.match(r"shellingham>=", d) for d in deps)
    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("fish", "/usr/bin/fish"))
    assert completion.detect_shell() == "fish"

    def fails() -> tuple[str, str]:
        raise shellingham.ShellDetectionFailure()

    monkeypatch.setattr(shellingham, "detect_shell", fails)
    assert completion.detect_shell() is None


def test_no_other_module_uses_a_private_name() -> None:
    found = []
    for path in sorted((ROOT / "d2d_cli").rglob("*.py")):
        if path.name == "compat.py":
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if _PRIVATE.search(code) or re.search(r"from (typer|click|rich)\._", code):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "private library names outside d2d_cli/compat.py:\n" + "\n".join(found)
