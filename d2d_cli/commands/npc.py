"""``d2d npc plan|turn`` — a Non-Player unit's turn by the NPC policy (docs/solo.md
"The NPC policy"): the Narrator's thinking for every goblin."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _reveal, _state

if TYPE_CHECKING:
    from d2d_cli.operations.npc import NpcTurn

app = _app.group("npc")

UnitArg = Annotated[str, typer.Argument(help="A Non-Player unit (case-insensitive).",
                                        click_type=_complete.UNIT)]


@app.command(short_help="Propose a Non-Player unit's turn, with its reasons.")
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
    from d2d_cli.operations import npc as ops

    result = ops.plan(_state.target(ctx), name)
    render.emit(result, _show_plan, as_json=json)


def _unprefixed(summary: str, unit: str) -> str:
    """``Goblin Scout: Forward ×2`` under Goblin Scout's own line: ``Forward ×2``."""
    return summary.removeprefix(f"{unit}: ")


def _plan_line(p: Any) -> str:
    return (f"[bold]{render.escape(p.unit)}[/]: {render.escape(_head(p))}"
            + (f" ({p.chance:.0%} to win)" if p.chance is not None else ""))


def _head(p: Any) -> str:
    return {"attack": f"attack {p.target}", "task": f"work the task {p.target}",
            "withdraw": "withdraw", "none": "no Action",
            "move": f"close in on {p.target}", "leave": "leave the map",
            "away": "head for the map's edge"}[p.action]


def _show_plan(con: Any, p: Any) -> None:  # rules.assistant.policy.Plan
    head = _head(p)
    chance = f", chance to win {p.chance:.0%}" if p.chance is not None else ""
    con.print(f"[bold]{render.escape(p.unit)}[/]: {render.escape(head)}{chance}")
    for r in p.reasons:
        con.print(f"  {r.step}: [bold]{render.escape(r.choice)}[/] — {render.escape(r.why)}")
    for words in p.moves:
        con.print(f"  [dim]d2d unit move {render.escape(shlex.join([p.unit, *words]))}[/]")
    if p.leaves:
        con.print(f"  [dim]d2d unit leave {render.escape(shlex.join([p.unit, *p.leaves]))}[/]")


