"""The engine's twelfth cut (issue 40 item 1): a round's end without a report (a simulated
fight) writes none of the upkeep's step records, and the clock's reads and writes build
no comprehension's or generator's frame. What the round's end changes must not: checked
here against the same round's end with its report, on copies of every round end of whole
fights and of states planted with each upkeep step's work (Minor conditions to recover,
Abilities in Cooldown, conditions with an event, Random and Timed Events)."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck import fate
from d2d_cli.rules.time import clock as clocks
from d2d_cli.rules.time import rounds, tasks
from d2d_cli.rules.units import effects

_END = rounds.end  # the rule itself (the first test watches the module's name)


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def _state(args: tuple[Any, ...]) -> Any:
    """What a round's end changes, as plain values: the round, every unit, the tasks,
    the clock, the cards revealed and whether the deck was reshuffled."""
    rnd, roster, tasks, clock, reveal = args[:5]
    return (rnd.to_state(), {n: u.to_state() for n, u in roster.items()},
            {n: t.to_state() for n, t in tasks.items()}, clock.to_state(),
            [c.code for c in reveal.used], reveal.reshuffled, list(roster))


def _both_ways(args: tuple[Any, ...], kw: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The round's end with and without its report, each on its own copy of the same
    arguments (the same deck and generator state): the two states after, and the
    report."""
    blob = pickle.dumps((args, kw), -1)  # copies (the deck too deep for ``deepcopy``)
    said, quiet = pickle.loads(blob), pickle.loads(blob)
    said[1]["report"], quiet[1]["report"] = True, False
    out = _END(*said[0], **said[1])
    assert _END(*quiet[0], **quiet[1]) is None
    return _state(said[0]), _state(quiet[0]), out


def test_every_round_end_of_whole_fights_changes_the_same_without_its_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round's end of whole fights (both ``--pc``), played again on copies with
    and without its report: the same round, units, tasks, clock and cards revealed — and
    the fights end as they do unwatched."""
    start, goals = _combat1()
    plain = {pc: sim.play_runs(start, goals, 9, range(12), DEFAULTS, pc)
             for pc in ("best", "fate")}
    seen: list[int] = []

    def watched(*args: Any, **kw: Any) -> Any:
        said, quiet, _ = _both_ways(args, kw)
        assert quiet == said
        seen.append(1)
        return _END(*args, **kw)

    monkeypatch.setattr(rounds, "end", watched)
    for pc in ("best", "fate"):
        assert sim.play_runs(start, goals, 9, range(12), DEFAULTS, pc) == plain[pc]
    assert len(seen) > 30


def _planted_end(seed: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A round of Combat #1 under way, its units holding what each upkeep step works on:
    Minor conditions (two, so a choice is listed), an Ability in Cooldown, Bleeding and
    Poisoned (an event each), effects kept "this Round"; the clock a Random Event that
    repeats and one that does not, and the Timed Event of the reinforcements next."""
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random(seed), DEFAULTS)
    t.round_start()
    roster = t._roster()
    archer, thief, scout, skirmisher = roster.values()
    archer.conditions.update({"fatigue": 1, "stun": 2})
    thief.extra["cooldown"] = ["Sneak Attack"]
    scout.conditions.update({"bleeding": 1, "poisoned": 1, "slow": 1})
    effects.add(skirmisher, effects.PUSH)
    effects.add(archer, effects.INTERACT)
    clock = clocks.Clock.from_state(t.data.get("clock"))
    clock.value = 4  # the reinforcements' Timed Event (at 5) is reached
    clock.add_random("A patrol passes", "3/6", repeat=True)
    clock.add_random("The rope snaps", "5/6")
    reserves = t.data["scene"]["reserves"]
    return ((t.round(), roster, tasks.board(t.data), clock,
             fate.Revealer(t.deck, t.rng), [], reserves), {})


@pytest.mark.parametrize("seed", ["cut12-a", "cut12-b", "cut12-c", "cut12-d"])
def test_a_round_end_with_every_step_at_work_changes_the_same_without_its_report(
        seed: str) -> None:
    """A planted round's end (:func:`_planted_end`), with and without its report: the
    same units (recovered, readied, their events' outcomes, effects ended), tasks,
    clock (its events done, the reserve arrived) and cards revealed; and the report
    says each step did its work."""
    args, kw = _planted_end(seed)
    said, quiet, out = _both_ways(args, kw)
    assert quiet == said
    kinds = {step.kind: step for step in out.steps}
    assert kinds["recover"].applied and kinds["recover"].choices  # type: ignore[attr-defined]
    assert kinds["condition_events"].reveals  # type: ignore[attr-defined]
    assert len(kinds["random_events"].checks) == 2  # type: ignore[attr-defined]
    assert kinds["clock"].arrived == ("Goblin Skirmisher 2",)  # type: ignore[attr-defined]


