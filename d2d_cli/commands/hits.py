"""``d2d hit CARD [CARD…]`` — the Hits of the winner's cards (001 p.31 "Hits")."""

from typing import Annotated, Any, Unpack

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _reveal, _state
from d2d_cli.commands import _situation as s
from d2d_cli.operations import hits as ops
from d2d_cli.operations.situation import Situation
from d2d_cli.rules.combat import hits as rules

app = _app.single("hit")


@app.command()
@s.situational(before="no_map")
def hit(
    ctx: typer.Context,
    cards: Annotated[list[str] | None, typer.Argument(
        click_type=_complete.CARD, show_default=False,
        metavar="[CARD…]", help="The winning Fast or Strong card first, then any combo "
        "cards (e.g. 2S 3H 4C); default: the card of the conflict just won.")] = None,
    level: Annotated[int | None, typer.Option(
        "--level", help="Your Skill Level (0 or more; default: --by's skill Level, else 0)."
    )] = None,
    rival_level: Annotated[int | None, typer.Option(
        "--rival-level", help="The Rival's Skill Level (0 or more; default: the --vs unit's "
        "defending skill, else 0).")] = None,
    vs: Annotated[str | None, typer.Option(
        "--vs", metavar="DIFFICULTY|UNIT", click_type=_complete.UNIT,
        help="The Difficulty: a number 1 or more, the "
        "target's stat (2x1 → 2), or the Rival unit (its --stat, Body by default).")] = None,
    by: Annotated[str | None, typer.Option(
        "--by", metavar="UNIT", click_type=_complete.UNIT,
        help="The unit scoring the Hits: its skill's Level.")] = None,
    difficulty: Annotated[int | None, typer.Option(
        "--difficulty", metavar="N", help="The Difficulty, over the --vs unit's stat.")] = None,
    stat: Annotated[str | None, typer.Option(
        metavar="STAT", help="The --vs unit's stat that is the Difficulty (default "
        "body).")] = None,
    skill: s.SkillOpt = None,
    rival_skill: s.RivalSkillOpt = None,
    skill_stat: s.SkillStatOpt = None,
    advantage: Annotated[bool, typer.Option(
        "--advantage", help="Reveal one more combo card, keep the best.")] = False,
    disadvantage: Annotated[bool, typer.Option(
        "--disadvantage", help="Reveal one more combo card, keep the worst.")
    ] = False,
    no_map: s.NoMapOpt = False,
    combo: Annotated[bool, typer.Option(
        "--combo", help='With [rules] combos = "revealed" (000): reveal the combo cards '
        "from the Fate deck (or --card).")] = False,
    card: _reveal.CardOpt = None,
    heroic_feat: Annotated[str | None, typer.Option(
        "--heroic-feat", metavar="a|b", help="A Heroic Feat: a — your "
        "player spends 1 Character Point, Hits +1; b — the Rival's, Hits -1. A character "
        "pays from its CP.")] = None,
    json: _app.JsonOpt = False,
    **situation: Unpack[Situation],
) -> None:
    """Count Hits: Level = your level − rival level (min 0); A/K/Q/J Hits +1; a 2–10 Hits
    +1 if rank + Level > Difficulty; combos QQ KK AA KKK AAA AAAA or a straight of 3+
    (each card beyond 2 takes a card from the discard); no Hits is a glancing blow (1).

    After a d2d conflict between two units that its winner may hit from, the winner,
    its Rival, their skills and the winning card are taken for what is not typed (one
    line says so).

    Units: --by reads your Level from the unit's skill (--skill, default its best Combat
    skill), --vs UNIT the Rival Level (its defending skill) and the Difficulty (its
    --stat); explicit numbers override. The situational options change a side's Level
    as in `d2d conflict` (a = you, b = the Rival). Advantage or Disadvantage (the
    flags, Unskilled, Blessed, Range, Weapon Scale) counts for revealed combo cards.

    JSON: adds your_level, rival_level (after modifiers), sources (level, rival_level,
    difficulty, weapon_scale, rival_stat_scale), modifiers [{key, name, side, level,
    origin, source}], advantage {mode, sources, cancelled}, map (what was read off the
    map, as conflict's; docs/board.md); revealed combos add set_aside (the card not
    kept); hand (with [rules] hands = "d2d": the combo cards played from the hitter's
    hand: player, unit, cards, why, hand) or null.

    Hands held by d2d: the combo cards (every card after the first, the Conflict's)
    come from the hitter's Player's hand and go to the discard pile; one not held is
    refused (001 l.826 "Combo - Play cards to make an allowed set").

    Example: d2d hit 2S 3H 4C --level 2 --rival-level 1 --vs 2x1
    """
    result = ops.hit(_state.target(ctx), *(cards or ()), level=level, rival_level=rival_level,
                     vs=vs, by=by, difficulty=difficulty, stat=stat, skill=skill,
                     rival_skill=rival_skill, skill_stat=skill_stat, advantage=advantage,
                     disadvantage=disadvantage, no_map=no_map, combo=combo, card=card,
                     heroic_feat=heroic_feat, **situation)
    render.emit(result, _show, as_json=json)


