"""The Python API (issue 18 item 6): docs/api.md's examples run as written; the API
and the commands share their operations, so the same calls on two sessions give the
same results and the same files; locking, journal and undo as the commands do them;
examples/prep_scene.py runs through the API."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.api import BadInput, NotFound, Session, SessionError
from d2d_cli.rules.core.result import to_json
from tests.helpers import ROOT, Runner


def _blocks() -> list[str]:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)


def test_every_python_block_of_docs_api_runs(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("D2D_DATA_DIR", str(tmp_path / "data"))
    blocks = _blocks()
    assert len(blocks) >= 6
    namespace: dict[str, Any] = {"__name__": "docs_api"}
    for i, block in enumerate(blocks):
        try:
            exec(compile(block, f"docs/api.md block {i + 1}", "exec"), namespace)
        except Exception as e:  # name the block that failed
            raise AssertionError(f"docs/api.md block {i + 1} failed: {e!r}\n{block}") from e


def test_the_api_and_the_commands_give_the_same_results_and_files(
        d2d: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One engine: the same steps through `d2d … --json` and through the API, from the
    same seed, give the same JSON and byte-identical session files (journal aside)."""
    monkeypatch.chdir(tmp_path)
    cli, api = tmp_path / "cli.toml", tmp_path / "api.toml"
    d2d.ok("--seed", "4", "session", "new", cli)
    s = Session.new(api, seed=4)
    steps: list[tuple[list[str], Any]] = [
        (["scene", "load", "combat1"], lambda: s.scene.load("combat1")),
        (["fate", "draw", "3"], lambda: s.fate.draw(3)),
        (["fate", "die", "d10", "2"], lambda: s.fate.die("d10", 2)),
        (["task", "new", "Rope", "4"], lambda: s.task.new("Rope", 4)),
        (["round", "start"], lambda: s.round.start()),
        (["conflict", "Archer:7S^", "Goblin Scout", "--skill", "Ranged", "--range", "3",
          "--cover", "25", "--obstacle", "C=rock", "--no-map"],
         lambda: s.conflict("Archer:7S^", "Goblin Scout", skill="Ranged", range=3, cover="25",
                            obstacle=["C=rock"], no_map=True)),
        (["hit", "2S", "3H", "4C", "--by", "Archer", "--vs", "Goblin Scout"],
         lambda: s.hit("2S", "3H", "4C", by="Archer", vs="Goblin Scout")),
        (["crit", "--power", "5x1", "--hits", "2", "--target", "Goblin Scout"],
         lambda: s.crit(power="5x1", hits=2, target="Goblin Scout")),
        (["unit", "condition", "Thief", "add", "fatigue", "2"],
         lambda: s.unit.condition("Thief", "add", "fatigue", 2)),
        (["unit", "move", "Archer", "forward", "2"],
         lambda: s.unit.move("Archer", "forward", "2")),
        (["unit", "act", "Thief", "recover", "fatigue"],
         lambda: s.unit.act("Thief", "recover", "fatigue")),
        (["unit", "add", "Orc", "--body", "9x1", "--mind", "4x1", "--will", "5x1",
          "--speed", "4x0", "--skill", "Close Combat=2"],
         lambda: s.unit.add("Orc", body="9x1", mind="4x1", will="5x1", speed="4x0",
                            skill=["Close Combat=2"])),
        (["task", "win", "Knot", "2", "--by", "Thief"],
         lambda: s.task.win("Knot", 2, by="Thief")),
        (["task", "win", "Knot", "2", "--by", "Thief"],
         lambda: s.task.win("Knot", 2, by="Thief")),
        (["unit", "leave", "Thief"], lambda: s.unit.leave("Thief")),
        (["task", "lose", "Rope", "1"], lambda: s.task.lose("Rope", 1)),
        (["round", "end"], lambda: s.round.end()),
        (["clock", "advance", "3"], lambda: s.clock.advance(3)),
        (["char", "new", "Rook", "--body", "7", "--speed", "5", "--archetype", "thief"],
         lambda: s.char.new("Rook", body="7", speed="5", archetype="thief")),
        (["char", "show", "Rook"], lambda: s.char.show("Rook")),
        (["char", "list"], lambda: s.char.list()),
        (["fate", "shuffle"], lambda: s.fate.shuffle()),
        (["session", "undo"], lambda: {"reverted": to_json(s.undo())}),
    ]
    for argv, call in steps:
        want = d2d.json("--session", cli, *argv)
        got = to_json(call())
        if argv[:2] == ["session", "undo"]:
            for e in (want, got):
                e["reverted"].pop("at")
        assert got == want, argv
    # the two files were created by two processes, maybe in two different seconds: the
    # `created` stamp aside, byte for byte
    def body(path: Path) -> bytes:
        return re.sub(rb'(?m)^created = "[^"]*"$', b'created = "<time>"', path.read_bytes())
    assert body(api) == body(cli)
    # the journal holds the same commands, word for word and in the same order (one
    # function labels both: operations.label; the command's options in its own order)
    def labels(path: Path) -> list[str]:
        return [e["command"] for e in d2d.json(
            "--session", path, "session", "log", "--last", "50")["entries"]]

    assert labels(api) == labels(cli)
    assert ("conflict 'Archer:7S^' 'Goblin Scout' --skill Ranged --range 3 --cover 25 "
            "--obstacle C=rock --no-map") in labels(api)


