"""A roll between two units reads what the round remembers (rules/units/exchange.py), so
the table says a thing once: the cover, range and high ground said this round, the
default Combat skill that reaches that range, whether the Target spent an Action on the
Interact (001 l.639–641), and whether the Rival can reach the Actor to Counter-attack.

Typed options always win over what was said; what was said is named in the result's
``sources`` (``said_range``, ``said_cover``, ``said_high_ground``, ``target_action``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from d2d_cli.rules.combat import situation as sit
from d2d_cli.rules.combat.situation import Terms
from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.record import TupleRecord
from d2d_cli.rules.units import exchange

if TYPE_CHECKING:
    from d2d_cli.rules.units.roster import Unit

# The map's Range of every Conflict and Hits between placed units, imported when first
# read (off the map neither is): rules.core.lazy_module
if TYPE_CHECKING:
    from d2d_cli.rules.board import placement as _placement
    from d2d_cli.rules.board import sight as _sight
else:
    _placement = lazy_module("d2d_cli.rules.board.placement", globals(), "_placement")
    _sight = lazy_module("d2d_cli.rules.board.sight", globals(), "_sight")

E = TypeVar("E")

UNSPENT_LINE = ('001 l.639–641 "Target may spend an Action / IF not Target gains no benefits '
                'on a Win"')
INTERRUPT_LINE = ('000 l.310 "The target must now choose to spend an Action or not. IF they '
                  'do not THEN they gain no benefit if they Succeed in the Conflict"')
# What a Target that spent no Action loses, in a word each (tables/conflict.toml's keys).
_SHORT = {"hit": "Hit", "draw": "Draw", "keep": "Keep", "move": "Move +2",
          "regain_move": "Move regained", "counterattack": "Counter-attack",
          "take_from_discard": "card from the Discard"}
# Effects that are no benefit: the Wild goes back into the deck whoever played it.
NOT_A_BENEFIT = ("reshuffle",)


def round_of(data: dict[str, Any] | None) -> tuple[int, str]:
    """The round's number and phase, as ``int`` and ``str`` make them of what the round
    holds; a whole number and a text, what a session stores, are taken as they are (an
    ``int`` of an int and a ``str`` of a text cost a type's call each: every Conflict and
    Hits between units asks, issue 40)."""
    raw = (data or {}).get("round") or {}
    number, phase = raw.get("number", 0), raw.get("phase", "none")
    return (number if type(number) is int else int(number),
            phase if type(phase) is str else str(phase))


class Recalled(TupleRecord):
    terms: Terms
    skill: str | None
    sources: Mapping[str, str]
    unspent: str | None  # why the Target (side b) gains no benefit on a Win, or None
    interrupt: bool  # the Interact was an Interrupt


def _reach_skill(unit: Unit, range_: int) -> str | None:
    """The unit's best Combat skill whose kind of attack reaches ``range_`` (001
    l.685–695), when its best Combat skill does not: the Skirmisher's Ranged 1 at Range
    3, not its Close Combat 1. None when the best Combat skill reaches (or none does)."""
    return _reach_skill_of(tuple(unit.skills.items()), range_)


@lru_cache(maxsize=1024)
def _reach_skill_of(skills: tuple[tuple[str, int], ...], range_: int) -> str | None:
    """:func:`_reach_skill`, remembered by all it reads: the unit's skills in their
    order (the first of equal Levels wins) and the Range (the tables are read once)."""
    best: tuple[int, str] | None = None
    top_any: tuple[int, str] | None = None
    for name, level in skills:
        try:
            sk = sit.find_skill(name)
        except Exception:  # a skill the table does not know is no Combat skill
            continue
        kind = sit.table()["skill_kind"].get(sk.key)
        if sk.category != "Combat" or level <= 0 or kind is None:
            continue
        if top_any is None or level > top_any[0]:
            top_any = (level, name)
        top = sit.table()["range"][kind].get("max")
        if top is not None and range_ > top:
            continue
        if best is None or level > best[0]:
            best = (level, name)
    return best[1] if best and top_any and best[1] != top_any[1] else None


def _map_range(data: dict[str, Any] | None, a: Unit, b: Unit) -> int | None:
    """The Range between two units placed on the session's map, or None."""
    if not data or not data.get("board"):
        return None
    # Field.range's measure (the nearest Spaces), without building the whole Field
    pa, pb = _placement.placed(a), _placement.placed(b)
    if pa is None or pb is None:
        return None
    distance = _sight.distance
    if not (pa.double or pb.double):  # one Space each (a fight's usual case): no search
        return distance(pa.space, pb.space)
    return min(distance(x, y) for x in pa.spaces for y in pb.spaces)


