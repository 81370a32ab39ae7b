"""The session file cut at its table headers: each chunk owned by its header's first one
or two keys (``[units."Goblin 1".skills]`` → ``("units", "Goblin 1")``; the text before
the first header by None). :mod:`.text` groups and splices the chunks; :mod:`.hunks`
diffs chunk by chunk."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

Owner = tuple[str, str | None] | None

# A table header's first one or two keys: [units."Goblin 1".skills] → units, Goblin 1.
_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_HEADER_RE = re.compile(rf"^[ \t]*\[\[?[ \t]*({_KEY})(?:[ \t]*\.[ \t]*({_KEY}))?", re.M)


def _unquote(key: str | None) -> str | None:
    if key is None or key[0] not in "\"'":
        return key
    if key[0] == "'" or "\\" not in key:
        return key[1:-1]
    import json  # a key with an escape: rare

    return str(json.loads(key))


def root_text(text: str) -> str:
    """The text before the first table header (where ``schema`` is)."""
    m = _HEADER_RE.search(text)
    return text if m is None else text[:m.start()]


def split(text: str) -> list[list[Any]]:
    """``[[owner, chunk_text], …]``: the text cut before each header-looking line."""
    chunks: list[list[Any]] = []
    owner: Owner = None
    start = 0
    for m in _HEADER_RE.finditer(text):
        chunks.append([owner, text[start:m.start()]])
        owner = (str(_unquote(m.group(1))), _unquote(m.group(2)))
        start = m.start()
    chunks.append([owner, text[start:]])
    return chunks


def owners(text: str) -> Iterator[tuple[str | None, str | None]]:
    """The first one or two keys (unquoted) of each header-looking line of ``text``."""
    for m in _HEADER_RE.finditer(text):
        yield _unquote(m.group(1)), _unquote(m.group(2))
