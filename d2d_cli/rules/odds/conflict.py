"""``d2d odds conflict``: the chance of each outcome of ``d2d conflict`` (001 p.28
"Conflict"), over every reveal of its ``fate`` sides, its Advantage cards and its
cover-target card. The procedure is ``conflict``'s own: ``rules.combat.conflict.chart``
and ``tiebreak`` decide a pair, ``rules.deck.advantage.keep_conflict`` which pair is
kept; :func:`~d2d_cli.rules.odds.walk.reveal_odds` walks the reveals."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import field, fields, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import SUITS, Card
from d2d_cli.rules.odds.walk import (
    DeckView,
    Key,
    Piles,
    _Categories,
    _categories,
    card_counts,
    oriented,
    prob,
    reveal_odds,
    walk_categories,
)

if TYPE_CHECKING:
    from d2d_cli.rules.board.derive import Geometry
    from d2d_cli.rules.combat.conflict import SideSpec


@record
class ConflictOdds(Result):
    """``d2d odds conflict``: the chance of each outcome of ``d2d conflict``."""

    side_a: str
    side_b: str
    level_a: int
    level_b: int
    conflict_chart: str
    fate_orientation: str
    deck: DeckView
    a_wins: Probability
    b_wins: Probability
    both_win: Probability
    tie: Probability
    rank: Probability  # two bare approaches of a kind: decided by cards not given
    map: Geometry | None = None  # what the Levels read off the map (rules.board.derive)


@record
class ObstacleRow(Result):
    """One obstacle of the cover-target reveal: its suit and the chance its suit is
    revealed, so that it is the Target instead (001 l.720)."""

    suit: str
    target: str
    probability: Probability


def _never() -> Probability:
    return Probability.of(0)


@record
class CoveredConflictOdds(ConflictOdds):
    """``d2d odds conflict`` when the Target has Cover and obstacles are assigned suits:
    the cover-target reveal comes first (000 l.333 "IF there is any Cover THEN before
    Conflict, Reveal Conflict"; 001 l.718–720 "Reveal Fate IF Suit match THEN Target is
    the obstacle"), so ``obstacle`` is the chance the Conflict is against an obstacle
    (``conflict``'s ``Redirected``), and the other outcomes are over the cards left.
    A subclass, so that the JSON of ``odds conflict`` without Cover keeps its keys."""

    cover_side: str = "b"  # the side in cover
    cover_percent: int = 0
    obstacle: Probability = field(default_factory=_never)
    obstacles: tuple[ObstacleRow, ...] = ()


_Option = tuple[Any, Card | None]  # a side's candidate: its key and the card it stands for


@lru_cache(maxsize=2048)
def _key_of(card: Card, by_color: bool, ranked: bool, same: frozenset[str]
            ) -> tuple[Key, Card]:
    """:meth:`_Procedure.key`'s reading of a card and the card as read (turned by its
    colour for a Fate side), remembered by all it reads (the card, the Fate orientation,
    whether ranks count, the approaches a tiebreak compares by rank; the conflict table
    is read once): every odds walk reads the 108 outcomes."""
    from d2d_cli.rules.combat import conflict

    if by_color:  # as resolve turns a fate side's card: by its colour
        card = card.flipped(card.color == "black")
    approach = conflict.approach_of(card)
    return (approach, card.rank if ranked or approach in same else None), card


class _Procedure:
    """``conflict.resolve`` as the walk runs it: each revealed card read as a key (its
    approach, and its rank where a rank can decide), and the outcome of the sides' keys
    in the order ``resolve`` reveals them — each pair decided once (memoised)."""

    def __init__(self, specs: list[SideSpec], level_a: int, level_b: int, reading: str,
                 fate_orientation: str, level_bonus: str, modes: tuple[str, str]) -> None:
        from d2d_cli.rules.combat import conflict
        from d2d_cli.rules.deck.advantage import NORMAL, keep_conflict

        self.rules, self.keep = conflict, keep_conflict  # read on every reveal: once here
        self.levels = (level_a, level_b)
        self.level_bonus = level_bonus
        self.modes = modes
        self.by_color = fate_orientation == "color"  # [rules] values, checked by options
        self.table = conflict.chart(reading)
        self.same = frozenset(conflict.table()["tiebreak"]["same_approach"])
        self.extra = [0 if m == NORMAL else 1 for m in modes]
        # A kept card is chosen by its outcome, then its Hits (conflict.hit_value). The
        # Hits change which card is kept only between equal outcomes, except "rank"
        # against "tie" (a side given as a bare approach): only then does every rank count.
        self.ranked = any(self.extra) and any(s.source != "fate" and s.card is None
                                              for s in specs)
        self.fixed: list[tuple[str, Card | None] | None] = [
            None if s.source == "fate" else (str(s.approach), s.card) for s in specs]
        self.rep: dict[Key, Card] = {}  # a card of each key
        self.verdicts: dict[tuple[Key, Key], str] = {}
        self.outcomes: dict[tuple[Key, ...], str] = {}
        self.hits: dict[tuple[Key, bool], int] = {}  # conflict.hit_value of each key's card

    @property
    def reveals(self) -> int:
        """How many Fate cards the sides reveal (after any cover-target card)."""
        return sum(f is None for f in self.fixed) + sum(self.extra)

    def key(self, card: Card) -> Key:
        """What a revealed card reads as for this Conflict."""
        return _keyed(card, self.by_color, self.ranked, self.same, self.rep)

    def verdict(self, a: _Option, b: _Option) -> str:
        """The outcome of two candidates: the chart, then the tiebreak (001 l.767)."""
        (ka, ca), (kb, cb) = a, b
        m = (ka, kb)
        if m not in self.verdicts:
            got = self.table[ka[0]][kb[0]]
            if got == "rank" and ca is not None and cb is not None:
                got = self.rules.tiebreak(ca, cb, *self.levels, self.level_bonus).outcome
            self.verdicts[m] = got
        return self.verdicts[m]

    def hit_value(self, option: _Option) -> int:
        hk = (option[0], option[1] is None)
        if hk not in self.hits:
            self.hits[hk] = self.rules.hit_value(option[1])
        return self.hits[hk]

    def outcome(self, sides: tuple[Key, ...]) -> str:
        """The outcome of the sides' revealed keys, in ``conflict.resolve``'s order: A's
        Fate, A's extra, B's, B's extra; the pair kept by the Advantage rule."""
        if sides not in self.outcomes:
            self.outcomes[sides] = self._outcome(sides)
        return self.outcomes[sides]

    def _outcome(self, sides: tuple[Key, ...]) -> str:
        it = iter(sides)
        opts: list[list[_Option]] = []
        for f, n in zip(self.fixed, self.extra, strict=True):
            side: list[_Option]
            if f is None:
                k = next(it)
                side = [(k, self.rep[k])]
            else:
                side = [((f[0], f[1].rank if f[1] else None), f[1])]
            for _ in range(n):
                k = next(it)
                side.append((k, self.rep[k]))
            opts.append(side)
        oa, ob = opts
        if len(oa) == len(ob) == 1:
            return self.verdict(oa[0], ob[0])
        i, j = self.keep(oa, ob, self.modes, self.verdict, self.hit_value)
        return self.verdict(oa[i], ob[j])

    def walk(self, piles: Piles) -> dict[Any, Fraction]:
        """The outcome's distribution over the sides' reveals (no cover-target card)."""
        reveals = self.reveals
        if reveals == 0:
            return {self.outcome(()): Fraction(1)}

        def step(state: tuple[Key, ...], k: Key) -> tuple[bool, Any]:
            got = (*state, k)
            return (True, self.outcome(got)) if len(got) == reveals else (False, got)

        cats, rep = _read_deck(piles, self.by_color, self.ranked, self.same)
        for k, card in rep.items():  # a card of each key, as reading the piles gives
            self.rep.setdefault(k, card)
        return walk_categories(cats, (), step)


def _keyed(card: Card, by_color: bool, ranked: bool, same: frozenset[str],
           rep: dict[Key, Card]) -> Key:
    """A card's key (:func:`_key_of`), ``rep`` keeping the first card read as each."""
    k, read = _key_of(card, by_color, ranked, same)
    rep.setdefault(k, read)
    return k


@lru_cache(maxsize=64)
def _read_deck(piles: Piles, by_color: bool, ranked: bool, same: frozenset[str]
               ) -> tuple[_Categories, dict[Key, Card]]:
    """The piles read into the walk's categories for these readings of a card, and a
    card of each key: remembered by all they read (the piles' faces, the Fate
    orientation, whether ranks count, the approaches a tiebreak compares by rank) — the
    policy's odds walk a fresh deck for each new pair of sides and Levels, and reading
    its 108 outcomes was most of a walk of one reveal. Both are only read after (the
    procedure copies the cards into its own ``rep``)."""
    rep: dict[Key, Card] = {}
    cats = _categories(card_counts(piles.pile), card_counts(piles.discard),
                       oriented(lambda card: _keyed(card, by_color, ranked, same, rep)))
    return cats, rep


def conflict_odds(side_a: str, side_b: str, piles: Piles, deck: DeckView, *,
                  level_a: int = 0, level_b: int = 0, reading: str = "001",
                  fate_orientation: str = "color", level_bonus: str = "001",
                  typed: bool = True, modes: tuple[str, str] = ("normal", "normal"),
                  obstacles: Mapping[str, str] | None = None,
                  cover: tuple[str, int] = ("b", 0)) -> ConflictOdds:
    """The outcome of ``conflict SIDE_A SIDE_B`` for every reveal of its ``fate`` sides,
    as ``conflict.resolve`` decides it: ``chart`` for the approaches, then ``tiebreak``
    when both are Fast or both Strong and both have cards. ``typed``: the Levels are
    ``--level-a/--level-b`` (0 or more); a unit's Level, after its Cover and penalties,
    may be below 0, as ``conflict`` takes it (001 l.718 "Level:-1 for each 25%").
    ``modes``: each side's Advantage or Disadvantage (000 l.423–424): one more Fate card
    revealed for it, after its own, and the pair kept as ``conflict.resolve`` keeps it.
    ``obstacles`` (suit → obstacle, ``ConflictAsk.obstacles``): the Target has Cover
    (``cover``: its side and percent), so a Fate card is revealed first and an obstacle
    whose suit it shows is the Target instead (001 l.718–720; a Wild has no suit and
    names none): a :class:`CoveredConflictOdds`, the sides' reveals after that card."""
    from d2d_cli.rules.combat import conflict

    specs = [conflict.parse_side(side_a), conflict.parse_side(side_b)]
    if typed:
        conflict.check_level(level_a, "--level-a")
        conflict.check_level(level_b, "--level-b")
    proc = _Procedure(specs, level_a, level_b, reading, fate_orientation, level_bonus,
                      modes)
    targets = dict(obstacles or {})
    dist = (_covered(targets, proc.key, proc.outcome, proc.reveals, piles) if targets
            else proc.walk(piles))
    plain = ConflictOdds(
        side_a=side_a, side_b=side_b, level_a=level_a, level_b=level_b,
        conflict_chart=reading, fate_orientation=fate_orientation, deck=deck,
        a_wins=prob(dist.get("a", 0)), b_wins=prob(dist.get("b", 0)),
        both_win=prob(dist.get("both", 0)), tie=prob(dist.get("tie", 0)),
        rank=prob(dist.get("rank", 0)))
    if not targets:
        return plain
    rows = tuple(ObstacleRow(suit, name, prob(dist.get(("obstacle", suit), 0)))
                 for suit, name in sorted(targets.items(), key=lambda t: SUITS.index(t[0])))
    return CoveredConflictOdds(
        **{f.name: getattr(plain, f.name) for f in fields(plain)},
        cover_side=cover[0], cover_percent=cover[1],
        obstacle=prob(sum((r.probability.fraction for r in rows), Fraction(0))),
        obstacles=rows)

def _covered(targets: Mapping[str, str], key: Callable[[Card], Key],
             outcome: Callable[[tuple[Key, ...]], str], reveals: int,
             piles: Piles) -> dict[Any, Fraction]:
    """``conflict_odds``' walk with the cover-target card revealed first (as
    ``conflict.resolve`` reveals it): ``("obstacle", suit)`` when its suit names an
    obstacle, else the sides' outcome over the cards left. A key is (the suit if it
    names an obstacle, else None; the sides' key), so the suits of no obstacle stay
    one category.

    When the pile holds every card these reveals take (no reshuffle), the order of the
    reveals does not change their joint chance — the pile's order is uniform — so the
    cover card is taken last instead: the walk is the sides' own, counting the cards of
    each obstacle's suit it took, and the cover card then names obstacle ``s`` with
    chance (cards of ``s`` left) / (cards left). The walk stays as small as without
    Cover. Otherwise (a reshuffle among these reveals) it is walked first, as read."""
    suits = tuple(sorted(targets, key=SUITS.index))

    def covered(card: Card) -> Key:
        return (card.suit if card.suit in targets else None), key(card)

    pile, discard = card_counts(piles.pile), card_counts(piles.discard)
    size = len(piles.pile)
    if reveals and size > reveals:
        # The state: the sides' keys so far, and how many cards of each obstacle's
        # suit they took (not the suits themselves: fewer states).
        def step_last(state: tuple[tuple[Key, ...], tuple[int, ...]],
                      k: tuple[str | None, Key]) -> tuple[bool, Any]:
            got, took = (*state[0], k[1]), state[1]
            if k[0] is not None:
                took = tuple(n + (s == k[0]) for s, n in zip(suits, took, strict=True))
            return (True, (outcome(got), took)) if len(got) == reveals else (
                False, (got, took))

        walked = reveal_odds(pile, discard, oriented(covered), ((), (0,) * len(suits)),
                             step_last)
        left = size - reveals
        have = {suit: sum(n for c, n in pile.items() if c.suit == suit) for suit in suits}
        dist: dict[Any, Fraction] = {}
        for (won, took), p in walked.items():
            rest = Fraction(1)
            for suit, n in zip(suits, took, strict=True):
                q = Fraction(have[suit] - n, left)
                if q:
                    dist[("obstacle", suit)] = dist.get(("obstacle", suit), 0) + p * q
                    rest -= q
            if rest:
                dist[won] = dist.get(won, 0) + p * rest
        return dist

    def step_first(state: tuple[Key, ...] | None, k: tuple[str | None, Key]
                   ) -> tuple[bool, Any]:
        if state is None:  # the cover-target reveal
            if k[0] is not None:
                return True, ("obstacle", k[0])
            return (True, outcome(())) if reveals == 0 else (False, ())
        got = (*state, k[1])
        return (True, outcome(got)) if len(got) == reveals else (False, got)

    return reveal_odds(pile, discard, oriented(covered), None, step_first)

