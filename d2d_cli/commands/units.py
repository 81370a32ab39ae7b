"""``d2d unit …`` — the roster of units on the board (001 p.7 "A Unit can be a person,
creature, or vehicle"), their conditions, healing and targets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Protocol, TypeVar

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.rules import conditions, rounds, units


class _Change(Protocol):
    @property
    def summary(self) -> str: ...


R = TypeVar("R", bound=_Change)

app = c.group("unit")


def complete_units(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the roster's names that start with what was typed."""
    try:
        names = list(c.read(ctx).get("units", {}))
    except Exception:  # completion must never fail loudly
        return []
    return [n for n in names if n.lower().startswith(incomplete.lower())]


UnitArg = Annotated[str, typer.Argument(help="Unit name (case-insensitive).",
                                        autocompletion=complete_units)]


def _change(ctx: typer.Context, step: Callable[[dict[str, units.Unit]], R]) -> R | Any:
    """One change to the roster, saved and journalled under the result's summary. A
    unit's row comes back as the Status Bar shows it (the Move and Action Cost its first
    Refresh gives, before one: ``rounds.unit_on_bar``)."""
    with c.edit(ctx) as tx:
        roster = units.roster(tx.data)
        result = step(roster)
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
        if isinstance(result, units.UnitRow) and type(result) is units.UnitRow:
            return rounds.unit_on_bar(tx.data, result.name, c.options(ctx, tx.data))
    return result


def _stat_opt(name: str) -> Any:
    return typer.Option(f"--{name}", metavar="STAT", help=f"{name.capitalize()} as "
                        "<level>x<scale>, e.g. 2x1.")


@app.command()
def add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The unit's name (unique, case-insensitive).")],
    body: Annotated[str, _stat_opt("body")],
    mind: Annotated[str, _stat_opt("mind")],
    will: Annotated[str, _stat_opt("will")],
    speed: Annotated[str, _stat_opt("speed")],
    skill: Annotated[list[str] | None, typer.Option("--skill", metavar="NAME=LEVEL",
                     help="A skill and its level, e.g. \"Close Combat=1\"; repeat.")] = None,
    faction: Annotated[str | None, typer.Option(help="Side or group (optional).")] = None,
    json: c.JsonOpt = False,
) -> None:
    """Add a unit (creature, NPC, vehicle) with its four stats and skills.

    Example: d2d unit add Goblin --body 2x1 --mind 6x1 --will 2x1 --speed 5x0 --skill Stealth=1
    """
    unit = units.new_unit(name, {"body": body, "mind": mind, "will": will, "speed": speed},
                          skill or [], faction)
    render.emit(_change(ctx, lambda roster: units.add(roster, unit)), show_unit, as_json=json)


@app.command("list")
def list_(ctx: typer.Context, json: c.JsonOpt = False) -> None:
    """List every unit and character on the roster, in the order they were added.

    Example: d2d unit list
    """
    data = c.read(ctx)
    render.emit(rounds.status_bar(data, c.options(ctx, data)), show_table, as_json=json)


@app.command()
def show(ctx: typer.Context, name: UnitArg,
         json: c.JsonOpt = False) -> None:
    """One unit: stats after conditions, conditions, skills, Move, Action Cost, Turn, target.

    Example: d2d unit show "Goblin Scout" --json
    """
    data = c.read(ctx)
    render.emit(rounds.unit_on_bar(data, name, c.options(ctx, data)), show_unit, as_json=json)


@app.command()
def rm(ctx: typer.Context, name: UnitArg,
       json: c.JsonOpt = False) -> None:
    """Remove a unit (or character) from the roster; units targeting it lose the target.

    Example: d2d unit rm "Goblin Scout"
    """
    result = _change(ctx, lambda roster: units.remove(roster, name))
    render.emit(result, lambda con, r: con.print(f"Removed {render.escape(r.name)}."),
                as_json=json)


@app.command()
def condition(
    ctx: typer.Context,
    name: UnitArg,
    action: Annotated[str, typer.Argument(metavar="add|remove", help="add or remove.")],
    cond: Annotated[str, typer.Argument(metavar="CONDITION", help="e.g. Fatigue, Bleeding, "
                                        "\"Blood Loss\", Dying (d2d ref conditions).")],
    count: Annotated[int, typer.Option("--count", "-n", help="How many tokens (1–20).")] = 1,
    json: c.JsonOpt = False,
) -> None:
    """Add or remove condition tokens (000 Glossary); each token applies its penalty.

    Example: d2d unit condition "Goblin Scout" add Fatigue --count 2
    """
    order = conditions.order(action, cond, count)
    result = _change(ctx, lambda roster: conditions.apply(roster, name, order))
    render.emit(result, show_unit, as_json=json)


