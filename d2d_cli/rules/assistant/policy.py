"""The Narrator's policy for a unit's turn (docs/solo.md "The NPC policy").

One function, :func:`plan`, decides for a Non-Player unit (``d2d npc plan``/``turn``) and
for every unit of a simulated fight (``d2d sim``). In order:

1. **Withdraw when Dying** — a Dying or Dead unit takes no Action.
2. **Pursue the faction's goal** — a unit that works an open task its faction's goal
   needs won works the task (the Thief on his Knot); a unit the goal wants ``off map``,
   the rest of that alternative holding (the Knot won), heads for the map's edge and
   leaves it (``unit leave``; ``rules.assistant.movement.get_away``).
3. **Choose the target** — the unit's own target when the Narrator set one (``d2d unit
   target``) and it is a Rival in view; else among the Rivals still standing: first those
   the faction's goal names (``down UNIT``), then those not held by a task (a prisoner is kept, not
   fought); of those, the one this unit is likeliest to beat in a conflict (exact odds
   of ``odds conflict`` from a full deck, at the two sides' Levels), then the lowest
   Difficulty (Body), then the one already holding the most Crits.
4. **Choose the approach** — a Non-Player always Stays and reveals Fate (000 l.417
   "Non-Player Units don't have hands, so they always choose Stay"); a Player's unit
   plays the card of its hand, Upper or Lower, with the best exact chance to win, or
   Stays when no card beats Fate's own chance (000 l.419 "Stay - Return your Conflict
   card to your hand and Reveal a Fate card instead").

Movement (``rules.assistant.movement``): when the unit and its target stand on the
scene's map, the plan moves it first — to the Space, and Facing, from which its attack
passes Verify (001 l.633–635) without Disadvantage, leaving the target the least Cover,
with the most Cover against the target and on its flank, keeping as many Actions as its
Move pays; a Dying unit withdraws from the Rivals. A ``bound`` unit whose task failed
stays bound (no Action, no move). Off the
map the unit spends its Move on Actions only and its conflicts are rolled ``--no-map``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.assistant import movement
from d2d_cli.rules.assistant.asking import can_respond
from d2d_cli.rules.assistant.damage_play import Luck, Offer, luck
from d2d_cli.rules.assistant.goals import Condition, Goal, holds, is_down
from d2d_cli.rules.board.grid import parse_space
from d2d_cli.rules.board.sight import distance
from d2d_cli.rules.combat.situation import known_skill
from d2d_cli.rules.core import Numbering, by_identity, lazy_module
from d2d_cli.rules.core.record import record, replace
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import Card
from d2d_cli.rules.time.leaving import binding
from d2d_cli.rules.units.unit_state import SPENT

if TYPE_CHECKING:
    from d2d_cli.rules.assistant import engine as _engine
    from d2d_cli.rules.assistant.movement import Movement
else:  # the fight's engine, which ``npc plan`` between rounds imports anyway
    _engine = lazy_module("d2d_cli.rules.assistant.engine", globals(), "_engine")

SCORING = ("fast", "strong")


@record
class Reason(Result):
    step: str  # round (a plan made between rounds), target, movement, action, approach
    choice: str
    why: str


@record
class Plan(Result):
    """A unit's turn as the policy proposes it."""

    unit: str
    action: str  # "attack", "task", "withdraw", "move" (closing in), "leave" (off the
    #              map this turn), "away" (toward the map's edge) or "none"
    target: str | None  # a unit, or a task's name
    approach: str  # "fate" (Stay) or a card code from the hand
    # the exact chance to win the conflict (a full deck); None in a fight's plan (no
    # reasons) where the odds choose nothing: a unit revealing Fate at its one Rival
    chance: float | None
    reasons: tuple[Reason, ...]
    # the map: ``unit move`` arguments (each a tuple of words), and the Space it ends on
    moves: tuple[tuple[str, ...], ...] = ()
    space: str | None = None
    # getting away: the ``unit leave`` step (``("backward",)``) taken after the moves
    leaves: tuple[str, ...] = ()
    # issue 36: the weapon it attacks with (``--with``); None: Hand to Hand (000 l.506)
    weapon: str | None = None


@lru_cache(maxsize=4096)
def win_chance(side_a: str, side_b: str, level_a: int, level_b: int, reading: str,
               fate_orientation: str, level_bonus: str) -> tuple[float, float]:
    """(A wins or both win, B wins or both win): ``odds conflict`` from a full deck. A
    unit's Level after its penalties may be below 0 (Fatigue ×2 on a Level 1 skill), as
    ``conflict`` takes it: the Levels are a unit's, not typed ``--level-a`` (issue 27).

    Worked out by what the walk reads (:func:`_odds`): a card side by its approach and,
    where the chart can send it to a tiebreak, its rank (:func:`_sides_alike`); the
    Levels by their difference, the only way ``conflict.tiebreak`` reads them (each
    side's Level Bonus, 001 l.200 and l.767)."""
    alike = _sides_alike(reading)
    return _odds(alike.get(side_a, side_a), alike.get(side_b, side_b), level_a - level_b,
                 reading, fate_orientation, level_bonus)


