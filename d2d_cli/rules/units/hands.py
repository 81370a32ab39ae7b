"""The Players' Conflict Decks and hands, held by d2d (``[rules] hands = "d2d"``).

"Conflict Deck - Each player (including Narrators if any) maintain a hand of cards from
which to resolve Conflicts. The hand starts with 5 new cards at the beginning of a Scene.
The number goes up and down during the Scene with a maximum of 10" (000 l.401); "Conflict
Deck - Deck for Skill Checks. Shuffle and draw 5" (001 "Setup: Players", l.350–351).

d2d's choices (docs/rules.md "The table"):

* a Player's Conflict Deck is a standard 54-card deck of their own (52 and the two
  Wilds, as the Fate deck: 000 l.621 "Normal Poker decks can be used for Conflict"),
  shuffled at the scene's start;
* a scene's start (``scene load``, or ``hand deal`` for a table mid-scene) gives every
  Player a fresh deck and 5 new cards;
* a card chosen face down (``hand choose``) has left the hand but is still held: the
  hand and the face-down card together are at most 10, so a card coming back (Stay,
  Keep, a new choice) never makes 11; a draw at 10 draws nothing;
* an empty deck takes the discard pile back, shuffled, before a draw;
* Wild (001 l.757 "Draw from Discard. Always Shuffle"): on a win the Player takes the
  newest card of their discard pile; win or lose, the Wild and the discard pile are
  shuffled back into the deck;
* Gain:A (000 l.1197 "Choose an A from Discard or search your Deck for an A"): the
  newest Ace of the discard pile, else the first of the deck.

Cards in the deck, hand and discard are stored Upper (``7S^``): in a hand a card has no
orientation until it is played (000 l.412–413). The face-down choice keeps the
orientation the Player chose. Every card of a Player's 54 is in exactly one place:
deck, hand, discard or the face-down choice (:meth:`Hand.check`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput, NotFound, RuleViolation
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.deck.cards import Card, full_deck, parse_card
from d2d_cli.rules.units import sides

if TYPE_CHECKING:
    import random

HAND_START = 5  # 000 l.401 "The hand starts with 5 new cards at the beginning of a Scene"
HAND_MAX = 10  # 000 l.401 "with a maximum of 10"
MODES = ("table", "d2d")


def _q(name: str) -> str:
    """A name as a shell would take it back (``Ann``, ``'Mary Ann'``)."""
    import shlex

    return shlex.quote(name)


def _up(card: Card) -> Card:
    return card if card.upper else card.flipped(True)


@record(frozen=False)
class Chosen:
    """A card chosen face down for a unit's coming Conflict (001 l.732 "Play a Conflict
    facedown from hand")."""

    unit: str
    card: Card


