"""Completion of every argument and option that takes a name: ONE matching rule
(:func:`matching`) and one kind of parameter type (:class:`Names`), so the shell's
``d2d unit show Sc<TAB>`` and the Tab key of ``d2d play`` offer the same names.

A name-taking parameter says where its names come from with Click's documented
extension point, a parameter type whose ``shell_complete`` answers (given to Typer as
``click_type=``)::

    name: Annotated[str, typer.Argument(click_type=_complete.UNIT)]

Click asks the type for its completions unfiltered (Typer's ``autocompletion=`` keeps
only the names that start with the typed text, case-sensitively, which would hide
``Goblin Scout`` from ``sc``). Names from the session are read through session.read
(so a second terminal's change is seen); a completion never fails loudly.

The ``complete_*`` functions stay for callers that use Typer's ``autocompletion=``.
"""

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

import typer

from d2d_cli.compat import CompletionItem, StringParamType


@functools.cache
def _word_break() -> re.Pattern[str]:
    """Compiled on first use: a call that never asks (a lookup) does not pay for it."""
    return re.compile(r"[\s\-_/]+")


def matching(names: Iterable[str], incomplete: str) -> list[str]:
    """THE matching rule: a name matches when what was typed (any case) starts the name
    or any word in it (``sc`` finds ``Goblin Scout``; ``goblin s`` finds it too). Names
    that start with it come first, then the others, each in the source's order."""
    typed = incomplete.casefold()
    first: list[str] = []
    later: list[str] = []
    for name in dict.fromkeys(names):
        folded = name.casefold()
        if folded.startswith(typed):
            first.append(name)
        elif any(w.startswith(typed) for w in _word_break().split(folded)[1:]):
            later.append(name)
    return first + later


class Names(StringParamType):
    """A text parameter whose values complete from ``source(ctx)`` by :func:`matching`;
    with ``cards``, a card code completes where no name matches (a side of a conflict is
    an approach, a unit or a card). It converts like Click's STRING (same help)."""

    def __init__(self, what: str, source: Callable[[Any], Iterable[str]],
                 cards: bool = False) -> None:
        self.what = what  # what the names are ("unit", "skill"…), for tests and docs
        self.source = source
        self.cards = cards

    def names(self, ctx: Any, incomplete: str) -> list[str]:
        try:
            found = matching(self.source(ctx), incomplete)
        except Exception:  # noqa: BLE001 - a broken session or table completes nothing
            found = []
        if not found and self.cards:
            found = complete_cards(incomplete)
        return found

    def shell_complete(self, ctx: Any, param: Any, incomplete: str) -> list[Any]:
        return [CompletionItem(n) for n in self.names(ctx, incomplete)]


class Cards(StringParamType):
    """A card code (``Q`` → QC QD QH QS; a whole face → its two orientations)."""

    what = "card"

    def shell_complete(self, ctx: Any, param: Any, incomplete: str) -> list[Any]:
        return [CompletionItem(n) for n in complete_cards(incomplete)]


# --------------------------------------------------------------------------- sources


def _read(ctx: Any) -> dict[str, Any]:
    """The session the command line names, for a lookup (nothing journalled)."""
    from d2d_cli.commands._app import settings  # the root imports this module: kept light
    from d2d_cli.operations import Target

    s = settings(ctx)
    return Target(s.session, s.seed).read()


def _session_names(ctx: typer.Context, section: str) -> list[str]:
    table = _read(ctx).get(section, {})
    return [str(n) for n in table] if isinstance(table, dict) else []


def _units(ctx: Any) -> list[str]:
    return _session_names(ctx, "units")


def _characters(ctx: Any) -> list[str]:
    """The units that are characters: what ``char`` commands take (a unit is refused)."""
    table = _read(ctx).get("units", {})
    return [str(n) for n, u in table.items() if isinstance(u, dict)
            and u.get("kind") == "character"] if isinstance(table, dict) else []


def _tasks(ctx: Any) -> list[str]:
    return _session_names(ctx, "tasks")


def _places(ctx: Any) -> list[str]:
    """The Places named on the map (``[fog.places]``, rules.board.fog)."""
    fog = _read(ctx).get("fog", {})
    places = fog.get("places", {}) if isinstance(fog, dict) else {}
    return [str(n) for n in places] if isinstance(places, dict) else []


