"""``d2d char …`` — characters: 22-point creation, the sheet, export, advancement
(000 "Character Creation", "Advancement"; 001 p.42 "Advancement")."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.errors import D2DError
from d2d_cli.operations import characters as ops
from d2d_cli.rules.units import characters as ch
from d2d_cli.rules.units import roster as units

app = _app.group("char")


NameArg = Annotated[str, typer.Argument(help="The character's name.",
                                        click_type=_complete.CHARACTER)]


def _stat(stat: str) -> Any:
    return typer.Option(f"--{stat}", metavar="LEVEL", help=f"{stat.capitalize()} level 2–10 "
                        "(keeps the template's scale) or a full stat like 7x1.")


def _answer(q: str) -> Any:
    return typer.Option(f"--{q}", metavar="TEXT", help=f"Character Conception: {q}.",
                        rich_help_panel="Conception")


FactionOpt = Annotated[str | None, typer.Option(help="The side it fights for (e.g. "
                                               "Adventurers).")]
PlayerOpt = Annotated[str | None, typer.Option(help="The Player who plays it (default: "
                                               "none, a Non-Player).")]


@app.command(short_help="Create a character: 22 points among the four stats.")
def new(
    ctx: typer.Context,
    name: NameArg,
    template: Annotated[str | None, typer.Option(click_type=_complete.TEMPLATE,
                                                 help="human-male (Body 8, Mind 5, Will 5, "
                        "Speed 4; the default) or human-female (6, 6, 6, 4).")] = None,
    body: Annotated[str | None, _stat("body")] = None,
    mind: Annotated[str | None, _stat("mind")] = None,
    will: Annotated[str | None, _stat("will")] = None,
    speed: Annotated[str | None, _stat("speed")] = None,
    archetype: Annotated[str | None, typer.Option(click_type=_complete.ARCHETYPE,
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
    faction: FactionOpt = None,
    player: PlayerOpt = None,
    gear: Annotated[list[str] | None, typer.Option(
        "--gear", metavar="ITEM", help="A sample weapon, armor or Shield it carries "
        "(\"Sword: Long\", Bow, Helmet, Shield…; d2d unit gear add for your own); "
        "repeat.")] = None,
    new: Annotated[bool, typer.Option("--new", help="A faction or Player this session does "
                                      "not know yet is meant (not a typo).")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Create a character: 22 points among Body, Mind, Will and Speed (each 2–10).

    On a terminal without stat or template flags it asks step by step, offering only
    levels the budget allows (Ctrl-C leaves with exit 130, nothing created); in a script
    it never prompts. --gear gives it sample items to carry (the wizard asks last).
    Example: d2d char new Rook --body 7 --speed 5 --archetype thief --gear Dagger
    """
    overrides = {"body": body, "mind": mind, "will": will, "speed": speed}
    answers = {"motivation": motivation, "impact": impact, "formative": formative,
               "plans": plans, "flaws": flaws, "fear": fear, "humiliation": humiliation,
               "trigger": trigger}
    if template is None and not any(overrides.values()) and _interactive():
        try:
            template, overrides, archetype, answers = _ask(archetype, answers)
            gear = gear or _ask_gear()
            faction, player, new = _ask_side(ctx, faction, player, new)
        except (KeyboardInterrupt, EOFError):  # Ctrl-C / Ctrl-D: leave, nothing saved
            sys.stdout.write("\n")
            sys.stderr.write("d2d: cancelled: no character was created\n")
            raise typer.Exit(130) from None
    result = ops.new(_state.target(ctx), name, template=template, archetype=archetype,
                     **overrides, **answers, faction=faction, player=player, gear=gear,
                     new=new)
    render.emit(result, show_sheet, as_json=json)


@app.command(short_help="The character sheet: stats, skills, conception, points.")
def show(ctx: typer.Context, name: NameArg, json: _app.JsonOpt = False) -> None:
    """The character sheet: stats in notation and real terms, skills, conception, points.

    Example: d2d char show Rook
    """
    render.emit(ops.show(_state.target(ctx), name), show_sheet, as_json=json)


