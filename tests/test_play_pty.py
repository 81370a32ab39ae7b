"""``d2d play`` at a real terminal: a pseudo-terminal (pexpect) whose screen is drawn by a
terminal emulator (pyte), so the test reads exactly what a person would see — the
output of each command, the completed line, the status line at the bottom — and
presses the keys a person would: Enter, Tab, Up, Ctrl-C, Ctrl-D."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROWS, COLS = 60, 110


class Terminal:
    """A d2d process on a pseudo-terminal, and the screen it draws."""

    def __init__(self, args: list[str], env: dict[str, str], cols: int = COLS) -> None:
        self.child = pexpect.spawn(sys.executable, ["-m", "d2d_cli", *args], env=env,
                                   dimensions=(ROWS, cols))
        child = self.child

        class Screen(pyte.Screen):  # type: ignore[misc]
            def write_process_input(self, data: str) -> None:
                child.send(data.encode())  # answer the cursor-position request

        self.screen = Screen(cols, ROWS)
        self.stream = pyte.ByteStream(self.screen)

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def pump(self) -> None:
        try:
            while True:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=0.05))
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            pass

    def wait(self, ready: Callable[[list[str]], bool], timeout: float = 20) -> list[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump()
            if ready(self.lines()):
                return self.lines()
        raise AssertionError("the screen never got there:\n" + "\n".join(self.lines()))

    def prompts(self) -> int:
        return sum(line.startswith("game>") for line in self.lines())

    def run(self, line: str) -> list[str]:
        """Type ``line``, press Enter, wait for the next prompt; the lines printed
        between the two prompts."""
        self.child.send(line)
        self.wait(lambda lines: lines[self.screen.cursor.y] == f"game> {line}")
        return self.enter(f"game> {line}")

    def enter(self, typed: str) -> list[str]:
        before = self.prompts()
        self.child.send("\r")
        lines = self.wait(lambda _: self.prompts() > before and self._idle())
        start = max(i for i, x in enumerate(lines) if x == typed)
        end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("game>"))
        return lines[start + 1:end]

    def _idle(self) -> bool:
        # The prompt is drawn and the cursor sits on it: the command has finished.
        return self.lines()[self.screen.cursor.y].startswith("game>")

    def status(self) -> str:
        """The status line: the toolbar below the prompt (drawn just after it)."""
        def below(lines: list[str]) -> list[str]:
            return [x for x in lines[self.screen.cursor.y + 1:] if x]

        # The toolbar's lines (a long status line takes two), as one line.
        return " · ".join(x.strip() for x in below(self.wait(lambda lines: bool(below(lines)))))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("D2D_")}
    return {**env, "D2D_DATA_DIR": str(tmp_path / "data"), "TERM": "xterm-256color",
            "COLUMNS": str(COLS), "LINES": str(ROWS)}


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_a_scripted_game_at_the_terminal(env: dict[str, str], tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "d2d_cli", "--seed", "7", "session", "new", "game"],
                   env=env, check=True, capture_output=True)  # a named session is made first
    t = Terminal(["--seed", "7", "play", "--session", "game"], env)
    t.wait(lambda lines: "game>" in lines)
    assert t.lines()[0] == "d2d play on game — help for help, Ctrl-D to leave."
    assert t.status() == "no round yet · 54 cards left"

    t.run("scene load combat1")
    assert t.status() == "Combat #1 · no round yet · clock 1 · 54 cards left"
    t.run("round start")
    assert t.status() == ("Combat #1 · round 1 under way · next at Count 5: Archer, Goblin "
                          "Scout, Goblin Skirmisher · clock 1 · 54 cards left")

    drawn = ["Revealed: 6♥ 6 of Cups ↑, J♣ Jack of Wands ↑, 10♣ 10 of Wands ↑",
             "51 left to draw, 3 in the discard pile"]
    assert t.run("fate draw 3") == drawn
    assert t.status() == ("Combat #1 · round 1 under way · next at Count 5: Archer, Goblin "
                          "Scout, Goblin Skirmisher · clock 1 · 51 cards left")

    assert t.run("conflict fast block") == [
        "B wins: Fast vs Block",
        "  B: Keep: return the Block card to your hand; Draw a card"]
    assert t.run("why") == [  # the same answer with its reasons: here, none more
        "A: Fast   vs   B: Block", "B wins", "  B: Keep: return the Block card to your hand",
        "  B: Draw a card"]

    # Tab completes a two-word unit name, quoted.
    t.child.send('unit show "Goblin Sc')
    t.child.send("\t")
    t.wait(lambda lines: 'game> unit show "Goblin Scout"' in lines)
    assert t.enter('game> unit show "Goblin Scout"') == [
        "Goblin Scout (unit)",
        " Unit          Body  Mind  Will  Speed  Conditions  Move  AC  Turn  Target",
        " Goblin Scout  2x1   6x1   2x1   5x0    —           5     2   2     —",
        "Skills: Close Combat 1, Stealth 1"]
    assert t.status() == ("Combat #1 · round 1 under way · next at Count 5: Archer, Goblin "
                          "Scout, Goblin Skirmisher · clock 1 · 51 cards left · "
                          "Goblin Scout: Move 5, AC 2, Turn 2")

    assert t.run("undo") == ["Reverted fate draw 3 (revealed 6H^ JC^ 10C^)"]
    assert t.status().endswith("· 54 cards left · Goblin Scout: Move 5, AC 2, Turn 2")
    # --seed 7 applies to every line as to `d2d --seed 7 …`: after the undo the session's
    # counter is back, so the same draw reveals the same cards.
    assert t.run("fate draw 3") == drawn

    # An error prints its one line, and the shell goes on.
    assert t.run("fate draw x") == [
        "d2d: error: Invalid value for '[COUNT]': 'x' is not a valid int. (type 'help fate "
        "draw')"]

    # Ctrl-C drops the line being typed, never the shell.
    t.child.send("fate dr")
    t.wait(lambda lines: "game> fate dr" in lines)
    before = t.prompts()
    t.child.sendintr()
    t.wait(lambda lines: t.prompts() > before and lines[t.screen.cursor.y] == "game>")
    assert t.status().endswith("· 51 cards left · Goblin Scout: Move 5, AC 2, Turn 2")

    # A second terminal changes the session: the next line sees it.
    from tests.helpers import run_process

    res = run_process("--session", "game", "fate", "draw", "2", env=env)
    assert res.returncode == 0
    assert t.run("fate status")[0] == "Fate deck: 49 to draw, 5 discarded (shuffled 1×)"
    assert t.status().endswith("· 49 cards left · Goblin Scout: Move 5, AC 2, Turn 2")

    # Ctrl-D on an empty line leaves, exit 0.
    t.child.sendeof()
    t.child.expect(pexpect.EOF, timeout=20)
    t.child.close()
    assert t.child.exitstatus == 0

    # History is kept across runs: Up brings back the last line.
    history = (tmp_path / "data" / "play_history").read_text(encoding="utf-8")
    assert "+fate status\n" in history and "+fate dr\n" not in history
    again = Terminal(["play", "--session", "game"], env)
    again.wait(lambda lines: "game>" in lines)
    again.child.send("\x1b[A")  # Up
    again.wait(lambda lines: lines[again.screen.cursor.y] == "game> fate status")
    again.child.sendintr()
    again.wait(lambda lines: lines[again.screen.cursor.y] == "game>")
    again.child.sendeof()
    again.child.expect(pexpect.EOF, timeout=20)


def test_the_status_line_at_40_columns_keeps_each_part_whole(env: dict[str, str]) -> None:
    """Too long for one line, the status line goes on to the next, each part whole (it
    was cut: ``… clock 1 · 54``, the named unit's tokens gone)."""
    env = {**env, "COLUMNS": "40"}
    for args in (["--seed", "7", "session", "new", "game"],
                 ["--session", "game", "scene", "load", "combat1"]):
        subprocess.run([sys.executable, "-m", "d2d_cli", *args], env=env, check=True,
                       capture_output=True)
    t = Terminal(["play", "--session", "game"], env, cols=40)
    t.wait(lambda lines: any(x.startswith("game>") for x in lines))
    t.run("unit show Archer")
    toolbar = [" Combat #1 · no round yet · clock 1", " 54 cards left",
               " Archer: Move —, AC —, Turn —"]
    lines = t.wait(lambda lines: lines[t.screen.cursor.y + 1:][-3:] == toolbar)
    assert all(len(x) <= 40 for x in lines)
    t.child.sendeof()
    t.child.expect(pexpect.EOF, timeout=20)
