"""Round start (001 p.19 "Round: Start") and round end upkeep (001 p.40 "Round: End")."""

from __future__ import annotations

import tomllib

import pytest

from d2d_cli.rules.deck import dice
from d2d_cli.rules.deck.cards import parse_card
from tests.helpers import load_scene, session_bytes, session_file, stack_deck

BLEEDING = 'conditions = { bleeding = 1 }'


def test_round_start_refreshes_every_unit(d2d, tmp_path):
    """001 p.19: "Action Cost = Speed/2 (round down), Move = Speed, Turn = 2"; the Goblin
    Scout's Speed 5x0 (001 p.6) gives Move 5, Action Cost 2; the Archer is 001's Human
    Male, Speed 5x0 (issue 11 item 7: the scene's Archer changed from 4x0)."""
    d2d.json("scene", "load", "combat1")
    r = d2d.json("round", "start")
    assert r["round"] == 1
    rows = {u["unit"]: (u["move"], u["action_cost"], u["turn"]) for u in r["units"]}
    assert rows == {"Archer": (5, 2, 2), "Thief": (4, 2, 2), "Goblin Scout": (5, 2, 2),
                    "Goblin Skirmisher": (5, 2, 2)}
    d2d.json("round", "end")
    assert d2d.json("round", "start")["round"] == 2


def test_slow_lowers_speed_for_the_refresh(d2d, tmp_path):
    """Glossary "Slow - A Minor Condition that gives Speed:-1": Speed 4 → Move 3, AC 1."""
    load_scene(d2d, tmp_path, "conditions = { slow = 1 }")
    (row,) = d2d.json("round", "start")["units"]
    assert (row["speed"], row["move"], row["action_cost"], row["turn"]) == (3, 3, 1, 2)


def test_start_twice_is_refused(d2d):
    d2d.json("round", "start")
    res = d2d("round", "start")
    assert res.exit_code == 2 and "round 1 is under way" in res.stderr


@pytest.mark.parametrize(("card", "after"), [
    ("7C", {"bleeding": 2}),                    # Wands=Bleeding:+1
    ("7D", {"bleeding": 1}),                    # Coins=Nothing happens
    ("7H", {}),                                 # Cups=Bleeding:-1
    ("7S", {"bleeding": 1, "blood_loss": 1}),   # Swords=Blood Loss:+1
    ("RW", {"bleeding": 1}),                    # a Wild: the Glossary gives nothing
])
def test_bleeding_event_follows_the_glossary(d2d, tmp_path, data_dir, card, after):
    """Glossary "Bleeding - Mind:-1. Event: Reveal Conflict. Wands=Bleeding:+1,
    Coins=Nothing happens, Cups=Bleeding:-1, Swords=Blood Loss:+1" — on a seeded
    session whose Fate deck has ``card`` on top."""
    d2d("--seed", "5", "session", "new", "t")
    d2d("session", "use", "t")
    load_scene(d2d, tmp_path, BLEEDING)
    stack_deck(session_file(data_dir), card)
    d2d.json("round", "start")
    end = d2d.json("round", "end")
    ev = end["steps"][3]
    assert ev["kind"] == "condition_events"
    assert [(e["unit"], e["condition"], e["card"]["code"]) for e in ev["reveals"]] == [
        ("Archer", "bleeding", parse_card(card).code)]
    assert ev["reveals"][0]["conditions"] == after
    saved = tomllib.loads(session_file(data_dir).read_text("utf-8"))
    assert saved["units"]["Archer"]["conditions"] == after
    # the deck was used: the card is now in the discard pile
    assert d2d.json("fate", "status")["last"][0]["code"] == parse_card(card).code


@pytest.mark.parametrize(("card", "after"), [
    ("QC", {"bleeding": 2}), ("QD", {"bleeding": 1}), ("QH", {}),
    ("QS", {"bleeding": 1, "blood_loss": 1})])
def test_bleeding_event_in_table_mode(d2d, tmp_path, card, after):
    load_scene(d2d, tmp_path, BLEEDING)
    d2d.json("round", "start")
    end = d2d.json("round", "end", "--card", card)
    assert end["steps"][3]["reveals"][0]["conditions"] == after
    assert [c["code"] for c in end["cards"]] == [parse_card(card).code]


