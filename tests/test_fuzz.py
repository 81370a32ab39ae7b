"""Fuzz every command and option (issue 10): random tokens — unicode, control
characters, huge and negative numbers, nan, 1e999, card- and stat-shaped garbage,
non-UTF-8 bytes (lone surrogates, as Python decodes them from argv) — and the
property: exit 0, 2 or 3 only; never a traceback; on exit != 0 the session file and
its journal are byte for byte as they were.

In-process and derandomized with a fixed example budget, so CI runs it in bounded
time (600 examples, ~5-10 s); D2D_FUZZ_EXAMPLES raises the budget and D2D_FUZZ_RANDOM=1 draws new
examples, for a longer local hunt.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d2d_cli.cli import app
from d2d_cli.session import journal

EXAMPLES = int(os.environ.get("D2D_FUZZ_EXAMPLES", "600"))
SKIP = {"tour", "sim", "serve"}  # tour: twenty commands on its own session; sim: up to
# 1,000,000 fights; serve: a server that runs until told to stop (and a fuzzed --lan would
# listen on every address) — each covered by its own tests (test_sim.py holds sim's
# refusals; test_serve_http.py serve's)


def _commands() -> list[tuple[tuple[str, ...], Any]]:
    """Every leaf command: (its words, its click command)."""
    root = typer.main.get_command(app)
    out = []

    def walk(words: tuple[str, ...], cmd: Any) -> None:
        subs = getattr(cmd, "commands", None)
        if subs is None and hasattr(cmd, "list_commands"):
            subs = {n: cmd.get_command(None, n) for n in cmd.list_commands(None)}
        if subs:
            for name, sub in subs.items():
                walk((*words, name), sub)
        else:
            out.append((words, cmd))

    for name in root.list_commands(None):  # type: ignore[attr-defined]
        if name not in SKIP:
            walk((name,), root.get_command(None, name))  # type: ignore[attr-defined]
    return out


COMMANDS = _commands()


def _examples() -> list[tuple[int, list[str]]]:
    """Each command's help example (the way it is meant to be called), as (how many
    leading words name the command, argv)."""
    import re
    import shlex

    out = []
    for words, cmd in COMMANDS:
        for m in re.finditer(r"Example:\s*d2d (.*)", cmd.help or ""):
            line = re.sub(r"\s+\((?:or|then)\b.*$", "", m.group(1)).strip()
            try:
                argv = shlex.split(line)
            except ValueError:
                continue
            if argv[:len(words)] == list(words) or "--" in argv[0][:2]:
                out.append((argv.index(words[-1]) + 1 if words[-1] in argv else 0, argv))
    return out


EXAMPLES_ARGV = _examples()

NUMBERS = ["0", "-1", "1", "2", "3", "7", "20", "54", "55", "100", "101", "999", "1000",
           "1001", "99999999999999999999", "-99999999999999999999", "nan", "inf", "-inf",
           "1e999", "1e-999", "0.5", "-0", "1_000", "0x10", "٣"]
CARDS = ["QH^", "10sv", "A♣", "RW", "BW", "qh", "1C", "11H", "0S", "QX", "Q", "H", "QHH",
         "10 of cups", "RWv", "7S^", "KC", "pierce@torso", "bash@engine", "x@y", "@"]
STATS = ["2x1", "10x-1", "6x24", "1x999", "1x-999", "10x998", "10x1000", "2x99999999",
         "0x1", "11x1", "4.5x1", "1e3x1", "nanx1", "x", "2x", "x1", "2×1", "-2x1", ".5x0",
         "99999999999x1", "15x1", "15.5x1", "Body+2", "Body+999999", "80kg", "1e999kg",
         "40kph", "nan kg", "-5kg", "0kg", "110", "1e308", "5.97e24kg", "3e8m/s"]
NAMES = ["Gob", "gob", "Rook", "knot", "Orc", "", " ", "a/b", "..", "x" * 41, "x" * 300,
         "[/]", "[bold]", "\x1b[31m", "\n", "\t", "é", "名前", "\u202e", "Gob\n", "default",
         "combat1", "-", "--", "-x", "--json", "a=b", "Gob=fatigue", "Gob=", "=fatigue",
         "Stealth", "Stealth=1", "Stealth=99", "Stealth=0", "Stealth=100", "Close Combat=1",
         "fatigue", "Fatigue", "stun", "blood loss", "dying", "add", "remove", "svg", "html",
         "toml", "thief", "human-male", "pierce", "pierce,slash", "bash", "person",
         "vehicle", "1/4", "0/4", "5/4", "1/0", "1/1", "1/99999", "25%", "0%", "101%",
         "1 in 6", "d6", "d0", "d1", "d108", "d1001", "d-3", "dX", "strong", "block",
         "fate", "gmae2", "x.toml", "/nonexistent/dir/x.toml", "evil\n"]
SURROGATES = ["\udcff", "a\udce9b", "\udc80x"]


def _token(special: list[str]) -> st.SearchStrategy[str]:
    domain = st.sampled_from(NUMBERS + CARDS + STATS + NAMES + special)
    return st.one_of(
        domain, domain, domain, domain, domain,
        st.sampled_from(SURROGATES),
        st.text(max_size=12),
        st.integers(-10**30, 10**30).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
    )


def _argv(words: tuple[str, ...], cmd: Any, special: list[str]) -> st.SearchStrategy[list[str]]:
    parts: list[st.SearchStrategy[list[str]]] = []
    for p in cmd.params:
        if p.param_type_name == "argument":
            want = max(p.nargs, 1)
            n = (st.integers(0, 4) if p.nargs == -1 else
                 st.sampled_from([want] * 8 + [0, want + 1]))  # mostly the right count
            parts.append(n.flatmap(lambda k: st.lists(_token(special), min_size=k,
                                                      max_size=k)))
        elif p.name in ("output",):  # never let a fuzzed path write outside the sandbox
            parts.append(st.sampled_from([[], ["-o", "-"], ["-o", "out.svg"],
                                          ["--output", "sub/x.html"]]))
        elif p.name == "help":
            continue
        else:
            opt = p.opts[-1]
            value = (st.just([opt]) if p.is_flag or p.count
                     else _token(special).map(lambda v, o=opt: [o, v]))
            if p.required:  # mostly given, so the command gets past its usage check
                parts.append(st.one_of(value, value, value, st.just([])))
            else:
                parts.append(st.one_of(st.just([]), value, st.lists(value, max_size=3).map(
                    lambda xs: [t for x in xs for t in x])))
    return st.tuples(*parts).map(lambda xs: [*words, *[t for x in xs for t in x]]) \
        if parts else st.just(list(words))


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from tests.helpers import Runner

    folder = tmp_path_factory.mktemp("fuzz")
    d2d = Runner()
    data = folder / "data"
    os.environ["D2D_DATA_DIR"] = str(data)
    path = folder / "s.toml"
    d2d.ok("--seed", "3", "session", "new", path)
    d2d.ok("--session", path, "scene", "load", "combat1")  # Archer, Thief, Goblin Scout, Knot
    d2d.ok("--session", path, "char", "new", "Rook", "--body", "7", "--speed", "5")
    d2d.ok("--session", path, "unit", "add", "Gob", "--body", "2x1", "--mind", "6x1",
           "--will", "2x1", "--speed", "5x0", "--skill", "Stealth=1")
    d2d.ok("--session", path, "round", "start")
    fifo = folder / "fifo.toml"
    os.mkfifo(fifo)
    deep = folder / "deep.toml"
    deep.write_text("x = " + "[" * 3000 + "]" * 3000 + "\n")
    big = folder / "big.toml"
    big.write_text("# " + "x" * (3 << 20) + "\n")
    (folder / "sub").mkdir()
    d2d.ok("session", "new", "game2")
    return {"path": path, "folder": folder,
            "special": [str(fifo), str(deep), str(big), "/dev/zero", "/dev/null",
                        str(folder), str(path), "examples/combat1.toml"]}


@st.composite
def _mutated(draw: Any, special: list[str]) -> list[str]:
    """A help example with one to three tokens replaced, inserted or dropped."""
    fixed, argv = draw(st.sampled_from(EXAMPLES_ARGV))
    argv = list(argv)
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["replace", "replace", "insert", "delete"]))
        if len(argv) <= fixed:
            op = "insert"
        if op == "insert":
            argv.insert(draw(st.integers(fixed, len(argv))), draw(_token(special)))
        else:
            i = draw(st.integers(fixed, len(argv) - 1))
            if op == "replace":
                argv[i] = draw(_token(special))
            else:
                del argv[i]
    for i, tok in enumerate(argv[:-1]):  # an export goes to the sandbox, nowhere else
        if tok in ("-o", "--output"):
            argv[i + 1] = "out.svg" if argv[i + 1] != "-" else "-"
    return argv


@st.composite
def invocations(draw: Any, special: list[str]) -> list[str]:
    if draw(st.booleans()):
        argv = draw(_mutated(special))
    else:
        words, cmd = draw(st.sampled_from(COMMANDS))
        argv = draw(_argv(words, cmd, special))
    extra = draw(st.sampled_from([[], [], [], ["--seed", "7"], ["--seed", "-1"],
                                  ["--seed", "99999999999999999999999"], ["--session"]]))
    if extra == ["--session"]:  # another session: a name, a typo, a path, garbage
        extra = ["--session", draw(st.one_of(_token(special), st.sampled_from(
            ["default", "game2", "gmae2", "evil\n", "x.toml", "sub/y.toml"])))]
    return [*extra, *argv, *draw(st.sampled_from([[], [], ["--json"]]))]


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_fuzz_every_command(d2d, sandbox: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                            ) -> None:
    path: Path = sandbox["path"]
    jp = journal.path_for(path)
    monkeypatch.chdir(sandbox["folder"])
    monkeypatch.setenv("D2D_DATA_DIR", str(sandbox["folder"] / "data"))
    monkeypatch.setenv("D2D_LOCK_TIMEOUT", "2")
    seen: dict[int, int] = {}

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              derandomize=not os.environ.get("D2D_FUZZ_RANDOM"),
              suppress_health_check=list(HealthCheck))
    @given(invocations(sandbox["special"]), st.booleans())
    def run(argv: list[str], explicit: bool) -> None:
        before, journal_before = path.read_bytes(), jp.read_bytes()
        full = ["--session", str(path), *argv] if explicit or "--session" not in argv else argv
        res = d2d(*full)
        seen[res.exit_code] = seen.get(res.exit_code, 0) + 1
        if os.environ.get("D2D_FUZZ_SHOW"):
            print("RUN", res.exit_code, full[2:], res.stderr.strip()[:120])
        out = res.stdout + res.stderr
        assert res.exit_code in (0, 2, 3), (full, res.exit_code, out)
        assert "Traceback" not in out and "internal error" not in out, (full, out)
        if res.exit_code != 0:
            assert path.read_bytes() == before, full
            assert jp.read_bytes() == journal_before, full

    run()
    assert seen.get(0, 0) > EXAMPLES // 20 and seen.get(2, 0) > EXAMPLES // 5, seen


# --- hand edits (issue 20 item 11): any TOML value under any key of a unit, as a person
# might type it. The class, not the instances: a later write never crashes (exit 1); a
# value d2d cannot keep is refused with exit 3 naming the file, the unit's table and the
# key, and nothing is touched; a value it accepts survives the write.

HAND_VALUES = ["nan", "-nan", "inf", "-inf", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
               "[" * 150 + "]" * 150, "[" * 17 + "]" * 17, "[[1], [2, [3]]]", "{a = 1}",
               "{a = {b = nan}}", "1e308", "1000000000000000000", "-1", "0", "true", '"x"',
               '"9x99"', '"2x1"', '"10x999"', '"Thief"', "[]", '["a", 1]', '{ Stealth = 1 }',
               '"ZZ999"', '"A1"', '"ne"']
HAND_KEYS = ["player", "bound", "body", "mind", "speed", "archetype", "template", "skills",
             "conditions", "crits", "cp", "stealth", "facing", "spent", "active",
             "continuous", "abilities", "move", "kind", "faction", "target", "loot", "space"]


def test_hand_edits_of_a_unit_never_crash_a_later_write(tmp_path_factory: pytest.TempPathFactory,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from tests.helpers import Runner

    folder = tmp_path_factory.mktemp("hand")
    monkeypatch.setenv("D2D_DATA_DIR", str(folder / "data"))
    d2d = Runner()
    path = folder / "s.toml"
    d2d.ok("--seed", "3", "session", "new", path)
    d2d.ok("--session", path, "scene", "load", "combat1")
    good = path.read_text()

    @settings(max_examples=max(40, EXAMPLES // 10), deadline=None, database=None,
              derandomize=not os.environ.get("D2D_FUZZ_RANDOM"),
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(HAND_KEYS), st.sampled_from(HAND_VALUES))
    def run(key: str, value: str) -> None:
        # the key replaced where the Archer has it, else added to the Archer's table
        # (only within the Archer's own table: a line that opens another ends the search)
        text, n = re.subn(rf"^(\[units\.Archer\]\n(?:(?!\[).*\n)*?){key} = .*\n",
                          rf"\g<1>{key} = {value}\n", good, count=1, flags=re.M)
        if not n:
            text = good.replace("[units.Archer]\n", f"[units.Archer]\n{key} = {value}\n", 1)
        path.write_text(text)
        for p in folder.glob(".s.toml.*"):
            p.unlink()
        before = path.read_bytes()
        res = d2d("--session", path, "unit", "condition", "Thief", "add", "stun")
        out = res.stdout + res.stderr
        assert res.exit_code in (0, 2, 3), (key, value, out)
        assert "Traceback" not in out and "internal error" not in out, (key, value, out)
        if res.exit_code == 3:
            line = res.stderr.strip()
            assert str(path) in line, line
            # a key that is also a sub-table ([units.Archer.skills]) is the parser's refusal
            assert "not valid TOML" in line or ("units.Archer" in line and key in line), line
            assert path.read_bytes() == before
        elif res.exit_code == 0:
            again = d2d("--session", path, "unit", "condition", "Thief", "remove", "stun")
            assert again.exit_code in (0, 2), (key, value, again.stdout + again.stderr)
            # a command that reads the Archer on the map (Range, Arcs, line of sight)
            hit = d2d("--session", path, "hit", "9S", "--by", "Archer", "--vs", "Thief")
            assert hit.exit_code in (0, 2), (key, value, hit.stdout + hit.stderr)

    run()
