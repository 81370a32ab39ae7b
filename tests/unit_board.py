"""A board of units for the unit-aware roll tests (not a test module): the units of
001 l.852 "Goblin with Close Combat:1 attacks a Mercenary with Melee:2", the Goblin
Scout's stats (001 p.6), an Archer, and an Ogre one scale larger."""

from __future__ import annotations

from pathlib import Path
from typing import Any

BOARD = """\
name = "Board"
map = "personal"

[factions.Heroes]
goal = "win"
players = ["Player1"]

[factions.Goblins]
goal = "win"
players = ["Non-Player"]

[units.Merc]
faction = "Heroes"
player = "Player1"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "4x0"
skills = { Melee = 2 }

[units.Archer]
faction = "Heroes"
player = "Player1"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "4x0"
skills = { Ranged = 1, Stealth = 2 }

[units.Goblin]
faction = "Goblins"
player = "Non-Player"
body = "2x1"
mind = "6x1"
will = "2x1"
speed = "5x0"
skills = { "Close Combat" = 1, Stealth = 1 }

[units.Ogre]
faction = "Goblins"
player = "Non-Player"
body = "6x2"
mind = "2x1"
will = "4x1"
speed = "4x0"
skills = { "Close Combat" = 2 }

[units.Sage]
faction = "Heroes"
player = "Player1"
body = "6x1"
mind = "8x1"
will = "6x1"
speed = "4x0"
skills = { History = 3, Persuasion = 2 }
"""


def load_board(d2d: Any, tmp_path: Path) -> Path:
    """A session (its own file) holding the board, with a fresh Fate deck."""
    scene = tmp_path / "board.toml"
    scene.write_text(BOARD, "utf-8")
    session = tmp_path / "board-session.toml"
    d2d.ok("--session", session, "--seed", 5, "scene", "load", scene)
    return session
