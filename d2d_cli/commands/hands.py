"""``d2d hand …`` — the Players' Conflict hands, held by d2d under ``[rules] hands =
"d2d"`` (000 l.401; 001 l.732 "Play a Conflict facedown from hand")."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.operations import hands as ops
from d2d_cli.rules.units import hands

app = _app.group("hand")

PlayerArg = Annotated[str, typer.Argument(help="The Player's name (a unit's --player), or "
                                          "Narrator with [rules] narrator_hand.")]


@app.command(short_help="A fresh deck and 5 cards for every Player, or one.")
def deal(ctx: typer.Context,
         player: Annotated[str | None, typer.Argument(
             help="One Player (default: every Player).", show_default=False)] = None,
         json: _app.JsonOpt = False) -> None:
    """A scene's start for a table mid-scene: a fresh Conflict Deck (54 cards) and 5 new
    cards for every Player, or one (000 l.401). scene load deals them itself.

    Example: d2d hand deal
    """
    render.emit(ops.deal(_state.target(ctx), player), _show_counts, as_json=json)


@app.command(short_help="One Player's own hand, and only theirs.")
def show(ctx: typer.Context, player: PlayerArg, json: _app.JsonOpt = False) -> None:
    """One Player's own hand (only theirs), the card they chose face down, and their
    discard pile. Show it to that Player only.

    Example: d2d hand show Ann
    """
    render.emit(ops.show(_state.target(ctx), player), _show_hand, as_json=json)


@app.command(short_help="Choose a card face down for a unit's coming Conflict.")
def choose(ctx: typer.Context,
           unit: Annotated[str, typer.Argument(click_type=_complete.UNIT,
                                               help="The unit the card is for.")],
           card: Annotated[str, typer.Argument(click_type=_complete.CARD,
                                               help="A card of the hand with the "
                                               "orientation chosen, e.g. 7S^ or QHv.")],
           json: _app.JsonOpt = False) -> None:
    """Choose a card face down for a unit's coming Conflict (001 l.732): either side,
    in any order. The conflict then reveals both at once (d2d conflict UNIT RIVAL);
    nothing else shows the card — not status, the session log nor undo.

    Example: d2d hand choose Archer 7S^
    """
    render.emit(ops.choose(_state.target(ctx), unit, card), _show_choice, as_json=json)


@app.command(short_help="A Player draws, never past 10 held.")
def draw(ctx: typer.Context, player: PlayerArg,
         n: Annotated[int, typer.Argument(help="How many cards (1–10).")] = 1,
         json: _app.JsonOpt = False) -> None:
    """A Player draws (never past 10 held): for a Draw the table made by hand.

    Example: d2d hand draw Ann
    """
    render.emit(ops.draw(_state.target(ctx), player, n), _show_drew, as_json=json)


@app.command(short_help="Gain:A: an Ace from the discard pile or the deck.")
def gain(ctx: typer.Context, player: PlayerArg, json: _app.JsonOpt = False) -> None:
    """Gain:A (000 l.1197): an Ace from the discard pile, else from the deck, into the
    hand.

    Example: d2d hand gain Ann
    """
    render.emit(ops.gain(_state.target(ctx), player), _show_drew, as_json=json)


@app.command(short_help="Take a Player's hand off the table (a stand-in gone).")
def drop(ctx: typer.Context, player: PlayerArg, json: _app.JsonOpt = False) -> None:
    """Take a Player's Conflict Deck, hand and discard off the table: a stand-in Player
    who is not playing (or rename them: d2d player rename OLD NEW). Their units stay
    theirs; d2d hand deal PLAYER deals them again.

    Example: d2d hand drop Player2
    """
    render.emit(ops.drop(_state.target(ctx), player), _show_dropped, as_json=json)


def _show_dropped(con: Any, r: hands.Dropped) -> None:
    con.print(f"{render.escape(r.player)}'s hand is off the table ({r.hand} cards)")
    if r.units:
        con.print(f"{render.escape(r.player)} still plays {render.escape(', '.join(r.units))}"
                  f": give them to a Player (d2d unit side NAME --player P) or deal again "
                  f"(d2d hand deal {render.escape(r.player)})")


def _show_counts(con: Any, r: hands.Dealt) -> None:
    for h in r.hands:
        con.print(f"{render.escape(h.player)}: {h.hand} cards in hand, {h.deck} in the "
                  f"deck (d2d hand show {render.escape(h.player)})")


def _show_hand(con: Any, r: hands.HandView) -> None:
    who = f" ({render.escape(', '.join(r.units))})" if r.units else ""
    con.print(f"[bold]{render.escape(r.player)}[/]{who}: {len(r.hand)} cards")
    for c in r.hand:
        con.print(f"  {c.face:<3} {c.name()[:-2]}")
    if r.chosen is not None:
        con.print(f"Face down for {render.escape(r.chosen_unit or '')}: {r.chosen.name()}")
    last = f", the last {r.discard[-1].name()}" if r.discard else ""
    con.print(f"[dim]Deck {r.deck}; discard {len(r.discard)}{last}[/]")


def _show_choice(con: Any, r: hands.Choice) -> None:
    again = " (the earlier choice went back into the hand)" if r.replaced else ""
    con.print(f"{render.escape(r.player)} chose a card face down for "
              f"{render.escape(r.unit)}{again}. Reveal: d2d conflict "
              f"{render.escape(r.unit)} RIVAL")


def _show_drew(con: Any, r: hands.Drew) -> None:
    more = " (the discard pile was shuffled back in)" if r.reshuffled else ""
    con.print(f"{render.escape(r.player)} drew {r.drew}{more}: {r.hand} in hand")
