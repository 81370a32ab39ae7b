"""A hand-edited session of the wrong shape (issue 10, item 6): exit 3 naming the file,
the table and the key, for lookups, changes and undo alike, and the file untouched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import build_table, files_of, hand_edit

# (what a person typed, the regex edit, the words the message must hold: the table as
# [table] and the key)
CASES = [
    ("units = 5", r"^\[units\.Gob\]\n", "", None),  # see the special case below
    ('Stealth = "one"', r"^Stealth = 1$", 'Stealth = "one"', ("[units.Gob.skills]", "Stealth")),
    ("a task without challenge", r"^challenge = 4\n", "", ("[tasks.knot]", "challenge")),
    ('clock value = "x"', r"^value = 1$", 'value = "x"', ("[clock]", "value")),
    ('rules = "x"', r"^schema = 1\n(.*?)^\[rules\]\n", r'schema = 1\nrules = "x"\n\1',
     ("rules", "top level")),
    ("body = 8", r'^body = "2x1"$', "body = 8", ("[units.Gob]", "body")),
    ("a card twice", r'^draw = \["(\w+\^?v?)", "(\w+\^?v?)"', r'draw = ["\1", "\1"',
     ("[fate]", "draw")),
    ("fatigue = -3", r"^fatigue = 1$", "fatigue = -3", ("[units.Gob.conditions]", "fatigue")),
    ("challenge = 999", r"^challenge = 4$", "challenge = 999", ("[tasks.knot]", "challenge")),
    ("schema = 0", r"^schema = 1$", "schema = 0", ("schema", "top level")),
    ("a stat past the scale bound", r'^mind = "6x1"$', 'mind = "2x9999"', ("[units.Gob]", "mind")),
    ('crits = "x"', r'^speed = "5x0"$', 'speed = "5x0"\ncrits = "x"', ("[units.Gob]", "crits")),
    ("a Timed Event without text", r'^text = "reinforcements"\n', "",
     ("[clock.timed[0]]", "text")),
]


def _units_5(path: Path) -> None:
    # `units = 5` at the top, with the [units.Gob] tables removed (else it is not TOML)
    text = path.read_text()
    start = text.index("[units.Gob]")
    end = text.index("[tasks.knot]")
    path.write_text(text[:start] + text[end:])
    hand_edit(path, r"^schema = 1$", "schema = 1\nunits = 5")


@pytest.mark.parametrize(("label", "pattern", "repl", "words"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_hand_edit_of_the_wrong_shape_is_refused(d2d, tmp_path: Path, label: str,
                                                   pattern: str, repl: str,
                                                   words: tuple[str, str] | None) -> None:
    path = build_table(d2d, tmp_path / "t.toml")
    if label == "units = 5":
        _units_5(path)
        words = ("units", "top level")
    else:
        hand_edit(path, pattern, repl)
    before = files_of(tmp_path)
    for args in (("unit", "list"), ("fate", "draw"), ("unit", "condition", "Gob", "add",
                                                       "stun"), ("session", "show")):
        res = d2d("--session", path, *args)
        assert res.exit_code == 3, (args, res.stdout, res.stderr)
        line = res.stderr.strip()
        assert line.count("\n") == 0 and str(path) in line, line
        assert words is not None and all(w in line for w in words), line
        assert "Traceback" not in res.stdout + res.stderr
    assert files_of(tmp_path) == before  # nothing touched: not the file, .bak or journal


def test_the_error_names_the_unit_table_and_key_in_json(d2d, tmp_path: Path) -> None:
    path = build_table(d2d, tmp_path / "t.toml")
    hand_edit(path, r"^fatigue = 1$", "fatigue = -3")
    env = d2d.json("--session", path, "status", code=3)
    assert env["error"]["kind"] == "session"
    assert "[units.Gob.conditions] fatigue: -3 is out of range" in env["error"]["message"]


def test_a_good_hand_edit_is_read_and_kept(d2d, tmp_path: Path) -> None:
    # The shape check does not get in the way of what hand edits are for.
    path = build_table(d2d, tmp_path / "t.toml")
    hand_edit(path, r"^fatigue = 1$", "fatigue = 3  # the goblin ran all night")
    hand_edit(path, r"^\[rules\]$", '[rules]\n# house rule\nnew_skill_sp = 1')
    path.write_text(path.read_text() + '\n[notes]\nplot = "the map"\n')
    assert d2d.json("--session", path, "unit", "show", "Gob")["conditions"] == {"fatigue": 3}
    d2d.ok("--session", path, "unit", "condition", "Gob", "add", "stun")
    text = path.read_text()
    assert "# the goblin ran all night" not in text or "fatigue = 3" in text
    assert "# house rule" in text and 'plot = "the map"' in text


def test_rules_values_are_checked_on_read_by_the_options_module(d2d, tmp_path: Path
                                                                   ) -> None:
    # The declared shape checks each [rules] key with rules.core.options.problems.
    path = build_table(d2d, tmp_path / "t.toml")
    hand_edit(path, r"^\[rules\]$", '[rules]\nspeed_convention = "5"')
    before = path.read_bytes()
    res = d2d("--session", path, "char", "new", "Rook", "--body", "8")
    assert res.exit_code == 3
    assert "[rules] speed_convention: '5': use \"001\" or \"000\"" in res.stderr
    assert path.read_bytes() == before


def test_deep_nesting_is_a_session_error_not_a_crash(d2d, tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("schema = 1\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    res = d2d("--session", path, "fate", "status")
    assert res.exit_code == 3 and str(path) in res.stderr


# --- issue 20 item 11: hand edits that used to crash a later write or pass silently ---
# Each is refused with exit 3 naming the file, the table and the key, for a lookup and a
# write alike, and nothing is touched. The class behind them (session/shape.py): every
# value finite, no deeper than MAX_DEPTH, plain inside d2d's own tables; declared keys of
# their type and range; a unit has a Body (001 l.289: only Units have Mind, Will or
# Speed, so every thing on the board has a Body); an archetype one d2d knows; a weather
# card whose fields are the card's own.

DEEP = "[" * 150 + "]" * 150


def _night(d2d: Any, path: Path) -> Path:
    """A session with the scene's units (player, bound), a character with an archetype
    and the weather's cards."""
    d2d.ok("--seed", 5, "session", "new", path)
    d2d.ok("--session", path, "scene", "load", "combat1")
    d2d.ok("--session", path, "char", "new", "Rook", "--body", "7", "--speed", "5",
           "--archetype", "thief")
    d2d.ok("--session", path, "weather", "wind")
    return path


