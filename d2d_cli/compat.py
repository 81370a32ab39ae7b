"""Every use of a private name of Typer, its bundled Click, or Rich: here and nowhere else
(DESIGN.md "Libraries": nothing mirrors a library's private internals).

Typer 0.28 vendors Click as ``typer._click``: Click's documented extension points
(completion classes, parameter types, its exceptions) are reached through that private
path; Typer's registration of its completion classes and its installer are not public
either, nor are the builders that let d2d make each command on first use. Each such use
is one name below, so a new release is checked in one file: when Typer exposes them (or
stops vendoring Click) only this module changes. The versions it was written
for are in :data:`WRITTEN_FOR`; tests/test_compat.py fails, saying so, on an installed
version outside them (and checks that every name still resolves).

Importing it costs nothing beyond Typer itself (cli.py imports Typer anyway).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Click's exceptions, re-exported by Typer 0.28 as neither: a bad command line (exit 2),
# and the base of every error Click reports itself.
from typer._click.exceptions import ClickException, UsageError

# ----------------------------------------------------------------- shell completion
# Click's documented completion API (click.palletsprojects.com "Shell Completion"):
# a ShellComplete subclass per shell registered with add_completion_class (and looked up
# with get_completion_class), and a ParamType whose shell_complete returns
# CompletionItems for a parameter's values. d2d_cli/completion.py uses them.
from typer._click.shell_completion import (
    CompletionItem,
    ShellComplete,
    add_completion_class,
    get_completion_class,
    split_arg_string,
)
from typer._click.types import StringParamType

__all__ = ["WRITTEN_FOR", "ClickException", "CompletionItem", "ShellComplete",
           "StringParamType", "UsageError", "add_completion_class", "app_entries",
           "command_from_info", "completion_init", "empty_group", "get_completion_class",
           "group_info", "install_completion", "is_group_info", "split_arg_string"]

# package -> (lowest, first version not covered): checked by tests/test_compat.py.
WRITTEN_FOR: dict[str, tuple[str, str]] = {
    # typer._click, typer.completion's completion_init and install,
    # typer.main's builders of Click commands (get_group_from_info,
    # get_command_from_info, get_command_name), typer.models.TyperInfo,
    # Typer.registered_commands/_groups
    "typer": ("0.28", "0.29"),
    "rich": ("13.8", "16"),  # no private name used; the views draw with its public API
}


def completion_init() -> None:
    """Register Typer's completion classes (bash, zsh, fish, powershell) with Click."""
    from typer.completion import completion_init as init

    init()


def install_completion(shell: str, prog_name: str, complete_var: str) -> Path:
    """Typer's installer for ``shell``: it writes the script (from its own table, which
    d2d leaves alone) where the shell loads it, and the lines that load it into the
    shell's rc file; the file it wrote."""
    from typer.completion import install

    _shell, path = install(shell=shell, prog_name=prog_name, complete_var=complete_var)
    return Path(path)


# ----------------------------------------------------------------- lazy command groups
# Typer builds a group's Click commands all at once; d2d builds each on first use
# (cli.lazy_group) through Typer's own builders, which its documentation does not name.


def group_info(app: Any) -> Any:
    """A Typer app as the record Typer builds a group from (``typer.models.TyperInfo``)."""
    from typer.models import TyperInfo

    return TyperInfo(app)


def is_group_info(info: Any) -> bool:
    """``info`` is a sub-app added with ``add_typer`` (not a command)."""
    from typer.models import TyperInfo

    return isinstance(info, TyperInfo)


def app_entries(info: Any) -> tuple[dict[str, Any], list[Any]]:
    """A group's commands by the name Typer gives each, and its sub-groups' records."""
    from typer.main import get_command_name

    sub = info.typer_instance
    commands = {c.name or get_command_name(c.callback.__name__): c
                for c in sub.registered_commands}
    return commands, list(sub.registered_groups)


def empty_group(info: Any, app: Any) -> Any:
    """The Click group Typer builds for ``info`` (its help, settings and class), built
    with no commands: the caller adds them."""
    from typer.main import get_group_from_info

    sub = info.typer_instance
    saved = sub.registered_commands, sub.registered_groups
    sub.registered_commands, sub.registered_groups = [], []
    try:
        return get_group_from_info(
            info, pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode, suggest_commands=app.suggest_commands)
    finally:
        sub.registered_commands, sub.registered_groups = saved


def command_from_info(info: Any, app: Any) -> Any:
    """The Click command Typer builds for one registered command of ``app``."""
    from typer.main import get_command_from_info

    return get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                 rich_markup_mode=app.rich_markup_mode)
