"""The session's ``[rules]`` table, parsed and checked once ("à la carte rules").

Every switch a table can flip lives here, once: its key, its default, the values it
takes and the line of the rule text behind the default. :func:`parse` turns the
hand-edited table into one typed :class:`Options`; a wrong value is refused with
:class:`~d2d_cli.errors.SessionError` (exit 3) naming the file, ``[rules]`` and the key,
before any command changes anything. docs/rules.md lists the same keys (a test checks
the two agree).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from typing import Any

from d2d_cli.errors import BadInput, SessionError
from d2d_cli.rules.core.record import record, replace
from d2d_cli.rules.core.result import Result, hidden


@record
class Option:
    """One ``[rules]`` key: its default, what it accepts, and why the default."""

    key: str
    default: Any
    accepts: str  # for the error message: what a value must be
    check: Callable[[Any], bool]
    source: str  # the rule text behind the default (file and page/heading)
    meaning: str = ""  # one line: what the key switches (``d2d rules``)


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
           '001 l.314 "Speed - 5x0 = 5kph/3mph"',
           meaning="what a Speed level counts: 001 km/h, 000 m/s below 20 km/h"),
    Option("personal_round_s", 6, "a number of seconds above 0", _positive_number,
           '001 l.457 "On normal Maps, a Round is 6 seconds"',
           meaning="seconds in a Personal Map Round: 001's 6, 000's 2"),
    Option("conflict_chart", "001", '"001" or "000"', _one_of("001", "000"),
           "001 l.777 \"Conflict: Chart\" (a picture; d2d's reading)",
           meaning="which Conflict chart decides a winner (000: Evade beats Wild)"),
    Option("fate_orientation", "color", '"color" or "card"', _one_of("color", "card"),
           '000 l.420 "Non-Player Units reveal a Fate where Black means Upper"',
           meaning="a Fate reveal's orientation: by colour (black Upper) or as drawn"),
    Option("ten_always_hits", False, "true or false", _boolean,
           "001 l.838 \"2-10 - Hits:+1 IF Rank+Level > Difficulty\"",
           meaning="whether a played 10 always scores a Hit (000)"),
    Option("mortal_wound", "crits4", '"crits4", "past_extreme", "extreme" or "off"',
           _one_of("crits4", "past_extreme", "extreme", "off"),
           '000 l.540 "IF 4 or more Crits then the Unit has suffered a Mortal Wound"',
           meaning="when Crits make a Mortal Wound: the 4th Crit, past Extreme, Extreme, never"),
    Option("locations_file", None, "a file name", _file_name,
           "d2d's default person and vehicle charts (001's charts are pictures)",
           meaning="a TOML file of the table's own Hit Location charts for crit"),
    Option("new_skill_sp", 1, "a whole number from 0 to 100", _small_count,
           '001 l.1108 "Spend SP = Current Level of Skill or Power"',
           meaning="the SP a brand-new skill costs in char train"),
    Option("respec_sp", "cost", '"cost", "lost" or "new"', _one_of("cost", "lost", "new"),
           '001 l.1108 "Spend SP = Current Level of Skill or Power"',
           meaning="the SP a respec gives back: its cost, 001's lost level, 000's new"),
    Option("refresh_penalties", True, "true or false", _boolean,
           '000 l.120 "Each Unit places Move:Speed"',
           meaning="whether Slow and other penalties lower Move at round start"),
    Option("respec_limit", "downtime", '"downtime" or "none"', _one_of("downtime", "none"),
           '000 l.372 "Respec - Downtime:Between Sessions you may reduce ONE Skill"',
           meaning="one respec between sessions (downtime) or no limit"),
    Option("level_bonus", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.767 "IF 2-10 THEN subtract Level Bonus (min 2)"',
           meaning="how the Level Bonus breaks a Conflict's rank tie (001 or 000)"),
    Option("combos", "played", '"played" or "revealed"', _one_of("played", "revealed"),
           '001 l.826 "Combo - Play cards to make an allowed set"',
           meaning="combo cards played from the hand (001) or revealed from the deck (000)"),
    Option("task_win", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.1014 "Win - Challenge:-Hits"',
           meaning="a Task win takes Challenge off (001) or moves it to Progress (000)"),
    Option("power_area", "table", '"table" or "formula"', _one_of("table", "formula"),
           '000 l.880-884 "1 point - 1 space … 5 points - Area Effect:8"',
           meaning="a Power's Area from 000's printed rows or the (X-1)² formula"),
    # issue 19 (round): 000's readings of the round, each a table may choose.
    Option("push_the_limit", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.597 "Skill:+1 this Round"',
           meaning="Push the Limit: Skill +1 this Round (001) or Initiative/Hits +1 (000)"),
    Option("burst_of_speed", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.609 "Move:+2 AND Turn:+1"',
           meaning="Burst of Speed: Move +2 (001) or Move +1 (000), Turn +1"),
    Option("evade", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.750 "Move:+2 (Win or Lose)"',
           meaning="Evade: Move +2 (001) or regain the Action Cost on a win (000)"),
    Option("detect", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.593 "[Mind] vs [Body]-[Range] to detect" (docs/errata.md)',
           meaning="Detect: Mind vs Body + Range (001, errata) or within Sight (000)"),
    Option("reach", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.689 "Reach - Range:0-2"',
           meaning="a Reach weapon's Range: 0-2 (001) or 1-2 (000)"),
    Option("weapon_damage", "armor", '"armor" or "difficulty"',
           _one_of("armor", "difficulty"), '001 l.910 "Armor Rating cancels Power Rating"',
           meaning="crit compares the Power with the Armor (001) or the Body (000)"),
    Option("armor", "rating", '"rating" or "reduce"', _one_of("rating", "reduce"),
           '001 l.910 "Armor Rating cancels Power Rating"',
           meaning="Armor cancels the Power (001) or reduces the Damage (000)"),
    Option("hit_location", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.892–894 "Find Deck with matching Damage Types / Draw until you find '
           'matching a Type"',
           meaning="one Crit card drawn to a matching type (001) or a Damage Stack (000)"),
    Option("target_action", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.639–641 "Target may spend an Action / IF not Target gains no benefits on a '
           'Win"',
           meaning="every Target of an Interact may benefit (001) or an Interrupted one (000)"),
    Option("days_heal", "rounds", '"rounds" or "glossary"', _one_of("rounds", "glossary"),
           '000 l.611 "Recover - Each Unit removes a Fatigue, Stun, Stress, or Slow"',
           meaning="what a healed day ends: Recovers too, or the Glossary's times only"),
    # issue 27: the Cover a map gives (docs/rules.md "Line of Sight and Cover").
    Option("cover", "sweep", '"sweep" or "edges"', _one_of("sweep", "edges"),
           '001 l.714 "Sweep edge across all of Target"',
           meaning="Cover read off the map by 001's sweep or 000's edges"),
    # issue 31: who holds the Players' Conflict cards (rules/units/hands.py).
    Option("hands", "table", '"table" or "d2d"', _one_of("table", "d2d"),
           '000 l.205 "This randomized deck can be used at any time instead of using cards '
           'from your hand"',
           meaning="who holds the Players' Conflict cards: the table, or d2d (hand, serve)"),
    # issue 34: what a Counter's win plays (docs/rules.md "Counter-attacks").
    Option("counter", "001", '"001" or "000"', _one_of("001", "000"),
           '001 l.754 "Counterattack with a Fast or Strong"',
           meaning="a Counter's win: another Fast or Strong card (001) or itself (000)"),
    # issue 34: npc turn --all at a Count that reaches a Player's unit too
    # (docs/rules.md "npc turn --all, one Count at a time").
    Option("shared_count", "players", '"players" or "npcs"', _one_of("players", "npcs"),
           '000 l.124 "Simultaneous - All Units that choose to Move, move simultaneously"',
           meaning="at a Count shared with a Player's unit, who goes first in npc turn --all"),
    Option("narrator_hand", False, "true or false", _boolean,
           '000 l.401 "Each player (including Narrators if any) maintain a hand of cards"',
           meaning="whether the Narrator holds a hand for Non-Player units"),
)

BY_KEY = {o.key: o for o in OPTIONS}


# Immutable, and a fight's memories key by it (~20 hashes a fight, each a tuple of its
# 30 fields made and hashed): its hash is kept once worked out (``keep_hash``).
@record(keep_hash=True)
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
    shared_count: str = "players"
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



# --- `d2d rules`: the table shown, a key set from the command line -------------------


def choices(option: Option) -> tuple[str, ...]:
    """The words a key takes (``"001"``, ``"000"``), read from what it accepts."""
    import re

    return tuple(re.findall(r'"([^"]*)"', option.accepts))


def option(key: str) -> Option:
    """The one ``[rules]`` key ``key``; a typo is refused (exit 2) with the nearest key."""
    found = BY_KEY.get(key) or BY_KEY.get(key.strip().lower().replace("-", "_"))
    if found is not None:
        return found
    import difflib

    near = difflib.get_close_matches(key.lower().replace("-", "_"), BY_KEY, n=1)
    hint = f"; did you mean {near[0]!r}?" if near else "; d2d rules lists them"
    raise BadInput(f"no rule {key!r}{hint}")


_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")


def value_of(opt: Option, text: str) -> Any:
    """The TOML value ``text`` stands for under ``opt`` (``"true"`` → True, ``"2"`` → 2,
    ``"D2D"`` → ``"d2d"``): the first reading its check accepts; else exit 2 with what
    the key takes and the nearest word."""
    word = text.strip()
    readings: list[Any] = [word]
    lowered = {c.lower(): c for c in choices(opt)}
    if word.lower() in lowered:
        readings.append(lowered[word.lower()])
    if word.lower() in _TRUE + _FALSE:
        readings.append(word.lower() in _TRUE)
    for kind in (int, float):
        with contextlib.suppress(ValueError):
            readings.append(kind(word))
    for value in readings:
        if opt.check(value):
            return value
    hint = ""
    if lowered:
        import difflib

        near = difflib.get_close_matches(word.lower(), lowered, n=1, cutoff=0.4)
        hint = f"; did you mean {lowered[near[0]]!r}?" if near else ""
    raise BadInput(f"rule {opt.key}: {_shown(text)}: use {opt.accepts}{hint}")


def assignment(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` (``session new --rule hands=d2d``) as the key and its value."""
    key, eq, value = text.partition("=")
    if not eq or not key.strip():
        raise BadInput(f"--rule {_shown(text)}: write KEY=VALUE, e.g. --rule hands=d2d")
    opt = option(key.strip())
    return opt.key, value_of(opt, value)


