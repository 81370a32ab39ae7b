"""The exchange's tenth cut gives what the full path gives (issue 40 item 1): the round's
number and phase taken as they are when a whole number and a text
(``remembered.round_of``); a side's text read as a play and as ``NAME:PLAY`` by one
look-up (``conflict._read_side``); a Hits' bonus Modifiers gathered without a generator
(``hits.ask``); the exchange a Hits names found by its very names before they are folded
(``exchange.with_hits``); a Conflict's sides read in place, not by ``getattr`` with a
default (``exchange.of_conflict``); a Crit's rating comparing the Power with the armour
once for the comparison and the Hits it adds (``crits._compared``); the Target's effects
trimmed by plain loops (``remembered.trim``). Each is checked
against the rule written out, over whole fights and on planted values
(tests/test_sim.py and tests/golden pin whole fights and every command's JSON)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.combat import conflict, crits, exchange, hits, remembered
from d2d_cli.rules.combat.situation import Modifier
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.scale.stats import Stat, parse_stat


def _fights(pc: str, runs: range) -> None:
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 5, runs, DEFAULTS, pc)


# --------------------------------------------------------------------------- round_of


def _round_of_written_out(data: Any) -> tuple[int, str]:
    raw = (data or {}).get("round") or {}
    return int(raw.get("number", 0)), str(raw.get("phase", "none"))


_ROUNDS: list[Any] = [
    None, {}, {"round": None}, {"round": {}}, {"round": {"number": 3, "phase": "act"}},
    {"round": {"number": True, "phase": "act"}}, {"round": {"number": False}},
    {"round": {"number": 2.0, "phase": 7}}, {"round": {"number": "4", "phase": None}},
    {"round": {"number": 0, "phase": ""}}, {"round": {"phase": "upkeep"}},
]


@pytest.mark.parametrize("data", _ROUNDS)
def test_round_of_is_the_rule_written_out_value_and_type(data: Any) -> None:
    """A bool, a float, a numeric text, a phase that is no text: each made an ``int``
    and a ``str`` as before; an int and a text taken as they are."""
    got, want = remembered.round_of(data), _round_of_written_out(data)
    assert got == want
    assert [type(x) for x in got] == [int, str]


# --------------------------------------------------------------------------- sides


_TEXTS = ["fast", " Strong ", "fate", "FATE", "7S^", "QHv", "RW", "Archer:fast",
          "Archer:7S^", "Goblin Scout:fate", "a:b:block", "Archer:", ":fast", "Archer",
          "nonsense:xyz", "Archer:  evade  "]


@pytest.mark.parametrize("text", _TEXTS)
def test_a_sides_text_is_read_as_a_play_first_then_as_name_play(text: str) -> None:
    """``_read_side`` is :func:`conflict._play`, then (only when it is no play)
    :func:`conflict._named_play` — the two readings ``parse_side`` made in turn."""
    played = conflict._play(text)
    want = (played, None if played is not None else conflict._named_play(text))
    assert conflict._read_side(text) == want


def _parse_side_written_out(text: str, units: Any) -> conflict.SideSpec:
    played = conflict._play(text)
    if played is not None:
        return played
    named = conflict._named_play(text)
    assert named is not None  # a fight's sides are plays or NAME:PLAY
    name, played = named
    unit = units[name] if name in units else conflict._roster.find(units, name)
    return conflict.SideSpec(text, played.source, played.approach, played.card, unit)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_side_of_whole_fights_is_the_one_read_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = conflict.parse_side
    seen = {"named": 0, "play": 0}

    def parsing(text: str, units: Any = None) -> conflict.SideSpec:
        out = real(text, units)
        want = _parse_side_written_out(text, units if units is not None else {})
        assert out == want and out.unit is want.unit
        seen["named" if want.unit is not None else "play"] += 1
        return out

    monkeypatch.setattr(conflict, "parse_side", parsing)
    _fights(pc, range(6))
    assert seen["named"] > 50


# --------------------------------------------------------------------------- round_of in fights


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_round_read_of_whole_fights_is_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = remembered.round_of
    count = [0]

    def reading(data: Any) -> tuple[int, str]:
        out = real(data)
        assert out == _round_of_written_out(data)
        assert [type(x) for x in out] == [int, str]
        count[0] += 1
        return out

    monkeypatch.setattr(remembered, "round_of", reading)
    _fights(pc, range(6))
    assert count[0] > 50


# --------------------------------------------------------------------------- a Hits' bonus


_PUSHED = Modifier("push_the_limit_damage", "Push", "a", 0, "session", "000 l.254")
_FEAT = Modifier("heroic_feat", "Feat", "a", 0, "option", "001 l.611")


@pytest.mark.parametrize("pushed", [None, _PUSHED])
@pytest.mark.parametrize("feat", [None, _FEAT])
def test_a_hits_bonus_is_each_modifier_given_in_order(
        pushed: Modifier | None, feat: Modifier | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Push the Limit's damage, then the Heroic Feat, each when there is one — what the
    generator over the two gave — and the Hits they add."""
    monkeypatch.setattr(hits, "damage_bonus", lambda actor, opts: (pushed, 2 if pushed else 0))
    monkeypatch.setattr(hits, "heroic_feat_of",
                        lambda side, actor, data, vs: (feat, None, 1 if feat else 0))
    ask = hits.ask([parse_card("5S")], level=1, vs="2")
    assert ask.bonus == tuple(m for m in (pushed, feat) if m is not None)
    assert type(ask.bonus) is tuple
    assert ask.bonus_hits == (2 if pushed else 0) + (1 if feat else 0)


