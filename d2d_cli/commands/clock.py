"""``d2d clock …`` — the scene clock and its Timed and Random Events (001 p.18)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _state
from d2d_cli.commands._convention import positional_or_option
from d2d_cli.errors import BadInput
from d2d_cli.operations import clock as ops
from d2d_cli.rules.time import clock as clocks

app = _app.group("clock")
event_app = _app.group("clock event", "Timed Events (placed in the Clock) and Random Events "
                    "(checked at round end).")
app.add_typer(event_app, name="event",
              short_help="Timed and Random Events: add, random, list, rm.")

DownOpt = Annotated[bool, typer.Option("--down", help="Tick down instead of up.")]


@app.command()
def show(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """The clock's top card and every event waiting in it.

    Example: d2d clock show
    """
    render.emit(ops.show(_state.target(ctx)), _show, as_json=json)


@app.command("set", short_help="Put card N on top of the clock (reveals no event).")
def set_(ctx: typer.Context, n: Annotated[int, typer.Argument(help="The clock's new number.")],
         json: _app.JsonOpt = False) -> None:
    """Put card N on top of the clock (a correction: reveals no event).

    Example: d2d clock set 1
    """
    render.emit(ops.set_to(_state.target(ctx), n), _show, as_json=json)


@app.command(short_help="Discard the top card; reveal the Timed Events on the next.")
def tick(ctx: typer.Context, down: DownOpt = False, json: _app.JsonOpt = False) -> None:
    """Discard the clock's top card and reveal the Timed Events on the next.

    Example: d2d clock tick
    """
    render.emit(ops.tick(_state.target(ctx), down=down), _show_moved, as_json=json)


# "-3" reads as a number here, so the error can say what is accepted.
@app.command(context_settings={"ignore_unknown_options": True},
    short_help="Tick COUNT times; list every event passed.")
def advance(ctx: typer.Context,
            count_: Annotated[int | None, typer.Argument(
                metavar="[COUNT]", show_default=False, help="How many ticks (1–1000).")]
            = None,
            count: Annotated[int | None, typer.Option(
                "--count", "-n", help="How many ticks, by name (the same as COUNT).")]
            = None,
            down: DownOpt = False, json: _app.JsonOpt = False) -> None:
    """Tick COUNT times and list, in order, every event passed — none is skipped.

    Example: d2d clock advance 4
    """
    k = positional_or_option(count_, count, "count", what="how many ticks")
    render.emit(ops.advance(_state.target(ctx), k, down=down), _show_moved, as_json=json)


@event_app.command("add", short_help="Place a Timed Event on card N of the Clock.")
def event_add(ctx: typer.Context,
              text: Annotated[str, typer.Argument(metavar="TEXT", help="What happens.")],
              at_: Annotated[str | None, typer.Argument(
                  metavar="[AT]", show_default=False,
                  help="The clock number it is placed on.")] = None,
              at: Annotated[int | None, typer.Option(
                  "--at", help="The clock number, by name (the same as AT).")] = None,
              json: _app.JsonOpt = False) -> None:
    """Place a Timed Event in the Clock on card N (revealed when card N comes up). The
    number may also come first, as before: clock event add 5 "Reinforcements".

    Example: d2d clock event add "Another Goblin Skirmisher arrives" 5
    """
    text, at_number = _text_and_clock(text, at_)
    at = positional_or_option(at_number, at, "at", what="the clock number")
    render.emit(ops.add_timed(_state.target(ctx), text, at), _show_added, as_json=json)


def _text_and_clock(first: str, second: str | None) -> tuple[str, int | None]:
    """``TEXT [AT]``, or the older ``AT TEXT`` (a whole number first and text after it;
    two whole numbers keep that older meaning)."""
    def whole(word: str) -> bool:
        return word.strip().lstrip("+-").isdigit()

    if second is None:
        return first, None
    if whole(first):
        return second, int(first)
    if not whole(second):
        raise BadInput(f"AT is the clock number it is placed on, a whole number, not "
                       f"{second!r}")
    return first, int(second)


@event_app.command("random", short_help="Add a Random Event, checked at each round end.")
def event_random(ctx: typer.Context, text: Annotated[str, typer.Argument(help="What happens.")],
                 chance_: Annotated[str | None, typer.Argument(
                     metavar="[CHANCE]", show_default=False,
                     help="K/N (occurs when a Fate reveal read as a dN is K or less; 1/4 "
                     "reads a d4 = the suit) or P%.")] = None,
                 chance: Annotated[str | None, typer.Option(
                     "--chance", help="The chance, by name (the same as CHANCE).")] = None,
                 repeat: Annotated[bool, typer.Option(
                     "--repeat", help="Check it every round end, even after it occurred.")]
                 = False,
                 json: _app.JsonOpt = False) -> None:
    """Add a Random Event, checked with a Fate reveal at each round end.

    Example: d2d clock event random "A patrol passes" 1/4
    """
    chance = positional_or_option(chance_, chance, "chance", what="the chance")
    render.emit(ops.add_random(_state.target(ctx), text, chance, repeat=repeat), _show_added,
                as_json=json)


@event_app.command("list")
def event_list(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """Every Timed Event (in clock order) and Random Event.

    Example: d2d clock event list --json
    """
    render.emit(ops.event_list(_state.target(ctx)), _show, as_json=json)


@event_app.command("rm", short_help="Take a Timed or Random Event out of the Clock.")
def event_rm(ctx: typer.Context,
             text: Annotated[str, typer.Argument(metavar="TEXT", help="The event's text "
                                                 "(any case), as clock event list shows it.")],
             at: Annotated[int | None, typer.Option(
                 "--at", metavar="N", help="The clock number, when two Timed Events share "
                 "the text.")] = None,
             json: _app.JsonOpt = False) -> None:
    """Take a Timed or Random Event out of the Clock (it will not happen).

    JSON: kind (timed or random), text, at (a Timed Event's number) or chance (K/N).

    Example: d2d clock event rm "The bridge collapses"
    """
    render.emit(ops.remove_event(_state.target(ctx), text, at=at), lambda con, r: con.print(
        f"Removed the {r.kind} event: {render.escape(r.text)}"
        + (f" (#{r.at})" if r.at is not None else f" ({r.chance})")), as_json=json)


def _show(con: Any, r: clocks.ClockView) -> None:
    con.print(f"[bold]Clock:[/] {r.clock} (ticks {'down' if r.down else 'up'})")
    for e in r.timed:
        mark = "[dim]done[/]" if e.done else "waiting"
        con.print(f"  #{e.at}: {render.escape(e.text)} — {mark}")
    for x in r.random:
        mark = "[dim]occurred[/]" if x.done else "checked each round end"
        con.print(f"  random {x.chance}: {render.escape(x.text)} — {mark}")
    if not r.timed and not r.random:
        con.print("  [dim]no events[/]")


def show_reached(con: Any, events: tuple[clocks.TimedEvent, ...], arrived: tuple[str, ...],
                 indent: str) -> None:
    """The Timed Events a tick reached and the reserves that arrived (also round end's)."""
    for e in events:
        con.print(f"{indent}[yellow]Clock #{e.at}:[/] {render.escape(e.text)}")
    for name in arrived:
        con.print(f"{indent}[yellow]{render.escape(name)} arrives.[/]")


def _show_moved(con: Any, r: clocks.ClockMoved) -> None:
    con.print(f"[bold]Clock:[/] {r.clock_before} → {r.clock}")
    show_reached(con, r.events, r.arrived, "  ")
    if not r.events:
        con.print("  [dim]no events reached[/]")


def _show_added(con: Any, r: clocks.TimedAdded | clocks.RandomAdded) -> None:
    where = f"on clock #{r.at}" if isinstance(r, clocks.TimedAdded) else f"chance {r.chance}"
    con.print(f"Added {r.kind} event {where}: {render.escape(r.text)}")
