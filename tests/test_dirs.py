"""Where d2d keeps its files (issue 18 item 5): platformdirs' data, state and cache
folders, all three under ``$D2D_DATA_DIR`` when it is set."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest

from d2d_cli import session
from d2d_cli.session import dirs


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No D2D_DATA_DIR; XDG folders in a private home."""
    monkeypatch.delenv("D2D_DATA_DIR")
    h = tmp_path / "home"
    monkeypatch.setenv("HOME", str(h))
    for var, sub in (("XDG_DATA_HOME", "share"), ("XDG_STATE_HOME", "state"),
                     ("XDG_CACHE_HOME", "cache")):
        monkeypatch.setenv(var, str(h / sub))
    return h


def test_without_the_override_the_folders_are_platformdirs(home: Path) -> None:
    assert dirs.data_dir() == session.data_dir() == Path(
        platformdirs.user_data_dir("d2d", appauthor=False))
    assert dirs.state_dir() == Path(platformdirs.user_state_dir("d2d", appauthor=False))
    assert dirs.cache_dir() == Path(platformdirs.user_cache_dir("d2d", appauthor=False))


_XDG_ONLY = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="the XDG variables decide the folders on Linux only (platformdirs uses "
           "~/Library on macOS and %LOCALAPPDATA% on Windows)")


@_XDG_ONLY
def test_on_linux_the_folders_follow_the_xdg_variables(home: Path) -> None:
    assert (dirs.data_dir(), dirs.state_dir(), dirs.cache_dir()) == (
        home / "share" / "d2d", home / "state" / "d2d", home / "cache" / "d2d")


@_XDG_ONLY
@pytest.mark.parametrize("xdg", ["  ", "relative"])
def test_a_blank_or_relative_xdg_folder_is_ignored_as_xdg_says(
        home: Path, monkeypatch: pytest.MonkeyPatch, xdg: str) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", xdg)
    assert dirs.data_dir() == home / ".local" / "share" / "d2d"


def test_the_override_holds_everything(data_dir: Path) -> None:
    assert dirs.data_dir() == dirs.state_dir() == data_dir
    assert dirs.cache_dir() == data_dir / "cache"


def test_a_lookup_with_the_override_does_not_import_platformdirs(data_dir: Path) -> None:
    import subprocess

    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "try:\n    main(['fate', 'status'])\nexcept SystemExit:\n    pass\n"
            "print('platformdirs' in sys.modules)")
    env = {**os.environ, "D2D_DATA_DIR": str(data_dir)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert out.splitlines()[-1] == "False"


def test_play_history_moves_from_the_data_folder_to_the_state_folder(home: Path) -> None:
    old = dirs.data_dir() / "play_history"
    old.parent.mkdir(parents=True)
    old.write_text("\n# 2026-01-01\n+fate status\n", encoding="utf-8")
    new = dirs.play_history()
    assert new == dirs.state_dir() / "play_history"
    assert new.read_text(encoding="utf-8") == "\n# 2026-01-01\n+fate status\n"
    assert not old.exists()
    # Once moved (or once there is a history in the state folder), an old one stays put.
    old.write_text("+older\n", encoding="utf-8")
    assert dirs.play_history() == new
    assert new.read_text(encoding="utf-8").endswith("+fate status\n")
    assert old.read_text(encoding="utf-8") == "+older\n"


def test_play_history_with_the_override_stays_in_it(data_dir: Path) -> None:
    assert dirs.play_history() == data_dir / "play_history"
    assert data_dir.is_dir()
