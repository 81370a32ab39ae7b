"""The session for others to read: the snapshot ``d2d serve`` projects (the data and the
journal's last entries) and ``d2d session export`` — the story as Markdown (YAML
frontmatter), a Foundry VTT JournalEntry of it, and the Fate deck as Foundry ``Cards``
documents (docs/exports.md; the shapes are d2d_cli/schemas/*.json).

An export never overwrites a file without ``force``, never writes through a symlink
and never leaves a half-written file: it is written by ``session.outputs``, the one
writer of the files a user names.
"""

from __future__ import annotations

import json
import os
import re
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


def snapshot(t: Target, last: int = 12, typed: bool = False,
             chapters: frozenset[str] | None = None) -> Snapshot:
    """The session as it stands and its last ``last`` journal entries (nothing is
    created: a session that does not exist is refused); ``typed``: each with its typed
    record where the command wrote one (``rec``: what ``d2d serve``'s pages read);
    ``chapters``: the only tables of the data the caller reads (None: all)."""
    where = t.existing()
    data, log = session.read_with_log(where, last, typed, chapters)
    return Snapshot(data, log, session.display_name(where))


@record
class Exported(Result):
    """``d2d session export``: what was written where."""

    format: str
    files: tuple[str, ...]  # none with output "-"
    entries: int  # journal entries told (markdown, foundry-journal); cards (foundry-cards)
    text: str | None = None  # with output "-": the export itself, written nowhere


