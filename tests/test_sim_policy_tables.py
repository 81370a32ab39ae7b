"""The policy's memories of this round (issue 40 item 1) give what the rule gives afresh:
the best card read off a score table for each pair of Levels (a hand seldom comes back
as it was, its cards do). Whole fights stay byte for byte the same (tests/test_sim.py,
tests/golden/)."""

from __future__ import annotations

import random

import pytest

from d2d_cli.rules.assistant import policy
from d2d_cli.rules.combat.conflict import approach_of, hit_value
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import Card, full_deck

KEYS = (DEFAULTS.conflict_chart, DEFAULTS.fate_orientation, DEFAULTS.level_bonus)
# Levels a fight meets (Combat #1's units at 0-2, a penalty below 0), both ways round
LEVELS = ((1, 1), (2, 1), (1, 2), (0, 1), (-1, 0))


def best_by_the_rule(hand: list[Card], la: int, lb: int, attacking: bool,
                     no_block: bool) -> tuple[str, float]:
    """The choice written from the rule, not from the policy's loop: every face of the
    hand (000 l.413, Upper and Lower, in hand order) that can be played, scored by
    ``win_chance`` asked here; attacking, the most wins of a Hit-scoring approach then
    the most Hits (001 l.814; Stay counts half its chance), defending the fewest wins for
    the attacker (no Block from Arc:Back, 000 l.326); the first face among equals, Stay
    unless a face does better."""
    stay = policy.win_chance("fate", "fate", la, lb, *KEYS)[0]
    faces = [f for c in hand for f in (c.flipped(True), c.flipped(False))]
    if attacking:
        scored = [((policy.win_chance(f.code, "fate", la, lb, *KEYS)[0], hit_value(f)), -i,
                   f.code) for i, f in enumerate(faces) if approach_of(f) in policy.SCORING]
        top = max(scored, default=None)
        if top is None or not top[0] > (stay / 2, 0):
            return "fate", stay
        return top[2], top[0][0]
    against = [(policy.win_chance("fate", f.code, la, lb, *KEYS)[0], i, f.code)
               for i, f in enumerate(faces) if not (no_block and approach_of(f) == "block")]
    low = min(against, default=None)
    if low is None or not low[0] < stay - 1e-12:
        return "fate", 1 - stay
    return low[2], 1 - low[0]


def test_the_best_card_is_the_rules_choice_for_every_hand_side_and_levels() -> None:
    """300 hands of 1-10 cards (seeded), each asked at five pairs of Levels as attacker,
    defender and defender that cannot Block, in turn: a score table read for other
    Levels or another side than its own would give another card or chance."""
    deck = list(full_deck())
    rng = random.Random(47)
    sides = ((True, False), (False, False), (False, True))
    asked = 0
    for _ in range(300):
        hand = rng.sample(deck, rng.randint(1, 10))
        for la, lb in LEVELS:
            for attacking, no_block in sides:
                got = policy.best_card(hand, (la, lb), DEFAULTS, attacking=attacking,
                                       no_block=no_block)
                assert got == best_by_the_rule(hand, la, lb, attacking, no_block), \
                    ([c.code for c in hand], la, lb, attacking, no_block)
                asked += 1
    assert asked == 300 * len(LEVELS) * len(sides)


def test_a_card_already_scored_at_these_levels_is_read_not_scored_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The score table is the memory: a hand of cards seen before, in another order and
    with one card new, scores only the new card; other Levels score their own."""
    monkeypatch.setattr(policy, "_SCORES", {})
    scored: list[str] = []
    real = policy._scored

    def counting(table: dict, c: Card, *rest: object) -> object:
        scored.append(c.code)
        return real(table, c, *rest)

    monkeypatch.setattr(policy, "_scored", counting)
    deck = list(full_deck())
    first = policy.best_card(deck[:5], (1, 1), DEFAULTS, attacking=True)
    assert scored == [c.code for c in deck[:5]]
    scored.clear()
    hand = [deck[5], *reversed(deck[:5])]
    assert policy.best_card(hand, (1, 1), DEFAULTS, attacking=True) == \
        best_by_the_rule(hand, 1, 1, True, False)
    assert scored == [deck[5].code]
    scored.clear()
    assert policy.best_card(deck[:5], (1, 1), DEFAULTS, attacking=True) == first
    assert scored == []
    policy.best_card(deck[:5], (2, 1), DEFAULTS, attacking=True)
    policy.best_card(deck[:5], (1, 1), DEFAULTS, attacking=False)
    assert len(scored) == 10  # each pair of Levels and each side its own table


@pytest.mark.parametrize("change", [{"facing": "S"}, {"space": "B2"}, {"double": True},
                                    {"faction": "Goblins"}, {"space": None}])
def test_a_field_is_found_by_the_units_placements_as_stored_now(change: dict) -> None:
    """The map's Field is remembered by what each unit's table holds of its Placement
    (Space, Facing, size, faction): tables alike give the Field already made, and a table
    changed in any of them gives the Placements a fresh reading of the roster gives."""
    import copy

    from d2d_cli.rules.board.derive import field
    from d2d_cli.rules.board.placement import placements
    from d2d_cli.rules.units.roster import roster
    from tests.test_board_cache import combat1

    data = combat1()
    first = field(data)
    assert first is not None
    assert first.places == placements(roster(data).values())
    assert field(copy.deepcopy(data)) is first  # new tables, the same Placements
    name = next(iter(data["units"]))
    moved = copy.deepcopy(data)
    table = {**moved["units"][name], **change}
    moved["units"][name] = {k: v for k, v in table.items() if v is not None}
    got = field(moved)
    assert got is not None and got is not first
    assert got.places == placements(roster(moved).values())
    assert got.places != first.places
