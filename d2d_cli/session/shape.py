"""The one declared shape of a session file: every table and key d2d stores, and the
type and range of each (docs/architecture.md "The session file").

:func:`check` runs on every read of a file d2d did not write itself (a file d2d wrote
is known by its digest, see ``session.cache``) and on every table a command changes
before it is written. A file that does not fit is refused with exit 3 naming the
file, the table and the key, and is left exactly as it is.

Unknown top-level tables (a table's own notes) and unknown keys in a unit (features
keep their own records there) are allowed; known keys must have their shape. The
``[rules]`` table must be a table; its keys are checked by the one options module
(``rules.core.options.problems``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

MAX_INT = 10**9  # far past any count the rules use; keeps TOML's 64-bit integers safe
MAX_TEXT = 10_000
MAX_ITEMS = 100_000

Check = Callable[[Any, tuple[Any, ...]], None]


class Bad(Exception):
    """Where (the path of keys) and what is wrong."""

    def __init__(self, where: tuple[Any, ...], problem: str) -> None:
        super().__init__(problem)
        self.where = where
        self.problem = problem


def _show(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else type(value).__name__
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int | float):
        text = repr(value)
    elif isinstance(value, dict):
        text = "a table"
    elif isinstance(value, list):
        text = "a list"
    return text if len(text) <= 40 else text[:37] + "..."


def Int(lo: int = -MAX_INT, hi: int = MAX_INT) -> Check:  # noqa: N802 - reads as a type
    def check(v: Any, where: tuple[Any, ...]) -> None:
        if type(v) is not int:
            raise Bad(where, f"expected a whole number, found {_show(v)}")
        if not lo <= v <= hi:
            raise Bad(where, f"{v} is out of range ({lo} to {hi})")
    return check


def Str(max_len: int = MAX_TEXT) -> Check:  # noqa: N802
    def check(v: Any, where: tuple[Any, ...]) -> None:
        if type(v) is not str:
            raise Bad(where, f"expected text, found {_show(v)}")
        if len(v) > max_len:
            raise Bad(where, f"text longer than {max_len} characters")
    return check


def Bool(v: Any, where: tuple[Any, ...]) -> None:  # noqa: N802
    if type(v) is not bool:
        raise Bad(where, f"expected true or false, found {_show(v)}")


def Any_(v: Any, where: tuple[Any, ...]) -> None:  # noqa: N802
    return None


def Choice(*allowed: str) -> Check:  # noqa: N802
    def check(v: Any, where: tuple[Any, ...]) -> None:
        if v not in allowed or type(v) is not str:
            raise Bad(where, f"expected one of {', '.join(allowed)}, found {_show(v)}")
    return check


def ListOf(item: Check, max_items: int = MAX_ITEMS) -> Check:  # noqa: N802
    def check(v: Any, where: tuple[Any, ...]) -> None:
        if type(v) is not list:
            raise Bad(where, f"expected a list, found {_show(v)}")
        if len(v) > max_items:
            raise Bad(where, f"more than {max_items} items")
        for i, x in enumerate(v):
            item(x, (*where, i))
    return check


class MapOf:
    """A table of named entries (units, tasks…), each of one shape."""

    def __init__(self, value: Check, key: Check | None = None,
                 max_items: int = MAX_ITEMS) -> None:
        self.value, self.key, self.max_items = value, key, max_items

    def __call__(self, v: Any, where: tuple[Any, ...], old: Any = None) -> None:
        if type(v) is not dict:
            raise Bad(where, f"expected a table, found {_show(v)}")
        if len(v) > self.max_items:
            raise Bad(where, f"more than {self.max_items} entries")
        same = old if type(old) is dict else {}
        for k, x in v.items():
            if k in same and same[k] == x:
                continue  # checked when it was read: only what a command changed
            if self.key is not None:
                self.key(k, (*where, k))
            self.value(x, (*where, k))


def Table(fields: dict[str, Check], required: Iterable[str] = (),  # noqa: N802
          after: Callable[[dict[str, Any], tuple[Any, ...]], None] | None = None) -> Check:
    need = tuple(required)

    def check(v: Any, where: tuple[Any, ...]) -> None:
        if type(v) is not dict:
            raise Bad(where, f"expected a table, found {_show(v)}")
        for k in need:
            if k not in v:
                raise Bad((*where, k), "missing")
        for k, x in v.items():
            f = fields.get(k)
            if f is not None:
                f(x, (*where, k))
        if after is not None:
            after(v, where)
    return check


# --------------------------------------------------------------------------- values


@lru_cache(maxsize=4096)
def _stat_problem(text: str) -> str | None:
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.scale.stats import check_stat_range, parse_stat

    try:
        check_stat_range(parse_stat(text))
    except D2DError as e:
        return e.message
    return None


def Stat(v: Any, where: tuple[Any, ...]) -> None:  # noqa: N802
    if type(v) is not str:
        raise Bad(where, f"expected a stat like \"8x1\", found {_show(v)}")
    problem = _stat_problem(v)
    if problem is not None:
        raise Bad(where, problem)


_CARD_RE = re.compile(r"^(?:(?:A|[2-9]|10|J|Q|K)[CDHS]|[BR]W)[\^v]$")


@lru_cache(maxsize=512)
def _card_face(text: str) -> str | None:
    if _CARD_RE.match(text):
        return text[:-1]
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.deck.cards import parse_card

    try:
        return parse_card(text).face
    except D2DError:
        return None


def Card(v: Any, where: tuple[Any, ...]) -> None:  # noqa: N802
    if type(v) is not str or _card_face(v) is None:
        raise Bad(where, f"expected a card like \"QH^\", found {_show(v)}")


def _deck_whole(v: dict[str, Any], where: tuple[Any, ...]) -> None:
    from d2d_cli.rules.deck.cards import full_deck

    faces = sorted(str(_card_face(c)) for k in ("draw", "discard") for c in v.get(k, []))
    want = sorted(c.face for c in full_deck())
    if faces != want:
        held = set(faces)
        twice = sorted({f for f in faces if faces.count(f) > 1})
        missing = [f for f in want if f not in held]
        what = (f"{', '.join(twice)} twice" if twice else "") + (
            ("; " if twice else "") + f"{', '.join(missing[:6])} missing" if missing else "")
        raise Bad((*where, "draw"), "the Fate deck's draw and discard piles must hold the 54 "
                  f"cards exactly once ({what or 'extra cards'}) — or run d2d fate shuffle "
                  "--reset after removing the [fate] table")


def _task_tokens(v: dict[str, Any], where: tuple[Any, ...]) -> None:
    # Challenge never grows past the Difficulty. Progress may, under [rules] task_win =
    # "000" (a win moves tokens from Challenge to Progress), but only by the tokens
    # moved: never past twice the Difficulty.
    if v["challenge"] > v["difficulty"]:
        raise Bad((*where, "challenge"),
                  f"{v['challenge']} is more than the Difficulty ({v['difficulty']})")
    if v["progress"] > 2 * v["difficulty"]:
        raise Bad((*where, "progress"),
                  f"{v['progress']} is more than twice the Difficulty ({v['difficulty']})")


def _unit_name(k: Any, where: tuple[Any, ...]) -> None:
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.units.roster import check_unit_name

    try:
        check_unit_name(k)
    except D2DError as e:
        raise Bad(where, e.message) from None


def _rules(v: Any, where: tuple[Any, ...]) -> None:
    if type(v) is not dict:
        raise Bad(where, f"expected a table of rule choices, found {_show(v)}")
    from d2d_cli.rules.core.options import problems

    for key, problem in problems(v):
        raise Bad((*where, key), problem)


def _board(v: Any, where: tuple[Any, ...]) -> None:
    """The map (rules.board.grid.parse_board's own checks, which name row and column)."""
    if v == {}:
        return
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.board.grid import parse_board

    try:
        parse_board(v)
    except D2DError as e:
        raise Bad(where, e.message) from None


def _map_key(v: Any, where: tuple[Any, ...]) -> None:
    from d2d_cli import tables

    maps = list(tables.load("maps"))  # the map types (rules.scale.quantities.map_types), read light
    if type(v) is not str or v not in maps:
        raise Bad(where, f"expected a map type ({', '.join(maps)}), found {_show(v)}")


_NAME = Str(40)
_COUNT = Int(0, MAX_INT)

UNIT = Table({
    "kind": Choice("unit", "character"),
    "body": Stat, "mind": Stat, "will": Stat, "speed": Stat,
    "faction": _NAME,
    "skills": MapOf(Int(0, 99), Str(100)),
    "conditions": MapOf(Int(0, MAX_INT), Str(100)),
    "target": _NAME,
    "move": _COUNT, "action_cost": _COUNT, "turn": _COUNT,
    "crits": ListOf(Table({"card": Str(100), "deck": Str(100), "location": Str(100),
                           "severity": Str(100), "mortal_wound": Bool})),
    "archetype": Str(100), "template": Str(100),
    "conception": MapOf(Str()),
    "cp": Int(0, 1_000_000), "sp": Int(0, 1_000_000), "ap": Int(0, 1_000_000),
    "abilities": ListOf(Str(200)), "cooldown": ListOf(Str(200)),
    "space": Str(10), "double": Bool,
})

SHAPE: dict[str, Check] = {
    "schema": Int(1, 10**6),
    "meta": Table({"created": Str(100), "seed": Int(0, 2**63 - 1), "rng": Int(0, 2**63 - 1)}),
    "rules": _rules,
    "fate": Table({"draw": ListOf(Card, 54), "discard": ListOf(Card, 54),
                   "last": ListOf(Card, 1000), "shuffles": Int(1, MAX_INT)},
                  after=_deck_whole),
    "damage": MapOf(MapOf(Table({"draw": ListOf(Str(100)), "discard": ListOf(Str(100))}))),
    "units": MapOf(UNIT, _unit_name),
    "tasks": MapOf(Table({"difficulty": Int(1, 100), "challenge": Int(0, 100),
                          "progress": Int(0, 100), "workers": ListOf(_NAME)},
                         required=("difficulty", "challenge", "progress"),
                         after=_task_tokens), Str(40)),
    "clock": Table({
        "value": Int(-1000, 1000), "down": Bool,
        "timed": ListOf(Table({"at": Int(-1000, 1000), "text": Str(200), "done": Bool,
                               "unit": _NAME}, required=("at", "text", "done"))),
        "random": ListOf(Table({"text": Str(200), "k": Int(1, 1000), "n": Int(2, 1000),
                                "repeat": Bool, "done": Bool},
                               required=("text", "k", "n", "repeat", "done"))),
    }),
    "round": Table({"number": Int(0, MAX_INT), "phase": Choice("none", "started", "ended")}),
    "board": _board,
    "scene": Table({"name": Str(200), "map": _map_key, "backstory": Str(),
                    "factions": MapOf(Table({"goal": Str(), "players": ListOf(Str(100))})),
                    "reserves": MapOf(UNIT, _unit_name)}),
    "weather": Table({"direction": Str(10), "speed_kph": Int(0, 10_000), "beaufort": Str(100),
                      "beaufort_number": Int(0, 100), "speed_stat": Stat,
                      "cards": ListOf(Any_), "direction_cards": ListOf(Card),
                      "speed_cards": ListOf(Card)}),
}


def where_text(where: tuple[Any, ...]) -> tuple[str, str]:
    """``("units", "Gob", "crits")`` → ("units.Gob", "crits"); list items as ``[i]``."""
    def key(k: Any) -> str:
        if isinstance(k, int):
            return f"[{k}]"
        return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else '"' + k.replace('"', '\\"') + '"'

    parts = [key(k) for k in where]
    table = ""
    for p in parts[:-1]:
        table += p if p.startswith("[") or not table else "." + p
    return table, parts[-1] if parts else ""


def check(data: dict[str, Any], keys: Iterable[str] | None = None,
          old: dict[str, Any] | None = None) -> None:
    """Raise Bad for the first key of ``data`` (or of its tables ``keys``) that does not
    have its declared shape. With ``old`` (the data as read, already checked), entries
    of a named table that did not change are not checked again."""
    if keys is None:
        if "schema" not in data:
            raise Bad(("schema",), "missing")
        keys = data
    for k in keys:
        spec = SHAPE.get(k)
        if spec is None or k not in data:
            continue
        if isinstance(spec, MapOf) and old is not None:
            spec(data[k], (k,), old.get(k))
        else:
            spec(data[k], (k,))
