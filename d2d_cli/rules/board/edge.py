"""Leaving the map at its edge (``d2d unit leave``; docs/rules.md "Leaving the map").

000 and 001 say nothing about leaving a Map. d2d's choice: a unit leaves by one more
step of the Moves 000 l.272–277 lists, from the front Space (the one "used for Moves",
000 l.749), onto the Space beyond the map's edge — at that step's Move (Forward, Drift
1; Slide, Backward, Drift Back 2), with no terrain to pay, since no Space of the map is
entered. :func:`exits` lists the steps that do so, cheapest first.
"""

from __future__ import annotations

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.board.grid import COMPASS, Board, Space, ahead, space_name
from d2d_cli.rules.board.moves import TURNS, costs, direction
from d2d_cli.rules.board.placement import Placement
from d2d_cli.rules.core.record import record


@record
class Exit:
    """A step off the map: its kind (``forward``, ``drift``…), side (``left``/``right``
    for the kinds with two), compass heading and Move."""

    kind: str
    side: str | None
    toward: str
    move: int

    @property
    def words(self) -> tuple[str, ...]:
        """As ``unit leave NAME`` takes it: ``forward``, ``drift left``."""
        return (self.kind.replace("_", "-"), *([self.side] if self.side else []))

    @property
    def label(self) -> str:
        return f"{self.kind.replace('_', ' ').title()} {self.toward}"


def exits(board: Board, place: Placement) -> tuple[Exit, ...]:
    """Every step from ``place`` (its front Space, its Facing kept) that ends beyond the
    map's edge, the cheapest first (then Forward, Drift, Slide, Backward, Drift Back;
    left before right). Empty away from the edge."""
    if place.facing is None:
        return ()
    found: list[Exit] = []
    for kind, turns in TURNS.items():
        for turn in turns:
            toward = (place.facing + turn) % 8
            if not board.inside(ahead(place.space, toward)):
                side = None if len(turns) == 1 else ("left" if turn < 0 else "right")
                found.append(Exit(kind, side, COMPASS[toward], costs()[kind]))
    return tuple(sorted(found, key=lambda e: e.move))


def on_edge(board: Board, space: Space) -> bool:
    x, y = space
    return x in (0, board.width - 1) or y in (0, board.height - 1)


def exit_by(board: Board, place: Placement, kind: str | None = None,
            way: str | None = None) -> Exit:
    """The step off the map ``unit leave`` takes: the one named (``kind``, ``way``: a
    side or a compass heading), or the cheapest. Refused away from the edge, or when the
    step named stays on the map."""
    if place.facing is None:
        raise RuleViolation(f"{place.unit} has no Facing: d2d unit face {place.unit} N "
                            "(001 l.497)")
    if kind is None and way is not None:
        raise BadInput("give the movement before its side: forward, drift left, …")
    key = None if kind is None else kind.strip().lower().replace("-", "_").replace(" ", "_")
    if key is not None and key not in TURNS:
        raise BadInput(f"unknown movement {kind!r}: "
                       f"{', '.join(k.replace('_', '-') for k in TURNS)}")
    toward = None if key is None else COMPASS[direction(key, place.facing, way)]
    here = space_name(place.space)
    found = exits(board, place)
    if not found:
        raise RuleViolation(f"{place.unit} on {here} is not at the map's edge: move to a "
                            "Space on the edge first (d2d unit move), then d2d unit leave")
    if key is None:
        return found[0]
    for e in found:
        if e.kind == key and e.toward == toward:
            return e
    label = key.replace("_", " ").title()
    ways = ", ".join(" ".join(e.words) for e in found)
    raise RuleViolation(f"{place.unit} cannot leave by {label} {toward} from {here}: that "
                        f"Space is on the map; off the map from {here}: {ways}")


__all__ = ["Exit", "exit_by", "exits", "on_edge"]
