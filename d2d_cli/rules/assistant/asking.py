"""``npc turn`` asks the Player (issue 31): when a Non-Player attacks a Player's unit, the
card that unit plays is its Player's to choose (001 l.732 "Play a Conflict facedown from
hand / NPCs use a Fate card instead"), never d2d's.

:class:`Answers` gives the defending side of such a Conflict: the card typed for it
(``npc turn --answer Archer=7S^``, ``=fate`` to Stay), else the card its Player chose
face down in advance (``hand choose``, under ``[rules] hands = "d2d"``), else a Stay
when the table said so (``--players-stay``); otherwise it stops the turn with
:class:`NeedsCard`, before the attacker spends its Action, and says what to type. With
d2d holding the hands, the card leaves the hand and moves as the Conflict says
(``rules.units.hands.settle``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.units import hands, sides
from d2d_cli.rules.units.effects import EFFECTS, EVADE_MOVE

if TYPE_CHECKING:
    import random

    from d2d_cli.rules.combat.conflict import Conflict


@record
class Asked(Result):
    """Where ``npc turn`` stopped: ``attacker`` is about to attack ``target``, played by
    ``player``, who chooses its card; ``type`` is what to type to carry on."""

    attacker: str
    target: str
    player: str
    type: tuple[str, ...]

    @property
    def summary(self) -> str:
        return (f"{self.attacker} attacks {self.target}: {self.player} chooses "
                f"{self.target}'s card")


class NeedsCard(Exception):  # noqa: N818 - a stop, not an error: the turn asks
    """The turn stops here: a Player's card is needed (:class:`Asked`)."""

    def __init__(self, asked: Asked) -> None:
        super().__init__(asked.summary)
        self.asked = asked


def can_respond(unit: Mapping[str, Any]) -> bool:
    """Whether a unit's Move pays an Action now (the Target's Action, 001 l.639): Move
    tokens, less Evade's Move not yet moved, at least its Action Cost (1 when not
    set). (Its effects' names are imported with the module: a fight asks this of every
    unit before each Action, and this module is only ever imported with sim's.)"""
    move = unit.get("move")
    if move is None:
        return False
    if type(move) is not int:  # int() of an int is that int: not called for one
        move = int(move)
    # Evade's Move is for Movement only (001 l.1024–1025; rules.units.effects.for_actions):
    # move - min(move, max(0, evading)) >= max(1, cost), with no builtin called (every
    # unit, before every Action); no Evade's Move held (a round's effects most often
    # hold only Actions) is int(0), which takes nothing off
    effects = unit.get(EFFECTS)
    if effects:
        evading = effects.get(EVADE_MOVE)
        if evading:
            evading = int(evading)
            if evading > 0:
                move = move - evading if evading < move else 0
    cost = unit.get("action_cost") or 1
    if type(cost) is not int:
        cost = int(cost)
    return move >= (cost if cost > 1 else 1)


def parse_respond(values: list[str] | None, units: Mapping[str, Any]) -> frozenset[str]:
    """``--respond UNIT``: Players' units, by stored name (a Non-Player's is the NPC
    policy's to decide: rules.assistant.policy.responds)."""
    from d2d_cli.rules.units.roster import find

    out = set()
    for v in values or []:
        unit = find(units, v.strip())
        if not sides.is_player_unit(unit):
            raise BadInput(f"--respond {v}: {unit.name} is a Non-Player unit: the NPC "
                           "policy decides its Action (docs/solo.md \"The Target's "
                           "Action\")")
        out.add(unit.name)
    return frozenset(out)


def parse_answers(values: list[str] | None, units: Mapping[str, Any]) -> dict[str, str]:
    """``--answer UNIT=CARD`` (or ``UNIT=fate``): the card each Player's unit plays if
    attacked, by the unit's stored name."""
    from d2d_cli.rules.units.roster import find

    out: dict[str, str] = {}
    for v in values or []:
        name, sep, card = v.rpartition("=")
        if not sep or not name.strip() or not card.strip():
            raise BadInput(f"--answer {v!r}: give UNIT=CARD, e.g. Archer=7S^ (or "
                           "Archer=fate to Stay)")
        unit = find(units, name.strip())
        if not sides.is_player_unit(unit):
            raise BadInput(f"--answer {v!r}: {unit.name} is a Non-Player unit: it reveals "
                           "Fate (000 l.417)")
        word = card.strip()
        out[unit.name] = "fate" if word.lower() in ("fate", "stay") else \
            parse_card(word).code
    return out


