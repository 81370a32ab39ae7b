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

What every value must be, declared or not (the class of hand edits that used to pass
the check and then crash a later write, issue 20 item 11):

* **finite** — ``nan`` and ``inf`` are refused everywhere (``nan`` is not equal to
  itself, so a file holding one can never be shown to read back as written);
* **shallow** — no value is nested deeper than :data:`MAX_DEPTH` tables and lists
  (d2d's own records go 5 deep; the writer recurses);
* **plain** inside d2d's own tables — text, whole numbers, finite numbers, true/false,
  lists and tables; a date or time only in a table's own notes (unknown top-level
  tables), which d2d never rewrites;
* declared keys have their **type and range**: a unit has a Body (every thing on the
  board has one; 001 l.289 "Only Units have Mind, Will, or Speed" — d2d lets a unit
  leave those out), ``player`` and ``bound`` are text, an
  ``archetype`` or ``template`` is one d2d knows, a weather card is a card whose every
  field is the card's own, a placed unit's ``space`` is a Space on the map and its
  ``facing`` a compass heading.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

MAX_INT = 10**9  # far past any count the rules use; keeps TOML's 64-bit integers safe
MAX_TEXT = 10_000
MAX_ITEMS = 100_000
MAX_DEPTH = 16  # tables and lists within each other, counted from the top of the file

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


def _control(text: str, where: tuple[Any, ...], *, key: bool = False) -> None:
    """Text from a file is inert (issue 30 item 2): no character that drives a terminal
    (C0 but tab and newline, ESC, DEL, C1, bidi overrides; d2d_cli.plain.inert) — in a
    key, not even a tab or a newline."""
    if text.isascii() and text.isprintable():
        return
    from d2d_cli.inert import unsafe

    ch = unsafe(text) or (next((c for c in text if c in "\t\n"), None) if key else None)
    if ch is not None:
        raise Bad(where, f"control character U+{ord(ch):04X} in "
                  f"{'a name' if key else 'text'}: refused, so a file from someone else "
                  "cannot drive the terminal")


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
        _control(v, where)
        if len(v) > max_len:
            raise Bad(where, f"text longer than {max_len} characters")
    return check


def Bool(v: Any, where: tuple[Any, ...]) -> None:  # noqa: N802
    if type(v) is not bool:
        raise Bad(where, f"expected true or false, found {_show(v)}")


def _walk(v: Any, where: tuple[Any, ...], dates: bool) -> None:
    """Finite, not too deep, and (unless ``dates``) no date or time: iteratively, so a
    hand-nested file cannot exhaust the stack here either."""
    import math

    todo = [(v, where)]
    while todo:
        x, at = todo.pop()
        t = type(x)
        if t is dict or t is list:
            if len(at) > MAX_DEPTH:  # named where the nesting starts: a readable line
                raise Bad(where, f"nested deeper than {MAX_DEPTH} tables and lists")
            if t is dict:
                for k in x:
                    _control(k, (*at, k), key=True)
            items = x.items() if t is dict else enumerate(x)
            todo.extend((y, (*at, k)) for k, y in items)
        elif t is str:
            _control(x, at)
        elif t is float:
            if not math.isfinite(x):
                raise Bad(at, f"{x!r} is not a finite number")
        elif t not in (str, int, bool) and not dates:
            raise Bad(at, f"expected text, a number, true/false, a list or a table, found "
                      f"{'a date or time' if _is_date(x) else _show(x)}")


def _is_date(v: Any) -> bool:
    import datetime as dt

    return isinstance(v, dt.date | dt.time)


def Plain(v: Any, where: tuple[Any, ...]) -> None:  # noqa: N802
    """Any value d2d itself could have written (a feature's record in a unit)."""
    _walk(v, where, dates=False)


Any_ = Plain  # a value of a feature's own shape: still finite, shallow and plain


