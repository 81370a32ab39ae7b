"""The rules' data (skills, archetypes, damage decks, charts, maps…) as TOML files.

:func:`load` is the one way to read them: each file is parsed once per process (inside
``d2d play``, once per shell) and shared, so callers treat the result as read-only.

Parsing TOML is slow next to the rest of a lookup (``ref 'blood loss'`` parsed four
tables, ~8 ms), so the parsed data is also kept as Python's ``marshal`` bytes in this
folder's ``__pycache__``, the way Python keeps a module's bytecode: named by the
interpreter and the source's size and modification time, written atomically on first
use where the folder is writable, and read back ~50× faster than the TOML is parsed.
A missing, stale or unreadable copy is never used: the TOML is parsed instead.
"""

from __future__ import annotations

import marshal
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_CACHE = _HERE / "__pycache__"
_TAG = sys.implementation.cache_tag or "python"


def _cached(name: str, source: Path) -> Path:
    st = source.stat()
    return _CACHE / f"{name.replace('/', '.')}.{_TAG}.{st.st_size}.{st.st_mtime_ns}.marshal"


@cache
def load(name: str) -> dict[str, Any]:
    """``tables/<name>.toml`` parsed: ``load("conflict")``, ``load("scenes/combat1")``."""
    source = _HERE / f"{name}.toml"
    copy = _cached(name, source)
    try:
        data = marshal.loads(copy.read_bytes())
        if isinstance(data, dict):
            return data
    except (OSError, ValueError, EOFError, TypeError):
        pass
    import tomllib  # the copy is missing or stale: parse the TOML

    with source.open("rb") as f:
        data = tomllib.load(f)
    _keep(copy, data)
    return data


def _keep(copy: Path, data: dict[str, Any]) -> None:
    """Write the parsed copy (atomically; silently not where the folder is read-only),
    and drop older copies of the same table."""
    try:
        blob = marshal.dumps(data)
        copy.parent.mkdir(exist_ok=True)
        tmp = copy.with_name(f"{copy.name}.{os.getpid()}.tmp")
        try:
            tmp.write_bytes(blob)
            os.replace(tmp, copy)
        finally:
            tmp.unlink(missing_ok=True)
        stem = copy.name.split(f".{_TAG}.")[0]
        for old in copy.parent.glob(f"{stem}.{_TAG}.*.marshal"):
            if old != copy:
                old.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass


def names(folder: str) -> list[str]:
    """The tables in a subfolder, by name: ``names("systems")`` → ``["drgn", "hero", …]``."""
    return sorted(p.stem for p in (_HERE / folder).glob("*.toml"))
