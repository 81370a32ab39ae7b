"""Advancement with Ability Points (issue 19 item 10).

001 l.1114–1119 "Respec / Lose ONE Ability/Item/Specialty for AP:+1 / OR / Reduce ONE
Power's Rating for AP:+1"; l.1131 "Gain Rating:+1 on a Power"; 000 l.377 "spend 1 AP to
gain an Ability, Specialty, or Proficiency in one of your Skills OR add 1 to the
Intensity one of your Powers"; l.378 "Specialty - IF you gain an Ability in a Specialty
that you have THEN every third Ability costs 0 AP". The SP respec's default never makes
SP from nothing (001 l.1108 "Spend SP = Current Level of Skill or Power"): see also
tests/test_characters.py::test_skill_points_cannot_be_farmed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import assert_refused, rule_line


def _rook(d2d: Any, *s: Any, ap: int = 10) -> None:
    d2d.ok(*s, "char", "new", "Rook", "--archetype", "thief")
    d2d.ok(*s, "char", "award", "Rook", "--ap", ap, "--sp", 5)


def test_the_quoted_lines() -> None:
    assert rule_line("001", 1116).strip() == "Lose ONE Ability/Item/Specialty for AP:+1"
    assert rule_line("001", 1119).strip() == "Reduce ONE Power's Rating for AP:+1"
    assert rule_line("001", 1131).strip() == "Gain Rating:+1 on a Power"
    assert "add 1 to the Intensity one of your Powers" in rule_line("000", 377)
    assert "every third Ability costs 0 AP" in rule_line("000", 378)


def test_every_third_ability_in_a_specialty_is_free(d2d: Any) -> None:
    _rook(d2d)
    r = d2d.json("char", "learn", "Rook", "Locks", "--specialty")
    assert (r["change"]["kind"], r["ap"]) == ("specialty", 9)
    spent = []
    for n, ability in enumerate(("Pick Lock", "Bypass", "Jam Lock", "Rekey", "Shim",
                                 "Master Key"), 1):
        r = d2d.json("char", "learn", "Rook", ability, "--in", "locks")
        assert (r["change"]["specialty"], r["change"]["nth_in_specialty"]) == ("Locks", n)
        spent.append(r["change"]["ap_spent"])
    assert spent == [1, 1, 0, 1, 1, 0]
    assert r["ap"] == 5
    out = d2d.ok("char", "learn", "Rook", "Climb Walls")  # not in a Specialty: 1 AP
    assert "gains Climb Walls (−1 AP)" in out


def test_a_power_rating_for_1_ap_and_back(d2d: Any) -> None:
    _rook(d2d)
    d2d.ok("char", "train", "Rook", "Fire")  # a new Power, 1 SP (Level 1)
    r = d2d.json("char", "learn", "Rook", "--power", "Fire")
    assert (r["skills"]["Fire"], r["ap"], r["change"]["kind"]) == (2, 9, "rating")
    r = d2d.json("char", "unlearn", "Rook", "--power", "Fire")
    assert (r["skills"]["Fire"], r["ap"], r["change"]) == (
        1, 10, {"lost": "Fire Rating 2 → 1", "kind": "rating", "ap_gained": 1})


def test_ap_does_not_turn_into_sp_through_a_power(d2d: Any, data_dir: Path) -> None:
    # 001 l.1131 "Gain Rating:+1 on a Power" (1 AP) against l.1108 "Spend SP = Current
    # Level of Skill or Power": the SP respec gave back L-1 SP for a level bought with
    # 1 AP, so Fire 1 (1 SP) raised to 6 with 5 AP came back as 5 SP. The default
    # respec (respec_sp = "cost") gives back SP only for what SP bought.
    assert rule_line("001", 1108).strip() == "Spend SP = Current Level of Skill or Power"
    d2d.ok("char", "new", "Mage")
    d2d.ok("char", "award", "Mage", "--sp", 1, "--ap", 5)
    d2d.ok("char", "train", "Mage", "Fire")  # Level 1 for 1 SP
    for _ in range(5):
        d2d.ok("char", "learn", "Mage", "--power", "Fire")  # Rating +1 for 1 AP each
    r = d2d.json("char", "respec", "Mage", "Fire")
    assert (r["skills"]["Fire"], r["sp"], r["change"]["sp_gained"]) == (5, 1, 1)
    d2d.ok("char", "downtime")
    assert_refused(d2d, data_dir, ["char", "respec", "Mage", "Fire"],
                   "Mage's Fire 5 is all Rating bought with AP")
    r = d2d.json("char", "unlearn", "Mage", "--power", "Fire")  # the AP respec, l.1119
    assert (r["skills"]["Fire"], r["ap"], r["sp"]) == (4, 1, 1)


def test_ap_respec_once_per_downtime(d2d: Any, data_dir: Path) -> None:
    _rook(d2d)
    d2d.ok("char", "learn", "Rook", "Pick Lock")
    d2d.ok("char", "learn", "Rook", "Bypass")
    r = d2d.json("char", "unlearn", "Rook", "pick lock")
    assert (r["abilities"], r["ap"], r["change"]["ap_gained"]) == (["Bypass"], 9, 1)
    folder = next(data_dir.rglob("*.toml")).parent
    assert_refused(d2d, folder, ["char", "unlearn", "Rook", "Bypass"],
                   "Rook has already given up Pick Lock for AP in this Downtime")
    d2d.ok("char", "downtime")
    assert d2d.json("char", "unlearn", "Rook", "Bypass")["ap"] == 10


def test_the_free_third_gives_back_nothing(d2d: Any) -> None:
    # Learning the free third and giving it up would make 1 AP from nothing.
    _rook(d2d)
    d2d.ok("char", "learn", "Rook", "Locks", "--specialty")
    for ability in ("Pick Lock", "Bypass", "Jam Lock"):
        d2d.ok("char", "learn", "Rook", ability, "--in", "Locks")
    r = d2d.json("char", "unlearn", "Rook", "Jam Lock")
    assert (r["change"]["ap_gained"], r["ap"]) == (0, 7)


def test_refusals_change_nothing(d2d: Any, data_dir: Path) -> None:
    _rook(d2d, ap=1)
    folder = next(data_dir.rglob("*.toml")).parent
    for args, message in (
            (["char", "learn", "Rook", "Bypass", "--in", "Locks"], "has no Specialty 'Locks'"),
            (["char", "learn", "Rook", "--power", "Fire"], "has no Fire to raise"),
            (["char", "learn", "Rook", "--power", "Stealth"], "not a Power"),
            (["char", "learn", "Rook", "X", "--specialty", "--in", "Y"], "not both"),
            (["char", "learn", "Rook"], "learn what?"),
            (["char", "unlearn", "Rook", "Nothing"], "has no Ability 'Nothing'"),
            (["char", "unlearn", "Rook"], "give the ABILITY")):
        assert_refused(d2d, folder, args, message)
    d2d.ok("char", "learn", "Rook", "Locks", "--specialty")
    assert_refused(d2d, folder, ["char", "learn", "Rook", "Bypass", "--in", "Locks"],
                   "costs 1 AP")
