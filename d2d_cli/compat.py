"""Every use of a private name of Typer, its bundled Click, or Rich: here and nowhere else
(DESIGN.md "Libraries": nothing mirrors a library's private internals).

Typer 0.28 vendors Click as ``typer._click``: Click's documented extension points
(completion classes, parameter types, its exceptions) are reached through that private
path; Typer's own completion script and shell detection are not public either, nor are
the builders that let d2d make each command on first use. Each such use is one name
below, so a new release is checked in one file: when Typer exposes them (or stops
vendoring Click) only this module changes. The versions it was written
for are in :data:`WRITTEN_FOR`; tests/test_compat.py fails, saying so, on an installed
version outside them (and checks that every name still resolves).

Importing it costs nothing beyond Typer itself (cli.py imports Typer anyway).
"""

from __future__ import annotations

from typing import Any

# Click's exceptions, re-exported by Typer 0.28 as neither: a bad command line (exit 2),
# and the base of every error Click reports itself.
from typer._click.exceptions import ClickException, UsageError

# ----------------------------------------------------------------- shell completion
# Click's documented completion API (click.palletsprojects.com "Shell Completion"):
# a ShellComplete subclass per shell registered with add_completion_class, and a
# ParamType whose shell_complete returns CompletionItems for a parameter's values.
from typer._click.shell_completion import (
    CompletionItem,
    ShellComplete,
    add_completion_class,
    split_arg_string,
)
from typer._click.types import StringParamType

__all__ = ["WRITTEN_FOR", "ClickException", "CompletionItem", "ShellComplete",
           "StringParamType", "UsageError", "add_completion_class", "app_entries",
           "command_from_info", "completion_init", "completion_script", "empty_group",
           "group_info", "install_completion", "is_group_info", "shell_name",
           "split_arg_string"]

# package -> (lowest, first version not covered): checked by tests/test_compat.py.
WRITTEN_FOR: dict[str, tuple[str, str]] = {
    # typer._click, typer.completion's _get_shell_name and install_callback,
    # typer._completion_shared._completion_scripts, typer.main's builders of Click
    # commands (get_group_from_info, get_command_from_info, get_command_name),
    # typer.models.TyperInfo, Typer.registered_commands/_groups
    "typer": ("0.28", "0.29"),
    "rich": ("13.8", "16"),  # no private name used; the views draw with its public API
}


def shell_name() -> str | None:
    """The shell d2d runs under (bash, zsh, fish…), as Typer's completion detects it."""
    from typer.completion import _get_shell_name

    return _get_shell_name()


# Typer 0.28's zsh script ends with `compdef`: installed as ~/.zfunc/_d2d, the first Tab
# of a new zsh only autoloads it (it defines the function and registers it, completing
# nothing: the bell); only the second Tab completes. Click's own zsh script calls the
# function when it is autoloaded, and registers it when sourced; the same here.
ZSH_SCRIPT = """
#compdef %(prog_name)s

%(complete_func)s() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" %(autocomplete_var)s=complete_zsh \
%(prog_name)s)
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  %(complete_func)s "$@"
else
  compdef %(complete_func)s %(prog_name)s
fi
"""


def _zsh_script_that_completes_on_the_first_tab() -> None:
    """Typer's script table (read by ``--show-completion`` and ``--install-completion``)
    gets :data:`ZSH_SCRIPT` for zsh."""
    from typer import _completion_shared

    _completion_shared._completion_scripts["zsh"] = ZSH_SCRIPT


def completion_script(prog_name: str, complete_var: str, shell: str) -> str:
    """Typer's tab-completion script for ``shell`` (after its completion classes are
    registered with Click)."""
    from typer.completion import get_completion_script

    completion_init()
    return get_completion_script(prog_name=prog_name, complete_var=complete_var,
                                 shell=shell)


def completion_init() -> None:
    """Register Typer's completion classes (bash, zsh, fish, powershell) with Click."""
    from typer.completion import completion_init as init

    init()
    _zsh_script_that_completes_on_the_first_tab()


def install_completion(ctx: Any, param: Any, shell: str | bool) -> None:
    """Typer's ``--install-completion`` for ``shell`` (True: the shell detected); it
    prints where it wrote the script and exits."""
    from typer.completion import install_callback

    install_callback(ctx, param, shell)


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
