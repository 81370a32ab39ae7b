"""Shared fixtures: every test runs against its own data folder, never the user's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers import Runner

# CI (and `CI=1 pytest`) runs every property test on a fixed sequence of examples, so a
# run is repeatable and bounded; a plain local run keeps exploring new ones. Neither
# fails a test because drawing its examples was slow: that is the machine's load (every
# core busy with the suite's other workers), not a fault of the code (issue 40 item 4).
LOAD_TOLERANT = [HealthCheck.too_slow]
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          suppress_health_check=LOAD_TOLERANT)
settings.register_profile("local", suppress_health_check=LOAD_TOLERANT)
settings.load_profile("ci" if os.environ.get("CI") else "local")


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
