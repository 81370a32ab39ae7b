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

import contextlib
import importlib
import os
import re
import sys
from collections.abc import Iterator, MutableMapping
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from d2d_cli import __version__, compat, env, render
from d2d_cli.commands import _complete
from d2d_cli.commands._app import HelpWhenBare
from d2d_cli.errors import BadInput, D2DError
from d2d_cli.registry import (
    GLOBAL_FLAGS,
    GLOBAL_WITH_VALUE,
    GROUPS,
    Settings,
    hoist_globals,
)


def evaluated(func: Any) -> Any:
    """``func`` with its annotations evaluated once, in place (issue 40). Under ``from
    __future__ import annotations`` they are strings, and Typer reads a command's
    signature twice or three times as it builds it (its parameters, its callback), each
    time evaluating every ``Annotated[…, typer.Option(…)]`` anew: for the root's eight
    options and a conflict's twenty-six, a third to a half of a lookup's own run. The
    values are the ones Typer evaluates (``typing.get_type_hints``, extras kept); one it
    cannot evaluate is left a string, for Typer to report as before."""
    import typing

    notes = getattr(func, "__annotations__", None)
    if notes and any(isinstance(v, str) for v in notes.values()):
        with contextlib.suppress(Exception):
            func.__annotations__ = typing.get_type_hints(func, include_extras=True)
    return func


