"""What the policy's and the rules' speed work remembers gives what a fresh reading
gives (issue 40 item 1: the same rule functions, cheaper; tests/test_sim.py pins whole
fights byte for byte)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.rules.assistant import policy
from d2d_cli.rules.board import derive, placement
from d2d_cli.rules.combat import crits, remembered
from d2d_cli.rules.combat.situation import Terms, Who, assess
from d2d_cli.rules.deck.cards import Card, all_outcomes, full_deck, parse_card
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units.roster import Unit


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def fresh_levels(data: dict[str, Any], a: str, b: str) -> tuple[int, int]:
    units = data["units"]
    sit = assess(Who(Unit.from_state(a, units[a]), None),
                 Who(Unit.from_state(b, units[b]), None, "--level-b"), Terms(),
                 skill=policy.skill_for(units[a]))
    return sit.a.level, sit.b.level


@pytest.mark.parametrize("key,values", [
    ("space", ["A1", "K9", "E5"]), ("facing", ["N", "SW", "E"]),
    ("interacted", [{"round": 1, "by": "Archer", "interrupt": False},
                    {"round": 2, "by": "Thief", "interrupt": True, "action": True}]),
])
def test_where_a_unit_stands_and_who_interacted_are_not_in_its_fighters_key(
        key: str, values: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The Levels (and weapon choice) a situation off the map gives do not depend on
    where a unit stands or on the Interact aimed at it this round: units alike but in
    those share one key — and the Levels remembered by it are the ones a fresh look
    gives for each of them."""
    start = combat1()
    keys = set()
    for v in values:
        data = copy.deepcopy(start)
        for name in ("Archer", "Goblin Skirmisher"):
            data["units"][name][key] = v
        keys.add(policy._fighter_key(data["units"]["Archer"]))
        monkeypatch.setattr(policy, "_LEVELS", {})
        assert policy._levels(data, "Archer", "Goblin Skirmisher", None) == \
            fresh_levels(data, "Archer", "Goblin Skirmisher")
        got = policy.choose_weapon(data, "Archer", "Goblin Skirmisher")
        monkeypatch.setattr(policy, "_WEAPON_CHOICE", {})
        assert policy.choose_weapon(data, "Archer", "Goblin Skirmisher") == got
    assert len(keys) == 1
    # what a situation does read still tells units apart
    hurt = copy.deepcopy(start["units"]["Archer"])
    hurt["conditions"] = {"stun": 1}
    assert policy._fighter_key(hurt) not in keys


def test_every_cards_code_and_turned_face_are_its_own() -> None:
    """A card's notation and its faces Upper and Lower, remembered for the 108
    outcomes, are those of the card itself: the code reads back as the card, turning
    keeps rank, suit and color."""
    assert len(all_outcomes()) == 108
    codes = set()
    for card in all_outcomes():
        assert parse_card(card.code) == card
        codes.add(card.code)
        for up in (True, False):
            turned = card.flipped(up)
            assert turned == Card(card.rank, card.suit, up, card.wild_color)
            assert turned.upper is up and turned.code[:-1] == card.code[:-1]
            assert turned.code[-1] == ("^" if up else "v")
    assert len(codes) == 108
    assert [c.number for c in full_deck()] == [*range(1, 14)] * 4 + [None, None]
    assert Card("W", None, False, "red").code == "RWv"
    assert Card("W", None, True, None).code == "BW^"  # a Wild of no color reads black


def test_the_default_chart_and_types_remembered_are_fresh_to_the_caller() -> None:
    """The default location chart is d2d's table as read; a damage-type text gives a new
    list each time (a caller that changes it changes nothing remembered); a refused text
    is refused every time."""
    for kind in ("person", "vehicle"):
        ch = crits.chart(kind)
        assert ch is crits.chart(kind, {})
        rows = crits.default_charts()[kind]["locations"]
        assert [k for k, _, _ in ch.locations] == [crits._key(str(r["key"])) for r in rows]
    deck, wanted = crits.parse_types("slash, pierce slash")
    assert (deck, wanted) == ("wound", ["slash", "pierce"])
    wanted.append("bash")
    assert crits.parse_types("slash, pierce slash") == ("wound", ["slash", "pierce"])
    for _ in range(2):
        with pytest.raises(Exception, match="unknown damage type"):
            crits.parse_types("slash, fire-breath")


def test_the_skill_by_reach_reads_the_units_skills_as_they_are_now() -> None:
    """The Skirmisher's Ranged 1 at Range 3, not its Close Combat 1 (001 l.685–695);
    remembered by the skills themselves: the same unit given other skills answers
    anew."""
    unit = Unit.from_state("Goblin Skirmisher",
                           combat1()["units"]["Goblin Skirmisher"])
    assert remembered._reach_skill(unit, 3) == "Ranged"
    assert remembered._reach_skill(unit, 1) is None  # its best Combat skill reaches
    unit.skills = {"Close Combat": 1}
    assert remembered._reach_skill(unit, 3) is None
    unit.skills = {"Close Combat": 2, "Ranged": 1}
    assert remembered._reach_skill(unit, 3) == "Ranged"


def test_a_field_is_the_same_for_the_same_places_and_new_after_a_move() -> None:
    """The Field of a map is looked up by its Board and what the units' tables hold of
    their Placements: read twice, the same Field; a unit moved, another; the same
    places in new tables with no Placement remembered, the same Field again, whose
    geometry is a fresh Field's."""
    data = combat1()
    # none remembered before: a Field a test before made of these very places would be
    # found first, the oldest kept, and dropped (FIELDS_KEPT) as this test makes another
    derive._FIELDS.clear()
    f = derive.field(data)
    assert f is not None and derive.field(data) is f
    moved = copy.deepcopy(data)
    moved["units"]["Archer"]["space"] = "C6"
    g = derive.field(moved)
    assert g is not None and g is not f and g.places["Archer"].space != \
        f.places["Archer"].space
    units = {n: Unit.from_state(n, u) for n, u in data["units"].items()}
    before = f.derive(units["Archer"], units["Goblin Scout"])
    placement._placement.cache_clear()
    assert derive.field(copy.deepcopy(data)) is f
    fresh = derive.Field(f.board, placement.placements_of(data["units"]), f.cover_reading)
    assert fresh.places == f.places
    assert fresh.derive(units["Archer"], units["Goblin Scout"]) == before


def test_a_cards_hash_and_equality_are_the_records_own() -> None:
    """A record's one-call hash and equality (``record._eq_hash_of``, what a Card uses)
    give exactly what the generic ones give (the same hash, so sets and memos of cards
    behave as before)."""
    from d2d_cli.rules.core.record import _eq, _hash

    outcomes = all_outcomes()
    for c in outcomes:
        assert hash(c) == _hash(c)
        assert hash(parse_card(c.code)) == hash(c)
        for d in outcomes:
            assert (c == d) is _eq(c, d) is (c.code == d.code)
        assert c != c.code and c.__eq__(None) is NotImplemented  # not a Card: never equal
