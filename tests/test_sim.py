"""``d2d sim`` (rules/assistant/engine.py, sim.py, goals.py, policy.py): one engine — the
simulated fight is the commands' own rules calls, so its log of d2d commands, replayed
with ``d2d play`` on the starting session, reaches the same state (issue 22 item 4)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant.engine import Player, Table
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.odds.exact import DeckView, Piles, conflict_odds
from tests.helpers import assert_refused

# The sections a fight changes; the Fate and Damage decks are left out: the log gives
# every card with --card, and table mode never touches the virtual decks (DESIGN.md).
COMPARED = ("units", "tasks", "clock", "round", "scene")


def _session(d2d: Any, path: Path) -> dict[str, Any]:
    d2d.ok("--session", path, "scene", "load", "combat1")
    return tomllib.loads(path.read_text("utf-8"))


def _replay(path: Path, lines: list[str], data_dir: Path) -> dict[str, Any]:
    import os

    proc = subprocess.run([sys.executable, "-m", "d2d_cli", "--session", str(path), "play"],
                          input="".join(f"{x}\n" for x in lines), capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "D2D_DATA_DIR": str(data_dir)})
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    return tomllib.loads(path.read_text("utf-8"))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_log_replayed_with_play_reaches_the_same_state(d2d, data_dir: Path,
                                                           seed: int) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "fight.toml"
    start = _session(d2d, path)
    goals = g.parse(start["scene"]["goals"], start)
    out, table = sim.fight(start, goals, sim.run_seed(seed, 0), DEFAULTS, log=True)
    assert table.lines and table.lines[0] == "round start"
    assert any(x.startswith("crit ") for x in table.lines)
    # Combat #1 has a map: the units move on it (unit move) and fight on it (no --no-map)
    assert any(x.startswith("unit move ") for x in table.lines)
    assert any(x.startswith("conflict ") and "--no-map" not in x for x in table.lines)
    assert any(table.data["units"][n].get("space") != start["units"][n].get("space")
               for n in start["units"])
    after = _replay(path, table.lines, data_dir)
    for key in COMPARED:
        assert after.get(key) == table.data.get(key), key
    assert sim.fight(start, goals, sim.run_seed(seed, 0), DEFAULTS)[0] == out  # no log


def test_the_freed_thief_and_the_archer_leave_the_map_and_the_log_replays(
        d2d, data_dir: Path) -> None:
    """"Free the Thief and get away" (000 l.553–558): in seed 3's fight the Knot is won,
    then both step off the map's edge (`unit leave`, docs/rules.md "Leaving the map") and
    the Adventurers' goal `off map Archer Thief` is reached; `d2d play` replays it. (Seed
    3's until issue 34, seed 1's in it; seed 3's again with issue 36's weapons.)"""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "fight.toml"
    start = _session(d2d, path)
    goals = g.parse(start["scene"]["goals"], start)
    out, table = sim.fight(start, goals, sim.run_seed(3, 0), DEFAULTS, log=True)
    assert table.lines is not None
    leaves = [x for x in table.lines if x.startswith("unit leave ")]
    assert leaves == ["unit leave Thief backward", "unit leave Archer slide left"]
    assert out.winner == "Adventurers"
    assert all(table.data["units"][n].get("off_map") for n in ("Archer", "Thief"))
    assert not any("space" in table.data["units"][n] for n in ("Archer", "Thief"))
    after = _replay(path, table.lines, data_dir)
    for key in COMPARED:
        assert after.get(key) == table.data.get(key), key


def test_sim_log_writes_the_fight_from_its_scene(d2d, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / "fight.log"
    path = data_dir / "s.toml"
    got = d2d.json("--session", path, "--seed", 5, "sim", "combat1", "--runs", 1,
                   "--log", log)
    lines = log.read_text("utf-8").splitlines()
    assert lines[0] == "scene load combat1" and got["log"] == str(log)
    start = _session(d2d, data_dir / "t.toml")
    goals = g.parse(start["scene"]["goals"], start)
    out, table = sim.fight(start, goals, sim.run_seed(5, 0), DEFAULTS, log=True)
    assert lines[1:] == table.lines
    winners = [f["faction"] for f in got["factions"] if f["reached"]]
    assert winners == ([out.winner] if out.winner else [])


def test_same_seed_same_report_whatever_the_workers(d2d, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "s.toml"
    one = d2d.json("--session", path, "--seed", 11, "sim", "combat1", "--runs", 12,
                   "--workers", 1)
    two = d2d.json("--session", path, "--seed", 11, "sim", "combat1", "--runs", 12,
                   "--workers", 2)
    assert {**one, "workers": 0} == {**two, "workers": 0}
    assert one["runs"] == 12 and sum(f["reached"] for f in one["factions"]) + \
        one["undecided"] == 12


def test_wilson_interval() -> None:
    lo, hi = sim.wilson(39, 40)
    assert (round(lo, 4), round(hi, 4)) == (0.8712, 0.9956)
    assert sim.wilson(0, 10)[0] == 0.0 and round(sim.wilson(0, 10)[1], 4) == 0.2775


def test_tally_is_counts_only() -> None:
    t = sim.Tally()
    for i in range(1000):
        t.add(sim.Outcome("A" if i % 3 else None, 1 + i % 4, ("X",) if i % 2 else ()))
    assert t.runs == 1000 and t.wins == {"": 334, "A": 666}
    assert t.rounds == {1: 250, 2: 250, 3: 250, 4: 250} and t.down == {"X": 500}


def test_goals_parse_and_check() -> None:
    data = {"scene": {"factions": {"A": {"goal": "win"}, "B": {"goal": "hold"}},
                      "reserves": {}},
            "units": {"Archer": {"faction": "A", "conditions": {}},
                      "Goblin Scout": {"faction": "B", "conditions": {"dying": 1}}},
            "tasks": {"Knot": {"difficulty": 4, "challenge": 0, "progress": 2}},
            "clock": {"value": 3}}
    goals = g.parse({"A": {"any": [["task Knot won", "rivals down"]]},
                     "B": {"any": [["down Archer"], ["clock 5"]]}}, data)
    assert g.reached(goals["A"], data) and not g.reached(goals["B"], data)
    assert g.parse_condition("down Goblin Scout", data["units"], {}, "x").names == (
        "Goblin Scout",)
    with pytest.raises(Exception, match="not a goal condition"):
        g.parse({"A": {"any": [["win everything"]]}}, data)
    with pytest.raises(Exception, match="not a unit of the scene"):
        g.parse({"A": {"any": [["down Nobody"]]}}, data)


def _pair() -> dict[str, Any]:
    """Two Goblin-like units, each Level 1 by Close Combat 1: one exchange's sides."""
    def unit(faction: str) -> dict[str, Any]:
        return {"kind": "unit", "body": "2x1", "mind": "6x1", "will": "2x1",
                "speed": "5x0", "faction": faction, "skills": {"Close Combat": 1},
                "conditions": {}}
    return {"units": {"Scout": unit("B"), "Rival": unit("A")}}