def Notes(v: Any, where: tuple[Any, ...]) -> None:  # noqa: N802
    """A table's own notes (an unknown top-level table): dates allowed, as TOML has them."""
    _walk(v, where, dates=True)


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
            _control(k, (*where, k), key=True)
            if self.key is not None:
                self.key(k, (*where, k))
            self.value(x, (*where, k))


def Table(fields: dict[str, Check], required: Iterable[str] = (),  # noqa: N802
          after: Callable[[dict[str, Any], tuple[Any, ...]], None] | None = None,
          other: Check = Plain) -> Check:
    """A table of declared ``fields``; a key not declared is checked by ``other``."""
    need = tuple(required)

    def check(v: Any, where: tuple[Any, ...]) -> None:
        if type(v) is not dict:
            raise Bad(where, f"expected a table, found {_show(v)}")
        for k in need:
            if k not in v:
                raise Bad((*where, k), "missing")
        for k, x in v.items():
            if k not in fields:
                _control(k, (*where, k), key=True)
            fields.get(k, other)(x, (*where, k))
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


@lru_cache(maxsize=256)
def _known(kind: str, text: str) -> str | None:
    """The problem with an archetype or template name, or None if d2d knows it."""
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.units import characters

    try:
        if kind == "archetype":
            characters.find_archetype(text)
        elif text not in characters.templates():
            return (f"unknown template {text!r} (one of "
                    f"{', '.join(characters.templates())})")
    except D2DError as e:
        return e.message
    return None


def Known(kind: str) -> Check:  # noqa: N802
    def check(v: Any, where: tuple[Any, ...]) -> None:
        Str(100)(v, where)
        problem = _known(kind, v)
        if problem is not None:
            raise Bad(where, problem)
    return check


def _card_field(v: Any, where: tuple[Any, ...]) -> None:
    """A revealed card as its JSON view (``rules.deck.cards.Card.to_json``): the code is
    a card, and every other field is that card's own."""
    Table({"code": Card}, required=("code",), other=Plain)(v, where)
    from d2d_cli.rules.deck.cards import parse_card

    own = parse_card(v["code"]).to_json()
    for k, x in v.items():
        if k not in own:
            raise Bad((*where, k), f"not a field of a card (code, {', '.join(list(own)[1:])})")
        if x != own[k]:
            raise Bad((*where, k), f"expected {own[k]!r} (the card {v['code']}'s), found "
                      f"{_show(x)}")


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
    _walk(v, where, dates=False)
    from d2d_cli.rules.core.options import problems

    for key, problem in problems(v):
        raise Bad((*where, key), problem)


def _board(v: Any, where: tuple[Any, ...]) -> None:
    """The map (rules.board.grid.parse_board's own checks, which name row and column)."""
    if v == {}:
        return
    _walk(v, where, dates=False)  # plain, and its text inert (legend names)
    rows = v.get("rows") if type(v) is dict else None
    if type(rows) is list:  # a row emptied by hand would shift every row below it
        for i, row in enumerate(rows):
            if type(row) is str and not row.strip():
                raise Bad((*where, "rows"), f"row {i + 1} is empty: a row holds one "
                          "character a Space (remove the row, or fill it)")
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


def _space(v: Any, where: tuple[Any, ...]) -> None:
    """A Space's name (``E9``): a column letter and a row number. Whether it is on the
    map is checked with the map (:func:`_placed_on_the_board`)."""
    Str(10)(v, where)
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.board.grid import parse_space

    try:
        parse_space(v)
    except D2DError as e:
        raise Bad(where, e.message) from None


def _facing(v: Any, where: tuple[Any, ...]) -> None:
    """One of the eight compass headings, as d2d writes it (``placement.placed`` reads
    nothing else: a ``Q`` was a unit with no Facing, silently)."""
    from d2d_cli.rules.board.grid import COMPASS

    Choice(*COMPASS)(v, where)


