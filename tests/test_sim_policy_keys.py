"""The policy's fighter key (issue 40 item 1) is the engine's reading of a unit's table
with the round's boosts beside it: one number a table serves the assessments and the
policy's Levels and weapon choice. The reading leaves the spent table out, whose boosts
count in the Levels (001 l.597, l.605: "this Round"); the key keeps them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.rules.assistant import engine, movement, policy, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.board import derive
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.overview import scene


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def test_a_fighters_key_tells_apart_the_boosts_the_reading_leaves_out() -> None:
    archer = combat1()["units"]["Archer"]
    plain = {**archer, "spent": {"round": 1, "actions": 1, "boosts": []}}
    pushed = {**archer, "spent": {"round": 1, "actions": 1, "boosts": ["push"]}}
    again = {**archer, "spent": {"round": 1, "actions": 2, "boosts": []}}
    assert engine.reading(plain) == engine.reading(pushed) == engine.reading(archer)
    assert policy._fighter_key(plain) != policy._fighter_key(pushed)
    assert policy._fighter_key(plain) != policy._fighter_key(archer)  # no spent table
    assert policy._fighter_key(again) == policy._fighter_key(plain)  # Actions: not read


def test_what_the_reading_tells_apart_the_fighters_key_tells_apart() -> None:
    """A stat, a condition, an effect, a skill: each a new reading and a new key."""
    archer = combat1()["units"]["Archer"]
    key = policy._fighter_key(archer)
    changed = [{**archer, "body": "6x1"}, {**archer, "conditions": {"stun": 1}},
               {**archer, "effects": {"push": 1}}, {**archer, "skills": {"Ranged": 2}}]
    keys = {policy._fighter_key(u) for u in changed}
    assert key not in keys and len(keys) == len(changed)


def test_the_planners_key_is_a_fresh_reading_at_every_plan_of_whole_fights(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The movement planners' key: at every look of 12 whole fights it equals the key
    written afresh from the session's tables — the map (its Board's number), the plan's
    own arguments, the moving unit's skills (their items) and weapons, and each placed
    unit's name, Space, Facing, size and faction in roster order; a unit off the map has
    no part."""
    start = combat1()
    goals = g.parse(start["scene"]["goals"], start)
    looked: list[int] = []
    asked = movement.approach

    def checked(data: Any, name: str, target: str, *args: Any) -> Any:
        placed = [(n, u.get("space"), u.get("facing"), u.get("double"), u.get("faction"))
                  for n, u in data["units"].items() if u.get("space")]
        # the map: the number of the Board the plan reads (the Field's), no other's
        board = derive.field(data).board.serial  # type: ignore[union-attr]
        assert movement._key(data, ("x",)) == (board, ("x",), *placed)
        mover = data["units"][name]
        assert movement._key(data, ("x",), mover=name) == (
            board, ("x",),
            (tuple(mover["skills"].items()) if mover.get("skills") else None,
             repr(mover.get("weapons"))), *placed)
        looked.append(1)
        return asked(data, name, target, *args)

    monkeypatch.setattr(movement, "approach", checked)
    for i in range(12):
        sim.fight(start, goals, sim.run_seed(5, i), DEFAULTS)
    assert len(looked) > 100
    # a table kept under another name is not that unit's part
    data = {"board": start["board"], "units": {"Thief": start["units"]["Archer"]}}
    movement._key({"board": start["board"], "units": {"Archer": start["units"]["Archer"]}}, ())
    assert movement._key(data, ())[2][0] == "Thief"


def test_the_cover_reading_without_rules_is_the_sweep() -> None:
    assert derive.cover_reading({}) == "sweep"
    assert derive.cover_reading({"rules": {}}) == "sweep"
    assert derive.cover_reading({"rules": {"cover": "edges"}}) == "edges"
