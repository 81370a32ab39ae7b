"""`npc turn` is legal in every situation (issue 27): on small hand-drawn maps, units
placed at random (seeded) with random conditions — Hidden, bound, Fatigued, Stunned —
each NPC's whole round is played by the policy through the engine, whose every step is
the command's own rules call (a move past the Move or a Hidden unit's tokens, an attack
out of reach, Arc or sight, on a Hidden or friendly target, a third Action: each is
refused there). Nothing may be refused, and what was done is checked again here."""

from __future__ import annotations

import random
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import policy, sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.board import grid
from d2d_cli.rules.overview import scene

MAPS = {
    "corridor": "# # # # # # # # #\n. . . . o . . . .\n. . . . . . . . .\n# # # . # # # # #",
    "walls": ". . . . . . .\n. # # . # # .\n. . . . . . .\n. o . . . % .\n. . . . . . .",
    "open": "\n".join([". " * 6] * 5),
}
SKILLS = [{"Close Combat": 1, "Stealth": 1}, {"Melee": 2, "Stealth": 1},
          {"Ranged": 1, "Stealth": 1}]


def _scene(rng: random.Random, picture: str) -> dict[str, Any]:
    board = grid.parse_board({"grid": picture, "legend": {}})
    free = [(x, y) for y in range(board.height) for x in range(board.width)
            if board.terrain((x, y)).enter]
    rng.shuffle(free)
    units: dict[str, Any] = {}
    for i in range(4):
        side = "Red" if i % 2 else "Blue"
        u: dict[str, Any] = {
            "faction": side, "player": "Non-Player", "body": "3x1", "mind": "5x1",
            "will": "3x1", "speed": rng.choice(["4x0", "5x0", "6x0"]),
            "skills": dict(rng.choice(SKILLS)),
            "space": grid.space_name(free[i]), "facing": rng.choice(grid.COMPASS)}
        units[f"{side} {i}"] = u
    raw = {"name": "legal", "map": "personal", "board": {"grid": picture},
           "factions": {"Red": {"goal": "rout Blue"}, "Blue": {"goal": "rout Red"}},
           "units": units,
           "goals": {"Red": {"any": [["rivals down"]]}, "Blue": {"any": [["rivals down"]]}}}
    return dict(scene.load(raw, {})[0])


def _conditions(rng: random.Random, data: dict[str, Any]) -> None:
    for u in data["units"].values():
        roll = rng.random()
        if roll < 0.25:
            u["stealth"] = rng.choice([1, 2])
        elif roll < 0.4:
            u.setdefault("conditions", {})["fatigue"] = rng.choice([1, 2])
        elif roll < 0.5:
            u.setdefault("conditions", {})["stun"] = 1


@pytest.mark.parametrize("name", sorted(MAPS))
def test_every_npc_turn_is_legal(name: str) -> None:
    rng = random.Random(f"issue27:{name}")
    played = attacks = 0
    for case in range(12):
        data = _scene(rng, MAPS[name])
        _conditions(rng, data)
        goals = g.parse(data["scene"]["goals"], data)
        t = Table(data, random.Random(case), log=True)
        t.round_start()
        hidden_before = {n for n, u in t.units().items() if u.get("stealth")}
        plans: list[policy.Plan] = []
        sim.turns(t, goals, plans=plans)  # raises on any refused step
        units = t.units()
        for p in plans:
            played += 1
            if p.action == "attack":
                attacks += 1
                assert p.target in units and p.target not in hidden_before, p
                assert units[p.target]["faction"] != units[p.unit]["faction"], p
        for n, u in units.items():
            assert u["move"] >= 0, (n, u)
            spent = (u.get("spent") or {}).get("actions", 0)
            assert spent <= 2, (n, u)  # 001 l.545 "2 Actions per Round are possible"
            if u.get("stealth"):
                moved = (u.get("effects") or {}).get("moved_hidden", 0)
                assert moved <= u["stealth"], (n, u)  # 000 l.804
    assert played >= 12 and attacks >= 1
