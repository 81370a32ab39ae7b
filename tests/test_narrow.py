"""Every table view readable at 40, 80 and 200 columns (issue 20 item 4).

A table is drawn as designed when it fits; else with widths d2d chooses so that no word
is cut (two spaces between columns, else one); else stacked: one block per row, its
name, then ``Header value`` lines (d2d_cli/layout.py). A row's name is never wrapped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import env
from d2d_cli.env import Environment
from tests.helpers import Runner

_SGR = re.compile(r"\x1b\[[\d;]*m")


@pytest.fixture
def table(d2d: Runner, tmp_path: Path) -> Path:
    """Combat #1 with a Goblin Scout carrying three conditions, a character, a round
    under way (000 l.420's Non-Players included)."""
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "--seed", "7", "scene", "load", "combat1")
    d2d.ok("--session", path, "unit", "condition", "Goblin Scout", "add", "fatigue",
           "--count", "2")
    d2d.ok("--session", path, "unit", "condition", "Goblin Scout", "add", "bleeding")
    d2d.ok("--session", path, "char", "new", "Rook", "--template", "human-female", "--body",
           "7", "--will", "5", "--archetype", "thief")
    return path


def _at(d2d: Runner, width: int, *args: Any, styled: bool = False) -> str:
    with env.active(Environment(width=width, styled=styled, colors=False)):
        res = d2d(*args)
    assert res.exit_code == 0, (res.exit_code, res.stdout, res.stderr)
    return _SGR.sub("", res.stdout)


def test_unit_list_at_40_is_stacked(d2d: Runner, table: Path) -> None:
    out = _at(d2d, 40, "--session", table, "unit", "list")
    assert out.startswith(
        "Archer\n"
        "  Body       8x1\n"
        "  Mind       5x1\n"
        "  Will       5x1\n"
        "  Speed      5x0\n"
        "  Move       5\n"
        "  AC         2\n"
        "Thief\n")
    assert ("Goblin Scout\n"
            "  Body       0x1 (2x1)\n"
            "  Mind       5x1 (6x1)\n"
            "  Will       2x1\n"
            "  Speed      5x0\n"
            "  Conditions Fatigue×2, Bleeding\n"
            "  Move       5\n"
            "  AC         2\n"
            "Goblin Skirmisher\n") in out


def test_unit_list_at_80_piped_keeps_names_whole(d2d: Runner, table: Path) -> None:
    """Too wide with two spaces between columns: one space, the widest column wrapping
    at a word, and no name wrapped."""
    out = _at(d2d, 80, "--session", table, "unit", "list")
    assert out == (
        "Unit              Body      Mind      Will Speed Conditions Move AC Turn Target \n"
        "Archer            8x1       5x1       5x1  5x0   —          5    2  —    —      \n"
        "Thief             8x1       5x1       5x1  4x0   —          4    2  —    —      \n"
        "Goblin Scout      0x1 (2x1) 5x1 (6x1) 2x1  5x0   Fatigue×2, 5    2  —    —      \n"
        "                                                 Bleeding                       \n"
        "Goblin Skirmisher 2x1       6x1       2x1  5x0   —          5    2  —    —      \n"
        "Rook              7x1       6x1       5x1  4x0   —          4    2  —    —      \n"
        "Goblin Scout: body at 0 — flip to Crit (001 p.35)\n")


def test_unit_list_at_200_is_the_table_as_designed(d2d: Runner, table: Path) -> None:
    out = _at(d2d, 200, "--session", table, "unit", "list")
    assert out.splitlines()[:4] == [
        " Unit               Body       Mind       Will  Speed  Conditions           Move  AC "
        " Turn  Target ",
        " Archer             8x1        5x1        5x1   5x0    —                    5     2  "
        " —     —      ",
        " Thief              8x1        5x1        5x1   4x0    —                    4     2  "
        " —     —      ",
        " Goblin Scout       0x1 (2x1)  5x1 (6x1)  2x1   5x0    Fatigue×2, Bleeding  5     2  "
        " —     —      "]


def test_columns_sets_the_width(d2d: Runner, table: Path) -> None:
    res = d2d.runner.invoke(__import__("d2d_cli.cli", fromlist=["app"]).app,
                            ["--session", str(table), "unit", "list"], env={"COLUMNS": "40"})
    assert res.stdout.startswith("Archer\n  Body       8x1\n")


def test_status_at_40_keeps_each_stat_beside_its_value(d2d: Runner, table: Path) -> None:
    out = _at(d2d, 40, "--session", table, "status", styled=True)
    assert ("Goblin Scout I2↙\n"
            "  Body 0x1 (2x1)  Mind 5x1 (6x1)\n"
            "  Will 2x1  Speed 5x0\n") in out
    assert ("Archer E9↑\n"
            "  Body 8x1  Mind 5x1  Will 5x1\n"
            "  Speed 5x0\n") in out
    assert not re.search(r"(Body|Mind|Will|Speed)\s*$", out, re.MULTILINE), out


VIEWS = [
    ("unit", "list"),
    ("status",),
    ("task", "list"),
    ("round", "start"),
    ("fate", "high-card", "Archer", "Thief", "Goblin Scout", "Goblin Skirmisher"),
    ("conflict", "chart"),
    ("scale", "samples"),
    ("scale", "map", "--list"),
    ("odds", "die", "d20"),
    ("roll", "3d6", "--odds"),
    ("char", "show", "Rook"),
    ("char", "list"),
    ("clock", "event", "list"),
]
NAMES = ("Goblin Scout", "Goblin Skirmisher", "Archer", "Thief", "Rook")


@pytest.mark.parametrize("width", [40, 80, 200])
@pytest.mark.parametrize("args", VIEWS, ids=[" ".join(v[:2]) for v in VIEWS])
def test_every_table_view_is_readable(d2d: Runner, table: Path, args: tuple[str, ...],
                                      width: int) -> None:
    """On a terminal of this width: no line wider than it, no cell cut short ("…"),
    every unit's name whole on one line."""
    out = _at(d2d, width, "--session", table, *args, styled=True)
    lines = out.splitlines()
    assert lines, args
    too_wide = [line for line in lines if len(line) > width]
    assert not too_wide, too_wide
    assert "…" not in out.replace("2 > … > 10", "")  # the conflict chart's own ellipsis
    for line in lines:  # a row (or block) that starts with a name cut at its space
        if re.match(r"\s*Goblin(\s{2,}|$)", line):
            pytest.fail(f"a name wrapped: {line!r}")
    if args[0] in ("unit", "status", "round", "fate"):  # each name whole, on one line
        assert all(name in out for name in NAMES[:4]), out


@pytest.mark.parametrize("box", ["default", None])
@pytest.mark.parametrize("pad_edge", [True, False])
@pytest.mark.parametrize("show_header", [True, False])
def test_the_natural_width_is_richs(box: Any, pad_edge: bool, show_header: bool) -> None:
    """layout.Table measures plain cells itself (the 100-unit dashboard asks before it
    prints): the same width Rich measures."""
    from rich.console import Console
    from rich.measure import Measurement

    from d2d_cli.layout import Table

    for columns in (["Unit"], ["Unit", "Body", "Conditions"]):
        t = Table(*columns, box=box, pad_edge=pad_edge, show_header=show_header)
        t.add_row(*["Goblin Scout", "[bold]0x1[/] (2x1)", "Fatigue×2, Bleeding"][:len(columns)])
        t.add_row(*["Rook", "", "—"][:len(columns)])
        wide = Console(width=10_000)
        assert t.natural_width() == Measurement.get(wide, wide.options,
                                                    t.rich_table()).maximum
