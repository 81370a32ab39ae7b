"""Typed results: what every rules function hands back to a command.

A result is a frozen record (:func:`d2d_cli.rules.core.record.record`, a cheap stand-in for
``@dataclass(frozen=True)``) that subclasses :class:`Result`. Its JSON view (the
``result`` of DESIGN.md's envelope) is derived in one place, :func:`to_json`: the
fields in declaration order, each converted recursively. So the JSON keys are the
field names, mypy checks every access to them, and a human view reads attributes
(``r.hits``), never string keys.

Conversion rules, in order: a ``Result`` → its fields; anything with ``to_json()``
(``Card``, ``Stat``) → that; a ``Fraction`` → ``"num/den"``; a tuple or list → a list;
a dict → a dict with the same keys; everything else as it is. A field whose metadata
holds ``json=False`` stays out of the JSON view (derived values a human view wants);
``json_name=`` renames a key that is not a valid identifier.
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

from d2d_cli.rules.core.record import MISSING, field, fields


class Result:
    """Base of every typed result. Subclasses are ``@record`` classes."""

    __slots__ = ()
    # Per class: (field name, JSON key) pairs, worked out once.
    _json_fields: ClassVar[tuple[tuple[str, str], ...] | None] = None

    def to_json(self) -> dict[str, Any]:
        return _result_json(self)


def hidden(default: Any = MISSING) -> Any:
    """A field kept out of the JSON view: ``extra: int = hidden(0)``."""
    return field(default=default, metadata={"json": False})


def renamed(key: str, default: Any = MISSING) -> Any:
    """A field whose JSON key is not its Python name (``from`` → ``from_``)."""
    return field(default=default, metadata={"json_name": key})


def _fields(cls: type[Result]) -> tuple[tuple[str, str], ...]:
    cached = cls.__dict__.get("_json_fields")
    if cached is None:
        cached = tuple(
            (f.name, f.metadata.get("json_name", f.name))
            for f in fields(cls)
            if f.metadata.get("json", True)
        )
        cls._json_fields = cached
    return cached

# Values that are their own JSON view, by exact type: a dict or list of them is copied
# without a call per item (status --json of 1,000 units holds ~37,000 values).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def to_json(value: Any) -> Any:
    """The JSON view of a result (or of any value a result holds)."""
    t = type(value)
    if t in _PLAIN:
        return value
    if t is dict:
        return {k: v if type(v) in _PLAIN else to_json(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [v if type(v) in _PLAIN else to_json(v) for v in value]
    if isinstance(value, Result):
        return _result_json(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    fractions = sys.modules.get("fractions")  # no Fraction can exist before it is imported
    if fractions is not None and isinstance(value, fractions.Fraction):
        return f"{value.numerator}/{value.denominator}"
    convert = getattr(value, "to_json", None)
    if callable(convert):
        return convert()
    raise TypeError(f"no JSON view for {type(value).__name__}")


# Per class: its JSON keys and one getter of all their values (``operator.attrgetter``
# of the field names: one call in C, not a getattr a field — status --json of 1,000
# units reads ~35,000 fields).
_PLANS: dict[type, tuple[tuple[str, ...], Any]] = {}


def _plan(cls: type[Result]) -> tuple[tuple[str, ...], Any]:
    from operator import attrgetter

    pairs = _fields(cls)
    names = tuple(name for name, _ in pairs)
    if len(names) == 1:
        one = attrgetter(names[0])
        get: Any = lambda value: (one(value),)  # noqa: E731
    else:
        get = attrgetter(*names) if names else (lambda value: ())
    plan = _PLANS[cls] = (tuple(key for _, key in pairs), get)
    return plan


def json_default(value: Any) -> Any:
    """A value's JSON view one level deep, for an encoder that walks dicts, lists and
    tuples itself (``json.dumps(..., default=json_default)``) and calls this only for
    what it cannot encode: a ``Result`` gives its fields' values as they are (the
    encoder comes back here for the Results, Stats and Cards they hold), anything else
    :func:`to_json`'s view. ``json.dumps(v, default=json_default)`` is the text of
    ``json.dumps(to_json(v))`` without the converted copy built first (issue 40:
    ``status --json`` of 1,000 units walked its ~37,000 values twice)."""
    if isinstance(value, Result):
        keys, get = _PLANS.get(type(value)) or _plan(type(value))
        return dict(zip(keys, get(value), strict=True))
    return to_json(value)


def _result_json(value: Result) -> dict[str, Any]:
    t = type(value)
    keys, get = _PLANS.get(t) or _plan(t)
    out = dict(zip(keys, get(value), strict=True))
    plain = _PLAIN
    for key, v in out.items():  # values replaced in place: the keys stay as they are
        t = type(v)
        if t in plain:
            continue
        # to_json's first cases, without a call: a row's tuples and dicts of plain values
        if t is tuple or t is list:
            out[key] = [x if type(x) in plain else to_json(x) for x in v] if v else []
        elif t is dict:
            out[key] = {k: x if type(x) in plain else to_json(x) for k, x in v.items()}
        else:
            out[key] = to_json(v)
    return out
