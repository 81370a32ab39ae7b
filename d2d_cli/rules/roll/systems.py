"""Systems as data: a neighbouring game's core procedures as roll expressions.

A system file (``tables/systems/NAME.toml``, or a table's own file) names procedures;
each is an expression template of the dice notation (``rules.roll.notation``) with
``$name`` / ``${name}`` parameters, given on the command line as ``--name VALUE``::

    name = "hero"
    source = "002_278d2c820faaad44.txt"
    [procedures.check]
    help = "d20 + Skill + Advantage die vs DC"
    expression = "d20 + $skill $advantage vs $dc per 5"
    [procedures.check.params.skill]
    type = "int"        # or "choice"
    default = 0         # no default: the parameter is required
    min = -20
    max = 40
    [procedures.check.params.advantage.map]   # a value → the text put in its place
    "0" = ""
    "1" = "+ d4"

So a table adds its own system without code. Expanding a procedure only builds the
text; parsing it applies every limit of the notation.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, NotFound
from d2d_cli.rules.core.record import record

_PLACEHOLDER = re.compile(r"\$\{([a-z_][a-z0-9_]*)\}|\$([a-z_][a-z0-9_]*)")
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


@record
class Param:
    name: str
    kind: str  # "int" or "choice"
    default: int | str | None
    lo: int | None
    hi: int | None
    choices: tuple[str, ...]
    mapping: dict[str, str]
    help: str

    def value(self, text: str) -> str:
        """The text a value puts into the expression (checked)."""
        if self.kind == "int":
            raw = text.strip()
            if not re.fullmatch(r"[+-]?\d{1,7}", raw):
                raise BadInput(f"--{self.option} takes a whole number, not {text!r}")
            v = int(raw)
            if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
                raise BadInput(f"--{self.option} is from {self.lo} to {self.hi}, not {v}")
            key = str(v)
        else:
            key = text.strip().lower()
            if key not in self.choices:
                raise BadInput(f"--{self.option} is one of {', '.join(self.choices)}, "
                               f"not {text!r}")
        if self.mapping:
            if key not in self.mapping:
                raise BadInput(f"--{self.option} {key} has no meaning in this system")
            return self.mapping[key]
        return key

    @property
    def option(self) -> str:
        return self.name.replace("_", "-")

    @property
    def metavar(self) -> str:
        return "N" if self.kind == "int" else "|".join(self.choices)

    def describe(self) -> str:
        """What the parameter means, for ``--help``: its help, then whether it is needed
        or its default, its range, and what each value puts into the expression
        (``2 → + d6``: ``--advantage 2`` rolls a d6 more)."""
        parts = [self.help.rstrip(".") + "." if self.help else ""]
        if self.default is None:
            parts.append("Required.")
        else:
            parts.append(f"Default {self.default}.")
        if self.kind == "int" and self.lo is not None and self.hi is not None:
            parts.append(f"From {self.lo} to {self.hi}.")
        elif self.kind == "int" and self.lo is not None:
            parts.append(f"At least {self.lo}.")
        elif self.kind == "int" and self.hi is not None:
            parts.append(f"At most {self.hi}.")
        if self.mapping:
            shown = [f"{k} → {v}" if v else f"{k} → nothing" for k, v in self.mapping.items()]
            parts.append("Means: " + ", ".join(shown) + ".")
        elif self.kind == "choice":
            parts.append("One of: " + ", ".join(self.choices) + ".")
        return " ".join(p for p in parts if p)


@record
class Procedure:
    name: str
    help: str
    expression: str
    params: tuple[Param, ...]

    def usage(self) -> str:
        parts = []
        for p in self.params:
            shown = f"--{p.option} {p.metavar}"
            parts.append(shown if p.default is None else f"[{shown}]")
        return " ".join([self.name, *parts])


@record
class System:
    name: str
    title: str
    source: str
    procedures: dict[str, Procedure]

    def procedure(self, name: str) -> Procedure:
        proc = self.procedures.get(name.lower())
        if proc is None:
            raise NotFound(f"{self.name} has no procedure {name!r}; it has: "
                           + "; ".join(p.usage() for p in self.procedures.values()))
        return proc


def packaged() -> list[str]:
    """The systems that ship with d2d."""
    return tables.names("systems")


@cache
def load(name: str) -> System:
    """A packaged system by name (``hero``, ``poker``, ``drgn``)."""
    key = name.strip().lower()
    if key not in packaged():
        raise NotFound(f"no system {name!r}: d2d ships {', '.join(packaged())}; or give "
                       "the path of your own system file (a .toml)")
    return from_data(tables.load(f"systems/{key}"), f"tables/systems/{key}.toml")


def from_data(data: dict[str, Any], where: str) -> System:
    """A system from a parsed file, checked; errors name ``where``."""
    def bad(msg: str) -> BadInput:
        return BadInput(f"system file {where}: {msg}")

    name = str(data.get("name", "")).strip().lower()
    if not _NAME.match(name):
        raise bad('needs name = "…" (letters, digits, - and _)')
    procs_raw = data.get("procedures")
    if not isinstance(procs_raw, dict) or not procs_raw:
        raise bad("needs at least one [procedures.NAME] with an expression")
    procs: dict[str, Procedure] = {}
    for pname, raw in procs_raw.items():
        if not _NAME.match(pname) or not isinstance(raw, dict):
            raise bad(f"procedure {pname!r} needs a lower-case name and a table")
        expr = raw.get("expression")
        if not isinstance(expr, str) or not expr.strip():
            raise bad(f"procedure {pname} needs expression = \"…\"")
        params = []
        for key, spec in (raw.get("params") or {}).items():
            params.append(_param(key, spec, f"procedure {pname}", bad))
        names = {p.name for p in params}
        used = {a or b for a, b in _PLACEHOLDER.findall(expr)}
        if used - names:
            raise bad(f"procedure {pname} uses ${', $'.join(sorted(used - names))} without "
                      "a [params] entry")
        procs[pname] = Procedure(pname, str(raw.get("help", "")), expr, tuple(params))
    return System(name, str(data.get("title", name)), str(data.get("source", "")), procs)


def _param(key: str, spec: Any, where: str, bad: Any) -> Param:
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", key) or not isinstance(spec, dict):
        raise bad(f"{where}: parameter {key!r} needs a lower-case name and a table")
    kind = str(spec.get("type", "int"))
    if kind not in ("int", "choice"):
        raise bad(f"{where}: parameter {key} has type int or choice, not {kind!r}")
    mapping = {str(k).lower(): str(v) for k, v in (spec.get("map") or {}).items()}
    choices = tuple(str(c).lower() for c in spec.get("choices", mapping.keys() if
                                                               kind == "choice" else ()))
    if kind == "choice" and not choices:
        raise bad(f"{where}: parameter {key} needs choices = [...] or a map")
    default = spec.get("default")
    lo, hi = spec.get("min"), spec.get("max")
    return Param(key, kind, default, None if lo is None else int(lo),
                 None if hi is None else int(hi), choices, mapping, str(spec.get("help", "")))


def parse_args(proc: Procedure, args: list[str]) -> dict[str, str]:
    """``--skill 3 --dc=15`` → {skill: "3", dc: "15"}, checked against the procedure."""
    by_option = {p.option: p for p in proc.params} | {p.name: p for p in proc.params}
    given: dict[str, str] = {}
    i = 0
    while i < len(args):
        tok = args[i]
        if not tok.startswith("--"):
            raise BadInput(f"{proc.name}: expected --NAME VALUE, not {tok!r} (usage: "
                           f"{proc.usage()})")
        name, eq, value = tok[2:].partition("=")
        if not eq:
            if i + 1 >= len(args):
                raise BadInput(f"{proc.name}: --{name} needs a value")
            value = args[i + 1]
            i += 1
        i += 1
        param = by_option.get(name.lower())
        if param is None:
            raise BadInput(f"{proc.name} has no --{name} (usage: {proc.usage()})")
        if param.name in given:
            raise BadInput(f"--{param.option} is given twice")
        given[param.name] = value
    return given


def expand(proc: Procedure, args: list[str]) -> str:
    """The procedure's expression with every parameter put in."""
    given = parse_args(proc, args)
    values: dict[str, str] = {}
    for p in proc.params:
        if p.name in given:
            values[p.name] = p.value(given[p.name])
        elif p.default is not None:
            values[p.name] = p.value(str(p.default))
        else:
            raise BadInput(f"{proc.name} needs --{p.option} (usage: {proc.usage()})")

    def put(m: re.Match[str]) -> str:
        return values[m.group(1) or m.group(2)]

    return " ".join(_PLACEHOLDER.sub(put, proc.expression).split())
