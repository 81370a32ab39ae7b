"""How every command is built and named: the app factories every group module uses (help
from :data:`d2d_cli.registry.GROUPS`), the ``--json`` option, the global options as a
command sees them (:func:`settings`), a command's name and the journal's label for it.

The root (``d2d_cli.cli``) imports this module, never the reverse."""

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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:  # one metavar convention (docs/conventions.md)
            if param.metavar is None and not getattr(param, "is_flag", False):
                param.metavar = default_metavar(param)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The line a group's help gives the command, whole: its ``short_help``, else its
        help's first sentence (Click cuts it at ``limit`` with "..."; d2d keeps each
        short enough for 80 columns instead, docs/conventions.md)."""
        if self.short_help:
            return self.short_help
        first = (self.help or "").strip().split("\n\n")[0]
        return " ".join(first.split(". ")[0].split()).rstrip(".") + "."


# A value's metavar says what it is, in upper case (docs/conventions.md "Metavars"): a
# whole number N, a number X, words TEXT, a file FILE; choices in lower case joined by |.
_BY_TYPE = {"integer": "N", "int": "N", "float": "X", "text": "TEXT", "str": "TEXT",
            "string": "TEXT", "path": "FILE", "file": "FILE", "integer range": "N",
            "float range": "X"}


def default_metavar(param: Any) -> str | None:
    """The metavar of a parameter declared without one, by its type."""
    kind = param.type
    choices = getattr(kind, "choices", None)
    if choices:
        return "|".join(str(getattr(c, "value", c)) for c in choices)
    name = _BY_TYPE.get(str(getattr(kind, "name", "")).lower())
    if name is None:
        return None
    if param.param_type_name == "argument":
        name = (param.name or name).upper()
    return name + ("…" if getattr(param, "nargs", 1) == -1 else "")


class D2DSubGroup(HelpWhenBare, TyperGroup):
    """A command group below the root (``d2d fate``): bare, it prints its help, exit 0."""


class DefaultGroup(TyperGroup):
    """A group that is a command of its own too: ``d2d board`` draws the map (its
    callback), ``d2d board fog …`` runs a subcommand."""


class _App(typer.Typer):
    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", D2DCommand)
        return super().command(*args, **kwargs)


def _help(name: str) -> str:
    return GROUPS[name].help


def group(name: str, help: str | None = None, cls: type = D2DSubGroup) -> typer.Typer:
    """The command group ``d2d NAME`` (its help from ``GROUPS``; a nested group
    gives its own). Help is plain text (no Rich panels): it renders in ~half the time,
    and looks the same in every group."""
    return _App(cls=cls, help=help or _help(name), rich_markup_mode=None,
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


def label(ctx: typer.Context) -> str:
    """The journal's label: the command's path and what was given on the command line
    (``char learn Rook 'Pick Lock' --in Locks``), in the command's declared order,
    without ``--json`` and the global options — built by ``operations.label``, the
    function a script's call is labelled by too (d2d_cli/api.py)."""
    from d2d_cli.operations import label as journal_label

    arguments: list[Any] = []
    options: list[tuple[str, str | None, Any]] = []
    for p in ctx.command.params:
        if not p.name or p.name == "json":
            continue
        source = ctx.get_parameter_source(p.name)
        if source is None or source.name != "COMMANDLINE":
            continue
        value = ctx.params.get(p.name)
        if p.param_type_name == "argument":
            arguments.append(value)
        else:
            longs = [o for o in p.opts if o.startswith("--")] or p.opts
            offs = [o for o in p.secondary_opts if o.startswith("--")] or p.secondary_opts
            options.append((longs[0], offs[0] if offs else None, value))
    arguments += ctx.args  # words a command takes as they come (``roll --system … --bonus 3``)
    return journal_label(command_name(ctx), arguments, options)


def command_name(ctx: typer.Context) -> str:
    """``fate draw``: the command's path below the root, from Click's context."""
    return ctx.command_path.partition(" ")[2]


