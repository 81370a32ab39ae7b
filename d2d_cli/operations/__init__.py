"""The operations a command and a script share (docs/architecture.md "API").

A command (``commands/*.py``) parses its options, calls ONE function here and renders
the result; a script calls the same function through :mod:`d2d_cli.api`. What lives
here is what an operation needs beyond the pure rules: reaching the session (read, a
locked and journalled edit, the ``[rules]`` table) and the Fate deck or the cards drawn
at the table. So there is one writer and one copy of each operation's logic.

Every operation takes a :class:`Target` (which session, which ``--seed``, the journal's
label for the change) and returns the rules' typed result (``rules.core.result.Result``).
Its other parameters ARE the command's: the command's arguments positional, its options
keyword-only and named as the options (``card`` is ``--card``), in the command's order —
so :mod:`d2d_cli.api` exposes each operation as it is, and :func:`label` builds the
journal's label from either call (tests/test_api_commands.py checks every command).
Errors are ``d2d_cli.errors.D2DError`` kinds, exactly as the commands raise them.

This layer imports no Typer, Click, Rich or ``render`` (import-linter contract
"operations-plain" in pyproject.toml).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from d2d_cli import session
from d2d_cli.rules.deck.cards import Card, parse_card

if TYPE_CHECKING:
    from d2d_cli.rules.core.options import Options
    from d2d_cli.rules.deck.fate import Revealer
    from d2d_cli.rules.units.roster import Unit

R = TypeVar("R")


class _Change(Protocol):
    @property
    def summary(self) -> str: ...


C = TypeVar("C", bound=_Change)


def label(path: str, arguments: Iterable[Any] = (),
          options: Iterable[tuple[str, str | None, Any]] = ()) -> str:
    """The journal's label for one call of a command (``unit place Archer E7 NE``): the
    one function both faces build it with — a typed command from its parsed parameters
    (``commands._app.label``), a script from its call's bound arguments
    (``api._Op.label``), so the same call is logged with the same words.

    ``path`` is the command's path (``unit place``); ``arguments`` the positional values
    in order (a list or tuple stands for several words, None for none); ``options``
    ``(flag, off_flag, value)`` in the command's declared order: True gives ``flag``,
    False ``off_flag`` (None: nothing), a list repeats ``flag VALUE``, None and an empty
    list give nothing."""
    import shlex
    from enum import Enum

    def word(v: Any) -> str:
        return str(v.value if isinstance(v, Enum) else v)

    words: list[str] = path.split()
    for value in arguments:
        if isinstance(value, list | tuple):
            words += [word(v) for v in value]
        elif value is not None:
            words.append(word(value))
    for flag, off, value in options:
        if value is True:
            words.append(flag)
        elif value is False:
            words += [off] if off else []
        elif isinstance(value, list | tuple):
            for v in value:
                words += [flag, word(v)]
        elif value is not None:
            words += [flag, word(value)]
    return shlex.join(words)


class Target:
    """The session an operation works on: ``spec`` is a session name or a ``.toml``
    path (None: the current session, as ``d2d`` without ``--session``), ``seed`` the
    ``--seed``, ``label`` what the journal calls the change (``fate draw 3``)."""

    __slots__ = ("label", "revealed", "seed", "spec")

    def __init__(self, spec: str | None = None, seed: int | None = None,
                 label: str = "") -> None:
        self.spec, self.seed, self.label = spec, seed, label
        self.revealed: list[Card] = []  # the cards the last with_reveals revealed

    def path(self) -> Path:
        """The session file (it may not exist yet)."""
        return session.resolve(self.spec)

    def existing(self) -> Path:
        """The session file of an existing session (a typo is refused with the nearest
        names; nothing is created)."""
        return session.locate(self.spec)[0]

    def read(self) -> dict[str, Any]:
        """The session's data for a lookup (the default session, or a path in an
        existing folder, is created on first use)."""
        return session.lookup(self.spec, seed=self.seed)

    @contextlib.contextmanager
    def edit(self) -> Iterator[session.Transaction]:
        """A locked read-modify-write of the session, journalled under ``label``."""
        where, create = session.locate(self.spec)
        with session.edit(where, self.label, seed=self.seed, create=create) as tx:
            yield tx

    def options(self, data: dict[str, Any]) -> Options:
        """The session's ``[rules]``, parsed and checked (a bad hand edit: exit 3, the
        file and key named, before anything changes)."""
        from d2d_cli.rules.core import options as o

        return o.parse(data.get("rules"), str(self.path()))

    def with_reveals(self, table: list[Card] | None, body: Callable[[Revealer], R],
                     note: Callable[[R, list[Card]], str] | None = None,
                     after: Callable[[R, session.Transaction], None] | None = None
                     ) -> tuple[R, Revealer]:
        """Run ``body(reveal)`` on the Fate deck (saved and journalled) or on the table's
        cards (read only). Returns body's result and the revealer; :attr:`revealed`
        keeps the cards as they were revealed. ``note(result, revealed)``: what the
        journal adds (how a card was read), so the log says what was shown.
        ``after(result, tx)``: a further change in the same transaction (the Fate deck's
        path only; the table's cards change nothing)."""
        if table is not None:
            with reveals(None, table) as reveal:
                out = body(reveal)
            self.revealed = list(reveal.used)
            return out, reveal
        with self.edit() as tx, reveals(tx, None) as reveal:
            out = body(reveal)
            tx.summary = "revealed " + " ".join(x.code for x in reveal.used)
            extra = note(out, reveal.used) if note is not None else ""
            if extra:
                tx.summary += f"; {extra}"
            if after is not None:
                after(out, tx)
        self.revealed = list(reveal.used)
        return out, reveal


def cards(values: list[str] | tuple[str, ...] | None) -> list[Card] | None:
    """Parse cards drawn at the table (``--card``); None when table mode is not used."""
    if not values:
        return None
    return [parse_card(v) for v in values]


# Every card-revealing operation reads either the session's Fate deck or the cards
# drawn at the table: ``reveals`` is the one path. Running out of table cards raises
# ``fate.OutOfCards`` from inside the rule; too many cards is refused when it ends.


@contextlib.contextmanager
def reveals(tx: session.Transaction | None, table: list[Card] | None) -> Iterator[Revealer]:
    """A ``rules.deck.fate.Revealer`` over the session's Fate deck (``tx``), or over the
    ``table`` cards. On a clean exit, leftover table cards are refused and the deck is
    stored with what it revealed (the last reveal)."""
    from d2d_cli.rules.deck import fate

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


def _frozen(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy (the step changes the units in place)."""
    import marshal

    try:
        return dict(marshal.loads(marshal.dumps(state)))
    except ValueError:
        import copy

        return copy.deepcopy(state)


def _put_roster(tx: Any, new: dict[str, Any], pristine: dict[str, Any]) -> None:
    """The roster back into ``[units]``, each unit the step did not change kept as it
    was stored (not as the roster writes it afresh), so the file changes — and the
    journal entry grows — with the change alone (issue 30 item 6: ``unit rm`` on a 10 MB
    session wrote every unit anew, a 21.7 MB entry)."""
    stored = tx.data.get("units")
    if isinstance(stored, dict):
        for name, state in new.items():
            if name in stored and pristine.get(name) == state:
                new[name] = stored[name]
    tx.put("units", new)


def roster_change(t: Target, step: Callable[[dict[str, Unit]], C]) -> C:
    """One change to the roster, saved and journalled under the result's summary. A
    unit's row comes back as the Status Bar shows it (the Move and Action Cost its first
    Refresh gives, before one: ``status_bar.unit_on_bar``)."""
    from d2d_cli.rules.units import roster as units

    with t.edit() as tx:
        roster = units.roster(tx.data)
        pristine = _frozen(units.roster_state(roster))
        result = step(roster)
        _put_roster(tx, units.roster_state(roster), pristine)
        tx.summary = result.summary
        if isinstance(result, units.UnitRow) and type(result) is units.UnitRow:
            from d2d_cli.rules.units import status_bar

            row: C = status_bar.unit_on_bar(  # type: ignore[assignment]  # C is UnitRow
                tx.data, result.name, t.options(tx.data))
            return row
    return result


def in_round(t: Target, step: Callable[[dict[str, Unit], int, str], C]) -> C:
    """One change to the roster that reads the round's number and phase (``[round]``)."""
    from d2d_cli.rules.time.round_state import Round
    from d2d_cli.rules.units import roster as units

    with t.edit() as tx:
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        pristine = _frozen(units.roster_state(roster))
        result = step(roster, rnd.number, rnd.phase)
        _put_roster(tx, units.roster_state(roster), pristine)
        tx.summary = result.summary
    return result
