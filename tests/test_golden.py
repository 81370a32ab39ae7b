"""Every command's JSON on the Combat #1 transcript is exactly as recorded (issue 9:
a redesign changes no behaviour it does not name), and the transcript runs every leaf
command of the command tree (issue 26 item 7). See tests/golden/script.py."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.golden.script import LINES, transcript

GOLDEN = Path(__file__).parent / "golden" / "combat1.jsonl"


def test_transcript_matches_the_recorded_json() -> None:
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    got = transcript()
    assert len(got) == len(LINES.strip().splitlines()) == len(expected)
    for want, have in zip(expected, got, strict=True):
        assert have == want
    # A regenerated transcript must never have recorded a crash as the expected answer.
    assert not [line for line in expected if line.split("\t")[1] not in ("0", "2")]


def _leaves(command: Any, ctx: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every leaf command under ``command`` (a group's own callback is not
    a command a user runs, unless the group runs without a subcommand: ``d2d board``)."""
    if not hasattr(command, "list_commands"):
        yield path
        return
    if getattr(command, "invoke_without_command", False):
        yield path
    for name in command.list_commands(ctx):
        yield from _leaves(command.get_command(ctx, name), ctx, (*path, name))


def leaf_commands() -> list[tuple[str, ...]]:
    import typer

    from d2d_cli.cli import app

    root = typer.main.get_command(app)
    return list(_leaves(root, typer.Context(root)))


def _command_of(line: str, leaves: set[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The leaf command a transcript line runs: its words after the global options, the
    longest prefix that names a leaf."""
    from d2d_cli.registry import GLOBAL_FLAGS, GLOBAL_WITH_VALUE

    words = shlex.split(line.partition(" <<< ")[0])
    while words and words[0] in (*GLOBAL_WITH_VALUE, *GLOBAL_FLAGS):
        words = words[2:] if words[0] in GLOBAL_WITH_VALUE else words[1:]
    for n in range(len(words), 0, -1):
        if tuple(words[:n]) in leaves:
            return tuple(words[:n])
    return None


def test_the_transcript_runs_every_leaf_command() -> None:
    """Walks the Click command tree: a new command fails here until the transcript runs
    it (with a fixed seed where it reveals). Every leaf runs without a terminal — ``play``
    reads its lines from stdin, the tour runs on its own throwaway session — so there is
    no exclusion list."""
    leaves = leaf_commands()
    assert len(leaves) >= 92 and ("fate", "draw") in leaves and ("play",) in leaves
    run = {_command_of(line, set(leaves)) for line in LINES.strip().splitlines()}
    missing = [" ".join(leaf) for leaf in leaves if leaf not in run]
    assert not missing, "leaf commands the golden transcript never runs: " + \
        ", ".join(missing)
    assert None not in run, "a transcript line that names no leaf command"


def test_a_line_is_read_as_the_leaf_command_it_runs() -> None:
    leaves = {("fate", "draw"), ("roll",), ("play",), ("session", "new")}
    assert _command_of("--seed 3 roll 'd20 + 5'", leaves) == ("roll",)
    assert _command_of("fate draw --peek 2", leaves) == ("fate", "draw")
    assert _command_of("play <<< session new x", leaves) == ("play",)
    assert _command_of("fate status", leaves) is None
