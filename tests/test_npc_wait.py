"""``npc turn`` waits for a Player's card without holding the session (issue 35 item 1):
the open question kept in ``[round.asking]`` for the Player's page, the lock released,
the turn going on once the card is chosen (their page, ``hand choose`` elsewhere, or
typed at the terminal); a card not held is asked again; Ctrl-C closes the question and
leaves the session as it was before the attack.

Combat #1 under ``[rules] hands = "d2d"`` after a round start and the Archer's Wait at
Count 5: ``npc turn --all`` moves the Goblin Scout, then the Goblin Skirmisher attacks
the Archer (Player1's), and the turn stops at Count 4, which reaches the Archer and the
Thief."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import session
from d2d_cli.operations import Target, npc
from d2d_cli.serve import project
from tests import serve_helpers as h

HANDS = {"Player1": ["9C", "KD", "2D"], "Player2": ["AD", "RW"]}


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = h.table(tmp_path, hands=False)
    h.stack_hands(path, HANDS)
    # Count 5 reaches the Archer with the Goblins: he Waits (Move 5 → 4), so npc turn
    # --all plays the Goblins' Count 5 (docs/rules.md "npc turn --all, one Count at a time")
    done = h.d2d("--session", str(path), "unit", "wait", "Archer", "5")
    assert done.returncode == 0, done.stderr
    return path


class Clock:
    """Time that passes only when the waiting turn sleeps (no test waits for real)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.now += s


def _typed(lines: list[Any]) -> Any:
    """A terminal where these lines are typed, one per look (None: nothing typed yet)."""
    feed = iter(lines)

    def typed(_asked: Any) -> str | None:
        line = next(feed, None)
        if isinstance(line, BaseException):
            raise line
        return line

    return typed


def test_a_card_not_held_is_asked_again_and_the_turn_goes_on(table: Path) -> None:
    said: list[str] = []
    parts: list[Any] = []
    clock = Clock()
    # Group 4, the Skirmisher alone (no Target joins it to the Archer's Group 1): its two
    # throws come at Counts 5 and 3 with no Player's unit of its Group in between
    r = npc.turn_waiting(Target(str(table)), None, all=True, group=4, wait=5,
                         typed=_typed([None, "KS^", None, "9C^"]), said=said.append,
                         on_part=parts.append, clock=clock, sleep=clock.sleep)
    assert said == ["KS is not in Player1's hand (d2d hand show Player1)"]
    # the first part stopped before the attack; the second carried it out with 9♣
    assert parts[0].asked.summary == "Goblin Skirmisher attacks Archer: Player1 chooses " \
        "Archer's card" and not any("conflict" in c for c in parts[0].commands)
    conflict = [c for c in r.commands if c.startswith("conflict")]
    assert len(conflict) == 1 and "'Archer:9C^'" in conflict[0]
    held = session.read(table)["players"]["Player1"]["hand"]
    assert "9C^" not in held and "KD^" in held
    # its second attack found no answer within the 5 s: the question is closed
    assert r.asked is not None and npc.question(session.read(table)) is None


def test_a_card_chosen_on_the_players_page_carries_the_turn_on(table: Path) -> None:
    """While the turn waits, another process (the Player's page does just this) chooses
    face down through ``hand choose``: the session was free, and the turn reads it."""
    seen: list[dict[str, Any] | None] = []

    def chosen_elsewhere(asked: Any) -> None:
        data = session.read(table)
        seen.append(project.player(data, "Player1")["asked"])
        seen.append(project.player(data, "Player2")["asked"])
        done = h.d2d("--session", str(table), "hand", "choose", asked.target, "KDv")
        assert done.returncode == 0, done.stderr  # not locked out: the turn let go

    calls: list[Any] = []

    def typed(asked: Any) -> None:
        if not calls:
            chosen_elsewhere(asked)
        calls.append(asked)
        return None

    clock = Clock()
    r = npc.turn_waiting(Target(str(table)), None, all=True, wait=1, typed=typed,
                         clock=clock, sleep=clock.sleep)
    assert seen == [{"attacker": "Goblin Skirmisher", "target": "Archer",
                     "player": "Player1"}, None]  # on Player1's page only
    assert any("Archer:KDv" in c for c in r.commands if c.startswith("conflict")), (
        r.commands, len(calls))


