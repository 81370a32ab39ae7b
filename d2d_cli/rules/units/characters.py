"""Characters: 22-point creation, archetypes and skills, advancement.

000 "Character Creation": "A new character gets 22 points to divide among the 4
stats. Default distribution below." and "Archetypes are just arbitrary labels for
some typical Skill packages." 001 p.42 "Advancement": "Spend SP = Current Level of
Skill or Power, Gain Skill:+1 or Power:+1"; "Respec - Reduce ONE Skill or Power by 1,
Gain SP equal to lost Level".

A character is a :class:`~d2d_cli.rules.units.roster.Unit` with ``kind = "character"``; its
creation record lives in ``Unit.extra``: ``archetype``, ``template``, ``conception``
(the eight answers), ``cp``, ``sp``, ``ap``, ``abilities`` and ``respec_used`` (the
skill reduced in this Downtime, until ``char downtime``).

Every ``char`` command's result is built here: the :class:`Sheet` (``char new``,
``char show``), the sheet with the :class:`Advanced` change (``award``, ``train``,
``respec``, ``learn``, ``feat``) and the :class:`Downtime`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, NotFound, RuleViolation
from d2d_cli.rules.core.options import Options
from d2d_cli.rules.core.record import field, fields, record, replace
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.scale.stats import MAX_LEVEL, MIN_LEVEL, Stat, parse_stat
from d2d_cli.rules.units import roster as units
from d2d_cli.rules.units.roster import STATS, Unit
from d2d_cli.rules.units.skills import Skill as Skill
from d2d_cli.rules.units.skills import _suggest
from d2d_cli.rules.units.skills import find_skill as find_skill
from d2d_cli.rules.units.skills import key as key
from d2d_cli.rules.units.skills import parse_skill_spec as parse_skill_spec
from d2d_cli.rules.units.skills import skills as skills

BUDGET = 22
CONCEPTION = ("motivation", "impact", "formative", "plans", "flaws", "fear", "humiliation",
              "trigger")
POINTS = ("cp", "sp", "ap")
# A skill at Level 0 costs "SP = Current Level" = 0 to learn by 001 p.42's formula; d2d
# charges 1 SP by default (docs/rules.md), `[rules] new_skill_sp` switches it.
NEW_SKILL_SP = 1
# 000 l.372 "Respec - Downtime:Between Sessions you may reduce ONE Skill by one level":
# the skill reduced is kept here until the next Downtime (`char downtime`).
RESPEC_USED = "respec_used"
# Bounds on points (far past any campaign): a session stays readable (session/shape.py).
MAX_AWARD = 1000
MAX_POINTS = 1_000_000


@cache
def templates() -> dict[str, dict[str, Stat]]:
    return {k: {s: parse_stat(v[s]) for s in STATS} for k, v in tables.load("templates").items()}


@cache
def archetypes() -> dict[str, dict[str, Any]]:
    return tables.load("archetypes")


def stat_step(stat: str, level: int, left: int, after: int, budget: int = BUDGET
              ) -> str | None:
    """Interactive creation, one stat at a time: what is wrong with ``level`` for
    ``stat`` when ``left`` points remain and ``after`` stats follow (None: it fits), so
    only the stat that breaks the budget is asked again."""
    name = stat.capitalize()
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        return f"{name} {level} is outside {MIN_LEVEL}–{MAX_LEVEL}"
    rest = left - level
    if after == 0 and rest:
        word = "over" if rest < 0 else "under"
        return (f"{name} {level} makes {budget - rest} points, {abs(rest)} {word} the "
                f"{budget}-point budget: {name} must be {left}")
    low, high = MIN_LEVEL * after, MAX_LEVEL * after
    if not low <= rest <= high:
        return (f"{name} {level} leaves {rest} points for the {after} stats still to "
                f"choose, which need {low} to {high}")
    return None


def archetype_names() -> list[str]:
    return sorted(a["name"] for a in archetypes().values())


def find_archetype(name: str) -> dict[str, Any]:
    arch = archetypes().get(key(name))
    if arch is None:
        names = [a["name"] for a in archetypes().values()]
        raise BadInput(f"unknown archetype {name!r}{_suggest(name, names)} "
                       "(see d2d ref archetypes)")
    return arch


def package(archetype: str) -> dict[str, int]:
    """The archetype's skills at Level 1 (the rules give no level; docs/rules.md)."""
    return {find_skill(s).name: 1 for s in find_archetype(archetype)["skills"]}


