"""Shared fixtures: every test runs against its own data folder, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Runner


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "data"
    monkeypatch.setenv("D2D_DATA_DIR", str(d))
    for var in ("D2D_SESSION", "D2D_SEED", "D2D_DEBUG", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    return d


@pytest.fixture
def d2d() -> Runner:
    return Runner()
