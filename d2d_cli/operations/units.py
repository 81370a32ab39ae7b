"""Units on the board: add, conditions, spending Move and taking Actions (001 p.7,
l.527–609)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from d2d_cli.errors import BadInput
from d2d_cli.operations import (
    Target,
    in_round,
    in_round_reading,
    on_the_bar,
    roster_change,
    roster_change_reading,
)
from d2d_cli.rules.units import conditions
from d2d_cli.rules.units import roster as units

if TYPE_CHECKING:  # each rule module is imported by the operation that reads it
    from d2d_cli.rules.board import placement
    from d2d_cli.rules.core.options import Options
    from d2d_cli.rules.time import exchange, leaving, turns
    from d2d_cli.rules.units import abilities, gear, powers
    from d2d_cli.rules.units import sides as sides_
    from d2d_cli.rules.units import stealth as stealth_


S = TypeVar("S")  # a result a movement's exploring adds to (rules.board.fog)


def add(t: Target, name: str, *, body: str, mind: str, will: str, speed: str,
        skill: list[str] | None = None, faction: str | None = None,
        player: str | None = None, new: bool = False) -> units.UnitRow:
    """``d2d unit add NAME --body … --mind … --will … --speed … [--skill NAME=LEVEL]…
    [--faction F] [--player P] [--new]``: a faction or Player the session does not know
    is a typo unless ``--new`` (``rules.units.sides.matched``)."""
    from d2d_cli.rules.units import sides

    stats = {"body": body, "mind": mind, "will": will, "speed": speed}
    units.new_unit(name, stats, skill or [], sides.check_faction(faction))  # checked first
    sides.check_player(player)
    from d2d_cli.rules.units import status_bar

    with t.edit() as tx:  # roster_change's steps, with the names this session knows
        faction, player = sides.resolve_side(tx.data, faction, player, new)
        unit = units.new_unit(name, stats, skill or [], faction)
        who = sides.check_player(player)
        if who is not None:
            unit.extra["player"] = who
        roster = units.roster(tx.data)
        added = units.add(roster, unit)
        table = dict(tx.data.get("units") or {})
        table[added.name] = roster[added.name].to_state()
        tx.put("units", table)
        tx.summary = added.summary
        row: units.UnitRow = status_bar.unit_on_bar(tx.data, added.name, t.options(tx.data))
    return row


def condition(t: Target, name: str, action: str, cond: str, count: int = 1) -> units.UnitRow:
    """``d2d unit condition NAME add|remove CONDITION [--count N]``."""
    order = conditions.order(action, cond, count)
    result: units.UnitRow = roster_change(t, lambda roster: conditions.apply(roster, name,
                                                                             order))
    return result


def move(t: Target, name: str, what: str, *rest: str) -> turns.Spending:
    """``d2d unit move NAME N|KIND [COUNT|HEADING]`` (a ``rules.time.turns.Spending``)."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.time import turns
    from d2d_cli.rules.time.round_state import Round

    arg = " ".join(rest) if rest else None
    with t.edit() as tx:  # as in_round, with the map for a placed unit
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        before = _standing(roster, name)
        result = turns.move(roster, rnd.number, rnd.phase, name, what, arg,
                            board=board_of(tx.data), tasks=tx.data.get("tasks", {}))
        tx.put("units", units.roster_state(roster))
        result = _explored(tx, result, before)
        tx.summary = result.summary
    return result


def _standing(roster: dict[str, units.Unit], name: str) -> placement.Placement | None:
    """Where the unit stood before a change (None: not on the map), for the fog."""
    from d2d_cli.rules.board.placement import placed

    return placed(units.find(roster, name))


def _explored(tx: Any, result: S, before: placement.Placement | None) -> S:
    """What a Player's unit revealed by entering and seeing (rules.board.fog), added to
    the report it gives: nothing at all without fog."""
    if not tx.data.get("fog"):
        return result
    from d2d_cli.operations.board import explore
    from d2d_cli.rules.core.record import replace

    words = explore(tx, str(getattr(result, "unit", "")), before)
    if not words:
        return result
    had = getattr(result, "note", None)
    note = f"{had}; {words}" if had else words
    return replace(result, summary=f"{getattr(result, 'summary', '')}; {words}", **(
        {"note": note} if hasattr(result, "note") else {}))


