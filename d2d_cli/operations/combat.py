"""Conflict, Hits and Crits (001 p.28 "Conflict", p.31 "Hits", l.878–955 "Crits")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.operations import Target
from d2d_cli.operations import cards as table_cards
from d2d_cli.operations import situation as situation_
from d2d_cli.operations.damage import DAMAGE, CritDamage
from d2d_cli.operations.situation import SITUATION, Situation
from d2d_cli.rules.combat import exchange
from d2d_cli.rules.core.options import Options

if TYPE_CHECKING:
    from d2d_cli.rules.combat import conflict as conflict_
    from d2d_cli.rules.combat import crits as crits_
    from d2d_cli.rules.combat import hits as hits_
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


@SITUATION.into(before="no_map")
def hit(t: Target, *cards: str, level: int | None = None, rival_level: int | None = None,
        vs: str | None = None, by: str | None = None, difficulty: int | None = None,
        stat: str | None = None, skill: str | None = None, rival_skill: str | None = None,
        skill_stat: str | None = None, advantage: bool = False, disadvantage: bool = False,
        no_map: bool = False, combo: bool = False, card: list[str] | None = None,
        heroic_feat: str | None = None, **situation: Unpack[Situation]) -> hits_.Hits:
    """``d2d hit CARD…``: the Hits of the winner's cards (a ``rules.combat.hits.Hits``);
    the options are the command's, by the same names."""
    from d2d_cli.rules.combat import hits as rules
    from d2d_cli.rules.deck.cards import parse_card

    card_codes = list(cards)
    with t.edit() as tx:  # the lock first: the Levels are the locked state's
        data = tx.data
        opts = t.options(data)
        # After a conflict: its winner, Rival, skills and card, for what is not typed.
        ex, took = exchange.remembered(data), []
        if ex is not None and not card_codes and ex.cards:
            card_codes, took = list(ex.cards), ["card"]
        if ex is not None and by is None and vs is None and level is None and \
                rival_level is None:
            by, vs, took = ex.winner, ex.rival, [*took, "units"]
            skill = skill if skill is not None else ex.skill
            rival_skill = rival_skill if rival_skill is not None else ex.rival_skill
            # what the Conflict was told (--cover b:0, --no-map…), unless typed again
            reused = {k: v for k, v in ex.told.items() if k != "no_map"
                      and situation.get(k) is None}
            situation = {**situation, **reused}  # type: ignore[typeddict-item]
            no_map_said = bool(ex.told.get("no_map")) and not no_map
            no_map = no_map or no_map_said
            if reused or no_map_said:
                took = [*took, "said"]
        terms = situation_.terms(situation, skill_stat=skill_stat, stat=stat,
                                 advantage=("a",) if advantage else (),
                                 disadvantage=("a",) if disadvantage else ())
        use_map = not no_map
        if not card_codes:
            raise BadInput("give the winning card(s), e.g. d2d hit 7S^ (or resolve a d2d "
                           "conflict between two units first: hit then takes its card)")
        combo_cards = _combo_from_hand(data, opts, by, card_codes)
        ask = rules.ask([parse_card(x) for x in card_codes], level=level,
                        rival_level=rival_level, vs=vs, combo=combo, table=table_cards(card),
                        combos=opts.combos, ten_always_hits=opts.ten_always_hits, data=data,
                        by=by, difficulty=difficulty, terms=terms, skill=skill,
                        rival_skill=rival_skill, use_map=use_map, opts=opts,
                        heroic_feat=heroic_feat,
                        said={"exchange": ex.said(took)} if ex is not None and took else None)
        deck = ask.reveals and ask.table is None
        if ask.reveals:
            from d2d_cli.operations import reveals

            with reveals(tx if deck else None, ask.table) as reveal:
                result = ask.count(reveal)
            if deck:
                tx.summary = ("revealed " + " ".join(x.code for x in reveal.used) + "; "
                              + _hits_said(result, by, vs))
                _hits(result, tx, by, vs)
        else:
            result = ask.count(None)
        if ask.feat_by is not None:  # the Feat's Character Point (checked above)
            tx.put("units", rules.spend_feat(tx.data, ask.feat_by))
            feat = f"Heroic Feat: {ask.feat_by} −1 CP"
            tx.summary = f"{tx.summary}; {feat}" if tx.summary else feat
        if combo_cards:
            result = _spend_combo(result, tx, combo_cards)
        if not deck:
            _hits(result, tx, by, vs)
    return result


