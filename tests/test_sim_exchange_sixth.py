"""The exchange's sixth cut gives what a fresh reading gives (issue 40 item 1): a
Conflict's sides kept for the very Unit they name, and ``replace`` storing a plain
record's fields itself — no result changed (tests/test_sim.py pins whole fights byte
for byte)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.board import derive
from d2d_cli.rules.combat import conflict, hits, situation
from d2d_cli.rules.core import record as record_
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.core.record import field, fields, record, replace
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.overview import scene
from d2d_cli.rules.units.roster import Unit, roster_view


def combat1() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def _fights(pc: str, runs: range) -> None:
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 5, runs, DEFAULTS, pc)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_side_of_whole_fights_names_the_unit_the_roster_holds_now(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights, each side ``parse_side`` gives equals one made afresh
    from its text and names the very Unit the roster holds for it at that moment; some
    are the side made before (the same text, the same live Unit), some made anew."""
    real = conflict.parse_side
    seen = {"kept": 0, "made": 0}
    before: dict[str, Any] = {}

    def checking(text: str, units: Any = None) -> conflict.SideSpec:
        got = real(text, units)
        named = conflict._named_play(text)
        if named is not None and conflict._play(text) is None:
            name, played = named
            assert got.unit is units[name]
            assert got == conflict.SideSpec(text, played.source, played.approach,
                                            played.card, units[name])
            seen["kept" if before.get(text) is got else "made"] += 1
            before[text] = got
        return got

    monkeypatch.setattr(conflict, "parse_side", checking)
    _fights(pc, range(6))
    assert seen["kept"] > 0 and seen["made"] > 0


def test_a_side_typed_again_for_another_unit_object_names_that_one() -> None:
    """The same ``NAME:PLAY`` read against a roster whose Unit of that name is another
    object — equal or changed — names that object, never the one read before."""
    conflict._UNIT_SIDES.clear()
    data = combat1()
    units = roster_view(data)
    first = conflict.parse_side("Archer:fast", units)
    assert conflict.parse_side("Archer:fast", units) is first  # the very Unit: kept
    other = {n: Unit.from_state(n, data["units"][n]) for n in data["units"]}
    again = conflict.parse_side("Archer:fast", other)
    assert again.unit is other["Archer"] and again is not first
    other["Archer"].extra["player"] = "Someone else"  # changed in place: still that Unit
    assert conflict.parse_side("Archer:fast", other).unit is other["Archer"]
    assert conflict.parse_side("archer:fast", units).unit is units["Archer"]  # folded
    with pytest.raises(Exception, match="Nobody"):
        conflict.parse_side("Nobody:fast", units)


def test_two_plays_read_no_unit_with_a_roster_given_or_not() -> None:
    """A Conflict of two plays names no unit: given the roster already built (a fight's)
    it reads the same as the command, which builds none."""
    data = combat1()
    for sides in (["fast", "7S^"], ["fate", "block"]):
        with_roster = conflict.ask(sides, data, roster=roster_view(data))
        without = conflict.ask(sides, data)
        assert with_roster.matchup == without.matchup
        assert with_roster.matchup.a.unit is None and with_roster.matchup.b.unit is None
        assert with_roster.situation == without.situation


# --------------------------------------------------------------------------- replace


def _built(obj: Any, changes: dict[str, Any]) -> Any:
    """``replace`` as the record's own ``__init__`` makes it (the path before the cut)."""
    values = {f.name: changes.get(f.name, getattr(obj, f.name)) for f in fields(obj)
              if f.init}
    return type(obj)(**values)


