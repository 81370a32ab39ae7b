"""The exchange's speed work gives what a fresh reading gives (issue 40 item 1: one
assessment shared by a Conflict and the Hits that follow it — the same rule functions,
no result changed; tests/test_sim.py pins whole fights byte for byte)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant.engine import Table
from d2d_cli.rules.combat import conflict, hits, situation
from d2d_cli.rules.combat.situation import Terms
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import replace
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.overview import scene


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def _checked(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """``scoring_from`` as hits reads it, each answer it shares checked against a fresh
    ``assess(..., scoring=True)`` of the very same inputs; the shares and misses counted."""
    real = situation.scoring_from
    seen = {"shared": 0, "fresh": 0}

    def checking(shared: Any, a: Any, b: Any, terms: Terms, **kw: Any) -> Any:
        got = real(shared, a, b, terms, **kw)
        if got is None:
            seen["fresh"] += 1
            return None
        seen["shared"] += 1
        fresh = situation.assess(a, b, terms, skill=kw["skill"],
                                 rival_skill=kw["rival_skill"], rival_stat=kw["rival_stat"],
                                 field=kw["field"], opts=kw["opts"], scoring=True)
        assert got == fresh
        return got

    monkeypatch.setattr(hits, "scoring_from", checking)
    return seen


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_the_hits_after_a_conflict_read_its_assessment_only_where_a_fresh_one_is_equal(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights (both Player policies), every Hits assessment taken
    from the Conflict before it equals a fresh one; some are taken, some made anew (a
    Target's Hits on the Actor, a task's, the counter-attack's); and the fights end
    exactly as they do when nothing is shared."""
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    seen = _checked(monkeypatch)
    # the Hits a fight's Assessor already remembers (from fights an earlier test played
    # in this process) ask no assessment at all: counted from an empty memory
    engine._ASSESSED.clear()
    shared = sim.play_runs(start, goals, 7, range(30), DEFAULTS, pc)
    assert seen["shared"] > 20 and seen["fresh"] > 20
    monkeypatch.setattr(hits, "scoring_from", lambda *a, **k: None)
    assert sim.play_runs(start, goals, 7, range(30), DEFAULTS, pc) == shared


def test_a_unit_changed_after_the_conflict_gets_its_hits_assessed_anew() -> None:
    """A unit changed between the Conflict and its Hits (here the Archer Fatigued, as a
    counter-attack's Crit would: the live Unit changed in place and stored as a new
    table) is read as it is now: the Hits' Level counts the Stat Penalty, as a fresh
    ``hit`` on the same session does — the Conflict's assessment is not reused."""
    data = combat1()
    t = Table(data, random.Random(1))
    c = t.conflict("Archer:fast", "Goblin Scout:fate", None)
    assert isinstance(c, conflict.Conflict)
    archer = t.unit("Archer")
    archer.conditions["fatigue"] = 2  # Body -2: the Combat skills' main Stat (000 l.453)
    t._store({"Archer": archer})
    assert t.unit("Archer") is archer  # the very Unit the Conflict read, changed
    got = t.hit(parse_card("KS^"), by="Archer", vs="Goblin Scout")
    fresh = hits.ask([parse_card("KS^")], data=copy.deepcopy(t.data), by="Archer",
                     vs="Goblin Scout", opts=DEFAULTS).count(None)
    assert got == fresh
    assert got.your_level == c.side_a.level - 2
    assert any(m.key == "stat_penalties" for m in got.modifiers)


@pytest.mark.parametrize("terms,opts,key", [
    (Terms(cover="a:50", range=5), DEFAULTS, "cover"),  # 001 l.711: not in the Hits
    (Terms(range=5), replace(DEFAULTS, push_the_limit="000"), "push_the_limit"),
])
def test_what_the_hits_alone_read_makes_them_assessed_anew(
        terms: Terms, opts: Options, key: str) -> None:
    """The parts of an assessment the Hits read differently — the Actor's own Cover
    (001 l.711) and Push the Limit under 000 (000 l.254, Initiative in the Conflict
    only) — are not taken from the Conflict: its assessment names the modifier, the Hits'
    do not, and they equal a fresh ``hit`` without the Conflict's."""
    data = combat1()
    data["units"]["Archer"]["effects"] = {"push_the_limit": 1}
    ask = conflict.ask(["Archer:fast", "Goblin Scout:block"], data, terms=terms,
                       use_map=False, opts=opts)
    assert ask.assessed is not None
    assert any(m.key == key for m in ask.situation.modifiers)
    with_shared = hits.ask([parse_card("KS^")], data=data, by="Archer", vs="Goblin Scout",
                           terms=terms, use_map=False, opts=opts, shared=ask.assessed)
    fresh = hits.ask([parse_card("KS^")], data=data, by="Archer", vs="Goblin Scout",
                     terms=terms, use_map=False, opts=opts)
    assert with_shared.situation == fresh.situation
    assert fresh.situation is not None
    assert not any(m.key == key for m in fresh.situation.modifiers)
    # and where nothing of theirs is in play, the Hits read the Conflict's own
    plain = conflict.ask(["Archer:fast", "Goblin Scout:block"], combat1(),
                         terms=Terms(range=5), use_map=False)
    assert plain.assessed is not None
    assert situation.scoring_from(
        plain.assessed, situation.Who(plain.assessed.a), situation.Who(plain.assessed.b),
        plain.assessed.terms, skill=plain.assessed.skill, rival_skill=None,
        rival_stat=None, field=None, opts=DEFAULTS) is plain.assessed.situation


