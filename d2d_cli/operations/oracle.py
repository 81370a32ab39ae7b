"""The Fate oracle: yes or no from the Fate deck (docs/rules.md "The Fate oracle")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target, cards

if TYPE_CHECKING:
    from d2d_cli.rules.assistant.oracle import OracleAnswer, OracleOdds


def oracle(t: Target, question: str, *, likely: bool = False, unlikely: bool = False,
           odds: bool = False, fresh: bool = False,
           card: list[str] | None = None) -> OracleAnswer | OracleOdds:
    """``d2d oracle QUESTION [--likely|--unlikely] [--odds [--fresh]] [--card CARD]``:
    one card answers (an ``OracleAnswer``), or with ``odds`` each answer's exact chance
    and nothing is revealed (an ``OracleOdds``)."""
    from d2d_cli.rules.assistant import oracle as rules

    if likely and unlikely:
        raise BadInput("--likely and --unlikely exclude each other")
    likelihood = "likely" if likely else "unlikely" if unlikely else "even"
    rules.check_question(question)
    if odds:
        if card:
            raise BadInput("--odds reveals nothing: it takes no --card")
        piles, deck = piles_of(t.read(), fresh)
        return rules.odds(question, piles, deck, likelihood)
    if fresh:
        raise BadInput("--fresh is for --odds")
    answer: OracleAnswer = t.with_reveals(
        cards(card),
        lambda r: rules.ask(question, r, likelihood, reshuffled=lambda: r.reshuffled),
        after=_record)[0]
    return answer


def _record(answer: OracleAnswer, tx: Any) -> None:
    """What the players' page shows of this answer, typed in the journal entry (``rec``):
    the question, its likelihood and the card read (docs/serve.md)."""
    tx.record["oracle"] = {"question": answer.question, "likelihood": answer.likelihood,
                           "card": answer.card.code}


def piles_of(data: dict[str, Any], fresh: bool) -> tuple[Any, Any]:
    """The Fate deck as odds may see it (as ``d2d odds`` does): faces only."""
    from d2d_cli.rules.odds.exact import DeckView, Piles

    if fresh:
        return Piles.fresh(), DeckView("fresh", 54, 0)
    from d2d_cli.rules.deck import fate

    deck = fate.Deck.from_state(data.get("fate"))
    return (Piles.of(deck.draw, deck.discard),
            DeckView("session", len(deck.draw), len(deck.discard)))
