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
