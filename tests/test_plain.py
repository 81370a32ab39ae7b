"""Human output without Rich (d2d_cli/plain.py) is exactly what Rich prints."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.errors import MarkupError
from rich.markup import escape as rich_escape

from d2d_cli import plain, render
from tests.golden.script import LINES
from tests.helpers import ROOT


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _rich(markup: str, *, terminal: bool, no_color: bool = False) -> str:
    out = _Tty() if terminal else io.StringIO()
    Console(file=out, highlight=False, force_terminal=terminal, color_system="truecolor"
            if terminal else None, no_color=no_color or None, soft_wrap=not terminal,
            width=200).print(markup)
    return out.getvalue()


PIECES = ["[bold]", "[dim]", "[yellow]", "[red]", "[bold cyan]", "[green]", "[/]", "[/bold]",
          "[/yellow]", "[/bold cyan]", "[italic underline]", "\\[x]", "\\\\[bold]", "\\", "[",
          "]", "[rules]", "Revealed:", " Q♥ Queen of Cups ↑", "—", "a:b", "x", " "]


@given(st.lists(st.sampled_from(PIECES), max_size=8))
def test_markup_renders_as_rich_renders_it(pieces: list[str]) -> None:
    markup = "".join(pieces)
    for terminal, no_color in ((False, False), (True, False), (True, True)):
        try:
            want = _rich(markup, terminal=terminal, no_color=no_color)
        except MarkupError:
            with pytest.raises(plain.NotPlain):
                plain.render(markup, styles=terminal, color=not no_color)
            continue
        try:
            got = plain.render(markup, styles=terminal, color=not no_color) + "\n"
        except plain.NotPlain:
            continue  # handed to Rich: nothing to compare
        assert got == want, (markup, terminal, no_color)


@given(st.text(alphabet="ab[]/\\@#x =", max_size=12))
def test_escape_is_richs_escape(text: str) -> None:
    assert plain.escape(text) == rich_escape(text)


def test_common_lines_never_need_rich() -> None:
    for markup in ("[bold]Revealed:[/] Q♥ Queen of Cups ↑, 10♠ 10 of Swords ↓",
                   "[dim]51 left to draw, 3 in the discard pile[/]",
                   "[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]",
                   "d10: [bold]7[/]  ← 7♣ 7 of Wands ↑ [dim](1 redraw)[/]"):
        assert plain.render(markup, styles=True) + "\n" == _rich(markup, terminal=True)


def test_every_view_of_the_transcript_prints_what_rich_prints(
        d2d, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of the Combat #1 transcript, human output, run twice on twin
    sessions: through LineConsole, and with every print going to Rich itself."""

    def rich_only(stderr: bool = False, file: Any = None) -> Any:
        like = (sys.stderr if stderr else sys.stdout) if file is not None else None
        return plain.LineConsole(stderr=stderr, file=file, like=like).rich

    outputs: dict[str, list[str]] = {}
    for name, factory in (("plain", render.console), ("rich", rich_only)):
        monkeypatch.setattr(render, "console", factory)
        session = tmp_path / f"{name}.toml"
        outputs[name] = []
        for line in LINES.strip().splitlines():
            res = d2d("--session", session, *shlex.split(line))
            outputs[name].append(re.sub(r"\d{4}-\d\d-\d\dT[\d:+]+", "<time>",
                                        res.stdout.replace(str(session), "<s>")))
    assert outputs["plain"] == outputs["rich"]


def test_a_one_line_lookup_does_not_import_rich(tmp_path: Path) -> None:
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "main(['--session', sys.argv[1], 'fate', 'status'])\n"
            "main(['--session', sys.argv[1], 'fate', 'draw', '2'])\n"
            "main(['--session', sys.argv[1], 'scale', 'mass', '80kg'])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'tomlkit'}))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "s.toml")], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] in ("[]", "['tomlkit']")  # tomlkit: the draw's write


CELLS = ["", "x", "Goblin Scout", "3x1", "—", "[bold]7[/]", "[cyan]███[/]", "a [dim]b[/] c",
         "50.0%", "1/20", "Q♥", "\\[x]", "[red]hit[/] [bold]2[/]", "  pad  ", "12:05:30"]


