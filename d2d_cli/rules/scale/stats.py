"""Stat notation: ``<level>x<scale>`` meaning level × 10^scale (DESIGN.md "Stats").

001 p.10 "Stat": "Rank x Scale. Rank - The main number used. Min:2 Max:10.
Scale - The number of zeroes after Rank." 000 "Reference > Units": "Level is an
integer from 2-10 … Partial - IF there is a decimal value THEN the Level also has
a fractional value. It is only used in rare circumstances."

So ``8x1`` = 80, ``10x-1`` = 1.0, ``6x24`` = 6e24. A level of 1 is written by the
rules for the universe and light (001 p.10: ``1x60``, ``1x9``); d2d keeps the
canonical form with a level in 2–10, so ``1x9`` canonicalises to ``10x8``.

Values are handled as :class:`decimal.Decimal` so that every scale from the Planck
length to the observable universe (and beyond) converts exactly: no float
overflow, no binary rounding at a level boundary.

**Rounding** (docs/rules.md "Stats and scale"): a real value becomes the *nearest*
point of the ladder … 9x(s−1), 10x(s−1) = 1x(s), 2x(s), 3x(s) … 10x(s) …, ties
going to the lower stat. So 4.5 → 4 (the 45 kg rope is Body 4, 000 "Example >
Combat #1"), 1.2 → 10x-1 (the 1.2 kg sword, 001 p.8), 1.5 → 10x-1, 1.6 → 2x0,
9.5 → 9x0, 9.6 → 10x0.

**Partial** is the exact level on the stat's own scale — value ÷ 10^scale — when
it is not the whole level (22 kg → 2x1 with partial 2.2; the 1.2 kg sword → 10x-1
with partial 12.0), else None. It lies within half a level of the whole level,
except at level 10, whose partial runs from just above 9.5 up to 15.
"""

from __future__ import annotations

import functools
import math
import re
from typing import TYPE_CHECKING

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record

if TYPE_CHECKING:  # decimal is imported where a value is computed: reading a roster's
    from decimal import Context, Decimal  # whole-level stats needs none of it

MIN_LEVEL = 2
MAX_LEVEL = 10
# A decimal (partial) level may be written from 1 up to 15: the range a partial
# takes (level 10 covers 9.5–15, and 1.5 is 10x(s−1) with partial 15).
MAX_PARTIAL = 15
# 10^±999 is far past anything the rules name (the universe is 1x60); keeping the
# scale bounded keeps every exact value inside CTX.
MAX_SCALE = 999



@functools.cache
def _ctx() -> Context:
    """Enough digits for a Mind of 2x-99 read back from an IQ of 50.000…0002 and for
    1e100 kg in ounces: every value d2d handles is exact in this context."""
    from decimal import Context

    return Context(prec=250, Emin=-9999, Emax=9999)


def __getattr__(name: str) -> Context:
    """``CTX``, the context of :func:`_ctx`, made when first asked (PEP 562)."""
    if name == "CTX":
        return _ctx()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_STAT_RE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*[x×X]\s*([+-]?\d+)\s*$")

ACCEPTED = (
    "a stat is <level>x<scale> with a whole level from 2 to 10 (or 1, meaning 10 of the "
    "scale below; a partial level like 4.5 is allowed) and a whole-number scale, "
    "e.g. 8x1 (=80), 10x-1 (=1.0), 6x24"
)


def to_decimal(value: object) -> Decimal:
    """An exact Decimal for an int, a str or a Decimal; a float by its shortest repr
    (so 45.0 is 45 and 0.1 is 0.1, not the binary approximation)."""
    from decimal import Decimal, InvalidOperation

    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    try:
        return Decimal(str(value).strip())
    except InvalidOperation:
        raise BadInput(f"not a number: {value!r}") from None


@record
class Stat:
    """A stat in canonical form: ``level`` 2–10, ``scale`` any integer.

    ``partial`` is the exact level on this scale when the stat stands for a value
    between two whole levels (e.g. 45 kg → level 4, partial 4.5), else None.
    """

    level: int
    scale: int
    partial: float | None = None

    @property
    def exact_level(self) -> float:
        return self.partial if self.partial is not None else float(self.level)

    @property
    def exact(self) -> Decimal:
        """The number the stat stands for, exactly: level × 10^scale (partial if any)."""
        from decimal import Decimal

        lvl = Decimal(self.level) if self.partial is None else to_decimal(self.partial)
        return lvl.scaleb(self.scale, _ctx())

    @property
    def value(self) -> float:
        """The number the stat stands for as a float (inf beyond ~1e308)."""
        return float(self.exact)

    @property
    def magnitude(self) -> tuple[int, float]:
        """A sort key that is exact across any scale (no float overflow)."""
        lvl = self.exact_level
        shift = math.floor(math.log10(lvl))
        return (self.scale + shift, lvl / 10**shift)

    @property
    def whole(self) -> Stat:
        """The same stat without its partial level."""
        return Stat(self.level, self.scale)

    def __str__(self) -> str:  # format_stat(self), written here: a roster writes thousands
        return f"{self.level}x{self.scale}"

    def to_json(self) -> dict[str, object]:
        return {
            "stat": str(Stat(self.level, self.scale)),
            "level": self.level,
            "scale": self.scale,
            "partial": self.partial,
        }


