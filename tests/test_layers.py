"""The layering of DESIGN.md, checked by import-linter's contracts in pyproject.toml:
commands → rules, session, render; rules/ by chapter, each subpackage reading only the
chapters below it; rules/ free of Typer, Click, Rich, tomlkit, prompt_toolkit and
platformdirs; and no import circle anywhere in d2d_cli (function-level imports count)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "d2d_cli" / "rules"


def test_import_contracts_hold(capsys: pytest.CaptureFixture[str]) -> None:
    from importlinter.cli import lint_imports

    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                        no_logo=True)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 broken" in out


def test_every_rules_module_sits_in_a_chapter() -> None:
    """rules/ holds subpackages only (and its own __init__): a module dropped at the top
    would escape the chapter layering."""
    loose = sorted(p.name for p in RULES.glob("*.py") if p.name != "__init__.py")
    assert loose == []


def test_every_chapter_says_what_it_covers() -> None:
    """Each subpackage's docstring names the rule books' chapters it covers."""
    for pkg in sorted(p for p in RULES.iterdir() if (p / "__init__.py").exists()):
        doc = ast.get_docstring(ast.parse((pkg / "__init__.py").read_text()))
        assert doc, f"rules/{pkg.name}/__init__.py has no docstring"
        names = {p.stem for p in pkg.glob("*.py")} - {"__init__"}
        names |= {p.name for p in pkg.iterdir() if (p / "__init__.py").exists()}
        missing = sorted(n for n in names if f"``{n}``" not in doc)
        assert missing == [], f"rules/{pkg.name}: modules not named in its docstring"
        # …and the chapters: a citation of 000 or 001 (a chapter, a page, a line), or,
        # for a subject the rule books have none of, the 000/001 chapters it reads.
        assert re.search(r"\b00[01]\b", doc), (
            f"rules/{pkg.name}/__init__.py names no chapter of 000 or 001")


def test_the_architecture_table_lists_every_chapter_and_module() -> None:
    """docs/architecture.md "rules/ by chapter" is the reader's map of rules/: one row per
    subpackage naming each of its modules (a module added without its row fails)."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", doc, flags=re.MULTILINE))
    chapters = sorted(p.name for p in RULES.iterdir() if (p / "__init__.py").exists())
    assert sorted(rows) == chapters
    for name in chapters:
        listed = set(re.findall(r"\w+", rows[name]))
        modules = {p.stem for p in (RULES / name).glob("*.py")} - {"__init__"}
        modules |= {p.name for p in (RULES / name).iterdir() if (p / "__init__.py").exists()}
        assert sorted(modules - listed) == [], f"rules/{name}: modules missing from its row"
