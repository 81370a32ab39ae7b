"""Characters: 22-point creation, archetypes and skills, advancement.

000 "Character Creation": "A new character gets 22 points to divide among the 4
stats. Default distribution below." and "Archetypes are just arbitrary labels for
some typical Skill packages." 001 p.42 "Advancement": "Spend SP = Current Level of
Skill or Power, Gain Skill:+1 or Power:+1"; "Respec - Reduce ONE Skill or Power by 1,
Gain SP equal to lost Level".

A character is a :class:`~d2d_cli.rules.units.Unit` with ``kind = "character"``; its
creation record lives in ``Unit.extra``: ``archetype``, ``template``, ``conception``
(the eight answers), ``cp``, ``sp``, ``ap`` and ``abilities``.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from d2d_cli.errors import BadInput, NotFound, RuleViolation
from d2d_cli.rules.stats import MAX_LEVEL, MIN_LEVEL, Stat, parse_stat
from d2d_cli.rules.units import STATS, Unit

BUDGET = 22
CONCEPTION = ("motivation", "impact", "formative", "plans", "flaws", "fear", "humiliation",
              "trigger")
POINTS = ("cp", "sp", "ap")
# A skill at Level 0 costs "SP = Current Level" = 0 to learn by 001 p.42's formula; d2d
# charges 1 SP by default (docs/rules.md), `[rules] new_skill_sp` switches it.
NEW_SKILL_SP = 1
# Bounds on points (far past any campaign): a session stays readable (session/shape.py).
MAX_AWARD = 1000
MAX_POINTS = 1_000_000


def _load(name: str) -> dict[str, Any]:
    return tomllib.loads(files("d2d_cli.tables").joinpath(name).read_text("utf-8"))


@cache
def templates() -> dict[str, dict[str, Stat]]:
    return {k: {s: parse_stat(v[s]) for s in STATS} for k, v in _load("templates.toml").items()}


@dataclass(frozen=True)
class Skill:
    key: str
    name: str
    kind: str  # skill, magic, power
    category: str
    common: bool
    specialties: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "category": self.category,
                "common": self.common, "specialties": list(self.specialties),
                "aliases": list(self.aliases), "text": self.text}


@cache
def skills() -> dict[str, Skill]:
    return {k: Skill(k, v["name"], v["kind"], v["category"], v["common"],
                     tuple(v["specialties"]), tuple(v.get("aliases", ())), v.get("text", ""))
            for k, v in _load("skills.toml").items()}


@cache
def archetypes() -> dict[str, dict[str, Any]]:
    return _load("archetypes.toml")


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _suggest(word: str, names: list[str]) -> str:
    near = difflib.get_close_matches(word.title(), names, n=3, cutoff=0.6)
    return f" — did you mean {', '.join(near)}?" if near else ""


@cache
def _skill_index() -> dict[str, Skill]:
    index: dict[str, Skill] = {}
    for sk in skills().values():
        for spelling in (sk.name, *sk.aliases):
            index[key(spelling)] = sk
    return index


def find_skill(name: str) -> Skill:
    """A skill, Magic type or Power by name or an alias the rules use, case-insensitive."""
    sk = _skill_index().get(key(name))
    if sk is None:
        names = [s.name for s in skills().values()]
        raise BadInput(f"unknown skill {name!r}{_suggest(name, names)} (see d2d ref skills)")
    return sk


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


def parse_skill_spec(text: str) -> tuple[str, int]:
    """``"Close Combat=1"`` (or ``Close Combat:1``) → ("Close Combat", 1)."""
    m = re.match(r"^\s*([^=:]+?)\s*[=:]\s*(\d+)\s*$", text)
    if not m:
        raise BadInput(f"bad skill {text!r}: write NAME=LEVEL, e.g. \"Close Combat=1\"")
    level = int(m.group(2))
    if not 1 <= level <= 99:
        raise BadInput(f"bad skill level in {text!r}: a skill held is Level 1 or more")
    return find_skill(m.group(1)).name, level


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


def build_stats(template: str | None, overrides: dict[str, str | None]) -> dict[str, Stat]:
    """A template (default human-male) with per-stat overrides, checked against 22."""
    name = template or "human-male"
    tpl = templates().get(name)
    if tpl is None:
        raise BadInput(f"unknown template {name!r}: known {', '.join(templates())}")
    stats = {s: stat_level(v, tpl[s].scale, s) if v is not None else tpl[s]
             for s, v in overrides.items()}
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


def require_character(unit: Unit) -> Unit:
    if unit.kind != "character":
        raise NotFound(f"{unit.name!r} is a unit, not a character (d2d char new)")
    return unit


# --- advancement (001 p.42, 000 "Advancement") ----------------------------------------


def points(unit: Unit) -> dict[str, int]:
    return {p: int(unit.extra.get(p, 0) or 0) for p in POINTS}


def award(unit: Unit, cp: int, sp: int, ap: int) -> dict[str, int]:
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
    return points(unit)


def train_cost(level: int, new_skill_sp: int = NEW_SKILL_SP) -> int:
    """001 p.42: "Spend SP = Current Level of Skill or Power"; a new skill costs
    ``new_skill_sp`` (the formula would make it free)."""
    return level if level > 0 else new_skill_sp


def train(unit: Unit, skill: str, new_skill_sp: int = NEW_SKILL_SP) -> dict[str, Any]:
    sk = find_skill(skill)
    level = unit.skills.get(sk.name, 0)
    cost = train_cost(level, new_skill_sp)
    have = points(unit)["sp"]
    if have < cost:
        raise RuleViolation(f"training {sk.name} {level} → {level + 1} costs {cost} SP "
                            f"(001 p.42 \"Spend SP = Current Level\"); {unit.name} has {have}")
    unit.extra["sp"] = have - cost
    unit.skills[sk.name] = level + 1
    return {"skill": sk.name, "from": level, "to": level + 1, "sp_spent": cost,
            "sp_gained": 0}


def respec(unit: Unit, skill: str, mode: str = "lost") -> dict[str, Any]:
    """Reduce ONE skill by 1. 001 p.42: "Gain SP equal to lost Level" (``lost``, the
    default); 000: "gain SP equal to the new level" (``[rules] respec_sp = "new"``)."""
    if mode not in ("lost", "new"):
        raise BadInput(f"[rules] respec_sp = {mode!r}: use \"lost\" (001) or \"new\" (000)")
    sk = find_skill(skill)
    level = unit.skills.get(sk.name, 0)
    if level < 1:
        held = ", ".join(unit.skills) or "none"
        raise RuleViolation(f"{unit.name} has no {sk.name} to respec (skills: {held})")
    gain = level if mode == "lost" else level - 1
    if level == 1:
        unit.skills.pop(sk.name)
    else:
        unit.skills[sk.name] = level - 1
    unit.extra["sp"] = points(unit)["sp"] + gain
    return {"skill": sk.name, "from": level, "to": level - 1, "sp_spent": 0,
            "sp_gained": gain}


def learn(unit: Unit, ability: str) -> dict[str, Any]:
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
    return {"ability": ability, "ap_spent": 1}


def heroic_feat(unit: Unit) -> dict[str, Any]:
    """001 p.23 "Heroic Feat - Character Point:-1 / Hits:+1 or -1 (e.g. Damage)"."""
    have = points(unit)["cp"]
    if have < 1:
        raise RuleViolation(f"a Heroic Feat costs 1 CP (001 p.23); {unit.name} has 0")
    unit.extra["cp"] = have - 1
    return {"feat": "Hits:+1 or -1", "cp_spent": 1}


# --- the sheet ------------------------------------------------------------------------


def readings(stats: dict[str, Stat], convention: str = "001") -> dict[str, str]:
    """Real terms for the sheet, from rules.scale: Body as mass with Deadlift ×1.5, Carry
    ×1, Load ×½ (000 "Units"); Mind as IQ ("Mind is equal to IQ-50"); Speed per the
    session's ``speed_convention`` (001 km/h by default, 000 m/s below 20 km/h)."""
    from d2d_cli.rules import scale

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
