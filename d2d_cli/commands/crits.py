"""``d2d crit`` — rate a Crit: Power vs Armor, location, severity (001 pp.33–38)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _common as c
from d2d_cli.errors import BadInput
from d2d_cli.rules import crits as rules
from d2d_cli.rules.fate import TableCards
from d2d_cli.rules.options import Options
from d2d_cli.rules.stats import parse_stat
from d2d_cli.rules.units import find, roster, roster_state

app = c.single("crit")

DamageCardOpt = Annotated[list[str] | None, typer.Option(
    "--card", "-c", metavar="TYPE@LOCATION",
    help="Table mode: a damage card drawn at the table (e.g. pierce@head); repeat, in "
         "the order drawn. The virtual deck is not touched.")]


def _chart(ctx: typer.Context, opts: Options, kind: str) -> rules.Chart:
    """The table's location charts from `[rules] locations_file`, else d2d's default."""
    name = opts.locations_file
    if not name:
        return rules.chart(kind)
    import tomllib

    path = Path(str(name)).expanduser()
    path = path if path.is_absolute() else c.path(ctx).parent / path
    try:
        custom = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise BadInput(f"[rules] locations_file {str(name)!r} cannot be read: {e}") from None
    return rules.chart(kind, custom, source=str(name))


@app.command()
def crit(
    ctx: typer.Context,
    power: Annotated[str | None, typer.Option(help="Power Rating, e.g. 6x1.")] = None,
    weapon: Annotated[str | None, typer.Option(
        help='Weapon rating formula, e.g. "Body+2" (with --stat).')] = None,
    stat: Annotated[str | None, typer.Option(help="The wielder's stat, e.g. 4x1.")] = None,
    armor: Annotated[str | None, typer.Option(help="Armor Rating at the location, e.g. "
                                              "2x1.")] = None,
    hits: Annotated[int, typer.Option(help="The Hits so far (d2d hit), 1 or more.")] = 1,
    types: Annotated[str | None, typer.Option(
        help="Damage types of the weapon, e.g. pierce,slash (default: Wound deck, any).")
    ] = None,
    vehicle: Annotated[bool, typer.Option(help="Use the vehicle location chart.")] = False,
    target: Annotated[str | None, typer.Option(
        autocompletion=c.complete_units,
        metavar="UNIT", help="Place the Crit and light damage on this unit.")] = None,
    card: DamageCardOpt = None,
    json: c.JsonOpt = False,
) -> None:
    """Rate a Crit: Power vs Armor adds Hits (+1 higher level, +scale difference); the
    damage types pick the Damage Deck; draw until a matching type — its location is the
    Crit location; severity Minor → Major → Critical → Extreme, one step per Hit above
    1; Hits past Extreme are light damage (Fatigue, Stun, Stress, Slow).

    Example: d2d crit --weapon "Body+2" --stat 4x1 --armor 2x1 --hits 3 --types pierce,slash
    """
    rating = rules.power_rating(power, weapon, stat)
    worn = parse_stat(armor) if armor is not None else None
    deck, wanted = rules.parse_types(types)
    rules.check_hits(hits)
    opts = c.options(ctx, c.read(ctx))
    ch = _chart(ctx, opts, "vehicle" if vehicle else "person")
    args = dict(power=rating, armor=worn, hits=hits, deck=deck, types=wanted, ch=ch,
                mortal_rule=opts.mortal_wound)
    given = [rules.parse_damage_card(x, ch) for x in card] if card else None
    if given is not None and target is None:
        result = _draw_table(args, given)
    else:
        with c.edit(ctx) as tx:
            result = _draw_table(args, given) if given is not None else \
                _draw_virtual(tx, args, deck, ch)
            if target is not None:
                units = roster(tx.data)
                result["target"] = rules.apply_to_unit(find(units, target), result)
                tx.put("units", roster_state(units))
            tx.summary = f"Crit {result['card']} {result['severity']}" + (
                f" on {target}" if target else "")
    result.setdefault("target", None)
    render.emit(result, _show, as_json=json)


def _draw_table(args: dict[str, Any], given: list[str]) -> dict[str, Any]:
    queue = TableCards(given)
    result = rules.rate(**args, draw=queue)
    queue.finish()
    result.update(table_mode=True, reshuffled=False, new_deck=False)
    return result


def _draw_virtual(tx: Any, args: dict[str, Any], deck: str,
                  ch: rules.Chart) -> dict[str, Any]:
    rng = tx.rng()
    state = dict(tx.data.get("damage", {}))
    decks = dict(state.get(ch.kind, {}))
    pile, rebuilt = rules.DamageDeck.from_state(decks.get(deck),
                                                rules.deck_cards(deck, ch), rng)
    result = rules.rate(**args, draw=lambda: pile.take(rng))
    decks[deck] = pile.to_state()
    state[ch.kind] = decks
    tx.put("damage", state)
    result.update(table_mode=False, reshuffled=pile.reshuffled, new_deck=rebuilt)
    return result


def _show(con: Any, r: dict[str, Any]) -> None:
    armor = r["armor"] or "no armor"
    b = r["bonus"]
    con.print(f"Power {r['power']} vs Armor {armor}: Hits +{b['level']} (level), "
              f"+{b['scale']} (scale) → [bold]Hits {r['hits']}[/]")
    if r["skipped"]:
        con.print(f"[dim]Drawn, no matching type: {', '.join(r['skipped'])}[/]")
    con.print(f"{r['deck_name']} deck: [bold]{r['card']}[/] → Crit location "
              f"[bold]{r['location_name']}[/], severity [bold]{r['severity'].capitalize()}[/]")
    if r["mortal_wound"]:
        con.print("[red]Mortal Wound: the Unit is Dying.[/]")
    if r["light_damage"]:
        con.print(f"Light damage: {', '.join(x.capitalize() for x in r['light_damage'])}")
    if r["target"]:

        added = ", ".join(f"{k} +{n}" for k, n in r["target"]["conditions_added"].items())
        con.print(f"Placed on {render.escape(r['target']['unit'])}"
                  + (f": {added}" if added else ""))
