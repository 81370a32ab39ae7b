"""The init ``@record`` writes out for a class in use, the generic init and
:func:`replace` each put the instance's whole table in place at once (a dict of its own,
not a field stored at a time into the one ``self.__dict__`` gives: issue 40, the
exchange's seventh cut). The written init must make exactly the instance the generic
init makes — the same fields, the same values, in the same order, a factory's value
fresh for each, ``__post_init__`` run after every field is in place — for the test
module's own shapes and for the rules' records a fight makes most; and a copy by
:func:`replace` what an init makes with the same values."""

from __future__ import annotations

from typing import Any

import pytest

from d2d_cli.rules.core import record as record_module
from d2d_cli.rules.core.record import field, record, replace


@record
class _Base:
    a: int
    tags: list[str] = field(default_factory=list)


@record(kw_only=True)
class _Shapes(_Base):
    b: str
    c: int = 7
    fixed: int = field(default=3, init=False)
    made: list[int] = field(default_factory=list, init=False)
    later: int = field(init=False)

    def __post_init__(self) -> None:  # sees every field already in place
        object.__setattr__(self, "later", self.a + self.c + len(self.__dict__))


def _both(cls: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any, Any]:
    """One instance made by the generic init, two by the one init written for ``cls``."""
    generic = object.__new__(cls)
    record_module._generic_init(generic, *args, **kwargs)
    written = record_module._specialize(cls)
    assert written is not None
    fast, again = object.__new__(cls), object.__new__(cls)
    written(fast, *args, **kwargs)
    written(again, *args, **kwargs)
    return generic, fast, again


def _table(obj: Any) -> list[tuple[str, Any]]:
    return list(obj.__dict__.items())


@pytest.mark.parametrize(("args", "kwargs"), [
    ((1,), {"b": "x"}),
    ((1, ["t"]), {"b": "x", "c": 9}),
    ((), {"a": 2, "b": "y", "tags": []}),
])
def test_the_written_init_makes_what_the_generic_init_makes(
        args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    generic, fast, again = _both(_Shapes, *args, **kwargs)
    assert _table(fast) == _table(generic)  # the same fields, values and order
    assert fast == generic
    assert fast.later == fast.a + fast.c + 6  # all six stored fields in place before __post_init__
    assert again.made is not fast.made  # a factory's value is each instance's own
    with pytest.raises(AttributeError):
        fast.a = 5  # type: ignore[misc]


def _rules_records() -> list[tuple[Any, dict[str, Any]]]:
    """Records a simulated fight makes hundreds of a fight, with their fields."""
    from d2d_cli.rules.combat.conflict import Side
    from d2d_cli.rules.combat.crits import Severity
    from d2d_cli.rules.deck.cards import parse_card

    card = parse_card("7S^")
    return [
        (Side, {"input": "Goblin:fast", "source": "approach", "approach": "fast",
                "card": card, "level": 2, "unit": "Goblin", "revealed": (card,)}),
        (Severity, {"level": "minor", "rotations": 0, "remaining": 0}),
        (type(card), {f.name: getattr(card, f.name) for f in record_module.fields(card)
                      if f.init}),
    ]


@pytest.mark.parametrize("index", range(3))
def test_the_rules_records_are_made_alike_by_both_inits(index: int) -> None:
    cls, values = _rules_records()[index]
    generic, fast, _ = _both(cls, **values)
    assert _table(fast) == _table(generic)
    assert replace(fast) == generic and _table(replace(fast)) == _table(generic)


@pytest.mark.parametrize("table", [{}, {"evade": "000", "hit_location": "000"}])
def test_options_copied_by_replace_hold_what_their_init_makes(table: dict[str, Any]) -> None:
    """A ``[rules]`` table's Options are the defaults copied by :func:`replace` with the
    keys put in (its own table too): the very fields, values and order an init makes."""
    from d2d_cli.rules.core.options import DEFAULTS, Options, parse

    def fields_of(obj: Any) -> list[tuple[str, Any]]:
        # an Options keeps its hash beside its fields once read (rules.core.options)
        return [(k, v) for k, v in _table(obj) if k != "_hash"]

    generic, fast, _ = _both(Options, **table)
    for got in (parse(table), replace(DEFAULTS, **table)):
        assert fields_of(got) == fields_of(generic) == fields_of(fast)
        assert [k for k, _ in _table(got)] in ([k for k, _ in fields_of(got)],
                                              [*(k for k, _ in fields_of(got)), "_hash"])
        assert got == Options(**table) and hash(got) == hash(generic)
