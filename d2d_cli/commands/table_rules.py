"""``d2d rules …`` — the table's à la carte rules (the session's ``[rules]``): shown with
their values, defaults and meanings; set and unset by name, journalled and undoable."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _state
from d2d_cli.commands._app import D2DSubGroup
from d2d_cli.operations import table_rules as ops
from d2d_cli.rules.core import options


class ShowWhenBare(D2DSubGroup):
    """``d2d rules`` (and ``d2d rules --json``) is ``d2d rules show``: the rules are
    what a Narrator asks for first."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if all(a == "--json" for a in args) and not ctx.resilient_parsing:
            args = ["show", *args]
        return super().parse_args(ctx, args)


app = _app.group("rules", cls=ShowWhenBare)

KeyArg = Annotated[str, typer.Argument(
    click_type=_complete.Names("rule", _complete.words(*(o.key for o in options.OPTIONS))),
    help="The rule's key, e.g. hands (d2d rules lists them).")]


@app.command(short_help="Every rule: its value, default and meaning.")
def show(ctx: typer.Context, json: _app.JsonOpt = False) -> None:
    """Every rule of the table with the session's value, the default (the rule text's
    reading) and one line of what it switches; * marks a rule set away from its default.
    docs/rules.md explains each with the text it rests on.

    Example: d2d rules
    """
    render.emit(ops.show(_state.target(ctx)), _show_all, as_json=json)


@app.command("set", short_help="Set one rule (checked, journalled, undoable).")
def set_(ctx: typer.Context, key: KeyArg,
         value: Annotated[str, typer.Argument(help="Its value: a word it takes, a number, "
                                              "or true/false.")],
         json: _app.JsonOpt = False) -> None:
    """Set one rule for this session. A key or value d2d does not take is refused with
    the nearest one, nothing changed; d2d session undo takes it back. Turning hands to
    d2d deals every Player 5 cards, as d2d hand deal does.

    Example: d2d rules set hands d2d
    """
    render.emit(ops.set_(_state.target(ctx), key, value), _show_change, as_json=json)


@app.command(short_help="Put one rule back to its default.")
def unset(ctx: typer.Context, key: KeyArg, json: _app.JsonOpt = False) -> None:
    """Put one rule back to its default (the key leaves the session file).

    Example: d2d rules unset cover
    """
    render.emit(ops.unset(_state.target(ctx), key), _show_change, as_json=json)


def _show_all(con: Any, r: options.RulesView) -> None:
    rows = [("*" if x.changed else " ", x.key, options.shown(x.value),
             options.shown(x.default), x.meaning) for x in r.rules]
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    w[1], w[2], w[3] = max(w[1], 4), max(w[2], 5), max(w[3], 7)
    con.print(f"[bold]  {'rule':<{w[1]}}  {'value':<{w[2]}}  {'default':<{w[3]}}  "
              "meaning[/]")
    for mark, key, value, default, meaning in rows:
        con.print(render.escape(f"{mark} {key:<{w[1]}}  {value:<{w[2]}}  {default:<{w[3]}}  ")
                  + f"[dim]{render.escape(meaning)}[/]")
    if any(x.changed for x in r.rules):
        con.print("[dim]* set away from its default: d2d rules unset KEY puts it back[/]")


def _show_change(con: Any, r: options.RuleChange) -> None:
    if r.value == r.was:
        con.print(f"{r.key} stays {render.escape(options.shown(r.value))}")
    else:
        con.print(f"{r.key}: {render.escape(options.shown(r.was))} → "
                  f"{render.escape(options.shown(r.value))}  [dim]{render.escape(r.meaning)}[/]")
    for h in r.dealt:
        con.print(f"Dealt {render.escape(h.player)} {h.hand} cards (d2d hand show "
                  f"{render.escape(h.player)})")
