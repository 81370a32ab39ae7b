"""The rules' data (skills, archetypes, damage decks, charts, maps…) as TOML files.

:func:`load` is the one way to read them: each table is built once per process (inside
``d2d play``, once per shell) and shared, so callers treat the result as read-only.

The TOML files are the source; ``_data.py`` holds the same tables as Python literals,
generated from them by ``scripts/gen_tables.py`` and committed (tests/test_tables.py
checks it matches). Parsing TOML is slow next to the rest of a lookup (``ref 'blood
loss'`` parsed four tables, ~8 ms); the generated module is read through Python's own
bytecode cache instead, which pip compiles at install time and removes on uninstall,
so d2d never writes into its installed package.
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def load(name: str) -> dict[str, Any]:
    """``tables/<name>.toml`` parsed: ``load("conflict")``, ``load("scenes/combat1")``."""
    from d2d_cli.tables._data import TABLES

    try:
        build = TABLES[name]
    except KeyError:
        raise FileNotFoundError(f"no table {name!r} in d2d_cli/tables") from None
    return build()


def names(folder: str) -> list[str]:
    """The tables in a subfolder, by name: ``names("systems")`` → ``["drgn", "hero", …]``."""
    from d2d_cli.tables._data import TABLES

    prefix = f"{folder}/"
    return sorted(n[len(prefix):] for n in TABLES if n.startswith(prefix) and
                  "/" not in n[len(prefix):])
