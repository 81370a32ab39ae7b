"""Helpers shared by the session guarantee tests (imported, never collected)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` (not the cache, which only saves time) by name."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith(".cache")}


def build_table(d2d: Any, path: Path, seed: int = 1) -> Path:
    """A session holding a unit with a skill and a condition, a task, a clock event."""
    d2d.ok("--seed", seed, "session", "new", path)
    s = ("--session", path)
    d2d.ok(*s, "unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0", "--skill", "Stealth=1")
    d2d.ok(*s, "unit", "condition", "Gob", "add", "fatigue")
    d2d.ok(*s, "task", "new", "knot", "--difficulty", "4")
    d2d.ok(*s, "clock", "event", "add", "5", "reinforcements")
    return path


def hand_edit(path: Path, pattern: str, repl: str, count: int = 1) -> str:
    """Edit the session text as a person would (a regex on the text); returns it."""
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(pattern, repl, text, count=count, flags=re.M | re.S)
    assert n, f"pattern {pattern!r} not in the file"
    path.write_text(new, encoding="utf-8")
    return new
