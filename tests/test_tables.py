"""``tables.load``: the TOML data of the rules, and the parsed copy kept beside it."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from d2d_cli import tables


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the tables folder, so its cache starts empty."""
    here = tmp_path / "tables"
    shutil.copytree(Path(tables.__file__).parent, here,
                    ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    monkeypatch.setattr(tables, "_HERE", here)
    monkeypatch.setattr(tables, "_CACHE", here / "__pycache__")
    tables.load.cache_clear()
    yield here
    tables.load.cache_clear()


def _parsed(folder: Path, name: str) -> dict[str, object]:
    return tomllib.loads((folder / f"{name}.toml").read_text(encoding="utf-8"))


def test_every_table_reads_back_as_its_toml(folder: Path) -> None:
    names = [p.relative_to(folder).with_suffix("").as_posix() for p in folder.rglob("*.toml")]
    assert len(names) >= 19  # 15 rule tables, scenes, systems
    for name in names:
        first = tables.load(name)  # parsed, and the copy written
        tables.load.cache_clear()
        assert tables.load(name) == first == _parsed(folder, name)  # read from the copy
    assert len(list((folder / "__pycache__").glob("*.marshal"))) == len(names)


def test_the_copy_is_used_and_a_stale_one_is_not(folder: Path) -> None:
    tables.load("conflict")
    copy = next((folder / "__pycache__").glob("conflict.*.marshal"))
    # A copy that says something else proves it is what load() reads…
    copy.write_bytes(__import__("marshal").dumps({"from": "the copy"}))
    tables.load.cache_clear()
    assert tables.load("conflict") == {"from": "the copy"}
    # …until the table changes: then the TOML is parsed again and the old copy dropped.
    source = folder / "conflict.toml"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    tables.load.cache_clear()
    assert tables.load("conflict") == _parsed(folder, "conflict")
    assert not copy.exists()


def test_a_broken_copy_or_a_read_only_folder_costs_only_time(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables.load("maps")
    copy = next((folder / "__pycache__").glob("maps.*.marshal"))
    copy.write_bytes(b"\x00garbage")
    tables.load.cache_clear()
    assert tables.load("maps") == _parsed(folder, "maps")
    # A folder that cannot be written (as root, chmod does not stop a write: a file
    # where the cache folder would be does).
    blocker = folder / "blocked"
    blocker.write_text("")
    monkeypatch.setattr(tables, "_CACHE", blocker / "__pycache__")
    tables.load.cache_clear()
    assert tables.load("skills") == _parsed(folder, "skills")
    assert not list(folder.rglob("*.tmp"))
