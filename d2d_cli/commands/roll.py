"""``d2d roll EXPR`` — dice and deck notation, rolled or as exact odds; ``--system``
runs a neighbouring game's procedures from ``tables/systems/*.toml``."""

from typing import Annotated, Any

import typer

from d2d_cli import render
from d2d_cli.commands import _app, _complete, _reveal, _state
from d2d_cli.rules.roll import notation as dn

app = _app.single("roll")

_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True,
          "help_option_names": ["-h", "--help"]}
_HELP = ("-h", "--help")


class RollCommand(_app.D2DCommand):
    """``d2d roll``; with ``--system NAME`` its ``--help`` is the system's own: the list
    of its procedures, or one procedure's parameters and what each value means (read
    from the system's TOML, so a table's own file documents itself)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing and any(a in _HELP for a in args):
            flags = {o for p in self.params if getattr(p, "is_flag", False) for o in p.opts}
            system, procedure = _system_words(args, flags)
            if system is not None:
                typer.echo(_system_help(ctx, system, procedure))
                ctx.exit(0)
        return super().parse_args(ctx, args)


@app.command(cls=RollCommand, context_settings=_EXTRA)
def roll(
    ctx: typer.Context,
    expression: Annotated[list[str] | None, typer.Argument(
        metavar="EXPR", click_type=_complete.PROCEDURE,
        help="The expression (quote it, or give it as words), or with --system the "
        "procedure and its --options.")] = None,
    system: Annotated[str | None, typer.Option(
        "--system", metavar="NAME|FILE", click_type=_complete.SYSTEM,
        help="A system of procedures: hero (seed 002), "
        "poker (003), drgn (004), or the path of your own .toml.")] = None,
    odds: Annotated[bool, typer.Option(
        "--odds", help="Show the exact distribution instead of rolling.")] = False,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="With --odds: Fate-deck cards (Nc) from a full deck, not the "
        "session's draw pile.")] = False,
    card: _reveal.CardOpt = None,
    json: _app.JsonOpt = False,
) -> None:
    """Roll dice and cards: NdS (d% dF d{1,1,2,3} d{11..20}); keep/drop kh kl dh dl;
    explode ! (on the top face, or !>=N; at most 10 times, or xN up to 100); reroll r
    (until not) and ro (once); count successes >= <= = (a bare > or < is refused);
    + - * / (/ rounds down) and ( ); {a, b, …}kh1 keeps among expressions; [labels];
    # comments. Cards: Nc from the session's Fate deck (journalled: d2d session undo),
    Ncf a fresh Fate deck, Ncp a poker deck; a card counts its rank (A 1 … K 13, Wild
    0), or =hearts, =AH, >=10 count cards. "vs TARGET [per N] [max M]" reads success
    and degrees; "crit N" / "fumble N" read the first term's natural value; "-> 1: fail,
    2-7: worse, 8..13: normal, 14+: better, else: other" reads a band. --odds gives the
    exact distribution (every limit is checked first: docs/rules.md "Dice notation").
    Dice come from --seed when given, else from the system's randomness; cards from the
    Fate deck use the session's seed like every reveal.

    d2d roll --system hero --help lists a system's procedures; d2d roll --system hero
    check --help gives one procedure's parameters and what each value means.

    Example: d2d roll "d20 + 5 vs 15 per 5"
    """
    from d2d_cli.operations import roll as ops

    result = ops.roll(_state.target(ctx), *(expression or []), *ctx.args, system=system,
                      odds=odds, fresh=fresh, card=card)
    render.emit(result, _show_odds if odds else _show_roll, as_json=json)


def _system_words(args: list[str], flags: set[str]) -> tuple[str | None, str | None]:
    """The ``--system`` given on a command line, and the procedure named after it (the
    first word that is neither an option nor an option's value)."""
    system = procedure = None
    i = 0
    while i < len(args):
        tok = args[i]
        name, eq, value = tok.partition("=")
        if name == "--system":
            system = value if eq else (args[i + 1] if i + 1 < len(args) else None)
            i += 1 if eq else 2
            continue
        if tok.startswith("-"):  # another option: a following word is its value
            i += 1 if eq or tok in _HELP or tok in flags else 2
            continue
        procedure = procedure or tok
        i += 1
    return system, procedure


def _system_help(ctx: typer.Context, name: str, procedure: str | None) -> str:
    """``--help`` of a system (its procedures) or of one of its procedures."""
    import textwrap

    from d2d_cli.operations import roll as ops

    sysdef = ops.system_of(_state.target(ctx), name)
    width = 79

    def rows(pairs: list[tuple[str, str]]) -> list[str]:
        left = min(max(len(k) for k, _ in pairs) + 2, 24)
        out = []
        for key, text in pairs:
            body = _wrap(text, width - left - 2)
            if len(key) + 2 > left:
                out += [f"  {key}", *(" " * (left + 2) + b for b in body)]
            else:
                out += [f"  {key.ljust(left)}{body[0]}", *(" " * (left + 2) + b
                                                          for b in body[1:])]
        return out

    if procedure is None:
        lines = [f"Usage: d2d roll --system {name} PROCEDURE [--NAME VALUE]...", "",
                 f"  {sysdef.name}: {sysdef.title}", "", "Procedures:"]
        lines += rows([(p.usage(), p.help) for p in sysdef.procedures.values()])
        first = next(iter(sysdef.procedures))
        lines += ["", f"The parameters of one: d2d roll --system {name} {first} --help"]
        return "\n".join(lines)
    proc = sysdef.procedure(procedure)
    lines = [f"Usage: d2d roll --system {name} {proc.usage()} [--odds] [--json]", ""]
    lines += ["  " + x for x in textwrap.wrap(proc.help, width - 2)] if proc.help else []
    if proc.params:
        lines += ["", "Parameters:"]
        lines += rows([(f"--{p.option} {p.metavar}", p.describe()) for p in proc.params])
    lines += ["", "Expression:", f"  {proc.expression}"]
    return "\n".join(lines)


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most ``width``, broken after a comma or a full stop where it can (so
    ``2 → + d6`` stays on one line), else between words."""
    import re
    import textwrap

    lines: list[str] = []
    for chunk in re.split(r"(?<=[,.;]) ", text):
        if lines and len(lines[-1]) + 1 + len(chunk) <= width:
            lines[-1] += " " + chunk
        else:
            lines += textwrap.wrap(chunk, width, break_on_hyphens=False) or [""]
    return lines or [""]


def _show_roll(con: Any, r: dn.RollResult) -> None:

    if r.system:
        con.print(f"[dim]{r.system} {r.procedure}: {render.escape(r.expression)}[/]")
    for t in r.terms:
        label = f" [{render.escape(t.label)}]" if t.label else ""
        con.print(f"  {render.escape(t.term)}{label}: {_detail(t)} = {t.value}")
    con.print(f"[bold]Total: {r.total}[/]")
    if r.target is not None:
        verdict = "[green]success[/]" if r.success else "[red]failure[/]"
        n = abs(r.degrees or 0)
        con.print(f"vs {r.target} (margin {r.margin:+d}): {verdict}, {n} degree"
                  f"{'s' if n != 1 else ''}")
    if r.crit:
        con.print(f"[green]Natural {r.natural}: crit[/]")
    if r.fumble:
        con.print(f"[red]Natural {r.natural}: fumble[/]")
    if r.band is not None:
        con.print(f"→ [bold]{render.escape(r.band)}[/]")
    if r.comment:
        con.print(f"[dim]# {render.escape(r.comment)}[/]")
    if r.reshuffled:
        con.print("[yellow]The draw pile ran out: the discard pile was shuffled back in.[/]")


def _detail(t: dn.TermRoll) -> str:
    """[6, 3, 5, ~~1~~] for dice (~~dropped~~), {…} for a group, cards by code (a poker
    card has no orientation). Markup-safe."""

    if t.kind in ("fate", "fresh", "poker"):
        shown = [c.face if t.kind == "poker" else c.code for c in t.cards]
    else:
        shown = [str(v) for v in t.dice]
    parts = ", ".join(x if k else f"~~{x}~~" for x, k in zip(shown, t.kept, strict=True))
    body = f"{{{parts}}}" if t.kind == "group" else f"[{parts}]"
    notes = f" ({'; '.join(t.notes)})" if t.notes else ""
    return render.escape(body + notes)


def _show_odds(con: Any, r: dn.RollOdds) -> None:

    from d2d_cli.commands._bars import bars, binned

    head = f"{r.system} {r.procedure}: " if r.system else ""
    deck = {"session": " (Fate cards from the session's draw pile)",
            "fresh": " (Fate cards from a fresh deck)"}.get(r.deck or "", "")
    con.print(f"[bold]{render.escape(head + r.expression)}[/]{deck}")
    bars(con, binned([(o.value, o.probability) for o in r.outcomes]))
    con.print(f"Mean {r.mean_value:.4g} [dim]({r.mean})[/]")
    if r.success is not None:
        con.print(f"Success: [bold]{r.success.percent}[/] [dim]({r.success.fraction})[/]")
    if r.degrees:
        bars(con, [(f"{d.degrees:+d}", d.probability) for d in r.degrees],
             title="Degrees (+ success, − failure)")
    for name, p in (("Crit", r.crit), ("Fumble", r.fumble)):
        if p is not None:
            con.print(f"{name}: {p.percent} [dim]({p.fraction})[/]")
    if r.bands:
        bars(con, [(b.band, b.probability) for b in r.bands], title="Bands")
