"""``d2d odds crit``: the Crit ``d2d crit`` would rate (001 p.33–35 "Crits"): where it
lands — the first card of a matching type drawn from the Damage Deck as it stands, as
``rules.combat.crits.find_crit`` draws it — and so its armor, Hits and severity, by
``crits``' and ``damage``'s own functions."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.odds.walk import DeckView, Key, prob, reveal_odds
from d2d_cli.rules.scale.stats import Stat

if TYPE_CHECKING:  # the rules read are imported where they are used
    from d2d_cli.rules.combat import crits, damage
    from d2d_cli.rules.units.roster import Unit

@record
class LocationRow(Result):
    """One Crit location: its chance, the armor found there (001 l.898 "Armor Location -
    Find Armor at the Location") and so its Hits and severity."""

    location: str
    name: str
    probability: Probability
    armor: str | None
    bonus_hits: int
    hits: int
    severity: str
    light_damage: int
    flipped: int = 0  # of the light damage, what lands on a stat at 0: Crits (001 l.946)


@record
class SeverityRow(Result):
    severity: str
    probability: Probability


@record
class CritOdds(Result):
    """``d2d odds crit``: the chance of each location, and of each severity (the armor
    at a location can differ, so the severity can too)."""

    power: str
    armor_source: str | None
    hits_before: int
    damage_deck: str
    deck_name: str
    light: str
    types: tuple[str, ...]
    chart: str
    deck: DeckView
    locations: tuple[LocationRow, ...]
    severities: tuple[SeverityRow, ...]


def _piles(deck: str, ch: crits.Chart, state: dict[str, Any] | None,
           fresh: bool) -> tuple[list[str], list[str], int]:
    """The Damage Deck's draw and discard piles (a fresh deck, or the session's as it
    stands: its order unknown), and how many cards it holds."""
    import random

    from d2d_cli.rules.combat import crits

    cards = crits.deck_cards(deck, ch)
    if fresh:
        return list(cards), [], len(cards)
    stored, _ = crits.DamageDeck.from_state(state, cards, random.Random(0))
    return stored.draw, stored.discard, len(cards)


def _locations(pile_list: list[str], discard_list: list[str], types: list[str],
               limit: int) -> dict[Any, Fraction]:
    """Where the Crit lands: the first card of a matching type (any card without types),
    as ``crits.find_crit`` draws it; None when ``limit`` cards match none."""
    def read(card: str) -> list[tuple[Key, int]]:
        type_, loc = card.split("@")
        return [((loc if not types or type_ in types else None), 1)]

    def step(drawn: int, loc: str | None) -> tuple[bool, Any]:
        if loc is not None:
            return True, loc
        return (True, None) if drawn + 1 >= limit else (False, drawn + 1)

    pile: dict[str, int] = {}
    for c in pile_list:
        pile[c] = pile.get(c, 0) + 1
    discard: dict[str, int] = {}
    for c in discard_list:
        discard[c] = discard.get(c, 0) + 1
    return reveal_odds(pile, discard, read, 0, step)


def _at(key: str, name: str, p: Fraction, *, power: Stat, armor: crits.Armor | None,
        hits_before: int, deck: str, types: list[str], ch: crits.Chart, opts: Options,
        gear: damage.Gear | None, modifiers: damage.DamageAsk | None,
        difficulty: Stat | None, target: Unit | None,
        met: Callable[[Stat | None], Stat | None] | None = None) -> tuple[LocationRow, str]:
    """The Crit at one location, as ``crit`` rates it there: the armor found there
    cancels the Power (``crits.bonus_hits``), the Damage Modifiers apply
    (``damage.modify``), the Hits turn the card (``crits.severity``) and light damage on
    a stat at 0 flips (``crits.flipped_count``). ``met``: the armor worn there → the
    armor the Crit meets (``crits.armor_met``: Magic Armor and Weapons, Armor Pierce).
    Returns the row and its severity."""
    from d2d_cli.rules.combat import crits, damage

    worn = armor.at_location(key)[0] if armor is not None else None
    if met is not None:
        worn = met(worn)
    rated = worn if opts.armor == "rating" else None
    bonus = crits.bonus_hits(power, difficulty if opts.weapon_damage == "difficulty"
                             else rated)
    total = hits_before + bonus
    ask = modifiers or damage.DamageAsk()
    kit = gear or damage.Gear()
    if ask.given or kit != damage.Gear() or (worn is not None and opts.armor == "reduce"):
        total = damage.modify(total, location=key, location_name=name,
                              types=tuple(types), gear=kit, ask=ask,
                              locations=tuple(ch.names()),
                              armor=worn if opts.armor == "reduce" else None,
                              strict=False).damage
    sev = crits.severity(total) if total else crits.Severity("none", 0, 0)
    light = (crits.damage_table()["decks"][deck]["light"],) * sev.remaining
    flips = crits.flipped_count(target, light) if target is not None and total else 0
    return LocationRow(key, name, prob(p), None if worn is None else str(worn), bonus,
                       total, sev.level, sev.remaining - flips, flips), sev.level


def crit_odds(*, power: Stat, armor: crits.Armor | None, hits_before: int, deck: str,
              types: list[str], ch: crits.Chart, state: dict[str, Any] | None,
              fresh: bool, opts: Options = DEFAULTS, gear: damage.Gear | None = None,
              modifiers: damage.DamageAsk | None = None,
              difficulty: Stat | None = None, target: Unit | None = None,
              met: Callable[[Stat | None], Stat | None] | None = None) -> CritOdds:
    """The Crit ``d2d crit`` would rate: the location is the first card of a matching
    type drawn from the Damage Deck as it stands (its order unknown), as
    ``crits.find_crit`` draws it; then the armor at that location cancels the Power
    (``crits.bonus_hits``) and the Hits turn the card (``crits.severity``). The Damage
    Modifiers (``damage.modify``: ``modifiers`` typed, ``gear`` the target's) and the
    ``[rules] weapon_damage``/``armor`` readings apply at each location as ``crit``
    applies them; a location whose Damage is stopped is severity "none". ``met``: the
    armor worn at a location → the armor the Crit meets there (``crits.armor_met``)."""
    from d2d_cli.rules.combat import crits

    if opts.hit_location == "000":
        raise RuleViolation('odds crit follows 001\'s Crit Location (the first matching '
                            'card); under [rules] hit_location = "000" the Damage Stack of '
                            'several cards is not computed (docs/rules.md "Damage '
                            'Modifiers")')
    crits.check_hits(hits_before)
    pile_list, discard_list, limit = _piles(deck, ch, state, fresh)
    dist = _locations(pile_list, discard_list, types, limit)
    rows = []
    by_severity: dict[str, Fraction] = {}
    for key, name in ch.names().items():
        if key not in dist:
            continue
        row, level = _at(key, name, dist[key], power=power, armor=armor,
                         hits_before=hits_before, deck=deck, types=types, ch=ch, opts=opts,
                         gear=gear, modifiers=modifiers, difficulty=difficulty,
                         target=target, met=met)
        rows.append(row)
        by_severity[level] = by_severity.get(level, Fraction(0)) + Fraction(dist[key])
    spec = crits.damage_table()["decks"][deck]
    levels = crits.damage_table()["severity"]["levels"]
    return CritOdds(
        power=str(power), armor_source=None if armor is None else armor.source,
        hits_before=hits_before, damage_deck=deck, deck_name=spec["name"],
        light=spec["light"], types=tuple(types), chart=ch.kind,
        deck=DeckView("fresh" if fresh else "session", len(pile_list), len(discard_list)),
        locations=tuple(rows),
        severities=tuple(SeverityRow(lv, prob(by_severity[lv])) for lv in ["none", *levels]
                         if lv in by_severity))
