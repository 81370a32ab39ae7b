"""The situational options of ``d2d conflict`` and ``d2d hit`` (001 p.30 "Situational
modifiers", tables/modifiers.toml), declared once (operations/options.py):
:class:`Situation` names them and gives their types, in the order the commands list
them; :data:`SITUATION` is the block the operations take as ``**situation`` and the
commands get their ``--options`` for (commands/_situation.py); :func:`terms` turns
them into what the rules read. tests/test_api_commands.py checks they agree."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from d2d_cli.operations.options import Declared

if TYPE_CHECKING:
    from d2d_cli.rules.combat.situation import Terms


class Situation(TypedDict, total=False):
    """The situational options by name (each None when not given)."""

    range: int | None
    attack: str | None
    cover: str | None
    high_ground: str | None
    flank: str | None
    confined: str | None
    outnumbered: str | None
    weapon_scale: int | None
    with_: str | None


SITUATION = Declared(Situation)


def terms(situation: Situation, *, skill_stat: str | None = None, stat: str | None = None,
          advantage: tuple[str, ...] = (), disadvantage: tuple[str, ...] = ()) -> Terms:
    """What the rules read (``rules.combat.situation.Terms``): the situational options
    and the command's own Advantage and stats."""
    from d2d_cli.rules.combat.situation import Terms

    return Terms(**SITUATION.given(situation), skill_stat=skill_stat, stat=stat,
                 advantage=advantage, disadvantage=disadvantage)
