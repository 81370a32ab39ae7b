"""The plain printer (d2d_cli/plain.py): a line or two of markup printed without Rich is
exactly what Rich prints, and whatever it does not print plainly goes to Rich itself."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.errors import MarkupError
from rich.markup import escape as rich_escape

from d2d_cli import plain, render
from d2d_cli.env import Environment
from tests.golden.script import LINES, _normalise, argv_of
from tests.helpers import ROOT


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _env(*, terminal: bool, width: int = 200, no_color: bool = False) -> Environment:
    return Environment(stdout=_Tty() if terminal else io.StringIO(), width=width,
                       environ={"TERM": "xterm-256color", **({"NO_COLOR": "1"}
                                                              if no_color else {})})


def _rich(markup: str, *, terminal: bool, no_color: bool = False, width: int = 200,
          soft_wrap: bool | None = None) -> str:
    out = _Tty() if terminal else io.StringIO()
    Console(file=out, highlight=False, force_terminal=terminal, color_system="truecolor"
            if terminal else None, no_color=no_color or None,
            soft_wrap=not terminal if soft_wrap is None else soft_wrap,
            width=width, emoji=False).print(markup)
    return out.getvalue()


def _plain(markup: str, *, terminal: bool, no_color: bool = False,
           width: int = 200, soft_wrap: bool | None = None) -> tuple[str, bool]:
    """What LineConsole prints, and whether it made a Rich console to print it."""
    buf = io.StringIO()
    con = plain.LineConsole(_env(terminal=terminal, no_color=no_color, width=width),
                            file=buf)
    if soft_wrap is not None:
        con.soft_wrap = soft_wrap
    con.print(markup)
    return buf.getvalue(), con._rich is not None


PIECES = ["[bold]", "[dim]", "[yellow]", "[red]", "[bold cyan]", "[green]", "[/]", "[/bold]",
          "[/yellow]", "[/bold cyan]", "[italic underline]", "\\[x]", "\\\\[bold]", "\\", "[",
          "]", "[rules]", "Revealed:", " Q♥ Queen of Cups ↑", "—", "a:b", "x", " ", ":smile:",
          "12:05:30", "\n"]


@given(st.lists(st.sampled_from(PIECES), max_size=8), st.sampled_from([12, 200]))
# A tag opened and closed over nothing: Rich cuts its stretch there or not depending on a
# line break before it, so the plain printer leaves such markup to Rich (found by this test).
@example(["[bold]", "\n", "\\\\[bold]", "[/]", "[", "[/]"], 12)
@example(["[bold]", "[", "[bold]", "[/]", "[", "[/]"], 12)
def test_markup_prints_as_rich_prints_it(pieces: list[str], width: int) -> None:
    """Piped, on a terminal, and with NO_COLOR; at a width where lines fit and one where
    they wrap (those go to Rich)."""
    markup = "".join(pieces)
    for terminal, no_color in ((False, False), (True, False), (True, True)):
        try:
            want = _rich(markup, terminal=terminal, no_color=no_color, width=width)
        except MarkupError:
            with pytest.raises(MarkupError):
                _plain(markup, terminal=terminal, no_color=no_color, width=width)
            continue
        got, _ = _plain(markup, terminal=terminal, no_color=no_color, width=width)
        assert got == want, (markup, terminal, no_color)


@given(st.text(alphabet="ab[]/\\@#x =", max_size=12))
def test_escape_is_richs_escape(text: str) -> None:
    assert plain.escape(text) == rich_escape(text)


def test_common_lines_never_need_rich() -> None:
    for markup in ("[bold]Revealed:[/] Q♥ Queen of Cups ↑, 10♠ 10 of Swords ↓",
                   "[dim]51 left to draw, 3 in the discard pile[/]",
                   "[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]",
                   "d10: [bold]7[/]  ← 7♣ 7 of Wands ↑ [dim](1 redraw)[/]"):
        for terminal in (False, True):
            got, made_rich = _plain(markup, terminal=terminal, width=80)
            assert not made_rich
            assert got == _rich(markup, terminal=terminal, width=80)


# Words of a wrapping line: styled stretches that a cut falls inside, runs of spaces that
# end up at a line's edge, words as long as the line and longer (those go to Rich).
WORDS = ["Clock", "1", "·", "next:", "#5", "in", "4", "ticks", "—", "[bold]", "[/]", "[red]",
         "[/red]", "Reinforcements:", "Goblin", "Skirmisher", "Challenge", "4/4,", "  ",
         "   ", "x", "ab", "abcdefghijkl", "Q♥", "↑", "\n", "aé"]


WRAPPED = given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=24),
              st.sampled_from([" ", "  ", ""]), st.integers(min_value=6, max_value=40))


# 100 lines in the README's quick command; the thorough twin (marked slow, run by
# .ci/run) draws 400.
@settings(max_examples=100, deadline=None)
@WRAPPED
@example(["Clock", "1", "·", "next:", "#5", "in", "4", "ticks", "—", "[bold]Reinforcements:[/]",
          "Goblin", "Skirmisher"], " ", 20)
def test_a_line_that_wraps_prints_as_rich_wraps_it(words: list[str], sep: str,
                                                   width: int) -> None:
    """A line wider than the console wraps as Rich wraps it — on a terminal, with
    NO_COLOR, and piped when told to wrap (the dashboard) — printed without Rich unless
    a word is longer than the line."""
    _wraps_as_rich(words, sep, width)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@WRAPPED
def test_a_line_that_wraps_prints_as_rich_wraps_it_thoroughly(words: list[str], sep: str,
                                                              width: int) -> None:
    _wraps_as_rich(words, sep, width)


def _wraps_as_rich(words: list[str], sep: str, width: int) -> None:
    markup = sep.join(words).rstrip(" ")
    for terminal, no_color, soft_wrap in ((True, False, None), (True, True, None),
                                          (False, False, False)):
        try:
            want = _rich(markup, terminal=terminal, no_color=no_color, width=width,
                         soft_wrap=soft_wrap)
        except MarkupError:
            continue
        got, made_rich = _plain(markup, terminal=terminal, no_color=no_color, width=width,
                                soft_wrap=soft_wrap)
        assert got == want, (markup, width, terminal, no_color)
        if markup == "Clock 1 · next: #5 in 4 ticks — [bold]Reinforcements:[/] Goblin Skirmisher":
            assert not made_rich  # the plain printer's own wrap, not Rich's


# Lines of the dashboard's blocks: plain, styled, wrapping, indented, and ones only Rich
# prints (a wide character, a word longer than the line, a tab).
BLOCK = ["[bold]Goblin 5[/] → Archer", "Body 2x1  Mind [yellow]5x1[/] [dim](6x1)[/]",
         "Move 5 · AC 2 · Actions — · Turn 2", "Fatigue×2, [bold red]DYING[/]",
         "Cover 50% · Range 3 to Archer · Interrupted by Goblin Skirmisher", "漢字 x",
         "abcdefghijklmnopqrstuvwxyz", "a\tb", "", "[cyan]Burst of Speed[/]"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(BLOCK), st.sampled_from([0, 2])), max_size=8),
       st.sampled_from([12, 24, 40, 80]))
def test_print_lines_prints_what_each_print_prints(items: list[tuple[str, int]],
                                                   width: int) -> None:
    """``print_lines`` (the dashboard's blocks at once) writes what a ``print`` of each
    item writes, in order — Rich's lines in their place — piped (wrapped, as the
    dashboard is), on a terminal and with NO_COLOR; and what Rich prints of them."""
    from d2d_cli.layout import Indented

    lines = [Indented(m, left) if left else m for m, left in items]
    for terminal, no_color in ((False, False), (True, False), (True, True)):
        outs = []
        for at_once in (False, True):
            buf = io.StringIO()
            con = plain.LineConsole(_env(terminal=terminal, no_color=no_color, width=width),
                                    file=buf)
            con.soft_wrap = False
            if at_once:
                con.print_lines(lines)
            else:
                for line in lines:
                    con.print(line)
            outs.append(buf.getvalue())
        assert outs[1] == outs[0], (items, width, terminal, no_color)
        want = io.StringIO()
        rich = Console(file=want, highlight=False, force_terminal=terminal, color_system=
                       "truecolor" if terminal else None, no_color=no_color or None,
                       soft_wrap=False, width=width, emoji=False)
        for line in lines:
            rich.print(line)
        assert outs[1] == want.getvalue(), (items, width, terminal, no_color)


def _read(read: Any, markup: str) -> Any:
    try:
        return read(markup)
    except plain.NotPlain:
        return plain.NotPlain


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES + ["Goblin 5", " → ", "x=1", "[#ff0000]", "[Bold]",
                                          "[bold]]", "]", "[a/b]", "é", "漢", "\t"]), max_size=6))
@example(["[bold]", "Goblin 5", "[/]", " → ", "Archer"])
def test_the_short_cuts_read_markup_as_the_parser_does(pieces: list[str]) -> None:
    """``runs``' short cut for one tag closed over some text, and ``cell_width``'s for
    printable ASCII without a tag, give what reading the markup tag by tag gives."""
    markup = "".join(pieces)
    plain.runs.cache_clear()
    full = plain.NotPlain if plain._control(markup) else _read(plain._parsed, markup)
    if "[" in markup:
        assert _read(plain.runs, markup) == full, markup
    assert _read(plain.cell_width, markup) == _read(plain._cell_width, markup), markup


def test_what_it_cannot_print_plainly_goes_to_rich() -> None:
    """A line with a word wider than the terminal (Rich folds it), a table."""
    from rich.table import Table

    line = "Clock 1 · next: #5 in 4 ticks — [bold]Reinforcements[/] arrive"
    got, made_rich = _plain(line, terminal=True, width=12)
    assert made_rich and got == _rich(line, terminal=True, width=12)
    assert got.count("\n") == 5  # "Reinforcements" folded in two
    got, made_rich = _plain(line, terminal=True, width=20)  # wrapped here (issue 40)
    assert not made_rich and got == _rich(line, terminal=True, width=20)
    assert got.count("\n") == 4
    got, made_rich = _plain("[bold blink]x[/]", terminal=True)
    assert made_rich and got == _rich("[bold blink]x[/]", terminal=True)
    buf = io.StringIO()
    con = plain.LineConsole(_env(terminal=False), file=buf)
    t = Table("Unit")
    t.add_row("Goblin Scout")
    con.print(t)
    assert "Goblin Scout" in buf.getvalue() and con._rich is not None


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_every_view_of_the_transcript_prints_what_rich_prints(
        d2d, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of the Combat #1 transcript, human output, run twice on twin
    sessions: through LineConsole, and with every print going to Rich itself."""

    def rich_only(stderr: bool = False, file: Any = None) -> Any:
        from d2d_cli import env

        return plain.LineConsole(env.current(), stderr=stderr, file=file).rich

    outputs: dict[str, list[str]] = {}
    for name, factory in (("plain", render.console), ("rich", rich_only)):
        monkeypatch.setattr(render, "console", factory)
        folder = tmp_path / name  # a twin folder each: files the transcript writes
        folder.mkdir()
        monkeypatch.setenv("D2D_DATA_DIR", str(folder / "data"))
        outputs[name] = []
        for line in LINES.strip().splitlines():
            words, stdin = argv_of(line, folder, as_json=False)
            if stdin is not None:  # play: its lines are the one-shot commands above
                continue
            res = d2d("--session", folder / "combat1.toml", *words)
            outputs[name].append(re.sub(r"\d{4}-\d\d-\d\d[T ][\d:+]+", "<time>",
                                        _normalise(res.stdout, folder)))
    assert outputs["plain"] == outputs["rich"]


