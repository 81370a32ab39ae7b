"""Unit-aware rolls: each side's Level from the session, the situational modifiers,
and Advantage or Disadvantage — for ``d2d conflict`` and ``d2d hit``.

Sides: ``a`` is the Actor, ``b`` the Rival (000 l.1121 "Actor - Your Unit in a
Conflict. It is opposed by the Rival."). A side may be a unit of the session; then its
Level is its Level in the skill used ("Initiative:Level of the current Skill", 000
l.451; "Merc is 2-1=Level:1", 001 l.859), less the condition penalties of the skill's
main Stat (000 l.453). Explicit levels (``--level-a``, ``--level``) replace the skill's
Level; everything derived is named in the result's ``sources``.

A modifier changes one side's Level: the Level whose difference is the Level Bonus of
the rank tiebreak (001 l.767; 000's Initiative, l.451–460) and the Level of the Hits
(001 l.816–818 "Level - Your Level - Rival Level (min: 0) / Modifiers - Elevation,
Flanking, Terrain, etc."). The values and their lines are data:
``tables/modifiers.toml``. The session holds no positions (range, arcs, elevation,
spaces): those are options. What it holds is used — skills (the skill's Level, its kind
of attack, Unskilled, Close Combat ignoring Confined), conditions (Stat Penalties,
Blessed) and stats (the weapon scale of a unit's own Body, the Rival's stat scale).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from d2d_cli import tables
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import TupleRecord, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck import advantage as adv
from d2d_cli.rules.deck.advantage import Source, Standing

if TYPE_CHECKING:
    from d2d_cli.rules.board.derive import Field, Geometry
    from d2d_cli.rules.scale.stats import Stat
    from d2d_cli.rules.units.gear import Weapon
    from d2d_cli.rules.units.roster import Unit

# Read at every Conflict and Hit between units, imported when first read (a Conflict of
# two cards reads none of them): rules.core.lazy_module
if TYPE_CHECKING:
    from d2d_cli.rules.units import effects as _effects
    from d2d_cli.rules.units import gear as _gear
    from d2d_cli.rules.units import stealth as _stealth
else:
    _effects = lazy_module("d2d_cli.rules.units.effects", globals(), "_effects")
    _gear = lazy_module("d2d_cli.rules.units.gear", globals(), "_gear")
    _stealth = lazy_module("d2d_cli.rules.units.stealth", globals(), "_stealth")

SIDES = ("a", "b")
NONE_SKILL = "none"  # --skill none: no applicable skill (Unskilled)
ATTACKS = ("close", "melee", "reach", "ranged")


@cache
def table() -> dict[str, Any]:
    return tables.load("modifiers")


def other(side: str) -> str:
    return "b" if side == "a" else "a"


# --------------------------------------------------------------------------- typed input


class Terms(TupleRecord):
    """The situational options as typed (checked by :func:`assess`)."""

    range: int | None = None
    attack: str | None = None  # the Actor's kind of attack: close, melee, reach, ranged
    cover: str | None = None  # "[a:|b:]PCT": who is in cover (default b) and how much
    high_ground: str | None = None  # a|b: who is higher
    flank: str | None = None  # "[a:|b:]side|back": who flanks (default a) and from where
    confined: str | None = None  # a|b|both: who shares a Space with another unit
    outnumbered: str | None = None  # a|b: the side attacked beside its Rival's Ally
    weapon_scale: int | None = None  # the Actor's weapon scale
    advantage: tuple[str, ...] = ()  # sides given Advantage (--advantage)
    disadvantage: tuple[str, ...] = ()
    skill_stat: str | None = None  # the skills' main Stat (000 l.453)
    stat: str | None = None  # the Rival's stat the attack targets (default body)
    with_: str | None = None  # issue 36: the Actor's weapon by name (--with)


# Who, Fighter, CoverSpec, Skill and _Skilled are records, not NamedTuples (each class a
# NamedTuple builds costs ~0.1 ms at import, a conflict's every run): every use of them
# is by attribute, built by position or keyword. Terms and Situation stay tuples: their
# callers ``_replace`` and ``_asdict`` them (Assessed, built once a Conflict, is left).
@record
class Who:
    """One side as typed: a unit (or None), an explicit Level and the option that gave
    it (for ``sources``)."""

    unit: Unit | None = None
    level: int | None = None
    level_option: str = "--level-a"


# --------------------------------------------------------------------------- results


@record
class Modifier(Result):
    """One situational modifier: the side whose Level it changes, by how much, why."""

    key: str
    name: str
    side: str
    level: int
    origin: str  # "option" (typed) or "session" (read from a unit)
    source: str


@record
class Fighter:
    """One side's Level: the skill used, its Level before modifiers (``skill_level``)
    and after (``level``), and where the number came from (``source``)."""

    unit: str | None
    skill: str | None
    skill_level: int
    level: int
    source: str
    unskilled: bool


@record
class CoverSpec:
    side: str  # the side in cover
    percent: int


class Situation(TupleRecord):
    """Both sides' Levels, the modifiers, Advantage, and who cannot Block."""

    a: Fighter
    b: Fighter
    modifiers: tuple[Modifier, ...]
    advantage_a: Standing
    advantage_b: Standing
    no_block: tuple[str, ...]
    cover: CoverSpec | None
    extra_sources: Mapping[str, str]
    geometry: Geometry | None = None  # what the map gave (rules.board.derive)


# --------------------------------------------------------------------------- skills


