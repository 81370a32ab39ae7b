"""``d2d scale …`` through the CLI: JSON contracts, errors, [rules] options, map scales,
and the hypothesis round trip (show → back) over levels 2–10 and scales −35…+60.

Sources: 000 = ../shared/seeds/000_fef37bd987c67972.txt, 001 = …/001_a6cbfa98d616fe33.txt.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import Runner, rule_text, with_rules

# --- JSON contracts ---------------------------------------------------------------------

def test_mass_json_contract(d2d: Runner) -> None:
    r = d2d.json("scale", "mass", "80kg")
    assert {k: r[k] for k in ("stat", "level", "scale", "partial", "value", "unit")} == \
        {"stat": "8x1", "level": 8, "scale": 1, "partial": None, "value": 80.0, "unit": "kg"}
    assert {k: v["kg"] for k, v in r["derived"].items()} == \
        {"deadlift": 120.0, "carry": 80.0, "load": 40.0}


def test_mass_json_partial_and_scientific(d2d: Runner) -> None:
    r = d2d.json("scale", "mass", "5.97e24kg")  # 001 p.10 The Earth: Body 6x24
    assert (r["stat"], r["level"], r["scale"], r["partial"], r["value"], r["unit"]) == \
        ("6x24", 6, 24, 5.97, 6e24, "kg")
    r = d2d.json("scale", "mass", "1.2kg")  # 001 p.8 the sword: Body 10x-1
    assert (r["stat"], r["partial"], r["partial_stat"], r["value"]) == \
        ("10x-1", 12.0, "12.0x-1", 1.0)


def test_speed_json_contract(d2d: Runner) -> None:
    r = d2d.json("scale", "speed", "40kph")  # 001 p.10 M1 Abrams: Speed 4x1
    assert (r["stat"], r["level"], r["scale"], r["partial"], r["unit"], r["counts"]) == \
        ("4x1", 4, 1, None, "m/s", "km/h")
    assert r["value"] == pytest.approx(40 / 3.6)
    assert r["other_convention"] is None
    r = d2d.json("scale", "speed", "4m/s")  # 000 "Speed:4x0 (4m/s)"
    assert (r["stat"], r["partial"], r["other_convention"]["stat"]) == ("10x0", 14.4, "4x0")


def test_iq_json_contract(d2d: Runner) -> None:
    r = d2d.json("scale", "iq", "110")  # 000 "Mind:6x1 (110 IQ)"
    assert {k: r[k] for k in ("stat", "level", "scale", "partial", "value", "unit")} == \
        {"stat": "6x1", "level": 6, "scale": 1, "partial": None, "value": 110.0, "unit": "IQ"}


def test_show_and_compare_json(d2d: Runner) -> None:
    r = d2d.json("scale", "show", "5x1", "--as", "mind")  # 000 "Mind:5x1 (100 IQ)"
    assert (r["stat"], r["value"], r["unit"]) == ("5x1", 100.0, "IQ")
    r = d2d.json("scale", "show", "1x9", "--as", "speed")  # 001 p.10 light: 1x9 → 10x8
    assert (r["stat"], r["readings"]["metric"]["text"]) == ("10x8", "1×10^9 km/h")
    r = d2d.json("scale", "compare", "2x4", "9x1")  # 001 p.34 "2x4 > 9x1 = Hits:+3"
    assert (r["higher"], r["level_bonus"], r["scale_difference"]) == ("a", -7, 3)
    r = d2d.json("scale", "compare", "10x0", "1x1")
    assert (r["higher"], r["level_bonus"], r["scale_difference"]) == ("equal", 0, 0)


def test_human_output(d2d: Runner) -> None:
    out = d2d.ok("scale", "mass", "80kg")
    assert out.splitlines() == [
        "80kg → Body 8x1", "  8x1 = 80 kg / 176.4 lb", "  Deadlift: 120 kg / 264.6 lb",
        "  Carry: 80 kg / 176.4 lb", "  Load: 40 kg / 88.18 lb"]
    out = d2d.ok("scale", "speed", "4m/s")
    assert "Under convention 000: 4x0" in out
    assert d2d.ok("scale", "compare", "2x4", "9x1").splitlines()[1] == \
        "  Level Bonus: 7 to 9x1"
    # whole outputs (issue 9)
    assert out == ("4m/s → Speed 10x0 (partial 14.4x0)\n"
                   "  10x0 = 10 km/h = 2.778 m/s = 6.214 mph (level counts km/h, convention "
                   "001)\n"
                   "  Under convention 000: 4x0 (level counts m/s)\n")
    assert d2d.ok("scale", "iq", "110") == "110 → Mind 6x1\n  6x1 = IQ 110 (Mind = IQ − 50)\n"
    assert d2d.ok("scale", "show", "5x0", "--as", "speed") == (
        "Speed 5x0\n"
        "  5x0 = 5 km/h = 1.389 m/s = 3.107 mph (level counts km/h, convention 001)\n"
        "  Under convention 000: 18 km/h = 5 m/s\n")
    assert d2d.ok("scale", "show", "8x1") == (
        "Body 8x1\n  8x1 = 80 kg / 176.4 lb\n  Deadlift: 120 kg / 264.6 lb\n"
        "  Carry: 80 kg / 176.4 lb\n  Load: 40 kg / 88.18 lb\n")
    assert d2d.ok("scale", "compare", "2x4", "9x1") == (
        "2x4 vs 9x1: 2x4 is higher (×222.2)\n  Level Bonus: 7 to 9x1\n"
        "  Scale difference: 3 (higher scale: 2x4)\n")
    assert "Move 5, Action Cost 2" in d2d.ok("scale", "map", "car", "--speed", "5x1")
    assert "aerial" in d2d.ok("scale", "map", "--list")


# --- bad input: one line, naming what is accepted, exit 2 --------------------------------

@pytest.mark.parametrize(("args", "accepted"), [
    (("mass", "0kg"), "kg, g"), (("mass", "-5kg"), "kg, g"), (("mass", "nan"), "kg, g"),
    (("mass", "inf"), "kg, g"), (("mass", "1e999kg"), "kg, g"),
    (("mass", "80 parsecs"), "kg, g"), (("speed", "fast"), "m/s, km/h"),
    (("speed", "80 parsecs"), "m/s, km/h"), (("iq", "nan"), "above 50"),
    *[(("show", bad), "e.g. 8x1") for bad in
      ("0kg", "-5kg", "nan", "inf", "1e999kg", "80 parsecs", "fast", "8x", "x1", "11x1")],
    (("show", "8x1", "--as", "will"), "body (kg), mind (IQ) or speed"),
    (("show", "8x200"), "scale -99 to +99"),
    (("compare", "8x1", "x1"), "e.g. 8x1"),
    (("map", "cave"), "personal, car, naval"),
    (("map",), "--list"),
    (("map", "car", "--speed", "fast"), "e.g. 8x1"),
    (("speed", "4m/s", "--convention", "002"), "001 (the level counts km/h)"),
])
def test_bad_input(d2d: Runner, args: tuple[str, ...], accepted: str) -> None:
    res = d2d("scale", *args)
    assert res.exit_code == 2, (res.stdout, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("d2d: error: "), res.stderr
    assert accepted in lines[0]
    env = d2d.json("scale", *args, code=2)
    assert env["ok"] is False and env["error"]["kind"] == "bad_input"


# --- [rules] options -----------------------------------------------------------------

def test_speed_convention_rule(d2d: Runner, tmp_path: Path) -> None:
    path = with_rules(d2d, tmp_path, speed_convention="000")
    r = d2d.json("--session", path, "scale", "speed", "4m/s")  # 000 "4x0 = 4 m/s"
    assert (r["stat"], r["counts"], r["convention"]) == ("4x0", "m/s", "000")
    assert r["other_convention"]["stat"] == "10x0"
    r = d2d.json("--session", path, "scale", "speed", "4m/s", "--convention", "001")
    assert r["stat"] == "10x0"
    r = d2d.json("--session", path, "scale", "show", "4x0", "--as", "speed")
    assert (r["value"], r["unit"]) == (4.0, "m/s")
    bad = with_rules(d2d, tmp_path, speed_convention="fast")
    res = d2d("--session", bad, "scale", "speed", "4m/s")
    assert res.exit_code == 3
    assert f"{bad}: [rules] speed_convention: 'fast': use \"001\" or \"000\"" in res.stderr


def test_personal_round_rule(d2d: Runner, tmp_path: Path) -> None:
    # 001 l.457 "On normal Maps, a Round is 6 seconds" and l.463 "Move = Speed": 5x0 →
    # Move 5, Action Cost 2, whatever the round's length (issue 11 item 3; the 2 m / 6 s
    # geometry would give 4.17 spaces: docs/errata.md "Move = Speed and the 6-second
    # round").
    r = d2d.json("scale", "map", "personal", "--speed", "5x0")
    assert (r["space_m"], r["round_s"], r["move"], r["action_cost"]) == (2, 6, 5, 2)
    assert (r["spaces_per_round"], r["move_1_kph"], r["move_1_text"]) == (5.0, 1, "1 km/h")
    # 000 l.1048–1049 "Space:2m … Turn:2s" with 000's m/s (l.738 "4x0 = 4 m/s"): 4x0 is
    # 4 m/s × 2 s / 2 m = 4 spaces — and Move = Speed says 4 too.
    path = with_rules(d2d, tmp_path, speed_convention="000", personal_round_s=2)
    r = d2d.json("--session", path, "scale", "map", "personal", "--speed", "4x0")
    assert (r["round_s"], r["spaces_per_round"], r["move"], r["action_cost"],
            r["move_1_kph"]) == (2, 4.0, 4, 2, 3.6)
    bad = with_rules(d2d, tmp_path, personal_round_s=0)
    res = d2d("--session", bad, "scale", "map", "personal")
    assert res.exit_code == 3
    assert f"{bad}: [rules] personal_round_s: 0: use a number of seconds above 0" in res.stderr


# --- map scales (000 "Map and Scale") -------------------------------------------------

@pytest.mark.parametrize(("kind", "speed", "space_m", "round_s", "spaces", "move", "cost"), [
    # Car, 000 l.1053 "Speed - Move:1 = 10kph = 3m/s": 50 km/h is Move 5.
    ("car", "5x1", 3, 1, 5.0, 5, 2),
    # issue 11: "scale map car --speed 2x1 drops 000's printed rate": 20 km/h is Move 2.
    ("car", "2x1", 3, 1, 2.0, 2, 1),
    # Naval, l.1057 "Move:1 = 50kph": 50 km/h is one space — and an Action costs 1.
    ("naval", "5x1", 50000, 3600, 1.0, 1, 1),
    # Aerial, l.1061 "Move:1 = 100kph": a 400 km/h plane moves 4 spaces.
    ("aerial", "4x2", 10000, 360, 4.0, 4, 2),
    # Planetary, l.1065–1066 "0.1 billion km, Turn:1 week"; 001 l.320 Earth "10x4 =
    # 100,000kph": 0.168 of a space a week — Move 0, and an Action still costs 1.
    ("planetary", "10x4", 100_000_000_000, 604800, 0.168, 0, 1),
    # Personal, 001 l.463 "Move = Speed" at every scale (001 l.308 "Each Scale is 10x
    # the last and affects: … movement"): the M1 Abrams "4x1 = 40kph" (l.317) is Move 40,
    # a 5x-1 snail Move 0.
    ("personal", "4x1", 2, 6, 40.0, 40, 20),
    ("personal", "5x-1", 2, 6, 0.5, 0, 1),
])
def test_map_moves(d2d: Runner, kind: str, speed: str, space_m: int, round_s: int,
                   spaces: float, move: int, cost: int) -> None:
    r = d2d.json("scale", "map", kind, "--speed", speed)
    assert (r["space_m"], r["round_s"], r["move"], r["action_cost"]) == \
        (space_m, round_s, move, cost)
    assert r["spaces_per_round"] == pytest.approx(spaces)


def test_map_printed_move_1(d2d: Runner) -> None:
    maps = {m["map"]: m for m in d2d.json("scale", "map", "--list")["maps"]}
    # 000 l.1046–1071, in the printed order; the four named without a scale included.
    assert list(maps) == ["personal", "car", "naval", "aerial", "starfighter", "orbital",
                          "planetary", "stellar", "galactic", "narrative"]
    assert maps["personal"]["move_1_kph"] == 1  # 001 l.463 "Move = Speed" (5x0 = 5kph)
    assert maps["car"]["move_1_kph"] == 10  # printed "Move:1 = 10kph = 3m/s"
    assert maps["naval"]["move_1_kph"] == 50  # printed "Move:1 = 50kph"
    assert maps["aerial"]["move_1_kph"] == 100  # printed "Move:1 = 100kph"
    assert maps["narrative"]["space_m"] is None
    assert (maps["orbital"]["space_m"], maps["orbital"]["move_1_kph"]) == (None, None)


def test_narrative_map_move_is_speed_level(d2d: Runner) -> None:
    # "Map Scale:Flexible": no distance to measure, so 001 p.19 "Move = Speed",
    # "Action Cost = Speed/2 (round down)".
    r = d2d.json("scale", "map", "narrative", "--speed", "7x0")
    assert (r["spaces_per_round"], r["move"], r["action_cost"]) == (None, 7, 3)
    r = d2d.json("scale", "map", "car")
    assert (r["speed"], r["spaces_per_round"], r["move"], r["space_m"]) == (None, None, None, 3)


def test_map_human_output(d2d: Runner) -> None:
    assert d2d.ok("scale", "map", "car", "--speed", "2x1").splitlines() == [
        "Car Map: space 3 m (10 ft), round 1 s, Move:1 = 10 km/h",
        "  Speed 2x1 (20 km/h): 2 spaces per round, Move 2, Action Cost 1"]
    assert d2d.ok("scale", "map", "personal", "--speed", "5x-1").splitlines() == [
        "Personal Map: space 2 m (5-6 ft), round 6 s, Move:1 = 1 km/h",
        "  Speed 5x-1 (0.5 km/h): 0.5 spaces per round, Move 0, Action Cost 1 (too slow "
        "to cross a Space or act on this map)"]
    assert d2d.ok("scale", "map", "galactic", "--speed", "3x5").splitlines() == [
        "Galactic Map: space not printed, round flexible, Move = Speed Level",
        "  Speed 3x5 (300,000 km/h): Move 3, Action Cost 1"]


# --- round trip (hypothesis) ---------------------------------------------------------

BACK = {"body": ("mass", "{}kg"), "mind": ("iq", "{}"), "speed": ("speed", "{} m/s")}


@settings(max_examples=60, deadline=None)
@given(level=st.integers(2, 10), sc=st.integers(-35, 60), kind=st.sampled_from(list(BACK)))
def test_show_then_back_is_the_same_stat(level: int, sc: int, kind: str) -> None:
    d2d = Runner()
    shown = d2d.json("scale", "show", f"{level}x{sc}", "--as", kind, "--convention", "001")
    command, form = BACK[kind]
    args = [command, form.format(shown["value_exact"])]
    if kind == "speed":
        args += ["--convention", "001"]
    back = d2d.json("scale", *args)
    assert (back["stat"], back["level"], back["scale"], back["partial"]) == \
        (f"{level}x{sc}", level, sc, None)


# --- speed: a --json lookup stays light ------------------------------------------------

def test_json_lookup_never_imports_rich(tmp_path: Path) -> None:
    code = ("import sys; from d2d_cli.cli import main; "
            "main(['scale', 'mass', '80kg', '--json']); "
            "main(['scale', 'compare', '2x4', '9x1', '--json']); "
            "print('RICH' if any(m.startswith('rich') for m in sys.modules) else 'CLEAN')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"D2D_DATA_DIR": str(tmp_path), "PATH": ""}, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "CLEAN", out.stderr
    assert not (tmp_path / "default.toml").exists()  # mass/compare never touch the session


def test_samples_command(d2d: Runner) -> None:
    rows = d2d.json("scale", "samples")["samples"]
    universe = next(r for r in rows if r["name"] == "Universe")
    assert (universe["printed"], universe["result"], universe["canonical"]) == \
        ("1x60", "10x59", True)
    assert "Universe" in d2d.ok("scale", "samples")


def test_iq_and_back(d2d: Runner) -> None:
    # 000 "Mind:5x1 (100 IQ)": the IQ of a Mind stat, same fields as the other way.
    r = d2d.json("scale", "iq", "5x1")
    assert (r["stat"], r["level"], r["scale"], r["partial"], r["value"], r["unit"]) == \
        ("5x1", 5, 1, None, 100.0, "IQ")
    assert d2d("scale", "iq", "11x1").exit_code == 2


# --- Powers: the Area of an Effect (000 l.879–885) ---------------------------------------

@pytest.mark.parametrize(("points", "table", "formula"), [
    (1, 0, 0), (2, 1, 1), (3, 2, 4), (4, 4, 9), (5, 8, 16), (6, 16, 25), (10, 256, 81)])
def test_power_area_readings(d2d: Runner, points: int, table: int, formula: int) -> None:
    """000 l.880–884 "1 point - 1 space / 2 points - Area Effect:1 / 3 points - Area
    Effect:2 / 4 points - Area Effect:4 / 5 points - Area Effect:8" against l.885 "X
    points - Area Effect:(X-1)^2". Default: the printed rows, doubling on above 5."""
    r = d2d.json("scale", "area", points)
    assert (r["power_area"], r["area_effect"]) == ("table", table)
    assert (r["formula"], r["printed_row"]) == (formula, table if points <= 5 else None)
    assert d2d.json("scale", "area", points, "--reading", "formula")["area_effect"] == formula


