"""The plain printer's way for one object's line without styles (``plain._text``; a piped
dashboard of 1,000 units prints ~4,000 of them): the text, or NotPlain, that its
general way gives for the same runs — which ``tests/test_plain.py`` compares with
Rich."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from d2d_cli import plain
from tests.test_plain import PIECES


def _text(objects: tuple[str, ...], sep: str, width: int | None) -> object:
    try:
        return plain._text(objects, sep, "\n", False, False, width)
    except plain.NotPlain:
        return plain.NotPlain


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES + ["Goblin 5", " → ", "é", "漢", "\t", "\x1b",
                                          "[bold]Goblin 5[/] → Archer", "  ", "e\u0301"]),
                max_size=6),
       st.sampled_from([None, 8, 20, 80]))
@example(["[bold]Goblin 5[/] → Archer"], 80)
@example(["x", " "], None)
@example(["[bold]", "x ", "[/]"], 80)
@example(["漢"], 80)
def test_one_line_prints_as_the_general_way(pieces: list[str], width: int | None) -> None:
    markup = "".join(pieces)
    # The same runs through the general way: a second, empty object joined by no
    # separator adds nothing to the line.
    assert _text((markup,), " ", width) == _text((markup, ""), "", width), (markup, width)
    plain.runs.cache_clear()
    plain._cells.cache_clear()
