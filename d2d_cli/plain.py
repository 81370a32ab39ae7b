"""A printer of one- or two-line markup, so a lookup does not import Rich (~28 ms).

Most views print a line or two of Rich markup (``[bold]Revealed:[/] Q♥ …``).
:class:`LineConsole` prints such a line itself when the result is certain: piped, the
text without its tags; on a plain terminal, a line that fits the width, each styled
stretch in the standard ANSI codes of its style words (bold, dim, italic, underline,
the eight colours and their bright forms). Everything else — a table, a panel, a line
that would wrap, a style or tag it does not know, a wide or control character, a
terminal Rich judges its own way — is printed by Rich itself, through a console made on
first use for the command's environment (d2d_cli/env.py). No Rich algorithm is copied
here. Neither prints ``:emoji:`` codes as emoji: text is printed as typed.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any, TextIO

from d2d_cli.inert import escape, inert  # noqa: F401 - escape: plain.escape, as before
from d2d_cli.rules.core import compiled_on_first_use

# The patterns are compiled on first use (~0.1 ms each): a command's output without a
# tag, a word to wrap or a control character never needs them (issue 40).
# The markup syntax (docs: rich.readthedocs.io "Console Markup"): a tag, an escaped tag.
_tags = compiled_on_first_use(r"((\\*)\[([a-z#/@][^[]*?)])")
# One tag opened first and closed over some text, nothing to escape (runs' short cut).
_one_tag = compiled_on_first_use(r"\[([a-z#][^[\]=]*)\]([^[\]\\]+)\[/\]([^[\]\\]*)\Z")
# A word and the spaces after it (the first: before it too).
_words = compiled_on_first_use(r" *[^ ]+ *")
_control_re = compiled_on_first_use(r"[\x00-\x09\x0b-\x1f\x7f]")


def _control(text: str) -> bool:
    """Whether ``text`` holds a C0 control character but newline (tab included), or DEL.
    Each is one str.isprintable refuses, so printable text (newlines aside) is let
    through without the pattern."""
    if text.isprintable() or text.replace("\n", "").isprintable():
        return False
    return _control_re().search(text) is not None


_ATTRIBUTES = {"bold": 1, "dim": 2, "italic": 3, "underline": 4}
_COLORS = {name: i for i, name in enumerate(
    ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"))}
_COLORS.update({f"bright_{name}": i + 8 for name, i in list(_COLORS.items())})

Run = tuple[str, tuple[str, ...]]


class NotPlain(Exception):
    """This text needs Rich itself."""




@functools.lru_cache(maxsize=256)
def _sgr(names: tuple[str, ...], color: bool) -> str:
    """The ANSI SGR parameters of these style words: attributes, then the colour."""
    attributes: set[int] = set()
    fg: int | None = None
    for name in names:
        for word in name.split():
            if word in _ATTRIBUTES:
                attributes.add(_ATTRIBUTES[word])
            elif word in _COLORS:
                fg = _COLORS[word]
            else:
                raise NotPlain(word)
    codes = [str(a) for a in sorted(attributes)]
    if fg is not None and color:
        codes.append(str(30 + fg) if fg < 8 else str(90 + fg - 8))
    return ";".join(codes)


@functools.lru_cache(maxsize=4096)
def runs(markup: str) -> tuple[Run, ...]:
    """Markup as stretches of text, each with the style words open over it. NotPlain for
    what needs Rich (an unknown style, a tag left open or closed out of order…).
    Remembered: ``d2d play`` repeats its lines."""
    if _control(markup):
        raise NotPlain("control character or tab")
    if "[" not in markup:  # no tag, no escape
        return ((markup, ()),) if markup else ()
    one = _one_tag().match(markup)
    if one is not None:  # "[bold]Goblin 5[/] → Archer": most lines with a tag
        tag, text, rest = one.groups()
        _sgr((tag,), True)  # an unknown style: Rich's business
        return ((text, (tag,)), (rest, ())) if rest else ((text, (tag,)),)
    return _parsed(markup)


def _parsed(markup: str) -> tuple[Run, ...]:
    """:func:`runs` of markup holding a tag or an escape, read tag by tag."""
    out: list[Run] = []
    stack: list[str] = []
    text: list[str] = []
    starts: list[int] = []  # where each open tag's text begins in ``out``

    def add(plain: str) -> None:
        text.append(plain)

    def close_run() -> None:
        if text:
            out.append(("".join(text), tuple(stack)))
            text.clear()

    position = 0
    for match in _tags().finditer(markup):
        full, escapes, tag = match.groups()
        start, end = match.span()
        if start > position:
            add(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                add("\\" * backslashes)
            if escaped:
                add(full[len(escapes):])
                continue
        if "=" in tag or tag.startswith("@"):
            raise NotPlain(tag)
        close_run()
        if tag.startswith("/"):
            name = " ".join(tag[1:].split()).lower()
            if not stack or name and " ".join(stack[-1].split()).lower() != name:
                raise NotPlain("a closing tag that does not close the last one opened")
            if len(out) == starts.pop():  # Rich's cut of a tag over nothing: its business
                raise NotPlain("a tag that holds no text")
            stack.pop()
        else:
            _sgr((tag,), True)  # an unknown style: Rich's business
            stack.append(tag)
            starts.append(len(out))
    if position < len(markup):
        add(markup[position:].replace("\\[", "["))
    if stack:
        raise NotPlain("a tag left open")
    close_run()
    return tuple((t, names) for t, names in out if t)


@functools.lru_cache(maxsize=4096)
def _cells(line: str) -> int:
    """Terminal cells of a line of text; NotPlain for a wide, combining or zero-width
    character (Rich measures those with its own tables)."""
    if line.isascii():
        return len(line)
    for ch in set(line).difference(_ASCII):  # each other character once ("→")
        if unicodedata.east_asian_width(ch) in "WF" or \
                unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            raise NotPlain("a character of another width")
    return len(line)


_ASCII = frozenset(map(chr, range(128)))


def cell_width(markup: str) -> int:
    """The terminal cells of markup's text; NotPlain for what only Rich can measure.
    Printable ASCII without a tag is its own text (a name, a stat: most cells); the rest
    is remembered: the dashboard measures each of its cells."""
    if "[" not in markup and markup.isascii() and markup.isprintable():
        return len(markup)
    return _cell_width(markup)


@functools.lru_cache(maxsize=8192)
def _cell_width(markup: str) -> int:
    return _cells("".join(t for t, _ in runs(markup)))


def _lines(pieces: list[Run]) -> list[list[Run]]:
    """Runs cut at each newline (every line's stretches are styled apart)."""
    if not any("\n" in text for text, _ in pieces):  # one line (most): as it is
        return [[(text, names) for text, names in pieces if text]]
    lines: list[list[Run]] = [[]]
    for text, names in pieces:
        for j, part in enumerate(text.split("\n")):
            if j:
                lines.append([])
            if part:
                lines[-1].append((part, names))
    return lines


def rich_console(env: Any, *, stderr: bool = False, file: TextIO | None = None,
                 soft_wrap: bool | None = None) -> Any:
    """A Rich console for the environment ``env`` (d2d_cli/env.py), printing to ``file``
    (default its stdout or stderr): Rich imported here, when first needed (httpie's
    ``_make_rich_console``)."""
    from rich.console import Console

    target = env.stderr if stderr else env.stdout
    terminal = env.terminal(target)
    # Into a buffer, styled for the stream the text is for; else Rich asks the stream.
    force = env.forced_styles
    if force is None and file is not None:
        force = terminal
    return Console(
        file=InertFile(file if file is not None else target),  # type: ignore[arg-type]
        highlight=False,
        no_color=not env.colors, soft_wrap=not terminal if soft_wrap is None else soft_wrap,
        force_terminal=force, width=env.width,
        # Text is printed as typed: d2d's markup holds no :emoji: codes, and a name or an
        # event a user typed with colons ("Restrict:Bind:4", ":x:") stays as it is.
        emoji=False,
    )


class InertFile:
    """A stream that writes text :func:`inert` (d2d's own styles kept): the boundary
    every human view's output crosses, Rich's included."""

    def __init__(self, file: TextIO) -> None:
        self._inert_file = file

    def write(self, text: str) -> int:
        return self._inert_file.write(inert(text, keep_styles=True))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inert_file, name)


