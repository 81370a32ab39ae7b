"""Transactions: lock, load, let the caller change sections, check and render the new
file (only the tables that changed, :mod:`.text`), then commit it (:mod:`.commit`) —
when the block ends, or when the command has succeeded (:mod:`.scope`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput, NotFound, SessionError, fault
from d2d_cli.rules.core.record import field, record
from d2d_cli.session.boundary import deferred  # noqa: F401 - kept importable from here
from d2d_cli.session.cache import _copy
from d2d_cli.session.names import _exists, _real, display_name
from d2d_cli.session.reads import _load, locked_read, read
from d2d_cli.session.scope import _Pending, _scope, _scope_pending, _State

if TYPE_CHECKING:
    from d2d_cli.session import text as T


@record(frozen=False)
class Transaction:
    """One read-modify-write: plain ``data`` to read, :meth:`put` to change a section."""

    path: Path
    command: str
    seed: int | None
    data: dict[str, Any]
    _old: dict[str, Any]
    summary: str = ""
    changed: set[str] = field(default_factory=set)
    # What the change was, as typed data for the pages that show it (the journal entry's
    # ``rec``, docs/architecture.md "The journal"): the command's words, and what the
    # operation adds (the oracle's question, likelihood and card). Plain JSON values.
    record: dict[str, Any] = field(default_factory=dict)

    def put(self, key: str, value: Any) -> None:
        """Replace top-level section ``key`` with ``value`` (plain data)."""
        self.data[key] = value
        self.changed.add(key)

    def rng(self) -> Any:
        """This command's random source: ``--seed`` if given, else the session's own
        seed and counter, so the file alone determines every future shuffle."""
        meta = dict(self.data.get("meta", {}))
        counter = int(meta.get("rng", 0))
        meta["rng"] = counter + 1
        self.put("meta", meta)
        from d2d_cli.session.fresh import rng_for

        return rng_for(int(meta.get("seed", 0)), self.seed, counter)


def _begin(real: Path, shown: Path, seed: int | None, create: bool,
           stack: contextlib.ExitStack) -> _State:
    """Lock and load the session (or a fresh one, when it may be created)."""
    got = locked_read(real, stack)
    if got is None:
        if not create:
            raise NotFound(f"no session at {shown}")
        from d2d_cli.session.fresh import _fresh

        return _fresh(real, seed)
    like, raw = got
    fault("read")
    loaded = _load(real, raw)
    fault("validated")
    return _State(real, loaded.text, raw, loaded.digest, loaded.data, None, like,
                  twin=loaded.twin, payload=loaded.payload, packed=loaded.root)


def create(path: Path, *, seed: int | None, exist_ok: bool = False) -> dict[str, Any]:
    """Create a session file with a freshly shuffled Fate deck (inside a CLI run: when
    the command succeeds)."""
    real = _real(path)
    if _exists(real) or _scope_pending(real):
        if exist_ok:
            return read(path)
        raise BadInput(f"session {display_name(path)!r} already exists ({path})")
    from d2d_cli.session.commit import settle
    from d2d_cli.session.fresh import _fresh

    state = _fresh(real, seed)
    pending = _Pending(state, state.text, state.data, state.root, "", "")
    scope = _scope()
    settle(pending, scope)
    return state.twin()


@contextlib.contextmanager
def edit(path: Path, command: str, *, seed: int | None = None,
         create: bool = True) -> Iterator[Transaction]:
    """Lock, load, let the caller change sections; then check and render the new file
    and commit it — when the block ends, or (inside a CLI run) when the command has
    succeeded. If the body raises, or nothing was ``put``, nothing is written — and
    neither the text splicer nor the commit is imported (a lookup that locks, issue 40)."""
    real = _real(path)
    scope = _scope()
    if scope is not None:
        scope.claim(real)  # before the lock: a block changes one session file
    with contextlib.ExitStack() as stack:
        before = scope.pending.get(real) if scope is not None else None
        if before is not None:  # a second edit in the same command builds on the first
            state = before.state
            base_text, base_data, base_root = before.new_text, before.new_data, before.new_root
        else:
            state = _begin(real, path, seed, create,
                           scope.locks if scope is not None else stack)
            base_text, base_data, base_root = state.text, state.data, None
        tx = Transaction(path, command, seed, _copy(base_data) if before else base_data,
                         _copy(base_data) if before else state.twin())
        yield tx
        if not tx.changed:
            return
        if before is None:
            base_root = state.grouping()
        new_text, new_data, new_root = _render(real, base_text, base_root, tx)
        if before is not None:
            before.new_text, before.new_data, before.new_root = new_text, new_data, new_root
            before.summary = "; ".join(s for s in (before.summary, tx.summary) if s)
            before.command = before.command or command
            before.record = {**tx.record, **before.record}  # the first call's words win
            before.lookup = False
            return
        if new_text == state.text and not state.creating:
            return
        pending = _Pending(state, new_text, new_data, new_root, command, tx.summary,
                           record=dict(tx.record))
        from d2d_cli.session.commit import settle

        settle(pending, scope)


def _render(real: Path, text: str, root: T.Grouping | None,
            tx: Transaction) -> tuple[str, dict[str, Any], T.Grouping | None]:
    """The new file text and the data it holds; every changed table is checked against
    the declared shape first (a command must never write what d2d cannot read)."""
    from d2d_cli.session import shape
    from d2d_cli.session import text as T

    try:
        shape.check(tx.data, sorted(tx.changed), tx._old)
    except shape.Bad as bad:
        table, key = shape.where_text(bad.where)
        # what a command was asked to write does not fit what d2d reads: the input is
        # refused (a D2DError, exit 2), never an internal error (issue 30 item 1)
        raise BadInput(f"d2d would write [{table}] {key}: {bad.problem}; "
                       "nothing was changed") from None
    try:
        return T.render(text, tx._old, tx.data, tx.changed, root)
    except (ValueError, RecursionError) as e:
        raise SessionError(f"{real}: cannot write this change ({e}); "
                           "nothing was changed") from None

