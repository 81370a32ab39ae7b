"""The notation's tokens and its tree: what an expression is once read (dice, cards,
groups, sums and products, comparisons, keeps, bands) and a card's value in it."""


from __future__ import annotations

from collections.abc import Iterator, Sequence

from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.deck.cards import SUIT_PLAYING, Card
from d2d_cli.rules.roll.notation.limits import (
    DEFAULT_EXPLODE,
    MAX_LABEL,
    MAX_NUMBER,
    MAX_TEXT,
    _bad,
)

# --------------------------------------------------------------------------- tokens


@record
class Tok:
    kind: str  # num word op ( ) { } , cmp ! % .. label arrow comment end
    text: str
    pos: int


_SINGLE = {"+": "op", "-": "op", "*": "op", "/": "op", "(": "(", ")": ")", "{": "{",
           "}": "}", ",": ",", "!": "!", "%": "%"}


# Letters written together are split into these (3cpkh1 → 3 cp kh 1; 4dFkh2 → 4 dF kh 2)
# when the whole run is made of them; any other word (hearts, crit, AH) stays whole.
_PIECES = ("df", "cf", "cp", "kh", "kl", "dh", "dl", "ro", "d", "c", "r", "x")


def _split_word(word: str) -> list[tuple[int, str]]:
    low = word.lower()
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(low):
        piece = next((p for p in _PIECES if low.startswith(p, i)), None)
        if piece is None:
            return [(0, word)]
        out.append((i, word[i:i + len(piece)]))
        i += len(piece)
    return out


def tokenize(text: str) -> list[Tok]:
    """Split ``text`` into tokens (iteratively). ``->`` and ``#`` take the rest."""
    if len(text) > MAX_TEXT:
        raise _bad(f"the expression is {len(text)} characters long; the limit is {MAX_TEXT}")
    out: list[Tok] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "#":
            out.append(Tok("comment", text[i + 1:].strip(), i))
            break
        elif text.startswith("->", i):
            end = text.find("#", i)
            body = text[i + 2:] if end < 0 else text[i + 2:end]
            out.append(Tok("arrow", body, i))
            i = n if end < 0 else end
        else:
            got, i = _scan(text, i)
            out.extend(got)
    out.append(Tok("end", "", n))
    return out


def _label(text: str, i: int) -> tuple[list[Tok], int]:
    """A ``[label]`` starting at ``text[i]``."""
    j = text.find("]", i)
    if j < 0:
        raise _bad("a [label] is not closed", i, text)
    label = text[i + 1:j].strip()
    if len(label) > MAX_LABEL:
        raise _bad(f"labels are at most {MAX_LABEL} characters", i, text)
    return [Tok("label", label, i)], j + 1


def _scan(text: str, i: int) -> tuple[list[Tok], int]:
    """The token(s) starting at ``text[i]`` (not a space, a comment or an arrow), and
    where the next one starts."""
    ch, n = text[i], len(text)
    if ch.isdigit():
        j = i
        while j < n and text[j].isdigit():
            j += 1
        if j - i > 7:
            raise _bad(f"numbers may not exceed {MAX_NUMBER:,}", i, text)
        return [Tok("num", text[i:j], i)], j
    if ch.isalpha() and ch.isascii():
        j = i
        while j < n and text[j].isascii() and text[j].isalpha():
            j += 1
        return [Tok("word", part, i + k) for k, part in _split_word(text[i:j])], j
    if ch == "[":
        return _label(text, i)
    if text.startswith(">=", i) or text.startswith("<=", i):
        return [Tok("cmp", text[i:i + 2], i)], i + 2
    if ch in "<>=":
        return [Tok("cmp", ch, i)], i + 1
    if text.startswith("..", i):
        return [Tok("..", "..", i)], i + 2
    if ch in _SINGLE:
        return [Tok(_SINGLE[ch], ch, i)], i + 1
    raise _bad(f"unexpected character {ch!r}", i, text)


# --------------------------------------------------------------------------- the tree


@record
class Cmp:
    """A compare point: ``>=5``, ``<=2``, ``=6`` (as the interval [lo, hi])."""

    op: str
    value: int

    def test(self, v: int) -> bool:
        if self.op == ">=":
            return v >= self.value
        if self.op == "<=":
            return v <= self.value
        return v == self.value

    def interval(self) -> tuple[float, float]:
        if self.op == ">=":
            return (self.value, float("inf"))
        if self.op == "<=":
            return (float("-inf"), self.value)
        return (self.value, self.value)

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


