"""Scene files (000 "1. Setup", "2. Prologue"; 001 p.18 "Scene: Events") and the
Combat #1 example (000 "Example > Combat #1")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import rule_text, session_bytes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "combat1.toml"
PACKAGED = ROOT / "d2d_cli" / "tables" / "scenes" / "combat1.toml"


def test_example_and_packaged_scene_are_identical():
    assert EXAMPLE.read_bytes() == PACKAGED.read_bytes()


@pytest.mark.parametrize("spec", ["combat1", str(EXAMPLE)])
def test_combat1_loads(d2d, spec):
    """000 "Example > Combat #1": Archer and Thief (Adventurers), Goblin Scout and
    Goblin Skirmisher (Goblins), the Knot task (Knot:4), reinforcements on Clock #5."""
    r = d2d.json("scene", "load", spec)
    assert (r["name"], r["map"], r["map_name"]) == ("Combat #1", "personal", "Personal Map")
    assert list(r["factions"]) == ["Adventurers", "Goblins"]
    assert [(u["name"], u["faction"]) for u in r["units"]] == [
        ("Archer", "Adventurers"), ("Thief", "Adventurers"),
        ("Goblin Scout", "Goblins"), ("Goblin Skirmisher", "Goblins")]
    scout = next(u for u in r["units"] if u["name"] == "Goblin Scout")
    # 001 p.6 "Goblin Scout": Body 2x1, Mind 6x1, Will 2x1, Speed 5x0
    assert [scout[k] for k in ("body", "mind", "will", "speed")] == ["2x1", "6x1", "2x1", "5x0"]
    assert r["tasks"] == [{"name": "Knot", "difficulty": 4, "challenge": 4, "progress": 4,
                           "workers": ["Thief"]}]
    assert r["clock"] == 1
    assert [(e["at"], e["unit"]) for e in r["timed_events"]] == [(5, "Goblin Skirmisher 2")]
    assert d2d.json("scene", "show") == r


# 000 "Example > Combat #1", Turn 1 (l.570–613): what each unit spends, step by step, as
# (Move spent, line); "A" is an Action, which costs the unit's Action Cost.
TURN_1 = {
    "Archer": [(2, "l.579 Moves 1 … puts an Arrow in his offhand. Move:-2"),
               (1, "l.592 Completes his move behind the Rock … Move:-1"),
               ("A", "l.596 Attacks the Scout")],
    "Goblin Scout": [(1, "l.580 Moves 1 toward the Archer. Move:-1"),
                     (1, "l.593 Moves 1 toward the Archer. Move:-1.")],
    "Goblin Skirmisher": [(1, "000 l.125 Wait: the unit with the most Move discards one"),
                          ("A", "l.586 Throws a Javelin at the Archer. Fight."),
                          (2, "l.594 Moves 1 toward the Archer and Readies another "
                              "Javelin (Equip Move:-1, l.123)")],
    "Thief": [("A", "l.599 Attempts to escape his Bindings … Interact"),
              ("A", "l.606 Thief - Attempts to escape his Bindings.")],
}


def test_every_printed_step_of_turn_1_fits_the_move_placed(d2d):
    """Issue 11 item 7: the example's Archer spends 5 Move in Turn 1 — the scene gives
    him Speed 5x0 (001 l.314 Human Male "Speed - 5x0"), so every printed step of Turn 1
    can be paid from the Move round start places, spent down to 0 or more."""
    d2d.json("scene", "load", "combat1")
    tokens = {u["unit"]: (u["move"], u["action_cost"])
              for u in d2d.json("round", "start")["units"]}
    left = {}
    for name, steps in TURN_1.items():
        move, cost = tokens[name]
        left[name] = move - sum(cost if spent == "A" else spent for spent, _ in steps)
    assert left == {"Archer": 0, "Goblin Scout": 3, "Goblin Skirmisher": 0, "Thief": 0}
    # with the 000 template's Speed 4x0 the Archer would be one Move short
    assert 4 - (2 + 1 + 2) == -1


