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

import functools
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

# Rich's own patterns (rich.markup): a tag, and the escape of a tag-like text.
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
_EMOJI = re.compile(r":(\S*?)(?:(?:\-)(?:emoji|text))?:")  # Rich's pattern of an :emoji:
# Rich's emoji names all hold a letter but these: a "12:05:30" is never one.
_DIGIT_EMOJI = frozenset({"100", "1234", "+1", "-1", "__1"})


def _emoji(name: str) -> bool:
    """Rich would print this ``:name:`` as an emoji (its table: ~2 ms, not a console).
    Without that table (a Rich that moved it), every candidate is Rich's to print."""
    try:
        from rich._emoji_codes import EMOJI
    except ImportError:
        return True
    return name in EMOJI
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


def _style(names: Sequence[str]) -> tuple[frozenset[int], int | None]:
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


@functools.lru_cache(maxsize=256)
def _sgr(names: tuple[str, ...], color: bool) -> str:
    """Rich's SGR parameters for these styles (attributes in order, then the colour)."""
    attributes, fg = _style(names)
    codes = [str(a) for a in sorted(attributes)]
    if fg is not None and color:
        codes.append(str(30 + fg) if fg < 8 else str(90 + fg - 8))
    return ";".join(codes)


def render(markup: str, *, styles: bool, color: bool = True) -> str:
    """Markup as Rich prints it: the text, with SGR codes when ``styles`` (a terminal),
    colours dropped unless ``color`` (NO_COLOR). Raises NotPlain for what needs Rich."""
    return "\n".join("".join(_segment(text, names, styles, color) for text, names in line)
                     for line in _split_lines(_runs(markup)))


def _segment(text: str, names: list[str] | tuple[str, ...], styles: bool, color: bool) -> str:
    """One segment as Rich writes it: raw when unstyled, else wrapped in its SGR codes."""
    sgr = _sgr(tuple(names), color) if styles else ""
    return f"\x1b[{sgr}m{text}\x1b[0m" if sgr else text


def _runs(markup: str) -> list[tuple[str, tuple[str, ...]]]:
    """Markup as Rich's segments: (text, the styles open over it), one per stretch
    between two tags. Raises NotPlain for what needs Rich. Remembered: a table repeats
    its cells ("—", "3x1"), and ``d2d play`` its lines."""
    return list(_parse(markup))


