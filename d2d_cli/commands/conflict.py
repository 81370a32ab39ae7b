"""``d2d conflict SIDE_A SIDE_B`` and ``d2d conflict chart`` (001 p.28 "Conflict")."""

from typing import Annotated, Any, Unpack

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _reveal, _state
from d2d_cli.commands import _situation as s
from d2d_cli.operations import combat as ops
from d2d_cli.operations.situation import Situation
from d2d_cli.rules.combat import conflict as rules
from d2d_cli.rules.deck.cards import Card, parse_card

app = _app.single("conflict")

_LEVEL_HELP = ("'s Level, for the Level Bonus of a rank tiebreak (0 or more; "
               "default: a unit side's skill Level).")
LevelA = Annotated[int | None, typer.Option(help="Side A" + _LEVEL_HELP)]
LevelB = Annotated[int | None, typer.Option(help="Side B" + _LEVEL_HELP)]
AdvantageOpt = Annotated[list[str] | None, typer.Option(
    metavar="a|b", help="That side has Advantage: one more Fate card is revealed and the "
    "best kept. Repeatable.")]
DisadvantageOpt = Annotated[list[str] | None, typer.Option(
    metavar="a|b", help="That side has Disadvantage: one more Fate card is revealed and "
    "the worst kept. Repeatable.")]
ObstacleOpt = Annotated[list[str] | None, typer.Option(
    "--obstacle", metavar="SUIT=NAME", help="With --cover: a major obstacle's suit (C=rock); "
    "a Fate card is revealed first, a matching suit makes it the target.")]


@app.command()
@s.situational(before="obstacle", after={"obstacle": "cover"})
def conflict(
    ctx: typer.Context,
    sides: Annotated[list[str], typer.Argument(
        click_type=_complete.SIDE,
        metavar="SIDE_A SIDE_B | chart",
        help="Each side: an approach (fast, strong, block, evade, counter, wild), a card "
             "with orientation (7S^, QHv, RW), fate, or a unit: NAME:APPROACH, NAME:CARD, "
             "NAME:fate, or NAME for a Non-Player (fate). Or the word chart.")],
    level_a: LevelA = None,
    level_b: LevelB = None,
    skill: s.SkillOpt = None,
    rival_skill: s.RivalSkillOpt = None,
    skill_stat: s.SkillStatOpt = None,
    advantage: AdvantageOpt = None,
    disadvantage: DisadvantageOpt = None,
    obstacle: ObstacleOpt = None,
    no_map: s.NoMapOpt = False,
    stat: Annotated[str | None, typer.Option(
        metavar="STAT", help="The Rival unit's stat the attack targets, for the weapon "
        "scale (default body).")] = None,
    spent: Annotated[bool | None, typer.Option(
        "--spent/--unspent", help="Whether B, the Target, spent an Action on this Conflict "
        "(default: what the round recorded: d2d unit act A interact B, d2d unit respond "
        "B). Unspent: no benefit on a Win.")] = None,
    card: _reveal.CardOpt = None,
    gain: Annotated[str | None, typer.Option(
        metavar="CARD", click_type=_complete.CARD,
        help='With [rules] hands = "d2d": the card a Player\'s winning Wild '
        "takes from their discard pile; "
        "asked at a terminal when two or more could be taken, else refused with the "
        "list.")] = None,
    counter: Annotated[str | None, typer.Option(
        metavar="CARD", click_type=_complete.CARD,
        help="The card a Player's side counter-attacks with if its Counter "
        "wins, played Upper; with "
        '[rules] hands = "d2d" from the hand (default: the best one held). A '
        "Non-Player's counter-attack reveals Fate.")] = None,
    json: _app.JsonOpt = False,
    **situation: Unpack[Situation],
) -> None:
    """Who wins a conflict, what each side gets, and the rank tiebreak of Fast vs Fast
    and Strong vs Strong (A > J > Q > K > 2 > … > 10, Level Bonus applied).

    A card's orientation gives its approach (Upper: Wands/Coins Strong, Cups/Swords
    Fast; Lower: Wands/Cups Block, Coins Counter, Swords Evade; a joker Wild). fate
    reveals a Fate card for a non-player (black Upper, red Lower); with --card, the Fate
    card(s) drawn at the table. `d2d conflict chart` prints the whole chart.

    Units: A is the Actor, B the Rival. Each unit's Level is its skill's Level (--skill;
    the Rival's defending skill) less the condition penalties of its main Stat; the
    options --range, --cover, --high-ground, --flank, --confined, --outnumbered and
    --weapon-scale change a side's Level (tables/modifiers.toml); in a round, the cover,
    range and high ground said with d2d unit situation are read when not typed. Advantage comes from
    --advantage, Blessed, and Disadvantage from Unskilled, Range and Weapon Scale; both
    sides at Disadvantage cancel. Table mode reads the cover card first, then A's, B's.

    JSON: side_a/side_b add unit, skill, skill_level, revealed, set_aside; sources
    (level_a, level_b, weapon_scale, rival_stat_scale: where each number came from);
    modifiers [{key, name, side, level, origin, source}]; advantage {a, b: {mode,
    sources [{key, mode, why, source}], cancelled}}; cannot_block; cover {side, percent,
    obstacles, card, target} or null. An obstacle hit gives {outcome: "obstacle", target,
    cover, reshuffled}. map: what was read off the map when both units are placed (the
    Spaces, range, arc, rival_arc, line_of_sight, cover, cover_edges, obstacles, terms,
    sources; docs/board.md), else null; a modifier from it has origin "map".

    Example: d2d conflict Archer:7S^ "Goblin Scout" --skill Ranged --range 3 --cover 25
    """
    if sides == ["chart"]:
        render.begin("conflict chart")  # its own name, for its output and its errors
    t = _state.target(ctx)
    result = ops.conflict(t, *sides, level_a=level_a, level_b=level_b, skill=skill,
                          rival_skill=rival_skill, skill_stat=skill_stat, advantage=advantage,
                          disadvantage=disadvantage, obstacle=obstacle, no_map=no_map,
                          stat=stat, spent=spent, card=card, gain=gain, counter=counter,
                          ask_gain=_ask_gain if _interactive() and not json else None,
                          **situation)
    render.emit(result, _show_chart if sides == ["chart"] else
                lambda con, r: _show(con, r, list(getattr(r, "turned", ()))), as_json=json)


