"""rules.core.by_identity: a value worked out once for the very object read — the weapons
text of the planners' keys (rules.assistant.movement.weapons_text) and a stat's stored text
(rules.units.roster) — never served for an equal but distinct object (issue 40 item 1)."""

from __future__ import annotations

from d2d_cli.rules.core import by_identity


def test_by_identity_works_out_once_per_object_and_never_serves_an_equal_one() -> None:
    """rules.core.by_identity: the same object read again is not worked out again; an
    equal but distinct one is (a fight's changed unit is a new table with its own text);
    past the limit the memory is emptied and every answer is still compute's."""
    calls: list[object] = []

    def compute(obj: list[int]) -> str:
        calls.append(obj)
        return repr(obj)

    text = by_identity(compute, 3)
    a, b = [1, 2], [1, 2]
    assert text(a) == "[1, 2]" and text(a) == "[1, 2]" and len(calls) == 1
    assert text(b) == "[1, 2]" and len(calls) == 2 and calls[1] is b
    many = [[n] for n in range(10)]
    for obj in many + many:
        assert text(obj) == repr(obj)
    assert len(calls) == 2 + 20  # the bound of 3 emptied the memory as it went
    assert text(many[-1]) == "[9]" and len(calls) == 22  # the last ones are remembered


def test_a_numbering_gives_equal_keys_one_number_and_never_reuses_one() -> None:
    from d2d_cli.rules.core import Numbering

    number = Numbering(3)
    a, b = number(("Archer", "4x1")), number(("Scout", "2x1"))
    assert a != b and number(("Archer", "4x1")) == a  # equal keys, not the same tuple
    c = number("third")
    given = {a, b, c}
    d = number("fourth")  # past the limit: the table is emptied, the numbering goes on
    assert d not in given
    again = number(("Archer", "4x1"))  # seen before the emptying: a new number, a miss
    assert again not in given | {d}
    number.forget()
    assert number("fourth") not in given | {d, again}