def test_a_round_end_with_a_recovery_chosen_changes_the_same_without_its_report() -> None:
    """``--recover`` picks (one a Minor condition, one an Ability, one ``none``), with and
    without the report: the same units after."""
    args, kw = _planted_end("cut12-picks")
    args = (*args[:5], ["Archer=stun", "Thief=Sneak Attack", "Goblin Scout=none"],
            *args[6:])
    said, quiet, _ = _both_ways(args, kw)
    assert quiet == said


def test_the_clock_read_and_written_copies_each_event() -> None:
    """``Clock.from_state`` and ``to_state`` copy each event's table (a change to the
    clock read never reaches the session's, nor the written one the clock's), in order."""
    raw = {"value": 3, "down": True,
           "timed": [{"at": 5, "text": "a", "done": False}, {"at": 2, "text": "b",
                                                            "done": True}],
           "random": [{"text": "c", "k": 1, "n": 6, "repeat": False, "done": False}]}
    before = copy.deepcopy(raw)
    clock = clocks.Clock.from_state(raw)
    assert clock.timed == raw["timed"] and clock.random == raw["random"]
    for got, was in zip([*clock.timed, *clock.random], [*raw["timed"], *raw["random"]],
                        strict=True):
        assert got is not was
    clock.timed[0]["done"] = True
    assert raw == before
    out = clock.to_state()
    assert out == {**before, "timed": [{**before["timed"][0], "done": True},
                                       before["timed"][1]]}
    out["random"][0]["done"] = True
    assert clock.random[0]["done"] is False
    assert type(out["timed"]) is list and type(clock.timed) is list


def test_no_random_event_pending_reads_no_card() -> None:
    """``check_random`` with none pending (none at all, or all done and not repeating):
    no card revealed, no check; one pending: one reading."""
    deck = fate.new_deck(random.Random(1))
    reveal = fate.Revealer(deck, random.Random(2))
    clock = clocks.Clock()
    assert clock.check_random(reveal) == () and reveal.used == []
    clock.add_random("gone", "1/6")
    clock.random[0]["done"] = True
    assert clock.check_random(reveal) == () and reveal.used == []
    clock.add_random("pending", "6/6")
    got = clock.check_random(reveal)
    assert len(got) == 1 and got[0].occurs and reveal.used


def test_the_units_whose_round_effects_end_are_those_holding_one_kept() -> None:
    """``effects.end_of_round`` names the units holding a "this Round" effect (Push the
    Limit, Grit your Teeth) with a count above 0 — not one holding only an Interact's
    count or a spent one — and takes every unit's effects off."""
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random("cut12"), DEFAULTS)
    roster = t._roster()
    archer, thief, scout, skirmisher = roster.values()
    effects.add(archer, effects.PUSH)
    effects.add(thief, effects.INTERACT)
    scout.extra[effects.EFFECTS] = {effects.GRIT: 0, effects.PUSH: "2"}
    skirmisher.extra[effects.EFFECTS] = {effects.GRIT: 0}
    assert effects.end_of_round(roster) == (archer.name, scout.name)
    assert all(effects.EFFECTS not in u.extra for u in roster.values())


def _event_checks_plainly(roster: dict[str, Any]) -> list[tuple[Any, str]]:
    """``rounds.event_checks`` as it was written: the table read at each call."""
    from d2d_cli.rules.units import conditions

    evented = [k for k, c in conditions.table().items() if c.event]
    return [(u, k) for u in roster.values() if u.conditions
            and not u.conditions.get("dead") for k in evented if u.conditions.get(k, 0) > 0]


