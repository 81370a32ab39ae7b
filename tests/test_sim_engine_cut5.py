"""The engine's fifth cut (issue 40 item 1): the fight's plumbing without a Python call
where it reads what it already holds — the live Units handed out in place (the
Action's, the round's, the live roster a conflict reads), the session's unit tables
read without a method call, a hand's played card and a shared assessment found without
a generator, a round's Recover choices and an Action's record without a comprehension
where nothing is held — and a table written over keeping its predecessor's reading. Each
is checked here against what it stands for, written out plainly or worked out afresh."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.units.roster import Unit


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def _table() -> engine.Table:
    start, _ = _combat1()
    t = engine.Table(copy.deepcopy(start), random.Random(1), DEFAULTS)
    t.round_start()
    return t


@pytest.mark.parametrize("how", ["some", "roster", "live", "unit"])
def test_a_table_stored_from_outside_is_read_afresh_by_every_reader(how: str) -> None:
    """Every way the engine hands out a live Unit gives the one the session's table of
    that name holds now: a table stored by anything but the engine (a command run on the
    same session) is read afresh, never answered by the Unit kept for the table before
    (each reader checks the very table, not just that a Unit is kept for the name)."""
    t = _table()
    read = {"some": lambda n: t._some(n)[n], "roster": lambda n: t._roster()[n],
            "live": lambda n: t.live()[n], "unit": t.unit}[how]
    first = read("Archer")
    assert read("Archer") is first  # kept while the session holds that very table
    changed = {**t.data["units"]["Archer"], "body": "6x1", "conditions": {"stun": 1}}
    t.data["units"]["Archer"] = changed  # stored as a command stores it
    again = read("Archer")
    assert again is not first
    assert again == Unit.from_state("Archer", changed)  # the oracle: built from the table
    assert str(again.stats["body"]) == "6x1" and again.conditions == {"stun": 1}


def test_the_readers_hand_out_only_the_units_named_in_the_rosters_order() -> None:
    """``_some`` gives the named units the session holds (in the order named, a name
    given twice once, unknown names and None left out); ``_roster`` every unit in the
    session's order — each the Unit built from its table."""
    t = _table()
    raw = t.data["units"]
    got = t._some("Thief", None, "Nobody", "Archer", "Thief")
    assert list(got) == ["Thief", "Archer"]
    whole = t._roster()
    assert list(whole) == list(raw)
    for n, u in whole.items():
        assert u == Unit.from_state(n, raw[n])
        assert got.get(n, u) is u  # the same live Unit, not a second one
    assert t._some() == {}


def test_the_live_roster_reads_as_the_sessions_roster() -> None:
    """The live roster a conflict reads: the session's names, order and length; a name
    it does not hold raises KeyError, as a Mapping does."""
    t = _table()
    roster = t.live()
    raw = t.data["units"]
    assert list(roster) == list(raw) and len(roster) == len(raw)
    assert "Archer" in roster and "Nobody" not in roster
    with pytest.raises(KeyError):
        roster["Nobody"]
    for n in raw:
        assert roster[n] == Unit.from_state(n, raw[n])


def test_on_map_is_every_named_unit_placed_on_a_board() -> None:
    """A conflict is read off the map when the session has a board and every named unit
    stands on it; otherwise it is rolled ``--no-map`` (each case against the rule)."""
    t = _table()
    units = t.data["units"]
    names = [None, "Archer", "Thief", "Nobody"]
    for a in names:
        for b in names:
            want = bool(t.data.get("board")) and all(
                n is not None and n in units and bool(units[n].get("space")) for n in (a, b))
            assert t.on_map(a, b) is want, (a, b)
    assert t.on_map() is True  # no unit named: the board alone
    del units["Archer"]["space"]
    assert t.on_map("Archer") is False
    board = t.data.pop("board")
    assert t.on_map("Thief") is False and t.on_map() is False
    t.data["board"] = board