def recalled_view(data: dict[str, Any] | None, a: Unit, b: Unit) -> tuple[bool, ...] | None:
    """What :func:`recall` reads of two units that a reading of their tables leaves out
    (a caller remembering it by those readings, the map's Field and the rest of its
    arguments: ``conflict.ask`` in a fight): the Interact aimed at ``b`` this round —
    whether it is ``a``'s, an Interrupt, answered by an Action. None when something was
    said of either this round (``unit situation``: its Space is read too), so the
    caller recalls afresh."""
    if a.extra.get(exchange.SAID) or b.extra.get(exchange.SAID):
        return None
    number, phase = round_of(data)
    rec = exchange.interacted(b, number, phase)
    if rec is None:
        return ()
    return (rec.get("by") == a.name, bool(rec.get("interrupt")), bool(rec.get("action")))


def recall(data: dict[str, Any] | None, a: Unit | None, b: Unit | None, terms: Terms,
           skill: str | None, spent: bool | None = None,
           reading: str = "001", use_map: bool = True) -> Recalled:
    """``terms`` with what the round remembers filled in where nothing was typed; the
    Actor's default skill by reach; and whether the Target spent an Action. ``spent``
    is ``--spent/--unspent`` (it overrides the round); ``reading`` is ``[rules]
    target_action`` ("001": every Target of an Interact; "000": an Interrupted one)."""
    number, phase = round_of(data)
    out: dict[str, str] = {}
    changes: dict[str, Any] = {}
    # Nothing said of either unit (``unit situation``; a fight's usual case): no Range,
    # Cover or High Ground to recall (exchange.said is empty for both).
    if a is not None and b is not None and (a.extra.get(exchange.SAID)
                                            or b.extra.get(exchange.SAID)):
        if terms.range is None:
            got = exchange.range_between(a, b, number, phase)
            if got is not None:
                changes["range"] = got
                out["said_range"] = f"Range {got} between {a.name} and {b.name} (said this round)"
        if terms.cover is None:
            for side, unit, rival in (("b", b, a), ("a", a, b)):
                pct = exchange.cover_of(unit, rival.name, number, phase)
                if pct:
                    changes["cover"] = f"{side}:{pct}"
                    out["said_cover"] = f"{unit.name} in Cover {pct}% (said this round)"
                    break
        if terms.high_ground is None:
            up = exchange.higher(a, b, number, phase)
            if up is not None:
                changes["high_ground"] = up
                who = a.name if up == "a" else b.name
                out["said_high_ground"] = f"{who} has High Ground (said this round)"
    terms = terms._replace(**changes) if changes else terms
    reach = terms.range
    if reach is None and use_map and skill is None and a is not None and b is not None \
            and terms.attack is None:
        reach = _map_range(data, a, b)
    if skill is None and a is not None and reach is not None and terms.attack is None:
        skill = _reach_skill(a, reach)
        if skill is not None:
            out["skill_by_reach"] = f"{a.name} {skill}: its best Combat skill that reaches " \
                                    f"Range {reach} (001 l.685–695)"
    unspent, interrupt = None, False
    if spent is not None:
        if not spent:
            unspent = "--unspent: the Target spent no Action"
        out["target_action"] = "--spent" if spent else "--unspent"
    elif a is not None and b is not None:
        rec = exchange.interacted(b, number, phase)
        if rec is not None and rec.get("by") == a.name:
            interrupt = bool(rec.get("interrupt"))
            answered = rec.get("action")
            counts = reading == "001" or interrupt
            if counts and not answered:
                unspent = f"{b.name} spent no Action on {a.name}'s " + (
                    "Interrupt" if interrupt else "Interact")
            out["target_action"] = (f"{b.name} spent an Action" if answered else
                                    f"{b.name} spent no Action") + (
                " (an Interrupt)" if interrupt else "")
    return Recalled(terms, skill, out, unspent, interrupt)


