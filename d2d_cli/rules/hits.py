"""Hits: the degree of success of a Conflict's winner (001 p.31 "Hits").

"Only Fast or Strong Approach score Hits. Level - Your Level - Rival Level (min: 0).
Difficulty - The difficulty of the Conflict. Combo - Play cards to make an allowed
set: Of a Kind - QQ, KK, AA, KKK, AAA, AAAA. Straight - 3+ ordered cards of any suit.
For each > 2, take any card from Discard. Rank - Each card may increase Hits: A-J -
Hits:+1; 2-10 - Hits:+1 IF Rank+Level > Difficulty. No Hits - Glancing Blow: IF
Hits=0 THEN Hits=1 and go to Resolution."

000 l.482–486 reveals combo cards from the deck instead ("Combo - IF you Succeed with a
2-8, Q, K, or A, you may increase your Successes by doing a Combo. Normal - Reveal 2
Conflict. IF they are the next 2 in rank sequence (e.g. 5 then 6, 7) THEN Gain:A and
for each IF Rank+Skill Level > Difficulty THEN Success:+1. Q - Reveal Conflict. IF Q
THEN Success:+1. K - Reveal 2 Conflict. IF K THEN Success:+1 / K. A - Reveal 3
Conflict. IF A THEN Success:+1 / A."): ``[rules] combos = "revealed"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules import conflict
from d2d_cli.rules.cards import Card
from d2d_cli.rules.fate import Revealer
from d2d_cli.rules.result import Result
from d2d_cli.rules.stats import parse_stat

ROYALS = ("A", "J", "Q", "K")
SCORING = ("fast", "strong")

_ALLOWED = ("allowed: QQ, KK, AA, KKK, AAA, AAAA, or a straight of 3 or more ordered "
            "cards 2–10 of any suit (e.g. 2S 3H 4C)")

# 000 l.484–486: how many cards a royal's combo reveals.
_ROYAL_REVEALS = {"Q": 1, "K": 2, "A": 3}


def parse_difficulty(text: str) -> int:
    """``--vs``: a whole number 1 or more, or a stat whose level is the Difficulty
    ("Difficulty - The Goblin Body is 2x1" → 2, 001 p.32)."""
    raw = str(text).strip()
    if re.fullmatch(r"[+-]?\d+", raw):
        value = int(raw)
    elif "x" in raw.lower() or "×" in raw:
        value = parse_stat(raw).level
    else:
        raise BadInput(f"--vs takes a Difficulty: a whole number 1 or more or a stat like "
                       f"2x1, not {text!r}")
    if value < 1:
        raise BadInput(f"--vs takes a Difficulty of 1 or more (or a stat like 2x1), not "
                       f"{text!r}")
    return value


def combo(cards: list[Card]) -> tuple[str | None, str, int]:
    """The combo the cards make: (kind or None, its name, discard takes). Refuses a set
    that is not allowed, with the reason."""
    if len(cards) == 1:
        return None, cards[0].rank, 0
    codes = " ".join(c.code for c in cards)
    if any(c.is_wild for c in cards):
        raise RuleViolation(f"not a combo: {codes} — a Wild is in no combo; {_ALLOWED}")
    ranks = [c.rank for c in cards]
    table = conflict.table()["combos"]
    if len(set(ranks)) == 1:
        name = "".join(ranks)
        if name in table["of_a_kind"]:
            return "of_a_kind", name, 0
        raise RuleViolation(f"not a combo: {codes} — {name} is not an allowed set of a "
                            f"kind; {_ALLOWED}")
    if any(r in ROYALS for r in ranks):
        raise RuleViolation(f"not a combo: {codes} — a straight is of 2–10 cards and a set "
                            f"of a kind is one rank; {_ALLOWED}")
    numbers = sorted(c.number or 0 for c in cards)
    if len(cards) < table["straight_min"]:
        raise RuleViolation(f"not a combo: {codes} — a straight needs "
                            f"{table['straight_min']} or more cards; {_ALLOWED}")
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise RuleViolation(f"not a combo: {codes} — the ranks do not follow each other "
                            f"({', '.join(map(str, numbers))}); {_ALLOWED}")
    return "straight", "-".join(map(str, numbers)), len(cards) - 2


@dataclass(frozen=True)
class CardHit(Result):
    """One card's share: does it Hit, and why (``2+1=3 > 2``, ``A: Hits +1``)."""

    card: Card
    hit: bool
    why: str


