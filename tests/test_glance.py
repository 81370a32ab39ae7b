"""The answer at a glance (issue 28): short results by default, the reasons behind one
shared ``--why``; one exchange typed once; the Countdown's ``next``; mistakes that name
their fix, the session file unchanged.

Rows are counted as a terminal of that width shows the output of the real renderer
(``cli.main`` with an Environment of that width, styled as on a terminal): each line
takes its display width divided by the width, rounded up."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import cli
from d2d_cli.env import Environment
from d2d_cli.plain import cell_width
from tests.helpers import Runner

_SGR = re.compile(r"\x1b\[[\d;]*m")


def run(width: int, *argv: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = Environment(width=width, styled=True, colors=False, stdout=out, stderr=err)
    code = cli.main([str(a) for a in argv], env=here)
    return code, _SGR.sub("", out.getvalue()), err.getvalue()


def rows(text: str, width: int) -> int:
    return sum(max(1, math.ceil(cell_width(line.replace("[", r"\[")) / width))
               for line in text.rstrip("\n").split("\n"))


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """Combat #1 (its map placed), a round under way."""
    path = tmp_path / "c.toml"
    for line in (["--seed", 7, "scene", "load", "combat1"], ["round", "start"]):
        assert run(80, "--session", path, *line)[0] == 0
    return path


def _copy(path: Path, tmp_path: Path, name: str) -> Path:
    other = tmp_path / name
    other.write_bytes(path.read_bytes())
    return other


# ------------------------------------------------------------------- 1. the answer first

# (command, its most rows at 40, 80 and 200 columns): issue 28 "What it must show" 1.
LIMITS = {
    "conflict": (["--seed", 3, "conflict", "Archer:fast", "Goblin Scout"], (8, 4, 4)),
    "hit": (["hit", "QC", "QH", "--by", "Archer", "--vs", "Goblin Scout"], (4, 2, 2)),
    "npc turn --all": (["--seed", 2, "npc", "turn", "--all"], (24, 12, 12)),
    # 4 rows of round, clock (2 at 80) and tasks; at 80 and 200 a header and one row a
    # unit; at 40 a block of 4–5 rows a unit
    "status": (["status"], (22, 9, 8)),
    # the map (11 rows), the legend's one line (was 5), a row a unit
    "board": (["board"], (19, 17, 17)),
}


@pytest.mark.parametrize("name", list(LIMITS))
@pytest.mark.parametrize("at", [0, 1, 2])
def test_an_answer_fits_its_rows(name: str, at: int, table: Path, tmp_path: Path) -> None:
    width = (40, 80, 200)[at]
    argv, limits = LIMITS[name]
    session = _copy(table, tmp_path, f"{at}.toml")
    code, out, err = run(width, "--session", session, *argv)
    assert code == 0, err
    assert rows(out, width) <= limits[at], out


def test_the_conflict_says_winner_cards_numbers_and_what_comes_next(table: Path) -> None:
    code, out, _ = run(80, "--session", table, "--seed", 3, "conflict", "Archer:fast",
                       "Goblin Scout", "--no-map", "--card", "JC^")
    assert code == 0
    assert out == ("A wins: Archer Fast vs Goblin Scout Strong (J♣↑)\n"
                   "  Level A 1 vs B 1\n"
                   "  A: Hit: count the Hits of your cards (d2d hit); Draw a card\n")


def test_the_map_readings_and_rule_lines_are_behind_why(table: Path, tmp_path: Path) -> None:
    """The map block (8 readings, each with its line) only with --why; --json loses
    nothing either way."""
    argv = ["conflict", "Archer:fast", "Goblin Scout", "--card", "5S", "--card", "JC"]
    short = run(80, "--session", table, *argv)[1]
    why = run(80, "--session", table, *argv, "--why")[1]
    assert "From the map" not in short and "001 l." not in short
    assert "From the map (Archer E9 → Goblin Scout I2; d2d board):" in why
    assert "  Confined: no other unit shares either Space" in why
    plain = json.loads(run(80, "--session", table, *argv, "--json")[1])
    explained = json.loads(run(80, "--session", table, *argv, "--json", "--why")[1])
    assert plain == explained and plain["result"]["map"]["sources"]["confined"]


def test_status_is_one_row_a_unit_with_its_space(table: Path) -> None:
    code, out, _ = run(80, "--session", table, "status")
    assert code == 0
    lines = out.splitlines()
    head = lines.index(next(x for x in lines if x.split()[:1] == ["Unit"]))
    assert [x.split()[:2] for x in lines[head + 1:]] == [
        ["Archer", "E9↑"], ["Thief", "K1↓"], ["Goblin", "Scout"], ["Goblin", "Skirmisher"]]
    assert "I2↙" in lines[head + 3] and all(len(x) <= 80 for x in lines[head:])


