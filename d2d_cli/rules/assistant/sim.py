"""``d2d sim``: play a scene to its end many times and count who reaches its goal.

Each run is a :class:`~d2d_cli.rules.assistant.engine.Table` seeded from the master
seed and the run's index alone (so the report does not depend on how runs are shared
among worker processes), played by :func:`fight`: rounds of ``round start``, each unit
in turn (the most Move left first: the Countdown, 001 l.499–505) taking the Action the
policy (``rules.assistant.policy.plan``) chooses, ``round end``; after every Action and
every round the goals (``rules.assistant.goals``) are checked. A run keeps nothing but
its :class:`Outcome`; :class:`Tally` adds outcomes up (memory does not grow with N).
"""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Callable, Iterable, Mapping
from sys import intern
from typing import Any

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.assistant import policy
from d2d_cli.rules.assistant.asking import can_respond
from d2d_cli.rules.assistant.engine import Table, forget_tables, player_of, started
from d2d_cli.rules.assistant.goals import Goal, is_down, reached
from d2d_cli.rules.assistant.movement import from_behind
from d2d_cli.rules.combat.conflict import Conflict, counter_card, hit_value
from d2d_cli.rules.combat.situation import effective_stat
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import Card, parse_card
from d2d_cli.rules.units import hands
from d2d_cli.rules.units.unit_state import reach_of

MAX_ROUNDS = 20  # a fight no goal ends in 20 rounds (2 minutes) is undecided
MAX_RUNS = 1_000_000
DEFAULT_PRECISION = 2.0  # sim's default stop: ±2 points at 95%
Z95 = 1.959963984540054  # the 97.5% point of the normal distribution
_ABSENT: Any = object()  # no faction seen yet (_one_side_left)


def run_seed(seed: int, index: int) -> str:
    """Run ``index``'s seed: the same whoever plays it (random.Random hashes a str
    with SHA-512)."""
    return f"d2d-sim:{seed}:{index}"


@record
class Outcome:
    winner: str | None  # the faction whose goal was reached first; None: undecided
    rounds: int
    down: tuple[str, ...]  # units Dying or Dead at the end


def _check(t: Table, goals: Mapping[str, Goal]) -> str | None:
    for faction, goal in goals.items():
        if reached(goal, t.data):
            return faction
    return None


def _settle(t: Table, name: str, played: str, c: Conflict, side: str,
            benefits: bool) -> None:
    """A Player's hand after a conflict: the card played is discarded (a Stay returns
    it), and the winner's effects apply when it spent an Action (001 l.641 "IF not
    Target gains no benefits on a Win"): Fast and Block draw, Block keeps its card
    (001 l.736–758)."""
    owner = player_of(t.data["units"][name])
    p = t.players.get(owner) if owner is not None else None
    if p is None:  # a Non-Player, or a Player's unit without a hand here: nothing held
        return
    if played != "fate":
        card = parse_card(played)
        face = card.face
        kept = []  # each card's face read once, in a plain loop (no comprehension's frame)
        for h in p.hand:
            if h.face != face:
                kept.append(h)
        if len(kept) != len(p.hand):
            p.hand = kept
        # the winner's effects read in a plain loop, no set of their keys built
        keep = draw = take = False
        if benefits:
            for e in (c.effects.a if side == "a" else c.effects.b):
                key = e.key
                if key == "keep":
                    keep = True
                elif key == "draw":
                    draw = True
                elif key == "take_from_discard":
                    take = True
        if keep:
            p.hand.append(card)
        elif card.is_wild:  # "Always Shuffle" (001 l.758): back into the deck
            p.deck.insert(t.rng.randrange(len(p.deck) + 1), card)
        else:
            p.discard.append(card)
        if draw:
            p.draw(1)
        if take and p.discard:
            best = max(p.discard, key=hit_value)
            p.discard.remove(best)
            p.hand.append(best)


def _hand(t: Table, name: str) -> list[Card] | None:
    owner = player_of(t.data["units"][name])
    p = t.players.get(owner) if owner is not None else None
    return None if p is None else p.hand


