"""``Field.derive_named`` remembers a Geometry by the two units, the attack and what was
typed: with nothing typed (every Conflict of a fight) its key's typed part is built
once (``derive._UNTYPED``) — the same key a mapping of Nones gives, never the key of a
value typed (docs/rules.md: a value typed is kept and said to override the map)."""

from __future__ import annotations

import pytest

from d2d_cli.rules.board import derive
from tests.test_sim_turn_speed import combat1

A, B = "Archer", "Goblin Scout"


def _fresh() -> derive.Field:
    f = derive.field(combat1()[0])
    assert f is not None
    return derive.Field(f.board, f.places, f.cover_reading)  # nothing remembered yet


def test_nothing_typed_is_one_key_however_it_is_given() -> None:
    f = _fresh()
    untyped = f.derive_named(A, B, "ranged")
    assert untyped is not None
    assert f.derive_named(A, B, "ranged", {}) is untyped
    assert f.derive_named(A, B, "ranged", dict.fromkeys(derive.TYPED)) is untyped
    assert f.derive_named(A, B, "ranged", {"not_an_option": 3}) is untyped  # not read
    assert f.derive_named(B, A) is not untyped  # the other way round, no attack: another


@pytest.mark.parametrize("option", sorted(derive.TYPED))
@pytest.mark.parametrize("typed_first", [False, True])
def test_a_typed_value_is_never_given_the_untyped_geometry(option: str,
                                                           typed_first: bool) -> None:
    """Either order: the Geometry with ``option`` typed says it is typed and gives no
    value of the map for it; the one with nothing typed keeps the map's source."""
    f = _fresh()
    if typed_first:
        typed = f.derive_named(A, B, None, {option: 1})
        untyped = f.derive_named(A, B)
    else:
        untyped = f.derive_named(A, B)
        typed = f.derive_named(A, B, None, {option: 1})
    assert typed is not None and untyped is not None and typed is not untyped
    assert typed.sources[option].startswith(f"typed: {derive.TYPED[option]} 1 (the map: ")
    assert option not in typed.terms
    assert not untyped.sources[option].startswith("typed")
    assert f.derive_named(A, B) is untyped and f.derive_named(A, B, None, {option: 1}) is typed
