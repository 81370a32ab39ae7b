"""``d2d status`` — the dashboard a Narrator keeps open during a scene: the round, the
clock, open tasks, weather and the Status Bar with what each unit has left."""

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

    render.emit(dashboard(_state.target(ctx), carries=render.why()), _show, as_json=json)


def _show(con: Any, r: "Dashboard") -> None:
    # Wrap at the console's width even when piped: the dashboard is read at 60 columns.
    con.soft_wrap = False
    for line in _header(r):
        con.print(line)
    if not r.units:
        con.print("No units yet — d2d unit add NAME --body … or d2d char new NAME")
        return
    # One row a unit while the table fits with one space between columns (the layout
    # then gives each column its width, and Target and Conditions wrap at their words,
    # each given at least _WRAPPED columns); else one block per unit. Each unit's cells
    # are written once, for the measure and for the row or the block; the table is
    # built only when it is drawn.
    keys = _keys(r.units)
    cells = _cells(r.units, keys)
    placed = any(u.space for u in r.units)
    targets = any(u.target for u in r.units)
    marked = any(c[-1] != "—" for c in cells)
    wrapping = targets + marked
    if _fixed_width(cells, placed) - 9 - placed + (_WRAPPED + 1) * wrapping <= con.width:
        con.print(_table(cells, placed, targets, marked))
        for u in r.units:
            extras = _extras(u)
            if extras:
                con.print(f"  {render.escape(u.name)}: " + " · ".join(extras))
    else:  # too narrow for the table: one block per unit
        _blocks(con, r.units, cells, keys)
    if render.why():  # issue 36: what each unit carries (Hand to Hand without a weapon)
        for u in r.units:
            con.print(f"  {render.escape(u.name)} carries: {render.escape(u.carries)}")
    zero = [f"[red]{render.escape(u.name)}: {', '.join(u.zero)} at 0 — flip to Crit "
            "(001 p.35)[/]" for u in r.units if u.zero]
    print_lines = getattr(con, "print_lines", None)  # printed at once, as _blocks' are
    if print_lines is not None:
        print_lines(zero)
    else:
        for line in zero:
            con.print(line)


def _header(r: "Dashboard") -> list[str]:
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


def _marks(u: "StatusRow") -> str:
    """Conditions and Crits as markup, Dying and Dead highlighted."""
    from d2d_cli.rules.units import conditions

    out = []
    for key, n in u.conditions.items():
        name = render.escape(conditions.name_of(key)) + (f"×{n}" if n > 1 else "")
        out.append(f"[bold red]{name.upper()}[/]" if key in ("dying", "dead") else name)
    out += [render.escape(conditions.crit_name(x)) for x in u.crits]
    return ", ".join(out) or "—"


def _extras(u: "StatusRow") -> list[str]:
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


# A unit's cells (:func:`_cells`): its name, Space, the four stats, Move, Action Cost,
# Actions, Turn, Target and conditions (:func:`_marks`), as markup.
Cells = tuple[str, ...]
_FIXED = ("Unit", "At", "Body", "Mind", "Will", "Spd", "Mv", "AC", "Act", "Turn")


# Each unit's cells and block remembered by what its row holds (its fields,
# marshalled), from a process's second dashboard on (d2d play's: a dashboard after a
# change writes again only the units that changed); a one-shot's one dashboard keeps
# nothing. Both are functions of the row alone (and the block of the width).
_CELLS: dict[bytes, Cells] = {}
_BLOCKS: dict[tuple[bytes, int], list[Any]] = {}
_KEEP = 4096
_SHOWN = [0]


def _keys(rows: "tuple[StatusRow, ...]") -> list[bytes | None]:
    """Each row's key in :data:`_CELLS` (None: not remembered)."""
    _SHOWN[0] += 1
    if _SHOWN[0] < 2:
        return [None] * len(rows)
    import marshal

    from d2d_cli.rules.core.record import fields
    from d2d_cli.rules.overview.dashboard import StatusRow

    names = [f.name for f in fields(StatusRow)]
    out: list[bytes | None] = []
    for u in rows:
        try:
            out.append(marshal.dumps(tuple(getattr(u, n) for n in names)))
        except ValueError:  # what marshal cannot hold: not remembered
            out.append(None)
    if len(_CELLS) + len(rows) > _KEEP or len(_BLOCKS) + len(rows) > _KEEP:
        _CELLS.clear()
        _BLOCKS.clear()
    return out