def exchange(t: Table, plan: policy.Plan, goals: Mapping[str, Goal]) -> None:
    """Carry out an attack or a task Action as the commands do: ``unit act``,
    ``conflict``, ``hit``, then ``crit`` or ``task win|lose``."""
    a, target = plan.unit, plan.target
    assert target is not None
    side_b = None
    moves = plan.moves  # made by the Interact's ``unit act``: one table stored for both
    if t.answers is not None:  # npc turn: the moves stored first, each as the command
        walk(t, plan)
        moves = ()
        if plan.action != "task" and player_of(t.data["units"][target]) is not None:
            # the Player chooses their unit's card (rules.assistant.asking); it may stop
            # the turn here, after the moves and before the Action is spent.
            side_b = t.answers.defend(a, target, policy.skill_for(t.data["units"][a]))
    t.act(a, "interact", target, moves=moves)
    responded = plan.action != "task" and _target_action(t, a, target)
    if plan.action == "task":
        # A task against what an unskilled hand made (the Scout's Knot): both sides are
        # at Disadvantage and they cancel (000 l.600–601; docs/solo.md "Tasks").
        c = t.conflict(f"{a}:{plan.approach}", "fate", skill="none", disadvantage=("b",))
        assert isinstance(c, Conflict)  # against a task: no map, no Cover reveal
        _settle(t, a, plan.approach, c, "a", True)
        difficulty = int(t.data["tasks"][target]["difficulty"])
        if c.outcome in ("a", "both") and c.approach_a in policy.SCORING:
            assert c.side_a.card is not None
            h = t.hit(c.side_a.card, by=a, difficulty=difficulty, skill="none")
            t.task(target, True, h.hits, a)
        elif c.outcome == "b" and c.approach_b in policy.SCORING:
            assert c.side_b.card is not None
            h = t.hit(c.side_b.card, by=None, difficulty=difficulty)
            t.task(target, False, h.hits, a)
        return
    hand_b = _hand(t, target) if side_b is None else None
    defend = "fate"
    if hand_b:
        la, lb = policy._levels(t.data, a, target, t.opts)
        defend, _ = policy.best_card(hand_b, (la, lb), t.opts, attacking=False,
                                     no_block=from_behind(t.data, a, target))
    skill = policy.skill_for(t.data["units"][a])
    played_b = side_b.rpartition(":")[2] if side_b is not None else defend
    counter = _counter_card(t, a, plan.approach) or (
        _counter_card(t, target, played_b) if responded else None)
    c = t.conflict(f"{a}:{plan.approach}", side_b or f"{target}:{defend}", skill,
                   counter=counter, with_=plan.weapon)
    if not isinstance(c, Conflict):  # the Cover reveal named an obstacle (001 l.720)
        return
    if side_b is not None and t.answers is not None:
        t.answers.settle(c)
    _settle(t, a, plan.approach, c, "a", True)
    _settle(t, target, defend, c, "b", responded)
    if c.counter is not None and c.counter.scores:
        _counter_attack(t, a, target, c)
    if c.outcome in ("a", "both") and c.approach_a in policy.SCORING:
        assert c.side_a.card is not None
        h = t.hit(c.side_a.card, by=a, vs=target, skill=skill, with_=plan.weapon)
        if plan.weapon is not None or _rated(t, a):
            t.crit(a, target, h.hits, with_=plan.weapon)
    if responded:
        _target_wins(t, target, a, c)


def _counter_card(t: Table, name: str, played: str) -> Card | None:
    """The card a Player's unit counter-attacks with if its Counter wins (001 l.754
    "Counterattack with a Fast or Strong"), chosen before the reveal as the PC policy
    does: the card of its hand, the one played aside, that scores best played Upper
    (rules.combat.conflict.counter_card). None for a Non-Player (its Fate) or no hand."""
    if played in ("fate", "stay") or player_of(t.data["units"][name]) is None:
        return None
    try:
        out = parse_card(played)
    except Exception:  # an approach, not a card: no hand in play
        return None
    if t.answers is not None and t.answers.mode == "d2d":
        held = hands.hands_of(t.answers.data).get(player_of(t.data["units"][name]) or "")
        cards = list(held.hand) if held is not None else []
    else:
        cards = list(_hand(t, name) or [])
    face = out.face
    others = []  # a plain loop, no comprehension's frame
    for c in cards:
        if c.face != face:
            others.append(c)
    return counter_card(others)