def _printed(*objects: Any, width: int, terminal: bool,
             wrap_always: bool = False) -> tuple[str, str]:
    """What LineConsole prints for ``objects``, and what Rich itself prints, on a console
    ``width`` wide, piped or on a terminal (``wrap_always``: as the dashboard asks)."""
    outputs = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", str(width))
        mp.setenv("TERM", "xterm-256color")
        mp.delenv("NO_COLOR", raising=False)
        for via_rich in (False, True):
            buf = io.StringIO()
            con = plain.LineConsole(file=buf, like=_Tty() if terminal else io.StringIO())
            if wrap_always:
                con.soft_wrap = False
            (con.rich.print if via_rich else con.print)(*objects)
            outputs.append(buf.getvalue())
    return outputs[0], outputs[1]


def _table_output(t: plain.Table, *, terminal: bool, via_rich: bool) -> str:
    buf = io.StringIO()
    con = plain.LineConsole(file=buf, like=_Tty() if terminal else io.StringIO())
    if via_rich:
        con.rich.print(t)
    else:
        con.print(t)
    return buf.getvalue()


@given(st.lists(st.tuples(st.sampled_from(CELLS[1:4]), st.sampled_from(["left", "right"]),
                          st.sampled_from([None, "dim", "bold cyan"])), min_size=1, max_size=5),
       st.lists(st.lists(st.sampled_from(CELLS), max_size=5), max_size=4),
       st.booleans(), st.booleans(), st.sampled_from([None, "Odds", "A longer title"]),
       st.sampled_from(["left", "center"]), st.sampled_from([20, 40, 80]), st.booleans(),
       st.sampled_from([None, "default"]))
def test_tables_draw_as_rich_draws_them(columns: list[tuple[str, str, str | None]],
                                        rows: list[list[str]], show_header: bool,
                                        pad_edge: bool, title: str | None, title_justify: str,
                                        width: int, terminal: bool, box: str | None) -> None:
    t = plain.Table(box=box, show_header=show_header, pad_edge=pad_edge, title=title,
                    title_justify=title_justify)
    for header, justify, style in columns:
        t.add_column(header, justify=justify, style=style)
    for row in rows:
        t.add_row(*row[:len(columns)])
    try:  # the dashboard picks table or blocks by it: Rich's measure, without Rich
        natural = t.natural_width()
    except plain.NotPlain:
        natural = None
    if natural is not None and (show_header or rows):  # (a column of no cells: Rich
        wide = Console(width=10_000)                     # measures it as the console)
        assert natural == wide.measure(t, options=wide.options.update(max_width=10_000)).maximum
    mine, richs = _printed(t, width=width, terminal=terminal)
    assert mine == richs


