"""One unit of work (issue 38 item 1): the CLI, the API and ``d2d serve`` open a call
through ``operations.call`` / ``operations.unit_of_work``; a lookup reads without the
lock, a change takes the lock FIRST and reads only inside it (SQLite's BEGIN
IMMEDIATE), so a result never rests on a state the journal says it did not see.

The races are made deterministic with a hook on the one lock-check-read sequence
(``session.reads.locked_read``, as ``session.transact`` calls it): the first time the
call under test reaches for the lock, another thread makes its change and finishes —
exactly the window where the old code had already read the session unlocked."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import session
from d2d_cli.api import BadInput, NotFound, Session
from d2d_cli.operations import ReadBeforeLock, Target
from d2d_cli.rules.core.result import to_json
from d2d_cli.session import transact
from tests import serve_helpers as h
from tests.helpers import Runner

FIGHT = ("Archer:7S^", "Goblin Scout")
FIGHT_OPTIONS: dict[str, Any] = {"skill": "Ranged", "range": 3, "no_map": True}


def _combat(path: Path) -> Session:
    s = Session.new(path, seed=5)
    s.scene.load("combat1")
    return s


def _before_the_lock(monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], Any]) -> None:
    """The first time a call reaches for the session's lock, ``meanwhile`` runs to the
    end in another thread (its own unit of work, its own lock) before the lock is taken."""
    original = transact.locked_read
    fired = threading.Event()

    def hooked(real: Path, stack: Any) -> Any:
        if not fired.is_set():
            fired.set()
            failed: list[BaseException] = []

            def run() -> None:
                try:
                    meanwhile()
                except BaseException as e:  # noqa: BLE001 - re-raised below
                    failed.append(e)

            other = threading.Thread(target=run)
            other.start()
            other.join(60)
            assert not other.is_alive() and not failed, failed
        return original(real, stack)

    monkeypatch.setattr(transact, "locked_read", hooked)


def _state(s: Session) -> dict[str, Any]:
    """The session's data but the time it was created."""
    data = s.data()
    data["meta"].pop("created")
    return data


def _commands(path: Path) -> list[str]:
    return [e["command"] for e in session.log(path, 100)]


def test_a_conflict_resolves_on_the_state_its_journal_entry_follows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fatigue 3 is journalled between the conflict's start and its write: the conflict
    must be resolved with it (001 p.7: a condition's penalty lowers the Level), exactly
    as the same two commands one after the other — the old code computed the Levels
    from an unlocked read and journalled a Level 1 after the Fatigue that makes it −2."""
    raced, calm = _combat(tmp_path / "raced.toml"), _combat(tmp_path / "calm.toml")
    calm.unit.condition("Archer", "add", "fatigue", 3)
    want = calm.conflict(*FIGHT, **FIGHT_OPTIONS)

    _before_the_lock(monkeypatch, lambda: Session(raced.path).unit.condition(
        "Archer", "add", "fatigue", 3))
    got = raced.conflict(*FIGHT, **FIGHT_OPTIONS)

    assert _commands(raced.path)[-2:] == [
        "unit condition Archer add fatigue 3",
        "conflict 'Archer:7S^' 'Goblin Scout' --skill Ranged --range 3 --no-map"]
    assert want.side_a.level == -2  # the Fatigue is in it (1 without)
    assert to_json(got) == to_json(want)
    assert _state(raced) == _state(calm)


def test_hit_reads_the_exchange_inside_its_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``hit`` after a conflict takes its winner and Rival from the round's exchange: a
    Fatigue journalled while it waits for the lock is in its Levels, as it is when the
    commands run one after the other."""
    raced, calm = _combat(tmp_path / "raced.toml"), _combat(tmp_path / "calm.toml")
    for s in (raced, calm):
        s.round.start()
        s.conflict(*FIGHT, **FIGHT_OPTIONS)
    calm.unit.condition("Goblin Scout", "add", "fatigue", 3)
    want = calm.hit()
    _before_the_lock(monkeypatch, lambda: Session(raced.path).unit.condition(
        "Goblin Scout", "add", "fatigue", 3))
    got = raced.hit()
    assert to_json(got) == to_json(want)
    assert "exchange" in got.sources  # said where the Hits were made, not patched later
    assert _state(raced) == _state(calm)


def test_unit_heal_reads_the_rules_inside_its_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``unit heal`` reads ``[rules] days_heal`` from the state it writes over: a rules
    change made while it waits for the lock is the one applied (000 l.611 "Recover -
    Each Unit removes a Fatigue" under "rounds"; "glossary" keeps only the Glossary's
    Day and Month times) — the old code read the rules unlocked."""
    raced, calm, plain = (_combat(tmp_path / f"{n}.toml") for n in ("raced", "calm", "plain"))

    def glossary(s: Session) -> None:
        with session.edit(s.path, "test: days_heal") as tx:
            tx.put("rules", {**tx.data.get("rules", {}), "days_heal": "glossary"})

    for s in (raced, calm, plain):
        s.unit.condition("Archer", "add", "fatigue", 2)
    glossary(calm)
    want = calm.unit.heal("Archer", days=1)
    assert to_json(want) != to_json(plain.unit.heal("Archer", days=1))  # the rules matter
    _before_the_lock(monkeypatch, lambda: glossary(raced))
    got = raced.unit.heal("Archer", days=1)
    assert to_json(got) == to_json(want)


def test_a_target_that_read_without_the_lock_cannot_then_write(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE as an assertion: an operation that would write what an unlocked
    read decided trips the suite (ReadBeforeLock), and nothing is written."""
    s = _combat(tmp_path / "s.toml")
    before = s.path.read_bytes()
    t = Target(str(s.path), label="test")
    t.read()
    with pytest.raises(ReadBeforeLock), t.edit() as tx:
        tx.put("clock", {})
    assert s.path.read_bytes() == before
    locked = Target(str(s.path), label="test")
    with locked.edit() as tx:  # the lock first: reads after it are the locked state's
        assert tx.data["units"]
    locked.read()


def test_a_player_cannot_choose_for_a_unit_handed_over_while_the_choice_waits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Narrator hands the Archer to Player2 while Player1's face-down choice waits
    for the lock: the choice is refused (the ownership is checked inside the write), and
    Player2's hand is untouched — the old code had checked before the lock and played
    Player2's AD for Player1's page, crediting it to Player2."""
    from d2d_cli.serve.server import Table

    path = h.table(tmp_path)
    table = Table(Target(str(path)), log=io.StringIO())
    held = Session(path).data()["players"]["Player2"]
    assert [c[:2] for c in held["hand"]] == h.HANDS["Player2"]
    _before_the_lock(monkeypatch, lambda: Session(path).unit.side("Archer", player="Player2"))
    with pytest.raises(BadInput, match="'Archer' is not one of Player1's units"):
        table.choose("Player1", "Archer", "ADv")
    data = Session(path).data()
    assert data["players"]["Player2"] == held
    assert _commands(path)[-1] == "unit side Archer --player Player2"


def test_serve_never_creates_a_session_a_page_asks_for(tmp_path: Path) -> None:
    """The Narrator moved the session away: a Player's tap gets an error in words (no
    path shown to the phone) and no new session, deck or journal appears."""
    from d2d_cli.serve.server import Table

    path = h.table(tmp_path)
    table = Table(Target(str(path)), log=io.StringIO())
    journal = Path(f"{path}.journal")
    kept = journal.read_bytes()
    path.rename(tmp_path / "moved.toml")
    with pytest.raises(NotFound) as refused:
        table.choose("Player1", "Archer", "7S")
    assert "not there any more" in refused.value.message
    assert str(tmp_path) not in refused.value.message and "table.toml" not in \
        refused.value.message
    assert not path.exists()
    assert journal.read_bytes() == kept and not Path(f"{journal}.old").exists()


_LOOP = """
import json, sys, time
from pathlib import Path
from d2d_cli.api import Session
path, role, n, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
while not go.exists():  # both start together
    time.sleep(0.005)
