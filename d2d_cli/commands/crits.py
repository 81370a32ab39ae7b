"""``d2d crit`` — rate a Crit: location, the armor there, Power vs Armor, severity
(001 l.878–955 "Crits")."""

from typing import Annotated, Any, Unpack

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.commands import _crit_options as co
from d2d_cli.commands._crit_options import (
    ArmorOpt,
    ArmorPierceOpt,
    PowerOpt,
    StatOpt,
    TypesOpt,
    VehicleOpt,
    WeaponOpt,
)
from d2d_cli.operations import crits as ops
from d2d_cli.operations.damage import CritDamage
from d2d_cli.rules.combat import crits as rules

app = _app.single("crit")

DamageCardOpt = Annotated[list[str] | None, typer.Option(
    "--card", "-c", metavar="TYPE@LOCATION",
    help="Table mode: a damage card drawn at the table (e.g. pierce@head); repeat, in "
         "the order drawn. The virtual deck is not touched.")]





@app.command()
@co.damage(before="json")
def crit(
    ctx: typer.Context,
    power: PowerOpt = None,
    weapon: WeaponOpt = None,
    stat: StatOpt = None,
    by: Annotated[str | None, typer.Option(
        metavar="UNIT", click_type=_complete.UNIT,
        help="The wielder: the stat of the --weapon formula from this unit "
        "(after its conditions).")] = None,
    armor: ArmorOpt = None,
    hits: Annotated[int | None, typer.Option(
        help="The Hits so far (d2d hit), 1 or more (default: the Hits of the hit after "
        "the conflict, else 1).")] = None,
    types: TypesOpt = None,
    vehicle: VehicleOpt = False,
    target: Annotated[str | None, typer.Option(
        click_type=_complete.UNIT,
        metavar="UNIT", help="Place the Crit and light damage on this unit.")] = None,
    card: DamageCardOpt = None,
    luck_from: Annotated[str | None, typer.Option(
        "--from", metavar="UNIT", click_type=_complete.UNIT,
        help="An adjacent Ally whose Player spends the --luck Character Points (and, "
        'with [rules] hands = "d2d", discards the --wild-luck Wild) for the --target'
        ".")] = None,
    with_: Annotated[str | None, typer.Option(
        "--with", metavar="WEAPON",
        help="Which of the --by unit's weapons (when it carries several; d2d unit gear "
        "show).")] = None,
    armor_pierce: ArmorPierceOpt = 0,
    json: _app.JsonOpt = False,
    **damage: Unpack[CritDamage],
) -> None:
    """Rate a Crit: the damage types pick the Damage Deck; draw until a matching type —
    its location is the Crit location; the armor there cancels the Power (Power vs
    Armor: +1 higher level, +scale difference, never more than with no armor, which
    counts as 0x0); severity Minor → Major → Critical → Extreme, one step per Hit above
    1; Hits past Extreme are light damage (Fatigue, Stun, Stress, Slow).

    Units: --by takes the --weapon formula's stat from the wielder — or, with neither
    --power nor --weapon, rates with the wielder's own weapon (d2d unit gear; --with
    NAME when it carries several; Hand to Hand, its Body, without one: 000 l.506) and
    its damage types; --weapon NAME rates a sample weapon ("Sword: Long"). --target
    gives the armor of the unit hit (its Magic Armor, and a Shield on the Arc the
    blow comes from, 001 l.669) and places the Crit on it. --armor-pierce N: a Magic
    Power's Armor Pierce lowers the scale of the armor met by N (000 l.914). After a
    d2d conflict between units (and its d2d hit), --by, --target and --hits default to
    its winner, its Rival and the Hits counted (one line says so).

    Damage Modifiers (000 l.520–533), in the text's order, after the rating: Vulnerable
    +1, Wild Luck (all cancelled), Screen (ablative), Armor (with [rules] armor =
    "reduce"), Shield, Item Damage −1, Luck (CP). The target's gear
    ([units.NAME.gear]) gives vulnerable, screen, shield and items; its Screen wears
    and its CP are spent. Damage 0: no Crit. Light damage on a stat already at 0 flips
    to a Crit: one more card is drawn for each (001 l.946–947).

    JSON: sources {power, armor}: where the Power Rating and the armor at the location
    came from; damage_modifiers {damage_before, damage, steps [{key, name, change,
    damage, source}], screen_left, item_damaged, cp_spent} or null; flipped (the cards
    of light damage flipped to Crits); rated_against ("armor" or "difficulty"); hand
    (with [rules] hands = "d2d": the Wild of Wild Luck discarded: player, unit, cards,
    why, hand) or null.

    Hands held by d2d: --wild-luck discards a Wild from the hand of the target's Player
    (or --from's, an adjacent Ally's) and is refused without one (000 l.526); --luck N
    --from UNIT spends that Ally's Character Points (000 l.533).

    Example: d2d crit --weapon "Body+2" --stat 4x1 --armor torso=2x1 --hits 3 --types pierce
    """
    result = ops.crit(_state.target(ctx), power=power, weapon=weapon, stat=stat, by=by,
                      armor=armor, hits=hits, types=types, vehicle=vehicle, target=target,
                      card=card, luck_from=luck_from, with_=with_,
                      armor_pierce=armor_pierce, **damage)
    render.emit(result, _show, as_json=json)