def test_the_knot_is_difficulty_4():
    """000 l.556 "tied with a Knot:4", l.601 "Task:Mind vs. Knot:4", l.602 "places 4
    Tokens on the top and bottom" — against l.561 "Task vs Mind:2 with Disadvantage to
    undo": the scene's Knot is Difficulty 4 (docs/errata.md "Combat #1")."""
    import tomllib

    scene = tomllib.loads(PACKAGED.read_text("utf-8"))
    assert scene["tasks"]["Knot"] == {"difficulty": 4, "workers": ["Thief"]}
    assert (scene["units"]["Archer"]["speed"], scene["units"]["Thief"]["speed"]) == \
        ("5x0", "4x0")


def test_the_scene_cites_what_the_text_prints():
    lines000, lines001 = rule_text("000").splitlines(), rule_text("001").splitlines()
    assert "Knot:4" in lines000[556 - 1] and "Knot:4" in lines000[601 - 1]
    assert "places 4 Tokens" in lines000[602 - 1]
    assert "Task vs Mind:2 with Disadvantage" in lines000[561 - 1]
    assert "Move:-2" in lines000[579 - 1] and "Move:-1" in lines000[592 - 1]
    assert "Attacks the Scout" in lines000[596 - 1]
    assert lines001[314 - 1].strip() == "Speed - 5x0 = 5kph/3mph"


def test_reinforcements_arrive_when_clock_5_comes_up(d2d):
    """"Another Goblin Skirmisher in place in the Clock Deck on Clock #5.
    Reinforcements arrive on the 5th Turn." Four round ends bring card 5 up."""
    d2d.json("scene", "load", "combat1")
    for n in range(1, 5):
        d2d.json("round", "start")
        clock = d2d.json("round", "end")["steps"][-1]
        assert clock["clock"] == n + 1
    assert clock["arrived"] == ["Goblin Skirmisher 2"]
    assert [e["at"] for e in clock["events"]] == [5]
    start = d2d.json("round", "start")
    assert [u["unit"] for u in start["units"]][-1] == "Goblin Skirmisher 2"


def test_units_by_reference_to_characters(d2d, tmp_path):
    f = tmp_path / "ref.toml"
    f.write_text('name = "Ref"\n[characters.Hero]\nbody = "8x1"\nspeed = "4x0"\n'
                 '[units.Hero]\ncharacter = "Hero"\n[units."Hero Two"]\n'
                 'character = "Hero"\nspeed = "6x0"\n', "utf-8")
    r = d2d.json("scene", "load", str(f))
    assert [(u["name"], u["kind"], u["speed"]) for u in r["units"]] == [
        ("Hero", "character", "4x0"), ("Hero Two", "character", "6x0")]
    # characters stay on the roster when the next scene loads; other units go
    r = d2d.json("scene", "load", "combat1")
    assert [u["name"] for u in r["units"]][:2] == ["Hero", "Hero Two"]
    assert len(r["units"]) == 6


def test_scene_load_replaces_tasks_clock_and_round(d2d):
    d2d.json("task", "new", "Old", "--difficulty", "3")
    d2d.json("clock", "set", "9")
    d2d.json("round", "start")
    d2d.json("scene", "load", "combat1")
    assert [t["name"] for t in d2d.json("task", "list")["tasks"]] == ["Knot"]
    assert d2d.json("clock", "show")["clock"] == 1
    assert d2d.json("round", "start")["round"] == 1


