"""Records: the value types of ``rules/`` (typed results, cards, stats), made cheaply.

``@record`` is a small stand-in for ``@dataclass(frozen=True)``. The standard decorator
writes and ``exec``s the source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` for every class: ~0.4 ms a class at import, and the
rules hold ~190 of them, so a one-shot command paid 5–25 ms of its budget before doing
any work (bench/, docs/architecture.md "Speed"). ``@record`` reads the annotations once
and gives every class the same few generic methods, ~0.01 ms a class. Instances behave as
the frozen dataclasses did: keyword or positional construction in declaration order
(parents' fields first), defaults and ``default_factory``, ``init=False`` fields,
``__post_init__``, ``kw_only``, equality and hashing by value, ``order=True``, a readable
``repr``, assignment refused. ``typing.dataclass_transform`` tells mypy all of this, so
every construction and attribute access is still type-checked.

Field metadata carries the JSON view's options (``json=False``, ``json_name=``): see
:mod:`d2d_cli.rules.core.result`.
"""

from __future__ import annotations

import operator
from collections import namedtuple
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform, overload

__all__ = ["MISSING", "Field", "FrozenError", "TupleRecord", "field", "fields", "record",
           "replace"]

_T = TypeVar("_T")


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenError(AttributeError):
    """Assignment to a field of a frozen record."""


class Field:
    """One field: its name, default, and how ``__init__`` and the JSON view treat it."""

    __slots__ = ("name", "default", "factory", "init", "kw_only", "metadata")

    def __init__(self, default: Any = MISSING, factory: Any = MISSING, init: bool = True,
                 kw_only: bool | None = None, metadata: dict[str, Any] | None = None):
        self.name = ""
        self.default = default
        self.factory = factory
        self.init = init
        self.kw_only = kw_only
        self.metadata: dict[str, Any] = metadata or {}

    def __repr__(self) -> str:
        return f"Field({self.name!r})"


def field(*, default: Any = MISSING, default_factory: Callable[[], Any] | Any = MISSING,
          init: bool = True, kw_only: bool | None = None,
          metadata: dict[str, Any] | None = None) -> Any:
    """A field with options, as ``dataclasses.field``: ``tags: list[str] = field(
    default_factory=list)``."""
    return Field(default, default_factory, init, kw_only, metadata)