def test_the_event_checks_are_the_rule_written_plainly() -> None:
    """Every unit's round-end event checks, in roster and table order, against the rule
    written plainly: planted units holding none, several evented conditions (in another
    order than the table's), one at 0, and a Dead unit bleeding (no check)."""
    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random("cut12"), DEFAULTS)
    roster = t._roster()
    archer, thief, scout, skirmisher = roster.values()
    plants: list[dict[str, int]] = [
        {}, {"poisoned": 1, "bleeding": 2, "fatigue": 1}, {"burning": 0, "diseased": 1},
        {"dead": 1, "bleeding": 3}, {"stun": 1}, {"bleeding": 1, "burning": 1,
                                                  "diseased": 1, "poisoned": 1}]
    checked = 0
    for i in range(len(plants)):
        for j, u in enumerate((archer, thief, scout, skirmisher)):
            u.conditions = dict(plants[(i + j) % len(plants)])
        want = _event_checks_plainly(roster)
        assert rounds.event_checks(roster) == want
        checked += len(want)
    assert checked > 10


def _one_side_left_plainly(t: Table) -> bool:
    """``sim._one_side_left`` as it was written: a set of the standing factions."""
    standing = {u.get("faction") for u in t.units().values()
                if not g.is_down(u) and not u.get("off_map")}
    waiting = t.data.get("clock", {}).get("timed", [])
    return len(standing) <= 1 and not any(not e.get("done") and e.get("unit")
                                          for e in waiting)


@pytest.mark.parametrize("pending", [False, True])
def test_one_side_left_is_the_rule_written_plainly(pending: bool) -> None:
    """Whether one side is left, against the rule written plainly, for every way of
    planting Combat #1's four units (each standing, Dying, off the map; of its faction,
    of another, of none) with the reinforcements still to come or arrived."""
    import itertools

    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random("cut12"), DEFAULTS)
    units = t.data["units"]
    names = list(units)
    t.data["clock"]["timed"][0]["done"] = not pending
    ways = [{}, {"conditions": {"dying": 1}}, {"off_map": True}, {"faction": None},
            {"faction": "Adventurers"}, {"faction": "Goblins"}]
    seen = set()
    for plant in itertools.product(range(len(ways)), repeat=len(names)):
        for n, w in zip(names, plant, strict=True):
            units[n] = {**start["units"][n], **ways[w]}
        want = _one_side_left_plainly(t)
        assert sim._one_side_left(t) is want
        seen.add(want)
    assert seen == ({False, True} if not pending else {False})


def test_the_task_board_read_and_written_is_the_rule_written_plainly() -> None:
    """``tasks.board`` and ``board_state`` (plain loops) against the comprehensions they
    were: planted boards of none, one and three tasks (workers named by texts and by
    numbers), the same tasks in the same order, each a copy."""
    from d2d_cli.rules.time.tasks import Task

    boards: list[dict[str, Any]] = [
        {}, {"Knot": {"difficulty": 4, "challenge": 4, "progress": 4, "workers": ["Thief"]}},
        {"b": {"difficulty": "3", "challenge": 0, "progress": 2, "workers": [1, "x"]},
         "a": {"difficulty": 2, "challenge": 1, "progress": 0},
         "c": {"difficulty": 5, "challenge": 5, "progress": 5, "workers": []}}]
    for raw in boards:
        data = {"tasks": copy.deepcopy(raw)}
        want = {n: Task(n, int(s["difficulty"]), int(s["challenge"]), int(s["progress"]),
                        [str(w) for w in s.get("workers", [])]) for n, s in raw.items()}
        got = tasks.board(data)
        assert got == want and list(got) == list(want)
        written = tasks.board_state(got)
        assert written == {n: t.to_state() for n, t in got.items()}
        assert list(written) == list(raw)
        for n, t in got.items():
            assert written[n]["workers"] is not t.workers
    assert tasks.board({}) == {}


def test_a_roster_written_is_every_unit_written_in_order() -> None:
    """``roster.roster_state`` (a plain loop) against the comprehension it was."""
    from d2d_cli.rules.units.roster import roster, roster_state

    start, _ = _combat1()
    units = roster(copy.deepcopy(start))
    for names in ([], ["Thief"], ["Goblin Skirmisher", "Archer"], list(units)):
        some = {n: units[n] for n in names}
        got = roster_state(some)
        assert got == {n: u.to_state() for n, u in some.items()}
        assert list(got) == names


