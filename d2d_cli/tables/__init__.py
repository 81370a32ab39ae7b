"""The rules' data (skills, archetypes, damage decks, charts, maps…) as TOML files.

:func:`load` is the one way to read them: each file is parsed once per process (inside
``d2d play``, once per shell) and shared, so callers treat the result as read-only.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent


@cache
def load(name: str) -> dict[str, Any]:
    """``tables/<name>.toml`` parsed: ``load("conflict")``, ``load("scenes/combat1")``."""
    with (_HERE / f"{name}.toml").open("rb") as f:
        return tomllib.load(f)


def names(folder: str) -> list[str]:
    """The tables in a subfolder, by name: ``names("systems")`` → ``["drgn", "hero", …]``."""
    return sorted(p.stem for p in (_HERE / folder).glob("*.toml"))
