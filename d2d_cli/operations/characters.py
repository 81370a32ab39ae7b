"""Characters: creation, the sheet, and characters carried between sessions (export,
import, the party's list) — 000 "Character Creation", "Advancement"."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from d2d_cli import session
from d2d_cli.errors import BadInput
from d2d_cli.operations import Target
from d2d_cli.rules.core.options import Options
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden
from d2d_cli.rules.units import characters as ch
from d2d_cli.rules.units import roster as units
from d2d_cli.rules.units import travel

FORMATS = ("svg", "html", "toml", "json")
MAX_CHARACTER_BYTES = 1 << 20  # a character file is a regular file up to 1 MiB


class _Named(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def summary(self) -> str: ...


N = TypeVar("N", bound=_Named)


def change(t: Target, step: Callable[[dict[str, units.Unit], Options], N],
           what: str | None = None) -> N:
    """One change to the roster with the table's options, saved and journalled (as
    ``NAME: what`` when ``what`` is given)."""
    with t.edit() as tx:
        roster = units.roster(tx.data)
        result = step(roster, t.options(tx.data))
        tx.put("units", units.roster_state(roster))
        tx.summary = f"{result.name}: {what}" if what else result.summary
    return result


def new(t: Target, name: str, *, template: str | None = None, body: str | None = None,
        mind: str | None = None, will: str | None = None, speed: str | None = None,
        archetype: str | None = None, motivation: str | None = None,
        impact: str | None = None, formative: str | None = None, plans: str | None = None,
        flaws: str | None = None, fear: str | None = None, humiliation: str | None = None,
        trigger: str | None = None, faction: str | None = None,
        player: str | None = None, gear: list[str] | None = None) -> ch.Sheet:
    """``d2d char new NAME [--template T] [--body L]… [--archetype A] [--motivation …]
    [--faction F] [--player P]``: 22 points among the four stats (``body`` … ``speed``
    override the template's levels); ``motivation`` … ``trigger`` are the Character
    Conception; ``faction`` and ``player`` its side (rules.units.sides); ``gear`` the
    sample items it carries (rules.units.gear)."""
    from d2d_cli.rules.units import sides

    stats = {"body": body, "mind": mind, "will": will, "speed": speed}
    conception = {"motivation": motivation, "impact": impact, "formative": formative,
                  "plans": plans, "flaws": flaws, "fear": fear, "humiliation": humiliation,
                  "trigger": trigger}
    unit = ch.character(name, template, stats, archetype=archetype, conception=conception)
    unit.faction = units.check_faction(faction)
    who = sides.check_player(player)
    if who is not None:
        unit.extra["player"] = who

    def create(roster: dict[str, units.Unit], o: Options) -> ch.Sheet:
        if gear:  # issue 36: the sample items it carries (unit gear add's)
            from d2d_cli.operations.units import person_locations
            from d2d_cli.rules.units import gear as gear_

            locations = person_locations(t, o)
            for item in gear:
                gear_.give(unit.extra, unit.name, gear_.GearAsk(item), locations)
        return ch.create(roster, unit, o)

    result: ch.Sheet = change(t, create)
    return result


def show(t: Target, name: str) -> ch.Sheet:
    """``d2d char show NAME``: the character sheet."""
    data = t.read()
    return ch.show(units.roster(data), name, t.options(data))


def list_(t: Target) -> travel.Characters:
    """``d2d char list``: the characters of the session."""
    return travel.listing(units.roster(t.read()))


@record
class Exported(Result):
    """``char export``: what was written (``path`` empty when nothing was: ``text`` is
    the sheet)."""

    name: str
    format: str
    path: str
    bytes: int
    text: str = hidden("")


def record_text(name: str, state: dict[str, Any], fmt: str) -> str:
    """A character's record as ``char export`` writes it and ``char import`` reads it:
    its ``[units.NAME]`` table laid out as the session file lays it out (TOML), or
    ``{"units": {NAME: …}}`` (JSON)."""
    if fmt == "json":
        return json.dumps({"units": {name: state}}, ensure_ascii=False, indent=2) + "\n"
    return (f"# d2d character {name}: bring it into a session with\n"
            f"#   d2d char import FILE\n\n" + session.dump_table(("units", name), state))


def export(t: Target, name: str, *, format: str = "svg",  # noqa: A002 - --format
           output: str | Path | None = None, force: bool = False) -> Exported:
    """``d2d char export NAME [--format F] [--output FILE] [--force]``: the sheet written
    to ``output`` (default ``NAME.FORMAT`` here; an existing file only with ``force``);
    with ``output="-"`` nothing is written (the command prints ``text``)."""
    text = sheet_text(t, name, format)
    path = Path(output) if output is not None else Path(f"{text.name}.{format}")
    if str(path) == "-":
        return text
    return write(text, path, force=force, protect=(t.path(),))


def sheet_text(t: Target, name: str, fmt: str = "toml") -> Exported:
    """A character's sheet or record as ``char export`` writes it (nothing written)."""
    if fmt not in FORMATS:
        raise BadInput(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")
    data = t.read()
    unit = ch.find_character(units.roster(data), name)
    if fmt in ("toml", "json"):
        # the character, not the table it sat at (rules.units.travel.TABLE_STATE)
        text = record_text(unit.name, travel.portable(unit.to_state()), fmt)
    else:
        from d2d_cli import sheet
        from d2d_cli.rules.core.result import to_json
        from d2d_cli.rules.units import gear

        view = {**to_json(ch.sheet(unit, t.options(data))),
                "crits": list(unit.extra.get("crits", [])),
                "gear": gear.sheet_lines(unit.extra, unit.name)}
        text = sheet.svg(view) if fmt == "svg" else sheet.html(view)
    return Exported(unit.name, fmt, "", len(text.encode("utf-8")), text)  # as written


def write(exported: Exported, path: Path, *, force: bool = False,
          protect: tuple[Path, ...] = ()) -> Exported:
    """Write an export to ``path`` (an existing file only with ``force``; never through a
    symlink, never over a session: session.outputs)."""
    session.write_output(path, exported.text, force=force, protect=protect)
    return Exported(exported.name, exported.format, str(path), exported.bytes, exported.text)


def read_record(file: str) -> tuple[str, dict[str, Any]]:
    """The one character a ``char export`` file holds (TOML or JSON): its name and its
    record, checked against the session's declared shape of a unit. A file that is not
    one is refused (exit 2) naming the file, the table and the key."""
    path = Path(file)
    try:
        raw = session.read_limited(path, MAX_CHARACTER_BYTES, "a character file", BadInput)
        if raw is None:
            raise FileNotFoundError(2, "No such file or directory", file)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read character file {file}: "
                       f"{getattr(e, 'strerror', None) or e}") from None
    data = _parse(file, text)
    people = data.get("units") if type(data) is dict else None
    if type(people) is not dict or len(people) != 1 or set(data) - {"units"}:
        raise BadInput(f"{file}: not a character file: it must hold one [units.NAME] table "
                       "and nothing else, as d2d char export writes it")
    (name, state), = people.items()
    problem = session.unit_problem(name, state)
    if problem is not None:
        raise BadInput(f"{file}: {problem}")
    return name, state


def _parse(file: str, text: str) -> Any:
    if file.lower().endswith(".json") or text.lstrip().startswith("{"):
        try:
            return json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as e:
            raise BadInput(f"{file}: not valid JSON ({e})") from None
    import tomllib

    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as e:
        raise BadInput(f"{file}: not valid TOML ({e})") from None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number d2d keeps")


def import_(t: Target, file: str | os.PathLike[str], *, rename: str | None = None,
            replace: bool = False, faction: str | None = None, player: str | None = None,
            place: tuple[str, str] | None = None) -> travel.Imported:
    """``d2d char import FILE [--rename NEW | --replace] [--faction F] [--player P]
    [--place SPACE FACING]``: a character exported from any session onto this one's
    roster, without the table state it left behind; placed on the map only with
    ``place``."""
    file = os.fspath(file)
    name, state = read_record(file)
    with t.edit() as tx:
        roster = units.roster(tx.data)
        opts = t.options(tx.data)
        result = travel.admit(roster, name, state, file, opts, rename=rename,
                              replace=replace, faction=faction, player=player)
        if place is not None:
            from d2d_cli.rules.board.grid import board_of
            from d2d_cli.rules.board.placement import place as put

            put(board_of(tx.data), roster[result.name], place[0], place[1])
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result


# --- Advancement (000 "Advancement", 001 p.42): one step on one character, journalled as
# ``NAME: what`` (what the step was), the sheet after it with the ``change``.


def _advance(t: Target, name: str, what: str,
             step: Callable[[units.Unit, Options], ch.Change]) -> ch.Advanced:
    result: ch.Advanced = change(t, lambda roster, o: ch.advance(roster, name, o, step), what)
    return result


def award(t: Target, name: str, *, cp: int = 0, sp: int = 0, ap: int = 0) -> ch.Advanced:
    """``d2d char award NAME [--cp N] [--sp N] [--ap N]``: Milestone points."""
    return _advance(t, name, f"award --cp {cp} --sp {sp} --ap {ap}",
                    lambda u, rules: ch.award(u, cp, sp, ap))


def train(t: Target, name: str, skill: str) -> ch.Advanced:
    """``d2d char train NAME SKILL``: a skill +1 for SP (001 p.42)."""
    return _advance(t, name, f"train {skill}",
                    lambda u, rules: ch.train(u, skill, rules.new_skill_sp))


def respec(t: Target, name: str, skill: str) -> ch.Advanced:
    """``d2d char respec NAME SKILL``: ONE skill −1 for its SP, once per Downtime."""
    return _advance(t, name, f"respec {skill}", lambda u, rules: ch.respec(
        u, skill, rules.respec_sp, rules.respec_limit, rules.new_skill_sp))


def learn(t: Target, name: str, ability: str | None = None, *, specialty: bool = False,
          within: str | None = None, power: str | None = None) -> ch.Advanced:
    """``d2d char learn NAME ABILITY [--specialty] [--in SPECIALTY]`` or ``--power P``:
    1 AP (000 l.377; 001 l.1127, l.1131). ``within`` is the command's ``--in``."""
    what = f"learn {ability or ''}" if power is None else f"learn --power {power}"
    return _advance(t, name, what.strip(), lambda u, rules: ch.learn_ap(
        u, ability, specialty=specialty, within=within, power=power))


def unlearn(t: Target, name: str, ability: str | None = None, *,
            power: str | None = None) -> ch.Advanced:
    """``d2d char unlearn NAME ABILITY`` or ``--power P``: AP Respec (001 l.1114–1119)."""
    what = f"unlearn {ability}" if power is None else f"unlearn --power {power}"
    return _advance(t, name, what, lambda u, rules: ch.unlearn(
        u, ability, power, rules.respec_limit))


def feat(t: Target, name: str) -> ch.Advanced:
    """``d2d char feat NAME``: Heroic Feat, CP −1 (001 p.23)."""
    return _advance(t, name, "feat", lambda u, rules: ch.heroic_feat(u))


def downtime(t: Target, names: list[str] | None = None) -> ch.Downtime:
    """``d2d char downtime [NAME]…``: each character (default: all) may respec again."""
    with t.edit() as tx:
        roster = units.roster(tx.data)
        result = ch.downtime(roster, names or [])
        tx.put("units", units.roster_state(roster))
        tx.summary = result.summary
    return result
