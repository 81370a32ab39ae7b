"""Helpers shared by test modules (not a test module itself): session files, stacked
decks, and the rule texts for the tests that check tables against them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from d2d_cli import session
from d2d_cli.cli import app
from d2d_cli.rules.deck import fate
from d2d_cli.rules.deck.cards import parse_card

ROOT = Path(__file__).resolve().parent.parent


class Runner:
    """``d2d(...)`` in-process through Typer's CliRunner; ``.json(...)`` parses the envelope."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: Any, input: str | None = None) -> Any:
        return self.runner.invoke(app, [str(a) for a in args], input=input)

    def json(self, *args: Any, code: int = 0) -> dict[str, Any]:
        res = self(*args, "--json")
        assert res.exit_code == code, (res.exit_code, res.stdout, res.stderr)
        envelope = json.loads(res.stdout)
        return envelope["result"] if code == 0 else envelope

    def ok(self, *args: Any) -> str:
        res = self(*args)
        assert res.exit_code == 0, (res.exit_code, res.stdout, res.stderr)
        return res.stdout


def with_rules(d2d: Runner, tmp_path: Path, **rules: Any) -> Path:
    """A session file whose [rules] table holds ``rules``, as a table would hand-edit it."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / f"table{len(list(tmp_path.glob('table*.toml')))}.toml"
    d2d.ok("--session", path, "fate", "status")
    lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in rules.items())
    path.write_text(path.read_text().replace("[rules]\n", "[rules]\n" + lines, 1))
    return path


def run_process(*args: str, env: dict[str, str] | None = None,
                timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m d2d_cli ARGS`` in a real process (for locking, kills, imports)."""
    import os

    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "d2d_cli", *args], capture_output=True,
                          text=True, env=full_env, timeout=timeout)


def session_file(data_dir: Path) -> Path:
    files = sorted(data_dir.rglob("*.toml"))
    assert files, "no session file"
    return files[0]


def session_bytes(data_dir: Path) -> bytes:
    return session_file(data_dir).read_bytes()


def stack_deck(path: Path, *codes: str) -> None:
    """Put these cards (with these orientations) on top of the session's Fate deck."""
    with session.edit(path, "test: stack the deck") as tx:
        deck = fate.Deck.from_state(tx.data["fate"])
        wanted = [parse_card(c) for c in codes]
        faces = {c.face for c in wanted}
        rest = [c for c in deck.draw + deck.discard if c.face not in faces]
        deck.draw, deck.discard = wanted + rest, []
        tx.put("fate", deck.to_state())


SCENE = """\
name = "Test"
map = "personal"
[factions.A]
goal = "win"
[units.Archer]
faction = "A"
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "4x0"
{extra}
"""


def load_scene(d2d: Any, tmp_path: Path, extra: str = "", name: str = "s.toml") -> Any:
    f = tmp_path / name
    f.write_text(SCENE.format(extra=extra), "utf-8")
    return d2d.json("scene", "load", str(f))


# The rule texts sit in shared/seeds beside the checkout (../shared/seeds). CI has them;
# a clone on its own does not, and then only the tests that read them are skipped.
RULE_TEXTS = {"000": "000_fef37bd987c67972.txt", "001": "001_a6cbfa98d616fe33.txt",
              "002": "002_278d2c820faaad44.txt", "003": "003_5942f35a06013995.txt",
              "004": "004_83d7bea2fb475415.txt"}


def seeds_dir() -> Path | None:
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared" / "seeds").is_dir():
            return parent / "shared" / "seeds"
    return None


def rule_text(which: str) -> str:
    """The text of rule book ``which`` ("000" … "004", shared/seeds/README.md); skips the
    calling test, saying why, when the texts are not beside this checkout."""
    folder = seeds_dir()
    if folder is None or not (folder / RULE_TEXTS[which]).is_file():
        pytest.skip(f"rule text {which} ({RULE_TEXTS[which]}) not found in a shared/seeds "
                    "folder beside this checkout: this test checks d2d's tables against it")
    return (folder / RULE_TEXTS[which]).read_text("utf-8")


