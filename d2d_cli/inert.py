"""Text from files made inert before it reaches a terminal (issue 30 item 2), and names
cut for messages (item 7): what the shape check, the views, the error boundary, the SVG
and the output writer share. Imports nothing but the rules' core (its patterns are
compiled on first use): the operations (the Python API) reach it through the map's SVG
without importing Rich.
"""

from __future__ import annotations

import functools

from d2d_cli.rules.core import compiled_on_first_use

# Characters that drive a terminal or reorder what it shows (issue 30 item 2): C0 but
# tab and newline, DEL, C1 (U+0080-U+009F, which includes the 8-bit CSI and OSC), the
# line and paragraph separators, and the bidi embeddings, overrides and isolates.
# Each pattern is compiled on first use: printable text (nearly all of it, the views'
# ♠ and × included) never needs one, and their ranges of non-ASCII characters took
# ~0.4 ms to compile in every command that printed a suit (issue 40).
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"


_unsafe_re = compiled_on_first_use(f"[{_UNSAFE}]")
# The same, but an SGR sequence (colour, bold) d2d's own views print is kept.
_unsafe_but_sgr = compiled_on_first_use(f"\x1b\\[[0-9;]*m|[{_UNSAFE}]")


def _shown(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def inert(text: str, *, keep_styles: bool = False) -> str:
    """``text`` with every character that could drive a terminal shown as its escape
    (``\\x1b``, ``\\u202e``): text from a file — a session, scene, character or journal
    someone else wrote — can never set a window title, clear the screen, write the
    clipboard (OSC 52) or reverse a line. ``keep_styles``: a complete SGR sequence (the
    colours d2d's own views print) is kept — used on the rendered output, whose data
    was made inert before the styles were added."""
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        # The common case, nothing to look at: every character escaped below is one
        # str.isprintable refuses (Cc, Cf, Zl, Zp), so printable text — ASCII or not,
        # the views' ♠ and × too — has none; tab and newline are the two kept as they are.
        return text
    if keep_styles:
        return _unsafe_but_sgr().sub(lambda m: m.group() if len(m.group()) > 1
                                   else _shown(m.group()), text)
    return _unsafe_re().sub(lambda m: _shown(m.group()), text)


def unsafe(text: str) -> str | None:
    """The first character of ``text`` that :func:`inert` would escape, or None."""
    m = _unsafe_re().search(text)
    return None if m is None else m.group()


NAME_SHOWN = 60  # characters of a name an error message shows (issue 30 item 7)
# a quoted name: the opening quote not after a letter, the closing one not before one
# (so the apostrophes of "it's … can't" are not taken for quotes)
_AT_LEAST = f"{{{NAME_SHOWN + 1},}}"


_quoted = compiled_on_first_use(f"(?<!\\w)'([^'\\n]{_AT_LEAST})'(?!\\w)"
                                f"|(?<!\\w)\"([^\"\\n]{_AT_LEAST})\"(?!\\w)")
_long_word = compiled_on_first_use(f"\\S{{{4 * NAME_SHOWN + 1},}}")


def short(text: str, limit: int = NAME_SHOWN) -> str:
    """``text`` cut to ``limit`` characters, the last an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def brief(message: str) -> str:
    """A message with every quoted name over :data:`NAME_SHOWN` characters cut (and any
    word over four times that): an error never echoes a 20,000-character name."""
    if len(message) <= NAME_SHOWN:
        return message
    message = _quoted().sub(lambda m: (q := m.group()[0]) + short(m.group(1) or m.group(2))
                          + q, message)
    return _long_word().sub(lambda m: short(m.group(), 4 * NAME_SHOWN), message)


# Rich's markup (docs: rich.readthedocs.io "Console Markup"): an opening tag to escape.
_markup_tag = compiled_on_first_use(r"(\\*)(\[[a-z#/@][^[]*?])")


@functools.lru_cache(maxsize=4096)  # a unit's name is escaped for every view of it:
def escape(text: str) -> str:  # the dashboard of 100 units asks ~800 times a call
    """Text from the user or the session, safe inside markup (as ``rich.markup.escape``,
    which the tests compare it with) and inert on a terminal (:func:`inert`). The one
    markup escape: ``render.escape``, ``plain.escape`` and the terminal map use it."""
    text = inert(text)
    text = _markup_tag().sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text