def test_status_stays_one_row_a_unit_when_a_unit_carries_crits(table: Path) -> None:
    """Conditions and Crits wrap at their words in their column: two Crits on the Scout
    do not turn the 80-column dashboard into one block per unit (found at the table)."""
    for location in ("torso", "head"):
        code, _, err = run(80, "--session", table, "crit", "--power", "6x1", "--types",
                           "pierce", "--card", f"pierce@{location}", "--target",
                           "Goblin Scout")
        assert code == 0, err
    code, out, _ = run(80, "--session", table, "status")
    lines = out.splitlines()
    head = lines.index(next(x for x in lines if x.split()[:1] == ["Unit"]))
    names = [x.split()[:2] for x in lines[head + 1:] if not x.startswith(" " * 20)]
    assert names == [["Archer", "E9↑"], ["Thief", "K1↓"], ["Goblin", "Scout"],
                     ["Goblin", "Skirmisher"]]
    assert "Crit Torso" in out and all(cell_width(x) <= 80 for x in lines)


def test_board_shows_its_legend_on_request(table: Path) -> None:
    short = run(80, "--session", table, "board")[1]
    assert "Legend: d2d board --legend" in short and "open ground" not in short
    for asked in (["--legend"], ["--why"]):
        assert "Legend: . open ground" in run(80, "--session", table, "board", *asked)[1]
    assert rows(short, 80) < rows(run(80, "--session", table, "board", "--legend")[1], 80)


def _leaves() -> list[tuple[str, ...]]:
    from tests.test_golden import leaf_commands

    return leaf_commands()


def test_why_is_one_option_every_command_takes(d2d: Runner) -> None:
    """--why is declared once (a global option of the root) and every leaf command of the
    Click tree accepts it, after its words as before them."""
    from d2d_cli.registry import GLOBAL_FLAGS

    assert "--why" in GLOBAL_FLAGS
    leaves = _leaves()
    assert len(leaves) >= 94
    for leaf in leaves:
        res = d2d(*leaf, "--why", "--help")
        assert res.exit_code == 0, (leaf, res.stderr)
        assert res.stdout.startswith("Usage: d2d " + " ".join(leaf)), leaf
    assert "--why" in d2d("--help").stdout


def test_why_in_play_explains_the_last_command(table: Path, d2d: Runner) -> None:
    lines = "\n".join(["why", "conflict Archer:fast 'Goblin Scout' --card 5S --card JC",
                       "why"]) + "\n"
    res = d2d("--session", table, "play", input=lines)
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert out.startswith("Nothing to explain: run a command first, then why.\n")
    answer = out.split("\n", 1)[1]
    assert answer.count("A wins") == 2 and answer.index("From the map") > answer.index(
        "A wins")


# --------------------------------------------------------------- 2. one exchange, typed once


def test_hit_and_crit_after_a_conflict_take_its_sides_and_card(table: Path) -> None:
    """The conflict keeps its winner, Rival, skills and card in the round; hit takes
    them and says so in one line; crit takes the sides and the Hits."""
    s = ["--session", table]
    code, _, err = run(80, *s, "conflict", "Archer:7S^", "Goblin Scout", "--no-map",
                       "--card", "4C")
    assert code == 0, err
    code, out, err = run(80, *s, "hit", "--no-map")
    assert code == 0, err
    assert out.splitlines()[0] == "From the conflict: Archer vs Goblin Scout, 7S^"
    assert out.splitlines()[1] == "Hits: 1 — 7♠ Hit"
    got = json.loads(run(80, *s, "hit", "--no-map", "--json")[1])["result"]
    explicit = json.loads(run(80, *s, "hit", "7S^", "--by", "Archer", "--vs", "Goblin Scout",
                              "--skill", "Ranged", "--rival-skill", "Close Combat",
                              "--no-map", "--json")[1])["result"]
    assert got["sources"].pop("exchange") == "From the conflict: Archer vs Goblin Scout, 7S^"
    assert got == explicit
    code, out, err = run(80, *s, "crit", "--weapon", "Body+2", "--types", "pierce",
                         "--card", "pierce@torso")
    assert code == 0, err
    assert out.splitlines()[0] == "From the conflict: Archer vs Goblin Scout, 1 Hit"
    assert "Placed on Goblin Scout" in out