def test_the_conflicts_assessment_is_shared_only_while_every_table_is_the_same() -> None:
    """The Hits read the Conflict's assessment only while every unit table it was made on
    is still the session's, in order: one table stored anew, one unit more or fewer,
    and nothing is shared."""
    t = _table()
    raw = t.data["units"]
    marker = object()
    t._assessed = (marker, tuple(raw.values()))
    assert t._shared() is marker
    for change in ("store", "add", "drop"):
        t2 = _table()
        raw2 = t2.data["units"]
        t2._assessed = (marker, tuple(raw2.values()))
        if change == "store":
            raw2["Thief"] = dict(raw2["Thief"])  # equal, but another table
        elif change == "add":
            raw2["Extra"] = dict(raw2["Thief"])
        else:
            raw2.pop("Thief")
        assert t2._shared() is None, change
    t._assessed = None
    assert t._shared() is None


def test_a_settled_card_leaves_the_hand_with_every_card_of_its_face() -> None:
    """A card played leaves its Player's hand — every card of that face, the others kept
    in order — and goes to the discard pile (no benefit read: no Action spent); a card
    the hand does not hold leaves the very same list (nothing copied)."""
    from d2d_cli.rules.deck.cards import parse_card

    t = _table()
    player = t.players[str(engine.player_of(t.data["units"]["Archer"]))]
    for i in range(len(player.hand)):
        hand = [*player.hand]
        played = hand[i]
        player.hand = hand + [parse_card(played.code)]  # the same face twice
        discards = len(player.discard)
        sim._settle(t, "Archer", played.code, None, "a", False)  # type: ignore[arg-type]
        assert player.hand == [h for h in hand if h.face != played.face]  # the oracle
        if not played.is_wild:
            assert player.discard[discards:] == [parse_card(played.code)]
        player.hand = hand
    held = player.hand
    absent = next(c for c in player.deck if all(c.face != h.face for h in held))
    sim._settle(t, "Archer", absent.code, None, "a", False)  # type: ignore[arg-type]
    assert player.hand is held


def test_whole_fights_read_every_live_unit_as_its_table() -> None:
    """12 whole fights with every Unit handed out (in place or built) checked against one
    built afresh from the session's table of its name (Table.verify_live)."""
    start, goals = _combat1()
    engine.Table.verify_live = True
    try:
        for i in range(12):
            sim.fight(start, goals, sim.run_seed(5, i), DEFAULTS, log=i % 3 == 0)
    finally:
        engine.Table.verify_live = False


def test_recover_choices_are_the_minor_conditions_held_then_the_cooldown() -> None:
    """000 l.611 "Recover - Each Unit removes a Fatigue, Stun, Stress, or Slow" (or
    readies an Ability in Cooldown): the minor conditions held, in that order, then the
    Abilities in Cooldown; a Dead unit none (000 l.1172). Every mix of two minor
    conditions, Dead, another condition and a cooldown, against the rule written out."""
    import itertools

    from d2d_cli.rules.time import rounds

    minor = ("fatigue", "stun", "stress", "slow")
    for a, b, dead, other, cool in itertools.product(
            (None, *minor), (None, *minor), (0, 1), (0, 1), ([], ["Rage"], ["Rage", "Aim"])):
        cond = {k: 1 for k in (a, b) if k is not None}
        if dead:
            cond["dead"] = 1
        if other:
            cond["dying"] = 1
        extra: dict[str, Any] = {"cooldown": list(cool)} if cool or other else {}
        unit = Unit("U", {}, conditions=cond, extra=extra)
        want = [] if dead else [k for k in minor if k in cond] + list(cool)
        assert rounds.recover_choices(unit) == want, (cond, cool)


