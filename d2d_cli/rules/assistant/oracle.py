"""The Fate oracle (``d2d oracle``): yes or no, with "and" or "but", from one Fate card.

D2D names "Game Master or AI" (000 l.15) and "play GM-less" (001 l.65) among its goals
but gives no oracle; this procedure is d2d's own (docs/rules.md "The Fate oracle"):

1. Reveal one Fate card.
2. The answer, by the likelihood asked: *even* — Upper is Yes, Lower is No; *likely* —
   No only on a red Lower card; *unlikely* — Yes only on a black Upper card. The card's
   orientation and its colour are two even, independent halves of the deck, so the
   chance of Yes is exactly 1/2, 3/4 or 1/4 from a full deck.
3. The qualifier, by rank (000 l.464–466 "Aces and Face Cards represent spectacular
   feats. Low numbers represent swift, weak feats"): A, J, Q, K — "and" (the answer and
   more); 2, 3, 4 — "but" (the answer with a catch); 5–10 — the answer alone; a Wild —
   a twist (the answer, and something no one expected).
4. The theme, by suit (000 l.403–406): Body (force), Mind (a clever idea), Will (a
   surprising act), Speed (quick precision) — what the "and" or "but" is about.

:func:`ask` reads one card from a revealer (the deck or ``--card``); :func:`odds` gives
each answer's exact chance from the deck as it stands (``rules.odds.exact.Piles``: the
piles' faces, never the stored order), by the same ``reading`` function.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import SUIT_STAT, Card, parse_card
from d2d_cli.rules.odds.exact import DeckView, Piles, oriented, reveal_odds

LIKELIHOODS = ("even", "likely", "unlikely")
QUALIFIERS = ("and", "", "but", "twist")  # the order a table lists them
_AND = frozenset(("A", "J", "Q", "K"))
_BUT = frozenset(("2", "3", "4"))
THEMES = {"body": "force", "mind": "a clever idea", "will": "a surprising act",
          "speed": "quick precision"}
MAX_QUESTION = 500


_FLAGS = ("--likely", "--unlikely", "--odds", "--fresh", "--json")
_WITH_VALUE = ("--card",)


def asked(words: list[str]) -> tuple[str, str]:
    """The question and its likelihood from an ``oracle`` command line as the journal
    keeps it (``oracle Do the goblins flee --likely``): every word of the question, quoted
    or not — the one reading the recap and the players' page share."""
    question: list[str] = []
    skip = False
    for w in words[1:]:
        if skip:
            skip = False
        elif w in _WITH_VALUE:
            skip = True
        elif not (w in _FLAGS or any(w.startswith(f + "=") for f in _WITH_VALUE)):
            question.append(w)
    likelihood = ("likely" if "--likely" in words else
                  "unlikely" if "--unlikely" in words else "even")
    return " ".join(question), likelihood


def check_likelihood(likelihood: str) -> str:
    if likelihood not in LIKELIHOODS:
        raise BadInput(f"the likelihood is one of {', '.join(LIKELIHOODS)}, not "
                       f"{likelihood!r}")
    return likelihood


def check_question(question: str) -> str:
    text = " ".join(question.split())
    if not text:
        raise BadInput("ask a question: d2d oracle \"Is the door locked?\"")
    if len(text) > MAX_QUESTION:
        raise BadInput(f"a question is at most {MAX_QUESTION} characters, not {len(text)}")
    return text


def answer_of(card: Card, likelihood: str) -> bool:
    """Step 2: Yes (True) or No, from the card's orientation and colour."""
    if likelihood == "likely":
        return card.upper or card.color == "black"
    if likelihood == "unlikely":
        return card.upper and card.color == "black"
    return card.upper


def qualifier_of(card: Card) -> str:
    """Step 3: "and", "but", "twist" or "" (the answer alone), from the card's rank."""
    if card.is_wild:
        return "twist"
    if card.rank in _AND:
        return "and"
    return "but" if card.rank in _BUT else ""


def reading(card: Card, likelihood: str) -> tuple[str, str]:
    """What the oracle reads from one card: ("yes" | "no", qualifier)."""
    return ("yes" if answer_of(card, likelihood) else "no", qualifier_of(card))


def words(answer: str, qualifier: str) -> str:
    """``Yes, and…`` / ``No, but…`` / ``Yes, with a twist`` / ``No``."""
    head = answer.capitalize()
    if qualifier == "twist":
        return f"{head}, with a twist"
    return f"{head}, {qualifier}…" if qualifier else head


@record
class OracleAnswer(Result):
    """``d2d oracle QUESTION``: the card read and what it answers."""

    question: str
    likelihood: str
    card: Card
    answer: str  # "yes" or "no"
    qualifier: str  # "and", "but", "twist" or ""
    theme: str | None  # the suit's stat (body, mind, will, speed); None for a Wild
    text: str
    reshuffled: bool


def ask(question: str, reveal: Callable[[], Card], likelihood: str = "even", *,
        reshuffled: Callable[[], bool] = lambda: False) -> OracleAnswer:
    """Reveal one Fate card and read it (``reveal``: the deck's or the table's)."""
    question = check_question(question)
    check_likelihood(likelihood)
    card = reveal()
    answer, qualifier = reading(card, likelihood)
    theme = None if card.suit is None else SUIT_STAT[card.suit]
    return OracleAnswer(question, likelihood, card, answer, qualifier, theme,
                        words(answer, qualifier), reshuffled())


@record
class OracleRow(Result):
    answer: str
    qualifier: str
    text: str
    probability: Probability


@record
class OracleOdds(Result):
    """``d2d oracle --odds``: each answer's exact chance from the deck as it stands."""

    question: str
    likelihood: str
    deck: DeckView
    yes: Probability
    no: Probability
    rows: tuple[OracleRow, ...]


def distribution(piles: Piles, likelihood: str) -> dict[tuple[str, str], Fraction]:
    """The exact chance of each (answer, qualifier) of the next reveal: the draw pile as
    a set (the discard pile shuffled back in when it is empty), each card Upper or Lower
    with chance 1/2."""
    check_likelihood(likelihood)
    pile: dict[Card, int] = {}
    discard: dict[Card, int] = {}
    for faces, into in ((piles.pile, pile), (piles.discard, discard)):
        for face in faces:
            card = parse_card(face)
            into[card] = into.get(card, 0) + 1

    def step(_state: Any, key: Any) -> tuple[bool, Any]:
        return True, key

    got = reveal_odds(pile, discard, oriented(lambda c: reading(c, likelihood)), None, step)
    return {k: Fraction(v) for k, v in got.items()}


def odds(question: str, piles: Piles, deck: DeckView, likelihood: str = "even"
         ) -> OracleOdds:
    question = check_question(question)
    dist = distribution(piles, likelihood)
    rows = tuple(OracleRow(a, q, words(a, q), Probability.of(dist.get((a, q), 0)))
                 for a in ("yes", "no") for q in QUALIFIERS)
    yes = sum((p for (a, _), p in dist.items() if a == "yes"), Fraction(0))
    return OracleOdds(question, likelihood, deck, Probability.of(yes),
                      Probability.of(1 - yes), rows)


__all__ = ["LIKELIHOODS", "OracleAnswer", "OracleOdds", "OracleRow", "answer_of", "ask",
           "distribution", "odds", "qualifier_of", "reading", "words"]
