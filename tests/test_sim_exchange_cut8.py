"""The exchange's eighth cut gives what the full path gives (issue 40 item 1): a
Conflict and a Crit made with their fields by position rather than as more than 15
keywords (a call CPython compiles to build a dict of them and unpack it again) — each
field holds what it is made of; and ``replace`` copying a table that holds its record's
fields and nothing else whole — the copy the record's ``__init__`` makes
(tests/test_sim.py and tests/golden pin whole fights and every command's JSON byte for
byte)."""

from __future__ import annotations

import dis
from typing import Any

import pytest

from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import policy, sim
from d2d_cli.rules.combat import conflict, crits, hits
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.core.record import fields, record, replace
from d2d_cli.rules.deck.cards import parse_card


def _fights(pc: str, runs: range) -> None:
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 5, runs, DEFAULTS, pc)


def _check_conflict(ask: conflict.ConflictAsk, c: conflict.Conflict) -> None:
    """Each field of a Conflict against what ``resolve`` makes it of."""
    sit, m = ask.situation, ask.matchup
    assert (c.side_a.input, c.side_b.input) == (m.a.text, m.b.text)
    assert (c.approach_a, c.approach_b) == (c.side_a.approach, c.side_b.approach)
    assert (c.side_a.level, c.side_b.level) == (sit.a.level, sit.b.level)
    won = {"a": ("a",), "b": ("b",), "both": ("a", "b"), "tie": ()}[c.outcome]
    for side, got in (("a", c.effects.a), ("b", c.effects.b)):
        approach = c.approach_a if side == "a" else c.approach_b
        full = conflict.effects(approach, side in won, ask.evade,
                                conflict._non_player(m.a if side == "a" else m.b))
        assert set(got) <= set(full)  # B's may be trimmed: the Target's unspent Action
        if side == "a":
            assert got == full
    assert c.tiebreak is None or c.tiebreak.outcome == c.outcome
    assert c.conflict_chart == ask.reading
    assert isinstance(c.reshuffled, bool)
    assert c.sources == conflict.sources(sit, {"a": "level_a", "b": "level_b"})
    assert c.modifiers is sit.modifiers and c.cannot_block is sit.no_block
    assert c.advantage == {"a": sit.advantage_a, "b": sit.advantage_b}
    assert c.cover is None or c.cover.target is None
    assert isinstance(c.notes, tuple) and all(isinstance(n, str) for n in c.notes)
    assert c.map is sit.geometry and c.hands == () and c.turned == ()
    assert c.counter is None or c.counter.side in ("a", "b")