def _placed_on_the_board(data: dict[str, Any], changed: Iterable[str],
                         old: dict[str, Any] | None) -> None:
    """Every placed unit's Space is on the session's map and one a unit may stand on (one
    off it crashed the line of sight; one in a rock was met later by a command). Across
    two tables, so checked when either changes; with ``old``, only the units that
    changed, unless the map did."""
    board, units = data.get("board"), data.get("units")
    scene = data.get("scene")
    reserves = scene.get("reserves") if type(scene) is dict else None
    if not board:
        return
    changed = set(changed)
    if type(reserves) is dict and changed & {"board", "scene"}:
        # a reserve arrives where it says (clock advance): on the map, not in a wall
        _standing(board, reserves, ("scene", "reserves"), None)
    if type(units) is not dict or not changed & {"board", "units"}:
        return
    before = (old or {}).get("units") if "board" not in changed else None
    _standing(board, units, ("units",), before)


def _standing(board: Any, units: dict[str, Any], where: tuple[Any, ...],
              before: dict[str, Any] | None) -> None:
    """Each placed unit of ``units`` stands on the map, where a unit may stand."""
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.board.grid import COMPASS, parse_board, parse_space
    from d2d_cli.rules.board.placement import Placement, check_standing

    grid = None
    for name, unit in units.items():
        if type(unit) is not dict or "space" not in unit:
            continue
        if before is not None and before.get(name) == unit:
            continue
        grid = grid or parse_board(board)
        face = unit.get("facing")
        try:
            space = grid.check_inside(parse_space(str(unit["space"])))
            # a Space a unit may stand on (not in a rock; a Double-sized unit's back too)
            check_standing(grid, Placement(name, space,
                                           COMPASS.index(face) if face in COMPASS else None,
                                           bool(unit.get("double", False))))
        except D2DError as e:
            raise Bad((*where, name, "space"), e.message) from None


def _off_the_map(v: dict[str, Any], where: tuple[Any, ...]) -> None:
    """A unit that left the map (``off_map``) stands on no Space of it."""
    if v.get("off_map") is True and "space" in v:
        raise Bad((*where, "off_map"), "a unit that left the map has no space: remove "
                  "its space, or off_map")


_NAME = Str(40)
_COUNT = Int(0, MAX_INT)