def test_a_single_exchange_agrees_with_odds_within_the_interval() -> None:
    """Item 5: a Non-Player's attack (a Fate reveal each side, both Level 1 by Close
    Combat 1 against the same) — the frequencies of `conflict`'s outcome over 4,000
    seeded exchanges on a fresh deck fall inside the 95% Wilson interval around
    odds' exact fractions."""
    import random

    data = _pair()
    exact = conflict_odds("fate", "fate", Piles.fresh(), DeckView("fresh", 54, 0),
                          level_a=1, level_b=1)
    n = 4000
    counts = {"a": 0, "b": 0, "both": 0, "tie": 0}
    rng = random.Random(22)
    for _ in range(n):
        t = Table(dict(data), rng)
        counts[t.conflict("Scout:fate", "Rival:fate").outcome] += 1
    for key, p in (("a", exact.a_wins), ("b", exact.b_wins), ("both", exact.both_win),
                   ("tie", exact.tie)):
        lo, hi = sim.wilson(counts[key], n)
        assert lo <= p.value <= hi, (key, counts[key], p.fraction)
    assert exact.a_wins.fraction == exact.b_wins.fraction != Fraction(0)


def test_an_exchanges_hits_agree_with_odds_within_the_interval() -> None:
    """Item 5, the Hits of the exchange: one Fate card revealed from a fresh deck and
    played as the lead (turned Upper, as ``odds hits`` plays it), counted by the sim's
    ``hit --by Scout --vs Rival``, gives each number of Hits as often as ``odds hits 1
    --level 1 --rival-level 1 --vs 2``'s exact fractions say, within the 95% Wilson
    interval over 4,000 seeded reveals, and is a glancing blow as often; a card that can
    lead no scoring play counts 0
    (001 l.838 "2-10 - Hits:+1 IF Rank+Level > Difficulty"; l.861 "The Goblin Body is
    2x1": the Difficulty against a unit of Body 2x1 is 2)."""
    import random

    from d2d_cli.errors import RuleViolation
    from d2d_cli.rules.deck.cards import Card
    from d2d_cli.rules.odds.exact import hits_odds

    exact = hits_odds(1, Piles.fresh(), DeckView("fresh", 54, 0), level=1, rival_level=1,
                      difficulty=2)
    n = 4000
    counts: dict[int, int] = {}
    glancing = 0
    rng = random.Random(7)
    for _ in range(n):
        t = Table(_pair(), rng)
        c = t.revealer()()
        try:
            h = t.hit(Card(c.rank, c.suit, True, c.wild_color), by="Scout", vs="Rival",
                      skill="Close Combat")
        except RuleViolation:
            got = 0
        else:
            assert h.difficulty == 2
            got = h.hits
            glancing += h.glancing
        counts[got] = counts.get(got, 0) + 1
    assert set(counts) == {row.hits for row in exact.distribution}
    for row in exact.distribution:
        lo, hi = sim.wilson(counts[row.hits], n)
        assert lo <= row.probability.value <= hi, (row.hits, counts[row.hits])
    lo, hi = sim.wilson(glancing, n)  # a win whose card missed the Difficulty: 1 Hit
    assert lo <= exact.glancing.value <= hi, (glancing, exact.glancing.fraction)