@lru_cache(maxsize=4096)
def _odds(side_a: str, side_b: str, difference: int, reading: str, fate_orientation: str,
          level_bonus: str) -> tuple[float, float]:
    """:func:`win_chance` of one reading of the sides and one difference of Levels: the
    walk at Levels (difference, 0) or (0, −difference). A fight's hands meet a new card
    face at a new pair of Levels now and then for hundreds of fights; most read as one
    already walked (a 7 of Cups and of Swords are both a Fast 7)."""
    from d2d_cli.rules.odds.exact import DeckView, Piles, conflict_odds

    got = conflict_odds(side_a, side_b, Piles.fresh(), DeckView("fresh", 54, 0),
                        level_a=max(difference, 0), level_b=max(-difference, 0),
                        reading=reading, fate_orientation=fate_orientation,
                        level_bonus=level_bonus, typed=False)
    both = got.both_win.value
    return got.a_wins.value + both, got.b_wins.value + both


@lru_cache(maxsize=4)
def _sides_alike(reading: str) -> dict[str, str]:
    """Each card code → the first code (full deck order, Upper then Lower) that a card
    side of ``conflict_odds`` reads the same under chart ``reading``: a card given
    (not revealed) is read as its approach (``conflict.approach_of``: the orientation
    played, never its colour) and its rank, and the rank only in a tiebreak, which the
    chart asks only between approaches it marks ``rank`` (001 l.767). Any other text
    (``fate``) is its own."""
    from d2d_cli.rules.combat import conflict
    from d2d_cli.rules.deck.cards import full_deck

    chart = conflict.chart(reading)
    ranked = {a for a, row in chart.items() for b, got in row.items() if got == "rank"}
    ranked |= {b for row in chart.values() for b, got in row.items() if got == "rank"}
    first: dict[tuple[str, str | None], str] = {}
    out: dict[str, str] = {}
    for card in full_deck():
        for face in (card.flipped(True), card.flipped(False)):
            approach = conflict.approach_of(face)
            read = (approach, face.rank if approach in ranked else None)
            out[face.code] = first.setdefault(read, face.code)
    return out


def best_card(hand: Sequence[Card], levels: tuple[int, int], opts: Any, *,
              attacking: bool, no_block: bool = False) -> tuple[str, float]:
    """The card (code) of ``hand`` with the best chance against a Fate reveal, or "fate"
    (Stay) when none beats Stay. Attacking: the most wins with a Hit-scoring approach;
    defending: the fewest wins for the attacker; ``no_block``: the attacker is in the
    defender's Arc:Back, so it cannot Block (000 l.326 "Rival can't Block")."""
    return _best_card(tuple(hand), levels[0], levels[1], opts.conflict_chart,
                      opts.fate_orientation, opts.level_bonus, attacking, no_block)


def _best_card(hand: tuple[Card, ...], la: int, lb: int, reading: str,
               fate_orientation: str, level_bonus: str, attacking: bool,
               no_block: bool) -> tuple[str, float]:
    """:func:`best_card` over the score table of these Levels and ``[rules]``
    (:func:`_scores`): each card's faces, Upper then Lower, scored once for them — a
    hand seldom comes back as it was (a card played, one drawn), its cards do."""
    no_block = no_block and not attacking  # the defender's alone: one table attacking
    stay, table = _scores(la, lb, reading, fate_orientation, level_bonus, attacking,
                          no_block)
    faces: list[tuple[str, tuple[float, int]]] = []
    for c in hand:  # each card's faces, scored the first time the table meets the card
        got = table.get(id(c))
        faces += got[1] if got is not None and got[0] is c else _scored(
            table, c, la, lb, reading, fate_orientation, level_bonus, attacking, no_block)
    if attacking:
        # Stay counts half its chance: about half of Fate's reveals are Lower
        # (Block, Evade, Counter), whose wins score no Hits (001 l.814).
        best, score = "fate", (stay / 2, 0)
        for code, s in faces:
            if s > score:
                best, score = code, s
        return best, score[0] * 2 if best == "fate" else score[0]
    best, worst = "fate", stay
    for code, s in faces:
        if s[0] < worst - 1e-12:
            best, worst = code, s[0]
    return best, 1 - worst


# The score tables of :func:`_best_card`, one for each Levels, ``[rules]`` and side
# (attacking, or defending with or without Block): Stay's chance, and for each card
# (a Card is frozen) the code and score of each of its faces that can be played there.
# A card is found by its identity, held beside its faces (so its id is never another
# card's while kept): a Card's hash is a call in Python, an id is not, and a fight's
# hands hold the same few Card objects (its decks' cards are built once); an equal card
# built anew is only scored again.
_Faces = tuple[tuple[str, tuple[float, int]], ...]
_SCORES: dict[tuple[Any, ...], tuple[float, dict[int, tuple[Card, _Faces]]]] = {}


def _scores(la: int, lb: int, reading: str, fate_orientation: str, level_bonus: str,
            attacking: bool, no_block: bool
            ) -> tuple[float, dict[int, tuple[Card, _Faces]]]:
    key = (la, lb, reading, fate_orientation, level_bonus, attacking, no_block)
    got = _SCORES.get(key)
    if got is None:
        if len(_SCORES) >= 1024:
            _SCORES.clear()
        got = _SCORES[key] = (win_chance("fate", "fate", la, lb, reading,
                                         fate_orientation, level_bonus)[0], {})
    return got


