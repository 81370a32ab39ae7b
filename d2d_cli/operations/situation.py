"""The situational options of ``d2d conflict`` and ``d2d hit`` (001 p.30 "Situational
modifiers", tables/modifiers.toml), declared once: :class:`Situation` names them and
gives their types, in the order the commands list them. The operations take them as
``**situation`` and :func:`options` puts them in the signature a script sees (and the
API labels from); commands/_situation.py gives each its ``--option`` for the commands;
:func:`terms` turns them into what the rules read. tests/test_api_commands.py checks
the commands, the API and this declaration agree."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, get_type_hints

if TYPE_CHECKING:
    from d2d_cli.rules.combat.situation import Terms

F = TypeVar("F", bound=Callable[..., Any])


class Situation(TypedDict, total=False):
    """The situational options by name (each None when not given)."""

    range: int | None
    attack: str | None
    cover: str | None
    high_ground: str | None
    flank: str | None
    confined: str | None
    outnumbered: str | None
    weapon_scale: int | None


NAMES: tuple[str, ...] = tuple(Situation.__annotations__)


def parameters(kind: inspect._ParameterKind = inspect.Parameter.KEYWORD_ONLY
               ) -> list[inspect.Parameter]:
    """The options as signature parameters, each defaulting to None."""
    hints = get_type_hints(Situation)
    return [inspect.Parameter(n, kind, default=None, annotation=hints[n]) for n in NAMES]


def spliced(sig: inspect.Signature, block: list[inspect.Parameter], before: str,
            after: dict[str, str] | None = None) -> inspect.Signature:
    """A signature with ``block`` in the place of its ``**situation``, before the
    parameter ``before`` (the commands' order of options); ``after`` moves a parameter
    of the command's own among them (``{"obstacle": "cover"}``: ``--obstacle`` follows
    ``--cover``, the option it goes with)."""
    params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
    at = [p.name for p in params].index(before)
    order = [*params[:at], *block, *params[at:]]
    for name, anchor in (after or {}).items():
        moved = next(p for p in order if p.name == name)
        order.remove(moved)
        order.insert([p.name for p in order].index(anchor) + 1, moved)
    return sig.replace(parameters=order)


def options(before: str, after: dict[str, str] | None = None) -> Callable[[F], F]:
    """An operation taking ``**situation``: its signature shows the options by name,
    before the parameter ``before`` (and ``after``: see :func:`spliced`), as the command
    lists them."""
    def mark(fn: F) -> F:
        fn.__signature__ = spliced(inspect.signature(fn), parameters(), before, after)  # type: ignore[attr-defined]
        return fn
    return mark


def terms(situation: Situation, *, skill_stat: str | None = None, stat: str | None = None,
          advantage: tuple[str, ...] = (), disadvantage: tuple[str, ...] = ()) -> Terms:
    """What the rules read (``rules.combat.situation.Terms``): the situational options
    and the command's own Advantage and stats."""
    from d2d_cli.rules.combat.situation import Terms

    unknown = set(situation) - set(NAMES)
    if unknown:
        raise TypeError(f"unknown situational option(s): {', '.join(sorted(unknown))}")
    given: dict[str, Any] = {n: situation.get(n) for n in NAMES}
    return Terms(**given, skill_stat=skill_stat, stat=stat, advantage=advantage,
                 disadvantage=disadvantage)
