"""A printable character sheet, as HTML and as SVG (``d2d char export``).

Light, to print on paper: black on white, no external font, image or URL — it works
offline and looks the same everywhere (the system's serif and sans-serif faces). The
input is the JSON view of ``d2d char show`` (its ``result`` dict), plus ``crits`` when
the unit carries any, so the sheet follows whatever the sheet command gives.

The HTML leaves the paper size to the print dialog (``@page`` sets margins only) and
keeps its content within the 186 × 255 mm that A4 and US Letter share, so one file
prints on either; ``paper="a4"`` or ``"letter"`` fixes the size. The SVG is one page of
a fixed size (A4 unless told Letter), laid out in millimetres.
"""

from __future__ import annotations

import html as _html
from typing import Any

STAT_NAMES = ("body", "mind", "will", "speed")
STAT_MEANING = {
    "body": "mass and strength",
    "mind": "intelligence",
    "will": "resolve and presence",
    "speed": "speed of movement",
}
CONCEPTION = ("motivation", "impact", "formative", "plans", "flaws", "fear", "humiliation",
              "trigger")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def _conditions(data: dict[str, Any]) -> list[str]:
    from d2d_cli.rules.units import conditions

    table = conditions.table()
    out = []
    for key, count in (data.get("conditions") or {}).items():
        name = table[key].name if key in table else str(key).replace("_", " ").title()
        out.append(f"{name} ×{count}" if count > 1 else name)
    return out


def _crits(data: dict[str, Any]) -> list[str]:
    return [f"{str(c.get('location', '?')).replace('_', ' ').title()} — "
            f"{str(c.get('severity', '?')).title()}"
            + (" (Mortal Wound)" if c.get("mortal_wound") else "")
            for c in data.get("crits") or []]