def _interactive() -> bool:
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask_gain(player: str, faces: list[str]) -> str:
    """000 l.444–445: the Player names the card their winning Wild gains."""
    text: str = typer.prompt(f"The Wild wins: {player} gains a card from the discard pile "
                             f"({', '.join(faces)})")
    return text


_WORD = {"a": "wins", "b": "loses", "tie": "tie", "both": "both win", "rank": "rank"}


def _show_chart(con: Any, r: rules.Chart) -> None:
    from d2d_cli.layout import Table

    t = Table("A ↓ vs B →", *(a.capitalize() for a in r.approaches),
              title=f"Conflict chart ({r.conflict_chart}): A's result")
    for a in r.approaches:
        t.add_row(a.capitalize(), *(_WORD[r.chart[a][b]] for b in r.approaches))
    con.print(t)
    con.print("[dim]rank: both Fast or both Strong compare Rank, A > J > Q > K > 2 > … > "
              "10 (2–10 lowered by the Level Bonus, min 2); equal ranks both win.[/]")


def _show(con: Any, r: rules.Conflict | rules.Redirected,
          turned: list[tuple[str, Card, Card, str]] | None = None) -> None:
    """The answer in a few lines (who won, the cards and approaches, the deciding
    numbers, what the winner may do next); with --why every reading and rule line."""
    if render.why():
        _show_why(con, r, turned)
        return
    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    if isinstance(r, rules.Redirected):
        con.print(f"[bold]The target is {render.escape(r.target)}[/]: resolve the Conflict "
                  f"against the obstacle instead ({_cover_short(r.cover)}).")
        return
    verdict = {"a": "A wins", "b": "B wins", "both": "Both win", "tie": "Tie: neither wins",
               "rank": "Decided by rank: give both cards (e.g. 5S^ 9H^)"}[r.outcome]
    tb = r.tiebreak
    rank = f" (rank {tb.a.adjusted} vs {tb.b.adjusted})" if tb else ""
    con.print(f"[bold]{verdict}[/]{rank}: {_side_short(r.side_a)} vs "
              f"{_side_short(r.side_b)}")
    units = r.side_a.unit or r.side_b.unit or r.modifiers
    numbers = s.numbers_line(
        (r.side_a.skill_level, r.side_a.level) if units else None,
        (r.side_b.skill_level, r.side_b.level) if units else None,
        r.modifiers, r.advantage, r.map, _cover_short(r.cover) if r.cover else None)
    for who in r.cannot_block:
        numbers.append(f"{who.upper()} can't Block")
    if numbers:
        con.print("  " + " · ".join(numbers))
    nexts = [f"{name}: " + "; ".join(e.text for e in got)
             for name, got in (("A", r.effects.a), ("B", r.effects.b)) if got]
    nexts += [note.split(" (")[0] for note in r.notes]  # a benefit taken away
    if nexts:
        con.print("  " + render.escape(" · ".join(nexts)))
    if r.counter is not None:
        con.print("  " + render.escape(counter_line(r.counter)))


def counter_line(c: rules.CounterAttack) -> str:
    """A Counter's win played out, in a line (001 l.754; 000 l.163 under [rules]
    counter = "000")."""
    who = f"{c.unit} " if c.unit else ""
    if c.card is None:
        return (f"Counter-attack: {who}plays a Fast or Strong card (--counter CARD), then "
                "d2d hit")
    name = c.card.name()
    if c.source == "counter":
        return f"Counter-attack: {who}scores the Hits of its Counter {name}: d2d hit"
    how = {"fate": "reveals Fate", "hand": "plays from the hand", "named": "plays"}[c.source]
    if not c.scores:
        return f"Counter-attack: {who}{how} {name}: neither Fast nor Strong, no Hits"
    return (f"Counter-attack: {who}{how} {name} ({str(c.approach).capitalize()}) vs No "
            "Conflict: d2d hit counts its Hits")


