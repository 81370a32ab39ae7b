"""Units alike share their stats' texts on one dashboard (rules/overview/dashboard.py
``_rows``, ``roster.stat_values``): each distinct stats, conditions and Grit your Teeth
worked out once. Every row is the row of its unit built alone, and no two rows share a
dict."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from d2d_cli import session
from d2d_cli.operations import Target
from d2d_cli.operations.overview import status
from d2d_cli.rules.overview import dashboard as board
from d2d_cli.rules.units import status_bar

STATS = [{"body": "2x1", "mind": "6x1", "will": "2x1", "speed": "5x0"},
         {"body": "3x1", "mind": "6x1", "will": "2x1", "speed": "5x0"},
         {"body": "2x1", "mind": "6x1", "will": "2x1"},  # no Speed
         {"body": "1x2", "mind": "6x1", "will": "2x1", "speed": "5x0"}]
CONDITIONS = [{}, {"fatigue": 1}, {"fatigue": 2}, {"bleeding": 1, "fatigue": 1},
              {"fatigue": 1, "bleeding": 1}, {"fatigue": 0}]


def _table(stats: dict[str, str], conditions: dict[str, int], grit: bool) -> dict[str, Any]:
    t: dict[str, Any] = {"kind": "unit", **stats, "skills": {}, "conditions": conditions}
    if grit:
        t["effects"] = {"grit_your_teeth": 1}  # the round it was used in
    return t


def _alone(path: Path) -> board.Dashboard:
    """Each row built alone: nothing shared, nothing remembered."""
    t = Target(str(path))
    data = t.read()
    opts, where = t.options(data), status_bar.map_of(data)
    return board.dashboard(data, bar=lambda u: status_bar.on_the_bar(u, where, opts))


def test_each_row_is_its_units_own(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    session.create(path, seed=1)
    combos = list(itertools.product(range(len(STATS)), range(len(CONDITIONS)), (False, True)))
    units = {f"U{n}": _table(STATS[s], CONDITIONS[c], g)
             for n, (s, c, g) in enumerate(combos + combos[::-1])}  # each combination twice
    with session.edit(path, "setup") as tx:
        tx.put("units", units)
    got = status(Target(str(path)))
    assert got == _alone(path)
    rows = got.units
    assert len(rows) == 2 * len(combos)
    # the same stats and conditions with and without Grit, or other stats: other texts
    by = {r.name: r for r in rows}
    assert by["U2"].stats["body"] != by["U3"].stats["body"]  # fatigue 1: Grit ignores it
    assert by["U3"].stats == by["U3"].base_stats == by["U2"].base_stats
    assert len({id(d) for r in rows for d in (r.stats, r.base_stats)}) == 2 * len(rows)
    rows[0].stats["body"] = "changed"  # a caller changes its own row only
    assert all(r.stats.get("body") != "changed" for r in rows[1:])


def test_a_unit_that_keeps_nothing_else_shares_only_with_its_like(tmp_path: Path) -> None:
    """What a unit keeps besides its stats and tokens (Facing, Stealth, Cooldowns…) is
    read once a dashboard for the units that keep nothing else, never given to one that
    keeps something; each row has its own ``active``."""
    path = tmp_path / "s.toml"
    session.create(path, seed=1)
    bare = _table(STATS[0], {}, False)
    units = {"A": bare, "B": {**bare, "facing": "N"}, "C": dict(bare),
             "D": {**bare, "stealth": 2, "cooldown": ["Fire"]}, "E": dict(bare)}
    with session.edit(path, "setup") as tx:
        tx.put("units", units)
    got = status(Target(str(path)))
    assert got == _alone(path)
    by = {r.name: r for r in got.units}
    assert (by["B"].facing, by["D"].stealth, by["D"].cooldowns) == ("N", 2, ("Fire",))
    assert by["A"].facing is None and by["C"].stealth == 0 and by["E"].cooldowns == ()
    assert len({id(r.active) for r in got.units}) == 5
