"""Help written for players (issue 20.10): examples that work wherever d2d is run, and
no rule-file citations in option help (they live in docs/)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path


def test_the_scene_load_example_works_outside_the_repo(d2d, tmp_path: Path) -> None:
    example = next(x for x in d2d.ok("scene", "load", "--help").splitlines()
                   if x.strip().startswith("Example:"))
    words = shlex.split(example.split("Example:", 1)[1].split("(", 1)[0])
    assert words == ["d2d", "scene", "load", "combat1"]
    env = {"D2D_DATA_DIR": str(tmp_path / "data"), "PATH": ""}
    res = subprocess.run([sys.executable, "-m", "d2d_cli", *words[1:]], cwd=tmp_path,
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("Combat #1")
