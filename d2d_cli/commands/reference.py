"""``d2d ref TERM`` — look up a skill, archetype, condition or Glossary term."""

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete
from d2d_cli.rules.overview import reference

app = _app.single("ref")


@app.command()
def ref(
    ctx: typer.Context,
    term: Annotated[list[str], typer.Argument(click_type=_complete.TERM,
                                              metavar="TERM", help="A name (\"Blood Loss\", "
                    "thief, Stealth, Pick Lock) or a list: skills, archetypes, conditions, "
                    "glossary.")],
    json: _app.JsonOpt = False,
) -> None:
    """Look a term up in the rules' tables: skills (Common skills marked, specialties),
    Magic types, Powers, archetypes (with their skill packages), conditions (with their
    penalties) and the Glossary. Near misses get a "did you mean".

    Example: d2d ref blood loss
    """
    render.emit(reference.lookup(" ".join(term)), _show, as_json=json)


def _line(e: reference.Entry) -> str:
    if isinstance(e, reference.SkillEntry):
        common = " — Common Skill" if e.common else ""
        spec = f"; specialties: {', '.join(e.specialties)}" if e.specialties else ""
        text = f" {e.text}" if e.text else ""
        return f"{e.kind.capitalize()} ({e.category}){common}.{text}{spec}"
    if isinstance(e, reference.SpecialtyEntry):
        return f"Specialty of {e.skill}"
    if isinstance(e, reference.ArchetypeEntry):
        return f"Archetype ({e.setting}): {', '.join(e.skills)}"
    if isinstance(e, reference.ConditionEntry):
        pen = ", ".join(f"{s.capitalize()}:{d:+d}" for s, d in e.penalty.items())
        pen = "" if not pen or e.text.startswith(pen) else f" ({pen})"
        kind = "Status" if e.severity == "status" else f"{e.severity.capitalize()} condition"
        return f"{kind}{pen}. {e.text}"
    also = f" (also: {e.also})" if e.also else ""
    return f"Glossary: {e.text or '(no definition in the Glossary)'}{also}"


def _show(con: Any, r: reference.Lookup) -> None:
    sep = " — " if r.list_ else ": "
    for e in r.matches:
        con.print(f"[bold]{render.escape(e.name)}[/]{sep}{render.escape(_line(e))}")
