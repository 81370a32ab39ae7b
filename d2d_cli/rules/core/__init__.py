"""The rules' machinery, no chapter of its own: the cheap value types every result is made of
(``record``), typed results and their JSON (``result``), the session's ``[rules]`` options —
the "à la carte rules" of 001's Features (``options``) — and exact probabilities
(``probability``). Here itself, as every rules module already imports this package (so a
one-shot loads no module more for them): a module a hot function reads, imported the first
time it is read (:func:`lazy_module`), a value worked out once for the very object read
(:func:`by_identity`), a number for each key (:class:`Numbering`), and a regular
expression compiled when first used (:func:`compiled_on_first_use`).

A function-level ``from d2d_cli.x import y`` keeps a one-shot's start-up lean (the module
is imported only by the calls that need it), but the statement runs at every call: in
CPython 3.11 each costs about 1 µs (the import machinery's look-ups, and for a package's
submodule ``_handle_fromlist`` in Python), and a simulated fight ran ~500 of them a fight
(issue 40). :func:`lazy_module` gives the same laziness at the cost of a global's look-up:

    if TYPE_CHECKING:  # what the type checker and import-linter read
        from d2d_cli.rules.units import effects as _effects
    else:
        _effects = lazy_module("d2d_cli.rules.units.effects", globals(), "_effects")

The first attribute read imports the module and puts it in the importing module's global
in place of the stand-in, so every later read is the module's own (no further call).
Import it only under the ``TYPE_CHECKING`` guard as above: grimp (import-linter) still
sees the import, and the type checker reads the real module.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar

_In = TypeVar("_In")
_Out = TypeVar("_Out")


class _Lazy:
    __slots__ = ("_name", "_scope", "_bound")

    def __init__(self, name: str, scope: dict[str, Any], bound: str) -> None:
        self._name = name
        self._scope = scope
        self._bound = bound

    def __getattr__(self, attr: str) -> Any:
        # the import statement's own path (``-X importtime`` reports it; importlib's
        # import_module would import unreported)
        __import__(self._name)
        module = sys.modules[self._name]
        if self._scope.get(self._bound) is self:
            self._scope[self._bound] = module  # the stand-in is read no more
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported when first read>"


def lazy_module(name: str, scope: dict[str, Any], bound: str) -> Any:
    """A stand-in for the module ``name`` bound to ``scope[bound]`` (the importing
    module's ``globals()``): its first attribute read imports the module and binds it
    there instead."""
    return _Lazy(name, scope, bound)


def by_identity(compute: Callable[[_In], _Out], limit: int) -> Callable[[_In], _Out]:
    """``compute(obj)``, remembered for the very object read (not for an equal one), for
    values a fight never changes in place: a changed unit is stored as a new table, a
    Stat is immutable. The object is held beside its value, so its ``id`` is never
    another's while remembered; past ``limit`` objects the memory is emptied and
    refilled. Cheaper than a hash of the object where ``compute`` writes out nested text
    (a weapons table's ``repr``) or is asked thousands of times a fight (a stat's text)."""
    seen: dict[int, tuple[_In, _Out]] = {}

    def remembered(obj: _In) -> _Out:
        got = seen.get(id(obj))
        if got is not None and got[0] is obj:
            return got[1]
        value = compute(obj)
        if len(seen) >= limit:
            seen.clear()
        seen[id(obj)] = (obj, value)
        return value

    return remembered


class Numbering(dict[Hashable, int]):
    """A number for each key: equal keys get the same number, and a number is never
    given to another key — past ``limit`` keys the table is emptied and the numbering
    goes on, so a key seen again after that gets a new number (a miss for a memory keyed
    by it, never a wrong answer). A unit's reading of many fields, hashed and compared
    once when first seen, is then one small int for every memory keyed by it (the
    simulated fight's assessments and the policy's Levels, remembered for each table by
    :func:`by_identity`).

    The table is the instance itself, a dict: a key's number is looked up in C (calling
    the Numbering is ``dict.__getitem__``) and only a key not yet numbered runs Python
    (``__missing__``) — ~80 calls a fight, each ~0.7 k instructions less than a method's
    frame (issue 40). Read it only by calling it."""

    __slots__ = ("_next", "_limit")

    def __init__(self, limit: int) -> None:
        super().__init__()
        self._next = itertools.count()
        self._limit = limit

    if TYPE_CHECKING:
        def __call__(self, key: Hashable) -> int: ...
    else:
        __call__ = dict.__getitem__

    def __missing__(self, key: Hashable) -> int:
        """A key not numbered yet: the next number (the table emptied first past
        ``limit``)."""
        if len(self) >= self._limit:
            self.clear()
        number = self[key] = next(self._next)
        return number

    def forget(self) -> None:
        """Empty the table, as reaching ``limit`` does (the numbering goes on)."""
        self.clear()


def compiled_on_first_use(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """``re.compile(pattern, flags)``, made by the first call and the same object after
    (``functools.cache``: ``cache_clear`` and ``cache_info`` as usual): a pattern of
    non-ASCII ranges takes ~0.1–0.4 ms to compile, which a module would otherwise pay at
    every command's start whether the command needs it or not (issue 40)."""

    @functools.cache
    def compiled() -> re.Pattern[str]:
        return re.compile(pattern, flags)

    return compiled
