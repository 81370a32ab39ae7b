"""One Move and Action Cost everywhere (issue 11 item 3): ``round start``, ``status``,
``scale map`` and ``scene`` all derive them from the Speed, its scale and the map with
one rule, ``rules.scale.maps.move_tokens`` (docs/rules.md "Move and Action Cost").

Texts: 001 l.457–463 "On normal Maps, a Round is 6 seconds … Action Cost = Speed/2
(round down), Move = Speed, Turn = 2"; 001 l.308–309 "Each Scale is 10x the last and
affects: damage, movement, timescales, distance"; 000 l.1053/1057/1061 "Move:1 = 10kph /
50kph / 100kph"; 000 l.286 "Costs half starting Move (rounded down)".
"""

from __future__ import annotations

import math
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli import tables
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.scale import quantities as scale
from d2d_cli.rules.scale.stats import Stat
from d2d_cli.rules.time import rounds
from d2d_cli.rules.units import roster as units
from tests.helpers import Runner, rule_text, with_rules

MAPS = list(tables.load("maps"))
LEVELS, SCALES = range(2, 11), range(-3, 4)

ONE_UNIT = """\
name = "One"
map = "{map}"
[units.U]
body = "8x1"
mind = "5x1"
will = "5x1"
speed = "{speed}"
{extra}
"""


def one_unit_session(d2d: Runner, folder: Path, map_key: str, speed: str,
                     convention: str = "001", extra: str = "") -> Path:
    """A session on ``map_key`` with one unit of Speed ``speed``."""
    scene = folder / "scene.toml"
    scene.write_text(ONE_UNIT.format(map=map_key, speed=speed, extra=extra), "utf-8")
    path = folder / "s.toml"
    d2d.json("--session", path, "scene", "load", scene)
    if convention != "001":
        text = path.read_text("utf-8")
        path.write_text(text.replace("[rules]\n", f'[rules]\nspeed_convention = "{convention}"\n',
                                     1), "utf-8")
    return path


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
@settings(max_examples=30, deadline=None)
@given(level=st.sampled_from(LEVELS), sc=st.sampled_from(SCALES), map_key=st.sampled_from(MAPS),
       convention=st.sampled_from(["001", "000"]))
def test_round_start_status_and_scale_map_agree(level: int, sc: int, map_key: str,
                                                convention: str) -> None:
    """Issue 11: for every Speed (levels 2–10, scales −3…3) and every map, round start,
    status and scale map agree on Move and Action Cost, and Action Cost ≥ 1 — driven
    through the CLI on a session with one unit."""
    d2d = Runner()
    speed = f"{level}x{sc}"
    with tempfile.TemporaryDirectory() as tmp:
        path = one_unit_session(d2d, Path(tmp), map_key, speed, convention)
        (before,) = d2d.json("--session", path, "status")["units"]
        (row,) = d2d.json("--session", path, "round", "start")["units"]
        (after,) = d2d.json("--session", path, "status")["units"]
        looked_up = d2d.json("--session", path, "scale", "map", map_key, "--speed", speed)
    want = (looked_up["move"], looked_up["action_cost"])
    assert (before["move"], before["action_cost"]) == want
    assert (row["move"], row["action_cost"]) == want
    assert (after["move"], after["action_cost"]) == want
    assert looked_up["convention"] == convention
    assert looked_up["action_cost"] >= 1