def test_this_rounds_record_reads_the_boosts_as_text() -> None:
    """``spent``: the round's record as stored, its boosts as text (none: an empty list,
    a list of its own); another round's record, or no round under way, counts for
    nothing."""
    from d2d_cli.rules.units import unit_state

    for boosts in ([], ["Push the Limit: Skill +1"], [3, "x"]):
        was = list(boosts)
        stored = {"round": 2, "actions": 1, "boosts": boosts, "count": 4}
        unit = Unit("U", {}, extra={"spent": stored})
        got = unit_state.spent(unit, 2, "started")
        assert (got.round, got.actions, got.count) == (2, 1, 4)
        assert got.boosts == [str(b) for b in was]
        got.boosts.append("more")
        assert stored["boosts"] == was  # the record's own list, never the stored one
    unit = Unit("U", {}, extra={"spent": {"round": 2, "actions": 1}})
    assert unit_state.spent(unit, 2, "started").boosts == []
    assert unit_state.spent(unit, 3, "started").actions == 0
    assert unit_state.spent(unit, 2, "ended").actions == 0


def test_a_table_written_over_keeps_its_predecessors_reading_only_when_unread() -> None:
    """A table the engine writes as its predecessor with the round's tokens or the
    Interact aimed at it put in keeps the predecessor's reading: in whole fights every
    carried reading equals the one worked out afresh from the new table, and the two
    tables are alike, key for key in order, in all but what no reading reads (the
    rule written out). A change of anything read (a round effect, a condition) carries
    nothing."""
    start, goals = _combat1()
    carried: list[tuple[dict[str, Any], dict[str, Any]]] = []
    carry = engine._carry

    def noted(was: dict[str, Any], new: dict[str, Any], changed: Any) -> None:
        carry(was, new, changed)
        got = engine._READ.get(id(new))
        if got is not None and got[0] is new and got[1] is not None:  # not a link
            carried.append((was, new))

    engine._READ.clear()
    engine._READINGS.forget()
    try:
        engine._carry = noted  # type: ignore[assignment]
        for i in range(8):
            sim.fight(start, goals, sim.run_seed(9, i), DEFAULTS)
            for was, new in carried:
                assert engine._READ[id(new)][1] == engine._READINGS(
                    engine._reading_key(new))  # the reading worked out afresh
                assert [(k, v) for k, v in new.items() if k not in engine._UNREAD] == [
                    (k, v) for k, v in was.items() if k not in engine._UNREAD]
            assert carried, i
            carried.clear()
    finally:
        engine._carry = carry  # type: ignore[assignment]
    archer = _combat1()[0]["units"]["Archer"]
    known = engine._reading(archer)
    for changed in ({"effects": {"push_the_limit": 1}}, {"conditions": {"stun": 1}},
                    {"move": 3, "skills": {"Ranged": 2}}):
        new = {**archer, **changed}
        engine._carry(archer, new, changed)
        assert engine._reading(new) != known, changed
    new = {**archer, "move": 3, "turn": 1, "action_cost": 2}
    engine._carry(archer, new, {"move": 3, "turn": 1, "action_cost": 2})
    assert engine._READ[id(new)][:2] == (new, known)


def test_a_live_units_reading_is_its_tables_and_follows_a_table_stored_anew() -> None:
    """The Assessor reads a live Unit's reading through the engine: the reading of the
    very table it stands for — worked out afresh (the oracle: the key numbered), for
    each table the session holds in turn; a Unit not the live one gets no reading."""
    t = _table()
    unit = t.unit("Archer")
    raw = t.data["units"]["Archer"]
    assert t._reading_of(unit) == engine._READINGS(engine._reading_key(raw))
    assert t._reading_of(unit) == t._reading_of(unit)
    t.data["units"]["Archer"] = {**raw, "conditions": {"fatigue": 1}}
    again = t.unit("Archer")
    assert again is not unit
    assert t._reading_of(again) == engine._READINGS(
        engine._reading_key(t.data["units"]["Archer"])) != t._reading_of(
        Unit.from_state("Archer", raw)) and t._reading_of(again) != engine._reading(raw)
    stray = Unit.from_state("Archer", raw)
    assert t._reading_of(stray) != t._reading_of(stray)  # a new object each time