def test_text_is_printed_as_typed_never_as_emoji(d2d, tmp_path: Path) -> None:
    """Colons in a name or an event are the user's: ``:x:`` is not turned into ❌, and
    printing it needs no Rich."""
    for terminal in (False, True):
        got, made_rich = _plain("Restrict:Bind:4 · [bold]:x:[/] 12:05:30", terminal=terminal)
        assert not made_rich and got.replace("\x1b[1m", "").replace("\x1b[0m", "") == \
            "Restrict:Bind:4 · :x: 12:05:30\n"
    path = tmp_path / "s.toml"
    d2d.ok("--session", path, "unit", "add", ":smile:", "--body", "2x1", "--mind", "2x1",
           "--will", "2x1", "--speed", "4x0")
    assert ":smile:" in d2d.ok("--session", path, "unit", "list")  # drawn by Rich


def test_a_one_line_lookup_does_not_import_rich(tmp_path: Path) -> None:
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "main(['--session', sys.argv[1], 'fate', 'status'])\n"
            "main(['--session', sys.argv[1], 'fate', 'draw', '2'])\n"
            "main(['--session', sys.argv[1], 'scale', 'mass', '80kg'])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'tomlkit'}))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "s.toml")], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] in ("[]", "['tomlkit']")  # tomlkit: the draw's write


