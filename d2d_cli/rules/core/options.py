"""The session's ``[rules]`` table, parsed and checked once ("à la carte rules").

Every switch a table can flip lives here, once: its key, its default, the values it
takes and the line of the rule text behind the default. :func:`parse` turns the
hand-edited table into one typed :class:`Options`; a wrong value is refused with
:class:`~d2d_cli.errors.SessionError` (exit 3) naming the file, ``[rules]`` and the key,
before any command changes anything. docs/rules.md lists the same keys (a test checks
the two agree).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from d2d_cli.errors import SessionError
from d2d_cli.rules.core.record import record, replace


@record
class Option:
    """One ``[rules]`` key: its default, what it accepts, and why the default."""

    key: str
    default: Any
    accepts: str  # for the error message: what a value must be
    check: Callable[[Any], bool]
    source: str  # the rule text behind the default (file and page/heading)


def _one_of(*values: str) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and v in values


def _boolean(v: Any) -> bool:
    return isinstance(v, bool)


def _positive_number(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            and 0 < v <= 10**9)


def _small_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100


def _file_name(v: Any) -> bool:
    return isinstance(v, str) and 0 < len(v) <= 4096 and "\x00" not in v


OPTIONS: tuple[Option, ...] = (
    Option("speed_convention", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.314 "Speed - 5x0 = 5kph/3mph"'),
    Option("personal_round_s", 6, "a number of seconds above 0", _positive_number,
           '001 l.457 "On normal Maps, a Round is 6 seconds"'),
    Option("conflict_chart", "001", '"001" or "000"', _one_of("001", "000"),
           "001 l.777 \"Conflict: Chart\" (a picture; d2d's reading)"),
    Option("fate_orientation", "color", '"color" or "card"', _one_of("color", "card"),
           '000 l.420 "Non-Player Units reveal a Fate where Black means Upper"'),
    Option("ten_always_hits", False, "true or false", _boolean,
           "001 l.838 \"2-10 - Hits:+1 IF Rank+Level > Difficulty\""),
    Option("mortal_wound", "crits4", '"crits4", "past_extreme", "extreme" or "off"',
           _one_of("crits4", "past_extreme", "extreme", "off"),
           '000 l.540 "IF 4 or more Crits then the Unit has suffered a Mortal Wound"'),
    Option("locations_file", None, "a file name", _file_name,
           "d2d's default person and vehicle charts (001's charts are pictures)"),
    Option("new_skill_sp", 1, "a whole number from 0 to 100", _small_count,
           '001 l.1108 "Spend SP = Current Level of Skill or Power"'),
    Option("respec_sp", "cost", '"cost", "lost" or "new"', _one_of("cost", "lost", "new"),
           '001 l.1108 "Spend SP = Current Level of Skill or Power"'),
    Option("refresh_penalties", True, "true or false", _boolean,
           '000 l.120 "Each Unit places Move:Speed"'),
    Option("respec_limit", "downtime", '"downtime" or "none"', _one_of("downtime", "none"),
           '000 l.372 "Respec - Downtime:Between Sessions you may reduce ONE Skill"'),
    Option("level_bonus", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.767 "IF 2-10 THEN subtract Level Bonus (min 2)"'),
    Option("combos", "played", '"played" or "revealed"', _one_of("played", "revealed"),
           '001 l.826 "Combo - Play cards to make an allowed set"'),
    Option("task_win", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.1014 "Win - Challenge:-Hits"'),
    Option("power_area", "table", '"table" or "formula"', _one_of("table", "formula"),
           '000 l.880-884 "1 point - 1 space … 5 points - Area Effect:8"'),
    # issue 19 (round): 000's readings of the round, each a table may choose.
    Option("push_the_limit", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.597 "Skill:+1 this Round"'),
    Option("burst_of_speed", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.609 "Move:+2 AND Turn:+1"'),
    Option("evade", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.750 "Move:+2 (Win or Lose)"'),
    Option("detect", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.593 "[Mind] vs [Body]-[Range] to detect" (docs/errata.md)'),
    Option("reach", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.689 "Reach - Range:0-2"'),
    Option("weapon_damage", "armor", '"armor" or "difficulty"',
           _one_of("armor", "difficulty"), '001 l.910 "Armor Rating cancels Power Rating"'),
    Option("armor", "rating", '"rating" or "reduce"', _one_of("rating", "reduce"),
           '001 l.910 "Armor Rating cancels Power Rating"'),
    Option("hit_location", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.892–894 "Find Deck with matching Damage Types / Draw until you find '
           'matching a Type"'),
    Option("target_action", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.639–641 "Target may spend an Action / IF not Target gains no benefits on a '
           'Win"'),
    Option("days_heal", "rounds", '"rounds" or "glossary"', _one_of("rounds", "glossary"),
           '000 l.611 "Recover - Each Unit removes a Fatigue, Stun, Stress, or Slow"'),
    # issue 27: the Cover a map gives (docs/rules.md "Line of Sight and Cover").
    Option("cover", "sweep", '"sweep" or "edges"', _one_of("sweep", "edges"),
           '001 l.714 "Sweep edge across all of Target"'),
    # issue 31: who holds the Players' Conflict cards (rules/units/hands.py).
    Option("hands", "table", '"table" or "d2d"', _one_of("table", "d2d"),
           '000 l.205 "This randomized deck can be used at any time instead of using cards '
           'from your hand"'),
    # issue 34: what a Counter's win plays (docs/rules.md "Counter-attacks").
    Option("counter", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.754 "Counterattack with a Fast or Strong"'),
    Option("narrator_hand", False, "true or false", _boolean,
           '000 l.401 "Each player (including Narrators if any) maintain a hand of cards"'),
)

BY_KEY = {o.key: o for o in OPTIONS}
# What a cached, already-checked session was checked against (session/__init__.py).
FINGERPRINT = f"{zlib.crc32(repr([(o.key, o.accepts) for o in OPTIONS]).encode()):08x}"


@record
class Options:
    """The table's rule choices; every field defaults to the rule text's reading."""

    speed_convention: str = "001"
    personal_round_s: float = 6
    conflict_chart: str = "001"
    fate_orientation: str = "color"
    ten_always_hits: bool = False
    mortal_wound: str = "crits4"
    locations_file: str | None = None
    new_skill_sp: int = 1
    respec_sp: str = "cost"
    refresh_penalties: bool = True
    respec_limit: str = "downtime"
    level_bonus: str = "001"
    combos: str = "played"
    task_win: str = "001"
    power_area: str = "table"
    push_the_limit: str = "001"
    burst_of_speed: str = "001"
    evade: str = "001"
    detect: str = "001"
    reach: str = "001"
    weapon_damage: str = "armor"
    armor: str = "rating"
    hit_location: str = "001"
    target_action: str = "001"
    days_heal: str = "rounds"
    cover: str = "sweep"
    hands: str = "table"
    counter: str = "001"
    narrator_hand: bool = False

    def changed(self) -> dict[str, Any]:
        """The keys set away from their defaults (for ``session show``)."""
        return {o.key: getattr(self, o.key) for o in OPTIONS
                if getattr(self, o.key) != o.default}


DEFAULTS = Options()


def problems(table: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(key, problem) for each key of a ``[rules]`` table that d2d does not accept: the
    one check, used by :func:`parse` and by the session's declared shape on read."""
    for key, value in table.items():
        option = BY_KEY.get(key)
        if option is None:
            import difflib  # only for a suggestion: an error's cost

            near = difflib.get_close_matches(str(key), BY_KEY, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            yield key, f"no such key{hint}; the keys are listed in docs/rules.md"
        elif not option.check(value):
            yield key, f"{_shown(value)}: use {option.accepts}"


def parse(table: Any, where: str = "the session file") -> Options:
    """The ``[rules]`` table as :class:`Options`; a wrong key or value is a SessionError
    that names ``where`` (the file), the table and the key."""
    if table is None:
        return DEFAULTS
    if not isinstance(table, dict):
        raise SessionError(f"{where}: [rules] must be a table, not {_shown(table)}")
    for key, problem in problems(table):
        raise SessionError(f"{where}: [rules] {key}: {problem}")
    return replace(DEFAULTS, **table) if table else DEFAULTS


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."

