"""The docs stay true: the README's commands, the generated command reference."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.helpers import ROOT


def test_readme_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"<!-- (main|test)-command -->\n```sh\n(.+?)\n```", text)
    assert [b[0] for b in blocks] == ["main", "test"]
    main, test = (b[1] for b in blocks)
    assert main.startswith("python3 -m venv .venv") and main.endswith("d2d tour")
    assert test.startswith("python3 -m venv .venv") and "pytest" in test
    assert text.index("<!-- main-command -->") < 400  # it really opens the README


def test_command_reference_is_current() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_commands.py"), "--check"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_docs_name_every_errata_die() -> None:
    errata = (ROOT / "docs" / "errata.md").read_text()
    for die in ("d8", "d16", "d84", "d104", "d108"):
        assert f"| {die} |" in errata