def test_a_table_that_fits_is_drawn_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables of the views (unit list, status, odds bars…) fit 80 columns: drawn here,
    both piped and on a terminal, with no Rich console made."""
    monkeypatch.setenv("COLUMNS", "80")
    t = plain.Table("Unit", "Body", "Move", box=None, title="Board")
    t.add_column("Odds", justify="right", style="dim")
    t.add_row("Goblin Scout", "[bold]3x1[/]", "5", "50.0%")
    for terminal in (False, True):
        con = plain.LineConsole(file=io.StringIO(), like=_Tty() if terminal else io.StringIO())
        con.print(t)
        assert con._rich is None
        assert "Goblin Scout" in con.file.getvalue()  # type: ignore[attr-defined]
    chart = plain.Table("A ↓ vs B →", "Fast", title="Conflict chart")  # Rich's default box
    chart.add_row("Fast", "rank")
    con = plain.LineConsole(file=io.StringIO(), like=io.StringIO())
    con.print(chart)
    assert con._rich is None and "┃ A ↓ vs B → ┃ Fast ┃" in con.file.getvalue()  # type: ignore[attr-defined]
    wide = plain.Table("Unit", "Conditions", box=None)  # wider than the console: narrowed
    wide.add_row("Goblin Skirmisher", "Fatigue×2, Bleeding, Stun, " * 3)
    con = plain.LineConsole(file=io.StringIO(), like=io.StringIO())
    con.print(wide)
    assert con._rich is None
    assert con.file.getvalue() == _table_output(wide, terminal=False, via_rich=True)  # type: ignore[attr-defined]
    assert max(len(line) for line in con.file.getvalue().splitlines()) <= 80  # type: ignore[attr-defined]


@given(st.lists(st.sampled_from(CELLS[1:] + ["Move 5 · AC 2", "[cyan]Boost[/] · x"]),
                min_size=1, max_size=6), st.sampled_from([20, 40, 80]), st.booleans())
def test_indented_lines_draw_as_richs_padding(pieces: list[str], width: int,
                                              terminal: bool) -> None:
    mine, richs = _printed(plain.Indented("  ".join(pieces), 2), width=width,
                           terminal=terminal, wrap_always=True)
    assert mine == richs


@given(st.text(alphabet="/home/ü x[bold]:~.-", max_size=30), st.booleans())
def test_out_prints_as_richs_out(text: str, terminal: bool) -> None:
    outputs = []
    for via_rich in (False, True):
        buf = io.StringIO()
        con = plain.LineConsole(file=buf, like=_Tty() if terminal else io.StringIO())
        (con.rich.out if via_rich else con.out)(text, highlight=False)
        outputs.append(buf.getvalue())
    assert outputs[0] == outputs[1]


WORDS = ["word", "Goblin", "Scout", " ", "  ", "\n", "[bold]", "[/]", "[cyan]", "[/cyan]",
         "Skirmisher", "—", "Q♥", "4/4,", "(the 5th Turn)", "x" * 12, ":smile:", "12:05:30"]


@given(st.lists(st.sampled_from(WORDS), max_size=24), st.sampled_from([12, 20, 33]),
       st.booleans(), st.booleans())
def test_lines_wrap_as_rich_wraps_them(pieces: list[str], width: int, terminal: bool,
                                       wrap_always: bool) -> None:
    markup = " ".join(pieces)
    try:
        mine, richs = _printed(markup, "[dim]end[/]", width=width, terminal=terminal,
                               wrap_always=wrap_always)
    except MarkupError:
        return  # not markup at all: Rich's error, d2d never prints such a line
    assert mine == richs, markup


def test_a_long_line_on_a_terminal_is_wrapped_without_rich(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "20")
    con = plain.LineConsole(file=io.StringIO(), like=_Tty())
    con.print("Clock 1 · next: #5 in 4 ticks — [bold]Reinforcements[/] arrive")
    assert con._rich is None
    assert con.file.getvalue().count("\n") == 4  # type: ignore[attr-defined]


@given(st.lists(st.sampled_from(CELLS[1:]), min_size=1, max_size=4),
       st.lists(st.sampled_from(CELLS[1:] + [
           "Archetype: thief   Points: 22", "CP 0   SP 2",
           "Skills: Athletics 1, Climbing 1, Crime 1, Evasion 1, Mechanics 1, Stealth 2, "
           "Fire 1", "Abilities: [bold]Pick Lock[/], " + "x" * 70]), max_size=4),
       st.sampled_from(["[bold]Rook[/]", "[bold]Goblin Scout the Long-Named[/]", "x"]),
       st.sampled_from([30, 50, 80]), st.booleans())
def test_panels_draw_as_rich_draws_them(cells: list[str], lines: list[str], title: str,
                                        width: int, terminal: bool) -> None:
    """The character sheet's frame: a table and lines in Rich's rounded Panel."""
    t = plain.Table("Stat", "Rating", "Real terms", box=None, pad_edge=False)
    t.add_row(*cells[:3])
    mine, richs = _printed(plain.Panel([t, *lines], title=title), width=width,
                           terminal=terminal)
    assert mine == richs


def test_the_character_sheet_is_drawn_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    t = plain.Table("Stat", "Rating", "Real terms", box=None, pad_edge=False)
    t.add_row("Body", "5x1", "80 kg")
    con = plain.LineConsole(file=io.StringIO(), like=_Tty())
    con.print(plain.Panel([t, "CP 0   SP 2   AP 0"], title="[bold]Rook[/]"))
    assert con._rich is None
    assert con.file.getvalue().startswith("╭─")  # type: ignore[attr-defined]


def test_a_terminal_of_no_columns_counts_as_80(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh pseudo-terminal reports 0 columns: d2d play behind one prints as on an
    80-column terminal, as Rich does when it finds no size (found by bench/: every line
    inside play failed with an internal error)."""
    import os

    class Pty(_Tty):
        def fileno(self) -> int:
            return 1

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(os, "get_terminal_size", lambda *a: os.terminal_size((0, 0)))
    for markup in ("[bold]Fate deck:[/] 8 to draw, 46 discarded (shuffled 2×)", "x" * 30):
        outputs = []
        for via_rich in (False, True):
            buf = io.StringIO()
            con = plain.LineConsole(file=buf, like=Pty())
            (con.rich.print if via_rich else con.print)(markup)
            outputs.append(buf.getvalue())
        assert outputs[0] == outputs[1]
        assert outputs[0].replace("\n", "").replace(" ", "")  # something was printed
