"""The round's record in the session (``[round]``): its number and phase.

Kept apart from rules/time/rounds.py (round start and end, which reach the clock, the dice
and the map scales) so that a command that only reads the round — spending a unit's
Move, its abilities — does not import all of that (docs/architecture.md "Speed").
"""

from __future__ import annotations

from typing import Any

from d2d_cli.rules.core.record import record

COUNTDOWN = 10  # 001 l.499 "Each Group counts down from 10"


@record(frozen=False)
class Round:
    number: int = 0
    phase: str = "none"  # "none" (no round yet), "started" or "ended"

    @classmethod
    def from_state(cls, s: dict[str, Any] | None) -> Round:
        s = s or {}
        return cls(int(s.get("number", 0)), str(s.get("phase", "none")))

    def to_state(self) -> dict[str, Any]:
        return {"number": self.number, "phase": self.phase}
