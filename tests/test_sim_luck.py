"""`sim` plays Wild Luck and Luck for Players' units by the PC policy (issue 34 item 5):
000 l.526 "Wild Luck - Discard a Wild Card to cancel ALL Successes. IF reasonable THEN an
adjacent Ally may do this instead." and 000 l.533 "Luck - The Unit's Player (or an
adjacent Unit's Player) may spend any number of Character Points to reduce the Damage by
that amount." — through ``rules.combat.crits.crit``, the function ``d2d crit`` uses."""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import tables
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import policy, sim
from d2d_cli.rules.assistant.engine import Table, player_of
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.overview import scene
from tests.helpers import rule_line


def _start() -> dict[str, Any]:
    return dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])


def test_the_rule_lines_quoted() -> None:
    assert "Discard a Wild Card to cancel ALL Successes" in rule_line("000", 526)
    assert "an adjacent Ally may do this instead" in rule_line("000", 526)
    assert "(or an adjacent Unit's Player) may spend any number of Character Points" \
        in rule_line("000", 533)


@pytest.mark.parametrize(("hits", "offers", "wild_luck", "luck", "giver"), [
    # Critical or worse with a Wild held: Wild Luck, the target's own hand first
    (3, [policy.Offer("A", 1, 5), policy.Offer("B", 1, 0)], True, 0, "A"),
    (5, [policy.Offer("A", 0, 0), policy.Offer("B", 2, 0)], True, 0, "B"),
    # no Wild: one Character Point moves the Crit down a step
    (3, [policy.Offer("A", 0, 2)], False, 1, "A"),
    (2, [policy.Offer("A", 0, 0), policy.Offer("B", 0, 1)], False, 1, "B"),
    # a Major with a Wild is not worth the Wild: a Character Point instead
    (2, [policy.Offer("A", 1, 1)], False, 1, "A"),
])
def test_the_pc_policy_plays_wild_luck_and_luck(hits: int, offers: list[policy.Offer],
                                                wild_luck: bool, luck: int,
                                                giver: str) -> None:
    got = policy.luck(hits, offers)
    assert got is not None
    assert (got.damage.wild_luck, got.damage.luck, got.giver) == (wild_luck, luck, giver)
    assert got.wild == (giver if wild_luck else None)


@pytest.mark.parametrize(("hits", "offers"), [
    (1, [policy.Offer("A", 3, 3)]),  # a Minor is taken
    (2, [policy.Offer("A", 1, 0)]),  # a Major: no Character Point, and no Wild spent
    (4, [policy.Offer("A", 0, 0)]),  # nothing to spend
])
def test_the_pc_policy_plays_nothing(hits: int, offers: list[policy.Offer]) -> None:
    assert policy.luck(hits, offers) is None


def _table(seed: int, wild: bool, cp: int | None = None) -> tuple[Table, str]:
    data = _start()
    if cp is not None:
        data["units"]["Archer"]["cp"] = cp
    t = Table(data, random.Random(seed))
    owner = player_of(data["units"]["Archer"])
    assert owner is not None
    hand = t.players[owner]
    hand.hand = [c for c in hand.hand if not c.is_wild]
    if wild:
        hand.hand.append(parse_card("RW"))
    return t, owner


def test_a_critical_crit_on_a_players_unit_is_cancelled_by_a_wild_from_the_hand() -> None:
    plain, _ = _table(3, wild=False)
    out = plain.crit("Goblin Scout", "Archer", 4)
    assert out.hits >= 3 and out.target is not None  # Critical or worse, placed
    t, owner = _table(3, wild=True)
    got = t.crit("Goblin Scout", "Archer", 4)
    assert got.card == out.card  # the same Crit, seen before the Wild is played
    assert got.hits == 0 and got.damage_modifiers is not None
    assert [s.key for s in got.damage_modifiers.steps][-1] == "wild_luck"
    assert not t.data["units"]["Archer"].get("crits")
    # the Wild left the hand for the discard pile (000 l.526 "Discard a Wild Card")
    assert not any(c.is_wild for c in t.players[owner].hand)
    assert parse_card("RW") in t.players[owner].discard


def test_luck_spends_one_character_point_of_the_unit_for_a_step_down() -> None:
    plain, _ = _table(3, wild=False, cp=0)
    before = plain.crit("Goblin Scout", "Archer", 2)
    assert before.hits >= 2 and plain.data["units"]["Archer"]["cp"] == 0
    t, _ = _table(3, wild=False, cp=2)
    got = t.crit("Goblin Scout", "Archer", 2)
    assert got.card == before.card
    assert got.hits == before.hits - 1  # one Severity step down
    assert got.damage_modifiers is not None and got.damage_modifiers.cp_spent == 1
    assert t.data["units"]["Archer"]["cp"] == 1


def test_a_non_players_unit_spends_nothing() -> None:
    t, owner = _table(3, wild=True)
    got = t.crit("Archer", "Goblin Scout", 4)
    assert got.damage_modifiers is None and got.hits >= 3
    assert t.data["units"]["Goblin Scout"].get("crits")
    assert any(c.is_wild for c in t.players[owner].hand)  # the Archer's Wild is kept


def test_a_fight_with_wild_luck_replays_with_play(d2d: Any, data_dir: Path) -> None:
    """The log says ``crit … --wild-luck``, and ``d2d play`` reaches the same state."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "fight.toml"
    d2d.ok("--session", path, "scene", "load", "combat1")
    start = tomllib.loads(path.read_text("utf-8"))
    goals = g.parse(start["scene"]["goals"], start)
    out, table = sim.fight(start, goals, sim.run_seed(5, 9), log=True)
    assert table.lines is not None
    assert any("--wild-luck" in x for x in table.lines)
    from tests.test_sim import COMPARED, _replay

    after = _replay(path, table.lines, data_dir)
    for key in ("units", "tasks", "clock", "scene"):
        assert key in COMPARED and after.get(key) == table.data.get(key), key


@pytest.mark.parametrize(("thief_at", "from_ally"), [("E8", True), ("K1", False)])
def test_an_adjacent_allys_wild_cancels_the_crit(thief_at: str, from_ally: bool) -> None:
    """000 l.526 "IF reasonable THEN an adjacent Ally may do this instead": the Archer's
    Player holds no Wild, the Thief's does; only when the Thief stands next to him (E8
    beside E9) is the Thief's Wild discarded — from K1 the Crit lands."""
    t, _ = _table(3, wild=False)
    t.data["units"]["Thief"]["space"] = thief_at
    ally = t.players["Player2"]
    ally.hand = [c for c in ally.hand if not c.is_wild] + [parse_card("BW")]
    got = t.crit("Goblin Scout", "Archer", 4)
    assert (got.hits == 0) is from_ally
    assert any(c.is_wild for c in ally.hand) is not from_ally
    assert bool(t.data["units"]["Archer"].get("crits")) is not from_ally
