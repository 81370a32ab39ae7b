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
(``rules.deck.dice``, redraws automatic) and the event occurs when the value is ≤ K.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.core.record import field, record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.units import roster as units

if TYPE_CHECKING:  # a Card is only named here: the clock's reveal is its caller's
    from d2d_cli.rules.deck.cards import Card

MIN_CLOCK, MAX_CLOCK = -1000, 1000
MAX_TICKS = 1000


@functools.cache
def _chance_re() -> re.Pattern[str]:
    """Compiled on first use: a call that never asks (a lookup) does not pay for it."""
    return re.compile(r"^\s*(\d+)\s*(?:/|in)\s*(\d+)\s*$|^\s*(\d+)\s*%\s*$")


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
    m = _chance_re().match(str(text))
    if not m:
        raise BadInput(f"not a chance: {text!r} — give K/N (e.g. 1/4, occurs when a dN "
                       "reads K or less) or P% (e.g. 25%)")
    k, n = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(3)), 100)
    from d2d_cli.rules.deck import dice  # a chance typed or a Random Event read: not a view

    if not dice.MIN_SIDES <= n <= dice.MAX_SIDES:
        raise BadInput(f"chance {text!r}: N must be from {dice.MIN_SIDES} to {dice.MAX_SIDES}")
    if not 1 <= k <= n:
        raise BadInput(f"chance {text!r}: K must be from 1 to N")
    from fractions import Fraction

    f = Fraction(k, n)  # smallest die that reads the same chance (1/4 → a d4)
    if f.denominator >= dice.MIN_SIDES:
        k, n = f.numerator, f.denominator
    return k, n


# --- results ------------------------------------------------------------------------


@record
class TimedEvent:
    """A Timed Event as the clock reports it: where it waits (``at``), its text, whether
    it was revealed, the reserve unit it brings (if any) and, once reached by a tick,
    the ``clock`` number that revealed it. Its JSON leaves out ``unit`` and ``clock``
    when they do not apply (as the session file stores an event)."""

    at: int
    text: str
    done: bool
    unit: str | None = None
    clock: int | None = None

    @classmethod
    def of(cls, e: dict[str, Any], clock: int | None = None) -> TimedEvent:
        return cls(int(e["at"]), str(e["text"]), bool(e["done"]), e.get("unit"), clock)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"at": self.at, "text": self.text, "done": self.done}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.clock is not None:
            out["clock"] = self.clock
        return out


@record
class RandomEvent(Result):
    """A Random Event as stored: occurs when a dN reads ``k`` or less."""

    text: str
    k: int
    n: int
    repeat: bool
    done: bool

    @classmethod
    def of(cls, e: dict[str, Any]) -> RandomEvent:
        return cls(str(e["text"]), int(e["k"]), int(e["n"]), bool(e["repeat"]),
                   bool(e["done"]))


@record
class RandomEventView(RandomEvent):
    """A Random Event with its chance written ``K/N``."""

    chance: str


@record
class ClockView(Result):
    """``clock show|set``, ``clock event list``: the top card and the events waiting."""

    clock: int
    down: bool
    timed: tuple[TimedEvent, ...]
    random: tuple[RandomEventView, ...]
    events: tuple[TimedEvent, ...] = ()


@record
class ClockMoved(Result):
    """``clock tick|advance`` (and round end's Clock step): the clock before and after,
    every Timed Event reached in order, the reserves they brought onto the board."""

    clock_before: int
    clock: int
    events: tuple[TimedEvent, ...]
    arrived: tuple[str, ...]


@record
class TimedAdded(Result):
    kind: str = field(default="timed", init=False)
    at: int
    text: str
    done: bool


@record
class RandomAdded(Result):
    kind: str = field(default="random", init=False)
    text: str
    k: int
    n: int
    repeat: bool
    done: bool
    chance: str


@record
class RandomCheck(Result):
    """A Random Event checked at a round end: the dN value its reveal gave."""

    text: str
    chance: str
    value: int | None
    occurs: bool
    cards: tuple[Card, ...]


def _random_view(e: dict[str, Any]) -> RandomEventView:
    r = RandomEvent.of(e)
    return RandomEventView(r.text, r.k, r.n, r.repeat, r.done, f"{r.k}/{r.n}")


