"""Combat #1 (000 l.545–613) replayed end to end by unit names from `scene load
combat1`: every printed step one command (tests/combat1_replay.py), each result checked
against the line it comes from, nothing retyped — the Range of the javelin, the cover
behind the rock, the Interrupt and the Archer's unspent Action are said once and read by
the later commands. docs/combat1.md is the same replay for a Narrator, generated from the
same steps (scripts/gen_combat1.py), checked here to be up to date."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.combat1_replay import STEPS
from tests.helpers import ROOT, rule_text


def _clean(text: str) -> str:
    return " ".join(text.split())


def test_every_step_quotes_its_line() -> None:
    lines = rule_text("000").splitlines()
    for step in STEPS:
        assert _clean(step.quote) in _clean(lines[step.line - 1]), (step.line, step.quote)


def test_combat_1_replayed_by_unit_names(d2d: Any, tmp_path: Path) -> None:
    s = ["--session", tmp_path / "combat1.toml"]
    for step in STEPS:
        result = d2d.json(*s, *step.argv)
        try:
            step.check(result)
        except AssertionError as e:
            raise AssertionError(f"l.{step.line} {step.quote!r}: d2d {' '.join(step.argv)}"
                                 f" gave {e}") from None


def test_the_transcript_is_the_replay() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_combat1.py"),
                          "--check"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