@record
class Skill:
    """What a roll needs of a skill (``tables/skills.toml``): its key, printed name,
    category (Combat…), whether it is a Common Skill, and its other spellings."""

    key: str
    name: str
    category: str
    common: bool
    aliases: tuple[str, ...]


@lru_cache(maxsize=1024)  # ~400 skill lookups a fight, among a few dozen spellings
def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")  # as rules.units.characters.key


@cache
def _skill_index() -> dict[str, Skill]:
    """Every spelling → its skill. Read here rather than through rules.units.characters, whose
    import a lookup by unit name would otherwise pay for (DESIGN.md "Budgets")."""
    index: dict[str, Skill] = {}
    for key, v in tables.load("skills").items():
        sk = Skill(key, v["name"], v["category"], v["common"], tuple(v.get("aliases", ())))
        for spelling in (sk.name, *sk.aliases):
            index[_norm(spelling)] = sk
    return index


def known_skill(name: str) -> Skill | None:
    """A skill by any spelling, or None: no refusal built (its suggestions cost a fuzzy
    match over every skill) where the caller only asks whether the name is a skill."""
    return _skill_index().get(_norm(name))


def find_skill(name: str) -> Skill:
    """A skill by any spelling; an unknown one is refused with rules.units.characters' message
    (its suggestions)."""
    sk = known_skill(name)
    if sk is None:
        from d2d_cli.rules.units.characters import find_skill as refuse

        refuse(name)  # raises BadInput naming the nearest skills
        raise BadInput(f"unknown skill {name!r}")
    return sk


def _held(unit: Unit, skill: Skill) -> tuple[str, int] | None:
    """The unit's (name, Level) in ``skill`` (any spelling the table knows), or None."""
    wanted = {_norm(skill.name), *(_norm(a) for a in skill.aliases)}
    for name, level in unit.skills.items():
        if _norm(name) in wanted and level > 0:
            return name, level
    return None


def _best_combat(unit: Unit) -> tuple[Skill, str, int] | None:
    """The unit's highest Combat skill (the first of equal Levels): (skill, name, level)."""
    best: tuple[Skill, str, int] | None = None
    for name, level in unit.skills.items():
        sk = _skill_index().get(_norm(name))
        if sk is not None and sk.category == "Combat" and level > 0 and (
                best is None or level > best[2]):
            best = (sk, name, level)
    return best


@record
class _Skilled:
    skill: Skill | None
    name: str | None
    level: int
    source: str
    unskilled: bool
    unskilled_why: str = ""


def _actor_skill(unit: Unit, typed: str | None) -> _Skilled:
    """The Actor's skill: ``--skill`` (or ``none``), else its best Combat skill. A skill
    it does not hold: Unskilled at Level 0 with Disadvantage if it is a Common Skill
    (000 l.764), refused if it is not (l.1272 "or be unable to do it")."""
    who = unit.name
    if typed is not None and typed.strip().lower() == NONE_SKILL:
        return _Skilled(None, None, 0, f"{who}: no applicable skill (--skill none), Level 0",
                        True, f"{who} has no applicable skill (--skill none)")
    if typed is None:
        best = _best_combat(unit)
        if best is None:
            raise BadInput(f"{who} holds no Combat skill: name the skill with --skill NAME "
                           "(or --skill none for a Conflict with no applicable skill)")
        sk, name, level = best
        return _Skilled(sk, name, level, f"{who} {name} {level} (its best Combat skill)",
                        False)
    sk = find_skill(typed)
    held = _held(unit, sk)
    if held is not None:
        return _Skilled(sk, held[0], held[1], f"{who} {held[0]} {held[1]}", False)
    if not sk.common:
        raise RuleViolation(
            f"{who} has no {sk.name}, and {sk.name} is not a Common Skill: an Unskilled "
            "unit cannot do it (000 l.764, l.1272)")
    return _Skilled(sk, sk.name, 0, f"{who}: no {sk.name}, Unskilled, Level 0", True,
                    f"{who} has no {sk.name} (a Common Skill)")


def _rival_skill(unit: Unit, typed: str | None, actor: Skill | None) -> _Skilled:
    """The Rival's defending skill: ``--rival-skill`` (or ``none``); else the Actor's
    skill if it holds it; else, against a Combat skill (or no skill named), its best
    Combat skill — as the Mercenary's Melee answers the Goblin's Close Combat (001
    l.852–859). A Rival with none is Unskilled at Level 0, with Disadvantage (it is not
    refused: it did not choose the Conflict)."""
    who = unit.name
    if typed is not None and typed.strip().lower() == NONE_SKILL:
        return _Skilled(None, None, 0, f"{who}: no applicable skill (--rival-skill none), "
                        "Level 0", True, f"{who} has no applicable skill (--rival-skill none)")
    if typed is not None:
        sk = find_skill(typed)
        held = _held(unit, sk)
        if held is not None:
            return _Skilled(sk, held[0], held[1], f"{who} {held[0]} {held[1]}", False)
        return _Skilled(sk, sk.name, 0, f"{who}: no {sk.name}, Unskilled, Level 0", True,
                        f"{who} has no {sk.name}")
    if actor is not None:
        held = _held(unit, actor)
        if held is not None:
            return _Skilled(actor, held[0], held[1], f"{who} {held[0]} {held[1]}", False)
    if actor is None or actor.category == "Combat":
        best = _best_combat(unit)
        if best is not None:
            sk, name, level = best
            lacks = f"; no {actor.name}" if actor is not None else ""
            return _Skilled(sk, name, level,
                            f"{who} {name} {level} (its best Combat skill{lacks})", False)
    what = actor.name if actor is not None else "Combat skill"
    return _Skilled(actor, actor.name if actor else None, 0,
                    f"{who}: no {what}, Unskilled, Level 0", True, f"{who} has no {what}")