def _side_short(side: rules.Side) -> str:
    """``Archer Fast (7♠↑)``: who, the approach kept, the card (and what was set aside)."""
    who = render.escape(side.unit) + " " if side.unit else ""
    card = side.card.name().split(" ")[0] + side.card.name()[-1] if side.card else ""
    aside = ""
    if side.set_aside is not None:
        aside = side.set_aside.capitalize() if side.set_aside in rules.approaches() else (
            parse_card(side.set_aside).name().split(" ")[0])
        aside = f"{aside} set aside"
    inner = ", ".join(x for x in (card, aside) if x)
    inner = f" ({inner})" if inner else ""
    return f"{who}{side.approach.capitalize()}{inner}"


def _cover_short(cover: rules.CoverTarget) -> str:
    card = cover.card.name().split(" ")[0]
    hit = render.escape(cover.target) if cover.target else "no obstacle"
    return f"Cover {cover.percent}% {cover.side.upper()} ({card}: {hit})"


def _show_why(con: Any, r: rules.Conflict | rules.Redirected,
              turned: list[tuple[str, Card, Card, str]] | None = None) -> None:
    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    if r.cover is not None:
        _show_cover(con, r.cover)
    if isinstance(r, rules.Redirected):
        con.print(f"[bold]The target is {render.escape(r.target)}[/]: resolve the Conflict "
                  "against the obstacle instead.")
        return

    s.show_map(con, r.map)
    con.print(f"A: {render.escape(r.side_a.label)}   vs   B: {render.escape(r.side_b.label)}")
    for side, was, card, why in turned or []:  # one card, two arrows: say why
        con.print(f"  {side}'s Fate {was.name()} is read {card.name()[-1]}: {why} "
                  "[dim](000 l.420)[/]")
    rows = []
    if r.side_a.unit or r.side_b.unit or r.modifiers:
        rows = [(f"Level {n}", one.skill_level, one.level, r.sources[f"level_{n.lower()}"])
                for n, one in (("A", r.side_a), ("B", r.side_b))]
    s.show(con, rows, r.modifiers, r.advantage)
    from d2d_cli.commands._exchange import show_recalled

    show_recalled(con, r.sources)
    for name, one in (("A", r.side_a), ("B", r.side_b)):
        if one.set_aside is not None:
            shown = ", ".join(x.name() for x in one.revealed)
            kept = one.card.name() if one.card else one.approach.capitalize()
            aside = one.set_aside.capitalize() if one.set_aside in rules.approaches() else (
                parse_card(one.set_aside).name())
            con.print(f"{name} revealed {shown}: kept {kept}, set aside {aside}")
    for who in r.cannot_block:
        con.print(f"{who.upper()} can't Block (Flanking from Arc:Back, 000 l.326)")
    tb = r.tiebreak
    if tb:
        con.print(f"Tiebreak by rank: A {tb.a.adjusted} vs B {tb.b.adjusted} "
                  f"[dim](Level Bonus A {tb.a.level_bonus}, B {tb.b.level_bonus})[/]")
    verdict = {"a": "[bold]A wins[/]", "b": "[bold]B wins[/]", "both": "[bold]Both win[/]",
               "tie": "[bold]Tie[/]: neither wins",
               "rank": "[bold]Decided by rank[/]: give both cards (e.g. 5S^ 9H^)"}
    con.print(verdict[r.outcome])
    for name, got in (("A", r.effects.a), ("B", r.effects.b)):
        for e in got:
            con.print(f"  {name}: {e.text}")
    for note in r.notes:
        con.print(f"  [dim]{render.escape(note)}[/]")
    if r.counter is not None:
        con.print(render.escape(counter_line(r.counter)) + " [dim](001 l.752–754; 000 "
                  "l.442)[/]")
    if r.hands:  # [rules] hands = "d2d": what the Conflict did to the hands (001 l.736–758)
        from d2d_cli.rules.units.hands import said

        for m in r.hands:
            con.print(f"Hand: {render.escape(said(m))}")


def _show_cover(con: Any, cover: rules.CoverTarget) -> None:
    from d2d_cli.rules.deck.cards import SUIT_SYMBOL

    named = ", ".join(f"{SUIT_SYMBOL[k]} {render.escape(v)}" for k, v in cover.obstacles.items())
    hit = (f"{SUIT_SYMBOL[cover.card.suit]} is {render.escape(cover.target)}"
           if cover.target and cover.card.suit else "no obstacle's suit")
    con.print(f"Cover {cover.percent}% ({cover.side.upper()}; {named}): revealed "
              f"{cover.card.name()} — {hit} [dim](001 l.718–720)[/]")