def leave(t: Target, name: str, kind: str | None = None, side: str | None = None) -> leaving.Left:
    """``d2d unit leave NAME [KIND [SIDE]]`` (a ``rules.time.leaving.Left``)."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.time import leaving
    from d2d_cli.rules.time.round_state import Round

    with t.edit() as tx:
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        result = leaving.leave(roster, rnd.number, rnd.phase, name, board_of(tx.data),
                               tx.data.get("tasks", {}), kind, side)
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result


def free(t: Target, name: str) -> leaving.Freed:
    """``d2d unit free NAME`` (a ``rules.time.leaving.Freed``)."""
    from d2d_cli.rules.time import leaving

    with t.edit() as tx:
        roster = units.roster(tx.data)
        result = leaving.free(roster, name)
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result


def act(t: Target, name: str, action: str, arg: str | None = None, *,
        range: int | None = None,  # noqa: A002 - the command's --range
        ) -> turns.Spending:
    """``d2d unit act NAME ACTION [CHOICE] [--range N]`` (a ``turns.Spending``)."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.time import turns

    def step(roster: dict[str, units.Unit], n: int, phase: str,
             data: dict[str, Any]) -> turns.Spending:  # the locked state's rules and map
        return turns.act(roster, n, phase, name, action, arg, range, t.options(data),
                         board_of(data))

    if action.strip().lower() != "search":
        return in_round_reading(t, step)
    from d2d_cli.operations.board import search
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.time.round_state import Round

    with t.edit() as tx:  # a Search reveals what lies under the Place (001 l.441–443)
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        result = step(roster, rnd.number, rnd.phase, tx.data)
        tx.put("units", units.roster_state(roster))
        found = search(tx, result.unit)
        if found:
            note = f"{result.note}; {found}" if result.note else found
            result = replace(result, summary=f"{result.summary}; {found}", note=note)
        tx.summary = result.summary
    return result


def rm(t: Target, name: str) -> units.Removed:
    """``d2d unit rm NAME``: the unit leaves the roster; units targeting it lose the
    target."""
    result: units.Removed = roster_change(t, lambda roster: units.remove(roster, name))
    return result


def heal(t: Target, name: str, *, crit: list[str] | None = None,
         days: int | None = None) -> conditions.Healed:
    """``d2d unit heal NAME [--crit LOCATION|N]… [--days N]``."""
    def step(roster: dict[str, units.Unit], data: dict[str, Any]) -> conditions.Healed:
        order = conditions.healing(crit or [], days, t.options(data).days_heal)
        return conditions.heal(roster, name, order)

    result: conditions.Healed = roster_change_reading(t, step)
    return result


def target(t: Target, name: str, tgt: str | None = None, *,
           clear: bool = False) -> units.UnitRow:
    """``d2d unit target NAME [TARGET] [--clear]``."""
    result: units.UnitRow = roster_change(
        t, lambda roster: units.set_target(roster, name, tgt, clear))
    return result


def wait(t: Target, name: str, count: int) -> turns.Waited:
    """``d2d unit wait NAME COUNT`` (001 l.503–505)."""
    from d2d_cli.rules.time import turns


    return in_round(t, lambda roster, n, phase: turns.wait(roster, n, phase, name, count))


def face(t: Target, name: str, heading: str) -> turns.Faced:
    """``d2d unit face NAME HEADING``: set up a Facing without spending Turn."""
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.time import turns

    with t.edit() as tx:  # as roster_change, with the map for a Double-sized unit
        roster = units.roster(tx.data)
        result = turns.face(roster, name, heading, board=board_of(tx.data))
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result


def place(t: Target, name: str, space: str, facing: str | None = None, *,
          double: bool | None = None) -> placement.Placed:
    """``d2d unit place NAME SPACE|off [FACING] [--double|--single]``."""
    from d2d_cli.rules.board import placement
    from d2d_cli.rules.board.grid import board_of

    with t.edit() as tx:
        roster = units.roster(tx.data)
        unit = units.find(roster, name)
        where = None if space.strip().lower() == "off" else space
        result = placement.place(board_of(tx.data), unit, where, facing, double)
        tx.put("units", units.roster_state(roster))
        if where is not None:  # set down there: it sees what is around (no path walked)
            result = _explored(tx, result, None)
        tx.summary = result.summary
    return result


