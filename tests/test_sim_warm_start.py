"""How `d2d sim` shares its fights out (issue 40 item 1): the first fights are played by
the sim's own process, then its pool's workers are forked with the memories those fights
filled, and a `--precision` sim works in small chunks so that few fights are dropped at
the stop. Neither changes a report (tests/test_sim.py pins one; tests/test_sim_precision.py
compares 1 and 2 workers)."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.core.options import DEFAULTS, Options


def _start() -> tuple[dict, dict]:
    from d2d_cli.operations import sim as op
    from d2d_cli.rules.assistant import goals as g

    _label, start, _ = op._start("combat1", {})
    return start, g.parse(start.get("scene", {}).get("goals") or {}, start)


@pytest.mark.parametrize("runs", [0, 1, 7, 99, 100, 101, 250, 2_203])
@pytest.mark.parametrize("size", [1, 7, sim.PRECISION_CHUNK, 250])
def test_the_chunks_cover_every_fight_once_in_order_and_cut_at_the_warm_fights(
        runs: int, size: int) -> None:
    chunks = sim._chunks({}, {}, 1, runs, size, DEFAULTS, "best")
    spans = [(c[3], c[4]) for c in chunks]
    assert [i for lo, hi in spans for i in range(lo, hi)] == list(range(runs))
    assert all(hi - lo <= size for lo, hi in spans)
    if runs > sim.WARM_FIGHTS:  # the process's own fights never share a chunk with the pool's
        assert sim.WARM_FIGHTS in [hi for _lo, hi in spans]


def test_every_checkpoint_of_a_precision_sim_ends_a_chunk() -> None:
    chunks = sim._chunks({}, {}, 1, 2_203, sim.PRECISION_CHUNK, DEFAULTS, "best")
    ends = {c[4] for c in chunks}
    assert all(k in ends for k in range(sim.PRECISION_BATCH, 2_203, sim.PRECISION_BATCH))


_PLAYED = sim._chunk


def _told_chunk(args: sim._Chunk) -> sim.Tally:
    """A chunk played as the sim plays it, its tally telling who played it (a worker's
    chunk is pickled by name, so this lives at the module's top)."""
    known = len(engine._ASSESSED)
    got = _PLAYED(args)
    return sim.Tally(runs=got.runs, wins={f"{os.getpid()} {args[3]} {known}": 1})


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="workers start warm only where Python forks them")
def test_the_workers_start_with_the_memories_of_the_fights_played_before_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk says which process played it and how many assessments that process
    remembered before it: the first WARM_FIGHTS fights are the sim's own, and the
    workers' first chunks already find what those fights remembered (a worker forked
    cold, as before, starts with none)."""
    monkeypatch.setattr(sim, "_chunk", _told_chunk)
    monkeypatch.setattr(sim, "WARM_FIGHTS", 6)  # a few fights are enough to remember some
    engine._ASSESSED.clear()
    start, goals = _start()
    total = sim.simulate(start, goals, 5, 10, workers=2)
    rows = sorted((int(lo), int(pid), int(known))
                  for pid, lo, known in (k.split() for k in total.wins))
    assert total.runs == 10
    own = [r for r in rows if r[0] < 6]
    pool = [r for r in rows if r[0] >= 6]
    assert own and pool
    assert {pid for _lo, pid, _k in own} == {os.getpid()}
    assert os.getpid() not in {pid for _lo, pid, _k in pool}
    remembered = len(engine._ASSESSED)  # what the sim's own fights left here
    assert remembered > 0
    assert all(known >= remembered for _lo, _pid, known in pool)


def _told_objects(args: sim._Chunk) -> sim.Tally:
    """A chunk that plays nothing and tells which process had it and the identities of
    the starting state, goals and ``[rules]`` it was given."""
    start, goals, _seed, lo, _hi, opts, _pc = args
    return sim.Tally(runs=args[4] - lo,
                     wins={f"{os.getpid()} {lo} {id(start)} {id(goals)} {id(opts)}": 1})


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="a chunk monkeypatched here reaches only workers Python forks")
def test_each_worker_plays_every_chunk_on_the_same_objects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker is given the starting state, goals and ``[rules]`` once, as it starts,
    not a copy of them with every chunk: the assessments are remembered by the
    ``[rules]`` object's identity, so a copy a chunk was a memory found only within its
    chunk (a worker's fight cost ~1.08x the sim's own process's over chunks of 20).
    Python forks the workers here, so they are the sim's very objects."""
    monkeypatch.setattr(sim, "_chunk", _told_objects)
    monkeypatch.setattr(sim, "WARM_FIGHTS", 5)
    start, goals = _start()
    opts = Options()  # a [rules] of the session's, not the module's DEFAULTS
    total = sim.simulate(start, goals, 5, 200, workers=2, opts=opts)
    rows = [k.split() for k in total.wins]
    assert total.runs == 200
    pool = [r for r in rows if int(r[0]) != os.getpid()]
    assert len(pool) >= 8  # many chunks for the pool
    by_worker: dict[str, set[tuple[str, str, str]]] = {}
    for pid, _lo, *ids in pool:
        by_worker.setdefault(pid, set()).add(tuple(ids))
    assert all(len(seen) == 1 for seen in by_worker.values()), by_worker
    # the sim's very objects (a copy could not sit where they still sit in the worker)
    assert {tuple(r[2:]) for r in pool} == {(str(id(start)), str(id(goals)), str(id(opts)))}


def test_a_ctrl_c_during_the_first_fights_starts_no_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while the sim's own process plays its first fights stops it there: the
    interrupt goes up to the command (which leaves with 130) and no pool is started, so
    no worker is left (tests/test_sim_stop.py stops a sim whose workers run)."""
    played: list[int] = []

    def chunk(args: sim._Chunk) -> sim.Tally:
        played.append(args[3])
        if len(played) == 2:
            raise KeyboardInterrupt
        return sim.Tally(runs=args[4] - args[3])

    monkeypatch.setattr(sim, "_chunk", chunk)
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda *a, **k: "fork")
    with pytest.raises(KeyboardInterrupt):
        sim.simulate({}, {}, 1, 500, workers=2)
    assert len(played) == 2 and max(played) < sim.WARM_FIGHTS
    assert multiprocessing.active_children() == []
