"""``d2d odds hits N``: the Hits of the best play from a hand of N Fate cards (001 p.31
"Hits"), each play scored by ``rules.combat.hits.count_hits`` — so odds agree with
``d2d hit``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import RANKS, SUITS, Card
from d2d_cli.rules.odds.walk import FACES, DeckView, Piles, prob

if TYPE_CHECKING:
    from d2d_cli.rules.board.derive import Geometry

MAX_HAND = 10  # "Max Cards in Hand is 10" (000 l.109)

@record
class HitsRow(Result):
    hits: int  # 0: no card of the hand can lead a scoring play (only Wilds)
    probability: Probability


@record
class HitsOdds(Result):
    """``d2d odds hits``: the Hits of the best play from a hand of N Fate cards."""

    cards: int
    level: int
    rival_level: int
    difficulty: int
    deck: DeckView
    distribution: tuple[HitsRow, ...]
    glancing: Probability
    combo: Probability
    no_play: Probability
    mean: Fraction
    mean_value: float
    map: Geometry | None = None  # what the Levels read off the map (rules.board.derive)


Value = tuple[int, int, int, int]  # (hits, not glancing, discard takes, −cards): max best


def _play(ranks: Sequence[str], level: int, rival_level: int, difficulty: int,
          ten: bool) -> Value | None:
    """A play's value from ``hits.count_hits`` (None: not an allowed play). The lead is
    turned Upper, as a player turns the card they play (001 p.28 "Play a Conflict
    facedown from hand with chosen Approach")."""
    from d2d_cli.rules.combat import hits

    cards = [Card(r, SUITS[i % 4], True) for i, r in enumerate(ranks)]
    try:
        got = hits.count_hits(cards, level=level, rival_level=rival_level,
                              difficulty=difficulty, ten_always_hits=ten)
    except RuleViolation:
        return None
    return (got.hits, 0 if got.glancing else 1, got.discard_takes, -len(cards))



_ORDER = list(RANKS)  # A 2 … 10 J Q K: runs of consecutive ranks, for straights


class _Plays:
    """The best value of every allowed play a hand can hold, by rank: ``sets[j][m]`` the
    best set of up to ``m`` cards of rank ``j``, ``runs[s][e]`` the best straight ending
    at rank ``e`` inside a run of held ranks starting at ``s``."""

    def __init__(self, level: int, rival_level: int, difficulty: int, ten: bool) -> None:
        memo: dict[tuple[str, ...], Value | None] = {}

        def value(ranks: Sequence[str]) -> Value | None:
            key = tuple(ranks)
            if key not in memo:
                memo[key] = _play(key, level, rival_level, difficulty, ten)
            return memo[key]

        order = _ORDER
        none: list[Value | None] = [None]
        sets = [none + [value([r] * j) for j in range(1, 5)] for r in order]
        self.sets = [[_best(row[1:j + 1]) for j in range(5)] for row in sets]
        self.runs = [[_best([value(order[s2:e + 1]) for s2 in range(s, e)]) if s <= e
                      else None for e in range(len(order))] for s in range(len(order))]


def _check(n: int, level: int, rival_level: int, difficulty: int) -> None:
    from d2d_cli.rules.combat import conflict

    if not 1 <= n <= MAX_HAND:
        raise BadInput(f"a hand holds 1 to {MAX_HAND} cards (000: \"Max Cards in Hand is "
                       f"10\"), not {n}")
    conflict.check_level(level, "--level")
    conflict.check_level(rival_level, "--rival-level")
    if difficulty < 1:
        raise BadInput(f"--vs takes a Difficulty of 1 or more, not {difficulty}")


def _hand(piles: Piles, n: int) -> tuple[dict[str, list[int]], int, int]:
    """Where the N cards come from, by rank: ``[held for sure, in the pool]``, how many
    are drawn from the pool, and the pool's size. The whole pile when it holds fewer
    than N, then the rest from the reshuffled deck (as fate draw does)."""
    by_rank: dict[str, list[int]] = {r: [0, 0] for r in [*_ORDER, "W"]}
    pile = list(piles.pile)
    if len(pile) >= n:
        fixed_faces: list[str] = []
        pool_faces, draw = pile, n
    else:
        fixed_faces, pool_faces, draw = pile, sorted(FACES), n - len(pile)
    for faces, idx in ((fixed_faces, 0), (pool_faces, 1)):
        for face in faces:
            by_rank[FACES[face].rank][idx] += 1
    return by_rank, draw, len(pool_faces)


_HandState = tuple[int, "Value | None", "int | None"]  # drawn, best so far, run start


def _best_plays(by_rank: dict[str, list[int]], draw: int,
                plays: _Plays) -> dict[_HandState, int]:
    """Dynamic programming over the ranks (W, then A, 2 … 10, J, Q, K): how many of each
    rank are in the hand, weighted by the ways to draw them; the state is the cards
    drawn, the best play so far and the start of the current run of ranks."""
    states: dict[_HandState, int] = {(0, None, None): 1}
    for i, r in enumerate(["W", *_ORDER]):
        f, k = by_rank[r]
        nxt: dict[_HandState, int] = {}
        for (drawn, best, start), ways in states.items():
            for x in range(0, min(k, draw - drawn) + 1):
                m = f + x
                b, s = best, start
                if r != "W":
                    j = i - 1
                    if m:
                        s = j if start is None else start
                        b = _best([b, plays.sets[j][min(m, 4)], plays.runs[s][j]])
                    else:
                        s = None
                key = (drawn + x, b, s)
                nxt[key] = nxt.get(key, 0) + ways * comb(k, x)
        states = nxt
    return states


def hits_odds(n: int, piles: Piles, deck: DeckView, *, level: int, rival_level: int,
              difficulty: int, ten_always_hits: bool = False, bonus: int = 0) -> HitsOdds:
    """Hold N cards revealed from the Fate deck and play the allowed set with the most
    Hits (then not a glancing blow, then more cards from the discard, then fewer cards):
    a single card, a set of a kind or a straight, each scored by ``count_hits``
    (:func:`_best_plays`). ``bonus`` Hits are added to every play (Push the Limit under
    ``[rules] push_the_limit = "000"``, a Heroic Feat's ±1, as ``hit`` adds them; never
    below 0)."""
    _check(n, level, rival_level, difficulty)
    plays = _Plays(level, rival_level, difficulty, ten_always_hits)
    by_rank, draw, pool = _hand(piles, n)
    total = comb(pool, draw)
    dist: dict[int, int] = {}
    glancing = combo = 0
    for (drawn, best, _), ways in _best_plays(by_rank, draw, plays).items():
        if drawn != draw:
            continue
        h = max(0, best[0] + bonus) if best else 0
        dist[h] = dist.get(h, 0) + ways
        if best and best[1] == 0:
            glancing += ways
        if best and -best[3] > 1:
            combo += ways
    mean = Fraction(sum(h * w for h, w in dist.items()), total)
    return HitsOdds(
        cards=n, level=level, rival_level=rival_level, difficulty=difficulty, deck=deck,
        distribution=tuple(HitsRow(h, prob(Fraction(w, total)))
                           for h, w in sorted(dist.items())),
        glancing=prob(Fraction(glancing, total)), combo=prob(Fraction(combo, total)),
        no_play=prob(Fraction(dist.get(0, 0), total)), mean=mean, mean_value=float(mean))


def _best(values: Iterable[Value | None]) -> Value | None:
    got = [v for v in values if v is not None]
    return max(got) if got else None
