"""The options ``d2d crit`` and ``d2d odds crit`` share after the location, declared
once (operations/options.py): the Damage Modifiers (000 l.520–533, in the text's order)
and the target's Difficulty (``[rules] weapon_damage = "difficulty"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from d2d_cli.operations.options import Declared

if TYPE_CHECKING:
    from d2d_cli.rules.combat.damage import DamageAsk


class CritDamage(TypedDict, total=False):
    """The options by name."""

    vulnerable: bool
    wild_luck: bool
    screen: int | None
    shield: str | None
    item_damage: str | None
    luck: int
    difficulty: str | None


DAMAGE = Declared(CritDamage, {"vulnerable": False, "wild_luck": False, "luck": 0})


def modifiers(damage: CritDamage) -> tuple[DamageAsk, str | None]:
    """The Damage Modifiers as typed, checked (``rules.combat.damage.DamageAsk``), and
    the Difficulty."""
    from d2d_cli.rules.combat import damage as rules

    d = DAMAGE.given(damage)
    ask = rules.DamageAsk(d["vulnerable"], d["wild_luck"], d["screen"], d["shield"],
                          d["item_damage"], d["luck"])
    return rules.check(ask), d["difficulty"]
