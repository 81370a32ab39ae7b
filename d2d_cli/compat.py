"""The one adapter module for private Typer/Click names (DESIGN.md "Libraries": nothing
mirrors a library's private internals; every use of a private name sits here).

Typer 0.28 vendors Click as ``typer._click``: Click's documented extension points are
reached through that private path. When Typer exposes them (or stops vendoring Click)
only this module changes.
"""

from __future__ import annotations

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

__all__ = ["CompletionItem", "ShellComplete", "StringParamType", "add_completion_class",
           "split_arg_string"]
