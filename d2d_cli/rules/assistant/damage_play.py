"""The PC policy's Damage Modifiers on a Crit (docs/solo.md "Wild Luck and Luck"): which
a Player's unit plays of Wild Luck (000 l.526) and Luck (000 l.533). Part of the policy
(``rules.assistant.policy`` re-exports it); a module of its own so the engine, which the
policy reads, can ask it without an import circle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from d2d_cli.rules.core.record import record

WILD_LUCK_FROM = 3  # Hits: Critical (001 l.951–955, "Minor - Major - Critical - Extreme")


@record
class Offer:
    """What one unit's Player can spend on a Crit: the target's own or an adjacent Ally's
    (000 l.526 "an adjacent Ally may do this instead", l.533 "or an adjacent Unit's
    Player"): the Wilds in the hand, the unit's Character Points."""

    unit: str
    wilds: int
    cp: int


@record
class Luck:
    """The Damage Modifiers a Player plays on a Crit (``crit --wild-luck``/``--luck N``)
    and whose they are (``--from``: None, the target's own)."""

    damage: Any  # rules.combat.damage.DamageAsk
    giver: str | None
    wild: str | None = None  # the Player whose hand gives the Wild


def luck(hits: int, offers: Sequence[Offer]) -> Luck | None:
    """The PC policy for a Crit on a Player's unit (docs/solo.md "Wild Luck and Luck"),
    ``hits`` the Damage after the other modifiers, ``offers`` the target's own first:

    - **Wild Luck** (000 l.526 "Discard a Wild Card to cancel ALL Successes") when the
      Crit would be Critical or worse (3 Hits or more) and a Wild is held — the target's
      Player's first, else an adjacent Ally's;
    - else **Luck** (000 l.533 "spend any number of Character Points to reduce the
      Damage by that amount"): one Character Point, which moves a Major or worse Crit
      down one Severity step — the target's own first, else an adjacent Ally's.
      A Minor Crit is taken: a Character Point is worth more than one Minor.
    None: nothing is played."""
    from d2d_cli.rules.combat.damage import DamageAsk

    if hits >= WILD_LUCK_FROM:
        for o in offers:
            if o.wilds > 0:
                return Luck(DamageAsk(wild_luck=True), o.unit, o.unit)
    if hits >= 2:
        for o in offers:
            if o.cp > 0:
                return Luck(DamageAsk(luck=1), o.unit)
    return None


__all__ = ["WILD_LUCK_FROM", "Luck", "Offer", "luck"]
