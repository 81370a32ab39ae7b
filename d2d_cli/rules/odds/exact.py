"""Exact odds of the next reveals, from the deck as it stands (``d2d odds``).

What odds may know of a deck is :class:`Piles`: the faces in the draw pile and in the
discard pile. The draw pile is a *set* — its stored order is never read (that would
give away the next card) — and every card is Upper or Lower with chance 1/2. A reveal
takes a card from the pile; when the pile is empty the discard pile (with the cards
revealed so far) is shuffled back in, exactly as ``fate draw`` does
(``rules.deck.fate.Deck.take``).

:func:`reveal_odds` walks every sequence of reveals at once: cards that read the same
for the procedure at hand are one category, and the state is how many of each
category are left in each pile plus the procedure's own state, merged as it goes.
The procedures themselves are the rules' functions — ``conflict.chart`` and
``conflict.tiebreak``, ``hits.count_hits``, ``dice.read``, ``weather.is_high`` and the
weather constants, ``crits.severity`` — so odds always agree with the commands.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb, gcd, lcm
from typing import TYPE_CHECKING, Any, TypeVar

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import field, fields, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import RANKS, SUITS, Card, full_deck
from d2d_cli.rules.scale.stats import Stat

if TYPE_CHECKING:  # each procedure imports the rules it reads: one odds command, one set
    from d2d_cli.rules.board.derive import Geometry
    from d2d_cli.rules.combat import crits, damage
    from d2d_cli.rules.units.roster import Unit

MAX_STATES = 50_000  # states of one reveal walk (bounded work; refused beyond)
MAX_DIE_STATES = 6_000  # die_odds: 2^(cards redrawn on one side) × (cards always redrawn)
MAX_REVEALS = 400  # reveals of one walk
MAX_HAND = 10  # "Max Cards in Hand is 10" (000 l.109)

T = TypeVar("T", bound=Hashable)
Key = Hashable
Step = Callable[[Any, Any], tuple[bool, Any]]


# --------------------------------------------------------------------------- the deck


@record
class Piles:
    """The Fate deck as odds see it: faces (``QH``, ``BW``) in each pile, sorted."""

    pile: tuple[str, ...]
    discard: tuple[str, ...]

    @classmethod
    def fresh(cls) -> Piles:
        return cls(tuple(sorted(c.face for c in full_deck())), ())

    @classmethod
    def of(cls, draw: Iterable[Card], discard: Iterable[Card]) -> Piles:
        """From a stored deck: orientation and order are dropped here."""
        return cls(tuple(sorted(c.face for c in draw)), tuple(sorted(c.face for c in discard)))


@record
class DeckView(Result):
    """Which deck the odds are from: ``session`` (as it stands) or ``fresh``."""

    source: str
    remaining: int
    discarded: int


_FACES = {c.face: c for c in full_deck()}


def _cards(faces: Iterable[str]) -> dict[Card, int]:
    out: dict[Card, int] = {}
    for f in faces:
        card = _FACES[f]
        out[card] = out.get(card, 0) + 1
    return out


def oriented(read: Callable[[Card], Key]) -> Callable[[Card], list[tuple[Key, int]]]:
    """A Fate card's reading in both orientations, each with weight 1."""

    def both(card: Card) -> list[tuple[Key, int]]:
        return [(read(card.flipped(True)), 1), (read(card.flipped(False)), 1)]

    return both


# --------------------------------------------------------------------------- the walk