def _combo_from_hand(data: Any, opts: Options, by: str | None,
                     codes: list[str]) -> tuple[str, str, list[Any]] | None:
    """Under ``[rules] hands = "d2d"``, the combo cards a Player's unit plays come from
    their hand (001 l.826 "Combo - Play cards to make an allowed set"): every card after
    the first (the Conflict's card, already played) must be held — refused here, before
    anything moves. (holder, unit, cards), or None when no hand is read."""
    from d2d_cli.rules.deck.cards import parse_card
    from d2d_cli.rules.units import hands

    holder = hands.holder_in(data, by, opts.hands, opts.narrator_hand)
    extra = [parse_card(x) for x in codes[1:]]
    if holder is None or not extra or opts.combos == "revealed":
        return None
    hands.check_held(hands.hands_of(data), holder, extra)
    return holder, str(by), extra


def _spend_combo(result: Any, tx: Any, combo: tuple[str, str, list[Any]]) -> Any:
    """The combo cards leave the hand for the discard pile, in ``hit``'s journal entry."""
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.units import hands

    held = hands.hands_of(tx.data)
    moved = hands.spend(held, combo[0], combo[1], combo[2], "combo")
    tx.put("players", hands.state_of(held))
    said = hands.spent_said(moved)
    tx.summary = f"{tx.summary}; {said}" if tx.summary else f"hit: {said}"
    return replace(result, hand=moved)


def _hits(result: Any, tx: Any, by: str | None, vs: str | None) -> None:
    """The Hits of the remembered exchange's ``hit``, kept for ``crit``."""
    rnd = exchange.with_hits(tx.data, by, vs, int(result.hits))
    if rnd is not None:
        tx.put("round", rnd)
        said = _hits_said(result, by, vs)
        if said not in tx.summary:
            tx.summary = f"{tx.summary}; {said}" if tx.summary else said


def _hits_said(result: Any, by: str | None, vs: str | None) -> str:
    """The Hits in the journal's words (the recap tells them): ``Archer: 2 Hits on
    Goblin Scout``."""
    n = int(result.hits)
    counted = f"{n} Hit{'s' if n != 1 else ''}"
    return f"{by}: {counted} on {vs}" if by and vs else counted


def _wild_holder(data: Any, opts: Options, ask: Any) -> tuple[str, str, Any] | None:
    """Under ``[rules] hands = "d2d"``, Wild Luck discards a Wild from a hand (000 l.526
    "Discard a Wild Card to cancel ALL Successes. IF reasonable THEN an adjacent Ally may
    do this instead"): the hand of the target's Player, or of ``--from``'s. Refused,
    before anything moves, when that hand holds no Wild. (holder, unit, the Wild)."""
    from d2d_cli.rules.units import hands

    if opts.hands != "d2d":
        return None
    who = ask.luck_from or ask.target
    if who is None:
        raise BadInput("--wild-luck: name whose hand the Wild comes from, --target UNIT "
                       "(or --from UNIT, an adjacent Ally: 000 l.526)")
    if ask.luck_from is not None and ask.target is not None:  # an adjacent Ally's, first
        from d2d_cli.rules.combat.damage import adjacent_ally
        from d2d_cli.rules.units.roster import find, roster_view

        units = roster_view(data)
        adjacent_ally(find(units, ask.target), find(units, ask.luck_from))
    holder = hands.holder_in(data, who, opts.hands, opts.narrator_hand)
    if holder is None:
        raise RuleViolation(f"--wild-luck: {who} holds no hand to discard a Wild from "
                            "(000 l.417 \"Non-Player Units don't have hands\")")
    h = hands.hand_for(hands.hands_of(data), holder)
    wild = next((c for c in h.hand if c.is_wild), None)
    if wild is None:
        raise RuleViolation(f"--wild-luck: {holder} holds no Wild to discard (000 l.526 "
                            "\"Discard a Wild Card to cancel ALL Successes\")")
    return holder, str(who), wild