@record(frozen=False)
class Hand:
    """One Player's Conflict Deck (``deck``, top first), hand and discard pile (newest
    last), and the card chosen face down, if any."""

    player: str
    deck: list[Card]
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    chosen: Chosen | None = None

    @classmethod
    def from_state(cls, player: str, state: Mapping[str, Any]) -> Hand:
        ch = state.get("chosen")
        return cls(player, [parse_card(c) for c in state.get("deck", [])],
                   [parse_card(c) for c in state.get("hand", [])],
                   [parse_card(c) for c in state.get("discard", [])],
                   Chosen(str(ch["unit"]), parse_card(ch["card"])) if ch else None)

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"deck": [c.code for c in self.deck],
                               "hand": [c.code for c in self.hand],
                               "discard": [c.code for c in self.discard]}
        if self.chosen is not None:
            out["chosen"] = {"unit": self.chosen.unit, "card": self.chosen.card.code}
        return out

    @property
    def held(self) -> int:
        """Cards held: the hand and the card chosen face down (at most 10)."""
        return len(self.hand) + (self.chosen is not None)

    def check(self) -> None:
        """Conservation: deck, hand, discard and the face-down card hold the 54 faces
        exactly once, and at most 10 are held."""
        faces = sorted(c.face for c in self.all_cards())
        if faces != sorted(c.face for c in full_deck()):
            raise BadInput(f"{self.player}'s Conflict Deck does not hold the 54 cards exactly "
                           "once (edited by hand?); run: d2d hand deal "
                           f"{_q(self.player)}")
        if self.held > HAND_MAX:
            raise BadInput(f"{self.player} holds {self.held} cards: at most {HAND_MAX} "
                           "(000 l.401)")

    def all_cards(self) -> list[Card]:
        return [*self.deck, *self.hand, *self.discard,
                *([self.chosen.card] if self.chosen else [])]

    def draw(self, rng: random.Random, n: int = 1) -> tuple[int, bool]:
        """Draw up to ``n`` cards (none past 10 held); an empty deck takes the discard
        pile back, shuffled. Returns (cards drawn, whether the deck was reshuffled)."""
        got, again = 0, False
        for _ in range(n):
            if self.held >= HAND_MAX or not (self.deck or self.discard):
                break
            if not self.deck:
                self.deck, self.discard = [_up(c) for c in self.discard], []
                rng.shuffle(self.deck)
                again = True
            self.hand.append(self.deck.pop(0))
            got += 1
        return got, again

    def find(self, card: Card) -> int:
        """Where ``card`` (its face) is in the hand; refused if it is not there. The
        message never lists the hand: the table may be reading it."""
        for i, c in enumerate(self.hand):
            if c.face == card.face:
                return i
        if self.chosen is not None and self.chosen.card.face == card.face:
            raise RuleViolation(f"{card.face} is {self.player}'s card chosen face down for "
                                f"{self.chosen.unit}, not in the hand")
        raise RuleViolation(f"{card.face} is not in {self.player}'s hand (d2d hand show "
                            f"{_q(self.player)})")

    def take(self, card: Card) -> Card:
        """Take ``card`` out of the hand, as played (with its orientation)."""
        self.hand.pop(self.find(card))
        return card

    def give_back(self, card: Card) -> None:
        """A card back into the hand (Stay, Keep, a new choice)."""
        self.hand.append(_up(card))

    def shuffle_in(self, rng: random.Random) -> None:
        """The discard pile back into the deck, and the deck shuffled."""
        self.deck = [*self.deck, *(_up(c) for c in self.discard)]
        self.discard = []
        rng.shuffle(self.deck)


def new_hand(player: str, rng: random.Random) -> Hand:
    """A scene's start: a fresh shuffled deck and 5 new cards (000 l.401)."""
    deck = list(full_deck())
    rng.shuffle(deck)
    h = Hand(player, deck)
    h.draw(rng, HAND_START)
    return h


def holders(data: Mapping[str, Any], narrator: bool) -> list[str]:
    """Who holds a hand: every Player of the session (``rules.units.sides.players``),
    and the Narrator with ``[rules] narrator_hand``."""
    return [*sides.players(data), *([sides.NARRATOR] if narrator else [])]


def hands_of(data: Mapping[str, Any]) -> dict[str, Hand]:
    """The ``[players]`` table as hands, by Player."""
    return {p: Hand.from_state(p, s) for p, s in (data.get("players") or {}).items()}


def state_of(hands: Mapping[str, Hand]) -> dict[str, Any]:
    return {p: h.to_state() for p, h in hands.items()}


def require(mode: str) -> None:
    """Refuse a hand command when the table holds its own cards."""
    if mode != "d2d":
        raise BadInput('the Players hold their Conflict cards at the table ([rules] hands = '
                       '"table"): d2d keeps no hand. To let d2d hold them, add hands = '
                       '"d2d" to the session\'s [rules] table (docs/rules.md "The table")')


def holder_of(data: Mapping[str, Any], unit: Any, narrator: bool) -> str:
    """Whose hand a unit's cards come from: its Player's, or for a Non-Player the
    Narrator's when ``narrator`` (``[rules] narrator_hand``); else refused."""
    p = sides.player_of(unit)
    if p is not None:
        return p
    if narrator:
        return sides.NARRATOR
    name = unit.name if hasattr(unit, "name") else "the unit"
    raise RuleViolation(f"{name} is a Non-Player unit: it has no hand and reveals Fate "
                        "(000 l.417 \"Non-Player Units don't have hands\")")


def hand_for(hands: Mapping[str, Hand], player: str) -> Hand:
    h = hands.get(player)
    if h is None:
        raise NotFound(f"{player} holds no hand yet: d2d hand deal {_q(player)}")
    return h


# --------------------------------------------------------------------------- results


