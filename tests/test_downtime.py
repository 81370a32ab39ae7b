"""Healing over days (issue 19 item 9).

000 l.1156 "Burns - Speed:-1. Month:Burns:-1. Leaves Scarring."; l.1148 "Blood Loss -
Body:-1. Day: Blood Loss:-1."; l.611 "Recover - Each Unit removes a Fatigue, Stun,
Stress, or Slow."; l.1140–1143 "Bleeding - Mind:-1. Event: Reveal Conflict … Cups=
Bleeding:-1".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import rule_line, with_rules


def _unit(d2d: Any, *s: Any) -> None:
    d2d.ok(*s, "unit", "add", "G", "--body", "6x1", "--mind", "6x1", "--will", "6x1",
           "--speed", "5x0")


def test_the_quoted_lines() -> None:
    assert rule_line("000", 1156).strip() == "- Burns - Speed:-1. Month:Burns:-1. Leaves Scarring."
    assert rule_line("000", 611).strip() == ("- Recover - Each Unit removes a Fatigue, Stun, "
                                             "Stress, or Slow.")
    assert rule_line("000", 1143).strip() == "- Cups=Bleeding:-1"


def test_31_single_days_heal_a_burn_as_a_month_does(d2d: Any) -> None:
    _unit(d2d)
    d2d.ok("unit", "condition", "G", "add", "Burns", "--count", "2")
    for day in range(1, 30):
        r = d2d.json("unit", "heal", "G", "--days", "1")
        assert (r["healed"], r["carried"]) == ({}, {"burns": day})
    r = d2d.json("unit", "heal", "G", "--days", "1")  # the 30th day: "Month:Burns:-1"
    assert (r["healed"], r["carried"], r["conditions"]) == ({"burns": 1}, {}, {"burns": 1})
    r = d2d.json("unit", "heal", "G", "--days", "1")  # the 31st: the next month begins
    assert (r["healed"], r["carried"]) == ({}, {"burns": 1})
    # A month in one go from the same start gives the same count.
    d2d.ok("unit", "add", "H", "--body", "6x1", "--mind", "6x1", "--will", "6x1", "--speed",
           "5x0")
    d2d.ok("unit", "condition", "H", "add", "Burns", "--count", "2")
    r = d2d.json("unit", "heal", "H", "--days", "31")
    assert (r["healed"], r["carried"], r["conditions"]) == ({"burns": 1}, {"burns": 1},
                                                            {"burns": 1})


def test_bleeding_and_slow_do_not_survive_six_weeks(d2d: Any) -> None:
    _unit(d2d)
    for cond, n in (("Bleeding", 2), ("Slow", 3), ("Burns", 1), ("Blood Loss", 1),
                    ("Dying", 1)):
        d2d.ok("unit", "condition", "G", "add", cond, "--count", n)
    r = d2d.json("unit", "heal", "G", "--days", "42")
    assert r["healed"] == {"slow": 3, "bleeding": 2, "blood_loss": 1, "burns": 1}
    # Dying has no time in the text: the Narrator removes it (docs/rules.md).
    assert (r["conditions"], r["carried"]) == ({"dying": 1}, {})


def test_the_glossary_reading_heals_by_its_times_only(d2d: Any, tmp_path: Path) -> None:
    path = with_rules(d2d, tmp_path, days_heal="glossary")
    s = ("--session", path)
    _unit(d2d, *s)
    for cond, n in (("Bleeding", 1), ("Slow", 1), ("Burns", 1)):
        d2d.ok(*s, "unit", "condition", "G", "add", cond, "--count", n)
    r = d2d.json(*s, "unit", "heal", "G", "--days", "42")
    assert (r["healed"], r["conditions"]) == ({"burns": 1}, {"bleeding": 1, "slow": 1})
