"""What d2d's command line is made of, with no Typer in it: the command groups and their
one-line help (:data:`GROUPS`, read by the root's help without importing a group), the
global options and how they may follow the command (:func:`hoist_globals`), and the
:class:`Settings` every command receives in ``ctx.obj``.

It sits below the root (``cli``), the command groups, the play shell and completion, so
each of them reads it without an import circle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from d2d_cli.rules.core.record import record


@record
class Group:
    """A command group: its module under d2d_cli.commands (named like its subject in
    rules/), its one-line help (the only copy: the group's module reads it from here),
    and whether it holds subcommands. A record, not a NamedTuple: every command reads
    this table, and a NamedTuple class costs ~0.18 ms to build (issue 40 item 3)."""

    module: str
    help: str
    nested: bool


GROUPS: dict[str, Group] = {
    "fate": Group("fate", "The Fate deck: draw, shuffle, dice (any dN), coin, high card.",
                  True),
    "scale": Group("scale", "Stats at any scale: mass, speed, IQ ↔ 8x1; compare; map scales.",
                   True),
    "conflict": Group("conflict", "Resolve a conflict between two approaches; the chart.",
                      False),
    "hit": Group("hits", "Count the Hits of the winner's cards (Level, Difficulty, combos).",
                 False),
    "crit": Group("crits", "Rate a Crit (Power vs Armor), draw its location and severity.",
                  False),
    "char": Group("characters", "Characters: 22-point creation, sheet, export, advancement.",
                  True),
    "unit": Group("units", "Units on the board: add, list, show, rm, conditions, targets.",
                  True),
    "status": Group("status", "The Status Bar: every unit with effective stats and its round.",
                    False),
    "ref": Group("reference", "Look up a skill, archetype, condition or glossary term.",
                 False),
    "task": Group("tasks", "Task clocks: Challenge and Progress tokens.", True),
    "clock": Group("clock", "The scene clock and its timed and random events.", True),
    "round": Group("rounds", "Round start (refresh), round end (upkeep), who acts next.", True),
    "weather": Group("weather", "Weather: wind direction and speed from Fate reveals.", True),
    "roll": Group("roll", "Roll dice and cards: keep, explode, vs, bands; --odds; --system.",
                  False),
    "odds": Group("odds", "Exact odds of the next reveals from the deck as it stands.", True),
    "scene": Group("scene", "Load and show a scene file (units, tasks, clock, events).", True),
    "rules": Group("table_rules", "The table's à la carte rules: show, set, unset.", True),
    "session": Group("session", "Session files: new, list, use, show, path, log, undo, redo.",
                     True),
    "board": Group("board", "The map: units, Facing, terrain; Fog of War and map Events.",
                   True),
    "tour": Group("tour", "A guided tour of d2d on a throwaway session.", False),
    "oracle": Group("oracle", "Ask the Fate deck a yes/no question: GM-less play.", False),
    "npc": Group("npc", "A Non-Player unit's turn by the NPC policy: plan it, or play it.",
                 True),
    "sim": Group("sim", "Play a scene to its end N times: each faction's chance.", False),
    "hand": Group("hands", "The Players' Conflict hands: deal, show, choose face down.",
                  True),
    "player": Group("players", "The table's Players by name: rename a stand-in.", True),
    "play": Group("play", "An interactive shell on one session: commands without d2d.",
                  False),
    "serve": Group("serve", "The players' screens: a live page, each hand on its phone.",
                   False),
}

# Global options: given after the command too (``d2d fate coin --seed 1``), they are moved
# in front of it by D2DGroup.parse_args, for every command at once.
GLOBAL_WITH_VALUE = ("--session", "--seed")
GLOBAL_FLAGS = ("--debug", "--why")


@record(frozen=False)
class Settings:
    """The global options, handed to every command through ``ctx.obj``."""

    session: str | None = None
    seed: int | None = None
    debug: bool = False
    why: bool = False  # --why: the reasons too (map readings, rule lines, what did not apply)
    argv: tuple[str, ...] = ()  # the command line as typed, for the journal's label
    # The root's own entry points, handed down so that a command that runs other command
    # lines (``d2d play``, ``d2d tour``) and the completion of ``d2d play`` reach the root
    # without importing it: ``run(argv) -> exit code`` (the error boundary included) and
    # the root Click group.
    run: Callable[[list[str]], int] | None = None
    root: Any = None
    env: Any = None  # the command line's Environment (d2d_cli/env.py): streams, terminal


def hoist_globals(args: list[str]) -> list[str]:
    """``fate coin --seed 1`` → ``--seed 1 fate coin``: global options found after the
    command name move in front of it (never past a ``--``)."""
    front: list[str] = []
    rest: list[str] = []
    command_seen = False
    i = 0
    while i < len(args):
        tok = args[i]
        if tok == "--":
            rest += args[i:]
            break
        name, eq, _ = tok.partition("=")
        takes_value = name in GLOBAL_WITH_VALUE and not eq and i + 1 < len(args)
        if command_seen and (name in GLOBAL_WITH_VALUE or tok in GLOBAL_FLAGS):
            front += args[i:i + 2] if takes_value else [tok]
        else:
            rest += args[i:i + 2] if takes_value else [tok]
            command_seen = command_seen or not tok.startswith("-")
        i += 2 if takes_value else 1
    return front + rest