# --------------------------------------------------------------------------- parsing


def _side(value: str, option: str, allowed: tuple[str, ...] = SIDES) -> str:
    word = value.strip().lower()
    if word not in allowed:
        raise BadInput(f"{option} {value}: name a side, {' or '.join(allowed)} (a is the "
                       "Actor, b the Rival)")
    return word


def _prefixed(value: str, option: str, default: str) -> tuple[str, str]:
    """``b:50`` → ("b", "50"); ``50`` → (default, "50")."""
    side, sep, rest = value.partition(":")
    if sep:
        return _side(side, option), rest.strip()
    return default, value.strip()


def parse_cover(value: str) -> CoverSpec:
    """``--cover [a:|b:]PCT``: who is in cover (default b, the Rival) and how much, in
    steps of 25% (001 l.716 "Cover:+25% - for each obstacle encountered")."""
    spec = table()["cover"]
    side, text = _prefixed(value, "--cover", "b")
    pct = text.rstrip("%").strip()
    if not re.fullmatch(r"\d+", pct) or int(pct) % spec["step"] or int(pct) > spec["max"]:
        raise BadInput(f"--cover {value}: a cover of 0 to {spec['max']}% in steps of "
                       f"{spec['step']} (001 l.716), e.g. 50 or a:25")
    return CoverSpec(side, int(pct))


def _main_stat(value: str | None) -> str | None:
    if value is None:
        return None
    from d2d_cli.rules.units.roster import STATS

    word = value.strip().lower()
    if word not in STATS:
        raise BadInput(f"--skill-stat {value}: one of {', '.join(STATS)}")
    return word


@lru_cache(maxsize=64)  # every Hits against a unit asks (its Difficulty); a refusal raises again
def target_stat(value: str | None) -> str:
    from d2d_cli.rules.units.roster import STATS

    word = (value or "body").strip().lower()
    if word not in STATS:
        raise BadInput(f"--stat {value}: the Rival's stat the attack targets, one of "
                       f"{', '.join(STATS)} (001 l.822 \"vs - Found after the term vs. (eg "
                       "vs Body)\")")
    return word


def effective_stat(unit: Unit, stat: str) -> Stat:
    """The unit's stat after its condition penalties (level ≥ 0, scale kept), as the
    Status Bar shows it (rules.units.roster.effective_stats)."""
    st = unit.stats.get(stat)
    if st is None:
        raise BadInput(f"unit {unit.name!r} has no {stat.capitalize()} stat")
    if not unit.conditions or _gritted(unit):
        return st
    from d2d_cli.rules.units.conditions import penalties

    delta = penalties(unit.conditions).get(stat, 0)
    from d2d_cli.rules.scale.stats import Stat  # decimal: only where a stat is read

    return st if delta == 0 else Stat(max(0, st.level + delta), st.scale)


# --------------------------------------------------------------------------- assess


def _kind(skilled: _Skilled | None) -> str | None:
    if skilled is None or skilled.skill is None:
        return None
    kind = table()["skill_kind"].get(skilled.skill.key)
    return str(kind) if kind else None


class _Tally:
    """The modifiers and Advantage sources found so far."""

    def __init__(self) -> None:
        self.mods: list[Modifier] = []
        self.srcs: dict[str, list[Source]] = {"a": [], "b": []}
        self.no_block: list[str] = []
        self.extra: dict[str, str] = {}

    def mod(self, key: str, name: str, side: str, level: int, origin: str,
            source: str) -> None:
        self.mods.append(Modifier(key, name, side, level, origin, source))

    def edge(self, side: str, key: str, mode: str, why: str, source: str) -> None:
        self.srcs[side].append(Source(key, mode, why, source))

    def total(self, side: str, base: int) -> int:
        return base + sum(m.level for m in self.mods if m.side == side)


def _from_unit(tally: _Tally, side: str, unit: Unit, sk: _Skilled,
               main: str | None) -> None:
    """What the session holds about a unit: Unskilled (000 l.764, l.1272), Blessed (000
    l.1145) and the condition penalties of the skill's main Stat (000 l.453)."""
    if not sk.unskilled and not unit.conditions:  # skilled, no condition: nothing to add
        return
    t = table()
    if sk.unskilled:
        common = sk.skill is not None and sk.skill.common and side == "a"
        tally.edge(side, "unskilled", adv.DISADVANTAGE, f"Unskilled: {sk.unskilled_why}",
                   t["unskilled"]["common" if common else "source"])
    bless = t["blessed"]
    if unit.conditions.get(bless["condition"]):
        tally.edge(side, "blessed", adv.ADVANTAGE,
                   f"{unit.name} is Blessed (after the important Conflict: d2d unit "
                   f"condition '{unit.name}' remove blessed)", bless["source"])
    stat = main
    if stat is None and sk.skill is not None and sk.skill.category == "Combat":
        stat = str(t["stat_penalties"]["combat"])
    if stat is None or not unit.conditions or _gritted(unit):
        return
    from d2d_cli.rules.units import conditions

    known = conditions.table()
    per = {k: n * known[k].penalty.get(stat, 0) for k, n in unit.conditions.items()
           if k in known and known[k].penalty.get(stat)}
    total = sum(per.values())
    if total:
        why = ", ".join(f"{conditions.name_of(k)} {n}" for k, n in unit.conditions.items()
                        if k in per)
        tally.mod("stat_penalties", f"Stat Penalties: {stat.capitalize()} {total:+d} ({why})",
                  side, total, "session", t["stat_penalties"]["source"])