_SCOPE = {"location": "", "all": ", every location"}


def _show(con: Any, r: rules.Crit) -> None:
    where = render.escape(r.location_name)  # a table's own chart may name it
    if "exchange" in r.sources:
        con.print(f"[dim]{render.escape(r.sources['exchange'])}[/]")
    if r.skipped:
        con.print(f"[dim]Drawn, no matching type: {', '.join(r.skipped)}[/]")
    if r.hit_location == "000":
        con.print(f"Damage Stack (000 l.518–519), top first: {', '.join(r.stack) or '—'}")
    con.print(f"{r.deck_name} deck: [bold]{r.card}[/] → Crit location [bold]{where}[/]")
    if r.armor is None:
        con.print(f"Armor at {where}: none")
    else:
        who = "--armor" if r.armor_source == "option" else (
            f"{render.escape(r.target.unit)}'s armor" if r.target else "the unit's armor")
        con.print(f"Armor at {where}: {r.armor} "
                  f"(from {who}{_SCOPE[r.armor_scope or 'location']})")
    for key in ("weapon", "magic_armor", "magic_weapon", "armor_pierce",
                "shield"):  # issue 36
        if key in r.sources:
            con.print(f"{key.replace('_', ' ').capitalize()}: "
                      f"{render.escape(r.sources[key])}")
    if r.wielder is not None:  # read from a unit (--by): say whose
        con.print(f"Power {r.power}: {render.escape(r.sources['power'])}")
    b = r.bonus
    against = f"Armor {r.armor}" if r.armor else "no armor (0x0)"
    if r.rated_against == "difficulty":
        against = "the Difficulty (000 l.508–509)"
    cap = f", at most +{r.bonus_unarmored} (no armor)" if b.total > r.bonus_hits else ""
    rated = r.hits_before + r.bonus_hits
    con.print(f"Power {r.power} vs {against}: Hits +{b.level} (level), +{b.scale} (scale)"
              f"{cap} → [bold]Hits {r.hits_before} + {r.bonus_hits} = {rated}[/]")
    m = r.damage_modifiers
    if m is not None:
        for st in m.steps:
            line = st.source.split(' "')[0]
            con.print(f"  {st.change:+d} {render.escape(st.name)} → {st.damage} "
                      f"[dim]({line})[/]")
        con.print(f"Damage after modifiers: [bold]{m.damage}[/]")
    if r.hand is not None:  # [rules] hands = "d2d": the Wild of Wild Luck (000 l.526)
        from d2d_cli.rules.units.hands import spent_said

        con.print(f"Hand: {render.escape(spent_said(r.hand))}")
    if r.severity == "none" and not r.light_damage and not r.flipped:
        con.print("[bold]No damage[/]: the modifiers stopped it all (000 l.537 \"Apply any "
                  "remaining Damage\")")
        return
    if r.severity == "none":
        con.print("No Crit: no card of the Damage Stack matches the weapon (000 l.519)")
    plural = "" if r.rotations == 1 else "s"
    con.print(f"Severity [bold]{r.severity.capitalize()}[/] ({r.rotations} rotation{plural})")
    if r.light_damage:
        con.print(f"Light damage: {', '.join(x.capitalize() for x in r.light_damage)}")
    for card in r.flipped:
        con.print(f"[red]Light damage on a stat at 0 flips to a Crit: {card} (Minor)[/] "
                  "[dim](001 l.946–947)[/]")
    if r.mortal_wound:
        con.print("[red]Mortal Wound: the Unit is Dying.[/]")
    elif r.mortal_wound is None:
        con.print("[dim]Mortal Wound: unknown without --target (000 l.540: the 4th Crit "
                  "on a unit).[/]")
    if r.target:
        added = ", ".join(f"{k} +{n}" for k, n in r.target.conditions_added.items())
        con.print(f"Placed on {render.escape(r.target.unit)} (Crit {r.crit_count})"
                  + (f": {added}" if added else ""))
