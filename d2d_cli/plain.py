"""Human output of simple lines without importing Rich (~20 ms a command saved).

Most views print a line or two of Rich markup (``[bold]Revealed:[/] Q♥ …``). Importing
Rich for that costs more than the rest of a lookup, so :class:`LineConsole` prints such
strings itself, byte for byte as Rich would: plain text when stdout is not a terminal,
Rich's own SGR codes on a terminal. Anything else — a table, a panel, a style or a tag
it does not know, a line wider than the terminal (Rich would wrap it), a tab, a control
character, an ``:emoji:`` code — goes to a real Rich console, created on first use. A
test compares the two on every view of the Combat #1 transcript and on generated markup.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, TextIO

# Rich's own patterns (rich.markup): a tag, and the escape of a tag-like text.
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_EMOJI = re.compile(r":(\S*?):")  # a possible :emoji: code: Rich may replace it
_ATTRIBUTES = {"bold": 1, "dim": 2, "italic": 3, "underline": 4, "blink": 5, "blink2": 6,
               "reverse": 7, "conceal": 8, "strike": 9}
_COLORS = {name: i for i, name in enumerate(
    ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"))}
_COLORS.update({f"bright_{name}": i + 8 for name, i in list(_COLORS.items())})


class NotPlain(Exception):
    """This text needs Rich itself."""


def escape(text: str) -> str:
    """Text from the user or the session, safe inside markup (as ``rich.markup.escape``)."""
    text = _ESCAPE.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text


def _style(names: list[str]) -> tuple[frozenset[int], int | None]:
    attributes: set[int] = set()
    color: int | None = None
    for name in names:
        for word in name.split():
            if word in _ATTRIBUTES:
                attributes.add(_ATTRIBUTES[word])
            elif word in _COLORS:
                color = _COLORS[word]
            else:
                raise NotPlain(word)
    return frozenset(attributes), color


def _sgr(names: list[str], color: bool) -> str:
    """Rich's SGR parameters for these styles (attributes in order, then the colour)."""
    attributes, fg = _style(names)
    codes = [str(a) for a in sorted(attributes)]
    if fg is not None and color:
        codes.append(str(30 + fg) if fg < 8 else str(90 + fg - 8))
    return ";".join(codes)


def render(markup: str, *, styles: bool, color: bool = True) -> str:
    """Markup as Rich prints it: the text, with SGR codes when ``styles`` (a terminal),
    colours dropped unless ``color`` (NO_COLOR). Raises NotPlain for what needs Rich."""
    if any(ch < " " and ch != "\n" or ch == "\x7f" for ch in markup):
        raise NotPlain("control character or tab")
    out: list[str] = []
    stack: list[str] = []
    run: list[str] = []  # text since the last tag: one segment, as Rich yields it

    def text(plain: str) -> None:
        plain = plain.replace("\\[", "[")
        if _EMOJI.search(plain):
            raise NotPlain("emoji code")
        run.append(plain)

    def flush() -> None:
        segment = "".join(run)
        run.clear()
        if segment:
            sgr = _sgr(stack, color) if styles else ""
            out.append(f"\x1b[{sgr}m{segment}\x1b[0m" if sgr else segment)

    position = 0
    for match in _TAGS.finditer(markup):
        full, escapes, tag = match.groups()
        start, end = match.span()
        if start > position:
            text(markup[position:start])
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                text("\\" * backslashes)
            if escaped:
                text(full[len(escapes):])
                continue
        if "=" in tag or tag.startswith("@"):
            raise NotPlain(tag)
        flush()
        if tag.startswith("/"):
            name = tag[1:].strip().lower()
            if not stack:
                raise NotPlain("nothing to close")
            if name:
                matches = [i for i, open_ in enumerate(stack) if open_ == name]
                if not matches:
                    raise NotPlain("closing tag matches nothing")
                if matches[-1] != len(stack) - 1:  # closed out of order: Rich's own way
                    raise NotPlain("tags closed out of order")
                del stack[matches[-1]]
            else:
                stack.pop()
        else:
            _style([tag])  # an unknown style: Rich's business
            stack.append(tag)
    if position < len(markup):
        text(markup[position:])
    if stack:  # a tag left open: Rich orders the styles of such spans its own way
        raise NotPlain("unclosed tag")
    flush()
    return "".join(out)