def _range(tally: _Tally, terms: Terms, kinds: dict[str, str | None],
           opts: Options = DEFAULTS) -> None:
    """001 l.685–695: Close Combat and Melee reach Range 0–1 (Melee Level -1 at 0),
    Reach 0–2 (Disadvantage at 0), other attacks are at Disadvantage at Range 0–1.
    Only the attacker's (side a's): 001 l.681 "Powers/Items have limited Range" is the
    reach of what is used to attack; the Rival defends and uses no Range (an Archer
    struck in Close Combat defends at no Disadvantage; docs/rules.md "Situational
    modifiers")."""
    if terms.range is None:
        return
    if terms.range < 0:
        raise BadInput(f"--range must be 0 or more spaces, not {terms.range}")
    if kinds["a"] is None and kinds["b"] is None:
        raise BadInput("--range needs a kind of attack: --attack close|melee|reach|ranged, "
                       "or a unit side with a Close Combat, Melee or Ranged skill")
    for side in ("a",):
        kind = kinds[side]
        if kind is None:
            continue
        spec = table()["range"][_range_key(kind, opts)]
        if side == "a" and terms.range < spec.get("min", 0):
            raise RuleViolation(f"{spec['name']} reaches Range {spec['min']}-{spec['max']} "
                                f"({ref_of(spec)}): Range {terms.range} is too close")
        if side == "a" and "max" in spec and terms.range > spec["max"]:
            line = str(spec["source"]).split(' "')[0]
            raise RuleViolation(f"{spec['name']} reaches Range 0-{spec['max']} ({line}): "
                                f"Range {terms.range} is out of reach")
        delta = int(spec.get("level_at", {}).get(str(terms.range), 0))
        if delta:
            tally.mod("range", f"{spec['name']} at Range {terms.range}", side, delta,
                      "option", spec["source"])
        if terms.range in spec.get("disadvantage_at", []):
            tally.edge(side, "range", adv.DISADVANTAGE,
                       f"{spec['name']} at Range {terms.range}", spec["source"])


def _position(tally: _Tally, terms: Terms, skilled: dict[str, _Skilled | None],
              scoring: bool = False) -> CoverSpec | None:
    """Cover, High Ground, Flanking, Confined and Outnumbered, as typed. In the Hits
    (``scoring``) the Actor's own Cover counts for nothing: 001 l.711 "Cover makes it
    harder to hit the Target" — the Target is the Rival, whom the Actor's Cover does not
    make harder to hit (it counts in the Conflict, 000 l.455 "Cover -
    Initiative:+1/Cover:25%")."""
    if terms.cover is None and terms.high_ground is None and terms.flank is None and \
            terms.confined is None and terms.outnumbered is None:
        return None  # no position given or read off the map
    t = table()
    cover = parse_cover(terms.cover) if terms.cover is not None else None
    if cover is not None and cover.percent and scoring and cover.side == "a":
        tally.extra["cover_ignored"] = (f"A's Cover {cover.percent}% does not count in the Hits "
                                "(001 l.711 \"Cover makes it harder to hit the Target\")")
    elif cover is not None and cover.percent:
        spec = t["cover"]
        tally.mod("cover", f"Cover {cover.percent}% ({cover.side.upper()} in cover)",
                  other(cover.side), cover.percent // spec["step"] * spec["level_per_step"],
                  "option", spec["source"])
    if terms.high_ground is not None:
        spec = t["high_ground"]
        tally.mod("high_ground", spec["name"], _side(terms.high_ground, "--high-ground"),
                  spec["level"], "option", spec["source"])
    if terms.flank is not None:
        side, arc = _prefixed(terms.flank, "--flank", "a")
        if arc.lower() not in t["flank"]:
            raise BadInput(f"--flank {terms.flank}: side or back (Arc:Left/Right or "
                           "Arc:Back of the Rival), e.g. back or b:side")
        spec = t["flank"][arc.lower()]
        tally.mod("flank", spec["name"], side, spec["level"], "option", spec["source"])
        if spec.get("no_block"):
            tally.no_block.append(other(side))
    if terms.confined is not None:
        spec = t["confined"]
        which = _side(terms.confined, "--confined", ("a", "b", "both"))
        for side in SIDES if which == "both" else (which,):
            sk = skilled[side]
            ignored = sk is not None and sk.skill is not None and \
                sk.skill.key in spec["ignored_by"]
            tally.mod("confined", spec["name"] + (" (ignored: Close Combat)" if ignored
                                                  else ""),
                      side, 0 if ignored else spec["level"], "option", spec["source"])
    if terms.outnumbered is not None:
        side = _side(terms.outnumbered, "--outnumbered")
        spec = t["outnumbered"]
        tally.mod("outnumbered", f"{spec['name']}: {side.upper()} is beside "
                  f"{other(side).upper()}'s Ally", other(side), spec["level"], "option",
                  spec["source"])
    return cover


