"""Helpers shared by the time-area tests (not a test module itself)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from d2d_cli import session
from d2d_cli.rules import fate
from d2d_cli.rules.cards import parse_card


def session_file(data_dir: Path) -> Path:
    files = sorted(data_dir.rglob("*.toml"))
    assert files, "no session file"
    return files[0]


def session_bytes(data_dir: Path) -> bytes:
    return session_file(data_dir).read_bytes()


def stack_deck(path: Path, *codes: str) -> None:
    """Put these cards (with these orientations) on top of the session's Fate deck."""
    with session.edit(path, "test: stack the deck") as tx:
        deck = fate.Deck.from_state(tx.data["fate"])
        wanted = [parse_card(c) for c in codes]
        faces = {c.face for c in wanted}
        rest = [c for c in deck.draw + deck.discard if c.face not in faces]
        deck.draw, deck.discard = wanted + rest, []
        tx.put("fate", deck.to_state())


SCENE = """\
name = "Test"
map = "personal"
[factions.A]
goal = "win"
[units.Archer]
faction = "A"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "4x0"
{extra}
"""


def load_scene(d2d: Any, tmp_path: Path, extra: str = "", name: str = "s.toml") -> Any:
    f = tmp_path / name
    f.write_text(SCENE.format(extra=extra), "utf-8")
    return d2d.json("scene", "load", str(f))
