"""The exchange's fifth cut (issue 40 item 1): what a fight reads of a card or a Standing
again and again is worked out once and kept on it, and a fight's Conflict and Hits skip
steps that add nothing (one pair to keep, only the Target's Action said
this round). Each test checks the kept answer against
the rule written out afresh here (not through the code under test), for every card, and
fails when one card's answer is handed to another; tests/test_sim.py pins whole fights
byte for byte."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.combat import conflict, hits, remembered
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck import advantage
from d2d_cli.rules.deck.cards import Card, full_deck, parse_card

# The deck as the rules deal it (000 "Terms", 001 p.5), written out for the test: the
# letter of each suit, its colour, and the ranks' numbers A=1 ... K=13.
_LETTER = {"wands": "C", "coins": "D", "cups": "H", "swords": "S"}
_COLOUR = {"wands": "black", "coins": "red", "cups": "red", "swords": "black"}
_NUMBER = {r: i for i, r in enumerate(
    ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), 1)}


def _expected(card: Card) -> tuple[str, bool, str, int | None]:
    """A card's face, whether it is a Wild, its colour and its number, from its fields."""
    if card.rank == "W":
        colour = card.wild_color or "black"
        return ("BW" if colour == "black" else "RW"), True, colour, None
    assert card.suit is not None
    return (f"{card.rank}{_LETTER[card.suit]}", False, _COLOUR[card.suit],
            _NUMBER[card.rank])


def _read(card: Card) -> tuple[str, bool, str, int | None]:
    return card.face, card.is_wild, card.color, card.number


def test_what_a_card_keeps_is_its_own_rule_for_each_of_the_108_outcomes() -> None:
    """Every outcome of the Fate deck (54 faces, each Upper and Lower) reads its face,
    Wild, colour and number as the rule gives them — read in one order, then again in
    the other (what one card kept is never another's), and the same read twice."""
    outcomes = [c.flipped(u) for c in full_deck() for u in (True, False)]
    assert len(set(outcomes)) == 108
    first = {c.code: _read(c) for c in outcomes}
    for card in reversed(outcomes):
        assert _read(card) == _expected(card) == first[card.code]
    # each face's two orientations share the face, the colour and the number only
    for card in full_deck():
        up, down = card.flipped(True), card.flipped(False)
        assert up is not down and _read(up) == _read(down)


def test_a_card_built_or_rebuilt_reads_its_own_fields() -> None:
    """A card made outside the deck, one parsed from each notation, a Wild of either
    colour and a card pickled to a worker (rebuilt from its fields only) each read what
    their own fields give, whatever another equal card kept."""
    kept = parse_card("QH^")
    assert _read(kept) == ("QH", False, "red", 12)
    loose = Card("Q", "cups", False)  # not the deck's own object
    assert loose is not kept.flipped(False) and _read(loose) == _expected(loose)
    for text, want in (("10sv", ("10S", False, "black", 10)), ("A♣", ("AC", False, "black", 1)),
                       ("RW", ("RW", True, "red", None)), ("BWv", ("BW", True, "black", None)),
                       ("3 of coins", ("3D", False, "red", 3))):
        card = parse_card(text)
        assert _read(card) == want == _expected(card), text
    # a card of its own (parse_card hands out the deck's shared ones: never changed)
    odd = Card("Q", "cups", True)
    assert odd == kept and odd is not kept
    odd.__dict__["face"] = "XX"  # what another process could never have kept
    back = pickle.loads(pickle.dumps(odd, -1))
    assert back == kept and back.face == "QH" and kept.face == "QH"


# --------------------------------------------------------------------------- the fight


def _fights() -> tuple[dict[str, Any], dict[str, Any]]:
    _, start, _ = op._start("combat1", {})
    return start, g.parse(start.get("scene", {}).get("goals") or {}, start)


def test_a_fights_hits_conflicts_and_standings_read_as_the_full_path_reads_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole fights (both --pc): every Hits' Levels equal the full path's — what
    the round said merged in by ``with_said`` even when nothing but the Target's Action
    was said (its sources as a dict of their own, the map's readout as relabelled); every
    Conflict with one candidate a side keeps the one pair, as the Advantage rule
    (``keep_conflict``) keeps it; every Standing's extra card is one exactly for
    Advantage or Disadvantage (000 l.423-424) — and the fights end as they do unchecked."""
    start, goals = _fights()
    plain = [sim.play_runs(start, goals, 3, range(12), DEFAULTS, pc) for pc in ("best", "fate")]
    recalls: list[Any] = []
    real_recall, real_levels, real_resolve = remembered.recall, hits.levels, conflict.resolve
    seen = {"levels": 0, "only_target_action": 0, "one_pair": 0, "remembered": 0}

    def recall(*a: Any, **k: Any) -> Any:
        got = real_recall(*a, **k)
        recalls.append(got)
        return got

    def levels(*a: Any, **k: Any) -> Any:
        recalls.clear()
        got = real_levels(*a, **k)
        if not recalls:  # found as the fight's Assessor remembers it: read afresh too
            assert real_levels(*a, **{**k, "assessor": None, "shared": None}) == got
            seen["remembered"] += 1
        sit, rec = got[0], recalls[-1]  # the Recalled this levels read
        said = {k: v for k, v in rec.sources.items() if k != "target_action"}
        if rec.sources:
            # the full path, from the Situation before the round's sayings were merged
            bare = sit._replace(extra_sources={
                k: v for k, v in sit.extra_sources.items() if k not in said})
            full = remembered.with_said(bare, said, rec)
            assert {**sit._asdict(), "extra_sources": dict(sit.extra_sources)} == \
                {**full._asdict(), "extra_sources": dict(full.extra_sources)}
            seen["only_target_action"] += not said
        seen["levels"] += 1
        return got

    def resolve(ask: Any, reveal: Any) -> Any:
        out = real_resolve(ask, reveal)
        for st in (ask.situation.advantage_a, ask.situation.advantage_b):
            assert st.extra == (0 if st.mode == advantage.NORMAL else 1)
        if isinstance(out, conflict.Conflict) and not out.side_a.set_aside and \
                not out.side_b.set_aside:
            a = [conflict._option(out.side_a.approach, out.side_a.card)]
            b = [conflict._option(out.side_b.approach, out.side_b.card)]
            assert advantage.keep_conflict(
                a, b, (out.advantage["a"].mode, out.advantage["b"].mode),
                lambda x, y: "a", lambda x: 0) == (0, 0)
            seen["one_pair"] += 1
        return out

    monkeypatch.setattr(remembered, "recall", recall)
    monkeypatch.setattr(hits, "levels", levels)
    monkeypatch.setattr(conflict, "resolve", resolve)
    engine._ASSESSED.clear()
    again = [sim.play_runs(start, goals, 3, range(12), DEFAULTS, pc) for pc in ("best", "fate")]
    assert again == plain
    assert seen["levels"] > 100 and seen["only_target_action"] > 50 and seen["one_pair"] > 150
