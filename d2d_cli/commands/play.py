"""``d2d play`` — an interactive shell on one session (d2d_cli/shell.py)."""

from typing import Annotated

import typer

from d2d_cli.commands import _app

app = _app.single("play")


@app.command()
def play(
    ctx: typer.Context,
    keep_going: Annotated[bool, typer.Option(
        "--keep-going", help="Lines read from a file or pipe: run every line even after "
        "one fails, and exit with the first failure's code.")] = False,
) -> None:
    """Play at the table: an interactive shell where every d2d command runs without the
    "d2d" prefix and answers at once (fate draw 3, unit show "Goblin Scout", undo).

    Tab completes commands, options, cards and names; history is kept across runs; the
    bottom line shows the round, the clock, the Fate cards left and the unit named last.
    Global options apply to every line: --session pins the shell to one session (else
    it follows `session use`), --seed works as if typed before each line.

    With stdin not a terminal it runs the lines it reads (d2d play < prep.txt) and stops
    at the first line that fails, with that line's exit code, naming the line on stderr
    (as sqlite3 -bail does); --keep-going runs every line and exits with the first
    failure's code.

    Example: d2d play --session friday
    """
    from d2d_cli import session, shell

    s = _app.settings(ctx)
    session.locate(s.session)  # an unknown name is refused here, with the nearest names
    code = shell.start(s, keep_going)
    if code:
        raise typer.Exit(code)
