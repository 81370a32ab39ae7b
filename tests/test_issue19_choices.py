"""Issue 19 item 13: decisions that read oddly, made one way.

- An Action Cost of 0: 001 l.461 "Action Cost = Speed/2 (round down)"; docs/rules.md and
  docs/errata.md say the same thing (at least 1).
- `char new` with a template under 001's speed convention says why it keeps the 000
  template's Speed 4x0 (000 l.1034 "Speed:4x0 (4m/s)"; 001 l.314 "Speed - 5x0 =
  5kph/3mph"), and the human it suggests replays Combat #1's Move (000 l.579–596).
(The Power area's monotone default is tested in tests/test_scale_cli.py.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.helpers import ROOT, assert_refused, rule_line, with_rules


def test_the_quoted_lines() -> None:
    assert rule_line("001", 461) == "**Action Cost** = Speed/2 (round down)"
    assert rule_line("001", 314).strip() == "Speed - 5x0 = 5kph/3mph"
    assert rule_line("000", 1034).strip() == "- Speed:4x0 (4m/s)"


def test_rules_and_errata_agree_on_an_action_cost_of_0() -> None:
    from d2d_cli.rules.scale.quantities import move_tokens
    from d2d_cli.rules.scale.stats import Stat

    rules = " ".join((ROOT / "docs" / "rules.md").read_text().split())
    errata = " ".join((ROOT / "docs" / "errata.md").read_text().split())
    assert "**Action Cost = Move ÷ 2, rounded down, and at least 1**" in rules
    assert "**Action Cost 0** never comes from the Refresh: the Action Cost is at least 1" \
        in rules
    row = next(x for x in errata.split("| 001 l.461") if x.startswith(' "Action Cost'))
    assert "**At least 1.**" in row
    assert not re.search(r"d2d does not count Actions", rules + errata)
    assert [move_tokens(Stat(n, 0), "personal").action_cost for n in (0, 1, 2, 3)] == [
        1, 1, 1, 1]


def test_template_says_why_it_keeps_speed_4(d2d: Any, tmp_path: Path) -> None:
    s = ["--session", tmp_path / "t.toml"]
    r = d2d.json(*s, "char", "new", "Archer", "--template", "human-male")
    assert r["base_stats"]["speed"] == "4x0" and len(r["notes"]) == 1
    assert "001's Human Male is Speed 5x0 (001 l.314)" in r["notes"][0]
    assert "(e.g. --speed 5 --will 4)" in r["notes"][0]
    # Under 000's convention 4x0 is the 4 m/s it was written as: nothing to say.
    path = with_rules(d2d, tmp_path / "old", speed_convention="000")
    assert d2d.json("--session", path, "char", "new", "Archer", "--template",
                    "human-male")["notes"] == []
    # With the level moved into Speed, nothing to say either.
    assert d2d.json(*s, "char", "new", "Bowman", "--template", "human-male", "--speed", "5",
                    "--will", "4")["notes"] == []


def test_the_suggested_human_plays_the_archers_turn(d2d: Any, tmp_path: Path) -> None:
    # l.579 "Move:-2", l.592 "Move:-1", l.596 "Archer - Attacks the Scout" (Action Cost 2).
    folder = tmp_path / "s"
    folder.mkdir()
    s = ["--session", folder / "t.toml"]
    d2d.ok(*s, "char", "new", "Archer", "--template", "human-male", "--speed", "5",
           "--will", "4")
    d2d.ok(*s, "char", "new", "Walker", "--template", "human-male")
    d2d.ok(*s, "round", "start")
    for who in ("Archer", "Walker"):
        for step in ("forward", "equip", "forward"):
            d2d.ok(*s, "unit", "move", who, step)
    assert d2d.json(*s, "unit", "act", "Archer", "interact")["move"] == 0
    assert_refused(d2d, folder, [*s, "unit", "act", "Walker", "interact"],
                   "Walker has Move 1; Interact costs 2")
