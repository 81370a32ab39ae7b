"""The options a Crit is rated from, shared by ``d2d crit`` and ``d2d odds crit``: a
module of their own so ``odds`` builds its commands without importing the Crit rules."""

from collections.abc import Callable
from typing import Annotated, Any, TypeVar, get_args

import typer

from d2d_cli.operations.damage import DAMAGE

F = TypeVar("F", bound=Callable[..., Any])

ArmorOpt = Annotated[list[str] | None, typer.Option(
    "--armor", metavar="[LOCATION=]STAT",
    help="Armor Rating at a location (head=2x1; repeat for others), or a bare 2x1 for "
         "every location. Default: the --target unit's armor in the session.")]


# The options a Crit is rated from (also `d2d odds crit`).
PowerOpt = Annotated[str | None, typer.Option(help="Power Rating, e.g. 6x1.")]
WeaponOpt = Annotated[str | None, typer.Option(
    help='Weapon rating formula, e.g. "Body+2" (with --stat or --by), or a sample '
    'weapon\'s name ("Sword: Long").')]
StatOpt = Annotated[str | None, typer.Option(help="The wielder's stat, e.g. 4x1.")]
HitsOpt = Annotated[int, typer.Option(help="The Hits so far (d2d hit), 1 or more.")]
TypesOpt = Annotated[str | None, typer.Option(
    help="Damage types of the weapon, e.g. pierce,slash (default: Wound deck, any).")]
VehicleOpt = Annotated[bool, typer.Option(help="Use the vehicle location chart.")]
ArmorPierceOpt = Annotated[int, typer.Option(
    "--armor-pierce", metavar="N",
    help="A Magic Power's Armor Pierce (d2d unit power … use --armor-pierce N): the "
    "armor met is read N scales lower, 2x1 as 2x0.")]


# The Damage Modifiers (000 l.520–533), in the text's order (issue 19).
VulnerableOpt = Annotated[bool, typer.Option(
    "--vulnerable", help="The target has a Vulnerability: Damage +1 (default: "
    "its gear's vulnerable types).")]
WildLuckOpt = Annotated[bool, typer.Option(
    "--wild-luck", help="A Wild is discarded: ALL Successes cancelled.")]
ScreenOpt = Annotated[int | None, typer.Option(
    "--screen", metavar="N", help="A Screen's rating: Damage −N, and the Screen loses what "
    "it stopped; before Armor (default: the target's gear).")]
ShieldOpt = Annotated[str | None, typer.Option(
    "--shield", metavar="[LOC+LOC=]VALUE", help="A Shield covering those locations (or "
    "every one): Damage −its Armor value (a number, or a rating's Level) at a covered Hit "
    "Location (default: the target's gear).")]
ItemDamageOpt = Annotated[str | None, typer.Option(
    "--item-damage", metavar="ITEM", help="An Item in the Hit Location takes Damaged +1: "
    "Damage −1.")]
LuckOpt = Annotated[int, typer.Option(
    "--luck", metavar="N", help="Character Points spent: Damage −N, from the target "
    "character's CP.")]
DifficultyOpt = Annotated[str | None, typer.Option(
    "--difficulty", metavar="STAT", help='With [rules] weapon_damage = "difficulty": the '
    "target's Difficulty (default: the --target unit's Body).")]


# The options ``crit`` and ``odds crit`` share after the location, declared once
# (operations/damage.py): each one's --option, for ``damage``.
DAMAGE_OPTIONS: dict[str, Any] = {
    name: get_args(alias)[1] for name, alias in (
        ("vulnerable", VulnerableOpt), ("wild_luck", WildLuckOpt), ("screen", ScreenOpt),
        ("shield", ShieldOpt), ("item_damage", ItemDamageOpt), ("luck", LuckOpt),
        ("difficulty", DifficultyOpt))}
assert tuple(DAMAGE_OPTIONS) == DAMAGE.names, "one --option per declared name"


def damage(before: str) -> Callable[[F], F]:
    """A command taking ``**damage``: the Damage Modifiers and the Difficulty, before
    the parameter ``before`` (commands/_situation.py ``declared``)."""
    from d2d_cli.commands._situation import declared

    return declared(DAMAGE, DAMAGE_OPTIONS, before)
