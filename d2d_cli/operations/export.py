"""The session for others to read: the snapshot ``d2d serve`` projects (the data and the
journal's last entries) and ``d2d session export`` — the story as Markdown (YAML
frontmatter), a Foundry VTT JournalEntry of it, and the Fate deck as Foundry ``Cards``
documents (docs/exports.md; the shapes are d2d_cli/schemas/*.json).

An export never overwrites a file without ``force``, never writes through a symlink
and never leaves a half-written file: it is written by ``session.outputs``, the one
writer of the files a user names.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from pathlib import Path
from typing import Any

from d2d_cli import __version__, session
from d2d_cli.errors import BadInput
from d2d_cli.operations import Target
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import SUIT_PLAYING, Card, full_deck, parse_card

FORMATS = ("markdown", "foundry-journal", "foundry-cards")
STORY_ENTRIES = session.JOURNAL_KEEP  # the whole journal d2d keeps


@record
class Snapshot:
    """What a reader of the table sees at one moment: the session's data and the
    journal's last entries (oldest first, as ``session log`` gives them)."""

    data: dict[str, Any]
    log: list[dict[str, Any]]
    name: str


def snapshot(t: Target, last: int = 12) -> Snapshot:
    """The session as it stands and its last ``last`` journal entries (nothing is
    created: a session that does not exist is refused)."""
    where = t.existing()
    data, log = session.read_with_log(where, last)
    return Snapshot(data, log, session.display_name(where))


@record
class Exported(Result):
    """``d2d session export``: what was written where."""

    format: str
    files: tuple[str, ...]  # none with output "-"
    entries: int  # journal entries told (markdown, foundry-journal); cards (foundry-cards)
    text: str | None = None  # with output "-": the export itself, written nowhere


