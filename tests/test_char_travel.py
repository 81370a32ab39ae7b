"""Characters travel between sessions (issue 20 item 3): `char list`, `char import` of
the TOML and JSON `char export` writes, a name clash refused (exit 2, nothing changed)
unless --rename or --replace, export → import → export byte-identical, and the README's
game night run as written."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, assert_refused, files_of


def _party(d2d: Any, path: Path) -> Path:
    """Characters with skills, conditions, points, conception, a Crit and a learned
    Ability — and a plain unit, which is not a character."""
    d2d.ok("--seed", 2, "session", "new", path)
    s = ("--session", path)
    d2d.ok(*s, "char", "new", "Rook", "--body", "7", "--speed", "5", "--archetype", "thief",
           "--motivation", "Revenge & <glory>", "--fear", 'The "deep" water')
    d2d.ok(*s, "char", "award", "Rook", "--cp", "1", "--sp", "3", "--ap", "2")
    d2d.ok(*s, "char", "train", "Rook", "Stealth")
    d2d.ok(*s, "char", "learn", "Rook", "Pick Lock")
    d2d.ok(*s, "unit", "condition", "Rook", "add", "fatigue", "--count", "2")
    d2d.ok(*s, "char", "new", "Mira Vale", "--template", "human-female", "--archetype",
           "wizard")
    d2d.ok(*s, "crit", "--power", "5x1", "--hits", "2", "--card", "slash@torso",
           "--target", "Mira Vale")
    d2d.ok(*s, "unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0")
    return path


def test_char_list_shows_the_party(d2d: Any, tmp_path: Path) -> None:
    path = _party(d2d, tmp_path / "home.toml")
    r = d2d.json("--session", path, "char", "list")
    assert [c["name"] for c in r["characters"]] == ["Rook", "Mira Vale"]  # not Gob
    rook = r["characters"][0]
    assert rook == {"name": "Rook", "archetype": "Thief", "template": "human-male",
                    "stats": {"body": "7x1", "mind": "5x1", "will": "5x1", "speed": "5x0"},
                    "points": 22, "cp": 1, "sp": 2, "ap": 1}  # SP 3 − 1 (train), AP 2 − 1
    out = d2d.ok("--session", path, "char", "list")
    assert "Rook" in out and "Thief" in out and "Mira Vale" in out and "Gob" not in out
    empty = tmp_path / "empty.toml"
    d2d.ok("session", "new", empty)
    assert d2d.json("--session", empty, "char", "list") == {"characters": []}


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_export_import_export_is_byte_identical(d2d: Any, tmp_path: Path, fmt: str) -> None:
    home = _party(d2d, tmp_path / "home.toml")
    night = tmp_path / "night.toml"
    d2d.ok("--seed", 9, "session", "new", night)
    d2d.ok("--session", night, "scene", "load", "combat1")
    for name in ("Rook", "Mira Vale"):
        first = tmp_path / f"{name}.1.{fmt}"
        d2d.ok("--session", home, "char", "export", name, "--format", fmt, "-o", first)
        r = d2d.json("--session", night, "char", "import", first)
        assert r["name"] == name and r["replaced"] is None and r["renamed_from"] is None
        again = tmp_path / f"{name}.2.{fmt}"
        d2d.ok("--session", night, "char", "export", name, "--format", fmt, "-o", again)
        assert again.read_bytes() == first.read_bytes()
    # the record arrived whole: skills, conditions, points, conception, Crits, Abilities
    for name in ("Rook", "Mira Vale"):
        a = d2d.json("--session", home, "char", "show", name)
        b = d2d.json("--session", night, "char", "show", name)
        assert a == b
    rook = tomllib.loads(night.read_text())["units"]["Rook"]
    assert rook["conditions"] == {"fatigue": 2} and rook["abilities"] == ["Pick Lock"]
    assert rook["skills"]["Stealth"] == 2 and (rook["cp"], rook["sp"], rook["ap"]) == (1, 2, 1)
    assert tomllib.loads(night.read_text())["units"]["Mira Vale"]["crits"][0]["location"]


def test_the_toml_export_loads_as_written(d2d: Any, tmp_path: Path) -> None:
    """No `name =` line to add by hand: the file is the record, named by its table."""
    home = _party(d2d, tmp_path / "home.toml")
    res = d2d("--session", home, "char", "export", "Rook", "--format", "toml", "-o", "-")
    data = tomllib.loads(res.stdout)
    assert list(data) == ["units"] and list(data["units"]) == ["Rook"]
    assert "name =" not in res.stdout
    js = json.loads(d2d("--session", home, "char", "export", "Rook", "--format", "json",
                        "-o", "-").stdout)
    assert js == data


def test_a_name_clash_is_refused_unless_told(d2d: Any, tmp_path: Path) -> None:
    home = _party(d2d, tmp_path / "home.toml")
    f = tmp_path / "rook.toml"
    d2d.ok("--session", home, "char", "export", "Rook", "--format", "toml", "-o", f)
    night = tmp_path / "night" / "n.toml"
    night.parent.mkdir()
    d2d.ok("session", "new", night)
    d2d.ok("--session", night, "char", "new", "rook", "--archetype", "soldier")
    before = files_of(night.parent)
    res = d2d("--session", night, "char", "import", f)
    assert res.exit_code == 2
    assert "a unit named 'rook' is already in this session" in res.stderr
    assert "--rename NEW" in res.stderr and "--replace" in res.stderr
    assert files_of(night.parent) == before
    assert_refused(d2d, night.parent, ["--session", night, "char", "import", f, "--rename",
                                       "x/y"], "bad unit name 'x/y'")
    assert_refused(d2d, night.parent, ["--session", night, "char", "import", f, "--rename",
                                       "ROOK"], "a unit named 'rook' is already")
    assert files_of(night.parent) == before
    r = d2d.json("--session", night, "char", "import", f, "--rename", "Wren")
    assert (r["name"], r["renamed_from"]) == ("Wren", "Rook")
    d2d.ok("--session", night, "char", "new", "Ash")
    r = d2d.json("--session", night, "char", "import", f, "--replace")
    assert (r["name"], r["replaced"]) == ("Rook", "rook")
    names = [c["name"] for c in d2d.json("--session", night, "char", "list")["characters"]]
    assert sorted(names) == ["Ash", "Rook", "Wren"]  # rook replaced by Rook
    assert d2d.json("--session", night, "char", "show", "Rook")["archetype"] == "Thief"
    undone = d2d.json("--session", night, "session", "undo")["reverted"]
    assert undone["command"] == f"char import {f} --replace"
    assert d2d.json("--session", night, "char", "show", "rook")["archetype"] == "Soldier"


BAD_FILES = [
    ("not TOML", "[units.Rook\n", "not valid TOML"),
    ("no unit", 'name = "x"\n', "not a character file"),
    ("two units", '[units.A]\nkind = "character"\nbody = "8x1"\n[units.B]\nbody = "8x1"\n',
     "not a character file"),
    ("a unit, not a character", '[units.Gob]\nbody = "2x1"\n', "is a unit, not a character"),
    ("no body", '[units.Rook]\nkind = "character"\n', "[units.Rook] body: missing"),
    ("a stat past the scale", '[units.Rook]\nkind = "character"\nbody = "2x9999"\n',
     "[units.Rook] body:"),
    ("nan points", '[units.Rook]\nkind = "character"\nbody = "8x1"\ncp = nan\n',
     "[units.Rook] cp: expected a whole number"),
    ("a deep record", '[units.Rook]\nkind = "character"\nbody = "8x1"\nx = '
     + "[" * 40 + "]" * 40 + "\n", "[units.Rook] x: nested deeper"),
    ("an unknown archetype", '[units.Rook]\nkind = "character"\nbody = "8x1"\n'
     'archetype = "9x99"\n', "[units.Rook] archetype: unknown archetype"),
    ("JSON NaN", '{"units": {"Rook": {"kind": "character", "body": "8x1", "sp": NaN}}}',
     "not valid JSON"),
    ("JSON null", '{"units": {"Rook": {"kind": "character", "body": "8x1", "sp": null}}}',
     "[units.Rook] sp: expected a whole number"),
]


@pytest.mark.parametrize(("label", "text", "needle"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_a_file_that_is_not_a_character_record_is_refused(d2d: Any, tmp_path: Path,
                                                          label: str, text: str,
                                                          needle: str) -> None:
    night = tmp_path / "s" / "n.toml"
    night.parent.mkdir()
    d2d.ok("session", "new", night)
    f = tmp_path / ("c.json" if text.startswith("{") else "c.toml")
    f.write_text(text)
    before = files_of(night.parent)
    res = d2d("--session", night, "char", "import", f)
    assert res.exit_code == 2, (res.stdout, res.stderr)
    assert needle in res.stderr and str(f) in res.stderr, res.stderr
    assert files_of(night.parent) == before
    assert_refused(d2d, night.parent, ["--session", night, "char", "import",
                                       tmp_path / "nope.toml"], "cannot read character file")


def _game_night() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- game-night -->\n```sh\n(.+?)\n```", text, re.S)
    assert block, "README.md has no game-night block"
    return block.group(1).splitlines()


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_the_readme_game_night_runs_as_written(tmp_path: Path) -> None:
    """Each line through a real `d2d` process (`&&` as the shell reads it)."""
    env = {"PATH": "", "D2D_DATA_DIR": str(tmp_path / "data"), "NO_COLOR": "1"}
    for line in _game_night():
        for part in line.split("&&"):
            words = shlex.split(part, comments=True)
            assert words[0] == "d2d", line
            res = subprocess.run([sys.executable, "-m", "d2d_cli", *words[1:]], cwd=tmp_path,
                                 capture_output=True, text=True, env=env, timeout=60)
            assert res.returncode == 0, (line, res.stderr)
    home = tmp_path / "data" / "home.toml"
    rook = tomllib.loads(home.read_text())["units"]["Rook"]
    assert rook["conditions"] == {"fatigue": 1} and (rook["sp"], rook["ap"]) == (2, 1)
    night = tomllib.loads((tmp_path / "data" / "night1.toml").read_text())["units"]
    assert [n for n, u in night.items() if u.get("kind") == "character"] == ["Rook", "Wren"]
