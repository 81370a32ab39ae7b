"""A cache slot holds the session's data chapter by chapter (session/cache.py ``dump``,
``load``): a reader that needs a few top-level tables unmarshals only those —
``session export`` of the story reads the journal and the scene's name, not a
1,000-unit session's units (issue 40). What it reads is never served to a reader that
wants the whole session."""

from __future__ import annotations

import json
import marshal
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.operations import Target
from d2d_cli.operations import export as E
from d2d_cli.session import cache, journal


def _data() -> dict[str, Any]:
    return {"schema": 1, "meta": {"seed": 1, "rng": 3},
            "units": {f"Goblin {i}": {"kind": "unit", "body": "2x1", "conditions": {"fatigue": i}}
                      for i in range(5)},
            "scene": {"name": "The Ford"}, "fate": {"draw": ["7S^"], "discard": []}}


def test_a_slot_loads_whole_or_only_the_chapters_asked_for() -> None:
    data = _data()
    payload = cache.dump(data)
    whole = cache.load(payload)
    assert whole == data and list(whole) == list(data)  # the data's order kept
    assert cache.load(payload, frozenset({"scene", "fate"})) == {
        "scene": {"name": "The Ford"}, "fate": {"draw": ["7S^"], "discard": []}}
    assert cache.load(payload, frozenset({"nothing"})) == {}
    whole["units"]["Goblin 0"]["body"] = "9x9"  # each load is a copy of its own
    assert cache.load(payload)["units"]["Goblin 0"]["body"] == "2x1"


def test_the_last_slots_chapters_are_kept_marshalled_and_every_read_is_its_own() -> None:
    """``d2d play`` reads one slot at every lookup: its chapters are unmarshalled from the
    outer table once, and every read is still a copy of its own, for its own payload."""
    data = _data()
    payload = cache.dump(data)
    first = cache.load(payload)
    assert cache._CHAPTERS is not None and cache._CHAPTERS[0] is payload
    first["units"]["Goblin 1"]["conditions"]["fatigue"] = 99
    first["scene"]["name"] = "Changed"
    again = cache.load(payload)
    assert again == data and again["units"] is not first["units"]
    other = dict(data, scene={"name": "The Bridge"})
    assert cache.load(cache.dump(other)) == other  # another payload: its own chapters
    assert cache.load(payload, frozenset({"scene"})) == {"scene": {"name": "The Ford"}}


def _session(d2d: Any, path: Path) -> None:
    for i in range(4):
        d2d.ok("--session", path, "unit", "add", f"Goblin {i}", "--body", "2x1", "--mind",
               "2x1", "--will", "2x1", "--speed", "4x0")
    d2d.ok("--session", path, "scene", "load", "combat1")
    d2d.ok("--session", path, "fate", "draw", "2")


def test_the_story_export_unmarshals_no_unit(
        d2d: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.toml"
    _session(d2d, path)
    whole = E.Story.of(E.snapshot(Target(str(path)), E.STORY_ENTRIES)).markdown()
    loaded: list[list[str]] = []
    real = cache.load
    monkeypatch.setattr(cache, "load", lambda payload, only=None: loaded.append(
        list(got := real(payload, only))) or got)
    text = d2d.ok("--session", path, "session", "export", "--format", "markdown", "-o", "-")
    assert text == whole and "# Combat #1" in text  # the scene's name, from its chapter
    assert loaded == [["scene"]]  # from the cache: the scene alone, no unit
    loaded.clear()
    d2d.ok("--session", path, "session", "export", "--format", "foundry-cards", "-o",
           tmp_path / "deck.json")
    assert "fate" in loaded[0] and "units" in loaded[0]  # the cards' export reads all


def test_a_partial_read_is_never_served_as_the_session(d2d: Any, tmp_path: Path) -> None:
    """After the export's read of the scene alone, the same process's readers of the
    same bytes (the slot it remembers, a shared read) get the whole session."""
    path = tmp_path / "s.toml"
    _session(d2d, path)
    before = d2d.json("--session", path, "status")
    d2d.ok("--session", path, "session", "export", "--format", "markdown", "-o", "-")
    assert d2d.json("--session", path, "status") == before and len(before["units"]) == 4
    assert "Archer" in Target(str(path)).read(shared=True)["units"]
    assert Target(str(path)).read()["fate"]["discard"]


def test_a_cache_of_the_format_before_is_not_read(d2d: Any, tmp_path: Path) -> None:
    """A slot of the whole-data format (magic 4) with the file's digest and the build's
    key, holding other data: never read as chapters, never served."""
    path = tmp_path / "s.toml"
    _session(d2d, path)
    before = d2d.json("--session", path, "status")
    real = path.resolve()
    cache_file = cache._cache_path(real)
    key = cache._mac_key(cache_file.parent, create=False)
    assert key is not None
    h = journal.digest(path.read_bytes())
    planted = {"schema": 1, "units": {}, "scene": {"name": "Planted"}}
    body = marshal.dumps([(cache._cache_key(h), marshal.dumps(planted), None)])
    cache_file.write_bytes(b"d2d-cache-4\n" + cache._mac(key, body) + body)
    cache._RECENT.clear()  # as a new process reads it
    assert d2d.json("--session", path, "status") == before
    text = d2d.ok("--session", path, "session", "export", "--format", "markdown", "-o", "-")
    assert "Planted" not in text and json.loads(text.split("\n")[1][len("title: "):]) == \
        "Combat #1"
