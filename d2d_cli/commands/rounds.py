"""``d2d round …`` — round start (refresh) and round end (upkeep), 001 p.19 and p.40."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.rules import rounds, scene, tasks, units
from d2d_cli.rules.clock import Clock

app = c.group("round")


@app.command()
def start(ctx: typer.Context, json: c.JsonOpt = False) -> None:
    """Start the next round: refresh every unit — Move = Speed, Action Cost = Speed/2
    (round down), Turn = 2 (Speed after condition penalties).

    Example: d2d round start
    """
    with c.edit(ctx) as tx:
        rnd = rounds.Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        penalties = c.options(ctx, tx.data).refresh_penalties
        rows = rounds.start(rnd, roster, penalties)
        tx.put("units", units.roster_state(roster))
        tx.put("round", rnd.to_state())
        tx.summary = f"round {rnd.number} started"
    render.emit({"round": rnd.number, "units": rows}, _show_start, as_json=json)


@app.command()
def end(ctx: typer.Context,
        recover: Annotated[list[str] | None, typer.Option(
            "--recover", "-r", metavar="NAME=CHOICE",
            help="What a unit recovers: a minor condition (Archer=fatigue) or an ability "
                 "in cooldown. Repeat per unit; without it the choices are listed.")] = None,
        card: c.CardOpt = None, json: c.JsonOpt = False) -> None:
    """End the round, once: Draw, Recover, Task Clock (Progress −1), condition and
    Random Events (Fate reveals), Clock tick — one summary.

    Example: d2d round end --recover Archer=fatigue
    """
    table = c.cards(card)
    with c.edit(ctx) as tx, c.reveals(tx, table) as reveal:
        rnd = rounds.Round.from_state(tx.data.get("round"))
        roster, board = units.roster(tx.data), tasks.board(tx.data)
        clock = Clock.from_state(tx.data.get("clock"))
        steps = rounds.end(rnd, roster, board, clock, reveal,
                           rounds.parse_recover(recover or [], roster))
        steps[-1]["arrived"] = scene.arrivals(steps[-1]["events"], tx.data.get("scene", {}),
                                              roster)
        for key, value in (("units", units.roster_state(roster)), ("clock", clock.to_state()),
                           ("tasks", tasks.board_state(board)), ("round", rnd.to_state())):
            tx.put(key, value)
        tx.summary = f"round {rnd.number} ended, clock {clock.value}"
    result = {"round": rnd.number, "steps": steps, "cards": [x.to_json() for x in reveal.used],
              "reshuffled": reveal.reshuffled}
    render.emit(result, _show_end, as_json=json)


def _show_start(con: Any, r: dict[str, Any]) -> None:
    from rich.table import Table

    con.print(f"[bold]Round {r['round']}[/] — refresh: Move = Speed, Action Cost = Speed/2, "
              "Turn = 2")
    t = Table("Unit", "Speed", "Move", "Action Cost", "Turn", box=None)
    for u in r["units"]:
        t.add_row(render.escape(u["unit"]), *("—" if u[k] is None else str(u[k])
                                       for k in ("speed", "move", "action_cost", "turn")))
    con.print(t if r["units"] else "[dim]no units on the board[/]")


def _fmt(changes: dict[str, int]) -> str:
    return ", ".join(f"{k.replace('_', ' ').title()} {v:+d}" for k, v in changes.items()) \
        or "nothing happens"


def _show_end(con: Any, r: dict[str, Any]) -> None:

    con.print(f"[bold]End of round {r['round']}[/]")
    for i, s in enumerate(r["steps"], 1):
        kind = s["kind"]
        if kind == "draw":
            con.print(f"{i}. {s['text']}")
        elif kind == "recover":
            con.print(f"{i}. Recover:")
            for a in s["applied"]:
                what = f"removed one {a['removed']}" if "removed" in a else \
                    f"readied {render.escape(a['readied'])}"
                con.print(f"   {render.escape(a['unit'])}: {what}")
            for ch in s["choices"]:
                con.print(f"   {render.escape(ch['unit'])} may recover one of: "
                          f"{render.escape(', '.join(ch['choices']))} (--recover NAME=CHOICE)")
            if not s["applied"] and not s["choices"]:
                con.print("   [dim]nothing to recover[/]")
        elif kind == "task_clock":
            con.print(f"{i}. Task Clock — Progress −1 on each task:")
            for t in s["changes"]:
                con.print(f"   {render.escape(t['task'])}: Progress {t['progress_before']} → "
                          f"{t['progress']} ({t['state']})")
            if not s["changes"]:
                con.print("   [dim]no open tasks[/]")
        elif kind == "condition_events":
            con.print(f"{i}. Condition events:")
            for e in s["reveals"]:
                con.print(f"   {render.escape(e['unit'])} {e['condition'].title()}: "
                          f"{render.cards_line([e['card']])} → {_fmt(e['outcome'])}")
            if not s["reveals"]:
                con.print("   [dim]none[/]")
        elif kind == "random_events":
            con.print(f"{i}. Random events:")
            for e in s["checks"]:
                verdict = "[yellow]occurs![/]" if e["occurs"] else "does not occur"
                con.print(f"   {render.escape(e['text'])} ({e['chance']}): "
                          f"{render.cards_line(e['cards'])} → {e['value']}: {verdict}")
            if not s["checks"]:
                con.print("   [dim]none[/]")
        elif kind == "clock":
            con.print(f"{i}. Clock: {s['clock_before']} → {s['clock']}")
            for e in s["events"]:
                con.print(f"   [yellow]Clock #{e['at']}:[/] {render.escape(e['text'])}")
            for name in s.get("arrived", []):
                con.print(f"   [yellow]{render.escape(name)} arrives.[/]")
    if r["reshuffled"]:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")


# --- round groups (issue 12 item 5) ---------------------------------------------------


@app.command()
def groups(ctx: typer.Context, json: c.JsonOpt = False) -> None:
    """Who resolves with whom this round: Groups from Targets (001 l.475–477 "Unit and
    its Target are in the same Group"), each unit with its Move left, most first (the
    order the Countdown from 10 reaches them, 001 l.499).

    JSON: round, phase, countdown, groups (number, units (name, target, move)).

    Example: d2d round groups
    """
    from d2d_cli.rules import groups as g

    data = c.read(ctx)
    rnd = rounds.Round.from_state(data.get("round"))
    render.emit(g.groups(units.roster(data), rnd.number, rnd.phase), _show_groups,
                as_json=json)


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
