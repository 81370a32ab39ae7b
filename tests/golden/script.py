"""The Combat #1 transcript: every leaf d2d command, with ``--json``, on one seeded session.

Issue 9 asks that a redesign leave every command's JSON byte-identical; this script
runs the same command lines against a fresh session and returns each envelope, with
the session folder and timestamps normalised. ``tests/test_golden.py`` compares the
result with ``combat1.jsonl``, and walks the Click command tree to fail for any leaf
command no line runs; after a deliberate change of behaviour, regenerate with

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
unit gear add 'Goblin Scout' Shield
unit gear show 'Goblin Scout'
unit gear rm 'Goblin Scout' shield
char new Rook --template human-female --body 7 --will 5 --archetype thief --fear Drowning
char show Rook
char award Rook --sp 2 --ap 1
char train Rook Stealth
char learn Rook 'Pick Lock'
char respec Rook Stealth
unit add Ogre --body 6x2 --mind 2x1 --will 4x1 --speed 4x0 --skill 'Close Combat=2'
unit side Ogre --faction Goblins
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
clock event rm 'The bridge collapses'
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
round next
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
scale area 4 --reading formula
char list
char award Rook --cp 1
char feat Rook
char unlearn Rook 'Pick Lock'
char downtime
char export Rook --format json -o -
char export Rook --format toml -o {tmp}/rook.toml
char import {tmp}/rook.toml --rename Rook2
unit heal 'Goblin Scout' --crit 1 --days 2
unit place Archer E7 NE
unit situation Archer --cover 50 --range 3 --vs 'Goblin Scout'
unit interrupt 'Goblin Scout' Archer
unit act 'Goblin Scout' interact Archer
unit respond Archer --no-action
unit free Thief
unit leave Thief
--seed 3 roll 'd20 + 5 vs 15 per 5'
odds conflict fate 7S^ --level-b 2
odds hits 5 --level 2 --rival-level 1 --vs 2x1
odds die d10
odds weather
odds crit --power 6x1 --armor head=2x1 --hits 2 --types pierce
oracle 'Is the guard asleep?' --likely
npc plan 'Goblin Skirmisher'
npc turn 'Goblin Skirmisher'
rules set hand d2d
rules set hands d2d
rules show
rules unset cover
hand deal
hand show Player1
hand choose Archer 10H^
hand draw Player1
hand gain Player1
player rename player1 Ann
hand drop Player2
board
session export --format markdown -o {tmp}/story.md
session export --format foundry-cards -o {tmp}/fate.json
serve --port 0 <<< q
session undo
session redo
session path
board place Den H8:I9
board fog --all --sight 2
board event add C3 'A pit trap'
board event add Den 'A chest of gold' --location
board event list
board event reveal 1
board event rm 1
board reveal Den
board
session new friday --rule hands=d2d
session use friday
session list
--seed 1 sim combat1 --runs 2 --workers 1
play <<< fate status ;; unit list
tour
"""


# The two commands that print for people only (they take no --json): their output is
# recorded as one JSON string. ``play`` reads its lines from stdin: the text after
# " <<< " on a line, " ;; " between lines. "{tmp}" is the transcript's own folder.
NO_JSON = ("play", "tour")
_STDIN = " <<< "


def _normalise(text: str, folder: Path) -> str:
    text = text.replace(str(folder), "<tmp>")
    # The tour's throwaway folder (tempfile.mkdtemp): a new name every run.
    text = re.sub(re.escape(tempfile.gettempdir()) + r"/d2d-tour-\w+", "<tour>", text)
    text = re.sub(r'"(at|created)": "[^"]+"', r'"\1": "<time>"', text)
    # d2d serve's URLs: a free port and fresh tokens every run.
    text = re.sub(r"http://127\.0\.0\.1:\d+/[^\"\s]*", "<url>", text)
    # The time of a journal entry as a person reads it (the tour's session log).
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", "<time>", text)


def recorded(line: str, exit_code: int, stdout: str, folder: Path) -> str:
    """A line of combat1.jsonl: the line, its exit code, and its JSON envelope (or any
    other output as one JSON string)."""
    text = stdout.strip()
    if not text:
        text = json.dumps({"exit": exit_code})
    elif "\n" in text:
        text = json.dumps(text, ensure_ascii=False)
    return f"{line}\t{exit_code}\t{_normalise(text, folder)}"


def argv_of(line: str, folder: Path, *, as_json: bool = True) -> tuple[list[str], str | None]:
    """The arguments after ``d2d --session FILE`` for one transcript line (``--json``
    added where the command takes it), and its stdin."""
    line, _, stdin = line.partition(_STDIN)
    words = shlex.split(line.replace("{tmp}", str(folder)))
    if as_json and not any(w in NO_JSON for w in words):
        words.append("--json")
    return words, (stdin.replace(" ;; ", "\n") + "\n" if stdin else None)


def transcript() -> list[str]:
    from typer.testing import CliRunner

    from d2d_cli.cli import app

    runner = CliRunner()
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        session = folder / "combat1.toml"
        # The human output of play and the tour is as wide, and as plain, on every
        # machine: 80 columns, none of the variables Rich reads to style a pipe.
        environ: dict[str, str | None] = {
            "D2D_DATA_DIR": str(folder / "data"), "COLUMNS": "80",
            **dict.fromkeys(("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE",
                             "JUPYTER_COLUMNS", "NO_COLOR"))}
        for line in LINES.strip().splitlines():
            words, stdin = argv_of(line, folder)
            res = runner.invoke(app, ["--session", str(session), *words], env=environ,
                                input=stdin)
            out.append(recorded(line, res.exit_code, res.stdout, folder))
    return out


if __name__ == "__main__":
    sys.stdout.write("\n".join(transcript()) + "\n")
