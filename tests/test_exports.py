"""``d2d session export`` and the JSON Schemas of what d2d writes for others
(d2d_cli/schemas/*.json, docs/exports.md): each golden file under tests/golden/exports
is what the exports write for one seeded session (timestamps normalised), and each is
valid against its schema; the Foundry shapes follow Foundry VTT's published data model
(CardsData / CardData / JournalEntryPageData)."""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d2d_cli import session
from d2d_cli.serve import project

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency: "
                                 "pip install -e .[test]")

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "d2d_cli" / "schemas"
GOLDEN = Path(__file__).resolve().parent / "golden" / "exports"
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")
HHMM = re.compile(r"(^|\\n)- \d\d:\d\d ", re.MULTILINE)  # in a file, or in a JSON string


def schema(name: str) -> dict[str, Any]:
    doc = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return dict(doc)


def valid(doc: Any, name: str) -> None:
    jsonschema.Draft202012Validator(schema(name)).validate(doc)


def story_session(d2d: Any, tmp_path: Path) -> Path:
    path = tmp_path / "story.toml"
    for args in (("fate", "shuffle", "--reset"), ("scene", "load", "combat1"),
                 ("round", "start"), ("oracle", "Is the gate open?", "--likely"),
                 ("conflict", "Archer:7S^", "fate"),
                 ("crit", "--power", "8x1", "--types", "pierce", "--hits", "2", "--target",
                  "Goblin Scout"),
                 ("fate", "draw", "2"), ("clock", "tick"), ("round", "end"),
                 ("round", "start")):
        d2d.ok("--session", path, "--seed", "7", *args)
    return path


def normal(text: str, tmp_path: Path) -> str:
    """Times and the test's folder replaced, so the golden file is the same every run."""
    text = text.replace(str(tmp_path), "TMP")
    text = re.sub(r"<li>\d\d:\d\d ", "<li>HH:MM ", text)  # the JournalEntry's HTML
    return HHMM.sub(r"\1- HH:MM ", STAMP.sub("2000-01-01T00:00:00+00:00", text))


def frontmatter(text: str) -> dict[str, Any]:
    head, sep, _ = text.removeprefix("---\n").partition("\n---\n")
    assert sep, "no frontmatter"
    # each value is JSON, which YAML reads as the same value
    return {k: json.loads(v) for k, v in (line.split(": ", 1) for line in head.splitlines())}