@pytest.mark.parametrize("convention", ["001", "000"])
@pytest.mark.parametrize("map_key", MAPS)
def test_every_speed_every_map_one_rule(map_key: str, convention: str) -> None:
    """The same agreement for every Speed, without the CLI: the Refresh, the Status Bar
    before it and ``scale map`` give the same Move and Action Cost, Action Cost ≥ 1, and
    Move is the Speed divided by what one Move counts on the map, rounded down."""
    opts = Options(speed_convention=convention)
    spec = scale.map_spec(map_key, opts)
    for level in LEVELS:
        for sc in SCALES:
            stat = Stat(level, sc)
            data = {"scene": {"map": map_key}, "units": {"U": {"speed": str(stat)}}}
            (bar,) = rounds.status_bar(data, opts).units
            unit = units.roster(data)["U"]
            started = rounds.refresh(unit, map_key, opts)
            shown = scale.move_on_map(map_key, stat, opts)
            assert (bar.move, bar.action_cost) == (started.move, started.action_cost) \
                == (shown.move, shown.action_cost), (map_key, stat)
            assert started.action_cost is not None and started.action_cost >= 1
            assert started.action_cost == max(1, (started.move or 0) // 2)
            rate = move_1_kph(map_key, convention)
            if rate is None:
                assert spec.move_1_kph is None
                assert started.move == level  # no scale: Move = the Speed Level
            else:
                assert started.move == math.floor(scale.speed_kph(stat, convention) / rate)


def move_1_kph(map_key: str, convention: str) -> Fraction | None:
    """What one Move counts on each map, in km/h, from the printed texts: the Personal
    Map's "Move = Speed" (Speed 1x0: 1 km/h under 001, 1 m/s under 000), the printed
    "Move:1 = …kph", the Planetary Map's space per round (0.1 billion km a week)."""
    return {"personal": Fraction(1) if convention == "001" else Fraction(18, 5),
            "car": Fraction(10), "naval": Fraction(50), "aerial": Fraction(100),
            "planetary": Fraction(10**11, 604800) * Fraction(18, 5)}.get(map_key)


@pytest.mark.parametrize(("map_key", "speed", "move", "cost"), [
    # issue 11: "a 5x-1 snail gets Move 5, a 4x1 tank Move 4" — on the Personal Map,
    # Move = Speed (001 l.463) at the Speed's scale (001 l.308): 0.5 and 40.
    ("personal", "5x-1", 0, 1),
    ("personal", "4x1", 40, 20),
    # On the Car Map "Move:1 = 10kph" (000 l.1053): the M1 Abrams "4x1 = 40kph" (001
    # l.317) is Move 4.
    ("car", "4x1", 4, 2),
    # Speed 1 would give Action Cost 0 ("Speed/2 (round down)"): an Action costs at least 1.
    ("narrative", "2x0", 2, 1),
])
def test_round_start_uses_the_scene_map(d2d: Runner, tmp_path: Path, map_key: str,
                                        speed: str, move: int, cost: int) -> None:
    path = one_unit_session(d2d, tmp_path, map_key, speed)
    (row,) = d2d.json("--session", path, "round", "start")["units"]
    assert (row["move"], row["action_cost"], row["turn"]) == (move, cost, 2)


def test_a_slow_unit_refreshes_at_least_action_cost_1(d2d: Runner, tmp_path: Path) -> None:
    """Glossary "Slow - … Speed:-1" twice on Speed 2x0: Speed 0, Move 0 — Action Cost 1
    (not 0, which would make Actions free)."""
    path = one_unit_session(d2d, tmp_path, "personal", "2x0",
                            extra="conditions = { slow = 2 }")
    (row,) = d2d.json("--session", path, "round", "start")["units"]
    assert (row["speed"], row["move"], row["action_cost"]) == (0, 0, 1)


def test_status_bar_before_and_after_the_first_round(d2d: Runner, tmp_path: Path) -> None:
    """The Status Bar (``unit list``; ``status`` is the dashboard around it) shows Move
    and Action Cost before the first round start (what the Refresh will give), then the
    tokens placed; Turn only once placed."""
    path = one_unit_session(d2d, tmp_path, "car", "5x1")
    head = [" Unit  Body  Mind  Will  Speed  Conditions  Move  AC  Turn  Target "]
    assert d2d.ok("--session", path, "unit", "list").splitlines() == head + [
        " U     8x1   5x1   5x1   5x1    —           5     2   —     —      "]
    d2d.ok("--session", path, "round", "start")
    assert d2d.ok("--session", path, "unit", "list").splitlines() == head + [
        " U     8x1   5x1   5x1   5x1    —           5     2   2     —      "]


def test_round_start_human_output(d2d: Runner, tmp_path: Path) -> None:
    path = one_unit_session(d2d, tmp_path, "personal", "4x1")
    assert d2d.ok("--session", path, "round", "start").splitlines() == [
        "Round 1 — refresh on the Personal Map: Move = Speed, Action Cost = Speed/2, Turn = 2",
        " Unit  Speed  Move  Action Cost  Turn ",
        " U     4x1    40    20           2    "]


def test_scene_load_shows_move_and_clears_the_partys_old_tokens(d2d: Runner) -> None:
    """Loading a scene starts no round: a character who stays on the roster loses the
    last scene's tokens, and every unit shows its Move on the new scene's map."""
    d2d.ok("char", "new", "Rook")
    d2d.ok("round", "start")
    assert d2d.json("unit", "show", "Rook")["turn"] == 2
    r = d2d.json("scene", "load", "combat1")
    rook = next(u for u in r["units"] if u["name"] == "Rook")
    assert (rook["speed"], rook["move"], rook["action_cost"]) == ("4x0", 4, 2)
    # The old Turn token is gone; Move shows what the first Refresh will give (as status).
    assert (d2d.json("unit", "show", "Rook")["move"], d2d.json("unit", "show", "Rook")["turn"]
            ) == (4, None)


def test_options_convention_only_changes_the_real_speed() -> None:
    """000 l.738 "4x0 = 4 m/s = 15 kph" vs 001 l.314 "5x0 = 5kph": the same stat has a
    different real speed, but Move = Speed under both — 4x0 is Move 4, Action Cost 2."""
    for conv in ("001", "000"):
        got = scale.move_tokens(Stat(4, 0), "personal", Options(speed_convention=conv))
        assert (got.move, got.action_cost) == (4, 2)
    assert scale.speed_kph(Stat(4, 0), "001") == 4
    assert scale.speed_kph(Stat(4, 0), "000") == Fraction(72, 5)
    assert DEFAULTS.speed_convention == "001"


def test_two_actions_per_round_against_speed_over_2() -> None:
    """001 l.461 "Action Cost = Speed/2 (round down)" and l.545 "Therefore, 2 Actions per
    Round are possible": true for Move 2 and 4 or more; Move 3 affords 3 Actions, Move 1
    one (Action Cost at least 1), Move 0 none (docs/errata.md)."""
    text = rule_text("001").splitlines()
    assert text[461 - 1].strip() == "**Action Cost** = Speed/2 (round down)"
    assert text[545 - 1].strip() == "Therefore, 2 Actions per Round are possible"
    actions = {}
    for level in range(0, 11):
        got = scale.move_tokens(Stat(level, 0), "personal")
        actions[got.move] = got.move // got.action_cost
    assert actions == {0: 0, 1: 1, 2: 2, 3: 3, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2}


def test_move_is_speed_whatever_the_round_length(d2d: Runner, tmp_path: Path) -> None:
    """001 l.457 "On normal Maps, a Round is 6 seconds", l.463 "Move = Speed"; 000 l.1048
    "Space:2m". 001's Speed counts km/h (l.314 "5x0 = 5kph"): in 6 s, 5 km/h covers
    25/6 = 4.17 Spaces of 2 m, yet Move = Speed = 5 — with a 2-second round too
    (docs/errata.md "Move = Speed and the 6-second round")."""
    text = rule_text("001").splitlines()
    assert text[457 - 1].strip() == "On normal Maps, a Round is 6 seconds"
    assert text[463 - 1].strip() == "**Move** = Speed"
    geometry = scale.speed_mps(Stat(5, 0))[0] * 6 / 2
    assert geometry == Fraction(25, 6)
    for round_s in (6, 2):
        path = with_rules(d2d, tmp_path / str(round_s), personal_round_s=round_s)
        r = d2d.json("--session", path, "scale", "map", "personal", "--speed", "5x0")
        assert (r["round_s"], r["move"], r["action_cost"]) == (round_s, 5, 2)


def test_human_speed_under_both_conventions_cites_the_texts() -> None:
    """000 l.738 "Average human running speed is 4x0 = 4 m/s = 15 kph"; 001 l.314 "Speed -
    5x0 = 5kph/3mph": the convention (default 001, km/h) reads the stat, Move = Speed."""
    line = rule_text("000").splitlines()[738 - 1]
    assert "4 \\times 0 = 4 \\text{ m/s} = 15 \\text{ kph}" in line
    assert rule_text("001").splitlines()[314 - 1].strip() == "Speed - 5x0 = 5kph/3mph"


def test_evade_gives_move_2_win_or_lose(d2d: Runner) -> None:
    """The default (docs/rules.md "Evade"; 000's reading is [rules] evade = "000"): d2d
    follows 001 l.750 "Move:+2 (Win or Lose)" — not 000 l.494 "they regain the Move spent
    on the Action", which equals it when the Evade wins and the Action Cost is 2."""
    text000, text001 = rule_text("000").splitlines(), rule_text("001").splitlines()
    assert "regain the Move spent on the Action" in text000[494 - 1]
    assert text001[750 - 1].strip() == "Move:+2 (Win or Lose)"
    won = d2d.json("conflict", "evade", "strong")   # Evade beats Strong
    lost = d2d.json("conflict", "evade", "fast")    # Fast beats Evade
    assert (won["outcome"], lost["outcome"]) == ("a", "b")
    for r in (won, lost):
        assert {"key": "move", "text": "Move +2 (win or lose)"} in r["effects"]["a"]
    # 000's reading agrees for the humans and goblins of the texts (Action Cost 2) …
    assert scale.move_tokens(Stat(5, 0), "personal").action_cost == 2
    # … and not from Move 6 on (Action Cost 3)
    assert scale.move_tokens(Stat(6, 0), "personal").action_cost == 3
