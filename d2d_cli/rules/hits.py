"""Hits: the degree of success of a Conflict's winner (001 p.31 "Hits").

"Only Fast or Strong Approach score Hits. Level - Your Level - Rival Level (min: 0).
Difficulty - The difficulty of the Conflict. Combo - Play cards to make an allowed
set: Of a Kind - QQ, KK, AA, KKK, AAA, AAAA. Straight - 3+ ordered cards of any suit.
For each > 2, take any card from Discard. Rank - Each card may increase Hits: A-J -
Hits:+1; 2-10 - Hits:+1 IF Rank+Level > Difficulty. No Hits - Glancing Blow: IF
Hits=0 THEN Hits=1 and go to Resolution."

"""

from __future__ import annotations

import re
from dataclasses import dataclass

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules import conflict
from d2d_cli.rules.cards import Card
from d2d_cli.rules.result import Result
from d2d_cli.rules.stats import parse_stat

ROYALS = ("A", "J", "Q", "K")
SCORING = ("fast", "strong")

_ALLOWED = ("allowed: QQ, KK, AA, KKK, AAA, AAAA, or a straight of 3 or more ordered "
            "cards 2–10 of any suit (e.g. 2S 3H 4C)")


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
