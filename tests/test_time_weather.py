"""Weather (000 "Weather"): "Direction - Reveal Conflict d8 - N, S, E, W, NE, NW, SE, SW";
"Wind Velocity - Reveal 3xConflict. For each J, Q, K, or A revealed, add 10km/hr and draw
again."."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from d2d_cli.rules.time import weather
from tests.helpers import session_bytes

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("card", "direction"), [
    ("2C", "N"), ("2D", "S"), ("2H", "E"), ("2S", "W"),
    ("2Cv", "NE"), ("2Dv", "NW"), ("2Hv", "SE"), ("2Sv", "SW")])
def test_direction_is_the_d8_in_the_rules_order(d2d, card, direction):
    """d8: suit 1–4 (♣ ♦ ♥ ♠), +4 if Lower (docs/errata.md); 1 → N … 8 → SW."""
    r = d2d.json("weather", "wind", "--card", card, "--card", "3C", "--card", "4C",
                 "--card", "5C")
    assert r["direction"] == direction
    assert (r["speed_kph"], r["beaufort"], r["speed_stat"]) == (0, "Calm", None)


def test_speed_high_cards_add_10_and_draw_again(d2d):
    r = d2d.json("weather", "wind", "--card", "AC", "--card", "3H", "--card", "KC",
                 "--card", "QD", "--card", "9D", "--card", "2S")
    assert r["direction"] == "N"
    assert r["speed_kph"] == 20  # K and Q: +10 each, each drawing one more
    assert (r["beaufort"], r["beaufort_number"], r["speed_stat"]) == ("Moderate breeze", 4,
                                                                       "2x1")
    assert [c["code"] for c in r["cards"]] == ["AC^", "3H^", "KC^", "QD^", "9D^", "2S^"]
    assert d2d.json("weather", "show") == r
    assert "direction N, 20 km/h — Moderate breeze (Beaufort 4, Speed 2x1)" in \
        d2d.ok("weather", "show")


def test_a_wild_direction_is_redrawn_and_a_wild_speed_card_adds_nothing(d2d):
    r = d2d.json("weather", "wind", "--card", "RW", "--card", "JSv", "--card", "BW",
                 "--card", "AH", "--card", "5C", "--card", "6C")
    assert (r["direction"], r["speed_kph"], r["beaufort"]) == ("SW", 10, "Light breeze")


def test_deck_mode_is_stored_and_seeded(d2d):
    d2d("--seed", "4", "session", "new", "w")
    d2d("session", "use", "w")
    top = [c["code"] for c in d2d.json("fate", "draw", "20", "--peek")["cards"]]
    r = d2d.json("weather", "wind")
    assert [c["code"] for c in r["cards"]] == top[:len(r["cards"])]
    again = d2d.json("weather", "wind", *sum((["--card", c] for c in top[:len(r["cards"])]),
                                               []))
    assert again == r


def test_too_few_or_too_many_table_cards(d2d, data_dir):
    d2d.json("fate", "status")
    before = session_bytes(data_dir)
    res = d2d("weather", "wind", "--card", "2C", "--card", "KC", "--card", "3C",
              "--card", "4C")
    assert res.exit_code == 2
    assert "not enough cards with --card: 4 given, at least 5 needed" in res.stderr
    res = d2d("weather", "wind", *(x for c in ["2C", "3C", "4C", "5C", "6C"]
                                   for x in ("--card", c)))
    assert res.exit_code == 2 and "too many cards with --card: 5 given, only 4 needed" in res.stderr
    assert session_bytes(data_dir) == before
    assert d2d("weather", "show").exit_code == 2


@cache
def _p(high: int, low: int, pending: int) -> dict[int, Fraction]:
    """Chance of each count of high cards still to come, by drawing card by card."""
    if pending == 0:
        return {0: Fraction(1)}
    out: dict[int, Fraction] = {}
    total = high + low
    if high:
        for k, p in _p(high - 1, low, pending).items():
            out[k + 1] = out.get(k + 1, 0) + p * Fraction(high, total)
    if low:
        for k, p in _p(high, low - 1, pending - 1).items():
            out[k] = out.get(k, 0) + p * Fraction(low, total)
    return out


def test_speed_distribution_is_exact():
    """The closed form equals a card-by-card enumeration of a fresh 54-card deck
    (16 J/Q/K/A, 36 number cards and 2 Wilds)."""
    by_enumeration = {10 * k: p for k, p in _p(16, 38, 3).items()}
    assert weather.speed_distribution() == by_enumeration
    assert sum(weather.speed_distribution().values()) == 1
    assert weather.speed_distribution()[0] == Fraction(703, 2067)


def test_docs_table_is_the_computed_distribution():
    text = (ROOT / "docs" / "rules.md").read_text("utf-8")
    rows = dict(re.findall(r"^\| (\d+) km/h \| [^|]+ \| (\d+/\d+) \|", text, re.M))
    assert {int(k): Fraction(v) for k, v in rows.items()} == weather.speed_distribution()


@pytest.mark.parametrize(("kph", "name"), [
    (0, "Calm"), (10, "Light breeze"), (20, "Moderate breeze"), (30, "Fresh breeze"),
    (40, "Strong breeze"), (50, "Near gale"), (60, "Near gale"), (70, "Gale"),
    (80, "Strong gale"), (90, "Storm"), (100, "Storm"), (110, "Violent storm"),
    (120, "Hurricane"), (160, "Hurricane")])
def test_beaufort(kph, name):
    assert weather.beaufort(kph)["name"] == name


def test_speed_stat_conventions():
    """001 p.10 "Speed - 5x0 = 5kph", "4x1 = 40kph"; 000 "below 20 kph … m/s"."""
    assert weather.speed_stat(40) == "4x1"
    assert weather.speed_stat(10) == "10x0"
    assert weather.speed_stat(10, "000") == "3x0"  # 10 km/h = 2.8 m/s
    assert weather.speed_stat(0) is None


def test_human_views_exact(d2d):
    out = ("Wind: direction NE, 10 km/h — Light breeze (Beaufort 2, Speed 10x0)\n"
           "Cards: 2♣ 2 of Wands ↓, K♣ King of Wands ↑, 3♣ 3 of Wands ↑, 4♣ 4 of Wands ↑, "
           "5♣ 5 of Wands ↑\n")
    assert d2d.ok("weather", "wind", "--card", "2Cv", "--card", "KC", "--card", "3C",
                  "--card", "4C", "--card", "5C") == out
    assert d2d.ok("weather", "show") == out
