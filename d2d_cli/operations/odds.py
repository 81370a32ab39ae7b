"""Exact odds of the next reveals, from the deck as it stands (``d2d odds …``): nothing
is drawn and nothing is written. The session's draw pile is read as a set (never its
stored order); ``fresh`` reads a full deck instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Unpack

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target
from d2d_cli.operations.damage import DAMAGE, CritDamage

if TYPE_CHECKING:
    from d2d_cli.rules.core.options import Options
    from d2d_cli.rules.odds import exact as rules
    from d2d_cli.rules.scale.stats import Stat


def piles(data: dict[str, Any], fresh: bool) -> tuple[rules.Piles, rules.DeckView]:
    """The Fate deck as odds may see it: faces only, order and orientation dropped."""
    from d2d_cli.rules.odds import exact as rules

    if fresh:
        return rules.Piles.fresh(), rules.DeckView("fresh", 54, 0)
    from d2d_cli.rules.deck import fate

    deck = fate.Deck.from_state(data.get("fate"))
    return (rules.Piles.of(deck.draw, deck.discard),
            rules.DeckView("session", len(deck.draw), len(deck.discard)))


def conflict(t: Target, side_a: str, side_b: str, *, level_a: int | None = None,
             level_b: int | None = None, fresh: bool = False) -> rules.ConflictOdds:
    """``d2d odds conflict SIDE_A SIDE_B [--level-a N] [--level-b N] [--fresh]``."""
    data = t.read()
    return conflict_of(data, t.options(data), side_a, side_b, level_a=level_a,
                       level_b=level_b, fresh=fresh)


def conflict_of(data: dict[str, Any], opts: Options, side_a: str, side_b: str, *,
                level_a: int | None = None, level_b: int | None = None,
                fresh: bool = False, skill: str | None = None,
                with_: str | None = None) -> rules.ConflictOdds:
    """:func:`conflict` on a session's data already read: the one path ``d2d odds
    conflict`` and a Player's page (``d2d serve``: the odds of their card against an
    NPC's coming attack) both take, so the page's figure is the command's. ``skill``:
    side A's (``conflict --skill``; None: its best by reach, as ``odds conflict``);
    ``with_``: side A's weapon (``conflict --with``; None: as ``odds conflict``)."""
    from d2d_cli.rules.odds import exact as rules
    from d2d_cli.rules.odds import sides

    piles_, deck = piles(data, fresh)
    named = sides.of_units(side_a, side_b, data, level_a, level_b, opts, skill, with_)
    plain = named or sides.Sides(side_a, side_b, level_a or 0, level_b or 0)
    result = rules.conflict_odds(
        plain.side_a, plain.side_b, piles_, deck, level_a=plain.level_a,
        level_b=plain.level_b, reading=opts.conflict_chart,
        fate_orientation=opts.fate_orientation, level_bonus=opts.level_bonus,
        typed=named is None, modes=plain.modes, obstacles=dict(plain.obstacles),
        cover=plain.cover)
    if named is not None:
        from d2d_cli.rules.core.record import replace

        result = replace(result, side_a=side_a, side_b=side_b, map=named.geometry)
    return result


def hits(t: Target, count: int, *, level: int = 0, rival_level: int = 0, vs: str = "",
         by: str | None = None, skill: str | None = None, heroic_feat: str | None = None,
         fresh: bool = False) -> rules.HitsOdds:
    """``d2d odds hits COUNT --vs DIFFICULTY|UNIT [--level N]…``: the Hits of a winner
    holding COUNT Fate cards."""
    from d2d_cli.rules.combat import hits as hit_rules
    from d2d_cli.rules.odds import exact as rules

    n = count
    if not vs.strip():
        raise BadInput("Missing option '--vs': the Difficulty — a number (--vs 2), the "
                       "Rival's stat (--vs 2x1) or a unit on the board (--vs \"Goblin Scout\")")
    data = t.read()
    opts = t.options(data)
    piles_, deck = piles(data, fresh)
    mine, theirs, bonus, geometry = level, rival_level, 0, None
    if by is not None or skill is not None or hit_rules.names_unit(vs, data):
        sit, difficulty, _, actor = hit_rules.levels(
            data, by=by, vs=vs or None, level=None if level == 0 else level,
            rival_level=None if rival_level == 0 else rival_level, skill=skill, opts=opts)
        mine, theirs, geometry = max(0, sit.a.level - sit.b.level), 0, sit.geometry
        bonus = hit_rules.damage_bonus(actor, opts)[1]
    else:
        difficulty = hit_rules.parse_difficulty(vs)
    bonus += hit_rules.heroic_feat_of(heroic_feat, None, None, None)[2]
    result = rules.hits_odds(n, piles_, deck, level=mine, rival_level=theirs,
                             difficulty=difficulty, ten_always_hits=opts.ten_always_hits,
                             bonus=bonus)
    if geometry is not None:
        from d2d_cli.rules.core.record import replace

        result = replace(result, map=geometry)
    return result


