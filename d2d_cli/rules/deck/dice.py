"""Reading Fate cards as dice (000 "Reference > Fate > Randomizing").

"Who needs dice? Reveal a Fate and review the result." The printed readings are
implemented as printed, except where they are not uniform over 1..N; those
corrections are in docs/errata.md and marked ``# errata`` below:

* d8 — printed "Same as d4 but IF Red THEN add 4": the colour is fixed by the
  suit, so that reading only ever gives 1, 4, 6 and 7. d2d adds 4 if **Lower**.
* d16 — printed "Same as d8 but IF Lower THEN add 8": Lower is now d8's bit, so
  d16 adds 8 for ranks 7–Q and redraws a King.
* d84, d104, d108 — printed "add 40 if Lower" overlaps the Upper range (d84 would
  give 41 and 42 twice as often and never 83, 84). d2d adds the die's half: 42,
  52 and 54.

Any other N from 2 to 1000 uses a documented redraw procedure (:func:`spec`):
read each card as one of the printed dice (the one that wastes fewest cards),
redraw a value above the largest multiple of N it can give, and take the rest
"mod N". Above 108 two cards are read as one two-digit number in base 108.
"""

from __future__ import annotations

from collections.abc import Callable

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import SUITS, Card
from d2d_cli.rules.deck.fate import OutOfCards, Revealer, check_count

MIN_SIDES, MAX_SIDES = 2, 1000
PRINTED = (2, 4, 8, 10, 12, 13, 16, 40, 42, 52, 54, 80, 84, 104, 108)

Reading = Callable[[Card], "int | None"]


def _suit(c: Card) -> int:
    assert c.suit is not None
    return SUITS.index(c.suit)


def _num(c: Card) -> int:
    assert c.number is not None
    return c.number


def _lower(c: Card) -> int:
    return 0 if c.upper else 1


def _d2(c: Card) -> int | None:
    return 1 if c.color == "black" else 2  # Black is Heads (1), Red is Tails (2)


def _d4(c: Card) -> int | None:
    return None if c.is_wild else _suit(c) + 1


def _d8(c: Card) -> int | None:
    v = _d4(c)
    return None if v is None else v + 4 * _lower(c)  # errata: printed "IF Red"


def _upto(limit: int) -> Reading:
    def read(c: Card) -> int | None:
        return None if c.is_wild or _num(c) > limit else _num(c)

    return read


def _d16(c: Card) -> int | None:
    v = _d8(c)
    if v is None or _num(c) == 13:
        return None  # errata: a King is redrawn
    return v + (8 if 7 <= _num(c) <= 12 else 0)  # errata: printed "IF Lower"


def _by_suit(base: Reading, width: int, wilds: bool) -> Reading:
    """"IF Coins, Cups, Swords THEN add 1×, 2×, 3× width"; ``wilds``: "plus W"."""

    def read(c: Card) -> int | None:
        if c.is_wild:
            if not wilds:
                return None
            return 4 * width + (1 if c.color == "black" else 2)
        v = base(c)
        return None if v is None else v + width * _suit(c)

    return read


def _lower_adds(base: Reading, add: int) -> Reading:
    def read(c: Card) -> int | None:
        v = base(c)
        return None if v is None else v + add * _lower(c)

    return read


_d10, _d12, _d13 = _upto(10), _upto(12), _upto(13)
_d40 = _by_suit(_d10, 10, wilds=False)
_d42 = _by_suit(_d10, 10, wilds=True)
_d52 = _by_suit(_d13, 13, wilds=False)
_d54 = _by_suit(_d13, 13, wilds=True)

READINGS: dict[int, Reading] = {
    2: _d2, 4: _d4, 8: _d8, 10: _d10, 12: _d12, 13: _d13, 16: _d16,
    40: _d40, 42: _d42, 52: _d52, 54: _d54,
    80: _lower_adds(_d40, 40),
    84: _lower_adds(_d42, 42),  # errata: printed 40
    104: _lower_adds(_d52, 52),  # errata: printed 40
    108: _lower_adds(_d54, 54),  # errata: printed 40
}

