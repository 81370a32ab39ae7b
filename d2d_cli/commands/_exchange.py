"""``d2d unit situation``, ``unit interrupt`` and ``unit respond``: what the table says
once in a round (rules/time/exchange.py). Registered on the ``unit`` group by
commands/units.py."""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state

if TYPE_CHECKING:
    from d2d_cli.rules.time import exchange

NameArg = Annotated[str, typer.Argument(help="Unit name (case-insensitive).",
                                        click_type=_complete.UNIT)]
OtherArg = Annotated[str, typer.Argument(metavar="TARGET", help="The unit it Interrupts.",
                                         click_type=_complete.UNIT)]


def situation(
    ctx: typer.Context,
    name: NameArg,
    vs: Annotated[str | None, typer.Option(
        "--vs", metavar="OTHER", help="The other unit (needed for --range and "
        "--high-ground; with --cover, cover against it only).",
        click_type=_complete.UNIT)] = None,
    cover: Annotated[int | None, typer.Option(
        "--cover", metavar="PCT", help="The unit's Cover in 25% steps (0 takes it off): "
        "its Rival's Level -1 per 25%.")] = None,
    range_: Annotated[int | None, typer.Option(
        "--range", metavar="N", help="Spaces between the unit and OTHER.")]
    = None,
    high_ground: Annotated[bool | None, typer.Option(
        "--high-ground/--no-high-ground", help="The unit is (or is no longer) higher than "
        "OTHER: Level +1.")] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Forget what was said of the "
                                        "unit this round.")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Say once what holds this round: a unit's cover, its range to another unit, its
    high ground. d2d conflict and d2d hit read it for the two units named, unless an
    option is typed; it holds until said again and ends with the round.

    JSON: unit, round, cover {"*" or OTHER: percent}, range {OTHER: spaces},
    high_ground [OTHER…].

    Example: d2d unit situation Archer --cover 50 --range 3 --vs "Goblin Skirmisher"
    """
    from d2d_cli.operations import units

    result = units.situation(_state.target(ctx), name, vs=vs, cover=cover, range=range_,
                             high_ground=high_ground, clear=clear)
    render.emit(result, _show_said, as_json=json)


def _show_said(con: Any, r: "exchange.Said") -> None:
    con.print(render.escape(r.summary) + f" [dim](round {r.round})[/]")


def interrupt(ctx: typer.Context, name: NameArg, target: OtherArg,
              json: _app.JsonOpt = False) -> None:
    """Interrupt a unit's Move with an Action (000 l.126 "stop moving, resolve the
    Action, and then continue your Move"; 001 l.625 "Pause the Countdown"). The
    Action follows: d2d unit act NAME interact TARGET; the Target then answers with
    d2d unit respond.

    JSON: unit, target, interrupted_by.

    Example: d2d unit interrupt "Goblin Skirmisher" Archer
    """
    from d2d_cli.operations import units

    result = units.interrupt(_state.target(ctx), name, target)
    render.emit(result, lambda con, r: con.print(
        f"{render.escape(r.unit)} Interrupts {render.escape(r.target)}'s Move: it stops "
        "until the Action is resolved [dim](000 l.126)[/]"), as_json=json)


def respond(
    ctx: typer.Context,
    name: NameArg,
    action: Annotated[bool, typer.Option(
        "--action/--no-action", help="Spend an Action on the Interact (Move:-[Action "
        "Cost]), or not: then no benefit on a Win.")] = True,
    json: _app.JsonOpt = False,
) -> None:
    """The Target of an Interact answers: it spends an Action, or not (001 l.639–641
    "Target may spend an Action / IF not Target gains no benefits on a Win"). d2d
    conflict then gives it the benefits of its approach, or none.

    JSON: unit, actor, interrupt, action, spending (as unit act, or null), benefit,
    source.

    Example: d2d unit respond Archer --no-action
    """
    from d2d_cli.operations import units

    result = units.respond(_state.target(ctx), name, action=action)
    render.emit(result, _show_responded, as_json=json)


def _show_responded(con: Any, r: "exchange.Responded") -> None:
    what = "Interrupt" if r.interrupt else "Interact"
    if r.action and r.spending is not None:
        con.print(f"{render.escape(r.unit)} spends an Action against "
                  f"{render.escape(r.actor)}'s {what}: Move {r.spending.move_before} → "
                  f"{r.spending.move}")
    else:
        con.print(f"{render.escape(r.unit)} spends no Action against "
                  f"{render.escape(r.actor)}'s {what}: no benefit on a Win "
                  "[dim](001 l.641)[/]")


SAID_KEYS = ("said_range", "said_cover", "said_high_ground", "skill_by_reach",
             "target_action")


def show_recalled(con: Any, sources: dict[str, str]) -> None:
    """What a roll read from the round (``unit situation``, ``unit respond``)."""
    for key in SAID_KEYS:
        if key in sources:
            con.print(f"  [dim]{render.escape(sources[key])}[/]")
