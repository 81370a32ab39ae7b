"""Who sees whom on a scene's map, for Stealth (issue 27; docs/rules.md "Stealth"): a
unit watches its Arc:Front (001 l.591 "IF something Hidden is in [Arc:Front]"; 000 l.252
"Sight - IF a Hidden Unit … enters your Arc:Forward") as far as Line of Sight goes (001
l.709 "IF no obstacle THEN Line of Sight"); a unit on its own Space is seen. Hide needs
to be out of sight of Rivals (001 l.561–563), Detect a Hidden unit in Arc:Front."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.board import sight
from d2d_cli.rules.board.grid import Board
from d2d_cli.rules.board.placement import placed
from d2d_cli.rules.units.stealth import tokens

if TYPE_CHECKING:
    from d2d_cli.rules.units.roster import Unit


HIDE_LINE = '001 l.561–563 "Hide - Move:-[Action Cost] IF out of sight THEN become Hidden"'
DETECT_ARC = '001 l.591 "IF something Hidden is in [Arc:Front]"'


def watches(board: Board, watcher: Unit, unit: Unit) -> bool | None:
    """Whether ``watcher`` has ``unit`` in its Arc:Front and in Line of Sight; None when
    either stands on no Space (the table judges)."""
    pw, pu = placed(watcher), placed(unit)
    if pw is None or pu is None:
        return None
    for sw in pw.spaces:
        for su in pu.spaces:
            if sw == su:
                return True
            front = pw.facing is None or sight.arc(sw, pw.facing, su) == sight.FRONT
            if front and sight.sight_blocker(board, sw, su) is None:
                return True
    return False


def rivals_seeing(board: Board, units: Mapping[str, Unit], unit: Unit) -> list[str]:
    """The Rivals (units of another faction, standing: not Dying, Dead or off the map)
    that see ``unit`` on the map: 000 l.805's "out of sight of Rivals"."""
    out = []
    for other in units.values():
        if other.name == unit.name or (unit.faction is not None
                                       and other.faction == unit.faction):
            continue
        if other.conditions.get("dying") or other.conditions.get("dead") \
                or other.extra.get("off_map"):
            continue
        if watches(board, other, unit):
            out.append(other.name)
    return out


def check_hide(board: Board | None, units: Mapping[str, Unit], unit: Unit) -> None:
    """Hide on a map: refused while a Rival sees the unit (001 l.561–563)."""
    if board is None:
        return
    seen = rivals_seeing(board, units, unit)
    if seen:
        raise RuleViolation(f"{unit.name} is in sight of {', '.join(seen)} (in Arc:Front, "
                            f"Line of Sight clear): it cannot Hide ({HIDE_LINE}); get out "
                            "of sight first (behind a wall, or behind them)")


def check_detect(board: Board | None, actor: Unit, target: Unit) -> None:
    """Detect on a map: the Hidden unit must be in the detector's Arc:Front, in Line of
    Sight (001 l.591); refused before its Stun is paid."""
    if board is None or not tokens(target):
        return
    if watches(board, actor, target) is False:
        raise RuleViolation(f"{target.name} is not in {actor.name}'s Arc:Front in Line of "
                            f"Sight on the map: nothing to Detect ({DETECT_ARC})")
