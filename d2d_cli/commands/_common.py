"""What every command module shares: the ``--json`` and ``--card`` options and the
way to reach the session. Kept tiny so importing a command group stays cheap."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from d2d_cli import session
from d2d_cli.cli import HelpWhenBare
from d2d_cli.rules.cards import Card, parse_card

if TYPE_CHECKING:
    from d2d_cli.rules.fate import Revealer
    from d2d_cli.rules.options import Options

R = TypeVar("R")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")]
CardOpt = Annotated[
    list[str] | None,
    typer.Option("--card", "-c", metavar="CARD", autocompletion=lambda incomplete:
                 complete_cards(incomplete),
                 help="Table mode: a card drawn at the table (e.g. QH^, 10sv, RW); repeat "
                      "for more. The virtual deck is not touched."),
]


_HELP = {"help_option_names": ["-h", "--help"]}


class D2DCommand(TyperCommand):
    """Every d2d command: before it runs, its name (``fate draw``, from Click's context)
    becomes the name its output and its errors carry."""

    def invoke(self, ctx: Any) -> Any:
        from d2d_cli import render

        render.begin(command_name(ctx))
        return super().invoke(ctx)


class D2DSubGroup(HelpWhenBare, TyperGroup):
    """A command group below the root (``d2d fate``): bare, it prints its help, exit 0."""


class _App(typer.Typer):
    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", D2DCommand)
        return super().command(*args, **kwargs)


def _help(name: str) -> str:
    from d2d_cli.cli import GROUPS  # the one copy of each group's one-line help

    return GROUPS[name].help


def group(name: str, help: str | None = None) -> typer.Typer:
    """The command group ``d2d NAME`` (its help from ``cli.GROUPS``; a nested group
    gives its own). Help is plain text (no Rich panels): it renders in ~half the time,
    and looks the same in every group."""
    return _App(cls=D2DSubGroup, help=help or _help(name), rich_markup_mode=None,
                add_completion=False, context_settings=_HELP)


def single(name: str) -> typer.Typer:
    """An app holding the one command ``d2d NAME`` (``d2d hit``, ``d2d status``…)."""
    return _App(help=_help(name), rich_markup_mode=None, add_completion=False,
                context_settings=_HELP)


def settings(ctx: typer.Context) -> Any:
    obj = ctx.find_root().obj
    if obj is None:  # a command app invoked on its own (tests of one group)
        from d2d_cli.cli import Settings

        obj = Settings()
    return obj


def path(ctx: typer.Context) -> Path:
    return session.resolve(settings(ctx).session)


def options(ctx: typer.Context, data: dict[str, Any]) -> Options:
    """The session's ``[rules]``, parsed and checked (a bad hand edit: exit 3, the file
    and key named, before anything changes)."""
    from d2d_cli.rules import options as o

    return o.parse(data.get("rules"), str(path(ctx)))


def settings_path(ctx: typer.Context) -> Path:
    """The session file of an existing session (a typo is refused with the nearest
    names; nothing is created)."""
    return session.locate(settings(ctx).session)[0]


def read(ctx: typer.Context) -> dict[str, Any]:
    """The session's data for a lookup (creates the default session on first use; a
    name that does not exist is refused with the nearest names)."""
    s = settings(ctx)
    where, create = session.locate(s.session)
    return session.read(where, seed=s.seed, create=create)


@contextlib.contextmanager
def edit(ctx: typer.Context) -> Iterator[session.Transaction]:
    """A locked read-modify-write of the session, journalled under the command line as
    it was typed (``fate draw 3``)."""
    s = settings(ctx)
    where, create = session.locate(s.session)
    with session.edit(where, label(ctx), seed=s.seed, create=create) as tx:
        yield tx


# Global options are not part of what a command did.
_GLOBAL_WITH_VALUE = ("--session", "--seed")
_GLOBAL_FLAGS = ("--json", "--debug")


def label(ctx: typer.Context) -> str:
    """The journal's label: the real command line, quoted (``char learn Rook 'Pick
    Lock'``), without the global options."""
    import shlex

    argv = list(settings(ctx).argv)
    words: list[str] = []
    skip = False
    for tok in argv:
        if skip:
            skip = False
        elif tok in _GLOBAL_WITH_VALUE:
            skip = True
        elif tok in _GLOBAL_FLAGS or tok.startswith(tuple(f"{g}=" for g in
                                                           _GLOBAL_WITH_VALUE)):
            continue
        else:
            words.append(tok)
    return shlex.join(words) if words else command_name(ctx)