def _weapon_scale(tally: _Tally, terms: Terms, a: Unit | None, b: Unit | None,
                  fights: bool, rival_stat: Stat | None, rival_stat_source: str) -> None:
    """000 l.334–337: Difference = the Rival's Stat Scale - the Weapon Scale; the Actor's
    Level +Difference and Advantage (> 0) or Disadvantage (< 0). A unit's own weapon
    keeps its Body's scale (001 l.920 "Body+2 with Body:4x1 = Power Rating:6x1")."""
    target = target_stat(terms.stat) if terms.stat is not None else "body"
    if terms.stat is not None and b is None:
        raise BadInput("--stat names the Rival unit's stat: name the Rival as a unit")
    weapon, weapon_from = terms.weapon_scale, tally.extra.pop("weapon_scale_from",
                                                               "--weapon-scale")
    typed = weapon_from == "--weapon-scale"
    if weapon is None and a is not None and fights and "body" in a.stats:
        weapon, weapon_from = a.stats["body"].scale, f"{a.name}'s Body {a.stats['body']}"
    scale: int | None = None
    scale_from = ""
    if b is not None and target in b.stats:
        stat = effective_stat(b, target)
        scale, scale_from = stat.scale, f"{b.name}'s {target.capitalize()} {stat}"
    elif rival_stat is not None:
        scale, scale_from = rival_stat.scale, rival_stat_source or str(rival_stat)
    if terms.weapon_scale is not None and scale is None:
        raise BadInput("--weapon-scale needs the Rival's stat scale: name the Rival as a "
                       "unit (or hit --vs 2x1)")
    if weapon is None or scale is None:
        return
    spec = table()["weapon_scale"]
    tally.extra["weapon_scale"] = f"{weapon} ({weapon_from})"
    tally.extra["rival_stat_scale"] = f"{scale} ({scale_from})"
    diff = scale - weapon
    if diff:
        origin = "option" if terms.weapon_scale is not None and typed else "session"
        tally.mod("weapon_scale", f"{spec['name']} {weapon} vs stat scale {scale}", "a",
                  diff, origin, spec["source"])
        tally.edge("a", "weapon_scale", adv.ADVANTAGE if diff > 0 else adv.DISADVANTAGE,
                   f"Weapon Scale difference {diff:+d}", spec["source"])


_KIND_OF_SKILL = {"close": ("melee", "reach"), "melee": ("melee", "reach"),
                  "reach": ("reach",), "ranged": ("ranged",)}


def _armed(unit: Unit | None, terms: Terms, kinds: dict[str, str | None],
           sk: _Skilled | None) -> Weapon | None:
    """Issue 36: the weapon the Actor attacks with — ``--with NAME``; else, of the
    weapons it carries, the one of the kind of attack typed (``--attack``) or its
    skill's (a Ranged skill throws or shoots, Close Combat and Melee strike), else its
    first. None: it carries none (Hand to Hand, 000 l.506, exactly as before) or none of
    the kind typed."""
    if unit is None:
        if terms.with_ is not None:
            raise BadInput("--with names one of the Actor unit's weapons: name the Actor "
                           "as a unit")
        return None
    gear = _gear
    if terms.with_ is not None:
        w = gear.find_weapon(unit.extra, unit.name, terms.with_)
        if terms.attack is not None and terms.attack.strip().lower() != w.kind and \
                not w.hand_to_hand:
            raise RuleViolation(f"--with {w.name} is a {w.attack} weapon, not --attack "
                                f"{terms.attack} ({gear.SOURCES['weapon']})")
        return None if w.hand_to_hand else w
    held = gear.weapons_of(unit.extra, unit.name)
    if not held:
        return None
    typed = terms.attack.strip().lower() if terms.attack is not None else None
    if typed is not None:
        return next((w for w in held if w.kind == typed), None)
    fits = _KIND_OF_SKILL.get(kinds["a"] or "", ())
    if kinds["a"] is None and not (sk is not None and sk.skill is not None
                                   and sk.skill.category == "Combat"):
        return None  # not an attack (a task, a Block of no Combat skill)
    return next((w for w in held if w.kind in fits), held[0])


def _weapon(tally: _Tally, terms: Terms, unit: Unit, w: Weapon) -> None:
    """What the weapon brings to the Conflict: its range bands (a ranged weapon past
    its long band is out of range, past its short band at Disadvantage), Magic Weapon
    +N (000 l.1214 "Initiative:+1/point") and Proficiency (000 l.379: without it,
    Disadvantage — docs/rules.md "What a unit carries")."""
    gear = _gear
    tally.extra["weapon"] = f"{unit.name}'s {w.text()}"
    rng = terms.range
    if rng is not None and w.kind == "ranged" and w.range:
        if not w.reaches(rng):
            raise RuleViolation(f"{unit.name}'s {w.name} reaches Range {w.range[-1]} "
                                f"(d2d unit gear show): Range {rng} is out of range")
        if w.long_range(rng):
            tally.edge("a", "long_range", adv.DISADVANTAGE,
                       f"{w.name} at Range {rng}, past its short band {w.range[0]}",
                       gear.SOURCES["range"] + " (bands: docs/rules.md \"What a unit "
                       "carries\")")
    if w.magic:
        tally.mod("magic_weapon", f"Magic Weapon {w.name} +{w.magic}", "a", w.magic,
                  "session", gear.SOURCES["magic_weapon"])
    if gear.proficient(unit.extra, w) is False:
        tally.edge("a", "proficiency", adv.DISADVANTAGE,
                   f"{unit.name} has no Proficiency in {w.proficiency or w.name}",
                   gear.SOURCES["proficiency"])