def _counter_attack(t: Table, a: str, target: str, c: Conflict) -> None:
    """The counter-attack of a Counter's win (001 l.752–754), as the commands play it:
    its card leaves a Player's hand, then ``hit`` and ``crit`` on the other side. A
    unit that cannot reach the other with its skill scores none."""
    assert c.counter is not None and c.counter.card is not None
    by, vs = (a, target) if c.counter.side == "a" else (target, a)
    side = c.side_a if c.counter.side == "a" else c.side_b
    card = c.counter.card
    owner = player_of(t.data["units"][by])
    if owner is not None and c.counter.source not in ("fate", "counter"):
        if t.answers is not None and t.answers.mode == "d2d":
            held = hands.hands_of(t.answers.data)
            if owner in held and any(x.face == card.face for x in held[owner].hand):
                hands.spend(held, owner, by, [card], "counter-attack")
                t.answers.data["players"] = hands.state_of(held)
        p = t.players.get(owner)
        if p is not None and any(x.face == card.face for x in p.hand):
            p.hand = [x for x in p.hand if x.face != card.face]
            p.discard.append(card)
    try:
        h = t.hit(card, by=by, vs=vs, skill=side.skill)
    except RuleViolation:
        return
    if _rated(t, by):
        t.crit(by, vs, h.hits)


def _next(t: Table, passed: set[str], allowed: set[str] | None) -> str | None:
    """The unit the Countdown reaches next (001 l.499–505): of those not yet passed (and
    of ``allowed``, if given), the one whose Count is highest (:func:`_count_of`), roster
    order among equals. None: nobody. One pass over the roster, each unit's Count read
    again only for a table not seen in this round (it runs before every Action, and an
    Action changes one or two units' tables: a change stores a new table, never edits
    one in place)."""
    number = (t.data.get("round") or {}).get("number")
    best, top = None, -1
    # the fight's own memory (Table.counts), by the unit's name: no ``id`` called for
    # each unit at each look, and no table of a fight that ended kept alive
    seen = t.counts
    for n, u in t.data.get("units", {}).items():
        if n in passed or (allowed is not None and n not in allowed):
            continue
        got = seen.get(n)
        if got is None or got[0] is not u or got[1] != number:
            got = seen[n] = (u, number, _count_of(u, number))
        at = got[2]
        if at is not None and at > top:
            best, top = n, at
    return best


def _count_of(u: Mapping[str, Any], number: int | None) -> int | None:
    """The Count that reaches a unit as stored in round ``number``, or None when none
    does: on the map or never placed, standing with Move for an Action (``can_respond``)
    or down but able to withdraw (Dying: it may still withdraw while its Move lasts, no
    Action), its Count ``rules.units.unit_state.reach_of``, as ``round next`` reads it;
    a standing unit no Count reaches any more is done."""
    move = u.get("move")
    if move is None or u.get("off_map"):
        return None
    down = is_down(u)
    if down:
        if not (move >= 1 and u.get("space") and not u["conditions"].get("dead")):
            return None
    elif not can_respond(u):
        return None
    at = reach_of(u, number)
    return at if at > 0 or down else None


def _target_action(t: Table, attacker: str, target: str) -> bool:
    """The Target's Action (001 l.639–641 "Target may spend an Action / IF not Target
    gains no benefits on a Win"), spent with ``unit respond`` right after the Interact:
    a Player's unit in ``npc turn`` as its Player says (rules.assistant.asking
    ``Answers.responds``: --respond, or the terminal's question); otherwise by the
    policy (``policy.responds``)."""
    if t.answers is not None and player_of(t.data["units"][target]) is not None:
        spend = bool(t.answers.responds(attacker, target))
        if spend:  # else the Conflict says what no Action cost (001 l.641)
            t.respond(target, True)
        return spend
    if not policy.responds(t.data, target, t.opts):
        return False
    t.respond(target, True)
    return True


