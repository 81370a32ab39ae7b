"""Characters that travel between sessions: the party's list (``char list``) and a
character carried in from another session (``char import``), 000 "Character Creation"
and "Advancement" ("Between Sessions": a character lives on from one game night to the
next).

A character's record is its ``[units.NAME]`` table as the session holds it; ``char
export --format toml|json`` writes exactly that record and ``char import`` puts it back
on a roster, so export → import → export gives the same bytes. Reading the file and
checking the record's shape is the session layer's (``operations.characters``); here
is what the rules say about it: a character (``kind = "character"``), under a name no
other unit has unless the table says otherwise.

A character travels without the table's state (issue 31): its stats, skills, abilities,
powers, gear, conditions and Crits (they last until healed), days of healing, Milestone
points and its Player go with it; its Space, Facing, the round's tokens and spent
Actions, what the round said and remembered, Stealth, a task it is bound to, Abilities
in Cooldown or Active in the scene, Continuous Powers and its faction (the new scene's
sides are the new table's: ``char import --faction``) stay behind (:data:`TABLE_STATE`).
"""

from __future__ import annotations

from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.options import Options
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.units import characters as ch
from d2d_cli.rules.units import roster as units
from d2d_cli.rules.units.roster import STATS, Unit

# The keys of a unit's table that belong to the table it sits at, not to the character.
TABLE_STATE = frozenset(("space", "facing", "off_map", "turn", "move", "action_cost",
                         "target", "spent", "said", "interacted", "interrupted", "effects",
                         "stealth", "bound", "active", "continuous", "cooldown", "faction"))


def portable(state: dict[str, Any]) -> dict[str, Any]:
    """A character's record without the table's state (:data:`TABLE_STATE`)."""
    return {k: v for k, v in state.items() if k not in TABLE_STATE}


@record
class CharacterRow(Result):
    """One character of the party: its base stats (they sum to ``points``, 000 l.1029
    "22 points to divide among the 4 stats") and its Milestone points."""

    name: str
    archetype: str | None
    template: str | None
    stats: dict[str, str]
    points: int
    cp: int
    sp: int
    ap: int


@record
class Characters(Result):
    """``char list``: the characters of the session, in the order they joined."""

    characters: tuple[CharacterRow, ...]


def listing(roster: dict[str, Unit]) -> Characters:
    rows = []
    for u in roster.values():
        if u.kind != "character":
            continue
        pts = ch.points(u)
        rows.append(CharacterRow(u.name, u.extra.get("archetype"), u.extra.get("template"),
                                 {s: str(u.stats[s]) for s in STATS if s in u.stats},
                                 ch.stat_points(u.stats), pts["cp"], pts["sp"], pts["ap"]))
    return Characters(tuple(rows))


@record
class Imported(Result):
    """``char import``: the character now on the roster, under ``name``."""

    name: str
    file: str
    renamed_from: str | None  # the name in the file, when --rename gave another
    replaced: str | None  # the unit of that name it replaced (--replace)
    sheet: ch.Sheet
    summary: str = hidden("")


def admit(roster: dict[str, Unit], name: str, state: dict[str, Any], file: str,
          rules: Options, *, rename: str | None = None, replace: bool = False,
          faction: str | None = None, player: str | None = None) -> Imported:
    """Put the character ``name`` (its record ``state``, already of the session's shape)
    on the roster, without the table state it may carry (:func:`portable`): under
    ``rename`` if given; a name another unit has is refused unless ``replace``; on the
    side ``faction``, played by ``player`` when given (``Non-Player``: by no one)."""
    from d2d_cli.rules.units import sides

    state = portable(state)
    from d2d_cli.rules.units.gear import weapons_of

    weapons_of(state, name)  # issue 36: its weapons, checked as unit gear add checks them
    if faction is not None:
        state["faction"] = units.check_faction(faction)
    if player is not None:
        who = sides.check_player(player)
        state.pop("player", None)
        if who is not None:
            state["player"] = who
    if state.get("kind") != "character":
        raise BadInput(f"{file}: {name!r} is a unit, not a character (char import brings "
                       "characters; a scene file brings units: d2d scene load)")
    if rename is not None and replace:
        raise BadInput("give --rename NEW or --replace, not both")
    new_name = units.check_unit_name(rename if rename is not None else name)
    unit = Unit.from_state(new_name, dict(state))
    taken = {n.lower(): n for n in roster}
    clash = taken.get(new_name.lower())
    if clash is not None and not replace:
        raise BadInput(f"a unit named {clash!r} is already in this session — import it "
                       "under another name (--rename NEW) or replace it (--replace)")
    if clash is not None:
        del roster[clash]
    roster[new_name] = unit
    what = f"imported character {new_name} from {file}" + (
        f" (was {name})" if new_name != name else "") + (
        f", replacing {clash}" if clash is not None else "")
    return Imported(new_name, file, name if new_name != name else None, clash,
                    ch.sheet(unit, rules, what), what)