def test_every_hits_copy_of_whole_fights_is_the_record_its_init_makes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Hits of whole fights copied with its Levels and sources (``HitAsk.count``)
    equals, field for field and in the same order, the record its ``__init__`` makes."""
    n = {"copies": 0}

    def checking(obj: Any, **changes: Any) -> Any:
        got = replace(obj, **changes)
        want = _built(obj, changes)
        assert got == want and type(got) is type(want)
        assert list(got.__dict__.items()) == list(want.__dict__.items())
        n["copies"] += 1
        return got

    monkeypatch.setattr(hits, "replace", checking)
    _fights("best", range(4))
    assert n["copies"] > 10


@record
class _Plain:
    a: int
    b: str = "b"
    c: tuple[int, ...] = ()


@record
class _Posted:
    a: int
    b: int = 0

    def __post_init__(self) -> None:
        if self.a < 0:
            raise BadInput("a below 0")


@record
class _Derived:
    a: int
    b: int = 0
    total: int = field(default=-1, init=False)


def test_replace_copies_a_plain_record_and_leaves_the_others_to_their_init() -> None:
    """A plain record's copy holds its fields only (a Card's notation, kept on the card
    when first read, is worked out again for the card turned); a record with a
    ``__post_init__`` or a field its ``__init__`` sets itself is made by that
    ``__init__``; an unknown field is refused."""
    p = _Plain(1, "x", (2,))
    assert replace(p, b="y") == _Plain(1, "y", (2,)) and replace(p) == p
    assert replace(p) is not p
    card = parse_card("QH^")
    assert card.code == "QH^"  # kept on the card
    turned = replace(card, upper=False)
    assert turned.code == "QHv" and turned == card.flipped(False)
    assert hash(turned) == hash(card.flipped(False))
    with pytest.raises(BadInput, match="below 0"):
        replace(_Posted(1), a=-1)
    d = _Derived(1)
    assert replace(d, a=2).total == -1
    with pytest.raises(TypeError):
        replace(d, total=3)
    with pytest.raises(TypeError):
        replace(p, d=1)
    assert record_._plain(_Posted) == frozenset()
    assert record_._plain(_Plain) == frozenset({"a", "b", "c"})


# --------------------------------------------------------------------------- no closures


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_conflict_and_assessment_of_whole_fights_equals_a_fresh_one(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights, each Conflict asked through the fight's Assessor (its
    preparation remembered, made by ``conflict._prepare``) reads the same situation, the
    same Target's Action, Range and obstacles as the same ask made afresh with no
    Assessor, its Range and obstacles those of its own situation; and each assessment
    the Assessor answers equals ``assess`` of the same inputs made afresh."""
    real_ask, real_call = conflict.ask, situation.Assessor.__call__
    n = {"asks": 0, "assessments": 0, "ranges": 0}

    def asking(sides: list[str], data: dict[str, Any], *args: Any, **kw: Any) -> Any:
        got = real_ask(sides, data, *args, **kw)
        fresh = real_ask(sides, data, *args, **{**kw, "assessor": None})
        assert (got.situation, got.unspent, got.range, got.obstacles) == \
            (fresh.situation, fresh.unspent, fresh.range, fresh.obstacles)
        # the Range and the map's obstacles kept with the preparation, read afresh off
        # the ask's own terms and situation
        assert got.assessed is not None
        assert got.range == conflict._range_of(got.assessed.terms, got.situation)
        assert got.obstacles == conflict._obstacles(
            kw.get("obstacles") or derive.reveal_obstacles(got.situation.geometry),
            got.situation)
        n["ranges"] += got.range is not None
        n["asks"] += 1
        return got

    def assessing(self: Any, a: Any, b: Any, terms: Any, **kw: Any) -> Any:
        got = real_call(self, a, b, terms, **kw)
        assert got == situation.assess(a, b, terms, **kw)
        n["assessments"] += 1
        return got

    monkeypatch.setattr(conflict, "ask", asking)
    monkeypatch.setattr(situation.Assessor, "__call__", assessing)
    _fights(pc, range(5))
    assert n["asks"] > 50 and n["assessments"] > 20 and n["ranges"] > 20


# --------------------------------------------------------------------------- the Hits kept


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_hits_levels_of_whole_fights_equals_levels_read_afresh(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights, the Levels, Difficulty and its source each Hits reads
    through the fight's Assessor (remembered by the two units' readings, the Field, the
    [rules], what the round remembers of the two and the rest as given) equal the same
    read afresh: no Assessor, no Conflict's assessment shared; some are found
    remembered."""
    real, real_scored = hits.levels, hits._scored
    n = {"levels": 0, "made": 0}

    def reading(data: Any, **kw: Any) -> Any:
        got = real(data, **kw)
        fresh = real(data, **{**kw, "assessor": None, "shared": None})
        assert got == fresh
        n["levels"] += 1
        return got

    def scored(*args: Any) -> Any:
        n["made"] += 1
        return real_scored(*args)

    monkeypatch.setattr(hits, "levels", reading)
    monkeypatch.setattr(hits, "_scored", scored)
    _fights(pc, range(6))
    assert n["levels"] > 30
    assert n["made"] < 2 * n["levels"]  # the fresh ones, and fewer of the Assessor's


def test_a_hits_kept_for_two_units_is_not_read_for_other_terms_or_another_field() -> None:
    """The same two units scored again with other terms (another weapon's Range), on
    another Field, or after a change of the Rival's table read anew, not as remembered."""
    from d2d_cli.rules.assistant.engine import Table

    data = combat1()
    t = Table(copy.deepcopy(data), __import__("random").Random(1))
    live = t.live()
    a, b = "Archer", "Goblin Scout"
    kw: dict[str, Any] = {"by": a, "vs": b, "opts": DEFAULTS, "use_map": True,
                          "roster": live, "assessor": t._assess}
    first = hits.levels(t.data, **kw)
    assert hits.levels(t.data, **kw) == first
    ranged = situation.Terms(range=5)
    assert hits.levels(t.data, **{**kw, "terms": ranged}) == \
        hits.levels(t.data, **{**kw, "terms": ranged, "assessor": None})
    assert hits.levels(t.data, **{**kw, "terms": ranged})[0] != first[0]
    t.data["units"] = {**t.data["units"], b: {**t.data["units"][b],
                                             "conditions": {"fatigue": 2}}}
    live = t.live()
    got = hits.levels(t.data, **{**kw, "roster": live})
    assert got == hits.levels(t.data, **{**kw, "roster": live, "assessor": None})
    assert got[1:3] != first[1:3] or got[0] != first[0]
    # another Field: the Archer stands elsewhere (a Space is no part of a unit's
    # reading; the Field and its Range are)
    for space in ("I8", "H6", "I5"):
        units = t.data["units"]
        t.data["units"] = {**units, a: {**units[a], "space": space}}
        live = t.live()
        moved = hits.levels(t.data, **{**kw, "roster": live})
        assert moved == hits.levels(t.data, **{**kw, "roster": live, "assessor": None})
        assert moved[0] != got[0]  # the Range changed the Levels: not served as kept