@given(st.text(alphabet="/home/ü x[bold]:~.-", max_size=30), st.booleans())
def test_out_prints_as_richs_out(text: str, terminal: bool) -> None:
    outputs = []
    for via_rich in (False, True):
        buf = io.StringIO()
        con = plain.LineConsole(_env(terminal=terminal), file=buf)
        (con.rich.out if via_rich else con.out)(text, highlight=False)
        outputs.append(buf.getvalue())
    assert outputs[0] == outputs[1]


def test_a_terminal_of_no_columns_counts_as_80(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh pseudo-terminal reports 0 columns: d2d play behind one prints as on an
    80-column terminal, as Rich does when it finds no size (found by bench/: every line
    inside play failed with an internal error)."""
    import os

    class Pty(_Tty):
        def fileno(self) -> int:
            return 1

    monkeypatch.setattr(os, "get_terminal_size", lambda *a: os.terminal_size((0, 0)))
    here = Environment(stdin=Pty(), stdout=Pty(), stderr=Pty(), environ={"TERM": "xterm"})
    assert here.width == 80
    for markup in ("[bold]Fate deck:[/] 8 to draw, 46 discarded (shuffled 2×)", "x" * 90):
        outputs = []
        for via_rich in (False, True):
            buf = io.StringIO()
            con = plain.LineConsole(here, file=buf)
            (con.rich.print if via_rich else con.print)(markup)
            outputs.append(buf.getvalue())
        assert outputs[0] == outputs[1]
        assert outputs[0].replace("\n", "").replace(" ", "")  # something was printed


def test_the_control_check_is_the_pattern_with_printable_text_let_by() -> None:
    # Issue 40: the check reads printable text (newlines aside) without compiling the
    # pattern; over every code point, alone and between a newline and a suit, it says
    # what the pattern says.
    pattern = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
    for c in map(chr, range(0x110000)):
        assert plain._control(c) == (pattern.search(c) is not None), hex(ord(c))
        text = f"\n♠{c}\n"
        assert plain._control(text) == (pattern.search(text) is not None), hex(ord(c))
    plain._control_re.cache_clear()
    assert not plain._control("7♠^ beats 5♥^ — 2×1\n\n")
    assert plain._control_re.cache_info().currsize == 0
