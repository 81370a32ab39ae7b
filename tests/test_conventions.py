"""The argument convention of docs/conventions.md, checked over every command (Click's
command tree, so a new command is checked too), and its spellings old and new (issue
20.7)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from d2d_cli.cli import root_command

# Rule 2–3: the number a command is about, positional (``X_``) and by name (``--X``):
# "how many" wherever it is asked, and these numbers where they are what the command is
# about (elsewhere --difficulty or --hits is a modifier: hit --difficulty, crit --hits).
HOW_MANY = {"count", "last", "runs"}
TWINNED = {("task new", "difficulty"), ("task win", "hits"), ("task lose", "hits"),
           ("clock event add", "at"), ("clock event random", "chance")}
# Rule 6: the one documented exception.
REQUIRED_OPTIONS = {("unit add", "body"), ("unit add", "mind"), ("unit add", "will"),
                    ("unit add", "speed")}
# Rule 7: each one-letter form means the same everywhere.
SHORT = {"-n": {"--count", "--last", "--runs"}, "-c": {"--card"}, "-d": {"--difficulty"},
         "-H": {"--hits"}, "-w": {"--worker"}, "-o": {"--output"}, "-f": {"--format"},
         "-r": {"--recover"}, "-h": {"--help"}}
NO_JSON = {"play", "tour"}  # rule 8: they run other commands


def _commands(cmd: Any = None, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    cmd = cmd or root_command()
    if hasattr(cmd, "list_commands"):
        for name in cmd.list_commands(None):
            yield from _commands(cmd.get_command(None, name), (*path, name))
    else:
        yield " ".join(path), cmd


COMMANDS = list(_commands())


def _options(cmd: Any) -> list[Any]:
    return [p for p in cmd.params if p.param_type_name == "option"]


def test_the_walk_finds_every_command() -> None:
    assert len(COMMANDS) > 60
    assert {"fate die", "task new", "clock event add", "unit condition"} <= dict(COMMANDS).keys()


def test_a_required_value_is_positional() -> None:
    required = {(path, p.name) for path, cmd in COMMANDS for p in _options(cmd) if p.required}
    assert required == REQUIRED_OPTIONS


def test_the_number_a_command_is_about_is_positional_and_by_name() -> None:
    wrong = []
    for path, cmd in COMMANDS:
        args = {p.name: p for p in cmd.params if p.param_type_name == "argument"}
        opts = {p.name for p in _options(cmd)}
        for name in (opts & HOW_MANY) | {n for p, n in TWINNED if p == path}:
            twin = args.get(name + "_")
            if twin is None or twin.required:
                wrong.append((path, f"--{name} has no optional positional {name}_"))
        for name in args:
            if name.endswith("_") and name[:-1] not in opts:
                wrong.append((path, f"{name} has no --{name[:-1]}"))
    assert wrong == []


# Rule 3 from the other side: a number given positionally can be given by name too, but
# for these, which are the command's subject rather than a number about it.
SUBJECT_NUMBERS = {("clock set", "n"): "the value the clock is set to",
                   ("scale area", "points"): "the Effect points looked up",
                   ("unit wait", "count"): "the Count of the Countdown waited at: a "
                                           "moment, not how many"}


def test_every_positional_number_can_be_given_by_name() -> None:
    wrong = [(path, p.name) for path, cmd in COMMANDS for p in cmd.params
             if p.param_type_name == "argument" and p.type.name == "integer"
             and not p.name.endswith("_") and (path, p.name) not in SUBJECT_NUMBERS]
    assert wrong == []


def test_option_names_and_their_one_letter_forms() -> None:
    wrong = []
    for path, cmd in COMMANDS:
        for p in _options(cmd):
            longs = [o for o in p.opts + p.secondary_opts if o.startswith("--")]
            shorts = [o for o in p.opts + p.secondary_opts if not o.startswith("--")]
            wrong += [(path, o) for o in longs if not re.fullmatch(r"--[a-z][a-z0-9-]*", o)]
            wrong += [(path, s) for s in shorts if not set(longs) & SHORT.get(s, set())]
    assert wrong == []


def test_every_command_that_prints_a_result_takes_json() -> None:
    missing = [path for path, cmd in COMMANDS if path not in NO_JSON
               and not any("--json" in p.opts for p in _options(cmd))]
    assert missing == []


# --------------------------------------------------------------------------- spellings

@pytest.mark.parametrize(("new", "old"), [
    ("fate die d10 3", "fate die d10 --count 3"),
    ("fate die d10 3", "fate die d10 -n 3"),
    ("fate die d10 3", "fate die d10 3 --count 3"),  # both ways, the same: accepted
    ("task new Door 4", "task new Door --difficulty 4"),
    ("task new Door 4", "task new Door -d 4"),
    ("clock event add 'Goblins arrive' 5", "clock event add 5 'Goblins arrive'"),
    ("clock event add 'Goblins arrive' 5", "clock event add 'Goblins arrive' --at 5"),
    ("clock event random 'A patrol' 1/4", "clock event random 'A patrol' --chance 1/4"),
    ("unit condition Archer add Fatigue 2", "unit condition Archer add Fatigue --count 2"),
    ("task win Knot 2 --by Thief", "task win Knot --hits 2 --by Thief"),
    ("task lose Knot 1", "task lose Knot -H 1"),
    ("session log 3", "session log --last 3"),
    ("fate draw 3", "fate draw --count 3"),
    ("fate draw 3", "fate draw -n 3"),
    ("odds hits 5 --vs 2", "odds hits --count 5 --vs 2"),
    ("clock advance 3", "clock advance --count 3"),
    ("unit stealth 'Goblin Scout' hide 2", "unit stealth 'Goblin Scout' hide -n 2"),
    ("unit stealth 'Goblin Scout' hide", "unit stealth 'Goblin Scout' hide --count 1"),
])
def test_the_new_and_the_old_spelling_do_the_same(d2d, new: str, old: str) -> None:
    import shlex

    results = []
    for line in (new, old):
        d2d.ok("--seed", "5", "session", "new", f"s{len(results)}", "--use")
        d2d.ok("scene", "load", "combat1")
        result = d2d.json("--seed", "5", *shlex.split(line))
        for entry in result.get("entries", []):  # session log: when, to the second
            entry.pop("at")
        results.append(result)
    assert results[0] == results[1]


@pytest.mark.parametrize(("line", "message"), [
    ("fate die d10 2 --count 3", "count given twice (2 and --count 3): give it once"),
    ("task new Door", "missing the Difficulty: give it as DIFFICULTY or --difficulty"),
    ("task win Knot", "missing the Hits: give it as HITS or --hits"),
    ("clock event add 'Goblins arrive'", "missing the clock number: give it as AT or --at"),
    ("clock event add 'Goblins arrive' soon",
     "AT is the clock number it is placed on, a whole number, not 'soon'"),
    ("clock event random 'A patrol'", "missing the chance: give it as CHANCE or --chance"),
    ("fate draw 2 -n 3", "count given twice (2 and --count 3): give it once"),
    ("odds hits --vs 2", "missing the number of cards: give it as COUNT or --count"),
    ("clock advance", "missing how many ticks: give it as COUNT or --count"),
    ("unit stealth Archer tick 1 --count 2", "count given twice (1 and --count 2): give it "
                                             "once"),
])
def test_a_missing_or_doubled_number_is_refused(d2d, data_dir, line: str,
                                                message: str) -> None:
    import shlex

    from tests.helpers import assert_refused

    d2d.ok("scene", "load", "combat1")
    res = assert_refused(d2d, data_dir, shlex.split(line), message)
    assert res.stderr == f"d2d: error: {message}\n"
