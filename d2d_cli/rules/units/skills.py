"""Skills, Magic types and Powers as the rules name them (000 "Skills", ``tables/skills.toml``):
finding one by any spelling the rules use, and reading ``NAME=LEVEL`` as typed. Kept apart
from :mod:`characters` (creation and advancement, which work on units) so that making
any unit (``roster.new_unit``) can read skills without an import circle."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record


@record
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
            for k, v in tables.load("skills").items()}


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _suggest(word: str, names: list[str]) -> str:
    import difflib  # only for a suggestion: an error's cost

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


def parse_skill_spec(text: str) -> tuple[str, int]:
    """``"Close Combat=1"`` (or ``Close Combat:1``) → ("Close Combat", 1)."""
    m = re.match(r"^\s*([^=:]+?)\s*[=:]\s*(\d+)\s*$", text)
    if not m:
        raise BadInput(f"bad skill {text!r}: write NAME=LEVEL, e.g. \"Close Combat=1\"")
    level = int(m.group(2))
    if not 1 <= level <= 99:
        raise BadInput(f"bad skill level in {text!r}: a skill held is Level 1 or more")
    return find_skill(m.group(1)).name, level
