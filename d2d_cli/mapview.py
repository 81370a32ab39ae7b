"""Drawing the map of ``d2d board``: lines for the terminal (legible at 80 columns; a map
too wide is drawn in strips of columns) and an SVG picture, both from
:class:`d2d_cli.rules.board.view.BoardView`. No colour is needed to read either: each
unit is a label and an arrow, each obstacle its legend character (NO_COLOR-safe)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from d2d_cli.rules.board.grid import COMPASS, VECTORS, column_name, parse_space

if TYPE_CHECKING:
    from d2d_cli.rules.board.view import BoardView, Key, Standing

ARROWS = dict(zip(COMPASS, "↑↗→↘↓↙←↖", strict=True))
COLOURS = ("cyan", "magenta", "yellow", "green", "red", "blue")
SVG_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def _esc(text: str) -> str:
    """Markup-safe and inert: the one escape (``render.escape`` is the same function; a
    second hand-made one doubled every backslash of a name on the map)."""
    from d2d_cli.inert import escape

    return escape(text)


def _side(u: Any) -> str:
    """`` (Adventurers)``: the unit's side (rules.units.sides)."""
    return f" ({u.faction})" if u.faction else ""  # the Player is in --json (short rows)


def _factions(v: BoardView) -> dict[str | None, int]:
    out: dict[str | None, int] = {}
    for u in v.units:
        out.setdefault(u.faction, len(out))
    return out


def _cells(v: BoardView) -> dict[tuple[int, int], list[tuple[Standing, bool]]]:
    """Space → the units on it, each with whether it is that unit's front Space."""
    out: dict[tuple[int, int], list[tuple[Standing, bool]]] = {}
    for u in v.units:
        for i, name in enumerate(u.spaces):
            out.setdefault(parse_space(name), []).append((u, i == 0))
    return out


def what_it_is(k: Key) -> str:
    bits = []
    if not k.sight:
        bits.append("blocks sight")
    elif k.cover:
        bits.append("Cover")
    if not k.enter:
        bits.append("no entry")
    if k.move:
        bits.append(f"Move +{k.move}")
    if k.elevation:
        bits.append(f"Elevation {k.elevation}")
    return k.name + (f" ({', '.join(bits)})" if bits else "")