@dataclass(frozen=True)
class Hits(Result):
    """``d2d hit``: the Hits of the winner's cards."""

    hits: int
    glancing: bool
    combo: str | None
    combo_name: str | None
    discard_takes: int
    approach: str
    level: int
    difficulty: int
    cards: tuple[CardHit, ...]


@dataclass(frozen=True)
class RevealedHits(Hits):
    """``[rules] combos = "revealed"`` (000 l.482–486): the combo cards revealed after
    the winning card, whether they made the combo, and 000's "Gain:A" (l.1197 "Choose
    an A from Discard or search your Deck for an A and add it to your hand")."""

    revealed: tuple[CardHit, ...]
    gain_ace: bool
    reshuffled: bool


def _card_hit(card: Card, net: int, difficulty: int, ten_always_hits: bool) -> CardHit:
    assert card.number is not None
    if card.rank in ROYALS or (ten_always_hits and card.rank == "10"):
        return CardHit(card, True, f"{card.rank}: Hits +1")
    total = card.number + net
    hit = total > difficulty
    return CardHit(card, hit, f"{card.number}+{net}={total} {'>' if hit else '≤'} {difficulty}")


def _scoring_approach(card: Card) -> str:
    approach = conflict.approach_of(card)
    if approach not in SCORING:
        raise RuleViolation(
            f"only a Fast or Strong winner scores Hits (001 p.31): {card.code} is "
            f"{approach.capitalize()} — a Counter winner counter-attacks with a Fast or "
            "Strong card (Upper: e.g. 2S^)")
    return approach


def _check(level: int, rival_level: int, difficulty: int) -> int:
    conflict.check_level(level, "--level")
    conflict.check_level(rival_level, "--rival-level")
    if difficulty < 1:
        raise BadInput(f"--vs takes a Difficulty of 1 or more, not {difficulty}")
    return max(0, level - rival_level)


def count_hits(cards: list[Card], *, level: int, rival_level: int, difficulty: int,
               ten_always_hits: bool = False) -> Hits:
    """The Hits of the winner's cards (the played card first, then any combo cards).

    ``ten_always_hits`` is 000's reading ("5) Successes": "10, J, Q, K, A -
    Success:+1"); 001's "A-J" leaves the 10 to the Rank+Level test.
    """
    if not cards:
        raise BadInput("give the winner's card(s), e.g. 2S 3H 4C")
    net = _check(level, rival_level, difficulty)
    approach = _scoring_approach(cards[0])
    kind, name, takes = combo(cards)
    rows = tuple(_card_hit(card, net, difficulty, ten_always_hits) for card in cards)
    raw = sum(r.hit for r in rows)
    return Hits(hits=max(raw, 1), glancing=raw == 0, combo=kind,
                combo_name=name if kind else None, discard_takes=takes, approach=approach,
                level=net, difficulty=difficulty, cards=rows)


