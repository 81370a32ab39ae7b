"""The views' tables drawn by d2d's own printer (d2d_cli/plain.py ``table_lines``): a
layout.Table that fits is printed without Rich, and what it prints is exactly what Rich
prints for the same table; what it cannot draw plainly goes to Rich itself."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.errors import MarkupError

from d2d_cli import plain
from d2d_cli.layout import Table
from tests.helpers import ROOT
from tests.test_plain import _env

# Cells as the views fill them: names, numbers, dashes, styled stretches, escapes, and
# what the printer must leave to Rich (spaces at an end, a newline, a wide character).
CELLS = ["Goblin 5", "2x1", "—", "[bold]3[/]", "[red]0[/]", "[bold cyan]x[/] y", "",
         "fatigue 2, bleeding", "\\[x]", "a:b", " lead", "trail ", "two\nlines", "漢字",
         "Q♥ Queen of Cups ↑", "[dim]hidden[/] [green]+1[/]", "→ Archer", "12"]
HEADERS = ["Unit", "Body", "A ↓ vs B →", "", "Conditions", "Spd", "[bold]x[/]"]


def _drawn(t: Table, *, terminal: bool, no_color: bool, width: int,
           via_rich: bool) -> tuple[str, bool]:
    buf = io.StringIO()
    con = plain.LineConsole(_env(terminal=terminal, no_color=no_color, width=width),
                            file=buf)
    (con.rich.print if via_rich else con.print)(t)
    return buf.getvalue(), con._rich is not None


TABLES = given(st.lists(st.tuples(st.sampled_from(HEADERS),
                                 st.sampled_from(["left", "right"])), min_size=1, max_size=4),
               st.lists(st.lists(st.sampled_from(CELLS), min_size=4, max_size=4), max_size=4),
               st.booleans(), st.booleans(), st.integers(0, 3), st.integers(8, 60))


# 60 tables in the README's quick command; the thorough twin (marked slow, run by
# .ci/run) draws 300.
@settings(max_examples=60, deadline=None)
@TABLES
@example([("Unit", "left"), ("Body", "right")], [["Goblin 5", "[bold]3[/]", "", ""]],
         True, True, 0, 200)
@example([("Unit", "left"), ("Conditions", "left")],
         [["Goblin 5", "[bold cyan]x[/] y", "", ""], ["Q♥ Queen of Cups ↑", "fatigue 2, "
                                                     "bleeding", "", ""]], True, True, 0, 32)
def test_a_table_prints_as_rich_prints_it(columns: list[tuple[str, str]],
                                          rows: list[list[str]], show_header: bool,
                                          pad_edge: bool, name: int, width: int) -> None:
    """Piped, on a terminal, with NO_COLOR; at widths where tables fit, are narrowed
    (cells wrapped, by the printer too) or stacked (Rich's)."""
    _prints_as_rich(columns, rows, show_header, pad_edge, name, width)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@TABLES
def test_a_table_prints_as_rich_prints_it_thoroughly(columns: list[tuple[str, str]],
                                                     rows: list[list[str]], show_header: bool,
                                                     pad_edge: bool, name: int,
                                                     width: int) -> None:
    _prints_as_rich(columns, rows, show_header, pad_edge, name, width)


def _prints_as_rich(columns: list[tuple[str, str]], rows: list[list[str]], show_header: bool,
                    pad_edge: bool, name: int, width: int) -> None:
    t = Table(box=None, show_header=show_header, pad_edge=pad_edge,
              name=min(name, len(columns) - 1))
    for header, justify in columns:
        t.add_column(header, justify=justify)
    for row in rows:
        t.add_row(*row[:len(columns)])
    for terminal, no_color in ((False, False), (True, False), (True, True)):
        try:
            want, _ = _drawn(t, terminal=terminal, no_color=no_color, width=width,
                             via_rich=True)
        except MarkupError:
            with pytest.raises(MarkupError):
                _drawn(t, terminal=terminal, no_color=no_color, width=width, via_rich=False)
            continue
        got, _ = _drawn(t, terminal=terminal, no_color=no_color, width=width, via_rich=False)
        assert got == want, (columns, rows, terminal, no_color)


def test_the_unit_list_and_the_dashboard_import_no_rich(d2d, tmp_path: Path) -> None:
    """``unit list`` and ``status`` of a session whose tables fit draw them here: no Rich
    imported (~28 ms, and its layout was most of a 100-unit list inside d2d play); on
    the old code both imported Rich to draw the table."""
    path = tmp_path / "s.toml"
    for i in range(3):
        d2d.ok("--session", path, "unit", "add", f"Goblin {i}", "--body", "2x1", "--mind",
               "6x1", "--will", "2x1", "--speed", "5x0")
    d2d.ok("--session", path, "unit", "condition", "Goblin 1", "add", "fatigue")
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "for words in (['unit', 'list'], ['status']):\n"
            "    try:\n"
            "        main(['--session', sys.argv[1], *words])\n"
            "    except SystemExit as e:\n"
            "        assert not e.code, e.code\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich'}))\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env={"COLUMNS": "100", "PATH": "/usr/bin:/bin",
                              "D2D_DATA_DIR": str(tmp_path / "data")}).stdout
    assert "Goblin 2" in out and "fatigue" in out.lower()
    assert out.splitlines()[-1] == "[]"


