"""``d2d roll``: dice and cards from an expression or a system's procedure
(docs/rules.md "Dice notation")."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target, cards

if TYPE_CHECKING:
    from d2d_cli.rules.roll import notation as dn
    from d2d_cli.rules.roll import systems


def roll(t: Target, *expression: str, system: str | None = None,
         odds: bool = False, fresh: bool = False,
         card: list[str] | None = None) -> dn.RollResult | dn.RollOdds:
    """``d2d roll EXPR… [--system NAME|FILE] [--odds [--fresh]] [--card CARD]…``: roll
    once (a ``RollResult``) or, with ``odds``, the exact distribution (``RollOdds``).
    ``expression`` is the words of the command line (with ``system``: the procedure and
    its ``--options``)."""
    from d2d_cli.rules.roll import notation as dn

    text, sys_name, proc = _expression(t, system, list(expression))
    e = dn.parse(text)
    table = cards(card)
    if odds:
        if table is not None:
            raise BadInput("--card is for rolling; --odds reads the deck without drawing")
        fate, deck = _fate_counts(t, e, fresh)
        return dn.odds(e, fate, deck=deck, system=sys_name, procedure=proc)
    if fresh:
        raise BadInput("--fresh is for --odds (to roll from a fresh deck, write Ncf)")
    needed = e.fate_cards
    if not needed:
        if table is not None:
            raise BadInput("--card gives Fate cards for Nc terms; this roll draws none")
        return dn.roll(e, _dice_rng(t), None, system=sys_name, procedure=proc)

    def body(reveal: Any) -> dn.RollResult:
        # Cards from the session's Fate deck: one journalled edit, whose randomness
        # then also rolls the dice.
        rng = reveal.rng if reveal.rng is not None else _dice_rng(t)
        return dn.roll(e, rng, reveal, system=sys_name, procedure=proc)

    result: dn.RollResult = t.with_reveals(table, body)[0]
    return result


def system_of(t: Target, name: str) -> systems.System:
    """A packaged system by name, or a table's own file (relative to the session)."""
    from d2d_cli.rules.roll import systems

    if not name.lower().endswith(".toml"):
        return systems.load(name)
    import tomllib

    path = Path(name).expanduser()
    path = path if path.is_absolute() or path.exists() else t.path().parent / path
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise BadInput(f"--system {name!r} cannot be read: {err}") from None
    return systems.from_data(data, name)


def _expression(t: Target, system: str | None,
                words: list[str]) -> tuple[str, str | None, str | None]:
    if system is None:
        return " ".join(words), None, None
    from d2d_cli.rules.roll import systems

    sysdef = system_of(t, system)
    if not words:
        raise BadInput(f"--system {sysdef.name}: give a procedure: " + "; ".join(
            p.usage() for p in sysdef.procedures.values()))
    proc = sysdef.procedure(words[0])
    return systems.expand(proc, words[1:]), sysdef.name, proc.name


def _fate_counts(t: Target, e: dn.Expression,
                 fresh: bool) -> tuple[dn.FateCounts | None, str | None]:
    from d2d_cli.rules.roll import notation as dn

    if not e.fate_terms():
        return None, None
    if fresh:
        return dn.FateCounts.fresh(), "fresh"
    from d2d_cli.rules.deck import fate

    deck = fate.Deck.from_state(t.read().get("fate"))
    return dn.FateCounts(tuple(sorted(x.face for x in deck.draw))), "session"


def _dice_rng(t: Target) -> random.Random:
    """--seed makes a roll repeatable; otherwise dice need no session at all."""
    return random.Random(f"d2d:{t.seed}:roll") if t.seed is not None else random.Random()
