"""The root ``d2d`` command: global options, the command groups, the error boundary.

Command groups are loaded lazily: ``d2d fate status`` imports only
``d2d_cli.commands.fate``, and ``d2d --help`` imports none of them (their one-line
help lives in :data:`GROUPS`). That keeps a lookup inside the latency budget of
DESIGN.md; docs/architecture.md explains it.

The boundary (:meth:`D2DGroup.main`) is the one place that turns a D2DError
into a one-line message and its exit code (2 bad input, 3 session), a usage
error into exit 2, and anything unexpected into exit 1 with a hint to rerun
with ``--debug`` for the traceback.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from dataclasses import dataclass
from typing import Annotated, Any, NamedTuple

import typer
from typer.core import TyperGroup

from d2d_cli import __version__, render
from d2d_cli.errors import BadInput, D2DError


class Group(NamedTuple):
    """A command group: its module under d2d_cli.commands (named like its subject in
    rules/), its one-line help (the only copy: the group's module reads it from here),
    and whether it holds subcommands."""

    module: str
    help: str
    nested: bool


GROUPS: dict[str, Group] = {
    "fate": Group("fate", "The Fate deck: draw, shuffle, dice (d2…d108 and any dN), coin, "
                  "high card.", True),
    "scale": Group("scale", "Stats at any scale: mass, speed, IQ ↔ 8x1; compare; map scales.",
                   True),
    "conflict": Group("conflict", "Resolve a conflict between two approaches; the chart.",
                      False),
    "hit": Group("hits", "Count the Hits of the winner's cards (Level, Difficulty, combos).",
                 False),
    "crit": Group("crits", "Rate a Crit (Power vs Armor), draw its location and severity.",
                  False),
    "char": Group("characters", "Characters: 22-point creation, sheet, export, advancement.",
                  True),
    "unit": Group("units", "Units on the board: add, list, show, rm, conditions, targets.",
                  True),
    "status": Group("status", "The Status Bar: every unit with effective stats and its round.",
                    False),
    "ref": Group("reference", "Look up a skill, archetype, condition or glossary term.",
                 False),
    "task": Group("tasks", "Task clocks: Challenge and Progress tokens.", True),
    "clock": Group("clock", "The scene clock and its timed and random events.", True),
    "round": Group("rounds", "Round start (refresh) and round end (upkeep).", True),
    "weather": Group("weather", "Weather: wind direction and speed from Fate reveals.", True),
    "roll": Group("roll", "Roll dice and cards: keep, explode, vs, bands; --odds; --system.",
                  False),
    "odds": Group("odds", "Exact odds of the next reveals from the deck as it stands.", True),
    "scene": Group("scene", "Load and show a scene file (units, tasks, clock, events).", True),
    "session": Group("session", "Session files: new, list, use, show, path, log, undo, redo.",
                     True),
    "tour": Group("tour", "A guided tour of d2d on a throwaway session (the README's main "
                  "job).", False),
}


@dataclass
class Settings:
    """The global options, handed to every command through ``ctx.obj``."""

    session: str | None = None
    seed: int | None = None
    debug: bool = False
    argv: tuple[str, ...] = ()  # the command line as typed, for the journal's label


class D2DGroup(TyperGroup):
    """The root group: lazy subcommands and the error boundary."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(GROUPS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = GROUPS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(f"d2d_cli.commands.{entry.module}")
        command = typer.main.get_command(module.app)
        command.name = cmd_name
        return command

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        # Help lists the groups from GROUPS without importing them.
        rows = [(name, GROUPS[name].help) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(  # type: ignore[override]  # same call, narrower: args is a list here
        self, args: Any = None, prog_name: str | None = None,
        complete_var: str | None = None, standalone_mode: bool = True, **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in argv
        debug = "--debug" in argv or bool(os.environ.get("D2D_DEBUG"))
        render.begin(None)
        extra.setdefault("obj", Settings(argv=tuple(argv)))
        code = 0
        out: list[str] = []
        try:
            _check_argv(argv)
            from d2d_cli import session

            # Commit last: the command's change waits, its lock held, until the command
            # (and the rendering of its output) has succeeded; anything else drops it.
            with session.deferred() as pending, render.buffered() as out:
                rv = super().main(argv, prog_name or "d2d", complete_var,
                                  standalone_mode=False, **extra)
                code = rv if isinstance(rv, int) else 0
                if code == 0:
                    pending.commit()
        except D2DError as e:
            render.error(render.current_command(), e.kind, e.message, as_json=as_json)
            code = e.exit_code
        except typer.Abort:
            sys.stderr.write("d2d: aborted\n")
            code = 1
        except Exception as e:
            code = _unexpected(e, as_json=as_json, debug=debug)
        else:
            if code == 0:
                _flush(out)
        if standalone_mode:
            sys.exit(code)
        return code


def _check_argv(argv: list[str]) -> None:
    """Arguments must be text: bytes that are not UTF-8 (which Python keeps as lone
    surrogates) or a NUL could not be stored or shown, and are refused up front."""
    for n, tok in enumerate(argv, 1):
        try:
            tok.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput(f"argument {n} is not valid UTF-8 text: {tok!r}") from None
        if "\x00" in tok:
            raise BadInput(f"argument {n} holds a NUL character: {tok!r}")


def _flush(out: list[str]) -> None:
    """Print the output of a command whose change is saved. A reader that went away
    (a closed pipe) does not make it fail: the change is made, exit 0."""
    try:
        render.flush(out)
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())


def _unexpected(e: Exception, *, as_json: bool, debug: bool) -> int:
    from typer._click.exceptions import ClickException

    if isinstance(e, ClickException):  # usage errors: exit 2, one line
        message = e.format_message()
        ctx = getattr(e, "ctx", None)
        if ctx is not None:
            message += f" (see '{ctx.command_path} --help')"
            if render.current_command() is None:  # raised before the command ran
                render.begin(ctx.command_path.partition(" ")[2] or None)
        render.error(render.current_command(), "usage", message, as_json=as_json)
        return e.exit_code
    if isinstance(e, BrokenPipeError):
        return 1
    if isinstance(e, OSError) and e.filename:
        # File-system trouble outside the session module: still one line naming the file.
        why = "it is a directory" if isinstance(e, IsADirectoryError) else e.strerror or e
        render.error(render.current_command(), "session", f"{e.filename}: {why}",
                     as_json=as_json)
        return 3
    if debug:
        import traceback

        traceback.print_exc()
    message = f"internal error: {type(e).__name__}: {e}"
    render.error(render.current_command(), "internal", message, as_json=as_json)
    if not debug:
        sys.stderr.write("d2d: rerun with --debug to see the traceback\n")
    return 1



def _version(value: bool) -> None:
    if value:
        print(f"d2d {__version__}")
        raise typer.Exit()


app = typer.Typer(
    cls=D2DGroup,
    name="d2d",
    help="d2d — the Narrator's companion for Drawn to Destiny.\n\n"
    "Example: d2d fate draw 3",
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def root(
    ctx: typer.Context,
    session: Annotated[str | None, typer.Option(
        "--session", envvar="D2D_SESSION", metavar="NAME|PATH",
        help="Session name (under the user data dir) or a path ending in .toml.")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", envvar="D2D_SEED", help="Make shuffles and rolls reproducible.")] = None,
    debug: Annotated[bool, typer.Option(
        "--debug", help="Show the traceback of an internal error.")] = False,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """d2d — the Narrator's companion for Drawn to Destiny.

    Example: d2d fate draw 3
    """
    argv = ctx.obj.argv if isinstance(ctx.obj, Settings) else ()
    ctx.obj = Settings(session=session, seed=seed, debug=debug, argv=argv)


def main(argv: list[str] | None = None) -> int:
    command = typer.main.get_command(app)
    return int(command.main(argv, prog_name="d2d", standalone_mode=False) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
