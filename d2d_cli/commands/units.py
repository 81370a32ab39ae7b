"""``d2d unit …`` — the roster of units on the board (001 p.7 "A Unit can be a person,
creature, or vehicle"), their conditions, healing and targets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.commands._convention import positional_or_option
from d2d_cli.operations import units as unit_ops
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units import roster as units

if TYPE_CHECKING:
    from d2d_cli.rules.time import turns
    from d2d_cli.rules.units import abilities, gear, powers, stealth


app = _app.group("unit")


UnitArg = Annotated[str, typer.Argument(help="Unit name (case-insensitive).",
                                        click_type=_complete.UNIT)]


def _stat_opt(name: str) -> Any:
    return typer.Option(f"--{name}", metavar="STAT", help=f"{name.capitalize()} as "
                        "<level>x<scale>, e.g. 2x1.")


NewOpt = Annotated[bool, typer.Option("--new", help="A faction or Player this session does "
                                      "not know yet is meant (not a typo).")]


@app.command(short_help="Add a unit with its four stats and skills.")
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
    player: Annotated[str | None, typer.Option(
        help="The Player who plays it (default: a Non-Player).")] = None,
    new: NewOpt = False,
    json: _app.JsonOpt = False,
) -> None:
    """Add a unit (creature, NPC, vehicle) with its four stats and skills. A faction or
    Player is matched to the session's own whatever its case; a name it does not know
    is refused as a typo (with the nearest one) unless --new.

    Example: d2d unit add Goblin --body 2x1 --mind 6x1 --will 2x1 --speed 5x0 --skill Stealth=1
    """
    result = unit_ops.add(_state.target(ctx), name, body=body, mind=mind, will=will,
                          speed=speed, skill=skill, faction=faction, player=player, new=new)
    render.emit(result, show_unit, as_json=json)


@app.command(short_help="Put a unit on a side, or give it to a Player.")
def side(
    ctx: typer.Context, name: UnitArg,
    faction: Annotated[str | None, typer.Option(help="The faction it now fights for.")]
    = None,
    no_faction: Annotated[bool, typer.Option("--no-faction", help="No faction: a side of "
                                             "its own.")] = False,
    player: Annotated[str | None, typer.Option(
        help="The Player who now plays it; Non-Player for none.")] = None,
    new: NewOpt = False,
    json: _app.JsonOpt = False,
) -> None:
    """Put a unit on a side, or give it to a Player (or back to the Narrator): npc, sim,
    Outnumbered, the board and status read it. A faction or Player is matched to the
    session's own whatever its case; one it does not know is refused as a typo (with
    the nearest one) unless --new.

    Example: d2d unit side Rook --faction Adventurers --player Ann
    """
    result = unit_ops.side(_state.target(ctx), name, faction=faction, player=player,
                           no_faction=no_faction, new=new)
    render.emit(result, _show_side, as_json=json)


def _show_side(con: Any, r: Any) -> None:
    con.print(render.escape(r.summary))


@app.command("list", short_help="Every unit and character on the roster.")
def list_(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """List every unit and character on the roster, in the order they were added.

    Example: d2d unit list
    """
    render.emit(unit_ops.list_(_state.target(ctx)), show_table, as_json=json)


@app.command(short_help="One unit: stats, conditions, skills, tokens, target.")
def show(ctx: typer.Context, name: UnitArg,
         json: _app.JsonOpt = False) -> None:
    """One unit: stats after conditions, conditions, skills, Move, Action Cost, Turn, target.

    Example: d2d unit show "Goblin Scout" --json
    """
    render.emit(unit_ops.show(_state.target(ctx), name), show_unit, as_json=json)


@app.command(short_help="Remove a unit (or character) from the roster.")
def rm(ctx: typer.Context, name: UnitArg,
       json: _app.JsonOpt = False) -> None:
    """Remove a unit (or character) from the roster; units targeting it lose the target.

    Example: d2d unit rm "Goblin Scout"
    """
    result = unit_ops.rm(_state.target(ctx), name)
    render.emit(result, lambda con, r: con.print(f"Removed {render.escape(r.name)}."),
                as_json=json)


@app.command(short_help="Add or remove condition tokens.")
def condition(
    ctx: typer.Context,
    name: UnitArg,
    action: Annotated[str, typer.Argument(metavar="add|remove", click_type=_complete.Names(
                      "action", _complete.words("add", "remove")), help="add or remove.")],
    cond: Annotated[str, typer.Argument(metavar="CONDITION", help="e.g. Fatigue, Bleeding, "
                                        "\"Blood Loss\", Dying (d2d ref conditions).",
                                        click_type=_complete.CONDITION)],
    count_: Annotated[int | None, typer.Argument(
        metavar="[COUNT]", show_default=False, help="How many tokens (1–20; default 1).")]
    = None,
    count: Annotated[int | None, typer.Option(
        "--count", "-n", help="How many tokens, by name (the same as COUNT).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Add or remove condition tokens (000 Glossary); each token applies its penalty.

    Example: d2d unit condition "Goblin Scout" add Fatigue 2
    """
    count = positional_or_option(count_, count, "count", 1)
    result = unit_ops.condition(_state.target(ctx), name, action, cond, count)
    render.emit(result, show_unit, as_json=json)


