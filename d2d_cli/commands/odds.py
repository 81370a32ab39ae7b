"""``d2d odds …`` — exact odds of the next reveals, from the deck as it stands.

Every command reads the session's draw pile as a set (never its stored order: that
would give the next card away), each card Upper or Lower with chance 1/2, and the
discard pile shuffled back in when the pile runs short, as ``fate draw`` does;
``--fresh`` uses a full deck instead. Nothing is drawn and nothing is written.
"""

from __future__ import annotations

from typing import Annotated, Any, Unpack

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.commands import _crit_options as crit_opts
from d2d_cli.operations import odds as ops
from d2d_cli.operations.damage import CritDamage
from d2d_cli.rules.odds import exact as rules

app = _app.group("odds")

FreshOpt = Annotated[bool, typer.Option(
    "--fresh", help="Odds from a full, freshly shuffled deck instead of the session's.")]


@app.command(short_help="The chance that A wins, B wins, both or neither.")
def conflict(
    ctx: typer.Context,
    side_a: Annotated[str, typer.Argument(metavar="SIDE_A", click_type=_complete.SIDE,
                                          help="An approach, a card "
                                          "(7S^, QHv, RW), fate, or a unit as in d2d "
                                          "conflict (Archer:7S^, \"Goblin Scout\").")],
    side_b: Annotated[str, typer.Argument(metavar="SIDE_B", click_type=_complete.SIDE,
                                          help="The same for side B.")],
    level_a: Annotated[int | None, typer.Option(
        help="Side A's Skill Level (Level Bonus; default 0, or a unit's Level).")] = None,
    level_b: Annotated[int | None, typer.Option(
        help="Side B's Skill Level (Level Bonus; default 0, or a unit's Level).")] = None,
    fresh: FreshOpt = False,
    json: _app.JsonOpt = False,
) -> None:
    """The chance that A wins, B wins, both win (equal ranks) or neither (a tie), as
    d2d conflict decides it, for every Fate card a fate side could reveal next. A unit
    side's Level is the one d2d conflict gives it (its skill, conditions, and the cover,
    range and high ground said this round); with both units on the map, what it read
    there is shown first, and in JSON as map, as d2d conflict shows it. When the map
    gives the Target Cover with obstacles, d2d conflict first reveals a card for them
    (001 l.718-720): the chance each obstacle is the target is shown too, and the other
    outcomes are over the cards left.

    Example: d2d odds conflict fate 7S^ --level-b 2
    """
    result = ops.conflict(_state.target(ctx), side_a, side_b, level_a=level_a,
                          level_b=level_b, fresh=fresh)
    render.emit(result, _show_conflict, as_json=json)


def _show_conflict(con: Any, r: rules.ConflictOdds) -> None:
    from d2d_cli.commands._bars import bars
    from d2d_cli.commands._situation import show_map

    show_map(con, r.map)
    con.print(f"[bold]{render.escape(r.side_a)} vs {render.escape(r.side_b)}[/] "
              f"{_deck_line(r.deck)}")
    rows: list[tuple[str, Any]] = []
    if isinstance(r, rules.CoveredConflictOdds):  # the cover-target reveal comes first
        from d2d_cli.rules.deck.cards import SUIT_SYMBOL

        names = ", ".join(f"{SUIT_SYMBOL[o.suit]} {render.escape(o.target)}"
                          for o in r.obstacles)
        con.print(f"Cover {r.cover_percent}% of {r.cover_side.upper()}: a Fate card is "
                  f"revealed first, and an obstacle of its suit is the Target instead "
                  f"({names}; 001 l.718–720)")
        rows += [(f"{o.target} is the target", o.probability) for o in r.obstacles]
    rows += [("A wins", r.a_wins), ("B wins", r.b_wins), ("Both win", r.both_win),
            ("Tie", r.tie)]
    if r.rank.fraction:
        rows.append(("Rank (give cards)", r.rank))
    bars(con, rows)


