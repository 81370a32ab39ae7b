"""What sim's speed work remembers gives what a fresh reading gives, and a fight played
without a log builds no log line (issue 40 item 1: "nothing rendered that nobody reads";
the same rule functions, no result changed — tests/test_sim.py pins whole fights)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import policy, sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units import gear


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def fresh_weapons(extra: dict[str, Any], name: str) -> tuple[gear.Weapon, ...]:
    return tuple(gear.make_weapon(str(k), v, f"unit {name!r}: weapon {k!r}")
                 for k, v in extra["weapons"].items())


def test_weapons_are_remembered_by_what_the_table_says_not_by_the_table() -> None:
    extra = {"weapons": {"Bow": {"rating": "Body+2", "types": ["pierce"], "hands": 2,
                                 "attack": "ranged", "range": [10, 20]}}}
    first = gear.weapons_of(extra, "Archer")
    assert first == fresh_weapons(extra, "Archer")
    assert first[0].rating == "Body+2" and first[0].range == (10, 20)
    # the same table changed in place: the remembered Bow is not given back
    extra["weapons"]["Bow"]["rating"] = "Body+3"
    extra["weapons"]["Bow"]["range"] = [12, 24]
    again = gear.weapons_of(extra, "Archer")
    assert again == fresh_weapons(extra, "Archer")
    assert (again[0].rating, again[0].range) == ("Body+3", (12, 24))
    # a table refused is refused every time (a refusal is never remembered)
    extra["weapons"]["Bow"]["range"] = [24, 12]
    for _ in range(2):
        with pytest.raises(BadInput, match="short < long"):
            gear.weapons_of(extra, "Archer")


def test_the_weapon_choice_remembered_is_the_one_a_fresh_look_makes() -> None:
    """A Skirmisher with a Club and his Javelins (issue 36): at Range 4 only the Javelin
    reaches; beside the Archer the Club's greater Power is chosen; the Archer's armor
    changes the Hits it adds. Each answer, asked twice, is the one a fresh look gives."""
    data = combat1()
    me = data["units"]["Goblin Skirmisher"]
    me["weapons"] = {"Club": {"rating": "Body+3", "types": ["bash"], "attack": "melee"},
                     **me["weapons"]}

    def fresh() -> tuple[str | None, Any]:
        policy._WEAPON_CHOICE.clear()
        return policy.choose_weapon(data, "Goblin Skirmisher", "Archer")

    seen = []
    for change in (None, ("space", "E8"), ("armor", "5x1")):
        if change == ("space", "E8"):  # beside the Archer (E9): a new table, as stored
            data["units"]["Goblin Skirmisher"] = {**data["units"]["Goblin Skirmisher"],
                                                  "space": "E8"}
        elif change is not None:
            data["units"]["Archer"] = {**data["units"]["Archer"], "armor": "5x1"}
        got = policy.choose_weapon(data, "Goblin Skirmisher", "Archer")
        assert policy.choose_weapon(data, "Goblin Skirmisher", "Archer") == got == fresh()
        seen.append(got)
    assert seen[0][0] == "Javelin" and "reaches Range 4" in seen[0][1].why
    assert seen[1][0] == "Club"
    assert "armor 5x1" in seen[2][1].why and seen[2] != seen[1]


def test_a_fight_without_a_log_builds_no_log_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The line of each command is built only for ``--log``: a fight without one never
    assembles a line (before, every Action assembled its words and dropped them); with
    one, every command is written."""
    data = combat1()
    goals = g.parse(data["scene"]["goals"], data)
    logged = sim.fight(data, goals, sim.run_seed(5, 3), log=True)

    def refused(*_: Any, **__: Any) -> None:
        raise AssertionError("a log line was built with no log asked for")

    monkeypatch.setattr(Table, "_log", refused)
    quiet, table = sim.fight(data, goals, sim.run_seed(5, 3))
    assert table.lines is None
    assert quiet == logged[0] == sim.Outcome("Goblins", 3, ("Archer",))
    assert logged[1].lines is not None and len(logged[1].lines) == 67


