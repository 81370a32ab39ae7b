"""``TupleRecord``, the base that makes a ``typing.NamedTuple`` class with
``collections.namedtuple`` (rules.core.record): every behaviour the rules rely on —
fields, defaults, methods, docstring, ``_replace``/``_asdict``, equality, hashing,
pickling, the refusal of a required field after a defaulted one — checked against
``typing.NamedTuple`` itself, the oracle."""

from __future__ import annotations

import pickle
from typing import NamedTuple

import pytest

from d2d_cli.rules.core.record import TupleRecord


class Cheap(TupleRecord):
    """Two sides and a note."""

    a: int
    b: str | None = None
    seen: tuple[str, ...] = ()

    def both(self) -> str:
        return f"{self.a}{self.b}"

    @property
    def seen_count(self) -> int:
        return len(self.seen)


class Typed(NamedTuple):
    """Two sides and a note."""

    a: int
    b: str | None = None
    seen: tuple[str, ...] = ()

    def both(self) -> str:
        return f"{self.a}{self.b}"

    @property
    def seen_count(self) -> int:
        return len(self.seen)


@pytest.mark.parametrize("args", [(1,), (1, "x"), (1, "x", ("p", "q"))])
def test_it_builds_and_reads_as_typing_namedtuple(args: tuple[object, ...]) -> None:
    cheap, typed = Cheap(*args), Typed(*args)  # type: ignore[arg-type]
    assert tuple(cheap) == tuple(typed)
    assert cheap._fields == typed._fields
    assert cheap._field_defaults == typed._field_defaults
    assert cheap._asdict() == typed._asdict()
    assert cheap.both() == typed.both() and cheap.seen_count == typed.seen_count
    assert tuple(cheap._replace(b="y")) == tuple(typed._replace(b="y"))
    assert repr(cheap) == repr(typed).replace("Typed", "Cheap")
    assert hash(cheap) == hash(tuple(typed)) and cheap == tuple(typed)
    assert isinstance(cheap, tuple)


def test_keywords_doc_and_names_are_the_class_statement_s() -> None:
    assert Cheap(a=2, seen=("z",)) == (2, None, ("z",))
    assert Cheap.__doc__ == Typed.__doc__
    assert Cheap.__name__ == "Cheap" and Cheap.__qualname__ == "Cheap"
    assert Cheap.__module__ == __name__
    with pytest.raises(TypeError):
        Cheap()  # type: ignore[call-arg]  # a required field stays required
    with pytest.raises(AttributeError):
        Cheap(1).a = 3  # type: ignore[misc]  # immutable, as a NamedTuple


def test_a_value_pickles_back_to_its_class() -> None:
    value = Cheap(3, "b", ("s",))
    back = pickle.loads(pickle.dumps(value))
    assert back == value and type(back) is Cheap


def test_a_required_field_after_a_defaulted_one_is_refused_as_by_typing() -> None:
    with pytest.raises(TypeError):
        class Typed2(NamedTuple):
            a: int = 0
            b: int  # type: ignore[misc]
    with pytest.raises(TypeError, match="follows one with a default"):
        class Cheap2(TupleRecord):
            a: int = 0
            b: int  # type: ignore[misc]


def test_what_typing_refuses_is_refused_and_nothing_is_dropped_unseen() -> None:
    """typing.NamedTuple refuses a body that redefines its machinery; a TupleRecord too,
    and a second base (a mixin, Generic) that collections.namedtuple would drop, and a
    class body without its annotations (Python 3.14 without the future import keeps
    them in a function, not in the namespace: the fields would be lost)."""
    with pytest.raises(AttributeError):
        class Typed3(NamedTuple):
            a: int

            def _replace(self) -> None: ...  # type: ignore[override]
    with pytest.raises(TypeError, match="_replace"):
        class Cheap3(TupleRecord):
            a: int

            def _replace(self) -> None: ...  # type: ignore[override]

    class Mixin:
        pass

    with pytest.raises(TypeError, match="one base"):
        class Cheap4(TupleRecord, Mixin):  # type: ignore[misc]
            a: int
    with pytest.raises(TypeError, match="__future__"):
        type(TupleRecord)("Cheap5", (TupleRecord,), {"__module__": __name__,
                                                    "__annotate__": lambda fmt: {"a": int}})


def test_the_rules_tuples_are_made_this_way() -> None:
    """The rules' tuples (the four a conflict of two cards imports among them): their
    classes are namedtuples made without typing's check of each annotation."""
    from d2d_cli.rules.combat.crits import _Harm, _Prepared, _Rated, _Source
    from d2d_cli.rules.combat.remembered import Recalled
    from d2d_cli.rules.combat.situation import Assessed, Situation, Terms
    from d2d_cli.rules.odds.sides import Sides
    from d2d_cli.rules.odds.walk import _Categories

    for cls in (Terms, Situation, Assessed, Recalled, Sides, _Categories, _Prepared, _Source,
                _Rated, _Harm):
        assert issubclass(cls, tuple) and cls._fields
        # typing.NamedTuple keeps its strings; reading the attribute may leave {} here
        assert cls.__dict__.get("__annotations__") in (None, {})


def test_no_class_of_the_package_is_a_typing_namedtuple() -> None:
    """A new tuple type is a TupleRecord (what a conflict's start-up pays for the other
    way is in docs/architecture.md "Records, not dataclasses")."""
    import ast
    from pathlib import Path

    import d2d_cli

    found = [f"{path.name}:{node.lineno} {node.name}"
             for path in sorted(Path(d2d_cli.__file__).parent.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text("utf-8")))
             if isinstance(node, ast.ClassDef)
             and any(ast.unparse(b).split(".")[-1] == "NamedTuple" for b in node.bases)]
    assert found == []