# --- creation -------------------------------------------------------------------------


def stat_points(stats: dict[str, Stat]) -> int:
    """The points a spread of stats spends: the sum of the four levels (000 "Character
    Creation": "22 points to divide among the 4 stats")."""
    return sum(stats[s].level for s in STATS if s in stats)


def budget_check(stats: dict[str, Stat], budget: int = BUDGET) -> int:
    """The 22-point rule: each level a whole number in 2–10, the four summing to 22."""
    for s in STATS:
        st = stats[s]
        if st.partial is not None or not MIN_LEVEL <= st.level <= MAX_LEVEL:
            shown = st.partial if st.partial is not None else st.level
            raise RuleViolation(f"{s.capitalize()} {shown:g} is not a whole level from "
                                f"{MIN_LEVEL} to {MAX_LEVEL} (000 \"Units\": \"Level is an "
                                "integer from 2-10\")")
    total = stat_points(stats)
    if total != budget:
        terms = " + ".join(f"{s.capitalize()} {stats[s].level}" for s in STATS)
        how = f"{total - budget} over" if total > budget else f"{budget - total} under"
        raise RuleViolation(f"{terms} = {total}: {how} the {budget}-point budget "
                            "(000 \"Character Creation\")")
    return total


def stat_level(value: str, default_scale: int, stat: str) -> Stat:
    """A stat flag: a bare level (``7``, keeping the template's scale) or ``7x1``."""
    text = value.strip()
    if re.fullmatch(r"\d+", text):
        level = int(text)
        if not MIN_LEVEL <= level <= MAX_LEVEL:
            raise RuleViolation(f"{stat.capitalize()} {level} is outside {MIN_LEVEL}–"
                                f"{MAX_LEVEL} (000 \"Units\": \"Level is an integer from 2-10\")")
        return Stat(level, default_scale)
    return parse_stat(text)


def scale_check(stats: dict[str, Stat], template: str) -> None:
    """The character's scale is its template's: each stat's level is counted on the
    scale the rules' Default distribution gives it (000 l.1029–1039: a human's Body,
    Mind and Will on x1, Speed on x0). A stat on another scale would make the 22 points
    buy any size (``--body 10x5``), so it is refused; no text prices a scale in points."""
    tpl = templates()[template]
    off = [s for s in STATS if stats[s].scale != tpl[s].scale]
    if not off:
        return
    shown = ", ".join(f"{s.capitalize()} {stats[s]}" for s in off)
    scales = ", ".join(f"{s.capitalize()} x{tpl[s].scale}" for s in STATS)
    source = tables.load("templates")[template].get("source", "000 l.1029")
    first = off[0]
    raise RuleViolation(
        f"{shown}: off the character's scale — the 22-point budget (000 l.1029) counts "
        f"levels on the {template} template's scale ({scales}; {source}); give a bare "
        f"level (--{first} {stats[first].level}) or one on that scale "
        f"(--{first} {stats[first].level}x{tpl[first].scale})")


def build_stats(template: str | None, overrides: dict[str, str | None]) -> dict[str, Stat]:
    """A template (default human-male) with per-stat overrides, checked against its scale
    and the 22 points."""
    name = template or "human-male"
    tpl = templates().get(name)
    if tpl is None:
        raise BadInput(f"unknown template {name!r}: known {', '.join(templates())}")
    stats = {s: stat_level(v, tpl[s].scale, s) if v is not None else tpl[s]
             for s, v in overrides.items()}
    scale_check(stats, name)
    budget_check(stats)
    return stats


