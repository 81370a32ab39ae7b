"""The Fate oracle (rules/assistant/oracle.py, ``d2d oracle``): docs/rules.md "The Fate
oracle". D2D asks for it — "Game Master or AI" (000 l.15), "Reduce GM workload or play
GM-less" (001 l.65) — and gives no procedure, so the fractions below are d2d's own,
derived by hand from a full 54-card deck and checked by enumerating its 108 outcomes."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from d2d_cli.rules.assistant import oracle
from d2d_cli.rules.deck.cards import all_outcomes, parse_card
from d2d_cli.rules.odds.exact import DeckView, Piles
from tests.helpers import assert_refused, stack_deck

# From a full deck: 27 black cards (13 Wands, 13 Swords, the black Wild) and 27 red;
# "and" on A J Q K (16 cards, 8 black), "but" on 2 3 4 (12, 6 black), a twist on a Wild
# (2, 1 black), the answer alone on 5–10 (24, 12 black); each card Upper or Lower 1/2.
FULL = {
    "even": {("yes", "and"): F(4, 27), ("yes", ""): F(2, 9), ("yes", "but"): F(1, 9),
             ("yes", "twist"): F(1, 54), ("no", "and"): F(4, 27), ("no", ""): F(2, 9),
             ("no", "but"): F(1, 9), ("no", "twist"): F(1, 54)},
    "likely": {("yes", "and"): F(2, 9), ("yes", ""): F(1, 3), ("yes", "but"): F(1, 6),
               ("yes", "twist"): F(1, 36), ("no", "and"): F(2, 27), ("no", ""): F(1, 9),
               ("no", "but"): F(1, 18), ("no", "twist"): F(1, 108)},
    "unlikely": {("yes", "and"): F(2, 27), ("yes", ""): F(1, 9), ("yes", "but"): F(1, 18),
                 ("yes", "twist"): F(1, 108), ("no", "and"): F(2, 9), ("no", ""): F(1, 3),
                 ("no", "but"): F(1, 6), ("no", "twist"): F(1, 36)},
}
YES = {"even": F(1, 2), "likely": F(3, 4), "unlikely": F(1, 4)}


@pytest.mark.parametrize("likelihood", oracle.LIKELIHOODS)
def test_full_deck_fractions(likelihood: str) -> None:
    dist = oracle.distribution(Piles.fresh(), likelihood)
    assert dist == FULL[likelihood]
    assert sum(p for (a, _), p in dist.items() if a == "yes") == YES[likelihood]
    # the same by enumerating the 108 equally likely (card, orientation) outcomes
    counted: dict[tuple[str, str], F] = {}
    for card in all_outcomes():
        key = oracle.reading(card, likelihood)
        counted[key] = counted.get(key, F(0)) + F(1, 108)
    assert counted == FULL[likelihood]


def test_odds_from_the_deck_as_it_stands() -> None:
    # Only the four Aces left to draw: every answer has "and"; the pile's order unread.
    aces = ("AC", "AD", "AH", "AS")
    rest = tuple(sorted(c.face for c in all_outcomes() if c.upper and c.rank != "A"))
    piles = Piles(tuple(sorted(aces)), rest)
    got = oracle.odds("Q?", piles, DeckView("session", 4, 50), "likely")
    by = {(r.answer, r.qualifier): r.probability.fraction for r in got.rows}
    # likely: yes on Upper (1/2) or on a black Ace Lower (2 of 4 × 1/2)
    assert by[("yes", "and")] == F(3, 4) and by[("no", "and")] == F(1, 4)
    assert got.yes.fraction == F(3, 4) and sum(by.values()) == 1
    # an empty pile: the discard pile is shuffled back in (as fate draw does)
    empty = oracle.distribution(Piles((), tuple(sorted(c.face for c in all_outcomes()
                                                         if c.upper))), "even")
    assert empty == FULL["even"]


def test_reading_each_step() -> None:
    assert oracle.reading(parse_card("QH^"), "even") == ("yes", "and")
    assert oracle.reading(parse_card("QHv"), "likely") == ("no", "and")  # red Lower
    assert oracle.reading(parse_card("7Sv"), "likely") == ("yes", "")  # black Lower
    assert oracle.reading(parse_card("7S^"), "unlikely") == ("yes", "")  # black Upper
    assert oracle.reading(parse_card("3D^"), "unlikely") == ("no", "but")  # red Upper
    assert oracle.reading(parse_card("RWv"), "even") == ("no", "twist")
    assert oracle.words("yes", "and") == "Yes, and…"
    assert oracle.words("no", "") == "No"
    assert oracle.words("no", "twist") == "No, with a twist"


def test_cli_reveals_from_the_deck_and_journals(d2d, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "t.toml"
    d2d.ok("--session", path, "fate", "status")
    stack_deck(path, "KC^", "4Dv")
    got = d2d.json("--session", path, "oracle", "Is the door locked?")
    assert (got["answer"], got["qualifier"], got["theme"], got["card"]["code"]) == (
        "yes", "and", "body", "KC^")
    got = d2d.json("--session", path, "oracle", "Is anyone home?", "--likely")
    assert (got["answer"], got["qualifier"], got["text"]) == ("no", "but", "No, but…")
    assert d2d.json("--session", path, "fate", "status")["discarded"] == 2
    log = d2d.ok("--session", path, "session", "log")
    assert "oracle" in log
    d2d.ok("--session", path, "session", "undo")
    assert d2d.json("--session", path, "fate", "status")["discarded"] == 1


def test_cli_table_mode_and_odds_change_nothing(d2d, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "t.toml"
    d2d.ok("--session", path, "fate", "status")
    before = path.read_bytes()
    out = d2d.ok("--session", path, "oracle", "Is it raining?", "--unlikely", "--card", "8S^")
    assert "Yes" in out and "Speed" in out
    odds = d2d.json("--session", path, "oracle", "Is it raining?", "--odds", "--fresh")
    assert odds["yes"]["fraction"] == "1/2"
    assert [r["probability"]["fraction"] for r in odds["rows"]] == [
        "4/27", "2/9", "1/9", "1/54", "4/27", "2/9", "1/9", "1/54"]
    assert path.read_bytes() == before


@pytest.mark.parametrize(("args", "message"), [
    (["oracle", ""], "ask a question"),
    (["oracle", "Q?", "--likely", "--unlikely"], "exclude each other"),
    (["oracle", "Q?", "--card", "2C", "--card", "3C"], "too many cards"),
    (["oracle", "Q?", "--odds", "--card", "2C"], "takes no --card"),
    (["oracle", "Q?", "--fresh"], "--fresh is for --odds"),
    (["oracle", "Q?", "--card", "ZZ"], "not a card"),
])
def test_cli_refusals_change_nothing(d2d, data_dir: Path, args: list[str],
                                     message: str) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "t.toml"
    d2d.ok("--session", path, "fate", "status")
    assert_refused(d2d, data_dir, ["--session", str(path), *args], message)
