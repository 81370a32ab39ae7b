"""The options a Crit is rated from, shared by ``d2d crit`` and ``d2d odds crit``: a
module of their own so ``odds`` builds its commands without importing the Crit rules."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli.commands import _state
from d2d_cli.rules.core.options import Options

ArmorOpt = Annotated[list[str] | None, typer.Option(
    "--armor", metavar="[LOCATION=]STAT",
    help="Armor Rating at a location (head=2x1; repeat for others), or a bare 2x1 for "
         "every location. Default: the --target unit's armor in the session.")]


def location_charts(ctx: typer.Context, opts: Options) -> dict[str, Any] | None:
    """The table's location charts from `[rules] locations_file`, else None (d2d's)."""
    from d2d_cli.operations.combat import location_charts as charts

    return charts(_state.path(ctx), opts)


# The options a Crit is rated from (also `d2d odds crit`).
PowerOpt = Annotated[str | None, typer.Option(help="Power Rating, e.g. 6x1.")]
WeaponOpt = Annotated[str | None, typer.Option(
    help='Weapon rating formula, e.g. "Body+2" (with --stat).')]
StatOpt = Annotated[str | None, typer.Option(help="The wielder's stat, e.g. 4x1.")]
HitsOpt = Annotated[int, typer.Option(help="The Hits so far (d2d hit), 1 or more.")]
TypesOpt = Annotated[str | None, typer.Option(
    help="Damage types of the weapon, e.g. pierce,slash (default: Wound deck, any).")]
VehicleOpt = Annotated[bool, typer.Option(help="Use the vehicle location chart.")]
