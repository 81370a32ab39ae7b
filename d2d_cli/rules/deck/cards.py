"""Cards: the notation of DESIGN.md ("Cards") and what a card means in D2D.

A card is a rank, a suit and an orientation. The four suits are the tarot suits
of the rules (000 "Conflict > 1) Setup > Suits"): Wands/Clubs → Body,
Coins/Diamonds → Mind, Cups/Hearts → Will, Swords/Spades → Speed. The two
jokers are the Wilds: ``BW`` (black) and ``RW`` (red).

Orientation is Upper (``^``, the default) or Lower (``v``): 000 "Conflict >
2) Select > Upper/Lower".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, cached_property, lru_cache
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record

# Ranks in the order a standard deck lists them; A is 1 when read as a number.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
WILD = "W"

# Suits in the order the rules list them (000 "Terms", 001 p.5: ♣ ♦ ♥ ♠).
SUITS = ("wands", "coins", "cups", "swords")
SUIT_LETTER = {"wands": "C", "coins": "D", "cups": "H", "swords": "S"}
SUIT_SYMBOL = {"wands": "♣", "coins": "♦", "cups": "♥", "swords": "♠"}
SUIT_STAT = {"wands": "body", "coins": "mind", "cups": "will", "swords": "speed"}
SUIT_PLAYING = {"wands": "clubs", "coins": "diamonds", "cups": "hearts", "swords": "spades"}
SUIT_COLOR = {"wands": "black", "coins": "red", "cups": "red", "swords": "black"}

_SUIT_WORDS = {
    "c": "wands", "clubs": "wands", "club": "wands", "wands": "wands", "wand": "wands",
    "♣": "wands",
    "d": "coins", "diamonds": "coins", "diamond": "coins", "coins": "coins", "coin": "coins",
    "♦": "coins",
    "h": "cups", "hearts": "cups", "heart": "cups", "cups": "cups", "cup": "cups", "♥": "cups",
    "s": "swords", "spades": "swords", "spade": "swords", "swords": "swords", "sword": "swords",
    "♠": "swords",
}


@cache
def _card_re() -> re.Pattern[str]:
    """Compiled on first use: a call that never asks (a lookup) does not pay for it."""
    return re.compile(r"^(10|[2-9]|[ajqk]|1)\s*([^\^v]+?)\s*([\^v])?$", re.IGNORECASE)


_WILD_FIRST = frozenset("bBrR")


@cache
def _wild_re() -> re.Pattern[str]:
    return re.compile(r"^([br])w\s*([\^v])?$", re.IGNORECASE)


ACCEPTED = (
    "a card is <rank><suit>[^|v]: rank A 2-10 J Q K, suit C D H S (or ♣ ♦ ♥ ♠, or "
    "clubs/wands, diamonds/coins, hearts/cups, spades/swords), ^ Upper (default) or "
    "v Lower; jokers are BW and RW — e.g. QH^, 10sv, A♣, RW"
)


@record(order=True, keep_hash=True)
class Card:
    """One card. ``suit`` is None for a Wild, whose ``color`` is then its own."""

    rank: str  # "A", "2"…"10", "J", "Q", "K" or "W"
    suit: str | None  # one of SUITS, or None for a Wild
    upper: bool = True
    wild_color: str | None = None  # "black" or "red" for a Wild

    @cached_property
    def is_wild(self) -> bool:
        return self.rank == WILD

    @cached_property
    def color(self) -> str:
        if self.suit is None:
            return self.wild_color or "black"
        return SUIT_COLOR[self.suit]

    @property
    def orientation(self) -> str:
        return "upper" if self.upper else "lower"

    @cached_property
    def number(self) -> int | None:
        """The rank as a number 1–13 (A=1 … K=13); None for a Wild."""
        return None if self.rank == WILD else _NUMBER[self.rank]

    @property
    def stat(self) -> str | None:
        return None if self.suit is None else SUIT_STAT[self.suit]

    # What a fight reads of a card hundreds of times (its notation, its two faces; its
    # hash: ``keep_hash``, rules.core.record) is worked out on the first read and kept on
    # the card: a cached_property is then a plain look-up in the card's own table, not a
    # call (a Card is immutable). None of it is a field: equality, order, repr and the
    # JSON view read the four above.
    @cached_property
    def code(self) -> str:
        """The canonical notation: ``QH^``, ``10Sv``, ``BW^``."""
        return _code(self.rank, self.suit, self.upper, self.wild_color)

    @cached_property
    def _faces(self) -> tuple[Card, Card]:
        return (_card(self.rank, self.suit, True, self.wild_color),
                _card(self.rank, self.suit, False, self.wild_color))

    def __reduce__(self) -> tuple[Any, tuple[str, str | None, bool, str | None]]:
        # pickled by its fields only: a hash kept on the card belongs to its process
        return _card, (self.rank, self.suit, self.upper, self.wild_color)

    @cached_property
    def face(self) -> str:
        """The card without orientation: ``QH``, ``BW`` — its identity in the deck."""
        return self.code[:-1]

    def flipped(self, upper: bool) -> Card:
        return self._faces[0] if upper else self._faces[1]

    def name(self) -> str:
        """A person's name for the card: ``Q♥ Queen of Cups ↑``."""
        arrow = "↑" if self.upper else "↓"
        if self.is_wild:
            return f"{self.color.capitalize()} Wild (joker) {arrow}"
        assert self.suit is not None
        word = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}.get(self.rank, self.rank)
        return f"{self.rank}{SUIT_SYMBOL[self.suit]} {word} of {self.suit.capitalize()} {arrow}"

    def to_json(self) -> dict[str, str | None]:
        return {
            "code": self.code,
            "rank": self.rank,
            "suit": self.suit if self.suit else "wild",
            "color": self.color,
            "orientation": self.orientation,
        }

    def __str__(self) -> str:
        return self.code



