"""The Combat #1 transcript: every d2d command with ``--json`` on one seeded session.

Issue 9 asks that a redesign leave every command's JSON byte-identical; this script
runs the same command lines against a fresh session and returns each envelope, with
the session folder and timestamps normalised. ``tests/test_golden.py`` compares the
result with ``combat1.jsonl``; after a deliberate change of behaviour, regenerate with

    .venv/bin/python -m tests.golden.script > tests/golden/combat1.jsonl

and read the diff: every changed line is a change of behaviour to name in the commit.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import tempfile
from pathlib import Path

# Lines after "d2d --session <file>"; each is run with --json appended.
LINES = """
--seed 7 fate shuffle --reset
scene load combat1
round start
fate status
fate draw 3
fate draw --peek 2
fate die d10 --count 2 --explain
fate die d8 --card 5Sv
fate coin
fate high-card Archer Thief Goblin
scale mass 80kg
scale speed 40kph
scale iq 110
scale show 1x9 --as speed
scale compare 2x4 9x1
scale map car --speed 5x1
scale map --list
scale samples
conflict 9S^ fate --card 6C
conflict strong block
conflict chart
hit 9S^ 10H 8C --level 1 --rival-level 1 --vs 2x1
crit --weapon Body+2 --stat 8x1 --hits 3 --types pierce --target 'Goblin Scout'
crit --vehicle --power 6x3 --card bash@engine
char new Rook --template human-female --body 7 --will 5 --archetype thief --fear Drowning
char show Rook
char award Rook --sp 2 --ap 1
char train Rook Stealth
char learn Rook 'Pick Lock'
char respec Rook Stealth
unit add Ogre --body 6x2 --mind 2x1 --will 4x1 --speed 4x0 --skill 'Close Combat=2'
unit list
unit show Ogre
unit condition Ogre add fatigue --count 2
unit target Ogre Archer
status
ref 'blood loss'
ref thief
task new Door --difficulty 3
task win Knot --hits 2 --by Thief
task lose Door --hits 1
task show Knot
task list
round end
round end
clock show
clock set 2
clock tick
clock event add 9 'The bridge collapses'
clock event random 'A patrol passes' --chance 1/6
clock event list
clock advance 3
weather wind
weather show
scene show
unit rm Ogre
task drop Door
session log --last 4
session undo
session show
round start
round groups
unit face Archer N
unit move Archer forward
unit move Archer equip
unit move Archer turn NE
unit act 'Goblin Scout' burst
unit wait Thief 4
unit ability 'Goblin Scout' use Sneak
unit act 'Goblin Scout' ready
unit stealth 'Goblin Scout' hide
unit act Archer detect 'Goblin Scout' --range 2
unit add Mage --body 6x1 --mind 7x1 --will 6x1 --speed 3x0 --skill Fire=2
unit power Mage use Fire --effect 3 --area 2 --continuous --price fatigue
unit power Mage upkeep
status
"""


def _normalise(text: str, folder: Path) -> str:
    text = text.replace(str(folder), "<tmp>")
    return re.sub(r'"(at|created)": "[^"]+"', r'"\1": "<time>"', text)


def transcript() -> list[str]:
    from typer.testing import CliRunner

    from d2d_cli.cli import app

    runner = CliRunner()
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        session = folder / "combat1.toml"
        for line in LINES.strip().splitlines():
            argv = ["--session", str(session), *shlex.split(line), "--json"]
            res = runner.invoke(app, argv, env={"D2D_DATA_DIR": str(folder / "data")})
            stdout = res.stdout.strip() or json.dumps({"exit": res.exit_code})
            out.append(f"{line}\t{res.exit_code}\t{_normalise(stdout, folder)}")
    return out


if __name__ == "__main__":
    sys.stdout.write("\n".join(transcript()) + "\n")