@record
class HandCount(Result):
    """A Player's hand as the table may see it: how many cards, never which."""

    player: str
    hand: int
    deck: int
    discard: int
    chosen: str | None  # the unit a card is chosen face down for (never the card)


def count(h: Hand) -> HandCount:
    return HandCount(h.player, len(h.hand), len(h.deck), len(h.discard),
                     h.chosen.unit if h.chosen else None)


@record
class Dealt(Result):
    """``hand deal``: each Player's fresh deck and 5 new cards (counts only)."""

    hands: tuple[HandCount, ...]
    summary: str = hidden("")


def deal(hands: dict[str, Hand], who: list[str], rng: random.Random) -> Dealt:
    """A scene's start for ``who``: fresh decks, 5 new cards each."""
    for p in who:
        hands[p] = new_hand(p, rng)
    return Dealt(tuple(count(hands[p]) for p in who),
                 f"dealt {HAND_START} cards to " + (", ".join(who) or "no one"))


@record
class HandView(Result):
    """``hand show PLAYER``: one Player's own hand (only theirs), the card they chose
    face down, and their deck and (public) discard pile."""

    player: str
    units: tuple[str, ...]
    hand: tuple[Card, ...]
    chosen_unit: str | None
    chosen: Card | None
    deck: int
    discard: tuple[Card, ...]


def view(data: Mapping[str, Any], hands: Mapping[str, Hand], player: str) -> HandView:
    h = hand_for(hands, _holder_name(hands, player))
    return HandView(h.player, tuple(sides.units_of(data, h.player)), tuple(h.hand),
                    h.chosen.unit if h.chosen else None, h.chosen.card if h.chosen else None,
                    len(h.deck), tuple(h.discard))


def _holder_name(hands: Mapping[str, Hand], player: str) -> str:
    if player in hands:
        return player
    folded = {p.lower(): p for p in hands}
    if player.lower() in folded:
        return folded[player.lower()]
    raise NotFound(f"{player} holds no hand" + (f" (hands: {', '.join(hands)})" if hands
                                                else ": d2d hand deal"))


@record
class Choice(Result):
    """``hand choose UNIT CARD``: a card is chosen face down — which one is not said."""

    player: str
    unit: str
    replaced: bool  # an earlier face-down choice went back into the hand
    summary: str = hidden("")


def choose(hands: dict[str, Hand], player: str, unit: str, card: Card) -> Choice:
    """Put ``card`` face down for ``unit`` (001 l.732); an earlier choice of the same
    Player goes back into the hand first."""
    h = hand_for(hands, player)
    h.find(card)  # refused before anything moves
    old = h.chosen
    if old is not None:
        h.chosen = None
        h.give_back(old.card)
    h.chosen = Chosen(unit, h.take(card))
    return Choice(player, unit, old is not None,
                  f"{player} chose a card face down for {unit}")


@record
class Drew(Result):
    """``hand draw`` / ``hand gain``: how many cards a Player drew (not which)."""

    player: str
    drew: int
    reshuffled: bool
    hand: int
    summary: str = hidden("")


def draw(hands: dict[str, Hand], player: str, n: int, rng: random.Random) -> Drew:
    h = hand_for(hands, player)
    got, again = h.draw(rng, n)
    return Drew(h.player, got, again, len(h.hand), f"{h.player} drew {got}")


def gain(hands: dict[str, Hand], player: str, rank: str = "A") -> Drew:
    """Gain:A (000 l.1197 "Choose an A from Discard or search your Deck for an A and add
    it to your hand"): the newest Ace of the discard pile, else the first in the deck;
    nothing at 10 held."""
    h = hand_for(hands, player)
    if h.held >= HAND_MAX:
        return Drew(h.player, 0, False, len(h.hand), f"{h.player} holds 10: no Gain:{rank}")
    for pile in (h.discard[::-1], h.deck):
        for c in pile:
            if c.rank == rank:
                (h.discard if pile is not h.deck else h.deck).remove(c)
                h.give_back(c)
                return Drew(h.player, 1, False, len(h.hand), f"{h.player} gained an {rank}")
    return Drew(h.player, 0, False, len(h.hand), f"{h.player}: no {rank} left to gain")


def round_draw(hands: dict[str, Hand], rng: random.Random) -> tuple[Drew, ...]:
    """Round end's Draw (001 l.1037 "Draw - Each Player draws a card")."""
    return tuple(draw(hands, p, 1, rng) for p in hands)


