"""Help written for players (issue 20.10): examples that work wherever d2d is run, and
no rule-file citations in option help (they live in docs/)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path


def test_the_scene_load_example_works_outside_the_repo(d2d, tmp_path: Path) -> None:
    example = next(x for x in d2d.ok("scene", "load", "--help").splitlines()
                   if x.strip().startswith("Example:"))
    words = shlex.split(example.split("Example:", 1)[1].split("(", 1)[0])
    assert words == ["d2d", "scene", "load", "combat1"]
    env = {"D2D_DATA_DIR": str(tmp_path / "data"), "PATH": ""}
    res = subprocess.run([sys.executable, "-m", "d2d_cli", *words[1:]], cwd=tmp_path,
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("Combat #1")


def test_no_option_help_cites_the_rule_files() -> None:
    """Citations such as (000 l.453) live in docs/citations.md, not in option help; after
    a merge, ``python scripts/strip_citations.py`` moves any new one there."""
    import re

    from tests.test_conventions import COMMANDS

    cite = re.compile(r"\b00[01] (?:l|p)\.\s?\d")
    cited = [(path, p.name, p.help) for path, cmd in COMMANDS for p in cmd.params
             if cite.search(getattr(p, "help", None) or "")]
    assert cited == []
    rows = (Path(__file__).parent.parent / "docs" / "citations.md").read_text(
        encoding="utf-8")
    assert "| `_situation.py` | `--skill-stat` | 000 l.453 |" in rows


def test_the_citation_script_moves_a_citation_out_of_help(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
    import strip_citations

    module = tmp_path / "m.py"
    module.write_text('X = typer.Option("--high", help="Level +1 "\n    "(000 l.323).")\n'
                      'Y = typer.Option(help="Body (000 l.453; default Body).")\n',
                      encoding="utf-8")
    assert strip_citations.rewrite(module) == [("m.py", "--high", "000 l.323"),
                                               ("m.py", "Y", "000 l.453")]
    assert module.read_text(encoding="utf-8") == (
        'X = typer.Option("--high", help="Level +1"\n    ".")\n'
        'Y = typer.Option(help="Body (default Body).")\n')