def _target_wins(t: Table, target: str, attacker: str, c: Conflict) -> None:
    """What a Target that spent its Action gains on a Win, as the commands give it:
    Fast's or Strong's Hits on the Actor (``hit``, ``crit``); Evade's Move (``unit act
    NAME evade``, 001 l.748–750 "Move:+2 (Win or Lose)"; 000 l.494 under [rules]
    evade = "000")."""
    moves = hits_ = False  # the Target's effects read in a plain loop, no sets built
    for e in c.effects.b:
        key = e.key
        if key == "move" or key == "regain_move":
            moves = True
        elif key == "hit":
            hits_ = True
    if moves:
        t.act(target, "evade")
    if c.outcome in ("b", "both") and c.approach_b in policy.SCORING and hits_:
        assert c.side_b.card is not None
        try:  # with the skill it defended with; one that cannot reach the Actor scores none
            h = t.hit(c.side_b.card, by=target, vs=attacker, skill=c.side_b.skill)
        except RuleViolation:
            return
        if _rated(t, target):
            t.crit(target, attacker, h.hits)


def _rated(t: Table, name: str) -> bool:
    """Whether the unit's own Body still rates a Hand to Hand weapon (000 l.506 "IF no
    Weapon THEN use Hand to Hand Damage"): a Body brought to 0 by its penalties (Fatigue
    ×2 on a Body of 2) leaves no Power Rating (``crit`` refuses "Body" with 0x1), so its
    Hits deal no Damage (docs/rules.md "NPC turns and simulated fights")."""
    if "body" not in t.data["units"][name]:
        return True
    return effective_stat(t.unit(name), "body").level > 0


def walk(t: Table, plan: policy.Plan) -> None:
    """The plan's movement on the map, one ``unit move`` a run of steps (then its Turn):
    ``Table.walk``, which stores the unit's table once, after the last move."""
    t.walk(plan.unit, plan.moves)


def turns(t: Table, goals: Mapping[str, Goal], pc: str = "best",
          only: Iterable[str] | None = None, plans: list[policy.Plan] | None = None
          ) -> str | None:
    """The round's Actions until no unit (of ``only``, if given) can pay its Action Cost
    or wants to act: the unit with the most Move left goes next (the Countdown, 001
    l.499–505), roster order among equals; each does what :func:`policy.plan` says.
    Returns the faction whose goal is reached, as soon as one is."""
    passed: set[str] = set()
    allowed = None if only is None else set(only)
    while True:
        name = _next(t, passed, allowed)
        if name is None:
            return None
        hand = _hand(t, name)
        p = policy.plan(t.data, name, goals, t.opts,
                        hand if pc == "best" and hand is not None else
                        ([] if hand is not None else None),
                        explain=plans is not None)  # a plan kept is read, its reasons too
        if plans is not None:
            plans.append(p)
            t.acting = len(plans) - 1  # what the Table does next carries out this plan
        if p.action == "leave":  # getting away: to the edge and off the map
            walk(t, p)
            t.leave(name, *p.leaves)
            passed.add(name)
            winner = _check(t, goals)
            if winner is not None:
                return winner
            continue
        if p.action not in ("attack", "task"):
            walk(t, p)  # closing in, heading for the edge, or a Dying unit withdrawing
            passed.add(name)
            continue
        exchange(t, p, goals)
        winner = _check(t, goals)
        if winner is not None:
            return winner


def _one_side_left(t: Table) -> bool:
    """No two factions have a unit standing (nor a reserve still to come): no one is left
    to fight, so no goal can change."""
    # plain loops (no comprehension's nor generator's frame at every round's end), the
    # second faction standing ending the first
    first: Any = _ABSENT
    for u in t.units().values():
        if not is_down(u) and not u.get("off_map"):
            faction = u.get("faction")
            if first is _ABSENT:
                first = faction
            elif faction != first:
                return False
    for e in t.data.get("clock", {}).get("timed", []):  # noqa: SIM110 (not any(): a frame)
        if not e.get("done") and e.get("unit"):
            return False
    return True


def fight(start: dict[str, Any], goals: Mapping[str, Goal], seed: str,
          opts: Options = DEFAULTS, log: bool = False, pc: str = "best"
          ) -> tuple[Outcome, Table]:
    """Play one fight from ``start`` (a session's data; copied, never changed). A round
    under way in ``start`` (the session mid-round) is played on from where it stands: its
    remaining Actions, then ``round end``."""
    return _fight(pickle.dumps(start, -1), goals, seed, opts, log, pc)