@app.command(short_help="A printable sheet (SVG, HTML) or the record (TOML, JSON).")
def export(
    ctx: typer.Context,
    name: NameArg,
    format: Annotated[str, typer.Option(
        "--format", "-f", click_type=_complete.FORMAT,
        help="svg, html (printable sheets), toml or json (the character's record, for "
             "d2d char import in another session).")] = "svg",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File to write "
                      "(default NAME.FORMAT here); '-' for stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the file.")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Write a printable character sheet (SVG or HTML: a light page for A4 or Letter that
    works offline), or the character's record (TOML or JSON) that d2d char import reads
    into another session.

    Example: d2d char export Rook --format toml -o rook.toml
    """
    done = ops.export(_state.target(ctx), name, format=format, output=output, force=force)
    if not done.path:  # -o -: the sheet on stdout
        render.text(done.text)
        return
    render.emit(done, lambda con, r: con.print(
        f"Wrote {r.format} sheet of {render.escape(r.name)} to {r.path}"), as_json=json)


@app.command("import", short_help="Bring an exported character onto this session's roster.")
def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="A character's record as d2d "
                    "char export --format toml or json writes it.")],
    rename: Annotated[str | None, typer.Option(
        "--rename", metavar="NEW", help="Import it under this name (a name the session "
        "already has is refused otherwise).")] = None,
    replace: Annotated[bool, typer.Option(
        "--replace", help="Replace the unit of the same name in this session.")] = False,
    faction: FactionOpt = None,
    player: PlayerOpt = None,
    place: Annotated[tuple[str, str] | None, typer.Option(
        "--place", metavar="SPACE FACING", help="Put it on the map (e.g. --place E7 N); "
        "by default it is placed nowhere.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Bring a character exported from another session (char export --format toml or
    json) onto this session's roster: a party follows from one game night to the next.
    The character comes without the last table's state (Space, Facing, round tokens,
    spent Actions, said situations, faction): give --faction, --player and --place.

    Example: d2d char import rook.toml --faction Adventurers --player Ann
    """
    result = ops.import_(_state.target(ctx), file, rename=rename, replace=replace,
                         faction=faction, player=player, place=place)
    render.emit(result, _show_imported, as_json=json)


def _show_imported(con: Any, r: Any) -> None:  # rules.units.travel.Imported
    con.print(f"[dim]{render.escape(r.summary)}[/]")
    show_sheet(con, r.sheet)


