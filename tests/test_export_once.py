"""The story's export works each thing out once (issue 40): a card code's reading is
remembered by the code (``export._SYMBOLS``), each distinct time of the journal is put
in the machine's zone once per export (``export._locals``). What they remember is only
ever given back for the same code or the same time."""

from __future__ import annotations

import itertools
import re

import pytest

from d2d_cli.operations import export as E

RANKS = ("10", "2", "3", "4", "5", "6", "7", "8", "9", "A", "J", "Q", "K", "BW", "RW")


def _before(text: str) -> str:
    """``symbols`` as it was before it remembered codes (each match read afresh)."""
    def one(m: re.Match[str]) -> str:
        rank, letter, arrow = m.group(1), m.group(2), m.group(3)
        if rank in ("BW", "RW") and letter:
            return m.group(0)
        if rank not in ("BW", "RW") and not letter:
            return m.group(0)
        return rank + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}.get(letter, "") + \
            {"^": "↑", "v": "↓"}.get(arrow, "")
    return E._CARD.sub(one, text)


@pytest.mark.parametrize("order", ["forward", "backward"])
def test_every_code_reads_as_it_did_whatever_was_read_before(order: str) -> None:
    """All 225 codes, alone and in a sentence, in two orders (each code's reading is
    remembered by the first call that meets it): the same text as the reading before."""
    E._SYMBOLS.clear()
    codes = list(itertools.product(RANKS, ("", "C", "D", "H", "S"), ("", "^", "v")))
    for rank, letter, arrow in codes if order == "forward" else codes[::-1]:
        code = rank + letter + arrow
        assert E.symbols(code) == _before(code), code
        text = f"revealed {code}; x{code} {code}'s ({code}) {code}y '{code}"
        assert E.symbols(text) == _before(text), text
    assert set(E._SYMBOLS) <= {"".join(c) for c in codes}  # a code, never a sentence
    assert E.symbols("revealed KS^ 2Hv BW^ 7C QH BWS 10") == "revealed K♠↑ 2♥↓ BW↑ 7♣ Q♥ BWS 10"


def test_each_line_gets_its_own_time() -> None:
    """Lines of three times, two of them repeated, and one that is no time: each line
    shows its own time in the machine's zone, as Line.local gives it alone."""
    ats = ["2026-01-01T10:05:00+00:00", "2026-07-01T23:59:59+00:00",
           "2026-01-01T10:05:00+00:00", "not a time", "2026-03-29T01:30:00+00:00",
           "2026-07-01T23:59:59+00:00"]
    lines = [E.Line("fate", at, 0, f"drew {i}", "fate draw") for i, at in enumerate(ats)]
    story = E.Story("t", "t", lines, 0, ats[0], ats[-1])
    shown = [ln for ln in story.body().splitlines() if ln.startswith("- ")]
    assert shown == [f"- {ln.local()} **Fate**: drew {i}" for i, ln in enumerate(lines)]
    assert re.fullmatch(r"- \d\d:\d\d \*\*Fate\*\*: drew 0", shown[0])
    assert shown[3] == "- not a time **Fate**: drew 3"
    assert [f"<li>{ln.local()} " in story.html() for ln in lines] == [True] * 6