def new_character(name: str, stats: dict[str, Stat], *, template: str | None,
                  archetype: str | None, conception: dict[str, str | None]) -> Unit:
    record: dict[str, Any] = {"conception": {q: a for q, a in conception.items() if a},
                              "cp": 0, "sp": 0, "ap": 0, "abilities": []}
    # TOML has no null: an absent archetype/template is simply not stored.
    if archetype:
        record["archetype"] = find_archetype(archetype)["name"]
    if template:
        record["template"] = template
    return Unit(name=name, stats=stats, kind="character",
                skills=package(archetype) if archetype else {}, extra=record)


def character(name: str, template: str | None, overrides: dict[str, str | None], *,
              archetype: str | None, conception: dict[str, str | None]) -> Unit:
    """A new character from what was typed, checked before the session is touched: the
    stats on the template's scale and budget, the name, the archetype."""
    stats = build_stats(template, overrides)
    units.check_unit_name(name)
    return new_character(name, stats, template=template or "human-male",
                         archetype=archetype, conception=conception)


def create(roster: dict[str, Unit], unit: Unit, rules: Options) -> Sheet:
    """``char new``: the character on the roster, and its sheet — with a note when the
    template's Speed reads otherwise under the table's speed convention."""
    units.enroll(roster, unit)
    out = sheet(unit, rules, f"created character {unit.name} "
                             f"({stat_points(unit.stats)} points)")
    note = template_speed_note(unit, rules.speed_convention)
    return replace(out, notes=(note,)) if note else out


SPEED_001 = Stat(5, 0)  # 001 l.314 "Speed - 5x0 = 5kph/3mph", the Human Male sample


def template_speed_note(unit: Unit, convention: str) -> str | None:
    """Why a templated character keeps the 000 template's Speed under 001's convention
    (docs/rules.md "Templates and the speed convention"): the 22-point budget (000
    l.1029) is the only creation budget printed, and 001's Human Male Speed 5x0 (001
    l.314) on top of 000's other three stats would make 23."""
    name = unit.extra.get("template")
    tpl = templates().get(str(name)) if name else None
    if convention != "001" or tpl is None or unit.stats.get("speed") != tpl["speed"] or \
            tpl["speed"] == SPEED_001:
        return None
    speed = tpl["speed"]
    source = tables.load("templates")[str(name)].get("source", "000 l.1029")
    return (f"Speed {speed} is the {name} template's ({source} \"Speed:4x0 (4m/s)\"); "
            f"under [rules] speed_convention = \"001\" it reads {speed.level} km/h, a walk, "
            f"and 001's Human Male is Speed {SPEED_001} (001 l.314). d2d keeps the "
            f"template inside the 22-point budget (000 l.1029), where 001's Speed would "
            f"make 23: move a level into Speed to play 001's human (e.g. --speed "
            f"{SPEED_001.level} --will {tpl['will'].level - 1}), as Combat #1's Archer "
            "needs Move 5 (000 l.579–596)")


def require_character(unit: Unit) -> Unit:
    if unit.kind != "character":
        raise NotFound(f"{unit.name!r} is a unit, not a character (d2d char new)")
    return unit


def find_character(roster: dict[str, Unit], name: str) -> Unit:
    return require_character(units.find(roster, name))


# --- advancement (001 p.42, 000 "Advancement") ----------------------------------------


def points(unit: Unit) -> dict[str, int]:
    return {p: int(unit.extra.get(p, 0) or 0) for p in POINTS}


@record
class Awarded(Result):
    awarded: dict[str, int]
    points: dict[str, int]

    def line(self) -> str:
        return "awarded " + "  ".join(f"+{n} {p.upper()}" for p, n in self.awarded.items() if n)


@record
class SkillChange(Result):
    """A skill trained (SP spent) or respecced (SP gained)."""

    skill: str
    # `from` is a keyword; result.renamed() would read as a default to mypy.
    from_: int = field(metadata={"json_name": "from"})
    to: int
    sp_spent: int
    sp_gained: int

    def line(self) -> str:
        cost = f"−{self.sp_spent} SP" if self.sp_spent else f"+{self.sp_gained} SP"
        return f"{self.skill} {self.from_} → {self.to} ({cost})"