def _fighter(who: Who, sk: _Skilled | None, tally: _Tally, side: str) -> Fighter:
    if who.level is not None:
        level, src = who.level, who.level_option
        if sk is not None:
            src += f" (the session: {sk.source})"
    elif sk is not None:
        level, src = sk.level, sk.source
    else:
        level, src = 0, "not given (0)"
    return Fighter(who.unit.name if who.unit else None, sk.name if sk else None, level,
                   tally.total(side, level), src, bool(sk and sk.unskilled))


def assess(a: Who, b: Who, terms: Terms, *, skill: str | None = None,
           rival_skill: str | None = None, rival_stat: Stat | None = None,
           rival_stat_source: str = "", field: Field | None = None,
           opts: Options = DEFAULTS, scoring: bool = False) -> Situation:
    """Both sides' Levels, the modifiers, each side's Advantage and who cannot Block.
    ``skill``/``rival_skill`` are ``--skill``/``--rival-skill``; ``rival_stat`` is a
    stat given for a Rival that is not a unit (``hit --vs 2x1``). ``field``: the map,
    whose geometry fills what was not typed when both units of an attack are placed.
    ``scoring`` is True for ``hit`` (the Level of the Hits), False for a Conflict;
    ``opts`` the table's ``[rules]`` (``push_the_limit``, ``reach``)."""
    for who in (a, b):
        if who.unit is not None:
            _alive(who.unit)
    if a.unit is None and b.unit is None:
        for value, option in ((skill, "--skill"), (terms.skill_stat, "--skill-stat")):
            if value is not None:
                raise BadInput(f"{option} reads a unit's Level: name a unit as a side "
                               "(e.g. Archer:fast, or hit --by Archer)")
    if rival_skill is not None and b.unit is None:
        raise BadInput("--rival-skill reads the Rival's Level: name the Rival as a unit")
    sk_a = _actor_skill(a.unit, skill) if a.unit is not None else None
    named = skill is not None and skill.strip().lower() != NONE_SKILL
    actor_skill = sk_a.skill if sk_a is not None else (
        find_skill(skill) if named and skill is not None else None)
    sk_b = _rival_skill(b.unit, rival_skill, actor_skill) if b.unit is not None else None

    tally = _Tally()
    main = _main_stat(terms.skill_stat)
    for side, who, sk in (("a", a, sk_a), ("b", b, sk_b)):
        if who.unit is not None and sk is not None:
            _from_unit(tally, side, who.unit, sk, main)
            _round_effects(tally, side, who.unit, sk, main, opts, scoring)
    kinds = {"a": _kind(sk_a), "b": _kind(sk_b)}
    if terms.attack is not None:
        word = terms.attack.strip().lower()
        if word not in ATTACKS:
            raise BadInput(f"--attack {terms.attack}: one of {', '.join(ATTACKS)}")
        kinds["a"] = word
    arm = _armed(a.unit, terms, kinds, sk_a)
    if arm is not None and terms.attack is None:
        kinds["a"] = arm.kind  # what it attacks with gives its reach (001 l.685–695)
    if kinds["a"] is not None and b.unit is not None:  # an attack: find it first
        _stealth.refuse_hidden(b.unit, a.unit.name if a.unit is not None else None)
    geometry = None if field is None or kinds["a"] is None else field.derive(
        a.unit, b.unit, kinds["a"], terms._asdict())
    if geometry is not None:
        terms = terms._replace(**geometry.terms)
    try:
        _range(tally, terms, kinds, opts)
    except RuleViolation as e:
        if arm is None or terms.attack is not None:
            raise
        raise RuleViolation(f"{a.unit.name if a.unit else 'A'}'s {arm.name} is a "
                            f"{arm.attack.title()} weapon: {e.message}") from None
    if arm is not None and a.unit is not None:
        _weapon(tally, terms, a.unit, arm)
        if arm.scale is not None and terms.weapon_scale is None:
            terms = terms._replace(weapon_scale=arm.scale)
            tally.extra["weapon_scale_from"] = (f"{a.unit.name}'s {arm.name}: Weapon Scale "
                                                f"{arm.scale}")
    cover = _position(tally, terms, {"a": sk_a, "b": sk_b}, scoring)
    fights = kinds["a"] is not None or bool(sk_a and sk_a.skill is not None
                                            and sk_a.skill.category == "Combat")
    _weapon_scale(tally, terms, a.unit, b.unit, fights, rival_stat, rival_stat_source)
    for given, mode in ((terms.advantage, adv.ADVANTAGE),
                        (terms.disadvantage, adv.DISADVANTAGE)):
        for value in given:
            tally.edge(_side(value, f"--{mode}"), "option", mode, f"--{mode}",
                       table()["option"]["source"])
    st_a, st_b = adv.standings(tally.srcs["a"], tally.srcs["b"], table()["cancel"]["source"])
    if geometry is not None:  # read off the map, not typed
        tally.mods = [Modifier(m.key, m.name, m.side, m.level, "map", m.source)
                      if m.key in geometry.terms else m for m in tally.mods]
    return Situation(_fighter(a, sk_a, tally, "a"), _fighter(b, sk_b, tally, "b"),
                     tuple(tally.mods), st_a, st_b, tuple(tally.no_block), cover,
                     tally.extra, geometry)


