"""``d2d conflict SIDE_A SIDE_B`` and ``d2d conflict chart`` (001 p.28 "Conflict")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.rules import conflict as rules

if TYPE_CHECKING:
    from d2d_cli.rules.fate import Revealer

app = c.single("conflict")

_LEVEL_HELP = "'s Skill Level, for the Level Bonus of a rank tiebreak (0 or more)."
LevelA = Annotated[int, typer.Option(help="Side A" + _LEVEL_HELP)]
LevelB = Annotated[int, typer.Option(help="Side B" + _LEVEL_HELP)]


@app.command()
def conflict(
    ctx: typer.Context,
    sides: Annotated[list[str], typer.Argument(
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
    table = c.cards(card)
    if sides == ["chart"]:
        render.emit(rules.chart_result(opts.conflict_chart, table), _show_chart, as_json=json)
        return
    m = rules.matchup(sides, table)

    def resolve(reveal: Revealer | None) -> rules.Conflict:
        return rules.resolve(m, reveal, level_a=level_a, level_b=level_b,
                             reading=opts.conflict_chart,
                             fate_orientation=opts.fate_orientation,
                             level_bonus=opts.level_bonus)

    result = c.with_reveals(ctx, table, resolve)[0] if m.reveals else resolve(None)
    render.emit(result, _show, as_json=json)


_WORD = {"a": "wins", "b": "loses", "tie": "tie", "both": "both win", "rank": "rank"}


def _show_chart(con: Any, r: rules.Chart) -> None:
    from rich.table import Table

    t = Table("A ↓ vs B →", *(a.capitalize() for a in r.approaches),
              title=f"Conflict chart ({r.conflict_chart}): A's result")
    for a in r.approaches:
        t.add_row(a.capitalize(), *(_WORD[r.chart[a][b]] for b in r.approaches))
    con.print(t)
    con.print("[dim]rank: both Fast or both Strong compare Rank, A > J > Q > K > 2 > … > "
              "10 (2–10 lowered by the Level Bonus, min 2); equal ranks both win.[/]")


def _show(con: Any, r: rules.Conflict) -> None:
    def label(side: rules.Side) -> str:
        card = f" ({side.card.name()})" if side.card else ""
        return f"{side.approach.capitalize()}{card}"

    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    con.print(f"A: {label(r.side_a)}   vs   B: {label(r.side_b)}")
    tb = r.tiebreak
    if tb:
        con.print(f"Tiebreak by rank: A {tb.a.adjusted} vs B {tb.b.adjusted} "
                  f"[dim](Level Bonus A {tb.a.level_bonus}, B {tb.b.level_bonus})[/]")
    verdict = {"a": "[bold]A wins[/]", "b": "[bold]B wins[/]", "both": "[bold]Both win[/]",
               "tie": "[bold]Tie[/]: neither wins",
               "rank": "[bold]Decided by rank[/]: give both cards (e.g. 5S^ 9H^)"}
    con.print(verdict[r.outcome])
    for name, got in (("A", r.effects.a), ("B", r.effects.b)):
        for e in got:
            con.print(f"  {name}: {e.text}")
