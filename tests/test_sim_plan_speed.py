"""The policy's plan made cheaper gives what a fresh reading gives, at every plan of
whole fights (issue 40 item 1: the same rule functions, no decision changed —
tests/test_sim.py and tests/golden/ pin whole fights byte for byte)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import movement, policy
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import parse_card
from tests.test_sim_turn_speed import FIGHTS, checking, combat1, play


def commands_written_out(way: movement.Movement) -> list[tuple[str, ...]]:
    """The ``unit move`` arguments a Narrator would type for the Movement, worked out
    here another way (``itertools.groupby``, not the Movement's own loop): each run of
    one step as KIND [SIDE] [COUNT above 1], then the Turn."""
    out = [(kind.replace("_", "-"), *([side] if side else []), *([str(n)] if n > 1 else []))
           for (kind, side), n in ((step, len(list(run)))
                                  for step, run in itertools.groupby(way.steps))]
    return out + ([("turn", way.facing)] if way.facing is not None else [])


def test_a_plans_moves_are_its_movements_steps_written_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Movement keeps its ``unit move`` arguments once written (the planners give the
    same Movement at many plans): at every plan of whole fights that moves, the Plan's
    moves are the Movement's steps written out afresh, and ``commands`` still gives each
    caller a list of its own."""
    start, goals = combat1()

    def checked(asked: Any, *args: Any) -> Any:
        way = asked(*args)
        if way is not None:
            fresh = commands_written_out(way)
            assert way.moves == tuple(fresh)
            mine = way.commands()
            assert mine == fresh
            mine.append(("turn", "N"))  # a caller's list changed: the next is untouched
            assert way.commands() == fresh
        return way

    def checked_plan(asked: Any, data: Any, name: str, *args: Any) -> Any:
        got = asked(data, name, *args)
        if got.action in ("attack", "move"):
            cap = policy.walk_cap(data["units"][name])
            way = policy._way_to(data, name, got.target, cap)
            assert got.moves == (() if way is None else tuple(commands_written_out(way)))
        return got

    ways = checking(monkeypatch, movement, "approach", checked)
    plans = checking(monkeypatch, policy, "_plan", checked_plan)
    play(start, goals, 11)
    assert sum(1 for w in ways if w is not None and w.steps) > FIGHTS
    assert sum(1 for p in plans if p.moves) > FIGHTS


def test_two_movements_alike_but_for_their_steps_write_their_own_moves() -> None:
    """What a Movement keeps is its own: two alike in all but a step (or the Turn) never
    share their moves, whichever was read first."""
    a = movement.Movement((("forward", None), ("forward", None)), None, "C5", 2, 0, True,
                          "")
    b = movement.Movement((("forward", None), ("drift", "left")), None, "C5", 2, 0, True,
                          "")
    c = movement.Movement((("forward", None), ("forward", None)), "NE", "C5", 2, 1, True,
                          "")
    assert a.moves == (("forward", "2"),)
    assert b.moves == (("forward",), ("drift", "left"))
    assert c.moves == (("forward", "2"), ("turn", "NE"))
    assert a == movement.Movement(a.steps, None, "C5", 2, 0, True, "")  # fields only


def test_the_card_played_is_the_best_at_the_chosen_targets_own_levels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The target choice asks the best card once for each pair of Levels among its
    candidates: at every plan of whole fights with the Players' hands, the card and
    chance given are those ``best_card`` gives at the chosen Rival's own Levels, asked
    afresh (Rivals at other Levels than the first candidate's: the test below)."""
    start, goals = combat1()

    def checked(asked: Any, data: Any, name: str, rivals: list[str], named: Any,
                held: Any, opts: Any, hand: Any, explain: bool = True) -> Any:
        got = asked(data, name, rivals, named, held, opts, hand, explain)
        target, approach, chance, _ = got
        if hand:
            mine = policy._levels(data, name, target, opts)
            assert (approach, chance) == policy.best_card(list(hand), mine, opts,
                                                          attacking=True)
        else:
            assert approach == "fate"
        return got

    looks = checking(monkeypatch, policy, "_target", checked)
    play(start, goals, 12)
    assert len(looks) > 5 * FIGHTS and any(c != "fate" for _, c, _, _ in looks)


def test_rivals_at_other_levels_each_get_the_card_for_their_own() -> None:
    """Two Rivals at different Levels: the one chosen is played against with the card
    best at its own Levels, not the first candidate's."""
    data, _ = combat1()
    scout = data["units"]["Goblin Scout"]
    data["units"]["Goblin Scout"] = {**scout, "skills": {"Close Combat": 4}}
    hand = [parse_card(c) for c in ("2H^", "8Dv", "10C^")]
    rivals = ["Goblin Scout", *(n for n, u in data["units"].items()
                                if u.get("faction") == "Goblins" and n != "Goblin Scout")]
    levels = {n: policy._levels(data, "Archer", n, DEFAULTS) for n in rivals}
    target, approach, chance, _ = policy._target(data, "Archer", rivals, frozenset(),
                                                 set(), DEFAULTS, hand, explain=False)
    assert target != "Goblin Scout" and levels[target] != levels["Goblin Scout"]
    assert (approach, chance) == policy.best_card(hand, levels[target], DEFAULTS,
                                                  attacking=True)
    assert (approach, chance) != policy.best_card(hand, levels["Goblin Scout"], DEFAULTS,
                                                  attacking=True)


def holds_as_written_before(c: Any, faction: str, data: Any) -> bool:
    """goals.holds's unit conditions as they read before the plain loops: ``all`` over
    a generator."""
    units = data.get("units", {})
    if c.kind == "rivals_down":
        return all(g.is_down(u) for u in units.values() if u.get("faction") != faction)
    if c.kind == "down":
        return all(n in units and g.is_down(units[n]) for n in c.names)
    assert c.kind == "off_map"
    return all(n in units and bool(units[n].get("off_map")) for n in c.names)


def test_a_units_condition_holds_as_the_generators_said_for_every_roster() -> None:
    """Every roster of up to three units of two factions, each standing, Dying or Dead,
    on or off the map (enumerated, 6,175 rosters), and every condition on them — rivals
    down for each faction, down and off map for every list of up to two names, a name
    not on the roster among them: the plain loops say what ``all`` over the generators
    said."""
    import itertools

    states = [(faction, cond, off) for faction in ("F", "G")
              for cond in ({}, {"dying": True}, {"dead": 1})
              for off in (None, True, False)]
    names = ["A", "B", "C"]
    conds = [g.Condition("rivals_down")]
    for k in (1, 2):
        for picked in itertools.permutations([*names, "Nobody"], k):
            conds += [g.Condition("down", picked), g.Condition("off_map", picked)]
    rosters = 0
    for size in range(4):
        for chosen in itertools.product(states, repeat=size):
            units = {}
            for n, (faction, cond, off) in zip(names, chosen, strict=False):
                units[n] = {"faction": faction, "conditions": cond,
                            **({} if off is None else {"off_map": off})}
            data = {"units": units}
            rosters += 1
            for c in conds:
                for faction in ("F", "G"):
                    assert g.holds(c, faction, data) is holds_as_written_before(
                        c, faction, data), (c, faction, units)
    assert rosters == 1 + 18 + 18 ** 2 + 18 ** 3


def getting_away_as_written_before(name: str, data: Any, goal: Any) -> str | None:
    """``policy._getting_away`` as the nested ``any``/``all`` wrote it: every alternative
    of the goal in order, the first that wants the unit off the map with the rest of it
    holding (the oracle of the plain loops, here and in test_sim_policy_cut13)."""
    if goal is None or name not in {n for alt in goal.any for c in alt
                                    if c.kind == "off_map" for n in c.names}:
        return None
    for alt in goal.any:
        if not any(c.kind == "off_map" and name in c.names for c in alt):
            continue
        if all(g.holds(c, goal.faction, data) for c in alt if c.kind != "off_map"):
            if policy.binding(name, data["units"][name], data.get("tasks", {})) is not None:
                return None
            return ", ".join(c.text for c in alt)
    return None


def test_a_unit_getting_away_is_the_generators_answer_at_every_plan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a goal's alternative wants the unit off the map with the rest of it
    holding, read with plain loops: at every plan of whole fights the answer the nested
    ``any``/``all`` gave — and the Thief and the Archer really get away in some."""
    start, goals = combat1()

    def checked(asked: Any, name: str, data: Any, goal: Any) -> Any:
        got = asked(name, data, goal)
        assert got == getting_away_as_written_before(name, data, goal)
        return got

    looks = checking(monkeypatch, policy, "_getting_away", checked)
    play(start, goals, 14)
    assert len(looks) > 5 * FIGHTS and any(w is not None for w in looks)