def lazy_group(info: Any, app: typer.Typer) -> Any:
    """The Click group of a Typer group app whose subcommands are built when first
    used: ``d2d fate status`` builds ``status`` only, not the group's five other
    commands (Typer builds them all, a few ms a group)."""
    for callback in (info.callback, getattr(info.typer_instance.registered_callback,
                                            "callback", None)):
        if callback is not None:  # a group module postpones its annotations
            evaluated(callback)
    group = compat.empty_group(info, app)  # Typer builds the group itself, no commands…
    group.commands = LazyCommands(app, *compat.app_entries(info))  # …each on first use
    return group


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name, each built by Typer the first time it is asked for."""

    def __init__(self, app: typer.Typer, commands: dict[str, Any], groups: list[Any]) -> None:
        self._app = app
        self._infos: dict[str, Any] = dict(commands)
        self._infos.update({g.name: g for g in groups})
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            info = self._infos[name]
            if compat.is_group_info(info):
                self._built[name] = lazy_group(info, self._app)
            else:
                evaluated(info.callback)
                self._built[name] = compat.command_from_info(info, self._app)
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:  # Click's add_command
        self._infos[name] = None
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._infos[name]
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


_OPTIONAL_SHELL = ("--show-completion", "--install-completion")


def _next_option(args: list[str], opt: str) -> int:
    i = args.index(opt) + 1
    return i if i < len(args) and args[i].startswith("-") else -1


class D2DGroup(HelpWhenBare, TyperGroup):
    """The root group: lazy subcommands and the error boundary."""

    # Where a usage error sends the reader; ``d2d play`` sets "type '{help}'" on
    # the root it runs its lines through (its lines have no "d2d" and no --help habit).
    help_hint = "see '{path} --help'"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The groups this root built: inside ``d2d play`` (one root for every line)
        # each group is built once. Another root (a test's) builds its own.
        self._built: dict[str, Any] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return list(GROUPS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = GROUPS.get(cmd_name)
        if entry is None:
            return None
        command = self._built.get(cmd_name)
        if command is None:
            app = importlib.import_module(f"d2d_cli.commands.{entry.module}").app
            command = lazy_group(compat.group_info(app), app) if entry.nested else \
                typer.main.get_command(app)
            command.name = cmd_name
            self._built[cmd_name] = command
        return command

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        args = hoist_globals(args)
        for opt in _OPTIONAL_SHELL:  # the shell name may be left out: detect it
            if opt in args and args.index(opt) + 1 in (len(args), _next_option(args, opt)):
                args.insert(args.index(opt) + 1, "auto")
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        # The root app has suggest_commands=False: its near misses come from GROUPS here
        # (Typer's own suggestion reads self.commands, which the lazy root leaves empty).
        try:
            return super().resolve_command(ctx, args)
        except compat.UsageError as e:
            suggestion = did_you_mean(args[0], self.list_commands(ctx)) if args else ""
            if len(args) > 1 and args[1] in GROUPS:  # `d2d Archer conflict …`
                suggestion = (" The command comes first: "
                              + _typed([args[1], args[0], *args[2:]]))
            e.message = e.message.rstrip(".") + "." + suggestion
            raise

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        # Help lists the groups from GROUPS without importing them.
        rows = [(name, GROUPS[name].help) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(  # type: ignore[override]  # same call, narrower: args is a list here
        self, args: Any = None, prog_name: str | None = None,
        complete_var: str | None = None, standalone_mode: bool = True, **extra: Any,
    ) -> Any:
        """``env``: the Environment to run in (d2d_cli/env.py; a test's double), default
        the current one. Each command line runs in a fresh copy of it (its own command
        name and held output), active while the line runs and held in ``ctx.obj.env``."""
        here = (extra.pop("env", None) or env.current()).for_command()
        with env.active(here):
            code = self._run(args, prog_name, complete_var, here, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Any, prog_name: str | None, complete_var: str | None,
             here: env.Environment, **extra: Any) -> int:
        argv = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in argv
        debug = "--debug" in argv or bool(here.environ.get("D2D_DEBUG"))
        extra.setdefault("obj", Settings(argv=tuple(argv), run=main, root=self, env=here))
        code = 0
        out: list[str] = []
        try:
            _check_argv(argv)
            from d2d_cli import operations

            # Commit last: the command's change waits, its lock held, until the command
            # (and the rendering of its output) has succeeded; anything else drops it.
            # A command line is its own unit of work, even inside another (the tour).
            with operations.unit_of_work(join=False) as pending, \
                    here.buffered() as out:
                rv = super().main(argv, prog_name or "d2d", complete_var,
                                  standalone_mode=False, **extra)
                code = rv if isinstance(rv, int) else 0
                if code == 0 and pending is not None:
                    pending.commit()
        except D2DError as e:
            message = e.message
            if e.exit_code == 2:
                word = re.search(r"'([^']+)'", message)
                hint = _quote_hint(argv, [word.group(1)], option=True) if word and \
                    "no rank" not in message and "no suit" not in message else ""
                message = message.split(" — ")[0] + hint if hint else message
            render.error(here.command, e.kind, message, as_json=as_json, here=here)
            code = e.exit_code
        except typer.Abort:
            here.stderr.write("d2d: aborted\n")
            code = 1
        except Exception as e:
            code = _unexpected(e, here, as_json=as_json, debug=debug, argv=argv)
        else:
            if code == 0:
                _flush(here, out)
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


def _flush(here: env.Environment, out: list[str]) -> None:
    """Print the output of a command whose change is saved. A reader that went away
    (a closed pipe) does not make it fail: the change is made, exit 0."""
    try:
        here.flush(out)
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, here.stdout.fileno())


def _unexpected(e: Exception, here: env.Environment, *, as_json: bool, debug: bool,
                argv: list[str] | None = None) -> int:
    if isinstance(e, compat.ClickException):  # usage errors: exit 2, one line
        message = e.format_message()
        example = _example(message, getattr(e, "ctx", None), argv_of(e) or argv or [])
        message = message.rstrip(".") + example if example else message
        extra = re.search(r"unexpected extra argument(?:\(s\)|s)? \((.*)\)", message)
        if extra:  # `unit show Goblin Scout`: a name with spaces, unquoted
            message += _quote_hint(argv_of(e), extra.group(1).split(" "), option=False)
        ctx = getattr(e, "ctx", None)
        if ctx is not None:
            hint = getattr(ctx.find_root().command, "help_hint", D2DGroup.help_hint)
            command = ctx.command_path.partition(" ")[2]
            message += " (" + hint.format(path=ctx.command_path,
                                          help=f"help {command}".strip()) + ")"
            if here.command is None:  # raised before the command ran
                here.command = ctx.command_path.partition(" ")[2] or None
        render.error(here.command, "usage", message, as_json=as_json, here=here)
        return e.exit_code
    if isinstance(e, BrokenPipeError):
        return 1
    if isinstance(e, OSError) and e.filename:
        # File-system trouble outside the session module (which names its own as exit 3):
        # a file the user named, e.g. `char export -o` — bad input, one line naming it.
        why = "it is a directory" if isinstance(e, IsADirectoryError) else e.strerror or e
        render.error(here.command, "bad_input", f"{e.filename}: {why}", as_json=as_json,
                     here=here)
        return 2
    if debug:
        import traceback

        traceback.print_exc(file=here.stderr)
    message = f"internal error: {type(e).__name__}: {e}"
    render.error(here.command, "internal", message, as_json=as_json, here=here)
    if not debug:
        here.stderr.write("d2d: rerun with --debug to see the traceback\n")
    return 1


def _example(message: str, ctx: Any, argv: list[str]) -> str:
    """``, e.g. --svg combat1.svg`` for an option given without its value: the value the
    command's own help shows for it (its Example line first), else its metavar."""
    missing = re.search(r"Option '(--[\w-]+)' requires an argument", message)
    command = ctx.command if ctx is not None else _leaf(argv)
    if missing is None or command is None:
        return ""
    opt = missing.group(1)
    params = [p for p in command.params if opt in getattr(p, "opts", ())]
    value = re.compile(re.escape(opt) + r'[ =]("[^"]+"|[^\s,;)]+)')
    example = (command.help or "").partition("Example")[2]
    for shown in (value.search(example), *(re.search(r'e\.g\. ("[^"]+"|[^\s,;)]+)',
                                                     p.help or "") for p in params)):
        if shown and not shown.group(1).startswith("-"):
            return f", e.g. {opt} {shown.group(1).rstrip('.')}"
    metavar = next((p.metavar for p in params if p.metavar), None)
    sample = {"N": "3", "COUNT": "3", "PCT": "25"}.get(str(metavar), metavar)
    return f", e.g. {opt} {sample}" if sample else ""


def _leaf(argv: list[str]) -> Any:
    """The command an argument list names (its words before the first option), or None."""
    command: Any = root_command()
    ctx = typer.Context(command)
    for word in _command_words(argv):
        if word.startswith("-") or not hasattr(command, "get_command"):
            break
        command = command.get_command(ctx, word)
        if command is None:
            return None
    # a group that is a command too (``d2d board`` draws the map) is its own leaf
    leaf = not hasattr(command, "get_command") or getattr(command, "invoke_without_command",
                                                          False)
    return command if leaf else None


def argv_of(e: Exception) -> list[str]:
    """The command line a usage error came from (as the root parsed it)."""
    ctx = getattr(e, "ctx", None)
    obj = ctx.find_root().obj if ctx is not None else None
    return list(obj.argv) if isinstance(obj, Settings) else []


def _command_words(argv: list[str]) -> list[str]:
    """The command line without its global options (wherever they were typed)."""
    words = hoist_globals(argv)
    while words and (words[0] in GLOBAL_FLAGS or words[0].partition("=")[0] in
                     GLOBAL_WITH_VALUE):
        step = 1 if words[0] in GLOBAL_FLAGS or "=" in words[0] else 2
        words = words[step:]
    return words


def _typed(words: list[str]) -> str:
    """Words as a person types them: a word with a space in double quotes."""
    return " ".join(f'"{w}"' if " " in w or not w else w for w in words)


def _quote_hint(argv: list[str], extra: list[str], *, option: bool) -> str:
    """`` Quote a name with spaces: unit show "Goblin Scout"`` when the words ``extra``
    follow a word in ``argv`` that they would make a name with (``option``: only when
    that word is an option's value, as in ``--vs Goblin Scout``); else ""."""
    words = _command_words(argv)
    n = len(extra)
    at = [i for i in range(1, len(words) - n + 1) if words[i:i + n] == extra]
    if not at:
        return ""
    i = at[-1]
    before = words[i - 1]
    if before.startswith("-") or not (before[:1].isalpha() and extra[0][:1].isalpha()):
        return ""
    if option and not (i >= 2 and words[i - 2].startswith("--")):
        return ""
    merged = [*words[:i - 1], " ".join([before, *extra]), *words[i + n:]]
    return " — quote a name with spaces: " + _typed(merged)


def did_you_mean(word: str, names: list[str]) -> str:
    """`` Did you mean 'status'?`` for a near miss among ``names``, else ""."""
    from difflib import get_close_matches

    matches = get_close_matches(word, names, n=1)
    return f" Did you mean {matches[0]!r}?" if matches else ""


def _version(ctx: typer.Context, value: bool) -> None:
    if value:
        here = ctx.obj.env if isinstance(ctx.obj, Settings) and ctx.obj.env else env.current()
        here.stdout.write(f"d2d {__version__}\n")
        raise typer.Exit()


def _completion(install: bool) -> Any:
    """``--show-completion [SHELL]`` / ``--install-completion [SHELL]``: the shell is
    detected when not given (Typer's own options take no shell name). The script is the
    one the shell's completion class gives (d2d_cli/completion.py)."""

    def callback(ctx: typer.Context, param: Any, value: str | None) -> None:
        if value is None or ctx.resilient_parsing:
            return
        from d2d_cli import completion

        prog = ctx.find_root().info_name or "d2d"
        shell = (None if value == "auto" else value) or completion.detect_shell()
        if install:
            if shell is None:
                raise BadInput("the shell could not be detected: name it "
                               "(--install-completion bash, zsh, fish or powershell)")
            _install_completion(ctx.find_root().command, prog, shell)
        text = completion.script(ctx.find_root().command, prog, COMPLETE_VAR,
                                 shell or "bash")
        # zsh reads '#compdef' only on a completion file's first line: no blank line first.
        typer.echo(text)
        raise typer.Exit()

    return evaluated(callback)


def _install_completion(root: Any, prog: str, shell: str) -> None:
    """Typer's installer writes the script where the shell loads it (and the lines that
    load it into the rc file); for the shells whose class is d2d's, the file it wrote
    is then the script that class gives."""
    from d2d_cli import completion

    text = completion.script(root, prog, COMPLETE_VAR, shell)  # refuses an unknown shell
    path = compat.install_completion(shell, prog, COMPLETE_VAR)
    if shell in completion.OWN_SHELLS:
        path.write_text(text, encoding="utf-8")
    typer.secho(f"{shell} completion installed in {path}", fg="green")
    typer.echo("Completion will take effect once you restart the terminal")
    raise typer.Exit()


COMPLETE_VAR = "_D2D_COMPLETE"
_SHELL_HELP = "bash, zsh, fish or powershell (default: this shell)."

class RootApp(typer.Typer):
    """The ``d2d`` Typer app; it owns the Click group built from it (:meth:`root`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._root_group: Any = None

    def root(self) -> Any:
        """The root Click group (a :class:`D2DGroup`), built on first use and kept by
        this app: ``d2d play`` runs every line through the one group (its groups built
        once); a test that wants a fresh one builds it, ``typer.main.get_command(app)``."""
        if self._root_group is None:
            self._root_group = typer.main.get_command(self)
        return self._root_group


app = RootApp(
    cls=D2DGroup,
    name="d2d",
    help="d2d — the Narrator's companion for Drawn to Destiny.\n\n"
    "The global options (--session, --seed, --debug, --why) work after the command too; "
    "d2d play runs commands in an interactive shell.\n\n"
    "Example: d2d fate draw 3",
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    suggest_commands=False,  # D2DGroup.resolve_command suggests from GROUPS
    add_completion=False,  # our own options below take an optional shell name
    # Help uses the terminal's width up to 120 columns (Click's default stops at 80).
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120},
)


@app.callback()
def root(
    ctx: typer.Context,
    session: Annotated[str | None, typer.Option(
        "--session", envvar="D2D_SESSION", metavar="NAME|PATH",
        click_type=_complete.SESSION,
        help="Session name (under the user data dir) or a path ending in .toml.")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", envvar="D2D_SEED", help="Make shuffles and rolls reproducible.")] = None,
    debug: Annotated[bool, typer.Option(
        "--debug", help="Show the traceback of an internal error.")] = False,
    why: Annotated[bool, typer.Option(
        "--why", help="Explain the answer: every map reading, rule line and what did not "
        "apply.")] = False,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
    install_completion: Annotated[str | None, typer.Option(
        "--install-completion", metavar="[SHELL]", callback=_completion(install=True),
        expose_value=False, is_eager=True,
        help="Install tab completion: " + _SHELL_HELP)] = None,
    show_completion: Annotated[str | None, typer.Option(
        "--show-completion", metavar="[SHELL]", callback=_completion(install=False),
        expose_value=False, is_eager=True,
        help="Print the tab-completion script: " + _SHELL_HELP)] = None,
) -> None:
    """d2d — the Narrator's companion for Drawn to Destiny (the help above is the one
    shown: Typer's ``help=`` wins over this docstring).

    Example: d2d fate draw 3
    """
    given = ctx.obj if isinstance(ctx.obj, Settings) else Settings()
    if why:
        env.current().why = True  # read by the human views (render.why)
    ctx.obj = Settings(session=session, seed=seed, debug=debug, why=why, argv=given.argv,
                       run=given.run, root=given.root, env=given.env)


evaluated(root)
evaluated(_version)


def root_command() -> Any:
    """The root Click group of :data:`app` (``app.root()``: built once, kept by the app)."""
    return app.root()


def main(argv: list[str] | None = None, env: env.Environment | None = None) -> int:
    """Run one command line; its exit code. ``env``: the Environment to run it in
    (d2d_cli/env.py; a test's double), default the current one."""
    if COMPLETE_VAR in os.environ:  # a shell asks for completions: Typer's formats
        from d2d_cli import completion

        completion.register()  # bash gets its names escaped (d2d_cli/completion.py)
    try:
        code = int(root_command().main(argv, prog_name="d2d", standalone_mode=False,
                                       env=env) or 0)
        sys.stdout.flush()
    except BrokenPipeError:
        code = 1
    if code and _stdout_closed():
        # The reader went away (`d2d fate draw 30 | head -1`): no noise at exit either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return code


def run() -> None:
    """The ``d2d`` console script and ``python -m d2d_cli``: :func:`main`, then leave
    without Python's teardown. Tearing down the ~300 modules a command loaded costs
    ~12 ms, more than the command itself; everything d2d writes is closed and fsynced by
    then, so only the standard streams need flushing. (:func:`main` returns instead, for
    callers in a Python process: the tour, d2d play, tests.)"""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _stdout_closed() -> bool:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return True
    except (OSError, ValueError):
        return False
    return False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