UNIT = Table({
    "kind": Choice("unit", "character"),
    "player": Str(100), "bound": Str(200),
    "stealth": Int(0, MAX_INT), "facing": _facing,
    "respec_used": Str(100),
    "spent": Table({"round": Int(0, MAX_INT), "actions": Int(0, MAX_INT),
                    "boosts": ListOf(Str(200))}),
    "active": MapOf(ListOf(Str(200)), Str(100)),
    "continuous": ListOf(Table({"power": Str(200), "price": Str(200)})),
    "body": Stat, "mind": Stat, "will": Stat, "speed": Stat,
    "faction": _NAME,
    "skills": MapOf(Int(0, 99), Str(100)),
    "conditions": MapOf(Int(0, MAX_INT), Str(100)),
    "target": _NAME,
    "move": _COUNT, "action_cost": _COUNT, "turn": _COUNT,
    "crits": ListOf(Table({"card": Str(100), "deck": Str(100), "location": Str(100),
                           "severity": Str(100), "mortal_wound": Bool})),
    "archetype": Known("archetype"), "template": Known("template"),
    "conception": MapOf(Str()),
    "cp": Int(0, 1_000_000), "sp": Int(0, 1_000_000), "ap": Int(0, 1_000_000),
    "abilities": ListOf(Str(200)), "cooldown": ListOf(Str(200)),
    "space": _space, "double": Bool,
    "off_map": Bool,  # left the map at its edge (d2d unit leave; rules/time/leaving.py)
    # issue 19: what a Special Action leaves for the Round (rules/units/effects.py) and
    # the gear the Damage Modifiers read (rules/combat/damage.py).
    "effects": MapOf(Int(0, MAX_INT), Str(100)),
    "gear": Table({"vulnerable": ListOf(Str(100)), "screen": Int(0, MAX_INT),
                   "shield": Any_, "shield_covers": ListOf(Str(100)),
                   "items": MapOf(Str(100), Str(100)),
                   "damaged": MapOf(Int(0, MAX_INT), Str(100)),
                   # issue 36: what a unit carries (rules/units/gear.py)
                   "shield_arc": Choice("left", "right"), "shield_name": Str(40),
                   "armor_names": ListOf(Str(40)), "magic_armor": Int(0, 5)}),
    "weapons": MapOf(Table({"rating": Str(100), "types": ListOf(Str(100), 2),
                            "hands": Int(0, 2),
                            "attack": Choice("melee", "reach", "ranged", "thrown"),
                            "range": ListOf(Int(1, 10_000), 2), "scale": Int(-100, 100),
                            "magic": Int(0, 5), "proficiency": Str(100)},
                           required=("rating",)), Str(40)),
    "proficiencies": ListOf(Str(100)),
    # What the round remembers (rules/units/exchange.py) and days of healing carried
    # (rules/units/downtime.py).
    "said": Table({"round": _COUNT, "cover": MapOf(Int(0, 100), Str(100)),
                   "range": MapOf(Int(0, 10_000), Str(100)), "high_ground": ListOf(_NAME),
                   "space": _space},
                  required=("round",)),
    "interacted": Table({"round": _COUNT, "by": _NAME, "interrupt": Bool, "action": Bool},
                        required=("round", "by")),
    "interrupted": Table({"round": _COUNT, "by": ListOf(_NAME), "pending": _NAME},
                         required=("round",)),
    "healing": MapOf(Int(0, MAX_INT), Str(100)),
}, required=("body",), after=_off_the_map)


def _hand_whole(v: dict[str, Any], where: tuple[Any, ...]) -> None:
    """A Player's Conflict Deck (issue 31, rules/units/hands.py): deck, hand, discard and
    the card chosen face down hold the 54 cards exactly once; at most 10 are held."""
    from d2d_cli.rules.deck.cards import full_deck

    chosen = [v["chosen"]["card"]] if "chosen" in v else []
    faces = sorted(str(_card_face(c)) for k in ("deck", "hand", "discard")
                   for c in v.get(k, [])) + [str(_card_face(c)) for c in chosen]
    if sorted(faces) != sorted(c.face for c in full_deck()):
        raise Bad((*where, "deck"), "a Player's deck, hand, discard and chosen card must "
                  "hold the 54 cards exactly once — or run d2d hand deal PLAYER")
    if len(v.get("hand", [])) + len(chosen) > 10:
        raise Bad((*where, "hand"), "more than 10 cards held (000 l.401 \"with a maximum "
                  "of 10\")")


