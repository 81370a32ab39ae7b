#!/usr/bin/env python3
"""Scene prep from a script: build the Combat #1 scene on a throwaway session through
d2d's Python API (docs/api.md), check every result, and exit non-zero on the first
mismatch.

Run it with the Python that has d2d installed:  .venv/bin/python examples/prep_scene.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from d2d_cli.api import D2DError, Session

HERE = Path(__file__).resolve().parent


def expect(what: str, got: Any, want: Any) -> None:
    if got != want:
        sys.exit(f"prep_scene: {what}: expected {want!r}, got {got!r}")
    print(f"ok  {what} = {got!r}")


def prep(s: Session) -> None:
    scene = s.scene.load(HERE / "combat1.toml")
    expect("scene name", scene.name, "Combat #1")
    expect("map", scene.map, "personal")
    expect("units", [u.name for u in scene.units],
           ["Archer", "Thief", "Goblin Scout", "Goblin Skirmisher"])
    # "The Rope has 45 kg load strength so is Task vs Body:4 to break."
    rope = s.task.new("Rope", difficulty=4, worker=["Thief"])
    expect("Rope task", (rope.challenge, rope.progress, rope.state), (4, 4, "open"))
    s.clock.event.random("A goblin patrol wanders by", chance="1/4")
    events = s.clock.show()
    expect("timed events", [e.at for e in events.timed], [5])
    expect("random events", [e.chance for e in events.random], ["1/4"])
    start = s.round.start()
    expect("round", start.round, 1)
    expect("moves", {u.unit: u.move for u in start.units},
           {"Archer": 5, "Thief": 4, "Goblin Scout": 5, "Goblin Skirmisher": 5})
    knot = s.task.win("Knot", hits=2)
    expect("Knot after 2 Hits", (knot.challenge, knot.progress), (2, 4))
    end = s.round.end()
    expect("round end steps", [x.kind for x in end.steps],
           ["draw", "recover", "task_clock", "condition_events", "random_events", "clock"])
    expect("clock after round 1", end.steps[-1].clock, 2)
    knot = s.task.show("Knot")
    expect("Knot after round end", (knot.challenge, knot.progress), (2, 3))
    clock = s.clock.advance(3)
    expect("events reached", [e.at for e in clock.events], [5])


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="d2d-prep-") as tmp:
        s = Session.new(Path(tmp) / "prep.toml", seed=11)
        try:
            prep(s)
        except D2DError as e:  # the message a command would print, and its exit code
            sys.exit(f"prep_scene: {e.message} (exit {e.exit_code})")
        print("scene prep: all checks passed")


if __name__ == "__main__":
    main()
