"""Tables, panels and indented lines of the human views, drawn by Rich.

:class:`Table` keeps the few calls the views make (``Table("Unit", "Body", box=None)``,
``add_column``, ``add_row``: Rich's own names) and builds a ``rich.table.Table`` when it
is drawn. One column (the first unless told) names the row — a unit, an approach, a
label — and never wraps: at 80 columns ``Goblin Scout`` stays on one line. How a table
meets the console's width (docs/architecture.md, "Narrow terminals"):

1. as designed (two spaces between columns) when it fits;
2. else d2d chooses each column's width so that no word is cut: the widest columns give
   way first, none narrower than its longest word; with two spaces between columns if
   that fits, else one (the unit list at 80 columns, a unit's conditions included);
3. else stacked, one block per row: its name, then a ``Header value`` line per cell
   that holds something (the unit list at 40 columns).

Rich is imported when something is drawn, never when this module is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

_ROOM = 10_000  # columns: more than any table of d2d takes
# Cells that say nothing: left out of a stacked block.
_NO_BLANK = ("", "—")


class Table:
    """A table of the views: Rich's ``Table`` API subset, drawn by Rich, stacked when the
    console is too narrow for it (see the module's docstring). As designed (it fits, no
    box, plain cells) it is drawn by d2d_cli/plain.py without Rich: :attr:`plain_table`."""

    plain_table = True  # d2d_cli/plain.py's LineConsole may draw it (table_lines)

    def __init__(self, *headers: str, box: Any = "default", title: str | None = None,
                 title_justify: str = "center", show_header: bool = True,
                 pad_edge: bool = True, name: int = 0) -> None:
        """``name``: the column that names the row (never wrapped; a stacked block's
        first line)."""
        self.box = box
        self.name = name
        self.title = title
        self.title_justify = title_justify
        self.show_header = show_header
        self.pad_edge = pad_edge
        self.columns: list[tuple[str, str, str | None]] = []
        self.rows: list[tuple[str, ...]] = []
        self._natural: tuple[int, int] | None = None  # (rows, width): measured once
        for header in headers:
            self.add_column(header)

    def add_column(self, header: str = "", justify: str = "left",
                   style: str | None = None) -> None:
        self.columns.append((header, justify, style))

    def add_row(self, *cells: str) -> None:
        self.rows.append(cells)

    def first_columns(self, n: int) -> Table:
        """The table of its first ``n`` columns (the same rows, cut): what is measured
        of a table whose last columns may wrap."""
        t = Table(box=self.box, title=self.title, title_justify=self.title_justify,
                  show_header=self.show_header, pad_edge=self.pad_edge, name=self.name)
        t.columns = self.columns[:n]
        t.rows = [row[:n] for row in self.rows]
        return t

    # ------------------------------------------------------------------ Rich

    def rich_table(self, tight: bool = False, widths: list[int] | None = None) -> Any:
        """The ``rich.table.Table`` of these columns and rows. ``tight``: one space after
        each column instead of one on each side; ``widths``: each column's text width."""
        from rich.table import Table as RichTable

        kwargs: dict[str, Any] = {} if self.box == "default" else {"box": self.box}
        if tight:
            kwargs.update(padding=(0, 1, 0, 0))
        else:
            kwargs.update(pad_edge=self.pad_edge)
        t = RichTable(show_header=self.show_header, **kwargs)
        for n, (header, justify, style) in enumerate(self.columns):
            t.add_column(header, justify=justify, style=style,  # type: ignore[arg-type]
                         no_wrap=n == self.name,  # the row's name stays whole
                         width=widths[n] if widths else None)
        for row in self.rows:
            t.add_row(*row)
        return t

    def natural_width(self, console: Any = None) -> int:
        """The width the table takes when nothing has to wrap (Rich's measure maximum);
        measured once (the dashboard asks before it prints)."""
        key = len(self.rows) + 1000 * len(self.columns)
        if self._natural is None or self._natural[0] != key:
            plain = self._plain_natural()
            if plain is not None:
                self._natural = (key, plain)
                return plain
            from rich.measure import Measurement

            if console is None:
                from rich.console import Console

                console = Console(width=_ROOM, emoji=False)
            wide = console.options.update_width(_ROOM)
            self._natural = (key, Measurement.get(console, wide, self.rich_table()).maximum)
        return self._natural[1]

    def _plain_natural(self) -> int | None:
        """The natural width without Rich when every cell is plain markup: each column
        its widest cell and its padding (one cell a side, none at the edges without
        ``pad_edge``), a box its bars
        (the dashboard of 100 units asks before it prints; Rich would measure 1,100
        cells)."""
        from d2d_cli.plain import NotPlain, cell_width

        try:
            widths = [max([cell_width(h)] if self.show_header else [0]) for h, _, _ in
                      self.columns]
            for row in self.rows:
                for n, cell in enumerate(row[:len(widths)]):
                    widths[n] = max(widths[n], cell_width(cell))
        except NotPlain:
            return None
        bars = len(widths) + 1 if self.box is not None else 0
        edges = 0 if self.pad_edge or not widths else 2  # no padding at the edges
        return sum(w + 2 for w in widths) - edges + bars

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        """As designed when it fits; else each column as wide as it needs or, where the
        room runs out, as its longest word (the widest columns give way first), with two
        spaces between columns, else one; else stacked. Never a word cut short."""

        if self.title:  # a line of its own: Rich's versions pad a table's title unalike
            yield f"[italic]{self.title}[/]"
        room = options.max_width
        if not self.rows or self.natural_width(console) <= room:
            yield self.rich_table()
            return
        fitted = self.fitted(room, self._ranges(console, options))
        if fitted is None:
            yield from self._stacked()
            return
        tight, widths = fitted
        yield self.rich_table(tight=tight, widths=widths)

    def fitted(self, room: int, ranges: list[tuple[int, int]]) -> tuple[bool, list[int]] | None:
        """The columns' text widths in ``room`` cells, given each column's (longest word,
        longest line): two spaces between columns if that fits (``tight`` False), else
        one (True); None: it does not fit, stacked. The one plan both printers follow
        (Rich's and d2d_cli/plain.py's)."""
        bars = len(ranges) + 1 if self.box is not None else 0
        for tight in (False, True):  # two spaces between columns, else one
            pad = 1 if tight else 2  # Rich's padding of a column, as it counts it
            fit = room - pad * len(ranges) - bars
            if sum(low for low, _ in ranges) > fit:
                continue
            widths = [high for _, high in ranges]
            while sum(widths) > fit:  # the widest column that can give way gives a cell
                n = max((i for i, (low, _) in enumerate(ranges) if widths[i] > low),
                        key=lambda i: widths[i])
                widths[n] -= 1
            return tight, widths
        return None

    def plain_ranges(self) -> list[tuple[int, int]]:
        """Each column's text width measured without Rich: (its longest word, its longest
        line), headers included, the name column's whole name at least; NotPlain
        (d2d_cli/plain.py) for a cell only Rich can measure."""
        out = []
        for n, (header, _, _) in enumerate(self.columns):
            cells = [header] if self.show_header else []
            cells += [row[n] if n < len(row) else "" for row in self.rows]
            low = high = 0
            for cell in cells:
                word, width = _cell_range(cell)
                low = max(low, width if n == self.name else word)
                high = max(high, width)
            out.append((max(low, 1), max(high, 1)))
        return out

    def _ranges(self, console: Any, options: Any) -> list[tuple[int, int]]:
        """Each column's text width: (its longest word, its longest line), headers
        included; the name column's whole name at least (it never wraps)."""
        from rich.measure import Measurement
        from rich.text import Text

        from d2d_cli.plain import NotPlain

        try:
            return self.plain_ranges()
        except NotPlain:
            pass
        wide = options.update_width(_ROOM)
        out = []
        for n, (header, _, _) in enumerate(self.columns):
            cells = [header] if self.show_header else []
            cells += [row[n] if n < len(row) else "" for row in self.rows]
            low = high = 0
            for cell in cells:
                m = Measurement.get(console, wide, Text.from_markup(cell))
                low = max(low, m.maximum if n == self.name else m.minimum)
                high = max(high, m.maximum)
            out.append((max(low, 1), max(high, 1)))
        return out

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        return Measurement.get(console, options, self.rich_table())

    def _stacked(self) -> Iterator[Any]:
        """One block per row: its name, then ``Header value`` for each other cell
        that holds something (what wraps is indented); a table without headers prints
        each row's cells on a line."""
        from rich.cells import cell_len
        from rich.padding import Padding

        headers = [h for h, _, _ in self.columns]
        key = max((cell_len(h) for n, h in enumerate(headers) if n != self.name), default=0)
        for row in self.rows:
            cells = list(row) + [""] * (len(self.columns) - len(row))
            if not self.show_header:
                yield "  ".join(c for c in cells if c)
                continue
            yield f"[bold]{cells[self.name]}[/]"
            for n, (header, cell) in enumerate(zip(headers, cells, strict=True)):
                if n != self.name and cell not in _NO_BLANK:
                    pad = " " * (key - cell_len(header))
                    yield Padding(f"[dim]{header}[/]{pad} {cell}", (0, 0, 0, 2), expand=False)


