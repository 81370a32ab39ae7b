"""Exact probabilities: the :class:`Probability` every odds result shows, and
:class:`Dist`, a finite distribution over whole numbers with integer weights.

A ``Dist`` keeps integer weights (``weights[v] / total`` is the chance of ``v``), so
convolutions multiply and add Python integers rather than fractions; a
``Fraction`` appears only when a chance is read out. Every operation here is pure
and its cost is bounded by the sizes of its inputs; callers estimate those sizes
and refuse big work *before* calling (``rules.roll.notation`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from math import comb, gcd

from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result


@record
class Probability(Result):
    """A chance, exact and as a float: JSON ``{"fraction": "3/8", "value": 0.375}``."""

    fraction: Fraction
    value: float

    @classmethod
    def of(cls, p: Fraction | int) -> Probability:
        f = Fraction(p)
        return cls(f, float(f))

    @property
    def percent(self) -> str:
        """``37.5%``; a chance that is not exactly 0 or 1 never rounds to them."""
        if self.fraction in (0, 1):
            return f"{int(self.fraction) * 100}%"
        pct = self.value * 100
        text = f"{pct:.2f}".rstrip("0").rstrip(".")
        if text in ("0", "100"):
            return "<0.01%" if pct < 50 else ">99.99%"
        return f"{text}%"


class Dist:
    """A distribution over ints: ``weights`` (value → positive int), ``total`` their sum."""

    __slots__ = ("weights", "total")

    def __init__(self, weights: Mapping[int, int]) -> None:
        # Weights are kept as given (counts of equally likely ways), never reduced:
        # keep_highest multiplies raw counts, and a reduction would change their scale.
        w = {v: n for v, n in weights.items() if n}
        self.weights: dict[int, int] = w
        self.total: int = sum(w.values())

    # ------------------------------------------------------------------ makers
    @classmethod
    def const(cls, v: int) -> Dist:
        return cls({v: 1})

    @classmethod
    def of_faces(cls, faces: Iterable[int]) -> Dist:
        w: dict[int, int] = {}
        for f in faces:
            w[f] = w.get(f, 0) + 1
        return cls(w)

    # ------------------------------------------------------------------ reading
    def __len__(self) -> int:
        return len(self.weights)

    def chance(self, v: int) -> Fraction:
        return Fraction(self.weights.get(v, 0), self.total)

    def items(self) -> list[tuple[int, Fraction]]:
        """(value, chance) in increasing value."""
        return [(v, Fraction(n, self.total)) for v, n in sorted(self.weights.items())]

    def mean(self) -> Fraction:
        return Fraction(sum(v * n for v, n in self.weights.items()), self.total)

    def lo(self) -> int:
        return min(self.weights)

    def hi(self) -> int:
        return max(self.weights)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self.weights == other.weights

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Dist({dict(sorted(self.weights.items()))}/{self.total})"

    # ------------------------------------------------------------------ operations
    def map(self, f: Callable[[int], int]) -> Dist:
        w: dict[int, int] = {}
        for v, n in self.weights.items():
            k = f(v)
            w[k] = w.get(k, 0) + n
        return Dist(w)

    def shift(self, k: int) -> Dist:
        return Dist({v + k: n for v, n in self.weights.items()})

    def where(self, keep: Callable[[int], bool]) -> Dist:
        """The distribution given ``keep(value)`` (the rest redrawn)."""
        return Dist({v: n for v, n in self.weights.items() if keep(v)})

    def combine(self, other: Dist, op: Callable[[int, int], int]) -> Dist:
        """The distribution of ``op(x, y)`` for independent x ~ self, y ~ other."""
        w: dict[int, int] = {}
        for a, na in self.weights.items():
            for b, nb in other.weights.items():
                k = op(a, b)
                w[k] = w.get(k, 0) + na * nb
        return Dist(w)

    def add(self, other: Dist) -> Dist:
        w: dict[int, int] = {}
        get = w.get
        for a, na in self.weights.items():
            for b, nb in other.weights.items():
                w[a + b] = get(a + b, 0) + na * nb
        return Dist(w)

    def times(self, n: int) -> Dist:
        """The sum of ``n`` independent copies (n ≥ 0). A die that is uniform over a run
        of values (every NdS) adds one copy at a time with a sliding window, so each copy
        costs the width of the running sum; any other die is convolved copy by copy."""
        if n <= 0 or not self.weights:
            return Dist.const(0)
        values = sorted(self.weights)
        lo, hi = values[0], values[-1]
        counts = set(self.weights.values())
        if len(counts) != 1 or hi - lo + 1 != len(values):
            out = self
            for _ in range(n - 1):
                out = out.add(self)
            return out
        w, width = counts.pop(), hi - lo + 1
        arr = [1]
        for _ in range(n):
            size = len(arr)
            nxt = [0] * (size + width - 1)
            run = 0
            for j in range(size + width - 1):
                if j < size:
                    run += arr[j]
                if j >= width:
                    run -= arr[j - width]
                nxt[j] = run
            arr = nxt if w == 1 else [x * w for x in nxt]
        return Dist({lo * n + j: x for j, x in enumerate(arr)})

    @staticmethod
    def mix(parts: Iterable[tuple[Dist, int]]) -> Dist:
        """A mixture: part ``d`` with relative weight ``k`` (weights need not sum to 1)."""
        chosen = [(d, k) for d, k in parts if k]
        scale = 1
        for d, _ in chosen:
            scale = scale * d.total // gcd(scale, d.total)
        w: dict[int, int] = {}
        for d, k in chosen:
            factor = k * (scale // d.total)
            for v, n in d.weights.items():
                w[v] = w.get(v, 0) + n * factor
        return Dist(w)


def keep_highest(die: Dist, n: int, k: int, score: Callable[[int], int]) -> Dist:
    """The sum of ``score(v)`` over the ``k`` highest of ``n`` independent rolls of ``die``.

    Condition on the value ``x`` of the k-th highest roll: ``a < k`` rolls above x,
    ``b ≥ k − a`` rolls equal to x, the rest below. So the result is the sum over x and
    a of C(n, a) · S(x, a) · (the scores of a rolls above x, shifted by (k − a)·score(x)),
    where S(x, a) = Σ_b C(n − a, b) · w(x)^b · L(x)^(n − a − b) counts the ways the
    other n − a rolls sit at x or below (L(x): the weight below x). The weights are
    counts, so the result's total is ``die.total ** n``. Cost: ``notation.exact._estimate``.
    """
    values = sorted(die.weights)
    result: dict[int, int] = {}
    below = 0
    for x in values:
        wx = die.weights[x]
        above = _above(die, x, score)
        pw = [1] * (n + 1)  # wx ** b
        pl = [1] * (n + 1)  # below ** c
        for i in range(1, n + 1):
            pw[i] = pw[i - 1] * wx
            pl[i] = pl[i - 1] * below
        part = Dist.const(0)  # the scores of a rolls above x (a = 0, 1, …)
        sx = score(x)
        for a in range(k):
            if a > 0:
                if not above.weights:
                    break
                part = part.add(above)
            rest = n - a
            ways, binom = 0, comb(rest, k - a)  # C(rest, b), updated as b grows
            for b in range(k - a, rest + 1):
                ways += binom * pw[b] * pl[rest - b]
                binom = binom * (rest - b) // (b + 1)
            if not ways:
                continue
            factor = comb(n, a) * ways
            shift = (k - a) * sx
            for v, m in part.weights.items():
                result[v + shift] = result.get(v + shift, 0) + m * factor
        below += wx
    return Dist(result)


def _above(die: Dist, x: int, score: Callable[[int], int]) -> Dist:
    """The scores of one roll above ``x``, weighted as in ``die`` (not normalised)."""
    w: dict[int, int] = {}
    for v, n in die.weights.items():
        if v > x:
            s = score(v)
            w[s] = w.get(s, 0) + n
    return Dist(w)
