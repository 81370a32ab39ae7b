"""Tab completion in a real shell (issue 20.1): bash on a pseudo-terminal (pexpect), with
the completion script installed by ``d2d --install-completion bash`` into a throwaway
HOME, exactly as a user would. A two-word name must come back as one argument (escaped,
or inside the quote the user opened), and the command must then run.

Only bash is on these machines (``which zsh fish`` finds neither); zsh's answers are
checked as text in tests/test_manners.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

BASH = shutil.which("bash")
PROMPT = "READY$ "


@pytest.fixture
def bash(tmp_path: Path):  # type: ignore[no-untyped-def]
    assert BASH is not None, "bash is needed for this test"
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = Path(sys.executable).parent  # the venv's d2d console script
    env = {k: v for k, v in os.environ.items() if not k.startswith(("D2D_", "_D2D"))}
    env.update({"HOME": str(home), "D2D_DATA_DIR": str(tmp_path / "data"),
                "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "TERM": "dumb",
                "SHELL": BASH, "INPUTRC": str(home / ".inputrc")})
    (home / ".inputrc").write_text("set bell-style none\n", encoding="utf-8")
    (home / ".bashrc").write_text(f"PS1='{PROMPT}'\n", encoding="utf-8")
    run = {"env": env, "capture_output": True, "text": True, "timeout": 60, "check": True}
    installed = subprocess.run([str(bin_dir / "d2d"), "--install-completion", "bash"], **run)
    assert "bash completion installed" in installed.stdout
    subprocess.run([str(bin_dir / "d2d"), "scene", "load", "combat1"], **run)
    child = pexpect.spawn(BASH, ["-i"], env=env, encoding="utf-8", dimensions=(40, 200),
                          timeout=30)
    child.expect_exact(PROMPT)
    yield child
    child.sendeof()
    child.close()


def _complete_and_run(child, typed: str, completed: str) -> str:  # type: ignore[no-untyped-def]
    """Type ``typed``, press Tab, see the line become ``completed``, press Enter; the
    command's output up to the next prompt."""
    child.send(typed)
    child.expect_exact(typed)  # the echo of what was typed
    child.send("\t")
    child.expect_exact(completed[len(typed):])  # what Tab added
    child.send("\r")
    child.expect_exact(PROMPT)
    return str(child.before)


def test_an_escaped_two_word_name_completes_to_one_argument(bash) -> None:  # type: ignore[no-untyped-def]
    out = _complete_and_run(bash, "d2d unit show Goblin\\ Sc", "d2d unit show Goblin\\ Scout ")
    assert "Goblin Scout (unit)" in out
    assert "unexpected extra argument" not in out


def test_a_later_word_of_a_name_completes_the_whole_name(bash) -> None:  # type: ignore[no-untyped-def]
    # One matching rule: what was typed starts the name or any word in it.
    bash.send("d2d unit show sc\t")
    bash.expect_exact("Goblin\\ Scout ")
    bash.send("\r")
    bash.expect_exact(PROMPT)
    assert "Goblin Scout (unit)" in str(bash.before)


def test_a_quote_the_user_opened_is_closed_by_bash(bash) -> None:  # type: ignore[no-untyped-def]
    out = _complete_and_run(bash, 'd2d unit show "Goblin Sc', 'd2d unit show "Goblin Scout" ')
    assert "Goblin Scout (unit)" in out


def test_an_option_value_with_a_space_completes_and_runs(bash) -> None:  # type: ignore[no-untyped-def]
    out = _complete_and_run(bash, "d2d task win Knot --hits 1 --by Th",
                            "d2d task win Knot --hits 1 --by Thief ")
    assert "Knot" in out and "error" not in out


def test_a_unit_side_of_a_conflict_completes_with_its_approach(bash) -> None:  # type: ignore[no-untyped-def]
    # `Thief:` is not a whole word (bash would add a space): bash gets Thief:fast… and
    # inserts what they share; after the colon (where bash cuts words) the approaches.
    bash.send("d2d conflict fast Thi\t")
    bash.expect_exact("Thi")
    bash.expect_exact("ef:")
    out = _complete_and_run(bash, "bl", "block ")
    assert "A: Fast   vs   B: Thief" in out and "error" not in out