s = Session(path)
for i in range(n):
    if role == "fatigue":
        s.unit.condition("Archer", "add" if i % 2 == 0 else "remove", "fatigue", 3)
    else:
        r = s.conflict("Archer:7S^", "Goblin Scout", skill="Ranged", range=3, no_map=True)
        print(json.dumps(r.side_a.level), flush=True)
"""


def test_two_processes_writing_at_once_give_no_stale_conflict(tmp_path: Path) -> None:
    """2 writers × 20 commands, as two terminals at a table: one toggles the Archer's
    Fatigue 3, the other resolves conflicts. Each conflict's Level must be the one the
    journal's order says it saw (Fatigue 3 on: −2, off: 1; sequentially measured)."""
    s = _combat(tmp_path / "s.toml")
    level = {False: s.conflict(*FIGHT, **FIGHT_OPTIONS).side_a.level}
    s.unit.condition("Archer", "add", "fatigue", 3)
    level[True] = s.conflict(*FIGHT, **FIGHT_OPTIONS).side_a.level
    s.unit.condition("Archer", "remove", "fatigue", 3)
    assert level == {False: 1, True: -2}
    go, n = tmp_path / "go", 20
    env = {**os.environ, "D2D_DATA_DIR": str(tmp_path / "data")}
    procs = [subprocess.Popen([sys.executable, "-c", _LOOP, str(s.path), role, str(n),
                               str(go)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for role in ("fatigue", "conflict")]
    go.touch()
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    shown = [json.loads(line) for line in outs[1][0].split()]
    assert len(shown) == n
    tired, seen = False, []
    for command in _commands(s.path)[-2 * n:]:
        if command.startswith("unit condition Archer"):
            tired = " add " in command
        else:
            seen.append(level[tired])
    stale = sum(a != b for a, b in zip(shown, seen, strict=True))
    assert stale == 0, (shown, seen)


def test_a_read_only_session_still_answers_what_writes_nothing(
        tmp_path: Path, d2d: Runner) -> None:
    """Taking the lock first must not cost a lookup its answer: on a read-only session
    file, a conflict on typed approaches (001 l.736 "**Fast** - Win vs Strong") and a
    hit with typed Levels answer as before; a conflict that reveals from the Fate deck is
    refused (exit 3, read-only) and the file is unchanged."""
    s = _combat(tmp_path / "r.toml")
    s.path.chmod(0o444)
    before = s.path.read_bytes()
    for args in (("conflict", "fast", "strong"), ("hit", "2S", "--level", "1", "--vs", "2")):
        res = d2d("--session", s.path, *args)
        assert res.exit_code == 0, res.stderr
    refused = d2d("--session", s.path, "conflict", *FIGHT, "--skill", "Ranged")
    assert refused.exit_code == 3 and "read-only" in refused.stderr
    assert s.path.read_bytes() == before