@record
class Learned(Result):
    ability: str
    ap_spent: int
    kind: str = "ability"  # "ability", "specialty" or "rating" (a Power's, 001 l.1131)
    specialty: str | None = None  # the Specialty it was gained in (000 l.378)
    nth_in_specialty: int | None = None

    def line(self) -> str:
        if self.kind == "rating":
            return f"raises {self.ability} (−{self.ap_spent} AP)"
        what = "the Specialty " if self.kind == "specialty" else ""
        where = ""
        if self.specialty is not None:
            free = "; every third costs 0 AP, 000 l.378" if not self.ap_spent else ""
            where = f", Ability #{self.nth_in_specialty} in {self.specialty}{free}"
        return f"gains {what}{self.ability} (−{self.ap_spent} AP{where})"


@record
class Feat(Result):
    feat: str
    cp_spent: int

    def line(self) -> str:
        return f"Heroic Feat — Hits +1 or −1 (−{self.cp_spent} CP)"





def award(unit: Unit, cp: int, sp: int, ap: int) -> Awarded:
    """Milestone rewards (000 "Rewards > Advancement")."""
    gains = {"cp": cp, "sp": sp, "ap": ap}
    for p, n in gains.items():
        if n < 0:
            raise BadInput(f"--{p} {n}: an award is 0 or more points")
        if n > MAX_AWARD:
            raise BadInput(f"--{p} {n}: an award is at most {MAX_AWARD} points")
        if points(unit)[p] + n > MAX_POINTS:
            raise BadInput(f"{unit.name} would hold more than {MAX_POINTS:,} {p.upper()}")
    if not any(gains.values()):
        raise BadInput("nothing to award: give --cp, --sp and/or --ap")
    for p, n in gains.items():
        unit.extra[p] = points(unit)[p] + n
    return Awarded(gains, points(unit))


def train_cost(level: int, new_skill_sp: int = NEW_SKILL_SP) -> int:
    """001 p.42: "Spend SP = Current Level of Skill or Power"; a new skill costs
    ``new_skill_sp`` (the formula would make it free)."""
    return level if level > 0 else new_skill_sp


def train(unit: Unit, skill: str, new_skill_sp: int = NEW_SKILL_SP) -> SkillChange:
    sk = find_skill(skill)
    level = unit.skills.get(sk.name, 0)
    cost = train_cost(level, new_skill_sp)
    have = points(unit)["sp"]
    if have < cost:
        raise RuleViolation(f"training {sk.name} {level} → {level + 1} costs {cost} SP "
                            f"(001 p.42 \"Spend SP = Current Level\"); {unit.name} has {have}")
    unit.extra["sp"] = have - cost
    unit.skills[sk.name] = level + 1
    return SkillChange(sk.name, level, level + 1, sp_spent=cost, sp_gained=0)


RESPEC_SP = ("cost", "lost", "new")