def test_burning_diseased_poisoned_events(d2d, tmp_path):
    """Glossary: Burning "Swords=Burns:+1"; Diseased/Poisoned "IF Ace THEN -1. IF 2 THEN
    +1". One reveal per unit per condition, in the conditions table's order."""
    load_scene(d2d, tmp_path, "conditions = { poisoned = 1, burning = 2, diseased = 1 }")
    d2d.json("round", "start")
    end = d2d.json("round", "end", "--card", "5S", "--card", "AC", "--card", "2H")
    got = [(e["condition"], e["outcome"]) for e in end["steps"][3]["reveals"]]
    assert got == [("burning", {"burns": 1}), ("diseased", {"diseased": -1}),
                   ("poisoned", {"poisoned": 1})]
    assert end["steps"][3]["reveals"][-1]["conditions"] == {
        "burning": 2, "burns": 1, "poisoned": 2}


def test_round_end_steps_in_order_and_only_once(d2d, tmp_path, data_dir):
    """001 p.40 order: Draw, Recover, Task Clock, Events, Clock. A second end without a
    new start is refused and changes nothing."""
    load_scene(d2d, tmp_path, "conditions = { fatigue = 2 }\n[tasks.Knot]\ndifficulty = 4")
    d2d.json("round", "start")
    end = d2d.json("round", "end", "--recover", "Archer=fatigue")
    assert end["round"] == 1
    assert [s["kind"] for s in end["steps"]] == [
        "draw", "recover", "task_clock", "condition_events", "random_events", "clock"]
    assert end["steps"][1]["applied"] == [{"unit": "Archer", "removed": "fatigue", "left": 1}]
    assert end["steps"][5] == {"kind": "clock", "clock_before": 1, "clock": 2, "events": [],
                               "arrived": []}
    before = session_bytes(data_dir)
    res = d2d("round", "end")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: round 1 has already ended — upkeep is applied once; "
                          "start the next round with d2d round start\n")
    assert session_bytes(data_dir) == before
    assert d2d.json("task", "show", "Knot")["progress"] == 3


def test_recover_takes_the_first_choice_without_a_pick(d2d, tmp_path):
    # 001 l.1039 "Recover - For each Unit: Remove a Fatigue, Stun, Stress, Slow OR Ready
    # an Ability in Cooldown": d2d's default is the first listed (docs/rules.md "Recover").
    load_scene(d2d, tmp_path, "conditions = { stun = 1, slow = 1 }")
    d2d.json("round", "start")
    step = d2d.json("round", "end")["steps"][1]
    assert step == {"kind": "recover", "applied": [{"unit": "Archer", "removed": "stun",
                                                    "left": 0}],
                    "choices": [{"unit": "Archer", "choices": ["stun", "slow"]}]}
    d2d.json("round", "start")
    before = d2d.json("unit", "show", "Archer")
    res = d2d("round", "end", "--recover", "Archer=stress")
    assert res.exit_code == 2 and "Archer can recover slow (or none)" in res.stderr
    assert d2d.json("unit", "show", "Archer") == before  # refused: nothing changed
    step = d2d.json("round", "end", "--recover", "Archer=none")["steps"][1]
    assert step == {"kind": "recover", "applied": [], "choices": []}
    assert d2d.json("unit", "show", "Archer")["conditions"] == {"slow": 1}


def test_undo_then_end_applies_upkeep_once(d2d, tmp_path):
    """`session undo` restores the whole file, the round record too: net one upkeep."""
    load_scene(d2d, tmp_path, "[tasks.Knot]\ndifficulty = 4")
    d2d.json("round", "start")
    d2d.json("round", "end")
    d2d.ok("session", "undo")
    assert d2d.json("task", "show", "Knot")["progress"] == 4
    d2d.json("round", "end")
    assert d2d("round", "end").exit_code == 2
    assert d2d.json("task", "show", "Knot")["progress"] == 3
    assert d2d.json("clock", "show")["clock"] == 2


def test_end_without_a_round_is_refused(d2d):
    res = d2d("round", "end")
    assert res.exit_code == 2 and "no round is under way" in res.stderr


def test_table_mode_too_few_or_too_many_cards(d2d, tmp_path, data_dir):
    load_scene(d2d, tmp_path, "conditions = { bleeding = 1, poisoned = 1 }")
    d2d.json("round", "start")
    before = session_bytes(data_dir)
    res = d2d("round", "end", "--card", "5H")
    assert res.exit_code == 2
    assert "not enough cards with --card: 1 given, at least 2 needed" in res.stderr
    res = d2d("round", "end", "--card", "5H", "--card", "6H", "--card", "7H")
    assert res.exit_code == 2 and "too many cards with --card: 3 given, only 2 needed" in res.stderr
    assert session_bytes(data_dir) == before