def _wrapped(pieces: list[Run], width: int) -> list[list[Run]]:
    """A cell's stretches cut into lines of at most ``width`` cells at its spaces, first
    fit: a word goes on the line while its letters fit (the spaces after it may run
    past the edge: the caller trims them). NotPlain for a word longer than a line."""
    text = "".join(t for t, _ in pieces)
    if len(text) <= width:  # it fits: no word is cut (most cells of a table)
        return [pieces]
    cuts: list[int] = []
    used = 0
    for word in _words().finditer(text):
        letters = len(word.group().rstrip(" "))
        if letters > width:
            raise NotPlain("a word to cut")
        if used and letters > width - used:
            cuts.append(word.start())
            used = 0
        used += len(word.group())
    lines: list[list[Run]] = [[]]
    at = 0  # where the piece starts in ``text``
    for piece, names in pieces:
        end = at + len(piece)
        while cuts and cuts[0] < end:  # a cut inside this piece (never at its start 0)
            cut = cuts.pop(0)
            if cut > at:
                lines[-1].append((piece[:cut - at], names))
                piece, at = piece[cut - at:], cut
            lines.append([])
        if piece:
            lines[-1].append((piece, names))
        at = end
    return lines


def _wrap(line: list[Run], width: int) -> list[list[Run]]:
    """A printed line wider than the console, as it wraps: cut first fit at its spaces
    (:func:`_wrapped`), each part's spaces past the edge trimmed, no padding — what a
    terminal shows of Rich's wrapped text (tests/test_plain.py compares them). NotPlain
    for a word longer than the line, or white space other than a space (Rich cuts at
    any)."""
    text = "".join(t for t, _ in line)
    if _cells(text) <= width:
        return [line]
    if any(ch.isspace() and ch != " " for ch in text):
        raise NotPlain("white space other than a space")
    out = []
    for part in _wrapped(line, width):
        over = sum(len(t) for t, _ in part) - width
        while over > 0 and part and part[-1][0].endswith(" "):
            text, names = part[-1]
            keep = text[:max(len(text) - over, len(text.rstrip(" ")))]
            over -= len(text) - len(keep)
            part[-1:] = [(keep, names)] if keep else []
            if keep:
                break
        out.append(part)
    return out