class _Spied(dict):  # type: ignore[type-arg]
    """A unit's ``extra`` that notes every key read."""

    def __init__(self, raw: dict[str, Any], seen: set[str]) -> None:
        super().__init__(raw)
        self.seen = seen

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.seen.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.seen.add(str(key))
        return super().__contains__(key)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_remembered_assessment_of_whole_fights_is_a_fresh_one(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights (both Player policies), every assessment the engine's
    Assessor gives — found in its memory or made — equals a fresh ``assess`` of the very
    same inputs, and a fresh one made on copies of the units that note what they are
    asked reads none of what the reading leaves out (engine._UNREAD: the round's
    tokens, Actions, the Interact aimed at the unit, its Crits, where it stands); most
    are found, not made; and the fights end exactly as when nothing is remembered."""
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    real_call, real_assess = situation.Assessor.__call__, situation.assess
    seen = {"asked": 0, "made": 0}
    read: set[str] = set()

    def spied(who: situation.Who) -> situation.Who:
        if who.unit is None:
            return who
        unit = replace(who.unit, extra=_Spied(who.unit.extra, read))
        return replace(who, unit=unit)

    def checking(self: Any, a: Any, b: Any, terms: Terms, **kw: Any) -> Any:
        seen["asked"] += 1
        got = real_call(self, a, b, terms, **kw)
        assert got == real_assess(a, b, terms, **kw)
        assert real_assess(spied(a), spied(b), terms, **kw) == got
        return got

    def counting(*a: Any, **kw: Any) -> Any:
        seen["made"] += 1
        return real_assess(*a, **kw)

    monkeypatch.setattr(situation.Assessor, "__call__", checking)
    monkeypatch.setattr(situation, "assess", counting)
    engine._ASSESSED.clear()
    remembered = sim.play_runs(start, goals, 7, range(30), DEFAULTS, pc)
    assert seen["asked"] > 300 and seen["made"] < seen["asked"] // 2
    assert read and not read & engine._UNREAD
    monkeypatch.setattr(situation.Assessor, "__call__",
                        lambda self, *a, **kw: real_assess(*a, **kw))
    assert sim.play_runs(start, goals, 7, range(30), DEFAULTS, pc) == remembered


def test_a_unit_changed_between_two_conflicts_is_assessed_as_it_is_now() -> None:
    """The same Conflict twice, the Archer Fatigued between them (as a Crit leaves it:
    the live Unit changed and stored as a new table) and then its Move spent (what the
    reading leaves out): the second and third read the Stat Penalty, as a fresh
    ``conflict`` on the same session does — the first assessment is not found for
    them — and the third is the second's, found."""
    data = combat1()
    t = Table(data, random.Random(1))
    sides = ("Archer:fast", "Goblin Scout:block")
    first = t.conflict(*sides)
    archer = t.unit("Archer")
    archer.conditions["fatigue"] = 2  # Body -2: the Combat skills' main Stat (000 l.453)
    t._store({"Archer": archer})
    second = t.conflict(*sides)
    archer.move = 1  # a round token: no assessment reads it
    t._store({"Archer": archer})
    before = len(engine._ASSESSED)
    third = t.conflict(*sides)
    assert len(engine._ASSESSED) == before  # found: nothing new remembered
    fresh = conflict.ask(list(sides), copy.deepcopy(t.data), use_map=True).situation
    assert isinstance(first, conflict.Conflict) and isinstance(second, conflict.Conflict)
    assert isinstance(third, conflict.Conflict)
    assert second.side_a.level == first.side_a.level - 2 == fresh.a.level
    assert second.modifiers == third.modifiers == fresh.modifiers
    assert any(m.key == "stat_penalties" for m in second.modifiers)


def test_a_reading_is_the_same_for_tables_alike_in_all_an_assessment_reads() -> None:
    """engine._reading: tables that differ only in what no assessment reads share a
    reading; any other difference — a condition, a skill, a weapon, a round effect —
    gives another."""
    archer = combat1()["units"]["Archer"]
    base = engine._reading(archer)
    assert engine._reading(dict(archer)) == base
    assert engine._reading({**archer, "move": 3, "action_cost": 2, "turn": 1,
                            "spent": {"round": 1, "actions": 2}, "space": "A1",
                            "facing": "S", "interacted": {"by": "Goblin Scout"},
                            "crits": [{"card": "cut@head"}]}) == base
    for other in ({"conditions": {"fatigue": 1}}, {"skills": {"Ranged": 2}},
                  {"weapons": {}}, {"effects": {"push_the_limit": 1}}, {"off_map": True}):
        assert engine._reading({**archer, **other}) != base, other


def _whole_roster_crit(self: Table, ask: Any, stored: bool = True) -> Any:
    """The Crit as the engine played it before: on the whole live roster, every unit's
    table stored back (what ``d2d crit`` stores)."""
    return self._crit_on(self._roster(), ask, stored)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_a_crit_on_the_units_it_reads_ends_every_fight_as_on_the_whole_roster(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's Crit is played on the units it reads (scorer, target, the Ally of a
    Luck) and stores those alone; the others keep their very tables. Whole Combat #1
    fights (Luck and Wild Luck played by the Players) end in the same session, unit
    table by unit table, with the same lines logged, as when the whole roster is played
    and stored back as ``d2d crit`` does — and the units a Crit did not read keep their
    tables' identity."""
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    blob = __import__("pickle").dumps(start, -1)
    kept = {"same": 0}
    real_keep = Table._keep

    def watching(self: Table, out: Any) -> None:
        before = dict(self.data["units"])
        real_keep(self, out)
        kept["same"] += sum(1 for n, u in self.data["units"].items() if u is before[n])

    monkeypatch.setattr(Table, "_keep", watching)
    ours = [sim._fight(blob, goals, sim.run_seed(5, i), DEFAULTS, True, pc) for i in range(12)]
    assert kept["same"] > 0
    monkeypatch.setattr(Table, "_crit", _whole_roster_crit)
    theirs = [sim._fight(blob, goals, sim.run_seed(5, i), DEFAULTS, True, pc)
              for i in range(12)]
    for (out_a, t_a), (out_b, t_b) in zip(ours, theirs, strict=True):
        assert out_a == out_b
        assert t_a.lines == t_b.lines
        assert t_a.data == t_b.data
        assert list(t_a.data["units"]) == list(t_b.data["units"])


def test_whether_the_rival_reaches_is_remembered_for_each_skill_and_range() -> None:
    """remembered.rival_reaches, remembered by the skill and the Range: every skill of
    the table at every Range from 0 to 12, asked twice in a row (the second found), is
    what 001 l.685–695 gives — Close Combat and Melee reach Range 0–1, Ranged any; a
    skill of no kind of attack (Stealth), an unknown one, or no Range always reaches."""
    from d2d_cli.rules.combat import remembered

    reach = {"Close Combat": 1, "Melee": 1, "Ranged": None, "Stealth": None,
             "no such skill": None}
    for skill, top in reach.items():
        for rng in range(13):
            for _ in range(2):
                assert remembered.rival_reaches(skill, rng) is (top is None or rng <= top)
        assert remembered.rival_reaches(skill, None) is True
    assert remembered.rival_reaches(None, 5) is True


def test_what_a_conflict_is_told_is_kept_as_each_conflict_says_it() -> None:
    """The engine tells every Conflict the same few things (engine._said: nothing, or
    ``--no-map``), made once; the round keeps its own copy: a Conflict off the map keeps
    ``no_map``, the next one on the map keeps nothing of it, and a change to what the
    round kept changes neither what is told nor the next Conflict's record."""
    from d2d_cli.rules.combat.exchange import KEY

    data = combat1()
    t = Table(data, random.Random(3))
    units = t.data["units"]
    t.data["units"] = {**units, "Archer": {k: v for k, v in units["Archer"].items()
                                           if k != "space"}}
    first = t.conflict("Archer:strong", "Goblin Scout:block")
    assert isinstance(first, conflict.Conflict) and first.outcome == "a"
    kept = t.data["round"][KEY]["said"]
    assert kept == {"no_map": True}
    kept["range"] = 9  # the round's copy changed: what is told is not
    assert engine._said(True) == {"no_map": True}
    t.data["units"] = {**t.data["units"], "Archer": units["Archer"]}  # on the map again
    second = t.conflict("Archer:strong", "Goblin Scout:block")
    assert isinstance(second, conflict.Conflict) and second.outcome == "a"
    assert "said" not in t.data["round"][KEY]


def test_the_stat_a_hit_targets_is_read_the_same_however_often_asked() -> None:
    """situation.target_stat, remembered by what was typed: each spelling gives its own
    stat every time (Body by default, 001 l.824 "Weapons default to Body"), and a stat
    that is none is refused every time, not remembered as another's answer."""
    from d2d_cli.errors import BadInput

    for _ in range(2):
        assert [situation.target_stat(v) for v in (None, "Body", " mind ", "WILL", "speed")] \
            == ["body", "body", "mind", "will", "speed"]
        with pytest.raises(BadInput, match="--stat luck"):
            situation.target_stat("luck")


def test_a_units_side_is_read_the_same_however_often_typed() -> None:
    """conflict.parse_side reads ``NAME:PLAY`` once per text (conflict._named_play): each
    text, typed twice, names its own unit and play — an approach, a card, fate — and the
    unit as the roster holds it now; a play that is none is refused every time."""
    from d2d_cli.errors import BadInput
    from d2d_cli.rules.units.roster import roster_view

    data = combat1()
    for _ in range(2):
        units = roster_view(data)
        got = [conflict.parse_side(t, units) for t in
               ("Archer:fast", " Goblin Scout :7S^", "Goblin Scout:fate", "archer:Block")]
        assert [(s.unit.name if s.unit else None, s.source, s.approach, s.card)
                for s in got] == [
            ("Archer", "approach", "fast", None),
            ("Goblin Scout", "card", "fast", parse_card("7S^")),
            ("Goblin Scout", "fate", None, None),
            ("Archer", "approach", "block", None)]
        assert got[0].unit is units["Archer"]
        with pytest.raises(BadInput, match="after Archer: give an approach"):
            conflict.parse_side("Archer:zzz", units)


def test_a_damage_deck_a_crit_stored_is_read_back_whole_and_a_changed_one_is_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Crit reads the session's Damage Deck back and checks it holds exactly the deck's
    cards (else a new one is shuffled: a new location chart). The table a Crit stored
    is read back without sorting the cards again — while its piles are as stored; one
    changed in place (a card that is not the deck's, a card dropped) is checked again
    and shuffled anew, as a fresh reading does."""
    from d2d_cli.rules.combat import crits

    sorts: list[int] = []

    def counted(xs: Any) -> list[Any]:
        sorts.append(len(xs))
        return sorted(xs)

    monkeypatch.setattr(crits, "sorted", counted, raising=False)
    ch = crits.chart("person")
    cards = crits.deck_cards("wound", ch)
    rng = random.Random(7)
    data: dict[str, Any] = {}
    for turn in range(len(cards) + 3):  # past a reshuffle of the discard pile
        source = crits._source(None, data, ch, "wound", lambda: rng)
        assert source.new_deck is (turn == 0)
        source.draw()
        changes: dict[str, Any] = {}
        source.close(changes)
        data = {**data, **changes}
        state = data["damage"]["person"]["wound"]
        assert sorted(state["draw"] + state["discard"]) == sorted(cards)
    assert sorts == []  # every table read back was one a Crit stored, as stored
    stored = data["damage"]["person"]["wound"]
    pile, rebuilt = crits.DamageDeck.from_state(stored, cards, rng)
    assert not rebuilt and pile.draw == stored["draw"] and sorts == []
    # the same piles in a table a Crit did not store: checked
    again, rebuilt = crits.DamageDeck.from_state(
        {"draw": list(stored["draw"]), "discard": list(stored["discard"])}, cards, rng)
    assert not rebuilt and again.draw == stored["draw"] and len(sorts) == 2
    for change in (lambda s: s["draw"].__setitem__(0, "bash@head"),
                   lambda s: s["discard"].pop()):
        sorts.clear()
        table = data["damage"]["person"]["wound"]
        before = list(table["draw"])
        change(table)  # changed in place after the Crit stored it
        pile, rebuilt = crits.DamageDeck.from_state(table, cards, rng)
        assert rebuilt and len(sorts) == 2
        assert sorted(pile.draw) == sorted(cards) and pile.draw != before
        # and a Crit reading it shuffles a new deck, as it would have before
        source = crits._source(None, data, ch, "wound", lambda: rng)
        assert source.new_deck
        source.draw()
        changes = {}
        source.close(changes)
        data = {**data, **changes}