def lines(v: BoardView, width: int = 80, legend: bool = True) -> list[str]:
    """The map as Rich-markup lines at most ``width`` cells wide (wider maps in strips),
    then the legend (unless not ``legend``: a line saying how to ask for it) and the
    units."""
    colour = _factions(v)
    at = _cells(v)
    fog = getattr(v, "fog", ())  # the Narrator's map with Fog of War: dim under fog
    label_w = len(str(v.rows))
    cell = next((c for c in (3, 2) if label_w + 1 + c * v.columns <= width), 1)
    wide = cell > 1
    per = max(1, (width - label_w - 1) // cell)
    out: list[str] = []
    for first in range(0, v.columns, per):
        cols = range(first, min(v.columns, first + per))
        if first:
            out.append("")
        if cell == 1 and any(x >= 26 for x in cols):
            out.append(" " * (label_w + 1) + "".join(
                column_name(x)[0] if x >= 26 else " " for x in cols))
        out.append((" " * (label_w + 1) + "".join(
            column_name(x).ljust(cell) if wide else column_name(x)[-1] for x in cols)).rstrip())
        for y in range(v.rows):
            row = v.grid[y]
            parts = [f"{y + 1:>{label_w}} "]
            for x in cols:
                here = at.get((x, y))
                if here:
                    u, front = here[0]
                    mark = (ARROWS.get(u.facing or "", "•") if front else "·") if len(
                        here) == 1 else "+"
                    text = (u.label + mark).ljust(cell) if wide else u.label
                    parts.append(f"[bold {COLOURS[colour[u.faction] % len(COLOURS)]}]"
                                 f"{_esc(text.rstrip())}[/]" + " " * (len(text) -
                                                                     len(text.rstrip())))
                elif fog and fog[y][x] == "?":
                    parts.append(f"[dim]{_esc(row[x])}[/]" + " " * (cell - 1))
                else:
                    ch = row[x]
                    pad = " " * (cell - 1)
                    parts.append(ch + pad if ch == "." else f"[bold]{_esc(ch)}[/]{pad}")
            out.append("".join(parts).rstrip())
    import textwrap

    out.append("")
    notes: tuple[str, ...] = (
        "Legend: " + " · ".join(f"{k.symbol} {what_it_is(k)}" for k in v.legend),
             f"Columns {v.first_column}–{v.last_column} west to east, rows 1–{v.rows} north "
             "to south; a unit is its label and its Facing " + (
                 "(↑ N … ↖ NW; · the back of a Double-sized unit, + units sharing a Space)"
                 if wide else "(below)"))
    if not legend:
        notes = ("Legend: d2d board --legend",)
    for note in notes:
        out += [_esc(t) for t in textwrap.wrap(note, width, subsequent_indent="  ")]
    for u in v.units:
        facing = f"facing {u.facing} {ARROWS.get(u.facing or '', '')}" if u.facing else \
            "no Facing"
        size = f", Double-sized ({', '.join(u.spaces)})" if u.double else ""
        side = _esc(_side(u))
        out.append(f"  [bold {COLOURS[colour[u.faction] % len(COLOURS)]}]{u.label}[/] "
                   f"{_esc(u.name)}{side}: {u.space}, {facing}{size}")
    if v.unplaced:
        out.append("Not on the map: " + ", ".join(_esc(n) for n in v.unplaced))
    if v.left:
        out.append("Left the map: " + ", ".join(_esc(n) for n in v.left))
    return out + _fog_notes(v, width)


def _fog_notes(v: BoardView, width: int) -> list[str]:
    """The Narrator's Fog of War lines: what is under fog (drawn dim), the Places and
    the Events on the map — none when the map has no fog section."""
    import textwrap

    from d2d_cli.rules.board.view import FoggedView

    if not isinstance(v, FoggedView):
        return []
    notes = [f"Under fog (the players see fog there; drawn dim): {v.fogged}"
             if v.fogged else "No Space under fog.",
             f"A Player's unit sees {v.sight} Spaces into the fog."]
    notes += [f"Place {n}: {', '.join(sp)}" for n, sp in (v.places or {}).items()]
    notes += [f"{e.label} ({'revealed' if e.revealed else 'face down'}): {e.text}"
              for e in v.events]
    return [_esc(t) for n in notes for t in textwrap.wrap(n, width, subsequent_indent="  ")]


# --------------------------------------------------------------------------- SVG

CELL = 28
MARGIN = 30
_SHARED = ((-6, -6), (6, 6), (6, -6), (-6, 6))  # offsets of units sharing a Space


_NOT_XML = re.compile("[\ufffe\uffff\ud800-\udfff]")


def _x(text: str) -> str:
    """Text as XML 1.0 character data: markup escaped, and what XML forbids (most of C0,
    U+FFFE/FFFF, lone surrogates) or a terminal would obey shown as its escape, so the
    SVG is well-formed for every name the session accepts (issue 30 item 2)."""
    from d2d_cli.inert import inert

    text = _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", inert(text))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


FOG_FILL = "#aab4c0"


def _fill(k: Key) -> str | None:
    from d2d_cli.rules.board.fog import FOG_NAME

    if k.name == FOG_NAME:
        return FOG_FILL
    if not k.sight:
        return "#555555"
    if k.cover and not k.enter:
        return "#a0826d"
    if k.cover:
        return "#7fb069"
    if not k.enter:
        return "#333333"
    if k.move:
        return "#8ecae6"
    if k.elevation:
        shade = max(120, 235 - 20 * k.elevation)
        return f"#{shade:02x}{shade:02x}{max(0, shade - 40):02x}"
    return None


def svg(v: BoardView, title: str = "d2d board") -> str:
    """The map as an SVG document: the dots, obstacles and terrain, each unit a circle
    with its label and a pointer toward its Facing, and the legend below."""
    keys = {k.symbol: k for k in v.legend}
    colour = _factions(v)
    fog = getattr(v, "fog", ())
    swatch = {f"{k.symbol}  {what_it_is(k)}": _fill(k) for k in v.legend}
    notes = ["Legend:", *swatch,
             f"Columns {v.first_column}–{v.last_column} west to east, rows 1–{v.rows} north "
             "to south; a unit points where it faces:"]
    for u in v.units:
        side = _side(u)
        notes.append(f"{u.label}  {u.name}{side}: {u.space}, facing {u.facing or '-'}"
                     + (f", Double-sized ({', '.join(u.spaces)})" if u.double else ""))
    if v.unplaced:
        notes.append(f"Not on the map: {', '.join(v.unplaced)}")
    if v.left:
        notes.append(f"Left the map: {', '.join(v.left)}")
    if fog:
        notes += [f"Under fog (shaded): {getattr(v, 'fogged', '') or 'nothing'}",
                  *(f"{e.label} ({'revealed' if e.revealed else 'face down'}): {e.text}"
                    for e in getattr(v, "events", ()))]
    w = max(MARGIN + v.columns * CELL + 10, MARGIN + 7 * max(len(n) for n in notes))
    h = MARGIN + v.rows * CELL + 20 + 16 * len(notes)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">',
           f"<title>{_x(title)}</title>",
           f'<rect width="{w}" height="{h}" fill="white"/>']

    def centre(x: int, y: int) -> tuple[int, int]:
        return MARGIN + x * CELL + CELL // 2, MARGIN + y * CELL + CELL // 2

    for x in range(v.columns):
        cx, _ = centre(x, 0)
        out.append(f'<text x="{cx}" y="{MARGIN - 8}" text-anchor="middle">'
                   f"{column_name(x)}</text>")
    for y in range(v.rows):
        _, cy = centre(0, y)
        out.append(f'<text x="{MARGIN - 6}" y="{cy + 4}" text-anchor="end">{y + 1}</text>')
        for x, ch in enumerate(v.grid[y]):
            k = keys[ch]
            fill = _fill(k)
            cx, cy = centre(x, y)
            if fill:
                out.append(f'<rect x="{cx - CELL // 2 + 1}" y="{cy - CELL // 2 + 1}" '
                           f'width="{CELL - 2}" height="{CELL - 2}" fill="{fill}">'
                           f"<title>{_x(what_it_is(k))}</title></rect>")
            out.append(f'<circle cx="{cx}" cy="{cy}" r="1.8" fill="#888888"/>')
            if fog and fog[y][x] == "?":  # the Narrator's map: under fog, still seen
                out.append(f'<rect x="{cx - CELL // 2 + 1}" y="{cy - CELL // 2 + 1}" '
                           f'width="{CELL - 2}" height="{CELL - 2}" fill="{FOG_FILL}" '
                           'opacity="0.55"/>')
    # Units sharing a Space (000 l.279) are drawn smaller, side by side, so none hides
    # another; a lone unit sits on the dot.
    sharing: dict[str, list[str]] = {}
    for u in v.units:
        sharing.setdefault(u.space, []).append(u.name)
    for u in v.units:
        fill = SVG_COLOURS[colour[u.faction] % len(SVG_COLOURS)]
        for i, name in enumerate(u.spaces):
            x, y = parse_space(name)
            cx, cy = centre(x, y)
            if i:  # the back of a Double-sized unit
                out.append(f'<rect x="{cx - 9}" y="{cy - 9}" width="18" height="18" '
                           f'rx="4" fill="{fill}" opacity="0.6"/>')
                continue
            here = sharing[u.space]
            r = 9 if len(here) == 1 else 6
            if len(here) > 1:
                ox, oy = _SHARED[here.index(u.name) % len(_SHARED)]
                cx, cy = cx + ox, cy + oy
            if u.facing:
                dx, dy = VECTORS[COMPASS.index(u.facing)]
                px, py = cx + dx * (r + 4), cy + dy * (r + 4)
                out.append(f'<line x1="{cx}" y1="{cy}" x2="{px}" y2="{py}" '
                           f'stroke="{fill}" stroke-width="{3 if r < 9 else 4}" '
                           'stroke-linecap="round"/>')
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}">'
                       f"<title>{_x(u.name)}</title></circle>")
            small = "" if r == 9 else ' font-size="8"'
            out.append(f'<text x="{cx}" y="{cy + (4 if r == 9 else 3)}" '
                       f'text-anchor="middle" fill="white" font-weight="bold"{small}>'
                       f"{_x(u.label)}</text>")
    y = MARGIN + v.rows * CELL + 20
    for note in notes:
        fill = swatch.get(note)
        if fill:
            out.append(f'<rect x="{MARGIN - 18}" y="{y - 10}" width="12" height="12" '
                       f'fill="{fill}"/>')
        out.append(f'<text x="{MARGIN}" y="{y}">{_x(note)}</text>')
        y += 16
    out.append("</svg>")
    return "\n".join(out) + "\n"
