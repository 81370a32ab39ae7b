"""Crits (001 l.878–955 "Crits"; 000 l.520–533 the Damage Modifiers): ``d2d crit``, and
the table's location charts ``odds crit`` and ``unit crit`` read too. A module apart
from the Conflict's and the Hits' (operations/combat.py): a conflict imports neither
the crit's options nor its Wild Luck."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.operations import Target
from d2d_cli.operations.damage import DAMAGE, CritDamage
from d2d_cli.rules.combat import exchange
from d2d_cli.rules.core.options import Options

if TYPE_CHECKING:
    from d2d_cli.rules.combat import crits as crits_


def location_charts(session_file: Path, opts: Options) -> dict[str, Any] | None:
    """The table's location charts from ``[rules] locations_file`` (a path relative to
    the session file's folder), else None (d2d's)."""
    name = opts.locations_file
    if not name:
        return None
    import tomllib

    path = Path(str(name)).expanduser()
    path = path if path.is_absolute() else session_file.parent / path
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise BadInput(f"[rules] locations_file {str(name)!r} cannot be read: {e}") from None


@DAMAGE.into(before=None)
def crit(t: Target, *, power: str | None = None, weapon: str | None = None,
         stat: str | None = None, by: str | None = None, armor: list[str] | None = None,
         hits: int | None = None, types: str | None = None, vehicle: bool = False,
         target: str | None = None, card: list[str] | None = None,
         luck_from: str | None = None, with_: str | None = None, armor_pierce: int = 0,
         **damage: Unpack[CritDamage]) -> crits_.Crit:
    """``d2d crit``: location, armor, Power vs Armor, severity (a
    ``rules.combat.crits.Crit``); with ``target`` the Crit is placed on the unit.
    ``damage``: the Damage Modifiers and the Difficulty (operations/damage.py). After a
    conflict (and its ``hit``), ``by``, ``target`` and ``hits`` default to its winner,
    its Rival and the Hits counted (else ``hits`` 1). ``luck_from``: the adjacent Ally
    whose Player spends the Luck and, under ``[rules] hands = "d2d"``, discards the Wild
    of Wild Luck (000 l.526, l.533); else the target's own. ``armor_pierce``: a Magic
    Power's Armor Pierce points (000 l.914), the armor met read that many scales lower."""
    from d2d_cli.operations.damage import modifiers
    from d2d_cli.rules.combat import crits as rules

    ask_damage, difficulty = modifiers(damage)
    with t.edit() as tx:  # the lock first: the exchange and the target are the locked state's
        data = tx.data
        opts = t.options(data)
        ex, took = exchange.remembered(data), []
        if ex is not None and by is None and target is None and not vehicle:
            # the winner rates a --weapon formula by its stat, or with nothing typed its
            # own weapon (Hand to Hand without one, 000 l.506); a rating needs no unit
            formula = power is None and (weapon is None or "x" not in weapon.lower())
            by, target, took = (ex.winner if formula else None), ex.rival, ["units"]
        if hits is None and ex is not None and ex.hits and (by in (None, ex.winner)
                                                            and target == ex.rival):
            hits, took = ex.hits, [*took, "hits"]
        hits = 1 if hits is None else hits
        ask = rules.CritAsk(power, weapon, stat, tuple(armor or ()), hits, types, vehicle,
                            tuple(card) if card else None, target, by, ask_damage,
                            difficulty,
                            (("exchange", ex.said(took)),) if ex is not None and took else (),
                            luck_from=luck_from, with_=with_, armor_pierce=armor_pierce)
        charts = location_charts(t.path(), opts)
        wild = _wild_holder(data, opts, ask) if ask_damage.wild_luck else None
        result = rules.crit(ask, data, tx.rng if ask.writes else None, opts, charts)
        if ask.writes:
            for key, value in result.changes.items():
                tx.put(key, value)
            tx.summary = result.summary
        if wild is not None and result.damage_modifiers is not None and any(
                st.key == "wild_luck" for st in result.damage_modifiers.steps):
            result = _spend_wild(result, tx, wild)  # 000 l.526: the Wild leaves the hand
    return result


def _wild_holder(data: Any, opts: Options, ask: Any) -> tuple[str, str, Any] | None:
    """Under ``[rules] hands = "d2d"``, Wild Luck discards a Wild from a hand (000 l.526
    "Discard a Wild Card to cancel ALL Successes. IF reasonable THEN an adjacent Ally may
    do this instead"): the hand of the target's Player, or of ``--from``'s. Refused,
    before anything moves, when that hand holds no Wild. (holder, unit, the Wild)."""
    from d2d_cli.rules.units import hands

    if opts.hands != "d2d":
        return None
    who = ask.luck_from or ask.target
    if who is None:
        raise BadInput("--wild-luck: name whose hand the Wild comes from, --target UNIT "
                       "(or --from UNIT, an adjacent Ally: 000 l.526)")
    if ask.luck_from is not None and ask.target is not None:  # an adjacent Ally's, first
        from d2d_cli.rules.combat.damage import adjacent_ally
        from d2d_cli.rules.units.roster import find, roster_view

        units = roster_view(data)
        adjacent_ally(find(units, ask.target), find(units, ask.luck_from))
    holder = hands.holder_in(data, who, opts.hands, opts.narrator_hand)
    if holder is None:
        raise RuleViolation(f"--wild-luck: {who} holds no hand to discard a Wild from "
                            "(000 l.417 \"Non-Player Units don't have hands\")")
    h = hands.hand_for(hands.hands_of(data), holder)
    wild = next((c for c in h.hand if c.is_wild), None)
    if wild is None:
        raise RuleViolation(f"--wild-luck: {holder} holds no Wild to discard (000 l.526 "
                            "\"Discard a Wild Card to cancel ALL Successes\")")
    return holder, str(who), wild


def _spend_wild(result: Any, tx: Any, wild: tuple[str, str, Any]) -> Any:
    """The Wild of Wild Luck leaves the hand for the discard pile, in ``crit``'s entry."""
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.units import hands

    held = hands.hands_of(tx.data)
    moved = hands.spend(held, wild[0], wild[1], [wild[2]], "Wild Luck")
    tx.put("players", hands.state_of(held))
    tx.summary = f"{tx.summary}; {hands.spent_said(moved)}"
    return replace(result, hand=moved)
