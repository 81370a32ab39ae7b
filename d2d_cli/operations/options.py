"""Options declared once (the pattern of pdm's ``cli/options.py``: options as objects):
a block of options several commands share — their names, types, defaults and order —
is one :class:`Declared`. An operation takes the block as ``**kwargs`` (typed by the
block's TypedDict) and :meth:`Declared.into` shows the options in its signature by
name, in the command's place for them; the commands get the same block with each
one's ``--option`` (commands/_situation.py ``declared``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_type_hints

F = TypeVar("F", bound=Callable[..., Any])


class Declared:
    """A block of options: ``declared`` a TypedDict (names and types, in order),
    ``defaults`` what each is when not given (None otherwise)."""

    def __init__(self, declared: type, defaults: Mapping[str, Any] | None = None) -> None:
        self.declared = declared
        self.names: tuple[str, ...] = tuple(declared.__annotations__)
        self.defaults = {n: None for n in self.names} | dict(defaults or {})
        self._hints: dict[str, Any] | None = None

    def parameters(self, kind: inspect._ParameterKind = inspect.Parameter.KEYWORD_ONLY
                   ) -> list[inspect.Parameter]:
        """The options as signature parameters. The block's types are evaluated once
        (each operation and command that takes the block asks: conflict, hit, crit)."""
        if self._hints is None:
            self._hints = get_type_hints(self.declared)
        hints = self._hints
        return [inspect.Parameter(n, kind, default=self.defaults[n], annotation=hints[n])
                for n in self.names]

    def given(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Every option of the block: the value given, else its default."""
        unknown = set(values) - set(self.names)
        if unknown:
            raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return {n: values.get(n, self.defaults[n]) for n in self.names}

    def into(self, before: str | None,
             after: dict[str, str] | None = None) -> Callable[[F], F]:
        """An operation taking the block as ``**kwargs``: its signature shows the
        options by name, before the parameter ``before`` (``after``: see
        :func:`spliced`), as the command lists them."""
        def mark(fn: F) -> F:
            fn.__signature__ = spliced(  # type: ignore[attr-defined]
                inspect.signature(fn), self.parameters(), before, after)
            return fn
        return mark


def spliced(sig: inspect.Signature, block: list[inspect.Parameter], before: str | None,
            after: dict[str, str] | None = None) -> inspect.Signature:
    """A signature with ``block`` in the place of its ``**kwargs``, before the parameter
    ``before`` (None: last; the commands' order of options); ``after`` moves a parameter of the
    command's own among them (``{"obstacle": "cover"}``: ``--obstacle`` follows
    ``--cover``, the option it goes with)."""
    params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
    at = [p.name for p in params].index(before) if before is not None else len(params)
    order = [*params[:at], *block, *params[at:]]
    for name, anchor in (after or {}).items():
        moved = next(p for p in order if p.name == name)
        order.remove(moved)
        order.insert([p.name for p in order].index(anchor) + 1, moved)
    return sig.replace(parameters=order)
