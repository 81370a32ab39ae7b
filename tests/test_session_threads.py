"""Commit last is per thread and per session file (issue 26 item 3): a call from another
thread never joins a ``with Session(...)`` block (it waits for the lock and commits on
its own, even when the block raises); a block that would change two session files is
refused before the second changes, so a block commits all it holds or nothing."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.api import BadInput, Session
from d2d_cli.session import scope as S


def _remaining(s: Session) -> int:
    return len(s.data()["fate"]["draw"])


def _entries(s: Session) -> list[str]:
    from d2d_cli import session

    return [e["command"] for e in session.log(s.path, 100)]


def _in_thread(body: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = body()
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            out["error"] = e

    t = threading.Thread(target=run)
    t.start()
    return t, out


def test_another_threads_call_waits_for_the_block_and_survives_its_failure(
        tmp_path: Path) -> None:
    s = Session.new(tmp_path / "t.toml", seed=3)
    start = _remaining(s)
    with pytest.raises(RuntimeError, match="the block fails"), s:
        s.fate.draw(2)
        other, out = _in_thread(lambda: Session(tmp_path / "t.toml").fate.draw(1))
        other.join(0.5)
        # It did not join this block (it would have returned at once): it waits for
        # the session's lock, which the block holds.
        assert other.is_alive()
        assert S._stack() != []  # this thread's block is open…
        raise RuntimeError("the block fails")
    other.join(15)
    assert not other.is_alive() and "error" not in out, out
    # …and the other thread's draw was committed on its own, the block's was not.
    assert _remaining(s) == start - 1
    assert _entries(s) == ["fate draw 1"]
    assert out["result"].to_json()["cards"]


def test_a_thread_sees_no_scope_of_another(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "u.toml", seed=3)
    seen: list[list[S.Scope]] = []
    with s:
        t = threading.Thread(target=lambda: seen.append(list(S._stack())))
        t.start()
        t.join()
        assert len(S._stack()) == 1
    assert seen == [[]] and S._stack() == []


def test_two_threads_each_with_a_block_on_one_session_both_commit(tmp_path: Path) -> None:
    fresh = Session.new(tmp_path / "v.toml", seed=5)
    start, clock = _remaining(fresh), fresh.clock.show().to_json()["clock"]
    gate = threading.Barrier(2)

    def block() -> None:
        s = Session(tmp_path / "v.toml")
        gate.wait()
        with s:
            s.fate.draw(1)
            s.clock.advance(1)

    threads = [_in_thread(block) for _ in range(2)]
    for t, out in threads:
        t.join(30)
        assert not t.is_alive() and "error" not in out, out
    s = Session(tmp_path / "v.toml")
    assert _remaining(s) == start - 2 and s.clock.show().to_json()["clock"] == clock + 2
    assert _entries(s) == ["fate draw 1", "fate draw 1"]  # a block is one entry


def test_a_block_over_two_sessions_is_refused_and_changes_neither(tmp_path: Path) -> None:
    a = Session.new(tmp_path / "a.toml", seed=1)
    b = Session.new(tmp_path / "b.toml", seed=2)
    before = {p: p.read_bytes() for p in (a.path, b.path)}
    with pytest.raises(BadInput, match="changes one session") as refused, a:
        a.fate.draw(1)
        b.fate.draw(1)
    assert str(b.path) in str(refused.value) and str(a.path) in str(refused.value)
    assert {p: p.read_bytes() for p in (a.path, b.path)} == before
    assert _entries(a) == [] and _entries(b) == []


def test_a_block_that_goes_on_after_the_refusal_commits_its_own_session(
        tmp_path: Path) -> None:
    a = Session.new(tmp_path / "a.toml", seed=1)
    b = Session.new(tmp_path / "b.toml", seed=2)
    b_before, start = b.path.read_bytes(), _remaining(a)
    with a:
        a.fate.draw(1)
        with pytest.raises(BadInput, match="use one block per session"):
            b.task.new("Rope", 3)
        a.fate.draw(2)
    assert _entries(a) == ["fate draw 1"] and _remaining(a) == start - 3
    assert b.path.read_bytes() == b_before


def test_undo_of_another_session_inside_a_block_is_refused(tmp_path: Path) -> None:
    a = Session.new(tmp_path / "a.toml", seed=1)
    b = Session.new(tmp_path / "b.toml", seed=2)
    b.fate.draw(1)
    with pytest.raises(BadInput, match="changes one session"), a:
        a.fate.draw(1)
        b.undo()
    assert _entries(b) == ["fate draw 1"] and _entries(a) == []


def test_a_block_ended_by_another_thread_commits_and_leaves_no_scope(tmp_path: Path) -> None:
    """A script that hands its open block to a worker thread to finish: the block's
    change is committed there, the lock released, and the opening thread's stack is
    left empty (no stale scope for its next call to join)."""
    s = Session.new(tmp_path / "w.toml", seed=4)
    start = _remaining(s)
    s.__enter__()
    s.fate.draw(2)
    t, out = _in_thread(lambda: s.__exit__(None, None, None))
    t.join(15)
    assert not t.is_alive() and "error" not in out, out
    assert S._stack() == []
    assert _remaining(s) == start - 2 and _entries(s) == ["fate draw 2"]
    s.fate.draw(1)  # the lock was released: a call now commits at once
    assert _entries(s) == ["fate draw 2", "fate draw 1"]