def respec(unit: Unit, skill: str, mode: str = "cost",
           limit: str = "downtime", new_skill_sp: int = NEW_SKILL_SP) -> SkillChange:
    """Reduce ONE skill by 1 and gain SP. ``"cost"`` (default): the SP the lost level
    cost to train (001 l.1108 "Spend SP = Current Level": L-1 for level L; a level-1
    skill its ``new_skill_sp``), so train-then-respec nets 0 SP; ``"lost"``: 001 l.1102
    "Gain SP equal to lost Level" read as L (nets +1 SP a cycle, docs/errata.md);
    ``"new"``: 000 l.372 "gain SP equal to the new level" (L-1). Once per Downtime (000
    l.372 "Downtime:Between Sessions you may reduce ONE Skill"; ``limit="none"`` lifts
    it)."""
    if mode not in RESPEC_SP:
        raise BadInput(f"[rules] respec_sp = {mode!r}: use \"cost\", \"lost\" (001) or "
                       "\"new\" (000)")
    sk = find_skill(skill)
    used = unit.extra.get(RESPEC_USED)
    if limit == "downtime" and used:
        raise RuleViolation(f"{unit.name} has already respecced {used} in this Downtime: "
                            "ONE skill between sessions (000 l.372); d2d char downtime "
                            "starts the next")
    level = unit.skills.get(sk.name, 0)
    if level < 1:
        held = ", ".join(unit.skills) or "none"
        raise RuleViolation(f"{unit.name} has no {sk.name} to respec (skills: {held})")
    # "cost": SP back only for a level bought with SP. A Power's levels bought with AP
    # (its Rating, 001 l.1131) come back as AP (char unlearn --power); counting them as
    # SP levels turned 1 AP into L SP (a Rating raised to 6 respecced for 5 SP).
    trained = level - rating_levels(unit).get(sk.name, 0)
    if mode == "cost" and trained < 1:
        raise RuleViolation(f"{unit.name}'s {sk.name} {level} is all Rating bought with AP "
                            "(001 l.1131 \"Gain Rating:+1 on a Power\"): it comes back as "
                            f"AP, d2d char unlearn {unit.name!r} --power {sk.name!r} (001 "
                            "l.1119)")
    gain = {"lost": level, "new": level - 1,
            "cost": train_cost(trained - 1, new_skill_sp)}[mode]
    if level == 1:
        unit.skills.pop(sk.name)
    else:
        unit.skills[sk.name] = level - 1
    unit.extra["sp"] = points(unit)["sp"] + gain
    if limit == "downtime":
        unit.extra[RESPEC_USED] = sk.name
    return SkillChange(sk.name, level, level - 1, sp_spent=0, sp_gained=gain)


def learn(unit: Unit, ability: str) -> Learned:
    """000 "Advancement": "spend 1 AP to gain an Ability, Specialty, or Proficiency"
    (001 p.42 prints "Spend SP:1" under AP; docs/rules.md)."""
    ability = ability.strip()
    if not ability or not ability.isprintable() or len(ability) > 60:
        raise BadInput(f"bad ability name {ability!r}: 1–60 printable characters")
    have = points(unit)["ap"]
    if have < 1:
        raise RuleViolation(f"learning {ability} costs 1 AP (000 \"Advancement\"); "
                            f"{unit.name} has 0")
    abilities = list(unit.extra.get("abilities", []))
    if ability.lower() in (a.lower() for a in abilities):
        raise RuleViolation(f"{unit.name} already has the ability {ability!r}")
    unit.extra["abilities"] = [*abilities, ability]
    unit.extra["ap"] = have - 1
    return Learned(ability, 1)


def heroic_feat(unit: Unit) -> Feat:
    """001 p.23 "Heroic Feat - Character Point:-1 / Hits:+1 or -1 (e.g. Damage)"."""
    have = points(unit)["cp"]
    if have < 1:
        raise RuleViolation(f"a Heroic Feat costs 1 CP (001 p.23); {unit.name} has 0")
    unit.extra["cp"] = have - 1
    return Feat("Hits:+1 or -1", 1)


def advance(roster: dict[str, Unit], name: str, rules: Options,
            step: Callable[[Unit, Options], Change]) -> Advanced:
    """One advancement step on a character: its sheet after the step, and the change."""
    unit = find_character(roster, name)
    change = step(unit, rules)
    return Advanced(**_fields(sheet(unit, rules)), change=change)


@record
class Downtime(Result):
    """``char downtime``: the characters whose Downtime began (each may respec again)."""

    characters: tuple[str, ...]
    summary: str = hidden("")


def downtime(roster: dict[str, Unit], names: list[str]) -> Downtime:
    """A Downtime between sessions (000 l.372) or Scenes (001 l.1082) for the named
    characters, or all of them: each may respec ONE skill again."""
    chosen = [find_character(roster, n) for n in names] if names else [
        u for u in roster.values() if u.kind == "character"]
    for unit in chosen:
        unit.extra.pop(RESPEC_USED, None)
        unit.extra.pop(AP_RESPEC_USED, None)
    done = tuple(dict.fromkeys(u.name for u in chosen))
    return Downtime(done, f"downtime for {', '.join(done) or 'no characters'}")