def die(t: Target, sides: str, *, fresh: bool = False) -> rules.DieOdds:
    """``d2d odds die dN [--fresh]``: each value of the next ``fate die dN``."""
    from d2d_cli.rules.deck.dice import parse_die
    from d2d_cli.rules.odds import exact as rules

    n = parse_die(sides)
    piles_, deck = piles(t.read(), fresh)
    result = rules.die_odds(n, piles_, deck)
    return result


def weather(t: Target, *, fresh: bool = False) -> rules.WeatherOdds:
    """``d2d odds weather [--fresh]``: the wind ``weather wind`` would reveal next."""
    from d2d_cli.rules.odds import exact as rules
    piles_, deck = piles(t.read(), fresh)
    result = rules.weather_odds(piles_, deck)
    return result


@DAMAGE.into(before="fresh")
def crit(t: Target, *, power: str | None = None, weapon: str | None = None,
         stat: str | None = None, by: str | None = None, armor: list[str] | None = None,
         target: str | None = None, hits: int = 1, types: str | None = None,
         vehicle: bool = False, fresh: bool = False, with_: str | None = None,
         armor_pierce: int = 0, **damage: Unpack[CritDamage]) -> rules.CritOdds:
    """``d2d odds crit``: the Crit ``d2d crit`` would rate, location by location; ``by``
    without ``power`` or ``weapon``: the wielder's own weapon (``with_`` of several),
    as ``crit`` (issue 36). The armor met is ``crit``'s (``crits.armor_met``: the
    target's Magic Armor, the weapon's Magic, ``armor_pierce``) and so is the target's
    Shield on its side Arc (``crits.shield_side``, 001 l.669)."""
    from d2d_cli.operations.crits import location_charts
    from d2d_cli.operations.damage import modifiers
    from d2d_cli.rules.combat import crits
    from d2d_cli.rules.odds import exact as rules
    from d2d_cli.rules.units import roster as units

    crits.check_pierce(armor_pierce)
    data = t.read()
    everyone = units.roster(data)
    holder = units.find(everyone, by) if by is not None else None
    arm = None
    if by is not None or weapon is not None or with_ is not None:
        got, arm = crits.armed(crits.CritAsk(power, weapon, stat, types=types, by=by,
                                             with_=with_), everyone)
        power, weapon, stat, types, by = got.power, got.weapon, got.stat, got.types, got.by
    if by is not None:
        stat = crits.wielder_stat(weapon, stat, units.find(everyone, by))[0]
    rating = crits.power_rating(power, weapon, stat)
    deck, wanted = crits.parse_types(types)
    opts = t.options(data)
    ch = crits.chart("vehicle" if vehicle else "person", location_charts(t.path(), opts),
                     str(opts.locations_file))
    worn = crits.parse_armor(armor or [], ch)
    # As crit: a Dead target takes no Crit (000 l.1172), so there are no odds to give.
    unit = units.alive(units.find(everyone, target)) if target is not None else None
    if worn is None and unit is not None:
        worn = crits.unit_armor(unit, ch)
    state = data.get("damage", {}).get(ch.kind, {}).get(deck)
    ask, difficulty = modifiers(damage)
    gear = crits.target_gear(unit)
    if gear is not None:  # 001 l.669: the Shield on the side the blow comes from
        gear = crits.shield_side(gear, unit, holder, {})

    def met(at: Stat | None) -> Stat | None:
        return crits.armor_met(at, unit, arm, worn, armor_pierce, {})

    result = rules.crit_odds(power=rating, armor=worn, hits_before=hits, deck=deck,
                             types=wanted, ch=ch, state=state, fresh=fresh, opts=opts,
                             gear=gear, modifiers=ask,
                             difficulty=crits.difficulty_of(difficulty, unit, opts),
                             target=unit, met=met)
    return result