def test_a_dashboard_whose_lines_wrap_imports_no_rich(d2d, tmp_path: Path) -> None:
    """The Tasks line of a scene with many tasks wraps at 80 columns (piped too: the
    dashboard wraps at the width): printed by the plain printer, as Rich wraps it
    (tests/test_plain.py compares the two), without importing Rich (issue 40: on the old
    code a wrapping line was Rich's, ~30 ms of a one-shot ``status``)."""
    path = tmp_path / "s.toml"
    d2d.ok("--session", path, "unit", "add", "Goblin", "--body", "2x1", "--mind", "6x1",
           "--will", "2x1", "--speed", "5x0")
    for i in range(6):
        d2d.ok("--session", path, "task", "new", f"Door {i}", "--difficulty", "3")
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "assert not main(['--session', sys.argv[1], 'status'])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich'}))\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env={"COLUMNS": "80", "PATH": "/usr/bin:/bin",
                              "D2D_DATA_DIR": str(tmp_path / "data")}).stdout
    lines = out.splitlines()
    assert lines[-1] == "[]"
    tasks = [n for n, line in enumerate(lines) if line.startswith("Tasks: Door 0")][0]
    assert lines[tasks] == ("Tasks: Door 0 — Challenge 3/3, Progress 3/3; Door 1 — "
                            "Challenge 3/3, Progress ")
    assert lines[tasks + 1].startswith("3/3; Door 2 — Challenge 3/3")
    assert all(len(line) <= 80 for line in lines)


def test_what_the_printer_leaves_to_rich_is_drawn_by_rich() -> None:
    """A table as designed and narrowed (its cells wrapped) is drawn here, exactly as
    Rich draws it; stacked (too narrow for its columns), boxed or titled, by Rich."""
    t = Table("Unit", "Conditions", box=None)
    t.add_row("Goblin Scout", "fatigue 2, [red]bleeding 1[/], stunned, prone, grappled")
    for width, expect_rich in ((200, False), (30, False), (16, True)):
        for terminal in (False, True):
            got, made_rich = _drawn(t, terminal=terminal, no_color=False, width=width,
                                    via_rich=False)
            want, _ = _drawn(t, terminal=terminal, no_color=False, width=width,
                             via_rich=True)
            assert made_rich == expect_rich and got == want
    assert got.count("\n") > 2  # narrowed: wrapped over lines
    boxed = Table("Unit", title="Roster")
    boxed.add_row("Goblin Scout")
    got, made_rich = _drawn(boxed, terminal=True, no_color=False, width=80, via_rich=False)
    assert made_rich and "Roster" in got and "Goblin Scout" in got
