"""Situational modifiers (issue 12 item 4): range bands, cover and the cover-target
reveal, high ground, flanking, confined, outnumbered, weapon scale — each with its
source line, from tables/modifiers.toml."""

from __future__ import annotations

import re
from typing import Any

from d2d_cli import tables
from tests.helpers import rule_text

_QUOTE = re.compile(r"(?:(000|001) )?l\.(\d+)(?:–(\d+))? \"([^\"]*)\"")


def _quotes(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [q for v in value.values() for q in _quotes(v)]
    return [value] if isinstance(value, str) and _QUOTE.search(value) else []


def test_every_quote_in_the_table_is_the_rule_text() -> None:
    # Each `source` (and `also`, `common`…) names a file and line(s) and quotes them:
    # every piece of the quote (split at " / " and "…") is on those lines, in order.
    texts = {k: [ln.replace("**", "").replace("\\*", "").strip()
                 for ln in rule_text(k).splitlines()] for k in ("000", "001")}
    checked = 0
    for value in _quotes(tables.load("modifiers")):
        book = None
        for m in _QUOTE.finditer(value):
            book = m.group(1) or book
            assert book is not None, value
            first, last = int(m.group(2)), int(m.group(3) or m.group(2))
            lines = " ".join(texts[book][first - 1:last])
            at = 0
            for piece in re.split(r" / |…", m.group(4)):
                piece = piece.strip()
                found = lines.find(piece, at)
                assert piece and found >= 0, (value, piece, lines)
                at = found + len(piece)
            checked += 1
    assert checked >= 20