def rule_line(which: str, n: int) -> str:
    """Line ``n`` (1-based) of rule text ``which``, as cited in the docs (``002 l.11``)."""
    return rule_text(which).splitlines()[n - 1]
_QUOTE = re.compile(r"(000|001) l\.(\d+)(?:[–-](\d+))? \"([^\"]+)\"")


def _plain(text: str) -> str:
    return " ".join(text.replace("**", "").replace("\\", "").split())


def check_quotes(source: str) -> int:
    """Every ``000 l.N[–M] "…"`` in ``source`` is in that rule text at those lines (up to
    two lines more: a quote may join a heading to the line after it). Returns how many
    quotes were checked; skips the test when the rule texts are not beside the checkout."""
    found = _QUOTE.findall(source)
    for book, first, last, quote in found:
        lines = rule_text(book).splitlines()
        start, end = int(first), int(last or first) + 2
        window = _plain(" ".join(re.sub(r"^\s*- ", "", line)  # list bullets
                                 for line in lines[start - 1:end]))
        for part in re.split(r" … | / ", quote):
            assert _plain(part) in window, f"{book} l.{first}: {part!r} not in {window!r}"
    return len(found)


def every_file(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` (the session, its journal, backup and cache): what a
    refusal must leave as it found it."""
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_refused(run: Any, folder: Path, args: list[str], message: str) -> Any:
    """``run(*args)`` is refused as every refusal is: exit 2, one line on stderr naming
    ``message``, and not a byte changed below ``folder``. Returns the result."""
    before = every_file(folder)
    res = run(*args)
    assert res.exit_code == 2, res.stdout
    assert res.stderr.startswith("d2d: error: ") and res.stderr.count("\n") == 1
    assert message in res.stderr, res.stderr
    assert every_file(folder) == before
    return res


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` (not the cache, which only saves time) by name."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith(".cache")}



def in_fresh_process(session: str, setup: list[list[str]], argv: list[str]
                     ) -> tuple[str, set[str]]:
    """Run each command line of ``setup`` on ``session`` in one process, then ``argv``
    alone in a fresh one: what it printed and every module it imported (the import
    guards of tests/test_imports*.py)."""
    first = ("import sys\nfrom d2d_cli.cli import main\n"
             f"for words in {setup!r}:\n"
             "    assert not main(['--session', sys.argv[1], *words]), words\n")
    subprocess.run([sys.executable, "-c", first, session], cwd=ROOT, check=True,
                   capture_output=True)
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            f"assert not main(['--session', sys.argv[1], *{argv!r}])\n"
            "print(sorted(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    text, _, modules = out.rstrip("\n").rpartition("\n")
    return text + "\n" if text else "", set(eval(modules))  # noqa: S307 - our own list

def build_table(d2d: Any, path: Path, seed: int = 1) -> Path:
    """A session holding a unit with a skill and a condition, a task, a clock event."""
    d2d.ok("--seed", seed, "session", "new", path)
    s = ("--session", path)
    d2d.ok(*s, "unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0", "--skill", "Stealth=1")
    d2d.ok(*s, "unit", "condition", "Gob", "add", "fatigue")
    d2d.ok(*s, "task", "new", "knot", "--difficulty", "4")
    d2d.ok(*s, "clock", "event", "add", "5", "reinforcements")
    return path


def hand_edit(path: Path, pattern: str, repl: str, count: int = 1) -> str:
    """Edit the session text as a person would (a regex on the text); returns it."""
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(pattern, repl, text, count=count, flags=re.M | re.S)
    assert n, f"pattern {pattern!r} not in the file"
    path.write_text(new, encoding="utf-8")
    return new


# A process that writes the session in a loop until it is killed (the SIGKILL tests of
# tests/test_reliability.py and tests/test_leftovers.py): argv[1] is the session file.
KILLABLE_WRITER = """
import sys
from pathlib import Path
from d2d_cli import session
from d2d_cli.rules.deck import fate
path = Path(sys.argv[1])
print("ready", flush=True)
while True:
    with session.edit(path, "fate draw") as tx:
        deck = fate.Deck.from_state(tx.data["fate"])
        fate.draw(deck, 5, tx.rng())
        tx.put("fate", deck.to_state())
"""
