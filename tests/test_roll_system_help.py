"""``d2d roll --system NAME [PROCEDURE] --help``: a system's procedures and a procedure's
parameters with what each value means, read from the system's TOML (issue 20.6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from d2d_cli.commands.roll import _system_words

OWN = """\
name = "mine"
title = "Our table's d6 pool"
[procedures.pool]
help = "Roll a pool of d6, count the sixes."
expression = "${dice}d6>=6 $edge"
[procedures.pool.params.dice]
type = "int"
min = 1
max = 10
help = "Dice in the pool"
[procedures.pool.params.edge]
type = "choice"
default = "none"
help = "An edge adds a die"
[procedures.pool.params.edge.map]
none = ""
edge = "+ 1d6>=6"
"""


def test_a_procedures_help_says_what_each_value_means(d2d) -> None:
    out = d2d.ok("roll", "--system", "hero", "check", "--help")
    lines = out.splitlines()
    assert lines[0] == ("Usage: d2d roll --system hero check [--skill N] --dc N "
                        "[--advantage N] [--luck none|fortune|misfortune|both] [--odds] "
                        "[--json]")
    # 002 l.11: "the Advantage die gets bigger, from a d4 to a d6…": --advantage 2 is a d6.
    text = " ".join(out.split())
    assert "--advantage N Ranks of Advantage (+) or Disadvantage (−), l.11. Default 0. " \
           "From -5 to 5. Means: -5 → - d12, -4 → - d10" in text
    assert "2 → + d6" in text
    assert "--dc N The difficulty class (l.112). Required. From 1 to 100." in text


def test_a_systems_help_lists_its_procedures(d2d) -> None:
    out = d2d.ok("roll", "--system", "hero", "--help").splitlines()
    assert out[:5] == ["Usage: d2d roll --system hero PROCEDURE [--NAME VALUE]...", "",
                       "  hero: d20 + Skill + Advantage die vs DC (seed 002)", "",
                       "Procedures:"]
    assert [x.split()[0] for x in out if x.startswith("  ") and not x.startswith("   ")
            ][1:] == ["check", "passive", "percent"]
    assert out[-1] == "The parameters of one: d2d roll --system hero check --help"


def test_a_tables_own_system_file_documents_itself(d2d, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(OWN, encoding="utf-8")
    assert d2d.ok("roll", "--system", str(path), "pool", "-h") == (
        f"Usage: d2d roll --system {path} pool --dice N [--edge none|edge] [--odds] [--json]\n"
        "\n"
        "  Roll a pool of d6, count the sixes.\n"
        "\n"
        "Parameters:\n"
        "  --dice N          Dice in the pool. Required. From 1 to 10.\n"
        "  --edge none|edge  An edge adds a die. Default none. Means: none → nothing,\n"
        "                    edge → + 1d6>=6.\n"
        "\n"
        "Expression:\n"
        "  ${dice}d6>=6 $edge\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--system", "nope", "--help"], "d2d: error: no system 'nope'"),
    (["--system", "hero", "nope", "--help"], "d2d: error: hero has no procedure 'nope'"),
])
def test_an_unknown_system_or_procedure_is_refused(d2d, args: list[str], message: str) -> None:
    res = d2d("roll", *args)
    assert res.exit_code == 2 and res.stderr.startswith(message)


def test_without_system_the_help_is_the_commands_own(d2d) -> None:
    assert d2d.ok("roll", "--help").startswith("Usage: d2d roll [OPTIONS] [EXPR]")


@pytest.mark.parametrize(("args", "want"), [
    (["--system", "hero", "check", "--help"], ("hero", "check")),
    (["--system=hero", "--dc", "15", "check", "-h"], ("hero", "check")),
    (["--odds", "--system", "hero", "--help"], ("hero", None)),
    (["--help", "d20"], (None, "d20")),
])
def test_the_system_and_procedure_are_read_from_the_line(args: list[str], want: tuple) -> None:
    assert _system_words(args, {"--odds", "--fresh", "--json"}) == want