def reveal_odds(pile: Mapping[T, int], discard: Mapping[T, int],
                read: Callable[[T], Sequence[tuple[Key, int]]], start: Any, step: Step,
                *, keep_deck: bool = False) -> dict[Any, Fraction]:
    """The exact distribution of a procedure's outcome over reveals from ``pile``.

    ``read(item)`` gives the keys an item can show, with weights (a Fate card: its key
    Upper and its key Lower, 1 each). ``step(state, key)`` returns ``(True, outcome)``
    when the procedure is done, else ``(False, next_state)``. With ``keep_deck`` the
    outcomes are ``(outcome, pile, discard)`` with the piles as item counts (one
    representative item per category), for a procedure that goes on with another walk.
    """
    items = list(dict.fromkeys([*pile, *discard]))
    cat_of: dict[frozenset[tuple[Key, int]], int] = {}
    raw: list[dict[Key, int]] = []
    reps: list[T] = []
    index: dict[T, int] = {}
    for it in items:
        merged: dict[Key, int] = {}
        for key, w in read(it):
            merged[key] = merged.get(key, 0) + w
        sig = frozenset(merged.items())
        if sig not in cat_of:
            cat_of[sig] = len(raw)
            raw.append(merged)
            reps.append(it)
        index[it] = cat_of[sig]
    # Every category's key weights scaled to one common sum, so that all the paths of
    # one layer share a denominator and merging them adds integers.
    common = 1
    for m in raw:
        common = lcm(common, sum(m.values()))
    cats = [[(k, w * (common // sum(m.values()))) for k, w in m.items()] for m in raw]
    size = len(cats)
    pv0, dv0 = [0] * size, [0] * size
    for it, n in pile.items():
        pv0[index[it]] += n
    for it, n in discard.items():
        dv0[index[it]] += n
    if not any(pv0) and not any(dv0):
        raise BadInput("there are no cards to reveal")
    zero = (0,) * size
    out: dict[Any, list[int]] = {}  # outcome → [numerator, denominator]
    State = tuple[tuple[int, ...], tuple[int, ...], Any]
    frontier: dict[State, list[int]] = {(tuple(pv0), tuple(dv0), start): [1, 1]}
    for _ in range(MAX_REVEALS):
        if not frontier:
            return {k: Fraction(a, b) for k, (a, b) in out.items()}
        nxt: dict[State, list[int]] = {}
        for (pv, dv, state), (num, den) in frontier.items():
            if not any(pv):  # the pile ran out: the discard pile is shuffled back in
                pv, dv = dv, zero
            d2 = den * sum(pv) * common
            steps: dict[Key, tuple[bool, Any]] = {}  # step() once per key and state
            ended: dict[Any, int] = {}  # outcomes reached now, summed over categories
            for i, k in enumerate(pv):
                if not k:
                    continue
                pv2 = dv2 = None
                nk = num * k
                for key, w in cats[i]:
                    got = steps.get(key)
                    if got is None:
                        got = steps[key] = step(state, key)
                    done, value = got
                    if done and not keep_deck:
                        ended[value] = ended.get(value, 0) + nk * w
                        continue
                    if pv2 is None:
                        pv2 = pv[:i] + (k - 1,) + pv[i + 1:]
                        dv2 = dv[:i] + (dv[i] + 1,) + dv[i + 1:]
                    if done:
                        assert dv2 is not None
                        _merge(out, (value, _counts(pv2, reps), _counts(dv2, reps)),
                               nk * w, d2)
                    else:
                        _merge(nxt, (pv2, dv2, value), nk * w, d2)
            for value, n in ended.items():
                _merge(out, value, n, d2)
            if len(nxt) > MAX_STATES:
                raise BadInput(f"these odds need more than {MAX_STATES:,} deck states")
        frontier = nxt
    raise BadInput(f"these odds need more than {MAX_REVEALS} reveals")


def _merge(acc: dict[Any, list[int]], key: Any, num: int, den: int) -> None:
    """acc[key] += num/den, kept as an integer pair (the usual case: equal dens)."""
    cur = acc.get(key)
    if cur is None:
        acc[key] = [num, den]
    elif cur[1] == den:
        cur[0] += num
    else:
        g = gcd(cur[1], den)
        cur[0] = cur[0] * (den // g) + num * (cur[1] // g)
        cur[1] = cur[1] // g * den


def _counts(vec: tuple[int, ...], reps: Sequence[T]) -> tuple[tuple[T, int], ...]:
    return tuple((reps[i], n) for i, n in enumerate(vec) if n)


def _prob(p: Fraction | int) -> Probability:
    return Probability.of(p)


# --------------------------------------------------------------------------- conflict


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
    from d2d_cli.rules.deck.advantage import ADVANTAGE, NORMAL, keep

    specs = [conflict.parse_side(side_a), conflict.parse_side(side_b)]
    if typed:
        conflict.check_level(level_a, "--level-a")
        conflict.check_level(level_b, "--level-b")
    by_color = fate_orientation == "color"  # [rules] values, checked by rules.core.options
    table = conflict.chart(reading)
    same = set(conflict.table()["tiebreak"]["same_approach"])
    rep: dict[Key, Card] = {}
    extra = [0 if m == NORMAL else 1 for m in modes]
    # A kept card is chosen by its outcome, then its Hits (conflict.hit_value). The Hits
    # change which card is kept only between equal outcomes, except "rank" against
    # "tie" (a side given as a bare approach): only then does every rank count.
    ranked = any(extra) and any(s.source != "fate" and s.card is None for s in specs)

    def key(card: Card) -> Key:
        if by_color:  # as resolve turns a fate side's card: by its colour
            card = card.flipped(card.color == "black")
        approach = conflict.approach_of(card)
        k = (approach, card.rank if ranked or approach in same else None)
        rep.setdefault(k, card)
        return k

    fixed: list[tuple[str, Card | None] | None] = [
        None if s.source == "fate" else (str(s.approach), s.card) for s in specs]
    memo: dict[tuple[Key, Key], str] = {}

    def verdict(a: tuple[Any, Card | None], b: tuple[Any, Card | None]) -> str:
        (ka, ca), (kb, cb) = a, b
        m = (ka, kb)
        if m not in memo:
            got = table[ka[0]][kb[0]]
            if got == "rank" and ca is not None and cb is not None:
                got = conflict.tiebreak(ca, cb, level_a, level_b, level_bonus).outcome
            memo[m] = got
        return memo[m]

    seen: dict[tuple[Key, ...], str] = {}
    hits: dict[tuple[Key, bool], int] = {}  # conflict.hit_value of each key's card

    def outcome(sides: tuple[Key, ...]) -> str:
        if sides not in seen:
            seen[sides] = _outcome(sides)
        return seen[sides]

    def _outcome(sides: tuple[Key, ...]) -> str:
        # The reveals in conflict.resolve's order: A's Fate, A's extra, B's, B's extra.
        it = iter(sides)
        opts: list[list[tuple[Any, Card | None]]] = []
        for f, n in zip(fixed, extra, strict=True):
            side: list[tuple[Any, Card | None]]
            if f is None:
                k = next(it)
                side = [(k, rep[k])]
            else:
                side = [((f[0], f[1].rank if f[1] else None), f[1])]
            for _ in range(n):
                k = next(it)
                side.append((k, rep[k]))
            opts.append(side)
        oa, ob = opts
        if len(oa) == len(ob) == 1:
            return verdict(oa[0], ob[0])
        chooser, mode = "a", modes[0]  # as conflict.resolve chooses who keeps which
        if len(oa) > 1 and len(ob) > 1:
            chooser, mode = ("a" if modes[0] == ADVANTAGE else "b"), ADVANTAGE
        elif len(ob) > 1:
            chooser, mode = "b", modes[1]
        pairs = [(i, j) for i in range(len(oa)) for j in range(len(ob))]

        def value(pair: tuple[int, int]) -> tuple[int, int]:
            mine = oa[pair[0]] if chooser == "a" else ob[pair[1]]
            hk = (mine[0], mine[1] is None)
            if hk not in hits:
                hits[hk] = conflict.hit_value(mine[1])
            return (conflict.OUTCOME_VALUE[chooser][verdict(oa[pair[0]], ob[pair[1]])],
                    hits[hk])

        i, j = pairs[keep(pairs, mode, value)]
        return verdict(oa[i], ob[j])

    reveals = sum(f is None for f in fixed) + sum(extra)
    targets = dict(obstacles or {})
    dist: dict[Any, Fraction]
    if targets:
        dist = _covered(targets, key, outcome, reveals, piles)
    elif reveals == 0:
        dist = {outcome(()): Fraction(1)}
    else:
        def step(state: tuple[Key, ...], k: Key) -> tuple[bool, Any]:
            got = (*state, k)
            return (True, outcome(got)) if len(got) == reveals else (False, got)

        dist = reveal_odds(_cards(piles.pile), _cards(piles.discard), oriented(key), (),
                           step)
    plain = ConflictOdds(
        side_a=side_a, side_b=side_b, level_a=level_a, level_b=level_b,
        conflict_chart=reading, fate_orientation=fate_orientation, deck=deck,
        a_wins=_prob(dist.get("a", 0)), b_wins=_prob(dist.get("b", 0)),
        both_win=_prob(dist.get("both", 0)), tie=_prob(dist.get("tie", 0)),
        rank=_prob(dist.get("rank", 0)))
    if not targets:
        return plain
    rows = tuple(ObstacleRow(suit, name, _prob(dist.get(("obstacle", suit), 0)))
                 for suit, name in sorted(targets.items(), key=lambda t: SUITS.index(t[0])))
    return CoveredConflictOdds(
        **{f.name: getattr(plain, f.name) for f in fields(plain)},
        cover_side=cover[0], cover_percent=cover[1],
        obstacle=_prob(sum((r.probability.fraction for r in rows), Fraction(0))),
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

    pile, discard = _cards(piles.pile), _cards(piles.discard)
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


# --------------------------------------------------------------------------- hits


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


def hits_odds(n: int, piles: Piles, deck: DeckView, *, level: int, rival_level: int,
              difficulty: int, ten_always_hits: bool = False, bonus: int = 0) -> HitsOdds:
    """Hold N cards revealed from the Fate deck and play the allowed set with the most
    Hits (then not a glancing blow, then more cards from the discard, then fewer cards):
    a single card, a set of a kind or a straight, each scored by ``count_hits``.

    Dynamic programming over the ranks (W, then A, 2 … 10, J, Q, K): how many of each
    rank are in the hand, weighted by the ways to draw them; the state is the cards
    drawn, the best play so far and the start of the current run of ranks. ``bonus``
    Hits are added to every play (Push the Limit under ``[rules] push_the_limit =
    "000"``, a Heroic Feat's ±1, as ``hit`` adds them; never below 0)."""
    from d2d_cli.rules.combat import conflict

    if not 1 <= n <= MAX_HAND:
        raise BadInput(f"a hand holds 1 to {MAX_HAND} cards (000: \"Max Cards in Hand is "
                       f"10\"), not {n}")
    conflict.check_level(level, "--level")
    conflict.check_level(rival_level, "--rival-level")
    if difficulty < 1:
        raise BadInput(f"--vs takes a Difficulty of 1 or more, not {difficulty}")

    memo: dict[tuple[str, ...], Value | None] = {}

    def value(ranks: Sequence[str]) -> Value | None:
        key = tuple(ranks)
        if key not in memo:
            memo[key] = _play(key, level, rival_level, difficulty, ten_always_hits)
        return memo[key]

    order = list(RANKS)  # A 2 … 10 J Q K: runs of consecutive ranks, for straights
    none: list[Value | None] = [None]
    sets = [none + [value([r] * j) for j in range(1, 5)] for r in order]
    best_set = [[_best(row[1:j + 1]) for j in range(5)] for row in sets]
    # best_run[s][e]: the best straight ending at rank e inside a run starting at s
    best_run = [[_best([value(order[s2:e + 1]) for s2 in range(s, e)]) if s <= e else None
                 for e in range(len(order))] for s in range(len(order))]
    by_rank: dict[str, list[int]] = {r: [0, 0] for r in [*order, "W"]}
    pile = list(piles.pile)
    if len(pile) >= n:
        fixed_faces: list[str] = []
        pool_faces, draw = pile, n
    else:  # the whole pile, then the rest from the reshuffled deck (as fate draw does)
        fixed_faces, pool_faces, draw = pile, sorted(_FACES), n - len(pile)
    for faces, idx in ((fixed_faces, 0), (pool_faces, 1)):
        for face in faces:
            by_rank[_FACES[face].rank][idx] += 1
    states: dict[tuple[int, Value | None, int | None], int] = {(0, None, None): 1}
    for i, r in enumerate(["W", *order]):
        f, k = by_rank[r]
        nxt: dict[tuple[int, Value | None, int | None], int] = {}
        for (drawn, best, start), ways in states.items():
            for x in range(0, min(k, draw - drawn) + 1):
                m = f + x
                b, s = best, start
                if r != "W":
                    j = i - 1
                    if m:
                        s = j if start is None else start
                        b = _best([b, best_set[j][min(m, 4)], best_run[s][j]])
                    else:
                        s = None
                key = (drawn + x, b, s)
                nxt[key] = nxt.get(key, 0) + ways * comb(k, x)
        states = nxt
    total = comb(len(pool_faces), draw)
    dist: dict[int, int] = {}
    glancing = combo = 0
    for (drawn, best, _), ways in states.items():
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
        distribution=tuple(HitsRow(h, _prob(Fraction(w, total)))
                           for h, w in sorted(dist.items())),
        glancing=_prob(Fraction(glancing, total)), combo=_prob(Fraction(combo, total)),
        no_play=_prob(Fraction(dist.get(0, 0), total)), mean=mean, mean_value=float(mean))


def _best(values: Iterable[Value | None]) -> Value | None:
    got = [v for v in values if v is not None]
    return max(got) if got else None


# --------------------------------------------------------------------------- dice


@record
class ValueRow(Result):
    value: int
    probability: Probability


@record
class DieOdds(Result):
    """``d2d odds die dN``: the chance of each value of the next Fate die."""

    die: str
    deck: DeckView
    values: tuple[ValueRow, ...]
    mean: Fraction
    mean_value: float


def die_odds(n: int, piles: Piles, deck: DeckView) -> DieOdds:
    """The value of ``fate die dN`` read from the next reveals (redraws included), each
    card read by ``dice.read``."""
    from d2d_cli.rules.deck import dice

    spec = dice.spec(n)
    if spec.cards != 1:
        raise BadInput(f"exact odds are offered for the dice read from one card a try "
                       f"(d2…d108); d{n} reads two cards a try")

    def read(card: Card) -> int | None:
        return dice.read(spec, [card])

    # A card redrawn on one side only (d20 reads a d104 and redraws 101–104: four
    # Lower faces) leaves the pile with its other side's value, so the walk must track
    # which of those cards are gone: 2^n states. Refuse before the work when n is big.
    faces = [_FACES[f] for f in set(piles.pile) | set(piles.discard)]
    sides = [(read(c.flipped(True)) is None, read(c.flipped(False)) is None) for c in faces]
    one_sided = sum(1 for up, down in sides if up != down)
    always = sum(1 for up, down in sides if up and down)
    if 2**one_sided * (always + 1) > MAX_DIE_STATES:
        raise BadInput(f"d{n} redraws {one_sided} cards on one side only, so its exact "
                       "odds would follow every subset of them: too much work (d2d offers "
                       "them for the printed dice and most others)")

    def step(_: Any, v: int | None) -> tuple[bool, Any]:
        return (False, None) if v is None else (True, v)

    dist = reveal_odds(_cards(piles.pile), _cards(piles.discard), oriented(read), None,
                       step)
    mean = sum((v * p for v, p in dist.items()), Fraction(0))
    return DieOdds(die=f"d{n}", deck=deck,
                   values=tuple(ValueRow(v, _prob(p)) for v, p in sorted(dist.items())),
                   mean=mean, mean_value=float(mean))


# --------------------------------------------------------------------------- weather


@record
class DirectionRow(Result):
    direction: str
    probability: Probability


@record
class SpeedRow(Result):
    speed_kph: int
    beaufort: str
    probability: Probability


@record
class WeatherOdds(Result):
    """``d2d odds weather``: the wind ``weather wind`` would reveal next."""

    deck: DeckView
    direction: tuple[DirectionRow, ...]
    speed: tuple[SpeedRow, ...]
    mean_kph: Fraction
    mean_kph_value: float


def weather_odds(piles: Piles, deck: DeckView) -> WeatherOdds:
    """Direction (a d8, ``dice.read``), then velocity from the cards left: reveal
    ``weather.FIRST_REVEALS``; each card ``weather.is_high`` adds ``STEP_KPH`` and one
    more reveal (``weather.velocity``)."""
    from d2d_cli.rules.deck import dice
    from d2d_cli.rules.time import weather

    d8 = dice.spec(8)

    def read_dir(card: Card) -> Key:
        return (dice.read(d8, [card]), weather.is_high(card))

    def step_dir(_: Any, k: tuple[int | None, bool]) -> tuple[bool, Any]:
        return (False, None) if k[0] is None else (True, weather.COMPASS[k[0] - 1])

    first = reveal_odds(_cards(piles.pile), _cards(piles.discard), oriented(read_dir),
                        None, step_dir, keep_deck=True)

    def step_speed(state: tuple[int, int], high: bool) -> tuple[bool, Any]:
        pending, kph = state
        pending -= 1
        if high:
            kph += weather.STEP_KPH
            pending += 1
        return (True, kph) if pending == 0 else (False, (pending, kph))

    directions: dict[str, Fraction] = {}
    speeds: dict[int, Fraction] = {}
    memo: dict[Any, dict[Any, Fraction]] = {}
    for (heading, pile, discard), p in first.items():
        directions[heading] = directions.get(heading, 0) + p
        sig = (_high_sig(pile), _high_sig(discard))
        if sig not in memo:
            memo[sig] = reveal_odds(dict(pile), dict(discard),
                                    lambda c: [(weather.is_high(c), 1)],
                                    (weather.FIRST_REVEALS, 0), step_speed)
        for kph, q in memo[sig].items():
            speeds[kph] = speeds.get(kph, 0) + p * q
    mean = sum((k * p for k, p in speeds.items()), Fraction(0))
    return WeatherOdds(
        deck=deck,
        direction=tuple(DirectionRow(d, _prob(directions[d])) for d in weather.COMPASS
                        if d in directions),
        speed=tuple(SpeedRow(k, weather.beaufort(k)["name"], _prob(p))
                    for k, p in sorted(speeds.items())),
        mean_kph=mean, mean_kph_value=float(mean))


def _high_sig(counts: Iterable[tuple[Card, int]]) -> tuple[int, int]:
    from d2d_cli.rules.time import weather

    hi = sum(n for c, n in counts if weather.is_high(c))
    return hi, sum(n for _, n in counts) - hi


# --------------------------------------------------------------------------- crits


@record
class LocationRow(Result):
    """One Crit location: its chance, the armor found there (001 l.898 "Armor Location -
    Find Armor at the Location") and so its Hits and severity."""

    location: str
    name: str
    probability: Probability
    armor: str | None
    bonus_hits: int
    hits: int
    severity: str
    light_damage: int
    flipped: int = 0  # of the light damage, what lands on a stat at 0: Crits (001 l.946)


@record
class SeverityRow(Result):
    severity: str
    probability: Probability


@record
class CritOdds(Result):
    """``d2d odds crit``: the chance of each location, and of each severity (the armor
    at a location can differ, so the severity can too)."""

    power: str
    armor_source: str | None
    hits_before: int
    damage_deck: str
    deck_name: str
    light: str
    types: tuple[str, ...]
    chart: str
    deck: DeckView
    locations: tuple[LocationRow, ...]
    severities: tuple[SeverityRow, ...]


def crit_odds(*, power: Stat, armor: crits.Armor | None, hits_before: int, deck: str,
              types: list[str], ch: crits.Chart, state: dict[str, Any] | None,
              fresh: bool, opts: Options = DEFAULTS, gear: damage.Gear | None = None,
              modifiers: damage.DamageAsk | None = None,
              difficulty: Stat | None = None, target: Unit | None = None) -> CritOdds:
    """The Crit ``d2d crit`` would rate: the location is the first card of a matching
    type drawn from the Damage Deck as it stands (its order unknown), as
    ``crits.find_crit`` draws it; then the armor at that location cancels the Power
    (``crits.bonus_hits``) and the Hits turn the card (``crits.severity``). The Damage
    Modifiers (``damage.modify``: ``modifiers`` typed, ``gear`` the target's) and the
    ``[rules] weapon_damage``/``armor`` readings apply at each location as ``crit``
    applies them; a location whose Damage is stopped is severity "none"."""
    import random

    from d2d_cli.rules.combat import crits, damage

    if opts.hit_location == "000":
        raise RuleViolation('odds crit follows 001\'s Crit Location (the first matching '
                            'card); under [rules] hit_location = "000" the Damage Stack of '
                            'several cards is not computed (docs/rules.md "Damage '
                            'Modifiers")')
    crits.check_hits(hits_before)
    cards = crits.deck_cards(deck, ch)
    if fresh:
        pile_list, discard_list = list(cards), []
    else:
        stored, _ = crits.DamageDeck.from_state(state, cards, random.Random(0))
        pile_list, discard_list = stored.draw, stored.discard
    limit = len(cards)

    def read(card: str) -> list[tuple[Key, int]]:
        type_, loc = card.split("@")
        return [((loc if not types or type_ in types else None), 1)]

    def step(drawn: int, loc: str | None) -> tuple[bool, Any]:
        if loc is not None:
            return True, loc
        return (True, None) if drawn + 1 >= limit else (False, drawn + 1)

    pile: dict[str, int] = {}
    for c in pile_list:
        pile[c] = pile.get(c, 0) + 1
    discard: dict[str, int] = {}
    for c in discard_list:
        discard[c] = discard.get(c, 0) + 1
    dist = reveal_odds(pile, discard, read, 0, step)
    rows = []
    by_severity: dict[str, Fraction] = {}
    for key, name in ch.names().items():
        if key not in dist:
            continue
        worn = armor.at_location(key)[0] if armor is not None else None
        rated = worn if opts.armor == "rating" else None
        bonus = crits.bonus_hits(power, difficulty if opts.weapon_damage == "difficulty"
                                 else rated)
        total = hits_before + bonus
        ask = modifiers or damage.DamageAsk()
        kit = gear or damage.Gear()
        if ask.given or kit != damage.Gear() or (worn is not None and opts.armor == "reduce"):
            total = damage.modify(total, location=key, location_name=name,
                                  types=tuple(types), gear=kit, ask=ask,
                                  locations=tuple(ch.names()),
                                  armor=worn if opts.armor == "reduce" else None,
                                  strict=False).damage
        sev = crits.severity(total) if total else crits.Severity("none", 0, 0)
        light = (crits.damage_table()["decks"][deck]["light"],) * sev.remaining
        flips = crits.flipped_count(target, light) if target is not None and total else 0
        rows.append(LocationRow(key, name, _prob(dist[key]), None if worn is None else str(worn),
                                bonus, total, sev.level, sev.remaining - flips, flips))
        by_severity[sev.level] = by_severity.get(sev.level, Fraction(0)) + Fraction(dist[key])
    spec = crits.damage_table()["decks"][deck]
    levels = crits.damage_table()["severity"]["levels"]
    return CritOdds(
        power=str(power), armor_source=None if armor is None else armor.source,
        hits_before=hits_before, damage_deck=deck, deck_name=spec["name"],
        light=spec["light"], types=tuple(types), chart=ch.kind,
        deck=DeckView("fresh" if fresh else "session", len(pile_list), len(discard_list)),
        locations=tuple(rows),
        severities=tuple(SeverityRow(lv, _prob(by_severity[lv])) for lv in ["none", *levels]
                         if lv in by_severity))
