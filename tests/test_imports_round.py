"""``round next`` loads only what it asks (issue 40 item 3): who acts next needs the
roster, the round and the Countdown — not the round's start and end (their upkeep, the
map's moves and sight), nor the clock's view. Timings are bench/'s; this pins the modules."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import in_fresh_process

NOT_FOR_NEXT = {"d2d_cli.rules.time.rounds", "d2d_cli.rules.time.upkeep",
                "d2d_cli.rules.time.turns", "d2d_cli.rules.board.moves",
                "d2d_cli.rules.board.sight", "d2d_cli.commands.clock",
                "d2d_cli.rules.time.clock", "rich",
                # nor the card parser: who acts next reveals no card (operations imports
                # it where a card is read, issue 40's fourth round)
                "d2d_cli.rules.deck.cards"}


def test_round_next_loads_neither_the_rounds_start_and_end_nor_the_map(
        tmp_path: Path) -> None:
    out, loaded = in_fresh_process(str(tmp_path / "s.toml"),
                                   [["scene", "load", "combat1"], ["round", "start"]],
                                   ["round", "next"])
    assert "Group 1, Count" in out  # it answered
    assert "d2d_cli.rules.time.groups" in loaded
    assert loaded & NOT_FOR_NEXT == set()
