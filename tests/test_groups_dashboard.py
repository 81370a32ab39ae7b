"""Groups from Targets (issue 12 item 5, 001 l.475–483) and the dashboard of ``status``
(item 9): round, clock, tasks, weather and what each unit has left."""

from __future__ import annotations

from d2d_cli.rules import groups
from tests.helpers import Runner, check_quotes
from tests.test_round_tokens import add


def test_the_module_quotes_the_text() -> None:
    assert check_quotes(groups.__doc__ or "") >= 3


def names(r: dict) -> list[list[str]]:
    return [[m["name"] for m in g["units"]] for g in r["groups"]]


def test_combat1_groups(d2d: Runner) -> None:
    """000 l.573–576 "Both Goblins Target the Archer … The Archer Targets the Scout and
    the Thief doesn't Target. Grouping - Group1 - The Archer and Goblins are in a Group -
    Group2 - The Thief is alone in another Group"."""
    d2d.ok("scene", "load", "combat1")
    d2d.ok("unit", "target", "Goblin Scout", "Archer")
    d2d.ok("unit", "target", "Goblin Skirmisher", "Archer")
    d2d.ok("unit", "target", "Archer", "Goblin Scout")
    r = d2d.json("round", "groups")
    assert (r["round"], r["phase"], r["countdown"]) == (0, "none", 10)
    assert [sorted(g) for g in names(r)] == [
        ["Archer", "Goblin Scout", "Goblin Skirmisher"], ["Thief"]]
    assert r["groups"][0]["units"][0]["target"] in ("Goblin Scout", "Archer")


def test_groups_chain_and_a_unit_alone(d2d: Runner) -> None:
    # 001 l.477 "Unit and its Target are in the same Group": A→B and C→B join A and C;
    # D targets nobody and nobody targets D; E→F.
    for n in "ABCDEF":
        add(d2d, n, "5x0" if n in "CE" else "4x0")
    for a, b in (("A", "B"), ("C", "B"), ("E", "F")):
        d2d.ok("unit", "target", a, b)
    d2d.ok("round", "start")
    d2d.ok("unit", "move", "A", "2")
    r = d2d.json("round", "groups")
    # Most Move first (000 l.125 "The Unit(s) with the most Move must move"): C 5,
    # B 4, A 2.
    assert names(r) == [["C", "B", "A"], ["D"], ["E", "F"]]
    assert r["groups"][0]["units"] == [{"name": "C", "target": "B", "move": 5},
                                       {"name": "B", "target": None, "move": 4},
                                       {"name": "A", "target": "B", "move": 2}]
    assert d2d.ok("round", "groups") == (
        "Round 1 — Groups by Target (001 l.475); each counts down from 10, most Move first:\n"
        "  1. C → B (Move 5), B (Move 4), A → B (Move 2)\n"
        "  2. D (Move 4)\n"
        "  3. E → F (Move 5), F (Move 4)\n")


def test_no_units_no_groups(d2d: Runner) -> None:
    assert d2d.json("round", "groups")["groups"] == []
