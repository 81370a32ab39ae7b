"""The scene clock and its events (001 p.18 "Scene: Events"; 000 "1. Setup",
"Prologue > Events", "6) Events").

"Clock Deck - Set out the Clock Deck (sorted numerically). It can tick up or down."
"Clock Events - IF there are Clock Events THEN they will have a Clock number. Place
them in the Clock Deck on top of the card matching the number." (000 "1. Setup")
"Clock - Discard the top card of the Clock. Resolve any revealed Clock Events"
(001 p.40 "Round: End").

d2d keeps the number of the Clock's top card (``value``, 1 at the start of a scene).
A tick discards it: the next card comes up (``value`` + 1, or − 1 when the clock
ticks down) and any Timed Event placed on top of that card is revealed — so an event
"on Clock #5" is reached by the tick that brings card 5 up. A revealed event is
resolved once (``done``). ``clock set`` moves the clock without revealing anything.

Random Events: "At Round End, reveal a Fate card to check if the Event occurs"
(001 p.18). Each has a chance ``K/N`` read exactly: reveal Fate cards as a dN
(``rules.dice``, redraws automatic) and the event occurs when the value is ≤ K.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules import dice
from d2d_cli.rules.cards import Card

MIN_CLOCK, MAX_CLOCK = -1000, 1000
MAX_TICKS = 1000
_CHANCE_RE = re.compile(r"^\s*(\d+)\s*(?:/|in)\s*(\d+)\s*$|^\s*(\d+)\s*%\s*$")


def check_value(n: int, what: str = "the clock") -> int:
    if not MIN_CLOCK <= n <= MAX_CLOCK:
        raise BadInput(f"{what} must be from {MIN_CLOCK} to {MAX_CLOCK}, not {n}")
    return n


def check_ticks(k: int) -> int:
    if not 1 <= k <= MAX_TICKS:
        raise BadInput(f"the number of ticks must be from 1 to {MAX_TICKS}, not {k} "
                       "(to tick down, add --down)")
    return k


def check_text(text: str) -> str:
    if not text.strip() or len(text) > 200 or any(ord(ch) < 32 for ch in text):
        raise BadInput("an event's text must be 1–200 printable characters")
    return text.strip()


def parse_chance(text: str) -> tuple[int, int]:
    """``1/4``, ``1 in 4`` or ``25%`` → (K, N): occurs when a dN reads ≤ K."""
    m = _CHANCE_RE.match(str(text))
    if not m:
        raise BadInput(f"not a chance: {text!r} — give K/N (e.g. 1/4, occurs when a dN "
                       "reads K or less) or P% (e.g. 25%)")
    k, n = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(3)), 100)
    if not dice.MIN_SIDES <= n <= dice.MAX_SIDES:
        raise BadInput(f"chance {text!r}: N must be from {dice.MIN_SIDES} to {dice.MAX_SIDES}")
    if not 1 <= k <= n:
        raise BadInput(f"chance {text!r}: K must be from 1 to N")
    f = Fraction(k, n)  # smallest die that reads the same chance (1/4 → a d4)
    if f.denominator >= dice.MIN_SIDES:
        k, n = f.numerator, f.denominator
    return k, n


@dataclass
class Clock:
    value: int = 1
    down: bool = False  # "It can tick up or down": the way a round end ticks it
    timed: list[dict[str, Any]] = field(default_factory=list)   # {at, text, done, unit?}
    random: list[dict[str, Any]] = field(default_factory=list)  # {text, k, n, repeat, done}

    @classmethod
    def from_state(cls, s: dict[str, Any] | None) -> Clock:
        s = s or {}
        return cls(int(s.get("value", 1)), bool(s.get("down", False)),
                   [dict(e) for e in s.get("timed", [])],
                   [dict(e) for e in s.get("random", [])])

    def to_state(self) -> dict[str, Any]:
        return {"value": self.value, "down": self.down, "timed": [dict(e) for e in self.timed],
                "random": [dict(e) for e in self.random]}

    def to_json(self) -> dict[str, Any]:
        return {"clock": self.value, "down": self.down,
                "timed": sorted(self.timed, key=lambda e: e["at"]),
                "random": [{**e, "chance": f"{e['k']}/{e['n']}"} for e in self.random]}

    def add_timed(self, at: int, text: str, unit: str | None = None) -> dict[str, Any]:
        event: dict[str, Any] = {"at": check_value(at, "a Timed Event's clock number"),
                                 "text": check_text(text), "done": False}
        if unit:
            event["unit"] = unit
        self.timed.append(event)
        return event

    def add_random(self, text: str, chance: str, repeat: bool = False) -> dict[str, Any]:
        k, n = parse_chance(chance)
        event = {"text": check_text(text), "k": k, "n": n, "repeat": repeat, "done": False}
        self.random.append(event)
        return event

    def tick(self, down: bool = False) -> list[dict[str, Any]]:
        """Discard the top card: the next one comes up and its Timed Events are revealed
        (in the order they were placed)."""
        self.value = check_value(self.value + (-1 if down else 1))
        reached = []
        for event in self.timed:
            if event["at"] == self.value and not event["done"]:
                event["done"] = True
                reached.append({**event, "clock": self.value})
        return reached

    def advance(self, k: int, down: bool = False) -> list[dict[str, Any]]:
        """Tick ``k`` times; every event passed, in the order reached — none skipped."""
        check_ticks(k)
        check_value(self.value + (-k if down else k))
        reached: list[dict[str, Any]] = []
        for _ in range(k):
            reached.extend(self.tick(down))
        return reached

    def check_random(self, reveal: Callable[[], Card]) -> list[dict[str, Any]]:
        """Round End: one dN reading per pending Random Event (all read before any
        event changes, so running out of table cards changes nothing)."""
        out = []
        pending = [e for e in self.random if not e["done"]]
        rolls = []
        for event in pending:
            rolls.append(dice.roll(dice.spec(int(event["n"])), reveal))
        for event, rolled in zip(pending, rolls, strict=True):
            occurs = rolled.value is not None and rolled.value <= int(event["k"])
            if occurs and not event["repeat"]:
                event["done"] = True
            out.append({"text": event["text"], "chance": f"{event['k']}/{event['n']}",
                        "value": rolled.value, "occurs": occurs,
                        "cards": [c.to_json() for c in rolled.cards]})
        return out
