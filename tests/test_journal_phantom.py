"""The journal never runs ahead of the file (issue 38 item 1): a command killed after
its journal entry was appended but before the session's rename (the commit point)
leaves an entry whose commit never completed. No reader of history — ``session log``,
``session export``, the snapshot ``d2d serve`` projects, undo — may show it: for
``fate draw 3`` its summary names the next three hidden Fate cards, which the next real
draw reveals (docs/architecture.md "The journal": the last entry is checked against
the file)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from d2d_cli.session import journal
from tests.helpers import build_table

_KILLER = """
import os, sys
from d2d_cli.cli import main
from d2d_cli.env import Environment
step = sys.argv[1]
kill = lambda s: os._exit(137) if s == step else None
main(sys.argv[2:], env=Environment(fault=kill))
"""


def _killed(path: Path, step: str, *args: str) -> None:
    proc = subprocess.run([sys.executable, "-c", _KILLER, step, "--session", str(path), *args],
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 137, proc.stderr


@pytest.fixture
def phantom(d2d, tmp_path: Path) -> tuple[Path, bytes, list[str]]:
    """A session where `fate draw 3` was killed at the step before the rename: the file
    is as it was, the journal holds the draw's entry. Returns the path, the file's
    bytes and the three cards the draw named (the top of the hidden deck)."""
    path = build_table(d2d, tmp_path / "p.toml")
    old = path.read_bytes()
    _killed(path, "backup", "fate", "draw", "3")
    assert path.read_bytes() == old  # the commit never happened
    with open(journal.path_for(path), "rb") as f:
        last = next(journal.newest_first(f.fileno()))
    assert last["command"] == "fate draw 3"  # ...but its entry is in the journal
    assert last["h0"] == journal.digest(old)
    jp = journal.path_for(path)
    kept = jp.read_bytes()
    # the cards it named are the ones the next real draw reveals
    real = d2d.json("--session", path, "fate", "draw", "3")
    cards = [c["code"] for c in real["cards"]]
    path.write_bytes(old)  # back to the state the kill left (the test's own rewind)
    jp.write_bytes(kept)
    with open(jp, "rb") as f:
        assert next(journal.newest_first(f.fileno()))["command"] == "fate draw 3"
    assert all(c and c in last["summary"] for c in cards), (cards, last["summary"])
    return path, old, cards


def test_session_log_does_not_list_a_command_that_never_committed(d2d, phantom) -> None:
    path, old, cards = phantom
    rows = d2d.json("--session", path, "session", "log")["entries"]
    assert [r["command"] for r in rows][-1] == "clock event add 5 reinforcements"
    text = d2d.ok("--session", path, "session", "log")
    assert "fate draw 3" not in text
    assert not any(c in text for c in cards)
    assert path.read_bytes() == old  # a lookup: nothing written


def test_session_export_does_not_reveal_the_hidden_cards(d2d, phantom) -> None:
    path, old, cards = phantom
    for fmt in ("markdown", "foundry-journal"):
        out = d2d.ok("--session", path, "session", "export", "-o", "-", "--format", fmt)
        assert "fate draw 3" not in out, fmt
        assert not any(c in out for c in cards), fmt


def test_the_served_snapshot_does_not_list_it(d2d, phantom) -> None:
    from d2d_cli.operations import Target, export
    from d2d_cli.serve import project

    path, old, cards = phantom
    snap = export.snapshot(Target(str(path)), 50)
    assert all(e["command"] != "fate draw 3" for e in snap.log)
    page = json.dumps(project.public(snap.data, snap.log, snap.name))
    assert "fate draw 3" not in page
    assert not any(c in page for c in cards)


def test_undo_skips_it_and_the_next_command_cuts_it(d2d, phantom) -> None:
    path, old, cards = phantom
    r = d2d.json("--session", path, "session", "undo")
    assert r["reverted"]["command"] == "clock event add 5 reinforcements"
    d2d.ok("--session", path, "session", "redo")
    assert path.read_bytes() == old
    d2d.ok("--session", path, "clock", "tick")
    commands = [r["command"] for r in d2d.json("--session", path, "session", "log")["entries"]]
    assert "fate draw 3" not in commands and commands[-1] == "clock tick"


def test_a_kill_after_the_rename_keeps_the_entry(d2d, tmp_path: Path) -> None:
    """The other side: once the rename happened, the command is done and listed."""
    path = build_table(d2d, tmp_path / "r.toml")
    old = path.read_bytes()
    _killed(path, "renamed", "fate", "draw", "3")
    assert path.read_bytes() != old
    rows = d2d.json("--session", path, "session", "log")["entries"]
    assert rows[-1]["command"] == "fate draw 3"
    assert d2d.json("--session", path, "session", "undo")["reverted"]["command"] == "fate draw 3"
    assert path.read_bytes() == old
