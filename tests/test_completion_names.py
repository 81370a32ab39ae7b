"""Every argument and option that takes a name completes, through ONE completer with
ONE matching rule (commands/_complete.py) — the same in ``d2d play`` and in the shell
(issue 20.2). The test walks Click's command tree, so a new command is checked too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from d2d_cli.cli import root_command
from d2d_cli.commands import _complete

# A parameter takes a name when it is called like one, or its metavar says so.
NAME_PARAMS = {"name", "names", "target", "tgt", "by", "worker", "skill", "rival_skill",
               "cond", "archetype", "template", "term", "kind", "what", "action", "system",
               "format", "file", "session", "sides", "side_a", "side_b", "card", "cards",
               "which", "ability", "attack"}
NAME_METAVARS = {"UNIT", "NAME", "SKILL", "CONDITION", "KIND", "ACTION", "TARGET", "SIDE",
                 "TERM", "CARD", "ABILITY", "POWER", "SESSION", "SYSTEM", "FORMAT"}
# Parameters that look like it and take something else, with why.
NOT_A_NAME = {
    ("unit add", "name"): "a new unit's name",
    ("char new", "name"): "a new character's name",
    ("task new", "name"): "a new task's name",
    ("session new", "name"): "a new session's name",
    ("crit", "card"): "TYPE@LOCATION: a Crit card drawn at the table",
    ("fate die", "sides"): "dN: a die, not a name",
    ("odds die", "sides"): "dN: a die, not a name",
    ("conflict", "flank"): "[a:|b:]side|back: a position",
    ("hit", "flank"): "[a:|b:]side|back: a position",
    ("char learn", "ability"): "the Ability gained: free text, a new name",
    ("unit ability", "which"): "an Ability the character learned: free text",
    ("char unlearn", "ability"): "an Ability the character learned: free text",
    ("char import", "file"): "a file's path: the shell completes files",
    ("unit act", "arg"): "what it names depends on the action (a condition, an Ability, a "
                         "unit)",
}


def _leaves(cmd: Any, path: list[str]) -> Iterator[tuple[str, Any]]:
    yield " ".join(path), cmd
    if hasattr(cmd, "list_commands"):
        for name in cmd.list_commands(None):
            yield from _leaves(cmd.get_command(None, name), [*path, name])


def takes_name(param: Any) -> bool:
    if getattr(param, "is_flag", False):
        return False  # --action/--no-action: a flag, not a name
    words = set(re.split(r"[^A-Z_]+", (param.metavar or "").upper().replace("_", " ")))
    if "=" in (param.metavar or ""):
        return False  # NAME=LEVEL and the like: a pair, not a name
    return param.name.rstrip("_") in NAME_PARAMS or bool(words & NAME_METAVARS)


def name_params() -> list[tuple[str, Any]]:
    return [(path, p) for path, cmd in _leaves(root_command(), [])
            for p in cmd.params if takes_name(p) and (path, p.name) not in NOT_A_NAME]


def test_every_parameter_that_takes_a_name_completes_through_the_one_completer() -> None:
    params = name_params()
    assert len(params) > 40  # the walk found the tree
    missing = [(path, p.name) for path, p in params
               if not isinstance(p.type, _complete.Names | _complete.Cards)]
    assert missing == []


def test_the_exceptions_are_still_parameters() -> None:
    found = {(path, p.name) for path, cmd in _leaves(root_command(), []) for p in cmd.params}
    assert set(NOT_A_NAME) <= found


@pytest.mark.parametrize(("names", "typed", "want"), [
    (["Goblin Scout", "Archer", "Scarecrow"], "sc", ["Scarecrow", "Goblin Scout"]),
    (["Goblin Scout", "Goblin Skirmisher"], "goblin s", ["Goblin Scout", "Goblin Skirmisher"]),
    (["Goblin Scout", "Archer"], "", ["Goblin Scout", "Archer"]),
    (["human-female", "human-male"], "fem", ["human-female"]),
    (["Blood Loss", "Bleeding", "Blood Loss"], "LOSS", ["Blood Loss"]),
    (["Archer"], "rch", []),  # the start of a word, not any part of it
])
def test_the_one_matching_rule(names: list[str], typed: str, want: list[str]) -> None:
    assert _complete.matching(names, typed) == want


@pytest.fixture
def table(d2d) -> None:  # type: ignore[no-untyped-def]
    d2d.ok("--seed", "7", "session", "new", "t", "--use")
    d2d.ok("scene", "load", "combat1")


@pytest.mark.parametrize(("line", "want"), [
    ("unit show Sc", ['"Goblin Scout"']),  # the same rule as task --by (issue 20.2)
    ("task win Knot --by sc", ['"Goblin Scout"']),
    ("conflict Th", ["Thief:"]),
    ("conflict Thief:fas", ["Thief:fast"]),
    ("conflict Thief:fa", ["Thief:fast", "Thief:fate"]),  # fate after the colon too
    ("conflict fast Arch", ["Archer:"]),
    ("hit 9S --by Ar", ["Archer"]),
    ("hit 9S --vs gob", ['"Goblin Scout"', '"Goblin Skirmisher"']),
    ("hit 9S --skill stea", ["Stealth"]),
    ("conflict fast block --rival-skill close", ['"Close Combat"']),
    ("conflict fast block --attack r", ["reach", "ranged"]),
    ("unit move Archer dr", ["drift", "drift-back"]),
    ("unit act Archer rec", ["recover"]),
    ("unit act Archer push", ["push-the-limit"]),
    ("unit condition Archer a", ["add"]),
    ("unit power Thief use Fi", ["Fire"]),
    ("roll --system h", ["hero"]),
    ("roll --system hero ", ["check", "passive", "percent"]),
    ("roll d2", []),
    ("char export Archer --format h", ["html"]),
    ("scene load com", ["combat1"]),
    ("session use ", ["t"]),
    ("odds conflict fast Thi", ["Thief:"]),
    ("odds crit --target Thi", ["Thief"]),
])
def test_play_completes_every_kind_of_name(table, line: str, want: list[str]) -> None:  # type: ignore[no-untyped-def]
    from d2d_cli import cli
    from d2d_cli.completion import candidates
    from d2d_cli.registry import Settings

    got = [c.text for c in candidates(line, Settings(root=cli.root_command()))]
    assert got == want


def test_char_commands_complete_characters_only(d2d) -> None:  # type: ignore[no-untyped-def]
    # `char show Archer` is refused ("'Archer' is a unit, not a character"): Tab does
    # not offer the scene's units to a char command, only to the others.
    from d2d_cli import cli
    from d2d_cli.completion import candidates
    from d2d_cli.registry import Settings

    d2d.ok("session", "new", "t", "--use")
    d2d.ok("scene", "load", "combat1")
    d2d.ok("char", "new", "Rook", "--body", "7", "--speed", "5")
    d2d.ok("char", "new", "Ash", "--body", "7", "--speed", "5")

    def got(line: str) -> list[str]:
        return [c.text for c in candidates(line, Settings(root=cli.root_command()))]

    assert got("char show ") == ["Rook", "Ash"]
    assert got("char award R") == ["Rook"]
    assert got("char downtime Rook ") == ["Rook", "Ash"]
    assert got("char show Arch") == []
    assert got("unit show Arch") == ["Archer"]
