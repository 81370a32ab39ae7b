"""Abilities in play: using one puts it in Cooldown, Ready takes it out, and the Active
limit (``d2d unit ability``; the Ready action is ``d2d unit act NAME ready``).

001 l.585–587 "Ability - Put the Ability in Cooldown / Activate the Ability" (a free
action); 001 l.181 "Cooldown - A sideways card"; 000 l.759–760 "Use - When you use an
Ability, you must Exhaust it by turning in sideways. Ready - You may Ready an Ability
by turning it upright instead of Recovering a Temporary Status."; 001 l.557 "Ready -
Move:-[Action Cost] Ready an Ability in Cooldown"; 001 l.1043 (Round: End) "OR Ready an
Ability in Cooldown" (``round end --recover NAME=ABILITY``).

The Active limit: 001 l.415 "Active - Only 2 Abilities/Items per Level may be used.
Specialty Ability/Items ignore this". d2d reads "per Level" as per Level of the Skill
the Ability is linked to — 000 l.757 "Abilities are linked to Skills and use the
Skill's Level" — so a unit with Ranged 1 may have 2 Ranged Abilities Active, with
Ranged 2 four. An Ability named like a Specialty of one of the unit's Skills
(``tables/skills.toml``, e.g. Sneak of Stealth) ignores the limit. Items are not
tracked (docs/rules.md "Abilities").

On the unit (rules/units/unit_state.py): ``cooldown`` (the Abilities in Cooldown, a list of
names: rules.time.rounds reads it at round end) and ``active`` (Skill → the Abilities used
in the scene).
"""

from __future__ import annotations

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.units.roster import Unit, find
from d2d_cli.rules.units.roster import alive as alive  # its commands' home
from d2d_cli.rules.units.unit_state import ACTIVE, COOLDOWN, active, cooldown, put

PER_LEVEL = 2  # 001 l.415 "Only 2 Abilities/Items per Level may be used"


def _named(names: list[str], name: str) -> str | None:
    """``name`` as it is written in ``names`` (compared ignoring case), or None."""
    return next((n for n in names if n.casefold() == name.casefold()), None)


def skill_level(unit: Unit, skill: str) -> tuple[str, int]:
    """The unit's Skill by name (any case) and its Level (0 when it has none)."""
    held = _named(list(unit.skills), skill)
    return (held, unit.skills[held]) if held is not None else (skill, 0)


def specialty_of(unit: Unit, ability: str) -> str | None:
    """The unit's Skill that lists ``ability`` as a Specialty (001 l.177 "Specialty - A
    style or focus area of a Skill"), if any."""
    from d2d_cli.rules.units.characters import find_skill

    for name in unit.skills:
        try:
            sk = find_skill(name)
        except BadInput:  # a skill d2d does not list (hand-edited): no specialties known
            continue
        if _named(list(sk.specialties), ability) is not None:
            return name
    return None


@record
class Abilities(Result):
    """A unit's Abilities in play after ``unit ability`` (or the Ready action)."""

    unit: str
    action: str  # "use", "ready", "drop" or "list"
    ability: str | None
    skill: str | None
    level: int | None
    limit: int | None  # 2 × the Skill's Level; None for a Specialty (no limit)
    specialty: bool
    active: dict[str, list[str]]
    cooldown: list[str]
    summary: str = hidden("")


def _view(unit: Unit, action: str, ability: str | None = None, skill: str | None = None,
          specialty: bool = False, summary: str = "") -> Abilities:
    level = skill_level(unit, skill)[1] if skill else None
    limit = None if specialty or level is None else PER_LEVEL * level
    return Abilities(unit.name, action, ability, skill, level, limit, specialty,
                     active(unit), cooldown(unit), summary)


def check_name(ability: str) -> str:
    ability = ability.strip()
    if not ability or not ability.isprintable() or len(ability) > 60:
        raise BadInput(f"bad ability name {ability!r}: 1–60 printable characters")
    return ability


def _linked(unit: Unit, ability: str, skill: str | None) -> tuple[str, bool]:
    """The Skill an Ability uses (000 l.757) and whether it is a Specialty."""
    now = active(unit)
    for held, names in now.items():
        if _named(names, ability) is not None:
            if skill and skill.casefold() != held.casefold():
                raise BadInput(f"{ability} is Active under {held}, not {skill}")
            return held, specialty_of(unit, ability) is not None
    special = specialty_of(unit, ability)
    if special is not None and (not skill or skill.casefold() == special.casefold()):
        return special, True
    if skill:
        from d2d_cli.rules.units.characters import find_skill

        return skill_level(unit, find_skill(skill).name)[0], False
    held = ", ".join(f"{k} {v}" for k, v in unit.skills.items()) or "none"
    raise BadInput(f"say which Skill {ability} uses: --skill SKILL (000 l.757 \"Abilities "
                   f"are linked to Skills\"); {unit.name}'s skills: {held}")