def _scored(table: dict[int, tuple[Card, _Faces]], c: Card, la: int, lb: int, reading: str,
            fate_orientation: str, level_bonus: str, attacking: bool,
            no_block: bool) -> _Faces:
    """A card's faces in ``table``: Upper then Lower (000 l.413, the Player chooses),
    each that can be played with its :func:`_face_score`."""
    faces = []
    for face in (c.flipped(True), c.flipped(False)):
        s = _face_score(face, la, lb, reading, fate_orientation, level_bonus, attacking,
                        no_block)
        if s is not None:
            faces.append((face.code, s))
    got = tuple(faces)
    table[id(c)] = (c, got)
    return got


@lru_cache(maxsize=8192)
def _face_score(c: Card, la: int, lb: int, reading: str, fate_orientation: str,
                level_bonus: str, attacking: bool, no_block: bool
                ) -> tuple[float, int] | None:
    """One face of a card in :func:`_best_card`, remembered by all it reads (a hand
    seldom comes back in the same order, its cards often do): attacking, (its chance to
    win, how well it scores Hits), None when its approach scores no Hits; defending,
    (the attacker's chance against it,), None when it is a Block the attacker in its
    Arc:Back does not allow."""
    from d2d_cli.rules.combat.conflict import approach_of, hit_value

    keys = (reading, fate_orientation, level_bonus)
    if attacking:
        if approach_of(c) not in SCORING:
            return None
        return win_chance(c.code, "fate", la, lb, *keys)[0], hit_value(c)
    if no_block and approach_of(c) == "block":
        return None
    return win_chance("fate", c.code, la, lb, *keys)[0], 0


def responds(data: Mapping[str, Any], name: str, opts: Any) -> bool:
    """The Target's Action (001 l.639–641 "Target may spend an Action / IF not Target
    gains no benefits on a Win"), the policy's choice for a Non-Player unit (and, in
    ``sim``, for every unit): spend it whenever the unit's Move pays the Action Cost and
    it is not down — a defence that can be won (Keep, Draw, Hits, the counter-attack,
    Evade's Move) is worth the Action it may not reach later in the Round."""
    unit = data["units"][name]
    return not is_down(unit) and can_respond(unit)


def skill_for(unit: Mapping[str, Any]) -> str | None:
    """The skill a unit fights with: None (its best Combat skill, as ``conflict``
    chooses) when it holds one, else ``none`` (Level 0, no applicable skill)."""
    known = _KNOWN_SKILLS
    for name, level in unit.get("skills", {}).items():
        # a name the table does not know is passed over; each name's skill is looked up
        # once (``known_skill`` reads the name and the skills table, read once a process)
        sk = known.get(name, _UNSEEN)
        if sk is _UNSEEN:
            if len(known) >= 1024:
                known.clear()
            sk = known[name] = known_skill(name)
        if sk is not None and int(level) > 0 and sk.category == "Combat":
            return None
    return "none"


_KNOWN_SKILLS: dict[str, Any] = {}  # a skill's name → known_skill's answer (None: unknown)
_UNSEEN: Any = object()