def fields(cls_or_obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in ``__init__`` order."""
    found: tuple[Field, ...] = cls_or_obj.__record_fields__
    return found


def replace(obj: _T, **changes: Any) -> _T:
    """A copy of ``obj`` with some fields changed (``dataclasses.replace``). A record
    whose ``__init__`` only stores its fields (every field in the signature, no
    ``__post_init__``) is copied field by field with the changes put in, as its
    ``__init__`` would store them, without the call: the Hits of every ``hit`` take
    their Levels and sources this way (issue 40)."""
    cls: Any = type(obj)
    plain = cls.__dict__.get("__record_plain__")
    if plain is None:
        plain = _plain(cls)
    if plain and plain.issuperset(changes):
        new: _T = object.__new__(cls)
        values = obj.__dict__
        # A table holding its fields and nothing else (no value kept beside them, as a
        # Card keeps its code) is copied whole: ~1.5 k instructions, where a dict made
        # of the fields' names zipped with their values took ~14.6 k for 16 fields
        if len(values) == len(plain) and plain.issuperset(values):
            values = dict(values)
        else:
            values = dict(zip(cls.__record_positional__, cls.__record_values__(values),
                              strict=True))
        values.update(changes)
        object.__setattr__(new, "__dict__", values)  # its own table, as an init's
        return new
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)


def _plain(cls: Any) -> frozenset[str]:
    """The field names of a record class whose ``__init__`` does nothing but store every
    field given (all in the signature, not keyword-only, no ``__post_init__``, two fields
    or more: ``__record_values__`` reads them all), so that :func:`replace` may store
    them itself; empty for any other class (a class not itself a record among them).
    Kept on the class."""
    spec = cls.__dict__.get("__record_fields__")
    names: frozenset[str] = frozenset()
    if spec is not None and not cls.__record_post__ and len(spec) > 1 and all(
            f.init and not f.kw_only for f in spec):
        names = frozenset(f.name for f in spec)
    cls.__record_plain__ = names
    return names


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar", "Final"))


def _collect(cls: type, kw_only: bool) -> tuple[Field, ...]:
    by_name: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            by_name[f.name] = f
    own = cls.__dict__
    # Python 3.14 without the future import: the body's annotations are a function
    # (``__annotate_func__`` in a class's namespace, ``__annotate__`` as PEP 649 names it)
    if "__annotations__" not in own and ("__annotate_func__" in own or "__annotate__" in own):
        raise TypeError(f"{cls.__name__}: a record's module needs 'from __future__ import "
                        "annotations' (its fields are read from the class body's "
                        "annotations; without it, on Python 3.14, they would be lost)")
    for name, annotation in own.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        f.name = name
        if isinstance(f.default, (list, dict, set)):  # shared by every instance: refused
            raise ValueError(f"mutable default {type(f.default).__name__} for field "
                             f"{name!r} of {cls.__name__}: use default_factory")
        if f.kw_only is None:
            f.kw_only = kw_only
        if f.default is MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, f.default)
        by_name[name] = f
    return tuple(by_name.values())


_NAMES_TAKEN = frozenset(("self", "_S", "_D", "_F", "_M"))


def _field_source(f: Any) -> tuple[str | None, str | None]:
    """One field in the ``__init__`` :func:`_specialize` writes: its parameter (None for
    a field not in the signature) and the expression of its value in the instance's
    dict (None: unset)."""
    if not f.init:
        if f.default is not MISSING:
            return None, f"_D[{f.name!r}]"
        if f.factory is not MISSING:
            return None, f"_F[{f.name!r}]()"
        return None, None
    if f.default is not MISSING:
        return f"{f.name}=_D[{f.name!r}]", f.name
    if f.factory is not MISSING:
        return f"{f.name}=_M", f"_F[{f.name!r}]() if {f.name} is _M else {f.name}"
    return f.name, f.name


def _specialize(cls: Any) -> Callable[..., None] | None:
    """An ``__init__`` written out for this class's fields (as ``dataclasses`` writes
    one, but once a class is in use, ``_SPECIALIZE_AFTER``, rather than at import: ~190
    record types stay cheap to define, the ones in use get an init several times faster
    than the generic :func:`_init`). None when the fields cannot make a Python signature (a required
    positional field after a defaulted one): the generic init then stays."""
    spec = cls.__record_fields__
    if any(f.name in _NAMES_TAKEN or not f.name.isidentifier() for f in spec):
        return None
    defaults: dict[str, Any] = {}
    factories: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    seen_default = False
    for f in spec:
        has_default = f.default is not MISSING or f.factory is not MISSING
        if f.default is not MISSING:
            defaults[f.name] = f.default
        if f.factory is not MISSING:
            factories[f.name] = f.factory
        param, value = _field_source(f)
        if param is not None and not f.kw_only:
            if seen_default and not has_default:
                return None
            seen_default = seen_default or has_default
            positional.append(param)
        elif param is not None:
            keyword.append(param)
        if value is not None:
            body.append(f"{f.name!r}: {value}")
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    # The instance's whole table put in place at once, in field order: a table of its own
    # (not the class's shared keys that reading ``self.__dict__`` gives), whose fields
    # Python 3.11 reads by a specialised attribute access — Cards, Sides, Situations are
    # read tens of thousands of times a fight (issue 40)
    text = "def __init__({}):\n    _S(self, '__dict__', {{{}}})\n{}".format(
        params, ", ".join(body),
        "    self.__post_init__()\n" if cls.__record_post__ else "")
    scope: dict[str, Any] = {"_D": defaults, "_F": factories, "_M": MISSING,
                             "_S": object.__setattr__}
    exec(compile(text, f"<record {cls.__qualname__}.__init__>", "exec"), scope)  # noqa: S102
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


# A class's own init is written out (compiled: ~0.17 ms) once the generic one has made
# this many of its instances, each ~1.4 µs slower: a one-shot command makes a handful of
# most of the ~20 record types it uses, and compiled an init for each (~1-2 ms of a
# lookup, issue 40); sim's fights and a long session's units and cards still get theirs.
_SPECIALIZE_AFTER = 32


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    if cls.__dict__.get("__init__") is _init and "__record_fields__" in cls.__dict__:
        made = cls.__dict__.get("__record_made__", 0)
        if made < _SPECIALIZE_AFTER:
            cls.__record_made__ = made + 1
            _generic_init(self, *args, **kwargs)
            return
        fast = _specialize(cls)
        if fast is not None:
            cls.__init__ = fast  # this class only: each record class has its own
            fast(self, *args, **kwargs)
            return
        cls.__init__ = _generic_init
    _generic_init(self, *args, **kwargs)


def _by_name(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The positional arguments of a record's init put with the keyword ones, by name."""
    names: tuple[str, ...] = cls.__record_positional__
    if len(args) > len(names):
        raise TypeError(f"{cls.__name__}() takes {len(names)} positional arguments "
                        f"but {len(args)} were given")
    if not kwargs:
        return dict(zip(names, args, strict=False))
    for name in names[:len(args)]:
        if name in kwargs:
            raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
    kwargs.update(zip(names, args, strict=False))
    return kwargs


