"""The environment a command runs in: one object instead of module globals.

As httpie's ``Environment`` (httpie/context.py): the standard streams, the terminal's
width, whether output is styled and coloured, the running command's name, the output
held back until the command's change is saved, and the fault-injection hook of the
write path. The root command (cli.py) makes one for each command line it runs, holds
it in the root context (``ctx.obj.env``) and makes it the active one while the command
runs, so code far from Click's context (render, the session's write path) reaches it
through :func:`current`. A test passes its own (``cli.main(argv, env=Environment(
stdout=buf, width=40))``) instead of patching globals.

Nothing here imports Rich, or any other part of d2d: it sits below everything, the
error module (and so rules/) included. The consoles built on it live in
d2d_cli/plain.py: the plain printer, and the Rich console it makes when one is first
needed (httpie's ``_make_rich_console``).
"""

from __future__ import annotations

import contextlib
import copy
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from typing import TextIO

Fault = Callable[[str], None]

# Environment variables Rich reads to decide its own terminal handling: with one set,
# the plain printer leaves styling to Rich.
_RICH_TERMINAL_VARS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS")


class Environment:
    """Streams, terminal and per-command state of one command line.

    ``stdin``/``stdout``/``stderr``: the streams (default: ``sys``'s at the time of use,
    so a test runner that swaps them is followed). ``width``: the console's width
    (default: ``COLUMNS``, else the terminal's, else 80). ``styled``: whether output
    carries styles (default: stdout is a terminal). ``colors``: whether styles carry
    colours (default: ``NO_COLOR`` unset). ``fault``: called with each step name of the
    write path (tests only). ``environ``: the environment variables read for the
    defaults (default ``os.environ``)."""

    def __init__(self, *, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 stderr: TextIO | None = None, width: int | None = None,
                 styled: bool | None = None, colors: bool | None = None,
                 fault: Fault | None = None, environ: Mapping[str, str] | None = None) -> None:
        self._stdin, self._stdout, self._stderr = stdin, stdout, stderr
        self._width = width
        self._styled = styled
        self._colors = colors
        self.fault_hook = fault
        self._environ = environ
        # Per command line (cli.py's boundary):
        self.command: str | None = None  # "fate draw": every envelope and error names it
        self.buffers: list[list[str]] = []  # output held until the change is saved
        self.why = False  # --why: the human views add their reasons
        # d2d play's `why`: when set (a shared holder), each command's human view keeps
        # here how to draw it again with its reasons, for the next `why` to print.
        self.explained: list[Callable[[], str]] | None = None

    # ------------------------------------------------------------------ streams

    @property
    def environ(self) -> Mapping[str, str]:
        return os.environ if self._environ is None else self._environ

    @property
    def stdin(self) -> TextIO:
        return self._stdin if self._stdin is not None else sys.stdin

    @property
    def stdout(self) -> TextIO:
        return self._stdout if self._stdout is not None else sys.stdout

    @property
    def stderr(self) -> TextIO:
        return self._stderr if self._stderr is not None else sys.stderr

    def for_command(self) -> Environment:
        """A copy for one command line: the same streams, terminal and hooks (and
        class: a test's double stays one), no command name, no held output. The tour
        runs commands inside a command, each in its own copy."""
        fresh = copy.copy(self)
        fresh.command = None
        fresh.buffers = []
        fresh.why = False
        return fresh

    # ------------------------------------------------------------------ terminal

    def isatty(self, stream: TextIO | None = None) -> bool:
        stream = self.stdout if stream is None else stream
        try:
            return bool(stream.isatty())
        except (AttributeError, ValueError):
            return False

    def terminal(self, stream: TextIO | None = None) -> bool:
        """Output to ``stream`` (default stdout) is for a terminal: given as ``styled``,
        else whether the stream is one."""
        return self._styled if self._styled is not None else self.isatty(stream)

    @property
    def forced_styles(self) -> bool | None:
        """``styled`` as given to this environment (None: found from the stream)."""
        return self._styled

    @property
    def width(self) -> int:
        """The console's width in columns: given, ``COLUMNS``, the terminal's, else 80
        (a terminal reporting no columns, as a fresh pty does, counts as unknown)."""
        if self._width is not None:
            return self._width
        columns = self.environ.get("COLUMNS", "")
        if columns.isdigit() and int(columns):
            return int(columns)
        for stream in (self.stdin, self.stdout, self.stderr):
            try:
                size = os.get_terminal_size(stream.fileno()).columns
            except (AttributeError, OSError, ValueError):
                continue
            if size:
                return size
        return 80

    @property
    def colors(self) -> bool:
        """Styles may carry colours (``NO_COLOR``, https://no-color.org, unset)."""
        if self._colors is not None:
            return self._colors
        return not self.environ.get("NO_COLOR")

    def styled(self, stream: TextIO | None = None) -> bool | None:
        """Output to ``stream`` (default stdout) carries styles: False when piped; True on
        a plain terminal; None when the terminal is Rich's to judge (a dumb terminal,
        Windows, Rich's own variables such as FORCE_COLOR set)."""
        if self._styled is not None:
            return self._styled
        if not self.isatty(stream):
            return None if any(self.environ.get(v) for v in _RICH_TERMINAL_VARS) else False
        if any(self.environ.get(v) for v in _RICH_TERMINAL_VARS):
            return None
        if self.environ.get("TERM", "").lower() in ("dumb", "unknown") or \
                sys.platform == "win32":
            return None
        return True

    # ------------------------------------------------------------------ output

    def out(self, text: str) -> None:
        """A command's output: held when the command's change is not saved yet."""
        if self.buffers:
            self.buffers[-1].append(text)
        else:
            self.stdout.write(text)
            self.stdout.flush()

    @contextlib.contextmanager
    def buffered(self) -> Iterator[list[str]]:
        """Hold what :meth:`out` prints until :meth:`flush`."""
        buf: list[str] = []
        self.buffers.append(buf)
        try:
            yield buf
        finally:
            self.buffers.remove(buf)

    def flush(self, buf: list[str]) -> None:
        if buf:
            self.stdout.write("".join(buf))
            self.stdout.flush()
            buf.clear()

    # ------------------------------------------------------------------ faults

    def fault(self, step: str) -> None:
        """A step of the write path: the test's hook may raise (or kill) here."""
        if self.fault_hook is not None:
            self.fault_hook(step)


_default = Environment()
_active: ContextVar[Environment | None] = ContextVar("d2d_environment", default=None)


def current() -> Environment:
    """The environment of the command running now (the process's default outside one)."""
    env = _active.get()
    return _default if env is None else env


@contextlib.contextmanager
def active(env: Environment) -> Iterator[Environment]:
    """Make ``env`` the current one inside the block (the root command does, per line)."""
    token = _active.set(env)
    try:
        yield env
    finally:
        _active.reset(token)
