"""``d2d conflict SIDE_A SIDE_B`` and ``d2d conflict chart`` (001 p.28 "Conflict")."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.errors import BadInput
from d2d_cli.rules import conflict as rules

app = c.single("conflict")

_LEVEL_HELP = "'s Skill Level, for the Level Bonus of a rank tiebreak (0 or more)."
LevelA = Annotated[int, typer.Option(help="Side A" + _LEVEL_HELP)]
LevelB = Annotated[int, typer.Option(help="Side B" + _LEVEL_HELP)]


@app.command()
def conflict(
    ctx: typer.Context,
    sides: Annotated[list[str], typer.Argument(
        autocompletion=c.complete_sides,
        metavar="SIDE_A SIDE_B | chart",
        help="Each side: an approach (fast, strong, block, evade, counter, wild), a card "
             "with orientation (7S^, QHv, RW) or fate. Or the word chart.")],
    level_a: LevelA = 0,
    level_b: LevelB = 0,
    card: c.CardOpt = None,
    json: c.JsonOpt = False,
) -> None:
    """Who wins a conflict, what each side gets, and the rank tiebreak of Fast vs Fast
    and Strong vs Strong (A > J > Q > K > 2 > … > 10, Level Bonus applied).

    A card's orientation gives its approach (Upper: Wands/Coins Strong, Cups/Swords
    Fast; Lower: Wands/Cups Block, Coins Counter, Swords Evade; a joker Wild). fate
    reveals a Fate card for a non-player (black Upper, red Lower); with --card, the Fate
    card(s) drawn at the table. `d2d conflict chart` prints the whole chart.

    Example: d2d conflict fate 7S^ --level-b 2
    """
    if sides == ["chart"]:
        render.begin("conflict chart")  # its own name, for its output and its errors
    opts = c.options(ctx, c.read(ctx))
    reading = opts.conflict_chart
    if sides == ["chart"]:
        if card:
            raise BadInput("--card is for fate sides; the chart reveals nothing")
        result = {"conflict_chart": reading, "approaches": list(rules.approaches()),
                  "chart": rules.chart(reading)}
        render.emit(result, _show_chart, as_json=json)
        return
    specs = [rules.parse_side(s) for s in sides]
    table = c.cards(card)

    def resolve(reveal: Any) -> dict[str, Any]:
        return rules.resolve(specs, reveal, level_a=level_a, level_b=level_b,
                             reading=reading,
                             fate_orientation=opts.fate_orientation)

    if not any(s.source == "fate" for s in specs):
        if table is not None:
            raise BadInput("--card is for fate sides; give the cards as sides instead")
        result, reshuffled = resolve(lambda: None), False
    else:
        result, reveal = c.with_reveals(ctx, table, resolve)
        reshuffled = reveal.reshuffled
    render.emit({**result, "reshuffled": reshuffled}, _show, as_json=json)


_WORD = {"a": "wins", "b": "loses", "tie": "tie", "both": "both win", "rank": "rank"}


def _show_chart(con: Any, r: dict[str, Any]) -> None:
    from rich.table import Table

    t = Table("A ↓ vs B →", *(a.capitalize() for a in r["approaches"]),
              title=f"Conflict chart ({r['conflict_chart']}): A's result")
    for a in r["approaches"]:
        t.add_row(a.capitalize(), *(_WORD[r["chart"][a][b]] for b in r["approaches"]))
    con.print(t)
    con.print("[dim]rank: both Fast or both Strong compare Rank, A > J > Q > K > 2 > … > "
              "10 (2–10 lowered by the Level Bonus, min 2); equal ranks both win.[/]")


def _show(con: Any, r: dict[str, Any]) -> None:
    def label(side: dict[str, Any]) -> str:
        card = f" ({render.cards_line([side['card']])})" if side["card"] else ""
        return f"{side['approach'].capitalize()}{card}"

    a, b = label(r["side_a"]), label(r["side_b"])
    if r["reshuffled"]:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    con.print(f"A: {a}   vs   B: {b}")
    tb = r["tiebreak"]
    if tb:
        con.print(f"Tiebreak by rank: A {tb['a']['adjusted']} vs B {tb['b']['adjusted']} "
                  f"[dim](Level Bonus A {tb['a']['level_bonus']}, B {tb['b']['level_bonus']})"
                  "[/]")
    verdict = {"a": "[bold]A wins[/]", "b": "[bold]B wins[/]", "both": "[bold]Both win[/]",
               "tie": "[bold]Tie[/]: neither wins",
               "rank": "[bold]Decided by rank[/]: give both cards (e.g. 5S^ 9H^)"}
    con.print(verdict[r["outcome"]])
    for side in ("a", "b"):
        for e in r["effects"][side]:
            con.print(f"  {side.upper()}: {e['text']}")
