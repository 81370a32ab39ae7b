"""The dashboard's rows remembered inside one process (rules/overview/dashboard.py
``_rows``): from a process's second dashboard on, a unit whose table, round, map and
options are those of a row built before gets that row again, built afresh from its
fields — inside ``d2d play`` a dashboard after a change rebuilds only the units that
changed. The rows are the same as built from scratch, and each caller has its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from d2d_cli.operations import Target
from d2d_cli.operations.overview import status
from d2d_cli.rules.overview import dashboard as board
from d2d_cli.rules.units import status_bar
from d2d_cli.rules.units.roster import Unit
from tests.combat1_replay import STEPS


def _fresh(path: Path) -> board.Dashboard:
    """The dashboard built from scratch: nothing remembered."""
    t = Target(str(path))
    data = t.read()
    opts, where = t.options(data), status_bar.map_of(data)
    return board.dashboard(data, bar=lambda u: status_bar.on_the_bar(u, where, opts))


def test_remembered_rows_are_the_rows_built_afresh(d2d: Any, tmp_path: Path) -> None:
    """Combat #1 played step by step (targets, moves, waits, interrupts, conflicts,
    hits, crits, conditions, round ends), the dashboard asked after each step: every
    row is the one built from scratch."""
    path = tmp_path / "c.toml"
    for step in STEPS:
        argv = list(step.argv)
        at = 2 if argv[:1] == ["--seed"] else 0
        d2d.ok(*argv[:at], "--session", path, *argv[at:])
        for _ in range(2):
            assert status(Target(str(path))) == _fresh(path), step.argv


def test_a_row_is_rebuilt_only_for_a_unit_that_changed(
        d2d: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.toml"
    for i in range(5):
        d2d.ok("--session", path, "unit", "add", f"Goblin {i}", "--body", "2x1", "--mind",
               "2x1", "--will", "2x1", "--speed", "4x0")
    t = Target(str(path))
    status(t)
    status(t)  # this process's rows remembered from here on
    built: list[str] = []
    real = Unit.from_state.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Unit, "from_state", classmethod(
        lambda cls, name, state: built.append(name) or real(cls, name, state)))
    first = status(t)
    assert built == []  # five units, none built again
    d2d.ok("--session", path, "unit", "condition", "Goblin 3", "add", "fatigue")
    built.clear()  # the command's own
    after = status(t)
    assert built == ["Goblin 3"]
    assert after.units[3].stats["body"] == "1x1" and after.units[3].conditions == {
        "fatigue": 1}
    first.units[0].conditions["dead"] = 1  # a caller changes what it was given
    first.units[0].stats["body"] = "9x9"
    again = status(t)
    assert again.units[0].conditions == {} and again.units[0].stats["body"] == "2x1"
    assert again == _fresh(path)
    d2d.ok("--session", path, "round", "start")  # another round: every row anew
    built.clear()  # the command's own
    assert status(t) == _fresh(path)
    assert len(built) == 10  # five remembered, five for the comparison



def test_a_units_cells_and_block_are_written_again_only_when_it_changed(
        d2d: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The human dashboard remembers each unit's cells and block by what its row holds
    (commands/status.py): a repeated dashboard writes only the changed unit's, and
    prints what a dashboard written from scratch prints."""
    from d2d_cli.commands import status as view
    from d2d_cli.commands import units as unit_views

    path = tmp_path / "v.toml"
    for i in range(5):
        d2d.ok("--session", path, "unit", "add", f"Goblin {i}", "--body", "2x1", "--mind",
               "2x1", "--will", "2x1", "--speed", "4x0")
    d2d.ok("--session", path, "unit", "target", "Goblin 1", "Goblin 2")
    written: list[str] = []
    real = unit_views.stat_cell
    monkeypatch.setattr(unit_views, "stat_cell",
                        lambda r, s: written.append(r.name) or real(r, s))

    def fresh() -> str:
        monkeypatch.setattr(view, "_SHOWN", [0])  # nothing remembered: a first dashboard
        monkeypatch.setattr(view, "_CELLS", {})
        monkeypatch.setattr(view, "_BLOCKS", {})
        return str(d2d.ok("--session", path, "status"))

    for width in (200, 40):  # the one-row table, the blocks
        monkeypatch.setenv("COLUMNS", str(width))
        first = fresh()
        assert d2d.ok("--session", path, "status") == first  # remembered from here on
        written.clear()
        assert d2d.ok("--session", path, "status") == first
        assert written == []
        d2d.ok("--session", path, "unit", "condition", "Goblin 3", "add", "fatigue")
        written.clear()
        changed = d2d.ok("--session", path, "status")
        assert set(written) == {"Goblin 3"} and "Fatigue" in changed
        assert changed == fresh()
        d2d.ok("--session", path, "unit", "condition", "Goblin 3", "remove", "fatigue")