def test_a_typed_command_is_labelled_in_its_declared_order_whatever_the_order_typed(
        d2d: Runner, tmp_path: Path) -> None:
    """The journal's label is built from what was given, in the command's order: the
    same call typed two ways, and through the API, is logged with the same words."""
    last = []
    for name in ("typed.toml", "api.toml"):
        f = tmp_path / name
        d2d.ok("--seed", "2", "session", "new", f)
        d2d.ok("--session", f, "scene", "load", "combat1")
        d2d.ok("--session", f, "round", "start")
        if name == "typed.toml":
            d2d.ok("--session", f, "unit", "situation", "--range=3", "Archer", "--cover", "50",
                   "--vs", "Goblin Skirmisher")
        else:
            Session(f).unit.situation("Archer", range=3, cover=50, vs="Goblin Skirmisher")
        last.append(d2d.json("--session", f, "session", "log", "1")["entries"][0]["command"])
    assert last == ["unit situation Archer --vs 'Goblin Skirmisher' --cover 50 --range 3"] * 2


def test_a_refused_call_raises_the_command_s_error_and_changes_nothing(
        tmp_path: Path) -> None:
    s = Session.new(tmp_path / "s.toml", seed=1)
    s.scene.load("combat1")
    before = s.path.read_bytes()
    with pytest.raises(NotFound, match="no task 'Bridge'"):
        s.task.win("Bridge", 1)
    with pytest.raises(BadInput):
        s.unit.condition("Archer", "add", "fatigue", 0)
    assert s.path.read_bytes() == before
    s.path.write_text(s.path.read_text().replace('player = "Player1"', "player = nan"))
    with pytest.raises(SessionError, match=r"\[units\.Archer\] player"):
        s.fate.draw()



def test_a_refused_call_on_a_new_session_leaves_no_file_as_the_command_does(
        tmp_path: Path, d2d: Runner) -> None:
    """A ``.toml`` path in an existing folder is created by its first lookup — but only
    if the call succeeds: ``d2d conflict fast strong --range 3`` (refused: no kind of
    attack) leaves no file, and the same call through the API must not either."""
    typed = tmp_path / "typed.toml"
    res = d2d("--session", typed, "conflict", "fast", "strong", "--range", "3")
    assert res.exit_code == 2 and "--range needs a kind of attack" in res.stderr
    called = tmp_path / "called.toml"
    with pytest.raises(BadInput, match="--range needs a kind of attack"):
        Session(called).conflict("fast", "strong", range=3)
    assert sorted(p.name for p in tmp_path.iterdir() if ".toml" in p.name) == []  # nor .bak…
    # 001 l.736 "**Fast** - Win vs Strong or Evade": the call that succeeds creates it
    assert Session(called).conflict("fast", "strong").outcome == "a"
    assert called.exists()

def test_a_with_block_holds_the_lock_until_it_ends(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer waits for the block (here: gives up after its lock timeout, exit
    3, nothing changed), as it would wait for a command."""
    from tests.helpers import run_process

    s = Session.new(tmp_path / "s.toml", seed=1)
    with s:
        s.fate.draw()
        other = run_process("--session", str(s.path), "fate", "draw",
                            env={"D2D_LOCK_TIMEOUT": "0.3"})
        assert other.returncode == 3, other.stderr
    assert len(s.fate.draw(0 + 1).cards) == 1
    log = [e["command"] for e in Runner().json("--session", s.path, "session", "log")
           ["entries"]]
    assert log == ["fate draw", "fate draw 1"]  # as called: s.fate.draw(), s.fate.draw(1)


def test_prep_scene_example_runs_through_the_api(tmp_path: Path) -> None:
    script = ROOT / "examples" / "prep_scene.py"
    assert "subprocess" not in script.read_text()
    assert "from d2d_cli.api import" in script.read_text()
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, env={"PATH": "", "D2D_DATA_DIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "scene prep: all checks passed"


def test_the_commands_undo_what_the_api_did_and_the_api_what_the_commands_did(
        d2d: Runner, tmp_path: Path) -> None:
    """One journal for both faces: `d2d session undo` reverts an API call, byte for byte,
    and `s.undo()` reverts a command; `session log` lists the API's call under the
    command line it stands for."""
    s = Session.new(tmp_path / "s.toml", seed=5)
    s.scene.load("combat1")
    before = s.path.read_bytes()
    s.unit.condition("Goblin Scout", "add", "fatigue", 2)
    assert d2d.json("--session", s.path, "session", "log", "--last", "1")["entries"][0][
        "command"] == "unit condition 'Goblin Scout' add fatigue 2"
    out = d2d.ok("--session", s.path, "session", "undo")
    assert out == ("Reverted unit condition 'Goblin Scout' add fatigue 2 "
                   "(Goblin Scout: Fatigue add 2 → 2)\n")
    assert s.path.read_bytes() == before
    d2d.ok("--session", s.path, "task", "new", "Door", "3")
    assert s.undo().command == "task new Door 3"
    assert s.path.read_bytes() == before