@app.command()
def heal(
    ctx: typer.Context,
    name: UnitArg,
    crit: Annotated[list[str] | None, typer.Option(
        "--crit", metavar="LOCATION|N", help="Take a placed Crit off: its location (torso, "
        "\"right arm\") or its number on the Status Bar (1 = the first placed); repeat.")]
    = None,
    days: Annotated[int | None, typer.Option(
        "--days", help="Days of healing: Blood Loss −1 a day, Burns −1 a month (30 days), "
        "as the Glossary gives them.")] = None,
    json: c.JsonOpt = False,
) -> None:
    """Heal a unit: take Crits off (the rules give no time: the Narrator says when) and
    let days pass for the conditions that heal with time (000 Glossary). Dying and
    other tokens come off with d2d unit condition NAME remove.

    Example: d2d unit heal "Goblin Scout" --crit "right arm" --days 2
    """
    order = conditions.healing(crit or [], days)
    result = _change(ctx, lambda roster: conditions.heal(roster, name, order))
    render.emit(result, show_healed, as_json=json)


@app.command()
def target(
    ctx: typer.Context,
    name: UnitArg,
    tgt: Annotated[str | None, typer.Argument(metavar="[TARGET]", help="The unit it targets.",
                                              autocompletion=complete_units)]
    = None,
    clear: Annotated[bool, typer.Option("--clear", help="Clear the target.")] = False,
    json: c.JsonOpt = False,
) -> None:
    """Set a unit's target (001 p.19 "Targets - Choose a Target (if any) for each Unit").

    Example: d2d unit target "Goblin Scout" Rook   (or: d2d unit target "Goblin Scout" --clear)
    """
    result = _change(ctx, lambda roster: units.set_target(roster, name, tgt, clear))
    render.emit(result, show_unit, as_json=json)


# --- human views (also used by status and char) ---------------------------------------


def dash(value: Any) -> str:
    return "—" if value is None else str(value)


def conditions_text(conds: dict[str, int]) -> str:
    return ", ".join(f"{conditions.name_of(k)}×{n}" if n > 1 else conditions.name_of(k)
                     for k, n in conds.items()) or "—"


def stat_cell(r: units.UnitRow, s: str) -> str:
    eff, base = r.stats.get(s), r.base_stats.get(s)
    if eff is None:
        return "—"
    if eff == base:
        return eff
    mark = "[red]" if s in r.zero else "[yellow]"
    return f"{mark}{eff}[/] [dim]({base})[/]"


def show_unit(con: Any, r: units.UnitRow) -> None:
    con.print(f"[bold]{render.escape(r.name)}[/] [dim]({r.kind})[/]")
    show_table(con, units.Roster((r,)))
    if r.skills:
        con.print("Skills: " + ", ".join(f"{render.escape(k)} {v}"
                                         for k, v in r.skills.items()))


def show_healed(con: Any, r: conditions.Healed) -> None:
    healed = [conditions.crit_name(x) for x in r.crits_healed]
    healed += [f"{conditions.name_of(k)} −{n}" for k, n in r.healed.items()]
    after = f" after {r.days} day(s)" if r.days is not None else ""
    con.print(f"{render.escape(r.name)} healed{after}: "
              f"{render.escape(', '.join(healed)) or 'nothing to heal yet'}")
    show_unit(con, r)


def _with_crits(conds: str, u: units.UnitRow) -> str:
    crits = [conditions.crit_name(x) for x in u.crits]
    if not crits:
        return conds
    return ", ".join(crits) if conds == "—" else f"{conds}, {', '.join(crits)}"


def show_table(con: Any, r: units.Roster) -> None:
    from rich.table import Table

    if not r.units:
        con.print("No units yet — d2d unit add NAME --body … or d2d char new NAME")
        return
    t = Table("Unit", "Body", "Mind", "Will", "Speed", "Conditions", "Move", "AC", "Turn",
              "Target", box=None)
    for u in r.units:
        t.add_row(render.escape(u.name), *(stat_cell(u, s) for s in units.STATS),
                  render.escape(_with_crits(conditions_text(u.conditions), u)),
                  dash(u.move),
                  dash(u.action_cost), dash(u.turn),
                  render.escape(dash(u.target)))
    con.print(t)
    for u in r.units:
        if u.zero:
            con.print(f"[red]{render.escape(u.name)}: {', '.join(u.zero)} at 0 — "
                      "flip to Crit (001 p.35)[/]")
