"""``d2d oracle QUESTION`` — yes or no from the Fate deck, for GM-less play
(docs/rules.md "The Fate oracle", docs/solo.md)."""

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _reveal, _state
from d2d_cli.rules.assistant import oracle as rules

app = _app.single("oracle")


@app.command()
def oracle(
    ctx: typer.Context,
    question: Annotated[list[str], typer.Argument(
        metavar="QUESTION…", help="The question, answered yes or no: its words, quoted or "
        "not (as roll takes its expression).")],
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

    Example: d2d oracle Is the guard asleep --likely
    """
    from d2d_cli.operations.oracle import oracle as ask

    result = ask(_state.target(ctx), " ".join(question), likely=likely, unlikely=unlikely,
                 odds=odds, fresh=fresh, card=card)
    render.emit(result, _show_odds if odds else _show_answer, as_json=json)


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