def _cells(rows: "tuple[StatusRow, ...]", keys: list[bytes | None]) -> list[Cells]:
    """Each unit's cells; units holding the same conditions share their markup."""
    from d2d_cli.commands.units import stat_cell
    from d2d_cli.inert import escape
    from d2d_cli.rules.units.roster import STATS

    marks: dict[tuple[tuple[str, int], ...], str] = {}
    out = []
    for u, key in zip(rows, keys, strict=True):
        if key is not None:
            known = _CELLS.get(key)
            if known is not None:
                out.append(known)
                continue
        if u.crits:
            m = _marks(u)
        else:
            held = tuple(u.conditions.items())
            m = marks.get(held) or marks.setdefault(held, _marks(u))
        cells = (escape(u.name), f"{u.space or '—'}{ARROW.get(u.facing or '', '')}",
                 *[stat_cell(u, s) for s in STATS], _dash(u.move), _dash(u.action_cost),
                 _dash(u.actions_left), _dash(u.turn), escape(_dash(u.target)), m)
        if key is not None:
            _CELLS[key] = cells
        out.append(cells)
    return out


def _fixed_width(cells: list[Cells], placed: bool) -> int:
    """The natural width of the table's columns that never wrap (Unit to Turn): each its
    widest cell, header included, and a space of padding each side — measured on the
    cells, the table not built (each distinct cell once); Rich's measure of the built
    table where a cell is one only Rich can measure."""
    from d2d_cli.plain import NotPlain, cell_width

    try:
        return sum(max(cell_width(_FIXED[i]), *map(cell_width, {c[i] for c in cells})) + 2
                   for i in range(10) if placed or i != 1)
    except NotPlain:
        table = _table(cells, placed, False, False)
        return table.natural_width()


def _table(cells: list[Cells], placed: bool, targets: bool, marked: bool) -> Any:
    """The one-row-a-unit table of the units' :func:`_cells`."""
    from d2d_cli.layout import Table

    # A column that would say nothing for every unit is left out (one row a unit at 80
    # columns): the Space (with Facing) when none is placed, Target, Conditions.
    # Headers as short as their cells (Spd, Mv, Act): the row is the unit's, at 80.
    t = Table("Unit", *(("At",) if placed else ()), "Body", "Mind", "Will", "Spd", "Mv",
              "AC", "Act", "Turn", *(("Target",) if targets else ()),
              *(("Conditions",) if marked else ()), box=None)
    keep = [i for i in range(12) if (i != 1 or placed) and (i != 10 or targets)
            and (i != 11 or marked)]
    t.rows = [tuple(c[i] for i in keep) for c in cells]
    return t


# A Facing as the board draws it (d2d board): the row says where a unit stands and faces.
ARROW = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←",
         "NW": "↖"}


def _blocks(con: Any, rows: "tuple[StatusRow, ...]", cells: list[Cells],
            keys: list[bytes | None]) -> None:
    """One block per unit: its name (its Space and Target), then indented its stats (a
    stat's name beside its value), Move to Turn, conditions and what else it holds."""
    from d2d_cli.layout import Indented
    from d2d_cli.rules.units.roster import STATS

    e = render.escape
    titles = [s.title() for s in STATS]
    packed: dict[tuple[str, ...], list[str]] = {}  # units alike share their stat lines
    room = con.width - 2
    items: list[Any] = []  # printed at once (d2d_cli/plain.py), as many prints would
    for u, c, key in zip(rows, cells, keys, strict=True):
        if key is not None:
            known = _BLOCKS.get((key, room))
            if known is not None:
                items += known
                continue
        block: list[Any] = []
        at = f" {u.space}{ARROW.get(u.facing or '', '')}" if u.space else ""
        block.append(f"[bold]{c[0]}[/]{at}" + (f" → {e(u.target)}" if u.target else ""))
        stats = c[2:6]
        lines = packed.get(stats)
        if lines is None:
            lines = packed[stats] = _packed([f"{t} {v}" for t, v in zip(titles, stats,
                                                                       strict=True)], room)
        details = [*lines, f"Move {c[6]} · AC {c[7]} · Actions {c[8]} · Turn {c[9]}"]
        if c[11] != "—":
            details.append(c[11])
        extras = _extras(u)
        if extras:
            details.append(" · ".join(extras))
        block += [Indented(line, 2) for line in details]  # indented, and what wraps too
        if key is not None:
            _BLOCKS[key, room] = block
        items += block
    print_lines = getattr(con, "print_lines", None)
    if print_lines is not None:
        print_lines(items)
    else:
        for item in items:
            con.print(item)


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