# --------------------------------------------------------------------------- the exchange


def _with_hits_written_out(data: dict[str, Any], by: str | None, vs: str | None,
                           n: int) -> dict[str, Any] | None:
    if by is None or vs is None:
        return None
    ex = exchange._raw(data, False)
    rnd = dict(data.get("round") or {})
    if ex is not None and (by.lower(), vs.lower()) == (str(ex["winner"]).lower(),
                                                       str(ex["rival"]).lower()):
        rnd[exchange.KEY] = {**rnd[exchange.KEY], "hits": n}
        return rnd
    names = {x.lower(): x for x in (data.get("units") or {})}
    if by.lower() not in names or vs.lower() not in names or by.lower() == vs.lower():
        return None
    rnd[exchange.KEY] = {"winner": names[by.lower()], "rival": names[vs.lower()], "hits": n}
    return rnd


def _round(winner: Any, rival: Any) -> dict[str, Any]:
    return {"units": {"Archer": {}, "Goblin Scout": {}, "Thief": {}},
            "round": {"number": 1, "phase": "act",
                      exchange.KEY: {"winner": winner, "rival": rival, "cards": ["5S"]}}}


@pytest.mark.parametrize("data", [
    _round("Archer", "Goblin Scout"), _round("archer", "GOBLIN SCOUT"), _round(7, "Thief"),
    _round("Archer", "Thief"), _round("Goblin Scout", "Archer"),
    {"units": {"Archer": {}, "Thief": {}}, "round": {"number": 1}},
])
@pytest.mark.parametrize("by, vs", [("Archer", "Goblin Scout"), ("ARCHER", "goblin scout"),
                                    ("Goblin Scout", "Archer"), ("Archer", "Thief"),
                                    ("7", "Thief"), ("Archer", "Archer"), (None, "Thief"),
                                    ("Archer", "Nobody")])
def test_with_hits_is_the_rule_written_out(data: dict[str, Any], by: str | None,
                                           vs: str | None) -> None:
    """The exchange named exactly, named in another case, a winner that is no text, another
    pair of units, no exchange: each as the names folded gave it."""
    assert exchange.with_hits(data, by, vs, 2) == _with_hits_written_out(data, by, vs, 2)


def _of_conflict_sides_written_out(result: Any) -> bool:
    """Whether the rule as written before reads on past its first test."""
    a, b = getattr(result, "side_a", None), getattr(result, "side_b", None)
    outcome = getattr(result, "outcome", None)
    return not (a is None or b is None or not a.unit or not b.unit or
                outcome not in ("a", "b", "both"))


def _side(unit: str | None) -> SimpleNamespace:
    return SimpleNamespace(unit=unit, card=None, skill=None)