def test_crit_after_a_conflict_takes_a_rating_or_asks_for_the_power(table: Path) -> None:
    """A --power rating needs no unit: after a conflict crit takes its Rival and Hits and
    never refuses a --by nobody typed; with no Power at all it rates the winner's own
    weapon (issue 36: Combat #1's Archer carries a Bow, Body+2 — 000 l.579)."""
    s = ["--session", table]
    run(80, *s, "conflict", "Archer:7S^", "Goblin Scout", "--no-map", "--card", "4C")
    run(80, *s, "hit", "--no-map")
    code, out, err = run(80, *s, "crit", "--card", "pierce@torso")
    assert code == 0, err
    assert "Weapon: Archer's Bow" in out and "Power 10x1: Body+2 with Archer's Body 8x1" in out
    assert run(80, *s, "session", "undo")[0] == 0
    code, out, err = run(80, *s, "crit", "--power", "6x1", "--types", "pierce",
                         "--card", "pierce@torso")
    assert code == 0, err
    assert out.splitlines()[0] == "From the conflict: Archer vs Goblin Scout, 1 Hit"
    assert "Placed on Goblin Scout" in out


def test_typed_values_win_over_the_conflict(table: Path) -> None:
    s = ["--session", table]
    run(80, *s, "conflict", "Archer:7S^", "Goblin Scout", "--no-map", "--card", "4C")
    got = json.loads(run(80, *s, "hit", "--vs", 2, "--json")[1])["result"]
    assert got["sources"]["exchange"] == "From the conflict: 7S^"  # its card, not its units
    assert got["difficulty"] == 2 and got["cards"][0]["card"]["code"] == "7S^"
    got = json.loads(run(80, *s, "hit", "9S", "--json")[1])["result"]
    # its units, and what it was told (issue 37: --no-map is not typed twice)
    assert got["sources"]["exchange"] == "From the conflict: Archer vs Goblin Scout, --no-map"
    got = json.loads(run(80, *s, "hit", "9S", "--level", 0, "--vs", 2, "--json")[1])
    assert "exchange" not in got["result"]["sources"]  # numbers typed: no units taken


def test_hit_with_nothing_to_take_names_what_to_give(table: Path) -> None:
    before = table.read_bytes()
    code, _, err = run(80, "--session", table, "hit", "--vs", 2)
    assert code == 2 and "give the winning card(s), e.g. d2d hit 7S^" in err
    assert table.read_bytes() == before


def test_a_block_win_leaves_nobody_to_hit(table: Path) -> None:
    s = ["--session", table]
    run(80, *s, "conflict", "Archer:7S^", "Goblin Scout", "--no-map", "--card", "4C")
    run(80, *s, "conflict", "Archer:block", "Goblin Scout:fast", "--no-map")  # A wins
    assert "exchange" not in __import__("tomllib").loads(table.read_text())["round"]


# ------------------------------------------------------------------- 3. next, by the Countdown


def test_next_through_a_combat1_round(table: Path) -> None:
    """001 l.499–505: each Group counts down from 10; at each Count the units whose Move
    equals it act (or Wait: Move −1). Combat #1 after round start: Archer and the two
    Goblins at Count 5, the Thief (Speed 4) at 4."""
    s = ["--session", table]
    for a, b in (("Archer", "Goblin Scout"), ("Goblin Scout", "Archer"),
                 ("Goblin Skirmisher", "Archer")):
        assert run(80, *s, "unit", "target", a, b)[0] == 0

    def up() -> list[tuple[int, str, int]]:
        r = json.loads(run(80, *s, "round", "next", "--json")[1])["result"]
        return [(u["group"], u["name"], u["count"]) for u in r["next"]]

    assert up() == [(1, "Archer", 5), (1, "Goblin Scout", 5), (1, "Goblin Skirmisher", 5),
                    (2, "Thief", 4)]
    assert run(80, *s, "round", "next")[1] == (
        "Group 1, Count 5: Archer → Goblin Scout — Move 5 · 2 Actions · Turn 2\n"
        "Group 1, Count 5: Goblin Scout → Archer — Move 5 · 2 Actions · Turn 2\n"
        "Group 1, Count 5: Goblin Skirmisher → Archer — Move 5 · 2 Actions · Turn 2\n"
        "Group 2, Count 4: Thief — Move 4 · 2 Actions · Turn 2\n")
    for name in ("Archer", "Goblin Scout"):
        assert run(80, *s, "unit", "wait", name, 5)[0] == 0
    assert up() == [(1, "Goblin Skirmisher", 5), (2, "Thief", 4)]
    assert run(80, *s, "unit", "act", "Goblin Skirmisher", "fight")[0] == 0
    assert up() == [(1, "Archer", 4), (1, "Goblin Scout", 4), (2, "Thief", 4)]
    assert run(80, *s, "round", "end")[0] == 0
    assert run(80, *s, "round", "next")[1] == "No round under way: d2d round start\n"