@record
class CardTest:
    """What a card term counts: a value compare, a suit, or one face (``AH``)."""

    cmp: Cmp | None = None
    suit: str | None = None
    face: str | None = None

    def test(self, card: Card) -> bool:
        if self.cmp is not None:
            return self.cmp.test(card_value(card))
        if self.suit is not None:
            return card.suit == self.suit
        return card.face == self.face

    def by_value(self) -> bool:
        return self.cmp is not None

    def __str__(self) -> str:
        if self.cmp is not None:
            return str(self.cmp)
        return f"={SUIT_PLAYING[self.suit] if self.suit else self.face}"


@record
class Keep:
    """Which of ``n`` values count: drop the ``low`` lowest and the ``high`` highest
    (``kh3`` of 4 drops 1 low; ``dh1dl1`` of 3 keeps the middle one)."""

    n: int
    low: int
    high: int
    written: str

    @property
    def k(self) -> int:
        return self.n - self.low - self.high

    @property
    def keeps_highest(self) -> bool:
        return self.high == 0


class Node:
    """A part of an expression. ``lo``/``hi`` bound its value (checked at parse)."""

    lo: int = 0
    hi: int = 0
    label: str | None = None

    def children(self) -> Sequence[Node]:
        return ()


@record(frozen=False, eq=False)
class Num(Node):
    value: int

    def __post_init__(self) -> None:
        self.lo = self.hi = self.value


@record(frozen=False, eq=False)
class Dice(Node):
    text: str
    count: int
    faces: tuple[int, ...]
    reroll: Cmp | None = None
    reroll_once: bool = False
    explode: Cmp | None = None
    explode_cap: int = DEFAULT_EXPLODE
    keep: Keep | None = None
    success: Cmp | None = None
    label: str | None = None
    allowed: tuple[int, ...] = ()  # faces left after an r reroll

    @property
    def kept(self) -> int:
        return self.keep.k if self.keep else self.count

    def rolls_bound(self) -> int:
        per = (2 if self.reroll is not None else 1) * (
            self.explode_cap + 1 if self.explode is not None else 1)
        return self.count * per


@record(frozen=False, eq=False)
class Cards(Node):
    text: str
    count: int
    source: str  # fate, fresh, poker
    keep: Keep | None = None
    success: CardTest | None = None
    label: str | None = None

    @property
    def kept(self) -> int:
        return self.keep.k if self.keep else self.count


@record(frozen=False, eq=False)
class Group(Node):
    text: str
    members: tuple[Node, ...]
    keep: Keep | None = None
    label: str | None = None

    def children(self) -> Sequence[Node]:
        return self.members


@record(frozen=False, eq=False)
class Sum(Node):
    terms: tuple[tuple[int, Node], ...]  # (+1 or −1, node)

    def children(self) -> Sequence[Node]:
        return [t for _, t in self.terms]


@record(frozen=False, eq=False)
class Prod(Node):
    first: Node
    rest: tuple[tuple[str, Node], ...]  # ("*" or "/", node)

    def children(self) -> Sequence[Node]:
        return [self.first, *(t for _, t in self.rest)]


@record(frozen=False, eq=False)
class Neg(Node):
    inner: Node

    def children(self) -> Sequence[Node]:
        return (self.inner,)


@record
class Band:
    lo: int | None
    hi: int | None
    label: str
    otherwise: bool = False

    def test(self, v: int) -> bool:
        if self.otherwise:
            return True
        return (self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)


@record(frozen=False, eq=False)
class Expression:
    """A parsed roll: the expression and what is read from its total."""

    text: str
    expr: Node
    target: Node | None = None
    per: int | None = None
    max_degrees: int | None = None
    crit: Cmp | None = None
    fumble: Cmp | None = None
    bands: tuple[Band, ...] = ()
    comment: str | None = None
    check: Node | None = None  # the first random term: its value is the "natural"
    atoms: list[Node] = field(default_factory=list)
    fate_cards: int = 0  # cards the roll reveals from the session's Fate deck

    def fate_terms(self) -> int:
        return sum(1 for a in self.atoms if isinstance(a, Cards) and a.source == "fate")


def walk(node: Node) -> Iterator[Node]:
    """Every node under ``node`` (iteratively)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children()))


def card_value(card: Card) -> int:
    """A card's value in a roll: A 1, 2–10, J 11, Q 12, K 13; a Wild 0."""
    return card.number or 0


