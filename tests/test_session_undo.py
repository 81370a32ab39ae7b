"""Undo and redo, and the journal under faults (issue 10, items 2, 3, 4 and 11)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from d2d_cli import env, session
from d2d_cli.session import journal
from tests.helpers import build_table, files_of, hand_edit

COMMANDS = [
    ("fate", "draw", "2"),
    ("unit", "condition", "Gob", "add", "stun"),
    ("clock", "advance", "1"),
    ("fate", "coin"),
    ("task", "win", "knot", "--hits", "1"),
    ("unit", "target", "Gob", "--clear"),
    ("fate", "shuffle"),
    ("unit", "condition", "Gob", "remove", "stun"),
    ("clock", "set", "3"),
    ("fate", "die", "d6"),
]


def _sixty(d2d, path: Path) -> list[bytes]:
    states = [path.read_bytes()]
    for i in range(60):
        args = COMMANDS[i % len(COMMANDS)]
        if args[:2] == ("task", "win"):
            args = ("task", "new", f"t{i}", "--difficulty", "3")
        d2d.ok("--session", path, *args)
        if path.read_bytes() != states[-1]:  # a command that changes nothing is not undone
            states.append(path.read_bytes())
    return states


def test_sixty_commands_then_fifty_undos_restore_each_state_then_redo(d2d,
                                                                    tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "u.toml")
    states = _sixty(d2d, path)
    assert len(set(states)) > 50  # the commands really changed the file
    for n in range(1, 51):
        r = d2d.json("--session", path, "session", "undo")
        assert path.read_bytes() == states[-1 - n], n  # exactly the state before
        assert r["reverted"]["command"]
    log = d2d.json("--session", path, "session", "log", "--last", "200")["entries"]
    assert sum(e["undone"] for e in log) == 50
    for n in range(50, 0, -1):
        d2d.json("--session", path, "session", "redo")
        assert path.read_bytes() == states[-n], n
    res = d2d("--session", path, "session", "redo")
    assert res.exit_code == 2 and "nothing to redo" in res.stderr


def test_a_new_command_after_undo_ends_redo(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "r.toml")
    d2d.ok("--session", path, "fate", "draw")
    d2d.ok("--session", path, "session", "undo")
    d2d.ok("--session", path, "clock", "advance", "1")
    res = d2d("--session", path, "session", "redo")
    assert res.exit_code == 2 and "nothing to redo" in res.stderr
    # undo now reverts the clock, then the commands before the undone draw
    assert d2d.json("--session", path, "session", "undo")["reverted"]["command"] == \
        "clock advance 1"
    assert d2d.json("--session", path, "session", "undo")["reverted"]["command"].startswith(
        "clock event add")


def test_undo_refuses_to_discard_hand_edits_unless_forced(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "h.toml")
    before_draw = path.read_bytes()
    d2d.ok("--session", path, "fate", "draw", "3")
    hand_edit(path, r"^\[tasks\.knot\]$", "# the Narrator's note\n[tasks.knot]")
    edited = files_of(tmp_path)
    res = d2d("--session", path, "session", "undo")
    assert res.exit_code == 3
    assert "changed by hand" in res.stderr and "--force" in res.stderr
    assert files_of(tmp_path) == edited
    r = d2d.json("--session", path, "session", "undo", "--force")
    assert r["reverted"]["command"] == "fate draw 3"
    text = path.read_text()
    assert "# the Narrator's note" in text  # the hand edit is kept
    assert text.replace("# the Narrator's note\n", "") == before_draw.decode()


def test_force_refuses_when_the_hand_edit_touched_the_same_lines(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "f.toml")
    d2d.ok("--session", path, "unit", "condition", "Gob", "add", "stun")
    hand_edit(path, r"^stun = 1$", "stun = 2")
    before = files_of(tmp_path)
    res = d2d("--session", path, "session", "undo", "--force")
    assert res.exit_code == 3 and "same lines" in res.stderr
    assert files_of(tmp_path) == before


def test_a_torn_journal_line_never_swallows_the_next_entry(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "t.toml")
    jp = session.journal_path(path)
    for torn in (b'0badc0de {"v":2,"id":99,"op":"do","command":"half', b"\x00\x00\x00",
                 b"{\"at\": \"x\""):
        with open(jp, "ab") as f:
            f.write(torn)  # what a kill or a full disk leaves behind
        before = path.read_bytes()
        d2d.ok("--session", path, "fate", "draw")
        log = d2d.json("--session", path, "session", "log", "--last", "1")["entries"]
        assert log[0]["command"] == "fate draw"
        r = d2d.json("--session", path, "session", "undo")
        assert r["reverted"]["command"] == "fate draw"
        assert path.read_bytes() == before  # one command back, exactly
    assert all(journal.decode(line) for line in jp.read_bytes().splitlines())


_KILLER = """
import os, signal, sys
from d2d_cli.cli import main
from d2d_cli.env import Environment
step = sys.argv[1]
kill = lambda s: os.kill(os.getpid(), signal.SIGKILL) if s == step else None
main(sys.argv[2:], env=Environment(fault=kill))
"""


@pytest.mark.parametrize("step", ["journal", "temp", "backup", "renamed"])
def test_a_kill_at_any_step_leaves_old_or_new_and_undo_says_what_it_does(
        d2d, tmp_path: Path, step: str) -> None:
    path = build_table(d2d, tmp_path / "k.toml")
    d2d.ok("--session", path, "unit", "condition", "Gob", "add", "stun")
    old = path.read_bytes()
    proc = subprocess.run([sys.executable, "-c", _KILLER, step, "--session", str(path),
                           "fate", "draw", "5"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == -9
    now = path.read_bytes()
    assert now == old or step == "renamed"  # before the rename: the old file, whole
    r = d2d.json("--session", path, "session", "undo")
    if now == old:  # the kill came before the commit: undo reverts the command before
        assert r["reverted"]["command"] == "unit condition Gob add stun"
        assert path.read_bytes() != old
    else:
        assert r["reverted"]["command"] == "fate draw 5"
        assert path.read_bytes() == old


@pytest.mark.parametrize("step", ["journal", "temp", "backup"])
def test_a_full_disk_at_each_step_changes_nothing(d2d, tmp_path: Path, step: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = build_table(d2d, tmp_path / "n.toml")
    before = files_of(tmp_path)

    def full(s: str) -> None:
        if s == step:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    with env.active(env.Environment(fault=full)):
        res = d2d("--session", path, "fate", "draw")
    assert res.exit_code == 3 and "No space left on device" in res.stderr
    assert str(path) in res.stderr
    assert files_of(tmp_path) == before
    d2d.ok("--session", path, "fate", "draw")
    assert d2d.json("--session", path, "session", "undo")["reverted"]["command"] == "fate draw"
    assert files_of(tmp_path)[path.name] == before[path.name]


def _tmpfs(where: Path, size: str) -> bool:
    if sys.platform != "linux" or os.geteuid() != 0:
        return False
    where.mkdir()
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                         capture_output=True)
    return res.returncode == 0


def test_a_really_full_disk_never_reverts_more_than_undo_says(d2d, tmp_path: Path) -> None:
    """On a small tmpfs (where the test may mount one): fill it to many levels; every
    command either fails with exit 3 and changes nothing, or succeeds; afterwards each
    undo reverts exactly the command it names."""
    mnt = tmp_path / "small"
    if not _tmpfs(mnt, "320k"):
        pytest.skip("cannot mount a tmpfs here (the injected-ENOSPC tests cover it)")
    try:
        path = build_table(d2d, mnt / "full.toml")
        history = [path.read_bytes()]
        filler = mnt / "filler"
        codes = []
        for level in range(48):
            # leave from 0 to ~11 pages free, and a few odd bytes: every step of a write
            # (journal, temp file, .bak, cache) meets the full disk at some level
            st = os.statvfs(mnt)
            room = st.f_bavail * st.f_frsize - (level % 12) * 4096 + 97 * level
            with contextlib.suppress(OSError), open(filler, "wb") as f:
                f.write(b"x" * max(0, room))
            before = path.read_bytes()
            res = d2d("--session", path, "fate", "draw", "2")
            assert res.exit_code in (0, 3), res.stderr
            codes.append(res.exit_code)
            if res.exit_code == 3:
                assert path.read_bytes() == before and str(mnt) in res.stderr
                assert "Traceback" not in res.stderr
            else:
                history.append(path.read_bytes())
            filler.unlink()
        assert codes.count(3) > 5 and codes.count(0) > 5, codes
        assert len(history) > 5
        for n in range(1, len(history)):
            r = d2d.json("--session", path, "session", "undo")
            assert r["reverted"]["command"] == "fate draw 2"
            assert path.read_bytes() == history[-1 - n]
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_the_journal_stays_within_its_bound_and_undo_still_reaches_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal, "BOUND_FLOOR", 140_000)
    path = tmp_path / "b.toml"
    session.create(path, seed=1)
    jp = session.journal_path(path)
    from d2d_cli.rules.deck import fate

    states = [path.read_bytes()]
    for _ in range(150):
        with session.edit(path, "fate draw") as tx:
            deck = fate.Deck.from_state(tx.data["fate"])
            fate.draw(deck, 3, tx.rng())
            tx.put("fate", deck.to_state())
        states.append(path.read_bytes())
        assert jp.stat().st_size <= journal.bound(len(states[-1]))
    for n in range(1, journal.UNDO_DEPTH + 1):
        session.undo(path)
        assert path.read_bytes() == states[-1 - n]


def test_undo_reads_only_the_tail_of_the_journal(d2d, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = build_table(d2d, tmp_path / "tail.toml")
    before = path.read_bytes()
    d2d.ok("--session", path, "fate", "draw")

    def whole(*_a: object) -> None:
        raise AssertionError("undo read the whole journal")

    monkeypatch.setattr(journal, "read_all", whole)
    monkeypatch.setattr(journal.files, "read_fd", whole)
    monkeypatch.setattr(session.files, "read_fd", lambda fd: os.pread(fd, 1 << 24, 0))
    d2d.ok("--session", path, "session", "undo")
    assert path.read_bytes() == before


def test_a_journal_of_the_first_format_is_carried_over(d2d, tmp_path: Path) -> None:
    """Journals written before this format (whole-file snapshots, plain JSON lines)
    keep their undo history."""
    path = build_table(d2d, tmp_path / "old.toml")
    jp = session.journal_path(path)
    s0 = path.read_text()
    d2d.ok("--session", path, "fate", "draw")
    s1 = path.read_text()
    d2d.ok("--session", path, "clock", "advance", "1")
    lines = [{"at": "t0", "command": "fate draw 1", "summary": "a", "before": s0},
             {"at": "t1", "command": "clock advance 1", "summary": "b", "before": s1}]
    jp.write_text("".join(json.dumps(e) + "\n" for e in lines))
    log = d2d.json("--session", path, "session", "log")["entries"]
    assert [e["command"] for e in log] == ["fate draw 1", "clock advance 1"]
    assert d2d.json("--session", path, "session", "undo")["reverted"]["command"] == \
        "clock advance 1"
    assert path.read_text() == s1
    d2d.ok("--session", path, "session", "undo")
    assert path.read_text() == s0
