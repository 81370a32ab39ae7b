"""The Players' hands, held by d2d under ``[rules] hands = "d2d"`` (issue 31;
``rules.units.hands``): deal, show one Player's hand, choose a card face down, draw, Gain:A.

:func:`choose` is the one path for a face-down choice — the ``hand choose`` command and
``d2d serve``'s player page both call it. Its journal label never names the card.
"""

from __future__ import annotations

from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.units import hands as rules


def _holders(data: dict[str, Any], t: Target, player: str | None) -> list[str]:
    opts = t.options(data)
    rules.require(opts.hands)
    every = rules.holders(data, opts.narrator_hand)
    if player is None:
        if not every:
            raise BadInput("no Player to deal to: give a unit a Player (d2d unit side NAME "
                           "--player NAME) or name the players in the scene's [factions]")
        return every
    folded = {p.lower(): p for p in every}
    if player.lower() not in folded:
        raise BadInput(f"{player!r} is not a Player of this session (Players: "
                       f"{', '.join(every) or 'none'})")
    return [folded[player.lower()]]


def deal(t: Target, player: str | None = None) -> rules.Dealt:
    """``d2d hand deal [PLAYER]``: a scene's start for a table mid-scene — every Player
    (or one) gets a fresh Conflict Deck and 5 new cards (000 l.401)."""
    with t.edit() as tx:
        who = _holders(tx.data, t, player)
        hands = rules.hands_of(tx.data)
        result = rules.deal(hands, who, tx.rng())
        tx.put("players", rules.state_of(hands))
        tx.summary = result.summary
    return result


def show(t: Target, player: str) -> rules.HandView:
    """``d2d hand show PLAYER``: that Player's hand, and only theirs."""
    data = t.read()
    rules.require(t.options(data).hands)
    return rules.view(data, rules.hands_of(data), player)


def choose(t: Target, unit: str, card: str, *, player: str | None = None) -> rules.Choice:
    """``d2d hand choose UNIT CARD``: the unit's Player puts CARD (e.g. ``7S^``: the
    orientation is theirs to choose, 000 l.412–413) face down for its coming Conflict
    (001 l.732). Any order, either side; the card is named nowhere but in the session
    file and its owner's ``hand show``.

    ``player``: who asks (``d2d serve``'s player page) — UNIT must be one of theirs,
    checked inside the locked write, so a unit handed over meanwhile is refused."""
    from d2d_cli.rules.units import sides
    from d2d_cli.rules.units.roster import find, roster_view

    picked = parse_card(card)
    with t.edit() as tx:
        if player is not None and unit not in sides.units_of(tx.data, player):
            raise BadInput(f"{unit!r} is not one of {player}'s units")
        opts = t.options(tx.data)
        rules.require(opts.hands)
        who = find(roster_view(tx.data), unit)
        holder = rules.holder_of(tx.data, who, opts.narrator_hand)
        hands = rules.hands_of(tx.data)
        result = rules.choose(hands, holder, who.name, picked)
        tx.put("players", rules.state_of(hands))
        tx.summary = result.summary
    return result


def draw(t: Target, player: str, n: int = 1) -> rules.Drew:
    """``d2d hand draw PLAYER [N]``: draw cards (Fast's or Block's "Draw a card", 001
    l.738, l.744, when the table says so), never past 10."""
    if not 1 <= n <= rules.HAND_MAX:
        raise BadInput(f"draw 1 to {rules.HAND_MAX} cards, not {n}")
    with t.edit() as tx:
        name = _holders(tx.data, t, player)[0]
        hands = rules.hands_of(tx.data)
        result = rules.draw(hands, name, n, tx.rng())
        tx.put("players", rules.state_of(hands))
        tx.summary = result.summary
    return result


def gain(t: Target, player: str) -> rules.Drew:
    """``d2d hand gain PLAYER``: Gain:A (000 l.1197)."""
    with t.edit() as tx:
        name = _holders(tx.data, t, player)[0]
        hands = rules.hands_of(tx.data)
        result = rules.gain(hands, name)
        tx.put("players", rules.state_of(hands))
        tx.summary = result.summary
    return result


def deal_at_scene_start(data: dict[str, Any], opts: Any, rng: Any) -> dict[str, Any] | None:
    """The ``[players]`` table a scene's start deals (``scene load``), or None when the
    table holds its own cards."""
    if opts.hands != "d2d":
        return None
    hands: dict[str, rules.Hand] = {}
    rules.deal(hands, rules.holders(data, opts.narrator_hand), rng)
    return rules.state_of(hands)


__all__ = ["choose", "deal", "deal_at_scene_start", "draw", "gain", "show"]
