"""The Fate deck (000 "Reference > Fate"): 54 cards, shared, revealed from the top.

"The Fate deck is a special Conflict deck that anyone can use." Each card's
orientation (Upper/Lower) is decided when the deck is shuffled and stored with
it, so the stored order alone determines every future reveal. A revealed card
goes to the discard pile; when the draw pile runs out, the discard pile is
shuffled back in and the result says so. Draw pile + discard always hold the 54
cards exactly once.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import RANKS, SUITS, Card, full_deck, parse_card

if TYPE_CHECKING:  # rng objects are made by the session (session.rng): no import here
    import random

DECK_SIZE = 54
T = TypeVar("T")
MAX_COUNT = 100


def shuffled(cards: list[Card], rng: random.Random) -> list[Card]:
    """A fresh order with a fresh orientation for every card (000 "Select > Upper/Lower")."""
    order = [c.flipped(rng.random() < 0.5) for c in cards]
    rng.shuffle(order)
    return order


@record(frozen=False)
class Deck:
    """The Fate deck as stored: ``draw`` top first, ``discard`` newest last."""

    draw: list[Card]
    discard: list[Card] = field(default_factory=list)
    last: list[Card] = field(default_factory=list)
    shuffles: int = 1

    @classmethod
    def from_state(cls, state: dict[str, Any] | None) -> Deck:
        if not state:
            raise BadInput("this session has no Fate deck; run: d2d fate shuffle")
        deck = cls(
            draw=[parse_card(c) for c in state.get("draw", [])],
            discard=[parse_card(c) for c in state.get("discard", [])],
            last=[parse_card(c) for c in state.get("last", [])],
            shuffles=int(state.get("shuffles", 1)),
        )
        deck.check()
        return deck

    def to_state(self) -> dict[str, Any]:
        return {
            "draw": [c.code for c in self.draw],
            "discard": [c.code for c in self.discard],
            "last": [c.code for c in self.last],
            "shuffles": self.shuffles,
        }

    def check(self) -> None:
        """Conservation: draw + discard hold each of the 54 faces exactly once."""
        faces = sorted(c.face for c in self.draw + self.discard)
        if faces != _all_faces():
            raise BadInput(
                "the session's Fate deck does not hold the 54 cards exactly once "
                "(edited by hand?); run: d2d fate shuffle --reset"
            )

    def reshuffle(self, rng: random.Random) -> None:
        """Discards back in, everything shuffled (000 "Setup > Decks: Shuffle")."""
        self.draw = shuffled(self.draw + self.discard, rng)
        self.discard = []
        self.shuffles += 1

    def take(self, rng: random.Random) -> tuple[Card, bool]:
        """Reveal the top card; returns it and whether a reshuffle happened first."""
        reshuffled = False
        if not self.draw:
            self.draw = shuffled(self.discard, rng)
            self.discard = []
            self.shuffles += 1
            reshuffled = True
        card = self.draw.pop(0)
        self.discard.append(card)
        return card, reshuffled


def new_deck(rng: random.Random) -> Deck:
    return Deck(draw=shuffled(full_deck(), rng))


def check_count(n: int, what: str = "count") -> int:
    if n < 1 or n > MAX_COUNT:
        raise BadInput(f"{what} must be from 1 to {MAX_COUNT}, not {n}")
    return n


class OutOfCards(BadInput):
    """Table mode: the cards given with ``--card`` ran out before the rule was done.

    The one signal for it: rules functions let it propagate (a command then changes
    nothing), or catch it where running out has a meaning of its own (a die read at the
    table says "redraw"; a High Card tie stays a tie)."""

    def __init__(self, given: int) -> None:
        super().__init__(f"not enough cards with --card: {given} given, at least "
                         f"{given + 1} needed (a Wild or a redraw needs more)")
        self.given = given


class TableCards(Generic[T]):
    """Cards drawn at the table (``--card``), read in order: Fate cards, or damage cards
    (``pierce@head``). Calling it gives the next one or raises :class:`OutOfCards`;
    :meth:`finish` refuses cards given but never read."""

    def __init__(self, cards: list[T]) -> None:
        self.given = len(cards)
        self._left = list(cards)
        self.used: list[T] = []

    def __call__(self) -> T:
        if not self._left:
            raise OutOfCards(self.given)
        card = self._left.pop(0)
        self.used.append(card)
        return card

    def finish(self) -> None:
        if self._left:
            raise BadInput(f"too many cards with --card: {self.given} given, only "
                           f"{len(self.used)} needed")


class Revealer:
    """Reveals Fate cards one at a time: from the deck, or from the cards drawn at the
    table (``table``; then the deck is not touched and running out raises
    :class:`OutOfCards`)."""

    def __init__(self, deck: Deck | None, rng: random.Random | None,
                 table: list[Card] | None = None) -> None:
        self.deck, self.rng = deck, rng
        self.table = TableCards(table) if table is not None else None
        self.used: list[Card] = []
        self.reshuffled = False

    @property
    def table_mode(self) -> bool:
        return self.table is not None

    def __call__(self) -> Card:
        if self.table is not None:
            card = self.table()
        else:
            assert self.deck is not None and self.rng is not None
            card, again = self.deck.take(self.rng)
            self.reshuffled = self.reshuffled or again
        self.used.append(card)
        return card

    def finish(self) -> None:
        """Table mode: refuse cards given but not needed."""
        if self.table is not None:
            self.table.finish()


# --------------------------------------------------------------------------- results


@functools.cache
def _all_faces() -> list[str]:
    """The 54 faces, sorted: what a deck's check compares with (once per process: it is
    asked by every read of the deck, at every line of d2d play)."""
    return sorted(c.face for c in full_deck())


@record
class DeckCounts(Result):
    """How the deck stands (``fate shuffle``)."""

    remaining: int
    discarded: int
    shuffles: int

    @classmethod
    def of(cls, deck: Deck) -> DeckCounts:
        return cls(len(deck.draw), len(deck.discard), deck.shuffles)


@record
class FateStatus(DeckCounts):
    """``fate status``: the counts and the last reveal."""

    last: tuple[Card, ...]


@record
class Drawn(Result):
    """``fate draw``: the cards revealed (or only looked at, ``peek``)."""

    cards: tuple[Card, ...]
    peek: bool
    reshuffled: bool
    remaining: int
    discarded: int
    shuffles: int


@record
class Coin(Result):
    """``fate coin``: Heads or Tails and the card read."""

    side: str
    cards: tuple[Card, ...]
    reshuffled: bool


@record
class HighCard(Result):
    """``fate high-card``: who acts first, each name's card(s), ties left unresolved."""

    order: tuple[str, ...]
    cards: dict[str, tuple[Card, ...]]
    ties: tuple[tuple[str, ...], ...]
    reshuffled: bool