@functools.lru_cache(maxsize=8192)
def _cell_range(cell: str) -> tuple[int, int]:
    """A cell's longest word and its width, measured without Rich (remembered: a view
    of 100 units measures each of its cells at every call inside d2d play); NotPlain
    for a cell only Rich can measure."""
    from d2d_cli.plain import NotPlain, cell_width, runs

    text = "".join(t for t, _ in runs(cell))
    if any(ch.isspace() and ch != " " for ch in text):
        raise NotPlain("a newline or a space of another kind")
    return max((len(w) for w in text.split(" ")), default=0), cell_width(cell)


class Indented:
    """A line indented by ``left`` spaces (Rich's ``Padding``); what wraps is indented
    too. A line that fits is printed without Rich (d2d_cli/plain.py reads
    :attr:`indented`): the dashboard's blocks are hundreds of them."""

    def __init__(self, line: str, left: int) -> None:
        self.line = line
        self.left = left

    @property
    def indented(self) -> tuple[int, str]:
        return self.left, self.line

    def __rich__(self) -> Any:
        from rich.padding import Padding

        return Padding(self.line, (0, 0, 0, self.left), expand=False)


class Panel:
    """Rows (tables and lines of markup) in a rounded box with a title: Rich's
    ``Panel`` around a ``Table.grid`` of the rows, as narrow as its content."""

    def __init__(self, rows: list[Table | str], title: str) -> None:
        self.rows = rows
        self.title = title

    def __rich__(self) -> Any:
        from rich.panel import Panel as RichPanel
        from rich.table import Table as RichTable

        grid = RichTable.grid()
        for row in self.rows:
            grid.add_row(row)
        return RichPanel(grid, title=self.title, expand=False)
