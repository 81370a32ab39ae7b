"""Conflict (001 p.28 "Conflict"; Hits: operations/hits.py, Crits: operations/crits.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Unpack

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target
from d2d_cli.operations import cards as table_cards
from d2d_cli.operations import situation as situation_
from d2d_cli.operations.situation import SITUATION, Situation
from d2d_cli.rules.combat import exchange
from d2d_cli.rules.core.options import Options

if TYPE_CHECKING:
    from d2d_cli.rules.combat import conflict as conflict_
    from d2d_cli.rules.deck.cards import Card
    from d2d_cli.session import Transaction


@SITUATION.into(before="obstacle", after={"obstacle": "cover"})
def conflict(t: Target, *sides: str, level_a: int | None = None, level_b: int | None = None,
             skill: str | None = None, rival_skill: str | None = None,
             skill_stat: str | None = None, advantage: list[str] | None = None,
             disadvantage: list[str] | None = None, obstacle: list[str] | None = None,
             no_map: bool = False, stat: str | None = None, spent: bool | None = None,
             card: list[str] | None = None, gain: str | None = None,
             counter: str | None = None,
             ask_gain: Callable[[str, list[str]], str] | None = None,
             **situation: Unpack[Situation]
             ) -> conflict_.Conflict | conflict_.Redirected | conflict_.Chart:
    """``d2d conflict SIDE_A SIDE_B`` (or ``chart``): who wins and what each side gets
    (a ``rules.combat.conflict`` result). ``advantage``/``disadvantage``: the sides
    (``["a"]``); ``situation`` the situational options (operations/situation.py); the
    other options are the command's, by the same names. ``gain``: the card a Player's
    winning Wild takes from their discard pile (000 l.444–445), under ``[rules] hands =
    "d2d"``. ``counter``: the card a Player's side counter-attacks with if its Counter
    wins (001 l.754; from the hand under ``hands = "d2d"``, else the best one held).
    ``ask_gain(player, faces)``: a terminal's question for the Wild's gain."""
    from d2d_cli.rules.combat import conflict as rules
    from d2d_cli.rules.deck.cards import parse_card

    terms = situation_.terms(situation, skill_stat=skill_stat, stat=stat,
                             advantage=tuple(advantage or ()),
                             disadvantage=tuple(disadvantage or ()))
    use_map = not no_map
    table = table_cards(card)
    if list(sides) == ["chart"]:  # a lookup: the table's reading of the chart
        return rules.chart_result(t.options(t.read()).conflict_chart, table)
    said = exchange.said_of(dict(situation), no_map)  # what hit reads back: typed once
    # Cards or approaches alone name no unit, so no Player's hand: none is read
    # (a --gain or --counter is still answered by the hands' own checks).
    cards_only = rules.unitless(list(sides)) and gain is None and counter is None

    def asked_of(opts: Options) -> Callable[[list[str], dict[str, Any]],
                                            conflict_.ConflictAsk]:
        def asked(typed: list[str], data: dict[str, Any]) -> conflict_.ConflictAsk:
            return rules.ask(typed, data, table, level_a=level_a, level_b=level_b,
                             terms=terms, skill=skill, rival_skill=rival_skill,
                             obstacles=tuple(obstacle or ()), reading=opts.conflict_chart,
                             fate_orientation=opts.fate_orientation,
                             level_bonus=opts.level_bonus, use_map=use_map, spent=spent,
                             target_action=opts.target_action, opts=opts,
                             counter_card=parse_card(counter) if counter else None)
        return asked

    if cards_only and not any(":hand" in x.lower() for x in sides):
        # Approaches or the table's cards, no Fate to reveal and no exchange of the
        # round to forget: the session stays as it is, so the Conflict is a lookup,
        # answered from a read without the lock (another Target: this one may still
        # take it). Anything else is done below, all read again under the lock.
        peek = t.peek()
        data = peek.read(shared=True)  # only read (tests/test_play_reads.py)
        ask = asked_of(peek.options(data))(list(sides), data)
        if not (ask.reveals and table is None):
            out, _ = _resolve(None, ask, table)
            if exchange.remembered(data) is None or \
                    exchange.after_conflict(data, out, said) is None:
                return out
    # A change (the Fate deck, the round's exchange, the hands): the lock is taken
    # first and every Level, Cover and Range is read from the locked state.
    with t.edit() as tx:
        data = tx.data
        opts = t.options(data)
        asked = asked_of(opts)
        if (opts.hands == "d2d" and not cards_only) or any(":hand" in x.lower()
                                                          for x in sides):
            return _from_hands(tx, list(sides), opts, table, asked,
                               parse_card(gain) if gain else None, counter is not None,
                               ask_gain, said)
        if gain:
            raise BadInput("--gain names the card a Player's winning Wild takes from their "
                           'discard pile: only when d2d holds the hands ([rules] hands = '
                           '"d2d")')
        ask = asked(list(sides), data)
        remembered = exchange.remembered(data) is not None
        out, _ = _resolve(tx, ask, table)
        if (ask.reveals and table is None) or exchange.of_conflict(out) is not None \
                or remembered:
            _remember(out, tx, said)
        return out


def _resolve(tx: Transaction | None, ask: conflict_.ConflictAsk, table: list[Card] | None
             ) -> tuple[conflict_.Conflict | conflict_.Redirected, list[Card]]:
    """Resolve the Conflict, revealing from the Fate deck (journalled in ``tx``, the
    log saying how each card was read) or from the table's cards; the result carries
    the cards it turned to read by colour (``Conflict.turned``, for the view). ``tx``
    None: nothing is revealed from the Fate deck (a lookup)."""
    from d2d_cli.operations import reveals
    from d2d_cli.rules.combat.conflict import Conflict
    from d2d_cli.rules.core.record import replace

    used: list[Card] = []
    if ask.reveals:
        with reveals(tx if table is None else None, table) as reveal:
            out = ask.resolve(reveal)
        used = list(reveal.used)
        if table is None and tx is not None:
            note = _journal_note(out, used)
            tx.summary = "revealed " + " ".join(x.code for x in used) + (
                f"; {note}" if note else "")
    else:
        out = ask.resolve(None)
    if isinstance(out, Conflict) and used:
        turned = read_by_colour(out, used)
        if turned:
            out = replace(out, turned=tuple(turned))
    return out, used


def _remember(result: Any, tx: Any, said: dict[str, Any] | None = None) -> None:
    """Keep the Conflict in the round for ``hit`` and ``crit`` (rules/combat/exchange.py),
    with what it was told (``said``), or forget the one before when this one leaves
    nothing to hit with."""
    won = getattr(result, "summary", None)  # who beat whom, for the journal and the recap
    if isinstance(won, str) and won.startswith("Conflict:") and won not in tx.summary:
        tx.summary = f"{won}; {tx.summary}" if tx.summary else won
    rnd = exchange.after_conflict(tx.data, result, said)
    if rnd is None:
        return
    tx.put("round", rnd)
    kept = rnd.get(exchange.KEY)
    if not tx.summary:
        tx.summary = (f"conflict: {kept['winner']} may hit {kept['rival']}" if kept
                      else "conflict: nobody to hit")


def _from_hands(tx: Transaction, sides: list[str], opts: Options, table: list[Card] | None,
                asked: Callable[[list[str], dict[str, Any]], conflict_.ConflictAsk],
                gain: Card | None = None, named: bool = False,
                ask_gain: Callable[[str, list[str]], str] | None = None,
                said: dict[str, Any] | None = None
                ) -> conflict_.Conflict | conflict_.Redirected:
    """A Conflict whose cards may come from the Players' hands (``[rules] hands =
    "d2d"``): ``NAME:hand:CARD``, a card chosen face down (``hand choose``), or a Stay
    (``NAME:stay``). Both are revealed at once; the cards move as 001 l.736–758 say
    (rules.units.hands.settle), in the same journal entry as the Fate cards revealed."""
    from d2d_cli.rules.combat.conflict import Conflict
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.units import hands
    from d2d_cli.rules.units.roster import roster_view

    typed, plays = hands.sides_from_hands(sides, tx.data, roster_view(tx.data),
                                          opts.hands, opts.narrator_hand)
    out, _ = _resolve(tx, asked(typed, tx.data), table)
    if not isinstance(out, Conflict):  # the Cover reveal named an obstacle: no card
        _remember(out, tx, said)  # moves (one face down stays)
        return out
    held = hands.hands_of(tx.data)
    moves = hands.settle(held, plays, (tuple(e.key for e in out.effects.a),
                                       tuple(e.key for e in out.effects.b)),
                         (out.side_a.unit, out.side_b.unit), tx.rng(),
                         (out.side_a.card, out.side_b.card), gain, named=True,
                         ask=ask_gain)
    out = replace(out, hands=moves)
    spent = _counter_from_hand(out, tx.data, held, opts, named)
    if spent is not None:
        out = replace(out, counter=spent[0])
    _remember(out, tx, said)  # the exchange, for hit and crit (as without hands)
    if moves or spent is not None:
        tx.put("players", hands.state_of(held))
    moved = "; ".join([*(hands.said(m) for m in moves),
                       *([hands.spent_said(spent[1])] if spent else [])])
    if moved:
        tx.summary = f"{tx.summary}; {moved}" if tx.summary else moved
    return out


def _counter_from_hand(out: Any, data: Any, held: Any, opts: Options,
                       named: bool) -> tuple[Any, Any] | None:
    """A Player's counter-attack card comes from their hand (001 l.754 "Counterattack
    with a Fast or Strong"): the one named (``--counter``, refused when not held), else
    the best one held (rules.units.hands.counter_card); it leaves the hand for the
    discard pile. (the CounterAttack with its card, the hand's Spent), or None."""
    from d2d_cli.rules.combat.conflict import counter_attack, counter_card
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.units import hands

    c = out.counter
    if c is None or c.source not in ("named", "counter") or c.reading == "000":
        return None
    holder = hands.holder_in(data, c.unit, opts.hands, opts.narrator_hand)
    if holder is None:
        return None
    h = hands.hand_for(held, holder)
    card = c.card if named and c.card is not None else counter_card(h.hand)
    if card is None:
        return replace(c, source="hand"), hands.Spent(holder, c.unit, (), "no card to "
                                                      "counter-attack with", len(h.hand))
    moved = hands.spend(held, holder, c.unit, [card], "counter-attack")
    played = counter_attack(c.side, c.unit, card, "named" if named else "hand", c.reading,
                            None)
    return played, moved


def read_by_colour(r: Any, revealed: list[Any]) -> list[tuple[str, Any, Any, str]]:
    """Each Fate card a conflict's side revealed and turned to read it by its colour
    (000 l.420 "Non-Player Units reveal a Fate where Black means Upper and Red means
    Lower"): (side, the card as revealed, as read, why: "red → Lower for a
    Non-Player"). A card already lying the way its colour reads is not listed; with
    ``[rules] fate_orientation = "card"`` none is."""
    lay = {c.face: c for c in revealed}
    out = []
    for name, side in (("A", getattr(r, "side_a", None)), ("B", getattr(r, "side_b", None))):
        if side is None:
            continue
        who = " for a Non-Player" if side.source == "fate" else ""
        for card in side.revealed:
            was = lay.get(card.face)
            if was is not None and was.upper != card.upper:
                out.append((name, was, card,
                            f"{card.color} → {card.orientation.capitalize()}{who}"))
    return out


def _journal_note(r: Any, revealed: list[Any]) -> str:
    """The journal's words for the cards turned by colour: the log says what was shown."""
    turned = read_by_colour(r, revealed)
    return ("read by colour: " + ", ".join(f"{side} {was.code} as {card.code} ({why})"
                                           for side, was, card, why in turned)) if turned else ""
