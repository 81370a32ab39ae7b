"""Advantage and Disadvantage: reveal another card, keep the best or the worst.

000 l.423–424 ("3) Reveal"): "Advantage - IF you have Advantage THEN Reveal Fate. Use
either of the 2 Conflict cards. Disadvantage - IF you have Disadvantage THEN Reveal
Fate. Use the worst of the 2 Conflict cards." Glossary l.1122 "Advantage - Reveal
another Conflict and take the best result"; l.1178 "Disadvantage - Reveal another
Conflict and take the worse result."

Cancelling (docs/rules.md): on one side, each Advantage cancels one Disadvantage (what
is left decides; one extra card at most — no text stacks them). Across the two sides of
a Conflict, both at Disadvantage (or both at Advantage) cancel: 000 l.600–601, Combat
#1's Thief and the Scout's Knot, "they will both be at Disadvantage … The Disadvantages
cancel, so it is a normal Task".

The keep-best / keep-worst reveal is generic (:func:`keep`, :func:`reveal_keep`): what
"best" means is the caller's ``score`` — a Conflict card's result against the Rival
(rules.combat.conflict), the Hits of a revealed combo (rules.combat.hits), a die's reading.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, TypeVar

from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result

NORMAL, ADVANTAGE, DISADVANTAGE = "normal", "advantage", "disadvantage"
MODES = (NORMAL, ADVANTAGE, DISADVANTAGE)

T = TypeVar("T")


@record
class Source(Result):
    """One reason for Advantage or Disadvantage: what it is, why it applies here, and
    the line of the rule text."""

    key: str  # "option", "unskilled", "blessed", "range", "weapon_scale"
    mode: str  # ADVANTAGE or DISADVANTAGE
    why: str
    source: str


@record
class Standing(Result):
    """A side's Advantage after cancelling: ``mode`` is what applies, ``sources`` every
    reason found, ``cancelled`` why some or all of them do not count (or None)."""

    mode: str
    sources: tuple[Source, ...]
    cancelled: str | None

    @cached_property  # a Standing is immutable: both sides of every Conflict read it
    def extra(self) -> int:
        """Cards revealed beyond the usual: one with Advantage or Disadvantage."""
        return 0 if self.mode == NORMAL else 1


def net(sources: Sequence[Source]) -> tuple[str, str | None]:
    """One side's mode: each Advantage cancels one Disadvantage; (mode, why cancelled)."""
    up = sum(s.mode == ADVANTAGE for s in sources)
    down = sum(s.mode == DISADVANTAGE for s in sources)
    mode = ADVANTAGE if up > down else DISADVANTAGE if down > up else NORMAL
    why = None
    if up and down:
        why = f"{min(up, down)} Advantage and Disadvantage cancel on this side"
    return mode, why


def standings(a: Sequence[Source], b: Sequence[Source],
              both_cancel: str = "") -> tuple[Standing, Standing]:
    """Both sides' Standing: each side's own net, then both at Disadvantage (or both at
    Advantage) cancel (000 l.600–601). ``both_cancel`` is the line quoted when they do."""
    if not a and not b:  # no reason on either side (the usual case): both normal
        return _NEITHER
    mode_a, why_a = net(a)
    mode_b, why_b = net(b)
    if mode_a == mode_b != NORMAL:
        word = "Disadvantage" if mode_a == DISADVANTAGE else "Advantage"
        why = f"both sides at {word}: they cancel" + (f" ({both_cancel})" if both_cancel
                                                        else "")
        return Standing(NORMAL, tuple(a), why), Standing(NORMAL, tuple(b), why)
    return Standing(mode_a, tuple(a), why_a), Standing(mode_b, tuple(b), why_b)


_NEITHER = (Standing(NORMAL, (), None), Standing(NORMAL, (), None))  # frozen: shared


def keep(candidates: Sequence[T], mode: str, score: Callable[[T], Any]) -> int:
    """The index of the candidate kept: the highest ``score`` with Advantage, the lowest
    with Disadvantage, the first when scores tie (or in normal mode)."""
    if not candidates:
        raise ValueError("nothing to keep")
    if mode == NORMAL or len(candidates) == 1:
        return 0
    best, b = 0, score(candidates[0])  # each candidate scored once (scores are pure)
    for i in range(1, len(candidates)):
        s = score(candidates[i])
        if (s > b) if mode == ADVANTAGE else (s < b):
            best, b = i, s
    return best


