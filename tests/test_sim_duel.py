"""The issue's one-on-one duel (issue 34 item 5): a Non-Player attacker against a
Non-Player defender, one exchange, the defender's Counter win played as 001 l.752–754
"Counter - Win vs Fast or Wild / Counterattack with a Fast or Strong" (the default
``[rules] counter``). The exact chance of the attacker is enumerated with the engine over
every ordered pair of Fate cards (and every third card when a Counter's win reveals one),
as tests/test_sim_precision.py does for its Knot; `sim`'s 95% interval must hold it."""

from __future__ import annotations

import pickle
import random
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from tests.helpers import Runner, rule_line

# Speed 1x0: Move 1 and Action Cost 1 (docs/rules.md "Move and Action Cost"), so the
# Goblin (first in the roster at the same Count) attacks once and the Guard spends its
# only Action on the Target's Action (001 l.639–641): one exchange a round. The Guard
# holds three Crits, so any Crit is its fourth: a Mortal Wound, Dying (000 l.540 "IF 4
# or more Crits"). The Guards' goal holds when the round ends (the clock ticks 1 → 2).
DUEL = """\
name = "Duel"
map = "personal"
[factions.Goblins]
goal = "down the Guard"
[factions.Guards]
goal = "last the round"
[units.Goblin]
faction = "Goblins"
player = "Non-Player"
body = "2x1"
mind = "6x1"
will = "2x1"
speed = "1x0"
skills = { "Close Combat" = 1 }
[units.Guard]
faction = "Guards"
player = "Non-Player"
body = "2x1"
mind = "6x1"
will = "2x1"
speed = "1x0"
skills = { "Close Combat" = 1 }
[[units.Guard.crits]]
card = "hack@left_arm"
deck = "wound"
location = "left_arm"
severity = "minor"
mortal_wound = false
[[units.Guard.crits]]
card = "hack@right_arm"
deck = "wound"
location = "right_arm"
severity = "minor"
mortal_wound = false
[[units.Guard.crits]]
card = "hack@torso"
deck = "wound"
location = "torso"
severity = "minor"
mortal_wound = false
[goals.Goblins]
any = [["down Guard"]]
[goals.Guards]
any = [["clock 2"]]
"""


def _exact() -> tuple[Fraction, int]:
    """The Goblins' chance over every ordered pair of distinct Fate cards (the Goblin's
    reveal, then the Guard's); where the engine reads a third card (a Counter's win
    reveals the counter-attack, 001 l.754), over each of the 52 cards left. Returns
    (the chance, the pairs that read a third card)."""
    from d2d_cli.rules.assistant import goals as g
    from d2d_cli.rules.assistant import sim
    from d2d_cli.rules.assistant.engine import Table
    from d2d_cli.rules.deck.cards import Card, full_deck
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(tomllib.loads(DUEL), {})[0])
    goals = g.parse(start["scene"]["goals"], start)
    frozen = pickle.dumps(start, -1)
    deck = list(full_deck())

    def play(cards: list[Card]) -> tuple[str | None, int]:
        """The round's one exchange on these cards: the faction that reached its goal
        during it (the Goblins, or None: the Guards' goal holds at the round's end —
        `sim` reports every fight over in round 1) and the Fate cards read."""
        t = Table(pickle.loads(frozen), random.Random(0), table_cards=cards)
        t.round_start()
        winner = sim.turns(t, goals)
        assert t.table is not None
        return winner, len(t.table.used)

    total, thirds = Fraction(0), 0
    for a in deck:
        for b in deck:
            if a.face == b.face:
                continue
            rest = [c for c in deck if c.face not in (a.face, b.face)]
            winner, used = play([a, b, *rest])
            if used <= 2:
                total += winner == "Goblins"
                continue
            thirds += 1
            assert used == 3  # at most the counter-attack's card is read
            total += Fraction(sum(play([a, b, c])[0] == "Goblins" for c in rest), len(rest))
    return total / (54 * 53), thirds


@pytest.mark.slow
def test_sims_interval_holds_the_duels_exact_chance(d2d: Runner, tmp_path: Path) -> None:
    assert "Counterattack with a Fast or Strong" in rule_line("001", 754)
    exact, thirds = _exact()
    assert thirds > 0  # Counter wins were played, each with its counter-attack's card
    assert 0.2 < exact < 0.4
    f = tmp_path / "duel.toml"
    f.write_text(DUEL, "utf-8")
    r = d2d.json("--session", tmp_path / "s.toml", "--seed", 1, "sim", f, "--runs", 3000,
                 "--workers", 1)
    assert r["runs"] == 3000 and r["undecided"] == 0 and r["rounds"] == {"1": 3000}
    row = {x["faction"]: x for x in r["factions"]}["Goblins"]
    assert row["low"] <= float(exact) <= row["high"], (float(exact), row)
