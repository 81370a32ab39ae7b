"""Task clocks (001 p.39 "Resolution > Task"; p.40 "Round: End > Task Clock")."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from d2d_cli.errors import RuleViolation
from d2d_cli.rules.time import tasks
from tests.helpers import rule_text, session_bytes, with_rules


def tokens(r: dict) -> tuple[int, int, str]:
    return r["challenge"], r["progress"], r["state"]


def test_difficulty_4_win_2_two_round_ends_lose_1(d2d):
    """001 p.39: "Progress/Challenge - Place tokens equal to Difficulty", "Win -
    Challenge:-Hits", "Lose - Progress:-Hits"; p.40 "Progress:-1 on each Task"."""
    r = d2d.json("task", "new", "Knot", "--difficulty", "4")
    assert (r["name"], r["difficulty"]) == ("Knot", 4)
    assert tokens(r) == (4, 4, "open")
    assert tokens(d2d.json("task", "win", "Knot", "--hits", "2")) == (2, 4, "open")
    d2d.json("round", "start")
    d2d.json("round", "end")
    assert tokens(d2d.json("task", "show", "Knot")) == (2, 3, "open")
    d2d.json("round", "start")
    d2d.json("round", "end")
    assert tokens(d2d.json("task", "show", "Knot")) == (2, 2, "open")
    assert tokens(d2d.json("task", "lose", "Knot", "--hits", "1")) == (2, 1, "open")


def test_complete_when_no_challenge_is_left(d2d):
    """001 p.39 "Complete - IF no Challenge THEN Complete"."""
    d2d.json("task", "new", "Knot", "--difficulty", "4")
    d2d.json("task", "win", "Knot", "--hits", "2")
    assert tokens(d2d.json("task", "win", "Knot", "--hits", "3")) == (0, 4, "complete")
    res = d2d("task", "win", "Knot", "--hits", "1")
    assert res.exit_code == 2 and "already complete" in res.stderr
    # a task that is over does not lose Progress at round end
    d2d.json("round", "start")
    end = d2d.json("round", "end")
    assert end["steps"][2] == {"kind": "task_clock", "changes": []}
    assert tokens(d2d.json("task", "show", "Knot")) == (0, 4, "complete")


def test_failed_when_no_progress_is_left(d2d):
    """001 p.39 "Fail - IF no Progress THEN Fail" — also through the round-end tick."""
    d2d.json("task", "new", "Knot", "--difficulty", "2")
    assert tokens(d2d.json("task", "lose", "Knot", "--hits", "1")) == (2, 1, "open")
    d2d.json("round", "start")
    end = d2d.json("round", "end")
    assert end["steps"][2]["changes"] == [
        {"task": "Knot", "progress_before": 1, "progress": 0, "state": "failed"}]
    assert tokens(d2d.json("task", "show", "Knot")) == (2, 0, "failed")
    res = d2d("task", "lose", "Knot", "--hits", "1")
    assert res.exit_code == 2 and "already failed" in res.stderr


def test_teamwork_records_every_worker(d2d):
    """000 "Conflict > 1) Setup": "multiple characters may work on the same Task"."""
    d2d.json("task", "new", "Rope", "--difficulty", "4", "--worker", "Thief")
    d2d.json("task", "win", "Rope", "--hits", "1", "--by", "Archer")
    r = d2d.json("task", "win", "Rope", "--hits", "1", "--by", "Thief")
    assert r["workers"] == ["Thief", "Archer"]
    assert tokens(r) == (2, 4, "open")


def test_list_draws_bars_and_drop_removes(d2d):
    d2d.json("task", "new", "Knot", "--difficulty", "4")
    d2d.json("task", "win", "Knot", "--hits", "1")
    out = d2d.ok("task", "list")
    assert "Challenge ●●●○ Progress ●●●●" in out
    assert [t["name"] for t in d2d.json("task", "list")["tasks"]] == ["Knot"]
    assert d2d.json("task", "drop", "knot")["dropped"] is True
    assert d2d.json("task", "list")["tasks"] == []


