"""``d2d tour`` — a guided tour that runs real commands on a throwaway session.

Each step is a sentence of explanation and the exact command line, run in this
process against a temporary session file, so the tour shows real output and
never touches the user's sessions. The README's main-job command runs it.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from d2d_cli.commands import _common as c
from d2d_cli.errors import D2DError

app = c.single("A guided tour of d2d on a throwaway session (the README's main job).")

# (explanation, command line without the leading "d2d"). Lines run against the tour's
# session: "{s}" stands for its file; a line without "{s}" gets "--session <file>".
STEPS: list[tuple[str, str]] = [
    ("Every session starts with a shuffled 54-card Fate deck. --seed makes it repeatable.",
     "--seed 7 session new {s}"),
    ("Reveal three Fate cards: each has a suit (♣ Body, ♦ Mind, ♥ Will, ♠ Speed) and an "
     "orientation (↑ Upper, ↓ Lower) fixed when the deck was shuffled.",
     "fate draw 3"),
    ("Need a d10? Cards are read as dice; J, Q, K and Wilds are redrawn automatically.",
     "fate die d10 --count 2 --explain"),
    ("Any die up to d1000 works by a documented redraw rule: here a d20.",
     "fate die d20"),
    ("A card drawn at the table works too (table mode): the virtual deck is untouched.",
     "fate die d8 --card 5Sv"),
    ("Who acts first? High Card: A high down to 2, then ♣ ♦ ♥ ♠.",
     "fate high-card Archer Thief Goblin"),
    ("Coin toss: black is Heads, red is Tails.", "fate coin"),
    ("Every change is journalled…", "session log --last 4"),
    ("…and one command undoes the last one.", "session undo"),
    ("The deck always holds each card once: draw pile + discard = 54.", "fate status"),
]


@app.command()
def tour(
    keep: Annotated[bool, typer.Option("--keep", help="Keep the tour's session file and "
                                       "print where it is.")] = False,
) -> None:
    """Run a short guided tour of real commands on a throwaway session.

    Example: d2d tour
    """
    from d2d_cli import cli, render

    con = render.console()
    folder = Path(tempfile.mkdtemp(prefix="d2d-tour-"))
    session_file = folder / "tour.toml"
    failures = 0
    for i, (why, line) in enumerate(STEPS, 1):
        argv = shlex.split(line.format(s=session_file))
        if "{s}" not in line:
            argv = ["--session", str(session_file), *argv]
        con.print(f"\n[bold cyan]{i}. {why}[/]")
        con.print(f"[dim]$ d2d {line.format(s='tour.toml')}[/]")
        try:
            code = cli.main(argv)
        except D2DError as e:  # pragma: no cover - the boundary catches these
            code = e.exit_code
        failures += code != 0
    if keep:
        con.print(f"\nThe tour's session is kept at {session_file}")
    else:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        raise typer.Exit(1)
    con.print("\n[bold]That's the tour.[/] Next: d2d --help, and docs/ for the rules d2d "
              "follows.")