def draw(deck: Deck, n: int, rng: random.Random) -> Drawn:
    """Reveal the top ``n`` cards (the deck changes: store it)."""
    check_count(n)
    reveal = Revealer(deck, rng)
    for _ in range(n):
        reveal()
    deck.last = reveal.used
    return Drawn(tuple(reveal.used), False, reveal.reshuffled, len(deck.draw),
                 len(deck.discard), deck.shuffles)


def peek(deck: Deck, n: int) -> Drawn:
    """Look at the top ``n`` cards without taking them."""
    check_count(n)
    return Drawn(tuple(deck.draw[:n]), True, False, len(deck.draw), len(deck.discard),
                 deck.shuffles)


def shuffle(state: dict[str, Any] | None, rng: random.Random,
            reset: bool = False) -> tuple[Deck, DeckCounts]:
    """The discard pile shuffled back in (a complete new deck with ``reset`` or when
    the session has none yet); returns the deck to store and its counts."""
    if reset or not state:
        deck = new_deck(rng)
    else:
        deck = Deck.from_state(state)
        deck.reshuffle(rng)
    deck.last = []
    return deck, DeckCounts.of(deck)


def status(state: dict[str, Any] | None) -> FateStatus:
    deck = Deck.from_state(state)
    return FateStatus(len(deck.draw), len(deck.discard), deck.shuffles, tuple(deck.last))