# --------------------------------------------------------------------------- conflict


@record
class Play:
    """A side of a Conflict whose card comes from a hand: the side's index (0 for A),
    the holder, the card, and how: ``hand`` (played from the hand), ``chosen`` (the
    card chosen face down), ``stay`` (the chosen card returns; Fate is revealed)."""

    side: int
    player: str
    card: Card | None
    how: str


def sides_from_hands(texts: list[str], data: Mapping[str, Any], units: Mapping[str, Any],
                     mode: str, narrator: bool) -> tuple[list[str], tuple[Play, ...]]:
    """The sides as ``rules.combat.conflict`` reads them, and the cards they take from
    hands. ``NAME:hand:CARD`` plays CARD from the unit's holder's hand (refused when it
    is not there); a bare ``NAME`` whose holder chose a card face down for it plays that
    card; ``NAME:stay`` (or ``NAME:fate``) returns a face-down card and reveals Fate
    (000 l.419 "Stay - Return your Conflict card to your hand and Reveal a Fate card
    instead"). Anything else is left as typed."""
    from d2d_cli.rules.units.roster import find

    hands = hands_of(data)
    out: list[str] = []
    plays: list[Play] = []
    for i, text in enumerate(texts):
        low = text.lower()
        at = low.rfind(":hand:")  # a unit's name may hold a colon: read from the right
        if at > 0 or low.endswith(":hand"):
            require(mode)
            name = text[:at] if at > 0 else text[:-5]
            unit = find(units, name.strip())
            if at < 0 or not text[at + 6:].strip():
                raise BadInput(f"{text}: give the card after hand:, e.g. {name}:hand:7S^")
            card = parse_card(text[at + 6:])
            holder = holder_of(data, unit, narrator)
            hand_for(hands, holder).find(card)
            out.append(f"{unit.name}:{card.code}")
            plays.append(Play(i, holder, card, "hand"))
            continue
        name, sep, rest = text.rpartition(":")
        if not sep or text.strip().lower() in {n.lower() for n in units}:
            name, rest = text, ""  # a bare name (which may hold a colon itself)
        word = rest.strip().lower()
        typed = _typed_card(rest) if mode == "d2d" and name.strip() else None
        if typed is not None:  # NAME:CARD: from the hand when the unit's holder has one
            play = _from_hand(name, typed, i, data, units, hands, narrator)
            if play is not None:
                out.append(f"{play[0]}:{typed.code}")
                plays.append(play[1])
                continue
        if mode != "d2d" or not name.strip() or (rest and word not in ("stay", "fate")):
            out.append(text if word != "stay" else f"{name}:fate")
            continue
        try:
            unit = find(units, name.strip())
        except NotFound:
            out.append(text)
            continue
        owner = sides.player_of(unit) or (sides.NARRATOR if narrator else None)
        h = hands.get(owner) if owner else None
        ch = h.chosen if h is not None else None
        if owner is not None and not rest and (ch is None or ch.unit != unit.name):
            hand_for(hands, owner)  # no hand yet: say how to deal one
            raise BadInput(
                f"{unit.name} has no card chosen face down: {owner} chooses one from the "
                f"hand (d2d hand choose {_q(unit.name)} CARD) or names it here as "
                f"{_q(unit.name + ':CARD')} (d2d hand show {_q(owner)}); or Stays: "
                f"{_q(unit.name + ':stay')} (000 l.419)")
        if owner is None or ch is None or ch.unit != unit.name:
            out.append(f"{name}:fate" if word == "stay" else text)
            continue
        holder = owner
        if word in ("stay", "fate"):
            out.append(f"{unit.name}:fate")
            plays.append(Play(i, holder, ch.card, "stay"))
        else:
            out.append(f"{unit.name}:{ch.card.code}")
            plays.append(Play(i, holder, ch.card, "chosen"))
    return out, tuple(plays)


def _typed_card(text: str) -> Card | None:
    """``rest`` of ``NAME:rest`` as a card (``7S^``, ``RW``), or None (an approach,
    ``fate``, ``stay``)."""
    from d2d_cli import tables  # the approaches' words (rules.combat reads this chapter)

    words = (*tables.load("conflict")["approaches"], "fate", "stay")
    if not text.strip() or text.strip().lower() in words:
        return None
    try:
        return parse_card(text)
    except BadInput:
        return None


