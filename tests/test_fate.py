"""The Fate deck from the command line (000 "Reference > Fate")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d2d_cli import session
from d2d_cli.rules.deck.cards import full_deck


def codes(result: dict) -> list[str]:
    return [c["code"] for c in result["cards"]]


def test_seeded_session_draws_the_same_cards_every_time(d2d, tmp_path: Path) -> None:
    # The promise: `--seed 7 session new t1` then `--session t1 fate draw 3`
    # gives the same three cards every time, and so does a session created by first
    # use with the same seed.
    d2d.ok("--seed", "7", "session", "new", "t1")
    first = d2d.json("--session", "t1", "fate", "draw", "3")
    d2d.ok("--seed", "7", "session", "new", "t2")
    again = d2d.json("--session", "t2", "fate", "draw", "3")
    by_path = d2d.json("--seed", "7", "--session", tmp_path / "file.toml",
                       "fate", "draw", "3")
    assert codes(first) == codes(again) == codes(by_path)
    assert len(set(codes(first))) == 3
    assert (first["remaining"], first["reshuffled"]) == (51, False)


def test_different_seeds_shuffle_differently(d2d) -> None:
    d2d.ok("--seed", "1", "session", "new", "a")
    d2d.ok("--seed", "2", "session", "new", "b")
    assert codes(d2d.json("--session", "a", "fate", "draw", "5")) != codes(
        d2d.json("--session", "b", "fate", "draw", "5"))


def test_sixty_draws_reveal_54_distinct_then_report_the_reshuffle(d2d) -> None:
    d2d.ok("--seed", "3", "session", "new", "s")
    r = d2d.json("--session", "s", "fate", "draw", "60")
    faces = [c[:-1] for c in codes(r)]
    assert len(set(faces[:54])) == 54
    assert r["reshuffled"] is True
    assert (r["remaining"], r["discarded"]) == (48, 6)
    out = d2d.ok("--session", "s", "fate", "draw", "60")
    assert "shuffled back in" in out


def test_orientation_is_stored_with_the_deck(d2d, data_dir: Path) -> None:
    d2d.ok("--seed", "5", "session", "new", "o")
    text = (data_dir / "o.toml").read_text()
    top = codes(d2d.json("--session", "o", "fate", "draw", "--peek", "2"))
    assert f'"{top[0]}"' in text  # the orientation arrow is part of the stored card


def test_peek_changes_nothing(d2d, data_dir: Path) -> None:
    d2d.ok("--seed", "5", "session", "new", "p")
    before = (data_dir / "p.toml").read_text()
    peeked = d2d.json("--session", "p", "fate", "draw", "3", "--peek")
    assert (data_dir / "p.toml").read_text() == before
    assert codes(peeked) == codes(d2d.json("--session", "p", "fate", "draw", "3"))


def test_status_and_shuffle(d2d) -> None:
    d2d.ok("--seed", "5", "session", "new", "st")
    drawn = d2d.json("--session", "st", "fate", "draw", "4")
    status = d2d.json("--session", "st", "fate", "status")
    assert (status["remaining"], status["discarded"]) == (50, 4)
    assert [c["code"] for c in status["last"]] == codes(drawn)
    shuffled = d2d.json("--session", "st", "fate", "shuffle")
    assert (shuffled["remaining"], shuffled["discarded"]) == (54, 0)


def test_coin_reads_colour(d2d) -> None:
    assert d2d.json("fate", "coin", "--card", "KS")["side"] == "heads"
    assert d2d.json("fate", "coin", "--card", "2d")["side"] == "tails"
    assert d2d.json("fate", "coin", "--card", "RW")["side"] == "tails"
    r = d2d.json("--seed", "9", "fate", "coin")
    assert r["side"] == ("heads" if r["cards"][0]["color"] == "black" else "tails")


def test_high_card_orders_by_rank_then_suit(d2d) -> None:
    # "Highest card (A-2, CDHS)": A high; equal ranks by suit ♣ > ♦ > ♥ > ♠; Wild above A.
    r = d2d.json("fate", "high-card", "Ann", "Bo", "Cy", "Di", "Ed",
                 "--card", "2C", "--card", "AS", "--card", "KC", "--card", "KH", "--card", "RW")
    assert r["order"] == ["Ed", "Bo", "Cy", "Di", "Ann"]
    assert r["ties"] == []


def test_high_card_exact_tie_reveals_again_among_the_tied(d2d) -> None:
    r = d2d.json("fate", "high-card", "Ann", "Bo", "Cy",
                 "--card", "QH", "--card", "QH", "--card", "2S", "--card", "3D", "--card", "5C")
    assert r["order"] == ["Bo", "Ann", "Cy"]  # re-reveal: Bo 5♣ beats Ann 3♦
    assert [c["code"] for c in r["cards"]["Bo"]] == ["QH^", "5C^"]


def test_high_card_from_the_deck(d2d) -> None:
    d2d.ok("--seed", "11", "session", "new", "h")
    top = codes(d2d.json("--session", "h", "fate", "draw", "3", "--peek"))
    r = d2d.json("--session", "h", "fate", "high-card", "A", "B", "C")
    assert [r["cards"][n][0]["code"] for n in "ABC"] == top


def test_die_json_and_redraws_shown(d2d) -> None:
    r = d2d.json("fate", "die", "d10", "--card", "KH", "--card", "RW", "--card", "7S")
    assert r["values"] == [7] and r["redraw"] is False
    assert [c["code"] for c in r["cards"]] == ["KH^", "RW^", "7S^"]
    assert r["rolls"][0]["redraws"] == 2


def test_die_table_mode_says_redraw_when_the_card_does_not_map(d2d) -> None:
    res = d2d("fate", "die", "d10", "--card", "QS", "--json")
    assert res.exit_code == 0
    r = json.loads(res.stdout)["result"]
    assert r["redraw"] is True and r["values"] == []
    assert "redraw" in d2d.ok("fate", "die", "d10", "--card", "QS")


def test_die_from_the_deck_uses_the_top_cards(d2d) -> None:
    d2d.ok("--seed", "4", "session", "new", "d")
    top = codes(d2d.json("--session", "d", "fate", "draw", "20", "--peek"))
    r = d2d.json("--session", "d", "fate", "die", "d54", "--count", "3")
    assert [c["code"] for c in r["cards"]] == top[:3]  # d54 never redraws
    expected = [d2d.json("fate", "die", "d54", "--card", c)["values"][0] for c in top[:3]]
    assert r["values"] == expected


def test_die_explain(d2d) -> None:
    r = d2d.json("fate", "die", "d8", "--card", "5Sv", "--explain")
    assert r["values"] == [8]
    assert r["explain"].startswith("d8: As d4")


@pytest.mark.parametrize("args", [
    ("fate", "die", "d1"), ("fate", "die", "d0"), ("fate", "die", "d1001"),
    ("fate", "die", "dX"), ("fate", "die", "d6", "--count", "-1"),
    ("fate", "die", "d6", "--count", "101"), ("fate", "draw", "101"), ("fate", "draw", "0"),
    ("fate", "draw", "-1"), ("fate", "die", "d6", "--card", "11H"),
    ("fate", "coin", "--card", "QX"), ("fate", "high-card", "Solo"),
])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(d2d, data_dir: Path, args) -> None:
    d2d.ok("--seed", "1", "session", "new", "b")
    d2d.ok("session", "use", "b")
    before = (data_dir / "b.toml").read_text()
    res = d2d(*args)
    assert res.exit_code == 2, res.stdout
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("d2d: error: ")
    assert "Traceback" not in res.stderr
    assert (data_dir / "b.toml").read_text() == before


def test_json_error_envelope(d2d) -> None:
    res = d2d("fate", "die", "d1001", "--json")
    assert res.exit_code == 2
    assert json.loads(res.stdout) == {
        "ok": False, "command": "fate die",
        "error": {"kind": "bad_input", "message": "no die d1001: N must be from 2 to 1000"}}


# ----------------------------------------------------------------- conservation


def _deck_faces(path: Path) -> tuple[list[str], list[str]]:
    data = session.read(path)
    return ([c[:-1] for c in data["fate"]["draw"]], [c[:-1] for c in data["fate"]["discard"]])


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(st.lists(st.one_of(st.tuples(st.just("draw"), st.integers(1, 70)),
                          st.tuples(st.just("shuffle"), st.just(0)),
                          st.tuples(st.just("undo"), st.just(0))), max_size=8),
       st.integers(0, 1000))
def test_draw_pile_and_discard_always_hold_the_54_cards_once(d2d, tmp_path: Path, ops,
                                                             seed: int) -> None:
    path = tmp_path / f"c{seed}-{abs(hash(tuple(ops)))}.toml"
    all_faces = sorted(c.face for c in full_deck())
    d2d.ok("--seed", seed, "session", "new", path)
    for op, n in ops:
        if op == "draw":
            d2d.ok("--session", path, "fate", "draw", n)
        elif op == "shuffle":
            d2d.ok("--session", path, "fate", "shuffle")
        else:
            d2d("--session", path, "session", "undo")  # may have nothing to undo: exit 2
        draw, discard = _deck_faces(path)
        assert sorted(draw + discard) == all_faces


def test_human_views_exact(d2d) -> None:
    """Every fate view, whole output (issue 9: exact, not substrings)."""
    d2d.ok("--seed", "7", "session", "new", "t")
    d2d.ok("session", "use", "t")
    assert d2d.ok("fate", "draw", "3") == (
        "Revealed: 6♥ 6 of Cups ↑, J♣ Jack of Wands ↑, 10♣ 10 of Wands ↑\n"
        "51 left to draw, 3 in the discard pile\n")
    assert d2d.ok("fate", "draw", "2", "--peek") == (
        "Top of the deck (not taken): 5♠ 5 of Swords ↑, 3♣ 3 of Wands ↑\n"
        "51 left to draw, 3 in the discard pile\n")
    assert d2d.ok("fate", "status") == (
        "Fate deck: 51 to draw, 3 discarded (shuffled 1×)\n"
        "Last reveal: 6♥ 6 of Cups ↑, J♣ Jack of Wands ↑, 10♣ 10 of Wands ↑\n")
    assert d2d.ok("fate", "coin", "--card", "7H") == "7♥ 7 of Cups ↑ → Tails\n"
    assert d2d.ok("fate", "high-card", "Ann", "Bo", "--card", "QH", "--card", "2S") == (
        " Order  Name  Card(s)            \n"
        " 1      Ann   Q♥ Queen of Cups ↑ \n"
        " 2      Bo    2♠ 2 of Swords ↑   \n")
    assert d2d.ok("fate", "die", "d10", "--card", "KH", "--card", "RW", "--card", "7S",
                  "--explain") == (
        "d10: 7  ← K♥ King of Cups ↑, Red Wild (joker) ↑, 7♠ 7 of Swords ↑ (2 redraws)\n"
        "How to read it by hand: d10: Rank: A is 1, 2–10 as printed. J, Q, K, Wild: "
        "redraw.\n")
    assert d2d.ok("fate", "die", "d10", "--card", "QS") == (
        "d10: Q♠ Queen of Swords ↑ → redraw: reveal another card and read again\n")
    assert d2d.ok("fate", "shuffle") == "Fate deck: 54 to draw, 0 discarded (shuffled 2×)\n"