@record
class RuleRow(Result):
    """One rule as ``d2d rules`` shows it."""

    key: str
    value: Any
    default: Any
    changed: bool
    accepts: str
    meaning: str
    source: str


@record
class RulesView(Result):
    """``d2d rules``: every key of the one table, the session's value beside its default."""

    rules: tuple[RuleRow, ...]


def view(table: dict[str, Any] | None) -> RulesView:
    """Every rule with the session's value (its default where the table is silent)."""
    table = table or {}
    rows = []
    for o in OPTIONS:
        value = table.get(o.key, o.default)
        rows.append(RuleRow(o.key, value, o.default, o.key in table and value != o.default,
                            o.accepts, o.meaning, o.source))
    return RulesView(tuple(rows))


@record
class RuleChange(Result):
    """``d2d rules set`` / ``unset``: one key changed; the hands it dealt, if any."""

    key: str
    value: Any
    was: Any
    default: Any
    meaning: str
    dealt: tuple[Any, ...] = ()  # rules.units.hands.HandCount, when hands became "d2d"
    summary: str = hidden("")


def shown(value: Any) -> str:
    """A value as TOML writes it (``"d2d"``, ``true``, ``6``; unset: ``(none)``)."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def changed_table(table: dict[str, Any] | None, key: str, value: Any) -> dict[str, Any]:
    """The ``[rules]`` table with ``key`` set to ``value`` (None: back to its default,
    the key removed), checked whole: a hand edit that left another key wrong is refused
    (exit 3, that key named) and nothing changes."""
    opt = option(key)
    new = dict(table or {})
    if value is None:
        new.pop(opt.key, None)
    else:
        new[opt.key] = value
    for bad, problem in problems(new):
        if bad != opt.key:
            raise SessionError(f"[rules] {bad}: {problem}")
    return new


def change_of(old: dict[str, Any] | None, new: dict[str, Any], key: str,
              dealt: tuple[Any, ...] = ()) -> RuleChange:
    """What changed from ``old`` to ``new`` at ``key`` (and the hands it dealt), with the
    journal's words for it."""
    opt = option(key)
    was, now = (old or {}).get(opt.key, opt.default), new.get(opt.key, opt.default)
    verb = "set" if opt.key in new else "unset"
    summary = f"rules {verb} {opt.key}: {shown(was)} → {shown(now)}" + (
        "; dealt " + ", ".join(f"{h.player} {h.hand}" for h in dealt) if dealt else "")
    return RuleChange(opt.key, now, was, opt.default, opt.meaning, dealt, summary)
