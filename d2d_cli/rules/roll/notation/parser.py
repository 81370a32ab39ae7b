"""The recursive-descent parser: text → :class:`~.syntax.Expression`, every bound
checked as it reads (its depth is bounded by ``MAX_DEPTH``)."""


from __future__ import annotations

from d2d_cli.errors import BadInput
from d2d_cli.rules.deck.cards import RANKS, SUIT_LETTER
from d2d_cli.rules.roll.notation.limits import (
    _SUITS,
    CARD_SOURCES,
    DECK_SIZES,
    MAX_ATOMS,
    MAX_BANDS,
    MAX_DEPTH,
    MAX_DICE,
    MAX_EXPLODE,
    MAX_FACES,
    MAX_GROUP,
    MAX_LABEL,
    MAX_MAGNITUDE,
    MAX_NUMBER,
    MAX_ROLLS,
    MAX_SIDES,
    _bad,
)
from d2d_cli.rules.roll.notation.syntax import (
    Band,
    Cards,
    CardTest,
    Cmp,
    Dice,
    Expression,
    Group,
    Keep,
    Neg,
    Node,
    Num,
    Prod,
    Sum,
    Tok,
    tokenize,
    walk,
)

# --------------------------------------------------------------------------- parser



def _check_reads(out: Expression) -> None:
    """Crit and fumble need a natural value and may not overlap; per and max a target."""
    if (out.crit or out.fumble) and out.check is None:
        raise _bad("crit and fumble read the natural value of the first die or card "
                   "term, and this expression has none")
    if out.crit and out.fumble:
        (a, b), (c, d) = out.crit.interval(), out.fumble.interval()
        if max(a, c) <= min(b, d):
            raise _bad(f"crit {out.crit} and fumble {out.fumble} overlap")
    if (out.per or out.max_degrees) and out.target is None:
        raise _bad("per and max need a target: … vs TARGET per N")

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
            self.target(out)
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
        _check_reads(out)
        check_bounds(out)
        return out

    def target(self, out: Expression) -> None:
        """``vs TARGET [per N] [max N]`` (the ``vs`` read)."""
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

    def explode(self, d: Dice) -> None:
        """``!`` (on the highest face), ``!>=N``, and an explosion cap ``xN``."""
        self.i += 1
        d.explode = (self.cmp("an explosion", bare_equals=False)
                     if self.tok.kind == "cmp" else Cmp("=", max(d.faces)))
        if self.word("x"):
            self.i += 1
            d.explode_cap = self.number("the explosion cap")
            if not 1 <= d.explode_cap <= MAX_EXPLODE:
                raise self.bad(f"an explosion cap is 1 to {MAX_EXPLODE}")

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
                self.explode(d)
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