def _generic_init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    if args:
        kwargs = _by_name(cls, args, kwargs)
    values: dict[str, Any] = {}  # the instance's own table, as the written init's
    used = 0
    for name, init, default, factory in cls.__record_spec__:
        value = kwargs.get(name, MISSING) if init else MISSING
        if value is not MISSING:
            used += 1
        elif default is not MISSING:
            value = default
        elif factory is not MISSING:
            value = factory()
        elif init:
            raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
        else:
            continue
        values[name] = value
    if used != len(kwargs):
        known = {f.name for f in cls.__record_fields__ if f.init}
        extra = next(k for k in kwargs if k not in known)
        raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {extra!r}")
    object.__setattr__(self, "__dict__", values)
    if cls.__record_post__:
        self.__post_init__()


def _astuple(self: Any) -> tuple[Any, ...]:
    get = self.__record_values__  # compares and hashes every Card, Stat, Placement…
    if get is not None:
        got: tuple[Any, ...] = get(self.__dict__)
        return got
    values = self.__dict__
    return tuple(values[f.name] for f in self.__record_fields__)


def _repr(self: Any) -> str:
    inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.__record_fields__)
    return f"{type(self).__qualname__}({inner})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _astuple(self) == _astuple(other)


def _hash(self: Any) -> int:
    return hash(_astuple(self))


