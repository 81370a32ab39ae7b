"""Outputs never clobber (issue 30 item 3): every file the user names — ``board --svg``,
``sim --log``, ``char export -o`` — goes through one writer (d2d_cli/session/outputs.py)
that refuses an existing file without --force, never follows a symlink, writes a temp
file and renames it, never writes over d2d's own files, and maps a full disk to exit 2
with nothing half-written. Each test starts from the issue's repro."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from d2d_cli import api
from d2d_cli.errors import D2DError
from d2d_cli.session import outputs
from tests.test_safe_state import everything


@pytest.fixture
def table(d2d, data_dir: Path) -> Path:
    d2d.ok("scene", "load", "combat1")
    d2d.ok("char", "new", "Rook", "--body", "7", "--speed", "5")
    d2d.ok("fate", "draw")  # a .bak beside the session
    return data_dir / "default.toml"


# the three commands, each writing FILE
WRITERS = {
    "board": lambda f: ("board", "--svg", f),
    "sim": lambda f: ("--seed", "1", "sim", "combat1", "--runs", "1", "--log", f),
    "char": lambda f: ("char", "export", "Rook", "--format", "svg", "-o", f),
}


@pytest.mark.parametrize("cmd", WRITERS)
def test_the_session_and_its_companions_are_never_written_over(d2d, table: Path,
                                                               cmd: str) -> None:
    # The repro: `d2d board --svg default.toml` replaced the session, exit 0.
    before = everything(table.parent)
    for name in ("default.toml", "default.toml.bak", "default.toml.journal", "current"):
        for force in ((), ("--force",)):
            res = d2d(*WRITERS[cmd](str(table.parent / name)), *force)
            assert res.exit_code == 2, (name, res.stdout, res.stderr)
            assert "d2d's own files" in res.stderr and res.stdout == ""
    assert everything(table.parent) == before


@pytest.mark.parametrize("cmd", WRITERS)
def test_another_session_anywhere_is_refused_even_with_force(d2d, table: Path,
                                                             tmp_path: Path, cmd: str) -> None:
    copy = tmp_path / "campaign.toml"
    copy.write_bytes(table.read_bytes())
    res = d2d(*WRITERS[cmd](str(copy)), "--force")
    assert res.exit_code == 2 and "session or journal" in res.stderr
    assert copy.read_bytes() == table.read_bytes()


@pytest.mark.parametrize("cmd", WRITERS)
def test_an_existing_file_needs_force(d2d, table: Path, tmp_path: Path, cmd: str) -> None:
    out = tmp_path / "out.txt"
    out.write_text("mine\n")
    os.chmod(out, 0o640)
    res = d2d(*WRITERS[cmd](str(out)))
    assert res.exit_code == 2 and "exists: add --force" in res.stderr
    assert out.read_text() == "mine\n"
    d2d.ok(*WRITERS[cmd](str(out)), "--force")
    assert out.read_text() != "mine\n" and (out.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("cmd", WRITERS)
def test_a_symlink_is_never_followed(d2d, table: Path, tmp_path: Path, cmd: str) -> None:
    # The repro: `char export -o` to a dangling symlink wrote the link's target.
    victim = tmp_path / "victim"
    link = tmp_path / "link.svg"
    link.symlink_to(victim)  # dangling
    res = d2d(*WRITERS[cmd](str(link)))
    assert res.exit_code == 2 and "exists" in res.stderr and not victim.exists()
    victim.write_text("precious\n")
    d2d.ok(*WRITERS[cmd](str(link)), "--force")  # the link is replaced, not followed
    assert victim.read_text() == "precious\n"
    assert not link.is_symlink() and link.read_text() != "precious\n"


def test_a_link_onto_the_session_is_refused(d2d, table: Path, tmp_path: Path) -> None:
    link = tmp_path / "map.svg"
    link.symlink_to(table)
    before = everything(table.parent)
    res = d2d("board", "--svg", link, "--force")
    assert res.exit_code == 2 and link.is_symlink()
    assert everything(table.parent) == before


@pytest.mark.parametrize("cmd", WRITERS)
def test_a_full_disk_is_exit_2_and_nothing_is_half_written(
        d2d, table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cmd: str) -> None:
    # The repro: on a full disk the old file was left truncated (board, sim),
    # or `char export` exited 1 leaving a 0-byte file.
    out = tmp_path / "old.svg"
    out.write_text("the old picture\n")
    real_write = os.write
    calls = []

    def full(fd: int, data: bytes) -> int:
        calls.append(fd)
        if len(calls) == 1:
            return real_write(fd, bytes(data)[:10])  # a first block gets through
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outputs.os, "write", full)
    before = everything(table.parent)
    for target, force in ((out, ("--force",)), (tmp_path / "new.svg", ())):
        calls.clear()
        res = d2d(*WRITERS[cmd](str(target)), *force)
        assert res.exit_code == 2, (res.stdout, res.stderr)
        assert "the disk is full" in res.stderr and res.stdout == ""
    assert out.read_text() == "the old picture\n" and not (tmp_path / "new.svg").exists()
    assert [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []
    assert everything(table.parent) == before


def test_the_fault_hook_reaches_the_output_writer(d2d, table: Path, tmp_path: Path) -> None:
    from d2d_cli import env

    def hook(step: str) -> None:
        if step == "output":
            raise OSError(errno.EDQUOT, "Disk quota exceeded")

    with env.active(env.Environment(fault=hook)):
        res = d2d("board", "--svg", tmp_path / "q.svg")
    assert res.exit_code == 2 and "the disk is full" in res.stderr
    assert list(tmp_path.glob("*q.svg*")) == []


def test_the_api_refuses_too(d2d, table: Path, tmp_path: Path) -> None:
    s = api.Session()
    out = tmp_path / "rook.toml"
    s.char.export("Rook", format="toml", output=out)
    with pytest.raises(D2DError, match="exists"):
        s.char.export("Rook", format="toml", output=out)
    with pytest.raises(D2DError, match="own files"):
        s.char.export("Rook", format="toml", output=table, force=True)
    with pytest.raises(D2DError, match="own files"):
        s.board(svg=table, force=True)
    s.char.export("Rook", format="json", output=out, force=True)
    assert out.read_text().startswith("{")


def test_names_in_messages_are_cut() -> None:
    assert outputs.short("x" * 20_000) == "x" * 59 + "…"
    assert outputs.short("short") == "short"
