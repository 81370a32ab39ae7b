"""``d2d fate …`` — the shared Fate deck (000 "Reference > Fate")."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _reveal, _state
from d2d_cli.commands._convention import positional_or_option
from d2d_cli.operations import fate as ops
from d2d_cli.rules.deck import fate
from d2d_cli.rules.deck.cards import names as card_names
from d2d_cli.rules.deck.cards import parse_card

app = _app.group("fate")


@app.command()
def draw(
    ctx: typer.Context,
    count_: Annotated[int | None, typer.Argument(
        metavar="[COUNT]", show_default=False,
        help="How many cards to reveal (1–100; default 1).")] = None,
    count: Annotated[int | None, typer.Option("--count", "-n", help="How many cards, by "
                                              "name (the same as COUNT).")] = None,
    peek: Annotated[bool, typer.Option("--peek", help="Look at the top cards without "
                                       "taking them: changes nothing.")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Reveal the top COUNT Fate cards (each with its orientation).

    When the draw pile runs out the discard pile is shuffled back in, and the output
    says so. Example: d2d fate draw 3
    """
    n = positional_or_option(count_, count, "count", 1)
    render.emit(ops.draw(_state.target(ctx), n, peek=peek), _show_draw, as_json=json)


def _show_draw(con: Any, r: fate.Drawn) -> None:
    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    label = "Top of the deck (not taken)" if r.peek else "Revealed"
    con.print(f"[bold]{label}:[/] {card_names(r.cards) or '(no cards left)'}")
    con.print(f"[dim]{r.remaining} left to draw, {r.discarded} in the discard pile[/]")


@app.command(short_help="Shuffle the discard pile back into the Fate deck.")
def shuffle(
    ctx: typer.Context,
    reset: Annotated[bool, typer.Option("--reset", help="Rebuild a complete 54-card deck "
                                        "(for a deck broken by hand edits).")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Shuffle the discard pile back into the Fate deck (new orientations too).

    Example: d2d fate shuffle
    """
    render.emit(ops.shuffle(_state.target(ctx), reset=reset), _show_status, as_json=json)


@app.command(short_help="Cards left, cards discarded, and the last reveal.")
def status(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """How many cards are left, how many discarded, and the last reveal.

    Example: d2d fate status --json
    """
    render.emit(ops.status(_state.target(ctx)), _show_status, as_json=json)


def _show_status(con: Any, r: fate.DeckCounts) -> None:
    con.print(f"[bold]Fate deck:[/] {r.remaining} to draw, {r.discarded} discarded "
              f"(shuffled {r.shuffles}×)")
    if isinstance(r, fate.FateStatus) and r.last:
        con.print(f"Last reveal: {card_names(r.last)}")


@app.command(short_help="Coin toss (d2): black is Heads, red is Tails.")
def coin(ctx: typer.Context, card: _reveal.CardOpt = None, json: _app.JsonOpt = False) -> None:
    """Coin toss (d2): black is Heads, red is Tails (000 "Fate > Randomizing").

    Example: d2d fate coin   (table mode: d2d fate coin --card 7H)
    """
    result = ops.coin(_state.target(ctx), card=card)
    render.emit(result, _show_coin, as_json=json)


def _show_coin(con: Any, r: fate.Coin) -> None:
    con.print(f"{card_names(r.cards)} → [bold]{r.side.capitalize()}[/]")


@app.command("high-card", short_help="Who acts first: each name reveals a card, highest first.")
def high_card(
    ctx: typer.Context,
    names: Annotated[list[str], typer.Argument(click_type=_complete.UNIT,
                                               help="Who wants to act (two or more).")],
    card: _reveal.CardOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """Who acts first: each name reveals a card, highest first (000 "Fate > High Card").

    Ranks A high down to 2, then suits ♣ ♦ ♥ ♠; a Wild beats an Ace (black before
    red). Exact ties (cards from different decks at the table) reveal again.
    Example: d2d fate high-card Archer Thief Scout
    """
    result = ops.high_card(_state.target(ctx), names, card=card)
    render.emit(result, _show_high, as_json=json)


def _show_high(con: Any, r: fate.HighCard) -> None:
    from d2d_cli.layout import Table

    t = Table("Order", "Name", "Card(s)", box=None, name=1)
    for i, name in enumerate(r.order, 1):
        t.add_row(str(i), render.escape(name), card_names(r.cards[name]))
    con.print(t)
    for tie in r.ties:
        con.print(f"[yellow]Still tied: {render.escape(', '.join(tie))} — reveal again and "
                  "rerun.[/]")


@app.command(short_help="Fate cards read as a die: d2…d108 and any dN up to d1000.")
def die(
    ctx: typer.Context,
    sides: Annotated[str, typer.Argument(metavar="dN", help="The die: d2…d1000, e.g. d10.")],
    count_: Annotated[int | None, typer.Argument(metavar="[COUNT]", show_default=False,
                                                 help="How many dice (1–100; default 1).")]
    = None,
    count: Annotated[int | None, typer.Option("--count", "-n", help="How many dice, by "
                                              "name (the same as COUNT).")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Also say how to read the "
                                          "card(s) by hand at the table.")] = False,
    advantage: Annotated[bool, typer.Option(
        "--advantage", help="Read each die twice, keep the higher.")] = False,
    disadvantage: Annotated[bool, typer.Option(
        "--disadvantage", help="Read each die twice, keep the lower.")] = False,
    card: _reveal.CardOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """Read Fate cards as a die: every die of the rules (d2…d108) and any dN up to d1000.

    Redraws happen automatically and are shown. With --card, reads the cards drawn at
    the table and says "redraw" when a card does not map. Advantage and Disadvantage
    cancel each other.

    JSON: advantage (normal, advantage or disadvantage), kept (the indexes of rolls that
    count; the others were dropped).

    Example: d2d fate die d10 2
    """
    count = positional_or_option(count_, count, "count", 1)
    result = ops.die(_state.target(ctx), sides, count, explain=explain, advantage=advantage,
                     disadvantage=disadvantage, card=card)
    render.emit(result, _show_die, as_json=json)


def _show_die(con: Any, r: Any) -> None:  # rules.deck.dice.Thrown
    if r.advantage != "normal":
        con.print(f"[dim]{r.advantage.capitalize()}: each die read twice, the "
                  f"{'higher' if r.advantage == 'advantage' else 'lower'} kept[/]")
    for i, roll in enumerate(r.rolls):
        read = card_names(parse_card(x) for x in roll.cards)
        if i not in r.kept:
            con.print(f"[dim]{r.die}: {roll.value}  ← {read} (dropped)[/]")
            continue
        if roll.value is None:
            con.print(f"{r.die}: {read or '(no card)'} → [yellow]redraw[/]: "
                      "reveal another card and read again")
            continue
        note = f" [dim]({roll.redraws} redraw{'s' if roll.redraws != 1 else ''})[/]" \
            if roll.redraws else ""
        con.print(f"{r.die}: [bold]{roll.value}[/]  ← {read}{note}")
    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    if r.explain:
        con.print(f"[dim]How to read it by hand:[/] {r.explain}")
