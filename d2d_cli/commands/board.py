"""``d2d board`` — the map with its units, Facing and obstacles (docs/board.md)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state

app = _app.group("board", cls=_app.DefaultGroup)
event_app = _app.group("board", help="Events on the map (001 l.441–447).\n\nFog of War "
                       "Events lie face down on a Space, Location Events under a Place."
                       "\n\nExample: d2d board event add C3 \"A pit trap\"")
app.add_typer(event_app, name="event")


@app.callback(invoke_without_command=True, subcommand_metavar="[COMMAND [ARGS]...]")
def board(
    ctx: typer.Context,
    svg: Annotated[Path | None, typer.Option(
        "--svg", metavar="FILE", help="Also write the map as an SVG picture to FILE (open "
        "it in a browser).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")
                     ] = False,
    legend: Annotated[bool, typer.Option(
        "--legend", help="Show the legend and how to read the map (shown once in d2d "
        "play, and with --why).")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Draw the map: its Spaces (columns A, B, … from the west, rows 1, 2, … from the
    north), obstacles and terrain by their legend character, and each placed unit as
    a label and an arrow for its Facing; then where each unit stands (the legend with
    --legend or --why, and the first time in d2d play).
    A map too wide for the terminal is drawn in strips of columns.

    JSON: columns, rows, first_column, last_column, grid (the rows of legend
    characters), legend [{symbol, name, enter, cover, sight, elevation, move}], units
    [{label, name, faction, space, spaces, facing, double}], unplaced, left (the units
    that left the map at its edge: d2d unit leave).

    With Fog of War (d2d board fog, a scene's [fog]): everything still shows here, the
    Spaces under fog dim and listed, with the Places and the Events on the map; the
    players' pages (d2d serve) show fog there instead. JSON then adds fog (rows: ? under
    fog), fogged, sight, places, events.

    Its commands put Spaces under fog, lift it, name Places and place Events.

    Example: d2d board --svg combat1.svg
    """
    if ctx.invoked_subcommand is not None:
        return
    from d2d_cli import render as render_
    from d2d_cli.operations.overview import board as drawn

    render_.begin(_app.command_name(ctx))
    t = _state.target(ctx)
    result = drawn(t, svg=svg, force=force)
    render.emit(result, lambda con, r: _show(con, r, legend or _first_in_play(t)),
                as_json=json)


# `d2d board --help` is the callback's docstring; the root's list, GROUPS' line.
assert app.registered_callback is not None
app.registered_callback.help = inspect.getdoc(board)


# The sessions whose legend this process has shown: in d2d play (one process) the
# first `board` of a session shows it, the next ones only the map.
_LEGEND_SHOWN: set[str] = set()


def _first_in_play(t: Any) -> bool:
    from d2d_cli import env

    if env.current().explained is None:  # a one-shot command: --legend asks for it
        return False
    key = str(t.path())
    first = key not in _LEGEND_SHOWN
    _LEGEND_SHOWN.add(key)
    return first


def _show(con: Any, r: Any, legend: bool = False) -> None:
    from d2d_cli import mapview

    for line in mapview.lines(r, con.width or 80, legend=legend or render.why()):
        con.print(line)


Where = Annotated[str | None, typer.Argument(
    metavar="[SPACES|PLACE]", click_type=_complete.PLACE,
    help="Spaces (G5), rectangles (B2:D4) separated by commas, or a Place's name.",
    show_default=False)]
AllOpt = Annotated[bool, typer.Option("--all", help="The whole map.")]


@app.command("fog")
def fog_cmd(ctx: typer.Context, where: Where = None, all_: AllOpt = False,
            sight: Annotated[int | None, typer.Option(
                "--sight", metavar="N", help="How far (Range) a Player's unit sees into "
                "the fog, in its Line of Sight (default 4; 0: only the Spaces it "
                "enters).")] = None,
            json: _app.JsonOpt = False) -> None:
    """Put Spaces under Fog of War: the players' map shows fog there (no terrain, no
    unit, no Event) until a Player's unit enters or sees them, or d2d board reveal.

    Example: d2d board fog --all --sight 3
    """
    from d2d_cli.operations import board as ops

    result = ops.fog(_state.target(ctx), where, all=all_, sight=sight)
    render.emit(result, _fog_line, as_json=json)


