"""The planner's Turn to face its Rival (``movement._facing_for``) reads the Facings in
an order worked out once for each Facing (``movement._turn_order``: the fewest Turns
first, 000 l.272 "Turn 1" a 45° step, then by index), as it sorted them at every Space
before (issue 40 item 1). Checked against that sort from every Space of Combat #1's map,
every Facing, both kinds of Arc and every Turn a unit may hold."""

from __future__ import annotations

from typing import Any

from d2d_cli.errors import D2DError
from d2d_cli.operations.sim import _start
from d2d_cli.rules.assistant import movement
from d2d_cli.rules.board import sight
from d2d_cli.rules.board.derive import arcs_of, field
from d2d_cli.rules.board.moves import turned
from d2d_cli.rules.board.placement import Placement


def _sorted_at_every_call(f: Any, p: Placement, target: Placement, turn: int,
                          arcs: tuple[str, ...]) -> tuple[Placement, int] | None:
    """``_facing_for`` as it was written: the Facings sorted at every call."""
    if p.facing is None:
        return None
    options = sorted(range(8), key=lambda h: (movement._turns_between(p.facing or 0, h), h))
    for h in options:
        steps = movement._turns_between(p.facing, h)
        if steps > turn:
            break
        if sight.arc(p.space, h, target.space) not in (*arcs, None):
            continue
        try:
            return (p if steps == 0 else turned(f.board, p, h)), steps
        except D2DError:
            continue
    return None


def test_the_turn_order_is_the_sort_it_replaced() -> None:
    for facing in range(8):
        order = movement._turn_order(facing)
        assert [h for h, _ in order] == sorted(
            range(8), key=lambda h: (movement._turns_between(facing, h), h))
        assert [s for _, s in order] == [movement._turns_between(facing, h) for h, _ in order]


def test_facing_for_chooses_as_the_sort_did_everywhere() -> None:
    _, start, _ = _start("combat1", {})
    f = field(start)
    assert f is not None
    rival = f.places["Goblin Scout"]
    met = {0: 0, 1: 0}
    for (x, y), terrain in f.board.spaces().items():
        if not terrain.enter or (x, y) == rival.space:
            continue
        for facing in range(8):
            for double in (False, True):
                p = Placement("Archer", (x, y), facing, double, "Adventurers")
                for arcs in (arcs_of("ranged"), arcs_of("melee")):
                    for turn in range(5):
                        got = movement._facing_for(f, p, rival, turn, arcs)
                        assert got == _sorted_at_every_call(f, p, rival, turn, arcs)
                        if got is not None:
                            met[min(got[1], 1)] += 1
    assert met[0] and met[1]  # faced already, and turned to face