def use(units: dict[str, Unit], name: str, ability: str, skill: str | None = None
        ) -> Abilities:
    """Use an Ability: it goes into Cooldown and is Active (refused while it is in
    Cooldown, or when its Skill's Active Abilities are already 2 per Level)."""
    unit = alive(find(units, name))
    ability = check_name(ability)
    held = _named(cooldown(unit), ability)
    if held is not None:
        raise RuleViolation(f"{unit.name}'s {held} is in Cooldown (001 l.181): Ready it "
                            f"first (d2d unit act, or round end --recover)")
    learned = [str(a) for a in unit.extra.get("abilities", [])]
    if unit.kind == "character" and _named(learned, ability) is None:
        raise RuleViolation(f"{unit.name} has no Ability {ability!r} (abilities: "
                            f"{', '.join(learned) or 'none — d2d char learn'})")
    ability = _named(learned, ability) or ability
    if ability.strip().lower() == "shield block" and \
            (unit.extra.get("gear") or {}).get("shield") is None:
        # issue 36: Shield Block (000 l.768–769, a Defense specialty) blocks with a
        # Shield; without one there is nothing to block with (docs/rules.md)
        raise RuleViolation(f"{unit.name} holds no Shield to Shield Block with (000 "
                            "l.769; d2d unit gear add NAME Shield)")
    skill_name, specialty = _linked(unit, ability, skill)
    now = active(unit)
    in_play = now.get(skill_name, [])
    ability = _named(in_play, ability) or ability  # as it was first written
    if not specialty and _named(in_play, ability) is None:
        level = skill_level(unit, skill_name)[1]
        counted = [a for a in in_play if specialty_of(unit, a) is None]
        if level == 0:
            raise RuleViolation(f"{unit.name} has no {skill_name}: an Ability uses its "
                                "Skill's Level (000 l.757), 2 per Level (001 l.415)")
        if len(counted) >= PER_LEVEL * level:
            raise RuleViolation(
                f"{unit.name}'s {skill_name} {level} allows {PER_LEVEL * level} Active "
                f"Abilities (001 l.415 \"2 Abilities/Items per Level\"); Active: "
                f"{', '.join(counted)}")
    if _named(in_play, ability) is None:
        now[skill_name] = [*in_play, ability]
    unit.extra[ACTIVE] = now
    unit.extra[COOLDOWN] = [*cooldown(unit), ability]
    return _view(unit, "use", ability, skill_name, specialty,
                 f"{unit.name} uses {ability}: Cooldown")


def ready(unit: Unit, ability: str | None) -> str:
    """Take an Ability out of Cooldown (the one there if ``ability`` is None); returns
    its name."""
    held = cooldown(unit)
    if not held:
        raise RuleViolation(f"{unit.name} has no Ability in Cooldown to Ready")
    if ability is None:
        if len(held) > 1:
            raise BadInput(f"which Ability does {unit.name} Ready? In Cooldown: "
                           f"{', '.join(held)}")
        ability = held[0]
    name = _named(held, ability)
    if name is None:
        raise RuleViolation(f"{unit.name}'s {ability} is not in Cooldown (in Cooldown: "
                            f"{', '.join(held)})")
    held.remove(name)
    put(unit, COOLDOWN, held)
    return name


def drop(units: dict[str, Unit], name: str, ability: str) -> Abilities:
    """Take an Ability out of the Active set (the table's call: a new scene, a swap);
    it stays in Cooldown if it is there."""
    unit = find(units, name)
    now = active(unit)
    for skill, names in now.items():
        held = _named(names, ability)
        if held is not None:
            names.remove(held)
            if not names:
                del now[skill]
            put(unit, ACTIVE, now)
            return _view(unit, "drop", held, skill, summary=f"{unit.name} drops {held}")
    shown = ", ".join(a for names in now.values() for a in names) or "none"
    raise RuleViolation(f"{unit.name}'s {ability} is not Active (Active: {shown})")


def show(units: dict[str, Unit], name: str) -> Abilities:
    return _view(find(units, name), "list")
