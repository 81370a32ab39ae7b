"""Issue 39 item 5, the small ones: ``session export -o -`` as inert as every other view;
no hand on the pages when the table holds the hands; ``d2d tour`` whatever the working
folder holds; ``--force`` never over d2d's cache; a killed export's temp file gone after
the next write."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from d2d_cli.session import journal
from tests import serve_helpers as h

# ESC, CSI (clear screen), OSC 0 (title), OSC 52 (clipboard), C1 CSI and NEL, DEL, bidi
PAYLOAD = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;eA==\x07\x9b31m\x85\x7f\u202eevil\u2066"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _poison_last_entry(path: Path) -> None:
    """The journal's last line with the payload in its command and summary, under a
    valid checksum (a hand edit d2d reads as a good entry)."""
    jpath = journal.path_for(path)
    lines = jpath.read_bytes().splitlines()
    entry = journal.decode(lines[-1])
    assert entry is not None and "bad" not in entry
    entry["command"] = f"oracle ask '{PAYLOAD}'"
    entry["summary"] = f"ask {PAYLOAD} — Yes"
    lines[-1] = journal.encode(entry).rstrip(b"\n")
    jpath.write_bytes(b"\n".join(lines) + b"\n")


def test_session_export_to_stdout_is_inert(d2d: Any, data_dir: Path) -> None:
    d2d.ok("scene", "load", "combat1")
    d2d.ok("oracle", "ask", "Is it dark?")
    _poison_last_entry(data_dir / "default.toml")
    res = d2d("session", "export", "-o", "-")
    assert res.exit_code == 0, res.stderr
    assert RAW.search(res.stdout) is None, repr(res.stdout[-300:])
    # shown, inert (the recap escapes Markdown's brackets too: issue 37)
    shown = res.stdout.replace("\\[", "[").replace("\\]", "]")
    assert "\\x1b]52;c;eA==" in shown and "\\u202eevil" in shown


def test_no_hand_on_the_pages_when_the_table_holds_the_hands(tmp_path: Path) -> None:
    """[rules] hands = "table" (001 has the Players hold their cards; d2d holds them only
    with hands = "d2d", issue 31): cards left in [players] are not shown."""
    from d2d_cli.serve import project

    path = h.table(tmp_path)  # hands = "d2d", hands stacked, QHv chosen
    text = path.read_text("utf-8").replace('hands = "d2d"', 'hands = "table"', 1)
    data = tomllib.loads(text)
    public = json.dumps(project.public(data, []))
    mine = project.player(data, "Player1")
    assert mine["hand"] == [] and mine["chosen"] is None and mine["deck"] == 0
    for card in h.HIDDEN:
        assert card not in public and card not in json.dumps(mine)


def test_the_tour_finds_its_scene_whatever_the_working_folder_holds(
        d2d: Any, tmp_path: Path, monkeypatch: Any) -> None:
    work = tmp_path / "work"
    (work / "combat1").mkdir(parents=True)  # a folder named like the built-in scene
    monkeypatch.chdir(work)
    res = d2d("tour")
    assert res.exit_code == 0, res.stdout[-2000:] + res.stderr
    assert "not a regular file" not in res.stdout + res.stderr
    assert os.getcwd() == str(work)  # the working folder is given back
    assert sorted(os.listdir(work)) == ["combat1"]


def test_force_never_replaces_d2ds_own_cache_files(d2d: Any, data_dir: Path) -> None:
    d2d.ok("scene", "load", "combat1")
    d2d.ok("status")  # reads the session through its cache
    cache = data_dir / "cache" / "sessions"
    files = sorted(p for p in cache.iterdir() if p.is_file())
    assert {p.name for p in files} >= {"key"} and any(p.suffix == ".cache" for p in files)
    before = {p: p.read_bytes() for p in files}
    for target in files:
        res = d2d("session", "export", "-o", str(target), "--force")
        assert res.exit_code == 2 and "d2d's own files" in res.stderr, res.stderr
    assert {p: p.read_bytes() for p in files} == before


def test_a_killed_export_leaves_no_temp_file_after_the_next_write(
        d2d: Any, data_dir: Path, tmp_path: Path) -> None:
    d2d.ok("scene", "load", "combat1")
    out = tmp_path / "out"
    out.mkdir()
    # the export is killed (SIGKILL) in the middle of its write, its temp file written
    code = ("import os, sys, signal\n"
            "from d2d_cli.session import outputs\n"
            "outputs.fault = lambda step: os.kill(os.getpid(), signal.SIGKILL)\n"
            "from d2d_cli.cli import main\n"
            f"main(['session', 'export', '-o', {str(out / 'story.md')!r}])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60,
                          env={**os.environ, "D2D_DATA_DIR": str(data_dir)})
    assert done.returncode == -9, done.stderr
    left = [n for n in os.listdir(out) if n.endswith(".tmp")]
    assert len(left) == 1 and not (out / "story.md").exists()
    d2d.ok("session", "export", "-o", str(out / "story.md"))
    assert sorted(os.listdir(out)) == ["story.md"]