def _cells(line: str) -> int:
    """Terminal cells of a line without SGR codes; NotPlain for wide or combining
    characters (Rich measures those with its own tables)."""
    if line.isascii():
        return len(line)
    import unicodedata

    for ch in line:
        if not ch.isascii() and (unicodedata.east_asian_width(ch) in "WF"
                                 or unicodedata.combining(ch)):
            raise NotPlain("wide character")
    return len(line)


class LineConsole:
    """``con.print(markup)`` for the human views: plain strings printed here, anything
    else (a Rich Table…) by a real Rich console with the settings d2d always used."""

    def __init__(self, stderr: bool = False, file: TextIO | None = None,
                 like: TextIO | None = None) -> None:
        """``file``: where to write (default stdout or stderr); ``like``: the stream the
        text is for, when ``file`` is a buffer (its terminal decides styles and width)."""
        self._stderr = stderr
        self._file = file
        self._like = like
        self._rich: Any = None
        self._wrap_always = False

    @property
    def soft_wrap(self) -> bool:
        return not self._wrap_always

    @soft_wrap.setter
    def soft_wrap(self, value: bool) -> None:
        """``soft_wrap = False``: a view wants Rich to wrap at the width even when piped
        (the dashboard): every line then goes through Rich."""
        self._wrap_always = not value
        self.rich.soft_wrap = value

    @property
    def file(self) -> TextIO:
        return self._file or (sys.stderr if self._stderr else sys.stdout)

    @property
    def target(self) -> TextIO:
        """The stream the output will reach (a buffer's ``like``)."""
        return self._like or self.file

    @property
    def rich(self) -> Any:
        """The real Rich console, made on first use."""
        if self._rich is None:
            from rich.console import Console

            tty = self.target.isatty()
            buffered = self._like is not None
            self._rich = Console(
                file=self._file, stderr=self._stderr, highlight=False,
                no_color=bool(os.environ.get("NO_COLOR")) or None,
                soft_wrap=not tty,
                force_terminal=tty if buffered else None,
                width=self._width() if tty and buffered else None,
            )
        return self._rich

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", **options: Any) -> None:
        if not options and not self._wrap_always and all(isinstance(o, str) for o in objects):
            try:
                text = self._plain(sep.join(render(o, styles=False) for o in objects)
                                   if not self._styled() else
                                   sep.join(self._render(o) for o in objects)) + end
            except NotPlain:
                pass
            else:
                self.file.write(text)
                self.file.flush()
                return
        self.rich.print(*objects, sep=sep, end=end, **options)

    def __getattr__(self, name: str) -> Any:  # anything else a view asks: Rich's
        return getattr(self.rich, name)

    # Rich's choices, mirrored: styles only on a terminal Rich would style.
    def _styled(self) -> bool:
        if not self.target.isatty():
            return False
        if any(os.environ.get(v) for v in ("FORCE_COLOR", "TTY_COMPATIBLE",
                                            "TTY_INTERACTIVE", "JUPYTER_COLUMNS")):
            raise NotPlain("Rich's own terminal settings")
        if os.environ.get("TERM", "").lower() in ("dumb", "unknown") or sys.platform == "win32":
            raise NotPlain("a terminal Rich treats its own way")
        return True

    def _render(self, markup: str) -> str:
        return render(markup, styles=True, color=not os.environ.get("NO_COLOR"))

    def _plain(self, text: str) -> str:
        if self._styled():
            width = self._width()
            if any(_cells(re.sub(r"\x1b\[[0-9;]*m", "", line)) > width
                   for line in text.split("\n")):
                raise NotPlain("Rich would wrap this line")
        return text

    def _width(self) -> int:
        try:
            return int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            pass
        try:
            return os.get_terminal_size(self.target.fileno()).columns
        except (OSError, ValueError):
            return 80
