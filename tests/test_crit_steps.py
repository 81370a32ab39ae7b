"""``crits.crit`` in its named steps (issue 26 item 5): each step alone, with the rule
line it follows. The whole Crit is tested in test_crits.py and test_crit_armor.py."""

from __future__ import annotations

import random

import pytest

from d2d_cli.errors import BadInput
from d2d_cli.rules.combat import crits
from d2d_cli.rules.combat.damage import Gear
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.scale.stats import parse_stat

CARDS = ["fear@head", "pierce@torso", "slash@head", "pierce@left_arm"]


def _draw(cards: list[str]) -> crits._Source:
    return crits._source(list(cards), {}, crits.chart("person"), "wound", None)


def test_locate_001_draws_until_a_matching_type() -> None:
    # 001 l.892–894 "Draw until you find matching a Type": fear@head is skipped.
    src = _draw(CARDS)
    assert crits._locate(src.draw, ["pierce"], 10, None) == (
        "pierce@torso", ["fear@head"], [])
    src = _draw(CARDS)
    with pytest.raises(BadInput, match="no damage card matching bash was drawn"):
        crits._locate(src.draw, ["bash"], 4, None)


def test_locate_000_moves_the_first_match_of_the_stack_to_the_top() -> None:
    # 000 l.518–519 "Damage Stack … Find the first Card that matches the Damage Type of
    # the Weapon (if any) and move it to the top": a stack of 3.
    src = _draw(CARDS)
    assert crits._locate(src.draw, ["slash"], 10, 3) == (
        "slash@head", [], ["slash@head", "fear@head", "pierce@torso"])


def test_rate_meets_the_armor_the_difficulty_or_nothing() -> None:
    # 001 l.926–936: 6x1 against 2x1 armor: Power Level > Armor Level, Hits +1; same
    # scale, +0. Against no armor (0x0): +1 and scale +1.
    power, worn = parse_stat("6x1"), parse_stat("2x1")
    ask = crits.CritAsk(power="6x1", hits=2, difficulty="9x1")
    assert crits._rate(ask, power, None, worn, DEFAULTS)[1:] == (1, 3)
    # [rules] armor = "reduce": the armor is a Damage Modifier, the Power meets nothing.
    assert crits._rate(ask, power, None, worn, Options(armor="reduce"))[1:] == (2, 4)
    # 000's Damage Stack reduces by armor too.
    assert crits._rate(ask, power, None, worn, Options(hit_location="000"))[1:] == (2, 4)
    # [rules] weapon_damage = "difficulty" (000 l.508–509): 6x1 against 9x1 adds none.
    got = crits._rate(ask, power, None, worn, Options(weapon_damage="difficulty"))
    assert (got.bonus, got.added, got.total) == (crits.Bonus(0, 0), 0, 2)


def test_modifiers_only_when_there_are_any() -> None:
    ch, ask = crits.chart("person"), crits.CritAsk()
    worn = parse_stat("2x1")
    assert crits._modifiers(3, ask.damage, Gear(), worn, "head", "pierce", [], ch,
                            DEFAULTS) is None  # armor as a rating: no Modifier
    # [rules] armor = "reduce": 000 l.529 "reduce by the Armor value", 3 − 2.
    got = crits._modifiers(3, ask.damage, Gear(), worn, "head", "pierce", [], ch,
                           Options(armor="reduce"))
    assert got is not None and (got.damage, [s.key for s in got.steps]) == (1, ["armor"])


def test_harm_turns_the_card_and_leaves_light_damage() -> None:
    # 001 l.951–955: Hits 6 → Extreme (3 rotations), the 2 Hits past it light damage.
    src = _draw([])
    got = crits._harm(6, None, [], [], "fatigue", None, src.draw, DEFAULTS)
    assert (got.severity, got.crit, got.light, got.flipped, got.total) == (
        crits.Severity("extreme", 3, 2), True, ("fatigue", "fatigue"), (), 6)
    got = crits._harm(0, None, [], [], "fatigue", None, src.draw, DEFAULTS)
    assert (got.severity.level, got.crit, got.light) == ("none", False, ())


def test_source_virtual_deck_writes_itself_table_cards_refuse_extras() -> None:
    ch = crits.chart("person")
    src = crits._source(None, {}, ch, "wound", lambda: random.Random(3))
    first = src.draw()
    changes: dict[str, object] = {}
    assert src.close(changes) is False and src.new_deck
    state = changes["damage"]
    assert isinstance(state, dict)
    assert state["person"]["wound"]["discard"] == [first]
    src = _draw(CARDS)
    src.draw()
    with pytest.raises(BadInput, match="too many cards with --card: 4 given, only 1 needed"):
        src.close({})
