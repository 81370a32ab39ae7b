"""The exchange's fourth cut (issue 40 item 1): what a fight's Conflicts and Hits find
once instead of at every roll gives what the full path gives. Each test fails on a wrong
reuse — a Damage Deck read back from what a Crit stored after its piles changed — or on
a short cut that disagrees with the rule read afresh; tests/test_sim.py pins whole
fights byte for byte."""

from __future__ import annotations

import random
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.combat import crits, situation
from d2d_cli.rules.combat.damage import Gear
from d2d_cli.rules.core.options import DEFAULTS


def _fights() -> tuple[dict[str, Any], dict[str, Any]]:
    _, start, _ = op._start("combat1", {})
    return start, g.parse(start.get("scene", {}).get("goals") or {}, start)


# --------------------------------------------------------------------------- the Crit


def _deck_written_out(deck: str, chart: crits.Chart) -> list[str]:
    """A Damage Deck's cards from the damage table and the chart, as 001 l.892 deals
    them: each damage type of the deck × each location × its cards."""
    types = tables.load("damage")["decks"][deck]["types"]
    return [f"{t}@{key}" for t in types for key, _, n in chart.locations for _ in range(n)]


def test_what_a_crit_reads_off_its_preparation_is_the_rule_read_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Crit of whole fights reads its deck's cards, the chart's location names, the
    Hits its Power adds against no armour and the Power's text off its preparation
    (found ready by the fight's Assessor); each equals the rule written out afresh —
    the deck dealt from the damage table, the names from the chart's rows, "no armor is
    an Armor Rating of 0" (001 l.926-936: +1 for a Level over 0, + the Scale), the
    Power as LEVELxSCALE — and the fights end as they do unchecked."""
    start, goals = _fights()
    plain = sim.play_runs(start, goals, 5, range(30), DEFAULTS, "best")
    engine._ASSESSED.clear()
    real = situation.Assessor.remember
    seen: list[int] = []

    def checked(self: Any, a: Any, b: Any, rest: tuple[Any, ...], fld: Any, opts: Any,
                compute: Any, *args: Any) -> Any:
        got = real(self, a, b, rest, fld, opts, compute, *args)
        if rest[0] == "crit":
            seen.append(1)
            assert got.cards == _deck_written_out(got.deck, got.chart)
            assert dict(got.names) == {k: n for k, n, _ in got.chart.locations}
            power = got.power
            assert got.unarmored == (1 if power.level > 0 else 0) + power.scale
            assert got.power_text == f"{power.level}x{power.scale}"
        return got

    monkeypatch.setattr(situation.Assessor, "remember", checked)
    assert sim.play_runs(start, goals, 5, range(30), DEFAULTS, "best") == plain
    assert len(seen) > 60  # every Crit of 30 fights (~6 a fight)
    assert Gear() == crits._NO_GEAR  # compared with at every Crit, never changed


def test_a_crit_on_a_vehicle_reads_the_vehicle_charts_deck_and_names() -> None:
    """A preparation is the Crit's own: a Crit against a vehicle (``--vehicle``) reads
    the vehicle chart's cards and names, never a person's kept from another Crit."""
    units: dict[str, Any] = {}
    person = crits._prepare(crits.CritAsk(weapon="6x1", hits=2), units, DEFAULTS, None)
    vehicle = crits._prepare(crits.CritAsk(weapon="6x1", hits=2, vehicle=True), units,
                             DEFAULTS, None)
    assert person.chart.kind == "person" and vehicle.chart.kind == "vehicle"
    for prep in (person, vehicle):
        assert prep.cards == _deck_written_out(prep.deck, prep.chart)
        assert dict(prep.names) == {k: n for k, n, _ in prep.chart.locations}
    assert person.names != vehicle.names


def test_a_damage_deck_a_crit_stored_is_read_back_as_stored_and_a_changed_one_as_it_is(
) -> None:
    """The table a Crit stored is read back from what it stored while its piles still
    equal it: the same cards in the same order, each a plain text. Piles changed in
    place — two cards swapped (still exactly the deck's cards), the discard pile moved
    to the draw pile, a card turned into an equal text of another type — are read as
    they now are, as a table no Crit stored is."""
    ch = crits.chart("person")
    cards = crits.deck_cards("wound", ch)
    rng = random.Random(11)
    data: dict[str, Any] = {}
    for _ in range(5):
        source = crits._source(None, data, ch, "wound", lambda: rng, cards)
        source.draw()
        changes: dict[str, Any] = {}
        source.close(changes)
        data = {**data, **changes}
    stored = data["damage"]["person"]["wound"]
    as_stored = (list(stored["draw"]), list(stored["discard"]))
    pile, rebuilt = crits.DamageDeck.from_state(stored, cards, rng)
    assert not rebuilt and (pile.draw, pile.discard) == as_stored
    assert pile.draw is not stored["draw"] and pile.discard is not stored["discard"]
    assert all(type(c) is str for c in pile.draw + pile.discard)

    class Text(str):  # a text of another type (a TOML reader's string), equal to the card
        pass

    def swap(s: dict[str, Any]) -> None:
        s["draw"][0], s["draw"][1] = s["draw"][1], s["draw"][0]

    def move(s: dict[str, Any]) -> None:
        s["draw"].extend(s["discard"])
        s["discard"].clear()

    def retype(s: dict[str, Any]) -> None:
        s["draw"][0] = Text(s["draw"][0])

    for change in (swap, move, retype):
        table = {"draw": list(as_stored[0]), "discard": list(as_stored[1])}
        crits._kept_whole(table, cards)  # as a Crit stores it
        change(table)  # then changed in place
        pile, rebuilt = crits.DamageDeck.from_state(table, cards, rng)
        assert not rebuilt  # still exactly the deck's cards
        assert (pile.draw, pile.discard) == (table["draw"], table["discard"])
        assert all(type(c) is str for c in pile.draw + pile.discard)