def test_an_exchanges_crit_agrees_with_odds_within_the_interval() -> None:
    """Item 5, the Crit of the exchange: the sim's ``crit`` (the Scout's Body weapon, 2
    Hits, on the Rival, a fresh Damage Deck each time) lands on each location and at each
    severity as often as ``odds crit --by Scout --target Rival --hits 2 --fresh``'s exact
    fractions say, within the 95% Wilson interval over 3,000 seeded Crits (001 l.890–894
    "Crit Location … Draw until you find matching a Type")."""
    import random

    from d2d_cli.rules.combat import crits
    from d2d_cli.rules.odds.exact import crit_odds
    from d2d_cli.rules.units import roster as units

    data = _pair()
    roster = units.roster(data)
    scout, rival = units.find(roster, "Scout"), units.find(roster, "Rival")
    stat = crits.wielder_stat("Body", None, scout)[0]
    deck, wanted = crits.parse_types(None)
    ch = crits.chart("person", None, str(DEFAULTS.locations_file))
    exact = crit_odds(power=crits.power_rating(None, "Body", stat),
                      armor=crits.unit_armor(rival, ch), hits_before=2, deck=deck,
                      types=wanted, ch=ch, state=None, fresh=True, opts=DEFAULTS,
                      gear=crits.target_gear(rival), target=rival)
    n = 3000
    where: dict[str, int] = {}
    how: dict[str, int] = {}
    rng = random.Random(5)
    for _ in range(n):
        t = Table(_pair(), rng)
        out = t.crit("Scout", "Rival", 2)
        where[out.location] = where.get(out.location, 0) + 1
        how[out.severity] = how.get(out.severity, 0) + 1
    assert set(where) == {row.location for row in exact.locations}
    for row in exact.locations:
        lo, hi = sim.wilson(where[row.location], n)
        assert lo <= row.probability.value <= hi, (row.location, where[row.location])
    assert set(how) == {row.severity for row in exact.severities}
    for sev in exact.severities:
        lo, hi = sim.wilson(how[sev.severity], n)
        assert lo <= sev.probability.value <= hi, (sev.severity, how[sev.severity])


