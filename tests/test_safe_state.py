"""Nothing lost, third pass (issue 30): the writer never fails on what a scene or a
hand edit hands it, a failing exit leaves the session, its ``.bak``, journal and cache
byte for byte, and hand edits of every table and of the journal are refused (exit 3,
naming the key) rather than exit 1. Each test reproduces the issue's repro first,
through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from d2d_cli import api
from d2d_cli.errors import D2DError
from d2d_cli.session import dirs

MINI = ('name = "Mini"\nmap = "personal"\n[units.A]\nbody = "2x1"\nmind = "2x1"\n'
        'will = "2x1"\nspeed = "4x0"\n')


def everything(data: Path) -> dict[str, bytes]:
    """Every file d2d keeps for the sessions under ``data``: session, .bak, journal,
    current pointer and the cache folder (which only saves time, but a failing exit
    must not touch it either)."""
    out: dict[str, bytes] = {}
    for root in (data, dirs.cache_dir()):
        if root.is_dir():
            for p in sorted(root.rglob("*")):
                if p.is_file():
                    out[str(p)] = p.read_bytes()
    return out


def test_scene_load_without_factions_or_reserves_after_combat1(d2d, data_dir: Path,
                                                                tmp_path: Path) -> None:
    # The repro 1: combat1 has [scene.factions.*] and [scene.reserves.*]; a
    # scene without them emptied tables whose text held only sub-tables: exit 1.
    d2d.ok("scene", "load", "combat1")
    mini = tmp_path / "mini.toml"
    mini.write_text(MINI, "utf-8")
    res = d2d("scene", "load", str(mini))
    assert res.exit_code == 0, (res.stdout, res.stderr)
    shown = d2d.json("scene", "show")
    assert shown["name"] == "Mini"
    # and back: the session reads as written, undo restores Combat #1
    d2d.ok("session", "undo")
    assert d2d.json("scene", "show")["name"] == "Combat #1"


def test_the_api_raises_a_d2d_error_for_that_scene(d2d, tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    d2d.ok("--session", path, "scene", "load", "combat1")
    mini = tmp_path / "mini.toml"
    mini.write_text(MINI, "utf-8")
    api.Session(path).scene.load(mini)
    assert "Mini" in path.read_text("utf-8")


def test_a_write_that_would_not_read_back_is_a_d2d_error(
        d2d, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the writer ever fail to render a change, the API raises a D2DError (exit
    3 on the command line), never a RuntimeError, and nothing changes."""
    from d2d_cli.session import text

    path = tmp_path / "r.toml"
    d2d.ok("--session", path, "fate", "status")
    before = everything(tmp_path)

    def broken(*a: object, **k: object) -> None:
        raise ValueError("the new session text would not read back as written")

    monkeypatch.setattr(text, "render", broken)
    res = d2d("--session", path, "fate", "draw")
    assert res.exit_code == 3 and "nothing was changed" in res.stderr
    with pytest.raises(D2DError):
        api.Session(path).fate.draw(1)
    assert everything(tmp_path) == before
