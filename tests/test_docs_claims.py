"""The docs' statements, checked against the code (issue 38 item 5).

``tests/test_docs_names.py`` checks that a name the docs quote exists; this checks what
the docs *say* about the code where a machine can tell: which commands run without a
session, which results an operation rebuilds after the rules made them, which
modules of ``rules/`` the session package reads, the steps the fault suite breaks, the
server's limits and tokens. Each statement sits in docs/architecture.md or
docs/serve.md between ``<!-- claim: NAME -->`` and ``<!-- /claim -->``, so the test reads
the very sentence a reader reads: change the code and the sentence must change with it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers import ROOT, Runner

ARCH = ROOT / "docs" / "architecture.md"
SERVE = ROOT / "docs" / "serve.md"
PACKAGE = ROOT / "d2d_cli"


def claim(doc: Path, name: str) -> str:
    """The text of one marked statement of a doc."""
    m = re.search(rf"<!-- claim: {re.escape(name)} -->(.*?)<!-- /claim -->",
                  doc.read_text(encoding="utf-8"), re.S)
    assert m, f"{doc.name} has no statement marked {name!r}"
    return m.group(1)


def quoted(text: str) -> list[str]:
    """The words in backticks, in order."""
    return re.findall(r"`([^`]+)`", text)


# ---------------------------------------------------------------- which commands need a session

def _command_words(words: list[str]) -> list[str]:
    """A transcript line's command words and options, without the global ``--seed N``."""
    out = list(words)
    if out[:1] == ["--seed"]:
        out = out[2:]
    return out


def _matches(entry: str, words: list[str]) -> bool:
    """A doc entry such as ``scale area --reading`` names this line: the line starts with
    its command words and carries each of its options."""
    parts = entry.split()
    names = [p for p in parts if not p.startswith("-")]
    options = [p for p in parts if p.startswith("-")]
    if "--seed" in options:  # a global option: it stands before the command
        options.remove("--seed")
        if "--seed" not in words:
            return False
    return _command_words(words)[: len(names)] == names and all(o in words for o in options)


def test_the_commands_that_run_without_a_session_are_the_ones_the_docs_name(
        tmp_path: Path) -> None:
    """docs/architecture.md names the commands that read no session; each line of the
    Combat #1 transcript (every leaf command) is run on a session file that cannot be
    read: exactly the named ones succeed, every other one is refused."""
    from tests.golden.script import LINES, argv_of

    named = quoted(claim(ARCH, "no-session"))
    assert named, "the statement names no command"
    broken = tmp_path / "broken.toml"
    broken.write_text("schema = 1\n[units\n")  # not TOML: any read of it is exit 3
    (tmp_path / "rook.toml").write_text('name = "Rook"\n')
    d2d = Runner()
    ran_free, refused = [], []
    for line in LINES.strip().splitlines():
        words, stdin = argv_of(line, tmp_path)
        if words[0] in ("play", "tour", "serve"):  # run other commands; tested elsewhere
            continue
        res = d2d("--session", broken, *words, input=stdin)
        is_named = any(_matches(e, words) for e in named)
        if res.exit_code == 0 and not is_named:
            ran_free.append(line)
        if res.exit_code != 0 and is_named:
            refused.append((line, res.exit_code, res.stderr))
    assert not ran_free, f"these run without a session but the docs do not say so: {ran_free}"
    assert not refused, f"the docs say these need no session, but they failed: {refused}"
    # every entry of the statement names at least one line of the transcript
    for entry in named:
        assert any(_matches(entry, argv_of(x, tmp_path)[0]) for x in LINES.split("\n") if x), \
            f"{entry!r} names no command of the transcript"


# ---------------------------------------------------------------- what is rebuilt after the rules

def _rebuilt() -> set[str]:
    """``operations/<module>.py:<function>`` of every call of ``record.replace`` in
    operations/ (a result, or the options given to the rules, made again with a field
    changed)."""
    out = set()
    for path in sorted((PACKAGE / "operations").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {a.asname or a.name for node in ast.walk(tree)
                   if isinstance(node, ast.ImportFrom) and node.module
                   and node.module.endswith("core.record")
                   for a in node.names if a.name == "replace"}
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in aliases):
                    out.add(f"operations/{path.name}:{fn.name}")
    return out


def test_the_results_an_operation_makes_again_are_the_ones_the_docs_name() -> None:
    """"A command does not build or edit a result's fields": where an operation makes a
    record again with a field changed (``record.replace``), docs/architecture.md names the
    place and says why; nowhere else."""
    named = {q for q in quoted(claim(ARCH, "rebuilt")) if q.startswith("operations/")}
    assert named == _rebuilt()