def _justified(line: list[Run], width: int, justify: str,
               base: tuple[str, ...]) -> list[Run]:
    """A line of a cell padded to ``width``: left justified, the spaces past the edge
    trimmed; right justified, every space at its end trimmed."""
    line = [(t, base + names) for t, names in line] if base else list(line)
    used = sum(len(t) for t, _ in line)
    if used <= width and (justify != "right" or not line or not line[-1][0].endswith(" ")):
        if used < width:  # nothing to trim (most cells): padded
            line.insert(0 if justify == "right" else len(line), (" " * (width - used), base))
        if base:
            return [("".join(t for t, _ in line), base)]
        return line
    while line:
        text, names = line[-1]
        used = sum(len(t) for t, _ in line)
        keep = text.rstrip(" ") if justify == "right" else \
            text[:max(len(text) - (used - width), len(text.rstrip(" ")))]
        if keep == text:
            break
        line[-1:] = [(keep, names)] if keep else []
        if keep:
            break
    room = width - sum(len(t) for t, _ in line)
    if room:
        line.insert(0 if justify == "right" else len(line), (" " * room, base))
    if base:  # a header's text and its padding are one stretch of the header's style
        return [("".join(t for t, _ in line), base)]
    return line


def table_lines(table: Any, width: int) -> list[list[Run]]:
    """A table of the views (d2d_cli/layout.py :class:`Table`) drawn line by line as its
    plan says (``Table.fitted``): as designed when it fits, each column as wide as its
    widest cell, one space of padding each side of a cell (none at the outer edges
    without ``pad_edge``); else at the planned widths, cells wrapped at their spaces,
    with two spaces between columns or one. The header is bold. NotPlain for what only
    Rich draws: a box, a title, a column style, a centred column, a row of another
    length, a header with markup, a cell that begins or ends with a space or cannot be
    measured here, a word longer than its column, a header that wraps, a table stacked
    at this width."""
    if table.box is not None or table.title:
        raise NotPlain("a box or a title")
    columns = table.columns
    if not columns or any(style or justify not in ("left", "right")
                          for _, justify, style in columns):
        raise NotPlain("a column style or a centred column")
    rows = [tuple(row) for row in table.rows]
    if any(len(row) != len(columns) for row in rows):
        raise NotPlain("a row of another length")
    headers = [h for h, _, _ in columns]
    if table.show_header and any(h and runs(h) != ((h, ()),) for h in headers):
        raise NotPlain("a header with markup")
    texts = ([headers] if table.show_header else []) + rows
    for row in texts:
        for cell in row:
            if not isinstance(cell, str) or cell != cell.strip(" "):
                raise NotPlain("a cell Rich trims")
    ranges = table.plain_ranges()
    natural = sum(high + 2 for _, high in ranges) - (0 if table.pad_edge else 2)
    highs = [max(cell_width(row[n]) for row in texts) if texts else 0
             for n in range(len(columns))]
    if not all(highs):
        raise NotPlain("an empty column")
    if natural <= width:
        tight, widths, pad_edge = False, highs, table.pad_edge
    elif not rows:
        raise NotPlain("a header to narrow")
    else:
        fitted = table.fitted(width, ranges)
        if fitted is None:
            raise NotPlain("a table stacked")
        tight, widths = fitted
        pad_edge = True if tight else table.pad_edge
    last = len(columns) - 1
    out = []
    for r, row in enumerate(texts):
        base: tuple[str, ...] = ("bold",) if table.show_header and r == 0 else ()
        # The name column never wraps (its width is its widest name); the others do.
        cells = [[list(runs(cell))] if n == table.name else _wrapped(list(runs(cell)), widths[n])
                 for n, cell in enumerate(row)]
        if base and any(len(c) > 1 for c in cells):
            raise NotPlain("a header over lines")  # aligned unalike by Rich's versions
        for i in range(max(len(c) for c in cells)):
            line: list[Run] = []
            for n, cell_lines in enumerate(cells):
                if not tight and (n or pad_edge):
                    line.append((" ", base))
                part = cell_lines[i] if i < len(cell_lines) else []
                line += _justified(part, widths[n], columns[n][1], base)
                if n < last or pad_edge:
                    line.append((" ", base))
            out.append(line)
    return out


