"""How every command is built and named: the app factories every group module uses (help
from :data:`d2d_cli.registry.GROUPS`), the ``--json`` option, the global options as a
command sees them (:func:`settings`), a command's name and the journal's label for it.

The root (``d2d_cli.cli``) imports this module, never the reverse."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from d2d_cli.registry import GROUPS, Settings


class HelpWhenBare:
    """A group called with nothing after it (``d2d``, ``d2d fate``) prints its help and
    exits 0: asking what is there is not a mistake."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and not ctx.resilient_parsing:
            typer.echo(ctx.get_help())
            ctx.exit(0)
        return super().parse_args(ctx, args)  # type: ignore[misc]



JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")]

_HELP = {"help_option_names": ["-h", "--help"]}


class D2DCommand(TyperCommand):
    """Every d2d command: before it runs, its name (``fate draw``, from Click's context)
    becomes the name its output and its errors carry."""

    def invoke(self, ctx: Any) -> Any:
        from d2d_cli import render

        render.begin(command_name(ctx))
        return super().invoke(ctx)


class D2DSubGroup(HelpWhenBare, TyperGroup):
    """A command group below the root (``d2d fate``): bare, it prints its help, exit 0."""


class _App(typer.Typer):
    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", D2DCommand)
        return super().command(*args, **kwargs)


def _help(name: str) -> str:
    return GROUPS[name].help


def group(name: str, help: str | None = None) -> typer.Typer:
    """The command group ``d2d NAME`` (its help from ``GROUPS``; a nested group
    gives its own). Help is plain text (no Rich panels): it renders in ~half the time,
    and looks the same in every group."""
    return _App(cls=D2DSubGroup, help=help or _help(name), rich_markup_mode=None,
                add_completion=False, context_settings=_HELP)


def single(name: str) -> typer.Typer:
    """An app holding the one command ``d2d NAME`` (``d2d hit``, ``d2d status``…)."""
    return _App(help=_help(name), rich_markup_mode=None, add_completion=False,
                context_settings=_HELP)


def settings(ctx: typer.Context) -> Any:
    obj = ctx.find_root().obj
    if obj is None:  # a command app invoked on its own (tests of one group)
        obj = Settings()
    return obj


# Global options are not part of what a command did.
_GLOBAL_WITH_VALUE = ("--session", "--seed")
_GLOBAL_FLAGS = ("--json", "--debug")


def label(ctx: typer.Context) -> str:
    """The journal's label: the real command line, quoted (``char learn Rook 'Pick
    Lock'``), without the global options."""
    import shlex

    argv = list(settings(ctx).argv)
    words: list[str] = []
    skip = False
    for tok in argv:
        if skip:
            skip = False
        elif tok in _GLOBAL_WITH_VALUE:
            skip = True
        elif tok in _GLOBAL_FLAGS or tok.startswith(tuple(f"{g}=" for g in
                                                           _GLOBAL_WITH_VALUE)):
            continue
        else:
            words.append(tok)
    return shlex.join(words) if words else command_name(ctx)


def command_name(ctx: typer.Context) -> str:
    """``fate draw``: the command's path below the root, from Click's context."""
    return ctx.command_path.partition(" ")[2]