def test_no_operation_writes_to_its_target() -> None:
    """An operation reads its ``Target`` (which session, the seed, the label) and returns
    a result; it never writes to it (``t.revealed = …`` was a side channel back to the
    command, read again by commands/conflict.py)."""
    found = []
    for path in sorted((PACKAGE / "operations").glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef):
                continue
            targets = {a.arg for a in fn.args.args + fn.args.kwonlyargs
                       if a.annotation is not None and ast.unparse(a.annotation) == "Target"}
            for node in ast.walk(fn):
                if not isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                    continue
                for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                            and t.value.id in targets):
                        found.append(f"{path.name}:{node.lineno} {ast.unparse(t)}")
    assert not found


# ---------------------------------------------------------------- what session/ reads of rules/

def test_the_session_package_reads_the_rules_modules_the_docs_name() -> None:
    # grimp comes with import-linter, the layering's lint tool, which ci/oldest leaves out
    # (it needs a newer Rich than d2d's lowest); the README's test command has it
    grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter "
                                "(pip install -e .[dev]); ci/oldest runs without it")

    graph = grimp.build_graph("d2d_cli")
    used = {imported for m in graph.modules if m.startswith("d2d_cli.session")
            for imported in graph.find_modules_directly_imported_by(m)
            if imported.startswith("d2d_cli.rules")}
    named = {f"d2d_cli.{q}" for q in quoted(claim(ARCH, "session-reads-rules"))
             if q.startswith("rules.")}
    assert named == used


# ---------------------------------------------------------------- the fault steps

def _fault_steps() -> set[str]:
    """Every step name given to ``errors.fault`` or an Environment's ``fault`` in d2d."""
    steps = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and ((isinstance(node.func, ast.Name) and node.func.id == "fault")
                         or (isinstance(node.func, ast.Attribute)
                             and node.func.attr == "fault"))):
                steps.add(node.args[0].value)
    return steps


def test_the_fault_steps_are_the_ones_the_docs_and_the_suite_name() -> None:
    from tests import test_faults

    named = set(quoted(claim(ARCH, "fault-steps")))
    code = _fault_steps()
    assert named == code
    assert set(test_faults.STEPS) == code - {"output"}  # `output`: the files a user names


# ---------------------------------------------------------------- the server's numbers

def test_the_servers_limits_are_the_ones_docs_serve_states() -> None:
    """Every number of docs/serve.md's limits (the "On a LAN nobody trusts" table) and
    the tokens' bits is a constant of the server or of its connection layer
    (``serve/limits.py``): a changed limit changes the sentence."""
    from d2d_cli.serve import limits, server

    text = claim(SERVE, "limits")
    stated = {name: float(num) for num, name in re.findall(r"([\d.]+)\s*<!--\s*(\w+)\s*-->",
                                                             text)}
    assert stated, "docs/serve.md marks no limit"
    for name, value in stated.items():
        assert float(getattr(server, name, None) or getattr(limits, name)) == value, name


# ---------------------------------------------------------------- the routes

def test_the_routes_docs_serve_names_are_the_servers() -> None:
    from d2d_cli.serve import server

    named = {q.split()[-1] for q in quoted(claim(SERVE, "routes")) if "/" in q}
    assert named == server.ROUTES_GET | server.ROUTES_POST


@pytest.mark.parametrize("doc", [ARCH, SERVE], ids=lambda p: p.name)
def test_every_claim_marker_is_closed(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert text.count("<!-- claim:") == text.count("<!-- /claim -->")



# ---------------------------------------------------------------- the promised types

def test_operations_and_the_api_are_clean_under_mypy_strict() -> None:
    """docs/architecture.md: "operations/ and api.py are held to mypy --strict" — the
    type a script's call promises (``s.conflict()``: a Conflict, a Redirected or a Chart)
    is the one it returns, with no ``Any`` closure in between. Run as a reader would,
    `mypy --strict d2d_cli/operations d2d_cli/api.py` (which follows every import)."""
    pytest.importorskip("mypy", reason="mypy is a dev dependency (pip install -e '.[dev]')")
    from mypy import api

    assert "mypy --strict" in claim(ARCH, "strict")
    out, err, status = api.run(["--strict",
                                str(PACKAGE / "operations"), str(PACKAGE / "api.py")])
    assert status == 0, out + err
