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
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from d2d_cli import session
from d2d_cli.errors import D2DError

if TYPE_CHECKING:
    from d2d_cli.rules.core.options import Options
    from d2d_cli.rules.deck.cards import Card
    from d2d_cli.rules.deck.fate import Revealer
    from d2d_cli.rules.units.roster import Unit

    class _Change(Protocol):
        @property
        def summary(self) -> str: ...

R = TypeVar("R")
P = ParamSpec("P")


C = TypeVar("C", bound="_Change")  # the Protocol is for the type checker: a class made
# at import costs a lookup ~0.1 ms, as the card parser did (imported where a card is read)


# A command whose argument at this index is a card chosen face down (001 l.732): the
# journal, the log, the export and the players' pages never name it.
FACE_DOWN = {"hand choose": 1}


class Label(str):
    """A journal label (``unit place Archer E7 NE``) that keeps what it was built from:
    the command's ``path`` (``unit place``) and its ``words`` as given, which the journal
    entry carries as typed data (``rec``) so a reader never parses the text again."""

    path: str
    words: tuple[str, ...]

    def __new__(cls, text: str, path: str, words: Iterable[str]) -> Label:
        out = super().__new__(cls, text)
        out.path, out.words = path, tuple(words)
        return out


def label(path: str, arguments: Iterable[Any] = (),
          options: Iterable[tuple[str, str | None, Any]] = ()) -> Label:
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
    arguments = list(arguments)
    face_down = FACE_DOWN.get(path)
    if face_down is not None and len(arguments) > face_down:
        del arguments[face_down:]  # the card chosen face down is named nowhere
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
    return Label(shlex.join(words) + (" (a card face down)" if face_down is not None else ""),
                 path, words)


class ReadBeforeLock(AssertionError):
    """A change asked for after the same call read the session without its lock: what it
    would write rests on a state another writer may have changed meanwhile (docs/
    architecture.md "One unit of work"). A bug in an operation, never the user's."""