# [players."NAME"]: a Player's Conflict Deck, hand, discard and face-down choice, held by
# d2d under [rules] hands = "d2d" (issue 31; rules/units/hands.py; read by d2d serve).
PLAYER = Table({"deck": ListOf(Card, 54), "hand": ListOf(Card, 10),
                "discard": ListOf(Card, 54),
                "chosen": Table({"unit": _NAME, "card": Card}, required=("unit", "card"))},
               required=("deck", "hand", "discard"), after=_hand_whole)

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
    "round": Table({"number": Int(0, MAX_INT), "phase": Choice("none", "started", "ended"),
                    # the last conflict between units, for hit and crit to default to
                    # (rules/combat/exchange.py); round start and end forget it
                    "exchange": Table({
                        "winner": _NAME, "rival": _NAME, "cards": ListOf(Card, 54),
                        "skill": Str(100), "rival_skill": Str(100), "hits": _COUNT,
                        # what the Conflict was told (--cover, --no-map…), for hit
                        "said": Table({"range": Int(0, 10_000), "attack": Str(40),
                                       "cover": Str(40), "high_ground": Str(40),
                                       "flank": Str(40), "confined": Str(40),
                                       "outnumbered": Str(40), "weapon_scale": Int(-100, 100),
                                       "no_map": Bool}),
                        # an npc turn hit and crit with it already: not for hit to reuse
                        "played": Bool},
                        required=("winner", "rival")),
                    # the open question of a waiting `npc turn` (operations/npc.py): the
                    # Player's page shows it; closed when answered or cancelled
                    "asking": Table({"attacker": _NAME, "target": _NAME, "player": Str(40),
                                     "respond": Bool},
                                    required=("attacker", "target", "player"))}),
    "board": _board,
    "scene": Table({"name": Str(200), "map": _map_key, "backstory": Str(),
                    "factions": MapOf(Table({"goal": Str(), "players": ListOf(Str(100))})),
                    "reserves": MapOf(UNIT, _unit_name)}),
    "weather": Table({"direction": Str(10), "speed_kph": Int(0, 10_000), "beaufort": Str(100),
                      "beaufort_number": Int(0, 100), "speed_stat": Stat,
                      "cards": ListOf(_card_field), "direction_cards": ListOf(Card),
                      "speed_cards": ListOf(Card)}),
    "players": MapOf(PLAYER, Str(40)),
}


def where_text(where: tuple[Any, ...]) -> tuple[str, str]:
    """``("units", "Gob", "crits")`` → ("units.Gob", "crits"); list items as ``[i]``."""
    from d2d_cli.inert import inert

    def key(k: Any) -> str:
        if isinstance(k, int):
            return f"[{k}]"
        shown = inert(str(k))  # a key from the file is shown, never obeyed
        return (shown if re.fullmatch(r"[A-Za-z0-9_-]+", shown)
                else '"' + shown.replace('"', '\\"') + '"')

    parts = [key(k) for k in where]
    table = ""
    for p in parts[:-1]:
        table += p if p.startswith("[") or not table else "." + p
    return table, parts[-1] if parts else ""


def problem(data: dict[str, Any], keys: Iterable[str] | None = None) -> str | None:
    """What :func:`check` finds first, in words (``[table] key: problem``; a top-level
    key alone), or None when ``data`` has its declared shape."""
    try:
        check(data, keys)
    except Bad as bad:
        return _said(bad)
    return None


def unit_problem(name: str, state: Any) -> str | None:
    """What is wrong with ``state`` as the ``[units.NAME]`` table of a session (a
    character file's one unit), in words, or None."""
    try:
        UNIT(state, ("units", name))
        if type(state) is dict:
            Plain(state, ("units", name))
    except Bad as bad:
        return _said(bad)
    return None


def _said(bad: Bad) -> str:
    table, key = where_text(bad.where)
    return f"[{table}] {key}: {bad.problem}" if table else f"{key}: {bad.problem}"


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
        if k not in data:
            continue
        _control(k, (k,), key=True)
        if spec is None:  # a table's own notes
            Notes(data[k], (k,))
            continue
        if isinstance(spec, MapOf) and old is not None:
            spec(data[k], (k,), old.get(k))
        else:
            spec(data[k], (k,))
    _placed_on_the_board(data, keys, old)


_HEADER_RE = re.compile(r"^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def deep_place(text: str) -> tuple[str, str] | None:
    """Where a value nested too deep for the TOML parser itself starts (the parser
    gives up without saying where): the table header above it and its key, found by
    counting brackets line by line (strings left out)."""
    table = ""
    for line in text.splitlines():
        head = _HEADER_RE.match(line)
        if head:
            table = head.group(1)
            continue
        key, eq, value = line.partition("=")
        if not eq:
            continue
        depth = most = 0
        for ch in _STRING_RE.sub('""', value):
            if ch in "[{":
                depth += 1
                most = max(most, depth)
            elif ch in "]}":
                depth -= 1
        if most > MAX_DEPTH:
            return table, key.strip()
    return None