def test_play_has_next_and_its_status_line_names_who_is_up(table: Path) -> None:
    from d2d_cli.shell import Shell

    shell = Shell(session=str(table), run_argv=cli.main, root=cli.root_command())
    assert "next at Count 5: Archer, Goblin Scout, Goblin Skirmisher" in shell.status()
    assert shell.run_line("next") == 0


# -------------------------------------------------------------- 4. mistakes that name the fix

MISTAKES = [
    (["unit", "show", "Goblin", "Scout"],
     'Got unexpected extra argument(s) (Scout) — quote a name with spaces: '
     'unit show "Goblin Scout"'),
    (["hit", "QC", "QH", "--by", "Archer", "--vs", "Goblin", "Scout"],
     "not a card: 'Scout' — quote a name with spaces: "
     'hit QC QH --by Archer --vs "Goblin Scout"'),
    (["hit", "QX", "--vs", 2], "not a card: 'QX' — no suit 'X'"),
    (["hit", "11S", "--vs", 2], "not a card: '11S' — no rank '11'"),
    (["crit", "--weapon", "sword", "--by", "Archer"],
     "'sword' is not a weapon formula: --weapon takes a formula STAT[+N|-N] (STAT body, "
     'mind, will or speed), e.g. --weapon "Body+2"'),
    (["Archer", "conflict", "fast", "block"],
     "No such command 'Archer'. The command comes first: conflict Archer fast block"),
    (["board", "--svg"], "Option '--svg' requires an argument, e.g. --svg combat1.svg"),
    (["hit", "7S", "--vs"], "Option '--vs' requires an argument, e.g. --vs 2x1"),
]


@pytest.mark.parametrize(("argv", "says"), MISTAKES)
def test_a_mistake_names_its_fix_and_changes_nothing(argv: list[Any], says: str,
                                                     table: Path) -> None:
    before = table.read_bytes()
    code, _, err = run(80, "--session", table, *argv)
    assert code == 2
    assert err.startswith("d2d: error: " + says), err
    assert table.read_bytes() == before


def test_oracle_takes_its_question_as_words(table: Path) -> None:
    code, out, _ = run(80, "--session", table, "oracle", "Is", "the", "guard", "asleep",
                       "--card", "QH")
    assert code == 0 and out.startswith("Is the guard asleep (even)\n")


# ------------------------------------------------------------------- 5. help that reads whole


@pytest.mark.parametrize("group", ["", "fate", "scale", "char", "unit", "task", "clock",
                                   "clock event", "round", "odds", "session", "npc"])
def test_group_help_gives_each_line_whole_at_80(group: str, d2d: Runner,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    res = d2d(*group.split(), "--help")
    assert res.exit_code == 0
    commands = res.stdout.split("Commands:\n", 1)[1].rstrip("\n").splitlines()
    assert commands and all(len(x) <= 80 and not x.endswith("...") for x in commands), res.stdout
    assert all(x.startswith("  ") and not x.startswith("   ") for x in commands), res.stdout


def test_help_in_play_fits_the_pane() -> None:
    from d2d_cli.shell import shell_help

    for width in (40, 80):
        assert max(len(x) for x in shell_help(width).splitlines()) <= width


def test_clock_event_rm(table: Path) -> None:
    s = ["--session", table]
    assert run(80, *s, "clock", "event", "add", "The bridge collapses", 9)[0] == 0
    assert run(80, *s, "clock", "event", "rm", "the bridge collapses")[1] == (
        "Removed the timed event: The bridge collapses (#9)\n")
    before = table.read_bytes()
    code, _, err = run(80, *s, "clock", "event", "rm", "The bridge collapses")
    assert code == 2 and "no event 'The bridge collapses'" in err
    assert table.read_bytes() == before


def test_a_non_players_keep_never_mentions_a_hand(table: Path) -> None:
    """000 l.420: a Non-Player reveals a Fate card; it has no hand to return a card to."""
    out = run(80, "--session", table, "conflict", "Goblin Scout:block", "Archer:fast",
              "--no-map")[1]
    assert "Keep: its Block holds" in out and "hand" not in out
    out = run(80, "--session", table, "conflict", "Archer:block", "Goblin Scout:fast",
              "--no-map")[1]
    assert "Keep: return the Block card to your hand" in out