@pytest.mark.parametrize("wilds,cp", [(0, 0), (1, 0), (2, 0), (0, 1), (2, 3)])
def test_the_luck_offered_is_the_rule_written_plainly(wilds: int, cp: int) -> None:
    """What the Players may spend on a Crit on the Archer (``Table._offers``, ``_wilds``:
    plain loops) against the sum and ``any`` they were: None exactly when no Wild and no
    Character Point is held; a Non-Player's unit is offered nothing."""
    from d2d_cli.rules.deck.cards import full_deck

    start, _ = _combat1()
    t = Table(copy.deepcopy(start), random.Random("cut12"), DEFAULTS)
    faces = full_deck()
    wild = [c for c in faces if c.is_wild]
    plain = [c for c in faces if not c.is_wild]
    t.players["Player1"].hand = plain[:3] + wild[:wilds]
    t.players["Player2"].hand = plain[3:6]
    t.data["units"]["Archer"] = {**t.data["units"]["Archer"], "cp": cp}
    archer = t.unit("Archer")
    assert t._wilds(archer) == sum(1 for c in t.players["Player1"].hand if c.is_wild)
    got = t._offers("Archer")
    if wilds == 0 and cp == 0:
        assert got is None
    else:
        assert got is not None and got[0] == "Archer"
        mine = got[1][0]
        assert (mine.unit, mine.wilds, mine.cp) == ("Archer", wilds, cp)
        assert any(o.wilds > 0 or o.cp > 0 for o in got[1])
    assert t._offers("Goblin Scout") is None


def _settle_plainly(p: Any, rng: random.Random, played: str, c: Any, side: str,
                    benefits: bool) -> None:
    """``sim._settle`` of a Player's hand as it was written (its comprehension)."""
    from d2d_cli.rules.combat.conflict import hit_value
    from d2d_cli.rules.deck.cards import parse_card

    if played == "fate":
        return
    card = parse_card(played)
    kept = [h for h in p.hand if h.face != card.face]
    if len(kept) != len(p.hand):
        p.hand = kept
    keys = {e.key for e in (c.effects.a if side == "a" else c.effects.b)} if benefits else set()
    if "keep" in keys:
        p.hand.append(card)
    elif card.is_wild:
        p.deck.insert(rng.randrange(len(p.deck) + 1), card)
    else:
        p.discard.append(card)
    if "draw" in keys:
        p.draw(1)
    if "take_from_discard" in keys and p.discard:
        best = max(p.discard, key=hit_value)
        p.discard.remove(best)
        p.hand.append(best)


def test_every_hand_settled_and_counter_card_of_whole_fights_is_the_rule_written_plainly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand settled after a Conflict (``sim._settle``) and every counter-attack's
    card chosen (``sim._counter_card``) in whole fights (both ``--pc``), against the
    comprehensions they were, on copies of the hand and generator — and the fights end
    as they do unwatched."""
    from d2d_cli.rules.combat.conflict import counter_card
    from d2d_cli.rules.deck.cards import parse_card

    start, goals = _combat1()
    plain = {pc: sim.play_runs(start, goals, 7, range(15), DEFAULTS, pc)
             for pc in ("best", "fate")}
    settle, choose = sim._settle, sim._counter_card
    seen = {"settled": 0, "counter": 0}

    def settled(t: Table, name: str, played: str, c: Any, side: str,
                benefits: bool) -> None:
        owner = sim.player_of(t.data["units"][name])
        p = t.players.get(owner) if owner is not None else None
        if p is None:
            return settle(t, name, played, c, side, benefits)
        mine = pickle.loads(pickle.dumps(p, -1))
        rng = random.Random()
        rng.setstate(t.rng.getstate())
        _settle_plainly(mine, rng, played, c, side, benefits)
        settle(t, name, played, c, side, benefits)
        assert (mine.hand, mine.deck, mine.discard) == (p.hand, p.deck, p.discard)
        assert rng.getstate() == t.rng.getstate()
        seen["settled"] += played != "fate"
        return None

    def chosen(t: Table, name: str, played: str) -> Any:
        got = choose(t, name, played)
        hand = sim._hand(t, name)
        if hand is not None and played not in ("fate", "stay"):
            try:
                face = parse_card(played).face
            except Exception:
                face = None
            if face is not None:
                assert got == counter_card([c for c in hand if c.face != face])
                seen["counter"] += 1
        return got

    monkeypatch.setattr(sim, "_settle", settled)
    monkeypatch.setattr(sim, "_counter_card", chosen)
    for pc in ("best", "fate"):
        assert sim.play_runs(start, goals, 7, range(15), DEFAULTS, pc) == plain[pc]
    assert seen["settled"] > 50 and seen["counter"] > 50