HOW = {
    2: "Coin toss: black (♣ ♠, black Wild) is 1/Heads, red (♦ ♥, red Wild) is 2/Tails.",
    4: "Suit: Wands/♣ 1, Coins/♦ 2, Cups/♥ 3, Swords/♠ 4. Wild: redraw.",
    8: "As d4 (♣ 1, ♦ 2, ♥ 3, ♠ 4); if the card is Lower add 4. Wild: redraw.",
    10: "Rank: A is 1, 2–10 as printed. J, Q, K, Wild: redraw.",
    12: "Rank: A is 1, 2–10 as printed, J 11, Q 12. K, Wild: redraw.",
    13: "Rank: A is 1, 2–10 as printed, J 11, Q 12, K 13. Wild: redraw.",
    16: "As d8 (suit, +4 if Lower); add 8 if the rank is 7–Q. K, Wild: redraw.",
    40: "As d10 (A–10); add 10 for Coins/♦, 20 for Cups/♥, 30 for Swords/♠. "
        "J, Q, K, Wild: redraw.",
    42: "As d40; the black Wild is 41, the red Wild 42. J, Q, K: redraw.",
    52: "As d13 (A–K); add 13 for Coins/♦, 26 for Cups/♥, 39 for Swords/♠. Wild: redraw.",
    54: "As d52; the black Wild is 53, the red Wild 54. Never a redraw.",
    80: "As d40; add 40 if the card is Lower. J, Q, K, Wild: redraw.",
    84: "As d42; add 42 if the card is Lower. J, Q, K: redraw.",
    104: "As d52; add 52 if the card is Lower. Wild: redraw.",
    108: "As d54; add 54 if the card is Lower. Never a redraw.",
}

OUTCOMES = 108  # 54 cards × 2 orientations, all equally likely


def _accepted(n: int) -> int:
    """How many of the 108 outcomes the printed reading dN maps to a value."""
    from d2d_cli.rules.deck.cards import all_outcomes

    return sum(1 for c in all_outcomes() if READINGS[n](c) is not None)


_ACCEPTED = {  # computed once from the readings above; tests check these equal _accepted
    2: 108, 4: 104, 8: 104, 10: 80, 12: 96, 13: 104, 16: 96, 40: 80, 42: 84,
    52: 104, 54: 108, 80: 80, 84: 84, 104: 104, 108: 108,
}


@record
class DieSpec:
    """How dN is read. ``base`` is the printed die each card is read as; ``cards``
    is how many cards make one try (2 for N > 108); a try whose value is above
    ``limit`` is redrawn; otherwise the result is ``(v - 1) % n + 1``."""

    n: int
    base: int
    cards: int
    limit: int

    @property
    def printed(self) -> bool:
        return self.n in READINGS

    @property
    def accept_probability(self) -> float:
        per_card = _ACCEPTED[self.base] / OUTCOMES
        return float(per_card**self.cards * self.limit / self.base**self.cards)


def parse_die(text: str) -> int:
    t = text.strip().lower()
    digits = t[1:] if t.startswith("d") else t
    if not digits.isdigit():
        raise BadInput(f"not a die: {text!r} — give dN with N from {MIN_SIDES} to {MAX_SIDES}, "
                       "e.g. d10, d54, d6")
    n = int(digits)
    if not MIN_SIDES <= n <= MAX_SIDES:
        raise BadInput(f"no die d{n}: N must be from {MIN_SIDES} to {MAX_SIDES}")
    return n