def _stat_rows(data: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(Stat, its rating before conditions, the rating with today's conditions when they
    change it, real-world reading). The sheet prints the stat itself, the conditions
    apart: a printout does not go stale when Fatigue clears."""
    rows = []
    for s in STAT_NAMES:
        # `char show --json`: stats after conditions, base_stats the character's own.
        base = str((data.get("base_stats") or data.get("stats") or {}).get(s, "—"))
        now = str((data.get("stats") or {}).get(s, base))
        rows.append((s.capitalize(), base, now if now != base else "",
                     str((data.get("real") or {}).get(s, ""))))
    return rows


def _subtitle(data: dict[str, Any]) -> str:
    bits = [data.get("archetype") or "no archetype"]
    if data.get("template"):
        bits.append(f"template {data['template']}")
    if data.get("points") is not None:
        bits.append(f"{data['points']} stat points")
    return " · ".join(str(b) for b in bits)


# --------------------------------------------------------------------------- HTML

_CSS = """
@page { SIZEmargin: 12mm; }
* { box-sizing: border-box; }
html { background: #fff; color: #111; }
body { margin: 0; font: 10pt/1.3 Georgia, "Times New Roman", serif; }
.sheet { max-width: 186mm; margin: 0 auto; padding: 4mm 0; }
h1 { font-size: 20pt; margin: 0; letter-spacing: .02em; }
.sub { color: #444; margin: .5mm 0 2mm; font-style: italic; }
.game { float: right; font: 8pt sans-serif; color: #666; text-transform: uppercase;
        letter-spacing: .12em; margin-top: 3mm; }
h2 { font: bold 8.5pt sans-serif; text-transform: uppercase; letter-spacing: .1em;
     border-bottom: 1.2pt solid #111; margin: 2.5mm 0 1mm; padding-bottom: .5mm; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .8mm 2mm;
         border-bottom: .4pt solid #bbb; }
th { font: bold 8pt sans-serif; color: #444; }
td.rating { font: bold 12pt sans-serif; white-space: nowrap; }
.base { font: 8pt sans-serif; color: #555; display: block; }
.meaning { font-size: 8.5pt; color: #555; display: block; }
.cols { display: flex; gap: 6mm; }
.cols > section { flex: 1; }
.points { display: flex; gap: 3mm; }
.points div { flex: 1; border: 1pt solid #111; border-radius: 2mm; text-align: center;
              padding: 1mm; }
.points b { display: block; font: bold 14pt sans-serif; }
.points span { font: 7.5pt sans-serif; text-transform: uppercase; color: #444; }
ul { margin: 0; padding-left: 4mm; }
li { margin: .6mm 0; }
.blank { border-bottom: .4pt solid #999; height: 5mm; }
dl { margin: 0; display: grid; grid-template-columns: 28mm 1fr; }
dt { font: bold 8pt sans-serif; color: #444; padding: 1.2mm 0; border-bottom: .4pt solid #bbb; }
dd { margin: 0; padding: .8mm 0; border-bottom: .4pt solid #bbb; min-height: 5mm; }
.notes .blank { height: 6.5mm; }
.none { color: #777; }
@media print { .sheet { padding: 0; } }
"""


def _gear(data: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The weapons and the armor/Shield lines of ``data["gear"]`` (issue 36), or none
    for a character that carries nothing (its sheet is as before)."""
    gear = data.get("gear") or {}
    return list(gear.get("weapons") or []), list(gear.get("armor") or [])


def _gear_html(data: dict[str, Any], items: Any) -> str:
    weapons, armor = _gear(data)
    if not (weapons or armor):
        return ""
    return (f'<div class="cols">\n<section><h2>Weapons</h2>{items(weapons, 2)}</section>\n'
            f'<section><h2>Armor and Shield</h2>{items(armor, 2)}</section>\n</div>\n')


def html(data: dict[str, Any], *, paper: str | None = None) -> str:
    """The sheet as one self-contained HTML page (``paper``: None leaves the size to
    the print dialog; "a4" or "letter" fixes it)."""
    e = _html.escape
    size = ""
    if paper is not None:
        width, height = PAPERS[paper]
        size = f"size: {width}mm {height}mm; "

    def items(values: list[str], blanks: int) -> str:
        lines = [f"<li>{e(v)}</li>" for v in values]
        return ("<ul>" + "".join(lines) + "</ul>" if lines else "") + \
            '<div class="blank"></div>' * max(blanks - len(values), 1)

    stats = "".join(
        f"<tr><td><b>{e(name)}</b><span class=\"meaning\">{e(STAT_MEANING[name.lower()])}"
        f"</span></td><td class=\"rating\">{e(now)}"
        + (f"<span class=\"base\">{e(base)} with conditions</span>" if base else "")
        + f"</td><td>{e(real) or '<span class=none>—</span>'}</td></tr>"
        for name, now, base, real in _stat_rows(data))
    skills = [f"{k} {v}" for k, v in (data.get("skills") or {}).items()]
    answers = data.get("conception") or {}
    conception = "".join(f"<dt>{e(q.capitalize())}</dt><dd>{e(answers.get(q) or '')}</dd>"
                         for q in CONCEPTION)
    points = "".join(f"<div><b>{e(str(data.get(p, 0)))}</b><span>{label}</span></div>"
                     for p, label in (("cp", "Character Points"), ("sp", "Skill Points"),
                                      ("ap", "Ability Points")))
    name = e(str(data.get("name", "")))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{name} — Drawn to Destiny character sheet</title>
<style>{_CSS.replace("SIZE", size)}</style>
</head>
<body>
<main class="sheet">
<div class="game">Drawn to Destiny</div>
<h1>{name}</h1>
<p class="sub">{e(_subtitle(data))}</p>
<h2>Stats</h2>
<table class="stats">
<tr><th>Stat</th><th>Rating</th><th>In real terms</th></tr>
{stats}
</table>
<h2>Points</h2>
<div class="points">{points}</div>
<div class="cols">
<section><h2>Skills</h2>{items(skills, 6)}</section>
<section><h2>Abilities</h2>{items(list(data.get("abilities") or []), 6)}</section>
</div>
<div class="cols">
<section><h2>Conditions</h2>{items(_conditions(data), 3)}</section>
<section><h2>Crits</h2>{items(_crits(data), 3)}</section>
</div>
{_gear_html(data, items)}<h2>Character conception</h2>
<dl>{conception}</dl>
<section class="notes"><h2>Notes</h2>{'<div class="blank"></div>' * 4}</section>
</main>
</body>
</html>
"""


# --------------------------------------------------------------------------- SVG


def _wrap(text: str, width_mm: float, size_mm: float) -> list[str]:
    """Lines of ``text`` that fit ``width_mm`` at a font of ``size_mm`` (an average
    character is ~0.5 em wide in the usual sans-serif faces)."""
    per_line = max(8, int(width_mm / (size_mm * 0.5)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines or [""]


def svg(data: dict[str, Any], *, paper: str = "a4") -> str:
    """The sheet as one SVG page of ``paper`` size (A4 or US Letter), in millimetres."""
    e = _html.escape
    width, height = PAPERS[paper]
    m = 12.0  # margin
    right = width - m
    out: list[str] = []
    y = m + 8

    def text(x: float, y_: float, s: str, size: float = 3.6, weight: str = "normal",
             family: str = "sans-serif", color: str = "#111", anchor: str = "start",
             style: str = "normal") -> None:
        out.append(f'<text x="{x:.1f}" y="{y_:.1f}" font-family="{family}" '
                   f'font-size="{size}" font-weight="{weight}" font-style="{style}" '
                   f'fill="{color}" text-anchor="{anchor}">{e(s)}</text>')

    def rule(y_: float, x0: float = m, x1: float = right, w: float = 0.15,
             color: str = "#999") -> None:
        out.append(f'<line x1="{x0:.1f}" y1="{y_:.1f}" x2="{x1:.1f}" y2="{y_:.1f}" '
                   f'stroke="{color}" stroke-width="{w}"/>')

    def heading(y_: float, label: str, x0: float = m, x1: float = right) -> float:
        text(x0, y_, label.upper(), size=2.8, weight="bold")
        rule(y_ + 1.2, x0, x1, w=0.4, color="#111")
        return y_ + 6

    text(right, m + 1, "DRAWN TO DESTINY", size=2.6, color="#666", anchor="end")
    text(m, y, str(data.get("name", "")), size=8, weight="bold", family="serif")
    y += 6
    text(m, y, _subtitle(data), size=3.4, family="serif", color="#444", style="italic")
    y += 8

    y = heading(y, "Stats")
    for name, now, base, real in _stat_rows(data):
        text(m, y, name, size=3.6, weight="bold")
        text(m, y + 3.5, STAT_MEANING[name.lower()], size=2.6, color="#555")
        text(m + 38, y + 1, now, size=5, weight="bold")
        if base:
            text(m + 38, y + 4.6, f"{base} with conditions", size=2.6, color="#555")
        lines = _wrap(real or "—", right - (m + 62), 3.2)
        for i, line in enumerate(lines[:2]):
            text(m + 62, y + i * 4, line, size=3.2, family="serif")
        y += 9
        rule(y - 3.5)
    y += 2

    y = heading(y, "Points")
    box_w = (right - m - 6) / 3
    for i, (p, label) in enumerate((("cp", "Character Points"), ("sp", "Skill Points"),
                                    ("ap", "Ability Points"))):
        x = m + i * (box_w + 3)
        out.append(f'<rect x="{x:.1f}" y="{y - 3:.1f}" width="{box_w:.1f}" height="13" '
                   f'rx="2" fill="none" stroke="#111" stroke-width="0.3"/>')
        text(x + box_w / 2, y + 4.5, str(data.get(p, 0)), size=6, weight="bold",
             anchor="middle")
        text(x + box_w / 2, y + 8.5, label.upper(), size=2.3, color="#444", anchor="middle")
    y += 16

    half = (right - m - 6) / 2
    col2 = m + half + 6

    def column(x0: float, y0: float, label: str, values: list[str], rows: int) -> float:
        yy = heading(y0, label, x0, x0 + half)
        for i in range(max(rows, len(values))):
            if i < len(values):
                text(x0 + 1, yy, values[i], size=3.3)
            rule(yy + 1.5, x0, x0 + half)
            yy += 5.5
        return yy

    skills = [f"{k} {v}" for k, v in (data.get("skills") or {}).items()]
    left_y = column(m, y, "Skills", skills, 8)
    right_y = column(col2, y, "Abilities", list(data.get("abilities") or []), 8)
    y = max(left_y, right_y) + 2
    left_y = column(m, y, "Conditions", _conditions(data), 3)
    right_y = column(col2, y, "Crits", _crits(data), 3)
    y = max(left_y, right_y) + 2
    weapons, armor = _gear(data)
    if weapons or armor:  # issue 36: what the character carries
        left_y = column(m, y, "Weapons", weapons, 2)
        right_y = column(col2, y, "Armor and Shield", armor, 2)
        y = max(left_y, right_y) + 2

    y = heading(y, "Character conception")
    answers = data.get("conception") or {}
    for q in CONCEPTION:
        text(m, y, q.capitalize(), size=2.8, weight="bold", color="#444")
        text(m + 28, y, (_wrap(str(answers.get(q) or ""), right - m - 28, 3.3) or [""])[0],
             size=3.3, family="serif")
        rule(y + 1.5)
        y += 5.5
    y += 2
    y = heading(y, "Notes")
    while y < height - m:
        rule(y + 1.5)
        y += 7
    body = "\n".join(out)
    name = e(str(data.get("name", "")))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" '
            f'viewBox="0 0 {width} {height}">\n<title>{name} — Drawn to Destiny character '
            f'sheet</title>\n<rect width="{width}" height="{height}" fill="#fff"/>\n'
            f"{body}\n</svg>\n")
