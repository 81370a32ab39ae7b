"""A small bar chart of exact probabilities, for the human views of ``odds`` and
``roll --odds``, drawn by Rich (d2d_cli/layout.py)."""

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from d2d_cli import render
from d2d_cli.rules.core.probability import Probability

WIDTH = 24
MAX_ROWS = 40


def bars(con: Any, rows: Sequence[tuple[str, Probability]], title: str | None = None) -> None:
    """One row per outcome: label, bar, percentage, exact fraction."""
    from d2d_cli.layout import Table

    t = Table(box=None, show_header=False, title=title, title_justify="left", pad_edge=False)
    t.add_column(justify="right")
    t.add_column()
    t.add_column(justify="right")
    t.add_column(style="dim")
    peak = max((p.value for _, p in rows), default=0) or 1.0
    width = _bar_width(con.width, rows)
    for label, p in rows:
        n = round(p.value / peak * width)
        bar = "█" * n if n else ("▏" if p.fraction else "")
        t.add_row(render.escape(label), f"[cyan]{bar}[/]", p.percent, str(p.fraction))
    con.print(t)


def _bar_width(columns: int, rows: Sequence[tuple[str, Probability]]) -> int:
    """The longest bar: :data:`WIDTH`, less on a console too narrow for the label, the
    percentage and the fraction beside it (two spaces between columns)."""
    others = sum(max((len(cell) for cell in column), default=0) for column in zip(
        *((label, p.percent, str(p.fraction)) for label, p in rows), strict=True)) + 6
    return max(4, min(WIDTH, columns - others))


def binned(values: Sequence[tuple[int, Probability]]) -> list[tuple[str, Probability]]:
    """Outcomes as rows; more than :data:`MAX_ROWS` are grouped into equal ranges."""
    if len(values) <= MAX_ROWS:
        return [(str(v), p) for v, p in values]
    lo, hi = values[0][0], values[-1][0]
    width = -(-(hi - lo + 1) // MAX_ROWS)
    out: list[tuple[str, Probability]] = []
    start, acc = lo, Fraction(0)
    for v, p in values:
        while v >= start + width:
            if acc:
                out.append((f"{start}–{start + width - 1}", Probability.of(acc)))
            start, acc = start + width, Fraction(0)
        acc += p.fraction
    if acc:
        out.append((f"{start}–{min(start + width - 1, hi)}", Probability.of(acc)))
    return out