def test_a_hand_holds_at_most_ten() -> None:
    """000 l.109 "Players shuffle their Conflict Decks and draw 5 cards. Max Cards in
    Hand is 10."""
    p = Player("P", [parse_card(c) for c in ("2C", "3C", "4C", "5C", "6C", "7C", "8C",
                                              "9C", "10C", "JC", "QC", "KC")])
    assert p.draw(5) == 5 and p.draw(7) == 5 and len(p.hand) == 10 and p.draw(1) == 0


@pytest.mark.parametrize(("args", "message"), [
    (["sim", "combat1", "--runs", "0"], "--runs must be"),
    (["sim", "combat1", "--runs", "2", "--log", "x.log"], "give --runs 1"),
    (["sim", "combat1", "--pc", "smart"], "--pc is best or fate"),
    (["sim", "combat1", "--workers", "0"], "--workers must be"),
    (["sim"], "no scene in this session"),
])
def test_refusals_change_nothing(d2d, data_dir: Path, args: list[str], message: str
                                 ) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "s.toml"
    d2d.ok("--session", path, "fate", "status")
    assert_refused(d2d, data_dir, ["--session", str(path), *args], message)


def test_sim_on_the_session_never_writes_it(d2d, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "s.toml"
    d2d.ok("--session", path, "scene", "load", "combat1")
    before = path.read_bytes()
    got = d2d.json("--session", path, "--seed", 3, "sim", "--runs", 3, "--workers", 1)
    assert got["scene"] == "Combat #1" and got["runs"] == 3
    assert path.read_bytes() == before
    assert json.dumps(got)  # plain JSON


def test_a_roster_view_builds_only_the_units_looked_up() -> None:
    """conflict and hit read their two units through RosterView: a lookup by the stored
    name builds one Unit, the same one every time; the view reads as the roster does."""
    from d2d_cli.rules.units.roster import RosterView, find, roster

    data = {"units": {f"Gob {i}": {"kind": "unit", "body": "2x1", "speed": "5x0"}
                      for i in range(100)}}
    view = RosterView(data)
    assert find(view, "Gob 7") is find(view, "Gob 7") and len(view._built) == 1
    assert find(view, "gob 8").name == "Gob 8"  # a name in another case reads them all
    assert list(view) == list(roster(data)) and len(view) == 100
    assert {n: u.to_state() for n, u in view.items()} == {
        n: u.to_state() for n, u in roster(data).items()}


def test_sim_on_the_session_mid_round_plays_the_round_on(d2d, data_dir: Path) -> None:
    """The session as it stands in the middle of a round (round 1 started, the Goblins'
    turn taken): the fight goes on from there — no second `round start` — and its log
    replayed on that session reaches the same state."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "s.toml"
    d2d.ok("--session", path, "--seed", 1, "scene", "load", "combat1")
    d2d.ok("--session", path, "round", "start")
    d2d.ok("--session", path, "unit", "wait", "Archer", "5")  # his Count 5 first
    d2d.ok("--session", path, "--seed", 2, "npc", "turn", "--all")  # stops at Count 4
    before = path.read_bytes()
    log = data_dir / "fight.log"
    got = d2d.json("--session", path, "--seed", 3, "sim", "--runs", 1, "--log", log)
    assert path.read_bytes() == before and got["runs"] == 1
    lines = log.read_text("utf-8").splitlines()
    assert lines[0] != "round start" and "round end" in lines
    assert lines.index("round end") < lines.index("round start")
    after = _replay(path, lines, data_dir)
    start = tomllib.loads(before.decode("utf-8"))
    goals = g.parse(start["scene"]["goals"], start)
    _, table = sim.fight(start, goals, sim.run_seed(3, 0), DEFAULTS, log=True)
    assert table.lines == lines
    for key in COMPARED:
        assert after.get(key) == table.data.get(key), key


def test_a_small_sim_is_pinned_exactly() -> None:
    """Speed work must not change a single fight (issue 27 item 12: "make a fight cheaper
    with the same rule functions"): 40 Combat #1 fights of seed 5 give exactly these
    counts, and fight 3's log (67 commands, every card given) is exactly this text.
    Re-pinned by issue 34, which plays the whole exchange (the Target's Action, the
    counter-attack), and issue 36, which arms Combat #1 (the Skirmishers' Javelins and
    the Archer's Bow, 000 l.579, l.588): deliberate changes of every fight. Re-pinned
    again when the Archer's Player plays Wild Luck (000 l.526): fight 3 has none and
    keeps its log."""
    import copy
    import hashlib

    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    goals = g.parse(start["scene"]["goals"], start)
    t = sim.play_runs(start, goals, 5, range(40))
    assert (t.runs, t.wins, t.down) == (
        40, {"Goblins": 31, "Adventurers": 8, "": 1}, {"Archer": 32, "Goblin Scout": 1})
    assert t.rounds == {3: 7, 4: 8, 5: 18, 6: 5, 7: 2}
    out, table = sim.fight(start, goals, sim.run_seed(5, 3), log=True)
    assert out == sim.Outcome("Goblins", 3, ("Archer",))
    assert table.lines is not None and len(table.lines) == 67
    assert hashlib.sha256("\n".join(table.lines).encode()).hexdigest() == \
        "ec3d30cbdcf28dbf5428ca7b1fc8653e7193b8f4d810a915b042e15a47ec15da"


def _combat1() -> tuple[dict[str, Any], Any]:
    import copy

    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def test_the_live_units_always_stand_for_the_tables_stored(monkeypatch) -> None:
    """A fight keeps its units live (issue 40 item 1): a Unit is built once and read again
    only while the session holds the very table it was built from or stored as. With
    every read checked against a Unit built afresh from that table, 12 whole fights (the
    Luck looks, the leaves, the counters among them) never read a stale or half-changed
    Unit — and the live Units were really read again (not rebuilt every time)."""
    from d2d_cli.rules.assistant import engine
    from d2d_cli.rules.units import roster

    start, goals = _combat1()
    monkeypatch.setattr(engine.Table, "verify_live", True)
    for i in range(12):
        sim.fight(start, goals, sim.run_seed(3, i), DEFAULTS, log=i % 2 == 0)
    monkeypatch.setattr(engine.Table, "verify_live", False)
    built = reads = inside = 0
    build = roster.Unit.from_state.__func__  # type: ignore[attr-defined]
    read, some, looked = engine.Table.unit, engine.Table._live_of, engine.LiveRoster.__getitem__

    def counted_build(cls: Any, name: str, state: dict[str, Any]) -> Any:
        nonlocal built
        built += 1
        return build(cls, name, state)

    # a Unit handed to a reader: by Table.unit, Table._live_of (a few at once) or the live
    # roster a conflict reads — the two read the live Unit in place, Table.unit on a miss
    def counted_read(self: Any, name: str) -> Any:
        nonlocal reads
        reads += not inside
        return read(self, name)

    def counted_some(self: Any, raw: Any, names: Any) -> Any:
        nonlocal reads, inside
        inside += 1
        try:
            out = some(self, raw, names)
        finally:
            inside -= 1
        reads += len(out)
        return out

    def counted_looked(self: Any, name: str) -> Any:
        nonlocal reads, inside
        inside += 1
        try:
            out = looked(self, name)
        finally:
            inside -= 1
        reads += 1
        return out

    monkeypatch.setattr(roster.Unit, "from_state", classmethod(counted_build))
    monkeypatch.setattr(engine.Table, "unit", counted_read)
    monkeypatch.setattr(engine.Table, "_live_of", counted_some)
    monkeypatch.setattr(engine.LiveRoster, "__getitem__", counted_looked)
    for i in range(12):
        sim.fight(start, goals, sim.run_seed(3, i), DEFAULTS)
    assert 0 < built < reads / 3, (built, reads)  # was every read before the live units


def test_a_rules_call_that_raises_leaves_no_half_changed_live_unit() -> None:
    """A refused Action changes no table; the live Units it may have touched are built
    again from the tables, so the next read sees the session as stored."""
    import random

    from d2d_cli.errors import D2DError
    from d2d_cli.rules.units.roster import Unit

    start, _ = _combat1()
    t = Table(start, random.Random(1))
    t.round_start()
    name = next(iter(t.units()))
    before = dict(t.units()[name])
    t.unit(name).move = 99  # as a rules function might, half-way, before refusing
    with pytest.raises(D2DError):
        t.act(name, "no-such-action")
    assert t.units()[name] == before
    assert t.unit(name) == Unit.from_state(name, before) and t.unit(name).move != 99
