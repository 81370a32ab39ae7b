"""The Narrator's map: Fog of War, Places and the Events placed on the map (001
l.441–447; rules.board.fog). ``d2d board fog|reveal|place|event …``, and the exploring a
Player's unit does when it moves (``explore``) or Searches (``search``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from d2d_cli.errors import RuleViolation
from d2d_cli.operations import Target

if TYPE_CHECKING:
    from d2d_cli.rules.board import fog as fog_
    from d2d_cli.rules.board.grid import Board
    from d2d_cli.rules.board.placement import Placement

R = TypeVar("R")


def _change(t: Target, step: Callable[[Board, fog_.Fog], tuple[fog_.Fog, R]]) -> R:
    """One change to ``[fog]`` on the locked state, journalled under its summary."""
    from d2d_cli.rules.board import fog

    with t.edit() as tx:
        board = _board(tx.data)
        new, result = step(board, fog.of(tx.data, board) or fog.EMPTY)
        tx.put(fog.SECTION, new.to_state(board))
        tx.summary = str(getattr(result, "summary", ""))
    return result


def _board(data: dict[str, Any]) -> Board:
    from d2d_cli.rules.board.grid import board_of

    board = board_of(data)
    if board is None:
        raise RuleViolation("the session has no map: load a scene with a [board] (d2d "
                            "scene load combat1; docs/board.md)")
    return board


def fog(t: Target, where: str | None = None, *, all: bool = False,  # noqa: A002 - --all
        sight: int | None = None) -> fog_.FogChanged:
    """``d2d board fog SPACES|PLACE|--all [--sight N]``: put Spaces under Fog of War."""
    from d2d_cli.rules.board import fog as rules

    spec = _spec(where, all)
    return _change(t, lambda board, f: rules.cover(board, f, spec, sight))


def reveal(t: Target, where: str | None = None, *,
           all: bool = False) -> fog_.FogChanged:  # noqa: A002 - --all
    """``d2d board reveal SPACES|PLACE|--all``: lift the fog (a Place: explored, its
    Location Events revealed too)."""
    from d2d_cli.rules.board import fog as rules

    spec = _spec(where, all)
    return _change(t, lambda board, f: rules.reveal(board, f, spec))


def _spec(where: str | None, all_: bool) -> str:
    from d2d_cli.errors import BadInput

    if all_ and where:
        raise BadInput(f"give Spaces ({where}) or --all, not both")
    if not all_ and not (where or "").strip():
        raise BadInput("give Spaces (G5, B2:D4), a Place's name, or --all")
    return "all" if all_ else str(where)


def place(t: Target, name: str, spaces: str | None = None, *,
          rm: bool = False) -> fog_.Events:
    """``d2d board place NAME SPACES`` names a Place; ``--rm`` forgets it."""
    from d2d_cli.errors import BadInput
    from d2d_cli.rules.board import fog as rules

    if rm == (spaces is not None):
        raise BadInput("give the Place's Spaces (B2:D4), or --rm")
    with t.edit() as tx:
        board = _board(tx.data)
        new, result = rules.set_place(board, rules.of(tx.data, board) or rules.EMPTY, name,
                                      spaces)
        tx.put(rules.SECTION, new.to_state(board))
        tx.summary = f"Place {name} " + ("forgotten" if rm else f"is {spaces}")
    return result


def event_add(t: Target, where: str, text: str, *,
              location: bool = False) -> fog_.EventPlaced:
    """``d2d board event add WHERE TEXT [--location]``."""
    from d2d_cli.rules.board import fog as rules

    kind = "location" if location else "fog"
    return _change(t, lambda board, f: rules.add_event(board, f, where, text, kind))


def event_rm(t: Target, ident: int) -> fog_.EventPlaced:
    """``d2d board event rm N``."""
    from d2d_cli.rules.board import fog as rules

    return _change(t, lambda board, f: rules.remove_event(f, ident))


def event_reveal(t: Target, ident: int) -> fog_.EventPlaced:
    """``d2d board event reveal N``: the Narrator turns an Event up by hand."""
    from d2d_cli.rules.board import fog as rules

    return _change(t, lambda board, f: rules.reveal_event(f, ident))


def event_list(t: Target) -> fog_.Events:
    """``d2d board event list``: the Events on the map and the Places."""
    from d2d_cli.rules.board import fog as rules

    data = t.read()
    board = _board(data)
    return rules.listing(rules.of(data, board) or rules.EMPTY)


# --------------------------------------------------------------------------- exploring


def explore(tx: Any, name: str, before: Placement | None) -> str:
    """After unit ``name`` moved or was placed (``before``: where it stood), in the same
    transaction: a Player's unit reveals what it entered and sees (rules.board.fog).
    Returns the words its report adds ("" when nothing was revealed). A session
    without fog pays one dictionary look-up."""
    raw = tx.data.get("fog")
    if not raw:
        return ""
    from d2d_cli.rules.board import fog as rules
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.board.placement import placements_of
    from d2d_cli.rules.units.sides import player_of

    state = (tx.data.get("units") or {}).get(name)
    board = board_of(tx.data)
    f = rules.read(raw, board)
    if f is None or board is None or not isinstance(state, dict) or \
            player_of(state) is None:
        return ""
    now = placements_of({name: state}).get(name)
    if now is None:
        return ""
    path = list(now.spaces)
    if before is not None and before.space != now.space:
        # A movement goes one heading (rules.board.moves.walk): the Spaces between.
        (x0, y0), (x1, y1) = before.space, now.space
        n = max(abs(x1 - x0), abs(y1 - y0))
        sx, sy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
        if (abs(x1 - x0) in (0, n)) and (abs(y1 - y0) in (0, n)):
            path += [(x0 + sx * k, y0 + sy * k) for k in range(1, n + 1)]
    got = rules.entered(board, f, path, now.space)
    if got.fog is f:
        return ""
    tx.put(rules.SECTION, got.fog.to_state(board))
    return got.words


def search(tx: Any, name: str) -> str:
    """A unit's Search (``unit act NAME search``, 001 l.565), in its transaction: the
    Location Events under its Place are revealed (001 l.441–443). Returns the words its
    report adds."""
    raw = tx.data.get("fog")
    if not raw:
        return ""
    from d2d_cli.rules.board import fog as rules
    from d2d_cli.rules.board.grid import board_of, parse_space

    state = (tx.data.get("units") or {}).get(name) or {}
    board = board_of(tx.data)
    f = rules.read(raw, board)
    if f is None or board is None or not state.get("space"):
        return ""
    new, shown = rules.searched(f, parse_space(str(state["space"])))
    if not shown:
        return "nothing lies under this Place"
    tx.put(rules.SECTION, new.to_state(board))
    return "; ".join(f"{e.label} revealed: {e.text}" for e in shown)