# --- the sheet ------------------------------------------------------------------------


@record
class Sheet(Result):
    """The character sheet. ``stats`` are after conditions and ``base_stats`` the
    character's own (they sum to ``points``): one meaning per key, as in ``status`` and
    ``unit show`` (issue 11 item 8)."""

    name: str
    kind: str
    stats: dict[str, str]
    base_stats: dict[str, str]
    real: dict[str, str]
    points: int
    archetype: str | None
    template: str | None
    skills: dict[str, int]
    abilities: tuple[str, ...]
    conception: dict[str, str]
    cp: int
    sp: int
    ap: int
    conditions: dict[str, int]
    # The skill respecced in this Downtime (000 l.372), for the human view.
    respec_used: str | None = hidden(None)
    summary: str = hidden("")
    # What the table should know of the sheet (``char new``: the template's Speed).
    notes: tuple[str, ...] = ()


@record(kw_only=True)
class Advanced(Sheet):
    """The sheet after one advancement step, with the step's ``change``."""

    change: Change


def _fields(s: Sheet) -> dict[str, Any]:
    return {f: getattr(s, f) for f in (f.name for f in fields(Sheet))}


def sheet(unit: Unit, rules: Options, summary: str = "") -> Sheet:
    pts = points(unit)
    return Sheet(
        name=unit.name, kind=unit.kind, stats=units.effective_stats(unit),
        base_stats=units.base_stats(unit),
        real=readings(unit.stats, rules.speed_convention), points=stat_points(unit.stats),
        archetype=unit.extra.get("archetype"), template=unit.extra.get("template"),
        skills=dict(unit.skills), abilities=tuple(unit.extra.get("abilities", [])),
        conception=dict(unit.extra.get("conception", {})),
        cp=pts["cp"], sp=pts["sp"], ap=pts["ap"], conditions=dict(unit.conditions),
        respec_used=unit.extra.get(RESPEC_USED), summary=summary)


def show(roster: dict[str, Unit], name: str, rules: Options) -> Sheet:
    """``char show``."""
    return sheet(find_character(roster, name), rules)


def readings(stats: dict[str, Stat], convention: str = "001") -> dict[str, str]:
    """Real terms for the sheet, from rules.scale.quantities: Body as mass with Deadlift ×1.5, Carry
    ×1, Load ×½ (000 "Units"); Mind as IQ ("Mind is equal to IQ-50"); Speed per the
    session's ``speed_convention`` (001 km/h by default, 000 m/s below 20 km/h)."""
    from d2d_cli.rules.scale import quantities as scale

    out: dict[str, str] = {}
    for kind in ("body", "mind", "speed"):
        if kind in stats:
            text = scale.summary(stats[kind], kind, convention)
            if text is not None:
                out[kind] = text
    return out


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(str(v), ensure_ascii=False)


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def sheet_toml(name: str, state: dict[str, Any]) -> str:
    """A unit's record as a TOML document (``[units."NAME"]`` as in the session file), so
    an exported sheet can be read back or pasted into another session."""
    head = f"[units.{_toml_key(name)}]"
    lines, tables = [head], []
    for k, v in state.items():
        if v is None:
            continue
        if isinstance(v, dict):
            tables.append(f"\n[units.{_toml_key(name)}.{_toml_key(k)}]")
            tables.extend(f"{_toml_key(a)} = {_toml_value(b)}" for a, b in v.items())
        else:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    return "\n".join(lines + tables) + "\n"


# --- Ability Points: Specialty, Power Rating, AP Respec (issue 19 item 10) ---------------

SPECIALTIES = "specialties"  # the Specialties the character holds
IN_SPECIALTY = "in_specialty"  # Specialty → the Abilities gained in it, in order
AP_RESPEC_USED = "ap_respec_used"  # what was given up for AP in this Downtime
RATINGS = "ratings"  # Power → its levels bought with AP (Rating +1, 001 l.1131)
SPECIALTY_EVERY = 3  # 000 l.378 "every third Ability costs 0 AP"