class Target:
    """The session an operation works on: ``spec`` is a session name or a ``.toml``
    path (None: the current session, as ``d2d`` without ``--session``), ``seed`` the
    ``--seed``, ``label`` what the journal calls the change (``fate draw 3``), or a
    function that builds it, called the first time it is read: a lookup, which
    journals nothing, never builds it (``shlex`` and the words; issue 40 item 3);
    ``create``: whether a missing default session (or ``.toml`` path) may be created
    (False for ``d2d serve``: a page never makes a session).

    A lookup reads without the lock (:meth:`read`); a change takes the lock first and
    reads only inside it (:meth:`edit`, SQLite's BEGIN IMMEDIATE). So a target that has
    read without the lock cannot then change the session: :meth:`edit` raises
    :class:`ReadBeforeLock` (the suite trips on an operation that would)."""

    __slots__ = ("_label", "_locked", "_looked", "create", "seed", "spec")

    def __init__(self, spec: str | None = None, seed: int | None = None,
                 label: str | Callable[[], str] = "", *, create: bool = True) -> None:
        self.spec, self.seed, self._label, self.create = spec, seed, label, create
        self._looked = False  # read without the lock
        self._locked = False  # took the lock (its reads since are the locked state's)

    @property
    def label(self) -> str:
        """What the journal calls the change, built on first reading if need be."""
        if not isinstance(self._label, str):
            self._label = self._label()
        return self._label

    def peek(self) -> Target:
        """Another target on the same session, with the same label (not yet built) and
        nothing read: one that may read without the lock while this one may still take
        it."""
        return Target(self.spec, self.seed, self._label, create=self.create)

    def path(self) -> Path:
        """The session file (it may not exist yet)."""
        return session.resolve(self.spec)

    def existing(self) -> Path:
        """The session file of an existing session (a typo is refused with the nearest
        names; nothing is created)."""
        return session.locate(self.spec)[0]

    def read(self, *, shared: bool = False) -> dict[str, Any]:
        """The session's data for a lookup (the default session, or a path in an
        existing folder, is created on first use unless :attr:`create` is False:
        ``session.lookup`` decides). ``shared``: for an operation that never changes
        what it is given — inside ``d2d play`` the same object as the shell's status
        line read from the same bytes, not unmarshalled again (``session.read``)."""
        if not self._locked:
            self._looked = True
        if self.create:
            return session.lookup(self.spec, seed=self.seed, shared=shared)
        return session.read(session.locate(self.spec)[0], seed=self.seed, shared=shared)

    @contextlib.contextmanager
    def edit(self) -> Iterator[session.Transaction]:
        """A locked read-modify-write of the session, journalled under ``label``: the
        lock is taken before anything is read (``tx.data`` is the locked state)."""
        if self._looked:
            raise ReadBeforeLock(
                f"{self.label or 'this call'}: the session was read without its lock "
                "before this change; read tx.data inside the edit instead")
        where, create = session.locate(self.spec)
        self._locked = True
        refusal = _read_only(where)
        if refusal is not None:  # it can change nothing: what it reads, it may only show
            data = session.read(where, seed=self.seed, create=False)
            tx = session.Transaction(where, self.label, self.seed, _frozen(data), data)
            yield tx
            if tx.changed:  # refused as the edit refuses it (its words), nothing written
                with session.edit(where, self.label, seed=self.seed, create=False):
                    pass
                raise refusal
            return
        create = create and self.create
        with session.edit(where, self.label, seed=self.seed, create=create) as tx:
            if isinstance(self.label, Label):  # the words as given, for the pages
                tx.record.update(path=self.label.path, words=list(self.label.words))
            yield tx
        if create and not tx.changed:  # changed nothing: a new session as a lookup makes it
            session.read(where, seed=self.seed, create=True)

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
        cards (read only). Returns body's result and the revealer (``reveal.used``: the
        cards as they were revealed). ``note(result, revealed)``: what the journal adds
        (how a card was read), so the log says what was shown. ``after(result, tx)``: a
        further change in the same transaction (the Fate deck's path only; the table's
        cards change nothing)."""
        if table is not None:
            with reveals(None, table) as reveal:
                out = body(reveal)
            return out, reveal
        with self.edit() as tx, reveals(tx, None) as reveal:
            out = body(reveal)
            tx.summary = "revealed " + " ".join(x.code for x in reveal.used)
            extra = note(out, reveal.used) if note is not None else ""
            if extra:
                tx.summary += f"; {extra}"
            if after is not None:
                after(out, tx)
        return out, reveal


@contextlib.contextmanager
def unit_of_work(*, join: bool = True) -> Iterator[session.Scope | None]:
    """One call's scope — the one place the CLI, the Python API and ``d2d serve`` open
    it: the changes made inside wait, their lock held, and are written only when the
    front end calls ``scope.commit()`` (the CLI: after the command's output has been
    rendered); anything else drops them. With ``join`` (a script's call, a page's),
    inside a scope this thread already has open (a ``with Session(...)`` block) it
    yields None: the call joins that scope, which commits or drops it. Without (a
    command line, a ``with Session(...)`` block) it always opens its own: the tour's
    commands, run inside a command, commit on their own."""
    if join and session.scope_open():
        yield None
        return
    with session.deferred() as scope:
        yield scope


def call(op: Callable[Concatenate[Target, P], R], target: Target, /,
         *args: P.args, **kwargs: P.kwargs) -> R:
    """Run one operation as one unit of work (:func:`unit_of_work`): its change — a
    session a lookup creates included — is written only if the whole call succeeds.
    ``op`` and ``target`` are positional only: an operation's own ``target=`` (``crit``)
    passes through."""
    with unit_of_work() as scope:
        out = op(target, *args, **kwargs)
        if scope is not None:
            scope.commit()
    return out


def _read_only(where: Path) -> D2DError | None:
    """The refusal a change to a read-only session file gets (None: it may be written).
    A change that ends up writing nothing (a conflict on the table's cards with no
    exchange to keep) still works on such a file, as the lookup it then is."""
    import os
    import stat

    try:
        st = os.stat(where)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None  # not a session file at all: the edit says so
    try:
        session.check_writable(where, st)
    except D2DError as refused:
        return refused
    return None


def cards(values: list[str] | tuple[str, ...] | None) -> list[Card] | None:
    """Parse cards drawn at the table (``--card``); None when table mode is not used."""
    if not values:
        return None
    from d2d_cli.rules.deck.cards import parse_card

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


def _put_roster(tx: Any, roster: dict[str, Unit]) -> None:
    """The roster back into ``[units]``, each unit the step did not change kept as it
    was stored (not as the roster writes it afresh), so the file changes — and the
    journal entry grows — with the change alone (issue 30 item 6: ``unit rm`` on a 10 MB
    session wrote every unit anew, a 21.7 MB entry). A unit is unchanged when it writes
    its stored table, or what that table writes afresh (the step changes Units built
    from the tables, never the tables): only a unit whose table differs is read again,
    where a copy of every unit's table was made before the step (issue 40: ~1.3 ms of a
    change inside ``d2d play`` on 100 units)."""
    from d2d_cli.rules.units.roster import Unit, roster_state

    new = roster_state(roster)
    stored = tx.data.get("units")
    if isinstance(stored, dict):
        for name, state in new.items():
            old = stored.get(name)
            if old is not None and (state == old or (
                    isinstance(old, dict) and Unit.from_state(name, old).to_state() == state)):
                new[name] = old
    tx.put("units", new)


def on_the_bar(read: Callable[[Any], R]) -> R:
    """``read(known)`` with the Status Bar's memo (``status_bar.on_the_bar``'s
    ``known``: the Move before a unit's first Refresh, worked out once a build and kept
    by ``session.memo``), what it added kept for the next process. ``status``,
    ``unit list`` and ``unit show`` read through it."""
    from d2d_cli.rules.units.status_bar import MEMO

    got = read(session.memo(MEMO))
    session.keep_memo(MEMO)
    return got


def roster_change(t: Target, step: Callable[[dict[str, Unit]], C]) -> C:
    """One change to the roster, saved and journalled under the result's summary. A
    unit's row comes back as the Status Bar shows it (the Move and Action Cost its first
    Refresh gives, before one: ``status_bar.unit_on_bar``)."""
    return roster_change_reading(t, lambda roster, _data: step(roster))


def roster_change_reading(t: Target,
                          step: Callable[[dict[str, Unit], dict[str, Any]], C]) -> C:
    """:func:`roster_change` whose step also reads the session (``[rules]``, the map):
    the data it gets is the locked state's, the one the change is written over."""
    from d2d_cli.rules.units import roster as units

    with t.edit() as tx:
        roster = units.roster(tx.data)
        result = step(roster, tx.data)
        _put_roster(tx, roster)
        tx.summary = result.summary
        if isinstance(result, units.UnitRow) and type(result) is units.UnitRow:
            from d2d_cli.rules.units import status_bar

            row: C = status_bar.unit_on_bar(  # type: ignore[assignment]  # C is UnitRow
                tx.data, result.name, t.options(tx.data))
            return row
    return result


def in_round(t: Target, step: Callable[[dict[str, Unit], int, str], C]) -> C:
    """One change to the roster that reads the round's number and phase (``[round]``)."""
    return in_round_reading(t, lambda roster, n, phase, _data: step(roster, n, phase))


def in_round_reading(t: Target,
                     step: Callable[[dict[str, Unit], int, str, dict[str, Any]], C]) -> C:
    """:func:`in_round` whose step also reads the session (``[rules]``, the map): the
    data it gets is the locked state's, the one the change is written over."""
    from d2d_cli.rules.time.round_state import Round
    from d2d_cli.rules.units import roster as units

    with t.edit() as tx:
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        result = step(roster, rnd.number, rnd.phase, tx.data)
        _put_roster(tx, roster)
        tx.summary = result.summary
    return result
