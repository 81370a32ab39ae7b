"""A command's annotations are objects when Typer reads them (issue 40 item 3). Typer
reads a signature two or three times as it builds a command; under ``from __future__
import annotations`` each read evaluated every string again, and ``cli.evaluated``'s one
evaluation still compiled each string (~1.8 ms for a conflict's). ``cli.py`` and the
one-command modules leave the future import out, so their annotations are evaluated
once, by Python, when each function is defined; a group module keeps it, and
``cli.evaluated`` evaluates the one command a line builds. The command line Typer
builds must not change by a hair: every parameter of every command, of the root and of
their callbacks is compared with what Typer builds when the same modules are compiled as
if they had the future import (strings that Typer evaluates itself)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers import ROOT

DESCRIBE = r'''
import json, sys, typing
import typer, typer.main, typer.utils  # Typer holds the real get_type_hints
if sys.argv[1] == "strings":  # as before: nothing evaluated ahead, Typer evaluates each
    import __future__
    import importlib.abc, importlib.machinery, importlib.util

    class Postponed(importlib.machinery.SourceFileLoader):
        """cli.py and the command modules compiled from source as if they began with
        `from __future__ import annotations` (no cached bytecode read or written)."""

        def get_code(self, fullname):
            return compile(self.get_data(self.path), self.path, "exec",
                           flags=__future__.annotations.compiler_flag, dont_inherit=True)

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name != "d2d_cli.cli" and not name.startswith("d2d_cli.commands."):
                return None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None and spec.origin and spec.origin.endswith(".py"):
                    spec.loader = Postponed(name, spec.origin)
                    return spec
            return None

    sys.meta_path.insert(0, Finder())
    real = typing.get_type_hints

    def refuse(*args, **kwargs):
        raise RuntimeError("left a string")

    typing.get_type_hints = refuse  # cli.evaluated, at import, leaves every string
    from d2d_cli import cli
    typing.get_type_hints = real
    cli.evaluated = lambda func: func
    assert isinstance(cli.root.__annotations__["session"], str)
    from d2d_cli.commands import conflict
    assert isinstance(conflict.conflict.__annotations__["sides"], str)
else:
    from d2d_cli import cli
    assert not isinstance(cli.root.__annotations__["session"], str)
root = typer.main.get_command(cli.app)
out = {}

def param(p):
    t = p.type
    return {"name": p.name, "opts": list(p.opts), "secondary": list(p.secondary_opts),
            "type": type(t).__name__, "type_repr": getattr(t, "name", None),
            "choices": list(getattr(t, "choices", []) or []),
            "default": repr(p.default), "required": p.required,
            "flag": getattr(p, "is_flag", None), "multiple": p.multiple, "nargs": p.nargs,
            "envvar": p.envvar, "hidden": getattr(p, "hidden", None),
            "help": getattr(p, "help", None), "metavar": p.metavar,
            "eager": p.is_eager, "expose": p.expose_value,
            "callback": getattr(p.callback, "__qualname__", None)}

def walk(path, cmd):
    out[" ".join(path)] = {"params": [param(p) for p in cmd.params], "help": cmd.help}
    for name in (cmd.list_commands(None) if hasattr(cmd, "list_commands") else []):
        walk([*path, name], cmd.get_command(None, name))

walk([], root)
print(json.dumps(out, sort_keys=True))
'''


def test_every_command_is_built_as_from_its_string_annotations() -> None:
    got = {}
    for how in ("strings", "evaluated"):
        out = subprocess.run([sys.executable, "-c", DESCRIBE, how], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        got[how] = json.loads(out)
    assert len(got["evaluated"]) > 120  # every command and group, and the root
    assert got["evaluated"][""]["params"][0]["opts"] == ["--session"]
    assert got["evaluated"] == got["strings"]


NO_STRINGS = r'''
import importlib, json
from d2d_cli import cli
from d2d_cli.registry import GROUPS

left = {}

def walk(app, path, group, app_module):
    infos = [*app.registered_commands]
    if app.registered_callback is not None:
        infos.append(app.registered_callback)
    for info in infos:
        notes = getattr(info.callback, "__annotations__", {}) or {}
        if notes:
            strings = all(isinstance(v, str) for v in notes.values())
            own = info.callback.__module__ == app_module  # not a shared helper's
            left[" ".join(path + [info.name or info.callback.__name__])] = [
                group if own else "helper", strings]
    for sub in app.registered_groups:
        walk(sub.typer_instance, path + [sub.name], group, app_module)

walk(cli.app, [], "root", "d2d_cli.cli")
for name, entry in GROUPS.items():
    app = importlib.import_module(f"d2d_cli.commands.{entry.module}").app
    walk(app, [name], "group" if entry.nested else "single", f"d2d_cli.commands.{entry.module}")
print(json.dumps(left))
'''


def test_one_command_modules_evaluate_and_group_modules_postpone() -> None:
    """A module of one command (``conflict``, ``hit``, the root) evaluates its
    annotations when the function is defined: Typer builds that command, and strings
    would make it pay ``cli.evaluated``'s compiling of each. A group module (``unit``,
    ``char``…) postpones them (``from __future__ import annotations``): a command line
    builds one of its commands (``cli.lazy_group``), and evaluating every command's
    ``Annotated[…]`` at import cost more than compiling the one's (``unit list``: 70
    against 1)."""
    import json

    out = subprocess.run([sys.executable, "-c", NO_STRINGS], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    seen = json.loads(out)
    assert len(seen) > 110
    wrong = {path: kind for path, (kind, strings) in seen.items()
             if kind != "helper" and strings != (kind == "group")}
    assert wrong == {}
    assert seen["unit list"] == ["group", True] and seen["root"] == ["root", False]
    assert seen["conflict conflict"] == ["single", False]
    # a command a group takes from a shared module of helpers keeps that module's way
    assert seen["unit respond"] == ["helper", False]


def test_no_annotation_evaluated_at_run_time_names_a_type_checking_import() -> None:
    """Without the future import a function's annotations are evaluated when it is
    defined — a helper defined inside a command too, when the command runs. A name
    imported only for mypy (under ``if TYPE_CHECKING:``) must be quoted there, or the
    command stops with a NameError (``npc turn`` at a terminal did, once)."""
    import ast

    found = []
    for path in sorted((ROOT / "d2d_cli").rglob("*.py")):
        text = path.read_text("utf-8")
        tree = ast.parse(text)
        if any(isinstance(n, ast.ImportFrom) and n.module == "__future__"
               and any(a.name == "annotations" for a in n.names) for n in tree.body):
            continue
        only_mypy = {a.asname or a.name.split(".")[0]
                     for n in ast.walk(tree) if isinstance(n, ast.If)
                     and "TYPE_CHECKING" in ast.unparse(n.test)
                     for m in ast.walk(n) if isinstance(m, ast.Import | ast.ImportFrom)
                     for a in m.names}
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            args = node.args
            evaluated = [a.annotation for a in (*args.posonlyargs, *args.args,
                                                *args.kwonlyargs, args.vararg, args.kwarg)
                         if a is not None and a.annotation is not None]
            evaluated += [node.returns] if node.returns is not None else []
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {name.id}"
                      for ann in evaluated for name in ast.walk(ann)
                      if isinstance(name, ast.Name) and name.id in only_mypy]
    assert found == []


def test_a_group_s_own_callback_is_evaluated_once_before_typer_builds_it() -> None:
    """``d2d board`` is a group with a callback of its own (it draws the map): in a
    module that postpones its annotations, the callback is evaluated once by
    ``cli.evaluated`` like a command, not read as strings by Typer each time."""
    code = ("from d2d_cli import cli\n"
            "from d2d_cli.commands import board\n"
            "cb = board.app.registered_callback.callback\n"
            "assert isinstance(cb.__annotations__['json'], str)\n"
            "cli.root_command().get_command(None, 'board')\n"
            "print(sorted(k for k, v in cb.__annotations__.items() if isinstance(v, str)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "[]"