@functools.lru_cache(maxsize=8192)
def _line(objects: tuple[str, ...], sep: str, end: str, styled: bool, color: bool,
          width: int | None) -> str | None:
    """Markup as it prints, made inert (the output's boundary), or None where Rich must
    print it. ``width``: the console's, when a line wider than it would wrap (None: it
    would not). Remembered: ``d2d play``'s dashboard prints the same hundreds of lines
    at each call."""
    try:
        return inert(_text(objects, sep, end, styled, color, width), keep_styles=True)
    except NotPlain:
        return None


def _text(objects: tuple[str, ...], sep: str, end: str, styled: bool, color: bool,
          width: int | None) -> str:
    """The markup as it prints, or NotPlain."""
    if not styled and end == "\n" and sep == " " and len(objects) == 1:
        # One object's line without styles (a piped dashboard's ~4,000): its runs'
        # text, as the general way below writes it, without cutting it into lines
        # first — the same checks in the same order, and a line wider than ``width``
        # is left to that way.
        text = "".join([t for t, _ in runs(objects[0])])
        if "\n" not in text:
            if text.endswith(" "):
                raise NotPlain("a line ending in a space")
            if width is None or _cells(text) <= width:
                return text + end
    if _control(sep + end):
        raise NotPlain("control character")
    pieces: list[Run] = []
    for i, o in enumerate(objects):
        if i and sep:
            pieces.append((sep, ()))
        pieces += runs(o)
    lines = _lines(pieces)
    if any(line and line[-1][0].endswith(" ") for line in lines):
        raise NotPlain("a line ending in a space")  # Rich's versions trim it unalike
    if width is not None and any(_cells("".join(t for t, _ in line)) > width
                                 for line in lines):
        lines = [part for line in lines for part in _wrap(line, width)]
        if not styled:
            return "\n".join("".join(t for t, _ in line) for line in lines) + end
    elif not styled:
        return "".join(t for t, _ in pieces) + end
    out = []
    for line in lines:
        drawn = []
        for text, names in line:
            sgr = _sgr(names, color)
            drawn.append(f"\x1b[{sgr}m{text}\x1b[0m" if sgr else text)
        out.append("".join(drawn))
    return "\n".join(out) + end