def ability(t: Target, name: str, action: str, which: str | None = None, *,
            skill: str | None = None) -> abilities.Abilities:
    """``d2d unit ability NAME use|drop|list [ABILITY] [--skill SKILL]`` (list reads,
    use and drop change the roster)."""
    from d2d_cli.rules.units import abilities


    if action == "list":
        return abilities.show(units.roster(t.read()), name)
    if action not in ("use", "drop") or which is None:
        raise BadInput("give use ABILITY, drop ABILITY or list")
    ability_ = which
    if action == "use":
        result: abilities.Abilities = roster_change(
            t, lambda roster: abilities.use(roster, name, ability_, skill))
    else:
        result = roster_change(t, lambda roster: abilities.drop(roster, name, ability_))
    return result


def stealth(t: Target, name: str, action: str, count: int | None = None) -> stealth_.Stealth:
    """``d2d unit stealth NAME hide|tick|spot|reveal|show [COUNT]`` (show reads)."""
    from d2d_cli.rules.units import stealth as stealth_


    if action == "show":
        return stealth_.change(units.roster(t.read()), name, action, count)
    result: stealth_.Stealth = roster_change(
        t, lambda roster: stealth_.change(roster, name, action, count))
    return result


def power(t: Target, name: str, action: str, which: str | None = None, *, effect: int = 0,
          price: str | None = None, initiative: int = 0, result: str | None = None,
          range: str | None = None,  # noqa: A002 - the command's --range
          duration: str | None = None, continuous: bool = False, area: int = 0,
          close: bool = False, armor_pierce: int = 0,
          observed: bool | None = None) -> powers.PowerUsed | powers.Upkeep:
    """``d2d unit power NAME use POWER [--effect N]…``, ``upkeep`` or ``end POWER``."""
    from d2d_cli.rules.units import powers


    if action == "use" and which is not None:
        from d2d_cli.rules.time import upkeep

        order = powers.order(which, effect, price, initiative=initiative, result=result,
                             range_=range, duration=duration, continuous=continuous,
                             area_points=area, close=close, armor_pierce=armor_pierce,
                             observed=observed)
        def use(roster: dict[str, units.Unit], n: int, phase: str,
                data: dict[str, Any]) -> powers.PowerUsed:
            opts = t.options(data)  # the locked state's [rules]
            return upkeep.use_power(roster, n, phase, name, order, opts.power_area, opts)

        used: powers.PowerUsed = in_round_reading(t, use)
        return used
    if action == "upkeep" and which is None:
        kept: powers.Upkeep = in_round(t, lambda roster, n, phase: powers.upkeep(
            roster, name, price, n))
        return kept
    if action == "end" and which is not None:
        power_ = which
        ended: powers.Upkeep = roster_change(t, lambda roster: powers.end(roster, name,
                                                                          power_))
        return ended
    raise BadInput("give use POWER, upkeep, or end POWER")


def situation(t: Target, name: str, *, vs: str | None = None, cover: int | None = None,
              range: int | None = None,  # noqa: A002 - the command's --range
              high_ground: bool | None = None, clear: bool = False) -> exchange.Said:
    """``d2d unit situation NAME [--vs OTHER] [--cover PCT] [--range N] [--high-ground]``."""
    from d2d_cli.rules.time import exchange


    return in_round(t, lambda roster, n, phase: exchange.say(
        roster, n, phase, name, vs, cover, range, high_ground, clear))


def interrupt(t: Target, name: str, target: str) -> exchange.Interrupted:
    """``d2d unit interrupt NAME TARGET`` (000 l.126)."""
    from d2d_cli.rules.time import exchange


    return in_round(t, lambda roster, n, phase: exchange.interrupt(roster, n, phase, name,
                                                                   target))


def respond(t: Target, name: str, *, action: bool = True) -> exchange.Responded:
    """``d2d unit respond NAME [--action|--no-action]`` (001 l.639–641)."""
    from d2d_cli.rules.time import exchange


    return in_round(t, lambda roster, n, phase: exchange.respond(roster, n, phase, name,
                                                                 action))


def list_(t: Target) -> units.Roster:
    """``d2d unit list``: every unit and character, in the order they were added, as the
    Status Bar shows them."""
    from d2d_cli.rules.units import status_bar

    data = t.read()
    opts = t.options(data)
    return on_the_bar(lambda known: status_bar.status_bar(data, opts, known))


def show(t: Target, name: str) -> units.UnitRow:
    """``d2d unit show NAME``: one unit as the Status Bar shows it."""
    from d2d_cli.rules.units import status_bar

    data = t.read(shared=True)  # only read: the row is built on a copy of the unit
    opts = t.options(data)
    return on_the_bar(lambda known: status_bar.unit_on_bar(data, name, opts, known))


