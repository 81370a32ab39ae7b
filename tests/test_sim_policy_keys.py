"""The policy's fighter key (issue 40 item 1) is the engine's reading of a unit's table
with the round's boosts beside it: one number a table serves the assessments and the
policy's Levels and weapon choice. The reading leaves the spent table out, whose boosts
count in the Levels (001 l.597, l.605: "this Round"); the key keeps them."""

from __future__ import annotations

import copy
from typing import Any

from d2d_cli import tables
from d2d_cli.rules.assistant import engine, policy
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