def spec(n: int) -> DieSpec:
    if not MIN_SIDES <= n <= MAX_SIDES:
        raise BadInput(f"no die d{n}: N must be from {MIN_SIDES} to {MAX_SIDES}")
    if n in READINGS:
        return DieSpec(n, n, 1, n)
    if n > OUTCOMES:
        return DieSpec(n, 108, 2, n * (108 * 108 // n))
    # Fewest expected cards first; on a tie, the smaller die (easier to read by hand).
    best = max(
        (DieSpec(n, b, 1, n * (b // n)) for b in PRINTED if b >= n),
        key=lambda s: (round(s.accept_probability, 12), -s.base),
    )
    return best


def read(s: DieSpec, cards: list[Card]) -> int | None:
    """The value of one try (``s.cards`` cards), or None: redraw."""
    if len(cards) != s.cards:
        raise BadInput(f"d{s.n} reads {s.cards} card(s) at a time, got {len(cards)}")
    v = 0
    for c in cards:
        part = READINGS[s.base](c)
        if part is None:
            return None
        v = v * s.base + (part - 1)
    v += 1
    if v > s.limit:
        return None
    return (v - 1) % s.n + 1


@record(frozen=False)
class Roll:
    value: int | None  # None: the table's cards ran out before a value ("redraw")
    cards: list[Card]
    redraws: int


def roll(s: DieSpec, reveal: Callable[[], Card], max_tries: int = 200) -> Roll:
    """Reveal cards until a try gives a value (redraws happen automatically). Running out
    of table cards (``fate.OutOfCards``) propagates."""
    used: list[Card] = []
    for tries in range(max_tries):
        group: list[Card] = []
        for _ in range(s.cards):
            c = reveal()
            group.append(c)
            used.append(c)
        value = read(s, group)
        if value is not None:
            return Roll(value, used, tries)
    raise BadInput(f"d{s.n}: no value after {max_tries} tries")  # pragma: no cover


def roll_many(s: DieSpec, count: int, reveal: Callable[[], Card]) -> list[Roll]:
    """``count`` dice; at the table, cards that run out mid-die read as "redraw": the
    last roll has no value and holds the cards it read (000: reveal another card)."""
    rolls: list[Roll] = []
    used: list[Card] = []

    def tracked() -> Card:
        card = reveal()
        used.append(card)
        return card

    for _ in range(count):
        used.clear()
        try:
            rolls.append(roll(s, tracked))
        except OutOfCards:
            rolls.append(Roll(None, list(used), len(used) // s.cards))
            break
    return rolls


_D108_SHORT = "♣ A–K 1–13, ♦ +13, ♥ +26, ♠ +39, black Wild 53, red Wild 54; +54 if Lower"


def explain(s: DieSpec) -> str:
    """How to read the card(s) at the table by hand."""
    if s.printed:
        return f"d{s.n}: {HOW[s.n]}"
    base = f"Read the card as a d{s.base} — {HOW[s.base].replace(' Never a redraw.', '')}"
    if s.cards == 2:
        return (
            f"d{s.n}: reveal two cards and read each as a d108 ({_D108_SHORT}) giving H and L; "
            f"the try is V = (H − 1) × 108 + L (1–11664). If V is above {s.limit}, redraw "
            f"both. Otherwise the result is V reduced by {s.n} until it is {s.n} or less."
        )
    tail = (
        f" If the value is above {s.limit}, redraw." if s.limit < s.base else ""
    )
    reduce = (
        f" Then subtract {s.n} until it is {s.n} or less." if s.limit > s.n else ""
    )
    return f"d{s.n}: {base}{tail}{reduce}"


# --------------------------------------------------------------------------- results


@record
class DieRoll(Result):
    """One die: its value (None: "redraw", the table's cards ran out), the cards it read
    (codes) and how many tries were redrawn."""

    value: int | None
    cards: tuple[str, ...]
    redraws: int


@record
class Thrown(Result):
    """``fate die``: the values, every card revealed, each die's reading."""

    die: str
    values: tuple[int, ...]
    cards: tuple[Card, ...]
    rolls: tuple[DieRoll, ...]
    redraw: bool
    reshuffled: bool
    explain: str | None
    advantage: str = "normal"
    kept: tuple[int, ...] = ()  # the indexes of ``rolls`` that count (the others dropped)


def check(sides: str, count: int) -> DieSpec:
    """``fate die``'s options, checked before any card is revealed: the die (``d10``) and
    how many."""
    s = spec(parse_die(sides))
    check_count(count, "--count")
    return s


def throw(s: DieSpec, count: int, reveal: Revealer, explain_it: bool = False,
          mode: str = "normal") -> Thrown:
    """``count`` dice read from ``reveal``; with ``explain_it``, how to read them by hand.
    With Advantage (Disadvantage) each die is read twice and the higher (lower) value
    kept — 000 l.1122 "Reveal another Conflict and take the best result", read for a
    die as its value (docs/rules.md)."""
    from d2d_cli.rules.deck import advantage

    per = 1 if mode == advantage.NORMAL else 2
    rolls = roll_many(s, check_count(count, "--count") * per, reveal)
    kept: list[int] = []
    for first in range(0, len(rolls), per):
        pair = rolls[first:first + per]
        if any(r.value is None for r in pair):  # table cards ran out: a redraw, kept
            kept.append(first + len(pair) - 1)
            break
        kept.append(first + advantage.keep(pair, mode, lambda r: r.value))
    return Thrown(
        die=f"d{s.n}",
        values=tuple(v for i in kept if (v := rolls[i].value) is not None),
        cards=tuple(reveal.used),
        rolls=tuple(DieRoll(r.value, tuple(c.code for c in r.cards), r.redraws)
                    for r in rolls),
        redraw=any(r.value is None for r in rolls),
        reshuffled=reveal.reshuffled,
        explain=explain(s) if explain_it else None,
        advantage=mode,
        kept=tuple(kept),
    )