HAND_EDITS = [
    ("player = nan", r'^player = "Player1"$', "player = nan", ("[units.Archer]", "player")),
    ("player = inf", r'^player = "Player1"$', "player = -inf", ("[units.Archer]", "player")),
    ("player as a date", r'^player = "Player1"$', "player = 1979-05-27",
     ("[units.Archer]", "player")),
    ("player as a number", r'^player = "Player1"$', "player = 7", ("[units.Archer]", "player")),
    ("bound as a table", r"^bound = .*?$", "bound = {rope = 4}", ("[units.Thief]", "bound")),
    ("bound = inf", r"^bound = .*?$", "bound = inf", ("[units.Thief]", "bound")),
    ("a 150-level array in a unit", r'^player = "Player1"$',
     f'player = "Player1"\nloot = {DEEP}', ("[units.Archer]", "loot")),
    ("a 999-level array in a unit", r'^player = "Player1"$',
     f'player = "Player1"\nloot = {"[" * 999 + "]" * 999}', ("[units.Archer]", "loot")),
    ("nan in a unit's own record", r'^player = "Player1"$',
     'player = "Player1"\nnotes = {weight = nan}', ("[units.Archer.notes]", "weight")),
    ("a date in a unit's own record", r'^player = "Player1"$',
     'player = "Player1"\nseen = 1979-05-27T07:32:00Z', ("[units.Archer]", "seen")),
    ("a unit with no body", r'^(\[units\.Archer\]\n(?:[^\n\[]*\n)*?)body = "8x1"\n', r"\1",
     ("[units.Archer]", "body")),
    ("a reserve with no body",
     r'^(\[scene\.reserves\."Goblin Skirmisher 2"\]\n(?:[^\n\[]*\n)*?)body = "2x1"\n', r"\1",
     ('[scene.reserves."Goblin Skirmisher 2"]', "body")),
    ('archetype = "9x99"', r'^archetype = "Thief"$', 'archetype = "9x99"',
     ("[units.Rook]", "archetype")),
    ('template = "orc"', r'^template = "human-male"$', 'template = "orc"',
     ("[units.Rook]", "template")),
    ("a weather card of rank 10^18", r'^rank = "\w+"$', "rank = 1000000000000000000",
     ("[weather.cards[0]]", "rank")),
    ("a weather card of another card's rank", r'^(code = "(?:[2-9]|10)\w\W?"\n)rank = "\w+"$',
     r'\1rank = "K"', ("[weather.cards[", "rank")),
    ("a weather card that is no card", r'^code = "[^"]+"$', 'code = "ZZ"',
     ("[weather.cards[0]]", "code")),
    ("nan in a table's own notes", r"^schema = 1$", "schema = 1\nmood = nan",
     ("mood", "top level")),
    # A placed unit off the map crashed conflict and hit (the line of sight, exit 1); a
    # Facing that is no heading was read, silently, as none.
    ("a unit placed off the map", r'^space = "E9"$', 'space = "ZZ999"',
     ("[units.Archer]", "space", "ZZ999 is off the map (columns A–L, rows 1–10)")),
    ("a space that is no Space", r'^space = "E9"$', 'space = "99"',
     ("[units.Archer]", "space", "a column letter and a row number")),
    ("a facing that is no heading", r'^facing = "N"$', 'facing = "Q"',
     ("[units.Archer]", "facing", "expected one of N, NE, E, SE, S, SW, W, NW, found 'Q'")),
]


