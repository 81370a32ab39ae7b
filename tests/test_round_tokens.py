"""Spending the round's tokens (issue 12 item 2): Movement, Actions, free actions, Wait
and Facing, each as the rule texts cost them (001 l.489–609, l.750; 000 l.245–291)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli.errors import D2DError
from d2d_cli.rules.scale.stats import parse_stat
from d2d_cli.rules.time import turns
from d2d_cli.rules.units.roster import Unit
from tests.helpers import Runner, assert_refused, check_quotes, every_file


def add(d2d: Runner, name: str, speed: str = "4x0", *extra: str) -> None:
    d2d.ok("unit", "add", name, "--body", "8x1", "--mind", "5x1", "--will", "5x1",
           "--speed", speed, *extra)


@pytest.fixture
def table(d2d: Runner) -> Runner:
    """Archer (Speed 4x0: Move 4, Action Cost 2) and Goblin (Speed 5x0: Move 5, Action
    Cost 2), round 1 started."""
    add(d2d, "Archer", "4x0", "--skill", "Ranged=1")
    add(d2d, "Goblin", "5x0", "--skill", "Stealth=1", "--skill", "Close Combat=1")
    d2d.ok("round", "start")
    return d2d


def tokens(d2d: Runner, name: str) -> tuple[int, int]:
    row = d2d.json("unit", "show", name)
    return row["move"], row["turn"]


@pytest.mark.parametrize(("kind", "cost"), [
    ("forward", 1),      # 000 l.273 "Forward (Move:-1)"
    ("drift", 1),        # 000 l.274 "Drift (Move:-1)"
    ("slide", 2),        # 000 l.275 "Slide (Move:-2)"
    ("backward", 2),     # 000 l.276 "Backward (Move:-2)"
    ("back", 2),
    ("drift-back", 2),   # 000 l.277 "Drift Back (Move:-2)"
    ("Drift Back", 2),
    ("equip", 1),        # 001 l.549 "Equip - Move:-1"; 000 l.265
])
def test_each_movement_costs_what_the_text_says(table: Runner, kind: str, cost: int) -> None:
    r = table.json("unit", "move", "Goblin", kind)
    assert (r["move_before"], r["move"], r["turn"]) == (5, 5 - cost, 2)
    assert tokens(table, "Goblin") == (5 - cost, 2)


def test_the_table_quotes_the_text() -> None:
    checked = sum(check_quotes(m.source)
                  for m in [*turns.movements().values(), *turns.actions().values()])
    assert checked == 19


def test_a_number_spends_that_much_move_and_a_count_repeats(table: Runner) -> None:
    assert table.json("unit", "move", "Goblin", "3")["move"] == 2  # 001 l.527
    assert table.json("unit", "move", "Goblin", "forward", "2")["move"] == 0


def test_combat1_turn1_moves(d2d: Runner) -> None:
    """000 l.579 "Archer - Moves 1 toward the rock and puts an Arrow in his offhand.
    Move:-2"; l.580 "Scout - Moves 1 toward the Archer. Move:-1"; l.592 "Archer -
    Completes his move behind the Rock … Move:-1"."""
    d2d.ok("scene", "load", "combat1")
    start = {u["unit"]: u["move"] for u in d2d.json("round", "start")["units"]}
    d2d.ok("unit", "move", "Archer", "forward")
    assert d2d.json("unit", "move", "Archer", "equip")["move"] == start["Archer"] - 2
    assert d2d.json("unit", "move", "Goblin Scout", "forward")["move"] == \
        start["Goblin Scout"] - 1
    assert d2d.json("unit", "move", "Archer", "forward")["move"] == start["Archer"] - 3


def test_turn_spends_turn_tokens_45_degrees_each(table: Runner) -> None:
    # 001 l.533 "Spend Turn points to change facing to the next compass heading (45
    # degrees)"; l.529 "Note: this does not change facing" (the other movements).
    assert table.json("unit", "face", "Archer", "n") == {
        "unit": "Archer", "facing": "N", "facing_before": None}
    r = table.json("unit", "move", "Archer", "turn", "NE")
    assert (r["action"], r["turn"], r["move"], r["facing"]) == ("Turn N → NE", 1, 4, "NE")
    assert table.json("unit", "move", "Archer", "forward")["facing"] == "NE"
    r = table.json("unit", "move", "Archer", "turn", "left")
    assert (r["action"], r["turn"], r["facing"]) == ("Turn left 45° (NE → N)", 0, "N")


