"""``d2d status`` — the dashboard a Narrator keeps open during a scene: the round, the
clock, open tasks, weather and the Status Bar with what each unit has left."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _state

if TYPE_CHECKING:
    from d2d_cli.rules.overview.dashboard import Dashboard, StatusRow

app = _app.single("status")



@app.command()
def status(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """The round and its phase, the scene clock and its next Timed Event, open tasks,
    the weather, and every unit: stats after conditions, conditions and Crits (Dying
    highlighted), Move, Action Cost, Actions and Turn left, target, Abilities in
    Cooldown, Facing, Stealth tokens and the round's boosts. Move, Action Cost and Turn
    are the tokens of the round's Refresh (001 l.459–465) less what was spent. With
    --why, what each unit carries (d2d unit gear show; Hand to Hand without a weapon).

    JSON: round (number, phase), clock (value, down, next_event), tasks (the open ones),
    weather (or null), units (the keys of unit show, and move_left, actions_left,
    cooldowns, active, facing, stealth, boosts, continuous, said).

    Example: d2d status
    """
    from d2d_cli.operations.overview import status as dashboard

    render.emit(dashboard(_state.target(ctx)), _show, as_json=json)


def _show(con: Any, r: Dashboard) -> None:
    # Wrap at the console's width even when piped: the dashboard is read at 60 columns.
    con.soft_wrap = False
    for line in _header(r):
        con.print(line)
    if not r.units:
        con.print("No units yet — d2d unit add NAME --body … or d2d char new NAME")
        return
    # One row a unit while the table fits with one space between columns (the layout
    # then gives each column its width, and Target and Conditions wrap at their words,
    # each given at least _WRAPPED columns); else one block per unit.
    marks = [_marks(u) for u in r.units]  # each unit's once: the row and the block
    table, wrapping = _table(r.units, marks)
    fixed = table.first_columns(len(table.columns) - wrapping)  # measured, never drawn
    if fixed.natural_width() - len(fixed.columns) + (_WRAPPED + 1) * wrapping <= con.width:
        con.print(table)
        for u in r.units:
            extras = _extras(u)
            if extras:
                con.print(f"  {render.escape(u.name)}: " + " · ".join(extras))
    else:  # too narrow for the table: one block per unit
        for u, m in zip(r.units, marks, strict=True):
            _stacked(con, u, m)
    if render.why():  # issue 36: what each unit carries (Hand to Hand without a weapon)
        for u in r.units:
            con.print(f"  {render.escape(u.name)} carries: {render.escape(u.carries)}")
    for u in r.units:
        if u.zero:
            con.print(f"[red]{render.escape(u.name)}: {', '.join(u.zero)} at 0 — "
                      "flip to Crit (001 p.35)[/]")


def _header(r: Dashboard) -> list[str]:
    e = render.escape
    rnd = r.round
    lines = [{"none": "[bold]No round yet[/] (d2d round start)",
              "started": f"[bold]Round {rnd.number}[/] — under way",
              "ended": f"[bold]Round {rnd.number}[/] — ended (d2d round start for the next)"}
             .get(rnd.phase, f"Round {rnd.number} — {e(rnd.phase)}")]
    nxt = r.clock.next_event
    ahead = (f"next: #{nxt.at} in {nxt.ticks} tick{'s' * (nxt.ticks != 1)} — {e(nxt.text)}"
             if nxt else "no Timed Event ahead")
    lines.append(f"Clock {r.clock.value}{' (ticking down)' if r.clock.down else ''} · {ahead}")
    if r.weather is not None:
        w = r.weather
        lines.append(f"Wind {e(w.direction)} {w.speed_kph} km/h ({e(w.beaufort)})")
    tasks = "; ".join(f"{e(t.name)} — Challenge {t.challenge}/{t.difficulty}, Progress "
                      f"{t.progress}/{t.difficulty}" for t in r.tasks)
    lines.append(f"Tasks: {tasks or 'none open'}")
    return lines


def _marks(u: StatusRow) -> str:
    """Conditions and Crits as markup, Dying and Dead highlighted."""
    from d2d_cli.rules.units import conditions

    out = []
    for key, n in u.conditions.items():
        name = render.escape(conditions.name_of(key)) + (f"×{n}" if n > 1 else "")
        out.append(f"[bold red]{name.upper()}[/]" if key in ("dying", "dead") else name)
    out += [render.escape(conditions.crit_name(x)) for x in u.crits]
    return ", ".join(out) or "—"


def _extras(u: StatusRow) -> list[str]:
    e = render.escape
    out = []
    if u.cooldowns:
        out.append("Cooldown: " + e(", ".join(u.cooldowns)))
    if u.facing and not u.space:  # a placed unit's Facing is in its row
        out.append(f"facing {e(u.facing)}")
    if u.stealth:
        out.append(f"Hidden ({u.stealth} token{'s' * (u.stealth != 1)})")
    out += [f"[cyan]{e(b)}[/]" for b in u.boosts]
    if u.continuous:
        out.append("Continuous: " + e(", ".join(u.continuous)))
    out += [e(x) for x in u.said]
    return out


def _dash(v: Any) -> str:
    return "—" if v is None else str(v)


# The least room a wrapping column (Target, Conditions) is given in the one-row table.
_WRAPPED = 14


def _table(rows: tuple[StatusRow, ...], marks: list[str]) -> tuple[Any, int]:
    """The one-row-a-unit table (``marks``: each unit's :func:`_marks`), and how many of
    its last columns wrap (Target, Conditions): the others are measured to see what is
    left for them."""
    from d2d_cli.commands.units import stat_cell
    from d2d_cli.layout import Table
    from d2d_cli.rules.units.roster import STATS

    # A column that would say nothing for every unit is left out (one row a unit at 80
    # columns): the Space (with Facing) when none is placed, Target, Conditions.
    placed = any(u.space for u in rows)
    targets = any(u.target for u in rows)
    marked = any(m != "—" for m in marks)
    # Headers as short as their cells (Spd, Mv, Act): the row is the unit's, at 80.
    t = Table("Unit", *(("At",) if placed else ()), "Body", "Mind", "Will", "Spd", "Mv",
              "AC", "Act", "Turn", *(("Target",) if targets else ()),
              *(("Conditions",) if marked else ()), box=None)
    for u, m in zip(rows, marks, strict=True):
        at = (f"{u.space or '—'}{ARROW.get(u.facing or '', '')}",) if placed else ()
        t.add_row(render.escape(u.name), *at, *(stat_cell(u, s) for s in STATS),
                  _dash(u.move), _dash(u.action_cost), _dash(u.actions_left), _dash(u.turn),
                  *((render.escape(_dash(u.target)),) if targets else ()),
                  *((m,) if marked else ()))
    return t, targets + marked


# A Facing as the board draws it (d2d board): the row says where a unit stands and faces.
ARROW = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←",
         "NW": "↖"}


def _stacked(con: Any, u: StatusRow, marks: str) -> None:
    from d2d_cli.commands.units import stat_cell
    from d2d_cli.layout import Indented
    from d2d_cli.rules.units.roster import STATS

    e = render.escape
    at = f" {u.space}{ARROW.get(u.facing or '', '')}" if u.space else ""
    con.print(f"[bold]{e(u.name)}[/]{at}" + (f" → {e(u.target)}" if u.target else ""))
    details = [*_packed([f"{s.title()} {stat_cell(u, s)}" for s in STATS], con.width - 2),
               f"Move {_dash(u.move)} · AC {_dash(u.action_cost)} · Actions "
               f"{_dash(u.actions_left)} · Turn {_dash(u.turn)}"]
    extras = _extras(u)
    if marks != "—":
        details.append(marks)
    if extras:
        details.append(" · ".join(extras))
    for line in details:  # indented, and so is what wraps
        con.print(Indented(line, 2))


def _packed(items: list[str], width: int) -> list[str]:
    """``items`` (markup) joined by two spaces, as many to a line as fit in ``width``: a
    stat's name stays beside its value ("Speed" / "5x0" would be cut at 40 columns)."""
    from d2d_cli.plain import cell_width

    lines: list[str] = []
    for item in items:
        if lines and cell_width(lines[-1]) + 2 + cell_width(item) <= width:
            lines[-1] += "  " + item
        else:
            lines.append(item)
    return lines