def _keyed(data: dict[str, Any]) -> dict[str, Any]:
    """The session's data as unpickled, its sections' names (``units``, ``round``,
    ``board``…) the interned texts the code looks them up by: the same keys, values and
    order. Unpickled, each name is a new text, which every look-up by a name in the
    code (``t.data.get("units")``, ``data["round"]``: several an Action) matched by
    comparing its letters after the hash; the very object is matched at once."""
    return {intern(k) if type(k) is str else k: v for k, v in data.items()}


def _fight(start: bytes, goals: Mapping[str, Goal], seed: str, opts: Options = DEFAULTS,
           log: bool = False, pc: str = "best") -> tuple[Outcome, Table]:
    """:func:`fight` from the starting state pickled (once for all the runs of a chunk):
    a pickle round trip copies the session's plain data ~5x faster than deepcopy."""
    forget_tables()  # the readings of the last fight's tables: never asked again
    t = Table(_keyed(pickle.loads(start)), random.Random(seed), opts, log)
    winner: str | None = None
    rounds = 0
    under_way = t.round().phase == "started"
    while rounds < MAX_ROUNDS:
        rounds += 1
        if not under_way:
            t.round_start()
            if rounds == 1:  # its tables' bases, the same in every fight of ``start``
                started(t, start)
        under_way = False
        winner = turns(t, goals, pc)
        if winner is not None:
            break
        t.round_end()
        winner = _check(t, goals)
        if winner is not None or _one_side_left(t):
            break
    down = tuple(n for n, u in t.units().items() if is_down(u))
    return Outcome(winner, rounds, down), t


# --------------------------------------------------------------------------- the tally


