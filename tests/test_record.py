"""``@record``, the cheap stand-in for ``@dataclass(frozen=True)`` that every rules value
type uses: each behaviour the rules rely on, checked against the standard decorator."""

from __future__ import annotations

import dataclasses

import pytest

from d2d_cli.rules.core import record as record_module
from d2d_cli.rules.core.record import FrozenError, field, fields, record, replace
from d2d_cli.rules.core.result import Result, hidden, renamed


@pytest.fixture(autouse=True, params=["written out", "generic"])
def init_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every behaviour with each of a record's two inits: the one written out for its
    class (its first instance on), and the generic one it is made by until it has made
    ``_SPECIALIZE_AFTER`` instances (never, here)."""
    after = 0 if request.param == "written out" else 10**9
    monkeypatch.setattr(record_module, "_SPECIALIZE_AFTER", after)
    for value in list(globals().values()):  # this module's records start afresh
        if isinstance(value, type) and "__record_fields__" in value.__dict__:
            value.__init__ = record_module._init  # type: ignore[misc]
            if "__record_made__" in value.__dict__:
                delattr(value, "__record_made__")
    return str(request.param)


@record
class Point:
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)


@record(kw_only=True)
class Labelled(Point):
    label: str


@record
class Derived:
    a: int
    b: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "b", self.a * 2)


@record(order=True)
class Ranked:
    rank: int
    name: str = ""


@record(frozen=False, eq=False)
class Mutable:
    n: int = 0


@record
class Shown(Result):
    total: int
    detail: str = hidden("")
    from_: int = renamed("from", 0)


@dataclasses.dataclass(frozen=True)
class PointDC:
    x: int
    y: int = 0
    tags: list[str] = dataclasses.field(default_factory=list)


def test_construction_matches_dataclass() -> None:
    for args, kwargs in [((1,), {}), ((1, 2), {}), ((), {"x": 3, "y": 4}), ((5,), {"y": 6})]:
        ours, theirs = Point(*args, **kwargs), PointDC(*args, **kwargs)
        assert (ours.x, ours.y, ours.tags) == (theirs.x, theirs.y, theirs.tags)
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=[])"
    assert [f.name for f in fields(Point)] == [f.name for f in dataclasses.fields(PointDC)]


def test_default_factory_gives_each_instance_its_own_value() -> None:
    a, b = Point(1), Point(2)
    a.tags.append("x")
    assert b.tags == []


@pytest.mark.parametrize("call", [
    lambda: Point(),
    lambda: Point(1, 2, [], 4),
    lambda: Point(1, x=2),
    lambda: Point(1, z=2),
    lambda: Labelled(1),
    lambda: Labelled(1, "no"),
    lambda: Derived(1, 2),
])
def test_wrong_arguments_are_refused_as_by_dataclass(call: object) -> None:
    with pytest.raises(TypeError):
        call()  # type: ignore[operator]


def test_inherited_fields_come_first_and_kw_only_stays_keyword() -> None:
    p = Labelled(1, 2, label="here")
    assert (p.x, p.y, p.label) == (1, 2, "here")
    assert [f.name for f in fields(Labelled)] == ["x", "y", "tags", "label"]


def test_frozen_equality_and_hash() -> None:
    p = Point(1, 2)
    with pytest.raises(FrozenError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.y
    assert Point(1, 2) == Point(1, 2) and Point(1, 2) != Point(1, 3)
    assert Point(1, 2) != Labelled(1, 2, label="")  # another class is never equal
    assert len({Ranked(1, "a"), Ranked(1, "a"), Ranked(2)}) == 2


def test_post_init_and_init_false() -> None:
    assert Derived(4).b == 8


def test_order() -> None:
    assert sorted([Ranked(2, "b"), Ranked(1, "z"), Ranked(2, "a")]) == [
        Ranked(1, "z"), Ranked(2, "a"), Ranked(2, "b")]
    assert Ranked(1) < Ranked(1, "a") <= Ranked(1, "a")


def test_mutable_records_keep_identity() -> None:
    m = Mutable()
    m.n = 3
    assert m.n == 3 and m != Mutable(3)


def test_replace_keeps_what_is_not_named() -> None:
    p = Labelled(1, 2, ["t"], label="a")
    q = replace(p, y=5)
    assert (q.x, q.y, q.tags, q.label) == (1, 5, ["t"], "a") and p.y == 2
    assert replace(Derived(2), a=3).b == 6  # init=False fields are worked out again


def test_json_view_hides_and_renames() -> None:
    assert Shown(3, "why", 2).to_json() == {"total": 3, "from": 2}


def test_a_mutable_default_is_refused_as_by_dataclass() -> None:
    with pytest.raises(ValueError, match="default_factory"):
        @record
        class Bad:
            tags: list[str] = []  # noqa: RUF012


def test_a_class_gets_its_own_init_once_it_is_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40: a one-shot command made a handful of instances of most record types
    it used and compiled an init for each; now the generic init makes the first
    ``_SPECIALIZE_AFTER`` and the class's own is written for the rest."""
    monkeypatch.setattr(record_module, "_SPECIALIZE_AFTER", 3)

    @record
    class Few:
        a: int
        b: str = "x"

    made = [Few(i) for i in range(3)]
    assert Few.__init__ is record_module._init  # not written yet
    made.append(Few(3, b="y"))
    assert Few.__init__ is not record_module._init  # written on the fourth
    assert [(f.a, f.b) for f in made] == [(0, "x"), (1, "x"), (2, "x"), (3, "y")]
    assert Few(4) == Few(4) and Few(5, "z").b == "z"


