"""``d2d tour`` — a guided tour that runs real commands on a throwaway session.

Each step is a sentence of explanation and the exact command line, run in this
process against a temporary session file, so the tour shows real output and
never touches the user's sessions. The README's main-job command runs it.
"""

import os
import shlex
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from d2d_cli.commands import _app
from d2d_cli.errors import D2DError

app = _app.single("tour")

# (explanation, command line without the leading "d2d"). Lines run against the tour's
# session: "{s}" stands for its file; a line without "{s}" gets "--session <file>".
STEPS: list[tuple[str, str]] = [
    ("Every session starts with a shuffled 54-card Fate deck. --seed makes it repeatable.",
     "--seed 7 session new {s}"),
    ("Load the rules' worked example, Combat #1 (000 \"Example > Combat #1\"): the Archer "
     "tracks the Goblins who hold the bound Thief.",
     "scene load combat1"),
    ("Start round 1: every unit refreshes — Move = Speed, Action Cost = Speed/2, Turn = 2.",
     "round start"),
    ("With no Narrator at the table, d2d proposes each Non-Player's turn — target, movement, "
     "Action and approach, each with its reason (docs/solo.md \"The NPC policy\").",
     "npc plan 'Goblin Scout'"),
    ("Reveal three Fate cards: each has a suit (♣ Body, ♦ Mind, ♥ Will, ♠ Speed) and an "
     "orientation (↑ Upper, ↓ Lower) fixed when the deck was shuffled.",
     "fate draw 3"),
    ("Before the Archer shoots at the Goblin Scout, the odds: how often a Fate card beats his "
     "9♠, exactly, from this deck — the cards already out counted, their order never read.",
     "odds conflict 9S^ fate"),
    ("He moves up and shoots: Forward costs Move 1, an attack the Action Cost (001 "
     "l.543); d2d refuses what the Move left cannot pay.",
     "unit move Archer forward"),
    ("", "unit act Archer interact"),
    ("The Archer looses an arrow at the Goblin Scout. He plays the 9♠ Upper (Swords "
     "Upper: Fast); the Scout is a Non-Player, so the Narrator turns a Fate card — the "
     "6♣, black, so Upper: Strong. Fast beats Strong (001 p.28).",
     "conflict 9S^ fate --card 6C"),
    ("The whole matchup chart, for reference.", "conflict chart"),
    ("Hits by unit names: his Level is his Ranged 1 against the Scout's best Combat skill "
     "(Close Combat 1), the Difficulty is the Scout's Body 2x1 — each number says where it "
     "came from; a 3-card straight lets him take a card from his discard (001 p.31).",
     "hit 9S^ 10H 8C --by Archer --vs 'Goblin Scout' --skill Ranged"),
    ("The Crit: a bow pulled with Body+2 (Body 8x1 → Power 10x1), 3 Hits, Pierce: the "
     "Wound deck gives the location, then the armor there is found; the Power adds Hits "
     "that armor can only cancel (the Scout has none: +2), and severity turns once per "
     "Hit above 1 (001 p.33–35). --target puts it on the Scout.",
     "crit --weapon Body+2 --stat 8x1 --hits 3 --types pierce --target 'Goblin Scout'"),
    ("The dashboard: the round, the clock and its next event, tasks, and every unit's "
     "stats after conditions, Move and Actions left, Crits and targets.",
     "status"),
    ("The Thief works the Knot (a Task, Difficulty 4): he wins a Conflict with 2 Hits, so "
     "Challenge −2.",
     "task win Knot --hits 2 --by Thief"),
    ("Tasks are drawn as bars of Challenge and Progress tokens.", "task list"),
    ("End the round: Draw, Recover, Progress −1 on each task, events, the clock ticks.",
     "round end"),
    ("A round ends once: a second round end is refused, upkeep is never applied twice.",
     "round end"),
    ("The clock: reinforcements wait on Clock #5.", "clock show"),
    ("Skip ahead three ticks: every event passed is listed, and the reserve Goblin "
     "Skirmisher joins the scene.", "clock advance 3"),
    ("The weather: a d8 for the wind's direction, three reveals (J, Q, K, A add 10 km/h "
     "and draw again) for its speed.", "weather wind"),
    ("Need a d10? Cards are read as dice; J, Q, K and Wilds are redrawn automatically.",
     "fate die d10 --count 2 --explain"),
    ("Who acts first? High Card: A high down to 2, then ♣ ♦ ♥ ♠.",
     "fate high-card Archer Thief Goblin"),
    ("Every change is journalled…", "session log --last 4"),
    ("…and one command undoes the last one.", "session undo"),
    ("The scene as it stands.", "scene show"),
    ("Playing GM-less? Ask the Fate deck: one card answers Yes or No, \"and\" on A J Q K, "
     "\"but\" on 2 3 4 (docs/rules.md \"The Fate oracle\").",
     "oracle 'Are the goblins expecting him?' --likely"),
    ("And before the fight: how often does each side reach its goal? sim plays Combat #1 "
     "to its end again and again by the same rules functions as the commands above.",
     "--seed 1 sim combat1 --runs 40 --workers 1"),
]


# Steps that show a refusal on purpose (exit 2 is their point): 1-based indexes.
EXPECTED_REFUSALS = {i for i, (_, line) in enumerate(STEPS, 1)
                     if line == "round end" and STEPS[i - 2][1] == "round end"}


@app.command()
def tour(
    ctx: typer.Context,
    keep: Annotated[bool, typer.Option("--keep", help="Keep the tour's session file and "
                                       "print where it is.")] = False,
) -> None:
    """Run a short guided tour of real commands on a throwaway session.

    Example: d2d tour
    """
    from d2d_cli import render

    run = _app.settings(ctx).run
    assert run is not None, "the root hands its run to every command"

    con = render.console()
    folder = Path(tempfile.mkdtemp(prefix="d2d-tour-"))
    session_file = folder / "tour.toml"
    failures, shown = 0, 0
    # Run from the tour's own (empty) folder: a file or folder named like a built-in
    # scene (combat1) in the user's working folder would be read instead of the scene.
    here = os.getcwd()
    os.chdir(folder)
    try:
        for i, (why, line) in enumerate(STEPS, 1):
            argv = shlex.split(line.format(s=session_file))
            if "{s}" not in line:
                argv = ["--session", str(session_file), *argv]
            if why:  # a step without words continues the one before
                shown += 1
                con.print(f"\n[bold cyan]{shown}. {why}[/]")
            con.print(f"[dim]$ d2d {line.format(s='tour.toml')}[/]")
            try:
                code = run(argv)
            except D2DError as e:  # pragma: no cover - the boundary catches these
                code = e.exit_code
            failures += code != 0 and i not in EXPECTED_REFUSALS
    finally:  # even when a step fails or Ctrl-C stops it: nothing left in the temp folder
        os.chdir(here)
        if not keep:  # …nor of its session in the cache folder
            import shutil

            from d2d_cli import session

            session.forget(session_file)
            shutil.rmtree(folder, ignore_errors=True)
    if keep:
        con.print(f"\nThe tour's session is kept at {session_file}")
    if failures:
        raise typer.Exit(1)
    con.print("\n[bold]That's the tour.[/] Next: d2d --help, and docs/ for the rules d2d "
              "follows.")
