"""The board's docs stay true (issue 21): every quote of the rule texts in docs/board.md,
docs/rules.md "The board", the rules.board modules and the sources a derivation gives is
in the text at that line; docs/board.md's API example prints what it says."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from d2d_cli.rules.board import derive, grid, moves, sight
from d2d_cli.rules.board.placement import Placement
from d2d_cli.rules.units.roster import Unit
from tests.helpers import ROOT, check_quotes

MODULES = ("grid", "placement", "moves", "sight", "derive", "view", "fog")


def test_every_quote_is_in_the_rule_text() -> None:
    board_md = (ROOT / "docs" / "board.md").read_text(encoding="utf-8")
    rules_md = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start = rules_md.index("## The board (issue 21)")
    end = rules_md.find("\n## ", start + 1)
    section = rules_md[start:end if end > 0 else None]
    assert check_quotes(board_md) >= 1
    assert check_quotes(section) >= 12
    code = "".join(Path(importlib.import_module(f"d2d_cli.rules.board.{m}").__file__ or "")
                   .read_text(encoding="utf-8") for m in MODULES)
    assert check_quotes(code) >= 15


def test_a_derivations_sources_quote_the_text() -> None:
    board = grid.parse_board({"grid": ". . . .\n. o . .\n. . . ."})

    def unit(name: str, space: str, facing: str, faction: str) -> Unit:
        return Unit(name, {}, faction=faction, extra={"space": space, "facing": facing})

    units = [unit("A", "A3", "NE", "x"), unit("B", "D1", "SW", "y"), unit("C", "C1", "S", "x")]
    geo = derive.Field(board, {u.name: p for u in units if (p := _placed(u))}).derive(
        units[0], units[1], "ranged")
    assert geo is not None
    assert check_quotes(" ".join(geo.sources.values())) >= 5
    assert geo.cover == 50 and geo.terms["outnumbered"] == "b"


def _placed(u: Unit) -> Placement | None:
    from d2d_cli.rules.board.placement import placed

    return placed(u)


def test_the_api_example_in_docs_board_md_prints_what_it_says() -> None:
    text = (ROOT / "docs" / "board.md").read_text(encoding="utf-8")
    assert re.search(r"space_name\(walk.end\), walk.cost\s+# \('B3', 1\)", text)
    board = grid.parse_board({"grid": "....\n.o..\n....", "legend": {}})
    archer = Placement("Archer", grid.parse_space("A3"), grid.heading("NE"))
    walk = moves.walk(board, archer, "drift", "right", count=1)
    assert (grid.space_name(walk.end), walk.cost) == ("B3", 1)
    assert sight.distance((0, 2), (3, 0)) == 3
    assert sight.arc(archer.space, archer.facing or 0, (3, 0)) == "front"
    assert sight.sight_blocker(board, (0, 2), (3, 0)) is None
    assert sight.cover(board, (0, 2), (3, 0), occupied=set()).percent == 25