@pytest.mark.parametrize(("text", "needle"), [
    ('name = "x"\nmap = "personal\n', "bad.toml: line 2, column 16: Illegal character"),
    ('name = "x"\nmap = "cave"\n', "unknown map type 'cave' — known: personal, car"),
    ('name = "x"\n[units.A]\ncharacter = "Ghost"\n',
     "units.A refers to character 'Ghost', which is not defined"),
    ('name = "x"\n[units.A]\nspeed = "4x0"\n[[clock.events]]\nat = 2\ntext = "t"\n'
     'unit = "Nobody"\n', "clock event #1 brings unit 'Nobody', which is not defined"),
    ('name = "x"\n[tasks.T]\ndifficulty = 0\n', "--difficulty must be from 1 to 100"),
    ('name = "x"\n[units.A]\nbody = "banana"\nspeed = "4x0"\n', "units.A: not a stat"),
    ('name = "x"\nsurprise = 1\n', "unknown key(s) surprise"),
    ('map = "personal"\n', "give the scene a name"),
])
def test_bad_scene_files_change_nothing(d2d, data_dir, tmp_path, text, needle):
    d2d.json("scene", "load", "combat1")
    before = session_bytes(data_dir)
    f = tmp_path / "bad.toml"
    f.write_text(text, "utf-8")
    res = d2d("scene", "load", str(f))
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and needle in res.stderr, res.stderr
    assert session_bytes(data_dir) == before


def test_missing_file_is_one_line(d2d):
    res = d2d("scene", "load", "/nonexistent/x.toml")
    assert res.exit_code == 2 and "cannot read scene file /nonexistent/x.toml" in res.stderr


def test_scene_show_without_a_scene(d2d):
    res = d2d("scene", "show")
    assert res.exit_code == 2 and "no scene loaded" in res.stderr


def test_tour_runs_the_combat1_scene(d2d):
    out = d2d.ok("tour")
    assert "Combat #1" in out
    assert "Goblin Skirmisher 2 arrives." in out
    assert "That's the tour." in out



def test_json_lookups_never_import_rich(tmp_path):
    """DESIGN.md: a --json lookup never imports Rich (nor tomlkit: nothing is written)."""
    s = tmp_path / "s.toml"
    subprocess.run([sys.executable, "-m", "d2d_cli", "--session", str(s), "scene", "load",
                    "combat1", "--json"], check=True, capture_output=True)
    code = f"""
import sys
from d2d_cli import cli
for args in (["task", "list"], ["task", "show", "Knot"], ["clock", "show"],
             ["clock", "event", "list"], ["scene", "show"]):
    assert cli.main(["--session", {str(s)!r}, *args, "--json"]) == 0, args
print(sorted(m for m in ("rich", "tomlkit") if m in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PATH": "", "D2D_DATA_DIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "[]"


def test_scene_human_output_exact(d2d):
    out = (
        "Combat #1 — Personal Map\n"
        "The Goblins have captured the Thief who is bound by rope. The Archer has tracked "
        "them down, but is closer than they would prefer. The Thief has Restrict:Bind:4 "
        "tied with a Knot:4.\n"
        "Adventurers — goal: Free the Thief and get away\n"
        "  Archer: Body 8x1 Mind 5x1 Will 5x1 Speed 5x0 — Move 5, Action Cost 2\n"
        "  Thief: Body 8x1 Mind 5x1 Will 5x1 Speed 4x0 — Move 4, Action Cost 2\n"
        "Goblins — goal: Keep the prisoner and catch the Archer\n"
        "  Goblin Scout: Body 2x1 Mind 6x1 Will 2x1 Speed 5x0 — Move 5, Action Cost 2\n"
        "  Goblin Skirmisher: Body 2x1 Mind 6x1 Will 2x1 Speed 5x0 — Move 5, Action Cost 2\n"
        "Task Knot: Difficulty 4, Challenge 4, Progress 4\n"
        "Clock: 1\n"
        "  #5: Reinforcements: another Goblin Skirmisher arrives (the 5th Turn)\n"
        "  in reserve: Goblin Skirmisher 2\n")
    assert d2d.ok("scene", "load", "combat1") == out
    assert d2d.ok("scene", "show") == out
