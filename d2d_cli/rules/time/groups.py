"""Groups from Targets (``d2d round groups``).

001 l.475–483 "Groups - Split Units into Groups by Target: Unit and its Target are in
the same Group / Each group will simultaneously resolve their Round then wait until all
Groups finish before going to Round End"; 000 l.241 "Build Groups - Units are broken
into groups that target each other."

"Unit and its Target are in the same Group" read as a relation that chains: a Group is
a connected component of the graph whose edges join each unit to its Target. A unit
without a Target is alone, unless some unit targets it. Combat #1 (000 l.573–576): both
Goblins target the Archer, the Archer the Scout, the Thief nobody — Group 1 is the
Archer and the Goblins, Group 2 the Thief.

Inside a Group the Countdown runs from 10 (001 l.499–505): at each Count a unit whose
Move equals the Count moves, acts or Waits (and then loses one Move), so the units come
up in the order of their Move, most first (000 l.125 "The Unit(s) with the most Move
must move or discard a Move").
"""

from __future__ import annotations

from collections.abc import Mapping

from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.time.round_state import COUNTDOWN
from d2d_cli.rules.units.roster import Unit


@record
class Member(Result):
    name: str
    target: str | None
    move: int | None  # Move left this round (None before the Refresh)


@record
class Group(Result):
    number: int
    units: tuple[Member, ...]  # in the order the Countdown reaches them: most Move first


@record
class Groups(Result):
    round: int
    phase: str
    countdown: int
    groups: tuple[Group, ...]


def components(roster: dict[str, Unit]) -> list[list[str]]:
    """Units joined by Targets, each group in roster order, groups in the order of their
    first unit on the roster."""
    parent = {name: name for name in roster}
    order = {name: i for i, name in enumerate(roster)}

    def root(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for name, unit in roster.items():
        if unit.target in parent:  # a Target no longer on the roster joins nothing
            a, b = root(name), root(str(unit.target))
            if a != b:
                parent[max(a, b, key=order.__getitem__)] = min(a, b, key=order.__getitem__)
    out: dict[str, list[str]] = {}
    for name in roster:
        out.setdefault(root(name), []).append(name)
    return list(out.values())


def groups(roster: dict[str, Unit], number: int, phase: str) -> Groups:
    # The Dead take no Turn (000 l.1172 "Dead - Permanent Negative Status"): no Group
    # of theirs, and a Target that is Dead joins nobody to it.
    roster = {n: u for n, u in roster.items() if not u.conditions.get("dead")}
    made = []
    for i, names in enumerate(components(roster), 1):
        members = [Member(n, roster[n].target, roster[n].move) for n in names]
        # Most Move first (stable: roster order among equals); no Move yet goes last.
        members.sort(key=lambda m: (m.move is None, -(m.move or 0)))
        made.append(Group(i, tuple(members)))
    return Groups(number, phase, COUNTDOWN, tuple(made))


@record
class Up(Result):
    """The unit the Countdown reaches next in a Group, and what it has left."""

    group: int
    name: str
    count: int  # the Count that reaches it: its Move left (at most the Countdown's 10)
    move: int
    actions_left: int | None
    turn: int | None
    target: str | None


@record
class NextUp(Result):
    """``round next``: in each Group, who acts next by the Countdown (001 l.499–505)."""

    round: int
    phase: str
    next: tuple[Up, ...]  # in each Group with Move left, the units its next Count reaches
    done: tuple[str, ...]  # units with no Move left this round

    @property
    def summary(self) -> str:
        if self.phase != "started":
            return "no round under way: d2d round start"
        if not self.next:
            return f"round {self.round}: every unit's Move is spent — d2d round end"
        top = max(u.count for u in self.next)  # the Groups count down together
        return f"next at Count {top}: " + ", ".join(u.name for u in self.next
                                                    if u.count == top)


def next_up(roster: dict[str, Unit], number: int, phase: str) -> NextUp:
    """Who acts next in each Group: 001 l.499–505 "Countdown - Each Group counts down
    from 10 / One each Count, do one of the following: Wait … IF Move = Count THEN
    Move:-1": the Count comes down to the unit with the most Move left first (roster
    order among equals). A unit with no Move left, off the map or Dead is done.

    The Countdown never rises: a unit is reached at its Move, but never again at or
    above the Count it last did something at (rules.units.unit_state.reach) — a Burst
    of Speed, an Evade, a Wait or an Interrupt's Action taken at Count 5 leaves it to
    Count 4 and below, whatever Move it gained; every unit the Count reaches is
    listed."""
    from d2d_cli.rules.units.unit_state import actions_left, reach, spent

    made = groups(roster, number, phase)
    ups, done = [], []
    for grp in made.groups if phase == "started" else ():
        counts = {m.name: reach(m.move, spent(roster[m.name], number, phase))
                  for m in grp.units}
        ready = [m for m in grp.units if m.move and counts[m.name] > 0
                 and not roster[m.name].extra.get("off_map")]
        done += [m.name for m in grp.units if m not in ready]
        top, at = reached({m.name: counts[m.name] for m in ready})
        for m in ready:  # all at the Group's Count, roster order among equals
            if m.name not in at:
                continue
            unit = roster[m.name]
            assert m.move is not None
            ups.append(Up(grp.number, m.name, top, m.move,
                          actions_left(unit.move, unit.action_cost,
                                       spent(unit, number, phase).actions),
                          unit.turn, unit.target))
    return NextUp(number, phase, tuple(ups), tuple(done))


def reached(counts: Mapping[str, int]) -> tuple[int, tuple[str, ...]]:
    """The Count the Countdown comes to next and the units it reaches there: 001
    l.499–505 "Each Group counts down from 10 / One each Count, do one of the
    following". ``counts`` holds each unit's Count (rules.units.unit_state.reach: its
    Move left, below the Count it last did something at; 0: not reached again this
    round); the Countdown is at the highest of them and reaches every unit there, in
    the order given (roster order among equals). (0, ()) when it reaches nobody.

    The one answer to "who is reached now": ``round next`` (:func:`next_up`) per Group,
    ``npc turn --all`` (rules.assistant.countdown) Count by Count."""
    top = max(counts.values(), default=0)
    if top <= 0:
        return 0, ()
    return top, tuple(n for n, c in counts.items() if c == top)
