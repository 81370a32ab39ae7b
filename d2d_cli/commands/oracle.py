"""``d2d oracle QUESTION`` — yes or no from the Fate deck, for GM-less play
(docs/rules.md "The Fate oracle", docs/solo.md)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _reveal, _state
from d2d_cli.rules.assistant import oracle as rules

app = _app.single("oracle")


@app.command()
def oracle(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="The question, answered yes or no.")],
    likely: Annotated[bool, typer.Option(
        "--likely", help="Yes is likely: No only on a red Lower card (3 in 4).")] = False,
    unlikely: Annotated[bool, typer.Option(
        "--unlikely", help="Yes is unlikely: Yes only on a black Upper card (1 in 4).")
    ] = False,
    odds: Annotated[bool, typer.Option(
        "--odds", help="Reveal nothing: give each answer's exact chance from the deck as "
        "it stands.")] = False,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="With --odds: from a full deck instead of the session's.")] = False,
    card: _reveal.CardOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """Ask the Fate deck a yes/no question: one card answers Yes or No by its
    orientation (and colour, with --likely or --unlikely), "and" on A J Q K, "but" on
    2 3 4, a twist on a Wild; its suit names the theme. Table mode: --card.

    Example: d2d oracle "Is the guard asleep?" --likely
    """
    if likely and unlikely:
        from d2d_cli.errors import BadInput

        raise BadInput("--likely and --unlikely exclude each other")
    likelihood = "likely" if likely else "unlikely" if unlikely else "even"
    rules.check_question(question)
    if odds:
        if card:
            from d2d_cli.errors import BadInput

            raise BadInput("--odds reveals nothing: it takes no --card")
        piles, deck = _piles(_state.read(ctx), fresh)
        render.emit(rules.odds(question, piles, deck, likelihood), _show_odds, as_json=json)
        return
    if fresh:
        from d2d_cli.errors import BadInput

        raise BadInput("--fresh is for --odds")
    result, _ = _reveal.with_reveals(
        ctx, _reveal.cards(card),
        lambda r: rules.ask(question, r, likelihood, reshuffled=lambda: r.reshuffled))
    render.emit(result, _show_answer, as_json=json)


def _piles(data: dict[str, Any], fresh: bool) -> tuple[Any, Any]:
    """The Fate deck as odds may see it (as ``d2d odds`` does): faces only."""
    from d2d_cli.rules.odds.exact import DeckView, Piles

    if fresh:
        return Piles.fresh(), DeckView("fresh", 54, 0)
    from d2d_cli.rules.deck import fate

    deck = fate.Deck.from_state(data.get("fate"))
    return (Piles.of(deck.draw, deck.discard),
            DeckView("session", len(deck.draw), len(deck.discard)))


def _show_answer(con: Any, r: rules.OracleAnswer) -> None:
    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    con.print(f"[dim]{render.escape(r.question)} ({r.likelihood})[/]")
    theme = f" — about {r.theme.capitalize()} ({rules.THEMES[r.theme]})" if r.theme else ""
    con.print(f"{r.card.name()} → [bold]{r.text}[/]{theme}")


def _show_odds(con: Any, r: rules.OracleOdds) -> None:
    from d2d_cli.commands._bars import bars
    d = r.deck
    where = ("a full deck" if d.source == "fresh" else
             f"the session's deck: {d.remaining} to draw, {d.discarded} discarded")
    con.print(f"[bold]{render.escape(r.question)}[/] ({r.likelihood}) [dim]from {where}[/]")
    bars(con, [(row.text, row.probability) for row in r.rows])
    con.print(f"Yes {r.yes.percent} ({r.yes.fraction}), No {r.no.percent} ({r.no.fraction})")