def command_name(ctx: typer.Context) -> str:
    """``fate draw``: the command's path below the root, from Click's context."""
    return ctx.command_path.partition(" ")[2]


def cards(values: list[str] | None) -> list[Card] | None:
    """Parse ``--card`` values; None when table mode is not used."""
    if not values:
        return None
    return [parse_card(v) for v in values]


# --------------------------------------------------------------------------- reveals
# Every card-revealing command reads either the session's Fate deck or the cards drawn
# at the table (--card): ``reveals`` is the one path. Running out of table cards raises
# ``fate.OutOfCards`` from inside the rule; too many cards is refused when it ends.


@contextlib.contextmanager
def reveals(tx: session.Transaction | None, table: list[Card] | None) -> Iterator[Revealer]:
    """A ``rules.fate.Revealer`` over the session's Fate deck (``tx``), or over the
    ``table`` cards. On a clean exit, leftover table cards are refused and the deck is
    stored with what it revealed (the last reveal)."""
    from d2d_cli.rules import fate

    if table is not None:
        reveal = fate.Revealer(None, None, table)
    else:
        assert tx is not None, "the Fate deck needs a session transaction"
        reveal = fate.Revealer(fate.Deck.from_state(tx.data.get("fate")), tx.rng())
    yield reveal
    reveal.finish()
    if tx is not None and reveal.deck is not None and reveal.used:
        reveal.deck.last = reveal.used
        tx.put("fate", reveal.deck.to_state())


def with_reveals(ctx: typer.Context, table: list[Card] | None,
                 body: Callable[[Revealer], R]) -> tuple[R, Revealer]:
    """Run ``body(reveal)`` on the Fate deck (saved and journalled) or on the table's
    cards (read only). Returns body's result and the revealer."""
    if table is not None:
        with reveals(None, table) as reveal:
            return body(reveal), reveal
    with edit(ctx) as tx, reveals(tx, None) as reveal:
        out = body(reveal)
        tx.summary = "revealed " + " ".join(x.code for x in reveal.used)
    return out, reveal


# --------------------------------------------------------------------------- completion
# Completer functions for every name-taking option and argument: ``autocompletion=`` of
# a typer.Option/Argument. The same functions answer the shell's ``d2d <TAB>`` and the
# Tab key of ``d2d play``. Names from the session are read through session.read (so a
# second terminal's change is seen); a completion never fails loudly.


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
    from d2d_cli.rules import conditions

    return _matching([c.name for c in conditions.table().values()], incomplete)


def complete_skills(incomplete: str) -> list[str]:
    from d2d_cli.rules import characters

    return _matching([s.name for s in characters.skills().values()], incomplete)


def complete_archetypes(incomplete: str) -> list[str]:
    from d2d_cli.rules import characters

    return _matching([a["name"] for a in characters.archetypes().values()], incomplete)


def complete_templates(incomplete: str) -> list[str]:
    from d2d_cli.rules import characters

    return _matching(list(characters.templates()), incomplete)


def complete_maps(incomplete: str) -> list[str]:
    """Map types of ``scale map`` (the rules' map scales)."""
    from d2d_cli.rules import scale

    return _matching(scale.map_types(), incomplete)


def complete_scenes(incomplete: str) -> list[str]:
    """Built-in scenes (a file path completes as the shell does)."""
    from d2d_cli.rules import scene

    return _matching(list(scene.BUILT_IN), incomplete)


def complete_terms(incomplete: str) -> list[str]:
    """Everything ``d2d ref`` knows: the four lists, then every name."""
    from d2d_cli.rules import reference

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
    from d2d_cli.rules import conflict

    words = [*conflict.approaches(), "fate", "chart"]
    return _matching(words, incomplete) or complete_cards(incomplete)
