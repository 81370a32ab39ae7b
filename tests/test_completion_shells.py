"""Tab completion in a real shell (issue 20.1): bash on a pseudo-terminal (pexpect), with
the completion script installed by ``d2d --install-completion bash`` into a throwaway
HOME, exactly as a user would. A two-word name must come back as one argument (escaped,
or inside the quote the user opened), and the command must then run.

zsh and fish are tested the same way where the machine has them (each test skips,
saying why, where it does not); zsh's answers are also checked as text in
tests/test_manners.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

BASH, ZSH, FISH = (shutil.which(s) for s in ("bash", "zsh", "fish"))
PROMPT = "READY$ "


def _shell(tmp_path: Path, shell: str, path: str | None, rc: tuple[str, str] | None,
           term: str = "dumb"):  # type: ignore[no-untyped-def]
    """``shell`` on a pty in a throwaway HOME with d2d's completion installed by
    ``d2d --install-completion SHELL`` and Combat #1 loaded; its prompt is PROMPT (set
    in ``rc``: the rc file and a line appended to it)."""
    if path is None:
        pytest.skip(f"{shell} is not installed on this machine")
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = Path(sys.executable).parent  # the venv's d2d console script
    env = {k: v for k, v in os.environ.items() if not k.startswith(("D2D_", "_D2D"))}
    env.update({"HOME": str(home), "D2D_DATA_DIR": str(tmp_path / "data"),
                "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "TERM": term,
                "SHELL": path, "INPUTRC": str(home / ".inputrc"),
                "XDG_CONFIG_HOME": str(home / ".config")})
    (home / ".inputrc").write_text("set bell-style none\n", encoding="utf-8")
    run = {"env": env, "capture_output": True, "text": True, "timeout": 60, "check": True}
    installed = subprocess.run([str(bin_dir / "d2d"), "--install-completion", shell], **run)
    assert f"{shell} completion installed" in installed.stdout
    if rc is not None:  # after the installer: it may have written the same file
        rc_file = home / rc[0]
        rc_file.parent.mkdir(parents=True, exist_ok=True)
        old = rc_file.read_text(encoding="utf-8") if rc_file.exists() else ""
        rc_file.write_text(old + rc[1] + "\n", encoding="utf-8")
    subprocess.run([str(bin_dir / "d2d"), "scene", "load", "combat1"], **run)
    child = pexpect.spawn(path, ["-i"], env=env, encoding="utf-8", dimensions=(40, 200),
                          timeout=30)
    child.expect_exact(PROMPT)
    return child


@pytest.fixture
def bash(tmp_path: Path):  # type: ignore[no-untyped-def]
    child = _shell(tmp_path, "bash", BASH, (".bashrc", f"PS1='{PROMPT}'"))
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
    assert ": Fast vs Thief " in out and "error" not in out


# ---------------------------------------------------------------- zsh and fish
# Their line editors redraw the line with escape sequences, so what Tab inserted is not
# matched as text: the command's output shows it. Typed alone, "Goblin\ Sc" is refused
# ("no unit 'Goblin Sc'"); the Scout's row comes back only if Tab completed the name
# and the shell passed it as one argument.

def _tab_then_run(child, typed: str) -> str:  # type: ignore[no-untyped-def]
    child.send(typed)
    child.send("\t")
    child.expect_exact("Scout")  # the completion is drawn, then the line is run
    child.send("\r")
    child.expect_exact("(unit)")
    child.expect_exact(PROMPT)
    return str(child.before)


@pytest.fixture
def zsh(tmp_path: Path):  # type: ignore[no-untyped-def]
    # d2d's installer writes ~/.zfunc/_d2d and the compinit lines into ~/.zshrc.
    child = _shell(tmp_path, "zsh", ZSH, (".zshrc", f"PS1='{PROMPT}'"), term="xterm")
    yield child
    child.sendeof()
    child.close()


@pytest.fixture
def fish(tmp_path: Path):  # type: ignore[no-untyped-def]
    # d2d's installer writes ~/.config/fish/completions/d2d.fish.
    child = _shell(tmp_path, "fish", FISH, (".config/fish/config.fish",
                                            f"function fish_prompt; echo -n '{PROMPT}'; end\n"
                                            "function fish_greeting; end"), term="xterm")
    yield child
    child.sendeof()
    child.close()


def test_zsh_completes_an_escaped_two_word_name_to_one_argument(zsh) -> None:  # type: ignore[no-untyped-def]
    out = _tab_then_run(zsh, "d2d unit show Goblin\\ Sc")
    assert "Goblin Scout" in out and "error" not in out


def test_zsh_completes_inside_the_quote_the_user_opened(zsh) -> None:  # type: ignore[no-untyped-def]
    out = _tab_then_run(zsh, 'd2d unit show "Goblin Sc')
    assert "Goblin Scout" in out and "error" not in out


def test_fish_completes_an_escaped_two_word_name_to_one_argument(fish) -> None:  # type: ignore[no-untyped-def]
    out = _tab_then_run(fish, "d2d unit show Goblin\\ Sc")
    assert "Goblin Scout" in out and "error" not in out


def test_fish_completes_a_later_word_of_a_name(fish) -> None:  # type: ignore[no-untyped-def]
    # fish keeps a candidate that does not start with what was typed: the one rule holds.
    out = _tab_then_run(fish, "d2d unit show sc")
    assert "Goblin Scout" in out and "error" not in out
