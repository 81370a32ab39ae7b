"""Units, conditions and the Status Bar (001 p.6 "Unit: Sample", p.19 "Round: Start";
000 Glossary conditions)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from d2d_cli.rules.scale.stats import parse_stat
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units import roster as units
from tests.helpers import rule_text

GOBLIN = ["unit", "add", "Goblin Scout", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
          "--speed", "5x0", "--skill", "Close Combat=1", "--skill", "Stealth=1"]


def session_bytes(data_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(data_dir.rglob("*.toml"))}


def test_goblin_scout_of_001_page_6(d2d) -> None:
    # 001 p.6: Body 2x1, Mind 6x1, Will 2x1, Speed 5x0, [Close Combat]:1, [Stealth]:1.
    r = d2d.json(*GOBLIN)
    assert r["name"] == "Goblin Scout" and r["kind"] == "unit"
    assert r["stats"] == {"body": "2x1", "mind": "6x1", "will": "2x1", "speed": "5x0"}
    assert r["skills"] == {"Close Combat": 1, "Stealth": 1}
    assert r["conditions"] == {}
    # Before the first Refresh the Status Bar shows what it will give (Speed 5x0 on the
    # Personal Map: Move 5, Action Cost 5/2 → 2, 001 l.461–463); no Turn, no target yet.
    assert (r["move"], r["action_cost"], r["turn"], r["target"]) == (5, 2, None, None)
    shown = d2d.json("unit", "show", "goblin scout")
    assert shown == r
    assert [u["name"] for u in d2d.json("unit", "list")["units"]] == ["Goblin Scout"]


@pytest.mark.parametrize("cond,stat", [("Fatigue", "body"), ("Stun", "mind"),
                                       ("Stress", "will"), ("Slow", "speed")])
def test_minor_conditions_lower_their_stat(d2d, cond, stat) -> None:
    d2d.ok("char", "new", "Rook")  # Body 8x1, Mind 5x1, Will 5x1, Speed 4x0
    r = d2d.json("unit", "condition", "Rook", "add", cond, "--count", "2")
    base = {"body": "8x1", "mind": "5x1", "will": "5x1", "speed": "4x0"}
    want = dict(base)
    st = parse_stat(base[stat])
    want[stat] = f"{st.level - 2}x{st.scale}"
    assert r["stats"] == want and r["conditions"] == {cond.lower(): 2}
    assert d2d.json("status")["units"][0]["stats"] == want
    # One meaning per key in every command (issue 11 item 8): `stats` after conditions,
    # `base_stats` the character's own — on the sheet as on the Status Bar.
    sheet = d2d.json("char", "show", "Rook")
    assert sheet["stats"] == want and sheet["base_stats"] == base
    assert "effective_stats" not in sheet


def test_stats_mean_the_same_in_every_command(d2d) -> None:
    # Issue 11 item 8: `stats` are after conditions and `base_stats` the unit's own, in
    # every command that shows a unit or a character.
    d2d.ok("char", "new", "Rook", "--archetype", "thief")
    d2d.ok("char", "award", "Rook", "--sp", "1", "--ap", "1", "--cp", "1")
    d2d.ok("unit", "condition", "Rook", "add", "Stun", "--count", "2")
    base = {"body": "8x1", "mind": "5x1", "will": "5x1", "speed": "4x0"}
    stunned = {"body": "8x1", "mind": "3x1", "will": "5x1", "speed": "4x0"}
    views = [d2d.json("char", "show", "Rook"), d2d.json("unit", "show", "Rook"),
             d2d.json("status")["units"][0], d2d.json("unit", "list")["units"][0],
             d2d.json("unit", "target", "Rook", "--clear")]
    assert [(v["stats"], v["base_stats"]) for v in views] == [(stunned, base)] * 5
    slowed = {"body": "8x1", "mind": "3x1", "will": "5x1", "speed": "3x0"}
    views += [d2d.json("unit", "condition", "Rook", "add", "Slow"),
              d2d.json("char", "train", "Rook", "Stealth"),
              d2d.json("char", "learn", "Rook", "Pick Lock"), d2d.json("char", "feat", "Rook"),
              d2d.json("char", "award", "Rook", "--cp", "1")]
    assert [(v["stats"], v["base_stats"]) for v in views[5:]] == [(slowed, base)] * 5
    assert not any("effective_stats" in v for v in views)


def _glossary_penalties() -> dict[str, dict[str, int]]:
    """Each Glossary entry that starts with "Stat:-1" (e.g. "Bleeding - Mind:-1.")."""
    out = {}
    glossary = rule_text("000").split("## Glossary")[1]
    for m in re.finditer(r"^- ([A-Za-z ]+) - (?:A Minor Condition that gives )?"
                         r"(Body|Mind|Will|Speed):(-\d)", glossary, re.M):
        out[units.condition_key(m.group(1))] = {m.group(2).lower(): int(m.group(3))}
    return out


def test_condition_penalties_are_the_glossarys() -> None:
    printed = _glossary_penalties()
    assert set(printed) == {"bleeding", "blood_loss", "burning", "burns", "diseased",
                            "poisoned", "radiated", "fatigue", "stun", "stress", "slow"}
    for key, penalty in printed.items():
        assert conditions.table()[key].penalty == penalty


def test_major_conditions_in_status(d2d) -> None:
    d2d.ok(*GOBLIN)
    d2d.ok("unit", "condition", "Goblin Scout", "add", "blood loss")
    d2d.ok("unit", "condition", "Goblin Scout", "add", "Burning")
    d2d.ok("unit", "condition", "Goblin Scout", "add", "Burns")
    row = d2d.json("status")["units"][0]
    # Blood Loss Body:-1, Burning Will:-1, Burns Speed:-1 (000 Glossary); 2x1 → 1x1.
    assert row["stats"] == {"body": "1x1", "mind": "6x1", "will": "1x1", "speed": "4x0"}
    assert row["conditions"] == {"blood_loss": 1, "burning": 1, "burns": 1}
    r = d2d.json("unit", "condition", "Goblin Scout", "add", "Fatigue", "--count", "3")
    assert r["stats"]["body"] == "0x1" and r["zero"] == ["body"]  # 001 p.35 flip to Crit
    assert "flip to Crit" in d2d.ok("status")
    r = d2d.json("unit", "condition", "Goblin Scout", "remove", "Fatigue", "--count", "3")
    assert r["stats"]["body"] == "1x1" and "fatigue" not in r["conditions"]


def test_status_fields_target_and_round_tokens(d2d, data_dir) -> None:
    d2d.ok(*GOBLIN)
    d2d.ok("char", "new", "Rook")
    assert d2d.json("unit", "target", "goblin scout", "rook")["target"] == "Rook"
    # Move, Action Cost and Turn are set by the round's Refresh (another command); the
    # Status Bar shows what the roster holds.
    path = next(data_dir.rglob("*.toml"))
    text = path.read_text("utf-8")
    path.write_text(text.replace('[units."Goblin Scout"]\n',
                                 '[units."Goblin Scout"]\nmove = 5\naction_cost = 2\n'
                                 'turn = 2\n', 1), "utf-8")
    rows = d2d.json("status")["units"]
    assert [set(r) >= {"name", "stats", "conditions", "move", "action_cost", "turn",
                       "target"} for r in rows] == [True, True]
    gob = rows[0]
    assert (gob["move"], gob["action_cost"], gob["turn"], gob["target"]) == (5, 2, 2, "Rook")
    # issue 11 item 3: before its first Refresh the Status Bar shows the Move and Action
    # Cost the Refresh will give (Rook's Speed 4x0: Move 4, Action Cost 2); Turn is "—".
    assert (rows[1]["move"], rows[1]["action_cost"], rows[1]["turn"]) == (4, 2, None)
    out = d2d.ok("status")
    assert "Goblin Scout" in out and "Rook" in out and "—" in out
    assert d2d.json("unit", "target", "Goblin Scout", "--clear")["target"] is None
    d2d.ok("unit", "target", "Goblin Scout", "Rook")
    d2d.ok("unit", "rm", "rook")
    assert d2d.json("unit", "show", "Goblin Scout")["target"] is None


def test_empty_status(d2d) -> None:
    assert d2d.json("status")["units"] == []
    assert "No units yet" in d2d.ok("status")


@pytest.mark.parametrize("args,message", [
    (["unit", "add", "goblin scout", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
      "--speed", "5x0"], "already exists"),
    (["char", "new", "GOBLIN SCOUT"], "already exists"),
    (["char", "new", "a/b"], "no '/'"),
    (["char", "new", "a\\b"], "no '/'"),
    (["char", "new", "bad\x07name"], "control characters"),
    (["char", "new", "bad\x85name"], "control characters"),
    (["unit", "add", "Orc", "--body", "11x1", "--mind", "6x1", "--will", "2x1",
      "--speed", "5x0"], "outside 2–10"),
    (["unit", "add", "Orc", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
      "--speed", "5x0", "--skill", "Stelth=1"], "did you mean Stealth"),
    (["unit", "condition", "Goblin Scout", "add", "Fatige"], "did you mean Fatigue"),
    (["unit", "condition", "Goblin Scout", "remove", "Stun"], "no Stun to remove"),
    (["unit", "condition", "Goblin Scout", "boil", "Stun"], "use add or remove"),
    (["unit", "condition", "Goblin Scot", "add", "Stun"], "did you mean Goblin Scout"),
    (["unit", "target", "Goblin Scout", "Nobody"], "no unit 'Nobody'"),
    (["unit", "rm", "Nobody"], "no unit 'Nobody'"),
    (["char", "new", "Zed", "--archetype", "wizzard"], "did you mean Wizard"),
])
def test_bad_input_is_one_line_exit_2_nothing_changed(d2d, data_dir, args, message) -> None:
    d2d.ok(*GOBLIN)
    before = session_bytes(data_dir)
    res = d2d(*args)
    assert res.exit_code == 2, res.stdout
    assert message in res.stderr
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("d2d: error: ")
    assert session_bytes(data_dir) == before


def test_json_lookups_never_import_rich(data_dir) -> None:
    env = {"D2D_DATA_DIR": str(data_dir)}
    code = ("import sys; from d2d_cli.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('RICH' if any(m.startswith('rich') for m in sys.modules) else 'CLEAN',"
            " file=sys.stderr)")
    import os

    for args in (["char", "new", "Rook", "--json"], ["status", "--json"],
                 ["unit", "show", "Rook", "--json"], ["char", "show", "Rook", "--json"],
                 ["ref", "thief", "--json"]):
        res = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                             text=True, env={**os.environ, **env}, timeout=60)
        assert json.loads(res.stdout)["ok"] is True, res.stderr
        assert res.stderr.strip().endswith("CLEAN"), (args, res.stderr)


@pytest.mark.parametrize("args", [["unit", "add"], ["unit", "list"], ["unit", "show"],
                                  ["unit", "rm"], ["unit", "condition"], ["unit", "heal"],
                                  ["unit", "target"], ["status"], ["ref"]])
def test_every_command_has_help_with_an_example(d2d, args) -> None:
    assert "Example: d2d " in d2d.ok(*args, "--help")


def test_roster_round_trip_keeps_the_character_record() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    level = st.integers(2, 10)
    names = st.text(st.characters(categories=("L", "N", "P", "S"),
                                  exclude_characters="/\\"), min_size=1, max_size=12)

    @settings(max_examples=60, deadline=None)
    @given(name=names, levels=st.tuples(level, level, level, level),
           conds=st.dictionaries(st.sampled_from(sorted(conditions.table())),
                                 st.integers(1, 5), max_size=3),
           sp=st.integers(0, 50))
    def check(name, levels, conds, sp) -> None:
        from d2d_cli.rules.scale.stats import Stat

        u = units.Unit(units.check_unit_name(name),
                       {s: Stat(v, 1) for s, v in zip(units.STATS, levels, strict=True)},
                       kind="character", skills={"Stealth": 2}, conditions=dict(conds),
                       extra={"archetype": "Thief", "sp": sp, "conception": {"fear": "x"}})
        back = units.roster({"units": units.roster_state({name: u})})[name]
        assert back == u
        eff = units.effective_stats(back)
        pen = conditions.penalties(conds)
        for s, v in zip(units.STATS, levels, strict=True):
            assert eff[s] == (f"{v}x1" if not pen.get(s) else f"{max(0, v + pen[s])}x1")

    check()


def test_shell_completion_of_unit_names(d2d, data_dir) -> None:
    d2d.ok(*GOBLIN)
    d2d.ok("char", "new", "Rook")
    import os

    exe = Path(sys.executable).parent / "d2d"
    env = {**os.environ, "D2D_DATA_DIR": str(data_dir), "_D2D_COMPLETE": "complete_bash",
           "COMP_WORDS": "d2d unit show G", "COMP_CWORD": "3"}
    res = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=60)
    # Escaped as bash must insert it: one argument (tests/test_completion_shells.py).
    assert res.stdout.split("\n")[0] == "Goblin\\ Scout", (res.stdout, res.stderr)
    env["COMP_WORDS"] = "d2d char show R"
    res = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=60)
    assert res.stdout.strip() == "Rook"


def test_status_bar_shows_the_crits_placed_on_a_unit(d2d) -> None:
    # 000 "Harm": "Place the Hit Location and any other Statuses above the Unit on the
    # Status Bar"; 001 p.39 "Crits - Place any Crits on Target".
    d2d.ok("unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0")
    d2d.ok("crit", "--power", "5x-1", "--hits", "2", "--card", "slash@torso", "--target", "Gob")
    row = d2d.json("status")["units"][0]
    assert [(c["location"], c["severity"]) for c in row["crits"]] == [("torso", "major")]
    assert "Crit Torso (Major)" in d2d.ok("status")


def test_removing_a_unit_clears_the_targets_on_it(d2d) -> None:
    # 001 p.19 "Targets": a target is a unit on the board; a removed one can't be.
    for name in ("Archer", "Gob", "Orc"):
        d2d.ok("unit", "add", name, "--body", "2x1", "--mind", "6x1", "--will", "2x1",
               "--speed", "5x0")
    d2d.ok("unit", "target", "Gob", "Archer")
    d2d.ok("unit", "target", "Orc", "Archer")
    d2d.ok("unit", "target", "Archer", "Gob")
    r = d2d.json("unit", "rm", "archer")
    assert (r["name"], r["targets_cleared"]) == ("Archer", ["Gob", "Orc"])
    rows = {u["name"]: u["target"] for u in d2d.json("status")["units"]}
    assert rows == {"Gob": None, "Orc": None}