class Answers:
    """The Players' side of the Conflicts an ``npc turn`` starts (see the module)."""

    def __init__(self, data: dict[str, Any], mode: str, given: dict[str, str],
                 players_stay: bool, rng: random.Random,
                 respond: frozenset[str] = frozenset(),
                 ask_respond: Callable[[str, str], bool] | None = None) -> None:
        self.data, self.mode, self.given = data, mode, dict(given)
        self.players_stay, self.rng = players_stay, rng
        # the Players' units that spend their Action when attacked (--respond), and a
        # terminal's question for the others (001 l.639–641)
        self.respond, self.ask_respond = respond, ask_respond
        self.pending: hands.Play | None = None
        self.carry: list[str] | None = None  # how the turn was asked for (--all …)
        self.moves: tuple[hands.HandMove, ...] = ()  # what the Conflicts did to hands

    def defend(self, attacker: str, target: str, skill: str | None) -> str:
        """The defending side's text (``Archer:7S^``, ``Archer:fate``), or NeedsCard."""
        unit = self.data["units"][target]
        player = sides.player_of(unit)
        assert player is not None
        held = hands.hands_of(self.data) if self.mode == "d2d" else {}
        mine = held.get(player)
        chosen = mine.chosen if mine is not None and mine.chosen is not None and \
            mine.chosen.unit == target else None
        answer = self.given.pop(target, None)
        self.pending = None
        if answer is None and chosen is not None:
            self.pending = hands.Play(1, player, chosen.card, "chosen")
            return f"{target}:{chosen.card.code}"
        if answer is None and self.players_stay:
            answer = "fate"
        if answer is None:
            import shlex

            carry = ["d2d", "npc", "turn", *(self.carry or [attacker])]
            typed = (["d2d", "hand", "choose", target, "CARD"], carry) if self.mode == "d2d" \
                else ((*carry, "--answer", f"{target}=CARD"),)
            raise NeedsCard(Asked(attacker, target, player, tuple(
                shlex.join(list(words)) for words in typed) + (
                shlex.join([*carry, "--answer", f"{target}=fate"]) + "  (Stay: 000 l.419)",)))
        if answer == "fate":
            if chosen is not None:  # Stay: the face-down card goes back (000 l.419)
                self.pending = hands.Play(1, player, chosen.card, "stay")
            return f"{target}:fate"
        card = parse_card(answer)
        if self.mode == "d2d":
            hands.hand_for(held, player).find(card)  # refused when not in the hand
            self.pending = hands.Play(1, player, card, "hand")
        return f"{target}:{card.code}"

    def responds(self, attacker: str, target: str) -> bool:
        """Whether the Player's unit ``target`` spends its Action on ``attacker``'s
        Interact (001 l.639–641 "Target may spend an Action / IF not Target gains no
        benefits on a Win"): named with ``--respond``, else the terminal's answer, else
        no. Asked only when its Move pays the Action Cost."""
        if target in self.respond:
            return True
        if self.ask_respond is None or not can_respond(self.data["units"][target]):
            return False
        return bool(self.ask_respond(attacker, target))

    def settle(self, c: Conflict) -> None:
        """The defending Player's cards after the Conflict (d2d's hands only)."""
        if self.pending is None:
            return
        held = hands.hands_of(self.data)
        self.moves += hands.settle(held, (self.pending,), (
            tuple(e.key for e in c.effects.a), tuple(e.key for e in c.effects.b)),
            (c.side_a.unit, c.side_b.unit), self.rng, (c.side_a.card, c.side_b.card))
        self.data["players"] = hands.state_of(held)
        self.pending = None