def test_bad_input_changes_nothing(d2d, data_dir: Path):
    d2d.json("task", "new", "Knot", "--difficulty", "4")
    before = session_bytes(data_dir)
    for args, needle in [
        (("task", "new", "X", "--difficulty", "0"), "--difficulty must be from 1 to 100"),
        (("task", "win", "Knot", "--hits", "-1"), "--hits must be from 1 to 100"),
        (("task", "lose", "Knot", "--hits", "0"), "--hits must be from 1 to 100"),
        (("task", "win", "Nope", "--hits", "1"), "no task 'Nope'"),
        (("task", "new", "Knot", "--difficulty", "3"), "already exists"),
    ]:
        res = d2d(*args)
        assert res.exit_code == 2, args
        assert res.stderr.count("\n") == 1 and needle in res.stderr, res.stderr
    assert session_bytes(data_dir) == before


@given(st.integers(1, 12), st.lists(st.tuples(st.sampled_from(["win", "lose", "tick"]),
                                              st.integers(1, 5)), max_size=20))
def test_tokens_stay_in_range_and_an_ended_task_stays_ended(difficulty, ops):
    board: dict[str, tasks.Task] = {}
    task = tasks.new(board, "T", difficulty)
    ended = None
    for op, hits in ops:
        before = (task.challenge, task.progress)
        try:
            if op == "win":
                tasks.win(task, hits)
            elif op == "lose":
                tasks.lose(task, hits)
            else:
                tasks.round_end(board)
        except RuleViolation:
            assert ended is not None
        if ended:
            assert (task.state, (task.challenge, task.progress)) == (ended, before)
        assert 0 <= task.challenge <= difficulty and 0 <= task.progress <= difficulty
        assert (task.state == "complete") == (task.challenge == 0)
        assert (task.state == "failed") == (task.challenge > 0 and task.progress == 0)
        if task.state != "open":
            ended = task.state


def test_task_win_000_moves_the_tokens_to_progress(d2d, tmp_path: Path) -> None:
    """[rules] task_win = "000": 000 l.497 "IF you Succeed THEN move Task Tokens (top) to
    Progress (bottom) equal to the number of Successes. IF no Task remains then the Task
    is complete." — against 001 l.1014 "Win - Challenge:-Hits" (the default). A loss is
    the same in both: 000 l.499 "remove Progress Tokens (bottom) equal to the number of
    your Rival's Successes", 001 l.1016 "Lose - Progress:-Hits"."""
    path = with_rules(d2d, tmp_path, task_win="000")
    d2d.json("--session", path, "task", "new", "Knot", "--difficulty", "4")
    assert tokens(d2d.json("--session", path, "task", "win", "Knot", "--hits", "2")) == \
        (2, 6, "open")
    assert tokens(d2d.json("--session", path, "task", "lose", "Knot", "--hits", "1")) == \
        (2, 5, "open")
    assert d2d.ok("--session", path, "task", "show", "Knot") == \
        "Knot (Difficulty 4): Challenge ●●○○ Progress ●●●●● — 2/5 open\n"
    # only the tokens left on top can move: 3 Hits on 2 Challenge move 2
    assert tokens(d2d.json("--session", path, "task", "win", "Knot", "--hits", "3")) == \
        (0, 7, "complete")
    # the default (001): the same Conflicts leave Progress alone on a win
    d2d.json("task", "new", "Knot", "--difficulty", "4")
    assert tokens(d2d.json("task", "win", "Knot", "--hits", "2")) == (2, 4, "open")


def test_task_texts_say_so() -> None:
    text000, text001 = rule_text("000").splitlines(), rule_text("001").splitlines()
    assert "move Task Tokens (top) to Progress (bottom)" in text000[497 - 1]
    assert "remove Progress Tokens (bottom)" in text000[499 - 1]
    assert text001[1014 - 1].strip() == "**Win** - Challenge:-Hits"
    assert text001[1016 - 1].strip() == "**Lose** - Progress:-Hits"


def test_human_views_of_a_task(d2d) -> None:
    assert d2d.ok("task", "new", "Knot", "--difficulty", "4", "--worker", "Thief") == \
        "Knot (Difficulty 4): Challenge ●●●● Progress ●●●● — 4/4 open (Thief)\n"
    assert d2d.ok("task", "win", "Knot", "--hits", "4") == \
        "Knot (Difficulty 4): Challenge ○○○○ Progress ●●●● — 0/4 complete (Thief)\n"
    assert d2d.ok("task", "drop", "Knot") == \
        "dropped: Knot (Difficulty 4): Challenge ○○○○ Progress ●●●● — 0/4 complete (Thief)\n"
    assert d2d.ok("task", "list") == "No tasks. Start one: d2d task new NAME --difficulty D\n"
