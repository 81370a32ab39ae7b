"""``tables.load``: the TOML data of the rules, read through the generated ``_data.py``
(issue 18 item 1: nothing is written into the installed package at run time)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from d2d_cli import tables

ROOT = Path(__file__).resolve().parent.parent
FOLDER = Path(tables.__file__).parent
sys.path.insert(0, str(ROOT / "scripts"))
import gen_tables  # noqa: E402


def _names() -> list[str]:
    return sorted(p.relative_to(FOLDER).with_suffix("").as_posix()
                  for p in FOLDER.rglob("*.toml"))


def test_the_generated_module_is_the_toml_regenerated_byte_for_byte() -> None:
    assert (FOLDER / "_data.py").read_text(encoding="utf-8") == gen_tables.render()
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_tables.py"), "--check"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_every_table_reads_as_its_toml_keys_in_order() -> None:
    names = _names()
    assert len(names) >= 19  # 15 rule tables, scenes, systems
    from d2d_cli.tables._data import TABLES

    assert sorted(TABLES) == names
    for name in names:
        with (FOLDER / f"{name}.toml").open("rb") as f:
            parsed = tomllib.load(f)
        got = tables.load(name)
        assert got == parsed
        assert list(got) == list(parsed)  # order matters: maps, forces, samples are listed
        assert tables.load(name) is got  # built once per process


def test_names_lists_a_subfolder_and_an_unknown_table_is_not_found() -> None:
    assert tables.names("systems") == sorted(p.stem for p in (FOLDER / "systems").glob("*.toml"))
    assert tables.names("scenes") == ["combat1"]
    with pytest.raises(FileNotFoundError, match="no_such_table"):
        tables.load("no_such_table")


def test_loading_every_table_writes_nothing_into_the_package(tmp_path: Path) -> None:
    """A fresh interpreter that may not write bytecode loads every table and leaves the
    package folder exactly as it found it (the old marshal cache wrote beside it)."""

    def files() -> dict[str, float]:
        return {str(p): p.stat().st_mtime for p in FOLDER.rglob("*")
                if p.is_file() and p.suffix != ".pyc"}

    before = files()
    code = f"from d2d_cli import tables\nfor n in {_names()!r}: tables.load(n)\n"
    subprocess.run([sys.executable, "-B", "-c", code], check=True, cwd=tmp_path)
    assert files() == before


def test_a_table_with_a_float_is_refused_by_the_generator() -> None:
    with pytest.raises(TypeError, match="float"):
        gen_tables.literal({"x": 1.5}, 4)
