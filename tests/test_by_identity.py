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