def _row(con: Any, row: rules.CardHit) -> None:
    mark = "[green]Hit[/]" if row.hit else "[dim]no Hit[/]"
    con.print(f"  {row.card.name()}: {row.why} → {mark}")


def _show(con: Any, r: rules.Hits) -> None:
    """The Hits and each card's in a line, the deciding numbers in another; with --why
    every reading and rule line."""
    if render.why():
        _show_why(con, r)
        return
    if isinstance(r, rules.RevealedHits) and r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")
    if "exchange" in r.sources:
        con.print(f"[dim]{render.escape(r.sources['exchange'])}[/]")
    rows = [*r.cards, *(r.revealed if isinstance(r, rules.RevealedHits) else ())]
    cards = ", ".join(f"{x.card.name().split(' ')[0]} {'Hit' if x.hit else 'no Hit'}"
                      for x in rows)
    extra = []
    if r.combo:
        extra.append(("Of a Kind " if r.combo == "of_a_kind" else "Straight ")
                     + str(r.combo_name))
    if isinstance(r, rules.RevealedHits) and r.set_aside:
        extra.append("set aside " + " ".join(x.name().split(" ")[0] for x in r.set_aside))
    if r.discard_takes:
        extra.append(f"take {r.discard_takes} from your discard")
    if isinstance(r, rules.RevealedHits) and r.gain_ace:
        extra.append("Gain:A")
    con.print(f"[bold]{render.escape(r.summary)}[/] — {cards}"
              + "".join(f"; {x}" for x in extra))
    a_moved, b_moved = _moved(r, "a"), _moved(r, "b")
    parts = [f"{r.approach.capitalize()}: Level {r.level} vs Difficulty {r.difficulty}"]
    units = bool(r.modifiers or r.rival_level or r.sources.get("level", "")[:1].isupper())
    parts += s.numbers_line((r.your_level - a_moved, r.your_level) if units else None,
                            (r.rival_level - b_moved, r.rival_level) if units else None,
                            r.modifiers, {"a": r.advantage}, r.map,
                            names={"a": "you", "b": "Rival"})
    con.print("  " + " · ".join(parts))
    _show_hand(con, r)


def _show_hand(con: Any, r: rules.Hits) -> None:
    """[rules] hands = "d2d": the combo cards that left the hand (001 l.826)."""
    if r.hand is not None:
        from d2d_cli.rules.units.hands import spent_said

        con.print(f"Hand: {render.escape(spent_said(r.hand))}")


def _show_why(con: Any, r: rules.Hits) -> None:
    if "exchange" in r.sources:
        con.print(render.escape(r.sources["exchange"]))
    s.show_map(con, r.map)
    if r.sources.get("level", "").startswith(("not given", "--level")) and not r.modifiers \
            and r.sources.get("rival_level", "").startswith(("not given", "--rival-level")) \
            and not r.advantage.sources:
        pass  # numbers as typed: nothing to explain
    else:
        s.show(con, [("Your Level", r.your_level - _moved(r, "a"), r.your_level,
                      r.sources["level"]),
                     ("Rival Level", r.rival_level - _moved(r, "b"), r.rival_level,
                      r.sources["rival_level"])], r.modifiers, {"a": r.advantage},
               {"a": "you", "b": "the Rival"})
        if r.advantage.mode != "normal" and not (isinstance(r, rules.RevealedHits)
                                                 and (r.revealed or r.set_aside)):
            con.print("  [dim]no cards revealed: nothing to keep[/]")
        con.print(f"Difficulty {r.difficulty}: {render.escape(r.sources['difficulty'])}")
        from d2d_cli.commands._exchange import show_recalled

        show_recalled(con, r.sources)
    con.print(f"Level {r.level} vs Difficulty {r.difficulty} ({r.approach.capitalize()})")
    for row in r.cards:
        _row(con, row)
    if isinstance(r, rules.RevealedHits):
        if r.reshuffled:
            con.print("[yellow]The draw pile ran out: the discard pile was shuffled back "
                      "in.[/]")
        if r.revealed:
            con.print("Combo cards revealed:")
        for row in r.revealed:
            _row(con, row)
    if isinstance(r, rules.RevealedHits) and r.set_aside:
        con.print(f"Set aside ({r.advantage.mode.capitalize()}): "
                  + ", ".join(x.name() for x in r.set_aside))
    if r.combo:
        kind = "Of a Kind" if r.combo == "of_a_kind" else "Straight"
        con.print(f"Combo: {kind} {r.combo_name}")
    if r.discard_takes:
        con.print(f"Take {r.discard_takes} card(s) of your choice from your discard pile.")
    if isinstance(r, rules.RevealedHits) and r.gain_ace:
        con.print("Gain:A — take an A from your discard pile or deck into your hand.")
    con.print(f"[bold]{render.escape(r.summary)}[/]")
    _show_hand(con, r)


def _moved(r: rules.Hits, side: str) -> int:
    return sum(m.level for m in r.modifiers if m.side == side)
