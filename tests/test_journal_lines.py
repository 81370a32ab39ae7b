"""The journal read backwards (``journal._lines_backward``, what ``session log``, undo
and ``session export`` read): every complete line with its offset, the last first, a
torn tail never — whatever the block size, however the lines fall across the blocks
(issue 40 item 3: the reader no longer cuts its buffer at each line)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from d2d_cli.session import journal


def _expected(data: bytes) -> list[tuple[int, bytes]]:
    """The complete lines of ``data`` (up to its last newline) and their offsets, the
    last first — derived by a plain forward split."""
    cut = data.rfind(b"\n")
    out, pos = [], 0
    for line in data[:cut + 1].split(b"\n")[:-1] if cut >= 0 else []:
        out.append((pos, line))
        pos += len(line) + 1
    return out[::-1]


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64, 1 << 16])
def test_every_complete_line_the_last_first(tmp_path: Path, block: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal, "_BLOCK", block)
    rng = random.Random(block)
    path = tmp_path / "j"
    for case in range(60):
        lines = [bytes(rng.choice(b"ab {}\"") for _ in range(rng.choice((0, 1, 5, 40, 300))))
                 for _ in range(rng.randrange(0, 12))]
        data = b"".join(x + b"\n" for x in lines)
        if case % 3 == 0:
            data += b"torn tail" * rng.randrange(0, 3)  # a write cut short
        path.write_bytes(data)
        fd = os.open(path, os.O_RDONLY)
        try:
            got = list(journal._lines_backward(fd, len(data)))
        finally:
            os.close(fd)
        assert got == _expected(data), (block, data)
        if lines and case % 3:
            assert got[-1] == (0, lines[0]) and got[0][1] == lines[-1]


def _outcome(read: object, line: bytes) -> object:
    try:
        return ("value", read(line))  # type: ignore[operator]
    except (ValueError, RecursionError) as e:
        return ("error", type(e).__name__)


LINES = [
    b'{"v":2,"id":1,"op":"do","at":"2026-01-01T00:00:00+00:00","command":"fate draw 2"}',
    '{"summary":"revealed Q\u2665\u2191","n":[1,2.5,-3e2,true,null]}'.encode(),
    b'  {"a":1}', b'{"a":1}  ', b'{"a":1}\t', b'{"a":1} {"b":2}', b'{"a":1}x', b"",
    b" ", b"[]", b"1", b'"text"', b"NaN", b"-Infinity", b"{", b'{"a":}',
    b"\xef\xbb\xbf" + b'{"a":1}',  # a UTF-8 BOM
    '{"a":"\u00e9"}'.encode("utf-16"), '{"a":1}'.encode("utf-16-le"),
    '{"a":1}'.encode("utf-32-be"), b'{"a":"\xff"}', b'{"a":"\xc3"}',
    b"[" * 100_000 + b"]" * 100_000,  # deeper than the parser goes
    b'{"a":1}\x00', b"1\x00",
]


@pytest.mark.parametrize("line", LINES)
def test_a_lines_json_reads_as_json_loads_reads_it(line: bytes) -> None:
    """The journal's fast reading of a line's JSON gives json.loads's value or its
    kind of error, for the lines d2d writes and for anything a hand or another program
    may have put there."""
    import json

    assert _outcome(journal._json, line) == _outcome(json.loads, line)


def test_every_entry_of_a_journal_reads_as_before(tmp_path: Path) -> None:
    import json

    rng = random.Random(40)
    for _ in range(300):
        entry = {"v": 2, "id": rng.randrange(10**6), "op": rng.choice(journal.OPS),
                 "at": "2026-01-01T00:00:00+00:00",
                 "command": "".join(rng.choice("ab \"\\é♥\n\t{}") for _ in range(12)),
                 "summary": rng.choice(["", "revealed 7S^", "x" * 50])}
        line = journal.encode(entry)[9:-1]
        assert journal._json(line) == json.loads(line) == entry



_GOOD = {"v": 2, "id": 3, "op": "do", "at": "2026-01-01T00:00:00+00:00",
         "command": "fate draw 2", "summary": "revealed QH^",
         "h0": "0123456789abcdef" * 2, "h1": "fedcba9876543210" * 2,
         "d": [[0, "a", "b"], [5, "", "c"]]}
_DROP = object()  # the key left out of the entry


@pytest.mark.parametrize(("change", "problem"), [
    ({}, None),
    (dict.fromkeys(("at", "command", "summary", "h0", "h1", "d"), _DROP), None),
    ({"v": 1}, "version 1, not 2"), ({"v": True}, "version True, not 2"),
    ({"v": _DROP}, "version None, not 2"),
    ({"op": "cut"}, "unknown op 'cut'"), ({"id": -1}, "its id is not a whole number"),
    ({"id": "3"}, "its id is not a whole number"), ({"command": 3}, "command is not text"),
    ({"summary": None}, "summary is not text"), ({"at": ["x"]}, "at is not text"),
    ({"h0": "0123456789ABCDEF" * 2}, "h0 is not a digest"),
    ({"h1": "abc"}, "h1 is not a digest"), ({"h1": 7}, "h1 is not a digest"),
    ({"h0": None}, "h0 is not a digest"),
    ({"op": "undo", "d": _DROP}, "ref is not an entry's id"),
    ({"op": "redo", "ref": 2, "d": _DROP}, None),
    ({"op": "undo", "ref": -2, "d": _DROP}, "ref is not an entry's id"),
    ({"h1": _DROP}, "hunks without the digests they go between"),
    ({"d": {}}, "its hunks are not a list"),
    ({"d": [[5, "ab", "c"], [6, "", "x"]]},
     "a hunk is not [offset, old text, new text] in order"),
])
def test_an_entrys_structure_problem(change: dict[str, object], problem: str | None) -> None:
    """What a line with a good CRC but a bad structure is refused for (issue 30 item 5),
    now that each key is looked up once (issue 40 item 3): an absent optional key is
    whole, a present one of the wrong kind is not — and the reader says the same."""
    entry = {k: v for k, v in {**_GOOD, **change}.items() if v is not _DROP}
    assert journal._problem(entry) == problem
    got = journal.decode(journal.encode(entry).rstrip(b"\n"))
    kept_id = entry["id"] if type(entry.get("id")) is int else None
    assert got == (entry if problem is None else {"bad": problem, "id": kept_id})