def export(t: Target, output: str | os.PathLike[str], *, format: str = "markdown",
           force: bool = False, deck_id: str | None = None) -> Exported:
    """``d2d session export FILE --format F [--force]``: the story (``markdown``,
    ``foundry-journal``) or the Fate deck (``foundry-cards``, the discard pile beside it
    as FILE-discard.json) written to FILE (docs/exports.md). With ``output="-"`` nothing
    is written: the result's ``text`` is the story (the command prints it). ``deck_id``
    (foundry-cards): the _id of the Fate deck already in the user's Foundry world, the
    origin of every drawn card; each Player's hand (``hands = "d2d"``) is written beside
    as FILE-hand-PLAYER.json."""
    fmt, out = format, Path(output)
    if fmt not in FORMATS:
        raise BadInput(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")
    if deck_id is not None and (fmt != "foundry-cards" or not _FOUNDRY_ID.match(deck_id)):
        raise BadInput(f"--deck-id {deck_id!r}: " + (
            "a Foundry _id is 16 letters and digits (the deck's sheet shows it)"
            if fmt == "foundry-cards" else "only with --format foundry-cards"))
    if str(output) == "-" and fmt == "foundry-cards":
        raise BadInput("foundry-cards writes two files (the deck and FILE-discard.json): "
                       "give a file name, e.g. -o deck.json")
    # The story reads the journal and the scene's name: a 1,000-unit session's units
    # are not unmarshalled for it (session/cache.py ``load``).
    snap = snapshot(t, STORY_ENTRIES, chapters=None if fmt == "foundry-cards" else _STORY)
    if fmt == "foundry-cards":
        deck, pile = foundry_cards(snap.data, deck_id)
        second = out.with_name(out.stem + "-discard" + (out.suffix or ".json"))
        files = [(out, _json(deck)), (second, _json(pile))]
        files += [(out.with_name(f"{out.stem}-hand-{_file_word(h['name'])}"
                                 f"{out.suffix or '.json'}"), _json(h))
                  for h in foundry_hands(snap.data)]
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


_STORY = frozenset({"scene"})  # what Story.of reads of the data


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
    """One thing that happened, as the story tells it (the typed line the Markdown, the
    Foundry JournalEntry — and any other view of "what happened" — are written from)."""

    kind: str  # round, conflict, hit, crit, oracle, npc, clock, fate, rules, other
    at: str  # when, as the journal keeps it (UTC, ISO 8601)
    round: int
    text: str  # the outcome in words, cards as symbols (K♠↑)
    command: str
    steps: tuple[str, ...] = ()  # an NPC turn's steps, as npc turn prints them

    def local(self) -> str:
        """When, in this machine's zone (``04:11``)."""
        moment = _moment(self.at)  # strftime was ~a tenth of a 2,000-line export
        return f"{moment.hour:02d}:{moment.minute:02d}" if moment is not None else self.at


def _locals(lines: list[Line]) -> dict[str, str]:
    """Each distinct time of ``lines`` in this machine's zone (:meth:`Line.local`), worked
    out once for an export: entries made within the same second share it."""
    out: dict[str, str] = {}
    for ln in lines:
        if ln.at not in out:
            out[ln.at] = ln.local()
    return out


# What makes shlex.split differ from str.split: a quote, an escape, white space only
# str.split cuts at (shlex cuts at space, tab, CR and LF), anything not ASCII.
_NOT_PLAIN = re.compile("[\"'\\\\\x0b\x0c\x1c-\x1f]|[^\x00-\x7f]")


def _words(command: str) -> list[str]:
    if not _NOT_PLAIN.search(command):  # a journal of 2,000 entries: shlex was a
        return command.split()  # quarter of a long campaign's export
    import shlex  # only here: a journal of plain words never needs it

    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _moment(at: str) -> Any:
    """A journal time (UTC) in this machine's zone, or None when it is not a time."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(at).astimezone()
    except (TypeError, ValueError):
        return None


_CARD = re.compile(r"(?<![\w'])(10|[2-9AJQK]|BW|RW)([CDHS]?)([\^v]?)(?![\w])")


_SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_ARROW = {"^": "↑", "v": "↓"}
# Each code's reading, by the code as matched: at most 15 ranks × 5 × 3 of them (a
# 2,000-entry export reads ~4,000 codes).
_SYMBOLS: dict[str, str] = {}


def _symbol(m: re.Match[str]) -> str:
    code = m.group(0)
    got = _SYMBOLS.get(code)
    if got is None:
        rank, letter, arrow = m.group(1), m.group(2), m.group(3)
        if rank in ("BW", "RW") and letter:
            got = code
        elif rank not in ("BW", "RW") and not letter:
            got = code  # a bare rank or number is not a card
        else:
            got = rank + _SUIT.get(letter, "") + _ARROW.get(arrow, "")
        _SYMBOLS[code] = got
    return got


def symbols(text: str) -> str:
    """Card codes as people read them: ``KS^`` → ``K♠↑``, ``2Hv`` → ``2♥↓``, ``BW^`` →
    ``BW↑`` (a code without orientation keeps its suit symbol: ``7C`` → ``7♣``)."""
    return _CARD.sub(_symbol, text)


def _oracle(words: list[str], summary: str) -> str:
    """``Is it raining? (likely) — Yes, but… (9♦↓)`` from the command and the card
    the journal says it revealed."""
    from d2d_cli.rules.assistant import oracle

    question, likelihood = oracle.asked(words)
    head = f"{question} ({likelihood})"
    code = summary.removeprefix("revealed ").split(";")[0].split()
    if not code:
        return head
    try:
        card = parse_card(code[0])
    except BadInput:
        return f"{head} — {summary}"
    answer, qualifier = oracle.reading(card, likelihood)
    return f"{head} — {oracle.words(answer, qualifier)} ({symbols(card.code)})"


KINDS = {"conflict": "conflict", "hit": "hit", "crit": "crit", "oracle": "oracle",
         "clock": "clock", "fate": "fate", "round": "round", "weather": "weather",
         "task": "task", "unit": "unit", "scene": "scene", "npc": "npc", "hand": "hand",
         "player": "player", "rules": "rules", "char": "char"}
# Bookkeeping a recap leaves out: undo and redo (their entries are marked undone or
# say nothing new), a face-down choice (it is told by the conflict that reveals it).
_UNTOLD = (("session",), ("hand", "choose"), ("hand", "show"))
_UNTOLD_HEADS = frozenset(u[0] for u in _UNTOLD)  # only these are compared in full


def _outcome(kind: str, summary: str) -> str:
    """What the journal's summary says happened, without how the cards were read: for
    a conflict its outcome (who beat whom, each side's approach and card), the cards
    revealed as a note after what they decided."""
    told: list[str] = []
    cards: list[str] = []
    for part in summary.split("; "):  # one pass over the parts (2,000 entries)
        part = part.strip()
        if not part or part.startswith("read by colour"):
            continue
        if part.startswith("revealed "):
            cards.append(part[9:])
        else:
            told.append(part)
    if kind == "conflict" and any(p.startswith("Conflict:") for p in told):
        told = [p for p in told if not p.startswith("conflict: ")]
        cards = []  # each side's card is in the outcome
    if kind == "fate" and cards and not told:
        return "drew " + symbols(" ".join(cards))
    text = "; ".join(told) or (f"revealed {' '.join(cards)}" if cards else "")
    if cards and told:
        text += f" ({' '.join(cards)})"
    return symbols(text)


def told(rows: list[dict[str, Any]]) -> list[Line]:
    """The journal's entries (oldest first) as the story tells them: what happened, in
    order, with the round it happened in; undone entries and bookkeeping (undo, redo,
    a face-down choice) left out. The one place a recap's lines are made."""
    lines: list[Line] = []
    rnd = 0
    for row in rows:
        if row.get("undone"):
            continue
        command = str(row.get("command") or "")
        summary = str(row.get("summary") or "")
        words = _words(command)
        head = words[0] if words else ""
        if head in _UNTOLD_HEADS and any(tuple(words[:len(u)]) == u for u in _UNTOLD):
            continue
        kind = KINDS.get(head, "other")
        if kind == "round" and words[1:2] == ["start"]:
            rnd += 1
            # "round 3 started": the journal's own count wins over ours
            bits = summary.split()
            if len(bits) > 1 and bits[0] == "round" and bits[1].isdigit():
                rnd = int(bits[1])
        steps: tuple[str, ...] = ()
        if kind == "npc" and summary.startswith("npc turn "):
            who, _, done = summary.removeprefix("npc turn ").partition(": ")
            text = f"{who}'s turn"
            steps = tuple(symbols(x) for x in done.split("; ") if x and x != "nothing done")
        elif kind == "oracle":
            text = _oracle(words, summary)
        else:
            text = _outcome(kind, summary).removeprefix("Conflict: ")
        lines.append(Line(kind, str(row.get("at") or ""), rnd, text, command, steps))
    return lines


def _short_name(name: str) -> str:
    """A session's name for others to read: a name as it is, a path as its file's name
    without the folders of the Narrator's machine (``friday.toml`` → ``friday``)."""
    if "/" in name or "\\" in name or name.endswith(".toml"):
        return Path(name.replace("\\", "/")).name.removesuffix(".toml")
    return name


@record
class Story:
    """The session's story from its journal: what happened, round by round."""

    title: str
    session: str
    lines: list[Line]
    rounds: int
    first: str | None
    last: str | None

    @classmethod
    def of(cls, snap: Snapshot) -> Story:
        lines = told(snap.log)
        rnd = max((ln.round for ln in lines), default=0)
        scene = snap.data.get("scene", {})
        name = _short_name(snap.name)
        title = str(scene.get("name") or name) if isinstance(scene, dict) else name
        ats = [ln.at for ln in lines if ln.at]
        return cls(title, name, lines, rnd, ats[0] if ats else None,
                   ats[-1] if ats else None)

    def frontmatter(self) -> dict[str, Any]:
        """The recap's YAML frontmatter: ``title``, ``date`` (the first thing told, in
        this machine's zone with its offset) and ``tags`` as note apps read them, then
        d2d's own keys, each prefixed ``d2d_``. No path of the Narrator's machine."""
        def local(at: str | None) -> str | None:
            moment = _moment(at) if at else None
            return moment.isoformat() if moment is not None else at

        return {"title": self.title, "date": local(self.first),
                "tags": ["d2d", "session-recap"], "d2d_session": self.session,
                "d2d_version": __version__, "d2d_rounds": self.rounds,
                "d2d_entries": len(self.lines), "d2d_first": local(self.first),
                "d2d_last": local(self.last)}

    def blocks(self) -> list[tuple[str, str, Line | None]]:
        """The story as headings and items, each once: ("h2", "Round 1", None) or
        ("item", label, line); Markdown and HTML are both written from these."""
        out: list[tuple[str, str, Line | None]] = []
        current = -1
        for ln in self.lines:
            if ln.round != current:
                current = ln.round
                out.append(("h2", f"Round {current}" if current else
                            "Before the first round", None))
            label = {"other": "Note", "npc": "NPC"}.get(ln.kind, ln.kind.capitalize())
            out.append(("item", label, ln))
        return out

    def body(self, heading: bool = True) -> str:
        out = [f"# {_md(self.title)}", ""] if heading else []
        local = _locals(self.lines)
        for _kind, text, ln in self.blocks():
            if ln is None:
                out += ["", f"## {_md(text)}", ""]
            else:
                out.append(f"- {local[ln.at]} **{text}**: {_md(ln.text)}")
                out += [f"  - {_md(step)}" for step in ln.steps]
        if not self.lines:
            out.append("Nothing has happened yet.")
        return "\n".join(out).replace("\n\n\n", "\n\n").lstrip("\n") + "\n"

    def markdown(self) -> str:
        # Each value is written as JSON, which is also a YAML scalar: no YAML library
        # is needed to write or to read it back.
        front = "\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)}"
                          for k, v in self.frontmatter().items())
        return f"---\n{front}\n---\n\n{self.body()}"

    def html(self) -> str:
        """The same blocks as :meth:`body` (without the title: Foundry shows the page's
        own), as HTML; every text escaped."""
        import html

        out: list[str] = []
        open_list = False
        local = _locals(self.lines)
        for _kind, text, ln in self.blocks():
            if ln is None:
                if open_list:
                    out.append("</ul>")
                out += [f"<h2>{html.escape(text)}</h2>", "<ul>"]
                open_list = True
            else:
                steps = "".join(f"<li>{html.escape(x)}</li>" for x in ln.steps)
                out.append(f"<li>{html.escape(local[ln.at])} <strong>{html.escape(text)}"
                           f"</strong>: {html.escape(ln.text)}"
                           + (f"<ul>{steps}</ul>" if steps else "") + "</li>")
        if open_list:
            out.append("</ul>")
        if not self.lines:
            out.append("<p>Nothing has happened yet.</p>")
        return "\n".join(out)


_MD_SPECIAL = "\\`*_[]<>"
_MD_TABLE = str.maketrans({"\n": " ", **{c: "\\" + c for c in _MD_SPECIAL}})


def _md(text: str) -> str:
    """Text shown as itself in Markdown (names and questions others typed): each of
    ``_MD_SPECIAL`` escaped, a newline a space — one ``str.translate``, not a Python
    step per character (a 2,000-line export)."""
    return text.translate(_MD_TABLE)


def _id(*parts: str) -> str:
    """A Foundry document id (16 letters and digits), stable for the same input.
    ``hashlib`` is imported here: loading OpenSSL's digests (~4 ms) is a Foundry
    export's cost, not a Markdown or HTML one's."""
    import hashlib

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
            "title": {"show": True, "level": 1},  # the page's title, shown once
            "text": {"format": 2, "markdown": story.body(heading=False),
                     "content": story.html()},
            "sort": 0,
            "flags": {},
        }],
        "folder": None,
        "sort": 0,
        "ownership": {"default": 0},
        "flags": {"d2d": {"frontmatter": story.frontmatter()}},
    }


