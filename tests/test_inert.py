"""Text from files is inert (issue 30 item 2). A session, scene, character or journal
file from someone else — a shared campaign folder, a downloaded scene — used to set the
window title, clear the screen and write the clipboard (OSC 52) through ``d2d status``
and every other view. Now every text field refuses such characters at the shape check
(exit 3 naming the key, the key itself shown escaped), and — should any text get past
it — every view escapes them on the way out (human and ``--json``), and an SVG stays
well-formed XML."""

from __future__ import annotations

import json
import re
import xml.dom.minidom
from pathlib import Path

import pytest

from d2d_cli import env
from d2d_cli import inert as plain
from d2d_cli.env import Environment
from tests.test_safe_state import everything

# ESC + CSI (clear screen), OSC 0 (window title), OSC 52 (clipboard), 8-bit CSI (C1),
# a C1 control, BEL, DEL, a bidi override and a bidi isolate (39 characters: it fits
# a faction's name).
PAYLOAD = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;eA==\x07\x9b31m\x85\x7f\u202eevil\u2066"
TOML_PAYLOAD = "".join(c if c.isascii() and c.isprintable() else f"\\u{ord(c):04x}"
                       for c in PAYLOAD)
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
SGR = re.compile(r"\x1b\[[0-9;]*m")

# Where text from a file is kept: (what, regex on combat1's session text, replacement).
# Each replacement puts the payload in one text field or one key.
FIELDS = [
    ("scene name", r'^name = "Combat #1"$', f'name = "{TOML_PAYLOAD}"'),
    ("backstory", r'^backstory = ".*?"$', f'backstory = "{TOML_PAYLOAD}"'),
    ("faction name", r'^\[scene\.factions\.Goblins\]$', f'[scene.factions."{TOML_PAYLOAD}"]'),
    ("goal", r'^goal = "Keep the prisoner.*?"$', f'goal = "{TOML_PAYLOAD}"'),
    ("player", r'^players = \["Non-Player"\]$', f'players = ["{TOML_PAYLOAD}"]'),
    ("unit faction", r'^faction = "Goblins"$', f'faction = "{TOML_PAYLOAD}"'),
    ("unit player", r'^player = "Player1"$', f'player = "{TOML_PAYLOAD}"'),
    ("bound", r'^bound = ".*?"$', f'bound = "{TOML_PAYLOAD}"'),
    ("task name", r'^\[tasks\.Knot\]$', f'[tasks."{TOML_PAYLOAD}"]'),
    ("clock event", r'^text = "Reinforcements.*?"$', f'text = "{TOML_PAYLOAD}"'),
    ("legend name", r'^name = "ruined wall"$', f'name = "{TOML_PAYLOAD}"'),
    ("skill name", r'^Ranged = 1$', f'"{TOML_PAYLOAD}" = 1'),
    ("condition name", r'^\[units\.Archer\.conditions\]$',
     f'[units.Archer.conditions]\n"{TOML_PAYLOAD}" = 1'),
    ("conception answer", r'^\[units\.Archer\.skills\]$',
     f'[units.Archer.conception]\nwhy = "{TOML_PAYLOAD}"\n\n[units.Archer.skills]'),
    ("a table's own notes", r'\Z', f'\n[notes]\nwho = "{TOML_PAYLOAD}"\n'),
    ("a key at the top", r'^schema = 1$', f'schema = 1\n"{TOML_PAYLOAD}" = 1'),
]

VIEWS = [("status",), ("unit", "list"), ("unit", "show", "Archer"), ("scene", "show"),
         ("board",), ("task", "list"), ("clock", "show"), ("session", "log"),
         ("session", "show"), ("round", "groups"), ("npc", "plan", "Goblin Scout"),
         ("fate", "status")]


def clean(text: str) -> bool:
    return RAW.search(SGR.sub("", text)) is None


@pytest.fixture
def combat(d2d, data_dir: Path) -> Path:
    d2d.ok("scene", "load", "combat1")
    return data_dir / "default.toml"


def _edit(path: Path, pattern: str, repl: str) -> None:
    text = path.read_text("utf-8")
    new, n = re.subn(pattern, lambda _: repl, text, count=1, flags=re.M)
    assert n == 1, pattern
    path.write_text(new, "utf-8")