@app.command(short_help="The Hits of a winner holding COUNT Fate cards.")
def hits(
    ctx: typer.Context,
    count_: Annotated[int | None, typer.Argument(
        metavar="[COUNT]", show_default=False,
        help="Cards in the winner's hand (1–10).")] = None,
    count: Annotated[int | None, typer.Option("--count", "-n", help="Cards in the winner's "
                                              "hand, by name (the same as COUNT).")] = None,
    level: Annotated[int, typer.Option("--level", help="Your Skill Level.")] = 0,
    rival_level: Annotated[int, typer.Option("--rival-level", help="The Rival's Skill "
                                             "Level.")] = 0,
    vs: Annotated[str, typer.Option("--vs", metavar="DIFFICULTY|UNIT", click_type=_complete.UNIT,
                                    help="The "
                                    "Difficulty: a number 1 or more, a stat (2x1 → 2), or "
                                    "the Rival unit (its Body, its Level).")] = "",
    by: Annotated[str | None, typer.Option(
        "--by", metavar="UNIT", click_type=_complete.UNIT,
        help="The unit scoring the Hits: its Level as d2d hit reads "
        "it (skill, conditions, this Round's Push the Limit and Grit your Teeth).")] = None,
    skill: Annotated[str | None, typer.Option(
        "--skill", metavar="SKILL", click_type=_complete.SKILL,
        help="--by's skill (default its best Combat skill).")
    ] = None,
    heroic_feat: Annotated[str | None, typer.Option(
        "--heroic-feat", metavar="a|b", help="A Heroic Feat as d2d hit takes it: a Hits +1, "
        "b Hits -1; nothing is spent here.")] = None,
    fresh: FreshOpt = False,
    json: _app.JsonOpt = False,
) -> None:
    """The Hits of a winner holding COUNT Fate cards who plays the set with the most Hits
    (a single card, QQ KK AA KKK AAA AAAA, or a straight of 3+), scored as d2d hit
    scores it; glancing blows and combos shown. Hits 0: only Wilds, nothing to play.
    With --by or a unit --vs, the Levels and Difficulty are read from the session as
    d2d hit reads them (and the map when both are placed: shown first, and in JSON as
    map).

    Example: d2d odds hits 5 --level 2 --rival-level 1 --vs 2x1
    """
    from d2d_cli.commands._convention import positional_or_option

    n = positional_or_option(count_, count, "count", what="the number of cards")
    result = ops.hits(_state.target(ctx), n, level=level, rival_level=rival_level, vs=vs,
                      by=by, skill=skill, heroic_feat=heroic_feat, fresh=fresh)
    render.emit(result, _show_hits, as_json=json)


def _show_hits(con: Any, r: rules.HitsOdds) -> None:
    from d2d_cli.commands._bars import bars
    from d2d_cli.commands._situation import show_map

    show_map(con, r.map)

    con.print(f"[bold]Hits from {r.cards} card(s)[/], Level {max(0, r.level - r.rival_level)}"
              f" vs Difficulty {r.difficulty} {_deck_line(r.deck)}")
    bars(con, [(f"Hits {x.hits}" if x.hits else "no play", x.probability)
               for x in r.distribution])
    con.print(f"Mean {r.mean_value:.4g} · glancing blow {r.glancing.percent} · combo "
              f"{r.combo.percent}")


@app.command(short_help="The chance of each value of the next fate die dN.")
def die(
    ctx: typer.Context,
    sides: Annotated[str, typer.Argument(metavar="dN", help="The die: d2…d108.")],
    fresh: FreshOpt = False,
    json: _app.JsonOpt = False,
) -> None:
    """The chance of each value of the next d2d fate die dN, redraws included.

    Example: d2d odds die d10
    """
    result = ops.die(_state.target(ctx), sides, fresh=fresh)
    render.emit(result, _show_die, as_json=json)


def _show_die(con: Any, r: rules.DieOdds) -> None:
    from d2d_cli.commands._bars import bars, binned

    con.print(f"[bold]{r.die}[/] {_deck_line(r.deck)}")
    bars(con, binned([(x.value, x.probability) for x in r.values]))
    con.print(f"Mean {r.mean_value:.4g} [dim]({r.mean})[/]")


@app.command(short_help="The wind weather wind would reveal next.")
def weather(ctx: typer.Context, fresh: FreshOpt = False, json: _app.JsonOpt = False) -> None:
    """The wind d2d weather wind would reveal next: direction and speed.

    Example: d2d odds weather --json
    """
    result = ops.weather(_state.target(ctx), fresh=fresh)
    render.emit(result, _show_weather, as_json=json)


