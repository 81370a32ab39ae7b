"""``d2d ref``: one lookup over the rules' tables — skills (with specialties), Magic
types and Powers, archetypes, conditions and the 000 Glossary."""

from __future__ import annotations

from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import NotFound
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, renamed
from d2d_cli.rules.units import characters, conditions

LISTS = ("skills", "archetypes", "conditions", "glossary")


@record
class SkillEntry(Result):
    """A skill, a Magic type or a Power (``kind`` says which)."""

    kind: str
    name: str
    category: str
    common: bool
    specialties: tuple[str, ...]
    aliases: tuple[str, ...]
    text: str


@record
class SpecialtyEntry(Result):
    kind: str
    name: str
    skill: str


@record
class ArchetypeEntry(Result):
    kind: str
    name: str
    setting: str
    skills: tuple[str, ...]
    package: tuple[str, ...]


@record
class ConditionEntry(Result):
    kind: str
    key: str
    name: str
    severity: str
    penalty: dict[str, int]
    event: dict[str, Any] | None
    lasts: str | None
    text: str


@record
class GlossaryEntry:
    """A Glossary term. ``also`` (a second definition) is in the JSON only when the
    Glossary has one."""

    kind: str
    name: str
    text: str
    also: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "text": self.text}
        if self.also is not None:
            out["also"] = self.also
        return out


Entry = SkillEntry | SpecialtyEntry | ArchetypeEntry | ConditionEntry | GlossaryEntry


@record
class Lookup(Result):
    """What ``ref TERM`` found: the entries named ``term``, or a whole ``list``."""

    term: str
    list_: str | None = renamed("list")
    matches: tuple[Entry, ...] = ()


@cache
def glossary() -> dict[str, dict[str, str]]:
    return tables.load("glossary")


@cache
def entries() -> tuple[Entry, ...]:
    """Every entry, in a stable order."""
    out: list[Entry] = []
    for sk in characters.skills().values():
        out.append(SkillEntry(sk.kind, sk.name, sk.category, sk.common, sk.specialties,
                              sk.aliases, sk.text))
    for sk in characters.skills().values():
        out.extend(SpecialtyEntry("specialty", sp, sk.name) for sp in sk.specialties)
    for a in characters.archetypes().values():
        out.append(ArchetypeEntry("archetype", a["name"], a["setting"], tuple(a["skills"]),
                                  tuple(characters.package(a["name"]))))
    for c in conditions.table().values():
        out.append(ConditionEntry("condition", c.key, c.name, c.severity, dict(c.penalty),
                                  c.event, c.lasts, c.text))
    for g in glossary().values():
        out.append(GlossaryEntry("glossary", g["term"], g["text"], g.get("also")))
    return tuple(out)


def _names(e: Entry) -> tuple[str, ...]:
    return (e.name, *e.aliases) if isinstance(e, SkillEntry) else (e.name,)


@cache
def _by_key() -> dict[str, tuple[Entry, ...]]:
    """The entries under each key of their names (:func:`characters.key`), in the order
    of :func:`entries`: a lookup keyed ~600 names at every call."""
    found: dict[str, list[Entry]] = {}
    for e in entries():
        for k in dict.fromkeys(characters.key(n) for n in _names(e)):  # each entry once
            found.setdefault(k, []).append(e)
    return {k: tuple(v) for k, v in found.items()}


_KINDS = {"skills": ("skill", "magic", "power"), "archetypes": ("archetype",),
          "conditions": ("condition",), "glossary": ("glossary",)}


def lookup(term: str) -> Lookup:
    """All entries named ``term`` (case-insensitive, spaces/dashes/underscores alike);
    the four list names give a whole table. Otherwise NotFound with near names."""
    k = characters.key(term)
    if k in LISTS:
        return Lookup(term, k, tuple(e for e in entries() if e.kind in _KINDS[k]))
    matches = _by_key().get(k, ())
    if not matches:
        names = sorted({n for e in entries() for n in _names(e)})
        folded = {n.lower(): n for n in names}
        import difflib  # only for a suggestion: an error's cost

        near = [folded[n] for n in difflib.get_close_matches(term.lower(), list(folded),
                                                            n=4, cutoff=0.6)]
        hint = f" — did you mean {', '.join(near)}?" if near else ""
        raise NotFound(f"nothing named {term!r} in skills, archetypes, conditions or the "
                       f"Glossary{hint} (lists: d2d ref {'|'.join(LISTS)})")
    return Lookup(term, None, matches)
