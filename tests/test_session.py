"""The session file (DESIGN.md "Session file"): hand edits, backups, journal, undo."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest


def test_first_use_creates_the_default_session(d2d, data_dir: Path) -> None:
    r = d2d.json("fate", "status")
    assert (r["remaining"], r["discarded"]) == (54, 0)
    text = (data_dir / "default.toml").read_text()
    assert text.startswith("schema = 1\n")


def test_a_hand_written_comment_survives_a_write(d2d, data_dir: Path) -> None:
    d2d.ok("--seed", "1", "session", "new", "c")
    path = data_dir / "c.toml"
    text = path.read_text().replace("[fate]", "# the Narrator's own note\n[fate]", 1)
    text += "\n[notes]\n# keep me\nplot = \"the goblins want the map\"\n"
    path.write_text(text)
    d2d.ok("--session", "c", "fate", "draw", "2")
    after = path.read_text()
    assert "# the Narrator's own note" in after and "# keep me" in after
    assert tomllib.loads(after)["notes"]["plot"] == "the goblins want the map"


def test_each_write_keeps_the_previous_state_as_bak(d2d, data_dir: Path) -> None:
    d2d.ok("--seed", "1", "session", "new", "b")
    path = data_dir / "b.toml"
    before = path.read_text()
    d2d.ok("--session", "b", "fate", "draw")
    assert (data_dir / "b.toml.bak").read_text() == before
    assert path.read_text() != before


def test_log_and_undo(d2d) -> None:
    d2d.ok("--seed", "1", "session", "new", "u")
    first = d2d.json("--session", "u", "fate", "draw", "2")
    d2d.json("--session", "u", "fate", "draw", "3")
    log = d2d.json("--session", "u", "session", "log")["entries"]
    assert [e["command"] for e in log] == ["fate draw 2", "fate draw 3"]
    undone = d2d.json("--session", "u", "session", "undo")
    assert undone["reverted"]["command"] == "fate draw 3"
    status = d2d.json("--session", "u", "fate", "status")
    assert status["remaining"] == 52
    assert [c["code"] for c in status["last"]] == [c["code"] for c in first["cards"]]
    d2d.json("--session", "u", "session", "undo")
    assert d2d.json("--session", "u", "fate", "status")["remaining"] == 54
    res = d2d("--session", "u", "session", "undo")
    assert res.exit_code == 2 and "nothing to undo" in res.stderr
    log = d2d.json("--session", "u", "session", "log", "--last", "2")["entries"]
    assert [e["command"] for e in log] == ["session undo", "session undo"]


def test_undo_then_redo_the_same_command_reveals_the_same_cards(d2d) -> None:
    d2d.ok("--seed", "8", "session", "new", "r")
    a = d2d.json("--session", "r", "fate", "draw", "3")
    d2d.ok("--session", "r", "session", "undo")
    b = d2d.json("--session", "r", "fate", "draw", "3")
    assert a["cards"] == b["cards"]  # the file alone determines the reveals


def test_corrupt_file_exit_3_names_file_and_line_and_is_left_alone(d2d, data_dir: Path) -> None:
    d2d.ok("session", "new", "bad")
    path = data_dir / "bad.toml"
    broken = path.read_text().replace("[fate]", "[fate\n", 1)
    path.write_text(broken)
    res = d2d("--session", "bad", "fate", "draw")
    assert res.exit_code == 3
    assert str(path) in res.stderr and "line" in res.stderr
    assert res.stderr.count("\n") == 1
    assert path.read_text() == broken


def test_newer_schema_is_refused_not_overwritten(d2d, data_dir: Path) -> None:
    d2d.ok("session", "new", "future")
    path = data_dir / "future.toml"
    text = path.read_text().replace("schema = 1", "schema = 2", 1)
    path.write_text(text)
    for args in (("fate", "draw"), ("fate", "status"), ("session", "undo")):
        res = d2d("--session", "future", *args)
        assert res.exit_code == 3 and "newer d2d" in res.stderr
    assert path.read_text() == text


@pytest.mark.parametrize("name", ["../x", "a/b", "..", ".hidden", "a\\b", "x" * 65])
def test_bad_session_names_are_refused(d2d, data_dir: Path, name: str) -> None:
    res = d2d("--session", name, "fate", "status")
    assert res.exit_code == 2 and "bad session name" in res.stderr
    res = d2d("session", "new", name)
    assert res.exit_code == 2
    assert not (data_dir.parent / "x.toml").exists()


def test_new_refuses_an_existing_session(d2d) -> None:
    d2d.ok("session", "new", "twice")
    res = d2d("session", "new", "twice")
    assert res.exit_code == 2 and "already exists" in res.stderr


def test_use_list_show_path(d2d, data_dir: Path) -> None:
    d2d.ok("session", "new", "alpha")
    d2d.ok("session", "new", "beta", "--use")
    assert d2d.json("session", "list") == {"sessions": ["alpha", "beta"], "current": "beta",
                                           "folder": str(data_dir)}
    assert d2d.json("session", "path")["path"] == str(data_dir / "beta.toml")
    d2d.ok("session", "use", "alpha")
    shown = d2d.json("session", "show")
    assert (shown["name"], shown["schema"], shown["fate"]["remaining"]) == ("alpha", 1, 54)
    res = d2d("session", "use", "nope")
    assert res.exit_code == 2 and "session new nope" in res.stderr


def test_env_var_selects_the_session(d2d, data_dir: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    d2d.ok("session", "new", "fromenv")
    monkeypatch.setenv("D2D_SESSION", "fromenv")
    d2d.ok("fate", "draw")
    # The journal names the command as it was typed (issue 9).
    assert d2d.json("session", "log")["entries"][0]["command"] == "fate draw"
    assert (data_dir / "fromenv.toml").exists()


def test_the_cache_spares_a_parse_and_a_damaged_cache_is_ignored(
        d2d, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from d2d_cli.session import cache, reads
    from tests.helpers import build_table, hand_edit

    path = build_table(d2d, tmp_path / "c.toml")
    d2d.ok("--session", path, "fate", "draw")

    def parse(*_a: object) -> None:
        raise AssertionError("a file d2d wrote itself was parsed again")

    with monkeypatch.context() as m:
        m.setattr(reads, "_parse", parse)
        for args in (("fate", "status"), ("fate", "draw"), ("session", "undo"),
                     ("unit", "list"), ("session", "redo"), ("status",)):
            d2d.ok("--session", path, *args)
    status = d2d.json("--session", path, "fate", "status")
    cached = cache._cache_path(path.resolve())
    cached.write_bytes(cached.read_bytes()[:-8] + b"garbage!")
    assert d2d.json("--session", path, "fate", "status") == status
    hand_edit(path, r"^fatigue = 1$", "fatigue = 2")  # not what the cache holds
    assert d2d.json("--session", path, "unit", "show", "Gob")["conditions"]["fatigue"] == 2
