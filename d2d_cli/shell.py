"""``d2d play``: an interactive shell on one session.

Each line is a d2d command without the ``d2d`` prefix, run in this process through
the same entry point as a one-shot command (:func:`d2d_cli.cli.main`): same parsing,
same error boundary, same messages and exit codes, only without paying Python's and
Typer's start-up again. Everything a command keeps per process (the rules' tables,
the built command objects) is shared by the lines of one shell; what must not leak
from one line to the next (the running command's name, the global options) is set
afresh for each line by the entry point.

The session file is re-read for every line and for the status line, so a change made
from a second terminal is seen at once. The line editor is prompt_toolkit (completion
menus, history in the state folder, a bottom toolbar for the status line); when stdin
or stdout is not a terminal the shell reads plain lines instead, so ``d2d play <
lines.txt`` runs a script. docs/architecture.md ("d2d play") says why.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from d2d_cli import session
from d2d_cli.completion import NOT_IN_PLAY, candidates
from d2d_cli.errors import D2DError
from d2d_cli.registry import GROUPS, Settings
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.overview import summary

PLAY_HINT = "type '{help}'"  # where a usage error sends the reader (cli.D2DGroup)

SHELL_HELP = """\
d2d play — every d2d command, without the "d2d" in front:
  fate draw 3          conflict fast block          unit show "Goblin Scout"
Tab completes commands, options, cards, names (quoted when they hold spaces).
  help COMMAND         that command's help (also: COMMAND --help)
  undo, redo           session undo / session redo: revert the last change, or
                       re-apply the change undo reverted
  why                  the last answer again, with its reasons (as --why)
  next                 who acts next by the Countdown, and what they have left
  exit, quit, Ctrl-D   leave the shell; Ctrl-C cancels the line being typed
