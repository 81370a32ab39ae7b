"""Commit last (issue 10, item 1): an exit code other than 0 means nothing changed —
every check and every rendering that can fail happens before the change is saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from d2d_cli import env, render
from tests.helpers import build_table, files_of, hand_edit


def test_a_refused_award_changes_no_points(d2d, tmp_path: Path) -> None:
    # The repro: a hand-edited [rules] value the sheet cannot use.
    path = build_table(d2d, tmp_path / "a.toml")
    d2d.ok("--session", path, "char", "new", "Rook", "--body", "7", "--speed", "5")
    hand_edit(path, r"^\[rules\]$", '[rules]\nspeed_convention = "5"')
    before = files_of(tmp_path)
    for _ in range(3):  # a retry never applies it twice
        res = d2d("--session", path, "char", "award", "Rook", "--cp", "1")
        assert res.exit_code != 0 and res.stdout == ""
    assert files_of(tmp_path) == before


def test_a_unit_of_the_wrong_shape_gets_no_condition(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "c.toml")
    hand_edit(path, r'^speed = "5x0"$', 'speed = "5x0"\ncrits = "x"')
    before = files_of(tmp_path)
    res = d2d("--session", path, "unit", "condition", "Gob", "add", "fatigue")
    assert res.exit_code == 3 and "[units.Gob] crits" in res.stderr
    assert files_of(tmp_path) == before


def test_markup_in_a_summary_does_not_break_undo(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "m.toml")
    before = path.read_bytes()
    d2d.ok("--session", path, "clock", "event", "add", "5", "[/]")
    out = d2d.ok("--session", path, "session", "undo")
    assert "[/]" in out and path.read_bytes() == before


def test_a_view_that_fails_to_render_saves_nothing_and_prints_nothing(
        d2d, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = build_table(d2d, tmp_path / "v.toml")
    before = files_of(tmp_path)
    real = render.console

    def broken(stderr: bool = False):  # a human view that raises half-way
        con = real(stderr)
        con.print = lambda *a, **k: (_ for _ in ()).throw(ValueError("render failed"))
        return con

    monkeypatch.setattr(render, "console", broken)
    res = d2d("--session", path, "fate", "draw", "3")
    assert res.exit_code == 1 and res.stdout == ""
    assert files_of(tmp_path) == before
    monkeypatch.undo()
    d2d.ok("--session", path, "fate", "draw", "3")  # the lock was released
    assert path.read_bytes() != before[path.name]


def test_the_change_is_saved_before_the_result_is_printed(d2d, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The boundary commits, then prints: a result on stdout is a change on disk."""
    from d2d_cli.session import scope

    path = build_table(d2d, tmp_path / "o.toml")
    seen = []

    class Recording(env.Environment):
        def flush(self, buf: list[str]) -> None:
            seen.append(path.read_bytes())
            super().flush(buf)

    before = path.read_bytes()
    with env.active(Recording()):
        d2d.ok("--session", path, "fate", "draw")
    assert seen and seen[0] != before and not scope._stack()  # nothing left pending