def _spend_wild(result: Any, tx: Any, wild: tuple[str, str, Any]) -> Any:
    """The Wild of Wild Luck leaves the hand for the discard pile, in ``crit``'s entry."""
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.units import hands

    held = hands.hands_of(tx.data)
    moved = hands.spend(held, wild[0], wild[1], [wild[2]], "Wild Luck")
    tx.put("players", hands.state_of(held))
    tx.summary = f"{tx.summary}; {hands.spent_said(moved)}"
    return replace(result, hand=moved)


def location_charts(session_file: Path, opts: Options) -> dict[str, Any] | None:
    """The table's location charts from ``[rules] locations_file`` (a path relative to
    the session file's folder), else None (d2d's)."""
    name = opts.locations_file
    if not name:
        return None
    import tomllib

    path = Path(str(name)).expanduser()
    path = path if path.is_absolute() else session_file.parent / path
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise BadInput(f"[rules] locations_file {str(name)!r} cannot be read: {e}") from None


@DAMAGE.into(before=None)
def crit(t: Target, *, power: str | None = None, weapon: str | None = None,
         stat: str | None = None, by: str | None = None, armor: list[str] | None = None,
         hits: int | None = None, types: str | None = None, vehicle: bool = False,
         target: str | None = None, card: list[str] | None = None,
         luck_from: str | None = None, with_: str | None = None, armor_pierce: int = 0,
         **damage: Unpack[CritDamage]) -> crits_.Crit:
    """``d2d crit``: location, armor, Power vs Armor, severity (a
    ``rules.combat.crits.Crit``); with ``target`` the Crit is placed on the unit.
    ``damage``: the Damage Modifiers and the Difficulty (operations/damage.py). After a
    conflict (and its ``hit``), ``by``, ``target`` and ``hits`` default to its winner,
    its Rival and the Hits counted (else ``hits`` 1). ``luck_from``: the adjacent Ally
    whose Player spends the Luck and, under ``[rules] hands = "d2d"``, discards the Wild
    of Wild Luck (000 l.526, l.533); else the target's own. ``armor_pierce``: a Magic
    Power's Armor Pierce points (000 l.914), the armor met read that many scales lower."""
    from d2d_cli.operations.damage import modifiers
    from d2d_cli.rules.combat import crits as rules

    ask_damage, difficulty = modifiers(damage)
    with t.edit() as tx:  # the lock first: the exchange and the target are the locked state's
        data = tx.data
        opts = t.options(data)
        ex, took = exchange.remembered(data), []
        if ex is not None and by is None and target is None and not vehicle:
            # the winner rates a --weapon formula by its stat, or with nothing typed its
            # own weapon (Hand to Hand without one, 000 l.506); a rating needs no unit
            formula = power is None and (weapon is None or "x" not in weapon.lower())
            by, target, took = (ex.winner if formula else None), ex.rival, ["units"]
        if hits is None and ex is not None and ex.hits and (by in (None, ex.winner)
                                                            and target == ex.rival):
            hits, took = ex.hits, [*took, "hits"]
        hits = 1 if hits is None else hits
        ask = rules.CritAsk(power, weapon, stat, tuple(armor or ()), hits, types, vehicle,
                            tuple(card) if card else None, target, by, ask_damage,
                            difficulty,
                            (("exchange", ex.said(took)),) if ex is not None and took else (),
                            luck_from=luck_from, with_=with_, armor_pierce=armor_pierce)
        charts = location_charts(t.path(), opts)
        wild = _wild_holder(data, opts, ask) if ask_damage.wild_luck else None
        result = rules.crit(ask, data, tx.rng if ask.writes else None, opts, charts)
        if ask.writes:
            for key, value in result.changes.items():
                tx.put(key, value)
            tx.summary = result.summary
        if wild is not None and result.damage_modifiers is not None and any(
                st.key == "wild_luck" for st in result.damage_modifiers.steps):
            result = _spend_wild(result, tx, wild)  # 000 l.526: the Wild leaves the hand
    return result
