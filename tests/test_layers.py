"""The layering of DESIGN.md, checked by import-linter's contracts in pyproject.toml:
cli | api → commands → operations → render, session → rules; rules/ by chapter, each
subpackage reading only the chapters below it; rules/ free of Typer, Click, Rich,
tomlkit, prompt_toolkit and platformdirs; and no import circle anywhere in d2d_cli
(function-level imports count). And docs/architecture.md's module tables name every
module of d2d_cli/ and nothing else."""

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


def _table(title: str) -> list[list[str]]:
    """The rows (cells stripped) of the table under ``### title`` in docs/architecture.md,
    header and rule line left out."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split(f"\n### {title}\n", 1)[1].split("\n#", 1)[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")]
    return rows[2:]


def _chapter_modules(cell: str) -> set[str]:
    """``notation (limits, syntax), systems`` → {notation.limits, notation.syntax,
    systems}."""
    nested = {f"{pkg}.{m.strip()}" for pkg, inner in re.findall(r"(\w+)\s*\(([^)]*)\)", cell)
              for m in inner.split(",")}
    flat = set(re.findall(r"\w+", re.sub(r"\([^)]*\)", "", cell)))
    return nested | {m for m in flat if not any(n.startswith(m + ".") for n in nested)}


def test_the_architecture_table_lists_every_chapter_and_module() -> None:
    """docs/architecture.md "rules/ by chapter" is the reader's map of rules/: one row per
    subpackage naming each of its modules (a module added without its row fails)."""
    rows = {re.sub(r"`", "", row[0]): row[1] for row in _table("rules/ by chapter")}
    chapters = sorted(p.name for p in RULES.iterdir() if (p / "__init__.py").exists())
    assert sorted(rows) == chapters
    for name in chapters:
        listed = set(re.findall(r"\w+", rows[name]))
        modules = {p.stem for p in (RULES / name).glob("*.py")} - {"__init__"}
        modules |= {p.name for p in (RULES / name).iterdir() if (p / "__init__.py").exists()}
        assert sorted(modules - listed) == [], f"rules/{name}: modules missing from its row"


def documented_modules() -> set[str]:
    """Every module docs/architecture.md's tables name, dotted under d2d_cli
    ("cli", "commands._app", "rules.roll.notation.exact"): "Modules" by package, and
    "rules/ by chapter" by subpackage of rules/."""
    named: set[str] = set()
    for package, cell, *_ in _table("Modules"):
        prefix = "" if package == "`d2d_cli`" else package.strip("`") + "."
        named |= {prefix + m for m in re.findall(r"`(\w+)`", cell)}
    for chapter, cell, *_ in _table("rules/ by chapter"):
        named |= {f"rules.{chapter.strip('`')}.{m}" for m in _chapter_modules(cell)}
    return named


def package_modules() -> set[str]:
    """Every module file under d2d_cli/, dotted (a package's ``__init__`` is the package
    itself, named by its row)."""
    base = ROOT / "d2d_cli"
    return {".".join(p.relative_to(base).with_suffix("").parts)
            for p in base.rglob("*.py") if p.name != "__init__.py"}


def test_the_module_tables_name_every_module_and_only_modules() -> None:
    """Issue 26 item 7: docs/architecture.md "Modules" (with "rules/ by chapter") is the
    map of d2d_cli/. Read from the doc and the file system, so a module added, moved or
    split fails here until its line is written, and a line for a module that is gone
    fails too."""
    named, present = documented_modules(), package_modules()
    assert sorted(present - named) == [], "modules missing from docs/architecture.md"
    assert sorted(named - present) == [], "docs/architecture.md names modules that are not"


def test_the_module_tables_are_read_as_written() -> None:
    assert _chapter_modules("notation (limits, syntax), systems") == {
        "notation.limits", "notation.syntax", "systems"}
    named = documented_modules()
    assert {"cli", "commands._app", "operations.fate", "session.text", "tables._data",
            "rules.roll.notation.exact", "rules.core.record"} <= named