@record(frozen=False)
class Tally:
    """What N runs add up to: counts only."""

    runs: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    rounds: dict[int, int] = field(default_factory=dict)
    down: dict[str, int] = field(default_factory=dict)

    def add(self, o: Outcome) -> None:
        self.runs += 1
        key = o.winner or ""
        self.wins[key] = self.wins.get(key, 0) + 1
        self.rounds[o.rounds] = self.rounds.get(o.rounds, 0) + 1
        for n in o.down:
            self.down[n] = self.down.get(n, 0) + 1

    def merge(self, other: Tally) -> None:
        self.runs += other.runs
        for k, v in other.wins.items():
            self.wins[k] = self.wins.get(k, 0) + v
        for r, v in other.rounds.items():
            self.rounds[r] = self.rounds.get(r, 0) + v
        for k, v in other.down.items():
            self.down[k] = self.down.get(k, 0) + v


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n runs (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (0.0 if k == 0 else max(0.0, mid - half)), (1.0 if k == n else min(1.0, mid + half))


def play_runs(start: dict[str, Any], goals: Mapping[str, Goal], seed: int,
              indexes: Iterable[int], opts: Options = DEFAULTS, pc: str = "best") -> Tally:
    tally = Tally()
    blob = pickle.dumps(start, -1)
    for i in indexes:
        out, _ = _fight(blob, goals, run_seed(seed, i), opts, False, pc)
        tally.add(out)
    return tally


@record
class FactionRow(Result):
    faction: str
    goal: str
    reached: int
    chance: float
    low: float  # the 95% Wilson interval
    high: float


@record
class DownRow(Result):
    unit: str
    runs: int
    share: float


@record
class SimReport(Result):
    scene: str
    runs: int
    seed: int
    workers: int
    pc_policy: str
    factions: tuple[FactionRow, ...]
    undecided: int
    rounds_mean: float
    rounds: dict[str, int]
    down: tuple[DownRow, ...]
    log: str | None = None
    # --precision: the half-width wanted (points) and the widest one reached
    precision: float | None = None
    half_width: float = 0.0


def half_width(tally: Tally, goals: Mapping[str, Goal]) -> float:
    """The widest half of a faction's 95% Wilson interval, in points (0–50)."""
    widest = 0.0
    for faction in goals:
        lo, hi = wilson(tally.wins.get(faction, 0), tally.runs)
        widest = max(widest, (hi - lo) * 50)
    return widest


def report(scene: str, goals: Mapping[str, Goal], tally: Tally, seed: int, workers: int,
           pc: str, log: str | None = None, precision: float | None = None) -> SimReport:
    n = tally.runs
    rows = []
    for faction, goal in goals.items():
        k = tally.wins.get(faction, 0)
        lo, hi = wilson(k, n)
        rows.append(FactionRow(faction, goal.text, k, k / n if n else 0.0, lo, hi))
    mean = sum(r * c for r, c in tally.rounds.items()) / n if n else 0.0
    down = tuple(DownRow(u, c, c / n) for u, c in sorted(tally.down.items(),
                                                         key=lambda x: (-x[1], x[0])))
    return SimReport(scene, n, seed, workers, pc, tuple(rows), tally.wins.get("", 0), mean,
                     {str(r): c for r, c in sorted(tally.rounds.items())}, down, log,
                     precision, round(half_width(tally, goals), 3))


__all__ = ["MAX_ROUNDS", "Outcome", "SimReport", "Tally", "exchange", "fight", "simulate",
           "play_runs", "report", "run_seed", "walk", "wilson"]


def _chunk(args: tuple[dict[str, Any], Mapping[str, Goal], int, int, int, Options, str]
           ) -> Tally:
    start, goals, seed, lo, hi, opts, pc = args
    return play_runs(start, goals, seed, range(lo, hi), opts, pc)


PRECISION_BATCH = 100  # fights between two looks at the interval (--precision)
# Fights a worker plays between two reports with --precision: at the stop the fights under
# way are dropped unplayed-for, so a small chunk wastes few (a fifth of a checkpoint, so
# every checkpoint ends a chunk); a chunk's own cost (its tally sent back, the start
# pickled once for its fights) is a fight's 1/100.
PRECISION_CHUNK = PRECISION_BATCH // 5
# Where Python forks the pool's workers (its default on Linux before 3.14), the sim's own
# process first plays the first fights, so each worker starts with the memories those
# fights filled (the assessments, odds, plans and Fields the engine, the policy, the
# planner and the map keep, all pure: what is found is what would be worked out) instead
# of filling the same ones again — a fresh process plays its first 100 fights ~1.5x
# slower than its later ones (the workers find them: they play on this process's very
# start, goals and [rules], :data:`_SHARED`). Elsewhere (spawn, forkserver) a worker
# starts cold whatever this process knows, so every fight goes to the pool.
WARM_FIGHTS = PRECISION_BATCH
PARENT_LOOK = 0.2  # seconds between a worker's two looks at whether its parent lives


# What every chunk of a pool's fights shares (the starting state, the goals, the
# ``[rules]`` and the Players' policy), given to each worker once as it starts
# (:func:`_worker_started`) instead of with every chunk. A chunk's own copy of them,
# unpickled anew, was another ``[rules]`` object at each chunk, and the assessments
# are remembered by that object's identity (rules.combat.situation.Assessor), so a
# worker's memory was found only within the chunk that filled it: a worker's fight cost
# ~1.08x the sim's own process's. Where Python forks the workers these are the very
# objects of the sim's process, so what its first fights remembered is found too.
_Shared = tuple[dict[str, Any], Mapping[str, Goal], Options, str]
_SHARED: _Shared | None = None


def _worker_started(parent: int, shared: _Shared) -> None:
    """Each worker of sim's pool, as it starts: what every chunk shares kept for
    :func:`_pool_chunk`; Ctrl-C is the parent's to handle (it terminates the pool; a
    worker's own KeyboardInterrupt only printed tracebacks), and the worker ends itself
    within :data:`PARENT_LOOK` of its parent's death however the parent died — a SIGKILL
    or SIGTERM leaves no one to terminate the pool, and the workers of a killed ``d2d
    sim`` lived on as orphans (issue 40 item 1)."""
    import os
    import signal
    import threading
    import time

    global _SHARED
    _SHARED = shared
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:  # an orphan is adopted by another process
            time.sleep(PARENT_LOOK)
        os._exit(1)

    threading.Thread(target=watch, name="d2d-sim-parent", daemon=True).start()


def simulate(start: dict[str, Any], goals: Mapping[str, Goal], seed: int, runs: int,
             workers: int = 1, opts: Options = DEFAULTS, pc: str = "best",
             progress: Callable[[int], None] | None = None,
             precision: float | None = None) -> Tally:
    """``runs`` fights, run ``i`` seeded by :func:`run_seed` alone, on ``workers``
    processes (multiprocessing); the tallies are added up, so the report is the same
    whatever the number of workers. ``progress(n)`` is told each chunk's run count.
    ``precision`` (points): stop at the first multiple of :data:`PRECISION_BATCH` fights,
    taken in index order, where every faction's 95% interval is at most that wide on
    each side (``runs`` the most) — decided on the fights in order, never on which
    worker finished first, so the report is the same for any ``workers``."""
    # With ``precision`` the work goes in chunks of a fifth of a checkpoint, in index
    # order; the interval is looked at only at each multiple of PRECISION_BATCH (and at
    # ``runs``), so where it stops does not depend on the chunks or the workers. The
    # workers take the chunks in index order as each is free (never idle while a chunk
    # waits), their tallies come back in that order, and at the stop the pool is
    # terminated: the fights still under way are dropped unfinished, not waited for.
    size = (PRECISION_CHUNK if precision is not None else
            max(1, min(250, runs // (max(1, workers) * 8) or 1)))
    total = Tally()

    def take(c: _Chunk, got: Tally) -> bool:
        total.merge(got)
        if progress is not None:
            progress(c[4] - c[3])
        return precision is not None and (c[4] % PRECISION_BATCH == 0 or c[4] == runs) \
            and half_width(total, goals) <= precision

    _play(_chunks(start, goals, seed, runs, size, opts, pc), workers, take)
    return total


_Chunk = tuple[dict[str, Any], Mapping[str, Goal], int, int, int, Options, str]


def _chunks(start: dict[str, Any], goals: Mapping[str, Goal], seed: int, runs: int,
            size: int, opts: Options, pc: str) -> list[_Chunk]:
    """The fights ``0 … runs-1`` in chunks of ``size``, in index order, with a cut at
    :data:`WARM_FIGHTS` (the fights the sim's own process may play, :func:`_play`)."""
    cuts = sorted({*range(0, runs, size), *([WARM_FIGHTS] if runs > WARM_FIGHTS else [])})
    return [(start, goals, seed, lo, hi, opts, pc)
            for lo, hi in zip(cuts, [*cuts[1:], runs][:len(cuts)], strict=True)]


def _play(chunks: list[_Chunk], workers: int,
          take: Callable[[_Chunk, Tally], bool]) -> None:
    """Each chunk played and its tally given to ``take``, in index order, until ``take``
    says stop: all here with one worker; else on a pool of ``workers`` — where Python
    forks them, after the chunks of the first :data:`WARM_FIGHTS` fights are played
    here. A Pool, not concurrent.futures: leaving it terminates the workers, so a stop,
    a Ctrl-C or any error drops the fights under way instead of waiting for every chunk
    queued."""
    if workers <= 1:
        for c in chunks:
            if take(c, _chunk(c)):
                return
        return
    import multiprocessing
    import os

    warm = (sum(c[4] <= WARM_FIGHTS for c in chunks)
            if multiprocessing.get_start_method() == "fork" else 0)
    for c in chunks[:warm]:
        if take(c, _chunk(c)):
            return
    rest = chunks[warm:]
    if not rest:
        return
    start, goals, _, _, _, opts, pc = rest[0]
    shared = (start, goals, opts, pc)
    spans = []  # a worker is sent a chunk's seed and fights alone (_SHARED has the rest)
    for c in rest:
        assert c[0] is start and c[1] is goals and c[5] is opts and c[6] == pc
        spans.append((c[2], c[3], c[4]))
    with multiprocessing.Pool(workers, _worker_started, (os.getpid(), shared)) as pool:
        for c, got in zip(rest, pool.imap(_pool_chunk, spans), strict=True):
            if take(c, got):
                return


def _pool_chunk(span: tuple[int, int, int]) -> Tally:
    """A worker's chunk: the fights ``lo … hi-1`` of ``seed`` (``span``) played on what
    every chunk shares (:data:`_SHARED`), by :func:`_chunk` as the sim's own process
    plays its chunks."""
    assert _SHARED is not None, "a worker of sim's pool, started by _worker_started"
    start, goals, opts, pc = _SHARED
    seed, lo, hi = span
    return _chunk((start, goals, seed, lo, hi, opts, pc))