@functools.lru_cache(maxsize=4096)
def _parse(markup: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if _CONTROL.search(markup):
        raise NotPlain("control character or tab")
    if "[" not in markup and ":" not in markup:  # no tag, no escape, no emoji
        return ((markup, ()),) if markup else ()
    out: list[tuple[str, tuple[str, ...]]] = []
    stack: list[str] = []
    run: list[str] = []  # text since the last tag: one segment, as Rich yields it

    def text(plain: str) -> None:
        if "\\" in plain:
            plain = plain.replace("\\[", "[")
        if ":" in plain:
            for match in _EMOJI.finditer(plain):
                name = match.group(1).lower()
                if name in _DIGIT_EMOJI or any("a" <= ch <= "z" for ch in name) and \
                        _emoji(name):
                    raise NotPlain("emoji code")
        run.append(plain)

    def flush() -> None:
        segment = "".join(run)
        run.clear()
        if segment:
            out.append((segment, tuple(stack)))

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
    return tuple(out)


@functools.lru_cache(maxsize=4096)
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


class Table:
    """A table of columns, drawn as Rich's ``Table`` draws it (no box, or Rich's default
    box) but without importing Rich (~25 ms a command): widths, padding, justification,
    a title, and a table too wide for the console narrowed and its cells wrapped as Rich
    does. Anything else (another box, a cell of several lines, markup :func:`render` does
    not know) is drawn by Rich itself from :meth:`__rich__`, so a Rich console prints
    one as well.

    ``Table("Unit", "Body", box=None)``, ``add_column(header, justify=, style=)``,
    ``add_row(*cells)``: the subset of Rich's API the views use, same names."""

    def __init__(self, *headers: str, box: Any = "default", title: str | None = None,
                 title_justify: str = "center", show_header: bool = True,
                 pad_edge: bool = True) -> None:
        self.box = box
        self.title = title
        self.title_justify = title_justify
        self.show_header = show_header
        self.pad_edge = pad_edge
        self.columns: list[tuple[str, str, str | None]] = []
        self.rows: list[tuple[str, ...]] = []
        self._parsed: tuple[tuple[int, int, bool], Any] | None = None
        for header in headers:
            self.add_column(header)

    def add_column(self, header: str = "", justify: str = "left",
                   style: str | None = None) -> None:
        self.columns.append((header, justify, style))

    def add_row(self, *cells: str) -> None:
        self.rows.append(cells)

    def __rich__(self) -> Any:
        from rich.table import Table as RichTable

        kwargs: dict[str, Any] = {} if self.box == "default" else {"box": self.box}
        t = RichTable(title=self.title, title_justify=self.title_justify,  # type: ignore[arg-type]
                      show_header=self.show_header, pad_edge=self.pad_edge, **kwargs)
        for header, justify, style in self.columns:
            t.add_column(header, justify=justify, style=style)  # type: ignore[arg-type]
        for row in self.rows:
            t.add_row(*row)
        return t

    def _pads(self, index: int) -> tuple[int, int]:
        last = len(self.columns) - 1
        if self.pad_edge:
            return 1, 1
        return (0 if index == 0 else 1), (0 if index == last else 1)

    def _cells(self) -> list[list[list[tuple[str, tuple[str, ...]]]]]:
        """Each row's cells as segments (the header first, when shown); parsed once."""
        key = (len(self.columns), len(self.rows), self.show_header)
        if self._parsed is not None and self._parsed[0] == key:
            return self._parsed[1]
        rows = ([tuple(h for h, _, _ in self.columns)] if self.show_header else [])
        rows += [tuple(r) + ("",) * (len(self.columns) - len(r)) for r in self.rows]
        if any(len(r) != len(self.columns) for r in rows):
            raise NotPlain("more cells than columns")
        parsed = [[_runs(cell) for cell in row] for row in rows]
        self._parsed = (key, parsed)
        return parsed

    def _measures(self) -> list[int]:
        """Each column's widest cell with its padding (Rich's column measure maximum)."""
        cells = self._cells()
        out = []
        for i in range(len(self.columns)):
            left, right = self._pads(i)
            widest = max((_cells("".join(t for t, _ in row[i])) for row in cells), default=0)
            out.append(widest + left + right)
        return out

    def widths(self) -> list[int]:
        """Each column's width with its padding, as Rich lays it out with room to spare."""
        return [w or 1 for w in self._measures()]

    def natural_width(self) -> int:
        """The width the table takes when nothing has to wrap (Rich's measure maximum)."""
        return sum(self._measures()) + (len(self.columns) + 1 if self.box is not None else 0)

    def lines(self, width: int, styles: bool, color: bool) -> list[str]:
        """The table as Rich draws it at this console width (columns narrowed and cells
        wrapped as Rich does when it is too wide); NotPlain when Rich must draw it."""
        boxed = self.box is not None
        if boxed and (self.box != "default" or not self.show_header or not self.pad_edge):
            raise NotPlain("a box other than Rich's default")
        if any(ch == "\n" for row in self.rows for cell in row for ch in cell):
            raise NotPlain("a cell of several lines")
        cells, widths = self._cells(), self.widths()
        if any(w - sum(self._pads(i)) < 1 for i, w in enumerate(widths)):
            raise NotPlain("an empty column")  # Rich draws those its own way
        extra = len(widths) + 1 if boxed else 0
        if sum(widths) > width - extra:  # rich.table.Table._calculate_column_widths
            widths = _collapse(widths, width - extra)
            if sum(widths) > width - extra:
                widths = _ratio_reduce(sum(widths) - (width - extra), [1] * len(widths),
                                       widths, widths)
            if any(w - sum(self._pads(i)) < 1 for i, w in enumerate(widths)):
                raise NotPlain("a column narrowed to nothing")
        total = sum(widths) + extra
        out: list[str] = []
        if self.title is not None:
            out.append(self._title(total, styles, color))
        for r, row in enumerate(cells):
            header = self.show_header and r == 0
            drawn = [self._cell(i, runs, widths[i], header, styles, color)
                     for i, runs in enumerate(row)]
            height = max(len(lines) for lines in drawn)
            for i, lines in enumerate(drawn):  # blank lines: below, or above a header
                _, _, style = self.columns[i]
                base = ("bold",) if header else ((style,) if style else ())
                blank = [_segment(" " * widths[i], base, styles, color)] * (height - len(lines))
                drawn[i] = blank + lines if header else lines + blank
            if boxed and header:  # Rich's default box, HEAVY_HEAD
                out.append("┏" + "┳".join("━" * w for w in widths) + "┓")
            bar = ("┃" if header else "│") if boxed else ""
            for k in range(height):
                out.append(bar + bar.join(lines[k] for lines in drawn) + bar)
            if boxed and header:
                out.append("┡" + "╇".join("━" * w for w in widths) + "┩")
        if boxed:
            out.append("└" + "┴".join("─" * w for w in widths) + "┘")
        return out

    def _cell(self, i: int, runs: list[Run], width: int, header: bool, styles: bool,
              color: bool) -> list[str]:
        """One cell's lines at its column's width: wrapped, justified, padded."""
        _, justify, style = self.columns[i]
        base = ("bold",) if header else ((style,) if style else ())
        left, right = self._pads(i)
        out = []
        for piece in _fit(runs, width - left - right, justify, base):
            line = [_segment(" " * left, base, styles, color)] if left else []
            line += [_segment(t, names, styles, color) for t, names in piece]
            if right:
                line.append(_segment(" " * right, base, styles, color))
            out.append("".join(line))
        return out

    def _title(self, total: int, styles: bool, color: bool) -> str:
        assert self.title is not None
        runs = _runs(self.title)
        if not styles:  # Rich prints a piped table's title as it is
            return "".join(t for t, _ in runs)
        if len(runs) > 1 or (runs and runs[0][1]):
            raise NotPlain("a title with markup")
        text = runs[0][0] if runs else ""
        spare = total - _cells(text)
        if spare < 0:
            raise NotPlain("a title wider than its table")
        if self.title_justify == "left":
            text += " " * spare
        elif self.title_justify == "center":
            text = " " * (spare // 2) + text + " " * (spare - spare // 2)
        else:
            raise NotPlain(f"title_justify={self.title_justify}")
        return _segment(text, ("italic",), styles, color)


class Indented:
    """A line indented by ``left`` spaces, as Rich's ``Padding(line, (0, 0, 0, left))``
    draws it (padded to the console's width), without Rich when it fits on one line."""

    def __init__(self, line: str, left: int) -> None:
        self.line = line
        self.left = left

    def __rich__(self) -> Any:
        from rich.padding import Padding

        return Padding(self.line, (0, 0, 0, self.left))

    def lines(self, width: int, styles: bool, color: bool) -> list[str]:
        runs = _runs(self.line)
        fill = width - self.left - _cells("".join(t for t, _ in runs))
        if "\n" in self.line or fill < 0:
            raise NotPlain("Rich would wrap this line")
        return [" " * self.left + "".join(_segment(t, names, styles, color)
                                          for t, names in runs) + " " * fill]


class Panel:
    """Rows (tables and lines of markup) in a rounded box with a title, as Rich's
    ``Panel(Table.grid() of the rows, title=…, expand=False)`` draws them; without Rich
    when nothing has to wrap (the character sheet)."""

    def __init__(self, rows: list[Table | str], title: str) -> None:
        self.rows = rows
        self.title = title

    def __rich__(self) -> Any:
        from rich.panel import Panel as RichPanel
        from rich.table import Table as RichTable

        grid = RichTable.grid()
        for row in self.rows:
            grid.add_row(row.__rich__() if isinstance(row, Table) else row)
        return RichPanel(grid, title=self.title, expand=False)

    def lines(self, width: int, styles: bool, color: bool) -> list[str]:
        naturals = [row.natural_width() if isinstance(row, Table)
                    else _cells("".join(t for t, _ in _runs(row))) for row in self.rows]
        title = _runs(self.title)
        title_len = _cells("".join(t for t, _ in title)) + 2  # Rich pads it by one a side
        if title_len + 4 > width:
            raise NotPlain("Rich would cut this title")
        # Rich's Panel: as wide as its rows and title, at most the console; the rows are
        # a Table.grid (no padding), whose one column wraps what does not fit.
        child = min(width - 2, max(max(naturals, default=0) + 2, title_len + 2))
        column = min(max(naturals, default=0), child - 2)
        body: list[str] = []
        for row, natural in zip(self.rows, naturals, strict=True):
            if isinstance(row, Table):
                if row.box is not None or natural > column:
                    raise NotPlain("a table in a panel that does not fit it")
                body += [line + " " * (column - natural)
                         for line in row.lines(width, styles, color)]
            else:
                if "\n" in row:
                    raise NotPlain("a row of several lines")
                body += [_paint(piece, styles, color)
                         for piece in _fit(_runs(row), column, "left", ())]
        spare = child - 2 - title_len
        top = ("╭─" + "─" * (spare // 2) + " " + _paint(title, styles, color) + " "
               + "─" * (spare - spare // 2) + "─╮")
        out = [top]
        out += [f"│ {line}{' ' * (child - 2 - column)} │" for line in body]
        out.append("╰" + "─" * child + "╯")
        return out


def _paint(runs: list[tuple[str, tuple[str, ...]]], styles: bool, color: bool) -> str:
    return "".join(_segment(t, names, styles, color) for t, names in runs)


def _crop(runs: list[Run], width: int) -> list[Run]:
    """The first ``width`` characters of the runs (all one cell wide: see _cells)."""
    out: list[Run] = []
    for text, names in runs:
        if width <= 0:
            break
        out.append((text[:width], names))
        width -= len(text[:width])
    return [(t, n) for t, n in out if t]


def _fit(runs: list[Run], width: int, justify: str, base: tuple[str, ...]) -> list[list[Run]]:
    """A cell's text as Rich lays it out at ``width`` (a column's overflow="ellipsis"):
    wrapped at words, a word too long cut with "…", justified with ``base``'s spaces."""
    runs = [(t, base + names) for t, names in runs]
    out = []
    for piece in _wrap(runs, width, fold=False):
        if justify == "right":  # Rich strips the right end before it justifies
            while piece and piece[-1][0].endswith(" "):
                stripped = piece[-1][0].rstrip(" ")
                piece[-1:] = [(stripped, piece[-1][1])] if stripped else []
        if _cells("".join(t for t, _ in piece)) > width:  # a word too long: cut, "…"
            # Rich trims the spans to the new end: "…" takes the styles over the first
            # character it replaces.
            piece = _join(_crop(piece, width - 1) + [("…", _names_at(piece, width - 1,
                                                                     base))])
        fill = width - _cells("".join(t for t, _ in piece))
        if fill:
            if justify == "right":
                piece = _join([(" " * fill, base)] + piece)
            elif justify == "left":
                piece = _join(piece + [(" " * fill, base)])
            else:
                raise NotPlain(f"justify={justify}")
        out.append(piece)
    return out


def _names_at(runs: list[Run], index: int, default: tuple[str, ...]) -> tuple[str, ...]:
    """The styles over the character at ``index`` of the runs."""
    for text, names in runs:
        if index < len(text):
            return names
        index -= len(text)
    return default


def _collapse(widths: list[int], most: int) -> list[int]:
    """Rich's Table._collapse_widths (every column wrapable): the widest columns
    narrowed together until the table fits, or no column is wider than another."""
    excess = sum(widths) - most
    while sum(widths) and excess > 0:
        widest = max(widths)
        second = max((w for w in widths if w != widest), default=0)
        ratios = [1 if w == widest else 0 for w in widths]
        if not widest - second:
            break
        widths = _ratio_reduce(excess, ratios, [min(excess, widest - second)] * len(widths),
                               widths)
        excess = sum(widths) - most
    return widths


def _ratio_reduce(total: int, ratios: list[int], maximums: list[int],
                  values: list[int]) -> list[int]:
    """rich._ratio.ratio_reduce: ``total`` taken from ``values`` in proportion to
    ``ratios``, at most ``maximums``."""
    ratios = [ratio if most else 0 for ratio, most in zip(ratios, maximums, strict=True)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return values[:]
    remaining = total
    out: list[int] = []
    for ratio, most, value in zip(ratios, maximums, values, strict=True):
        if ratio and total_ratio > 0:
            given = min(most, round(ratio * remaining / total_ratio))
            out.append(value - given)
            remaining -= given
            total_ratio -= ratio
        else:
            out.append(value)
    return out


def _join(runs: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, tuple[str, ...]]]:
    """Neighbouring runs of one style as one segment (Rich pads a text within its span)."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for text, names in runs:
        if out and out[-1][1] == names:
            out[-1] = (out[-1][0] + text, names)
        else:
            out.append((text, names))
    return out


Run = tuple[str, tuple[str, ...]]


def _split_lines(runs: list[Run]) -> list[list[Run]]:
    """Runs cut at each newline: Rich styles every line's segments apart."""
    lines: list[list[Run]] = [[]]
    for text, names in runs:
        for j, part in enumerate(text.split("\n")):
            if j:
                lines.append([])
            if part:
                lines[-1].append((part, names))
    return lines


def _cut(line: list[Run], offsets: list[int]) -> list[list[Run]]:
    """A line's runs cut at these character offsets."""
    out: list[list[Run]] = [[]]
    position, cuts = 0, list(offsets)
    for text, names in line:
        while cuts and cuts[0] < position + len(text):
            head, text = text[:cuts[0] - position], text[cuts[0] - position:]
            if head:
                out[-1].append((head, names))
            position += len(head)
            out.append([])
            cuts.pop(0)
        if text:
            out[-1].append((text, names))
        position += len(text)
    return out


def _wrap(line: list[Run], width: int, fold: bool = True) -> list[list[Run]]:
    """One line wrapped as Rich wraps text (rich._wrap.divide_line, a word longer than
    the width folded, then each piece's whitespace beyond the width dropped). NotPlain
    for characters Rich measures itself."""
    plain = "".join(t for t, _ in line)
    if _cells(plain) <= width:
        return [line]
    if width < 1:
        raise NotPlain("no room to wrap into")
    offsets: list[int] = []
    used = 0
    for match in re.finditer(r"\s*\S+\s*", plain):  # rich._wrap's words
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - used >= length:
            used += len(word)
        elif length > width and not fold:  # a table cell: cut with "…" (see Table._cell)
            if start:
                offsets.append(start)
            used = len(word)
        elif length > width:  # folded: cut every `width` characters (all one cell wide)
            folded = [word[i:i + width] for i in range(0, len(word), width)]
            for k, chunk in enumerate(folded):
                if start:
                    offsets.append(start)
                if k == len(folded) - 1:
                    used = len(chunk)
                else:
                    start += len(chunk)
        elif used and start:
            offsets.append(start)
            used = len(word)
    pieces = _cut(line, offsets)
    for piece in pieces:
        text = "".join(t for t, _ in piece)
        trailing = re.search(r"\s+$", text)
        excess = len(text) - width
        if excess > 0 and trailing:
            drop = min(len(trailing.group(0)), excess)
            while drop:
                last, names = piece[-1]
                keep = last[:max(len(last) - drop, 0)]
                drop -= len(last) - len(keep)
                piece[-1:] = [(keep, names)] if keep else []
    return pieces


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
        self._known_width: int | None = None
        self._known_styled: bool | None = None

    @property
    def soft_wrap(self) -> bool:
        return not self._wrap_always

    @soft_wrap.setter
    def soft_wrap(self, value: bool) -> None:
        """``soft_wrap = False``: a view wants Rich to wrap at the width even when piped
        (the dashboard): a line wider than the console then goes through Rich."""
        self._wrap_always = not value
        if self._rich is not None:
            self._rich.soft_wrap = value

    @property
    def width(self) -> int:
        """The console's width, as Rich's would be (without making one)."""
        if self._rich is None:
            try:
                return self._rich_width()
            except NotPlain:
                pass
        return int(self.rich.width)

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
                soft_wrap=not tty and not self._wrap_always,
                force_terminal=tty if buffered else None,
                width=self._width() if tty and buffered else None,
            )
        return self._rich

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", **options: Any) -> None:
        if not options and len(objects) == 1 and isinstance(objects[0],
                                                             (Table, Indented, Panel)):
            try:
                if not (getattr(self.file, "encoding", None) or "utf-8").lower().startswith(
                        "utf"):
                    raise NotPlain("Rich draws boxes and bars in ASCII here")
                styled = self._styled()
                lines = objects[0].lines(self._rich_width(), styled,
                                         not os.environ.get("NO_COLOR"))
            except NotPlain:
                pass
            else:
                self.file.write("".join(line + "\n" for line in lines))
                self.file.flush()
                return
        if not options and all(isinstance(o, str) for o in objects):
            try:
                text = self._text(objects, sep) + end
            except NotPlain:
                pass
            else:
                self.file.write(text)
                self.file.flush()
                return
        self.rich.print(*objects, sep=sep, end=end, **options)

    def out(self, *objects: Any, sep: str = " ", end: str = "\n",
            highlight: bool | None = None) -> None:
        """Rich's ``Console.out``: text as it is, no markup, never wrapped."""
        text = sep.join(str(o) for o in objects)
        if highlight or any(ch < " " and ch != "\n" or ch == "\x7f" for ch in text):
            self.rich.out(*objects, sep=sep, end=end, highlight=highlight)
            return
        self.file.write(text + end)
        self.file.flush()

    def __getattr__(self, name: str) -> Any:  # anything else a view asks: Rich's
        return getattr(self.rich, name)

    # Rich's choices, mirrored: styles only on a terminal Rich would style.
    def _styled(self) -> bool:
        """Rich would style this output (asked once per console: one command's output)."""
        if self._known_styled is None:
            self._known_styled = self._find_styled()
        return self._known_styled

    def _find_styled(self) -> bool:
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

    def _text(self, objects: tuple[Any, ...], sep: str) -> str:
        """Strings of markup as Rich prints them: on a terminal (or when the view asked
        for it) wrapped at the width as Rich wraps, each line's segments styled apart."""
        runs: list[Run] = []
        for i, o in enumerate(objects):
            if i and sep:
                runs.append((sep, ()))
            runs += _runs(o)
        styled = self._styled()
        if not styled and not self._wrap_always:
            return "".join(t for t, _ in runs)
        width = self._rich_width()
        color = not os.environ.get("NO_COLOR")
        return "\n".join("".join(_segment(t, names, styled, color) for t, names in line)
                         for line in _split_lines(runs) for line in _wrap(line, width))

    def _rich_width(self) -> int:
        """The width Rich's console would have (rich.console.Console.size); asked once
        per console (one command's output)."""
        if self._known_width is None:
            width = self._find_width()
            if width < 1:  # a terminal of no columns (a fresh pty): Rich's own business
                raise NotPlain("a console of no width")
            self._known_width = width
        return self._known_width

    def _find_width(self) -> int:
        if self._like is not None and self.target.isatty():
            return self._width()  # the width d2d gives a buffered terminal console
        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit():
            if not int(columns):
                raise NotPlain("COLUMNS=0")
            return int(columns)
        for fd in (0, 1, 2):  # Rich asks stdin, stdout and stderr, in this order
            try:
                return os.get_terminal_size(fd).columns or 80
            except (OSError, ValueError):
                continue
        return 80

    def _width(self) -> int:
        try:
            return int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            pass
        try:  # a terminal of no columns (a fresh pty) counts as unknown, as Rich does
            return os.get_terminal_size(self.target.fileno()).columns or 80
        except (OSError, ValueError):
            return 80
