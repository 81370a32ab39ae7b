"""The options ``conflict`` and ``hit`` share: the skill read from a unit, the
situational modifiers and Advantage (rules.combat.situation), and their human view."""

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from d2d_cli.commands import _complete
from d2d_cli.operations.options import Declared, spliced
from d2d_cli.operations.situation import SITUATION

F = TypeVar("F", bound=Callable[..., Any])

SkillOpt = Annotated[str | None, typer.Option(
    "--skill", metavar="SKILL", click_type=_complete.SKILL,
    help="The Actor's skill: its Level from the session (default: "
    "the unit's best Combat skill; 'none' = no applicable skill, Unskilled).")]
RivalSkillOpt = Annotated[str | None, typer.Option(
    "--rival-skill", metavar="SKILL", click_type=_complete.SKILL,
    help="The Rival's defending skill (default: the same "
    "skill if it holds it, else its best Combat skill; 'none' = Unskilled).")]
SkillStatOpt = Annotated[str | None, typer.Option(
    "--skill-stat", metavar="STAT", help="The skills' main Stat, whose condition penalties "
    "lower the Level (default Body for a Combat skill).")]
# The situational options (operations/situation.py declares them: names, types and
# order), each as the commands show it. ``situational`` puts them in a command.
OPTIONS: dict[str, Any] = {
    "range": typer.Option(
        "--range", metavar="N", help="Spaces to the Target (Melee Level -1 at 0; "
        "Reach Disadvantage at 0; ranged Disadvantage at 0–1)."),
    "attack": typer.Option(
        "--attack", metavar="KIND", click_type=_complete.ATTACK,
        help="The Actor's kind of attack: close, melee, reach or "
        "ranged (default: from its skill)."),
    "cover": typer.Option(
        "--cover", metavar="[a:|b:]PCT", help="Cover of the Rival (or a:PCT, of the Actor) "
        "in 25% steps: the other side's Level -1 per 25%."),
    "high_ground": typer.Option(
        "--high-ground", metavar="a|b", help="The side higher than its Rival: Level +1."),
    "flank": typer.Option(
        "--flank", metavar="[a:|b:]side|back", help="The Actor (or b:) flanks from the "
        "Rival's side (+1) or back (+2, the Rival can't Block)."),
    "confined": typer.Option(
        "--confined", metavar="a|b|both", help="A side sharing its Space with another "
        "unit: Level -1, not with Close Combat."),
    "outnumbered": typer.Option(
        "--outnumbered", metavar="a|b", help="The side beside an Ally of its Rival: the "
        "Rival's Level +1."),
    "weapon_scale": typer.Option(
        "--weapon-scale", metavar="N", help="The Actor's weapon scale (default: a unit's "
        "Body scale): Level +(Rival's stat scale - N) and Advantage or Disadvantage."),
    "with_": typer.Option(
        "--with", metavar="WEAPON", help="Which of the Actor's weapons it attacks with "
        "(d2d unit gear show; default: the one its skill uses; none: Hand to Hand)."),
}
assert tuple(OPTIONS) == SITUATION.names, "commands/_situation.py: one --option per name"


