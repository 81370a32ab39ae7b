"""``d2d npc plan|turn`` — a Non-Player unit's turn by the NPC policy (docs/solo.md
"The NPC policy"): the Narrator's thinking for every goblin."""

from __future__ import annotations

import shlex
import sys
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _reveal, _state
from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.time.round_state import Round

app = _app.group("npc")

UnitArg = Annotated[str, typer.Argument(help="A Non-Player unit (case-insensitive).",
                                        click_type=_complete.UNIT)]


def _goals(data: dict[str, Any]) -> Any:
    from d2d_cli.rules.assistant import goals as g

    raw = data.get("scene", {}).get("goals")
    return g.parse(raw, data) if raw else {}


def _npc(data: dict[str, Any], name: str) -> str:
    """The unit's name as stored; a Player's unit is refused (its Player decides)."""
    from d2d_cli.rules.assistant.engine import player_of
    from d2d_cli.rules.units.roster import find, roster

    unit = find(roster(data), name)
    owner = player_of(data["units"][unit.name])
    if owner is not None:
        raise BadInput(f"{unit.name} is {owner}'s unit: the NPC policy plays Non-Player "
                       "units only (000 l.185 \"IF any Factions are not run by Players\")")
    return unit.name


@app.command()
def plan(ctx: typer.Context, name: UnitArg, json: _app.JsonOpt = False) -> None:
    """Propose a Non-Player unit's turn as the round stands — target, movement (on the
    scene's map: the Space, Facing and the unit move steps), Action and approach — each
    with a one-line reason (docs/solo.md "The NPC policy"). Between rounds, the plan is
    for the next round as round start would begin it. Changes nothing.

    JSON: unit, action (attack, task, withdraw, move, none), target, approach (fate or
    a card), chance (to win the conflict), reasons (step, choice, why), moves (each
    unit move's words after the unit), space (where it ends; null off the map).
    Example: d2d npc plan "Goblin Scout"
    """
    from d2d_cli.rules.assistant import policy

    data = _state.read(ctx)
    unit = _npc(data, name)
    result = policy.plan_ahead(data, unit, _goals(data), _state.options(ctx, data))
    render.emit(result, _show_plan, as_json=json)


def _show_plan(con: Any, p: Any) -> None:  # rules.assistant.policy.Plan
    head = {"attack": f"attack {p.target}", "task": f"work the task {p.target}",
            "withdraw": "withdraw", "none": "no Action",
            "move": f"close in on {p.target}", "leave": "leave the map",
            "away": "head for the map's edge"}[p.action]
    chance = f", chance to win {p.chance:.0%}" if p.chance is not None else ""
    con.print(f"[bold]{render.escape(p.unit)}[/]: {render.escape(head)}{chance}")
    for r in p.reasons:
        con.print(f"  {r.step}: [bold]{render.escape(r.choice)}[/] — {render.escape(r.why)}")
    for words in p.moves:
        con.print(f"  [dim]d2d unit move {render.escape(shlex.join([p.unit, *words]))}[/]")
    if p.leaves:
        con.print(f"  [dim]d2d unit leave {render.escape(shlex.join([p.unit, *p.leaves]))}[/]")


@record
class Done(Result):
    """One command ``npc turn`` carried out: the plan it carries out (an index into
    ``plans``), the line as typed, the command's one-line summary and its result (the
    ``result`` of that command's ``--json``)."""

    plan: int | None
    command: str
    summary: str
    result: Result


@record
class NpcTurn(Result):
    """``npc turn``: each plan carried out, what each command gave, and the commands."""

    units: tuple[str, ...]
    plans: tuple[Any, ...]  # rules.assistant.policy.Plan
    commands: tuple[str, ...]
    goal_reached: str | None
    done: tuple[Done, ...] = ()