def side(t: Target, name: str, *, faction: str | None = None, no_faction: bool = False,
         player: str | None = None, new: bool = False) -> sides_.SideRow:
    """``d2d unit side NAME [--faction F | --no-faction] [--player P]``: the unit's side
    and who plays it (a ``rules.units.sides.SideRow``; ``--player Non-Player`` makes it a
    Non-Player again)."""
    from d2d_cli.errors import BadInput
    from d2d_cli.rules.units import sides

    if faction is None and player is None and not no_faction:
        raise BadInput("give --faction F, --no-faction or --player P (Non-Player for none)")
    if faction is not None and no_faction:
        raise BadInput("--faction and --no-faction: give one")
    with t.edit() as tx:
        table = dict(tx.data.get("units", {}))
        real = units.find(units.roster_view(tx.data), name).name
        state = dict(table[real])
        faction, player = sides.resolve_side(tx.data, faction, player, new)
        result = sides.set_side(state, real, faction=faction, player=player,
                                clear_faction=no_faction)
        table[real] = state
        tx.put("units", table)
        tx.summary = result.summary
    return result


def person_locations(t: Target, opts: Options) -> tuple[str, ...]:
    """The person chart's locations (the table's ``[rules] locations_file``, else
    d2d's): what armor and a Shield may cover."""
    from d2d_cli.operations.crits import location_charts
    from d2d_cli.rules.combat import crits

    return tuple(crits.chart("person", location_charts(t.path(), opts),
                             str(opts.locations_file)).names())


def gear_add(t: Target, name: str, item: str | None = None, *, rating: str | None = None,
             types: str | None = None, hands: int | None = None, melee: bool = False,
             reach: bool = False, range: str | None = None, thrown: bool = False,
             scale: int | None = None, magic: int | None = None,
             proficiency: str | None = None, armor: str | None = None,
             shield: str | None = None, covers: str | None = None,
             arc: str | None = None, proficient: list[str] | None = None) -> gear.GearView:
    """``d2d unit gear add UNIT [ITEM] [--rating R --types T …] [--armor R | --shield R]
    [--proficient TYPE]…``: a sample item by name, or one's own (issue 36)."""
    from d2d_cli.rules.units import gear

    kinds = [k for k, on in (("melee", melee), ("reach", reach), ("thrown", thrown)) if on]
    if len(kinds) > 1:
        raise BadInput(f"--{' and --'.join(kinds)}: a weapon is one kind of attack")
    if (melee or reach) and range is not None:
        raise BadInput("--range is a ranged or thrown weapon's; --melee and --reach reach "
                       "Range 0-1 and 0-2 (001 l.687–689)")
    ask = gear.GearAsk(item, rating, types, hands, kinds[0] if kinds else None, range,
                       scale, magic, proficiency, armor, shield, covers, arc,
                       tuple(proficient or ()))
    return _gear_change(t, name, lambda extra, real, locs: gear.give(extra, real, ask, locs))


def gear_rm(t: Target, name: str, item: str | None = None, *,
            proficient: list[str] | None = None) -> gear.GearView:
    """``d2d unit gear rm UNIT ITEM|armor|shield [--proficient TYPE]…``."""
    from d2d_cli.rules.units import gear

    return _gear_change(t, name, lambda extra, real, _: gear.take(
        extra, real, item, tuple(proficient or ())))


def gear_show(t: Target, name: str) -> gear.GearView:
    """``d2d unit gear show UNIT``: its weapons (or Hand to Hand), armor, Shield."""
    from d2d_cli.rules.units import gear

    data = t.read()
    unit = units.find(units.roster_view(data), name)
    return gear.view(unit.name, unit.extra)


def _gear_change(t: Target, name: str,
                 step: Callable[[dict[str, Any], str, tuple[str, ...]], str]
                 ) -> gear.GearView:
    from d2d_cli.rules.units import gear

    with t.edit() as tx:
        table = dict(tx.data.get("units", {}))
        real = units.find(units.roster_view(tx.data), name).name
        state = dict(table[real])
        done = step(state, real, person_locations(t, t.options(tx.data)))
        table[real] = state
        tx.put("units", table)
        tx.summary = f"{real}: {done}"
        return gear.view(real, state, done)
