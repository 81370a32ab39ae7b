"""An expression read as an exact distribution: dice and card pools convolved with
integer weights, the work estimated (and refused when too big) before it starts."""


from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from math import comb, log2

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.probability import Dist, Probability, keep_highest
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import Card
from d2d_cli.rules.roll.notation.limits import (
    MAX_GROUP_OUTCOMES,
    MAX_ODDS_SECONDS,
    MAX_ODDS_SPAN,
    _bad,
)
from d2d_cli.rules.roll.notation.rolling import FATE, POKER, band_of, degrees
from d2d_cli.rules.roll.notation.syntax import (
    Cards,
    CardTest,
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

# --------------------------------------------------------------------------- exact odds


@record
class FateCounts:
    """What odds may know of the session's Fate deck: the faces in its draw pile, a set
    (the stored order and orientations are never read)."""

    pile: tuple[str, ...]  # faces, sorted

    @classmethod
    def fresh(cls) -> FateCounts:
        return cls(tuple(sorted(c.face for c in FATE)))


@record
class Outcome(Result):
    value: int
    probability: Probability


@record
class DegreeRow(Result):
    degrees: int
    probability: Probability


@record
class BandRow(Result):
    band: str
    probability: Probability


@record
class RollOdds(Result):
    """``d2d roll EXPR --odds``: the exact distribution of the same expression."""

    expression: str
    system: str | None
    procedure: str | None
    deck: str | None  # "session" or "fresh" when Fate-deck cards are drawn
    outcomes: tuple[Outcome, ...]
    mean: Fraction
    mean_value: float
    success: Probability | None
    degrees: tuple[DegreeRow, ...] | None
    crit: Probability | None
    fumble: Probability | None
    bands: tuple[BandRow, ...] | None


class _Odds:
    """Exact distributions of nodes; ``override`` replaces one node's distribution."""

    def __init__(self, fate: FateCounts | None) -> None:
        self.fate = fate or FateCounts.fresh()
        self.override: tuple[Node, Dist] | None = None

    def dist(self, node: Node) -> Dist:
        if self.override is not None and node is self.override[0]:
            return self.override[1]
        if isinstance(node, Num):
            return Dist.const(node.value)
        if isinstance(node, Dice):
            return dice_dist(node)
        if isinstance(node, Cards):
            return self.cards_dist(node)
        if isinstance(node, Sum):
            out = Dist.const(0)
            for s, t in node.terms:
                d = self.dist(t)
                out = out.add(d if s > 0 else d.map(lambda v: -v))
            return out
        if isinstance(node, Prod):
            return self.prod_dist(node)
        if isinstance(node, Neg):
            return self.dist(node.inner).map(lambda v: -v)
        assert isinstance(node, Group)
        members = [self.dist(m) for m in node.members]
        if node.keep is None or node.keep.k == len(members):
            out = Dist.const(0)
            for d in members:
                out = out.add(d)
            return out
        return _group_keep(members, node.keep)

    def prod_dist(self, node: Prod) -> Dist:
        """A product: ``*`` and ``/`` (rounded down) from the left; a divisor that can be
        zero has no exact odds."""
        out = self.dist(node.first)
        for op, f in node.rest:
            d = self.dist(f)
            if op == "*":
                out = out.combine(d, lambda a, b: a * b)
            else:
                if d.weights.get(0):
                    raise BadInput("roll: the divisor can be zero, so there are no "
                                   "exact odds")
                out = out.combine(d, lambda a, b: a // b)
        return out

    def cards_dist(self, c: Cards) -> Dist:
        if c.source == "poker":
            fixed: dict[Card, int] = {}
            pool = {x: 1 for x in POKER}
            draw = c.count
        else:
            full = {x: 1 for x in FATE}
            if c.source == "fresh":
                fixed, pool, draw = {}, full, c.count
            else:
                by_face = {x.face: x for x in FATE}
                pile: dict[Card, int] = {}
                for face in self.fate.pile:
                    card = by_face[face]
                    pile[card] = pile.get(card, 0) + 1
                if len(self.fate.pile) >= c.count:
                    fixed, pool, draw = {}, pile, c.count
                else:  # the whole pile, then the rest from the reshuffled 54 (fate draw)
                    fixed, pool, draw = pile, full, c.count - len(self.fate.pile)
        return card_pool_dist(fixed, pool, draw, c.keep, c.success)


def _die(d: Dice) -> Dist:
    """One die of a term after reroll and explosion (weights are counts)."""
    base = Dist.of_faces(d.faces)
    if d.reroll is not None:
        test = d.reroll.test
        if d.reroll_once:
            bad = sum(n for v, n in base.weights.items() if test(v))
            base = Dist({v: (0 if test(v) else n * base.total) + n * bad
                         for v, n in base.weights.items()})
        else:
            base = base.where(lambda v: not test(v))
    if d.explode is None:
        return base
    trig = d.explode.test
    die = base  # a roll with no explosion left
    for _ in range(d.explode_cap):  # one more explosion allowed each time round
        w: dict[int, int] = {}
        for v, n in base.weights.items():
            if trig(v):
                for x, m in die.weights.items():
                    w[v + x] = w.get(v + x, 0) + n * m
            else:
                w[v] = w.get(v, 0) + n * die.total
        die = Dist(w)
    return die


def dice_dist(d: Dice) -> Dist:
    die = _die(d)
    score: Callable[[int], int]
    if d.success is not None:
        test = d.success.test

        def score(v: int) -> int:
            return 1 if test(v) else 0
    else:
        def score(v: int) -> int:
            return v
    if d.keep is None or d.keep.k == d.count:
        scored = die.map(score)
        if d.success is not None:  # successes: a binomial, in closed form
            hit, miss, n = scored.weights.get(1, 0), scored.weights.get(0, 0), d.count
            return Dist({k: comb(n, k) * hit**k * miss ** (n - k) for k in range(n + 1)})
        return scored.times(d.count)
    if d.keep.keeps_highest:
        return keep_highest(die, d.count, d.keep.k, score)
    return keep_highest(die.map(lambda v: -v), d.count, d.keep.k, lambda v: score(-v))


def _group_keep(members: list[Dist], keep: Keep) -> Dist:
    w: dict[int, int] = {}
    items = [sorted(d.weights.items()) for d in members]
    k = keep.k

    # iterative product of the members' outcomes
    stack: list[tuple[int, tuple[int, ...], int]] = [(0, (), 1)]
    while stack:
        i, vals, weight = stack.pop()
        if i == len(items):
            s = sum(sorted(vals)[keep.low:keep.low + k])
            w[s] = w.get(s, 0) + weight
            continue
        for v, n in items[i]:
            stack.append((i + 1, (*vals, v), weight * n))
    return Dist(w)


def card_pool_dist(fixed: Mapping[Card, int], pool: Mapping[Card, int], draw: int,
                   keep: Keep | None, success: CardTest | None) -> Dist:
    """The value of a card term: the ``fixed`` cards and ``draw`` cards taken without
    replacement from ``pool`` (each card of a category alike), summed or counted, with
    keep-highest/lowest by value. Dynamic programming over categories of cards."""
    cats: dict[tuple[int, int], list[int]] = {}  # (value, score) → [fixed, pool]
    for src, idx in ((fixed, 0), (pool, 1)):
        for card, n in src.items():
            v = card_value(card)
            s = (1 if success.test(card) else 0) if success is not None else v
            cats.setdefault((v, s), [0, 0])[idx] += n
    order = sorted(cats, key=lambda vs: (vs[0], vs[1]),
                   reverse=keep is None or keep.keeps_highest)
    fixed_total = sum(fixed.values())
    n_total = fixed_total + draw
    k = keep.k if keep is not None else n_total
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (drawn so far, score) → ways
    taken_fixed = 0
    for key in order:
        f, p = cats[key]
        score = key[1]
        nxt: dict[tuple[int, int], int] = {}
        for (drawn, agg), ways in states.items():
            taken = taken_fixed + drawn
            for x in range(0, min(p, draw - drawn) + 1):
                m = f + x
                kept = max(0, min(m, k - taken))
                state = (drawn + x, agg + kept * score)
                nxt[state] = nxt.get(state, 0) + ways * comb(p, x)
        states = nxt
        taken_fixed += f
    return Dist({agg: ways for (drawn, agg), ways in states.items() if drawn == draw})


# -- the cost of exact odds, estimated before any work
#
# The estimate is in seconds on a slow machine: Python-level multiply-adds, each dearer
# as the integer weights grow (a weight of 100d6 has 259 bits). The coefficients were
# fitted to timings of pools, keeps, explosions and groups (bench/bench_roll.py prints
# the largest pools allowed and their times); real times run ~0.3–1.5× the estimate.

_SEC_OP = 1.6e-7  # one multiply-add of small integers, with the loop around it
_SEC_BIT = 8e-11  # … plus this per bit of the integers
_SEC_OUT = 1.2e-5  # one value of the result (a Fraction and its row)
_SEC_CALL = 6e-7  # one call of an operator on a pair of values (products, groups)


def _ops(ops: float, bits: float) -> float:
    return ops * (_SEC_OP + _SEC_BIT * bits)


def _estimate(node: Node) -> tuple[float, float]:
    """(seconds, bits of the weights) to compute ``node``'s distribution."""
    span = node.hi - node.lo + 1
    if isinstance(node, Num):
        return 0.0, 0.0
    if isinstance(node, Neg):
        sec, bits = _estimate(node.inner)
        return sec + _ops(span, bits), bits
    if isinstance(node, (Sum, Prod)):
        sec = acc = bits = 0.0
        for child in node.children():
            csec, cbits = _estimate(child)
            cspan = child.hi - child.lo + 1
            bits += cbits
            pairs = acc * cspan
            sec += csec + (_ops(pairs, bits) + (pairs * _SEC_CALL if isinstance(node, Prod)
                                               else 0.0) if acc else 0.0)
            acc = min(span, (acc or 1) * cspan) if isinstance(node, Prod) else acc + cspan
        return sec, bits
    if isinstance(node, Group):
        sec = bits = 0.0
        outcomes = 1
        for m in node.members:
            msec, mbits = _estimate(m)
            sec, bits = sec + msec, bits + mbits
            outcomes *= min(m.hi - m.lo + 1, MAX_GROUP_OUTCOMES + 1)
        if node.keep is not None and node.keep.k < len(node.members):
            if outcomes > MAX_GROUP_OUTCOMES:
                raise _bad(f"exact odds of {node.text} would enumerate more than "
                           f"{MAX_GROUP_OUTCOMES:,} joint outcomes")
            return sec + outcomes * (len(node.members) + 2) * _SEC_CALL, bits
        return sec + _ops(span * span, bits), bits
    if isinstance(node, Cards):
        draw = node.count
        bits = draw * 5.8  # log2 of C(54, draw) at most
        cats = 26 if node.success is not None else 14
        return _ops(cats * (draw + 1) * (span + 1) * 5, bits), bits
    assert isinstance(node, Dice)
    return _dice_estimate(node)


def _dice_estimate(d: Dice) -> tuple[float, float]:
    faces = len(d.faces)
    fspan = max(d.faces) - min(d.faces) + 1
    die_bits = log2(max(faces, 2)) * (2 if d.reroll_once else 1)
    sec = 0.0
    values = len(set(d.faces))
    dspan = fspan
    if d.explode is not None:
        dspan = fspan * (d.explode_cap + 1)
        values = min(dspan, values * (d.explode_cap + 1))
        sec += _ops(d.explode_cap * values * faces, die_bits * (d.explode_cap + 1))
        die_bits *= d.explode_cap + 1
    n = d.count
    bits = n * die_bits
    uniform = d.explode is None and not d.reroll_once and faces == fspan and \
        len(set(d.faces)) == faces
    if d.keep is not None and d.keep.k < n:
        k = d.keep.k
        sspan = 2 if d.success is not None else dspan
        per_a = sspan * k * (k - 1) / 2 + k  # Σ_{a<k} |scores of a rolls|
        above = values * (values - 1) / 2  # Σ over x of the values above x
        sec += _ops(per_a * above + values * per_a, bits)  # convolutions, sums
        sec += _ops(values * k * (n + 1), bits) * 3  # the S(x, a) sums of big products
    elif d.success is not None:
        sec += _ops(4 * n, bits)  # a binomial, in closed form
    elif uniform:  # the sliding window: fitted ~1.3× the plain operation count
        sec += _ops(n * (n + 1) / 2 * (fspan - 1) + n * fspan, bits / 2) * 1.3
    else:
        sec += _ops(n * n / 2 * dspan * values, bits / 2)
    return sec, bits


def estimate(e: Expression) -> float:
    """The estimated seconds of ``odds(e)`` (the whole of it: terms, target, rows)."""
    spans = [e.expr.hi - e.expr.lo + 1]
    parts = 3 if (e.crit or e.fumble) else 1
    sec, bits = _estimate(e.expr)
    sec = sec * parts + spans[0] * (_SEC_OUT + bits * 4e-9)
    if e.target is not None:
        tsec, tbits = _estimate(e.target)
        spans.append(e.target.hi - e.target.lo + 1)
        sec += tsec + _ops(spans[0] * spans[1] * parts, bits + tbits) * 2
    return sec


def check_odds(e: Expression, fate_pile: int = 54) -> None:
    """Refuse (exit 2) an exact distribution that is too big, before any work."""
    if e.fate_terms() > 1:
        raise _bad("exact odds follow one draw from the session's Fate deck per "
                   "expression; write the cards as one term (e.g. 5c, not 2c + 3c)")
    spans = [e.expr.hi - e.expr.lo + 1]
    if e.target is not None:
        spans.append(e.target.hi - e.target.lo + 1)
    if max(spans) > MAX_ODDS_SPAN:
        raise _bad(f"exact odds of {e.text!r} could have {max(spans):,} distinct totals; "
                   f"the limit is {MAX_ODDS_SPAN:,}")
    sec = estimate(e)
    if sec > MAX_ODDS_SECONDS:
        raise _bad(f"exact odds of {e.text!r} are too much work (an estimated "
                   f"{sec:.2g} s; the limit is {MAX_ODDS_SECONDS} s): use fewer dice, "
                   "faces or kept dice")


def _by_flag(e: Expression, calc: _Odds) -> list[tuple[str, Dist]]:
    """The distribution of ``e`` split on the natural value of the check term: crit,
    fumble, neither (one part, unflagged, when the expression reads neither)."""
    if not (e.crit or e.fumble):
        return [("", calc.dist(e.expr))]
    assert e.check is not None
    nat = calc.dist(e.check)
    crit, fumble = e.crit, e.fumble

    def flag_of(v: int) -> str:
        if crit is not None and crit.test(v):
            return "crit"
        return "fumble" if fumble is not None and fumble.test(v) else ""

    flags: list[tuple[str, Dist]] = []
    for flag in ("crit", "fumble", ""):
        part = Dist({v: n for v, n in nat.weights.items() if flag_of(v) == flag})
        if part.weights:
            calc.override = (e.check, part)
            flags.append((flag, calc.dist(e.expr)))
    calc.override = None
    return flags


def _degrees(e: Expression, calc: _Odds, flags: list[tuple[str, Dist]], denom: int
             ) -> tuple[Probability | None, tuple[DegreeRow, ...] | None]:
    """Success and degrees against the target, when the expression has one."""
    if e.target is None:
        return None, None
    target = calc.dist(e.target).map(lambda v: -v)
    by_deg: dict[int, int] = {}
    scale = denom * target.total
    for flag, d in flags:
        margins = d.add(target)
        for m, n in margins.weights.items():
            g = degrees(m, e.per, e.max_degrees, flag == "crit", flag == "fumble")
            by_deg[g] = by_deg.get(g, 0) + n
    deg_rows = tuple(DegreeRow(g, Probability.of(Fraction(n, scale)))
                     for g, n in sorted(by_deg.items()))
    return Probability.of(Fraction(sum(n for g, n in by_deg.items() if g > 0), scale)), deg_rows


def _bands(e: Expression, totals: dict[int, int], denom: int) -> tuple[BandRow, ...] | None:
    if not e.bands:
        return None
    by_band: dict[str, int] = {}
    for v, n in totals.items():
        label = band_of(e.bands, v) or "(no band)"
        by_band[label] = by_band.get(label, 0) + n
    names = [b.label for b in e.bands] + ["(no band)"]
    return tuple(BandRow(b, Probability.of(Fraction(by_band[b], denom)))
                 for b in dict.fromkeys(names) if b in by_band)


def odds(e: Expression, fate: FateCounts | None = None, *, deck: str | None = None,
         system: str | None = None, procedure: str | None = None) -> RollOdds:
    """The exact distribution of ``e``: totals, and success, degrees, crit, fumble and
    bands when the expression reads them. Fate-deck cards come from ``fate`` (the
    session's draw pile as a set; a full deck when None)."""
    check_odds(e, len(fate.pile) if fate else 54)
    calc = _Odds(fate)
    flags = _by_flag(e, calc)
    denom = sum(d.total for _, d in flags)
    totals: dict[int, int] = {}
    for _, d in flags:
        for v, n in d.weights.items():
            totals[v] = totals.get(v, 0) + n
    outcomes = tuple(Outcome(v, Probability.of(Fraction(n, denom)))
                     for v, n in sorted(totals.items()))
    mean = Fraction(sum(v * n for v, n in totals.items()), denom)

    def share(flag: str) -> Probability:
        return Probability.of(Fraction(sum(d.total for f, d in flags if f == flag), denom))

    crit_p = share("crit") if e.crit else None
    fumble_p = share("fumble") if e.fumble else None
    success, deg_rows = _degrees(e, calc, flags, denom)
    band_rows = _bands(e, totals, denom)
    return RollOdds(expression=e.text, system=system, procedure=procedure, deck=deck,
                    outcomes=outcomes, mean=mean, mean_value=float(mean), success=success,
                    degrees=deg_rows, crit=crit_p, fumble=fumble_p, bands=band_rows)
