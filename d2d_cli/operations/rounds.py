"""Round start (refresh) and round end (upkeep), 001 p.19 and p.40."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d2d_cli.operations import Target, cards, reveals
from d2d_cli.rules.time.round_state import Round
from d2d_cli.rules.units import roster as units

if TYPE_CHECKING:  # the round's start and end import them: `round next` needs none
    from d2d_cli.rules.time import rounds
    from d2d_cli.rules.time.groups import Groups, NextUp


def start(t: Target) -> rounds.RoundStarted:
    """``d2d round start``: refresh every unit's Move, Action Cost and Turn."""
    from d2d_cli.rules.time import rounds

    with t.edit() as tx:
        rnd = Round.from_state(tx.data.get("round"))
        roster = units.roster(tx.data)
        result = rounds.start(rnd, roster, t.options(tx.data), rounds.map_of(tx.data))
        tx.put("units", units.roster_state(roster))
        tx.put("round", rnd.to_state())
        tx.summary = f"round {rnd.number} started"
    return result


def end(t: Target, *, recover: list[str] | None = None,
        card: list[str] | None = None) -> rounds.RoundEnded:
    """``d2d round end [--recover NAME=CHOICE]… [--card CARD]…``: the upkeep, once."""
    from d2d_cli.rules.time import rounds, tasks
    from d2d_cli.rules.time.clock import Clock

    with t.edit() as tx, reveals(tx, cards(card)) as reveal:
        rnd = Round.from_state(tx.data.get("round"))
        roster, board = units.roster(tx.data), tasks.board(tx.data)
        clock = Clock.from_state(tx.data.get("clock"))
        result = rounds.end(rnd, roster, board, clock, reveal, recover,
                            tx.data.get("scene", {}).get("reserves", {}))
        for key, value in (("units", units.roster_state(roster)), ("clock", clock.to_state()),
                           ("tasks", tasks.board_state(board)), ("round", rnd.to_state())):
            tx.put(key, value)
        tx.summary = f"round {rnd.number} ended, clock {clock.value}"
        if t.options(tx.data).hands == "d2d" and tx.data.get("players"):
            result = _draw(tx, result)
    return result


def _draw(tx: Any, result: rounds.RoundEnded) -> rounds.RoundEnded:
    """Round end's Draw with d2d holding the hands: each Player draws a card (001 l.1037
    "Draw - Each Player draws a card"), none past 10."""
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.time import rounds
    from d2d_cli.rules.units import hands

    held = hands.hands_of(tx.data)
    drew = hands.round_draw(held, tx.rng())
    tx.put("players", hands.state_of(held))
    tx.summary += "; " + ", ".join(d.summary for d in drew)
    first = result.steps[0]
    assert isinstance(first, rounds.DrawStep)
    return replace(result, steps=(replace(first, hands=drew), *result.steps[1:]))


def groups(t: Target) -> Groups:
    """``d2d round groups``: who resolves with whom this round (001 l.475–477)."""
    from d2d_cli.rules.time import groups as g

    data = t.read()
    rnd = Round.from_state(data.get("round"))
    return g.groups(units.roster(data), rnd.number, rnd.phase)


def next(t: Target) -> NextUp:  # noqa: A001 - the command's name (d2d round next)
    """``d2d round next``: who acts next by the Countdown in each Group (001 l.499–505)."""
    from d2d_cli.rules.time import groups as g

    data = t.read()
    rnd = Round.from_state(data.get("round"))
    return g.next_up(units.roster(data), rnd.number, rnd.phase)
