"""``d2d unit …`` — the roster of units on the board (001 p.7 "A Unit can be a person,
creature, or vehicle"), their conditions and targets."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.errors import BadInput
from d2d_cli.rules import characters, conditions, units
from d2d_cli.rules.stats import parse_stat

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
    stats = {"body": parse_stat(body), "mind": parse_stat(mind), "will": parse_stat(will),
             "speed": parse_stat(speed)}
    skills = dict(characters.parse_skill_spec(s) for s in skill or [])
    if faction is not None and not units._NAME_RE.match(faction):
        raise BadInput(f"bad faction {faction!r}: 1–40 printable characters")
    with c.edit(ctx) as tx:
        roster = units.roster(tx.data)
        units.check_new_name(roster, name)
        unit = units.Unit(name=name, stats=stats, skills=skills, faction=faction)
        roster[name] = unit
        tx.put("units", units.roster_state(roster))
        tx.summary = f"added unit {name}"
    render.emit(units.status_row(unit), show_unit, as_json=json)


@app.command("list")
def list_(ctx: typer.Context, json: c.JsonOpt = False) -> None:
    """List every unit and character on the roster, in the order they were added.

    Example: d2d unit list
    """
    rows = [units.status_row(u) for u in units.roster(c.read(ctx)).values()]
    render.emit({"units": rows}, show_table, as_json=json)


@app.command()
def show(ctx: typer.Context, name: UnitArg,
         json: c.JsonOpt = False) -> None:
    """One unit: stats after conditions, conditions, skills, Move, Action Cost, Turn, target.

    Example: d2d unit show "Goblin Scout" --json
    """
    unit = units.find(units.roster(c.read(ctx)), name)
    render.emit(units.status_row(unit), show_unit, as_json=json)


@app.command()
def rm(ctx: typer.Context, name: UnitArg,
       json: c.JsonOpt = False) -> None:
    """Remove a unit (or character) from the roster; units targeting it lose the target.

    Example: d2d unit rm "Goblin Scout"
    """
    with c.edit(ctx) as tx:
        roster = units.roster(tx.data)
        unit, cleared = units.remove(roster, name)
        tx.put("units", units.roster_state(roster))
        tx.summary = f"removed unit {unit.name}"
    render.emit({"name": unit.name, "removed": True, "targets_cleared": cleared},
                lambda con, r: con.print(f"Removed {render.escape(r['name'])}."),
                as_json=json)


@app.command()
def condition(
    ctx: typer.Context,
    name: UnitArg,
    action: Annotated[str, typer.Argument(metavar="add|remove", help="add or remove.")],
    cond: Annotated[str, typer.Argument(metavar="CONDITION", help="e.g. Fatigue, Bleeding, "
                                        "\"Blood Loss\" (d2d ref conditions).",
                                        autocompletion=c.complete_conditions)],
    count: Annotated[int, typer.Option("--count", "-n", help="How many tokens (1–20).")] = 1,
    json: c.JsonOpt = False,
) -> None:
    """Add or remove condition tokens (000 Glossary); each token applies its penalty.

    Example: d2d unit condition "Goblin Scout" add Fatigue --count 2
    """
    if action not in ("add", "remove"):
        raise BadInput(f"unknown action {action!r}: use add or remove")
    if not 1 <= count <= 20:
        raise BadInput(f"--count {count}: use 1 to 20 tokens")
    cnd = conditions.lookup(cond)
    with c.edit(ctx) as tx:
        roster = units.roster(tx.data)
        unit = units.find(roster, name)
        if action == "remove" and unit.conditions.get(cnd.key, 0) == 0:
            raise BadInput(f"{unit.name} has no {cnd.name} to remove")
        now = unit.add_condition(cnd.key, count if action == "add" else -count)
        tx.put("units", units.roster_state(roster))
        tx.summary = f"{unit.name}: {cnd.name} {action} {count} → {now}"
    render.emit(units.status_row(unit), show_unit, as_json=json)


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
    if (tgt is None) == (not clear):
        raise BadInput("give a TARGET or --clear (not both)")
    with c.edit(ctx) as tx:
        roster = units.roster(tx.data)
        unit = units.find(roster, name)
        unit.target = units.find(roster, tgt).name if tgt else None
        tx.put("units", units.roster_state(roster))
        tx.summary = f"{unit.name} targets {unit.target or 'nothing'}"
    render.emit(units.status_row(unit), show_unit, as_json=json)


# --- human views (also used by status and char) ---------------------------------------



def dash(value: Any) -> str:
    return "—" if value is None else str(value)


def conditions_text(conds: dict[str, int]) -> str:
    table = conditions.table()
    return ", ".join(f"{table[k].name if k in table else k}×{n}" if n > 1 else
                     (table[k].name if k in table else k) for k, n in conds.items()) or "—"


def stat_cell(r: dict[str, Any], s: str) -> str:
    eff, base = r["stats"].get(s), r["base_stats"].get(s)
    if eff is None:
        return "—"
    if eff == base:
        return eff
    mark = "[red]" if s in r["zero"] else "[yellow]"
    return f"{mark}{eff}[/] [dim]({base})[/]"


def show_unit(con: Any, r: dict[str, Any]) -> None:
    con.print(f"[bold]{render.escape(r['name'])}[/] [dim]({r['kind']})[/]")
    show_table(con, {"units": [r]})
    if r["skills"]:
        con.print("Skills: " + ", ".join(f"{render.escape(k)} {v}"
                                         for k, v in r["skills"].items()))


def _with_crits(conditions: str, u: dict[str, Any]) -> str:
    crits = [f"Crit {str(c.get('location', '?')).replace('_', ' ').title()} "
             f"({str(c.get('severity', '?')).title()})" for c in u.get("crits", [])]
    if not crits:
        return conditions
    return ", ".join(crits) if conditions == "—" else f"{conditions}, {', '.join(crits)}"


def show_table(con: Any, r: dict[str, Any]) -> None:
    from rich.table import Table

    if not r["units"]:
        con.print("No units yet — d2d unit add NAME --body … or d2d char new NAME")
        return
    t = Table("Unit", "Body", "Mind", "Will", "Speed", "Conditions", "Move", "AC", "Turn",
              "Target", box=None)
    for u in r["units"]:
        t.add_row(render.escape(u["name"]), *(stat_cell(u, s) for s in units.STATS),
                  render.escape(_with_crits(conditions_text(u["conditions"]), u)),
                  dash(u["move"]),
                  dash(u["action_cost"]), dash(u["turn"]),
                  render.escape(dash(u["target"])))
    con.print(t)
    for u in r["units"]:
        if u["zero"]:
            con.print(f"[red]{render.escape(u['name'])}: {', '.join(u['zero'])} at 0 — "
                      "flip to Crit (001 p.35)[/]")