def test_the_inert_function_escapes_every_kind() -> None:
    assert len(PAYLOAD) <= 40
    shown = plain.inert(PAYLOAD)
    assert clean(shown) and shown.startswith("\\x1b[2J\\x1b]0;pwned\\x07")
    assert "\\u202eevil\\u2066" in shown
    assert plain.inert("tab\tand\nnewline ok") == "tab\tand\nnewline ok"
    assert plain.inert("\x1b[1mbold\x1b[0m\x1b[2J", keep_styles=True) == \
        "\x1b[1mbold\x1b[0m\\x1b[2J"


@pytest.mark.parametrize(("what", "pattern", "repl"), FIELDS, ids=[f[0] for f in FIELDS])
def test_a_control_character_in_any_text_field_is_refused(
        d2d, combat: Path, what: str, pattern: str, repl: str) -> None:
    # The repro: the shape check accepted control characters in every text
    # field but unit names, and `d2d status` sent them to the terminal.
    _edit(combat, pattern, repl)
    before = everything(combat.parent)
    for view in VIEWS[:4] + [("fate", "draw")]:
        for js in ((), ("--json",)):
            res = d2d(*view, *js)
            assert res.exit_code == 3, (what, view, res.stdout, res.stderr)
            assert "control character U+" in res.stderr, (what, res.stderr)
            assert clean(res.stdout) and clean(res.stderr), (what, view, res.stderr)
    assert everything(combat.parent) == before


@pytest.mark.parametrize("field", ["unit", "task", "clock"])
def test_a_command_never_stores_one(d2d, combat: Path, field: str) -> None:
    before = everything(combat.parent)
    args = {"unit": ("unit", "add", PAYLOAD, "--body", "2x1"),
            "task": ("task", "new", PAYLOAD, "--difficulty", "2"),
            "clock": ("clock", "event", "add", "3", PAYLOAD)}[field]
    res = d2d(*args)
    assert res.exit_code == 2 and clean(res.stderr) and clean(res.stdout)
    assert everything(combat.parent) == before


