"""Where an NPC moves on the map before its Action (docs/solo.md "Movement").

Every judgement is the board's own (``rules.board``): ``moves.reachable`` for the
cheapest Route to each Space with the Facing kept (001 l.529 "this does not change
facing"), ``sight.arc`` for the Turn that brings the target into Arc:Front,
``Field.refusal`` for whether the attack is possible from there (001 l.633–635 "Verify
Target is in Arc, Range, and Line of Sight") and ``Field.derive`` for Cover (000
l.330–332) and Flanking (000 l.324–326). Nothing here measures the map itself.

The choice (:func:`approach`): among the Spaces reachable with the Move that still
leaves the Action Cost (001 l.545), those from which the attack is not refused; of
those first one where its Range gives no Disadvantage (Ranged at Range 0–1, 001
l.693–695), then the one where the unit has the most Cover against its target, the target's
Arc:Back, then its Arc:Left/Right (Flanking), then the least Move, the fewest Turns and
the Space's name. When none is in reach, the unit closes in with all its Move (least
Range left, then Cover, then Move). A Dying unit (:func:`withdraw`) goes where the
nearest standing Rival is farthest, with all its Move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property, lru_cache
from typing import Any

from d2d_cli.errors import D2DError, RuleViolation
from d2d_cli.rules.board import sight
from d2d_cli.rules.board.derive import (
    Field,
    Geometry,
    arcs_of,
    cover_reading,
    field,
    placed_range,
    rival_arc,
)
from d2d_cli.rules.board.edge import Exit
from d2d_cli.rules.board.grid import COMPASS, Space, parse_board, space_name
from d2d_cli.rules.board.moves import reachable, turned
from d2d_cli.rules.board.placement import Placement, placement_of
from d2d_cli.rules.core import by_identity
from d2d_cli.rules.core.record import record


@record
class Movement:
    """A planned movement: the steps (kind, side) of its Route, the Facing after it
    (None: kept), the Space it ends on and the Move and Turn it costs."""

    steps: tuple[tuple[str, str | None], ...]
    facing: str | None
    space: str
    move: int
    turn: int
    in_reach: bool
    why: str

    def commands(self) -> list[tuple[str, ...]]:
        """The ``unit move`` arguments a Narrator would type: runs of the same step
        grouped (``forward 2``, ``drift left``), then the Turn (``turn NE``)."""
        return list(self.moves)

    @cached_property
    def moves(self) -> tuple[tuple[str, ...], ...]:
        """:meth:`commands` as a tuple (a Plan's ``moves``), written out on the first read
        and kept on the Movement (immutable; the planners remember it from fight to
        fight, so the same one is read at many plans). Not a field: equality and repr
        read the fields only."""
        out: list[tuple[str, ...]] = []
        i = 0
        while i < len(self.steps):
            j = i
            while j < len(self.steps) and self.steps[j] == self.steps[i]:
                j += 1
            kind, side = self.steps[i]
            words = [kind.replace("_", "-"), *([side] if side else []),
                     *([str(j - i)] if j - i > 1 else [])]
            out.append(tuple(words))
            i = j
        if self.facing is not None:
            out.append(("turn", self.facing))
        return tuple(out)


def _attack_kinds(unit: Any) -> list[str]:
    """The kinds of attack (close, melee, reach, ranged) the unit's Combat skills give;
    ``close`` for a unit without one (it fights unskilled, hand to hand)."""
    from d2d_cli.rules.combat import situation as sit

    kinds: list[str] = []
    for name, level in unit.skills.items():
        try:
            sk = sit.find_skill(name)
        except D2DError:
            continue
        kind = sit.table()["skill_kind"].get(sk.key)
        if sk.category == "Combat" and level > 0 and kind and kind not in kinds:
            kinds.append(kind)
    from d2d_cli.rules.units.gear import weapons_of

    for w in weapons_of(unit.extra, unit.name):  # issue 36: what it carries reaches too
        if w.kind not in kinds:
            kinds.append(w.kind)
    return kinds or ["close"]


def _weapon_reach(unit: Any) -> int | None:
    """The longest band of the ranged or thrown weapons the unit carries (issue 36), or
    None (no such weapon: a ranged attack's reach is the map's)."""
    from d2d_cli.rules.units.gear import weapons_of

    bands = [w.range[-1] for w in weapons_of(unit.extra, unit.name)
             if w.kind == "ranged" and w.range]
    return max(bands) if bands else None


def _turns_between(a: int, b: int) -> int:
    d = (b - a) % 8
    return min(d, 8 - d)


def _facing_for(f: Field, p: Placement, target: Placement, turn: int,
                arcs: tuple[str, ...] = (sight.FRONT,)) -> tuple[Placement, int] | None:
    """``p`` as it stands when the target is in one of ``arcs`` (the attack's: Arc:Front,
    and for Melee Arc:Left and Arc:Right too, ``rules.board.derive.arcs_of``); else
    turned the fewest 45° steps (Turn 1 each, 000 l.272) that bring it there, if its Turn
    pays them."""
    if p.facing is None:
        return None
    for h, steps in _turn_order(p.facing):
        if steps > turn:
            break
        if sight.arc(p.space, h, target.space) not in (*arcs, None):
            continue
        try:
            return (p if steps == 0 else turned(f.board, p, h)), steps
        except D2DError:
            continue
    return None


@lru_cache(maxsize=8)
def _turn_order(facing: int) -> tuple[tuple[int, int], ...]:
    """Each Facing with the Turn from ``facing`` to it, the fewest first (then by
    index): the order :func:`_facing_for` tries them, worked out once for each Facing."""
    return tuple((h, _turns_between(facing, h))
                 for h in sorted(range(8), key=lambda h: (_turns_between(facing, h), h)))


def _moved(f: Field, p: Placement) -> Field:
    """``f`` with ``p`` moved: a plain Field (``derive.Field``), as the planner reads
    the values of its Geometries only (Range, Arcs, Cover), never the Cover's texts."""
    return Field(f.board, {**f.places, p.unit: p}, f.cover_reading, plain=True)


def _blocked(f: Field, name: str) -> frozenset[Space]:
    return frozenset(s for n, q in f.places.items() if n != name for s in q.spaces)


def _key(data: Mapping[str, Any], rest: tuple[Any, ...], mover: str | None = None
         ) -> tuple[Any, ...]:
    """What a movement plan reads of the session: the map (the Board every plan reads,
    ``parse_board``'s, which is the same Board for maps alike: its ``serial``, a number
    no other Board is given), every placed unit's Space,
    Facing, size and faction (what the map's Field holds of it: where it stands, blocks,
    obstructs and outnumbers), and of the unit that moves (``mover``, for
    :func:`approach`) its skills and weapons (its kinds of attack and their reach) —
    no other unit's, which no plan reads; ``rest``: the plan's own arguments (and, for
    :func:`approach`, ``[rules] cover``). Each part is written afresh from the tables,
    a few look-ups a unit: between two plans most tables are new (every Action stores
    its units anew), and a part kept for each table cost more than it spared. The parts
    are gathered by a plain loop (a comprehension is a call of its own). The mover's
    skills are read as a planner reads them (``Unit.from_state``: each name with ``int``
    of its Level, in the table's order; none when empty or absent): their items in
    order, whose equality is the names' and the Levels' — equal Levels give the same
    ``int`` — so exactly what the plan reads, for less than their ``repr`` (~4 k
    instructions a look)."""
    units = data.get("units", {})
    out: list[Any] = [parse_board(data.get("board")).serial, rest]
    if mover is not None:
        u = units.get(mover, {})
        skills = u.get("skills")
        out.append((tuple(skills.items()) if skills else None,
                    weapons_text(u.get("weapons"))))
    for n, u in units.items():
        space = u.get("space")
        if space:
            out.append((n, space, u.get("facing"), u.get("double"), u.get("faction")))
    return tuple(out)


# ``repr`` of a unit's weapons table, remembered for the very object read: a fight stores a
# changed unit as a new table, but its weapons (kept in ``Unit.extra``) are the same object
# from store to store — never changed in place, as no table is (the keys remembered by
# table rest on the same) — and their nested text is the costliest part of the planner's
# key (~3 µs, written out again at every change of the unit that moves).
weapons_text: Callable[[Any], str] = by_identity(repr, 256)


_PLANS: dict[tuple[Any, ...], Movement | None] = {}


def approach(data: Mapping[str, Any], name: str, target: str, budget: int, move: int,
             turn: int, actions: int = 1) -> Movement | None:
    """The Space, Facing and Route for ``name``'s attack on ``target`` (both placed on
    the session's map), or None off the map. ``budget``: the Move it may spend and
    still pay its Action Cost; ``move``: all its Move (to close in when no Space is in
    reach); ``turn``: its Turn tokens; ``actions``: how many Action Costs the budget
    leaves (for the reason). Remembered by what it reads (:func:`_key`): a
    simulated fight meets the same positions run after run. The Cover it weighs is
    read by ``[rules] cover`` (``derive.cover_reading``), so that is in the key too: a
    long process (``d2d play``) whose session changes it plans anew."""
    if not data.get("board"):
        return None
    key = _key(data, (name, target, budget, move, turn, actions, cover_reading(data)),
               name)  # positional: a call with ``*args`` or keywords packs them anew
    got: Movement | None = _PLANS.get(key, _UNPLANNED)  # one look-up (None: no Space)
    if got is _UNPLANNED:
        if len(_PLANS) > 4096:
            _PLANS.clear()
        got = _PLANS[key] = _approach(data, name, target, budget, move, turn, actions)
    return got


_UNPLANNED: Any = object()  # a plan not yet worked out (None is one: no Space)


def _reach_of(kind: str, ranged: int | None = None) -> int | None:
    """How far an attack of ``kind`` reaches (001 l.685–695); ``ranged``: the reach of
    the unit's ranged weapon (issue 36)."""
    from d2d_cli.rules.combat import situation as sit

    if kind == "ranged" and ranged is not None:
        return ranged
    top = sit.table()["range"][kind].get("max")
    return None if top is None else int(top)


def _disadvantage_at(kind: str) -> tuple[int, ...]:
    """The Ranges at which an attack of ``kind`` is at Disadvantage (Ranged at Range 0–1,
    001 l.693–695): a Space from which it is not is chosen first."""
    from d2d_cli.rules.combat import situation as sit

    return tuple(int(r) for r in sit.table()["range"][kind].get("disadvantage_at", ()))


def _approach(data: Mapping[str, Any], name: str, target: str, budget: int, move: int,
              turn: int, actions: int = 1) -> Movement | None:
    from d2d_cli.rules.units.roster import roster_view

    units = roster_view(data)  # only the units looked up are built
    f = field(data, keep=False)  # read, not kept (derive.field)
    if f is None or name not in f.places or target not in f.places:
        return None
    me, them = f.places[name], f.places[target]
    if me.facing is None:
        return None
    actor, rival = units[name], units[target]
    # the kinds by reach, the farthest first: Verify differs between them only in Range
    # (001 l.685–695), so the farthest is the one to ask; the nearest that reaches names it
    top = _weapon_reach(actor)
    kinds = sorted(_attack_kinds(actor), key=lambda k: -(_reach_of(k, top) or 10**6))
    widest = _reach_of(kinds[0], top)
    # each kind's reach and Ranges at Disadvantage, read once for all the Spaces tried
    # (both read the situation table alone), the nearest kind first
    nearest = [(k, _reach_of(k, top), _disadvantage_at(k)) for k in reversed(kinds)]
    blocked = _blocked(f, name)
    best: tuple[Any, ...] | None = None
    for space, route in reachable(f.board, me, max(0, budget), blocked).items():
        key: tuple[Any, ...]
        at = Placement(me.unit, space, me.facing, me.double, me.faction)
        got = _facing_for(f, at, them, turn, arcs_of(kinds[0]))
        if got is None:
            continue
        p, steps = got
        if widest is not None and sight.distance(space, them.space) > widest + 2:
            continue  # beyond any reach whatever the sizes (Verify would refuse it)
        # The Range first, as the geometry measures it (``placed_range``: between the
        # nearest Spaces of ``p`` and the Rival, the moved Field's two Placements), and
        # what it decides before the geometry is derived: a Space past the longest band
        # (issue 36), or at Disadvantage where a Space without it is found, is passed
        # over whatever its geometry says — derived (its Cover swept, its texts
        # written) only to be dropped, most Spaces a melee unit's Move reaches.
        rng = placed_range(p, them)
        if widest is not None and rng > widest:
            continue  # past the longest band of its ranged weapon (issue 36)
        kind, worse = next((k, rng in far) for k, reach, far in nearest
                           if reach is None or rng <= (reach or 0))
        if worse and best is not None and not best[0][0]:
            continue  # at Disadvantage where a Space in reach is not (the key's first)
        g = _moved(f, p)
        try:
            geo = g.derive(actor, rival, kinds[0])
        except RuleViolation:
            continue
        assert geo is not None
        flank = {sight.BACK: 2, sight.LEFT: 1, sight.RIGHT: 1}.get(geo.rival_arc or "", 0)
        if best is not None and (worse, geo.cover) > best[0][:2]:
            continue  # worse whatever its own Cover: the Rival's geometry is not derived
        mine = _own_cover(g, geo, p, them)
        key = (worse, geo.cover, -mine, -flank, route.move, steps, space_name(space))
        if best is None or key < best[0]:
            best = (key, route, p, steps, mine, geo.rival_arc, kind, geo.range)
    if best is not None:
        return _reached(best, target, budget, actions)
    # No Space in reach: close in with all the Move.
    return _closing_in(f, me, actor, rival, target, budget, move, blocked)


def _own_cover(g: Field, geo: Geometry, p: Placement, them: Placement) -> int:
    """The unit's own Cover against its Rival on ``g`` (000 l.330–332): what the Rival's
    geometry, ``g.derive(rival, unit)``, gives as its ``cover`` — only that value is
    read, so nothing else of that geometry is derived. Where the Rival has no Cover, the
    unit's geometry ``geo`` measured it already (``actor_cover``: the same two Spaces
    the other way round, for units of one Space each — a Double-sized unit's nearest
    Spaces may pair otherwise)."""
    if not geo.cover and geo.range and not p.double and not them.double:
        return int(geo.actor_cover)
    mine = g.cover_named(them.unit, p.unit)
    assert mine is not None  # both placed
    return mine


def _reached(best: tuple[Any, ...], target: str, budget: int, actions: int) -> Movement:
    """The Space found, with why: the attack passes Verify there (001 l.633–635), with the
    least Disadvantage (001 l.693–695) and Cover (001 l.712–720), the most Cover of its
    own (000 l.330–332) and Flanking (000 l.324–326), the Move that keeps the Action Cost
    (001 l.545), then the Turn to face it (001 l.663)."""
    (worse, theirs, *_), route, p, steps, cover, arc, kind, rng = best
    bits = [f"{kind} attack on {target} not refused from {space_name(route.space)} "
            f"(Range {rng}; 001 l.633–635 Verify Arc, Range, Line of Sight)"]
    if _disadvantage_at(kind):
        bits.append(f"at Disadvantage there (Range {rng}, 001 l.693–695): no Space in "
                    "reach avoids it" if worse else f"no Disadvantage at Range {rng} "
                    "(001 l.693–695)")
    bits.append(
        f"{target} has Cover {theirs}% against it there, the least in reach (001 "
        "l.712–720: Level −1 a 25%, the attack may hit the obstacle)" if theirs else
        f"{target} has no Cover against it (001 l.712–720: Cover costs Level and may "
        "send the attack into the obstacle)")
    bits.append(f"Cover {cover}% against {target} (000 l.330–332)" if cover else
                f"no Space in reach gives Cover against {target}")
    if arc in (sight.BACK, sight.LEFT, sight.RIGHT):
        bits.append(f"in {target}'s Arc:{arc.title()} (Flanking, 000 l.324–326)")
    cost = "the Action Cost" if actions == 1 else f"{actions} Action Costs"
    bits.append(f"Move {route.move} of {budget} that leaves {cost} (001 l.545)"
                if route.move else f"no Move spent ({cost} kept, 001 l.545)")
    if steps:
        bits.append(f"Turn {steps} to face {COMPASS[p.facing or 0]} (Arc:Front, "
                    "001 l.663)")
    return Movement(route.steps, COMPASS[p.facing or 0] if steps else None,
                    space_name(route.space), route.move, steps, True, "; ".join(bits))


def _closing_in(f: Field, me: Placement, actor: Any, rival: Any, target: str, budget: int,
                move: int, blocked: frozenset[Space]) -> Movement:
    """No Space in reach lets the attack pass Verify (001 l.633–635): close in with all
    the Move, to the least Range, then the most Cover. The Range is measured from every
    Space between the two Placements (``derive.placed_range``, as ``Field.range`` and
    ``derive`` measure it), with no Field built for it; the moved Field and its Cover
    (a sweep, the costly part) only at the least Range, the only Spaces that can be
    chosen."""
    them = f.places[rival.name]  # the Rival stays where it stands
    ranged: list[tuple[int, Placement, Space, Any]] = []
    for space, route in reachable(f.board, me, max(0, move), blocked).items():
        p = Placement(me.unit, space, me.facing, me.double, me.faction)
        ranged.append((placed_range(them, p), p, space, route))
    least = min(r[0] for r in ranged)  # the start is always reachable
    closest: tuple[Any, ...] | None = None
    for rng, p, space, route in ranged:
        if rng != least:
            continue
        mine = _moved(f, p).cover_named(rival.name, actor.name)
        assert mine is not None  # both placed
        near = (rng, -mine, route.move, space_name(space))
        if closest is None or near < closest[0]:
            closest = (near, route)
    assert closest is not None  # the start is always reachable
    (rng, _, _, _), route = closest
    return Movement(route.steps, None, space_name(route.space), route.move, 0, False,
                    f"no Space within Move {budget} lets the attack on {target} pass "
                    f"Verify (001 l.633–635): closes in to Range {rng} with Move "
                    f"{route.move} of {move}")


def withdraw(data: Mapping[str, Any], name: str, rivals: list[str], move: int
             ) -> Movement | None:
    """A Dying unit's Route away from the standing Rivals: the Space reachable with its
    Move where the nearest of them is farthest (Range, 001 l.681–683), then the least
    Move, then the name. None off the map, or when no Space is farther than its own.
    Remembered by what it reads (:func:`_key`), as :func:`approach` is (Ranges and
    Routes only: no Cover, so ``[rules] cover`` is not read)."""
    if not data.get("board"):
        return None
    key = _key(data, ("withdraw", name, tuple(rivals), move))
    if key not in _WITHDRAWN:
        if len(_WITHDRAWN) > 4096:
            _WITHDRAWN.clear()
        _WITHDRAWN[key] = _withdraw(data, name, rivals, move)
    return _WITHDRAWN[key]


_WITHDRAWN: dict[tuple[Any, ...], Movement | None] = {}


def _withdraw(data: Mapping[str, Any], name: str, rivals: list[str], move: int
              ) -> Movement | None:
    f = field(data, keep=False)  # read, not kept (derive.field)
    if f is None or name not in f.places:
        return None
    me = f.places[name]
    there = [f.places[r] for r in rivals if r in f.places]
    if me.facing is None or not there:
        return None

    def nearest(s: Space) -> int:
        return min(sight.distance(s, q.space) for q in there)

    got = min(reachable(f.board, me, max(0, move), _blocked(f, name)).items(),
              key=lambda sr: (-nearest(sr[0]), sr[1].move, space_name(sr[0])))
    space, route = got
    if nearest(space) <= nearest(me.space):
        return None
    return Movement(route.steps, None, space_name(space), route.move, 0, False,
                    f"Dying: away from the Rivals, the nearest now Range {nearest(space)} "
                    f"(was {nearest(me.space)}; 001 l.681–683), Move {route.move} of {move}")


def get_away(data: Mapping[str, Any], name: str, move: int
             ) -> tuple[Movement, Exit | None] | None:
    """The way off the map for a unit whose goal is to leave it (docs/solo.md "Getting
    away"): the cheapest Route, its Facing kept, to a Space from which a step leaves the
    map (``rules.board.edge.exits``), counting that step's Move. With the Move for all of
    it: the Movement and the step (``unit leave``); else as far along that Route as the
    Move goes, and None for the step. None off the map, or with no way out at all.
    Remembered by what it reads (:func:`_key`), as :func:`approach` is: the way out
    from the same positions is the same, run after run (Routes and the map's edge
    only: no Cover, so ``[rules] cover`` is not read)."""
    if not data.get("board"):
        return None
    key = _key(data, ("get_away", name, move))
    if key not in _AWAY:
        if len(_AWAY) > 4096:
            _AWAY.clear()
        _AWAY[key] = _get_away(data, name, move)
    return _AWAY[key]


_AWAY: dict[tuple[Any, ...], tuple[Movement, Exit | None] | None] = {}


def _get_away(data: Mapping[str, Any], name: str, move: int
              ) -> tuple[Movement, Exit | None] | None:
    from d2d_cli.rules.board.edge import exits, on_edge
    from d2d_cli.rules.board.grid import ahead
    from d2d_cli.rules.board.moves import direction

    f = field(data, keep=False)  # read, not kept (derive.field)
    if f is None or name not in f.places:
        return None
    me = f.places[name]
    if me.facing is None:
        return None
    far = 4 * (f.board.width + f.board.height)  # every Space of the map, whatever it costs
    routes = reachable(f.board, me, far, _blocked(f, name))
    best: tuple[Any, ...] | None = None
    for space, route in routes.items():
        if not on_edge(f.board, space):
            continue  # no step leaves the map from here (edge.exits would find none)
        out = exits(f.board, Placement(me.unit, space, me.facing, me.double, me.faction))
        if out:
            key = (route.move + out[0].move, route.move, space_name(space))
            if best is None or key < best[0]:
                best = (key, route, out[0])
    if best is None:
        return None
    (total, _, _), route, step = best
    if total <= move:
        why = (f"the nearest way off the map: {step.label} from {space_name(route.space)}, "
               f"Move {route.move} + {step.move} of {move}")
        return Movement(route.steps, None, space_name(route.space), route.move, 0, True,
                        why), step
    # Not this round: as far along that Route as the Move goes (each part of a cheapest
    # Route is the cheapest way to where it ends, so ``routes`` prices it).
    here, taken = me.space, 0
    for kind, side in route.steps:
        there = ahead(here, direction(kind, me.facing, side))
        if routes[there].move > move:
            break
        here, taken = there, taken + 1
    part = routes[here]
    return Movement(route.steps[:taken], None, space_name(here), part.move, 0, False,
                    f"the nearest way off the map is {step.label} from "
                    f"{space_name(route.space)}, Move {total} in all: Move {part.move} of "
                    f"{move} this round toward it"), None


def from_behind(data: Mapping[str, Any], actor: str, rival: str) -> bool:
    """Whether ``actor`` stands in ``rival``'s Arc:Back on the map (000 l.326 "Rival
    can't Block"): ``Field.derive``'s Flanking, read from the two units' Placements
    alone (``derive.rival_arc``, the Geometry's own step) — no Field is looked up for it
    (its key reads every unit's table; a fight asks before each Conflict)."""
    if not data.get("board"):
        return False
    units = data.get("units", {})
    a, b = units.get(actor), units.get(rival)
    pa = placement_of(actor, a) if a is not None else None
    pb = placement_of(rival, b) if b is not None else None
    return pa is not None and pb is not None and rival_arc(pa, pb) == sight.BACK


__all__ = ["Movement", "approach", "from_behind", "get_away", "withdraw"]
