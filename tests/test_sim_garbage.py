"""A simulated fight leaves no cyclic garbage (issue 40 item 1).

Each fight's Table held its own Assessor, which held the Table's bound method: a cycle,
so every fight's Table — its session, decks, hands and live units, ~100 objects — was
freed only by the cyclic collector, waited for its next collection and was walked by
it (at the command's threshold of 100,000, five collections of 60–100 ms each over
Combat #1's 2,200 fights; one after the cut). These tests fail if a cycle comes back.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from d2d_cli.operations.sim import _start
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    _, start, _ = _start("combat1", {})
    return start, g.parse(start.get("scene", {}).get("goals") or {}, start)


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cyclic collector off (and what it finds kept in ``gc.garbage``) for the test."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


def test_a_fights_table_is_freed_by_reference_counting(no_collector: None) -> None:
    start, goals = _combat1()
    out, table = sim.fight(start, goals, sim.run_seed(2, 0))
    assert out.rounds >= 1 and table.players  # a whole fight, with the Players' hands
    gone = weakref.ref(table)
    del table
    assert gone() is None  # freed at once: nothing of it waits for the collector


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_whole_fights_leave_nothing_for_the_collector(no_collector: None, pc: str) -> None:
    start, goals = _combat1()
    tally = sim.play_runs(start, goals, 2, range(12), pc=pc)
    assert tally.runs == 12
    assert gc.collect() == 0, sorted({type(o).__name__ for o in gc.garbage})