@pytest.mark.parametrize("result", [
    None, {"side_a": 1}, SimpleNamespace(outcome="a"),
    SimpleNamespace(side_a=_side("A"), side_b=_side("B")),  # no outcome
    SimpleNamespace(side_a=None, side_b=_side("B"), outcome="a"),
    SimpleNamespace(side_a=_side(None), side_b=_side("B"), outcome="a"),
    SimpleNamespace(side_a=_side("A"), side_b=_side("B"), outcome="tie"),
])
def test_of_conflict_leaves_nothing_where_the_rule_written_out_stops(result: Any) -> None:
    assert not _of_conflict_sides_written_out(result)
    assert exchange.of_conflict(result) is None


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_exchange_of_whole_fights_is_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Conflict of whole fights leaves what the sides read by ``getattr`` left
    (nothing where that stopped), and each Hits the round the folded names gave."""
    real_of, real_with = exchange.of_conflict, exchange.with_hits
    seen = {"kept": 0, "hits": 0}

    def leaving(result: Any) -> Any:
        out = real_of(result)
        if not _of_conflict_sides_written_out(result):
            assert out is None
        seen["kept"] += out is not None
        return out

    def with_hits(data: dict[str, Any], by: str | None, vs: str | None,
                  n: int) -> dict[str, Any] | None:
        want = _with_hits_written_out(data, by, vs, n)
        out = real_with(data, by, vs, n)
        assert out == want
        seen["hits"] += 1
        return out

    monkeypatch.setattr(exchange, "of_conflict", leaving)
    monkeypatch.setattr(exchange, "with_hits", with_hits)
    _fights(pc, range(6))
    assert seen["kept"] > 20 and seen["hits"] > 20


# --------------------------------------------------------------------------- a Crit's rating


_STATS = [parse_stat(x) for x in ("1x0", "2x1", "4x1", "6x1", "9x1", "2x2", "5x2", "1x3",
                                   "3x0")]
# armour an Armor Pierce met a scale or two lower (crits.pierced): a scale below 0, where
# the Hits against no armour are the cap
_PIERCED = [Stat(2, -1), Stat(6, -2), Stat(9, -1)]


def test_the_cap_is_met_by_pierced_armour() -> None:
    """The grid below holds pairs where the cap binds (the comparison gives more Hits
    than no armour would), so a rating that drops the cap fails it."""
    assert any(crits.compare(p, a).total > crits.compare(p, None).total
               for p in _STATS for a in _PIERCED)


@pytest.mark.parametrize("p", _STATS)
@pytest.mark.parametrize("a", [None, *_STATS, *_PIERCED])
def test_a_crits_comparison_and_hits_are_the_rule_written_out(p: Stat,
                                                              a: Stat | None) -> None:
    """001 l.926–936 against the armour, never more than against none (l.910)."""
    bonus, added = crits._compared(p, a)
    assert bonus == crits.compare(p, a)
    assert added == min(crits.compare(p, a).total, crits.compare(p, None).total)
    assert crits.bonus_hits(p, a) == added


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_crits_rating_of_whole_fights_is_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = crits._rate
    count = [0]

    def rating(ask: Any, power: Any, unit: Any, worn: Any, opts: Any) -> Any:
        out = real(ask, power, unit, worn, opts)
        against = worn if opts.armor == "rating" and opts.hit_location != "000" else None
        added = min(crits.compare(power, against).total, crits.compare(power, None).total)
        assert (out.bonus, out.added, out.total) == (crits.compare(power, against), added,
                                                     ask.hits + added)
        count[0] += 1
        return out

    monkeypatch.setattr(crits, "_rate", rating)
    _fights(pc, range(10))
    assert count[0] > 10


# --------------------------------------------------------------------------- the Target's effects


def _trim_written_out(effects: Any, unspent: str | None, reaches: bool,
                      reading: str = "001") -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """``remembered.trim`` as written before the cut."""
    if unspent is None and reaches:
        return tuple(effects), ()
    notes: list[str] = []
    kept = list(effects)
    if unspent is not None and any(getattr(e, "key", "") not in remembered.NOT_A_BENEFIT
                                   for e in kept):
        lost = [remembered._SHORT.get(getattr(e, "key", ""), getattr(e, "key", ""))
                for e in kept if getattr(e, "key", "") not in remembered.NOT_A_BENEFIT]
        kept = [e for e in kept if getattr(e, "key", "") in remembered.NOT_A_BENEFIT]
        line = remembered.UNSPENT_LINE if reading == "001" else remembered.INTERRUPT_LINE
        notes.append(f"No benefit for B: {unspent}, so no {', no '.join(lost)} ({line})")
    if not reaches and any(getattr(e, "key", "") == "counterattack" for e in kept):
        kept = [e for e in kept if getattr(e, "key", "") != "counterattack"]
        notes.append("No Counter-attack for B: it cannot reach A at this Range "
                     "(001 l.685–695)")
    return tuple(kept), tuple(notes)


def _e(key: str) -> conflict.Effect:
    return conflict.Effect(key, key.title())


_EFFECTS: list[list[Any]] = [
    [], [_e("hit")], [_e("reshuffle")], [_e("hit"), _e("reshuffle"), _e("draw")],
    [_e("counterattack")], [_e("counterattack"), _e("reshuffle")],
    [_e("keep"), _e("counterattack"), _e("unknown_key")], [object(), _e("move")],
    [SimpleNamespace(key="reshuffle"), SimpleNamespace(key="counterattack")],
]


@pytest.mark.parametrize("effects", _EFFECTS)
@pytest.mark.parametrize("unspent", [None, "the Target spent no Action"])
@pytest.mark.parametrize("reaches", [True, False])
@pytest.mark.parametrize("reading", ["001", "000"])
def test_trim_is_the_rule_written_out(effects: list[Any], unspent: str | None,
                                      reaches: bool, reading: str) -> None:
    """Nothing, only what is no benefit, a Counter-attack with and without others, an
    effect of no key: what is kept (the very objects, in order) and the notes."""
    got = remembered.trim(effects, unspent, reaches, reading)
    want = _trim_written_out(effects, unspent, reaches, reading)
    assert got == want
    assert [id(e) for e in got[0]] == [id(e) for e in want[0]]


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_trim_of_whole_fights_is_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = remembered.trim
    count = {"slow": 0}

    def trimming(effects: Any, unspent: str | None, reaches: bool,
                 reading: str = "001") -> Any:
        out = real(effects, unspent, reaches, reading)
        assert out == _trim_written_out(effects, unspent, reaches, reading)
        count["slow"] += unspent is not None or not reaches
        return out

    monkeypatch.setattr(remembered, "trim", trimming)
    # a Conflict's trim is remembered with its effects (the twelfth cut): worked out
    # afresh here, each through the check
    conflict._outcome_effects.cache_clear()
    _fights(pc, range(6))
    assert count["slow"] > 10
