"""A table written as TOML the way tomlkit lays it out (keys, then sub-tables and arrays
of tables, a blank line before each header) — the session writer's renderer
(:mod:`.text` splices what it writes), linear in the size of the data and without
tomlkit's document model."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    return k if _BARE.fullmatch(k) else _string(k)


def _string(v: str) -> str:
    # JSON's escapes are TOML's, but for DEL, which TOML wants escaped too
    return _json_dumps()(v, ensure_ascii=False).replace("\x7f", "\\u007f")


@functools.cache
def _json_dumps() -> Callable[..., str]:
    """``json.dumps``, imported on the first write (a lookup never renders TOML)."""
    import json

    return json.dumps


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if v != v else "inf" if v == float("inf") else "-inf" \
            if v == float("-inf") else repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise ValueError(f"cannot write a {type(v).__name__} by hand")  # tomlkit will


def dump(path: tuple[str, ...], table: dict[str, Any]) -> str:
    """``[path]`` and its contents as tomlkit lays them out: keys, then sub-tables and
    arrays of tables, a blank line before each header; a table of tables alone gets no
    header of its own. Linear in the size of the data."""
    out: list[str] = []
    _dump(out, path, table, False)
    return "".join(out)


def _dump(out: list[str], path: tuple[str, ...], table: dict[str, Any], aot: bool) -> None:
    plain: list[str] = []
    subs: list[tuple[str, Any, bool]] = []
    for k, v in table.items():
        if isinstance(v, dict):
            subs.append((k, v, False))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            subs.append((k, v, True))
        else:
            plain.append(f"{_key(k)} = {_value(v)}\n")
    if aot or plain or not subs:
        name = ".".join(_key(k) for k in path)
        out.append(("\n" if out else "") + (f"[[{name}]]\n" if aot else f"[{name}]\n"))
        out.extend(plain)
    for k, v, is_aot in subs:
        for item in (v if is_aot else [v]):
            _dump(out, (*path, k), item, is_aot)