def test_a_body_without_its_annotations_is_refused_not_made_fieldless() -> None:
    """Python 3.14 keeps a class body's annotations in a function (``__annotate_func__``
    in the class's namespace; PEP 649's ``__annotate__``), not in ``__annotations__``,
    unless the module has ``from __future__ import annotations``: a record read from the
    namespace alone would get no fields at all, silently (the TupleRecord refuses the
    same body: tests/test_tuple_record.py). A body compiled here without the future
    import is refused on a Python that keeps its annotations so, and a record of its one
    field on one that does not."""
    import sys

    for name in ("__annotate_func__", "__annotate__"):
        body = {"__module__": __name__, name: lambda fmt: {"a": int}}
        with pytest.raises(TypeError, match="__future__"):
            record(type("Lost", (), body))
    space: dict[str, object] = {}
    exec(compile("class Plain:\n    a: int\n", "<no future import>", "exec",
                 dont_inherit=True), space)
    if sys.version_info >= (3, 14):
        with pytest.raises(TypeError, match="__future__"):
            record(space["Plain"])
    else:
        assert [f.name for f in fields(record(space["Plain"]))] == ["a"]

    @record
    class Kept:  # this module has the future import: the strings are in the namespace
        a: int

    assert [f.name for f in fields(Kept)] == ["a"]


@record(keep_hash=True)
class Kept:
    name: str
    level: int = 1


def test_keep_hash_keeps_the_fields_hash_and_leaves_it_out_of_copies_and_pickles() -> None:
    """``keep_hash=True`` (a Card, the ``[rules]`` Options): the hash is the one the
    fields give, worked out on the first read and kept in the instance's table; a
    ``replace`` copy, a pickle and a deep copy bring none of it along (another process
    salts its strings otherwise); a mutable record cannot keep one."""
    import copy
    import pickle

    k = Kept("Archer", 3)
    assert "_hash" not in k.__dict__
    assert hash(k) == hash(("Archer", 3)) == hash(Kept("Archer", 3))
    assert k.__dict__["_hash"] == hash(("Archer", 3))
    k.__dict__["_hash"] = 7  # as another process's salt would give
    assert hash(k) == 7  # kept: not worked out again
    for made in (replace(k, level=3), pickle.loads(pickle.dumps(k)), copy.deepcopy(k)):
        assert made == k and "_hash" not in made.__dict__
        assert hash(made) == hash(("Archer", 3))
    with pytest.raises(TypeError, match="keep_hash"):
        record(frozen=False, keep_hash=True)(type("Loose", (), {"__annotations__": {}}))
