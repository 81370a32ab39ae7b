"""``d2d session …`` — session files: create, pick, inspect, log, undo."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from d2d_cli import render, session
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.commands._convention import positional_or_option
from d2d_cli.rules.overview import summary

app = _app.group("session")


NameArg = Annotated[str, typer.Argument(
    metavar="NAME|PATH", click_type=_complete.SESSION,
    help="A session name (letters, digits, - _ .) or a path ending in .toml.")]


@app.command(short_help="Create a session with a freshly shuffled Fate deck.")
def new(
    ctx: typer.Context,
    name: NameArg,
    use: Annotated[bool, typer.Option("--use", help="Also make it the current session.")]
    = False,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", metavar="KEY=VALUE", help="A rule of the table, e.g. hands=d2d "
        "(repeatable; d2d rules lists them).", show_default=False)] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Create a session with a freshly shuffled Fate deck (--seed makes it reproducible),
    its rules set by --rule as d2d rules set would.

    Example: d2d --seed 7 session new friday --use --rule hands=d2d
    """
    from d2d_cli.operations import table_rules

    chosen = table_rules.assignments(rule or [])  # a typo: refused before anything exists
    path = session.resolve(name)
    session.create(path, seed=_app.settings(ctx).seed)
    if chosen:
        from d2d_cli.operations import Target

        table_rules.initial(Target(str(path), _app.settings(ctx).seed, _app.label(ctx)),
                            chosen)
    if use:
        session.set_current(name)
    result = {"name": session.display_name(path), "path": str(path), "current": use}
    render.emit(result, _show_new, as_json=json)


def _show_new(con: Any, r: dict[str, Any]) -> None:
    name = render.escape(r["name"])
    con.print(f"Created session [bold]{name}[/] at {render.escape(r['path'])}"
              + (" (now current)" if r["current"] else ""))
    if not r["current"]:  # how to play on it: a hint, not a change
        import shlex  # here: every session command (export, log…) imports this module

        quoted = render.escape(shlex.quote(r["name"]))
        con.print(f"Make it current with: d2d session use {quoted}  (or add --session "
                  f"{quoted} to a command)")


@app.command("list", short_help="The named sessions; the current one marked.")
def list_(json: _app.JsonOpt = False) -> None:
    """The named sessions in the data folder; the current one is marked.

    Example: d2d session list
    """
    current = session.current_name()
    result = {"sessions": session.list_sessions(), "current": current,
              "folder": str(session.data_dir())}
    render.emit(result, _show_list, as_json=json)


def _show_list(con: Any, r: dict[str, Any]) -> None:
    if not r["sessions"]:
        con.print(f"No sessions yet in {r['folder']} (the first command creates 'default').")
    for name in r["sessions"]:
        con.print(("* " if name == r["current"] else "  ") + name)


@app.command(short_help="Make NAME the current session.")
def use(name: NameArg, json: _app.JsonOpt = False) -> None:
    """Make NAME the current session (used when --session is not given).

    Example: d2d session use friday
    """
    path = session.set_current(name)
    render.emit({"current": name, "path": str(path)},
                lambda con, r: con.print(f"Now using [bold]{r['current']}[/] ({r['path']})"),
                as_json=json)