@app.command("list", short_help="The characters: archetype, stats, points, CP, SP and AP.")
def list_(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """The characters of the session: archetype, stats, stat points, CP, SP and AP.

    Example: d2d char list
    """
    render.emit(ops.list_(_state.target(ctx)), _show_list, as_json=json)


def _show_list(con: Any, r: Any) -> None:  # rules.units.travel.Characters
    from d2d_cli.layout import Table

    if not r.characters:
        con.print("No characters in this session — d2d char new NAME, or d2d char import "
                  "FILE")
        return
    e = render.escape
    t = Table("Name", "Archetype", "Body", "Mind", "Will", "Speed", "Points", "CP", "SP",
              "AP", box=None, pad_edge=False)
    for c in r.characters:
        t.add_row(e(c.name), e(c.archetype or "—"),
                  *(c.stats.get(s, "—") for s in units.STATS), str(c.points), str(c.cp),
                  str(c.sp), str(c.ap))
    con.print(t)


@app.command(short_help="Award Milestone points: CP, SP or AP.")
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
    render.emit(ops.award(_state.target(ctx), name, cp=cp, sp=sp, ap=ap), _show_change,
                as_json=json)


@app.command(short_help="Raise a skill by one for SP (001 p.42).")
def train(ctx: typer.Context, name: NameArg,
          skill: Annotated[str, typer.Argument(click_type=_complete.SKILL,
                                               help="Skill, Magic type or Power.")],
          json: _app.JsonOpt = False) -> None:
    """Raise a skill by one: costs SP equal to its current level (001 p.42); a new skill
    costs 1 SP ([rules] new_skill_sp).

    Example: d2d char train Rook Stealth
    """
    render.emit(ops.train(_state.target(ctx), name, skill), _show_change, as_json=json)


@app.command(short_help="Lower ONE skill by one level for the SP it cost.")
def respec(ctx: typer.Context, name: NameArg,
           skill: Annotated[str, typer.Argument(click_type=_complete.SKILL,
                                                help="The skill to reduce by one.")],
           json: _app.JsonOpt = False) -> None:
    """Reduce ONE skill by one level for the SP that level cost to train (001 l.1108: the
    level below it; so training it back nets 0 SP). [rules] respec_sp = "lost": the lost
    level itself (001 l.1102, +1 SP a cycle); "new": the new level (000 l.372). Once per
    Downtime (000: "Between Sessions"; d2d char downtime starts the next; [rules]
    respec_limit = "none" lifts it).

    Example: d2d char respec Rook Climbing
    """
    render.emit(ops.respec(_state.target(ctx), name, skill), _show_change, as_json=json)


@app.command(short_help="Spend 1 AP: an Ability, Specialty, Proficiency or Power +1.")
def learn(ctx: typer.Context, name: NameArg,
          ability: Annotated[str | None, typer.Argument(help="The Ability, Specialty or "
                                                        "Proficiency gained.")] = None,
          specialty: Annotated[bool, typer.Option(
              "--specialty", help="ABILITY is a Specialty: Abilities gained in it later "
              "(--in) cost 0 AP every third.")] = False,
          within: Annotated[str | None, typer.Option(
              "--in", metavar="SPECIALTY", help="The Specialty the Ability is gained in.")]
          = None,
          power: Annotated[str | None, typer.Option(
              "--power", metavar="POWER", click_type=_complete.POWER,
              help="Raise a Power's Rating by 1 instead.")] = None,
          json: _app.JsonOpt = False) -> None:
    """Spend 1 AP to gain an Ability, Specialty or Proficiency (000 l.377; 001 l.1127),
    or a Power's Rating +1 (001 l.1131). An Ability gained in a Specialty the character
    holds: every third costs 0 AP (000 l.378).

    Example: d2d char learn Rook "Pick Lock" --in Locks
    """
    render.emit(ops.learn(_state.target(ctx), name, ability, specialty=specialty,
                          within=within, power=power), _show_change, as_json=json)


@app.command(short_help="AP Respec: give up ONE Ability or Power Rating for AP +1.")
def unlearn(ctx: typer.Context, name: NameArg,
            ability: Annotated[str | None, typer.Argument(
                help="The Ability, Item or Specialty given up.")] = None,
            power: Annotated[str | None, typer.Option(
                "--power", metavar="POWER", click_type=_complete.POWER,
                help="Reduce a Power's Rating by 1 instead.")]
            = None,
            json: _app.JsonOpt = False) -> None:
    """AP Respec: give up ONE Ability/Item/Specialty, or reduce ONE Power's Rating, for
    AP +1 (001 l.1114–1119; 000 l.376 "remove ONE Ability and gain an AP"). Once per
    Downtime ([rules] respec_limit); an Ability a Specialty gave free gives back 0 AP.

    Example: d2d char unlearn Rook "Pick Lock"
    """
    render.emit(ops.unlearn(_state.target(ctx), name, ability, power=power), _show_change,
                as_json=json)


@app.command(short_help="Heroic Feat: spend 1 CP for Hits +1 or −1.")
def feat(ctx: typer.Context, name: NameArg, json: _app.JsonOpt = False) -> None:
    """Heroic Feat: spend 1 CP for Hits +1 or −1 (001 p.23 "Heroic Feat - Character
    Point:-1").

    Example: d2d char feat Rook
    """
    render.emit(ops.feat(_state.target(ctx), name), _show_change, as_json=json)


@app.command(short_help="Downtime between sessions: each may respec ONE skill again.")
def downtime(ctx: typer.Context,
             names: Annotated[list[str] | None, typer.Argument(
                 metavar="[NAME]...", help="The characters (default: every character).",
                 click_type=_complete.CHARACTER)] = None,
             json: _app.JsonOpt = False) -> None:
    """Downtime between sessions (000 "Advancement": "Respec - Downtime:Between
    Sessions"): each character may respec ONE skill again.

    Example: d2d char downtime
    """
    render.emit(ops.downtime(_state.target(ctx), names), _show_downtime, as_json=json)


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
    for note in r.notes:
        con.print(f"[dim]Note: {e(note)}[/]")


def _show_change(con: Any, r: ch.Advanced) -> None:
    change = r.change
    name = render.escape(r.name)
    if isinstance(change, ch.SkillChange):
        con.print(f"{name}: {render.escape(change.line())}")
    elif isinstance(change, ch.Learned | ch.Unlearned):
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


# --- interactive creation -------------------------------------------------------------


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _fitting(stat: str, preferred: int, left: int, after: int) -> int:
    """The level offered for ``stat``: the template's, or the nearest one the budget
    still allows (never Speed 4 with 3 points left), so Enter always works."""
    from d2d_cli.rules.scale.stats import MAX_LEVEL, MIN_LEVEL

    levels = sorted(range(MIN_LEVEL, MAX_LEVEL + 1), key=lambda v: (abs(v - preferred), v))
    return next((v for v in levels if ch.stat_step(stat, v, left, after) is None), preferred)


def _ask_gear() -> list[str]:
    """The wizard's last step (issue 36): the sample items the character carries."""
    from rich.prompt import Prompt

    from d2d_cli.rules.units import gear

    con = render.console()
    while True:
        pick = Prompt.ask("Gear (sample items, comma-separated; ? lists them; blank for "
                          "none: Hand to Hand)", default="", console=con)
        if pick.strip() != "?":
            break
        con.print(render.escape(", ".join(gear.sample_names())))
    return [x.strip() for x in pick.split(",") if x.strip()]


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
                                  default=_fitting(s, base[s].level, left, after),
                                  console=con)
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


def _ask_side(ctx: typer.Context, faction: str | None, player: str | None,
              new: bool) -> tuple[str | None, str | None, bool]:
    """The wizard's last two questions: the side the character fights for and the
    Player who plays it, each matched to the session's own names (a name it does not
    know is made only when confirmed: the --new of the flags)."""
    from rich.prompt import Confirm, Prompt

    from d2d_cli.operations import players
    from d2d_cli.rules.units import sides

    con = render.console()
    factions, people = players.known(_state.target(ctx))

    def one(what: str, known: list[str], blank: str) -> tuple[str | None, bool]:
        listed = f"{', '.join(known)}; " if known else ""
        while True:
            typed = Prompt.ask(f"{what} ({listed}blank for {blank})", default="",
                               console=con).strip()
            if not typed:
                return None, False
            try:
                return sides.matched(typed, known, what, otherwise=""), False
            except D2DError as err:
                con.print(f"[red]{render.escape(err.message)}[/]")
                if Confirm.ask(f"Make {typed!r} a new {what}?", default=False,
                               console=con):
                    return typed, True
    if faction is None:
        faction, made = one("faction", factions, "none")
        new = new or made
    if player is None:
        player, made = one("Player", people, "a Non-Player")
        new = new or made
    return faction, player, new
