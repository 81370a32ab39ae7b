"""Stat notation: ``<level>x<scale>`` meaning level × 10^scale (DESIGN.md "Stats").

001 p.10 "Stat": "Rank x Scale. Rank - The main number used. Min:2 Max:10.
Scale - The number of zeroes after Rank." 000 "Reference > Units": "Level is an
integer from 2-10 … Partial - IF there is a decimal value THEN the Level also has
a fractional value. It is only used in rare circumstances."

So ``8x1`` = 80, ``10x-1`` = 1.0, ``6x24`` = 6e24. A level of 1 is written by the
rules for the universe and light (001 p.10: ``1x60``, ``1x9``); d2d keeps the
canonical form with a level in 2–10, so ``1x9`` canonicalises to ``10x8``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal

from d2d_cli.errors import BadInput

MIN_LEVEL = 2
MAX_LEVEL = 10

_STAT_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×X]\s*([+-]?\d+)\s*$")

ACCEPTED = (
    "a stat is <level>x<scale> with a level from 2 to 10 (a partial level like 4.5 is "
    "allowed) and a whole-number scale, e.g. 8x1 (=80), 10x-1 (=1.0), 6x24"
)


@dataclass(frozen=True)
class Stat:
    """A stat in canonical form: ``level`` 2–10, ``scale`` any integer.

    ``partial`` is the exact fractional level when the stat stands for a value
    between two whole levels (e.g. 45 kg → level 4, partial 4.5), else None.
    """

    level: int
    scale: int
    partial: float | None = None

    @property
    def exact_level(self) -> float:
        return self.partial if self.partial is not None else float(self.level)

    @property
    def value(self) -> float:
        """The number the stat stands for: level × 10^scale (partial level if any)."""
        return float(Decimal(repr(self.exact_level)).scaleb(self.scale))

    @property
    def magnitude(self) -> tuple[int, float]:
        """A sort key that is exact across any scale (no float overflow)."""
        lvl = self.exact_level
        shift = math.floor(math.log10(lvl))
        return (self.scale + shift, lvl / 10**shift)

    def __str__(self) -> str:
        return format_stat(self)

    def to_json(self) -> dict[str, object]:
        return {
            "stat": str(Stat(self.level, self.scale)),
            "level": self.level,
            "scale": self.scale,
            "partial": self.partial,
        }


def format_stat(stat: Stat, *, partial: bool = False) -> str:
    """``8x1``; with ``partial=True`` and a partial level, ``4.5x1``."""
    if partial and stat.partial is not None:
        return f"{stat.partial:g}x{stat.scale}"
    return f"{stat.level}x{stat.scale}"


def canonical(level: float, scale: int) -> Stat:
    """Bring a level into 2–10 by moving powers of ten into the scale.

    ``1x9`` → ``10x8``; ``20x1`` → ``2x2``. A whole level keeps no partial; a
    fractional one keeps the exact value as ``partial`` and rounds ``level`` to
    the nearest whole level (half down, so 4.5 → 4: the 45 kg rope is Body 4,
    000 "Example > Combat #1").
    """
    if not (level > 0 and math.isfinite(level)):
        raise BadInput(f"a level must be a positive number, not {level!r}")
    # Normalise to a mantissa in [1, 10) first, then pick the nearest whole level.
    shift = math.floor(math.log10(level))
    level, scale = round(level / 10**shift, 9), scale + shift
    if level <= 1.5:
        # Between 10x(s-1) and 2x(s): 1.2 kg is nearer 1.0 = 10x-1 (001 p.8, the sword).
        level, scale = round(level * 10, 9), scale - 1
        whole = MAX_LEVEL
    else:
        whole = min(math.ceil(level - 0.5), MAX_LEVEL)  # nearest, ties down
    partial = None if level == whole else level
    return Stat(whole, scale, partial)


def parse_stat(text: str) -> Stat:
    """Parse ``8x1``, ``8×1``, ``10x-1``, ``4.5x1``; ``1x9`` canonicalises to ``10x8``."""
    m = _STAT_RE.match(str(text))
    if not m:
        raise BadInput(f"not a stat: {text!r} — {ACCEPTED}")
    raw_level, scale = m.group(1), int(m.group(2))
    level = float(raw_level)
    if level == 1 and "." not in raw_level:
        return Stat(10, scale - 1)
    if not (MIN_LEVEL <= level <= MAX_LEVEL):
        raise BadInput(f"level {raw_level} is outside 2–10 in {text!r} — {ACCEPTED}")
    if level.is_integer():
        return Stat(int(level), scale)
    return Stat(math.ceil(level - 0.5), scale, level)


def compare(a: Stat, b: Stat) -> str:
    """``"a"``, ``"b"`` or ``"equal"``: which stat stands for more."""
    ka, kb = a.magnitude, b.magnitude
    if ka == kb:
        return "equal"
    return "a" if ka > kb else "b"


def level_bonus(a: Stat, b: Stat) -> int:
    """001 p.5 "Level Bonus": the higher Level gains a bonus equal to their difference.

    Signed: positive when ``a`` has the higher level.
    """
    return a.level - b.level


def scale_difference(a: Stat, b: Stat) -> int:
    """How many orders of magnitude ``a``'s scale is above ``b``'s (signed)."""
    return a.scale - b.scale