def _check_crit(ask: crits.CritAsk, c: crits.Crit) -> None:
    """Each field of a Crit against what ``crit`` makes it of."""
    opts = DEFAULTS
    assert isinstance(c.power, str) and c.power
    assert (c.armor is None) == (c.armor_source is None) == (c.armor_scope is None)
    assert isinstance(c.bonus, crits.Bonus)
    assert isinstance(c.bonus_unarmored, int) and 0 <= c.bonus_hits <= c.bonus_unarmored
    assert c.hits_before == ask.hits
    rated = c.hits_before + c.bonus_hits  # then the Damage Modifiers (Luck), if any
    modded = c.damage_modifiers
    assert c.hits == rated if modded is None else (modded.damage_before, modded.damage) == (
        rated, c.hits)
    spec = crits.damage_table()["decks"][c.deck]
    assert c.deck_name == spec["name"] and c.chart == "person"
    assert isinstance(c.types, tuple) and (not c.types or c.type in c.types)
    assert c.card == f"{c.type}@{c.location}"
    assert c.location_name == crits.chart("person").names()[c.location]
    assert all(isinstance(x, str) and "@" in x for x in c.skipped)
    assert c.severity in (crits._levels() if c.hits else ["none"])
    assert c.rotations == (crits.severity(c.hits).rotations if c.hits else 0)
    assert c.mortal_rule == opts.mortal_wound and isinstance(c.mortal_wound, bool)
    assert isinstance(c.crit_count, int) and c.crit_count >= (c.hits > 0)
    assert all(isinstance(x, str) for x in c.light_damage)
    assert c.table_mode is False and isinstance(c.reshuffled, bool)
    assert isinstance(c.new_deck, bool)
    assert c.target is None or (isinstance(c.target, crits.Placed)
                                and c.target.unit == ask.target)
    assert list(c.sources)[:2] == ["power", "armor"]
    assert ("weapon" in c.sources) == (ask.weapon is None)  # the wielder's own weapon
    assert set(c.changes) == {"damage", "units"}
    assert c.summary == (f"Crit {c.card} → {c.location_name} {c.severity.capitalize()}"
                         if c.hits else f"no Crit ({c.card})") + f" on {ask.target}"
    assert c.wielder == ask.by
    assert all(isinstance(x, str) for x in c.flipped)
    assert c.rated_against == opts.weapon_damage and c.stack == ()
    assert c.hit_location == opts.hit_location and c.hand is None


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_conflict_and_crit_of_whole_fights_holds_what_it_is_made_of(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights (both ``--pc``), each Conflict's and each Crit's
    fields against the values they are made of: a field given another's value (the
    positions of two swapped) fails where the two differ in these fights (``reshuffled``
    and ``new_deck`` do not: the golden replay and tests/test_crits.py tell those)."""
    real_resolve, real_crit = conflict.resolve, crits.crit
    seen = {"conflict": 0, "crit": 0}

    def resolving(ask: conflict.ConflictAsk, reveal: Any) -> Any:
        out = real_resolve(ask, reveal)
        if isinstance(out, conflict.Conflict):
            _check_conflict(ask, out)
            seen["conflict"] += 1
        return out

    def critting(ask: crits.CritAsk, *args: Any, **kwargs: Any) -> crits.Crit:
        out = real_crit(ask, *args, **kwargs)
        _check_crit(ask, out)
        seen["crit"] += 1
        return out

    monkeypatch.setattr(conflict, "resolve", resolving)
    monkeypatch.setattr(crits, "crit", critting)
    _fights(pc, range(8))
    assert seen["conflict"] > 100 and seen["crit"] > 20


def test_every_field_of_a_conflict_and_a_crit_is_given() -> None:
    """``resolve`` and ``crit`` give every field their records have but the ones left
    at their defaults on purpose (a Conflict's ``hands`` and ``turned``, a Crit's
    ``hand``): a field added to either is not silently left to a position."""
    assert [f.name for f in fields(conflict.Conflict)][-3:] == ["hands", "counter", "turned"]
    assert [f.name for f in fields(crits.Crit)][-1] == "hand"
    assert len(fields(crits.Crit)) == 38


@pytest.mark.parametrize("fn", [conflict.resolve, crits.crit])
def test_no_call_of_a_fights_results_builds_a_dict_of_keywords(fn: Any) -> None:
    """No call in ``resolve`` or ``crit`` passes its keywords through a dict (CPython
    3.11 compiles a call of more than 15 keywords to ``CALL_FUNCTION_EX`` with a dict of
    them, ~500 instructions a keyword): the cut stays made."""
    for ins in dis.get_instructions(fn):
        if ins.opname == "CALL_FUNCTION_EX":
            assert not ins.arg & 1, f"{fn.__name__}: a call with a dict of keywords " \
                f"(line {ins.positions.lineno if ins.positions else '?'})"


# --------------------------------------------------------------------------- replace


def _built(obj: Any, changes: dict[str, Any]) -> Any:
    """``replace`` as the record's own ``__init__`` makes it."""
    values = {f.name: changes.get(f.name, getattr(obj, f.name)) for f in fields(obj)
              if f.init}
    return type(obj)(**values)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_copy_of_whole_fights_is_the_record_its_init_makes(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each record of whole fights copied by ``replace`` (a Hits with its Levels and
    sources, a Plan) equals, field for field and in the same order, the record its
    ``__init__`` makes, in a table of its own; most are copied whole."""
    n = {"whole": 0, "copies": 0}

    def checking(obj: Any, **changes: Any) -> Any:
        whole = set(vars(obj)) == {f.name for f in fields(obj)}
        got = replace(obj, **changes)
        want = _built(obj, changes)
        assert got == want and type(got) is type(want)
        assert list(vars(got).items()) == list(vars(want).items())
        assert vars(got) is not vars(obj)
        n["copies"] += 1
        n["whole"] += whole
        return got

    monkeypatch.setattr(hits, "replace", checking)
    monkeypatch.setattr(policy, "replace", checking)
    _fights(pc, range(4))
    assert n["copies"] > 20 and n["whole"] > n["copies"] // 2


@record(frozen=False)
class _Loose:
    a: int
    b: str = "b"
    c: tuple[int, ...] = ()


def test_replace_copies_a_table_of_the_fields_alone_and_nothing_beside_them() -> None:
    """A table holding the fields alone is copied whole, a table of its own; a value
    kept beside the fields (a Card's notation, a value planted) is not carried into the
    copy; a table that lacks a field, even one holding as many keys, is refused as
    before (KeyError), never copied."""
    x = _Loose(1, "x", (2,))
    y = replace(x, b="y")
    assert y == _Loose(1, "y", (2,)) and list(vars(y)) == ["a", "b", "c"]
    y.a = 5  # its own table: the original is as it was
    assert x.a == 1 and vars(y) is not vars(x)
    card = parse_card("7S^")
    assert card.code == "7S^" and "code" in vars(card)  # kept beside the fields
    turned = replace(card, upper=False)
    assert "code" not in vars(turned) and turned.code == "7Sv"
    object.__setattr__(x, "planted", 1)  # beside the fields: not carried
    assert "planted" not in vars(replace(x, a=2)) and replace(x, a=2) == _Loose(2, "x", (2,))
    del x.__dict__["planted"]
    del x.__dict__["c"]  # a field gone, another key in its place: as many keys
    x.__dict__["other"] = 3
    with pytest.raises(KeyError):
        replace(x, a=2)
    del x.__dict__["other"]  # a field gone, nothing beside: fewer keys
    with pytest.raises(KeyError):
        replace(x, a=2)
