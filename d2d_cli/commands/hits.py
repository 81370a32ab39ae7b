"""``d2d hit CARD [CARD…]`` — the Hits of the winner's cards (001 p.31 "Hits")."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.rules import hits as rules
from d2d_cli.rules.cards import parse_card

app = c.single("hit")


@app.command()
def hit(
    ctx: typer.Context,
    cards: Annotated[list[str], typer.Argument(
        autocompletion=c.complete_cards,
        metavar="CARD [CARD…]", help="The winning Fast or Strong card first, then any combo "
        "cards (e.g. 2S 3H 4C).")],
    level: Annotated[int, typer.Option("--level", help="Your Skill Level (0 or more).")] = 0,
    rival_level: Annotated[int, typer.Option(
        "--rival-level", help="The Rival's Skill Level (0 or more).")] = 0,
    vs: Annotated[str, typer.Option(
        "--vs", metavar="DIFFICULTY", help="The Difficulty: a number 1 or more, or the "
        "target's stat (2x1 → 2).")] = "",
    json: c.JsonOpt = False,
) -> None:
    """Count Hits: Level = your level − rival level (min 0); A/K/Q/J Hits +1; a 2–10 Hits
    +1 if rank + Level > Difficulty; combos QQ KK AA KKK AAA AAAA or a straight of 3+
    (each card beyond 2 takes a card from the discard); no Hits is a glancing blow (1).

    Example: d2d hit 2S 3H 4C --level 2 --rival-level 1 --vs 2x1
    """
    opts = c.options(ctx, c.read(ctx))
    result = rules.count_hits(
        [parse_card(x) for x in cards], level=level, rival_level=rival_level,
        difficulty=rules.parse_difficulty(vs),
        ten_always_hits=opts.ten_always_hits)
    render.emit(result, _show, as_json=json)


def _show(con: Any, r: dict[str, Any]) -> None:
    from d2d_cli.rules.cards import parse_card

    con.print(f"Level {r['level']} vs Difficulty {r['difficulty']} "
              f"({r['approach'].capitalize()})")
    for row in r["cards"]:
        mark = "[green]Hit[/]" if row["hit"] else "[dim]no Hit[/]"
        con.print(f"  {parse_card(row['card']['code']).name()}: {row['why']} → {mark}")
    if r["combo"]:
        kind = "Of a Kind" if r["combo"] == "of_a_kind" else "Straight"
        con.print(f"Combo: {kind} {r['combo_name']}")
    if r["discard_takes"]:
        con.print(f"Take {r['discard_takes']} card(s) of your choice from your discard pile.")
    note = " [yellow](glancing blow)[/]" if r["glancing"] else ""
    con.print(f"[bold]Hits: {r['hits']}[/]{note}")