@record(frozen=False)
class Clock:
    value: int = 1
    down: bool = False  # "It can tick up or down": the way a round end ticks it
    timed: list[dict[str, Any]] = field(default_factory=list)   # {at, text, done, unit?}
    random: list[dict[str, Any]] = field(default_factory=list)  # {text, k, n, repeat, done}

    @classmethod
    def from_state(cls, s: dict[str, Any] | None) -> Clock:
        # each event's table copied by ``map`` (no comprehension's frame: a simulated
        # fight reads and writes the clock at every round's end)
        s = s or {}
        return cls(int(s.get("value", 1)), bool(s.get("down", False)),
                   list(map(dict, s.get("timed", []))), list(map(dict, s.get("random", []))))

    def to_state(self) -> dict[str, Any]:
        return {"value": self.value, "down": self.down, "timed": list(map(dict, self.timed)),
                "random": list(map(dict, self.random))}

    def view(self) -> ClockView:
        return ClockView(self.value, self.down,
                         tuple(TimedEvent.of(e) for e in sorted(self.timed,
                                                                key=lambda e: e["at"])),
                         tuple(_random_view(e) for e in self.random))

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

    def check_random(self, reveal: Callable[[], Card]) -> tuple[RandomCheck, ...]:
        """Round End: one dN reading per pending Random Event (all read before any
        event changes, so running out of table cards changes nothing)."""
        if not self.random:  # no Random Event at all (most scenes): nothing read
            return ()
        pending = [e for e in self.random if not e["done"]]
        if not pending:  # none to read: the dice module is not looked up (every round end)
            return ()
        from d2d_cli.rules.deck import dice

        out = []
        rolls = []
        for event in pending:
            rolls.append(dice.roll(dice.spec(int(event["n"])), reveal))
        for event, rolled in zip(pending, rolls, strict=True):
            occurs = rolled.value is not None and rolled.value <= int(event["k"])
            if occurs and not event["repeat"]:
                event["done"] = True
            out.append(RandomCheck(str(event["text"]), f"{event['k']}/{event['n']}",
                                   rolled.value, occurs, tuple(rolled.cards)))
        return tuple(out)


# --- what the clock commands do ------------------------------------------------------


def arrivals(reached: list[dict[str, Any]], reserves: dict[str, Any],
             roster: dict[str, units.Unit]) -> tuple[str, ...]:
    """Reserves brought in by the Timed Events just reached ("Reinforcements arrive on
    the 5th Turn", 000 "Example > Combat #1"): they join the roster."""
    came = []
    for event in reached:
        name = event.get("unit")
        if name and name in reserves and name not in roster:
            roster[name] = units.Unit.from_state(name, reserves[name])
            came.append(name)
    return tuple(came)


def move(clock: Clock, k: int, down: bool, reserves: dict[str, Any],
         roster: dict[str, units.Unit]) -> ClockMoved:
    """Tick ``k`` times (``clock tick|advance``, and once at each round end): every
    Timed Event reached is revealed, in order, and the reserves they name join
    ``roster``. The one place a Timed Event brings a unit."""
    before = clock.value
    reached = clock.advance(k, down)
    came = arrivals(reached, reserves, roster)
    # the events reached written out only when there are any (no generator's frame at
    # every round's end, when mostly none is)
    return ClockMoved(before, clock.value,
                      tuple([TimedEvent.of(e, e["clock"]) for e in reached]) if reached else (),
                      came)


def add_timed(clock: Clock, at: int, text: str) -> TimedAdded:
    """``clock event add``: a Timed Event placed on card ``at``."""
    e = clock.add_timed(at, text)
    return TimedAdded(e["at"], e["text"], e["done"])


def add_random(clock: Clock, text: str, chance: str, repeat: bool = False) -> RandomAdded:
    """``clock event random``: a Random Event checked at each round end."""
    e = clock.add_random(text, chance, repeat)
    return RandomAdded(e["text"], e["k"], e["n"], e["repeat"], e["done"],
                       f"{e['k']}/{e['n']}")


@record
class EventRemoved(Result):
    """``clock event rm``: the event taken out of the Clock (a Timed or Random Event)."""

    kind: str  # "timed" or "random"
    text: str
    at: int | None  # a Timed Event's clock number
    chance: str | None  # a Random Event's K/N


def remove_event(clock: Clock, text: str, at: int | None = None) -> EventRemoved:
    """Take the event called ``text`` (any case; on card ``at`` when given) out of the
    Clock. Two events of that text (and no ``at`` to tell them apart) are refused, each
    named; an unknown text names the events there are."""
    want = text.strip().lower()
    timed = [e for e in clock.timed if e["text"].lower() == want
             and (at is None or e["at"] == at)]
    rand = [e for e in clock.random if e["text"].lower() == want and at is None]
    found: list[tuple[str, dict[str, Any]]] = [("timed", e) for e in timed] + [
        ("random", e) for e in rand]
    if not found:
        names = [e["text"] for e in (*clock.timed, *clock.random)]
        raise BadInput(f"no event {text!r}" + (" on card " + str(at) if at is not None
                                               else "") + ": the Clock holds "
                       + (", ".join(repr(n) for n in names) if names else "none")
                       + " (d2d clock event list)")
    if len(found) > 1:
        raise BadInput(f"{len(found)} events are called {text!r}: give the card with "
                       f"--at N (on " + ", ".join(str(e["at"]) for e in timed) + ")")
    kind, e = found[0]
    (clock.timed if kind == "timed" else clock.random).remove(e)
    return EventRemoved(kind, e["text"], e.get("at"), f"{e['k']}/{e['n']}"
                        if kind == "random" else None)