_NUMBER = {rank: i for i, rank in enumerate(RANKS, 1)}  # a Wild has none


# A Card is immutable and there are 108 outcomes: each notation and each turned card is
# worked out once (a fight reads them thousands of times), by all that makes the card.
@lru_cache(maxsize=512)
def _code(rank: str, suit: str | None, upper: bool, wild_color: str | None) -> str:
    arrow = "^" if upper else "v"
    if rank == WILD:
        color = (wild_color or "black") if suit is None else SUIT_COLOR[suit]
        return f"{'B' if color == 'black' else 'R'}W{arrow}"
    assert suit is not None
    return f"{rank}{SUIT_LETTER[suit]}{arrow}"


@lru_cache(maxsize=512)
def _card(rank: str, suit: str | None, upper: bool, wild_color: str | None) -> Card:
    return Card(rank, suit, upper, wild_color)


@lru_cache(maxsize=1024)  # a Card is immutable; the spellings typed or logged are few
def parse_card(text: str) -> Card:
    """Parse the notation of DESIGN.md: ``QH^``, ``10sv``, ``A♣``, ``3 of cups``, ``RW``."""
    raw = text.strip()
    compact = re.sub(r"\s*of\s*", "", raw, flags=re.IGNORECASE) if " " in raw else raw
    # a joker starts with B or R: any other card is not matched against it (the pattern
    # costs ~0.15 ms to compile, in every command that reads a card — issue 40)
    m = _wild_re().match(compact) if compact[:1] in _WILD_FIRST else None
    if m:
        color = "black" if m.group(1).lower() == "b" else "red"
        return Card(WILD, None, m.group(2) != "v", color)
    m = _card_re().match(compact)
    if m:
        rank = m.group(1).upper()
        rank = "A" if rank == "1" else rank
        suit = _SUIT_WORDS.get(m.group(2).strip().lower())
        if suit is not None:
            return Card(rank, suit, m.group(3) != "v")
        if len(m.group(2).strip()) <= 2 and not re.search(r"\d", m.group(2)):
            # a rank and a short word: the suit is wrong
            raise BadInput(f"not a card: {text!r} — no suit {m.group(2).strip()!r}: the "
                           "suits are C D H S (or ♣ ♦ ♥ ♠, clubs/wands, diamonds/coins, "
                           "hearts/cups, spades/swords), e.g. QH")
    wrong_rank = re.match(r"^(.+?)\s*([cdhs♣♦♥♠])\s*([\^v])?$", compact, re.IGNORECASE)
    if wrong_rank and len(wrong_rank.group(1)) <= 3:  # a suit and a short word: the rank
        raise BadInput(f"not a card: {text!r} — no rank {wrong_rank.group(1)!r}: the ranks "
                       "are A 2–10 J Q K, e.g. 10S")
    raise BadInput(f"not a card: {text!r} — {ACCEPTED}")


def parse_suit(text: str) -> str:
    """A suit as typed (``C``, ``clubs``, ``wands``, ``♣``…) → its key (``wands``)."""
    suit = _SUIT_WORDS.get(text.strip().lower())
    if suit is None:
        raise BadInput(f"not a suit: {text!r} — C D H S, ♣ ♦ ♥ ♠, or clubs/wands, "
                       "diamonds/coins, hearts/cups, spades/swords")
    return suit


def full_deck() -> list[Card]:
    """The 54 faces of the Fate deck, Upper, in a fixed order: suits, ranks, then BW, RW
    — in a list of the caller's own; the Cards, immutable, are built once (a simulated
    fight shuffles a new Fate deck from them)."""
    return list(_full_deck())


@cache
def _full_deck() -> tuple[Card, ...]:
    cards = [Card(rank, suit) for suit in SUITS for rank in RANKS]
    cards.append(Card(WILD, None, True, "black"))
    cards.append(Card(WILD, None, True, "red"))
    return tuple(cards)


def all_outcomes() -> list[Card]:
    """Every (card, orientation) a reveal can show: 108 outcomes, each equally likely."""
    return [c.flipped(up) for c in full_deck() for up in (True, False)]


def names(cards: Iterable[Card]) -> str:
    """Cards as a person reads them: ``Q♥ Queen of Cups ↑, 10♠ 10 of Swords ↓``."""
    return ", ".join(c.name() for c in cards)
