"""``d2d char …`` — characters: 22-point creation, the sheet, export, advancement
(000 "Character Creation", "Advancement"; 001 p.42 "Advancement")."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.errors import BadInput, D2DError
from d2d_cli.rules.core.options import Options
from d2d_cli.rules.units import characters as ch
from d2d_cli.rules.units import roster as units

app = _app.group("char")


def _change(ctx: typer.Context, step: Callable[[dict[str, units.Unit], Options], ch.Sheet],
            what: str | None = None) -> ch.Sheet:
    """One change to the roster with the table's options, saved and journalled (as
    ``NAME: what`` when ``what`` is given)."""
    with _state.edit(ctx) as tx:
        roster = units.roster(tx.data)
        result = step(roster, _state.options(ctx, tx.data))
        tx.put("units", units.roster_state(roster))
        tx.summary = f"{result.name}: {what}" if what else result.summary
    return result


NameArg = Annotated[str, typer.Argument(help="The character's name.",
                                        autocompletion=_complete.complete_units)]


def _stat(stat: str) -> Any:
    return typer.Option(f"--{stat}", metavar="LEVEL", help=f"{stat.capitalize()} level 2–10 "
                        "(keeps the template's scale) or a full stat like 7x1.")


def _answer(q: str) -> Any:
    return typer.Option(f"--{q}", metavar="TEXT", help=f"Character Conception: {q}.",
                        rich_help_panel="Conception")


@app.command()
def new(
    ctx: typer.Context,
    name: NameArg,
    template: Annotated[str | None, typer.Option(autocompletion=_complete.complete_templates,
                                                 help="human-male (Body 8, Mind 5, Will 5, "
                        "Speed 4; the default) or human-female (6, 6, 6, 4).")] = None,
    body: Annotated[str | None, _stat("body")] = None,
    mind: Annotated[str | None, _stat("mind")] = None,
    will: Annotated[str | None, _stat("will")] = None,
    speed: Annotated[str | None, _stat("speed")] = None,
    archetype: Annotated[str | None, typer.Option(autocompletion=_complete.complete_archetypes,
                                                  help="Fantasy, Modern or SciFi archetype "
                         "(d2d ref archetypes); gives its skill package at Level 1.")] = None,
    motivation: Annotated[str | None, _answer("motivation")] = None,
    impact: Annotated[str | None, _answer("impact")] = None,
    formative: Annotated[str | None, _answer("formative")] = None,
    plans: Annotated[str | None, _answer("plans")] = None,
    flaws: Annotated[str | None, _answer("flaws")] = None,
    fear: Annotated[str | None, _answer("fear")] = None,
    humiliation: Annotated[str | None, _answer("humiliation")] = None,
    trigger: Annotated[str | None, _answer("trigger")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Create a character: 22 points among Body, Mind, Will and Speed (each 2–10).

    On a terminal without stat or template flags it asks step by step; in a script it
    never prompts. Example: d2d char new Rook --body 7 --speed 5 --archetype thief
    """
    overrides = {"body": body, "mind": mind, "will": will, "speed": speed}
    answers = {"motivation": motivation, "impact": impact, "formative": formative,
               "plans": plans, "flaws": flaws, "fear": fear, "humiliation": humiliation,
               "trigger": trigger}
    if template is None and not any(overrides.values()) and _interactive():
        template, overrides, archetype, answers = _ask(archetype, answers)
    unit = ch.character(name, template, overrides, archetype=archetype, conception=answers)
    render.emit(_change(ctx, lambda roster, o: ch.create(roster, unit, o)), show_sheet,
                as_json=json)


@app.command()
def show(ctx: typer.Context, name: NameArg, json: _app.JsonOpt = False) -> None:
    """The character sheet: stats in notation and real terms, skills, conception, points.

    Example: d2d char show Rook
    """
    data = _state.read(ctx)
    render.emit(ch.show(units.roster(data), name, _state.options(ctx, data)), show_sheet,
                as_json=json)