class LineConsole:
    """``con.print(markup)`` for the human views: a plain line printed here, anything
    else (a table, a panel, a line to wrap) by a Rich console made on first use."""

    def __init__(self, env: Any, *, stderr: bool = False,
                 file: TextIO | None = None) -> None:
        """``env``: the command's Environment (d2d_cli/env.py: streams, width, styles).
        ``file``: a buffer to write into (default: the environment's stdout or stderr);
        styles and width are those of the stream the text is for."""
        self._env = env
        self._stderr = stderr
        self._file = file
        self._rich: Any = None
        self._soft_wrap: bool | None = None
        # Asked once per console (one command's output: the dashboard prints hundreds).
        self._styled: tuple[bool | None] | None = None
        self._width: int | None = None
        self._color: bool | None = None

    @property
    def target(self) -> TextIO:
        """The stream the output is for."""
        return self._env.stderr if self._stderr else self._env.stdout

    @property
    def file(self) -> TextIO:
        return InertFile(self._file if self._file is not None else self.target)  # type: ignore[return-value]

    @property
    def width(self) -> int:
        if self._width is None:
            self._width = self._env.width
        return self._width

    def _styles(self) -> bool | None:
        if self._styled is None:
            self._styled = (self._env.styled(self.target),)
        return self._styled[0]

    @property
    def soft_wrap(self) -> bool:
        if self._soft_wrap is None:
            return not self._terminal()
        return self._soft_wrap

    @soft_wrap.setter
    def soft_wrap(self, value: bool) -> None:
        """``soft_wrap = False``: wrap at the width even when piped (the dashboard)."""
        self._soft_wrap = value
        if self._rich is not None:
            self._rich.soft_wrap = value

    @property
    def rich(self) -> Any:
        """The Rich console, made on first use."""
        if self._rich is None:
            self._rich = rich_console(self._env, stderr=self._stderr, file=self._file,
                                      soft_wrap=self._soft_wrap)
        return self._rich

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", **options: Any) -> None:
        if not options and objects:
            text = self._plain(objects, sep, end)
            if text is not None:
                raw = self._file if self._file is not None else self.target
                raw.write(text)  # made inert already (_line)
                raw.flush()
                return
        self.rich.print(*objects, sep=sep, end=end, **options)

    def print_lines(self, items: list[Any]) -> None:
        """``print(item)`` for each of ``items`` (markup, or a ``layout.Indented``), the
        same output in the same order, written at once: the dashboard's blocks are
        hundreds of lines. What Rich must print is printed by Rich in its place."""
        styled = self._styles()
        if styled is None:  # a terminal Rich judges its own way: each item as print does
            for item in items:
                self.print(item)
            return
        color, width = self._colors(), self.width
        wrap_at = width if styled or not self.soft_wrap else None
        raw = self._file if self._file is not None else self.target
        done: list[str] = []
        # Each indented line's text once a call (the dashboard's blocks repeat their
        # stat and token lines unit after unit); None: Rich's.
        seen: dict[tuple[int, str], str | None] = {}
        for item in items:
            text: str | None = None
            if isinstance(item, str):
                text = _line((item,), " ", "\n", styled, color, wrap_at)
            elif (indented := getattr(item, "indented", None)) is not None:
                if indented in seen:
                    text = seen[indented]
                else:
                    left, markup = indented  # layout.Indented, as _plain takes it
                    try:  # what wraps is Rich's (its Padding indents each line)
                        fits = "\n" not in markup and left + cell_width(markup) <= width
                    except NotPlain:
                        fits = False
                    if fits:
                        text = _line((" " * left + markup,), " ", "\n", styled, color,
                                     width)
                    seen[indented] = text
            else:
                text = self._plain((item,), " ", "\n")
            if text is None:  # Rich's: what came before it is written first
                if done:
                    raw.write("".join(done))
                    done.clear()
                self.print(item)
            else:
                done.append(text)
        if done:
            raw.write("".join(done))
        raw.flush()

    def _plain(self, objects: tuple[Any, ...], sep: str, end: str) -> str | None:
        """What :meth:`print` prints without Rich, inert; None: Rich's business."""
        styled = self._styles()
        if styled is None:  # a terminal Rich judges its own way
            return None
        first = objects[0]
        if len(objects) == 1 and not isinstance(first, str):
            indented = getattr(first, "indented", None)
            if indented is not None:  # layout.Indented: a line that fits
                left, markup = indented
                try:  # what wraps is indented and padded by Rich's Padding: Rich's
                    if "\n" in markup or left + cell_width(markup) > self.width:
                        return None
                except NotPlain:
                    return None
                return _line((" " * left + markup,), sep, end, styled, self._colors(),
                             self.width)
            if getattr(first, "plain_table", False):  # layout.Table: drawn here
                try:
                    return inert(self._table(first, end), keep_styles=True)
                except NotPlain:
                    return None
            return None
        if not all(isinstance(o, str) for o in objects):
            return None
        # Rich would wrap a line wider than the console: on a terminal, or told to
        return _line(objects, sep, end, styled, self._colors(),
                     self.width if styled or not self.soft_wrap else None)

    def _colors(self) -> bool:
        if self._color is None:
            self._color = bool(self._env.colors)
        return self._color

    def out(self, *objects: Any, sep: str = " ", end: str = "\n",
            highlight: bool | None = None) -> None:
        """As Rich's ``Console.out``: text as it is, no markup, never wrapped."""
        text = sep.join(str(o) for o in objects)
        if highlight or _control(text + end):
            self.rich.out(*objects, sep=sep, end=end, highlight=highlight)
            return
        self.file.write(text + end)
        self.file.flush()

    def __getattr__(self, name: str) -> Any:  # anything else a view asks: Rich's
        return getattr(self.rich, name)

    def _terminal(self) -> bool:
        return bool(self._env.terminal(self.target))

    def _table(self, table: Any, end: str) -> str:
        """A layout.Table as it prints, or NotPlain."""
        styled = self._styles()
        if styled is None or _control(end):
            raise NotPlain("a terminal Rich judges its own way")
        lines = table_lines(table, self.width)
        return "\n".join(self._drawn(line, styled) for line in lines) + end

    def _drawn(self, line: list[Run], styled: bool) -> str:
        """A line of stretches: text alone, or each styled stretch in its ANSI codes."""
        if not styled:
            return "".join(t for t, _ in line)
        color = self._colors()
        drawn = []
        for text, names in line:
            sgr = _sgr(names, color) if names else ""
            drawn.append(f"\x1b[{sgr}m{text}\x1b[0m" if sgr else text)
        return "".join(drawn)
