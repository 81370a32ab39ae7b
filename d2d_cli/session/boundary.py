"""A command's scope (:func:`deferred`, opened by every CLI command, script call and page
through ``operations.unit_of_work``), apart from the writing it may lead to: a lookup's
scope holds no change, so opening and closing it imports neither the commit nor the
text splicer, the journal's writer or the lock (issue 40 item 3: ~4 ms of every
lookup's start). The commit is imported when a scope has a change to commit."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from d2d_cli.session.scope import Scope, _stack

if TYPE_CHECKING:
    from d2d_cli.session.scope import _Pending


def _commit(p: _Pending) -> None:
    """The commit of one pending change, imported on first use."""
    from d2d_cli.session.commit import _commit as commit

    commit(p)


@contextlib.contextmanager
def deferred() -> Iterator[Scope]:
    """Changes made inside wait for ``scope.commit()``; nested scopes (the tour runs
    commands inside a command) are separate. The scope is this thread's only: a call
    from another thread does not join it."""
    scope = Scope(_commit)
    scopes = _stack()  # the opening thread's, even if another thread ends the scope
    scopes.append(scope)
    try:
        yield scope
    finally:
        scopes.remove(scope)
        scope.close()
