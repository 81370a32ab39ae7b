"""Hits (001 p.31 "Hits"): ``d2d hit``, after a Conflict or on its own. A module apart
from the Conflict's (operations/combat.py): a conflict imports neither the Hits' code
nor the combos taken from a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Unpack

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target
from d2d_cli.operations import cards as table_cards
from d2d_cli.operations import situation as situation_
from d2d_cli.operations.situation import SITUATION, Situation
from d2d_cli.rules.combat import exchange
from d2d_cli.rules.core.options import Options

if TYPE_CHECKING:
    from d2d_cli.rules.combat import hits as hits_


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
