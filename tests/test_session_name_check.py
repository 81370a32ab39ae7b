"""The session-name check (``session.names.is_name``) is the pattern the help states,
``[A-Za-z0-9][A-Za-z0-9_.-]{0,63}``, checked by sets rather than a regex compiled at
every command's start (issue 40): proved the same on every string of one and two
characters over an alphabet with each kind of edge, and at the length limit."""

from __future__ import annotations

import itertools
import re

from d2d_cli.session.names import is_name

PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
# letters and digits at each end of their ranges, the three marks allowed, and what lies
# next to them ('/', '@', '[', '`', '{'), a space, a backslash, a colon, non-ASCII
# letters and digits (é, ٩, ÿ — \w would take them), a newline, a NUL
EDGES = "AZaz09_.-/ \\:@[`{é٩\n\x00ÿ"


def test_every_short_string_is_judged_as_the_pattern_judges_it() -> None:
    seen = 0
    for n in (0, 1, 2, 3):
        for chars in itertools.product(EDGES, repeat=n):
            s = "".join(chars)
            assert is_name(s) == bool(PATTERN.fullmatch(s)), repr(s)
            seen += 1
    assert seen == sum(len(EDGES) ** n for n in (0, 1, 2, 3))


def test_the_length_limit_is_64() -> None:
    for n in (63, 64, 65, 200):
        for s in ("a" * n, "a" + "-" * (n - 1), "9" + "._" * n):
            s = s[:n]
            assert is_name(s) == bool(PATTERN.fullmatch(s)) == (n <= 64), (n, s[:3])