def _accepting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shape check's refusal switched off: what the views do with text that got
    past it (the output boundary, the second line of defence)."""
    from d2d_cli.session import shape

    monkeypatch.setattr(shape, "_control", lambda *a, **k: None)


@pytest.mark.parametrize("styled", [False, True])
def test_every_view_shows_text_from_a_file_escaped(
        d2d, combat: Path, monkeypatch: pytest.MonkeyPatch, styled: bool) -> None:
    d2d.ok("char", "new", "Rook", "--body", "7", "--speed", "5")
    _accepting(monkeypatch)
    for _, pattern, repl in FIELDS:
        _edit(combat, pattern, repl)
    _edit(combat, r'^\[units\.Rook\]$', f'[units.Rook]\nplayer = "{TOML_PAYLOAD}"')
    views = [*VIEWS, ("char", "show", "Rook"), ("char", "list")]
    seen = 0
    for view in views:
        for js in ((), ("--json",)):
            with env.active(Environment(width=100, styled=styled, colors=styled)):
                res = d2d(*view, *js)
            assert res.exit_code in (0, 2), (view, res.stdout, res.stderr)
            assert clean(res.stdout) and clean(res.stderr), (view, js, res.stdout[:2000])
            if js and res.exit_code == 0:
                json.loads(res.stdout)  # still JSON
            seen += "\\x1b" in res.stdout or "\\u001b" in res.stdout
    assert seen >= len(views)  # the text is there, escaped, not dropped


def test_errors_and_did_you_mean_lists_are_escaped(d2d, combat: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _accepting(monkeypatch)
    _edit(combat, r'^\[tasks\.Knot\]$', f"[tasks.\"Knot{TOML_PAYLOAD[:60]}\"]")
    res = d2d("task", "show", "Knott")
    assert res.exit_code == 2 and clean(res.stderr) and clean(res.stdout)
    res = d2d("task", "show", "Knott", "--json")
    assert clean(res.stdout) and clean(res.stderr)
    res = d2d("unit", "show", PAYLOAD)  # a typed name is echoed escaped too
    assert res.exit_code == 2 and clean(res.stderr) and "\\x1b" in res.stderr


def test_the_svg_is_well_formed_for_every_name(d2d, combat: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _accepting(monkeypatch)
    every = "".join(chr(c) for c in range(0x20)) + "\x7f\x85\x9b\u202e\ufffe&<>\"'"
    def toml(text: str) -> str:
        return "".join(c if c.isascii() and c.isprintable() and c not in '"\\'
                       else f"\\u{ord(c):04x}" for c in text)

    _edit(combat, r'^name = "Combat #1"$', f'name = "{toml(every)}"')
    _edit(combat, r'^name = "ruined wall"$', f'name = "{toml(every)}"')
    _edit(combat, r'^faction = "Goblins"$', f'faction = "{toml(every[:20])}"')
    _edit(combat, r'^faction = "Adventurers"$', f'faction = "{toml(every[20:])}"')
    out = tmp_path / "map.svg"
    d2d.ok("board", "--svg", out)
    text = out.read_text("utf-8")
    xml.dom.minidom.parseString(text.encode("utf-8"))  # well-formed XML 1.0
    assert clean(text)


def test_the_character_sheet_is_well_formed_for_every_accepted_name(d2d, tmp_path: Path) -> None:
    name = "R&<o>\"k's \u00e9"  # markup characters and non-ASCII: all accepted
    d2d.ok("char", "new", name, "--body", "7", "--speed", "5")
    for fmt in ("svg", "html"):
        out = tmp_path / f"sheet.{fmt}"
        d2d.ok("char", "export", name, "--format", fmt, "-o", out)
        text = out.read_text("utf-8")
        assert clean(text)
        if fmt == "svg":
            xml.dom.minidom.parseString(text.encode("utf-8"))
        else:
            assert "R&amp;&lt;o&gt;" in text


def test_a_scene_or_character_file_from_someone_else_is_refused(d2d, combat: Path,
                                                               tmp_path: Path) -> None:
    scene = tmp_path / "downloaded.toml"
    scene.write_text('name = "Mini"\nmap = "personal"\n[units.A]\nbody = "2x1"\n'
                     'mind = "2x1"\nwill = "2x1"\nspeed = "4x0"\n'
                     f'[factions."{TOML_PAYLOAD}"]\ngoal = "x"\n', "utf-8")
    rook = tmp_path / "rook.toml"
    rook.write_text(f'[units.Rook]\nkind = "character"\nbody = "7x1"\nplayer = "{TOML_PAYLOAD}"\n',
                    "utf-8")
    before = everything(combat.parent)
    for args in (("scene", "load", scene), ("char", "import", rook)):
        res = d2d(*args)
        assert res.exit_code == 2 and "control character U+" in res.stderr, res.stderr
        assert clean(res.stderr) and res.stdout == ""
    assert everything(combat.parent) == before


def test_a_del_in_an_all_ascii_envelope_is_escaped_too() -> None:
    """The all-ASCII short cut of a --json line (issue 40) let DEL through raw: DEL is
    ASCII; with any non-ASCII character beside it, it was escaped (issue 30 item 2)."""
    from d2d_cli.render import _json_line

    assert _json_line({"x": "a\x7fb"}) == '{"x": "a\\u007fb"}\n'
    assert _json_line({"x": "a\x7fbé"}) == '{"x": "a\\u007fbé"}\n'
    assert _json_line({"x": "plain"}) == '{"x": "plain"}\n'


def test_printable_text_is_let_through_unread_and_only_it() -> None:
    # Issue 40: the views print ♠ and ×, and every such line used to compile the
    # escaping pattern (~0.4 ms a command). The short cut rests on one fact, checked
    # over every code point: each character the pattern escapes is one str.isprintable
    # refuses — and tab and newline, which both keep, are the only others it lets by.
    escaped = {c for c in map(chr, range(0x110000)) if RAW.fullmatch(c)}
    assert escaped and not any(c.isprintable() for c in escaped)
    plain._unsafe_re.cache_clear()
    plain._unsafe_but_sgr.cache_clear()
    line = "Archer 7♠^ beats 5♥^ — 2×1, Stay\n\tnext"
    assert plain.inert(line) is line and plain.inert(line, keep_styles=True) is line
    assert plain._unsafe_re.cache_info().currsize == 0
    assert plain._unsafe_but_sgr.cache_info().currsize == 0
    # and text with one character to escape among the printable ones still has it shown
    for c in sorted(escaped)[::7] + ["\u202e", "\x9b", "\u2028"]:
        assert plain.inert(f"7♠^ {c}×") == f"7♠^ {plain._shown(c)}×"
        assert plain.inert(f"\x1b[1m♠{c}", keep_styles=True) == f"\x1b[1m♠{plain._shown(c)}"