def reveal_combo(card: Card, reveal: Revealer | None, *, level: int, rival_level: int,
                 difficulty: int, ten_always_hits: bool = False) -> RevealedHits:
    """000's combo (l.482–486): after a winning 2–8 reveal 2 cards — the next two ranks
    (either order) each score by Rank+Level > Difficulty and Gain:A; after a Q reveal 1,
    a K 2, an A 3 — each card of the same rank scores +1. ``reveal`` is None when no
    combo is tried (the text's "may")."""
    net = _check(level, rival_level, difficulty)
    approach = _scoring_approach(card)
    played = _card_hit(card, net, difficulty, ten_always_hits)
    shown: list[CardHit] = []
    kind: str | None = None
    name: str | None = None
    if reveal is not None:
        count = _ROYAL_REVEALS.get(card.rank, 2)
        if card.rank not in _ROYAL_REVEALS and not 2 <= (card.number or 0) <= 8:
            raise RuleViolation(f"no combo after a {card.rank} (000 l.482: \"IF you Succeed "
                                "with a 2-8, Q, K, or A\")")
        got = [reveal() for _ in range(count)]
        if card.rank in _ROYAL_REVEALS:
            for c in got:
                same = c.rank == card.rank
                shown.append(CardHit(c, same, f"{c.rank}: Hits +1" if same else
                                     f"{c.rank}: not {card.rank}, no Hit"))
            matched = sum(r.hit for r in shown)
            if matched:
                kind, name = "of_a_kind", card.rank * (matched + 1)
        else:
            assert card.number is not None
            wanted = [card.number + 1, card.number + 2]
            if sorted(c.number or 0 for c in got if not c.is_wild) == wanted:
                shown = [_card_hit(c, net, difficulty, ten_always_hits) for c in got]
                kind, name = "straight", "-".join(map(str, [card.number, *wanted]))
            else:
                shown = [CardHit(c, False, f"not {wanted[0]} and {wanted[1]}: no combo")
                         for c in got]
    raw = played.hit + sum(r.hit for r in shown)
    return RevealedHits(
        hits=max(raw, 1), glancing=raw == 0, combo=kind, combo_name=name, discard_takes=0,
        approach=approach, level=net, difficulty=difficulty, cards=(played,),
        revealed=tuple(shown), gain_ace=kind == "straight",
        reshuffled=reveal.reshuffled if reveal is not None else False)


@dataclass(frozen=True)
class HitAsk:
    """``d2d hit`` as typed and checked, for the table's ``[rules] combos`` reading;
    :attr:`reveals` says whether it reveals combo cards (from the deck or ``table``)."""

    cards: tuple[Card, ...]
    level: int
    rival_level: int
    difficulty: int
    ten_always_hits: bool
    combos: str
    combo: bool
    table: list[Card] | None

    @property
    def reveals(self) -> bool:
        return self.combos == "revealed" and self.combo

    def count(self, reveal: Revealer | None) -> Hits:
        if self.combos == "played":
            return count_hits(list(self.cards), level=self.level,
                              rival_level=self.rival_level, difficulty=self.difficulty,
                              ten_always_hits=self.ten_always_hits)
        return reveal_combo(self.cards[0], reveal, level=self.level,
                            rival_level=self.rival_level, difficulty=self.difficulty,
                            ten_always_hits=self.ten_always_hits)


def ask(cards: list[Card], *, level: int, rival_level: int, vs: str, combo: bool = False,
        table: list[Card] | None = None, combos: str = "played",
        ten_always_hits: bool = False) -> HitAsk:
    """Check ``d2d hit``'s input against the combo reading: under "played" (001 l.826
    "Play cards to make an allowed set") the combo cards follow the winning card; under
    "revealed" (000 l.482) only the winning card is given and ``--combo`` reveals."""
    if not cards:
        raise BadInput("give the winner's card(s), e.g. 2S 3H 4C")
    if combos == "played" and (combo or table is not None):
        raise BadInput("--combo and --card reveal combo cards under [rules] combos = "
                       "\"revealed\" (000); under 001 give the combo cards after the "
                       "winning card (e.g. 2S 3H 4C)")
    if combos == "revealed":
        if len(cards) > 1:
            raise BadInput("[rules] combos = \"revealed\" (000 l.482): combo cards are "
                           "revealed, not played — give the winning card only, and --combo "
                           "to reveal")
        if table is not None and not combo:
            raise BadInput("--card gives the combo cards revealed at the table: add --combo")
    return HitAsk(tuple(cards), level, rival_level, parse_difficulty(vs), ten_always_hits,
                  combos, combo, table)