_V = TypeVar("_V")


class Assessor:
    """:func:`assess`, remembered by all it reads, for a caller that can name what each
    unit's table holds of it by a ``reading`` (a simulated fight: a number for the
    table, the same for tables alike but in what no assessment reads — the round's
    tokens, Actions, Crits, where the unit stands). The rest of the key is every other
    input: the Levels typed, the terms, the skills, the Rival's stat, the map's Field
    and the ``[rules]`` (these two by identity, each held beside its answer so that an
    ``id`` is never another object's). ``kept`` is the memory, which callers may share
    (the readings are then the same numbering); past ``limit`` answers it is emptied
    and refilled. An assessment that raises is not remembered (it raises again). The
    answer is the one remembered, shared by every caller that finds it: read it, never
    change it. Its ``extra_sources`` (what a caller would add to) is kept as a read-only
    view, so such a caller raises rather than changing every later answer
    (``conflict.ask`` and ``hits.levels`` merge what the round said into a dict of
    their own)."""

    def __init__(self, reading: Callable[[Unit], Any],
                 kept: dict[tuple[Any, ...], tuple[Any, Any, Any]],
                 limit: int = 4096) -> None:
        self._reading = reading
        self._kept = kept
        self._limit = limit

    def __call__(self, a: Who, b: Who, terms: Terms, *, skill: str | None = None,
                 rival_skill: str | None = None, rival_stat: Stat | None = None,
                 rival_stat_source: str = "", field: Field | None = None,
                 opts: Options = DEFAULTS, scoring: bool = False) -> Situation:
        ua, ub, reading = a.unit, b.unit, self._reading
        key = (None if ua is None else (ua.name, reading(ua)),
               None if ub is None else (ub.name, reading(ub)),
               a.level, a.level_option, b.level, b.level_option, terms, skill,
               rival_skill, rival_stat, rival_stat_source, id(field), id(opts), scoring)
        # the answer kept with the very Field and [rules], looked up in place: a hit makes
        # no further call and no tuple of the arguments (~10 a fight)
        got = self._kept.get(key)
        if got is not None and got[0] is field and got[1] is opts:
            found: Situation = got[2]
            return found
        return self._made(key, field, opts, _kept_assessment, (
            a, b, terms, skill, rival_skill, rival_stat, rival_stat_source, field, opts,
            scoring))

    def remember(self, a: Unit, b: Unit, rest: tuple[Any, ...], field: Field | None,
                 opts: Options, compute: Callable[..., _V], *args: Any) -> _V:
        """``compute(*args)``, remembered as an assessment is: by the two units' names and
        readings, the map's Field and the ``[rules]`` (by identity, held beside the
        answer), and ``rest`` — every other thing ``compute`` reads, which the caller
        names (``conflict.ask``: what the round remembers of the two, the terms, the
        skills). The answer is shared by every caller that finds it: read it, never
        change it. One that raises is not remembered. ``compute`` and its arguments are
        given apart, not bound (a ``functools.partial`` of ~16 arguments, with its
        keywords' empty dict, was made and dropped at every call, found or not)."""
        reading = self._reading
        # the answer kept with the very Field and [rules] looked up in place: a hit makes
        # no further call (~27 a fight: every Conflict, Hits and Crit between units)
        key = ("remember", a.name, reading(a), b.name, reading(b), id(field), id(opts),
               *rest)
        got = self._kept.get(key)
        if got is not None and got[0] is field and got[1] is opts:
            found: _V = got[2]
            return found
        return self._made(key, field, opts, compute, args)

    def _made(self, key: tuple[Any, ...], field: Field | None, opts: Options,
              compute: Callable[..., _V], args: tuple[Any, ...]) -> _V:
        """``compute(*args)``, kept for ``key`` with the very Field and ``[rules]`` it
        was made with (what :meth:`__call__` and :meth:`remember` look up first); the
        memory emptied past its limit."""
        kept = self._kept
        value = compute(*args)
        if len(kept) >= self._limit:
            kept.clear()
        kept[key] = (field, opts, value)
        return value


def _kept_assessment(a: Who, b: Who, terms: Terms, skill: str | None,
                     rival_skill: str | None, rival_stat: Stat | None,
                     rival_stat_source: str, field: Field | None, opts: Options,
                     scoring: bool) -> Situation:
    """:func:`assess` as an :class:`Assessor` keeps it: its ``extra_sources`` a read-only
    view (a function of its arguments alone: an assessment found remembered makes no
    closure)."""
    sit = assess(a, b, terms, skill=skill, rival_skill=rival_skill, rival_stat=rival_stat,
                 rival_stat_source=rival_stat_source, field=field, opts=opts,
                 scoring=scoring)
    return sit._replace(extra_sources=MappingProxyType(sit.extra_sources))


class Assessed(TupleRecord):
    """A Conflict's assessment (:func:`assess`, not scoring) with what it was read from:
    the two units (the very objects), the terms and skills after what the round
    remembered, the map's Field and the ``[rules]``. The Hits that follow it read the
    same assessment where :func:`scoring_from` says their own parts change nothing."""

    a: Unit | None
    b: Unit | None
    terms: Terms
    skill: str | None
    rival_skill: str | None
    field: Field | None
    opts: Options
    situation: Situation