def test_turning_the_long_way_round_costs_more(table: Runner) -> None:
    table.ok("unit", "face", "Archer", "N")
    r = table.json("unit", "move", "Archer", "turn", "right", "2")
    assert (r["turn"], r["facing"]) == (0, "E")
    table.ok("round", "end")
    table.ok("round", "start")
    # E → W is 4 steps either way: more than Turn 2 (001 l.465 "Turn = 2").
    res = table("unit", "move", "Archer", "turn", "W")
    assert res.exit_code == 2
    assert res.stderr == "d2d: error: Archer has Turn 2; Turn E → W costs 4\n"


def test_actions_pay_the_action_cost(table: Runner) -> None:
    # 001 l.553 "Recover - Move:-[Action Cost] Discard a Fatigue, Stun, Stress, or Slow"
    table.ok("unit", "condition", "Archer", "add", "fatigue")
    table.ok("unit", "condition", "Archer", "add", "stun")
    r = table.json("unit", "act", "Archer", "recover", "fatigue")
    assert (r["move_before"], r["move"], r["action_cost"]) == (4, 2, 2)
    assert r["conditions_removed"] == {"fatigue": 1} and r["actions_left"] == 1
    assert table.json("unit", "show", "Archer")["conditions"] == {"stun": 1}
    # the only one left needs no choice; 001 l.545 "Therefore, 2 Actions per Round"
    r = table.json("unit", "act", "Archer", "recover")
    assert (r["move"], r["actions_left"], r["conditions_removed"]) == (0, 0, {"stun": 1})


@pytest.mark.parametrize("action", ["search", "interact", "attack", "fight"])
def test_search_and_interact_cost_an_action(table: Runner, action: str) -> None:
    # 001 l.565 "Search - Move:-[Action Cost]"; l.569 "Interact - Move:-[Action Cost]
    # Interact with something including Combat"
    r = table.json("unit", "act", "Goblin", action)
    assert (r["move"], r["actions_left"]) == (3, 1)
    assert r["note"]


def test_burst_of_speed(table: Runner) -> None:
    # 001 l.607–609 "Burst of Speed - Slow:+1 Move:+2 AND Turn:+1"
    r = table.json("unit", "act", "Archer", "burst")
    assert (r["move"], r["turn"], r["conditions_added"]) == (6, 3, {"slow": 1})
    assert r["actions_left"] == 3
    # Slow lowers the next round's Move, not this one's (001 l.463 "Move = Speed").
    table.ok("round", "end", "--recover", "Archer=none")  # the Slow stays
    assert table.json("round", "start")["units"][0]["move"] == 3


def test_push_the_limit_and_grit_your_teeth_last_the_round(table: Runner) -> None:
    # 001 l.595–597 "Push the Limit - Fatigue:+1 Skill:+1 this Round"; l.603–605 "Grit
    # your Teeth - Stress:+1 Ignore all penalties this Round"
    r = table.json("unit", "act", "Archer", "push-the-limit")
    assert r["conditions_added"] == {"fatigue": 1} and r["move"] == 4
    r = table.json("unit", "act", "Archer", "grit")
    assert r["boosts"] == ["Push the Limit: Skill:+1 this Round",
                           "Grit your Teeth: Ignore all penalties this Round"]
    assert table.json("unit", "show", "Archer")["conditions"] == {"fatigue": 1, "stress": 1}
    # The next round starts afresh (the record is of round 1).
    table.ok("round", "end")
    table.ok("round", "start")
    assert table.json("unit", "act", "Archer", "burst")["boosts"] == []


