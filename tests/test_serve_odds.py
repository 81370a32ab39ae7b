"""The exact odds of a Player's cards on their own page (issue 35 item 2): when d2d knows
the coming Conflict — the open question of a waiting ``npc turn`` (``[round.asking]``) —
each card of the asked Player's hand, Upper and Lower, and their card chosen face down
carry the chance they win, lose, both win or tie, from ``d2d odds conflict``'s own path
(``operations.odds.conflict_of``). The Non-Player attacker reveals Fate (001 l.732 "NPCs
use a Fate card instead"), so the odds are over the Fate deck's draw pile as a set.

Checked here against an enumeration that never touches the odds code: every card the
draw pile holds, revealed for the attacker through ``conflict.resolve`` (what ``d2d
conflict`` resolves with), counted. The figure is on no public byte and on no other
Player's page, and there is none where no Conflict is known."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import operations, session
from d2d_cli.operations import Target, npc
from d2d_cli.rules.assistant.policy import skill_for
from d2d_cli.rules.combat import conflict
from d2d_cli.rules.combat.situation import Terms
from d2d_cli.rules.core import options
from d2d_cli.rules.deck import fate
from d2d_cli.serve import project
from tests import serve_helpers as h

HANDS = {"Player1": ["9C", "KD", "2D"], "Player2": ["AD", "RW"]}


@pytest.fixture
def asked(tmp_path: Path) -> Path:
    """Combat #1, hands held by d2d, the Archer's Wait at Count 5: ``npc turn --all``
    moves the Goblin Scout, then stops where the Goblin Skirmisher attacks the Archer,
    the question kept for the page (as ``npc turn --wait`` keeps it while it waits)."""
    path = h.table(tmp_path, hands=False)
    h.stack_hands(path, HANDS)
    # Count 5 reaches the Archer with the Goblins: he Waits (Move 5 → 4), so npc turn
    # --all plays the Goblins' Count 5 (docs/rules.md "npc turn --all, one Count at a time")
    done = h.d2d("--session", str(path), "unit", "wait", "Archer", "5")
    assert done.returncode == 0, done.stderr
    r = operations.call(npc.turn, Target(str(path)), None, all=True, keep_question=True)
    assert r.asked is not None and r.asked.target == "Archer"
    assert npc.question(session.read(path)) == {
        "attacker": "Goblin Skirmisher", "target": "Archer", "player": "Player1"}
    return path


class Reveal:
    """The Fate deck with ``cards`` on top: the attacker's card, then (a counter-attack's
    reveal, which decides no outcome) the rest."""

    reshuffled = False

    def __init__(self, cards: list[Any]) -> None:
        self.cards = iter(cards)

    def __call__(self) -> Any:
        return next(self.cards)


def enumerated(data: dict[str, Any], attacker: str, target: str, card: str
               ) -> dict[str, Fraction]:
    """Each outcome's share over every card of the draw pile revealed for the attacker,
    resolved as ``d2d conflict`` resolves it (not the odds walk), with the weapon the
    turn attacks with (its command line says ``--with Javelin``)."""
    opts = options.parse(data.get("rules"), "t")
    ask = conflict.ask([f"{attacker}:fate", f"{target}:{card}"], data, opts=opts,
                       skill=skill_for(data["units"][attacker]),
                       terms=Terms(with_="Javelin"),
                       reading=opts.conflict_chart, fate_orientation=opts.fate_orientation,
                       level_bonus=opts.level_bonus)
    assert ask.reveals == 1 and not ask.obstacles  # one Fate card decides it
    pile = fate.Deck.from_state(data["fate"]).draw
    got: Counter[str] = Counter()
    for i, c in enumerate(pile):
        r = conflict.resolve(ask, Reveal([c, *pile[:i], *pile[i + 1:]]))
        assert isinstance(r, conflict.Conflict)
        got[r.outcome] += 1
    return {k: Fraction(n, len(pile)) for k, n in got.items()}


def as_fractions(row: dict[str, Any]) -> dict[str, Fraction]:
    names = {"win": "b", "lose": "a", "both": "both", "tie": "tie"}
    return {names[k]: Fraction(v["fraction"]) for k, v in row.items()
            if k in names and Fraction(v["fraction"])}


def test_each_card_s_odds_are_the_enumerated_conflict(asked: Path) -> None:
    data = session.read(asked)
    mine = project.player(data, "Player1")
    odds = mine["odds"]
    assert (odds["attacker"], odds["target"], odds["weapon"]) == (
        "Goblin Skirmisher", "Archer", "Javelin")
    assert odds["deck"]["remaining"] == len(data["fate"]["draw"])
    assert sorted(odds["cards"]) == ["2D^", "2Dv", "9C^", "9Cv", "KD^", "KDv"]
    for code, row in odds["cards"].items():
        assert as_fractions(row) == enumerated(data, "Goblin Skirmisher", "Archer", code), code
    assert odds["chosen"] is None  # nothing face down yet
    # the same figures as d2d odds conflict prints for the same sides
    said = h.d2d("--session", str(asked), "odds", "conflict", "Goblin Skirmisher:fate",
                 "Archer:KD^", "--json")
    assert said.returncode == 0, said.stderr
    printed = json.loads(said.stdout)["result"]
    assert Fraction(printed["b_wins"]["fraction"]) == Fraction(
        odds["cards"]["KD^"]["win"]["fraction"])


def test_the_chosen_card_s_odds_follow_the_deck(asked: Path) -> None:
    """The card chosen face down for the asked unit carries its odds; after a Fate card
    is drawn, they are over the pile as it now is (the cache is keyed on the deck)."""
    done = h.d2d("--session", str(asked), "hand", "choose", "Archer", "KDv")
    assert done.returncode == 0, done.stderr
    data = session.read(asked)
    chosen = project.player(data, "Player1")["odds"]["chosen"]
    assert chosen["card"] == "KDv"
    assert as_fractions(chosen) == enumerated(data, "Goblin Skirmisher", "Archer", "KDv")
    for _ in range(5):
        done = h.d2d("--session", str(asked), "fate", "draw")
        assert done.returncode == 0, done.stderr
    later = session.read(asked)
    again = project.player(later, "Player1")["odds"]
    assert again["deck"]["remaining"] == len(data["fate"]["draw"]) - 5
    assert as_fractions(again["chosen"]) == enumerated(later, "Goblin Skirmisher", "Archer",
                                                       "KDv")


def test_the_odds_are_on_no_public_byte_and_no_other_players_page(asked: Path) -> None:
    done = h.d2d("--session", str(asked), "hand", "choose", "Archer", "9C^")
    assert done.returncode == 0, done.stderr
    data = session.read(asked)
    mine = project.player(data, "Player1")["odds"]
    assert mine["chosen"]["card"] == "9C^"
    public = json.dumps(project.public(data, session.log(asked, 30), "t"))
    other = project.player(data, "Player2")
    assert other["odds"] is None
    for raw in (public, json.dumps(other)):
        assert '"odds": {"attacker"' not in raw and '"win"' not in raw
        assert "9C^" not in raw and "Exact odds" not in raw
    # the public page shows the attack coming, never a chance of the Player's card
    assert json.loads(public)["asking"] == {"attacker": "Goblin Skirmisher",
                                            "target": "Archer", "player": "Player1"}


def test_no_odds_where_no_conflict_is_known(tmp_path: Path) -> None:
    """A card chosen face down with no question open: d2d does not know what it will
    meet, so the page shows no figure (no guess)."""
    path = h.table(tmp_path)  # QHv chosen face down for the Archer, no npc turn
    data = session.read(path)
    assert project.player(data, "Player1")["chosen"]["card"] == "QHv"
    assert project.player(data, "Player1")["odds"] is None
    # a question for another Player's unit gives this one nothing either
    data["round"]["asking"] = {"attacker": "Goblin Scout", "target": "Thief",
                               "player": "Player2"}
    assert project.player(data, "Player1")["odds"] is None
    # nor does one d2d cannot resolve (the Goblin Scout is 2 Spaces from the Thief: out
    # of its reach, 001 l.685): no figure rather than a wrong one
    assert project.player(data, "Player2")["odds"] is None


def test_the_odds_are_worked_out_once_per_state(asked: Path, monkeypatch: Any) -> None:
    """A projection runs on every change: the odds are worked out again only when what
    they depend on changed (another Player's hand did not; the Fate deck did)."""
    calls: list[list[str]] = []
    real = project._odds_of

    def counted(*args: Any) -> Any:
        calls.append(list(args[-1]))
        return real(*args)

    monkeypatch.setattr(project, "_odds_of", counted)
    project._ODDS_CACHE.clear()
    data = session.read(asked)
    first = project.player(data, "Player1")["odds"]
    assert project.player(data, "Player1")["odds"] == first and len(calls) == 1
    done = h.d2d("--session", str(asked), "hand", "choose", "Thief", "AD^")
    assert done.returncode == 0, done.stderr  # Player2's hand: not what the odds read
    assert project.player(session.read(asked), "Player1")["odds"] == first
    assert len(calls) == 1
    done = h.d2d("--session", str(asked), "fate", "draw")
    assert done.returncode == 0, done.stderr
    project.player(session.read(asked), "Player1")
    assert len(calls) == 2


def test_the_odds_are_what_the_npc_turn_then_plays(asked: Path) -> None:
    """The page's figure against what the waiting turn then does: for every card of the
    draw pile put on top in turn, ``npc turn`` played on with the Archer's 9♣ Upper (in a
    unit of work never committed, so the session stays as it was): the share of each
    outcome of its Conflict is the page's. Slow-ish: one turn per card (~54)."""
    from d2d_cli.operations import unit_of_work

    data = session.read(asked)
    row = project.player(data, "Player1")["odds"]["cards"]["9C^"]
    pile = list(data["fate"]["draw"])
    got: Counter[str] = Counter()
    for i, top in enumerate(pile):
        with session.edit(asked, "test: this card on top") as tx:
            tx.put("fate", {**tx.data["fate"], "draw": [top, *pile[:i], *pile[i + 1:]]})
        with unit_of_work(join=False):  # dropped: nothing the turn does is written
            r = npc.turn(Target(str(asked)), None, all=True, answer=["Archer=9C^"])
        fought = [d.result for d in r.done if isinstance(d.result, conflict.Conflict)]
        assert fought[0].side_a.card is not None and fought[0].side_a.card.face == top[:-1]
        got[fought[0].outcome] += 1
    assert {k: Fraction(n, len(pile)) for k, n in got.items()} == as_fractions(row)