@app.command(short_help="Take Crits off, and let days pass for conditions.")
def heal(
    ctx: typer.Context,
    name: UnitArg,
    crit: Annotated[list[str] | None, typer.Option(
        "--crit", metavar="LOCATION|N", help="Take a placed Crit off: its location (torso, "
        "\"right arm\") or its number on the Status Bar (1 = the first placed); repeat.")]
    = None,
    days: Annotated[int | None, typer.Option(
        "--days", help="Days of healing: Blood Loss −1 a day, Burns −1 a month (30 days; "
        "part-months carried to the next heal); no Minor Condition, Bleeding or Burning "
        "outlasts a day ([rules] days_heal).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Heal a unit: take Crits off (the rules give no time: the Narrator says when) and
    let days pass for the conditions that heal with time (000 Glossary). Dying and
    other tokens come off with d2d unit condition NAME remove.

    Example: d2d unit heal "Goblin Scout" --crit "right arm" --days 2
    """
    result = unit_ops.heal(_state.target(ctx), name, crit=crit, days=days)
    render.emit(result, show_healed, as_json=json)


@app.command(short_help="Set a unit's target.")
def target(
    ctx: typer.Context,
    name: UnitArg,
    tgt: Annotated[str | None, typer.Argument(metavar="[TARGET]", help="The unit it targets.",
                                              click_type=_complete.UNIT)]
    = None,
    clear: Annotated[bool, typer.Option("--clear", help="Clear the target.")] = False,
    json: _app.JsonOpt = False,
) -> None:
    """Set a unit's target (001 p.19 "Targets - Choose a Target (if any) for each Unit").

    Example: d2d unit target "Goblin Scout" Rook   (or: d2d unit target "Goblin Scout" --clear)
    """
    result = unit_ops.target(_state.target(ctx), name, tgt, clear=clear)
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
    if r.carried:
        con.print("  [dim]carried toward the next token: " + ", ".join(
            f"{conditions.name_of(k)} {n} day(s)" for k, n in r.carried.items()) + "[/]")
    show_unit(con, r)


def _with_crits(conds: str, u: units.UnitRow) -> str:
    crits = [conditions.crit_name(x) for x in u.crits]
    if not crits:
        return conds
    return ", ".join(crits) if conds == "—" else f"{conds}, {', '.join(crits)}"


def show_table(con: Any, r: units.Roster) -> None:
    from d2d_cli.layout import Table

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


# --- the round: spending tokens, abilities, stealth, powers (issue 12) ----------------
# Each command parses, calls one rules function inside one locked edit, and renders.


@app.command(short_help="Spend Move or Turn: steps on the map, or N Move.")
def move(
    ctx: typer.Context,
    name: UnitArg,
    what: Annotated[str, typer.Argument(metavar="N|KIND", click_type=_complete.MOVEMENT,
    help="Move to spend, or a "
                    "movement: forward, drift, slide, backward, drift-back, equip, turn.")],
    rest: Annotated[list[str] | None, typer.Argument(metavar="[COUNT|HEADING]", help=(
        "How many steps (default 1); for turn a heading (NE) or left/right [N]; for a "
        "placed unit's drift, slide or drift-back the side: left/right or a heading."))
        ] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Spend Move or Turn tokens (001 l.527 "Spend Move points to move"): N Move, or
    Forward and Drift (Move 1), Slide, Backward and Drift Back (Move 2), Equip (Move 1),
    Turn (Turn 1 per 45°, changes Facing). Refused with the numbers when the unit has
    too little. A unit placed on the map (d2d unit place) moves there as well: Drift,
    Slide and Drift Back name their side (drift left, slide E), the terrain's extra
    Move is paid, and a step off the map or into a Space no unit may enter is refused.

    JSON: unit, action, move_before, move, turn_before, turn, action_cost, actions_left,
    facing, conditions_added, conditions_removed, readied, boosts, stealth, detect, note,
    source, space (a placed unit's Space after the move, else null).

    Example: d2d unit move Archer forward 2
    """
    render.emit(unit_ops.move(_state.target(ctx), name, what, *(rest or [])), show_spending,
                as_json=json)


@app.command(short_help="Take an Action (Move −Action Cost) or a free action.")
def act(
    ctx: typer.Context,
    name: UnitArg,
    action: Annotated[str, typer.Argument(metavar="ACTION", click_type=_complete.ACTION,
    help="recover, ready, hide, "
                      "search, interact (attack); free: detect, push-the-limit, "
                      "state-of-mind, grit-your-teeth, burst-of-speed; evade.")],
    arg: Annotated[str | None, typer.Argument(metavar="[CHOICE]", help="What Recover or "
                   "State of Mind removes (fatigue…), the Ability to Ready, the unit to "
                   "Detect or Interact with.")] = None,
    range_: Annotated[int | None, typer.Option("--range", help="Detect: Spaces to the "
                      "Hidden unit (default: the Range said this round, else the map's).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Take an Action, paying Move:-[Action Cost] (001 l.543), or a free action with its
    price (001 l.577–609: Burst of Speed Slow +1, Move +2, Turn +1; Push the Limit
    Fatigue +1; State of Mind and Detect Stun +1; Grit your Teeth Stress +1). Push the
    Limit (Skill +1) and Grit your Teeth (penalties ignored) last the Round: conflict,
    hit, odds and the Status Bar read them. Evade gives Move +2 (001 l.750), once per
    Interact Action the unit took: it is a response inside a Conflict.

    JSON: unit, action, move_before, move, turn_before, turn, action_cost, actions_left,
    facing, conditions_added, conditions_removed, readied, boosts, stealth, detect
    (target, mind, body, range, difficulty, target_tokens, reading, sense, source; or
    null), note, source, space (null: an Action does not move the unit).

    Example: d2d unit act Archer recover fatigue
    """
    result = unit_ops.act(_state.target(ctx), name, action, arg, range=range_)
    render.emit(result, show_spending, as_json=json)


@app.command(short_help="Wait at a Count of the Countdown.")
def wait(ctx: typer.Context, name: UnitArg,
         count: Annotated[int, typer.Argument(help="The Countdown's Count (10 to 1).")],
         json: _app.JsonOpt = False) -> None:
    """Wait at a Count of the Countdown (001 l.503–505 "Wait - Do nothing. IF Move =
    Count THEN Move:-1").

    JSON: unit, count, move_before, move, lost.

    Example: d2d unit wait "Goblin Skirmisher" 5
    """
    result = unit_ops.wait(_state.target(ctx), name, count)
    render.emit(result, lambda con, r: con.print(
        f"{render.escape(r.unit)} waits at Count {r.count}: Move {r.move_before}"
        + (f" → {r.move} (Move = Count)" if r.lost else " (unchanged)")), as_json=json)


@app.command(short_help="Face a compass heading without spending Turn.")
def face(ctx: typer.Context, name: UnitArg,
         heading: Annotated[str, typer.Argument(metavar="HEADING",
                            help="N, NE, E, SE, S, SW, W or NW.")],
         json: _app.JsonOpt = False) -> None:
    """Place a unit facing a compass heading (001 l.495–497), without spending Turn:
    setting up, or a correction. In the round, turn with d2d unit move NAME turn.

    JSON: unit, facing, facing_before.

    Example: d2d unit face Archer NE
    """
    result = unit_ops.face(_state.target(ctx), name, heading)
    render.emit(result, lambda con, r: con.print(f"{render.escape(r.unit)} faces "
                                                 f"{r.facing}."), as_json=json)


@app.command(short_help="Use an Ability: it goes into Cooldown.")
def ability(
    ctx: typer.Context,
    name: UnitArg,
    action: Annotated[str, typer.Argument(metavar="use|drop|list", click_type=_complete.Names(
        "action", _complete.words("use", "drop", "list")))],
    which: Annotated[str | None, typer.Argument(metavar="[ABILITY]")] = None,
    skill: Annotated[str | None, typer.Option(
        click_type=_complete.SKILL,
        help="The Skill the Ability uses, the first time it is used.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Use an Ability — a free action that puts it in Cooldown (001 l.585) — within the
    Active limit, 2 per Level of its Skill (001 l.415; Specialties ignore it); drop it
    from Active; or list. Ready it with d2d unit act NAME ready, or at round end.

    JSON: unit, action, ability, skill, level, limit, specialty, active, cooldown.

    Example: d2d unit ability Archer use "Rapid Shot" --skill Ranged
    """
    render.emit(unit_ops.ability(_state.target(ctx), name, action, which, skill=skill),
                show_abilities, as_json=json)


@app.command("stealth", short_help="Stealth tokens: hide, tick, spot, reveal.")
def stealth_(
    ctx: typer.Context,
    name: UnitArg,
    action: Annotated[str, typer.Argument(
        metavar="hide|tick|spot|reveal|show", click_type=_complete.Names(
            "action", _complete.words("hide", "tick", "spot", "reveal", "show")))],
    count_: Annotated[int | None, typer.Argument(
        metavar="[COUNT]", show_default=False, help="Tokens (hide: to start with, default "
        "1; tick/spot: to add/take, default 1).")] = None,
    count: Annotated[int | None, typer.Option("--count", "-n", help="Tokens, by name (the "
                                              "same as COUNT).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Stealth tokens (000 l.801–807): hide (1 token, at most 2×Stealth), tick (Remain
    Hidden: Clock +1), spot (tokens −N; at 0 the unit Reveals at once), reveal (free:
    place it within Move:Tokens), show. The Hide Action is d2d unit act NAME hide.

    JSON: unit, action, tokens_before, tokens, max_tokens, hidden, revealed, forced,
    place_within.

    Example: d2d unit stealth "Goblin Scout" tick
    """
    if count_ is not None or count is not None:
        count = positional_or_option(count_, count, "count")
    result = unit_ops.stealth(_state.target(ctx), name, action, count)
    render.emit(result, show_stealth, as_json=json)


@app.command(short_help="Use a Power: its Standard and what its Effect buys.")
def power(
    ctx: typer.Context,
    name: UnitArg,
    action: Annotated[str, typer.Argument(metavar="use|upkeep|end", click_type=_complete.Names(
        "action", _complete.words("use", "upkeep", "end")))],
    which: Annotated[str | None, typer.Argument(metavar="[POWER]",
                                                click_type=_complete.POWER)] = None,
    effect: Annotated[int, typer.Option(help="The Power's Effect points to spend.")] = 0,
    price: Annotated[str | None, typer.Option(help="The Price of Power: the Condition "
                     "taken (fatigue, stun, stress, slow).")] = None,
    initiative: Annotated[int, typer.Option(help="Points on Initiative +1 each.")] = 0,
    result_: Annotated[str | None, typer.Option("--result", metavar="N|AxB",
                       help="Points on Result: N (+Nx0) or AxB.")] = None,
    range_: Annotated[str | None, typer.Option("--range", metavar="N|AxB",
                      help="Points on Range.")] = None,
    duration: Annotated[str | None, typer.Option(metavar="N|AxB",
                        help="Points on Duration (Turns).")] = None,
    continuous: Annotated[bool, typer.Option(help="Continuous (1 point).")] = False,
    area: Annotated[int, typer.Option(help="Points on Area.")] = 0,
    close: Annotated[bool, typer.Option(help="The target is at Range 0–1.")] = False,
    armor_pierce: Annotated[int, typer.Option(
        help="Magic: points on Armor Pierce, +0x1 each.")] = 0,
    observed: Annotated[bool | None, typer.Option(
        "--observed/--unobserved", help="Magic: seen by someone not an Ally nor a Magic "
        "user — Vulgar, Result -0x1 (default: read off the map).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Use a Power (000 l.862–885): the Standard (Initiative +Level, Result +Levelx0),
    what the Effect points buy (Area 1 point = 1 space, then Area Effect cards), and
    the Price of Power (a Condition); in a round the use spends the Interact Action
    (Move:-[Action Cost], 001 l.627). round end pays each Continuous Power's Price at
    the Event phase; upkeep pays it now (once a phase); end lets one lapse.

    JSON (use): unit, power, level, effect, points_spent, points, initiative, result,
    range, duration, continuous, area, area_spaces, area_effect, price, conditions,
    move_before, move, action_cost (null outside a round), armor_pierce, vulgar,
    observers (the last three a Magic Power's; vulgar: Result -0x1 when observed).
    JSON (upkeep, end): unit, action, paid, ended, continuous, conditions.

    Example: d2d unit power Mage use Fire --effect 4 --area 3 --price fatigue
    """
    result = unit_ops.power(_state.target(ctx), name, action, which, effect=effect,
                            price=price, initiative=initiative, result=result_,
                            range=range_, duration=duration, continuous=continuous,
                            area=area, close=close, armor_pierce=armor_pierce,
                            observed=observed)
    render.emit(result, show_power if action == "use" else show_upkeep, as_json=json)


def show_spending(con: Any, r: turns.Spending) -> None:
    parts = []
    if r.move != r.move_before:
        parts.append(f"Move {r.move_before} → {r.move}")
    if r.turn != r.turn_before:
        parts.append(f"Turn {r.turn_before} → {r.turn}")
    parts += [f"{conditions.name_of(k)} +{n}" for k, n in r.conditions_added.items()]
    parts += [f"{conditions.name_of(k)} −{n}" for k, n in r.conditions_removed.items()]
    if r.readied:
        parts.append(f"readied {r.readied}")
    con.print(f"{render.escape(r.unit)}: {render.escape(r.action)}"
              + (f" — {render.escape(', '.join(parts))}" if parts else ""))
    left = [f"Move {dash(r.move)}", f"Turn {dash(r.turn)}",
            f"Actions left {dash(r.actions_left)} (Action Cost {dash(r.action_cost)})"]
    if r.facing:
        left.append(f"facing {r.facing}")
    if getattr(r, "space", None):
        left.append(f"on {r.space}")
    if r.stealth:
        left.append(f"Hidden ({r.stealth} tokens)")
    con.print("  " + " · ".join(left))
    for b in r.boosts:
        con.print(f"  [cyan]{render.escape(b)}[/]")
    if r.detect is not None:
        d = r.detect
        if d.reading == "000":
            con.print(f"  Detect {render.escape(d.target)} by {(d.sense or '').title()} at "
                      f"Range {d.range}: Mind {d.mind} vs Body {d.body} (000 l.252–253)")
        else:
            con.print(f"  Detect {render.escape(d.target)}: Mind {d.mind} vs Body {d.body} + "
                      f"Range {d.range} = Difficulty {d.difficulty} (001 l.593, "
                      "docs/errata.md)")
    if r.note:
        con.print(f"  [dim]{render.escape(r.note)}[/]")


def show_abilities(con: Any, r: abilities.Abilities) -> None:
    if r.action == "use":
        limit = "a Specialty: no limit" if r.specialty else \
            f"{r.skill} {r.level} allows {r.limit} Active"
        con.print(f"{render.escape(r.unit)} uses {render.escape(r.ability or '')} — in Cooldown "
                  f"({render.escape(limit)})")
    elif r.action == "drop":
        con.print(f"{render.escape(r.unit)}: {render.escape(r.ability or '')} is no "
                  "longer Active")
    else:
        con.print(f"{render.escape(r.unit)}'s Abilities in play")
    active = "; ".join(f"{k}: {', '.join(v)}" for k, v in r.active.items()) or "—"
    con.print(f"  Active: {render.escape(active)}")
    con.print(f"  Cooldown: {render.escape(', '.join(r.cooldown) or '—')}")


def show_stealth(con: Any, r: stealth.Stealth) -> None:
    who = render.escape(r.unit)
    if r.revealed:
        where = "where its Stealth unit stands" if not r.place_within else \
            f"within Move:{r.place_within} of its Stealth unit, out of sight of Rivals"
        forced = " is forced to Reveal (Tokens = 0)" if r.forced else " Reveals"
        con.print(f"{who}{forced}: place it {where} (000 l.805).")
    elif r.hidden:
        con.print(f"{who} is Hidden: {r.tokens} of at most {r.max_tokens} Stealth tokens.")
    else:
        con.print(f"{who} is not Hidden (at most {r.max_tokens} Stealth tokens).")


def show_power(con: Any, r: powers.PowerUsed) -> None:
    e = render.escape
    con.print(f"{e(r.unit)} uses {e(r.power)} {r.level} — Price of Power: "
              f"{conditions.name_of(r.price)} +1")
    con.print(f"  Effect {r.points_spent} of {r.effect} points"
              + (" (" + ", ".join(f"{k.replace('_', ' ').title()} {v}"
                                  for k, v in r.points.items()) + ")"
                 if r.points else ""))
    line = [f"Initiative +{r.initiative}", f"Result {r.result}", f"Range {r.range}", r.area]
    if r.duration:
        line.append(f"Duration {r.duration}")
    if r.continuous:
        line.append("Continuous: round end pays the Price each Event phase")
    if r.armor_pierce and r.armor_pierce != "+0x0":
        points = r.armor_pierce.removeprefix("+0x")
        line.append(f"Armor Pierce {r.armor_pierce} (its Crit: crit --armor-pierce {points})")
    con.print("  " + " · ".join(line))
    if r.vulgar:
        seen = f" by {e(', '.join(r.observers))}" if r.observers else ""
        con.print(f"  Vulgar: observed{seen} — Result -0x1 (000 l.913)")
    if r.action_cost is not None:
        con.print(f"  Interact Action: Move {r.move_before} → {r.move} (Action Cost "
                  f"{r.action_cost})")


def show_upkeep(con: Any, r: powers.Upkeep) -> None:
    e = render.escape
    if r.action == "end":
        con.print(f"{e(r.unit)}: {e(r.ended or '')} lapses.")
    else:
        con.print(f"{e(r.unit)} keeps up " + ", ".join(
            f"{e(p)} ({conditions.name_of(k)} +1)" for p, k in r.paid.items()))
    con.print(f"  Conditions: {conditions_text(r.conditions)}")


@app.command(short_help="Put a unit on a Space of the map, with its Facing.")
def place(
    ctx: typer.Context,
    name: UnitArg,
    space: Annotated[str, typer.Argument(metavar="SPACE|off", help="A Space of the map "
                     "(G5: column letter from the west, row from the north), or off.")],
    facing: Annotated[str | None, typer.Argument(metavar="[FACING]", help="N, NE, E, SE, "
                      "S, SW, W or NW (default: the unit's Facing).")] = None,
    double: Annotated[bool | None, typer.Option(
        "--double/--single", help="A Double-sized unit takes its Space and the one "
        "behind it.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Put a unit on a Space of the map, facing a compass heading, without spending Move
    or Turn: setting up, or a correction. A placed unit's conflicts and hits read Range,
    Arcs, Cover, High Ground, Confined and Line of Sight from the map (docs/board.md);
    `off` takes it off the map.

    JSON: unit, space, facing, double, spaces, space_before, facing_before, summary.

    Example: d2d unit place Archer E7 NE
    """
    result = unit_ops.place(_state.target(ctx), name, space, facing, double=double)
    render.emit(result, lambda con, r: con.print(render.escape(r.summary)), as_json=json)


@app.command(short_help="Step off the map at its edge.")
def leave(
    ctx: typer.Context,
    name: UnitArg,
    kind: Annotated[str | None, typer.Argument(
        metavar="[KIND]", click_type=_complete.STEP,
        help="The step off the map: forward, drift, slide, backward, drift-back (default: "
        "the cheapest that leaves).")] = None,
    side: Annotated[str | None, typer.Argument(
        metavar="[SIDE]", click_type=_complete.WAY,
        help="Drift, slide or drift-back: left/right or a heading.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Leave the map: a unit on a Space at the map's edge takes one step off it, paying
    that step's Move (Forward, Drift 1; Slide, Backward, Drift Back 2; docs/rules.md
    "Leaving the map"). It then stands on no Space, is no one's Target, d2d board lists
    it as "left the map" and a goal's "off map UNIT" holds for it. A bound unit cannot
    leave until the task that frees it is won. d2d unit place NAME SPACE puts it back.

    JSON: unit, step, words, space_before, move_before, move, cost, targets_cleared,
    off_map.

    Example: d2d unit leave Thief   (or a chosen step: d2d unit leave Archer drift left)
    """
    result = unit_ops.leave(_state.target(ctx), name, kind, side)
    render.emit(result, lambda con, r: con.print(render.escape(r.summary)), as_json=json)


@app.command(short_help="Free a bound unit another way than its task.")
def free(ctx: typer.Context, name: UnitArg, json: _app.JsonOpt = False) -> None:
    """Free a bound unit another way than the task that would (an Ally cuts the rope, a
    Power, the Narrator's word): it may move, fight and leave the map. Combat #1's Thief
    is freed by winning his Knot (d2d task win Knot); this is for everything else.

    JSON: unit, bound.

    Example: d2d unit free Thief
    """
    result = unit_ops.free(_state.target(ctx), name)
    render.emit(result, lambda con, r: con.print(render.escape(r.summary)), as_json=json)


# --- what the table says once in a round (issue 19 item 11): commands/_exchange.py ---
from d2d_cli.commands import _exchange  # noqa: E402

app.command("situation",
            short_help="Say once this round: cover, range, high ground.")(_exchange.situation)
app.command("interrupt", short_help="Interrupt a unit's Move with an Action.")(_exchange.interrupt)
app.command("respond",
            short_help="The Target of an Interact spends an Action, or not.")(_exchange.respond)


# --------------------------------------------------------------------------- gear (issue 36)

gear_app = _app.group("unit gear", "What a unit carries: weapons, armor, a Shield and its "
                      "Proficiencies (000 l.506, l.379; 001 l.274–275, l.669).")
app.add_typer(gear_app, name="gear", short_help="Weapons, armor, Shield: add, rm, show.")
ItemArg = Annotated[str | None, typer.Argument(
    help="A sample item (\"Sword: Long\", Javelin, Bow, Spear, Dagger, Helmet, \"Helm: "
         "Heavy\", \"Leather Armor\", Shield), or the name of your own with --rating, "
         "--armor or --shield.")]


@gear_app.command("add", short_help="Give a unit a weapon, armor or Shield.")
def gear_add(
    ctx: typer.Context, name: UnitArg, item: ItemArg = None,
    rating: Annotated[str | None, typer.Option(
        help="Your own weapon's rating: a formula (Body+2) or a rating (6x1).")] = None,
    types: Annotated[str | None, typer.Option(
        help="Its 1 or 2 damage types, e.g. pierce,slash.")] = None,
    hands: Annotated[int | None, typer.Option(help="Hands it takes, 1 or 2.")] = None,
    melee: Annotated[bool, typer.Option(
        "--melee", help="A Melee weapon, Range 0-1 (the default).")] = False,
    reach: Annotated[bool, typer.Option(
        "--reach", help="A Reach weapon, Range 0-2.")] = False,
    range: Annotated[str | None, typer.Option(
        metavar="SHORT[,LONG]", help="A ranged weapon's bands in Spaces: past SHORT at "
        "Disadvantage, past LONG out of range.")] = None,
    thrown: Annotated[bool, typer.Option(
        "--thrown", help="Thrown (as a Javelin): ranged, with --range.")] = False,
    scale: Annotated[int | None, typer.Option(
        help="Weapon Scale (default: the wielder's Body's scale).")] = None,
    magic: Annotated[int | None, typer.Option(
        help="Magic Weapon or Magic Armor +N, 1 to 5.")] = None,
    proficiency: Annotated[str | None, typer.Option(
        help="The weapon's type a Proficiency names (default: its name).")] = None,
    armor: Annotated[str | None, typer.Option(
        metavar="STAT", help="Your own armor's rating, e.g. 2x1 (with --covers).")] = None,
    shield: Annotated[str | None, typer.Option(
        metavar="STAT", help="Your own Shield's Armor value, e.g. 2x1 (with --covers, "
        "--arc).")] = None,
    covers: Annotated[str | None, typer.Option(
        metavar="LOC,…", help="Locations the armor or Shield covers (default: all).")] = None,
    arc: Annotated[str | None, typer.Option(
        metavar="left|right", help="The side a Shield is held on (default left).")] = None,
    proficient: Annotated[list[str] | None, typer.Option(
        metavar="TYPE", help="A Proficiency the unit has (e.g. Bow); repeat.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Give a unit a weapon, armor or a Shield: a sample item by name, or your own.

    Example: d2d unit gear add Archer Bow --proficient Bow
    """
    result = unit_ops.gear_add(
        _state.target(ctx), name, item, rating=rating, types=types, hands=hands, melee=melee,
        reach=reach, range=range, thrown=thrown, scale=scale, magic=magic,
        proficiency=proficiency, armor=armor, shield=shield, covers=covers, arc=arc,
        proficient=proficient)
    render.emit(result, show_gear, as_json=json)


@gear_app.command("rm", short_help="Take a weapon, the armor or the Shield off a unit.")
def gear_rm(
    ctx: typer.Context, name: UnitArg,
    item: Annotated[str | None, typer.Argument(
        help="The weapon's name, armor, or shield.")] = None,
    proficient: Annotated[list[str] | None, typer.Option(
        metavar="TYPE", help="A Proficiency the unit loses; repeat.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Take a weapon (by name), all its armor, or its Shield off a unit.

    Example: d2d unit gear rm Archer Bow
    """
    result = unit_ops.gear_rm(_state.target(ctx), name, item, proficient=proficient)
    render.emit(result, show_gear, as_json=json)


@gear_app.command("show", short_help="What a unit carries.")
def gear_show(ctx: typer.Context, name: UnitArg, json: _app.JsonOpt = False) -> None:
    """What a unit carries: weapons (Hand to Hand without one), armor, Shield, Screen.

    Example: d2d unit gear show "Goblin Skirmisher"
    """
    render.emit(unit_ops.gear_show(_state.target(ctx), name), show_gear, as_json=json)


def show_gear(con: Any, r: gear.GearView) -> None:
    if r.changed:
        con.print(f"{render.escape(r.unit)}: {render.escape(r.changed)}.")
    con.print(f"{render.escape(r.unit)} carries:")
    for w in r.weapons:
        con.print(f"  weapon  {render.escape(w.text())}")
    if r.hand_to_hand:
        con.print("  weapon  none: Hand to Hand, its own Body (000 l.506)")
    if r.armor:
        names = f" ({', '.join(r.armor_names)})" if r.armor_names else ""
        con.print(f"  armor   {', '.join(f'{k} {v}' for k, v in r.armor.items())}"
                  f"{render.escape(names)}")
    if r.magic_armor:
        con.print(f"  Magic Armor +{r.magic_armor} (000 l.1213)")
    if r.shield is not None:
        arc = f" on Arc:{r.shield_arc.title()}" if r.shield_arc else ""
        con.print(f"  shield  {render.escape(r.shield_name or 'Shield')} {r.shield}{arc} "
                  f"over {', '.join(r.shield_covers)}")
    if r.screen:
        con.print(f"  screen  {r.screen}")
    if r.proficiencies is not None:
        con.print(f"  Proficiencies: {render.escape(', '.join(r.proficiencies) or 'none')}")
