"""What a one-shot lookup imports: the speed budget (DESIGN.md "Budgets") is mostly paid
in imports, so the heavy or needless ones are kept out of the common lookups by test
(timings are measured by bench/, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

HEAVY = {"rich", "tomlkit", "tomllib", "json", "random", "fractions", "secrets",
         "hashlib", "dataclasses"}


def _imported(tmp_path: Path, *argv: str) -> set[str]:
    """The top-level modules of HEAVY that ``d2d ARGV`` imports on a session d2d has
    read before, in a fresh interpreter (the session's cache and the rule tables' copies
    warm, as they are from a Narrator's second command on)."""
    session = str(tmp_path / "s.toml")
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            "main(['--session', sys.argv[1], 'fate', 'status'])\n"  # creates the session
            f"main(['--session', sys.argv[1], *{list(argv)!r}])\n")  # warms what it reads
    subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                   capture_output=True)
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            f"main(['--session', sys.argv[1], *{list(argv)!r}])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules}))\n")
    out = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return set(eval(out.splitlines()[-1])) & HEAVY  # noqa: S307 - our own list


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