def test_random_event_fires_exactly_when_its_reveal_says(d2d, data_dir):
    """001 p.18 "Random Event - At Round End, reveal a Fate card to check if the Event
    occurs". 1/4 is read as a d4 (the suit: Wands = 1): a Wild is redrawn."""
    d2d("--seed", "9", "session", "new", "t")
    d2d("session", "use", "t")
    d2d.json("clock", "event", "random", "A patrol", "--chance", "1/4")
    stack_deck(session_file(data_dir), "RW", "3C", "9H")
    d2d.json("round", "start")
    (check,) = d2d.json("round", "end")["steps"][4]["checks"]
    assert (check["value"], check["occurs"]) == (1, True)
    assert [c["code"] for c in check["cards"]] == ["RW^", "3C^"]
    # it occurred, so it is not checked again
    d2d.json("round", "start")
    assert d2d.json("round", "end")["steps"][4]["checks"] == []


def test_random_event_seeded_matches_the_peeked_cards(d2d):
    """Seeded: whatever the deck holds, the event occurs iff the d8 reading ≤ 3."""
    d2d("--seed", "21", "session", "new", "t")
    d2d("session", "use", "t")
    d2d.json("clock", "event", "random", "Rain", "--chance", "3/8", "--repeat")
    for _ in range(4):
        top = [parse_card(c["code"]) for c in d2d.json("fate", "draw", "6", "--peek")["cards"]]
        want = dice.roll(dice.spec(8), iter(top).__next__)
        d2d.json("round", "start")
        (check,) = d2d.json("round", "end")["steps"][4]["checks"]
        assert check["value"] == want.value
        assert check["occurs"] is (want.value <= 3)
        assert [c["code"] for c in check["cards"]] == [c.code for c in want.cards]


def test_round_end_json_is_one_summary_and_human_output(d2d, tmp_path):
    load_scene(d2d, tmp_path, BLEEDING + "\n[tasks.Knot]\ndifficulty = 4")
    d2d.json("round", "start")
    out = d2d.ok("round", "end", "--card", "4S")
    assert "End of round 1" in out
    assert "Archer Bleeding: 4♠ 4 of Swords ↑ → Blood Loss +1" in out
    assert "Knot: Progress 4 → 3 (open)" in out
    assert "Clock: 1 → 2" in out


def test_refresh_penalties_can_be_switched_off(d2d, tmp_path, data_dir):
    """[rules] refresh_penalties = false: Move = the printed Speed level."""
    load_scene(d2d, tmp_path, "conditions = { slow = 1 }")
    path = session_file(data_dir)
    text = path.read_text("utf-8").replace("\n[rules]\n", "\n[rules]\nrefresh_penalties = false\n")
    path.write_text(text, "utf-8")
    (row,) = d2d.json("round", "start")["units"]
    assert (row["move"], row["action_cost"]) == (4, 2)


def test_round_end_human_output_exact(d2d):
    """001 l.1033–1050 "Round: End", each step as printed (whole output)."""
    d2d.json("scene", "load", "combat1")
    d2d.json("unit", "condition", "Archer", "add", "bleeding")
    d2d.json("unit", "condition", "Thief", "add", "fatigue")
    d2d.json("clock", "event", "random", "Rain", "--chance", "1/4")
    d2d.json("round", "start")
    assert d2d.ok("round", "end", "--card", "4S", "--card", "3C") == (
        "End of round 1\n"
        "1. Draw - Each Player draws a card (a hand holds at most 10).\n"
        "2. Recover:\n"
        "   Thief: removed one fatigue\n"
        "3. Task Clock — Progress −1 on each task:\n"
        "   Knot: Progress 4 → 3 (open)\n"
        "4. Condition events:\n"
        "   Archer Bleeding: 4♠ 4 of Swords ↑ → Blood Loss +1\n"
        "5. Random events:\n"
        "   Rain (1/4): 3♣ 3 of Wands ↑ → 1: occurs!\n"
        "6. Clock: 1 → 2\n")
    d2d.json("unit", "condition", "Thief", "add", "fatigue", "--count", "2")
    d2d.json("round", "start")
    assert d2d.ok("round", "end", "--recover", "Thief=fatigue", "--card", "7H") == (
        "End of round 2\n"
        "1. Draw - Each Player draws a card (a hand holds at most 10).\n"
        "2. Recover:\n"
        "   Thief: removed one fatigue\n"
        "3. Task Clock — Progress −1 on each task:\n"
        "   Knot: Progress 3 → 2 (open)\n"
        "4. Condition events:\n"
        "   Archer Bleeding: 7♥ 7 of Cups ↑ → Bleeding -1\n"
        "5. Random events:\n"
        "   none\n"
        "6. Clock: 2 → 3\n")
