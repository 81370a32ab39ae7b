"""``odds conflict`` between units of the session: each side's Level worked out as ``d2d
conflict`` works it out — the skill (by reach), the condition penalties, and what the
round remembers (the cover, range and high ground said with ``unit situation``) — so an
effect that changes a roll changes its odds. The odds themselves are
``exact.conflict_odds``'s."""

from __future__ import annotations

from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import TupleRecord


class Sides(TupleRecord):
    """The sides as ``exact.conflict_odds`` takes them (an approach, a card or fate) and
    their Levels after every modifier."""

    side_a: str
    side_b: str
    level_a: int
    level_b: int
    geometry: Any = None  # what the Levels read off the map (rules.board.derive.Geometry)
    modes: tuple[str, str] = ("normal", "normal")  # each side's Advantage (000 l.423)
    # The cover-target reveal's obstacles, suit → name (conflict.ask's, as d2d conflict
    # reveals for them: 001 l.718–720), and who is in that Cover and how much.
    obstacles: tuple[tuple[str, str], ...] = ()
    cover: tuple[str, int] = ("b", 0)


def _plain(spec: Any) -> str:
    if spec.source == "fate":
        return "fate"
    return str(spec.card.code if spec.card is not None else spec.approach)


def of_units(side_a: str, side_b: str, data: dict[str, Any], level_a: int | None,
             level_b: int | None, opts: Options = DEFAULTS,
             skill: str | None = None, with_: str | None = None) -> Sides | None:
    """The sides and Levels when a side names a unit (``Archer:7S^``, ``"Goblin
    Scout"``); None when neither does. ``skill``: side A's, as ``conflict --skill``
    (None: its best by reach); ``with_``: side A's weapon, as ``conflict --with``."""
    from d2d_cli.rules.combat import conflict

    if not data.get("units"):
        return None
    from d2d_cli.rules.units.roster import roster

    m = conflict.matchup([side_a, side_b], roster(data))
    if m.a.unit is None and m.b.unit is None:
        return None
    from d2d_cli.rules.combat.situation import Terms

    ask = conflict.ask([side_a, side_b], data, None, level_a=level_a, level_b=level_b,
                      opts=opts, skill=skill,
                      terms=Terms(with_=with_) if with_ is not None else None)
    sit = ask.situation
    if sit.no_block:
        raise BadInput("odds conflict does not count a side that can't Block (Flanking "
                       "from Arc:Back, 000 l.326)")
    cover = (sit.cover.side, sit.cover.percent) if sit.cover is not None else ("b", 0)
    return Sides(_plain(m.a), _plain(m.b), sit.a.level, sit.b.level, sit.geometry,
                 (sit.advantage_a.mode, sit.advantage_b.mode),
                 tuple(ask.obstacles.items()), cover)
