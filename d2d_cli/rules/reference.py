"""``d2d ref``: one lookup over the rules' tables — skills (with specialties), Magic
types and Powers, archetypes, conditions and the 000 Glossary."""

from __future__ import annotations

import difflib
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import NotFound
from d2d_cli.rules import characters, conditions

LISTS = ("skills", "archetypes", "conditions", "glossary")


@cache
def glossary() -> dict[str, dict[str, str]]:
    return tables.load("glossary")


@cache
def entries() -> list[dict[str, Any]]:
    """Every entry as ``{"kind", "name", …}``, in a stable order."""
    out: list[dict[str, Any]] = []
    for sk in characters.skills().values():
        out.append({"kind": sk.kind, **sk.to_json()})
    for sk in characters.skills().values():
        out.extend({"kind": "specialty", "name": sp, "skill": sk.name}
                   for sp in sk.specialties)
    for a in characters.archetypes().values():
        out.append({"kind": "archetype", "name": a["name"], "setting": a["setting"],
                    "skills": list(a["skills"]),
                    "package": list(characters.package(a["name"]))})
    for cnd in conditions.table().values():
        out.append({"kind": "condition", **cnd.to_json()})
    for g in glossary().values():
        out.append({"kind": "glossary", "name": g["term"], "text": g["text"],
                    **({"also": g["also"]} if "also" in g else {})})
    return out


def _names(e: dict[str, Any]) -> list[str]:
    return [e["name"], *e.get("aliases", [])]


def lookup(term: str) -> dict[str, Any]:
    """All entries named ``term`` (case-insensitive, spaces/dashes/underscores alike);
    the four list names give a whole table. Otherwise NotFound with near names."""
    k = characters.key(term)
    if k in LISTS:
        kinds = {"skills": ("skill", "magic", "power"), "archetypes": ("archetype",),
                 "conditions": ("condition",), "glossary": ("glossary",)}[k]
        return {"term": term, "list": k, "matches": [e for e in entries()
                                                      if e["kind"] in kinds]}
    matches = [e for e in entries() if any(characters.key(n) == k for n in _names(e))]
    if not matches:
        names = sorted({n for e in entries() for n in _names(e)})
        folded = {n.lower(): n for n in names}
        near = [folded[n] for n in difflib.get_close_matches(term.lower(), list(folded),
                                                            n=4, cutoff=0.6)]
        hint = f" — did you mean {', '.join(near)}?" if near else ""
        raise NotFound(f"nothing named {term!r} in skills, archetypes, conditions or the "
                       f"Glossary{hint} (lists: d2d ref {'|'.join(LISTS)})")
    return {"term": term, "list": None, "matches": matches}