def _show_weather(con: Any, r: rules.WeatherOdds) -> None:
    from d2d_cli.commands._bars import bars

    con.print(f"[bold]Wind[/] {_deck_line(r.deck)}")
    bars(con, [(x.direction, x.probability) for x in r.direction], title="Direction")
    bars(con, [(f"{x.speed_kph} km/h {x.beaufort}", x.probability) for x in r.speed],
         title="Speed")
    con.print(f"Mean speed {r.mean_kph_value:.3g} km/h")


@app.command(short_help="The Crit crit would rate: each location's chance.")
@crit_opts.damage(before="fresh")
def crit(
    ctx: typer.Context,
    power: crit_opts.PowerOpt = None,
    weapon: crit_opts.WeaponOpt = None,
    stat: crit_opts.StatOpt = None,
    by: Annotated[str | None, typer.Option(
        metavar="UNIT", click_type=_complete.UNIT, help="The wielder: the stat of the "
        "--weapon formula from this unit (after its conditions), as d2d crit --by reads "
        "it.")] = None,
    armor: crit_opts.ArmorOpt = None,
    target: Annotated[str | None, typer.Option(
        metavar="UNIT", click_type=_complete.UNIT,
        help="Read the armor from this unit in the session.")] = None,
    hits: crit_opts.HitsOpt = 1,
    types: crit_opts.TypesOpt = None,
    vehicle: crit_opts.VehicleOpt = False,
    fresh: FreshOpt = False,
    with_: Annotated[str | None, typer.Option(
        "--with", metavar="WEAPON", help="Which of the --by unit's weapons (when it "
        "carries several), as d2d crit --with.")] = None,
    armor_pierce: crit_opts.ArmorPierceOpt = 0,
    json: _app.JsonOpt = False,
    **damage: Unpack[CritDamage],
) -> None:
    """The Crit d2d crit would rate: the chance of each location from the Damage Deck as
    it stands (draw until a matching type), and at each the armor found there, the Hits
    after the Damage Modifiers (as d2d crit: the options, the --target's gear) and the
    severity; then the chance of each severity.

    Units: --by takes the --weapon formula's stat from the wielder as d2d crit does
    (its conditions, and Grit your Teeth's "ignore all penalties"); with neither --power
    nor --weapon, the wielder's own weapon and its damage types (Hand to Hand without
    one), as d2d crit --by. The armor met is crit's: the target's Magic Armor, the
    weapon's Magic (000 l.1213–1214), --armor-pierce (000 l.914); and a Shield covers
    only from the side it is held on (001 l.669).

    Example: d2d odds crit --power 6x1 --armor head=2x1 --hits 2 --types pierce
    """
    result = ops.crit(_state.target(ctx), power=power, weapon=weapon, stat=stat, by=by,
                      armor=armor, target=target, hits=hits, types=types, vehicle=vehicle,
                      fresh=fresh, with_=with_, armor_pierce=armor_pierce, **damage)
    render.emit(result, _show_crit, as_json=json)


def _show_crit(con: Any, r: rules.CritOdds) -> None:
    from d2d_cli.commands._bars import bars

    con.print(f"Power {r.power}, Hits {r.hits_before}: {r.deck_name} deck, {r.chart} chart "
              f"{_deck_line(r.deck)}")
    bars(con, [(f"{x.name} ({x.armor or 'no armor'}: Hits {x.hits}, "
                f"{x.severity.capitalize()}"
                + (f", +{x.light_damage} {r.light.capitalize()}" if x.light_damage else "")
                + (f", {x.flipped} flipped to Crits" if x.flipped else "")
                + ")", x.probability) for x in r.locations], title="Crit location")
    bars(con, [(x.severity.capitalize(), x.probability) for x in r.severities],
         title="Severity")


def _deck_line(d: rules.DeckView) -> str:
    if d.source == "fresh":
        return "[dim](a fresh deck)[/]"
    return f"[dim](the session's deck: {d.remaining} to draw, {d.discarded} discarded)[/]"