@app.command()
def export(
    ctx: typer.Context,
    name: NameArg,
    format: Annotated[str, typer.Option("--format", "-f", help="svg, html or toml.")] = "svg",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File to write "
                      "(default NAME.FORMAT here); '-' for stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the file.")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Write a printable character sheet (SVG or HTML: a light page for A4 or Letter that
    works offline) or TOML.

    Example: d2d char export Rook --format svg -o rook.svg
    """
    if format not in ("svg", "html", "toml"):
        raise BadInput(f"unknown format {format!r}: use svg, html or toml")
    data = _state.read(ctx)
    unit = ch.find_character(units.roster(data), name)
    text = _export_text(unit, _state.options(ctx, data), format)
    path = output or Path(f"{unit.name}.{format}")
    if str(path) == "-":
        sys.stdout.write(text)
        return
    if path.exists() and not force:
        raise BadInput(f"{path} exists — use --force to overwrite or -o for another file")
    path.write_text(text, encoding="utf-8")
    result = {"name": unit.name, "format": format, "path": str(path), "bytes": len(text)}
    render.emit(result, lambda con, r: con.print(
        f"Wrote {r['format']} sheet of {render.escape(r['name'])} to {r['path']}"), as_json=json)


@app.command()
def award(
    ctx: typer.Context,
    name: NameArg,
    cp: Annotated[int, typer.Option("--cp", help="Character Points to add.")] = 0,
    sp: Annotated[int, typer.Option("--sp", help="Skill Points to add.")] = 0,
    ap: Annotated[int, typer.Option("--ap", help="Ability Points to add.")] = 0,
    json: _app.JsonOpt = False,
) -> None:
    """Award Milestone points (000 "Advancement": CP for role play, SP for a Major
    Milestone, AP for a Minor one).

    Example: d2d char award Rook --sp 2 --ap 1
    """
    _advance(ctx, name, f"award --cp {cp} --sp {sp} --ap {ap}",
             lambda u, rules: ch.award(u, cp, sp, ap), json)


@app.command()
def train(ctx: typer.Context, name: NameArg,
          skill: Annotated[str, typer.Argument(autocompletion=_complete.complete_skills,
                                               help="Skill, Magic type or Power.")],
          json: _app.JsonOpt = False) -> None:
    """Raise a skill by one: costs SP equal to its current level (001 p.42); a new skill
    costs 1 SP ([rules] new_skill_sp).

    Example: d2d char train Rook Stealth
    """
    _advance(ctx, name, f"train {skill}", lambda u, rules: ch.train(
        u, skill, rules.new_skill_sp), json)


@app.command()
def respec(ctx: typer.Context, name: NameArg,
           skill: Annotated[str, typer.Argument(autocompletion=_complete.complete_skills,
                                                help="The skill to reduce by one.")],
           json: _app.JsonOpt = False) -> None:
    """Reduce ONE skill by one level for SP: the lost level (001 p.42, default) or the new
    level (000; [rules] respec_sp = "new"). Once per Downtime (000: "Between Sessions";
    d2d char downtime starts the next; [rules] respec_limit = "none" lifts it).

    Example: d2d char respec Rook Climbing
    """
    _advance(ctx, name, f"respec {skill}", lambda u, rules: ch.respec(
        u, skill, rules.respec_sp, rules.respec_limit), json)


@app.command()
def learn(ctx: typer.Context, name: NameArg,
          ability: Annotated[str, typer.Argument(help="The Ability, Specialty or "
                                                 "Proficiency gained.")],
          json: _app.JsonOpt = False) -> None:
    """Spend 1 AP to gain an Ability, Specialty or Proficiency (000 "Advancement").

    Example: d2d char learn Rook "Pick Lock"
    """
    _advance(ctx, name, f"learn {ability}", lambda u, rules: ch.learn(u, ability), json)


@app.command()
def feat(ctx: typer.Context, name: NameArg, json: _app.JsonOpt = False) -> None:
    """Heroic Feat: spend 1 CP for Hits +1 or −1 (001 p.23 "Heroic Feat - Character
    Point:-1").

    Example: d2d char feat Rook
    """
    _advance(ctx, name, "feat", lambda u, rules: ch.heroic_feat(u), json)


@app.command()
def downtime(ctx: typer.Context,
             names: Annotated[list[str] | None, typer.Argument(
                 metavar="[NAME]...", help="The characters (default: every character).",
                 autocompletion=_complete.complete_units)] = None,
             json: _app.JsonOpt = False) -> None:
    """Downtime between sessions (000 "Advancement": "Respec - Downtime:Between
    Sessions"): each character may respec ONE skill again.

    Example: d2d char downtime
    """
    with _state.edit(ctx) as tx:
        roster = units.roster(tx.data)
        result = ch.downtime(roster, names or [])
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    render.emit(result, _show_downtime, as_json=json)


def _advance(ctx: typer.Context, name: str, what: str,
             step: Callable[[units.Unit, Options], ch.Change], as_json: bool) -> None:
    """Load the character, apply one advancement step, save, show the new points."""
    result = _change(ctx, lambda roster, o: ch.advance(roster, name, o, step), what)
    render.emit(result, _show_change, as_json=as_json)


# --- the sheet ------------------------------------------------------------------------


def show_sheet(con: Any, r: ch.Sheet) -> None:
    from d2d_cli.commands.units import conditions_text
    from d2d_cli.layout import Panel, Table

    e = render.escape
    t = Table("Stat", "Rating", "Real terms", box=None, pad_edge=False)
    for s in units.STATS:
        base, eff = r.base_stats.get(s, "—"), r.stats.get(s)
        shown = base if eff in (None, base) else f"[yellow]{eff}[/] [dim](base {base})[/]"
        t.add_row(s.capitalize(), shown, r.real.get(s, ""))
    respec = f"   Respec used this Downtime ({e(r.respec_used)})" if r.respec_used else ""
    lines = [f"Archetype: {e(r.archetype or '—')}   Points: {r.points} "
             f"(template {e(r.template or '—')})",
             f"CP {r.cp}   SP {r.sp}   AP {r.ap}{respec}",
             "Skills: " + (", ".join(f"{e(k)} {v}" for k, v in r.skills.items()) or "—"),
             "Abilities: " + (e(", ".join(r.abilities)) or "—"),
             "Conditions: " + e(conditions_text(r.conditions))]
    lines += [f"{q.capitalize()}: {e(a)}" for q, a in r.conception.items()]
    con.print(Panel([t, *lines], title=f"[bold]{e(r.name)}[/]"))


def _show_change(con: Any, r: ch.Advanced) -> None:
    change = r.change
    name = render.escape(r.name)
    if isinstance(change, ch.SkillChange):
        con.print(f"{name}: {render.escape(change.line())}")
    elif isinstance(change, ch.Learned):
        con.print(f"{name} {render.escape(change.line())}")
    elif isinstance(change, ch.Awarded):
        con.print(f"{name} is {change.line()}")
    else:
        con.print(f"{name}: {change.line()}")
    con.print(f"CP {r.cp}   SP {r.sp}   AP {r.ap}")


def _show_downtime(con: Any, r: ch.Downtime) -> None:
    if not r.characters:
        con.print("No characters on the roster — d2d char new NAME")
        return
    con.print(f"Downtime for {render.escape(', '.join(r.characters))}: each may respec ONE "
              "skill again (000 \"Respec - Downtime:Between Sessions\").")


def _export_text(unit: units.Unit, rules: Options, fmt: str) -> str:
    if fmt == "toml":
        return ch.sheet_toml(unit.name, unit.to_state())
    from d2d_cli import sheet
    from d2d_cli.rules.core.result import to_json

    data = {**to_json(ch.sheet(unit, rules)), "crits": list(unit.extra.get("crits", []))}
    return sheet.svg(data) if fmt == "svg" else sheet.html(data)


# --- interactive creation -------------------------------------------------------------


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask(archetype: str | None, answers: dict[str, str | None]) -> tuple[
        str, dict[str, str | None], str | None, dict[str, str | None]]:
    """Step-by-step creation with Rich prompts, showing the budget left after each stat."""
    from rich.prompt import IntPrompt, Prompt

    con = render.console()
    template = Prompt.ask("Template", choices=list(ch.templates()), default="human-male",
                          console=con)
    base = ch.templates()[template]
    left, chosen = ch.BUDGET, {}
    for n, s in enumerate(units.STATS):
        after = len(units.STATS) - n - 1
        while True:  # only the stat that breaks the budget is asked again
            level = IntPrompt.ask(f"{s.capitalize()} (2–10, {left} points left)",
                                  default=base[s].level, console=con)
            problem = ch.stat_step(s, level, left, after)
            if problem is None:
                break
            con.print(f"[red]{render.escape(problem)}[/] — try again")
        chosen[s] = str(level)
        left -= level
    while archetype is None:
        pick = Prompt.ask("Archetype (? lists them, blank for none)", default="",
                          console=con)
        if not pick:
            break
        if pick.strip() == "?":
            con.print(render.escape(", ".join(ch.archetype_names())))
            continue
        try:
            archetype = ch.find_archetype(pick)["name"]
        except D2DError as err:
            con.print(f"[red]{render.escape(err.message)}[/]")
    for q in ch.CONCEPTION:
        if answers.get(q) is None:
            answers[q] = Prompt.ask(f"{q.capitalize()}", default="", console=con) or None
    return template, dict(chosen), archetype, answers
