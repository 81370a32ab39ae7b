"""Rolling an expression with an injected ``random.Random``: dice, cards drawn from a
deck, keeps, explosions, rerolls, successes, degrees and bands."""


from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import compress

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import RANKS, SUITS, Card
from d2d_cli.rules.roll.notation.syntax import (
    Band,
    Cards,
    Dice,
    Expression,
    Group,
    Keep,
    Neg,
    Node,
    Num,
    Prod,
    Sum,
    card_value,
)

# --------------------------------------------------------------------------- rolling


def _poker_deck() -> tuple[Card, ...]:
    return tuple(Card(r, s) for s in SUITS for r in RANKS)


def _fate_faces() -> tuple[Card, ...]:
    from d2d_cli.rules.deck.cards import full_deck

    return tuple(full_deck())


POKER = _poker_deck()
FATE = _fate_faces()


@record
class TermRoll(Result):
    """One random term of a roll: its dice or cards and the value it gave."""

    term: str
    kind: str  # "dice", "group", or the cards' deck: "fate", "fresh" or "poker"
    label: str | None
    value: int
    dice: tuple[int, ...]  # each die's result (after rerolls and explosions); a group's
    kept: tuple[bool, ...]  # members' values; which dice, cards or members count
    cards: tuple[Card, ...]
    notes: tuple[str, ...]  # rerolls and explosions: "1→4", "14 exploded 2×"


@record
class RollResult(Result):
    """``d2d roll``: the total and everything read from it."""

    expression: str
    system: str | None
    procedure: str | None
    total: int
    terms: tuple[TermRoll, ...]
    target: int | None
    margin: int | None
    success: bool | None
    degrees: int | None  # signed: +2 is two degrees of success, −1 one of failure
    natural: int | None
    crit: bool
    fumble: bool
    band: str | None
    comment: str | None
    deck: str | None  # "fate" when the session's Fate deck was drawn
    reshuffled: bool


class _Env:
    __slots__ = ("rng", "reveal", "terms")

    def __init__(self, rng: random.Random, reveal: Callable[[], Card | None] | None) -> None:
        self.rng = rng
        self.reveal = reveal
        self.terms: list[tuple[Dice | Cards | Group, int, tuple[int, ...],
                               tuple[bool, ...], tuple[Card, ...], tuple[str, ...]]] = []


def _kept_mask(values: Sequence[int], keep: Keep | None) -> tuple[bool, ...]:
    n = len(values)
    if keep is None or keep.k == n:
        return (True,) * n
    order = sorted(range(n), key=values.__getitem__)
    mask = [True] * n
    for i in order[:keep.low]:
        mask[i] = False
    for i in order[n - keep.high:]:
        mask[i] = False
    return tuple(mask)


def _pick(rng: random.Random, items: Sequence[int]) -> int:
    """One of ``items``, each equally likely (exactly: getrandbits and rejection)."""
    n = len(items)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return items[r]


def _roll_die(d: Dice, rng: random.Random, notes: list[str]) -> int:
    v = _pick(rng, d.faces)
    if d.reroll is not None and d.reroll.test(v):
        first = v
        # rerolling until it is not is the same as one draw from the other faces
        v = _pick(rng, d.faces if d.reroll_once else d.allowed)
        notes.append(f"{first}→{v}")
    return v


def _sample_dice(d: Dice, env: _Env) -> int:
    rng = env.rng
    faces = d.faces
    notes: list[str] = []
    if d.reroll is None and d.explode is None:
        size = len(faces)
        bits = size.bit_length()
        draw = rng.getrandbits
        values = []
        for _ in range(d.count):
            r = draw(bits)
            while r >= size:
                r = draw(bits)
            values.append(faces[r])
    else:
        values = []
        for _ in range(d.count):
            v = _roll_die(d, rng, notes)
            if d.explode is not None:
                total, n = v, 0
                while n < d.explode_cap and d.explode.test(v):
                    v = _roll_die(d, rng, notes)
                    total += v
                    n += 1
                if n:
                    notes.append(f"{total} exploded {n}×")
                v = total
            values.append(v)
    kept = _kept_mask(values, d.keep)
    if d.success is not None:
        value = sum(map(d.success.test, compress(values, kept)))
    else:
        value = sum(compress(values, kept))
    env.terms.append((d, value, tuple(values), kept, (), tuple(notes)))
    return value


