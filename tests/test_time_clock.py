"""The scene clock (000 "1. Setup > Clock Deck", "Prologue > Clock Events"; 001 p.18
"Scene: Events", p.40 "Round: End > Clock")."""

from __future__ import annotations

import pytest

from d2d_cli.errors import BadInput
from d2d_cli.rules.time import clock
from tests.helpers import session_bytes


def test_advance_lists_every_event_passed_in_clock_order(d2d):
    for at, text in [(9, "Dusk"), (3, "Dogs bark"), (6, "Guards change"), (12, "Dawn")]:
        d2d.json("clock", "event", "add", str(at), text)
    r = d2d.json("clock", "advance", "10")
    assert r["clock"] == 11
    assert [(e["at"], e["text"]) for e in r["events"]] == [
        (3, "Dogs bark"), (6, "Guards change"), (9, "Dusk")]
    # a revealed event is resolved once: back down past #9 and up again, only Dawn waits
    assert d2d.json("clock", "advance", "2", "--down")["events"] == []
    r = d2d.json("clock", "advance", "3")
    assert (r["clock"], [e["text"] for e in r["events"]]) == (12, ["Dawn"])


def test_tick_show_set_and_down(d2d):
    assert d2d.json("clock", "show") == {"clock": 1, "down": False, "timed": [],
                                         "random": [], "events": []}
    d2d.json("clock", "event", "add", "2", "Door creaks")
    d2d.json("clock", "event", "add", "2", "Wind rises")
    r = d2d.json("clock", "tick")
    assert (r["clock"], [e["text"] for e in r["events"]]) == (2, ["Door creaks", "Wind rises"])
    assert d2d.json("clock", "set", "10")["clock"] == 10
    d2d.json("clock", "event", "add", "8", "Countdown")
    r = d2d.json("clock", "advance", "2", "--down")
    assert (r["clock"], [e["at"] for e in r["events"]]) == (8, [8])
    assert d2d.json("clock", "tick", "--down")["clock"] == 7


def test_event_list_and_random_events(d2d):
    d2d.json("clock", "event", "add", "5", "Reinforcements")
    r = d2d.json("clock", "event", "random", "A patrol", "--chance", "2/8")
    assert (r["k"], r["n"], r["chance"]) == (1, 4, "1/4")  # 2/8 is read on a d4
    listed = d2d.json("clock", "event", "list")
    assert [e["text"] for e in listed["timed"]] == ["Reinforcements"]
    assert [(e["text"], e["chance"]) for e in listed["random"]] == [("A patrol", "1/4")]
    assert "random 1/4: A patrol" in d2d.ok("clock", "event", "list")


@pytest.mark.parametrize(("text", "want"), [
    ("1/4", (1, 4)), ("1 in 6", (1, 6)), ("25%", (1, 4)), ("3/8", (3, 8)), ("7/100", (7, 100)),
    ("2/2", (2, 2))])
def test_parse_chance(text, want):
    assert clock.parse_chance(text) == want


@pytest.mark.parametrize("text", ["0/4", "5/4", "1/1", "1/1001", "often", "-1/4"])
def test_parse_chance_rejects(text):
    with pytest.raises(BadInput):
        clock.parse_chance(text)


def test_bad_input_changes_nothing(d2d, data_dir):
    d2d.json("clock", "event", "add", "5", "x")
    before = session_bytes(data_dir)
    for args, needle in [
        (("clock", "advance", "-3"), "the number of ticks must be from 1 to 1000, not -3"),
        (("clock", "advance", "0"), "from 1 to 1000, not 0"),
        (("clock", "set", "5000"), "the clock must be from -1000 to 1000"),
        (("clock", "event", "add", "3", ""), "an event's text must be"),
        (("clock", "event", "random", "x", "--chance", "lots"), "not a chance: 'lots'"),
    ]:
        res = d2d(*args)
        assert res.exit_code == 2, (args, res.stdout)
        assert res.stderr.count("\n") == 1 and needle in res.stderr, res.stderr
    assert session_bytes(data_dir) == before


def test_human_views_exact(d2d):
    assert d2d.ok("clock", "show") == "Clock: 1 (ticks up)\n  no events\n"
    assert d2d.ok("clock", "event", "add", "2", "Dusk") == "Added timed event on clock #2: Dusk\n"
    assert d2d.ok("clock", "event", "random", "Rain", "--chance", "1/4") == \
        "Added random event chance 1/4: Rain\n"
    assert d2d.ok("clock", "event", "list") == (
        "Clock: 1 (ticks up)\n  #2: Dusk — waiting\n"
        "  random 1/4: Rain — checked each round end\n")
    assert d2d.ok("clock", "tick") == "Clock: 1 → 2\n  Clock #2: Dusk\n"
    assert d2d.ok("clock", "advance", "2") == "Clock: 2 → 4\n  no events reached\n"


def test_a_timed_event_brings_its_reserve_once(d2d):
    """000 l.565 "Another Goblin Skirmisher in place in the Clock Deck on Clock #5": the
    reserve arrives with the tick that reveals card 5 — by clock advance as by round end
    (one rule, rules.time.clock.move) — and only once."""
    d2d.json("scene", "load", "combat1")
    assert d2d.ok("clock", "advance", "4") == (
        "Clock: 1 → 5\n"
        "  Clock #5: Reinforcements: another Goblin Skirmisher arrives (the 5th Turn)\n"
        "  Goblin Skirmisher 2 arrives.\n")
    d2d.json("clock", "set", "4")
    assert d2d.json("clock", "tick")["arrived"] == []  # revealed once: done
    names = [u["name"] for u in d2d.json("status")["units"]]
    assert names.count("Goblin Skirmisher 2") == 1
