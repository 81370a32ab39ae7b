"""Completer functions for every name-taking option and argument: ``autocompletion=`` of
a typer.Option/Argument. The same functions answer the shell's ``d2d <TAB>`` and the
Tab key of ``d2d play``. Names from the session are read through session.read (so a
second terminal's change is seen); a completion never fails loudly."""

from __future__ import annotations

import typer

from d2d_cli import session
from d2d_cli.commands._state import read


def _matching(names: list[str], incomplete: str) -> list[str]:
    """Names starting with what was typed (any case); else names with a word that does
    (``Scout`` finds ``Goblin Scout``)."""
    typed = incomplete.lower()
    first = [n for n in names if n.lower().startswith(typed)]
    if first or not typed:
        return first
    return [n for n in names if any(w.startswith(typed) for w in n.lower().split()[1:])]


def _session_names(ctx: typer.Context, section: str) -> list[str]:
    try:
        table = read(ctx).get(section, {})
    except Exception:  # noqa: BLE001 - a broken session completes nothing
        return []
    return [str(n) for n in table] if isinstance(table, dict) else []


def complete_units(ctx: typer.Context, incomplete: str) -> list[str]:
    """Units and characters on the roster."""
    return _matching(_session_names(ctx, "units"), incomplete)


def complete_tasks(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tasks on the board."""
    return _matching(_session_names(ctx, "tasks"), incomplete)


def complete_conditions(incomplete: str) -> list[str]:
    from d2d_cli.rules.units import conditions

    return _matching([c.name for c in conditions.table().values()], incomplete)


def complete_skills(incomplete: str) -> list[str]:
    from d2d_cli.rules.units import characters

    return _matching([s.name for s in characters.skills().values()], incomplete)


def complete_archetypes(incomplete: str) -> list[str]:
    from d2d_cli.rules.units import characters

    return _matching([a["name"] for a in characters.archetypes().values()], incomplete)


def complete_templates(incomplete: str) -> list[str]:
    from d2d_cli.rules.units import characters

    return _matching(list(characters.templates()), incomplete)


def complete_maps(incomplete: str) -> list[str]:
    """Map types of ``scale map`` (the rules' map scales)."""
    from d2d_cli.rules.scale import quantities as scale

    return _matching(scale.map_types(), incomplete)


def complete_scenes(incomplete: str) -> list[str]:
    """Built-in scenes (a file path completes as the shell does)."""
    from d2d_cli.rules.overview import scene

    return _matching(list(scene.BUILT_IN), incomplete)


def complete_terms(incomplete: str) -> list[str]:
    """Everything ``d2d ref`` knows: the four lists, then every name."""
    from d2d_cli.rules.overview import reference

    names = [*reference.LISTS, *dict.fromkeys(e.name for e in reference.entries())]
    return _matching(names, incomplete)


def complete_sessions(incomplete: str) -> list[str]:
    return _matching(session.list_sessions(), incomplete)


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
    from d2d_cli.rules.combat import conflict

    words = [*conflict.approaches(), "fate", "chart"]
    return _matching(words, incomplete) or complete_cards(incomplete)