def _from_hand(name: str, card: Card, side: int, data: Mapping[str, Any],
               units: Mapping[str, Any], hands: Mapping[str, Hand],
               narrator: bool) -> tuple[str, Play] | None:
    """``NAME:CARD`` under ``hands = "d2d"``: the card a Player plays comes from their
    hand (001 l.732 "Play a Conflict facedown from hand"), refused when it is not there;
    the card they chose face down for the unit, if it is that one. None when the unit
    has no holder (a Non-Player without the Narrator's hand: the card is as typed)."""
    from d2d_cli.rules.units.roster import find

    try:
        unit = find(units, name.strip())
    except NotFound:
        return None
    owner = sides.player_of(unit) or (sides.NARRATOR if narrator else None)
    if owner is None:
        return None
    h = hand_for(hands, owner)
    ch = h.chosen
    if ch is not None and ch.unit == unit.name and ch.card.face == card.face:
        return unit.name, Play(side, owner, card, "chosen")
    h.find(card)
    return unit.name, Play(side, owner, card, "hand")


@record
class HandMove(Result):
    """What a Conflict did to a hand (public: the played card was revealed; the cards
    drawn are not named)."""

    player: str
    unit: str | None
    played: Card | None  # None: Stay
    stayed: bool
    kept: bool
    drew: int
    took: Card | None  # taken from the (public) discard pile by a winning Wild
    shuffled: bool
    hand: int
    set_aside: bool = False  # Advantage/Disadvantage used the Fate card: this one discarded


def settle(hands: dict[str, Hand], plays: tuple[Play, ...], effects: tuple[tuple[str, ...],
           tuple[str, ...]], units: tuple[str | None, str | None],
           rng: random.Random, used: tuple[Card | None, Card | None] = (None, None),
           gain: Card | None = None, named: bool = False,
           ask: Callable[[str, list[str]], str] | None = None) -> tuple[HandMove, ...]:
    """Move the cards of a resolved Conflict (001 l.736–758): the played card is
    discarded, or Kept (Block's win); Fast's and Block's win draw a card; a winning Wild
    takes a card of the discard pile; a Wild always shuffles the discard pile back into
    the deck; a Stay returns the face-down card to the hand. ``effects``: each side's
    effect keys (``rules.combat.conflict.effects``).

    ``used``: the card each side's Conflict used. Under Advantage or Disadvantage the
    Player's card may be set aside for the Fate card revealed (000 l.423–424 "Use either
    of the 2 Conflict cards"); the card set aside is discarded, never Kept (000 l.491
    "Discard the remaining revealed Conflict cards"; Keep returns "this card", 000
    l.1208, the one that won), and the win's Draw is still the Player's.

    ``gain``: the card a winning Wild takes (000 l.444–445 "Wild Succeeds. Gain any card
    from Discard": the Player's choice). Without it the newest card is taken, unless
    ``named`` (the Player must name it): then a choice among two or more is refused with
    the list (:func:`gain_choices`), or ``ask(player, faces)`` names it (a terminal)."""
    moves = []
    for p in plays:
        h = hand_for(hands, p.player)
        got = effects[p.side]
        if p.how == "stay":
            assert h.chosen is not None
            h.give_back(h.chosen.card)
            h.chosen = None
            moves.append(HandMove(h.player, units[p.side], None, True, False, 0, None, False,
                                  len(h.hand)))
            continue
        assert p.card is not None
        if p.how == "chosen":
            h.chosen = None
        else:
            h.take(p.card)
        won_with = used[p.side]
        aside = won_with is not None and won_with.face != p.card.face
        kept = "keep" in got and not aside
        took = None
        if kept:
            h.give_back(p.card)
        else:
            if "take_from_discard" in got and h.discard:
                took = _gained(h, gain, named, ask)
                h.discard.remove(took)
                h.give_back(took)
            h.discard.append(p.card)
        # 001 l.758 "Always Shuffle": the Wild played shuffles its own deck, win or lose
        shuffled = ("reshuffle" in got and not aside) or (aside and p.card.is_wild)
        if shuffled:
            h.shuffle_in(rng)
        drew = h.draw(rng, 1)[0] if "draw" in got else 0
        moves.append(HandMove(h.player, units[p.side], p.card, False, kept, drew, took,
                              shuffled, len(h.hand), aside))
    return tuple(moves)


