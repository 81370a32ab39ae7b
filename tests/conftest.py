"""Shared fixtures: every test runs against its own data folder, never the user's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from d2d_cli.cli import app

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "data"
    monkeypatch.setenv("D2D_DATA_DIR", str(d))
    for var in ("D2D_SESSION", "D2D_SEED", "D2D_DEBUG", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    return d


class Runner:
    """``d2d(...)`` in-process through Typer's CliRunner; ``.json(...)`` parses the envelope."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: Any, input: str | None = None) -> Any:
        return self.runner.invoke(app, [str(a) for a in args], input=input)

    def json(self, *args: Any, code: int = 0) -> dict[str, Any]:
        res = self(*args, "--json")
        assert res.exit_code == code, (res.exit_code, res.stdout, res.stderr)
        envelope = json.loads(res.stdout)
        return envelope["result"] if code == 0 else envelope

    def ok(self, *args: Any) -> str:
        res = self(*args)
        assert res.exit_code == 0, (res.exit_code, res.stdout, res.stderr)
        return res.stdout


@pytest.fixture
def d2d() -> Runner:
    return Runner()


def with_rules(d2d: Runner, tmp_path: Path, **rules: Any) -> Path:
    """A session file whose [rules] table holds ``rules``, as a table would hand-edit it."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / f"table{len(list(tmp_path.glob('table*.toml')))}.toml"
    d2d.ok("--session", path, "fate", "status")
    lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in rules.items())
    path.write_text(path.read_text().replace("[rules]\n", "[rules]\n" + lines, 1))
    return path


def run_process(*args: str, env: dict[str, str] | None = None,
                timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m d2d_cli ARGS`` in a real process (for locking, kills, imports)."""
    import os

    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "d2d_cli", *args], capture_output=True,
                          text=True, env=full_env, timeout=timeout)