@pytest.mark.parametrize(("label", "pattern", "repl", "words"), HAND_EDITS,
                         ids=[c[0] for c in HAND_EDITS])
def test_a_hand_edit_that_used_to_crash_is_refused(d2d: Any, tmp_path: Path, label: str,
                                                   pattern: str, repl: str,
                                                   words: tuple[str, str]) -> None:
    path = _night(d2d, tmp_path / "night.toml")
    hand_edit(path, pattern, repl)
    before = files_of(tmp_path)
    for args in (("unit", "list"), ("fate", "draw"),
                 ("unit", "condition", "Thief", "add", "stun"), ("round", "start"),
                 ("hit", "9S", "--by", "Archer", "--vs", "Goblin Scout")):
        res = d2d("--session", path, *args)
        assert res.exit_code == 3, (label, args, res.stdout, res.stderr)
        line = res.stderr.strip()
        assert line.count("\n") == 0 and str(path) in line, line
        assert all(w in line for w in words), (words, line)
        assert "Traceback" not in res.stdout + res.stderr
    assert files_of(tmp_path) == before  # not the file, .bak or journal


def test_a_table_s_notes_may_hold_dates_and_a_unit_its_own_plain_records(d2d: Any,
                                                                         tmp_path: Path
                                                                         ) -> None:
    # What the class leaves alone: dates in a top-level table of the table's own, and
    # a feature's plain record in a unit; both survive the next write.
    path = _night(d2d, tmp_path / "night.toml")
    path.write_text(path.read_text() + "\n[notes]\nnext_game = 2026-12-04\n")
    hand_edit(path, r'^player = "Player1"$', 'player = "Player1"\nloot = [["gold", 3]]')
    d2d.ok("--session", path, "unit", "condition", "Archer", "add", "stun")
    text = path.read_text()
    assert "next_game = 2026-12-04" in text and 'loot = [["gold", 3]]' in text


def test_a_depth_the_parser_cannot_read_still_names_table_and_key(d2d: Any,
                                                                  tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text('schema = 1\n\n[units."Goblin Scout"]\nbody = "2x1"\nloot = '
                    + "[" * 5000 + "]" * 5000 + "\n")
    before = path.read_bytes()
    res = d2d("--session", path, "fate", "status")
    assert res.exit_code == 3
    assert '[units."Goblin Scout"] loot: nested deeper than 16' in res.stderr
    assert path.read_bytes() == before
