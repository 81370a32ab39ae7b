"""The scene clock and its Timed and Random Events (001 p.18)."""

from __future__ import annotations

from d2d_cli.operations import Target
from d2d_cli.rules.time import clock as clocks
from d2d_cli.rules.units import roster as units


def advance(t: Target, count: int = 1, *, down: bool = False) -> clocks.ClockMoved:
    """``d2d clock advance K`` (``clock tick`` is K = 1): every event passed, in order."""
    k = count
    clocks.check_ticks(k)
    with t.edit() as tx:
        clock = clocks.Clock.from_state(tx.data.get("clock"))
        roster = units.roster(tx.data)
        result = clocks.move(clock, k, down, tx.data.get("scene", {}).get("reserves", {}),
                             roster)
        tx.put("clock", clock.to_state())
        if result.arrived:
            tx.put("units", units.roster_state(roster))
        tx.summary = (f"clock {result.clock_before} → {result.clock}, "
                      f"{len(result.events)} event(s)")
    return result


def set_to(t: Target, n: int) -> clocks.ClockView:
    """``d2d clock set N``: a correction, reveals no event."""
    clocks.check_value(n)
    with t.edit() as tx:
        clock = clocks.Clock.from_state(tx.data.get("clock"))
        clock.value = n
        tx.put("clock", clock.to_state())
        tx.summary = f"clock set to {n}"
    return clock.view()


def show(t: Target) -> clocks.ClockView:
    """``d2d clock show``."""
    return clocks.Clock.from_state(t.read().get("clock")).view()


def event_list(t: Target) -> clocks.ClockView:
    """``d2d clock event list``: every Timed Event (in clock order) and Random Event."""
    return show(t)


def tick(t: Target, *, down: bool = False) -> clocks.ClockMoved:
    """``d2d clock tick [--down]``: ``clock advance 1``."""
    return advance(t, 1, down=down)


def add_timed(t: Target, text: str, at: int) -> clocks.TimedAdded:
    """``d2d clock event add TEXT AT``."""
    with t.edit() as tx:
        clock = clocks.Clock.from_state(tx.data.get("clock"))
        result = clocks.add_timed(clock, at, text)
        tx.put("clock", clock.to_state())
        tx.summary = f"timed event on clock {at}"
    return result


def add_random(t: Target, text: str, chance: str, *,
               repeat: bool = False) -> clocks.RandomAdded:
    """``d2d clock event random TEXT --chance K/N [--repeat]``."""
    clocks.parse_chance(chance)
    with t.edit() as tx:
        clock = clocks.Clock.from_state(tx.data.get("clock"))
        result = clocks.add_random(clock, text, chance, repeat)
        tx.put("clock", clock.to_state())
        tx.summary = f"random event {result.chance}"
    return result


def remove_event(t: Target, text: str, *, at: int | None = None) -> clocks.EventRemoved:
    """``d2d clock event rm TEXT [--at N]``: take an event out of the Clock."""
    with t.edit() as tx:
        clock = clocks.Clock.from_state(tx.data.get("clock"))
        result = clocks.remove_event(clock, text, at)
        tx.put("clock", clock.to_state())
        tx.summary = f"{result.kind} event removed: {result.text}"
    return result