def test_power_area_rule_and_output(d2d: Runner, tmp_path: Path) -> None:
    path = with_rules(d2d, tmp_path, power_area="formula")
    assert d2d.json("--session", path, "scale", "area", "3") == {
        "points": 3, "power_area": "formula", "area_effect": 4, "text": "Area Effect:4",
        "printed_row": 2, "formula": 4}
    assert d2d.ok("scale", "area", "1") == \
        "1 Effect point → 1 space (reading: table; the formula (X−1)² gives 1 space)\n"
    assert d2d.ok("scale", "area", "3") == ("3 Effect points → Area Effect:2 (reading: "
                                            "table; the formula (X−1)² gives Area Effect:4)\n")
    assert d2d.ok("scale", "area", "6") == ("6 Effect points → Area Effect:16 (reading: "
                                            "table; above 5 points the printed rows double "
                                            "on; the formula (X−1)² gives Area Effect:25)\n")
    for args, needle in ((("0",), "from 1 to 100, not 0"), (("101",), "not 101"),
                         (("3", "--reading", "square"), "use table or formula")):
        res = d2d("scale", "area", *args)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and needle in res.stderr


def test_power_area_text(d2d: Runner) -> None:
    lines = [x.strip() for x in rule_text("000").splitlines()[880 - 1:885]]
    assert lines == ["- 1 point - 1 space", "- 2 points - Area Effect:1",
                     "- 3 points - Area Effect:2", "- 4 points - Area Effect:4",
                     "- 5 points - Area Effect:8", "- X points - Area Effect:(X-1)^2"]


@pytest.mark.parametrize("reading", ["table", "formula"])
def test_power_area_never_jumps(d2d: Runner, reading: str) -> None:
    """Issue 19 item 13: each reading rises with every point by one rule, each step at
    least the one before (the old default went 1, 2, 4, 8, 25, 36: steps 1, 2, 4, 17,
    11 — a jump, then smaller steps). 000
    l.880–885 "1 point - 1 space … 5 points - Area Effect:8 / X points - Area
    Effect:(X-1)^2"."""
    from d2d_cli.rules.core.options import DEFAULTS
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.units.powers import power_area

    opts = replace(DEFAULTS, power_area=reading)
    got = [power_area(x, opts).area_effect for x in range(1, 101)]
    assert all(b > a for a, b in zip(got, got[1:], strict=False))
    steps = [b - a for a, b in zip(got, got[1:], strict=False)]
    assert all(s2 >= s1 for s1, s2 in zip(steps, steps[1:], strict=False))
    assert got[:5] == ([0, 1, 2, 4, 8] if reading == "table" else [0, 1, 4, 9, 16])