def _levels(data: dict[str, Any], a: str, b: str, opts: Any,
            roster: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Both sides' Levels for a fight, as ``conflict`` works them out (its situation:
    skills, Level Bonus, the stats' penalties), remembered by what they depend on: units
    alike in skills, stats and conditions get the same Levels without a second look."""
    units = data["units"]
    return _levels_of(units, a, b, _fighter_key(units[a]), roster)


def _levels_of(units: Mapping[str, Any], a: str, b: str, key_a: int,
               roster: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """:func:`_levels` with ``a``'s fighter key already read (a plan reads its own unit's
    once for all its candidates)."""
    key = (key_a, _fighter_key(units[b]))
    got = _LEVELS.get(key)
    if got is None:
        from d2d_cli.rules.combat.situation import Terms, Who, assess
        from d2d_cli.rules.units.roster import Unit

        ua = roster[a] if roster is not None else Unit.from_state(a, units[a])
        ub = roster[b] if roster is not None else Unit.from_state(b, units[b])
        sit = assess(Who(ua, None), Who(ub, None, "--level-b"), Terms(),
                     skill=skill_for(units[a]))  # off the map, as the engine rolls
        got = _LEVELS[key] = (sit.a.level, sit.b.level)
        if len(_LEVELS) > 4096:
            _LEVELS.clear()
    return got


_LEVELS: dict[tuple[Any, ...], tuple[int, int]] = {}


# Everything of a unit a situation off the map could read (``assess`` without a Field,
# and the weapon choice, whose Range is keyed apart), as a number (rules.core.Numbering):
# the engine's reading of the table (``engine.reading``: every field but the round's
# tokens and Actions, the Crits placed, where it stands and the Interact aimed at it —
# read by a Field or by rules.combat.remembered only) and this round's boosts (the spent
# table, which that reading leaves out: its boosts count in the Levels). Equal readings
# hold the same skills, stats, conditions, effects, gear and boosts, so the same Levels
# and weapon; the reading is a little finer than a situation (it keeps the target, the
# Player and the faction), which is only a miss. One reading a table serves the
# assessments and the policy alike: a fight numbered ~20 tables a fight twice before.
# Remembered for the very table read (by_identity: a fight stores a changed unit as a
# new table, never changing one in place).
_NUMBERS = Numbering(4096)
_fighter_key: Callable[[Mapping[str, Any]], int] = by_identity(
    lambda u: _NUMBERS(_fighter_key_of(u)), 1024)


def _fighter_key_of(u: Mapping[str, Any]) -> tuple[Any, ...]:
    spent = u.get(SPENT)
    # a unit's table as stored (the reading's own type; it reads, never changes it)
    return (_engine.reading(u), None if spent is None else  # type: ignore[arg-type]
            repr(tuple(spent.get("boosts", ()))))


def _goal_reads(goal: Goal) -> tuple[frozenset[str], frozenset[str]]:
    """What a plan reads of its faction's goal: the tasks it wants won and the units it
    wants down — worked out once for each Goal (a frozen record, never changed), not at
    every turn of a fight (the units it wants off the map: :func:`_goal_away`)."""
    got = _GOAL_READS.get(id(goal))
    if got is not None and got[0] is goal:
        return got[1]
    conds = [c for alt in goal.any for c in alt]
    reads = (frozenset(c.names[0] for c in conds if c.kind == "task_won"),
             frozenset(n for c in conds if c.kind == "down" for n in c.names))
    if len(_GOAL_READS) >= 64:
        _GOAL_READS.clear()
    _GOAL_READS[id(goal)] = (goal, reads)
    return reads


_GOAL_READS: dict[int, tuple[Goal, tuple[frozenset[str], frozenset[str]]]] = {}

# A goal's alternatives that want a unit off the map, in the goal's order: for each, its
# other conditions (those that must hold for the unit to get away) and its text.
_Away = tuple[tuple[tuple[Condition, ...], str], ...]


def _goal_away(goal: Goal) -> dict[str, _Away]:
    """For each unit an alternative of the goal wants off the map, those alternatives
    (:data:`_Away`), read by :func:`_getting_away` — worked out once for each Goal (a
    frozen record of frozen Conditions, never changed), not searched for the unit, nor
    their texts joined, at every plan."""
    got = _GOAL_AWAY.get(id(goal))
    if got is not None and got[0] is goal:
        return got[1]
    away: dict[str, list[tuple[tuple[Condition, ...], str]]] = {}
    for alt in goal.any:
        wants = {n for c in alt if c.kind == "off_map" for n in c.names}
        rest = tuple(c for c in alt if c.kind != "off_map")
        text = ", ".join(c.text for c in alt)
        for n in sorted(wants):
            away.setdefault(n, []).append((rest, text))
    found = {n: tuple(alts) for n, alts in away.items()}
    if len(_GOAL_AWAY) >= 64:
        _GOAL_AWAY.clear()
    _GOAL_AWAY[id(goal)] = (goal, found)
    return found


_GOAL_AWAY: dict[int, tuple[Goal, dict[str, _Away]]] = {}


def _goal_task(name: str, data: Mapping[str, Any], wanted: frozenset[str]) -> str | None:
    """The open task the goal wants won (``wanted``, its :func:`_goal_reads`) that the
    unit works, if any."""
    if not wanted:  # the goal wants no task won (Combat #1's Goblins): no task read
        return None
    for tname, t in data.get("tasks", {}).items():
        if tname in wanted and name in t.get("workers", ()) and \
                t.get("challenge", 0) > 0 and t.get("progress", 0) > 0:
            return str(tname)
    return None


def _held(data: Mapping[str, Any]) -> set[str]:
    """Units held by a task (its workers while it is open): prisoners, not fighters; and
    a ``bound`` unit whose task failed (:func:`_still_bound`)."""
    out: set[str] = set()
    units = data.get("units", {})
    for t in data.get("tasks", {}).values():
        if t.get("challenge", 0) > 0 and t.get("progress", 0) > 0:
            out.update(t.get("workers", ()))
        elif t.get("challenge", 0) > 0:
            out.update(w for w in t.get("workers", ()) if units.get(w, {}).get("bound"))
    return out


def _still_bound(name: str, unit: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    """The failed task that still holds a ``bound`` unit (Combat #1's Thief when the Task
    Clock has run his Knot's Progress out): "Fail - IF no Progress THEN Fail" (001
    l.1020) ends the attempt, not the binding, so the unit neither moves nor fights."""
    if not unit.get("bound"):
        return None
    for tname, t in data.get("tasks", {}).items():
        if name in t.get("workers", ()) and t.get("challenge", 0) > 0 \
                and t.get("progress", 0) <= 0:
            return str(tname)
    return None


def hidden(unit: Mapping[str, Any]) -> bool:
    """A unit with Stealth tokens is Hidden: no Rival targets it until found (000
    l.1201 "Hidden - A Unit or Item that cannot automatically be noticed")."""
    tokens = unit.get("stealth")
    if not tokens:  # none held (the usual case: every unit at every plan): int(0) > 0
        return False
    return int(tokens) > 0


def walk_cap(unit: Mapping[str, Any]) -> int | None:
    """The Move a Hidden unit may still spend on Movement this Round (000 l.804 "Forced:
    Maximum Move=Tokens", less what it has moved), or None when it is not Hidden."""
    if not hidden(unit):
        return None
    moved = int((unit.get("effects") or {}).get("moved_hidden", 0) or 0)
    return max(0, int(unit.get("stealth", 0)) - moved)


def plan(data: dict[str, Any], name: str, goals: Mapping[str, Goal], opts: Any,
         hand: Sequence[Card] | None = None, explain: bool = True) -> Plan:
    """The unit's turn: what it does, at whom, how, and why (one line each). With
    ``explain`` False — a simulated fight, whose reasons nobody reads (issue 40: "nothing
    rendered that nobody reads") — the same Plan with no reasons: none is written; and
    where the odds choose nothing (a unit revealing Fate at its one candidate, whose
    chance no fight reads) no chance either: ``chance`` is None."""
    return _plan(data, name, goals, opts, hand, explain)


def _plan(data: dict[str, Any], name: str, goals: Mapping[str, Goal], opts: Any,
          hand: Sequence[Card] | None, explain: bool) -> Plan:
    units = data.get("units", {})
    unit = units[name]
    faction = unit.get("faction")
    goal = goals.get(faction) if faction else None
    reads = _goal_reads(goal) if goal is not None else None  # read once for the plan
    move, cost = unit.get("move"), unit.get("action_cost")
    cap = walk_cap(unit)  # a Hidden unit's Move for Movement (None: all of it)
    # The rarer turns (none, withdrawing, getting away) write their reasons only where
    # they are read (``explain``): a fight's plan is the same Plan with none.
    if unit.get("off_map"):
        return Plan(name, "none", None, "fate", None, (
            Reason("action", "none", "it has left the map (d2d unit leave)"),)
            if explain else ())
    if is_down(unit):
        return _withdraw_plan(data, name, cap, explain)
    task = _goal_task(name, data, reads[0]) if reads is not None else None
    if task is not None:
        return _task_plan(name, faction, task, opts, hand, explain)
    failed = _still_bound(name, unit, data)
    if failed is not None:
        return Plan(name, "none", None, "fate", None, (
            Reason("action", "none", f"still {unit.get('bound')}: the task {failed} "
                   "failed (Progress 0, 001 l.1020 \"Fail - IF no Progress THEN Fail\"); "
                   "a new attempt is a new task"),) if explain else ())
    wanted = _getting_away(name, data, goal)
    if wanted is not None and move is not None:
        got = movement.get_away(data, name, _walkable(int(move), cap))
        if got is not None:
            return _away_plan(name, wanted, *got, explain)
    named = reads[1] if reads is not None else frozenset()
    rivals = []  # a plain loop: a comprehension is a call of its own, at every plan
    for n, u in units.items():
        if u.get("faction") != faction and not is_down(u) and not u.get("off_map") \
                and not hidden(u):
            rivals.append(n)
    # who a task holds is read only when no Rival in view is one the goal names (those
    # come first, whoever holds them: _target)
    held = _held(data) if named.isdisjoint(rivals) else set()
    if not rivals:
        none: tuple[Reason, ...] = ()
        if explain:
            unseen = [n for n, u in units.items() if u.get("faction") != faction
                      and not is_down(u) and not u.get("off_map")]
            why = (f"no Rival in view: {', '.join(unseen)} Hidden (000 l.1201 \"Hidden - "
                   "A Unit or Item that cannot automatically be noticed\")" if unseen
                   else "no Rival is standing")
            none = (Reason("target", "none", why),)
        return Plan(name, "none", None, "fate", None, none)
    target, approach, chance, why_target = _target(data, name, rivals, named, held, opts,
                                                   hand, explain)
    way = _way_to(data, name, target, cap)
    steps: tuple[tuple[str, ...], ...] = ()
    if not explain:  # the same choices as below, no reason written
        # (every field by position: a record's keyword path is the dearer one)
        if way is None:
            weapon, _ = choose_weapon(data, name, target, None)
            return Plan(name, "attack", target, approach, chance, (), (), None, (), weapon)
        steps = way.moves
        if not way.in_reach:
            return Plan(name, "move", target, approach, chance, (), steps, way.space)
        weapon, _ = choose_weapon(data, name, target, way.space)
        return Plan(name, "attack", target, approach, chance, (), steps, way.space, (),
                    weapon)
    assert why_target is not None and chance is not None  # explained: both worked out
    if way is None:
        moving = Reason("movement", "stay put", "off the map (the unit or its target not "
                        "placed): its Move pays for Actions, rolled --no-map"
                        + (f" (Move {move}, Action Cost {cost})" if move is not None
                           else " (no round under way: d2d round start)"))
    else:
        steps = way.moves
        moving = Reason("movement", f"to {way.space}" + (f", facing {way.facing}"
                        if way.facing else "") if steps else "stay put", way.why)
        if not way.in_reach:
            return Plan(name, "move", target, approach, chance, (
                why_target, moving,
                Reason("action", "none", f"{target} is out of reach this round")),
                steps, way.space)
    weapon, why_weapon = choose_weapon(data, name, target, way.space if way else None)
    return Plan(name, "attack", target, approach, chance, (
        why_target, moving,
        Reason("action", "Interact (Fight)", f"attack {target}"
               + (f": Move −{cost}" if cost else "")),
        *((why_weapon,) if why_weapon is not None else ()),
        _approach_reason(approach, chance, hand)), steps,
        way.space if way is not None else None, weapon=weapon)


def choose_weapon(data: Mapping[str, Any], name: str, target: str,
                  space: str | None = None) -> tuple[str | None, Reason | None]:
    """Issue 36: of the weapons the unit carries, the one to attack ``target`` with —
    those that reach it (its Range on the map, from ``space`` when the plan moves
    there), then the most Hits its Power adds through the Rival's armor (001 l.908–936;
    the Rival's heaviest armor), then the greater Power. None and no reason: it carries
    none (Hand to Hand, 000 l.506, as before)."""
    units = data.get("units", {})
    unit = units[name]
    if not unit.get("weapons"):  # none carried (gear.weapons_of gives none)
        return None, None
    rival = units.get(target)
    armor = rival.get("armor") if rival is not None else None
    rng = _range_to(data, name, target, space)
    # Remembered by all it reads: the unit as a situation reads it (stats, conditions,
    # weapons, boosts), the Rival's armor and the Range (a fight asks every Action). No
    # armor (most Rivals) is None in the key, any other its ``repr`` (a text, never None).
    key = (name, target, _fighter_key(unit), None if armor is None else repr(armor), rng)
    got = _WEAPON_CHOICE.get(key)
    if got is not None:
        return got
    from d2d_cli.rules.combat.crits import bonus_hits, power_rating
    from d2d_cli.rules.combat.situation import effective_stat
    from d2d_cli.rules.scale.stats import parse_stat
    from d2d_cli.rules.units import gear
    from d2d_cli.rules.units.roster import Unit

    # The weapons are read (and checked) on a miss only: the key holds their table's
    # content (the fighter's key), and a table refused is never remembered.
    held = gear.weapons_of(units[name], name)
    me = Unit.from_state(name, units[name])
    rated = [str(armor)] if isinstance(armor, str) else [str(v) for v in
                                                          dict(armor or {}).values()]
    worst = max((parse_stat(a) for a in rated), key=lambda x: x.value, default=None)
    scored = []
    for i, w in enumerate(held):
        stat = w.rating.rstrip("+-0123456789").lower()
        try:
            power = power_rating(None, w.rating, str(effective_stat(me, stat))
                                 if stat in me.stats else None)
        except (BadInput, KeyError):
            continue
        reach = rng is None or w.reaches(rng)
        scored.append((reach, bonus_hits(power, worst), power.value, -i, w, power))
    if not scored:
        return None, None
    reach, hits, _, _, w, power = max(scored, key=lambda x: x[:4])
    against = f"{target}'s armor {worst}" if worst is not None else f"{target}: no armor"
    where = f"; reaches Range {rng}" if rng is not None and reach else (
        f"; none reaches Range {rng}" if rng is not None else "")
    got = w.name, Reason("weapon", w.name, f"{w.text()}: Power {power} vs {against}: "
                         f"Hits +{hits} (001 l.908–936){where}")
    if len(_WEAPON_CHOICE) >= 1024:
        _WEAPON_CHOICE.clear()
    _WEAPON_CHOICE[key] = got
    return got


_WEAPON_CHOICE: dict[tuple[Any, ...], tuple[str | None, Reason | None]] = {}


def _range_to(data: Mapping[str, Any], name: str, target: str,
              space: str | None) -> int | None:
    units = data.get("units", {})
    there = space or units[name].get("space")
    rival = units.get(target)
    them = rival.get("space") if rival is not None else None
    if not there or not them or not data.get("board"):
        return None
    # The Range between the two Spaces' texts, remembered by both texts (all it reads; a
    # fight's plans ask it again and again of the same few Spaces). A text refused
    # raises at every look (nothing is kept). ``str`` of a text is that text: not called.
    key = (there if type(there) is str else str(there),
           them if type(them) is str else str(them))
    got = _RANGES.get(key)
    if got is None:
        if len(_RANGES) >= 4096:
            _RANGES.clear()
        got = _RANGES[key] = distance(parse_space(key[0]), parse_space(key[1]))
    return got


_RANGES: dict[tuple[str, str], int] = {}


def _withdraw_plan(data: dict[str, Any], name: str, cap: int | None,
                   explain: bool = True) -> Plan:
    """A Dying unit takes no Action and leaves the fight, away from the Rivals standing
    (``explain`` False: no reason written)."""
    units = data.get("units", {})
    unit = units[name]
    faction = unit.get("faction")
    move = unit.get("move")
    away = None
    if move and not unit.get("conditions", {}).get("dead"):
        standing = [n for n, u in units.items()
                    if u.get("faction") != faction and not is_down(u)]
        away = movement.withdraw(data, name, standing, _walkable(int(move), cap))
    reasons: tuple[Reason, ...] = ()
    if explain:
        reasons = (Reason("action", "withdraw", "Dying: the unit leaves the fight "
                          "(no Action)"),)
        if away is not None:
            reasons = (Reason("movement", f"to {away.space}", away.why), *reasons)
    if away is None:
        return Plan(name, "withdraw", None, "fate", None, reasons)
    return Plan(name, "withdraw", None, "fate", None, reasons, away.moves, away.space)


def _task_plan(name: str, faction: Any, task: str, opts: Any,
               hand: Sequence[Card] | None, explain: bool = True) -> Plan:
    """The faction's goal needs a task won: the unit works it where it stands (Interact,
    Challenge −Hits on a win)."""
    if hand:  # the best card, or Stay where none beats Fate's own chance (best_card)
        approach, chance = best_card(hand, (0, 0), opts, attacking=True)
    else:  # no card to play: Stay at Fate's own chance (asked only here, not replaced)
        approach, chance = "fate", win_chance("fate", "fate", 0, 0, opts.conflict_chart,
                                              opts.fate_orientation, opts.level_bonus)[0]
    if not explain:
        return Plan(name, "task", task, approach, chance, ())
    return Plan(name, "task", task, approach, chance, (
        Reason("target", f"task {task}", f"the {faction} goal needs {task} won"),
        Reason("movement", "stay put", "a task is worked where the unit stands"),
        Reason("action", "Interact", f"work the task {task} (Challenge −Hits on a win)"),
        _approach_reason(approach, chance, hand)))


def _target(data: dict[str, Any], name: str, rivals: list[str],
            named: frozenset[str] | set[str], held: set[str], opts: Any,
            hand: Sequence[Card] | None, explain: bool = True
            ) -> tuple[str, str, float | None, Reason | None]:
    """The Rival to attack: those the goal names first, then those no task holds; of
    them the best chance to win, then the lowest Difficulty, then the most Crits."""
    units = data.get("units", {})
    first = []  # plain loops: a comprehension is a call of its own, at every plan
    for n in rivals:
        if n in named:
            first.append(n)
    if not first:
        for n in rivals:
            if n not in held:
                first.append(n)
        if not first:
            first = rivals
    why_pool = ("the goal names it" if first[0] in named else
                "a Rival not held by a task" if first[0] not in held else "the only Rivals")
    chosen = units[name].get("target")
    if chosen in rivals:  # the Narrator's own choice (d2d unit target) comes first
        first, why_pool = [chosen], "its target (d2d unit target)"
    elif chosen:
        why_pool += f" ({chosen}, its target, is not a Rival in view)"
    if not explain and not hand and len(first) == 1:
        # A fight's plan (its reasons and chance unread) of a unit that reveals Fate (a
        # Non-Player, 000 l.417; a Player with no card to play; every Player's unit under
        # ``sim --pc fate``, whose hands the fight leaves empty) at its one candidate:
        # the odds choose nothing — not the Rival, not the card — so its Levels, and the
        # two units' fighter keys they are remembered by, are not read (chance None).
        return first[0], "fate", None, None
    mine = _fighter_key(units[name])  # its own key, read once for every candidate
    # The best card (or Stay) at each pair of Levels, asked once in this plan: Rivals
    # alike share their Levels, and the chosen one's card is the one its chance was
    # scored with. With it the chance as the order reads it, rounded (a float's ``round``
    # is dear), once for the pair and only where there is an order to read.
    single = len(first) == 1  # the one candidate: no order to read
    cards: dict[tuple[int, int], tuple[str, float, float]] = {}
    best: tuple[Any, ...] | None = None
    for n in first:
        levels = _levels_of(units, name, n, mine)
        got = cards.get(levels)
        if got is None:
            code, p = best_card(hand, levels, opts, attacking=True) if hand else (
                "fate", win_chance("fate", "fate", *levels, opts.conflict_chart,
                                   opts.fate_orientation, opts.level_bonus)[0])
            got = cards[levels] = (code, p, 0.0 if single else -round(p, 12))
        if single:
            best = ((), n, got[1], levels)
            break
        u = units[n]
        order = (got[2], _body_level(u), -len(u.get("crits", [])))
        if best is None or order < best[0]:  # the first of equals, as a stable sort
            best = (order, n, got[1], levels)
    assert best is not None  # first is never empty
    _, target, p, levels = best
    approach, chance, _ = cards[levels]
    if not explain:
        return target, approach, chance, None
    why_target = Reason("target", target, f"{why_pool}; best chance to win ({p:.0%}), "
                        f"Difficulty {_body_level(units[target])}"
                        + (f" of {len(first)} candidates" if len(first) > 1 else ""))
    return target, approach, chance, why_target


def _way_to(data: dict[str, Any], name: str, target: str,
            cap: int | None) -> Movement | None:
    """The Movement to a Space the attack on ``target`` passes Verify from, keeping as
    many Actions as the Move pays (001 l.545); None off the map or with no round.
    ``cap``: the Move a Hidden unit may still spend on Movement (:func:`walk_cap`), None
    when it is not Hidden (:func:`_walkable`)."""
    unit = data.get("units", {})[name]
    move, cost = unit.get("move"), unit.get("action_cost")
    if move is None or cost is None:
        return None
    # Keep as many Actions as the Move pays: a Space in reach that costs none of them
    # first (Cover and a flank are worth less than a second attack), then one fewer.
    # (``int`` of a whole number is that number: not called for one; the Turn read once
    # for every budget asked; a countdown, not a ``range``: most plans ask one budget.)
    m = move if type(move) is int else int(move)
    c = cost if type(cost) is int else int(cost)
    turn = unit.get("turn") or 0
    if type(turn) is not int:
        turn = int(turn)
    full = _walkable(m, cap)
    keep = max(1, m // c) if c > 0 else 1
    while True:
        way = movement.approach(data, name, target, _walkable(m - keep * c, cap), full,
                                turn, keep)
        keep -= 1
        if way is None or way.in_reach or not keep:
            return way


def _walkable(m: int, cap: int | None) -> int:
    """The Move ``m`` as Movement may spend it: at most ``cap`` for a Hidden unit (000
    l.804, :func:`walk_cap`), all of it otherwise (a plain function: a closure made at
    every plan cost more than it held)."""
    return m if cap is None else min(m, cap)


def _getting_away(name: str, data: Mapping[str, Any], goal: Goal | None) -> str | None:
    """The goal's alternative that wants ``name`` off the map, when the rest of it holds
    (Combat #1: "task Knot won" — the Thief free — then "off map Archer Thief"), as its
    text; None otherwise, or while the unit is bound (rules.time.leaving.binding)."""
    if goal is None:
        return None
    alts = _goal_away(goal).get(name)
    if alts is None:
        return None  # the usual case: no alternative wants this unit off the map
    faction = goal.faction
    # the alternatives that want it off the map, in the goal's order, each with the rest
    # of its conditions and its text (:func:`_goal_away`, once a Goal): plain loops,
    # Combat #1 asks for two units at most plans
    for rest, text in alts:
        for c in rest:
            if not holds(c, faction, data):
                break
        else:  # the rest of it holds
            if binding(name, data["units"][name], data.get("tasks", {})) is not None:
                return None
            return text
    return None


def _away_plan(name: str, wanted: str, way: Any, step: Any, explain: bool = True) -> Plan:
    """Getting away (``rules.assistant.movement.get_away``): to the edge and off it, or
    toward it when the Move falls short (``explain`` False: no reason written)."""
    moves = way.moves
    reasons: tuple[Reason, ...] = ()
    if explain:
        reasons = (
            Reason("target", "the map's edge", f"the goal ({wanted}): the rest of it "
                   "holds, so the unit leaves the map"),
            Reason("movement", f"to {way.space}" if moves else "stay put", way.why),
            Reason("action", "none", "the edge is out of reach this round")
            if step is None else
            Reason("action", f"leave the map ({step.label})",
                   f"d2d unit leave: a step off the map at its Move ({step.move}"
                   "; docs/rules.md \"Leaving the map\")"))
    if step is None:
        return Plan(name, "away", None, "fate", None, reasons, moves, way.space)
    return Plan(name, "leave", None, "fate", None, reasons, moves, way.space, step.words)


def _body_level(unit: Mapping[str, Any]) -> int:
    return _body_level_of(str(unit.get("body", "0x0")))


@lru_cache(maxsize=256)
def _body_level_of(body: str) -> int:
    """A Body's Level (its Difficulty), remembered by its text (every target choice
    reads each Rival's)."""
    text = body.lower().replace("×", "x")
    try:
        return int(float(text.split("x")[0]))
    except ValueError:
        return 0


def _approach_reason(approach: str, chance: float, hand: Sequence[Card] | None) -> Reason:
    if hand is None:
        return Reason("approach", "Stay (Fate)", "a Non-Player has no hand: it reveals Fate "
                      "(000 l.417)")
    if approach == "fate":
        return Reason("approach", "Stay (Fate)", "no card in hand beats Fate's own chance "
                      "(000 l.419)")
    return Reason("approach", approach, f"the card in hand likeliest to win ({chance:.0%})")


def plan_ahead(data: dict[str, Any], name: str, goals: Mapping[str, Goal],
               opts: Any) -> Plan:
    """``npc plan``: :func:`plan` for the round as it stands; between rounds, for the
    next round as ``round start`` would begin it (on a copy: the same rules call, so the
    unit has the Move and Action Cost it will have), with a first reason that says so."""
    from d2d_cli.rules.time.round_state import Round

    rnd = Round.from_state(data.get("round"))
    if rnd.phase == "started":
        return plan(data, name, goals, opts)
    import copy
    import random

    from d2d_cli.rules.assistant.engine import Table

    t = Table(copy.deepcopy(data), random.Random(0), opts, hands=False)
    t.round_start()
    got = plan(t.data, name, goals, opts)
    u = t.data["units"][name]
    was = (f"round {rnd.number} has ended" if rnd.phase == "ended" else
           "no round is under way")
    return replace(got, reasons=(Reason(
        "round", f"round {rnd.number + 1} as it would start",
        f"{was}: planned with the Move that d2d round start gives (Move {u.get('move')}, "
        f"Action Cost {u.get('action_cost')})"), *got.reasons))


__all__ = ["Luck", "Offer", "Plan", "Reason", "best_card", "luck", "plan", "plan_ahead",
           "win_chance"]