ICON = "icons/svg/card-hand.svg"  # Foundry's own default icon for card stacks
# Foundry's own card art, as its bundled poker decks name it (the "light-soft" set): a
# face per card, the two jokers, a back. Nothing is copied: the paths point into Foundry.
ART = "cards/light-soft"
BACK = "cards/backs/light-soft.webp"
_RANK_ART = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_FOUNDRY_ID = re.compile(r"^[a-zA-Z0-9]{16}$")


def card_art(card: Card) -> str:
    """The image Foundry ships for ``card``: ``cards/light-soft/spades-king.webp``,
    ``…/clubs-02.webp``; the Wilds its jokers (BW the black, RW the red)."""
    if card.suit is None:
        return f"{ART}/{'black' if card.color == 'black' else 'red'}-joker.webp"
    rank = _RANK_ART.get(card.rank, card.rank.zfill(2))
    return f"{ART}/{SUIT_PLAYING[card.suit]}-{rank}.webp"


def _file_word(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40] or "player"


def _card_doc(card: Card, deck_id: str | None, sort: int, *, drawn: bool,
              face: int | None, card_id: str) -> dict[str, Any]:
    up, down = card.flipped(True), card.flipped(False)
    suit = "wild" if card.suit is None else SUIT_PLAYING[card.suit]
    art = card_art(card)
    return {
        "_id": card_id,
        "name": card.face,
        "description": "",
        "type": "base",
        "system": {},
        "suit": suit,
        "value": card.number,
        "back": {"name": "Fate", "text": "", "img": BACK},
        "faces": [{"name": up.name(), "text": f"{up.code}: Upper", "img": art},
                  {"name": down.name(), "text": f"{down.code}: Lower", "img": art}],
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
            "img": BACK if kind == "deck" else ICON, "system": {}, "cards": cards,
            "width": 2, "height": 3, "rotation": 0, "displayCount": True, "folder": None,
            "sort": 0, "ownership": {"default": 0}, "flags": {}}


