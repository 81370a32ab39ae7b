"""Typer reads a command's signature two or three times as it builds it, evaluating its
string annotations (``from __future__ import annotations``) each time; ``cli.evaluated``
evaluates them once (issue 40 item 3: a third to a half of a lookup's own run). The
command line Typer builds must not change by a hair: every parameter of every command,
of the root and of their callbacks is compared with what Typer builds from the strings."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers import ROOT

DESCRIBE = r'''
import json, sys, typing
import typer, typer.main, typer.utils  # Typer holds the real get_type_hints
if sys.argv[1] == "strings":  # as before: nothing evaluated ahead, Typer evaluates each
    real = typing.get_type_hints

    def refuse(*args, **kwargs):
        raise RuntimeError("left a string")

    typing.get_type_hints = refuse  # cli.evaluated, at import, leaves every string
    from d2d_cli import cli
    typing.get_type_hints = real
    cli.evaluated = lambda func: func
    assert isinstance(cli.root.__annotations__["session"], str)
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
