"""The docs name the code as it is (issue 26 item 7): every dotted name that
docs/architecture.md or docs/api.md quotes in backticks and that starts with
a d2d module — ``operations.label``, ``reads.locked_read``, ``cli.app.root()``,
``d2d_cli.rules.scale.quantities`` — exists. A function moved or renamed leaves its old
name in the prose (``_state.options(ctx, data)`` after the options became
``Target.options``); this finds it."""

from __future__ import annotations

import importlib
import pkgutil
import re
from types import ModuleType
from typing import Any

import pytest

import d2d_cli
from tests.helpers import ROOT

DOCS = ("docs/architecture.md", "docs/api.md")

# `a.b`, `a.b.c(…)`: a dotted name, maybe called; not a file name (`cache.py`).
_QUOTED = re.compile(r"`((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*)(?:\([^`]*\))?`")
_FILES = ("py", "toml", "md", "txt", "jsonl", "json", "svg", "html", "cache", "journal",
          "bak", "old", "lock", "tmp")


def _modules() -> dict[str, list[str]]:
    """Every module of d2d_cli by its last name (``reads``: ``d2d_cli.session.reads``)."""
    by_name: dict[str, list[str]] = {"d2d_cli": ["d2d_cli"]}
    for m in pkgutil.walk_packages(d2d_cli.__path__, "d2d_cli."):
        by_name.setdefault(m.name.rsplit(".", 1)[-1], []).append(m.name)
    return by_name


MODULES = _modules()


def _resolves(module: str, rest: list[str]) -> bool:
    obj: Any = importlib.import_module(module)
    where = module
    for part in rest:
        if hasattr(obj, part):
            obj = getattr(obj, part)
            where = f"{where}.{part}"
            continue
        if isinstance(obj, ModuleType):
            try:
                obj = importlib.import_module(f"{where}.{part}")
            except ImportError:
                return False
            where = f"{where}.{part}"
            continue
        return False
    return True


def quoted_names(text: str) -> list[str]:
    """The dotted names in backticks whose first word is a d2d module's name."""
    out: list[str] = []
    for m in _QUOTED.finditer(text):
        dotted = m.group(1)
        head, *_, last = dotted.split(".")
        if last in _FILES or head not in MODULES:
            continue
        out.append(dotted)
    return out


def missing(dotted: str) -> bool:
    head, *rest = dotted.split(".")
    if head == "d2d_cli":
        return not _resolves("d2d_cli", rest)
    return not any(_resolves(module, rest) for module in MODULES[head])


@pytest.mark.parametrize("doc", DOCS)
def test_every_quoted_name_of_the_code_exists(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    names = quoted_names(text)
    assert names, f"{doc} quotes no name of the code: the test reads nothing"
    assert sorted({n for n in names if missing(n)}) == []


def test_a_stale_name_is_found() -> None:
    """What the check catches: names that were true once (issue 26 moved them)."""
    text = ("`_state.options(ctx, data)`, `_reveal.with_reveals(ctx, table, body)`, "
            "`session._loads`, `operations.label`, `reads.locked_read`, `cache.py`, "
            "`d2d_cli.rules.odds.walk.Piles`, `d2d_cli.rules.odds.engine`")
    names = quoted_names(text)
    assert "cache.py" not in names
    assert [n for n in names if missing(n)] == [
        "_state.options", "_reveal.with_reveals", "session._loads",
        "d2d_cli.rules.odds.engine"]