def export(t: Target, output: str | os.PathLike[str], *, format: str = "markdown",
           force: bool = False) -> Exported:
    """``d2d session export FILE --format F [--force]``: the story (``markdown``,
    ``foundry-journal``) or the Fate deck (``foundry-cards``, the discard pile beside it
    as FILE-discard.json) written to FILE (docs/exports.md). With ``output="-"`` nothing
    is written: the result's ``text`` is the story (the command prints it)."""
    fmt, out = format, Path(output)
    if fmt not in FORMATS:
        raise BadInput(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")
    if str(output) == "-" and fmt == "foundry-cards":
        raise BadInput("foundry-cards writes two files (the deck and FILE-discard.json): "
                       "give a file name, e.g. -o deck.json")
    snap = snapshot(t, STORY_ENTRIES)
    if fmt == "foundry-cards":
        deck, pile = foundry_cards(snap.data)
        second = out.with_name(out.stem + "-discard" + (out.suffix or ".json"))
        files = [(out, _json(deck)), (second, _json(pile))]
        count = len(deck["cards"])
    else:
        story = Story.of(snap)
        text = story.markdown() if fmt == "markdown" else _json(foundry_journal(story))
        files = [(out, text)]
        count = len(story.lines)
        if str(output) == "-":
            return Exported(fmt, (), count, text)
    for path, _ in files:  # both files checked before either is written
        _check_target(path, force)

    for path, text in files:
        session.write_output(path, text, force=force, protect=[t.existing()])
    return Exported(fmt, tuple(str(p) for p, _ in files), count)


def _json(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- writing


def _check_target(path: Path, force: bool) -> None:
    if path.is_dir():
        raise BadInput(f"{path} is a folder: give a file name")
    if not path.parent.is_dir():
        raise BadInput(f"no folder {path.parent} for {path.name} (d2d creates the file, "
                       "never folders)")
    if os.path.lexists(path) and not force:
        raise BadInput(f"{path} exists: add --force to replace it")


# --------------------------------------------------------------------------- the story


@record
class Line:
    """One thing that happened, as the story tells it."""

    kind: str  # round, conflict, hit, crit, oracle, clock, fate, other
    at: str
    round: int
    text: str
    command: str


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _oracle(words: list[str], summary: str) -> str:
    """``Is it raining? (likely) — Yes, but… (9D Lower)`` from the command and the card
    the journal says it revealed."""
    from d2d_cli.rules.assistant import oracle

    likelihood = ("likely" if "--likely" in words else
                  "unlikely" if "--unlikely" in words else "even")
    question = next((w for w in words[1:] if not w.startswith("-")), "")
    head = f"{question} ({likelihood})"
    code = summary.removeprefix("revealed ").split(";")[0].split()
    if not code:
        return head
    try:
        card = parse_card(code[0])
    except BadInput:
        return f"{head} — {summary}"
    answer, qualifier = oracle.reading(card, likelihood)
    return f"{head} — {oracle.words(answer, qualifier)} ({card.code})"


KINDS = {"conflict": "conflict", "hit": "hit", "crit": "crit", "oracle": "oracle",
         "clock": "clock", "fate": "fate", "round": "round", "weather": "weather",
         "task": "task", "unit": "unit", "scene": "scene", "npc": "npc"}


@record
class Story:
    """The session's story from its journal: what was done, round by round (undone
    entries are left out, as they did not happen)."""

    title: str
    session: str
    lines: list[Line]
    rounds: int
    first: str | None
    last: str | None

    @classmethod
    def of(cls, snap: Snapshot) -> Story:
        lines: list[Line] = []
        rnd = 0
        for row in snap.log:
            if row.get("undone"):
                continue
            command = str(row.get("command") or "")
            summary = str(row.get("summary") or "")
            words = _words(command)
            head = words[0] if words else ""
            kind = KINDS.get(head, "other")
            if kind == "round" and words[1:2] == ["start"]:
                rnd += 1
                # "round 3 started": the journal's own count wins over ours
                bits = summary.split()
                if len(bits) > 1 and bits[0] == "round" and bits[1].isdigit():
                    rnd = int(bits[1])
            text = _oracle(words, summary) if kind == "oracle" else summary
            lines.append(Line(kind, str(row.get("at") or ""), rnd, text, command))
        scene = snap.data.get("scene", {})
        title = str(scene.get("name") or snap.name) if isinstance(scene, dict) else snap.name
        ats = [ln.at for ln in lines if ln.at]
        return cls(title, snap.name, lines, rnd, ats[0] if ats else None,
                   ats[-1] if ats else None)

    def frontmatter(self) -> dict[str, Any]:
        return {"title": self.title, "session": self.session, "generator": "d2d",
                "d2d_version": __version__, "rounds": self.rounds,
                "entries": len(self.lines), "first": self.first, "last": self.last}

    def body(self) -> str:
        out = [f"# {_md(self.title)}", ""]
        current = -1
        for ln in self.lines:
            if ln.round != current:
                current = ln.round
                out += ["", f"## Round {current}" if current else "## Before the first round",
                        ""]
            label = ln.kind.capitalize() if ln.kind != "other" else "Note"
            time = ln.at[11:16] if len(ln.at) >= 16 else ln.at
            out.append(f"- {time} **{label}**: {_md(ln.text)}  \n  `{_code(ln.command)}`")
        if not self.lines:
            out.append("Nothing has happened yet.")
        return "\n".join(out).replace("\n\n\n", "\n\n") + "\n"

    def markdown(self) -> str:
        # Each value is written as JSON, which is also a YAML scalar: no YAML library
        # is needed to write or to read it back.
        front = "\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)}"
                          for k, v in self.frontmatter().items())
        return f"---\n{front}\n---\n\n{self.body()}"

    def html(self) -> str:
        import html

        out = [f"<h1>{html.escape(self.title)}</h1>"]
        current = -1
        for ln in self.lines:
            if ln.round != current:
                if current != -1:
                    out.append("</ul>")
                current = ln.round
                out.append(f"<h2>Round {current}</h2>" if current else
                           "<h2>Before the first round</h2>")
                out.append("<ul>")
            out.append(f"<li><strong>{html.escape(ln.kind.capitalize())}</strong>: "
                       f"{html.escape(ln.text)} <code>{html.escape(ln.command)}</code></li>")
        if current != -1:
            out.append("</ul>")
        return "\n".join(out)


_MD_SPECIAL = "\\`*_[]<>"


def _md(text: str) -> str:
    """Text shown as itself in Markdown (names and questions others typed)."""
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in text.replace("\n", " "))