def test_state_of_mind(table: Runner) -> None:
    # 001 l.599–601 "State of Mind - Stun:+1 Remove a Fatigue, Stress, or Slow"
    table.ok("unit", "condition", "Archer", "add", "slow")
    r = table.json("unit", "act", "Archer", "state-of-mind")
    assert (r["conditions_added"], r["conditions_removed"], r["move"]) == (
        {"stun": 1}, {"slow": 1}, 4)
    assert table.json("unit", "show", "Archer")["conditions"] == {"stun": 1}


def test_evade_gives_two_move_win_or_lose(table: Runner) -> None:
    # 001 l.750 "Move:+2 (Win or Lose)": after the Conflict the Goblin spent its
    # Interact Action on (Move 5 - 2).
    table.ok("unit", "act", "Goblin", "interact")
    assert table.json("unit", "act", "Goblin", "evade")["move"] == 5


def test_wait_at_the_count(table: Runner) -> None:
    # 001 l.503–505 "Wait - Do nothing. IF Move = Count THEN Move:-1"
    assert table.json("unit", "wait", "Goblin", "7") == {
        "unit": "Goblin", "count": 7, "move_before": 5, "move": 5, "lost": 0}
    assert table.json("unit", "wait", "Goblin", "5")["move"] == 4
    assert table.json("unit", "wait", "Goblin", "4")["move"] == 3
    assert table.ok("unit", "wait", "Goblin", "9") == "Goblin waits at Count 9: Move 3 " \
        "(unchanged)\n"


def test_spending_human_view(table: Runner) -> None:
    table.ok("unit", "face", "Goblin", "S")
    assert table.ok("unit", "move", "Goblin", "slide") == (
        "Goblin: Slide — Move 5 → 3\n"
        "  Move 3 · Turn 2 · Actions left 1 (Action Cost 2) · facing S\n")
    assert table.ok("unit", "act", "Goblin", "burst") == (
        "Goblin: Burst of Speed — Move 3 → 5, Turn 2 → 3, Slow +1\n"
        "  Move 5 · Turn 3 · Actions left 2 (Action Cost 2) · facing S\n")
    assert table.ok("unit", "act", "Goblin", "push") == (
        "Goblin: Push the Limit — Fatigue +1\n"
        "  Move 5 · Turn 3 · Actions left 2 (Action Cost 2) · facing S\n"
        "  Push the Limit: Skill:+1 this Round\n")


def test_spending_is_journalled_and_undone(table: Runner) -> None:
    table.ok("unit", "move", "Goblin", "slide")
    entry = table.json("session", "log", "--last", "1")["entries"][0]
    assert (entry["command"], entry["summary"]) == ("unit move Goblin slide",
                                                     "Goblin: Slide, Move 5 → 3")
    table.ok("session", "undo")
    assert tokens(table, "Goblin") == (5, 2)


REFUSALS = [
    (["unit", "move", "Archer", "slide"], "Archer has Move 1; Slide costs 2"),
    (["unit", "act", "Archer", "recover"], "Archer has Move 1; Recover costs 2"),
    (["unit", "move", "Archer", "2"], "Archer has Move 1; Move 2 costs 2"),
    (["unit", "move", "Archer", "turn", "S"], "Archer has no Facing yet"),
    (["unit", "move", "Archer", "jump"], "unknown movement 'jump'"),
    (["unit", "move", "Archer", "forward", "0"], "give a number of steps from 1"),
    (["unit", "act", "Archer", "dance"], "unknown action 'dance'"),
    (["unit", "act", "Goblin", "recover"], "Goblin has no Fatigue, Stun, Stress, Slow"),
    (["unit", "act", "Goblin", "recover", "bleeding"], "Recover removes Fatigue"),
    (["unit", "act", "Goblin", "state-of-mind"], "Goblin has no Fatigue, Stress, Slow"),
    (["unit", "act", "Goblin", "burst", "now"], "Burst of Speed takes no argument"),
    (["unit", "act", "Goblin", "search", "--range", "2"], "--range is for Detect"),
    (["unit", "act", "Goblin", "ready"], "Goblin has no Ability in Cooldown"),
    (["unit", "wait", "Goblin", "11"], "the Countdown goes from 10 to 1"),
    (["unit", "face", "Goblin", "up"], "one of N, NE, E"),
    (["unit", "move", "Nobody", "1"], "no unit 'Nobody'"),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS)
