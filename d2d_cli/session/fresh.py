"""The fresh file: a new session's data and text (a freshly shuffled Fate deck, laid out
as tomlkit lays it out), and ``create``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from d2d_cli.errors import NotFound
from d2d_cli.session import files
from d2d_cli.session import text as T
from d2d_cli.session.cache import SCHEMA, _copy
from d2d_cli.session.commit import _now
from d2d_cli.session.names import _real, data_dir
from d2d_cli.session.scope import _State


def new_state(seed: int) -> dict[str, Any]:
    """A fresh session's data. The Fate deck is shuffled by the caller (rules.deck.fate)."""
    return {
        "schema": SCHEMA,
        "meta": {"created": _now(), "seed": seed, "rng": 0},
        "rules": {},
    }


_HEADER = """\
# d2d session file. Safe to edit by hand while no d2d command runs; comments are kept.
# [rules] holds this table's à la carte choices (see docs/rules.md), e.g.
#   speed_convention = "001"
"""


def _fresh_text(data: dict[str, Any]) -> str:
    """A new session's text: ``schema``, the header comment, the tables, laid out as
    tomlkit lays them out (text.dump; tomlkit itself only if that would not read back)."""
    body = T.dump((), {k: v for k, v in data.items() if k != "schema"})
    fresh = f"schema = {data['schema']}\n{_HEADER}\n{body}"
    return fresh if T._loads(fresh) == data else _fresh_tomlkit(data)


def _fresh_tomlkit(data: dict[str, Any]) -> str:
    """A new session's text written by tomlkit (the layout :func:`_fresh_text` copies)."""
    import tomlkit

    doc = tomlkit.document()
    doc.add("schema", data["schema"])
    for line in _HEADER.splitlines():
        doc.add(tomlkit.comment(line.removeprefix("# ")))
    for key, value in data.items():
        if key != "schema":
            doc[key] = value
    return tomlkit.dumps(doc)


def _fresh(real: Path, seed: int | None) -> _State:
    """A new session with a freshly shuffled Fate deck, in memory. Only d2d's own data
    folder is created if missing; a path's folder must exist."""
    from d2d_cli.rules.deck import fate

    if not real.parent.is_dir():
        if real.parent != _real(data_dir()):
            raise NotFound(f"no folder {real.parent} for the session file {real.name} (d2d "
                           "creates the file, never folders)")
        with files.guard(real.parent, "create the data folder"):
            real.parent.mkdir(parents=True, exist_ok=True)
    if seed is None:
        seed = int.from_bytes(os.urandom(6), "big")  # 48 random bits (secrets: +5 ms)
    data = new_state(seed)
    data["fate"] = fate.new_deck(rng_for(seed, None, 0)).to_state()
    data["meta"]["rng"] = 1
    text = _fresh_text(data)
    import tomllib

    data = tomllib.loads(text)
    grouped = T.groups(text)
    root = grouped[1] if grouped is not None and grouped[0] == data else None
    pristine = _copy(data)
    return _State(real, text, b"", "", data, root, None, creating=True,
                  twin=lambda: _copy(pristine))


def rng_for(session_seed: int, override: int | None, counter: int) -> Any:
    import random

    if override is not None:
        return random.Random(f"d2d:{override}:{counter}")
    return random.Random(f"d2d:{session_seed}:{counter}")

