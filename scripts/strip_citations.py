"""Move rule-book citations out of option and argument help into docs/citations.md.

Help is for players (issue 20.10): ``--advantage`` says what it does, not "(000 l.423)".
The citations are not lost: each one removed is listed in docs/citations.md under the
module and option it came from (the rule texts stay quoted in docs/rules.md and in the
tests). Run it again after merging: it only touches the ``help=`` of ``typer.Option`` /
``typer.Argument`` calls, leaves everything else as it is, and keeps the rows already
in docs/citations.md.

    python scripts/strip_citations.py          # rewrite, then regenerate docs/commands.md
    python scripts/strip_citations.py --check  # exit 1 if a citation is left in help

A citation split across two string literals is reported by --check and moved by hand.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ROOT / "d2d_cli" / "commands"
DOC = ROOT / "docs" / "citations.md"

# A citation of the rule texts: 000/001 with a line or page ("000 l.453", "001 p.31",
# "001 l.716–718"), or a named section ('000 "Powers"'), up to a ";" or the ")".
CITE = r"(?:00[01])(?:\s+(?:l|p)\.\s?[\d–-]+(?:,\s*(?:l\.)?\s?[\d–-]+)*|\s+\\?\"[^\"\\]*\\?\")+"
PAREN = re.compile(r"\s?\(([^()]*)\)")
ALONE = re.compile(rf"^\s*{CITE}\s*$")
HEAD = re.compile(rf"^\s*{CITE}\s*[;,:]\s*")
TAIL = re.compile(rf"\s*[;,:]\s*{CITE}\s*$")

HEADER = """\
# Where the options come from

Option help is written for players; the rule-book lines each option follows are listed
here instead (000 and 001 are the rule texts, `l.` a line, `p.` a page). This file is
kept by `scripts/strip_citations.py`, which moves a citation out of a `help=` text.

| Module | Option | Rule |
|---|---|---|
"""


def strip(text: str) -> tuple[str, list[str]]:
    """``text`` without its citations, and the citations removed."""
    found: list[str] = []

    def paren(m: re.Match[str]) -> str:
        inner = m.group(1)
        if ALONE.match(inner):
            found.append(inner.strip())
            return ""
        for rx in (HEAD, TAIL):
            hit = rx.search(inner)
            if hit:
                found.append(hit.group(0).strip(" ;,:"))
                inner = rx.sub("", inner)
        if ALONE.match(inner):  # "(001 l.1131; 000 l.377 \"…\")": all of it
            found.append(inner.strip())
            return ""
        return m.group(0)[: m.group(0).index("(")] + f"({inner})"

    out = PAREN.sub(paren, text)
    return out, found


def _labels(tree: ast.AST) -> dict[int, str]:
    """Each typer.Option/Argument call by the parameter (``--by``) or the shared alias
    (``AdvantageOpt``) it is written for."""
    labels: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            label, inner = "--" + node.arg.rstrip("_").replace("_", "-"), node.annotation
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            label, inner = node.targets[0].id, node.value
        else:
            continue
        for sub in ast.walk(inner):
            labels.setdefault(id(sub), label)
    return labels


def _help_ranges(tree: ast.AST) -> list[tuple[str, ast.expr]]:
    """The ``help=`` values of typer.Option/Argument calls, with the option's name."""
    labels = _labels(tree)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("Option", "Argument")):
            continue
        names = [a.value for a in node.args if isinstance(a, ast.Constant)
                 and isinstance(a.value, str) and a.value.startswith("-")]
        label = names[0] if names else labels.get(id(node), node.func.attr.lower())
        if node.func.attr == "Argument" and label.startswith("--"):
            label = label[2:].upper()  # an argument is shown by its name: COUNT
        for kw in node.keywords:
            if kw.arg == "help":
                out.append((label, kw.value))
    return out


def rewrite(path: Path) -> list[tuple[str, str, str]]:
    """Strip the citations from ``path``'s help texts in place; the rows removed."""
    source = path.read_text(encoding="utf-8")
    ranges = _help_ranges(ast.parse(source))
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    rows: list[tuple[str, str, str]] = []
    edits: dict[tuple[int, int], str] = {}
    for option, node in ranges:
        start, end = (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)
        previous = None
        for tok in tokens:
            if tok.type == tokenize.STRING and start <= tok.start and tok.end <= end:
                new, found = strip(tok.string)
                if found:
                    edits[tok.start] = new
                    rows += [(path.name, option, c.replace('\\"', '"')) for c in found]
                    if previous is not None and re.match(r"^[rbuf]*[\"'][.,;]", new):
                        # "… Level +1 " ".": the space before the stop goes too
                        prev = edits.get(previous.start, previous.string)
                        edits[previous.start] = re.sub(r" ([\"'])$", r"\1", prev)
                previous = tok
    if not edits:
        return rows
    lines = source.splitlines(keepends=True)
    for tok in sorted((t for t in tokens if t.start in edits), key=lambda t: t.start,
                      reverse=True):
        (row, col), (_, end_col) = tok.start, tok.end
        line = lines[row - 1]
        lines[row - 1] = line[:col] + edits[tok.start] + line[end_col:]
    path.write_text("".join(lines), encoding="utf-8")
    return rows


def _rows_in_doc() -> set[tuple[str, str, str]]:
    if not DOC.exists():
        return set()
    rows = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and line.startswith("| `"):
            rows.add((cells[0], cells[1], cells[2]))
    return rows


def main(argv: list[str]) -> int:
    check = "--check" in argv
    rows: set[tuple[str, str, str]] = set()
    for path in sorted(COMMANDS.glob("*.py")):
        if check:
            source = path.read_text(encoding="utf-8")
            for option, node in _help_ranges(ast.parse(source)):
                text = ast.literal_eval(node) if isinstance(node, ast.Constant) else ""
                if isinstance(text, str) and strip(text)[1]:
                    rows.add((path.name, option, ", ".join(strip(text)[1])))
            continue
        rows |= set(rewrite(path))
    if check:
        for row in sorted(rows):
            print("citation left in help:", *row)
        return 1 if rows else 0
    rows |= _rows_in_doc()
    body = "".join(f"| `{m}` | `{o}` | {c} |\n" for m, o, c in sorted(rows))
    DOC.write_text(HEADER + body, encoding="utf-8")
    print(f"{len(rows)} citations listed in {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