The line at the bottom: the round, who acts next, the clock, the Fate cards left
and the unit named last. The session file is read afresh for every line.
"""


def shell_help(columns: int = 80) -> str:
    """The shell's ``help``: its own words, then the commands a line can start with (not
    ``play`` or ``tour``, nor the root's one-shot options such as --install-completion),
    wrapped at a word to fit ``columns`` (the pane), what wraps indented."""
    import textwrap

    offered = {name: g.help for name, g in GROUPS.items() if name not in NOT_IN_PLAY}
    width = max(map(len, offered)) + 2
    columns = max(columns, width + 20)
    rows = [textwrap.fill(help_, columns, initial_indent=f"  {name.ljust(width)}",
                          subsequent_indent=" " * (width + 2), break_long_words=False)
            for name, help_ in offered.items()]
    own = [textwrap.fill(line, columns, subsequent_indent=" " * (23 if line[:2] == "  "
                                                                   else 0),
                         break_long_words=False) if len(line) > columns else line
           for line in SHELL_HELP.splitlines()]
    return "\n".join(own) + "\n\nCommands:\n" + "\n".join(rows) + "\n"


# Seconds after its last write before a session file's stamp alone tells a change (file
# times are as coarse as 2 s on some file systems).
SETTLED = 2.0


@record(frozen=False)
class Shell:
    """One shell: the global options it was started with, and the unit named last."""

    session: str | None = None  # --session of `d2d play`; None follows `session use`
    seed: int | None = None
    debug: bool = False
    current: str | None = None  # the unit named last (shown on the status line)
    out: TextIO = field(default_factory=lambda: sys.stdout)
    # The root's entry points (``registry.Settings.run`` / ``.root``), handed in by
    # ``d2d play`` so the shell runs each line through the root without importing it.
    run_argv: Callable[[list[str]], int] | None = None
    root: Any = None
    # The last command's view with its reasons (--why), for `why` (render.emit keeps it).
    explained: list[Callable[[], str]] = field(default_factory=list)
    # The session as last read and the status line drawn from it, each with the file's
    # stamp (mtime, size, inode) when read: after every line the shell reads the session
    # for the unit named and the status line, and a lookup changes nothing.
    _seen: tuple[Any, Path, dict[str, Any]] | None = None
    _drawn: tuple[Any, str] | None = None

    # ------------------------------------------------------------------- one line

    def globals(self) -> list[str]:
        """The shell's global options, given again in front of every line. A ``--seed``
        applies as it would to ``d2d --seed N`` typed before each line: the session's
        counter moves on with every reveal, so lines do not repeat each other's cards,
        and the same lines on the same session file reveal the same cards again."""
        argv: list[str] = []
        if self.session:
            argv += ["--session", self.session]
        if self.seed is not None:
            argv += ["--seed", str(self.seed)]
        if self.debug:
            argv.append("--debug")
        return argv

    def run_line(self, line: str) -> int | None:
        """Run one line; its exit code (None: the shell should end)."""
        try:
            words = shlex.split(line)
        except ValueError as e:  # an unclosed quote
            sys.stderr.write(f"d2d: error: {e}\n")
            return 2
        if words[:1] == ["d2d"]:  # typed out of habit
            words = words[1:]
        if not words or words[0].startswith("#"):
            return 0
        if words[0] in ("exit", "quit") and len(words) == 1:
            return None
        if words[0] == "play":
            sys.stderr.write("d2d: error: this is d2d play already: type a command\n")
            return 2
        if words == ["help"]:
            from d2d_cli import env

            self.out.write(shell_help(env.current().width))
            return 0
        if words == ["why"]:
            self.out.write(self.explained[0]() if self.explained else
                           "Nothing to explain: run a command first, then why.\n")
            return 0
        if words == ["next"]:
            words = ["round", "next"]
        self.explained.clear()
        if words[0] == "help":
            words = [*words[1:], "--help"]
        elif words[:1] in (["undo"], ["redo"]) and set(words[1:]) <= {"--json", "--force"}:
            words = ["session", *words]
        code = self.run(words)
        self._remember_unit(words)
        return code

    def run(self, words: list[str]) -> int:
        """``d2d WORDS`` in this process, through the one-shot entry point."""
        assert self.run_argv is not None, "a Shell is given the root's run (d2d play does)"
        hinted = self.root is not None and "help_hint" in type(self.root).__dict__
        if hinted:  # a usage error points at the shell's own help, not at `d2d … --help`
            self.root.help_hint = PLAY_HINT
        try:
            return self.run_argv([*self.globals(), *words])
        except SystemExit as e:  # a command that exits on its own
            return e.code if isinstance(e.code, int) else int(e.code is not None)
        except KeyboardInterrupt:  # Ctrl-C while a command runs: that command stops
            sys.stderr.write("d2d: interrupted\n")
            return 130
        finally:
            if hinted:
                del self.root.help_hint
            sys.stdout.flush()
            sys.stderr.flush()

    # ------------------------------------------------------------------- status

    def path(self) -> Path:
        return session.resolve(self.session)

    def data(self) -> dict[str, Any]:
        """The session, read again only when its file may have changed since the last
        read. Read-only for its callers. A read is kept only when the file was last
        written more than :data:`SETTLED` seconds before it: any later write then bears
        a later time, whatever the clock's or the file system's granularity (git's
        "racily clean" rule), so a same-size edit in place is never missed."""
        import time

        path = self.path()
        mark = session.stamp(path)  # taken before the read: a write meanwhile rereads
        if mark is not None and self._seen is not None and self._seen[:2] == (mark, path):
            return self._seen[2]
        data = session.lookup(self.session, seed=self.seed, shared=True)
        settled = mark is not None and mark[0] < (time.time() - SETTLED) * 1e9
        self._seen = (mark, path, data) if settled else None
        return data

    def _remember_unit(self, words: list[str]) -> None:
        try:
            named = summary.named_unit(self.data(), words)
        except D2DError:
            return
        if named is not None:
            self.current = named

    def status(self) -> str:
        """The status line: round, clock, Fate cards left, the current unit's tokens."""
        try:
            data = self.data()
        except D2DError as e:
            return f"session unusable: {e.message}"
        key = (*self._seen[:2], self.current) if self._seen is not None else None
        if key is not None and self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        line = summary.status_line(summary.summarize(data),
                                   summary.unit_tokens(data, self.current), _up(data))
        self._drawn = (key, line)
        return line

    def prompt(self) -> str:
        return f"{session.display_name(self.path())}> "

    def complete(self, text: str) -> list[Any]:
        return candidates(text, Settings(session=self.session, seed=self.seed,
                                         root=self.root))

    # ------------------------------------------------------------------- loops

    def run_lines(self, lines: Iterable[str], keep_going: bool = False) -> int:
        """Plain mode (stdin or stdout is not a terminal): run each line, no prompt.
        A failing line stops the script with its exit code, as ``sqlite3 -bail`` or
        ``sh -e`` would (a script must be able to tell); with ``keep_going`` every line
        runs and the exit code is the first failure's. Either way stderr names the
        line that failed."""
        first = 0
        for number, line in enumerate(lines, 1):
            result = self.run_line(line)
            if result is None:
                break
            if result:
                from d2d_cli.inert import inert, short

                sys.stderr.write(f"d2d play: line {number} failed (exit {result}): "
                                 f"{short(inert(line.strip()), 4 * 60)}\n")
                first = first or result
                if not keep_going:
                    break
        return first

    def interact(self) -> int:
        """The interactive loop on a terminal, with prompt_toolkit."""
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory

        history = session.play_history()  # in the state folder (platformdirs)
        status = self.status()
        prompt: PromptSession[str] = PromptSession(
            history=FileHistory(str(history)),
            completer=_completer(self),
            complete_while_typing=False,  # Tab completes, as in a shell
            bottom_toolbar=lambda: fit_status(status, prompt.app.output.get_size().columns),
        )
        self.out.write(f"d2d play on {session.display_name(self.path())} — help for help, "
                       "Ctrl-D to leave.\n")
        while True:
            try:
                line = prompt.prompt(self.prompt())
            except KeyboardInterrupt:  # Ctrl-C: the line is dropped, the shell goes on
                continue
            except EOFError:  # Ctrl-D on an empty line
                return 0
            if self.run_line(line) is None:
                return 0
            status = self.status()