def _eq_hash_of(get: Callable[[dict[str, Any]], tuple[Any, ...]]
                ) -> tuple[Callable[[Any, Any], Any], Callable[[Any], int]]:
    """:func:`_eq` and :func:`_hash` of a class of two fields or more, reading its
    values' tuple in one call (``get``: its ``__record_values__``): a Card keys the odds,
    the policy's hands and every memo of cards, tens of thousands of times a fight."""

    def eq(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return get(self.__dict__) == get(other.__dict__)

    def hash_(self: Any) -> int:
        return hash(get(self.__dict__))

    return eq, hash_


def _kept_hash(self: Any) -> int:
    hashed: int = self._hash  # worked out on the first read, then a look-up in the table
    return hashed


def _state_without_kept_hash(self: Any) -> dict[str, Any]:
    # pickled and copied by its fields only: a hash kept on it belongs to its process
    return {k: v for k, v in self.__dict__.items() if k != "_hash"}


def _keep_hash(cls: Any, hash_: Callable[[Any], int]) -> None:
    """``keep_hash=True``: the record's hash worked out on the first read and kept in the
    instance's table as ``_hash`` (a ``cached_property``: then a plain look-up, not a
    tuple of the fields made and hashed at every call) — for an immutable record a
    fight's memories hash thousands of times (a Card, the ``[rules]`` Options). Not a
    field: equality, repr, ``replace`` and the JSON view read the fields alone; pickles
    and copies leave it behind (a class's own ``__reduce__`` still wins)."""
    from functools import cached_property

    kept = cached_property(hash_)
    kept.__set_name__(cls, "_hash")
    cls._hash = kept
    cls.__hash__ = _kept_hash
    if "__getstate__" not in cls.__dict__:
        cls.__getstate__ = _state_without_kept_hash


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def _compare(op: str) -> Callable[[Any, Any], Any]:
    def compare(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return getattr(_astuple(self), op)(_astuple(other))
    compare.__name__ = op
    return compare


@overload
def record(cls: type[_T], /) -> type[_T]: ...
@overload
def record(*, frozen: bool = True, eq: bool = True, order: bool = False,
           kw_only: bool = False, keep_hash: bool = False
           ) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: Any = None, /, *, frozen: bool = True, eq: bool = True, order: bool = False,
           kw_only: bool = False, keep_hash: bool = False) -> Any:
    """Make ``cls`` a record (see the module's docstring). ``@record`` is frozen;
    ``@record(frozen=False)`` a mutable one; ``eq=False`` keeps identity equality;
    ``keep_hash=True`` (frozen only) keeps each instance's hash once worked out
    (:func:`_keep_hash`)."""
    if keep_hash and not (frozen and eq):
        raise TypeError("keep_hash needs a frozen record with equality")

    def wrap(cls: Any) -> Any:
        all_fields = _collect(cls, kw_only)
        cls.__record_fields__ = all_fields
        cls.__record_positional__ = tuple(f.name for f in all_fields
                                          if f.init and not f.kw_only)
        cls.__record_spec__ = tuple((f.name, f.init, f.default, f.factory) for f in all_fields)
        names = [f.name for f in all_fields]
        # the field values as a tuple, in C (itemgetter of one name gives no tuple)
        cls.__record_values__ = operator.itemgetter(*names) if len(names) > 1 else None
        cls.__record_post__ = hasattr(cls, "__post_init__")
        cls.__init__ = _init
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = _repr
        if eq:
            get = cls.__record_values__
            eq_, hash_ = _eq_hash_of(get) if get is not None else (_eq, _hash)
            cls.__eq__ = eq_
            cls.__hash__ = hash_ if frozen else None
            if keep_hash:
                _keep_hash(cls, hash_)
        if frozen:
            cls.__setattr__ = _frozen_setattr
            cls.__delattr__ = _frozen_delattr
        if order:
            for op in ("__lt__", "__le__", "__gt__", "__ge__"):
                setattr(cls, op, _compare(op))
        return cls

    return wrap if cls is None else wrap(cls)


# --------------------------------------------------------------------------- tuples
# ``class Terms(TupleRecord)`` is ``class Terms(typing.NamedTuple)``, made by
# ``collections.namedtuple``. typing's own class statement checks every annotation at
# import, and an annotation is a string here (``from __future__ import annotations``), which
# it compiles as a ``ForwardRef``: ~0.06 ms a field; the four tuples a conflict of two
# cards imports cost it ~3 M of its 292 M instructions (issue 40 item 3). Nothing here
# reads an annotation at run time; mypy reads the class as the NamedTuple it is.
if TYPE_CHECKING:
    from typing import NamedTuple as TupleRecord
else:
    _KEPT = frozenset(("__module__", "__qualname__", "__annotations__", "__dict__",
                       "__weakref__", "__orig_bases__"))
    # What typing.NamedTuple refuses to let a class body define: the tuple's own machinery.
    _REFUSED = frozenset(("__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                          "_field_defaults", "_make", "_replace", "_asdict", "_source"))

    class _TupleRecordType(type):
        def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
            if not bases:  # TupleRecord itself
                return super().__new__(mcs, name, bases, ns)
            if bases != (TupleRecord,):  # a mixin or Generic would be dropped unseen
                raise TypeError(f"{name}: a TupleRecord has TupleRecord as its one base")
            if "__annotations__" not in ns:  # Python 3.14 without the future import
                raise TypeError(f"{name}: a TupleRecord's module needs "
                                "'from __future__ import annotations' (its fields are read "
                                "from the class body's annotations)")
            names = list(ns["__annotations__"])
            refused = sorted(_REFUSED.intersection(ns))
            if refused:
                raise TypeError(f"{name}: a TupleRecord cannot define {', '.join(refused)}")
            defaults = [ns[n] for n in names if n in ns]
            if any(n not in ns for n in names[len(names) - len(defaults):]):
                raise TypeError(f"{name}: a field without a default follows one with a "
                                "default")
            cls = namedtuple(name, names, defaults=defaults,  # noqa: PYI024
                             module=ns.get("__module__"))
            cls.__qualname__ = ns.get("__qualname__", name)
            for key, value in ns.items():
                if key not in _KEPT and key not in names:
                    setattr(cls, key, value)
            return cls

    class TupleRecord(metaclass=_TupleRecordType):
        """The base of a ``typing.NamedTuple`` made cheaply (see above)."""