def foundry_cards(data: dict[str, Any], deck_id: str | None = None
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Fate deck as Foundry VTT ``Cards`` documents: a ``deck`` with all 54 cards,
    ``sort`` in d2d's draw order (the next card first, as Foundry draws from the top:
    the lowest ``sort``), the drawn ones ``drawn: true``, all face down (``face`` null);
    and a ``pile`` holding the discards face up as they were revealed (0 Upper, 1
    Lower), each as Foundry's own ``Cards#pass`` leaves a card it deals: the deck card's
    ``_id``, ``drawn: true`` on the deck's copy, ``origin`` the deck's ``_id`` (``deck_id``:
    the id the user's world gave the deck), so Return and Reset find them."""
    from d2d_cli.rules.deck import fate

    deck = fate.Deck.from_state(data.get("fate"))
    deck_id = deck_id or _id("deck", "fate")
    pile_id = _id("pile", "fate", deck_id)
    order = [*deck.draw, *deck.discard]  # the next card first, then those drawn
    place = {c.face: i for i, c in enumerate(order)}
    drawn = {c.face for c in deck.discard}
    ids = {c.face: _id("card", deck_id, c.face) for c in full_deck()}
    cards = [_card_doc(c, deck_id, place.get(c.face, len(order)), drawn=c.face in drawn,
                       face=None, card_id=ids[c.face]) for c in full_deck()]
    cards.sort(key=lambda d: d["sort"])
    discards = [_card_doc(c, deck_id, i, drawn=True, face=0 if c.upper else 1,
                          card_id=ids[c.face]) for i, c in enumerate(deck.discard)]
    return (_stack("Fate deck", "deck", deck_id, cards,
                   f"The Fate deck: {len(deck.draw)} cards left, {len(deck.discard)} drawn"),
            _stack("Fate discards", "pile", pile_id, discards,
                   "The Fate deck's discard pile, newest last"))


def foundry_hands(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each Player's hand (``[rules] hands = "d2d"``) as a Foundry ``hand`` stack, its
    cards face up in the order held. A card chosen face down stays out (it is the
    Player's secret until the conflict reveals it). Each Player's Conflict Deck is their
    own, not the Fate deck: ``origin`` is null."""
    out = []
    for player, state in (data.get("players") or {}).items():
        held = [parse_card(c) for c in (state or {}).get("hand", [])]
        cards = [_card_doc(c, None, i, drawn=False, face=0,
                           card_id=_id("hand", player, c.face)) for i, c in enumerate(held)]
        out.append(_stack(str(player), "hand", _id("hand", player), cards,
                          f"{player}'s Conflict cards in hand"))
    return out
