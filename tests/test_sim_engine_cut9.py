"""The engine's ninth cut (issue 40 item 1): the round's record of an Action or a move
(``unit_state.stepped``, ``keep_spent``) kept without a second table unpacked or a
``min`` called, and an Interact's Target found by its folded name in a plain loop.
Each is checked here against the rule written out plainly, over every case of its
inputs."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from d2d_cli.rules.scale.stats import parse_stat
from d2d_cli.rules.time import turns
from d2d_cli.rules.units import unit_state
from d2d_cli.rules.units.roster import Unit


def _unit(name: str = "A", **extra: Any) -> Unit:
    return Unit(name, {"speed": parse_stat("4x1")}, extra=dict(extra))


# --------------------------------------------------------------------------- the record


def _kept_plainly(record: unit_state.Spent) -> dict[str, Any]:
    """The record as a table, written out as the rule says: round, actions, boosts, and
    the Count last when set (the oracle)."""
    return {"round": record.round, "actions": record.actions,
            "boosts": list(record.boosts),
            **({"count": record.count} if record.count is not None else {})}


@pytest.mark.parametrize("count", [None, 0, 3, 10])
@pytest.mark.parametrize("boosts", [[], ["Push the Limit: Skill +1"]])
def test_a_kept_record_is_the_table_written_plainly(count: int | None,
                                                    boosts: list[str]) -> None:
    """The same keys, values and order; the boosts a list of the table's own."""
    u = _unit()
    rec = unit_state.Spent(2, 1, boosts, count)
    unit_state.keep_spent(u, rec)
    kept = u.extra[unit_state.SPENT]
    want = _kept_plainly(rec)
    assert list(kept.items()) == list(want.items())
    assert kept["boosts"] is not rec.boosts


def _stepped_plainly(move_before: int | None, count: int | None, free: bool) -> int | None:
    """The Count a step leaves, as 001 l.499–505 reads (the rule before the cut: ``reach``
    of the record, ``min`` of the two): the oracle."""
    at = unit_state.reach(move_before, unit_state.Spent(1, 0, [], count))
    if free:
        return at + 1 if count is None else count
    if at > 0:
        return at if count is None else min(count, at)
    return count


@pytest.mark.parametrize("free", [False, True])
def test_every_step_leaves_the_count_the_rule_says(free: bool) -> None:
    """Every Move before (none, 0–12) and Count last done at (none, 0–11), free or not:
    the record kept holds the Count written out plainly."""
    for move_before, count in itertools.product([None, *range(13)], [None, *range(12)]):
        u = _unit()
        rec = unit_state.Spent(1, 0, [], count)
        out = unit_state.stepped(u, 1, "started", move_before, rec, free=free)
        want = _stepped_plainly(move_before, count, free)
        assert out.count == want, (move_before, count, free)
        assert u.extra[unit_state.SPENT] == _kept_plainly(out)


# --------------------------------------------------------------------------- the Target


def _roster(*names: str) -> dict[str, Unit]:
    out = {}
    for n in names:
        u = _unit(n)
        u.move, u.action_cost, u.turn = 4, 2, 2
        out[n] = u
    return out


@pytest.mark.parametrize("typed", ["Goblin", "goblin", " GOBLIN ", "gOBLIN"])
def test_an_interact_marks_its_target_by_the_folded_name(typed: str) -> None:
    """The Target is found however its name is typed (case, spaces), as a table of the
    folded names finds it; an unknown name marks nobody."""
    units = _roster("Archer", "Goblin")
    turns.act(units, 1, "started", "Archer", "interact", typed)
    assert "interacted" in units["Goblin"].extra
    units = _roster("Archer", "Goblin")
    turns.act(units, 1, "started", "Archer", "interact", "Orc")
    assert "interacted" not in units["Goblin"].extra


def test_names_folded_alike_mark_the_last_as_a_table_of_them_does() -> None:
    """Two names folded alike (a roster the commands never make, but a rules call may be
    given): the one a table of the folded names keeps — the last — is marked."""
    units = _roster("Archer", "GOBLIN", "goblin")
    want = {n.lower(): u for n, u in units.items()}["goblin"]
    turns.act(units, 1, "started", "Archer", "interact", "Goblin")
    marked = [n for n, u in units.items() if "interacted" in u.extra]
    assert marked == [want.name] == ["goblin"]