def specialties(unit: Unit) -> list[str]:
    return [str(s) for s in unit.extra.get(SPECIALTIES, [])]


def in_specialty(unit: Unit) -> dict[str, list[str]]:
    return {str(k): [str(a) for a in v] for k, v in unit.extra.get(IN_SPECIALTY, {}).items()}


def rating_levels(unit: Unit) -> dict[str, int]:
    """Each Power's levels bought with AP (``char learn --power``), not yet given back."""
    raw = unit.extra.get(RATINGS)
    return {str(k): int(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def _rated(unit: Unit, name: str, change: int) -> None:
    got = rating_levels(unit)
    got[name] = max(0, got.get(name, 0) + change)
    got = {k: v for k, v in got.items() if v}
    if got:
        unit.extra[RATINGS] = got
    else:
        unit.extra.pop(RATINGS, None)


def _held_name(names: list[str], wanted: str) -> str | None:
    return next((n for n in names if n.lower() == wanted.strip().lower()), None)


def learn_ap(unit: Unit, ability: str | None, *, specialty: bool = False,
             within: str | None = None, power: str | None = None) -> Learned:
    """``char learn``: 1 AP for an Ability, Specialty or Proficiency (000 l.377; 001
    l.1127 "Gain an Ability/Item/Specialty"), or for a Power's Rating +1 (001 l.1131
    "Gain Rating:+1 on a Power"; 000 l.377 "add 1 to the Intensity one of your Powers").
    An Ability gained in a Specialty the character holds (``within``) is counted there:
    every third costs 0 AP (000 l.378)."""
    if power is not None:
        if ability is not None or specialty or within is not None:
            raise BadInput("--power raises a Power's Rating: give it alone")
        return _rating_up(unit, power)
    if ability is None:
        raise BadInput("learn what? an ABILITY (or --power POWER)")
    if specialty and within is not None:
        raise BadInput("--specialty learns a Specialty; --in learns an Ability in one: "
                       "not both")
    if specialty:
        name = ability.strip()
        if _held_name(specialties(unit), name):
            raise RuleViolation(f"{unit.name} already has the Specialty {name!r}")
        got = learn(unit, name)
        unit.extra[SPECIALTIES] = [*specialties(unit), got.ability]
        return replace(got, kind="specialty")
    if within is None:
        return learn(unit, ability)
    spec = _held_name(specialties(unit), within)
    if spec is None:
        held = ", ".join(specialties(unit)) or "none"
        raise RuleViolation(f"{unit.name} has no Specialty {within.strip()!r} (Specialties: "
                            f"{held}; d2d char learn {unit.name!r} SPECIALTY --specialty)")
    done = in_specialty(unit)
    nth = len(done.get(spec, [])) + 1
    free = nth % SPECIALTY_EVERY == 0
    ability = ability.strip()
    got = _gain(unit, ability, 0) if free else learn(unit, ability)
    done[spec] = [*done.get(spec, []), got.ability]
    unit.extra[IN_SPECIALTY] = done
    return replace(got, specialty=spec, nth_in_specialty=nth)


def _gain(unit: Unit, ability: str, cost: int) -> Learned:
    if not ability or not ability.isprintable() or len(ability) > 60:
        raise BadInput(f"bad ability name {ability!r}: 1–60 printable characters")
    abilities = list(unit.extra.get("abilities", []))
    if ability.lower() in (a.lower() for a in abilities):
        raise RuleViolation(f"{unit.name} already has the ability {ability!r}")
    unit.extra["abilities"] = [*abilities, ability]
    unit.extra["ap"] = points(unit)["ap"] - cost
    return Learned(ability, cost)


def _power_held(unit: Unit, power: str) -> tuple[str, int]:
    sk = find_skill(power)
    if sk.kind not in ("power", "magic"):
        raise BadInput(f"{sk.name} is a {sk.kind}, not a Power (001 l.1131 \"Gain "
                       "Rating:+1 on a Power\")")
    level = unit.skills.get(sk.name, 0)
    return sk.name, level


def _rating_up(unit: Unit, power: str) -> Learned:
    name, level = _power_held(unit, power)
    if level < 1:
        raise RuleViolation(f"{unit.name} has no {name} to raise (001 l.1131 \"Gain "
                            "Rating:+1 on a Power\")")
    have = points(unit)["ap"]
    if have < 1:
        raise RuleViolation(f"{name}'s Rating +1 costs 1 AP (001 l.1131); {unit.name} has 0")
    unit.skills[name] = level + 1
    unit.extra["ap"] = have - 1
    _rated(unit, name, 1)
    return Learned(f"{name} Rating {level} → {level + 1}", 1, kind="rating")


def _gained_free(unit: Unit, ability: str) -> bool:
    """Whether the Ability's last gain was a Specialty's free third (000 l.378)."""
    for gained in in_specialty(unit).values():
        at = [i for i, a in enumerate(gained) if a == ability]
        if at and (at[-1] + 1) % SPECIALTY_EVERY == 0:
            return True
    return False


@record
class Unlearned(Result):
    """AP Respec: an Ability/Item/Specialty given up, or a Power's Rating lowered, for
    AP:+1 (001 l.1114–1119)."""

    lost: str
    kind: str  # "ability", "specialty" or "rating"
    ap_gained: int

    def line(self) -> str:
        return f"gives up {self.lost} (+{self.ap_gained} AP)"


def unlearn(unit: Unit, ability: str | None, power: str | None = None,
            limit: str = "downtime") -> Unlearned:
    """001 l.1116–1119 "Lose ONE Ability/Item/Specialty for AP:+1 OR Reduce ONE Power's
    Rating for AP:+1"; 000 l.376 "Respec - Downtime:Between Sessions you may remove ONE
    Ability and gain an AP": once per Downtime (``[rules] respec_limit``)."""
    if (ability is None) == (power is None):
        raise BadInput("give the ABILITY (or Specialty) to lose, or --power POWER (not both)")
    used = unit.extra.get(AP_RESPEC_USED)
    if limit == "downtime" and used:
        raise RuleViolation(f"{unit.name} has already given up {used} for AP in this "
                            "Downtime: ONE between sessions (000 l.376); d2d char downtime "
                            "starts the next")
    if power is not None:
        name, level = _power_held(unit, power)
        if level < 1:
            raise RuleViolation(f"{unit.name} has no {name} to reduce")
        if level == 1:
            unit.skills.pop(name)
        else:
            unit.skills[name] = level - 1
        _rated(unit, name, -1)  # a level bought with AP goes first
        out = Unlearned(f"{name} Rating {level} → {level - 1}", "rating", 1)
    else:
        assert ability is not None
        held = _held_name(list(unit.extra.get("abilities", [])), ability)
        if held is None:
            have = ", ".join(unit.extra.get("abilities", [])) or "none"
            raise RuleViolation(f"{unit.name} has no Ability {ability.strip()!r} (Abilities: "
                                f"{have})")
        unit.extra["abilities"] = [a for a in unit.extra["abilities"] if a != held]
        kind = "ability"
        if held in specialties(unit):
            kind = "specialty"
            unit.extra[SPECIALTIES] = [s for s in specialties(unit) if s != held]
            if not unit.extra[SPECIALTIES]:
                unit.extra.pop(SPECIALTIES)
        # The Abilities gained in a Specialty stay counted (the record is of gains), and
        # one gained free gives back what it cost, 0 AP: otherwise learning the free
        # third and giving it up would make AP from nothing (docs/rules.md).
        out = Unlearned(held, kind, 0 if _gained_free(unit, held) else 1)
    unit.extra["ap"] = points(unit)["ap"] + out.ap_gained
    if limit == "downtime":
        unit.extra[AP_RESPEC_USED] = out.lost
    return out


Change = Awarded | SkillChange | Learned | Feat | Unlearned