def _up(data: dict[str, Any]) -> str | None:
    """Who acts next by the Countdown (``round next``), while a round is under way; the
    status line never refuses a file (a hand-edited roster it cannot read: nothing)."""
    from d2d_cli.rules.time.groups import next_up
    from d2d_cli.rules.time.round_state import Round
    from d2d_cli.rules.units.roster import roster

    try:
        rnd = Round.from_state(data.get("round"))
        if rnd.phase != "started":
            return None
        return next_up(roster(data), rnd.number, rnd.phase).summary
    except (D2DError, ValueError, TypeError, KeyError):
        return None


def fit_status(status: str, width: int) -> str:
    """The status line as the toolbar shows it, one space in: its parts (`` · ``
    between them) on as many lines as ``width`` needs, each part whole (at 40 columns
    the cards left and the named unit's tokens were cut off the end)."""
    lines: list[str] = []
    for part in status.split(" · "):
        if lines and len(lines[-1]) + 3 + len(part) < width:
            lines[-1] += " · " + part
        else:
            lines.append(" " + part)
    return "\n".join(lines)


def _completer(shell: Shell) -> Any:
    from prompt_toolkit.completion import Completer, Completion

    class D2DCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            text = document.text_before_cursor
            for c in shell.complete(text):
                yield Completion(c.text, start_position=c.start - len(text),
                                 display=c.display, display_meta=c.meta)

    return D2DCompleter()


def start(settings: Settings, keep_going: bool = False) -> int:
    """Run the shell on the session of ``settings`` (or the current one), through the
    root entry points it carries: interactive on a terminal, else line by line from
    stdin."""
    shell = Shell(session=settings.session, seed=settings.seed, debug=settings.debug,
                  run_argv=settings.run, root=settings.root)
    from d2d_cli import env

    env.current().explained = shell.explained  # each line's view with its reasons
    shell.data()  # a bad --session or an unusable file is refused before anything else
    if sys.stdin.isatty() and sys.stdout.isatty():
        return shell.interact()
    return shell.run_lines(sys.stdin, keep_going)