def test_refusals_are_one_line_exit_2_and_change_nothing(
        table: Runner, data_dir: Path, args: list[str], message: str) -> None:
    table.ok("unit", "move", "Archer", "3")  # Archer has Move 1 left
    assert_refused(table, data_dir, args, message)
    env = table.json(*args, code=2)
    assert env["ok"] is False and message in env["error"]["message"]


def test_no_spending_outside_a_round(d2d: Runner, data_dir: Path) -> None:
    add(d2d, "Archer")
    before = every_file(data_dir)
    res = d2d("unit", "move", "Archer", "forward")
    assert (res.exit_code, res.stderr) == (2, "d2d: error: no round is under way: the "
                                              "round's tokens are placed by d2d round start\n")
    d2d.ok("round", "start")
    d2d.ok("round", "end")
    before = every_file(data_dir)
    res = d2d("unit", "act", "Archer", "burst")
    assert res.stderr == ("d2d: error: round 1 has ended: the round's tokens are placed by "
                          "d2d round start\n")
    assert every_file(data_dir) == before
    # A unit that joined after the Refresh has no tokens until the next one.
    d2d.ok("round", "start")
    add(d2d, "Late")
    res = d2d("unit", "move", "Late", "1")
    assert res.exit_code == 2 and "Late has no Move tokens this round" in res.stderr


def test_the_dead_do_not_move(table: Runner) -> None:
    table.ok("unit", "condition", "Goblin", "add", "dead")
    res = table("unit", "move", "Goblin", "forward")
    assert res.stderr == ('d2d: error: Goblin is Dead (000 l.1172 "Dead - Permanent Negative '
                          'Status")\n')
    for args in (["unit", "act", "Goblin", "evade"], ["unit", "wait", "Goblin", "5"],
                 ["unit", "ability", "Goblin", "use", "Sneak"],
                 ["unit", "stealth", "Goblin", "hide"]):
        assert "Goblin is Dead" in table(*args).stderr


def _unit(move: int, action_cost: int) -> dict[str, Unit]:
    stats = {s: parse_stat("5x0") for s in ("body", "mind", "will", "speed")}
    return {"U": Unit("U", stats, move=move, action_cost=action_cost, turn=2)}


def test_action_cost_zero_allows_two_actions() -> None:
    # A Speed 1 unit: Move 1, Action Cost 1/2 = 0 (001 l.461). 001 l.545 "Therefore, 2
    # Actions per Round are possible" caps what Move alone would not.
    roster = _unit(1, 0)
    assert turns.act(roster, 1, "started", "U", "search").actions_left == 1
    assert turns.act(roster, 1, "started", "U", "search").actions_left == 0
    with pytest.raises(D2DError, match="taken 2 Actions at Action Cost 0"):
        turns.act(roster, 1, "started", "U", "search")
    assert roster["U"].move == 1


MOVES = st.sampled_from(["forward", "drift", "slide", "backward", "drift_back", "equip",
                         "1", "2", "3"])


@settings(max_examples=60, deadline=None)
@given(start=st.integers(0, 12), cost=st.integers(1, 6),
       steps=st.lists(st.one_of(MOVES, st.sampled_from(["search", "evade", "burst"])),
                      max_size=12))
def test_move_never_goes_below_zero_and_adds_up(start: int, cost: int,
                                                steps: list[str]) -> None:
    """Whatever is tried, Move stays ≥ 0, and it moves by exactly what the table costs:
    a refused step changes nothing."""
    roster = _unit(start, cost)
    unit = roster["U"]
    expected = start
    for step in steps:
        before = unit.move
        try:
            if step in ("search", "evade", "burst"):
                r = turns.act(roster, 1, "started", "U", step)
                a = turns.actions()[step if step != "burst" else "burst_of_speed"]
                price = cost if a.cost == "action" else 0
                expected += a.move - price
            else:
                r = turns.move(roster, 1, "started", "U", step)
                expected -= int(step) if step.isdigit() else turns.movements()[step].move
            assert r.move == unit.move == expected
        except D2DError:
            assert unit.move == before
        assert unit.move is not None and unit.move >= 0

