"""One card, two arrows (issue 20 item 5): a Non-Player's Fate card is read by its colour
(000 l.420 "Non-Player Units reveal a Fate where Black means Upper and Red means
Lower."), so ``fate draw --peek`` may show it ↑ and the conflict ↓. The conflict says
why, and the journal says what was shown."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import Runner, rule_line, stack_deck, with_rules


def test_the_rule_is_quoted_as_written() -> None:
    assert "Non-Player Units reveal a Fate where Black means Upper and Red means Lower" in \
        rule_line("000", 420)


def test_a_card_turned_by_colour_says_why_and_the_log_agrees(d2d: Runner,
                                                             tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    d2d.ok("--session", path, "fate", "status")
    stack_deck(path, "4H^", "5Sv")
    assert d2d.ok("--session", path, "fate", "draw", "--peek", "2").startswith(
        "Top of the deck (not taken): 4♥ 4 of Cups ↑, 5♠ 5 of Swords ↓\n")
    assert d2d.ok("--why", "--session", path, "conflict", "fate", "fate") == (
        "A: Block (4♥ 4 of Cups ↓)   vs   B: Fast (5♠ 5 of Swords ↑)\n"
        "  A's Fate 4♥ 4 of Cups ↑ is read ↓: red → Lower for a Non-Player (000 l.420)\n"
        "  B's Fate 5♠ 5 of Swords ↓ is read ↑: black → Upper for a Non-Player (000 l.420)\n"
        "A wins\n"
        "  A: Keep: its Block holds (a Non-Player keeps no cards)\n"
        "  A: Draw a card\n")
    entry = d2d.json("--session", path, "session", "log")["entries"][-1]
    assert entry["command"] == "conflict fate fate"
    # the outcome first (issue 37: the recap tells it), then how the cards were read
    assert entry["summary"] == ("Conflict: Block 4♥↓ beats Fast 5♠↑; "
                                "revealed 4H^ 5Sv; read by colour: A 4H^ as 4Hv (red → Lower "
                                "for a Non-Player), B 5Sv as 5S^ (black → Upper for a "
                                "Non-Player)")
    log = d2d.ok("--session", path, "session", "log")
    assert "read by colour: A 4H^ as 4Hv (red → Lower for a Non-Player)" in log


def test_a_card_lying_as_its_colour_reads_needs_no_word(d2d: Runner, tmp_path: Path) -> None:
    """Red and already Lower, black and already Upper: nothing was turned."""
    path = tmp_path / "s.toml"
    d2d.ok("--session", path, "fate", "status")
    stack_deck(path, "4Hv", "5S^")
    out = d2d.ok("--why", "--session", path, "conflict", "fate", "fate")
    assert out.startswith("A: Block (4♥ 4 of Cups ↓)   vs   B: Fast (5♠ 5 of Swords ↑)\nA wins")
    assert d2d.json("--session", path, "session", "log")["entries"][-1]["summary"] == \
        "Conflict: Block 4♥↓ beats Fast 5♠↑; revealed 4Hv 5S^"


def test_table_mode_says_why_too(d2d: Runner) -> None:
    out = d2d.ok("--why", "conflict", "fate", "fast", "--card", "QDv")
    assert "  A's Fate Q♦ Queen of Coins ↓ is read ↓" not in out  # lying as it reads
    out = d2d.ok("--why", "conflict", "fate", "fast", "--card", "QD^")
    assert "  A's Fate Q♦ Queen of Coins ↑ is read ↓: red → Lower for a Non-Player " \
        "(000 l.420)\n" in out


def test_read_as_it_lies_there_is_nothing_to_explain(d2d: Runner, tmp_path: Path) -> None:
    """[rules] fate_orientation = "card": the card keeps the orientation it was revealed
    with; nothing is turned, nothing is said, the log holds the card alone."""
    path = with_rules(d2d, tmp_path, fate_orientation="card")
    stack_deck(path, "4H^", "5Sv")
    out = d2d.ok("--why", "--session", path, "conflict", "fate", "fate")
    assert out.startswith("A: Fast (4♥ 4 of Cups ↑)   vs   B: Evade (5♠ 5 of Swords ↓)\n")
    assert "000 l.420" not in out
    entry = d2d.json("--session", path, "session", "log")["entries"][-1]
    assert entry["summary"] == "Conflict: Fast 4♥↑ beats Evade 5♠↓; revealed 4H^ 5Sv"
