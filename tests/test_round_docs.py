"""The ``--json`` fields of issue 12's commands are documented: each command's help
(and so docs/commands.md, generated from it) has a "JSON:" paragraph naming the keys of
its result, checked here against a real run."""

from __future__ import annotations

import re

import pytest

from tests.helpers import Runner
from tests.test_round_tokens import add


def documented(help_text: str) -> dict[str, list[str]]:
    """"JSON: a, b (x, y), c." → {"": [a, b, c]}; "JSON (use): …" → {"use": […]}."""
    text = " ".join(help_text.split())
    block = text[text.index("JSON"):text.index("Example:")]
    out = {}
    for variant, keys in re.findall(r"JSON(?: \(([^)]*)\))?: (.*?)\.(?= JSON|\s*$)", block):
        while re.search(r"\([^()]*\)", keys):  # nested fields, described in words
            keys = re.sub(r" ?\([^()]*\)", "", keys)
        out[variant] = [k.strip() for k in keys.split(",")]
    return out


@pytest.fixture
def table(d2d: Runner) -> Runner:
    add(d2d, "Archer", "4x0", "--skill", "Ranged=1", "--skill", "Fire=2")
    add(d2d, "Goblin", "5x0", "--skill", "Stealth=1")
    d2d.ok("unit", "face", "Archer", "N")
    # Used before the round: its first upkeep is round 1's Event phase (000 l.878).
    d2d.ok("unit", "power", "Archer", "use", "Fire", "--effect", "1", "--continuous",
           "--price", "stun")
    d2d.ok("round", "start")
    return d2d


RUNS = [
    (["unit", "move"], "", ["unit", "move", "Archer", "forward"]),
    (["unit", "act"], "", ["unit", "act", "Archer", "burst"]),
    (["unit", "wait"], "", ["unit", "wait", "Goblin", "5"]),
    (["unit", "face"], "", ["unit", "face", "Goblin", "S"]),
    (["unit", "ability"], "", ["unit", "ability", "Archer", "use", "Aim", "--skill",
                               "Ranged"]),
    (["unit", "stealth"], "", ["unit", "stealth", "Goblin", "hide"]),
    (["unit", "power"], "use", ["unit", "power", "Archer", "use", "Fire", "--effect", "1",
                                "--continuous", "--price", "stun"]),
    (["unit", "power"], "upkeep, end", ["unit", "power", "Archer", "upkeep"]),
    (["round", "groups"], "", ["round", "groups"]),
    (["status"], "", ["status"]),
]


@pytest.mark.parametrize(("command", "variant", "run"), RUNS)
def test_json_fields_are_documented(table: Runner, command: list[str], variant: str,
                                    run: list[str]) -> None:
    keys = documented(table.ok(*command, "--help"))[variant]
    assert keys == list(table.json(*run)), command


def test_the_reference_has_them() -> None:
    from tests.helpers import ROOT

    ref = (ROOT / "docs" / "commands.md").read_text()
    for command, _, _ in RUNS:
        section = ref.split(f"d2d {' '.join(command)}\n", 1)[1].split("\n## ", 1)[0]
        assert "JSON" in section, command