def rival_reaches(b_skill: str | None, range_: int | None) -> bool:
    """Whether the Rival's defending skill reaches the Actor at ``range_``."""
    if b_skill is None or range_ is None:
        return True
    return _reaches(b_skill, range_)


@lru_cache(maxsize=256)
def _reaches(b_skill: str, range_: int) -> bool:
    """:func:`rival_reaches`, remembered by the skill and the Range (the tables are read
    once; every Conflict between units asks)."""
    try:
        sk = sit.find_skill(b_skill)
    except Exception:
        return True
    kind = sit.table()["skill_kind"].get(sk.key)
    if kind is None:
        return True
    top = sit.table()["range"][kind].get("max")
    return top is None or range_ <= top


def trim(effects: Sequence[E], unspent: str | None, reaches: bool,
         reading: str = "001") -> tuple[tuple[E, ...], tuple[str, ...]]:
    """The Target's effects after the rule: none but what is no benefit when it spent no
    Action; no Counter-attack when it cannot reach the Actor."""
    if unspent is None and reaches:  # it spent its Action and reaches: all kept
        return tuple(effects), ()
    notes: list[str] = []
    kept = list(effects)
    # Plain loops over the effects, each key read once (not a generator for ``any`` and
    # two comprehensions): ~9 Conflicts a fight have a Target that spent no Action or
    # cannot reach, most with no effect at all to look at (issue 40)
    if unspent is not None:
        lost: list[str] = []
        benefits: list[E] = []
        for e in kept:
            key = getattr(e, "key", "")
            if key in NOT_A_BENEFIT:
                benefits.append(e)
            else:
                lost.append(_SHORT.get(key, key))
        if lost:  # some benefit lost: only what is none is kept
            kept = benefits
            line = UNSPENT_LINE if reading == "001" else INTERRUPT_LINE
            notes.append(f"No benefit for B: {unspent}, so no {', no '.join(lost)} ({line})")
    if not reaches:
        reached = [e for e in kept if getattr(e, "key", "") != "counterattack"] if kept \
            else kept
        if len(reached) != len(kept):  # a Counter-attack it cannot make
            kept = reached
            notes.append("No Counter-attack for B: it cannot reach A at this Range "
                         "(001 l.685–695)")
    return tuple(kept), tuple(notes)


_SAID_ON_MAP = {"said_range": "range", "said_cover": "cover",
                "said_high_ground": "high_ground"}


def with_said(situation: sit.Situation, said: Mapping[str, str],
              recalled: Recalled) -> sit.Situation:
    """``situation`` with what the round said (``said``: the :class:`Recalled`'s sources
    the caller names) after its own sources, and its map readout
    :func:`relabel`-ed — the one way ``conflict`` and ``hit`` add them. The Situation
    given is never changed (an Assessor's answer is shared); the one returned is new."""
    extra = situation.extra_sources
    out = situation._replace(extra_sources={**extra, **said} if extra else dict(said))
    return relabel(out, recalled)


def relabel(situation: sit.Situation, recalled: Recalled) -> sit.Situation:
    """The map's readout names what was said this round as said, not typed (the map
    keeps a typed value and says so, rules.board.derive)."""
    geo = situation.geometry
    if geo is None:
        return situation
    said = [k for s, k in _SAID_ON_MAP.items() if s in recalled.sources]
    if not said:
        return situation
    from d2d_cli.rules.core.record import replace

    texts = dict(geo.sources)
    for key in said:
        if str(texts.get(key, "")).startswith("typed: "):
            texts[key] = "said this round (d2d unit situation): " + texts[key][len("typed: "):]
    return situation._replace(geometry=replace(geo, sources=texts))
