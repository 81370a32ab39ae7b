"""Armor in ``d2d crit`` (issue 11 items 1–2): the armor is found at the Crit location
after it is drawn (001 l.898 "Armor Location - Find Armor at the Location"), and it
cancels the Power (001 l.908–910 "Power Rating adds Hits / Armor Rating cancels Power
Rating"): armor only takes Hits away, at any scale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli.rules.combat import crits
from d2d_cli.rules.scale.stats import Stat, parse_stat
from tests.helpers import rule_text

ORDER = ["minor", "major", "critical", "extreme"]


def test_the_quoted_lines_are_the_rule_text() -> None:
    # The lines this file (and docs/rules.md, docs/errata.md) cite, as printed.
    lines = rule_text("001").splitlines()
    assert lines[897] == "**Armor Location** - Find Armor at the Location"
    assert lines[907] == "Power Rating adds Hits"
    assert lines[909] == "Armor Rating cancels Power Rating"
    assert lines[927] == "IF Power Level > Armor Level THEN"
    assert lines[929] == "Hits:+1 (eg 7x2 > 2x1 = Hits:+1)"
    assert lines[933] == "IF Power Scale >= Armor Scale THEN"
    assert lines[935] == "Hits:+Difference (eg 2x4 > 9x1 = Hits:+3)"
    assert lines[306] == "Scale - The number of zeroes after Rank  "


@pytest.mark.parametrize(("armor", "added", "severity"), [
    # Issue 11 item 1: "crit --power 10x1 --hits 1 --card pierce@torso is minor; the same
    # with --armor 2x1 is major and with --armor 2x-1 extreme". Now no armor (0x0) lets
    # the whole Power through (+1 level, +1 scale) and armor only cancels some of it.
    (None, 2, "critical"),
    ("2x1", 1, "major"),      # 001 l.928 "IF Power Level > Armor Level THEN Hits:+1"
    ("2x-1", 2, "critical"),  # a tiny armor cancels nothing; it adds nothing either
    ("10x1", 0, "minor"),     # armor as strong as the Power cancels it all
    ("2x5", 0, "minor"),
])
def test_armor_only_takes_hits_away_001_l910(d2d: Any, armor: str | None, added: int,
                                             severity: str) -> None:
    extra = ["--armor", armor] if armor else []
    r = d2d.json("crit", "--power", "10x1", "--hits", 1, "--card", "pierce@torso", *extra)
    assert (r["bonus_unarmored"], r["bonus_hits"], r["severity"]) == (2, added, severity)


def test_levels_compare_only_on_the_armors_scale_or_above(d2d: Any) -> None:
    # Issue 11: "9x0 vs 2x5 must not add a Hit". 001 l.928 read alone gives +1 (9 > 2)
    # to a Power 1/22,000 of the Armor; d2d compares levels only when "Power Scale >=
    # Armor Scale" (l.934), the condition of the scale comparison.
    r = d2d.json("crit", "--power", "9x0", "--armor", "2x5", "--card", "bash@head")
    assert (r["bonus"], r["bonus_hits"], r["hits"]) == ({"level": 0, "scale": 0}, 0, 1)
    r = d2d.json("crit", "--power", "2x5", "--armor", "9x0", "--card", "bash@head")
    assert (r["bonus"], r["bonus_hits"]) == ({"level": 0, "scale": 5}, 5)


def test_armor_per_location_is_found_after_the_draw_001_l898(d2d: Any) -> None:
    # 001 l.892–898: the location first ("Draw until you find matching a Type"), then
    # "Armor Location - Find Armor at the Location". The printed armor pieces: l.900
    # "[Armor]: Rating:1x1 (Armor: Head)", l.924 "[Armor]: Rating:2x1 [Armor: Head]".
    given = ["--armor", "head=2x1", "--armor", "Torso=4x1"]
    r = d2d.json("crit", "--power", "6x1", *given, "--types", "pierce",
                 "--card", "bash@head", "--card", "pierce@torso")
    assert (r["location"], r["armor"], r["armor_source"], r["armor_scope"]) == (
        "torso", "4x1", "option", "location")
    assert (r["bonus"], r["bonus_hits"]) == ({"level": 1, "scale": 0}, 1)
    r = d2d.json("crit", "--power", "6x1", *given, "--card", "pierce@left_arm")
    assert (r["armor"], r["armor_source"], r["armor_scope"], r["bonus_hits"]) == (
        None, None, None, 2)
    # A bare rating covers the locations not named.
    r = d2d.json("crit", "--power", "6x1", "--armor", "6x1", "--armor", "head=2x1",
                 "--card", "pierce@left_arm")
    assert (r["armor"], r["armor_scope"], r["bonus_hits"]) == ("6x1", "all", 0)
    r = d2d.json("crit", "--power", "6x1", "--armor", "6x1", "--armor", "head=2x1",
                 "--card", "pierce@head")
    assert (r["armor"], r["armor_scope"], r["bonus_hits"]) == ("2x1", "location", 1)


def test_vehicle_armor_names_vehicle_locations(d2d: Any) -> None:
    r = d2d.json("crit", "--vehicle", "--power", "6x3", "--armor", "hull=4x3",
                 "--armor", "engine=2x3", "--card", "bash@engine")
    assert (r["armor"], r["bonus_hits"]) == ("2x3", 1)


def _goblin(d2d: Any, tmp_path: Path, armor: str) -> Path:
    path = tmp_path / "fight.toml"
    d2d.ok("--session", path, "fate", "status")
    path.write_text(path.read_text() + '\n[units.Goblin]\nkind = "unit"\nbody = "2x1"\n'
                    + armor)
    return path


def test_target_armor_from_the_session(d2d: Any, tmp_path: Path) -> None:
    # With --target and no --armor, the unit's own armor: per location ...
    s = _goblin(d2d, tmp_path, '[units.Goblin.armor]\nhead = "1x1"\ntorso = "2x1"\n')
    r = d2d.json("--session", s, "crit", "--power", "6x1", "--card", "bash@head",
                 "--target", "Goblin")
    # 1x1 is 10x0: one scale below the Power (+1), its level higher (+0).
    assert (r["armor"], r["armor_source"], r["armor_scope"], r["bonus_hits"]) == (
        "10x0", "unit", "location", 1)
    r = d2d.json("--session", s, "crit", "--power", "6x1", "--card", "bash@torso",
                 "--target", "Goblin")
    assert (r["armor"], r["armor_source"], r["bonus_hits"]) == ("2x1", "unit", 1)
    r = d2d.json("--session", s, "crit", "--power", "6x1", "--card", "bash@left_leg",
                 "--target", "Goblin")
    assert (r["armor"], r["armor_source"], r["bonus_hits"]) == (None, None, 2)
    # ... and --armor, when given, is what is worn.
    r = d2d.json("--session", s, "crit", "--power", "6x1", "--armor", "9x1",
                 "--card", "bash@torso", "--target", "Goblin")
    assert (r["armor"], r["armor_source"], r["bonus_hits"]) == ("9x1", "option", 0)
    out = d2d.ok("--session", s, "crit", "--power", "6x1", "--card", "bash@torso",
                 "--target", "Goblin")
    assert out == (
        "Wound deck: bash@torso → Crit location Torso\n"
        "Armor at Torso: 2x1 (from Goblin's armor)\n"
        "Power 6x1 vs Armor 2x1: Hits +1 (level), +0 (scale) → Hits 1 + 1 = 2\n"
        "Severity Major (1 rotation)\n"
        "Mortal Wound: the Unit is Dying.\n"
        "Placed on Goblin (Crit 5)\n"
    )


def test_target_armor_for_every_location(d2d: Any, tmp_path: Path) -> None:
    s = _goblin(d2d, tmp_path, 'armor = "6x1"\n')
    r = d2d.json("--session", s, "crit", "--power", "6x1", "--card", "bash@left_leg",
                 "--target", "Goblin")
    assert (r["armor"], r["armor_source"], r["armor_scope"], r["bonus_hits"]) == (
        "6x1", "unit", "all", 0)


@pytest.mark.parametrize(("args", "message"), [
    (["--armor", "tail=2x1"], "--armor tail=2x1: 'tail' is not a person location — the "
                              "locations are head, torso, left_arm"),
    (["--armor", "head=2x1", "--armor", "head=3x1"], "--armor head=3x1: head is given twice"),
    (["--armor", "2x1", "--armor", "3x1"], "--armor 3x1: a bare rating covers every "
                                           "location and is given once"),
    (["--armor", "head=x1"], "--armor head=x1: not a stat: 'x1' — a stat is"),
    (["--armor", "hull=2x1"], "'hull' is not a person location"),
])
def test_bad_armor_is_one_line_and_changes_nothing(d2d: Any, args: list[str],
                                                    message: str) -> None:
    before = d2d.ok("session", "show")
    res = d2d("crit", "--power", "6x1", "--types", "pierce", *args)
    assert res.exit_code == 2, res.stderr
    assert message in res.stderr and res.stderr.count("\n") == 1
    assert d2d.ok("session", "show") == before


def test_bad_unit_armor_is_refused(d2d: Any, tmp_path: Path) -> None:
    s = _goblin(d2d, tmp_path, '[units.Goblin.armor]\ntail = "2x1"\n')
    before = s.read_text()
    res = d2d("--session", s, "crit", "--power", "6x1", "--types", "fear",
              "--target", "Goblin")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: the armor of unit 'Goblin': 'tail' is not a person "
                          "location — the locations are head, torso, left_arm, right_arm, "
                          "left_leg, right_leg\n")
    assert s.read_text() == before


# --------------------------------------------------------------------------- properties

stats = st.builds(Stat, st.integers(2, 10), st.integers(-5, 60))


@settings(max_examples=300, deadline=None)
@given(stats, stats, st.integers(1, 12))
def test_adding_armor_never_makes_a_crit_worse(power: Stat, armor: Stat, hits: int) -> None:
    # Issue 11: "for random Power, Armor (any scales) and Hits, adding armor never
    # increases the severity (nor the Hits)" — through the whole Crit, table mode.
    def rate(worn: tuple[str, ...]) -> crits.Crit:
        ask = crits.CritAsk(power=str(power), armor=worn, hits=hits, cards=("bash@torso",))
        return crits.crit(ask, {}, None)

    bare, armored = rate(()), rate((str(armor),))
    assert armored.hits <= bare.hits
    assert ORDER.index(armored.severity) <= ORDER.index(bare.severity)
    assert len(armored.light_damage) <= len(bare.light_damage)
    assert armored.hits >= hits  # armor cancels the Power's Hits, never the Conflict's


@settings(max_examples=300, deadline=None)
@given(stats, stats, stats)
def test_stronger_armor_never_adds_hits(power: Stat, a: Stat, b: Stat) -> None:
    weak, strong = sorted((a, b), key=lambda s: s.magnitude)
    assert crits.bonus_hits(power, strong) <= crits.bonus_hits(power, weak)
    assert crits.bonus_hits(power, weak) <= crits.bonus_hits(power, None)


def test_printed_armor_parses() -> None:
    assert str(parse_stat("1x1")) == "10x0"  # 001 l.900's helmet, canonical