def test_ctrl_c_closes_the_question_and_leaves_the_session_before_the_attack(
        table: Path) -> None:
    before_attack: list[dict[str, Any]] = []

    def part(r: Any) -> None:
        before_attack.append(session.read(table))

    with pytest.raises(KeyboardInterrupt):
        npc.turn_waiting(Target(str(table)), None, all=True,
                         typed=_typed([None, KeyboardInterrupt()]), on_part=part)
    after = session.read(table)
    assert npc.question(before_attack[0]) is not None  # the page had the question
    assert npc.question(after) is None
    kept = {k: v for k, v in before_attack[0].items() if k not in ("round", "meta")}
    assert {k: v for k, v in after.items() if k not in ("round", "meta")} == kept
    assert {k: v for k, v in after["round"].items()} == {
        k: v for k, v in before_attack[0]["round"].items() if k != "asking"}


def test_a_script_without_wait_stops_and_says_what_to_type(table: Path) -> None:
    done = h.d2d("--session", str(table), "npc", "turn", "--all", "--json")
    assert done.returncode == 0, done.stderr
    asked = json.loads(done.stdout)["result"]["asked"]
    assert asked["type"][0] == "d2d hand choose Archer CARD"
    assert npc.question(session.read(table)) is None  # nobody waits: nothing asked


@pytest.fixture
def waiting(table: Path) -> Iterator[subprocess.Popen[str]]:
    # Group 4: the Skirmisher alone, both its throws in one command (see above)
    proc = subprocess.Popen([sys.executable, "-m", "d2d_cli", "--session", str(table), "npc",
                             "turn", "--all", "--group", "4", "--wait", "30", "--json"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_a_script_with_wait_goes_on_once_hand_choose_is_typed_elsewhere(
        table: Path, waiting: subprocess.Popen[str]) -> None:
    end = time.monotonic() + 30
    while npc.question(session.read(table)) is None:  # the question is out
        assert waiting.poll() is None and time.monotonic() < end
        time.sleep(0.05)
    done = h.d2d("--session", str(table), "hand", "choose", "Archer", "9C^")
    assert done.returncode == 0, done.stderr
    # then it asks again for the second attack: answered the same way
    while True:
        q = npc.question(session.read(table))
        chosen = session.read(table)["players"]["Player1"].get("chosen")
        if q is not None and chosen is None:
            break
        assert waiting.poll() is None and time.monotonic() < end
        time.sleep(0.05)
    done = h.d2d("--session", str(table), "hand", "choose", "Archer", "KD^")
    assert done.returncode == 0, done.stderr
    assert waiting.stdout is not None
    ready, _, _ = select.select([waiting.stdout], [], [], 30)
    assert ready
    out = json.loads(waiting.stdout.read())
    assert waiting.wait(timeout=10) == 0
    conflicts = [c for c in out["result"]["commands"] if c.startswith("conflict")]
    assert [("9C^" in c, "KD^" in c) for c in conflicts] == [(True, False), (False, True)]
    assert out["result"]["asked"] is None
    assert npc.question(session.read(table)) is None


def test_the_targets_action_comes_with_the_answer(table: Path) -> None:
    """001 l.639–641 "Target may spend an Action": "9C^ respond" typed (or the page's
    Respond) spends it for that attack only; the next answer without it spends none."""
    clock = Clock()
    r = npc.turn_waiting(Target(str(table)), None, all=True, group=4, wait=5,
                         typed=_typed([None, "9C^ respond", None, "KD^"]),
                         clock=clock, sleep=clock.sleep)
    steps = [c.split(" '")[0].split(" Archer")[0] for c in r.commands
             if c.startswith(("unit respond", "conflict"))]
    assert steps == ["unit respond", "conflict", "conflict"]
    assert r.asked is None


def test_ctrl_c_on_a_waiting_command_writes_the_cancel(table: Path) -> None:
    """The command fails (Ctrl-C) yet the question it asked is closed in the file: the
    cancel is its own unit of work, not the failed command's."""
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "d2d_cli", "--session", str(table), "npc",
                             "turn", "--all", "--wait", "60"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 30
        while npc.question(session.read(table)) is None:
            assert proc.poll() is None and time.monotonic() < end
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) != 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    data = session.read(table)
    assert npc.question(data) is None
    assert "chosen" not in data["players"]["Player1"]  # nothing was played for Archer
    log = h.d2d("--session", str(table), "session", "log").stdout
    assert "the question to the Player was cancelled" in log


def test_what_happened_tells_the_npc_turn_in_words(table: Path) -> None:
    """The journal's line for a turn — and so the TV's "What happened" — is each step as
    npc turn prints it under its plan, not "npc turn X: 2 commands"."""
    done = h.d2d("--session", str(table), "npc", "turn", "--all", "--players-stay")
    assert done.returncode == 0, done.stderr
    line = project.public(session.read(table), session.log(table, 5))["log"][-1]
    assert line["summary"].startswith("npc turn Goblin Scout, Goblin Skirmisher: Goblin "
                                      "Scout: Forward ×2 SW: I2 → G4")
    assert "Conflict: " in line["summary"] and "commands" not in line["summary"]