@app.command("reveal")
def reveal_cmd(ctx: typer.Context, where: Where = None, all_: AllOpt = False,
               json: _app.JsonOpt = False) -> None:
    """Lift the fog from Spaces. A Place named is explored (000 l.226 Exploration): its
    Location Events are revealed too (001 l.441–443).

    Example: d2d board reveal B2:D4
    """
    from d2d_cli.operations import board as ops

    result = ops.reveal(_state.target(ctx), where, all=all_)
    render.emit(result, _fog_line, as_json=json)


@app.command("place")
def place_cmd(ctx: typer.Context,
              name: Annotated[str, typer.Argument(
                  help="The Place's name, e.g. Cellar.", click_type=_complete.PLACE)],
              spaces: Annotated[str | None, typer.Argument(
                  metavar="[SPACES]", help="Its Spaces: G5, B2:D4, separated by commas.",
                  show_default=False)] = None,
              rm: Annotated[bool, typer.Option("--rm", help="Forget the Place.")] = False,
              json: _app.JsonOpt = False) -> None:
    """Name a Place on the map: Location Events lie under it (001 l.441), a unit in it
    Searches it (d2d unit act NAME search), d2d board fog|reveal take its name.

    Example: d2d board place Cellar B2:C3
    """
    from d2d_cli.operations import board as ops

    result = ops.place(_state.target(ctx), name, spaces, rm=rm)
    render.emit(result, _events, as_json=json)


@event_app.command("add")
def event_add(ctx: typer.Context,
              where: Annotated[str, typer.Argument(
                  metavar="SPACE|PLACE", click_type=_complete.PLACE,
                  help="The Space it lies on (a Location Event: its Place, or a Space).")],
              text: Annotated[str, typer.Argument(help="What happens when it is revealed.")],
              location: Annotated[bool, typer.Option(
                  "--location/--fog", help="A Location Event under a Place, revealed when "
                  "searched or explored; default a Fog of War Event face down on a Space, "
                  "revealed when a Player's unit enters it.")] = False,
              json: _app.JsonOpt = False) -> None:
    """Place an Event on the map, hidden from the players until it is revealed (001
    l.441–447).

    Example: d2d board event add C3 "A pit trap: Test Speed vs 5"
    """
    from d2d_cli.operations import board as ops

    result = ops.event_add(_state.target(ctx), where, text, location=location)
    render.emit(result, lambda con, r: con.print(render.escape(r.summary)), as_json=json)


@event_app.command("list")
def event_list(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """The Events on the map (face down or revealed) and the Places.

    Example: d2d board event list --json
    """
    from d2d_cli.operations import board as ops

    render.emit(ops.event_list(_state.target(ctx)), _events, as_json=json)


Ident = Annotated[int, typer.Argument(metavar="N", help="The Event's number (board event "
                                      "list).")]


@event_app.command("reveal")
def event_reveal(ctx: typer.Context, ident: Ident, json: _app.JsonOpt = False) -> None:
    """Turn an Event up by hand (a Non-Player walked onto it; the table decided).

    Example: d2d board event reveal 2
    """
    from d2d_cli.operations import board as ops

    result = ops.event_reveal(_state.target(ctx), ident)
    render.emit(result, lambda con, r: con.print(render.escape(r.summary)), as_json=json)


@event_app.command("rm")
def event_rm(ctx: typer.Context, ident: Ident, json: _app.JsonOpt = False) -> None:
    """Take an Event off the map.

    Example: d2d board event rm 2
    """
    from d2d_cli.operations import board as ops

    result = ops.event_rm(_state.target(ctx), ident)
    render.emit(result, lambda con, r: con.print(render.escape(r.summary)), as_json=json)


def _fog_line(con: Any, r: Any) -> None:
    con.print(render.escape(r.summary))
    if r.fogged:
        con.print(f"  [dim]under fog: {render.escape(r.spaces)}[/]")


def _events(con: Any, r: Any) -> None:
    if r.places:
        con.print("Places: " + "; ".join(f"{render.escape(n)} ({', '.join(sp)})"
                                          for n, sp in r.places.items()))
    if not r.events:
        con.print("No Event on the map: d2d board event add SPACE TEXT")
    for e in r.events:
        state = "revealed" if e.revealed else "face down"
        con.print(f"{render.escape(e.label)} ({state}): {render.escape(e.text)}")
    con.print(f"[dim]{r.fogged} Spaces under fog; a Player's unit sees {r.sight} into it[/]")
