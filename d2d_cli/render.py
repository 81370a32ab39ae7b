"""Output: one result object rendered for people (Rich) or for scripts (JSON).

DESIGN.md "JSON": ``{"ok": true, "command": "fate draw", "result": {…}}`` on
stdout; on error ``{"ok": false, "command": …, "error": {"kind", "message"}}``
(the message also goes to stderr). Rich is imported only on the human path so a
``--json`` lookup never pays for it; a test asserts that.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from d2d_cli import env

if TYPE_CHECKING:
    from rich.console import Console

HumanView = Callable[["Console", Any], None]


@functools.cache
def _json_unsafe() -> re.Pattern[str]:
    """Compiled when an envelope holds anything but ASCII (its ranges of non-ASCII
    characters took ~0.3 ms to compile at every command's start, issue 40)."""
    return re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def begin(command: str | None) -> None:
    """The command being run ("fate draw"), for every envelope and error: set when a
    command starts (commands._app.D2DCommand), afresh for each command line."""
    env.current().command = command


def current_command() -> str | None:
    return env.current().command


def console(stderr: bool = False, file: Any = None) -> Console:
    """A console for the human views: plain when not a terminal, honouring NO_COLOR.
    One- or two-line markup is printed without importing Rich (d2d_cli/plain.py);
    anything else by Rich. ``file``: a buffer to render into, styled for the stream
    the text is for."""
    from d2d_cli.plain import LineConsole

    return LineConsole(env.current(), stderr=stderr, file=file)  # type: ignore[return-value]


@contextlib.contextmanager
def buffered() -> Iterator[list[str]]:
    """Hold what :func:`emit` prints until :func:`flush`: a result is printed only once
    the change it reports is saved, and a view that fails to render prints nothing."""
    with env.current().buffered() as buf:
        yield buf


def flush(buf: list[str]) -> None:
    env.current().flush(buf)


def text(contents: str) -> None:
    """A file's contents asked for on stdout (``-o -``): no markup read, no envelope —
    to the Environment's stdout, like every other output, and inert like every other
    view (a journal line's text can never drive the terminal: issue 39 item 5)."""
    from d2d_cli.inert import inert

    env.current().stdout.write(inert(contents))


def emit(result: Any, human: HumanView, *, as_json: bool) -> None:
    """Print a command's result: the JSON envelope, or the human view of the same object.

    ``result`` is a typed result (``rules.core.result.Result``; its JSON view is derived
    there) or, for the few commands that only echo data, a plain dict. The whole output
    is rendered first, so a failure (a markup error, an unencodable value) raises
    before anything is printed or saved. The envelope's ``command`` is the running
    command's name (set once, from Click's context)."""
    here = env.current()
    command = here.command
    if as_json:  # the encoder walks the result once (_jsonable: a Result's fields)
        text = _json_line({"ok": True, "command": command, "result": result})
    else:
        import io

        buffer = io.StringIO()
        human(console(file=buffer), result)  # the plain lines and Rich's, in order
        text = buffer.getvalue()
        if here.explained is not None:  # d2d play keeps the reasons for its `why`,
            here.explained[:] = [lambda: _explained(human, result)]  # drawn when asked
    here.fault("render")
    here.out(text)


def why() -> bool:
    """Whether the human view adds its reasons (``--why``, one global option): every map
    reading, rule line and "does not apply". The answer alone is shown without it."""
    return env.current().why


def _explained(human: HumanView, result: Any) -> str:
    """The human view of ``result`` with its reasons (``--why``), drawn now."""
    import io

    here = env.current()
    buffer, was = io.StringIO(), here.why
    here.why = True
    try:
        human(console(file=buffer), result)
    finally:
        here.why = was
    return buffer.getvalue()


def _json_line(envelope: dict[str, Any]) -> str:
    import json  # only a --json run (or an error envelope) pays for it

    text = json.dumps(envelope, ensure_ascii=False, default=_jsonable) + "\n"
    # json.dumps escapes C0 but leaves DEL, C1 (the 8-bit CSI and OSC), the line
    # separators and the bidi overrides raw: escape them too, so an envelope piped to a
    # terminal is as inert as the human view (issue 30 item 2). Outside strings JSON is
    # ASCII, so this only ever touches string contents. DEL is ASCII: an ASCII text is
    # passed as it is only without one.
    return text if text.isascii() and "\x7f" not in text else _json_unsafe().sub(
        lambda m: f"\\u{ord(m.group()):04x}", text)


def write_json(envelope: dict[str, Any], here: env.Environment | None = None) -> None:
    out = (here or env.current()).stdout
    out.write(_json_line(envelope))
    out.flush()


def _jsonable(obj: Any) -> Any:
    from d2d_cli.rules.core.result import json_default

    return json_default(obj)


def error(command: str | None, kind: str, message: str, *, as_json: bool,
          here: env.Environment | None = None) -> None:
    """Report an error: one line on stderr, and the JSON envelope on stdout if asked
    (``here``: the command line's Environment, as the root passes it; by default the
    current one)."""
    here = here or env.current()
    from d2d_cli.inert import brief, inert

    # a key or a name from a file, shown, never obeyed; a huge name shown cut
    message = brief(inert(message))
    if as_json:
        write_json(
            {"ok": False, "command": command, "error": {"kind": kind, "message": message}},
            here)
    err = here.stderr
    err.write(f"d2d: error: {message}\n")
    err.flush()


def escape(text: str) -> str:
    """Text from the user or the session, safe inside Rich markup (``[/]`` prints as is).
    The one escape every human view uses (``rich.markup.escape``, without importing
    Rich)."""
    from d2d_cli.inert import escape as plain_escape

    return plain_escape(text)


def cards_line(cards: list[dict[str, Any]]) -> str:
    """Cards as a person reads them: ``Q♥ Queen of Cups ↑, 10♠ 10 of Swords ↓``."""
    from d2d_cli.rules.deck.cards import parse_card

    return ", ".join(parse_card(c["code"]).name() for c in cards)