def _conditions(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.units import conditions

    return [c.name for c in conditions.table().values()]


def _skills(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.units import characters

    return [s.name for s in characters.skills().values()]


def _archetypes(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.units import characters

    return [a["name"] for a in characters.archetypes().values()]


def _templates(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.units import characters

    return list(characters.templates())


def _maps(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.scale import quantities as scale

    return scale.map_types()


def _scenes(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.overview import scene

    return list(scene.BUILT_IN)


def _terms(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.overview import reference

    return [*reference.LISTS, *(e.name for e in reference.entries())]


def _sessions(ctx: Any = None) -> list[str]:
    from d2d_cli import session

    return session.list_sessions()


def _systems(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.roll import systems

    return systems.packaged()


def _movements(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.time import turns

    return [k.replace("_", "-") for k in turns.movements()]  # as the help spells them


def _actions(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.time import turns

    return [k.replace("_", "-") for k in turns.actions()]


def _attacks(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.combat import situation

    return list(situation.ATTACKS)


def _approaches(ctx: Any = None) -> list[str]:
    from d2d_cli.rules.combat import conflict

    return [*conflict.approaches(), "fate", "chart"]


class Sides(Names):
    """A side of ``d2d conflict``: an approach, ``fate``, ``chart``, a card, or a unit
    with its approach (``Mage:fast``): a unit name completes as ``Mage:``, and after the
    colon the approaches, ``fate`` and cards do (``Mage:`` alone is the bare unit)."""

    def names(self, ctx: Any, incomplete: str) -> list[str]:
        unit, colon, rest = incomplete.partition(":")
        if colon:
            return [f"{unit}:{a}" for a in matching(_approaches()[:-1], rest)
                    or complete_cards(rest)]
        try:
            units = [f"{n}:" for n in _units(ctx)]
        except Exception:  # noqa: BLE001 - no session: the approaches still complete
            units = []
        return matching([*_approaches(), *units], incomplete) or complete_cards(incomplete)


def _procedures(ctx: Any) -> list[str]:
    """With ``roll --system NAME`` typed before: that system's procedures."""
    from d2d_cli.rules.roll import systems

    name = (ctx.params.get("system") if ctx is not None else None) or ""
    if not name or name.lower().endswith(".toml"):
        return []
    return list(systems.load(name).procedures)


def _powers(ctx: Any = None) -> list[str]:
    """The skills that are Powers or Magic (``unit power NAME use FIRE``)."""
    from d2d_cli.rules.units import characters, powers

    kinds = powers.table()["kinds"]
    return [s.name for s in characters.skills().values() if s.kind in kinds]


def words(*choices: str) -> Callable[[Any], list[str]]:
    """A fixed list of words (``svg html toml``) as a source."""
    return lambda ctx: list(choices)


UNIT = Names("unit", _units)
CHARACTER = Names("character", _characters)
TASK = Names("task", _tasks)
PLACE = Names("place", _places)
CONDITION = Names("condition", _conditions)
SKILL = Names("skill", _skills)
ARCHETYPE = Names("archetype", _archetypes)
TEMPLATE = Names("template", _templates)
MAP = Names("map", _maps)
SCENE = Names("scene", _scenes)
TERM = Names("term", _terms)
SESSION = Names("session", _sessions)
SYSTEM = Names("system", _systems)
MOVEMENT = Names("kind", _movements)
ACTION = Names("kind", _actions)
ATTACK = Names("kind", _attacks)
FORMAT = Names("format", words("svg", "html", "toml", "json"))
STEP = Names("kind", words("forward", "drift", "slide", "backward", "drift-back"))
WAY = Names("way", words("left", "right", "N", "NE", "E", "SE", "S", "SW", "W", "NW"))
APPROACH = Names("approach", _approaches, cards=True)
SIDE = Sides("side", _approaches)
POWER = Names("skill", _powers)
PROCEDURE = Names("procedure", _procedures)
CARD = Cards()


# --------------------------------------------------------------- autocompletion=
# The same sources and rule as functions for Typer's ``autocompletion=`` (whose own
# filter then keeps only prefixes: prefer ``click_type=`` above).


def complete_units(ctx: typer.Context, incomplete: str) -> list[str]:
    """Units and characters on the roster."""
    return UNIT.names(ctx, incomplete)


def complete_tasks(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tasks on the board."""
    return TASK.names(ctx, incomplete)


def complete_conditions(incomplete: str) -> list[str]:
    return CONDITION.names(None, incomplete)


def complete_skills(incomplete: str) -> list[str]:
    return SKILL.names(None, incomplete)


def complete_archetypes(incomplete: str) -> list[str]:
    return ARCHETYPE.names(None, incomplete)


def complete_templates(incomplete: str) -> list[str]:
    return TEMPLATE.names(None, incomplete)


def complete_maps(incomplete: str) -> list[str]:
    """Map types of ``scale map`` (the rules' map scales)."""
    return MAP.names(None, incomplete)


def complete_scenes(incomplete: str) -> list[str]:
    """Built-in scenes (a file path completes as the shell does)."""
    return SCENE.names(None, incomplete)


def complete_terms(incomplete: str) -> list[str]:
    """Everything ``d2d ref`` knows: the four lists, then every name."""
    return TERM.names(None, incomplete)


def complete_sessions(incomplete: str) -> list[str]:
    return SESSION.names(None, incomplete)


_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def complete_cards(incomplete: str) -> list[str]:
    """Card codes: ``Q`` → QC QD QH QS; a whole face → its two orientations (QH^ QHv)."""
    faces = [r + s for r in _RANKS for s in "CDHS"] + ["BW", "RW"]
    typed = incomplete.upper()
    if typed in faces:
        return [incomplete + "^", incomplete + "v"]
    return [f for f in faces if f.startswith(typed)]


def complete_sides(incomplete: str) -> list[str]:
    """A side of ``d2d conflict``: an approach, ``fate``, ``chart`` or a card."""
    return APPROACH.names(None, incomplete)
