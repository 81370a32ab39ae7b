"""``d2d roll``: a dice and deck notation, rolled or read as an exact distribution.

The notation (docs/rules.md "Dice notation" has the whole grammar)::

    4d6kh3            keep the 3 highest of 4d6 (kh kl dh dl; the count defaults to 1)
    d20 + 5[str]      arithmetic (+ - * /, / rounds down), grouping ( ), [labels]
    d%  dF  d{1,1,2,3}  d{11..20}   percentile, Fudge, custom faces
    d6!  d6!>=5x3     explode on the highest face (or on >=N, <=N, =N), at most x10 times
    d6r1  d6ro<=2     reroll (until it is not) / reroll once
    6d6>=5            count successes (>= <= =; a bare > or < is refused as ambiguous)
    {d20, d{11..20}}kh1   keep among whole expressions
    3c  3cf  3cp=hearts   cards: the session's Fate deck, a fresh Fate deck, a poker deck
    d20+3 vs 15 per 5 max 5 crit 20 fumble 1   success, degrees, natural crit/fumble
    d20 -> 1: fail, 2-7: worse, 8..13: normal, 14+: better, else: other   bands
    # comment          everything after # is a comment

Everything is bounded before any work (the ``MAX_*`` limits below): the text's length and
nesting, dice counts and faces, explosion caps, the rolls one roll can make, the
size of values, and the work of an exact distribution. Anything beyond is refused
with :class:`BadInput` (exit 2). The parser is a hand-written recursive descent
whose depth is bounded by the nesting limit; sums and products are flat lists, so
no input can exhaust the stack.

Modifiers of a dice term apply in one fixed order whatever order they are written
in: reroll, explode, keep/drop, count.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import compress
from math import comb, log2

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.probability import Dist, Probability, keep_highest
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import RANKS, SUIT_LETTER, SUIT_PLAYING, SUIT_SYMBOL, SUITS, Card

# --------------------------------------------------------------------------- limits

MAX_TEXT = 1000  # characters of one expression
MAX_DEPTH = 16  # nested ( ) and { }
MAX_ATOMS = 100  # numbers, dice, cards and groups in one expression
MAX_DICE = 1000  # dice in one term
MAX_SIDES = 10_000  # faces of dN
MAX_FACES = 100  # faces of d{…}
MAX_NUMBER = 1_000_000  # any number written
MAX_EXPLODE = 100  # the largest explosion cap
DEFAULT_EXPLODE = 10  # explosions per die when no xN is given
MAX_ROLLS = 100_000  # dice one roll may roll in the worst case (explosions, rerolls)
MAX_GROUP = 20  # members of { … }
MAX_MAGNITUDE = 10**12  # the largest value any part of an expression may reach
MAX_LABEL = 40
MAX_BANDS = 50
MAX_ODDS_SECONDS = 0.5  # the estimated work of an exact distribution (estimate())
MAX_ODDS_SPAN = 200_000  # distinct totals of an exact distribution
MAX_GROUP_OUTCOMES = 200_000  # joint outcomes enumerated by a kept group


CARD_SOURCES = {"c": "fate", "cf": "fresh", "cp": "poker"}
DECK_SIZES = {"fate": 54, "fresh": 54, "poker": 52}
_SUITS: dict[str, str] = {}
for _s in SUITS:
    for _w in (_s, _s[:-1], SUIT_PLAYING[_s], SUIT_PLAYING[_s][:-1], SUIT_LETTER[_s],
               SUIT_SYMBOL[_s]):
        _SUITS[_w.lower()] = _s


def _bad(msg: str, pos: int | None = None, text: str = "") -> BadInput:
    where = f" at column {pos + 1}" if pos is not None else ""
    near = f" (near {text[pos:pos + 12]!r})" if pos is not None and text else ""
    return BadInput(f"roll: {msg}{where}{near}")


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
        elif ch.isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j - i > 7:
                raise _bad(f"numbers may not exceed {MAX_NUMBER:,}", i, text)
            out.append(Tok("num", text[i:j], i))
            i = j
        elif ch.isalpha() and ch.isascii():
            j = i
            while j < n and text[j].isascii() and text[j].isalpha():
                j += 1
            for k, part in _split_word(text[i:j]):
                out.append(Tok("word", part, i + k))
            i = j
        elif ch == "[":
            j = text.find("]", i)
            if j < 0:
                raise _bad("a [label] is not closed", i, text)
            label = text[i + 1:j].strip()
            if len(label) > MAX_LABEL:
                raise _bad(f"labels are at most {MAX_LABEL} characters", i, text)
            out.append(Tok("label", label, i))
            i = j + 1
        elif text.startswith(">=", i) or text.startswith("<=", i):
            out.append(Tok("cmp", text[i:i + 2], i))
            i += 2
        elif ch in "<>=":
            out.append(Tok("cmp", ch, i))
            i += 1
        elif text.startswith("..", i):
            out.append(Tok("..", "..", i))
            i += 2
        elif ch in _SINGLE:
            out.append(Tok(_SINGLE[ch], ch, i))
            i += 1
        else:
            raise _bad(f"unexpected character {ch!r}", i, text)
    out.append(Tok("end", "", n))
    return out


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


# --------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = tokenize(text)
        self.i = 0
        self.depth = 0
        self.atoms: list[Node] = []

    # -- helpers
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def next(self) -> Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def bad(self, msg: str, tok: Tok | None = None) -> BadInput:
        t = tok or self.tok
        return _bad(msg, t.pos, self.text)

    def word(self, *words: str) -> bool:
        return self.tok.kind == "word" and self.tok.text.lower() in words

    def number(self, what: str) -> int:
        t = self.tok
        if t.kind != "num":
            raise self.bad(f"expected a number for {what}")
        self.i += 1
        v = int(t.text)
        if v > MAX_NUMBER:
            raise self.bad(f"{what} may not exceed {MAX_NUMBER:,}", t)
        return v

    def signed(self, what: str) -> int:
        sign = 1
        if self.tok.kind == "op" and self.tok.text == "-":
            self.i += 1
            sign = -1
        return sign * self.number(what)

    def cmp(self, what: str, *, bare_equals: bool) -> Cmp:
        t = self.tok
        if t.kind == "cmp":
            if t.text in (">", "<"):
                raise self.bad(f"a bare {t.text} is ambiguous: write {t.text}= (or =)")
            self.i += 1
            return Cmp(t.text, self.signed(what))
        if bare_equals and (t.kind == "num" or (t.kind == "op" and t.text == "-")):
            return Cmp("=", self.signed(what))
        raise self.bad(f"expected a compare point (>=N, <=N or =N) for {what}")

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.bad(f"more than {MAX_DEPTH} nested brackets")

    # -- grammar
    def parse(self) -> Expression:
        expr = self.expr()
        out = Expression(self.text.strip(), expr)
        if self.word("vs"):
            self.i += 1
            out.target = self.expr()
            if self.word("per"):
                self.i += 1
                out.per = self.number("per")
                if out.per < 1:
                    raise self.bad("per must be 1 or more")
            if self.word("max"):
                self.i += 1
                out.max_degrees = self.number("max")
                if out.max_degrees < 1:
                    raise self.bad("max must be 1 or more")
        while self.word("crit", "fumble"):
            which = self.next().text.lower()
            if getattr(out, which) is not None:
                raise self.bad(f"{which} is given twice")
            setattr(out, which, self.cmp(which, bare_equals=True))
        if self.tok.kind == "arrow":
            out.bands = self.bands(self.next())
        if self.tok.kind == "comment":
            out.comment = self.next().text or None
        if self.tok.kind != "end":
            raise self.bad(f"unexpected {self.tok.text!r}")
        out.atoms = self.atoms
        # the natural value: the first die, card or group term as read, outermost first
        out.check = next((n for n in walk(expr) if isinstance(n, (Dice, Cards, Group))),
                         None)
        if (out.crit or out.fumble) and out.check is None:
            raise _bad("crit and fumble read the natural value of the first die or card "
                       "term, and this expression has none")
        if out.crit and out.fumble:
            (a, b), (c, d) = out.crit.interval(), out.fumble.interval()
            if max(a, c) <= min(b, d):
                raise _bad(f"crit {out.crit} and fumble {out.fumble} overlap")
        if (out.per or out.max_degrees) and out.target is None:
            raise _bad("per and max need a target: … vs TARGET per N")
        check_bounds(out)
        return out

    def expr(self) -> Node:
        terms: list[tuple[int, Node]] = [(1, self.term())]
        while self.tok.kind == "op" and self.tok.text in "+-":
            sign = 1 if self.next().text == "+" else -1
            terms.append((sign, self.term()))
        if len(terms) == 1:
            return terms[0][1]
        node = Sum(tuple(terms))
        node.lo = sum(t.lo if s > 0 else -t.hi for s, t in terms)
        node.hi = sum(t.hi if s > 0 else -t.lo for s, t in terms)
        _check_magnitude(node, self)
        return node

    def term(self) -> Node:
        first = self.factor()
        rest: list[tuple[str, Node]] = []
        lo, hi = first.lo, first.hi
        while self.tok.kind == "op" and self.tok.text in "*/":
            op = self.next().text
            f = self.factor()
            rest.append((op, f))
            if op == "*":
                corners = [a * b for a in (lo, hi) for b in (f.lo, f.hi)]
                lo, hi = min(corners), max(corners)
            else:  # floor division: |x // y| ≤ |x| for |y| ≥ 1, and x // −1 = −x
                m = max(abs(lo), abs(hi)) + 1
                lo, hi = -m, m
            if max(abs(lo), abs(hi)) > MAX_MAGNITUDE:
                raise self.bad(f"values could pass ±{MAX_MAGNITUDE:.0e}")
        if not rest:
            return first
        node = Prod(first, tuple(rest))
        node.lo, node.hi = lo, hi
        return node

    def factor(self) -> Node:
        negs = 0
        while self.tok.kind == "op" and self.tok.text in "+-":  # iterative: no recursion
            negs += self.next().text == "-"
        node = self.atom()
        if self.tok.kind == "label":
            node.label = self.next().text
        if negs % 2:
            inner = node
            node = Neg(inner)
            node.lo, node.hi = -inner.hi, -inner.lo
        return node

    def atom(self) -> Node:
        t = self.tok
        node: Node
        if t.kind == "(":
            self.i += 1
            self.enter()
            node = self.expr()
            if self.tok.kind != ")":
                raise self.bad("expected )")
            self.i += 1
            self.depth -= 1
            return node
        if t.kind == "{":
            node = self.group()
        elif t.kind == "num" and self.toks[self.i + 1].kind == "word" and \
                self.toks[self.i + 1].pos == t.pos + len(t.text) and \
                self.toks[self.i + 1].text.lower() in ("d", "df", *CARD_SOURCES):
            count = self.number("the count")
            node = self.dice_or_cards(count, t)
        elif t.kind == "num":
            node = Num(self.number("a number"))
        elif t.kind == "word" and t.text.lower() in ("d", "df", *CARD_SOURCES):
            node = self.dice_or_cards(1, t)
        elif t.kind == "end":
            raise self.bad("the expression ends too early")
        else:
            raise self.bad(f"expected a number, a die (d6), cards (3c) or ( — not "
                           f"{t.text!r}")
        self.atoms.append(node)
        if len(self.atoms) > MAX_ATOMS:
            raise self.bad(f"more than {MAX_ATOMS} numbers, dice and cards")
        return node

    def group(self) -> Node:
        start = self.next()
        self.enter()
        members = [self.expr()]
        while self.tok.kind == ",":
            self.i += 1
            members.append(self.expr())
            if len(members) > MAX_GROUP:
                raise self.bad(f"a {{group}} holds at most {MAX_GROUP} members")
        if self.tok.kind != "}":
            raise self.bad("expected } or ,")
        self.i += 1
        self.depth -= 1
        keep = (self.keep(len(members), both_ends=True)
                if self.word("kh", "kl", "dh", "dl") else None)
        node = Group(self.text[start.pos:self.tok.pos].strip(), tuple(members), keep)
        k = keep.k if keep else len(members)
        los = sorted(m.lo for m in members)
        his = sorted((m.hi for m in members), reverse=True)
        node.lo, node.hi = sum(los[:k]), sum(his[:k])
        return node

    def keep(self, n: int, *, both_ends: bool = False) -> Keep:
        """kh kl dh dl [N]; with ``both_ends`` (a group) a dh and a dl may follow each
        other, dropping from both ends."""
        t = self.next()
        keep = self._keep_one(t, n)
        if both_ends and self.word("dh", "dl") and t.text.lower() in ("dh", "dl") and \
                self.tok.text.lower() != t.text.lower():
            t2 = self.next()
            other = self._keep_one(t2, n)
            keep = Keep(n, keep.low + other.low, keep.high + other.high,
                        keep.written + other.written)
            if keep.k < 1:
                raise self.bad(f"{keep.written}: keep at least one of {n}", t2)
        return keep

    def _keep_one(self, t: Tok, n: int) -> Keep:
        mode = t.text.lower()
        k = self.number(mode) if self.tok.kind == "num" else 1
        if mode in ("kh", "kl"):
            if not 1 <= k <= n:
                raise self.bad(f"{mode}{k}: keep from 1 to {n}", t)
            return Keep(n, n - k, 0, f"{mode}{k}") if mode == "kh" else \
                Keep(n, 0, n - k, f"{mode}{k}")
        if not 0 <= k < n:
            raise self.bad(f"{mode}{k}: drop from 0 to {n - 1} (keep at least one)", t)
        return Keep(n, k, 0, f"{mode}{k}") if mode == "dl" else Keep(n, 0, k, f"{mode}{k}")

    def dice_or_cards(self, count: int, start: Tok) -> Node:
        word = self.next()
        kind = word.text.lower()
        if kind in CARD_SOURCES:
            return self.cards(count, CARD_SOURCES[kind], start)
        if count < 1 or count > MAX_DICE:
            raise self.bad(f"roll from 1 to {MAX_DICE} dice at a time, not {count}", start)
        if kind == "df":
            faces: tuple[int, ...] = (-1, 0, 1)
        elif self.tok.kind == "%":
            self.i += 1
            faces = tuple(range(1, 101))
        elif self.tok.kind == "{":
            faces = self.faces()
        elif self.tok.kind == "num":
            sides = self.number("the sides")
            if not 1 <= sides <= MAX_SIDES:
                raise self.bad(f"a die has 1 to {MAX_SIDES} sides, not {sides}", start)
            faces = tuple(range(1, sides + 1))
        else:
            raise self.bad("expected the sides after d: d6, d%, dF or d{1,2,3}")
        return self.dice_mods(Dice("", count, faces), start)

    def faces(self) -> tuple[int, ...]:
        open_ = self.next()
        out: list[int] = []
        while True:
            a = self.signed("a face")
            if self.tok.kind == "..":
                self.i += 1
                b = self.signed("a face")
                if b < a or b - a >= MAX_FACES:
                    raise self.bad(f"a face range runs upwards over at most {MAX_FACES} "
                                   "values")
                out.extend(range(a, b + 1))
            else:
                out.append(a)
            if len(out) > MAX_FACES:
                raise self.bad(f"a die has at most {MAX_FACES} faces", open_)
            if self.tok.kind == "}":
                self.i += 1
                return tuple(out)
            if self.tok.kind != ",":
                raise self.bad("expected , or } in the faces")
            self.i += 1

    def dice_mods(self, d: Dice, start: Tok) -> Node:
        seen: set[str] = set()

        def once(what: str, tok: Tok) -> None:
            if what in seen:
                raise self.bad(f"{what} is given twice on one term", tok)
            seen.add(what)

        while True:
            t = self.tok
            if self.word("r", "ro"):
                once("reroll", t)
                self.i += 1
                d.reroll_once = t.text.lower() == "ro"
                d.reroll = self.cmp("a reroll", bare_equals=True)
            elif t.kind == "!":
                once("explode", t)
                self.i += 1
                d.explode = (self.cmp("an explosion", bare_equals=False)
                             if self.tok.kind == "cmp" else Cmp("=", max(d.faces)))
                if self.word("x"):
                    self.i += 1
                    d.explode_cap = self.number("the explosion cap")
                    if not 1 <= d.explode_cap <= MAX_EXPLODE:
                        raise self.bad(f"an explosion cap is 1 to {MAX_EXPLODE}")
            elif self.word("kh", "kl", "dh", "dl"):
                once("keep", t)
                d.keep = self.keep(d.count)
            elif t.kind == "cmp":
                once("count", t)
                d.success = self.cmp("counting successes", bare_equals=False)
            else:
                break
        d.text = self.text[start.pos:self.tok.pos].strip()
        if d.reroll is not None and not d.reroll_once:
            d.allowed = tuple(f for f in d.faces if not d.reroll.test(f))
            if not d.allowed:
                raise self.bad(f"{d.text}: r{d.reroll} rerolls every face forever "
                               "(ro rerolls once)", start)
        fmin, fmax = min(d.faces), max(d.faces)
        if d.explode is not None:
            fmin, fmax = min(fmin, fmin * (d.explode_cap + 1)), max(fmax, fmax *
                                                                    (d.explode_cap + 1))
        if d.success is not None:
            d.lo, d.hi = 0, d.kept
        else:
            d.lo, d.hi = fmin * d.kept, fmax * d.kept
        _check_magnitude(d, self)
        return d

    def cards(self, count: int, source: str, start: Tok) -> Node:
        size = DECK_SIZES[source]
        if not 1 <= count <= size:
            raise self.bad(f"draw 1 to {size} cards from {_DECK_NAMES[source]}, not {count}",
                           start)
        c = Cards("", count, source)
        while True:
            t = self.tok
            if self.word("kh", "kl", "dh", "dl"):
                if c.keep is not None:
                    raise self.bad("keep is given twice on one term")
                c.keep = self.keep(count)
            elif t.kind == "cmp":
                if c.success is not None:
                    raise self.bad("count is given twice on one term")
                c.success = self.card_test()
            else:
                break
        c.text = self.text[start.pos:self.tok.pos].strip()
        if c.keep is not None and c.success is not None and not c.success.by_value():
            raise self.bad(f"{c.text}: keeping cards and counting a suit or a face "
                           "together is ambiguous (which of two equal ranks is kept?)", start)
        c.lo, c.hi = (0, c.kept) if c.success is not None else (0, 13 * c.kept)
        return c

    def card_test(self) -> CardTest:
        t = self.tok
        if t.text in (">", "<"):
            raise self.bad(f"a bare {t.text} is ambiguous: write {t.text}= (or =)")
        if t.text != "=" or self.toks[self.i + 1].kind not in ("word", "num"):
            return CardTest(cmp=self.cmp("counting cards", bare_equals=False))
        self.i += 1
        nxt = self.tok
        if nxt.kind == "word" and nxt.text.lower() in _SUITS:
            self.i += 1
            return CardTest(suit=_SUITS[nxt.text.lower()])
        # a face: AH, KS, QD, JC or 10H (a number and a suit written together)
        rank: str | None = None
        if nxt.kind == "word" and nxt.text[0].upper() in "AJQK" and \
                nxt.text[1:].lower() in _SUITS:
            rank, suit_word = nxt.text[0].upper(), nxt.text[1:].lower()
            self.i += 1
        elif nxt.kind == "num" and self.toks[self.i + 1].kind == "word" and \
                self.toks[self.i + 1].pos == nxt.pos + len(nxt.text) and \
                self.toks[self.i + 1].text.lower() in _SUITS:
            rank, suit_word = nxt.text, self.toks[self.i + 1].text.lower()
            self.i += 2
        else:
            return CardTest(cmp=Cmp("=", self.signed("counting cards")))
        if rank not in RANKS:
            raise self.bad(f"no rank {rank}", nxt)
        return CardTest(face=f"{rank}{SUIT_LETTER[_SUITS[suit_word]]}")

    def bands(self, tok: Tok) -> tuple[Band, ...]:
        out: list[Band] = []
        parts = tok.text.split(",")
        if len(parts) > MAX_BANDS:
            raise _bad(f"at most {MAX_BANDS} bands", tok.pos, self.text)
        for part in parts:
            if ":" not in part:
                raise _bad(f"a band is RANGE: LABEL (e.g. 2-7: worse), not {part.strip()!r}",
                           tok.pos, self.text)
            rng, label = (x.strip() for x in part.split(":", 1))
            if not label or len(label) > MAX_LABEL:
                raise _bad(f"a band's label is 1 to {MAX_LABEL} characters: {part.strip()!r}",
                           tok.pos, self.text)
            out.append(_band(rng, label, tok.pos, self.text))
        return tuple(out)


_DECK_NAMES = {"fate": "the Fate deck", "fresh": "a fresh Fate deck",
               "poker": "a poker deck"}


def _int(s: str, pos: int, text: str) -> int:
    s = s.strip()
    body = s[1:] if s.startswith("-") else s
    if not body.isdigit() or len(body) > 7:
        raise _bad(f"not a whole number in a band: {s!r}", pos, text)
    return int(s)


def _band(rng: str, label: str, pos: int, text: str) -> Band:
    r = rng.replace(" ", "")
    if r.lower() == "else":
        return Band(None, None, label, otherwise=True)
    if ".." in r:
        a, b = r.split("..", 1)
        return Band(_int(a, pos, text) if a else None, _int(b, pos, text) if b else None,
                    label)
    if r.endswith("+"):
        return Band(_int(r[:-1], pos, text), None, label)
    # N or N-M (each may be negative: -3--1)
    for i in range(1, len(r)):
        if r[i] == "-" and r[i - 1].isdigit():
            lo, hi = _int(r[:i], pos, text), _int(r[i + 1:], pos, text)
            if hi < lo:
                raise _bad(f"a band runs upwards: {rng!r}", pos, text)
            return Band(lo, hi, label)
    v = _int(r, pos, text)
    return Band(v, v, label)


def _check_magnitude(node: Node, p: _Parser) -> None:
    if max(abs(node.lo), abs(node.hi)) > MAX_MAGNITUDE:
        raise p.bad(f"values could pass ±{MAX_MAGNITUDE:.0e}")


def check_bounds(e: Expression) -> None:
    """The worst-case rolls of one roll, across every term."""
    rolls = sum(a.rolls_bound() for a in e.atoms if isinstance(a, Dice))
    if rolls > MAX_ROLLS:
        raise _bad(f"this roll could roll {rolls:,} dice (explosions and rerolls "
                   f"included); the limit is {MAX_ROLLS:,}")
    fate = sum(a.count for a in e.atoms if isinstance(a, Cards) and a.source == "fate")
    e.fate_cards = fate
    if fate > 100:
        raise _bad(f"this roll draws {fate} Fate cards; the limit is 100")


def parse(text: str) -> Expression:
    """Parse a roll expression; every limit is checked here, before any work."""
    if not text.strip():
        raise _bad("give an expression, e.g. 4d6kh3 or d20+5 vs 15")
    return _Parser(text).parse()


# --------------------------------------------------------------------------- rolling


def card_value(card: Card) -> int:
    """A card's value in a roll: A 1, 2–10, J 11, Q 12, K 13; a Wild 0."""
    return card.number or 0


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


