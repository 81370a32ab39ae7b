"""``d2d scale …`` — stats at any scale: real mass, speed and IQ ↔ ``8x1``; map scales.

000 "Reference > Units", "Map and Scale"; 001 pp.6–10 ("Stat" and its samples).
Conversions live in :mod:`d2d_cli.rules.scale.quantities`; choices in docs/rules.md "Stats and
scale". Only ``speed``, ``show --as speed``, ``map`` and ``area`` read the session (for
its ``[rules]``: operations/scale.py), and not even those when the option gives it.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.operations import scale as ops
from d2d_cli.rules.scale import quantities as scale
from d2d_cli.rules.scale import stats

app = _app.group("scale")

# "-5kg" is a (bad) value, not an unknown option: let it reach the rules' message.
_VALUE = {"ignore_unknown_options": True}

ConventionOpt = Annotated[str | None, typer.Option(
    "--convention", metavar="001|000",
    help="What a Speed level counts: 001 km/h (default), 000 m/s below 20 km/h. "
         "Default: the session's [rules] speed_convention.")]


@app.command(context_settings=_VALUE,
    short_help="A real mass → Body, with Deadlift, Carry and Load.")
def mass(
    value: Annotated[list[str], typer.Argument(
        metavar="VALUE", help="A mass: 80kg, 175lb, 60t, 5.97e24kg, 12oz, 2 short tons, "
        "62 kg (a bare number is kg).")],
    json: _app.JsonOpt = False,
) -> None:
    """A real mass → Body, read back in kg and lb, with Deadlift, Carry and Load.

    000 "Units > Body": "Body is derived from Mass … Human Male is 80kg = 8x1".
    Example: d2d scale mass 80kg
    """
    render.emit(scale.mass(" ".join(value)), _show_value, as_json=json)


@app.command(context_settings=_VALUE, short_help="A real speed → Speed, in both conventions.")
def speed(
    ctx: typer.Context,
    value: Annotated[list[str], typer.Argument(
        metavar="VALUE", help="A speed: 4m/s, 40kph, 40 km/h, 25mph, 10knots, 0.5c.")],
    convention: ConventionOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """A real speed → Speed; shows the other convention's reading when it differs.

    001 p.10: "Speed - 5x0 = 5kph/3mph"; 000: "Below 20 kph - Running Speed in m/s".
    Example: d2d scale speed 40kph
    """
    render.emit(ops.speed(_state.target(ctx), *value, convention=convention), _show_value,
                as_json=json)


@app.command(context_settings=_VALUE, short_help="An IQ → Mind (IQ − 50), or a Mind stat → its IQ.")
def iq(
    value: Annotated[str, typer.Argument(metavar="VALUE", help="An IQ above 50 (e.g. 100), "
                                         "or a Mind stat (e.g. 5x1) for its IQ.")],
    json: _app.JsonOpt = False,
) -> None:
    """An IQ → Mind (000: "Mind is equal to IQ-50"), or a Mind stat → its IQ.

    Example: d2d scale iq 110
    """
    render.emit(scale.iq(value), _show_value, as_json=json)


@app.command(context_settings=_VALUE)
def show(
    ctx: typer.Context,
    stat: Annotated[str, typer.Argument(metavar="STAT", help="A stat, e.g. 8x1, 10x-1, 1x9.")],
    as_: Annotated[str, typer.Option("--as", metavar="body|mind|speed",
                                     help="Which stat it is (default body).")] = "body",
    convention: ConventionOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """The real quantities a stat stands for, in metric and imperial.

    Example: d2d scale show 8x1 --as body
    """
    render.emit(ops.show(_state.target(ctx), stat, as_=as_, convention=convention),
                _show_value, as_json=json)


@app.command(short_help="Which stat is higher: Level Bonus and scale difference.")
def compare(
    a: Annotated[str, typer.Argument(metavar="STAT", help="The first stat (a).")],
    b: Annotated[str, typer.Argument(metavar="STAT", help="The second stat (b).")],
    json: _app.JsonOpt = False,
) -> None:
    """Which stat is higher, the Level Bonus and the scale difference (signed: + favours a).

    001 p.5 "Level Bonus - When comparing Levels, the higher Level gains a bonus equal
    to their difference"; 001 p.34 "Compare Scales … (eg 2x4 > 9x1 = Hits:+3)".
    Example: d2d scale compare 2x4 9x1
    """
    result = scale.comparison(stats.parse_stat(a), stats.parse_stat(b))
    render.emit(result, _show_compare, as_json=json)


@app.command("samples", short_help="The rules' samples, electron to universe, with their stats.")
def samples_(json: _app.JsonOpt = False) -> None:
    """The rules' samples, from an electron to the universe, with d2d's stat for each.

    Example: d2d scale samples
    """
    render.emit(scale.samples(), _show_samples, as_json=json)


@app.command("map", short_help="A map's space and round; a unit's Move and Action Cost there.")
def map_(
    ctx: typer.Context,
    kind: Annotated[str | None, typer.Argument(
        click_type=_complete.MAP,
        metavar="TYPE", help="personal, car, naval, aerial, planetary, narrative (or "
                             "starfighter, orbital, stellar, galactic: no printed scale).")]
    = None,
    speed: Annotated[str | None, typer.Option("--speed", metavar="STAT",
                                              help="A unit's Speed, e.g. 5x0.")] = None,
    list_: Annotated[bool, typer.Option("--list", help="Show every map type.")] = False,
    convention: ConventionOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """A map's space and round, and what one Move counts on it; with --speed, a unit's
    Move and Action Cost there — the same rule as round start and the Status Bar.

    Example: d2d scale map car --speed 5x1
    """
    result = ops.map(_state.target(ctx), kind, speed=speed, list=list_, convention=convention)
    render.emit(result, _show_maps if isinstance(result, scale.MapList) else _show_map,
                as_json=json)


@app.command("area", short_help="The area a Power's Effect points buy.")
def area(
    ctx: typer.Context,
    points: Annotated[int, typer.Argument(help="Effect points spent on Area (1–100).")],
    reading: Annotated[str | None, typer.Option(
        "--reading", metavar="table|formula",
        help="The printed rows (1–5 points) or the printed formula (X−1)². Default: the "
             "session's [rules] power_area.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """The area a Power's Effect points buy: 1 space, or Area Effect cards (000 "Powers").

    000 prints rows (2 points Area Effect:1 … 5 points Area Effect:8) and a formula
    "(X-1)^2" that disagree from 3 points (docs/errata.md). Example: d2d scale area 4
    """
    render.emit(ops.area(_state.target(ctx), points, reading=reading), _show_area,
                as_json=json)


# --- human views --------------------------------------------------------------------


def _stat_line(r: scale.Quantity) -> str:
    partial = f" [dim](partial {r.partial_stat})[/]" if r.partial is not None else ""
    return f"[bold]{r.as_.capitalize()} {r.stat}[/]{partial}"


def _show_value(con: Any, r: scale.Quantity) -> None:
    if isinstance(r, (scale.MassRead, scale.IQRead, scale.SpeedRead)):
        con.print(f"{render.escape(r.input.text)} → {_stat_line(r)}")
    else:
        con.print(_stat_line(r))
    if isinstance(r, (scale.MassRead, scale.BodyShown)):
        con.print(f"  {r.stat} = {r.metric.text} / {r.imperial.text}")
        for name, d in r.derived.items():
            con.print(f"  {name.capitalize()}: {d.metric} / {d.imperial}")
    elif isinstance(r, (scale.SpeedRead, scale.SpeedShown)):
        rd = r.readings
        con.print(f"  {r.stat} = {rd.metric.text} = {rd.mps.text} = {rd.imperial.text}"
                  f" [dim](level counts {r.counts}, convention {r.convention})[/]")
        other = r.other_convention
        if isinstance(other, scale.OtherStat):
            con.print(f"  [yellow]Under convention {other.convention}: {other.stat}[/] "
                      f"(level counts {other.counts})")
        elif other is not None:
            o = other.readings
            con.print(f"  [yellow]Under convention {other.convention}: "
                      f"{o.metric.text} = {o.mps.text}[/]")
    else:
        con.print(f"  {r.stat} = IQ {r.value_exact} (Mind = IQ − 50)")


def _show_compare(con: Any, r: scale.Comparison) -> None:
    a, b = r.a.stat, r.b.stat
    higher = {"a": f"{a} is higher", "b": f"{b} is higher", "equal": "equal"}[r.higher]
    con.print(f"[bold]{a}[/] vs [bold]{b}[/]: {higher} (×{r.ratio})")
    who = {"a": a, "b": b, None: "neither"}
    con.print(f"  Level Bonus: {abs(r.level_bonus)} to {who[r.level_bonus_to]}")
    con.print(f"  Scale difference: {abs(r.scale_difference)} "
              f"(higher scale: {who[r.higher_scale]})")


def _move_1(r: scale.MapSpec) -> str:
    return f"Move:1 = {r.move_1_text}" if r.move_1_text else "Move = Speed Level"


def _show_map(con: Any, r: scale.MoveOnMap) -> None:
    rnd = f"{r.round_s} s" if r.round_s is not None else "flexible"
    con.print(f"[bold]{r.name}[/]: space {render.escape(r.space_text)}, round {rnd}, "
              f"{_move_1(r)}")
    if r.speed is not None:
        sp = r.speed
        spaces = "" if r.spaces_per_round is None else \
            f"{scale.fmt(r.spaces_per_round)} spaces per round, "
        slow = " [dim](too slow to cross a Space or act on this map)[/]" if r.move == 0 else ""
        con.print(f"  Speed {sp.stat} ({scale.fmt(sp.kph)} km/h): {spaces}"
                  f"[bold]Move {r.move}[/], Action Cost {r.action_cost}{slow}")


def _show_maps(con: Any, r: scale.MapList) -> None:
    from d2d_cli.layout import Table

    t = Table("Type", "Space", "Round", "One Move", box=None)
    for m in r.maps:
        t.add_row(m.map, render.escape(m.space_text),
                  f"{m.round_s} s" if m.round_s is not None else "flexible",
                  m.move_1_text or "the Speed Level")
    con.print(t)
    con.print("[dim]Printed values and d2d's choices: docs/rules.md \"Stats and scale\".[/]")


def _show_samples(con: Any, r: scale.Samples) -> None:
    from d2d_cli.layout import Table

    t = Table("Sample", "Stat", "Real", "d2d", box=None)
    for x in r.samples:
        note = f" [dim](printed {x.printed})[/]" if x.canonical else ""
        conv = f" [dim]({x.convention})[/]" if x.convention else ""
        t.add_row(render.escape(x.name), x.kind.capitalize(),
                  render.escape(x.value) + conv, x.result + note)
    con.print(t)


def _show_area(con: Any, r: Any) -> None:  # rules.units.powers.PowerArea
    if r.printed_row is None:
        note = ("above 5 points the printed rows double on; the formula (X−1)² gives "
                f"{_area(r.formula)}") if r.power_area == "table" else ""
    elif r.power_area == "table":
        note = f"the formula (X−1)² gives {_area(r.formula)}"
    else:
        note = f"the printed row gives {_area(r.printed_row)}"
    con.print(f"{r.points} Effect point{'s' if r.points != 1 else ''} → [bold]{r.text}[/] "
              f"[dim](reading: {r.power_area}{'; ' + note if note else ''})[/]")


def _area(n: int) -> str:
    return "1 space" if n == 0 else f"Area Effect:{n}"
