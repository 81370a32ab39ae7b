"""The reveal walk: exact odds of the next reveals, from the deck as it stands.

What odds may know of a deck is :class:`Piles`: the faces in the draw pile and in the
discard pile. The draw pile is a *set* — its stored order is never read (that would
give away the next card) — and every card is Upper or Lower with chance 1/2. A reveal
takes a card from the pile; when the pile is empty the discard pile (with the cards
revealed so far) is shuffled back in, exactly as ``fate draw`` does
(``rules.deck.fate.Deck.take``).

:func:`reveal_odds` walks every sequence of reveals at once: cards that read the same
for the procedure at hand are one category, and the state is how many of each
category are left in each pile plus the procedure's own state, merged as it goes. Each
kind of odds is a module of its own that gives the walk its procedure (``conflict``,
``hits``, ``dice``, ``weather``, ``crit``), built from the rules' own functions so that
odds always agree with the commands.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import gcd, lcm
from typing import Any, TypeVar

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import TupleRecord, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import Card, full_deck

MAX_STATES = 50_000  # states of one reveal walk (bounded work; refused beyond)
MAX_REVEALS = 400  # reveals of one walk

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


FACES = {c.face: c for c in full_deck()}  # every face of the Fate deck → its card


def card_counts(faces: Iterable[str]) -> dict[Card, int]:
    """How many of each card the faces hold (a pile as :func:`reveal_odds` takes it)."""
    out: dict[Card, int] = {}
    for f in faces:
        card = FACES[f]
        out[card] = out.get(card, 0) + 1
    return out


def oriented(read: Callable[[Card], Key]) -> Callable[[Card], list[tuple[Key, int]]]:
    """A Fate card's reading in both orientations, each with weight 1."""

    def both(card: Card) -> list[tuple[Key, int]]:
        return [(read(card.flipped(True)), 1), (read(card.flipped(False)), 1)]

    return both


def prob(p: Fraction | int) -> Probability:
    return Probability.of(p)


# --------------------------------------------------------------------------- the walk


class _Categories(TupleRecord):
    """The items of a walk grouped by what they read: each category's keys with integer
    weights summing to ``common`` (one denominator for every path of a layer), one
    representative item each, and how many of each category are in each pile."""

    keys: list[list[tuple[Key, int]]]
    reps: list[Any]
    common: int
    pile: tuple[int, ...]
    discard: tuple[int, ...]


def _categories(pile: Mapping[T, int], discard: Mapping[T, int],
                read: Callable[[T], Sequence[tuple[Key, int]]]) -> _Categories:
    """Cards that read the same for the procedure at hand are one category."""
    cat_of: dict[frozenset[tuple[Key, int]], int] = {}
    raw: list[dict[Key, int]] = []
    reps: list[T] = []
    index: dict[T, int] = {}
    for it in dict.fromkeys([*pile, *discard]):
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
    keys = [[(k, w * (common // sum(m.values()))) for k, w in m.items()] for m in raw]
    pv, dv = [0] * len(keys), [0] * len(keys)
    for it, n in pile.items():
        pv[index[it]] += n
    for it, n in discard.items():
        dv[index[it]] += n
    return _Categories(keys, reps, common, tuple(pv), tuple(dv))


_State = tuple[tuple[int, ...], tuple[int, ...], Any]  # pile, discard, procedure's state


def _reveal_once(frontier: dict[_State, list[int]], cats: _Categories, step: Step,
                 keep_deck: bool, out: dict[Any, list[int]]) -> dict[_State, list[int]]:
    """One reveal from every state of ``frontier``: the states it leads to (merged), the
    outcomes it ends in added to ``out``."""
    zero = (0,) * len(cats.keys)
    nxt: dict[_State, list[int]] = {}
    for (pv, dv, state), (num, den) in frontier.items():
        if not any(pv):  # the pile ran out: the discard pile is shuffled back in
            pv, dv = dv, zero
        d2 = den * sum(pv) * cats.common
        steps: dict[Key, tuple[bool, Any]] = {}  # step() once per key and state
        ended: dict[Any, int] = {}  # outcomes reached now, summed over categories
        for i, k in enumerate(pv):
            if not k:
                continue
            pv2 = dv2 = None
            nk = num * k
            for key, w in cats.keys[i]:
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
                    _merge(out, (value, _counts(pv2, cats.reps), _counts(dv2, cats.reps)),
                           nk * w, d2)
                else:
                    _merge(nxt, (pv2, dv2, value), nk * w, d2)
        for value, n in ended.items():
            _merge(out, value, n, d2)
        if len(nxt) > MAX_STATES:
            raise BadInput(f"these odds need more than {MAX_STATES:,} deck states")
    return nxt


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
    return walk_categories(_categories(pile, discard, read), start, step,
                           keep_deck=keep_deck)


def walk_categories(cats: _Categories, start: Any, step: Step, *,
                    keep_deck: bool = False) -> dict[Any, Fraction]:
    """:func:`reveal_odds` over the piles as already read into categories (its first
    step): a procedure that meets the same piles read the same way again (the policy's
    odds, a fresh deck each time) reads them once."""
    if not any(cats.pile) and not any(cats.discard):
        raise BadInput("there are no cards to reveal")
    out: dict[Any, list[int]] = {}  # outcome → [numerator, denominator]
    frontier: dict[_State, list[int]] = {(cats.pile, cats.discard, start): [1, 1]}
    for _ in range(MAX_REVEALS):
        if not frontier:
            return {k: Fraction(a, b) for k, (a, b) in out.items()}
        frontier = _reveal_once(frontier, cats, step, keep_deck, out)
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