def declared(block: Declared, options: dict[str, Any], before: str,
             after: dict[str, str] | None = None) -> Callable[[F], F]:
    """A command taking a declared block of options as ``**kwargs`` (operations/
    options.py): its parameters are the block's, each with its ``--option`` from
    ``options``, before the parameter ``before`` (and ``after``), as its operation
    lists them."""
    def mark(fn: F) -> F:
        import inspect

        params = [p.replace(annotation=Annotated[p.annotation, options[p.name]])
                  for p in block.parameters(inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        whole = inspect.signature(fn, eval_str=True)  # Typer reads the types as objects
        fn.__signature__ = spliced(whole, params, before, after)  # type: ignore[attr-defined]
        return fn
    return mark


def situational(before: str, after: dict[str, str] | None = None) -> Callable[[F], F]:
    """A command taking ``**situation``: the situational options, as in ``declared``."""
    return declared(SITUATION, OPTIONS, before, after)


NoMapOpt = Annotated[bool, typer.Option(
    "--no-map", help="Read nothing off the map for this roll, even with both units placed "
    "(the table measures it; docs/board.md).")]


# --------------------------------------------------------------------------- human view


def ref(source: str) -> str:
    """``001 l.716–718`` from ``001 l.716–718 "Cover:+25% …"``: the line, not the quote."""
    return source.split(' "')[0].split(" (")[0]


def show(con: Any, levels: list[tuple[str, int, int, str]], modifiers: Any,
         advantage: dict[str, Any], names: dict[str, str] | None = None) -> None:
    """The Levels and where they came from (``levels``: name, before and after the
    modifiers, source), each modifier with its line, each side's Advantage or
    Disadvantage and why — and why it cancelled. ``names`` names the sides."""
    from d2d_cli.render import escape

    names = names or {"a": "A", "b": "B"}
    for name, before, after, source in levels:
        moved = f" → {after}" if after != before else ""
        con.print(f"{name} {before}{moved}: {escape(source)}")
    for m in modifiers:
        con.print(f"  {names[m.side]} {m.level:+d} {escape(m.name)} "
                  f"[dim]({ref(m.source)})[/]")
    notes: list[str] = []
    for side, st in advantage.items():
        for src in st.sources:
            con.print(f"{src.mode.capitalize()} for {names[side]}: {escape(src.why)} "
                      f"[dim]({ref(src.source)})[/]")
        if st.cancelled and st.cancelled not in notes:
            notes.append(st.cancelled)
    for note in notes:
        con.print(f"  [dim]{escape(note)}[/]")


_MAP_NAMES = {"range": "Range", "arc": "Arc", "flank": "Flanking", "line_of_sight":
              "Line of Sight", "cover": "Cover", "high_ground": "High Ground",
              "confined": "Confined", "outnumbered": "Outnumbered"}


def show_map(con: Any, geometry: Any) -> None:
    """What the map gave (rules.board.derive.Geometry), each with where it came from."""
    if geometry is None:
        return
    from d2d_cli.render import escape

    con.print(f"From the map ({escape(geometry.actor)} {geometry.actor_space} → "
              f"{escape(geometry.rival)} {geometry.rival_space}; d2d board):")
    for key, text in geometry.sources.items():
        con.print(f"  {_MAP_NAMES.get(key, key)}: {escape(text)}")


_ADV_WORD = {"option": "given", "unskilled": "Unskilled", "blessed": "Blessed",
             "range": "Range", "weapon_scale": "Weapon Scale"}


def numbers_line(a: Any, b: Any, modifiers: Any, advantage: dict[str, Any], geometry: Any,
                 cover: str | None = None, names: dict[str, str] | None = None
                 ) -> list[str]:
    """The deciding numbers of a roll, one part each (joined with `` · ``): the Levels
    and what moved them, Range, Cover, Advantage. ``a``/``b``: each side's ``unit``,
    ``skill_level`` and ``level`` (None for a side with nothing to say); ``cover``: the
    cover reveal, as said. The reasons behind each are --why's (:func:`show_map`)."""
    from d2d_cli.render import escape

    names = names or {"a": "A", "b": "B"}
    parts: list[str] = []
    levels = []
    for key, side in (("a", a), ("b", b)):
        if side is None:
            continue
        before, after = side
        moved = ", ".join(f"{escape(m.name.split(' (')[0])} {m.level:+d}"
                          for m in modifiers if m.side == key)
        levels.append(f"{names[key]} {before}" + (f"→{after}" if after != before else "")
                      + (f" ({moved})" if moved else ""))
    if levels:
        parts.append(", ".join(levels) if names.get("a") == "you" else
                     "Level " + " vs ".join(levels))
    if geometry is not None:
        typed = (geometry.typed or {}).get("range")  # --range overrides the map's
        parts.append(f"Range {geometry.range}" if typed in (None, geometry.range) else
                     f"Range {typed} (typed; the map: {geometry.range})")
        if not geometry.line_of_sight:
            parts.append("no Line of Sight")
    if cover:
        parts.append(escape(cover))
    elif geometry is not None and geometry.cover and not any(
            m.key == "cover" for m in modifiers):
        parts.append(f"Cover {geometry.cover}%")
    for side, st in advantage.items():
        if st.mode != "normal":
            why = ", ".join(dict.fromkeys(_ADV_WORD.get(x.key, x.key) for x in st.sources))
            parts.append(f"{names[side]} {st.mode.capitalize()}" + (f" ({why})" if why
                                                                    else ""))
    return parts
