"""``d2d round …`` — round start (refresh) and round end (upkeep), 001 p.19 and p.40."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _reveal, _state
from d2d_cli.operations import rounds as ops

if TYPE_CHECKING:  # imported where drawn: `round next`, a lookup, needs none of them
    from d2d_cli.rules.time import rounds

app = _app.group("round")


@app.command(short_help="Start the next round: refresh Move, Action Cost, Turn.")
def start(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """Start the next round: refresh every unit — Move = Speed, Action Cost = Speed/2
    (round down, at least 1), Turn = 2 — on the scene's map (Speed after condition
    penalties; docs/rules.md "Move and Action Cost").

    Example: d2d round start
    """
    render.emit(ops.start(_state.target(ctx)), _show_start, as_json=json)


@app.command(short_help="End the round: the upkeep, once, in one summary.")
def end(ctx: typer.Context,
        recover: Annotated[list[str] | None, typer.Option(
            "--recover", "-r", metavar="NAME=CHOICE",
            help="What a unit recovers: a minor condition (Archer=fatigue) or an ability "
                 "in cooldown, or none. Repeat per unit; without it a unit recovers the "
                 "first of its choices.")] = None,
        card: _reveal.CardOpt = None, json: _app.JsonOpt = False) -> None:
    """End the round, once: Draw, Recover, Task Clock (Progress −1), condition and
    Random Events (Fate reveals), Clock tick — one summary.

    Example: d2d round end --recover Archer=fatigue
    """
    render.emit(ops.end(_state.target(ctx), recover=recover, card=card), _show_end, as_json=json)


def _show_start(con: Any, r: rounds.RoundStarted) -> None:
    from d2d_cli.layout import Table

    con.print(f"[bold]Round {r.round}[/] — refresh on the {_map_name(r.map)}: Move = Speed, "
              "Action Cost = Speed/2, Turn = 2")
    t = Table("Unit", "Speed", "Move", "Action Cost", "Turn", box=None)
    for u in r.units:
        t.add_row(render.escape(u.unit), *("—" if v is None else str(v)
                                           for v in (u.stat, u.move, u.action_cost, u.turn)))
    con.print(t if r.units else "[dim]no units on the board[/]")


def _map_name(key: str) -> str:
    from d2d_cli import tables

    return str(tables.load("maps")[key]["name"])


def _fmt(changes: dict[str, int]) -> str:
    return ", ".join(f"{k.replace('_', ' ').title()} {v:+d}" for k, v in changes.items()) \
        or "nothing happens"


def _step_lines(s: rounds.Step) -> tuple[str, list[str], str]:
    """A step for people: its heading, its lines, and what to say when it has none."""
    from d2d_cli.rules.deck.cards import names as card_names
    from d2d_cli.rules.time import rounds, upkeep

    if isinstance(s, rounds.DrawStep):
        return s.text, [f"{render.escape(d.player)} drew {d.drew} ({d.hand} in hand)"
                        for d in s.hands], ""
    if isinstance(s, rounds.RecoverStep):
        return "Recover:", [
            *(f"{render.escape(a.unit)}: " + (f"removed one {a.removed}"
                                              if isinstance(a, rounds.Removed)
                                              else f"readied {render.escape(a.readied)}")
              for a in s.applied),
            *(f"{render.escape(ch.unit)} took the first of "
              f"{render.escape(', '.join(ch.choices))} (choose before the round ends: "
              "--recover NAME=CHOICE or NAME=none)" for ch in s.choices)], "nothing to recover"
    if isinstance(s, rounds.TaskClockStep):
        return "Task Clock — Progress −1 on each task:", [
            f"{render.escape(t.task)}: Progress {t.progress_before} → {t.progress} ({t.state})"
            for t in s.changes], "no open tasks"
    if isinstance(s, rounds.ConditionEventsStep):
        return "Condition events:", [
            f"{render.escape(e.unit)} {e.condition.title()}: {e.card.name()} → "
            f"{_fmt(e.outcome)}" for e in s.reveals], "none"
    if isinstance(s, rounds.RandomEventsStep):
        return "Random events:", [
            f"{render.escape(x.text)} ({x.chance}): {card_names(x.cards)} → {x.value}: "
            + ("[yellow]occurs![/]" if x.occurs else "does not occur") for x in s.checks], \
            "none"
    if isinstance(s, upkeep.PowersStep):
        return "Continuous Powers — the Price of Power (000 l.878):", [
            f"{render.escape(p.unit)}: " + ", ".join(
                f"{render.escape(k)} ({v.replace('_', ' ').title()} +1)"
                for k, v in p.paid.items()) for p in s.paid], ""
    if isinstance(s, upkeep.StealthStep):
        return "Remain Hidden — Stealth tokens +1 (000 l.807):", [
            f"{render.escape(h.unit)}: {h.tokens_before} → {h.tokens} (at most "
            f"{h.max_tokens})" for h in s.units], ""
    return f"Clock: {s.clock_before} → {s.clock}", [], ""


def _show_end(con: Any, r: rounds.RoundEnded) -> None:
    from d2d_cli.commands.clock import show_reached
    from d2d_cli.rules.time import rounds

    con.print(f"[bold]End of round {r.round}[/]")
    for i, s in enumerate(r.steps, 1):
        heading, lines, empty = _step_lines(s)
        con.print(f"{i}. {heading}")
        for line in lines:
            con.print(f"   {line}")
        if not lines and empty:
            con.print(f"   [dim]{empty}[/]")
        if isinstance(s, rounds.ClockStep):
            show_reached(con, s.events, s.arrived, "   ")
    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")


# --- round groups (issue 12 item 5) ---------------------------------------------------


@app.command(short_help="Who resolves with whom: Groups from Targets.")
def groups(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """Who resolves with whom this round: Groups from Targets (001 l.475–477 "Unit and
    its Target are in the same Group"), each unit with its Move left, most first (the
    order the Countdown from 10 reaches them, 001 l.499).

    JSON: round, phase, countdown, groups (number, units (name, target, move)).

    Example: d2d round groups
    """
    render.emit(ops.groups(_state.target(ctx)), _show_groups, as_json=json)


def _show_groups(con: Any, r: Any) -> None:
    head = f"Round {r.round}" if r.phase == "started" else "Next round"
    con.print(f"[bold]{head}[/] — Groups by Target (001 l.475); each counts down from "
              f"{r.countdown}, most Move first:")
    for grp in r.groups:
        names = ", ".join(
            f"{render.escape(m.name)}"
            + (f" → {render.escape(m.target)}" if m.target else "")
            + (f" (Move {m.move})" if m.move is not None else "") for m in grp.units)
        con.print(f"  {grp.number}. {names}")
    if not r.groups:
        con.print("  [dim]no units on the board[/]")


@app.command(name="next", short_help="Who acts next by the Countdown, and what they have left.")
def next_(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """Who acts next by the Countdown in each Group (001 l.499–505: the Count reaches
    the unit with the most Move left first), with its Move, Actions and Turn left.

    JSON: round, phase, next [{group, name, count, move, actions_left, turn, target}],
    done (the units with no Move left).

    Example: d2d round next
    """
    render.emit(ops.next(_state.target(ctx)), _show_next, as_json=json)


def _show_next(con: Any, r: Any) -> None:
    if r.phase != "started" or not r.next:
        con.print(render.escape(r.summary[0].upper() + r.summary[1:]))
        return
    for u in r.next:
        left = " · ".join(x for x in (
            f"Move {u.move}", f"{u.actions_left} Action{'s' * (u.actions_left != 1)}"
            if u.actions_left is not None else "", f"Turn {u.turn}"
            if u.turn is not None else "") if x)
        aim = f" → {render.escape(u.target)}" if u.target else ""
        con.print(f"Group {u.group}, Count {u.count}: [bold]{render.escape(u.name)}[/]"
                  f"{aim} — {left}")
    if r.done and render.why():
        con.print(f"  [dim]done this round: {render.escape(', '.join(r.done))}[/]")
