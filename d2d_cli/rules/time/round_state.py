"""The round's record in the session (``[round]``): its number and phase.

Kept apart from rules/time/rounds.py (round start and end, which reach the clock, the dice
and the map scales) so that a command that only reads the round — spending a unit's
Move, its abilities — does not import all of that (docs/architecture.md "Speed").
"""

from __future__ import annotations

from typing import Any

COUNTDOWN = 10  # 001 l.499 "Each Group counts down from 10"


class Round:
    """The round's number and phase: a mutable record as ``@record(frozen=False)``
    makes one — built by position or keyword in this order, equal by its two values,
    unhashable, its ``repr`` naming them — written as a plain class with slots: a
    simulated fight reads one ~10 times (each ``round start`` and ``round end``), and a
    record's init cost ~2.7 k instructions more (tests/test_sim_engine_cut13.py holds
    it to the record it was)."""

    __slots__ = ("number", "phase")
    __hash__ = None  # type: ignore[assignment]  # mutable: as a record(frozen=False)

    def __init__(self, number: int = 0, phase: str = "none") -> None:
        self.number = number
        self.phase = phase  # "none" (no round yet), "started" or "ended"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Round)
        return (self.number, self.phase) == (other.number, other.phase)

    def __repr__(self) -> str:
        return f"Round(number={self.number!r}, phase={self.phase!r})"

    @classmethod
    def from_state(cls, s: dict[str, Any] | None) -> Round:
        s = s or {}
        # a whole number and a text taken as they are (``int`` of an int and ``str`` of
        # a text are that very object: not called)
        number, phase = s.get("number", 0), s.get("phase", "none")
        return cls(number if type(number) is int else int(number),
                   phase if type(phase) is str else str(phase))

    def to_state(self) -> dict[str, Any]:
        return {"number": self.number, "phase": self.phase}
