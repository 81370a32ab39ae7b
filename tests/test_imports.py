"""What a one-shot lookup imports: the speed budget (DESIGN.md "Budgets") is mostly paid
in imports, so the heavy or needless ones are kept out of the common lookups by test
(timings are measured by bench/, never asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import in_fresh_process

HEAVY = {"rich", "tomlkit", "tomllib", "json", "random", "fractions", "secrets",
         "hashlib", "dataclasses"}


def _imported(tmp_path: Path, *argv: str) -> set[str]:
    """The top-level modules of HEAVY that ``d2d ARGV`` imports on a session d2d has
    read before, in a fresh interpreter (the session's cache and the rule tables' copies
    warm, as they are from a Narrator's second command on)."""
    _, loaded = in_fresh_process(str(tmp_path / "s.toml"),
                                 [["fate", "status"],  # creates the session
                                  list(argv)],  # warms what it reads
                                 list(argv))
    return {m.split(".")[0] for m in loaded} & HEAVY


@pytest.mark.parametrize(("argv", "allowed"), [
    (("fate", "status"), set()),
    (("fate", "status", "--json"), {"json"}),
    (("session", "path"), set()),
    (("task", "list"), set()),
    (("unit", "list"), {"fractions"}),  # scale: the Move a Speed gives
    (("conflict", "strong", "block"), set()),
])
def test_a_lookup_imports_nothing_it_does_not_use(tmp_path: Path, argv: tuple[str, ...],
                                                  allowed: set[str]) -> None:
    assert _imported(tmp_path, *argv) <= allowed


# A lookup reads the session through the facade's lazy names (session/__init__.py,
# PEP 562): the modules behind undo and redo (history) and the shape check of a file met
# for the first time (shape) are not loaded when the cache answers; the clock's dice
# are read only when a chance is typed or a Random Event is read (issue 40 item 3).
# Nor the writing side (issue 40 item 3, the fourth round): a lookup's scope holds no
# change, so neither the commit, the edit, a fresh session's making, the lock nor the
# text splicer (text, headers, hunks, tomltext) is imported (~4 ms a lookup paid).
NOT_FOR_A_READ = {"d2d_cli.session.history", "d2d_cli.session.shape"}
WRITE_SIDE = {"d2d_cli.session.commit", "d2d_cli.session.transact", "d2d_cli.session.fresh",
              "d2d_cli.session.lock", "d2d_cli.session.text", "d2d_cli.session.headers",
              "d2d_cli.session.hunks", "d2d_cli.session.tomltext"}


@pytest.mark.parametrize(("argv", "absent"), [
    (("round", "next"), NOT_FOR_A_READ | WRITE_SIDE),
    (("status", "--json"), NOT_FOR_A_READ | WRITE_SIDE | {"d2d_cli.rules.deck.dice"}),
    (("fate", "status"), NOT_FOR_A_READ | WRITE_SIDE),
])
def test_a_read_loads_no_history_no_shape_check(tmp_path: Path, argv: tuple[str, ...],
                                                 absent: set[str]) -> None:
    _, loaded = in_fresh_process(
        str(tmp_path / "s.toml"),
        [["scene", "load", "combat1"], ["round", "start"],
         ["clock", "event", "random", "A patrol passes", "1/4"],
         list(argv)],  # the second run of it: the cache warm
        list(argv))
    assert "d2d_cli.session.reads" in loaded  # it did read the session
    assert loaded & absent == set()
