"""Output: one result object rendered for people (Rich) or for scripts (JSON).

DESIGN.md "JSON": ``{"ok": true, "command": "fate draw", "result": {…}}`` on
stdout; on error ``{"ok": false, "command": …, "error": {"kind", "message"}}``
(the message also goes to stderr). Rich is imported only on the human path so a
``--json`` lookup never pays for it; a test asserts that.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

HumanView = Callable[["Console", Any], None]

# The command being run ("fate draw"), for every envelope; set by begin() when a command
# starts (commands._common.D2DCommand), reset by the boundary for each command line.
_current_command: str | None = None


def begin(command: str | None) -> None:
    global _current_command
    _current_command = command


def current_command() -> str | None:
    return _current_command


def console(stderr: bool = False) -> Console:
    """A console for the human views: plain when not a terminal, honouring NO_COLOR.
    Simple lines are printed without importing Rich (d2d_cli/plain.py, byte for byte
    what Rich prints); anything else goes to a real Rich console."""
    from d2d_cli.plain import LineConsole

    return LineConsole(stderr=stderr)  # type: ignore[return-value]


def emit(result: Any, human: HumanView, *, as_json: bool) -> None:
    """Print a command's result: the JSON envelope, or the human view of the same object.

    ``result`` is a typed result (``rules.result.Result``; its JSON view is derived
    there) or, for the few commands that only echo data, a plain dict. The envelope's
    ``command`` is the running command's name (set once, from Click's context)."""
    command = _current_command
    if as_json:
        from d2d_cli.rules.result import to_json

        write_json({"ok": True, "command": command, "result": to_json(result)})
    else:
        human(console(), result)


def write_json(envelope: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(envelope, ensure_ascii=False, default=_jsonable) + "\n")
    sys.stdout.flush()


def _jsonable(obj: Any) -> Any:
    to_json = getattr(obj, "to_json", None)
    if callable(to_json):
        return to_json()
    raise TypeError(f"cannot encode {type(obj).__name__} as JSON")


def error(command: str | None, kind: str, message: str, *, as_json: bool) -> None:
    """Report an error: one line on stderr, and the JSON envelope on stdout if asked."""
    if as_json:
        write_json(
            {"ok": False, "command": command, "error": {"kind": kind, "message": message}}
        )
    sys.stderr.write(f"d2d: error: {message}\n")
    sys.stderr.flush()


def escape(text: str) -> str:
    """Text from the user or the session, safe inside Rich markup (``[/]`` prints as is).
    The one escape every human view uses (``rich.markup.escape``, without importing
    Rich)."""
    from d2d_cli.plain import escape as plain_escape

    return plain_escape(text)


def cards_line(cards: list[dict[str, Any]]) -> str:
    """Cards as a person reads them: ``Q♥ Queen of Cups ↑, 10♠ 10 of Swords ↓``."""
    from d2d_cli.rules.cards import parse_card

    return ", ".join(parse_card(c["code"]).name() for c in cards)