def _sample_cards(c: Cards, env: _Env) -> int:
    rng = env.rng
    if c.source == "fate":
        if env.reveal is None:
            raise BadInput("roll: Fate-deck cards need the session's deck")
        drawn: list[Card] = []
        for _ in range(c.count):
            card = env.reveal()
            if card is None:
                raise BadInput(f"roll: {c.text} draws {c.count} card(s); give every card "
                               "drawn at the table with --card")
            drawn.append(card)
    elif c.source == "fresh":
        drawn = [x.flipped(rng.random() < 0.5) for x in rng.sample(FATE, c.count)]
    else:
        drawn = list(rng.sample(POKER, c.count))
    values = [card_value(x) for x in drawn]
    kept = _kept_mask(values, c.keep)
    if c.success is not None:
        value = sum(1 for x, k in zip(drawn, kept, strict=True) if k and c.success.test(x))
    else:
        value = sum(v for v, k in zip(values, kept, strict=True) if k)
    env.terms.append((c, value, tuple(values), kept, tuple(drawn), ()))
    return value


def _sample(node: Node, env: _Env) -> int:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Dice):
        return _sample_dice(node, env)
    if isinstance(node, Sum):
        return sum(s * _sample(t, env) for s, t in node.terms)
    if isinstance(node, Prod):
        v = _sample(node.first, env)
        for op, f in node.rest:
            w = _sample(f, env)
            if op == "*":
                v *= w
            elif w == 0:
                raise BadInput("roll: division by zero")
            else:
                v //= w
        return v
    if isinstance(node, Neg):
        return -_sample(node.inner, env)
    if isinstance(node, Cards):
        return _sample_cards(node, env)
    assert isinstance(node, Group)
    start = len(env.terms)
    values = [_sample(m, env) for m in node.members]
    kept = _kept_mask(values, node.keep)
    value = sum(compress(values, kept))
    env.terms.insert(start, (node, value, tuple(values), kept, (), ()))
    return value


def degrees(margin: int, per: int | None, cap: int | None, crit: bool, fumble: bool) -> int:
    """Signed degrees (002 l.88): one for a success (margin ≥ 0) or a failure, plus one
    per ``per`` full points over or under; at most ``cap``. A crit moves one step up the
    ladder …, −2, −1, +1, +2, … and a fumble one step down (002 l.100, l.106)."""
    d = 1 + (abs(margin) // per if per else 0)
    s = d if margin >= 0 else -d
    if crit:
        s = 1 if s == -1 else s + 1
    if fumble:
        s = -1 if s == 1 else s - 1
    if cap is not None:
        s = max(-cap, min(cap, s))
    return s


def band_of(bands: Sequence[Band], total: int) -> str | None:
    for b in bands:
        if b.test(total):
            return b.label
    return None


def _kind(n: Node) -> str:
    return n.source if isinstance(n, Cards) else "group" if isinstance(n, Group) else "dice"


def sample_total(e: Expression, rng: random.Random) -> int:
    """One roll's total only (the property tests and the benchmark use it)."""
    return _sample(e.expr, _Env(rng, None))


def roll(e: Expression, rng: random.Random,
         reveal: Callable[[], Card | None] | None = None, *,
         system: str | None = None, procedure: str | None = None) -> RollResult:
    """Roll ``e`` once: dice from ``rng``, Fate-deck cards from ``reveal``."""
    env = _Env(rng, reveal)
    total = _sample(e.expr, env)
    target = margin = deg = success = natural = None
    crit = fumble = False
    if e.crit or e.fumble:
        natural = next(v for n, v, *_ in env.terms if n is e.check)
        crit = bool(e.crit and e.crit.test(natural))
        fumble = bool(e.fumble and e.fumble.test(natural))
    if e.target is not None:  # an opposed roll's dice are terms too
        target = _sample(e.target, env)
        margin = total - target
        deg = degrees(margin, e.per, e.max_degrees, crit, fumble)
        success = deg > 0  # a crit or fumble can turn the margin's verdict
    terms = tuple([TermRoll(n.text, _kind(n), n.label, v, ds, k, cs, notes)
                   for n, v, ds, k, cs, notes in env.terms])
    # positional: this runs 100,000 times a second in the benchmark
    return RollResult(e.text, system, procedure, total, terms, target, margin, success, deg,
                      natural, crit, fumble, band_of(e.bands, total) if e.bands else None,
                      e.comment, "fate" if e.fate_cards else None,
                      bool(reveal is not None and getattr(reveal, "reshuffled", False)))


