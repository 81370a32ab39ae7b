"""rules.core.lazy_module: a module a hot function reads, imported when first read (issue
40: a Combat #1 fight ran ~500 function-level import statements, ~1 µs each).

Each check runs in a fresh interpreter: whether a module is imported yet depends on what
the process imported before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=120)
    return dict(json.loads(out.stdout.splitlines()[-1]))


def test_the_stand_in_imports_on_first_read_and_gives_way_to_the_module() -> None:
    got = _run("""
import json, sys
from d2d_cli.rules.core import lazy_module
scope = {}
scope["m"] = lazy_module("colorsys", scope, "m")
before = "colorsys" in sys.modules
value = scope["m"].rgb_to_hsv(1.0, 0.0, 0.0)
import colorsys
print(json.dumps({"before": before, "value": list(value),
                  "bound": scope["m"] is colorsys, "repr": repr(lazy_module("x", {}, "x"))}))
""")
    assert got["before"] is False  # nothing imported until read
    assert got["value"] == [0.0, 1.0, 1.0]  # the module's own function answered
    assert got["bound"] is True  # the global is the module from then on
    assert got["repr"] == "<module 'x', imported when first read>"


def test_a_stand_in_bound_elsewhere_is_left_alone() -> None:
    # the scope's name was rebound meanwhile (by hand, or a real import): not overwritten
    got = _run("""
import json
from d2d_cli.rules.core import lazy_module
scope = {}
stand_in = lazy_module("colorsys", scope, "m")
scope["m"] = "something else"
hls = stand_in.rgb_to_hls(0.0, 0.0, 0.0)
print(json.dumps({"kept": scope["m"], "hls": list(hls)}))
""")
    assert got == {"kept": "something else", "hls": [0.0, 0.0, 0.0]}


def test_the_combat_modules_import_roster_map_and_effects_only_when_units_fight() -> None:
    # A Conflict of two cards reads no roster, no map, no effects (as the function-level
    # imports these stand in for); a Conflict between units on the map reads them all,
    # and from then on each module's global is the module itself.
    got = _run("""
import json, sys, types
from d2d_cli.rules.combat import conflict, hits, situation
watched = ["d2d_cli.rules.board.derive", "d2d_cli.rules.units.gear",
           "d2d_cli.rules.units.stealth", "d2d_cli.rules.units.effects"]
conflict.ask(["2S", "3H"], {}).resolve(None)
cards = {m: m in sys.modules for m in watched}
from d2d_cli.rules.combat import remembered
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.operations import sim as op
from d2d_cli.rules.core.options import DEFAULTS
label, start, _ = op._start("combat1", {})
goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
sim.play_runs(start, goals, 1, range(2), DEFAULTS, "best")
bound = {f"{mod.__name__}.{name}": isinstance(getattr(mod, name), types.ModuleType)
         for mod, names in ((conflict, ("_derive", "_remembered", "_roster")),
                            (hits, ("_derive", "_remembered", "_effects", "_roster")),
                            (situation, ("_effects", "_gear", "_stealth")),
                            (remembered, ("_placement", "_sight")))
         for name in names}
print(json.dumps({"cards": cards, "bound": bound}))
""")
    assert got["cards"] == {m: False for m in got["cards"]}
    assert got["bound"] and all(got["bound"].values()), got["bound"]


def test_a_pattern_compiled_on_first_use_is_compiled_once_with_its_flags() -> None:
    import re

    from d2d_cli.rules.core import compiled_on_first_use

    queen = compiled_on_first_use(r"^q\w$", re.IGNORECASE)
    assert queen.cache_info().currsize == 0  # made by nothing until asked
    first = queen()
    assert first is queen() and queen.cache_info().currsize == 1
    assert first.match("QH") and not first.match("QHX") and first.flags & re.IGNORECASE
    # each made pattern is its own: another with the same text and other flags differs
    other = compiled_on_first_use(r"^q\w$")
    assert other() is not first and not other().match("QH")