def _code(text: str) -> str:
    return text.replace("`", "'").replace("\n", " ")


def _id(*parts: str) -> str:
    """A Foundry document id (16 letters and digits), stable for the same input."""
    digest = hashlib.sha256("\x00".join(parts).encode()).digest()
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(alphabet[b % len(alphabet)] for b in digest[:16])


def foundry_journal(story: Story) -> dict[str, Any]:
    """A Foundry VTT JournalEntry with one text page holding the story as Markdown
    (``text.format`` 2 = CONST.JOURNAL_ENTRY_PAGE_FORMATS.MARKDOWN)."""
    # No _id: Foundry gives the entry and its page their own when it imports them.
    return {
        "name": story.title,
        "pages": [{
            "name": story.title,
            "type": "text",
            "title": {"show": True, "level": 1},
            "text": {"format": 2, "markdown": story.body(), "content": story.html()},
            "sort": 0,
            "flags": {},
        }],
        "folder": None,
        "sort": 0,
        "ownership": {"default": 0},
        "flags": {"d2d": {"frontmatter": story.frontmatter()}},
    }


ICON = "icons/svg/card-hand.svg"  # Foundry's own default icon for card stacks


def _card_doc(card: Card, deck_id: str, sort: int, *, drawn: bool,
              face: int | None) -> dict[str, Any]:
    up, down = card.flipped(True), card.flipped(False)
    suit = "wild" if card.suit is None else SUIT_PLAYING[card.suit]
    return {
        "_id": _id("card", deck_id, card.face),
        "name": card.face,
        "description": "",
        "type": "base",
        "system": {},
        "suit": suit,
        "value": card.number,
        "back": {"name": "Fate", "text": "", "img": ICON},
        "faces": [{"name": up.name(), "text": f"{up.code}: Upper", "img": ICON},
                  {"name": down.name(), "text": f"{down.code}: Lower", "img": ICON}],
        "face": face,
        "drawn": drawn,
        "origin": deck_id,
        "width": 2,
        "height": 3,
        "rotation": 0,
        "sort": sort,
        "flags": {"d2d": {"code": card.code if face is not None else card.face}},
    }


def _stack(name: str, kind: str, doc_id: str, cards: list[dict[str, Any]],
           description: str) -> dict[str, Any]:
    return {"_id": doc_id, "name": name, "type": kind, "description": description,
            "img": ICON, "system": {}, "cards": cards, "width": 2, "height": 3,
            "rotation": 0, "displayCount": True, "folder": None, "sort": 0,
            "ownership": {"default": 0}, "flags": {}}


def foundry_cards(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Fate deck as Foundry VTT ``Cards`` documents: a ``deck`` with all 54 cards
    (the drawn ones marked ``drawn``, the others face down: ``face`` null) and a
    ``pile`` holding the discards face up as they were revealed (0 Upper, 1 Lower)."""
    from d2d_cli.rules.deck import fate

    deck = fate.Deck.from_state(data.get("fate"))
    deck_id, pile_id = _id("deck", "fate"), _id("pile", "fate")
    drawn = {c.face for c in deck.discard}
    cards = [_card_doc(c, deck_id, i, drawn=c.face in drawn, face=None)
             for i, c in enumerate(full_deck())]
    discards = [_card_doc(c, deck_id, i, drawn=False, face=0 if c.upper else 1)
                for i, c in enumerate(deck.discard)]
    for d in discards:  # a card in the pile is a copy of the deck's: its own id
        d["_id"] = _id("discard", d["_id"])
    return (_stack("Fate deck", "deck", deck_id, cards,
                   f"The Fate deck: {len(deck.draw)} cards left, {len(deck.discard)} drawn"),
            _stack("Fate discards", "pile", pile_id, discards,
                   "The Fate deck's discard pile, newest last"))