def scoring_from(shared: Assessed | None, a: Who, b: Who, terms: Terms, *,
                 skill: str | None, rival_skill: str | None, rival_stat: Stat | None,
                 field: Field | None, opts: Options) -> Situation | None:
    """The Hits' assessment (``assess(..., scoring=True)``) taken from a Conflict's
    ``shared`` one, or None when it must be made anew. Both read the same skills,
    conditions, effects, weapon, map geometry, position and weapon scale; what the Hits
    alone read differently is three things, and where any of them is in play the Hits
    are assessed afresh: Push the Limit under ``[rules] push_the_limit = "000"`` (its
    Initiative counts in the Conflict only, 000 l.254), the Actor's own Cover (001 l.711
    "Cover makes it harder to hit the Target"), a Rival's stat given rather than read off
    a unit (``hit --vs 2x1``), and a Level typed on either side (its option is named).
    The units are compared by identity: the caller hands ``shared`` on only while they
    are unchanged (a simulated fight's live units, whose tables it compares)."""
    if shared is None or a.level is not None or b.level is not None or \
            rival_stat is not None:
        return None
    if a.unit is not shared.a or b.unit is not shared.b or field is not shared.field or \
            skill != shared.skill or rival_skill != shared.rival_skill or \
            terms != shared.terms or opts != shared.opts:
        return None
    sit = shared.situation
    if opts.push_the_limit == "000" and any(m.key == "push_the_limit"
                                            for m in sit.modifiers):
        return None
    if sit.cover is not None and sit.cover.percent and sit.cover.side == "a":
        return None
    return sit


def sources(sit: Situation, keys: Mapping[str, str]) -> dict[str, str]:
    """Where each number came from, under the command's own keys (``level_a`` or
    ``level``…): ``keys`` maps "a"/"b" to them."""
    out = {keys["a"]: sit.a.source, keys["b"]: sit.b.source}
    extra = sit.extra_sources
    if extra:  # none to add (a Conflict of two cards, or nothing said): no merge
        # A remembered assessment's are a read-only view (Assessor), which a dict merges
        # key by key through Python's generic mapping path; its copy is the dict under it,
        # copied in C, and merged as a dict (~0.25 µs of ~0.5 a Conflict, issue 40)
        out.update(extra.copy() if type(extra) is MappingProxyType else extra)
    return out


# --------------------------------------------------------------------------- the round's
# What a Special Action leaves on a unit this Round (rules/units/effects.py), and the
# Dead, who enter no Conflict (issue 19).


def _gritted(unit: Unit) -> bool:
    from d2d_cli.rules.units.effects import gritted

    return gritted(unit)


def _alive(unit: Unit) -> None:
    """A Dead unit cannot enter a Conflict (000 l.1172 "Dead - Permanent Negative
    Status")."""
    if unit.conditions.get("dead"):
        raise RuleViolation(f"{unit.name} is Dead and cannot enter a Conflict (000 l.1172 "
                            "\"Dead - Permanent Negative Status\")")
    if unit.extra.get("off_map"):  # docs/rules.md "Leaving the map"
        raise RuleViolation(f"{unit.name} has left the map (d2d unit leave) and enters no "
                            f"Conflict; d2d unit place {unit.name!r} SPACE brings it back")


def _round_effects(tally: _Tally, side: str, unit: Unit, sk: _Skilled, main: str | None,
                   opts: Options, scoring: bool) -> None:
    """Push the Limit: the skill's Level +1 per use this Round (001 l.597 "Skill:+1 this
    Round"; with ``[rules] push_the_limit = "000"`` Initiative +1, a Conflict's Level,
    and in ``hit`` Hits +1 instead: rules.combat.hits). Grit your Teeth: the Stat
    Penalties are not applied (001 l.605 "Ignore all penalties this Round"), named."""
    effects = _effects
    if not unit.extra.get(effects.EFFECTS):  # nothing on the unit this Round
        return
    got = effects.held(unit)  # read once for both (effects.pushed, effects.gritted)
    pushes = got.get(effects.PUSH, 0)
    if pushes and not (scoring and opts.push_the_limit == "000"):
        source = effects.PUSH_000 if opts.push_the_limit == "000" else \
            effects.SOURCES[effects.PUSH]
        what = "Initiative" if opts.push_the_limit == "000" else "Skill"
        tally.mod("push_the_limit", f"Push the Limit: {what} +{pushes} this Round", side,
                  pushes, "session", source)
    if got.get(effects.GRIT, 0) > 0 and unit.conditions:
        stat = main
        if stat is None and sk.skill is not None and sk.skill.category == "Combat":
            stat = str(table()["stat_penalties"]["combat"])
        if stat is None:
            return
        from d2d_cli.rules.units import conditions

        known = conditions.table()
        total = sum(n * known[k].penalty.get(stat, 0) for k, n in unit.conditions.items()
                    if k in known)
        if total:
            tally.mod("grit_your_teeth", f"Grit your Teeth: Stat Penalties {stat.capitalize()} "
                      f"{total:+d} ignored this Round", side, 0, "session",
                      effects.SOURCES[effects.GRIT])


def _range_key(kind: str, opts: Options) -> str:
    """``[rules] reach = "000"``: 000 l.321's Reach, "Range:1 or 2. IF Range:1 THEN
    Initiative:-1" (tables/modifiers.toml ``range.reach_000``)."""
    return "reach_000" if kind == "reach" and opts.reach == "000" else kind


def ref_of(spec: dict[str, Any]) -> str:
    return str(spec["source"]).split(' "')[0]