@app.command(short_help="Carry out a Non-Player unit's turn by the NPC policy.")
def turn(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(
        help="A Non-Player unit; or --all.", click_type=_complete.UNIT)
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every Non-Player unit standing, "
                                       "one Count of the Countdown at a time; stops where "
                                       "the Count reaches a Player's unit.")] = False,
    group: Annotated[int | None, typer.Option(
        "--group", metavar="N", help="With --all: only the Non-Player units of Group N "
        "(the numbers of d2d round groups).")] = None,
    answer: Annotated[list[str] | None, typer.Option(
        "--answer", metavar="UNIT=CARD", help="The card a Player's unit plays if it is "
        "attacked (Archer=7S^; Archer=fate to Stay). Repeat per unit.")] = None,
    players_stay: Annotated[bool, typer.Option(
        "--players-stay", help="A Player's unit attacked without a card chosen Stays "
        "(reveals Fate) instead of stopping the turn to ask.")] = False,
    card: _reveal.CardOpt = None,
    respond: Annotated[list[str] | None, typer.Option(
        "--respond", metavar="UNIT", click_type=_complete.UNIT,
        help="A Player's unit attacked spends its Action on the defence (unit respond): "
        "a Win then gives its benefits. Repeat per unit; a terminal asks.")] = None,
    wait: Annotated[float | None, typer.Option(
        "--wait", metavar="SECONDS", min=0, max=86400,
        help="Where a Player's card is needed, wait this long for it — chosen on their "
        "d2d serve page or with d2d hand choose — without holding the session (a terminal "
        "always waits).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Carry out a Non-Player unit's turn by the NPC policy: its Actions while its Move pays
    the Action Cost, each through the commands a Narrator would type (unit move on the
    map, unit act, conflict, hit, crit, task win|lose) — one journal entry, one undo
    (one for each part of a turn that waited for a card). With --all the Countdown is
    walked one Count at a time, as round next reads it (001 l.499–505): at each Count
    every Non-Player it reaches takes one Movement or its Action, and the turn stops
    before a Count that reaches a Player's unit — "Stopped at Count 5: Archer (Ann) may
    act now" — for the Player to act or Wait (unit wait Archer 5); then type it again
    ([rules] shared_count = "npcs": the Non-Players at that Count go first). Fate cards
    come from the deck,
    or from the table with --card. A Player's unit it attacks plays its Player's card:
    the one given with --answer, else the one chosen face down (d2d hand choose), else
    the turn stops before the attack and says what to type; --players-stay makes them
    Stay. At a terminal (and in d2d play), and in a script with --wait SECONDS, it asks
    instead: the question goes on the Player's d2d serve page, the session is left free,
    and the turn goes on as soon as the card is chosen there, with d2d hand choose, or
    typed here (fate Stays); a card not held is asked again; Ctrl-C cancels the
    question, the session as it was before the attack. Under each plan, what each
    command gave, in its own one-line words (where the unit moved, the Conflict's
    winner, the Hits, the Crit); then the commands as typed.

    JSON: units, plans (as npc plan's), commands (as typed), goal_reached, done (each
    command in order: plan, the index of the plan it carries out; command; summary;
    result, that command's --json result), asked (where it stopped for a Player's card:
    attacker, target, player, type — what to type; else null), hands (what its Conflicts
    did to d2d's hands, as conflict's), counts (with --all: the Count each plan was
    played at), stopped (with --all, where the Count reaches Players' units: count,
    units, players, type — what to type; else null).

    The Target's Action (001 l.639–641 "Target may spend an Action / IF not Target
    gains no benefits on a Win"): a Player's unit named with --respond spends it (unit
    respond), and a Win then gives it everything (Keep and Draw, its Hits on the
    attacker, Evade's Move); a terminal asks for the others; otherwise the Conflict's
    line says no Action was spent and what that cost. A Non-Player
    Target spends it when its Move pays the Action Cost (docs/solo.md).

    Example: d2d npc turn "Goblin Scout" --respond Archer   (every NPC: d2d npc turn
    --all; one Group's: d2d npc turn --all --group 1)
    """
    from d2d_cli.operations import npc as ops

    interactive = _interactive() and not json  # d2d play, or any terminal
    _asked_at.clear()
    if players_stay or not (interactive or wait is not None):
        render.emit(ops.turn(_state.target(ctx), name, all=all_, group=group, answer=answer,
                             players_stay=players_stay, card=card, respond=respond),
                    _show_turn, as_json=json)
        return
    # It waits for the card (the Player's page, hand choose, or typed here), and the
    # Target's Action comes with the answer: the page's "respond" or "7S^ respond" typed.
    r = ops.turn_waiting(_state.target(ctx), name, all=all_, group=group, answer=answer,
                         card=card, respond=respond, wait=wait,
                         typed=_typed if interactive else None,
                         on_part=None if json else _now(_show_part), said=_said)
    if json:
        render.emit(r, _show_turn, as_json=True)
    elif r.asked is not None:  # no answer in time: where it stopped, what to type
        render.emit(r, _show_asked, as_json=False)


def _interactive() -> bool:
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


_asked_at: list[Any] = []  # the question the waiting line was printed for


def _typed(a: Any) -> str | None:  # rules.assistant.asking.Asked
    """A line typed at this terminal, if one is waiting (never blocks on a terminal):
    the turn waits for the Player's page and the keyboard at once. The end of the input
    (Ctrl-D) ends the wait as no answer does (EOFError)."""
    import io
    import select

    from d2d_cli import env

    stdin = env.current().stdin
    if not _asked_at or _asked_at[-1] != a:
        _asked_at.append(a)
        _said(f"Waiting: {a.attacker} attacks {a.target} — {a.player} chooses {a.target}'s "
              "card on their d2d serve page, or type it here: e.g. 7S^; 7S^ respond to "
              f"spend {a.target}'s Action on the defence (a Win then gives everything: "
              "001 l.639–641); fate to Stay. Ctrl-C cancels.")
    try:
        ready, _, _ = select.select([stdin], [], [], 0)
    except (OSError, ValueError, io.UnsupportedOperation):
        ready = [stdin]  # no file behind it (a test's text): a line is there or never
    if not ready:
        return None
    line = stdin.readline()
    if not line:
        raise EOFError
    return line


def _said(text: str) -> None:
    """A line to the Narrator while the turn waits; at a terminal, wrapped at its words to
    the terminal's width (a 40-column one cut "Archer" in two)."""
    from d2d_cli import env

    err = env.current().stderr
    isatty = getattr(err, "isatty", None)
    if isatty is not None and isatty():
        import shutil
        import textwrap

        text = textwrap.fill(text, max(20, shutil.get_terminal_size().columns - 1))
    err.write(text + "\n")
    err.flush()


def _now(show: Any) -> Any:
    """Print a part of the turn at once: it is saved already (the turn waits after it)."""
    from d2d_cli import env

    def out(r: NpcTurn) -> None:
        import io

        buf = io.StringIO()
        show(render.console(file=buf), r)
        here = env.current()
        here.stdout.write(buf.getvalue())
        here.stdout.flush()

    return out


def _show_part(con: Any, r: NpcTurn) -> None:
    """A part of a waiting turn: what it did, without the stop's "Type:" lines (the
    waiting line says what is asked)."""
    from d2d_cli.rules.core.record import replace

    if r.asked is not None and not r.commands:
        return
    _show_turn(con, replace(r, asked=None))


def _show_asked(con: Any, r: NpcTurn) -> None:
    """Where the turn stopped for a Player's card, and what to type (001 l.732)."""
    a = r.asked
    if a is None:
        return
    con.print(f"[bold]Stopped[/]: {render.escape(a.attacker)} attacks "
              f"{render.escape(a.target)} — {render.escape(a.player)} chooses "
              f"{render.escape(a.target)}'s card (001 l.732). Type:")
    for line in a.type:
        con.print(f"  {render.escape(line)}")


def _show_stopped(con: Any, r: NpcTurn) -> None:
    """Where --all stopped because the Count reaches a Player's unit, and what to type
    (001 l.499–505; docs/rules.md "npc turn --all, one Count at a time")."""
    s = r.stopped
    if s is None:
        return
    pairs = [f"{u} ({p})" for u, p in zip(s.units, s.players, strict=True)]
    who = ", ".join(pairs[:6]) + (f" and {len(pairs) - 6} more" if len(pairs) > 6 else "")
    con.print(f"[bold]Stopped at Count {s.count}[/]: {render.escape(who)} may act now "
              "(001 l.499–505). Type:")
    for line in s.type:
        con.print(f"  {render.escape(line)}")


def _count_of(r: NpcTurn, i: int) -> str:
    """``Count 5: `` before the plan played at Count 5 (--all), else nothing."""
    return f"Count {r.counts[i]}: " if i < len(r.counts) else ""


def _show_notes(con: Any, d: Any) -> None:
    """What a Conflict took away (a Target that spent no Action: 001 l.641), under it."""
    for note in getattr(d.result, "notes", ()):
        con.print(f"    [dim]{render.escape(note)}[/]")


def _show_turn(con: Any, r: NpcTurn) -> None:  # operations.npc.NpcTurn
    """Each unit's plan in a line and a line per command it carried out; with --why the
    reasons of each plan and the commands as typed."""
    if not render.why():
        for i, p in enumerate(r.plans):
            con.print(_count_of(r, i) + _plan_line(p))
            for d in r.done:
                if d.plan == i:
                    con.print(f"  → {render.escape(_unprefixed(d.summary, p.unit))}")
                    _show_notes(con, d)
        if not r.commands and r.asked is None and r.stopped is None:
            con.print("[dim]No Action taken.[/]")
        if r.goal_reached:
            con.print(f"[green]Goal reached: {render.escape(r.goal_reached)}[/]")
        _show_asked(con, r)
        _show_stopped(con, r)
        return
    for i, p in enumerate(r.plans):  # each plan, then what its commands gave, in order
        if i < len(r.counts):
            con.print(f"[dim]Count {r.counts[i]}[/]")
        _show_plan(con, p)
        for d in r.done:
            if d.plan == i:
                con.print(f"  → {render.escape(d.summary)}")
                _show_notes(con, d)
    if r.commands:
        con.print("[bold]As typed:[/]")
        for line in r.commands:
            con.print(f"  d2d {render.escape(line)}")
    elif r.asked is None and r.stopped is None:
        con.print("[dim]No Action taken.[/]")
    if r.goal_reached:
        con.print(f"[green]Goal reached: {render.escape(r.goal_reached)}[/]")
    _show_asked(con, r)
    _show_stopped(con, r)