@app.command()
def path(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """Print the session file's path (handy for editing it by hand).

    Example: $EDITOR "$(d2d session path)"
    """
    from d2d_cli.operations import history

    render.emit(history.path(_state.target(ctx)),
                lambda con, r: con.out(r.path, highlight=False), as_json=json)


@app.command()
def show(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """What the session holds: deck, units, tasks, clock, rules.

    Example: d2d session show
    """
    from d2d_cli.operations import history

    result = history.show(_state.target(ctx))
    render.emit(result, _show_show, as_json=json)


SHOWN_NAMES = 12  # a long campaign's roster is listed by `d2d unit list`


def _show_show(con: Any, r: Any) -> None:  # operations.history.Shown
    t: summary.Summary = r.table
    e = render.escape

    def names(items: list[str], what: str) -> str:
        more = len(items) - SHOWN_NAMES
        shown = ", ".join(e(n) for n in items[:SHOWN_NAMES])
        return f"{len(items)}: {shown}" + (f" … and {more} more (d2d {what} list)"
                                           if more > 0 else "")

    rows = [("File", e(r.path)), ("Created", f"{_when(r.created)} (schema {r.schema})")]
    if t.scene:
        rows.append(("Scene", e(t.scene) + (f" ({e(t.map)} map)" if t.map else "")))
    played = f"{t.round} ({summary.PHASES.get(t.phase, t.phase)})" if t.round else "none yet"
    rows.append(("Round", played + (f" · clock {t.clock}" if t.clock is not None else "")))
    rows.append(("Fate", f"{r.fate['remaining']} cards to draw, "
                         f"{r.fate['discarded']} discarded"))
    rows.append(("Units", names(list(t.units), "unit") if t.units else "none"))
    tasks = [f"{k.name} (Challenge {k.challenge}, Progress {k.progress})" for k in t.tasks]
    rows.append(("Tasks", names(tasks, "task") if tasks else "none"))
    rows.append(("Rules", e(", ".join(f"{k} = {v}" for k, v in r.rules.items())
                            or "defaults (docs/rules.md)")))
    con.print(f"[bold]Session {e(r.name)}[/]")
    for label, text in rows:
        con.print(f"  {label:<8} {text}")


def _when(created: Any) -> str:
    """``2026-11-23T17:15:05+00:00`` → ``2026-11-23 17:15 UTC``."""
    from datetime import datetime

    try:
        at = datetime.fromisoformat(str(created))
    except ValueError:
        return str(created)
    zone = "UTC" if at.utcoffset() is not None and not at.utcoffset() else at.strftime("%z")
    return at.strftime("%Y-%m-%d %H:%M") + (f" {zone}" if zone else "")


@app.command(short_help="What changed, oldest first.")
def log(
    ctx: typer.Context,
    last_: Annotated[int | None, typer.Argument(
        metavar="[LAST]", show_default=False, help="How many entries (default 20).")] = None,
    last: Annotated[int | None, typer.Option(
        "--last", "-n", help="How many entries, by name (the same as LAST).")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """What changed, oldest first: each state-changing command and what it did.

    Example: d2d session log 5
    """
    last = positional_or_option(last_, last, "last", 20)
    from d2d_cli.operations import history

    render.emit(history.log(_state.target(ctx), last), _show_log, as_json=json)


def _show_log(con: Any, r: Any) -> None:  # operations.history.Log
    if not r.entries:
        con.print("Nothing logged yet.")
    for e in r.entries:
        mark = " [dim](undone)[/]" if e.undone else ""
        con.print(f"[dim]{e.at}[/]  [bold]{render.escape(e.command or '')}[/]  "
                  f"{render.escape(e.summary)}{mark}")


ForceOpt = Annotated[bool, typer.Option(
    "--force", help="Go ahead even though the file was edited by hand since d2d last "
                    "wrote it (edits elsewhere in the file are kept).")]


@app.command(short_help="Revert the last state-changing command.")
def undo(ctx: typer.Context, force: ForceOpt = False, json: _app.JsonOpt = False) -> None:
    """Revert the last state-changing command, and say what was reverted. Goes back at
    least 50 commands; refuses if the file was edited by hand since (see --force).

    Example: d2d session undo
    """
    from d2d_cli.operations import history
    from d2d_cli.rules.core.result import to_json

    reverted = history.undo(_state.target(ctx), force=force)
    render.emit({"reverted": to_json(reverted)}, _show_step("Reverted", "reverted"),
                as_json=json)


@app.command(short_help="Re-apply what the last undo reverted.")
def redo(ctx: typer.Context, force: ForceOpt = False, json: _app.JsonOpt = False) -> None:
    """Re-apply the command the last undo reverted (until another command changes the
    session).

    Example: d2d session redo
    """
    from d2d_cli.operations import history
    from d2d_cli.rules.core.result import to_json

    redone = history.redo(_state.target(ctx), force=force)
    render.emit({"redone": to_json(redone)}, _show_step("Re-applied", "redone"),
                as_json=json)


def _show_step(verb: str, key: str) -> Any:
    def show(con: Any, r: dict[str, Any]) -> None:
        e = r[key]
        con.print(f"{verb} [bold]{render.escape(e['command'] or '?')}[/] "
                  f"({render.escape(e['summary'])})")
    return show


@app.command()
def export(
    ctx: typer.Context,
    output_: Annotated[Path | None, typer.Argument(
        metavar="[FILE]", show_default=False, help="The file to write.")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The file to write, by name (the same as FILE); '-' for "
        "stdout.")] = None,
    format: Annotated[str, typer.Option(
        "--format", "-f", click_type=_complete.Names("format", _complete.words(
            "markdown", "foundry-journal", "foundry-cards")),
        help="markdown (the story, YAML frontmatter), foundry-journal (a Foundry VTT "
        "JournalEntry of it) or foundry-cards (the Fate deck as Foundry Cards: FILE the "
        "deck, FILE-discard.json the discard pile, FILE-hand-PLAYER.json each hand d2d "
        "holds).")] = "markdown",
    force: Annotated[bool, typer.Option("--force", help="Replace a file that exists.")]
    = False,
    deck_id: Annotated[str | None, typer.Option(
        "--deck-id", metavar="ID", help="foundry-cards: the _id of the Fate deck already in "
        "your Foundry world, written as every drawn card's origin.", show_default=False)]
    = None,
    json: _app.JsonOpt = False,
) -> None:
    """The session for others: its story, or its Fate deck.

    The story from the journal (rounds, conflicts and their cards, Hits, Crits, oracle
    questions and answers, clock events) as Markdown or a Foundry journal, or the Fate
    deck as Foundry Cards (docs/exports.md). A file that exists is kept unless --force;
    a symlink is replaced, never written through.

    Example: d2d session export --format markdown -o friday.md
    """
    from d2d_cli.operations import export as ops

    path = positional_or_option(output_, output, "output", what="the file to write")
    done = ops.export(_state.target(ctx), path, format=format, force=force, deck_id=deck_id)
    if done.text is not None and not json:  # -o -: the story on stdout
        render.text(done.text)
        return
    render.emit(done, lambda con, r: con.print(f"Wrote {r.format} to {', '.join(r.files)}"),
                as_json=json)