def golden(name: str, text: str) -> None:
    """The export equals the golden file (D2D_REGEN=1 rewrites it; read the diff)."""
    path = GOLDEN / name
    if os.environ.get("D2D_REGEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    assert text == path.read_text("utf-8")


@pytest.fixture(autouse=True)
def utc(monkeypatch: Any) -> Any:
    """The exports tell local times: the golden files are written in UTC."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_markdown_story(d2d: Any, tmp_path: Path) -> None:
    path = story_session(d2d, tmp_path)
    out = tmp_path / "story.md"
    res = d2d.json("--session", path, "session", "export", "--format", "markdown", "-o", out)
    assert res == {"format": "markdown", "files": [str(out)], "entries": 10, "text": None}
    text = out.read_text("utf-8")
    front = frontmatter(text)
    valid(front, "frontmatter")
    assert (front["title"], front["d2d_rounds"], front["d2d_entries"]) == ("Combat #1", 2,
                                                                          10)
    assert front["d2d_session"] == "story" and str(tmp_path) not in text  # no path
    assert front["tags"] == ["d2d", "session-recap"] and front["date"] == front["d2d_first"]
    body = text.split("\n---\n", 1)[1]
    assert "## Before the first round" in body and "## Round 1" in body
    assert "## Round 2" in body
    assert "**Oracle**: Is the gate open? (likely) — " in body
    # the winner first, each side's approach and card (seed 7: the Fate side's Counter)
    assert "**Conflict**: Counter K♦↓ beats Archer (Fast 7♠↑)\n" in body
    assert "**Crit**: Crit " in body and " on Goblin Scout" in body
    assert "**Clock**" in body and "`" not in body  # outcomes, not command lines
    golden("story.md", normal(text, tmp_path))


def test_an_export_to_dash_is_printed_and_writes_no_file(d2d: Any, tmp_path: Path,
                                                         monkeypatch: Any) -> None:
    """-o - prints the story (as char export -o - prints the sheet): no file named '-';
    the Fate deck, two files, asks for a name; nothing is written either way."""
    path = story_session(d2d, tmp_path)
    monkeypatch.chdir(tmp_path)
    res = d2d("--session", path, "session", "export", "-o", "-")
    assert res.exit_code == 0, res.stderr
    written = tmp_path / "story.md"
    d2d.ok("--session", path, "session", "export", "-o", written)
    assert res.stdout == written.read_text("utf-8") and not (tmp_path / "-").exists()
    res = d2d("--session", path, "session", "export", "-o", "-", "--format", "foundry-cards")
    assert res.exit_code == 2 and "give a file name, e.g. -o deck.json" in res.stderr
    assert not (tmp_path / "-").exists() and not (tmp_path / "--discard.json").exists()


def test_foundry_journal(d2d: Any, tmp_path: Path) -> None:
    path = story_session(d2d, tmp_path)
    out = tmp_path / "journal.json"
    d2d.ok("--session", path, "session", "export", "-f", "foundry-journal", "-o", out)
    doc = json.loads(out.read_text("utf-8"))
    valid(doc, "foundry-journal")
    page = doc["pages"][0]
    assert (page["type"], page["text"]["format"]) == ("text", 2)  # 2: MARKDOWN
    assert page["name"] == "Combat #1" and page["title"]["show"] is True
    # the title once: the page's own, not again as the story's "# title"
    assert page["text"]["markdown"].startswith("## Before the first round\n")
    assert "<h1>" not in page["text"]["content"]
    assert "<h2>Round 1</h2>" in page["text"]["content"]
    # the HTML is the Markdown's lines: the same items, times included
    items = [ln for ln in page["text"]["markdown"].splitlines() if ln.startswith("- ")]
    html_items = re.findall(r"<li>(\d\d:\d\d) <strong>(\w+)</strong>",
                            page["text"]["content"])
    assert [(i[2:7], i.split("**")[1]) for i in items] == html_items
    golden("foundry-journal.json", normal(out.read_text("utf-8"), tmp_path))


def test_foundry_cards(d2d: Any, tmp_path: Path) -> None:
    path = story_session(d2d, tmp_path)
    out = tmp_path / "fate.json"
    res = d2d.json("--session", path, "session", "export", "-f", "foundry-cards", "-o", out)
    assert res["files"] == [str(out), str(tmp_path / "fate-discard.json")]
    deck = json.loads(out.read_text("utf-8"))
    pile = json.loads((tmp_path / "fate-discard.json").read_text("utf-8"))
    valid(deck, "foundry-cards")
    valid(pile, "foundry-cards")
    assert (deck["type"], pile["type"]) == ("deck", "pile")
    assert len(deck["cards"]) == 54
    assert sorted(c["name"] for c in deck["cards"] if c["suit"] == "wild") == ["BW", "RW"]
    fate = session.read(path)["fate"]
    drawn = sorted(c["name"] for c in deck["cards"] if c["drawn"])
    assert drawn == sorted(code[:-1] for code in fate["discard"])
    assert all(c["face"] is None for c in deck["cards"])  # a deck's cards lie face down
    assert [c["flags"]["d2d"]["code"] for c in pile["cards"]] == fate["discard"]
    assert {c["origin"] for c in pile["cards"]} == {deck["_id"]}
    # Foundry's own Cards#pass keeps the deck card's _id in the pile and marks the deck's
    # copy drawn: so Return and a deck Reset find each discard (no 54 + 4 after Reset).
    by_id = {c["_id"]: c for c in deck["cards"]}
    assert {c["_id"] for c in pile["cards"]} <= set(by_id)
    assert all(c["drawn"] and by_id[c["_id"]]["drawn"] for c in pile["cards"])
    # sort is d2d's draw order: the next card first (Foundry draws the lowest sort)
    assert [c["flags"]["d2d"]["code"] for c in sorted(deck["cards"], key=lambda c: c["sort"])
            ][:len(fate["draw"])] == [code[:-1] for code in fate["draw"]]
    # Foundry's own card art: a face per card, its jokers for the Wilds, a back
    arts = {c["name"]: c["faces"][0]["img"] for c in deck["cards"]}
    assert (arts["KS"], arts["10D"], arts["AC"], arts["BW"], arts["RW"]) == (
        "cards/light-soft/spades-king.webp", "cards/light-soft/diamonds-10.webp",
        "cards/light-soft/clubs-ace.webp", "cards/light-soft/black-joker.webp",
        "cards/light-soft/red-joker.webp")
    assert len(set(arts.values())) == 54
    assert {c["back"]["img"] for c in deck["cards"]} == {"cards/backs/light-soft.webp"}
    foundry_field_rules(deck)
    foundry_field_rules(pile)
    golden("foundry-cards.json", out.read_text("utf-8"))
    golden("foundry-cards-discard.json", (tmp_path / "fate-discard.json").read_text("utf-8"))


def foundry_field_rules(stack: dict[str, Any]) -> None:
    """The field rules of Foundry VTT's published data model (v13), read from its API
    documentation — https://foundryvtt.com/api/classes/foundry.documents.BaseCards.html
    and .../foundry.documents.BaseCard.html (their ``defineSchema``), as the MIT
    League-of-Foundry-Developers/foundry-vtt-types declares them
    (src/foundry/common/documents/card.d.mts, cards.d.mts): ``_id`` a DocumentIdField
    (16 letters and digits); ``name`` a required, non-blank StringField; Cards ``type``
    one of ``deck``, ``hand``, ``pile``; Card ``face`` a nullable integer index into
    ``faces`` (null: face down); ``drawn`` a boolean; ``origin`` a ForeignDocumentField
    (a Cards _id, or null); ``width``/``height`` positive integers; ``sort`` an integer;
    each face's and the back's ``img`` a file path (here: Foundry's own card art)."""
    ident = re.compile(r"^[a-zA-Z0-9]{16}$")
    assert ident.match(stack["_id"]) and stack["name"].strip()
    assert stack["type"] in ("deck", "hand", "pile")
    assert isinstance(stack["width"], int) and stack["width"] > 0
    seen = set()
    for card in stack["cards"]:
        assert ident.match(card["_id"]) and card["_id"] not in seen  # unique in the stack
        seen.add(card["_id"])
        assert card["name"].strip() and isinstance(card["drawn"], bool)
        assert card["face"] is None or (isinstance(card["face"], int)
                                        and 0 <= card["face"] < len(card["faces"]))
        assert card["origin"] is None or ident.match(card["origin"])
        assert card["width"] > 0 and card["height"] > 0 and isinstance(card["sort"], int)
        for face in [*card["faces"], card["back"]]:
            assert isinstance(face["img"], str) and face["img"].endswith((".webp", ".svg"))


def test_foundry_deck_id_and_hands(d2d: Any, tmp_path: Path) -> None:
    """--deck-id: the id of the deck already in the user's world is every drawn card's
    origin (Import Data drops a file's _id); each Player's hand is a Foundry hand stack."""
    from tests import serve_helpers

    path = serve_helpers.table(tmp_path)  # hands held by d2d
    out = tmp_path / "fate.json"
    d2d.ok("--session", path, "fate", "draw", "2")
    d2d.ok("--session", path, "session", "export", "-f", "foundry-cards", "-o", out,
           "--deck-id", "Abc123Abc123Abc1")
    deck = json.loads(out.read_text("utf-8"))
    pile = json.loads((tmp_path / "fate-discard.json").read_text("utf-8"))
    assert deck["_id"] == "Abc123Abc123Abc1"
    assert {c["origin"] for c in pile["cards"]} == {"Abc123Abc123Abc1"}
    assert {c["_id"] for c in pile["cards"]} <= {c["_id"] for c in deck["cards"]}
    players = session.read(path)["players"]
    for name, held in players.items():
        hand = json.loads((tmp_path / f"fate-hand-{name}.json").read_text("utf-8"))
        valid(hand, "foundry-cards")
        foundry_field_rules(hand)
        assert (hand["type"], hand["name"]) == ("hand", name)
        assert [c["name"] for c in hand["cards"]] == [c[:-1] for c in held["hand"]]
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    for bad in ("short", "has-a-dash-in-it"):
        res = d2d("--session", path, "session", "export", "-f", "foundry-cards", "-o",
                  tmp_path / "x.json", "--deck-id", bad)
        assert res.exit_code == 2 and "a Foundry _id is 16 letters and digits" in res.stderr
    res = d2d("--session", path, "session", "export", "-o", tmp_path / "x.md", "--deck-id",
              "Abc123Abc123Abc1")
    assert res.exit_code == 2 and "only with --format foundry-cards" in res.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_an_export_never_overwrites_without_force(d2d: Any, tmp_path: Path) -> None:
    path = story_session(d2d, tmp_path)
    out = tmp_path / "story.md"
    out.write_text("mine\n")
    res = d2d("--session", path, "session", "export", "-o", out)
    assert res.exit_code == 2 and "exists: add --force" in res.stderr
    assert out.read_text() == "mine\n"
    d2d.ok("--session", path, "session", "export", "-o", out, "--force")
    assert out.read_text("utf-8").startswith("---\ntitle: ")
    # foundry-cards writes two files: neither is written when the second exists
    (tmp_path / "fate-discard.json").write_text("keep\n")
    res = d2d("--session", path, "session", "export", "-f", "foundry-cards", "-o",
              tmp_path / "fate.json")
    assert res.exit_code == 2 and not (tmp_path / "fate.json").exists()
    assert (tmp_path / "fate-discard.json").read_text() == "keep\n"
    assert not list(tmp_path.glob(".*.tmp"))  # no temp file left behind


def test_an_export_never_writes_through_a_symlink(d2d: Any, tmp_path: Path) -> None:
    path = story_session(d2d, tmp_path)
    other = tmp_path / "notes.txt"
    other.write_text("the Narrator's notes\n")
    link = tmp_path / "story.md"
    link.symlink_to(other)
    res = d2d("--session", path, "session", "export", "-o", link)
    assert res.exit_code == 2  # it exists (as a link)
    d2d.ok("--session", path, "session", "export", "-o", link, "--force")
    assert other.read_text() == "the Narrator's notes\n"
    assert not link.is_symlink() and link.read_text("utf-8").startswith("---\n")


def test_a_bad_format_or_folder_changes_nothing(d2d: Any, tmp_path: Path) -> None:
    path = story_session(d2d, tmp_path)
    before = path.read_bytes()
    res = d2d("--session", path, "session", "export", "-f", "pdf", "-o", tmp_path / "x")
    assert res.exit_code == 2 and "unknown export format 'pdf'" in res.stderr
    res = d2d("--session", path, "session", "export", "-o", tmp_path / "no" / "x.md")
    assert res.exit_code == 2 and "no folder" in res.stderr
    assert path.read_bytes() == before and not (tmp_path / "x").exists()


def test_the_served_states_match_their_schemas(d2d: Any, tmp_path: Path) -> None:
    from tests import serve_helpers

    path = serve_helpers.table(tmp_path)  # hands held by d2d, one card chosen face down
    d2d.ok("--session", path, "oracle", "Is the gate open?")
    data = session.read(path)
    state = project.public(data, session.log(path, 30), "table")
    valid(state, "state")
    valid(project.BLANK, "state")
    for name in ("Player1", "Player2"):
        valid(project.player(data, name), "player-state")
    golden("state.json", normal(json.dumps(state, indent=2, ensure_ascii=False) + "\n",
                                tmp_path))
    golden("player-state.json",
           json.dumps(project.player(data, "Player1"), indent=2, ensure_ascii=False) + "\n")
    # a key that could carry a hand is refused by the public schema
    leaky = {**state, "players": [{**state["players"][0], "cards": ["7S"]}]}
    with pytest.raises(jsonschema.ValidationError):
        valid(leaky, "state")


def test_char_export_json_matches_its_schema(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    d2d.ok("--session", path, "char", "new", "Rook", "--body", "7", "--speed", "5",
           "--archetype", "thief", "--motivation", "gold")
    out = tmp_path / "rook.json"
    d2d.ok("--session", path, "char", "export", "Rook", "--format", "json", "-o", out)
    valid(json.loads(out.read_text("utf-8")), "character")


@pytest.mark.parametrize("scene", [ROOT / "examples" / "combat1.toml",
                                   ROOT / "d2d_cli" / "tables" / "scenes" / "combat1.toml"])
def test_scene_files_match_their_schema(scene: Path) -> None:
    valid(tomllib.loads(scene.read_text("utf-8")), "scene")


def test_every_golden_file_is_valid_against_its_schema() -> None:
    pairs = {"foundry-journal.json": "foundry-journal", "foundry-cards.json": "foundry-cards",
             "foundry-cards-discard.json": "foundry-cards", "state.json": "state",
             "player-state.json": "player-state"}
    for name, kind in pairs.items():
        valid(json.loads((GOLDEN / name).read_text("utf-8")), kind)
    valid(frontmatter((GOLDEN / "story.md").read_text("utf-8")), "frontmatter")
    assert sorted(p.name for p in SCHEMAS.glob("*.json")) == [
        "character.schema.json", "foundry-cards.schema.json", "foundry-journal.schema.json",
        "frontmatter.schema.json", "player-state.schema.json", "scene.schema.json",
        "state.schema.json"]


@given(st.text(alphabet="ab c\t\n\r#:x\"'\\\x0b\x0c\x1d\u00a0\u2003é", max_size=14))
def test_a_journal_command_is_cut_into_words_as_shlex_cuts_it(command: str) -> None:
    """The recap reads a journal entry's words without shlex when nothing in it could
    make shlex cut differently (issue 40: shlex was a quarter of a 2,000-entry export)."""
    import shlex

    from d2d_cli.operations.export import _words

    try:
        want = shlex.split(command)
    except ValueError:  # an open quote: the words as typed
        want = command.split()
    assert _words(command) == want


@given(st.text(alphabet="ab \n\\`*_[]<>é♥\t", max_size=20))
def test_markdown_escapes_each_special_character_and_joins_lines(text: str) -> None:
    """A name or question shown as itself in the recap: each of \\ ` * _ [ ] < > behind
    a backslash, a newline a space (now one str.translate, issue 40)."""
    from d2d_cli.operations.export import _md

    want = ""
    for c in text:
        want += " " if c == "\n" else "\\" + c if c in "\\`*_[]<>" else c
    assert _md(text) == want


@given(st.datetimes(timezones=st.timezones()))
def test_a_lines_time_is_the_hour_and_minute_of_this_machines_zone(moment: Any) -> None:
    from d2d_cli.operations.export import Line

    at = moment.isoformat()
    local = moment.astimezone()
    assert Line("fate", at, 0, "", "").local() == local.strftime("%H:%M")