def gain_choices(h: Hand) -> list[str]:
    """The distinct faces of a discard pile, newest first: what a winning Wild may take."""
    seen: list[str] = []
    for c in reversed(h.discard):
        if c.face not in seen:
            seen.append(c.face)
    return seen


def _gained(h: Hand, gain: Card | None, named: bool,
            ask: Callable[[str, list[str]], str] | None = None) -> Card:
    """The discard pile's card a winning Wild takes (000 l.444–445)."""
    faces = gain_choices(h)
    if gain is None and named and len(faces) > 1 and ask is not None:
        gain = parse_card(ask(h.player, faces))
    if gain is not None:
        for c in reversed(h.discard):
            if c.face == gain.face:
                return c
        raise RuleViolation(f"--gain {gain.face}: not in {h.player}'s discard pile (it holds "
                            f"{', '.join(faces)})")
    if named and len(faces) > 1:
        raise BadInput(f"the Wild wins: {h.player} gains any card from the discard pile "
                       f"(000 l.444–445): give --gain CARD, one of {', '.join(faces)}")
    return h.discard[-1]


@record
class Spent(Result):
    """Cards a Player played from the hand outside a Conflict's reveal: a combo's cards
    (001 l.826 "Combo - Play cards to make an allowed set"), the card of a
    counter-attack (001 l.754), the Wild of Wild Luck (000 l.526). Public: they were
    played face up."""

    player: str
    unit: str | None
    cards: tuple[Card, ...]
    why: str
    hand: int


def holder_in(data: Mapping[str, Any], unit_name: str | None, mode: str,
              narrator: bool) -> str | None:
    """The holder of ``unit_name``'s cards under ``hands = "d2d"`` (its Player, or the
    Narrator with ``narrator_hand``); None at a table holding its own cards, for no unit,
    or for a Non-Player without the Narrator's hand."""
    if mode != "d2d" or not unit_name:
        return None
    from d2d_cli.rules.units.roster import find, roster_view

    try:
        unit = find(roster_view(data), unit_name)
    except NotFound:
        return None
    return sides.player_of(unit) or (sides.NARRATOR if narrator else None)


def check_held(hands: Mapping[str, Hand], player: str, cards: list[Card]) -> None:
    """Refuse before anything moves when one of ``cards`` is not in the hand (each card
    once: two of the same face need two in the hand, which a 54-card deck never has)."""
    h = hand_for(hands, player)
    seen: set[str] = set()
    for c in cards:
        if c.face in seen:
            raise BadInput(f"{c.face} is given twice: {player}'s deck holds one")
        seen.add(c.face)
        h.find(c)


def spend(hands: dict[str, Hand], player: str, unit: str | None, cards: list[Card],
          why: str) -> Spent:
    """Play ``cards`` from the hand to the discard pile (refused, nothing moved, when
    one is not held)."""
    check_held(hands, player, cards)
    h = hands[player]
    for c in cards:
        h.discard.append(_up(h.take(c)))
    return Spent(player, unit, tuple(cards), why, len(h.hand))


def spent_said(m: Spent) -> str:
    """A :class:`Spent` in one line: ``Ann played Q♠ (combo) (3 in hand)``."""
    return (f"{m.player} played {' '.join(c.face for c in m.cards)} ({m.why}) "
            f"({m.hand} in hand)")


def said(m: HandMove) -> str:
    """A hand's move in one line (the journal, ``conflict``'s output): the revealed card
    and the counts, never a drawn card."""
    if m.stayed:
        return f"{m.player} Stays: the card goes back to the hand, Fate is revealed"
    assert m.played is not None
    parts = [f"{m.player} played {m.played.face}"]
    if m.set_aside:
        parts.append("set it aside for the Fate card and discarded it")
    if m.kept:
        parts.append("kept it")
    if m.took is not None:
        parts.append(f"took {m.took.face} from the discard")
    if m.shuffled:
        parts.append("shuffled the discard into the deck")
    if m.drew:
        parts.append(f"drew {m.drew}")
    return ", ".join(parts) + f" ({m.hand} in hand)"