def odds(e: Expression, fate: FateCounts | None = None, *, deck: str | None = None,
         system: str | None = None, procedure: str | None = None) -> RollOdds:
    """The exact distribution of ``e``: totals, and success, degrees, crit, fumble and
    bands when the expression reads them. Fate-deck cards come from ``fate`` (the
    session's draw pile as a set; a full deck when None)."""
    check_odds(e, len(fate.pile) if fate else 54)
    calc = _Odds(fate)
    # Split on the natural value of the check term: crit, fumble, neither.
    flags: list[tuple[str, Dist]] = []
    if e.crit or e.fumble:
        assert e.check is not None
        nat = calc.dist(e.check)
        crit, fumble = e.crit, e.fumble

        def flag_of(v: int) -> str:
            if crit is not None and crit.test(v):
                return "crit"
            return "fumble" if fumble is not None and fumble.test(v) else ""

        for flag in ("crit", "fumble", ""):
            part = Dist({v: n for v, n in nat.weights.items() if flag_of(v) == flag})
            if part.weights:
                calc.override = (e.check, part)
                flags.append((flag, calc.dist(e.expr)))
        calc.override = None
    else:
        flags.append(("", calc.dist(e.expr)))
    denom = sum(d.total for _, d in flags)
    totals: dict[int, int] = {}
    for _, d in flags:
        for v, n in d.weights.items():
            totals[v] = totals.get(v, 0) + n
    outcomes = tuple(Outcome(v, Probability.of(Fraction(n, denom)))
                     for v, n in sorted(totals.items()))
    mean = Fraction(sum(v * n for v, n in totals.items()), denom)
    success = deg_rows = crit_p = fumble_p = None
    if e.crit or e.fumble:
        crit_p = Probability.of(Fraction(sum(d.total for f, d in flags if f == "crit"),
                                         denom))
        fumble_p = Probability.of(Fraction(sum(d.total for f, d in flags if f == "fumble"),
                                           denom))
        if not e.crit:
            crit_p = None
        if not e.fumble:
            fumble_p = None
    if e.target is not None:
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
        success = Probability.of(Fraction(sum(n for g, n in by_deg.items() if g > 0), scale))
    band_rows = None
    if e.bands:
        by_band: dict[str, int] = {}
        for v, n in totals.items():
            label = band_of(e.bands, v) or "(no band)"
            by_band[label] = by_band.get(label, 0) + n
        names = [b.label for b in e.bands] + ["(no band)"]
        band_rows = tuple(BandRow(b, Probability.of(Fraction(by_band[b], denom)))
                          for b in dict.fromkeys(names) if b in by_band)
    return RollOdds(expression=e.text, system=system, procedure=procedure, deck=deck,
                    outcomes=outcomes, mean=mean, mean_value=float(mean), success=success,
                    degrees=deg_rows, crit=crit_p, fumble=fumble_p, bands=band_rows)