@record
class Kept:
    """Cards revealed with Advantage or Disadvantage: all of them, in order, and the
    indexes of those kept (in order). A record: a NamedTuple class cost ~0.19 ms to
    build at every import (issue 40 item 3)."""

    revealed: tuple[Any, ...]
    kept: tuple[int, ...]

    @property
    def cards(self) -> list[Any]:
        return [self.revealed[i] for i in self.kept]

    @property
    def dropped(self) -> list[Any]:
        return [c for i, c in enumerate(self.revealed) if i not in self.kept]


def reveal_keep(reveal: Callable[[], T], need: int, mode: str,
                score: Callable[[list[T]], Any]) -> Kept:
    """Reveal ``need`` cards — one more with Advantage or Disadvantage — and keep the
    ``need`` of them (in the order revealed) whose ``score`` is the best (Advantage) or
    the worst (Disadvantage); ties keep the earliest cards. ``reveal`` may raise
    ``fate.OutOfCards`` (table mode)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    count = need + (0 if mode == NORMAL else 1)
    got = [reveal() for _ in range(count)]
    if mode == NORMAL:
        return Kept(tuple(got), tuple(range(need)))
    choices = list(itertools.combinations(range(count), need))
    pick = keep(choices, mode, lambda idx: score([got[i] for i in idx]))
    return Kept(tuple(got), choices[pick])


# --------------------------------------------------------------------------- a Conflict

# A side's view of a Conflict's outcome, best first: a win, both win, neither, a loss
# (docs/rules.md "Advantage"). "rank" (same approach, no cards to compare) counts as
# neither. Outcomes as rules.combat.conflict names them.
OUTCOME_VALUE = {"a": {"a": 3, "both": 2, "tie": 1, "rank": 1, "b": 0},
                 "b": {"b": 3, "both": 2, "tie": 1, "rank": 1, "a": 0}}

A = TypeVar("A")
B = TypeVar("B")


def chooser(count_a: int, count_b: int, modes: tuple[str, str]) -> tuple[str, str]:
    """Who chooses the kept pair of a Conflict, and how: ``(side, mode)``. A side with
    more than one candidate chooses by its own mode (000 l.423–424: "Use either of the 2
    Conflict cards" / "Use the worst of the 2"). When both sides have two — one at
    Advantage, the other at Disadvantage (the same modes cancel, 000 l.600–601) — both
    choices favour the same side: the side with Advantage keeps the pair best for it."""
    if count_a > 1 and count_b > 1:
        return ("a" if modes[0] == ADVANTAGE else "b"), ADVANTAGE
    if count_b > 1:
        return "b", modes[1]
    if count_a > 1:
        return "a", modes[0]
    return "a", NORMAL


def keep_conflict(options_a: Sequence[A], options_b: Sequence[B], modes: tuple[str, str],
                  outcome: Callable[[A, B], str],
                  hit_value: Callable[[A | B], int]) -> tuple[int, int]:
    """The Advantage rule of a Conflict, "who keeps which card": the indexes of the
    candidates kept on each side (each side's own card or approach first, then the Fate
    cards revealed for its Advantage or Disadvantage, in the order revealed).

    The chooser (:func:`chooser`) ranks every pair by its ``outcome`` as the chooser sees
    it (:data:`OUTCOME_VALUE`: a win, both win, neither, a loss), then by the
    ``hit_value`` of the chooser's own candidate (the Hits it would score once it wins);
    it keeps the best pair with Advantage, the worst with Disadvantage, the first pair
    when they tie (:func:`keep`). ``rules.combat.conflict.resolve`` and
    ``rules.odds.conflict.conflict_odds`` both keep their cards by this function."""
    if len(options_a) == 1 and len(options_b) == 1:  # no Fate card beyond each side's own:
        return 0, 0  # one pair, kept (what chooser and keep give, without scoring it)
    side, mode = chooser(len(options_a), len(options_b), modes)
    pairs = [(i, j) for i in range(len(options_a)) for j in range(len(options_b))]
    view = OUTCOME_VALUE[side]

    def value(pair: tuple[int, int]) -> tuple[int, int]:
        a, b = options_a[pair[0]], options_b[pair[1]]
        return view[outcome(a, b)], hit_value(a if side == "a" else b)

    return pairs[keep(pairs, mode, value)]