def test_a_fight_without_a_log_writes_no_spending_and_ends_as_one_that_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``unit act``, ``unit move`` and ``unit respond`` write their result (a Spending)
    for a log only: a fight without one writes none — not even the one a Target's
    response carries — and leaves every table as the fight that writes them all (the
    tokens, the record of the round, the Space, the boosts are spent the same); the
    commands still get theirs."""
    from d2d_cli.rules.time import turns
    from d2d_cli.rules.units.roster import Unit

    data = combat1()
    goals = g.parse(data["scene"]["goals"], data)
    written: list[str] = []
    real = turns._spending

    def counted(unit: Any, *args: Any, **kwargs: Any) -> Any:
        written.append(unit.name)
        return real(unit, *args, **kwargs)

    monkeypatch.setattr(turns, "_spending", counted)
    seen = 0
    for i in range(6):
        seed = sim.run_seed(11, i)
        logged, full = sim.fight(data, goals, seed, log=True)
        assert written and full.done is not None
        spent = [d.result for d in full.done
                 if d.command.startswith(("unit act ", "unit move "))]
        assert spent and all(isinstance(r, turns.Spending) for r in spent)
        # a Target's Action (``unit respond``) carries its Spending in the log
        responded = [d.result for d in full.done if d.command.startswith("unit respond ")
                     and "--no-action" not in d.command]
        assert all(isinstance(r.spending, turns.Spending) for r in responded)
        seen += len(responded)
        assert len(written) > len(responded)
        written.clear()
        quiet, table = sim.fight(data, goals, seed)
        assert written == []
        assert quiet == logged and table.data == full.data
    assert seen  # the fights made a Target respond with its Action
    units = {"A": Unit("A", {}, move=4, action_cost=2, turn=2)}
    got = turns.act(units, 1, "started", "A", "interact")
    assert isinstance(got, turns.Spending) and got.move == 2 and got.actions_left == 1


def test_a_unit_stored_back_gives_the_table_a_fresh_conversion_gives() -> None:
    """A Unit is stored with each stat's text remembered by the very Stat, and a unit
    without skills or conditions builds none: the tables read back are what a fresh
    ``str(stat)`` writes, for every stat of every size (the memo's bound included)."""
    from d2d_cli.rules.scale.stats import Stat
    from d2d_cli.rules.units import roster

    raw = {"kind": "unit", "body": "8x1", "mind": "1x2", "will": "2x-3", "speed": "5x0",
           "skills": {}, "conditions": {"stun": 0}, "space": "E9"}
    u = roster.Unit.from_state("Archer", raw)
    assert u.skills == {} and u.conditions == {}
    assert u.to_state() == {"kind": "unit", "body": "8x1", "mind": "10x1", "will": "2x-3",
                            "speed": "5x0", "skills": {}, "conditions": {}, "space": "E9"}
    stats = [Stat(level, scale, partial) for level in range(2, 11)
             for scale in range(-3, 600) for partial in (None, level + 0.5)]
    assert len(stats) > 2 * 4096  # past the memo's bound: it is emptied and refilled
    for stat in stats + stats[:100]:
        assert roster._text(stat) == str(stat) == f"{stat.level}x{stat.scale}"
    # a skill or condition given as text is read as a number, as before
    v = roster.Unit.from_state("Thief", {"body": "8x1", "skills": {"Stealth": "1"},
                                         "conditions": {"stun": "2"}})
    assert v.skills == {"Stealth": 1} and v.conditions == {"stun": 2}


def test_a_units_stats_written_again_when_its_stats_table_changes_in_place() -> None:
    """The stats' texts a store writes are remembered for the very stats table a Unit
    keeps from store to store; a stat replaced, added or taken out in that same table,
    or another table of the same Stats under other names, is written afresh — in the
    order body, mind, will, speed, whatever the table's own."""
    from d2d_cli.rules.scale.stats import parse_stat
    from d2d_cli.rules.units import roster

    u = roster.Unit.from_state("Archer", {"body": "8x1", "mind": "5x1", "speed": "5x0"})
    first = u.to_state()
    assert list(first)[:4] == ["kind", "body", "mind", "speed"]
    assert u.to_state() == first  # remembered: the same
    u.stats["body"] = parse_stat("3x1")  # in place: the same table, another Stat
    assert u.to_state()["body"] == "3x1"
    u.stats["will"] = parse_stat("2x1")  # a name more
    assert list(u.to_state())[:5] == ["kind", "body", "mind", "will", "speed"]
    del u.stats["mind"]
    assert "mind" not in u.to_state()
    # the same Stats under other names: not the texts of the first
    v = roster.Unit("Thief", {"will": u.stats["body"], "body": u.stats["will"]})
    assert v.to_state()["body"] == "2x1" and v.to_state()["will"] == "3x1"
    assert list(v.to_state())[1:3] == ["body", "will"]


def test_a_fighters_key_is_one_number_per_reading_never_reused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy remembers Levels and weapon choices by a unit's reading as a number:
    two tables that read alike share it, one that reads otherwise (a condition, a stat)
    gets another, and after the numbers' table is emptied a reading gets a fresh number,
    never one already given to another reading (so nothing remembered is mistaken)."""
    start = combat1()
    archer = start["units"]["Archer"]
    same = copy.deepcopy(archer)
    same["move"] = 3  # a round token: not read by a situation
    hurt = {**copy.deepcopy(archer), "conditions": {"stun": 1}}
    weaker = {**copy.deepcopy(archer), "body": "6x1"}
    k = policy._fighter_key(archer)
    assert isinstance(k, int)
    assert policy._fighter_key(same) == k
    others = {policy._fighter_key(hurt), policy._fighter_key(weaker)}
    assert k not in others and len(others) == 2
    given = {k, *others}
    policy._NUMBERS.forget()  # as when the bound empties it
    again = policy._fighter_key(copy.deepcopy(hurt))  # a new table: not remembered
    assert again not in given
    # the Levels remembered by the number are the ones a fresh look gives
    data = {"units": {"Archer": archer, "Scout": start["units"]["Goblin Scout"]}}
    first = policy._levels(data, "Archer", "Scout", None)
    monkeypatch.setattr(policy, "_LEVELS", {})
    assert policy._levels(data, "Archer", "Scout", None) == first


def test_a_damage_decks_cards_remembered_are_a_fresh_list_each_time() -> None:
    """Every Crit counts its Damage Deck's cards (and a new pile shuffles them): the
    cards remembered by deck and chart are what the damage table and the chart say, in
    order, and each caller gets its own list (a shuffle leaves the next one whole)."""
    from d2d_cli.rules.combat import crits

    for kind in ("person", "vehicle"):
        ch = crits.chart(kind)
        for deck in crits.damage_table()["decks"]:
            types = crits.damage_table()["decks"][deck]["types"]
            fresh = [f"{t}@{key}" for t in types for key, _, n in ch.locations
                     for _ in range(n)]
            got = crits.deck_cards(deck, ch)
            assert got == fresh and len(got) == sum(n for *_, n in ch.locations) * len(types)
            got.reverse()
            got.pop()
            assert crits.deck_cards(deck, ch) == fresh


def test_a_crit_keeps_the_generators_state_only_when_luck_may_be_played() -> None:
    """Wild Luck and Luck (000 l.526, l.533) are a Player's: a Crit on a Non-Player
    copies no generator state for a second look, nor one on a Player's unit when
    neither its Player's hand nor an adjacent Ally's holds a Wild and none of them has a
    Character Point (the policy plays nothing whatever the Crit); with a Wild in hand it
    does, and the second look still gives the Crit the first one would
    (tests/test_sim_luck.py plays whole fights)."""
    import random

    from d2d_cli.rules.assistant.engine import player_of
    from d2d_cli.rules.deck.cards import full_deck

    data = combat1()
    calls: list[int] = []

    class Counting(random.Random):
        def getstate(self) -> Any:
            calls.append(1)
            return super().getstate()

    t = Table(copy.deepcopy(data), Counting(7))
    assert t.players  # Combat #1's Players hold hands
    t.crit("Archer", "Goblin Scout", 3)
    assert calls == []  # a Non-Player's Crit: nothing kept
    assert not any(int(u.get("cp", 0) or 0) for u in t.units().values())
    hand = t.players[str(player_of(t.units()["Archer"]))].hand
    hand[:] = [c for c in hand if not c.is_wild]
    t.crit("Goblin Scout", "Archer", 1)
    assert calls == []  # a Player's unit, but no Wild and no Character Point to play
    hand.append(full_deck()[-1])  # the red Wild
    t.crit("Goblin Scout", "Archer", 1)
    assert calls == [1]