def format_stat(stat: Stat, *, partial: bool = False) -> str:
    """``8x1``; with ``partial=True`` and a partial level, ``4.5x1`` (or ``12.0x-1``:
    a partial always shows its decimal point, so :func:`parse_stat` reads it back)."""
    if partial and stat.partial is not None:
        text = repr(stat.partial)
        return f"{text if '.' in text or 'e' in text else text + '.0'}x{stat.scale}"
    return f"{stat.level}x{stat.scale}"


def canonical(level: float | int | str | Decimal, scale: int = 0) -> Stat:
    """The stat for ``level × 10^scale``: the nearest stat, ties to the lower one.

    ``1x9`` → ``10x8``; ``20x1`` → ``2x2``; ``canonical(80)`` → ``8x1``;
    ``canonical("5.97e24")`` → ``6x24`` (partial 5.97); ``canonical(1.2)`` →
    ``10x-1`` (partial 12.0). See the module docstring for the rounding.
    """
    from decimal import ROUND_HALF_DOWN

    ctx = _ctx()
    d = to_decimal(level)
    if not (d.is_finite() and d > 0):
        raise BadInput(f"a stat stands for a positive finite number, not {level!r}")
    d = d.normalize(ctx)
    e = d.adjusted()  # the power of ten of the first digit
    m = d.scaleb(-e, ctx)  # mantissa in [1, 10), exact
    s = scale + e
    whole = int(m.to_integral_value(rounding=ROUND_HALF_DOWN))
    if whole == 1:  # [1, 1.5]: nearer 10x(s−1) than 2x(s)
        m, s, whole = m.scaleb(1, ctx), s - 1, MAX_LEVEL
    # A partial a float cannot tell from the whole level (5.000…01 read back from a
    # rounded m/s) is no partial.
    partial = float(m)
    return Stat(whole, s, None if partial == whole else partial)


def from_value(value: float | int | str | Decimal) -> Stat:
    """The stat for a real value (already in the stat's unit): ``from_value(80)`` → 8x1."""
    return canonical(value, 0)


def parse_stat(text: str) -> Stat:
    """Parse ``8x1``, ``8×1``, ``10x-1``, ``4.5x1``; ``1x9`` canonicalises to ``10x8``.

    A decimal level is a partial level (from 1 to 15) and is canonicalised:
    ``4.5x1`` → 4x1 (partial 4.5), ``12.0x-1`` → 10x-1 (partial 12).
    """
    m = _STAT_RE.match(str(text))
    if not m:
        raise BadInput(f"not a stat: {text!r} — {ACCEPTED}")
    raw_level, scale = m.group(1), int(m.group(2))
    if abs(scale) > MAX_SCALE:
        raise BadInput(f"scale {scale} is beyond ±{MAX_SCALE} in {text!r} — {ACCEPTED}")
    if "." in raw_level:
        from decimal import Decimal

        exact = Decimal(raw_level)
        if not (1 <= exact <= MAX_PARTIAL):
            raise BadInput(f"partial level {raw_level} is outside 1–{MAX_PARTIAL} in "
                           f"{text!r} — {ACCEPTED}")
        return canonical(exact, scale)
    level = int(raw_level)  # digits alone: a whole level, read without decimal
    if level == 1:
        return Stat(MAX_LEVEL, scale - 1)
    if not (MIN_LEVEL <= level <= MAX_LEVEL):
        raise BadInput(f"level {raw_level} is outside 2–10 in {text!r} — {ACCEPTED}")
    return Stat(int(level), scale)


def order_key(stat: Stat) -> tuple[int, Decimal]:
    """Sort stats by what they stand for: (power of ten, mantissa), exact at any scale."""
    from decimal import Decimal

    lvl = Decimal(stat.level) if stat.partial is None else to_decimal(stat.partial)
    e = lvl.adjusted()
    return (stat.scale + e, lvl.scaleb(-e))


def compare(a: Stat, b: Stat) -> str:
    """``"a"``, ``"b"`` or ``"equal"``: which stat stands for more."""
    ka, kb = order_key(a), order_key(b)
    if ka == kb:
        return "equal"
    return "a" if ka > kb else "b"


def level_bonus(a: Stat, b: Stat) -> int:
    """001 p.5 "Level Bonus": the higher Level gains a bonus equal to their difference.

    Signed: positive when ``a`` has the higher level. Levels are compared as
    written (whole levels), whatever the scales.
    """
    return a.level - b.level


def scale_difference(a: Stat, b: Stat) -> int:
    """How many orders of magnitude ``a``'s scale is above ``b``'s (signed).

    001 p.34 "Compare Scales: IF Power Scale >= Armor Scale THEN Hits:+Difference
    (eg 2x4 > 9x1 = Hits:+3)"; 000 "Conflict > Scale": "Success:+Difference".
    """
    return a.scale - b.scale


def scale_range() -> tuple[int, int]:
    """The scales d2d reads, from an electron to the universe (tables/units.toml)."""
    from d2d_cli import tables

    r = tables.load("units")["range"]
    return int(r["min_scale"]), int(r["max_scale"])


def check_stat_range(stat: Stat) -> Stat:
    """A stat within :func:`scale_range` (docs/rules.md), or BadInput: later views could
    not show it. Here, not in rules/scale/quantities.py, so that reading a session stays light."""
    lo, hi = scale_range()
    if not (lo <= stat.scale <= hi):
        raise BadInput(f"{stat} is beyond the range d2d reads: stats from scale {lo} to +{hi}")
    return stat