@app.command()
def turn(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(
        help="A Non-Player unit; or --all.", click_type=_complete.UNIT)
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every Non-Player unit standing, "
                                       "the most Move first.")] = False,
    group: Annotated[int | None, typer.Option(
        "--group", metavar="N", help="With --all: only the Non-Player units of Group N "
        "(the numbers of d2d round groups).")] = None,
    card: _reveal.CardOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """Carry out a Non-Player unit's turn by the NPC policy: its Actions while its Move
    pays the Action Cost, each through the commands a Narrator would type (unit move on
    the map, unit act, conflict, hit, crit, task win|lose) — one journal entry, one
    undo. Fate cards come from the deck, or from the table with --card. A Player's unit
    it attacks Stays. Under each plan, what each command gave, in its own one-line words
    (where the unit moved, the Conflict's winner, the Hits, the Crit); then the commands
    as typed.

    JSON: units, plans (as npc plan's), commands (as typed), goal_reached, done (each
    command in order: plan, the index of the plan it carries out; command; summary;
    result, that command's --json result).

    Example: d2d npc turn "Goblin Scout"   (every NPC: d2d npc turn --all; one Group's:
    d2d npc turn --all --group 1)
    """
    import copy

    from d2d_cli.rules.assistant import sim
    from d2d_cli.rules.assistant.engine import Table, player_of
    from d2d_cli.rules.deck import fate

    if (name is None) == (not all_):
        raise BadInput("name one Non-Player unit, or give --all")
    table_cards = _reveal.cards(card)
    with _state.edit(ctx) as tx:
        data = copy.deepcopy(tx.data)
        from d2d_cli.rules.time.turns import under_way

        rnd = Round.from_state(data.get("round"))
        under_way(rnd.number, rnd.phase)  # Actions are taken in a round (001 l.453)
        names = [_npc(data, name)] if name is not None else [
            n for n, u in data.get("units", {}).items() if player_of(u) is None]
        if group is not None:
            names = _of_group(data, names, group, all_)
        _bounded(names)
        goals = _goals(data)
        deck = None if table_cards is not None else fate.Deck.from_state(data.get("fate"))
        t = Table(data, tx.rng(), _state.options(ctx, data), True, deck=deck,
                  table_cards=table_cards, hands=False)
        plans: list[Any] = []
        reached = sim.turns(t, goals, "fate", only=names, plans=plans)
        if t.table is not None:
            t.table.finish()
        for key in ("units", "tasks", "damage"):
            if key in t.data and t.data[key] != tx.data.get(key):
                tx.put(key, t.data[key])
        if deck is not None and t.deck.draw != fate.Deck.from_state(tx.data["fate"]).draw:
            tx.put("fate", t.deck.to_state())
        tx.summary = f"npc turn {', '.join(names)}: {len(t.lines or [])} commands"
    done = tuple(Done(d.plan, d.command, d.result.summary, d.result) for d in t.done or ())
    render.emit(NpcTurn(tuple(names), tuple(plans), tuple(t.lines or []), reached, done),
                _show_turn, as_json=json)


# Non-Player turns one command plays (issue 30 item 6): each takes ~0.12 s on a 1,000-unit
# session, all under the session's lock, which other commands wait 15 s for.
NPC_TURN_LIMIT = 50


def _bounded(names: list[str]) -> None:
    """Refuse, before anything is played, more turns than one command holds the lock
    for; on a terminal, say how many are being played."""
    if len(names) > NPC_TURN_LIMIT:
        raise BadInput(f"npc turn --all would play {len(names)} Non-Player units in one "
                       f"command, holding the session's lock all the while (at most "
                       f"{NPC_TURN_LIMIT}): play them a Group at a time (d2d round groups; "
                       "d2d npc turn --all --group N) or name them one by one")
    if len(names) > 5 and sys.stderr.isatty():
        sys.stderr.write(f"npc turn: playing {len(names)} Non-Player units…\n")
        sys.stderr.flush()


def _of_group(data: dict[str, Any], names: list[str], number: int, all_: bool) -> list[str]:
    """The Non-Player units of Group ``number`` as d2d round groups numbers them (001
    l.475 "Split Units into Groups by Target")."""
    from d2d_cli.rules.time.groups import components
    from d2d_cli.rules.units.roster import roster

    if not all_:
        raise BadInput("--group goes with --all (a named unit is played whatever its Group)")
    made = components(roster(data))
    if not 1 <= number <= len(made):
        raise BadInput(f"no Group {number}: this round has {len(made)} (d2d round groups)")
    got = [n for n in names if n in set(made[number - 1])]
    if not got:
        raise BadInput(f"Group {number} ({', '.join(made[number - 1])}) has no Non-Player "
                       "unit")
    return got


def _show_turn(con: Any, r: NpcTurn) -> None:
    for i, p in enumerate(r.plans):  # each plan, then what its commands gave, in order
        _show_plan(con, p)
        for d in r.done:
            if d.plan == i:
                con.print(f"  → {render.escape(d.summary)}")
    if r.commands:
        con.print("[bold]As typed:[/]")
        for line in r.commands:
            con.print(f"  d2d {render.escape(line)}")
    else:
        con.print("[dim]No Action taken.[/]")
    if r.goal_reached:
        con.print(f"[green]Goal reached: {render.escape(r.goal_reached)}[/]")