# --------------------------------------------------------------------------- coin toss


def coin_side(card: Card) -> str:
    """000 "Randomizing > d2 - Coin Toss. Black is Heads. Red is Tails." (Wilds by colour)."""
    return "heads" if card.color == "black" else "tails"


def coin(reveal: Revealer) -> Coin:
    """One reveal read as a coin toss (at the table: exactly one card)."""
    if reveal.table is not None and reveal.table.given != 1:
        raise BadInput("a coin toss reads exactly one card")
    card = reveal()
    return Coin(coin_side(card), (card,), reveal.reshuffled)


# --------------------------------------------------------------------------- high card

# 000 "Reference > Fate > High Card": "Highest card (A-2, CDHS) may act or pass."
# Read like "A-2" (highest first), the suits rank Clubs > Diamonds > Hearts > Spades.
# The Wilds rank above the Aces ("W - Wild … UR" above "A - Agent … SR", 000
# "Conflict Deck > Rank"), black before red ("Wild (2) - Fast Black and Strong Red").
HIGH_RANKS = ("W",) + ("A",) + tuple(reversed(RANKS[1:]))
HIGH_SUITS = ("wands", "coins", "cups", "swords")


def high_card_key(card: Card) -> tuple[int, int]:
    """Smaller is higher. Orientation does not matter."""
    if card.is_wild:
        return (0, 0 if card.color == "black" else 1)
    assert card.suit is not None
    return (HIGH_RANKS.index(card.rank), 1 + HIGH_SUITS.index(card.suit))


def high_card(names: list[str], reveal: Revealer, max_rounds: int = 20) -> HighCard:
    """Order ``names`` by revealed card, highest acts first. Exact ties reveal again
    among the tied names (only possible when cards come from different decks at the
    table). Returns the order, each name's cards, and any tie left unresolved."""
    if len(names) < 2:
        raise BadInput("high card needs at least two names")
    if len(set(n.lower() for n in names)) != len(names):
        raise BadInput("each name may take part in high card once")
    cards: dict[str, list[Card]] = {n: [] for n in names}
    unresolved: list[list[str]] = []

    def rank_group(group: list[str], depth: int) -> list[str]:
        for name in group:
            try:
                card = reveal()
            except OutOfCards:  # table mode ran out of cards: report the tie as is
                unresolved.append(group)
                return group
            cards[name].append(card)
        ordered = sorted(group, key=lambda nm: high_card_key(cards[nm][-1]))
        out: list[str] = []
        i = 0
        while i < len(ordered):
            j = i + 1
            key = high_card_key(cards[ordered[i]][-1])
            while j < len(ordered) and high_card_key(cards[ordered[j]][-1]) == key:
                j += 1
            tied = ordered[i:j]
            if len(tied) > 1 and depth < max_rounds:
                out.extend(rank_group(tied, depth + 1))
            else:
                out.extend(tied)
            i = j
        return out

    order = rank_group(list(names), 0)
    return HighCard(tuple(order), {n: tuple(cs) for n, cs in cards.items()},
                    tuple(tuple(t) for t in unresolved), reveal.reshuffled)


__all__ = [
    "DECK_SIZE", "SUITS", "Coin", "Deck", "DeckCounts", "Drawn", "FateStatus", "HighCard",
    "OutOfCards", "Revealer", "TableCards", "coin", "coin_side", "draw", "high_card",
    "new_deck", "peek", "shuffle", "shuffled", "status",
]
