"""One fight at the table, played by the same rules functions as the commands.

A :class:`Table` holds a session's data (the sections a command reads and writes:
``units``, ``tasks``, ``clock``, ``round``, ``damage``), a Fate deck, the players'
Conflict Decks and hands. Each method is one d2d command — the rules call it makes and
the sections it stores, nothing else — and, when a log is kept, appends that command's
line (with ``--card`` for every card revealed), so the log replayed with ``d2d play``
reaches the same state (tests/test_sim.py). The decisions are the policy's
(``rules.assistant.policy``); the fight loop is ``rules.assistant.sim``.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from d2d_cli.rules.assistant import damage_play
from d2d_cli.rules.assistant.goals import is_down
from d2d_cli.rules.assistant.movement import weapons_text
from d2d_cli.rules.board.grid import board_of
from d2d_cli.rules.board.placement import placed
from d2d_cli.rules.combat import conflict, crits, hits
from d2d_cli.rules.combat import exchange as combat_exchange
from d2d_cli.rules.combat.damage import ally_refusal
from d2d_cli.rules.combat.situation import Assessor, Terms
from d2d_cli.rules.core import Numbering
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import field, record, replace
from d2d_cli.rules.deck import fate
from d2d_cli.rules.deck.cards import Card, full_deck
from d2d_cli.rules.time import exchange as time_exchange
from d2d_cli.rules.time import leaving, rounds, tasks, turns
from d2d_cli.rules.time.clock import Clock
from d2d_cli.rules.time.round_state import Round
from d2d_cli.rules.units import roster as units
from d2d_cli.rules.units import sides
from d2d_cli.rules.units.exchange import INTERACTED, INTERRUPTED
from d2d_cli.rules.units.roster import Unit

if TYPE_CHECKING:
    import random

HAND_START = 5  # "Players shuffle their Conflict Decks and draw 5 cards" (000 l.109)
HAND_MAX = 10  # "Max Cards in Hand is 10" (000 l.109, l.401)
NON_PLAYER = "Non-Player"


@record(frozen=False)
class Player:
    """A Player's Conflict Deck (a poker deck, 000 l.621), hand and discard pile."""

    name: str
    deck: list[Card]
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)

    def draw(self, n: int = 1) -> int:
        got = 0
        for _ in range(n):
            if len(self.hand) >= HAND_MAX or not (self.deck or self.discard):
                break
            if not self.deck:
                self.deck, self.discard = self.discard, []
            self.hand.append(self.deck.pop())
            got += 1
        return got


@functools.cache
def _faces() -> tuple[Card, ...]:
    """The 54 cards of a Conflict Deck (``full_deck``), built once: a Card is frozen, so
    every Player's deck of every fight holds the same ones (a fight dealt two decks)."""
    return tuple(full_deck())


@functools.lru_cache(maxsize=64)
def _terms(disadvantage: tuple[str, ...], with_: str | None) -> Terms:
    """What an Action's Conflict or Hits is told (``--disadvantage``, ``--with``): a
    fight tells the same few, and Terms is an immutable tuple, so each is built once."""
    return Terms(disadvantage=disadvantage, with_=with_)


# What no assessment of a Conflict or Hits reads of a unit's table (rules.combat.situation
# .assess reads the unit's stats, skills, conditions, round effects, gear, Stealth and
# whether it left the map): the round's tokens and Actions, the Interact aimed at it
# (read before, by rules.combat.remembered: its terms are the assessment's own), the
# Crits placed (their conditions are read), and where it stands (read through the map's
# Field, which is in the assessment's key). They change at nearly every Action.
_UNREAD = frozenset(("move", "action_cost", "turn", "spent", "interacted", "crits", "space",
                     "facing", "double"))
_PLAIN = frozenset((str, int))
_ASSESSED: dict[tuple[Any, ...], Any] = {}  # rules.combat.situation.Assessor's memory
# A unit's weapons table, written out once for the very table: a change of weapons
# stores a new one (rules.units.gear), which a fight's stored unit tables share. The
# movement planners' memory (rules.assistant.movement): one ``repr`` a table for both
# keys, not one each (every fight's copy of its units is new tables).
_weapons_text: Callable[[Any], str] = weapons_text


# What a reading's base leaves out besides :data:`_UNREAD`: the round's ``effects``, the
# one read field an Action, a move or a round's end changes (~40 of ~43 readings a fight
# worked out differ from their unit's last in it alone), taken apart from the base so
# that a table whose base is its predecessor's pays only for its effects
# (:func:`_same_base`).
_EFFECTS = "effects"
_SKIP = _UNREAD | {_EFFECTS}
_ABSENT: Any = object()


def _base_key(raw: dict[str, Any]) -> tuple[Any, ...]:
    """What a unit's table holds for an assessment but its ``effects``: every field but
    :data:`_SKIP`, in the table's order. A text or whole number is its own key; anything
    else its ``repr``, tagged so that it never equals a text."""
    skip, plain, weapons = _SKIP, _PLAIN, _weapons_text
    return tuple([(k, v) if type(v) in plain else
                  (k, weapons(v) if k == "weapons" else repr(v), 0) for k, v in raw.items()
                  if k not in skip])


def _effects_part(raw: dict[str, Any]) -> Any:
    """A table's ``effects`` as its reading holds them: None when it has none, else as
    :func:`_base_key` writes a field's value."""
    v = raw.get(_EFFECTS, _ABSENT)
    if v is _ABSENT:
        return None
    return v if type(v) in _PLAIN else (repr(v), 0)


# The bases (:func:`_base_key`) numbered: the same for tables alike in all but
# :data:`_SKIP`, never given to another base.
_BASES = Numbering(4096)


def _reading_key(raw: dict[str, Any]) -> tuple[Any, ...]:
    """What a unit's table holds for an assessment — every field but :data:`_UNREAD` —
    worked out afresh: its base's number (:data:`_BASES`) and its effects. Two tables get
    the same key exactly when they hold the same fields but :data:`_UNREAD`, in the same
    order, each the same (a text or whole number, or another value by its ``repr``)."""
    return (_BASES(_base_key(raw)), _effects_part(raw))


# What a unit's table holds for an assessment, as a number (rules.core.Numbering): the
# same for tables alike in all but :data:`_UNREAD`, never given to another reading.
# Remembered for the very table (:func:`_reading`: a fight stores a changed unit as a
# new table, never changing one in place).
_READINGS = Numbering(4096)
# a table (by identity, held beside what is kept for it, so that an ``id`` is never
# another table's while kept) → (the table, its reading's number, its base's number);
# or, for a table whose base is known before anyone reads it (:func:`_same_base`), (the
# table, None, its base's number). Emptied past _READ_LIMIT tables.
_READ: dict[int, tuple[dict[str, Any], int | None, Any]] = {}
_READ_LIMIT = 1024


def _reading(raw: dict[str, Any]) -> int:
    """The number of a unit table's reading (:func:`_reading_key`, numbered by
    :data:`_READINGS`), remembered for the very table (as ``by_identity`` does, here so
    that :func:`_carry` may hand a table its predecessor's); a table whose base is
    known (:func:`_same_base`) has only its effects read."""
    got = _READ.get(id(raw))
    if got is not None and got[0] is raw:
        if got[1] is not None:
            return got[1]
        base = got[2]
    else:
        base = _BASES(_base_key(raw))
    number = _READINGS((base, _effects_part(raw)))
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()
    _READ[id(raw)] = (raw, number, base)
    return number


def _same_base(was: dict[str, Any] | None, new: dict[str, Any]) -> Any:
    """``new`` is ``was`` (the same unit's table) after a rules call that changes of a
    unit nothing a reading reads but its round ``effects`` (:data:`_SKIP`): a move
    (``turns.move``), an Interact's Action (``turns.act``), a Target's response
    (``rules.time.exchange.respond``), as each says. ``new``'s base is ``was``'s, kept
    for it when ``was``'s is known (read, or itself carried); returns it, or None."""
    got = _READ.get(id(was))
    if got is None or got[0] is not was:
        return None
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()
    _READ[id(new)] = (new, None, got[2])
    return got[2]


def _carry(was: dict[str, Any], new: dict[str, Any], changed: Mapping[str, Any]) -> None:
    """``new`` is ``was`` with ``changed`` put in: where every key changed is one no
    reading reads (:data:`_UNREAD`), ``new``'s reading is ``was``'s — the same key,
    field for field, in the same order — and is kept for it when ``was``'s is known
    (a round start's tokens, the Interact aimed at a Target: ~27 tables a fight), or
    its base where only that is known (:func:`_same_base`)."""
    got = _READ.get(id(was))
    if got is not None and got[0] is was and _UNREAD.issuperset(changed):
        if len(_READ) >= _READ_LIMIT:
            _READ.clear()
        _READ[id(new)] = got[:0] + (new,) + got[1:]


def forget_tables() -> None:
    """Forget the readings remembered for unit tables by identity (:data:`_READ`), for
    a new simulated fight, whose tables are all new (``rules.assistant.sim._fight``
    unpickles its own): no table of a fight that ended is read again, and held, those
    tables (up to :data:`_READ_LIMIT`, ~10 fights' worth) were kept alive and walked by
    every full collection of the cyclic collector. A memory only is lost: a table read
    again has its reading worked out afresh."""
    _READ.clear()


# A fight's first ``round start`` (``rules.assistant.sim._fight``): what it was played on —
# the starting state as pickled (every fight of a chunk unpickles the same bytes into
# tables equal in every value, type and order), the ``[rules]`` and whether a log was kept
# (all that ``Table.round_start`` reads at a fight's start: the rules functions it calls
# are pure and draw no card) — → each unit's name and its new table's base
# (:func:`_base_key`), numbered again at each fight (:data:`_BASES` may have been emptied
# since). ~5 of ~10 bases a fight were these, read by the planners' fighter key (~26 k
# instructions a base), the same in every fight.
_STARTED: dict[tuple[bytes, Options, bool], tuple[tuple[str, tuple[Any, ...]], ...]] = {}
_STARTED_LIMIT = 8


def started(t: Table, start: bytes) -> None:
    """After a fight's first ``round start`` on ``t`` (a fresh Table of ``start``, the
    pickled starting state, nothing else done on it): each unit's new table is given the
    base worked out for the same first round start of ``start`` under the same
    ``[rules]`` and log (:data:`_STARTED`; worked out here the first time) — checked
    against the base worked out afresh when :attr:`Table.verify_live` (tests)."""
    key = (start, t.opts, t.lines is not None)
    units = t.data.get("units", {})
    got = _STARTED.get(key)
    if got is None:
        got = tuple([(n, _base_key(d)) for n, d in units.items()])
        if len(_STARTED) >= _STARTED_LIMIT:
            _STARTED.clear()
        _STARTED[key] = got
    for n, base_key in got:  # a plain loop: ~5 units a fight
        d = units[n]
        base = _BASES(base_key)
        if t.verify_live:
            assert base == _BASES(_base_key(d)), f"the first round's base of {n}"
        if len(_READ) >= _READ_LIMIT:
            _READ.clear()
        _READ[id(d)] = (d, None, base)


reading = _reading  # the policy's fighter key reads it (one number for a table)


def _live_reading(live: Mapping[str, tuple[dict[str, Any], Unit]], unit: Unit) -> Any:
    """The reading of a live Unit's table (:func:`_reading`), ``live`` a Table's live
    units (``Table._reading_of``); a Unit that is not the live one of its name (not
    built by ``Table.unit``) gets a new object, never another's reading (an assessment
    of it is made, never found)."""
    got = live.get(unit.name)
    if got is None or got[1] is not unit:
        return object()
    return _reading(got[0])


# The Player who runs a unit, or None for a Non-Player (000 l.417 "Non-Player Units don't
# have hands, so they always choose Stay"): ``rules.units.sides``, the one answer — the
# very function, not a call through another (a fight asks ~120 times).
player_of = sides.player_of


@functools.cache
def _said(no_map: bool) -> dict[str, Any]:
    """What an Action's Conflict is told to remember (``rules.combat.exchange.said_of``):
    no option, and whether it is rolled ``--no-map`` — two answers, each made once
    (``after_conflict`` keeps a copy, never changes it)."""
    return combat_exchange.said_of({}, no_map)


@record
class Typed:
    """One command a :class:`Table` carried out: the line as typed (``Table.lines``), the
    typed result the command gives (its ``summary`` is the command's one-line report),
    and the index of the plan it carries out (``Table.acting``; None outside a plan)."""

    command: str
    result: Any
    plan: int | None = None


@record
class Exchange:
    """One Interact: the conflict, the Hits and the Crit or task change it led to."""

    actor: str
    target: str  # a unit, or "task NAME"
    outcome: str
    approach: str
    hits: int
    crit: str | None
    down: bool


class LiveRoster(units.RosterView):
    """The roster of a :class:`Table` for a rules function that reads it: the live Units,
    each built only if looked up and not built again while its table is unchanged (the
    commands read the same through ``rules.units.roster.roster_view``, whose keys, order
    and length this view shares)."""

    def __init__(self, table: Table) -> None:
        # RosterView's own state but its memory of built Units, which the live Units
        # are (a conflict and a Hits each make one: ~30 a fight)
        self._raw = table.data.get("units", {})
        self._table = table

    def __getitem__(self, name: str) -> Unit:
        raw = self._raw
        if name not in raw:
            raise KeyError(name)
        table = self._table
        got = table._live.get(name)  # Table.unit's usual case read in place
        if got is not None and got[0] is raw[name]:
            if table.verify_live:
                table._verify(name, got[1], raw[name])
            return got[1]
        return table.unit(name)


class Table:
    """The state of one fight and the commands that change it."""

    def __init__(self, data: dict[str, Any], rng: random.Random, opts: Options = DEFAULTS,
                 log: bool = False, *, deck: fate.Deck | None = None,
                 table_cards: list[Card] | None = None, hands: bool = True) -> None:
        """A fresh shuffled Fate deck unless ``deck`` (the session's) is given; with
        ``table_cards`` every Fate card comes from those, in order (``--card``); with
        ``hands`` False the Players' units have no hand (their Fate: Stay)."""
        self.data = data
        self.rng = rng
        self.opts = opts
        self.deck = deck if deck is not None else fate.new_deck(rng)
        self.table = fate.TableCards(table_cards) if table_cards is not None else None
        self.lines: list[str] | None = [] if log else None
        self.done: list[Typed] | None = [] if log else None  # with each line, its result
        self.acting: int | None = None  # the plan being carried out (rules.assistant.sim)
        self.players: dict[str, Player] = {}
        # npc turn: who answers for a Player's unit it attacks (rules.assistant.asking)
        self.answers: Any = None
        self._seen_round: tuple[Any, int, str, Any, Any] | None = None
        # The live units: each unit's Unit with the table it was built from or stored as
        # (``data["units"][name]``); it stands for that table as long as the session
        # holds that very table — a change anywhere stores a new one, never edits it.
        self._live: dict[str, tuple[dict[str, Any], Unit]] = {}
        # The tables written out by Unit.to_state from the live Unit of their name
        # (:meth:`_store`, :meth:`_store_all`): what :meth:`round_start` may write anew
        # by its tokens alone (:meth:`_store_tokens`).
        self._wrote: dict[str, dict[str, Any]] = {}
        self._crit_roster: dict[str, Unit] = {}  # the live roster the last Crit changed
        # The Countdown's memory (rules.assistant.sim ``_next``): a unit's name → the
        # table its Count was read from (held: the very table), the round and the Count;
        # it ends with the fight (a process-wide one held ~1,000 tables of past fights,
        # each walked by every full collection of the cyclic collector)
        self.counts: dict[str, tuple[dict[str, Any], Any, int | None]] = {}
        # The last Conflict's assessment and the unit tables it was made on: the Hits
        # after it read it while those tables are all still the session's (:meth:`hit`)
        self._assessed: tuple[Any, tuple[dict[str, Any], ...]] | None = None
        # The Conflicts' and Hits' assessments, remembered by the readings of the live
        # units' tables (:func:`_reading`), shared by every Table of the process. The
        # reading is asked of the live units alone, not of the Table (a bound method
        # held by its own Table's Assessor made every fight's Table, its session and
        # decks a cycle that only the cyclic collector frees: ~100 objects a fight,
        # waiting for the next collection and walked by it); so a Table ends, with all
        # it holds, when its last reference goes.
        self._reading_of = functools.partial(_live_reading, self._live)
        self._assess = Assessor(self._reading_of, _ASSESSED)
        for u in data.get("units", {}).values() if hands else ():
            name = player_of(u)
            if name is not None and name not in self.players:
                cards = list(_faces())
                rng.shuffle(cards)
                self.players[name] = Player(name, cards)
        for p in self.players.values():
            p.draw(HAND_START)

    # ------------------------------------------------------------------ helpers
    def _log(self, *words: Any, cards: list[Card] | tuple[Card, ...] = (),
             result: Any = None) -> None:
        if self.lines is not None:
            args = [str(w) for w in words]
            for c in cards:
                args += ["--card", c.code]
            self._logged(shlex.join(args), result)

    def _logged(self, line: str, result: Any) -> None:
        assert self.lines is not None and self.done is not None
        self.lines.append(line)
        self.done.append(Typed(line, result, self.acting))

    def revealer(self) -> fate.Revealer:
        """A revealer for one command: the deck's, or the next of the table's cards."""
        if self.table is None:
            return fate.Revealer(self.deck, self.rng)
        reveal = fate.Revealer(None, None, [])
        reveal.table = self.table  # one queue of table cards for every command
        return reveal

    def units(self) -> dict[str, dict[str, Any]]:
        units_: dict[str, dict[str, Any]] = self.data.get("units", {})
        return units_

    # ------------------------------------------------------------------ live units
    verify_live = False  # tests: every live Unit is checked against its stored table

    def unit(self, name: str) -> Unit:
        """The live Unit of ``name``: built from the session's table once, then kept
        while the session holds that same table (what the rules functions changed is
        stored back by :meth:`_store`, with the Unit it was stored from)."""
        raw = self.data["units"][name]
        got = self._live.get(name)
        if got is not None and got[0] is raw:
            if self.verify_live:
                self._verify(name, got[1], raw)
            return got[1]
        unit = Unit.from_state(name, raw)
        self._live[name] = (raw, unit)
        return unit

    @staticmethod
    def _verify(name: str, unit: Unit, raw: dict[str, Any]) -> None:
        """Tests (:attr:`verify_live`): the live Unit read equals one built afresh from
        the session's table of its name."""
        assert unit == Unit.from_state(name, raw), f"stale live unit {name}"

    def live(self) -> LiveRoster:
        """Every unit of the session, live, built as looked up (rules functions that read
        the roster take this instead of building it from the session's tables)."""
        return LiveRoster(self)

    def _roster(self) -> dict[str, Unit]:
        """The whole roster, live, for a rules function that changes it."""
        return self._live_of(self.data.get("units", {}), None)

    def _live_of(self, raw: dict[str, dict[str, Any]], names: Any) -> dict[str, Unit]:
        """The live Units of ``names`` that the session's ``raw`` tables hold (all of them
        when ``names`` is None), in that order: :meth:`unit` of each, its usual case
        (the very table the live Unit stands for) read in place — an Action reads one
        or two, a round every unit, ~50 a fight."""
        live, out = self._live, {}
        check = self.verify_live
        for n in (raw if names is None else names):
            if n is None or n not in raw:
                continue
            got = live.get(n)
            if got is not None and got[0] is raw[n]:
                if check:
                    self._verify(n, got[1], raw[n])
                out[n] = got[1]
            else:
                out[n] = self.unit(n)
        return out

    def _forget(self, names: Any = None) -> None:
        """A rules function that changes live Units raised: they may be half-changed
        while the session's tables are not, so they are built again when next read."""
        if names is None:
            self._live.clear()
            self._wrote.clear()
        else:
            for n in names:
                self._live.pop(n, None)
                self._wrote.pop(n, None)

    def _store_all(self, roster: dict[str, Unit], same_base: Any = ()) -> None:
        """The roster changed by a rules function, stored (in its order), each Unit kept
        live with its new table; those of ``same_base`` keep the base of the table they
        replace (:meth:`_store`)."""
        was_all = self.data.get("units", {})
        raw = {}
        live, wrote = self._live, self._wrote
        for n, u in roster.items():
            d = raw[n] = wrote[n] = u.to_state()
            live[n] = (d, u)
        for n in same_base:
            base = _same_base(was_all.get(n), raw[n])
            if self.verify_live and base is not None:
                assert base == _BASES(_base_key(raw[n])), f"the base of {n}"
        self.data["units"] = raw

    def _store_tokens(self, roster: dict[str, Unit]) -> None:
        """:meth:`_store_all` after ``rounds.start``, which changes nothing of a unit but
        its Move, Action Cost and Turn (``rounds.refresh``; a Dead unit's are taken
        off): a unit whose table was written out from this very Unit (:attr:`_wrote`)
        and holds all three, keeping all three, is written as that table with the three
        put in their places — the same table, in the same order, as ``to_state`` writes
        (tests/test_sim_engine_speed.py checks every one of whole fights), for a copy
        of a table instead of writing it out (~15 a fight); any other
        unit is written out."""
        was_all = self.data.get("units", {})
        raw = {}
        live, wrote = self._live, self._wrote
        for n, u in roster.items():
            was = wrote.get(n)
            move, cost, turn = u.move, u.action_cost, u.turn
            if (was is not None and was is was_all.get(n) and move is not None
                    and cost is not None and turn is not None and "move" in was
                    and "action_cost" in was and "turn" in was):
                d = self._written_over(was, u, {"move": move, "action_cost": cost,
                                                "turn": turn}, f"tokens of {n}")
            else:
                d = u.to_state()
            raw[n] = wrote[n] = d
            live[n] = (d, u)
        self.data["units"] = raw

    def round(self) -> Round:
        return Round.from_state(self.data.get("round"))

    def _now(self) -> tuple[int, str]:
        """The round's number and phase, for an Action's rules call: read again only when
        the round's table is a new one (every change stores a new table, never edits
        one in place)."""
        raw = self.data.get("round")
        seen = self._seen_round
        if seen is not None and seen[0] is raw:
            return seen[1], seen[2]
        # A new table (a Conflict or a Hits keeps its exchange in a copy of the round's,
        # ~30 a fight): read again only when what Round.from_state reads of it — its
        # "number" and "phase", by identity — is not what the last one held.
        got = raw or {}
        number, phase = got.get("number", 0), got.get("phase", "none")
        if seen is None or seen[3] is not number or seen[4] is not phase:
            rnd = Round.from_state(raw)
            seen = (raw, rnd.number, rnd.phase, number, phase)
        else:
            seen = (raw, seen[1], seen[2], number, phase)
        self._seen_round = seen
        return seen[1], seen[2]

    # ------------------------------------------------------------------ commands
    def round_start(self) -> rounds.RoundStarted | None:
        """``round start``. The command's result is written for a log only: None
        without one."""
        rnd = self.round()
        roster = self._roster()
        try:
            out = rounds.start(rnd, roster, self.opts, rounds.map_of(self.data),
                               report=self.lines is not None)
        except BaseException:
            self._forget()
            raise
        self._store_tokens(roster)
        self.data["round"] = rnd.to_state()
        if self.lines is not None:  # the line is built only for a log
            self._log("round", "start", result=out)
        return out

    def round_end(self) -> rounds.RoundEnded | None:
        """``round end`` — then each Player draws a card (001 l.1037 "Draw - Each Player
        draws a card"), up to 10 in hand. The command's result is written for a log
        only: None without one."""
        rnd = self.round()
        roster, board = self._roster(), tasks.board(self.data)
        clock = Clock.from_state(self.data.get("clock"))
        reveal = self.revealer()
        # Recover (000 l.611 "Recover - Each Unit removes a Fatigue, Stun, Stress, or
        # Slow"): each unit takes off the first it holds in that order, else readies an
        # Ability in Cooldown (docs/rules.md "NPC turns and simulated fights").
        # and those whose upkeep changes nothing but their effects: one plain loop
        picks, same = [], []
        for n, u in roster.items():
            if not u.extra.get("off_map") and (c := rounds.recover_choices(u)):
                picks.append(f"{n}={c[0]}")
            if rounds.ends_effects_only(u):
                same.append(n)
        try:
            out = rounds.end(rnd, roster, board, clock, reveal, picks,
                             self.data.get("scene", {}).get("reserves", {}),
                             report=self.lines is not None)
        except BaseException:
            self._forget()
            raise
        self._store_all(roster, same)  # those the upkeep changes but their effects
        self.data["clock"] = clock.to_state()
        self.data["tasks"] = tasks.board_state(board)
        self.data["round"] = rnd.to_state()
        if self.lines is not None:  # the line is built only for a log
            self._log("round", "end", *[w for p in picks for w in ("--recover", p)],
                      cards=reveal.used, result=out)
        for p in self.players.values():
            p.draw(1)
        return out

    def _some(self, *names: str | None) -> dict[str, Unit]:
        """The named units (those of the session), live: what an Action or a move by one
        unit reads and changes — the rest of the roster is neither built nor written."""
        return self._live_of(self.data.get("units", {}), names)

    def _store(self, some: dict[str, Unit], same_base: bool = False) -> None:
        """``some`` stored, each Unit kept live with its new table (:meth:`_store_one`)."""
        for n, u in some.items():
            self._store_one(n, u, same_base)

    def _store_one(self, n: str, u: Unit, same_base: bool) -> None:
        """The Unit ``u`` of ``n`` stored and kept live with its new table; with
        ``same_base``, after a rules call that changes nothing a reading reads but the
        round's effects (:func:`_same_base`), the table keeps the base of the one it
        replaces — checked against the base worked out afresh when :attr:`verify_live`
        (tests). A move, a response and an Interact's unit store one unit each (~40 a
        fight): no table of one built to be looped over."""
        raw = self.data.get("units", {})
        was = raw.get(n)
        d = raw[n] = self._wrote[n] = u.to_state()
        self._live[n] = (d, u)
        if same_base:
            base = _same_base(was, d)
            if self.verify_live and base is not None:
                assert base == _BASES(_base_key(d)), f"the base of {n}"

    def _failed(self, some: dict[str, Unit]) -> None:
        """A rules function that changes ``some`` (live Units) raised: the Units it may
        have half-changed are forgotten (the session's tables are untouched, as a refused
        command leaves them). Each command calls its rules function in line and stores
        what it changed (:meth:`_store`, :meth:`_store_one`) — no call through a generic
        wrapper that packs the arguments and keywords anew at every Action and move (~40
        a fight)."""
        self._forget(list(some))

    def act(self, name: str, action: str, arg: str | None = None,
            moves: tuple[tuple[str, ...], ...] = ()) -> turns.Spending | None:
        """``unit act NAME ACTION [ARG]`` (pays Move:-[Action Cost]): the unit and its
        Target (the one other unit an Action reads or marks) — every unit for a Hide,
        which must be out of every Rival's sight on the map (rules.board.seen). The
        command's result (its Spending) is written for a log only: None without one.
        With ``moves``, ``unit move NAME WORDS…`` for each first (a plan's way to its
        Action, :meth:`walk`): the unit's table stored once, after the Action (with a
        log, or for a Hide, each move is :meth:`move`, stored as it is made). Without a
        log, a refused move or Action leaves the session as it was before the moves,
        where the commands one by one would keep the moves made: nothing reads it after,
        a refusal ends the fight."""
        if moves and (self.lines is not None or action == "hide"):
            self.walk(name, moves)
            moves = ()
        number, phase = self._now()
        roster = self._roster() if action == "hide" else self._some(name, arg)
        if moves:
            self._walked({name: roster[name]} if name in roster else {}, name, moves)
        try:
            out = turns.act(roster, number, phase, name, action, arg, opts=self.opts,
                            board=board_of(self.data), report=self.lines is not None)
        except BaseException:
            self._failed(roster)
            raise
        if not (action == "interact" and arg is not None and arg != name
                and name in roster and arg in roster):
            self._store(roster, action == "interact")  # an Interact keeps its base
        else:  # an Interact: of its Target, the Interact aimed at it is all that changed
            self._store_one(name, roster[name], True)  # turns.act: an Interact
            self._store_aimed(arg, roster[arg])
        if self.lines is not None:  # the line is built only for a log
            self._log("unit", "act", name, action, *([arg] if arg else []), result=out)
        return out

    def _written_over(self, was: dict[str, Any], unit: Unit, changed: dict[str, Any],
                      what: str) -> dict[str, Any]:
        """A copy of the table ``was`` (written out from ``unit`` by the engine) with
        what a rules call changed put in its place — for the callers that know this is
        what ``unit.to_state()`` writes, in its order; checked against it, key by key
        and in order, when :attr:`verify_live` (tests), ``what`` naming the write."""
        d = was.copy()
        d.update(changed)
        if self.verify_live:
            full = unit.to_state()
            assert d == full and list(d) == list(full), what
        _carry(was, d, changed)
        return d

    def _store_aimed(self, name: str, unit: Unit) -> None:
        """The Target of an Interact, stored: ``turns.act`` changes nothing of it but the
        Interact aimed at it (``rules.units.exchange.open_interact``: ``interacted``, and
        ``interrupted`` when an Interrupt was pending). A table the engine wrote from
        this very Unit, its ``interrupted`` the same, is written as that table with the
        new ``interacted`` in its place (or last, where ``to_state`` writes a new one) —
        what ``to_state`` writes (tests/test_sim_engine_speed.py checks every one of
        whole fights); else the Unit is written out, keeping the base of the table it
        replaces (:func:`_same_base`) where its ``interrupted`` is that table's — an
        Interrupt pending on it and now used up changes a field the base holds, so that
        base is worked out afresh when read."""
        raw, extra = self.data.get("units", {}), unit.extra
        was = self._wrote.get(name)
        if (was is not None and was is raw.get(name) and INTERACTED in extra
                and extra.get(INTERRUPTED) is was.get(INTERRUPTED)):
            d = self._written_over(was, unit, {INTERACTED: extra[INTERACTED]},
                                   f"the Interact on {name}")
        else:
            d = unit.to_state()
            old = raw.get(name)
            if old is not None and old.get(INTERRUPTED) == d.get(INTERRUPTED):
                base = _same_base(old, d)  # what else turns.act changed is not read
                if self.verify_live and base is not None:
                    assert base == _BASES(_base_key(d)), f"the base of {name}"
        raw[name] = self._wrote[name] = d
        self._live[name] = (d, unit)

    def respond(self, name: str, action: bool) -> Any:
        """``unit respond NAME [--no-action]``: the Target of the Interact just made
        spends an Action on it, or not (001 l.639–641 "Target may spend an Action / IF
        not Target gains no benefits on a Win"). The command's result is written for a
        log only: None without one."""
        number, phase = self._now()
        roster = self._some(name)
        try:
            out = time_exchange.respond(roster, number, phase, name, action,
                                        report=self.lines is not None)
        except BaseException:
            self._failed(roster)
            raise
        self._store(roster, True)  # the one unit named, keeping its base
        if self.lines is not None:  # the line is built only for a log
            self._log("unit", "respond", name, *([] if action else ["--no-action"]), result=out)
        return out

    def on_map(self, *names: str | None) -> bool:
        """Whether the session has a map and every named unit stands on it: then a
        conflict's geometry is read off the map, else it is rolled ``--no-map``."""
        if not self.data.get("board"):
            return False
        units = self.data.get("units", {})
        for n in names:  # noqa: SIM110 (a loop, not all() over a generator: ~17 a fight)
            if n is None or n not in units or not units[n].get("space"):
                return False
        return True

    def move(self, name: str, *words: str) -> turns.Spending | None:
        """``unit move NAME KIND [SIDE] [COUNT]`` or ``unit move NAME turn HEADING``: on
        the map when the unit is placed (rules.board.moves). The command's result is
        written for a log only: None without one."""
        number, phase = self._now()
        roster = self._some(name)
        try:
            out = turns.move(roster, number, phase, name, words[0],
                             " ".join(words[1:]) or None, board=board_of(self.data),
                             tasks=self.data.get("tasks", {}), report=self.lines is not None)
        except BaseException:
            self._failed(roster)
            raise
        self._store(roster, True)  # the one unit named, keeping its base
        if self.lines is not None:  # the line is built only for a log
            self._log("unit", "move", name, *words, result=out)
        return out

    def walk(self, name: str, moves: tuple[tuple[str, ...], ...]) -> None:
        """``unit move NAME WORDS…`` for each of ``moves`` in turn (a plan's way, one
        command a run of steps and its Turn), the unit's table stored once, after the
        last: a move changes the one Unit alone (:meth:`move` writes nothing else of the
        session), and between two moves of a walk nothing reads the session — so the
        tables a move stored between them were written out (``to_state``) for no reader
        (~4.5 a fight). Each move is the same rules call on the same live Unit as
        :meth:`move` makes; with a log, or a walk of one move, each is :meth:`move`.
        Without a log, a refused move leaves the session as it was before the walk,
        where the commands one by one would keep the moves before it (the fight ends
        with the refusal: nothing in it catches one)."""
        if self.lines is not None or len(moves) < 2:
            for words in moves:
                self.move(name, *words)
            return
        roster = self._some(name)
        self._walked(roster, name, moves)
        self._store(roster, True)  # the one unit named, keeping its base

    def _walked(self, roster: dict[str, Unit], name: str,
                moves: tuple[tuple[str, ...], ...]) -> None:
        """``moves`` made on the live ``roster`` (``turns.move``, as :meth:`move` calls
        it, for each) and not stored: the caller stores the unit once; refused, the
        Units are forgotten (:meth:`_failed`) and the session is as it was. The round,
        the map and the tasks are read once: a move stores nothing but its unit's
        table."""
        number, phase = self._now()
        board, tasks_ = board_of(self.data), self.data.get("tasks", {})
        try:
            for words in moves:
                turns.move(roster, number, phase, name, words[0],
                           " ".join(words[1:]) or None, board=board, tasks=tasks_,
                           report=False)
        except BaseException:
            self._failed(roster)
            raise

    def leave(self, name: str, *words: str) -> Any:
        """``unit leave NAME [KIND [SIDE]]``: a step off the map at its edge
        (rules.time.leaving)."""
        rnd = self.round()
        roster = self._roster()
        try:
            out = leaving.leave(roster, rnd.number, rnd.phase, name, board_of(self.data),
                                self.data.get("tasks", {}),
                                *(list(words) + [None, None])[:2])
        except BaseException:
            self._forget()
            raise
        self._store_all(roster)
        if self.lines is not None:  # the line is built only for a log
            self._log("unit", "leave", name, *words, result=out)
        return out

    def conflict(self, side_a: str, side_b: str, skill: str | None = None,
                 disadvantage: tuple[str, ...] = (), counter: Card | None = None,
                 with_: str | None = None
                 ) -> conflict.Conflict | conflict.Redirected:
        """``conflict SIDE_A SIDE_B [--skill S] [--disadvantage a|b]`` (Fate cards come
        from the deck); on the map when both sides stand on it (its Cover may redirect
        the attack to an obstacle, 001 l.720)."""
        mapped = self.on_map(side_a.split(":")[0], side_b.split(":")[0])
        ask = conflict.ask([side_a, side_b], self.data, skill=skill,
                           terms=_terms(disadvantage, with_),
                           reading=self.opts.conflict_chart,
                           fate_orientation=self.opts.fate_orientation,
                           level_bonus=self.opts.level_bonus, use_map=mapped,
                           opts=self.opts, counter_card=counter, roster=self.live(),
                           assessor=self._assess)
        reveal = self.revealer()
        out = ask.resolve(reveal if ask.reveals else None)
        self._assessed = (ask.assessed, tuple(self.data.get("units", {}).values()))
        # as the command keeps it, with what it was told (its --no-map: issue 37)
        rnd = combat_exchange.after_conflict(self.data, out, _said(not mapped))
        if rnd is not None:
            self.data["round"] = rnd
        if self.lines is not None:  # the line is built only for a log
            self._log("conflict", side_a, side_b, *(["--skill", skill] if skill else []),
                      *[w for side in disadvantage for w in ("--disadvantage", side)],
                      *(["--with", with_] if with_ else []),
                      # the counter card is said only when a Counter's win played it
                      *(["--counter", counter.code] if counter is not None and isinstance(
                          out, conflict.Conflict) and out.counter is not None
                        and out.counter.source == "named" else []),
                      *([] if mapped else ["--no-map"]), cards=reveal.used, result=out)
        return out

    def hit(self, card: Card, *, by: str | None, vs: str | None = None,
            difficulty: int | None = None, skill: str | None = None,
            with_: str | None = None) -> hits.Hits:
        """``hit CARD --by UNIT (--vs UNIT | --difficulty N) [--skill S] [--with W]``"""
        mapped = vs is not None and self.on_map(by, vs)
        ask = hits.ask([card], data=self.data, by=by, vs=vs, difficulty=difficulty,
                       skill=skill, ten_always_hits=self.opts.ten_always_hits,
                       use_map=mapped, opts=self.opts,
                       terms=_terms((), with_) if with_ else None, roster=self.live(),
                       shared=self._shared(), assessor=self._assess)
        out = ask.count(None)
        rnd = combat_exchange.with_hits(self.data, by, vs, out.hits)  # as the command keeps it
        if rnd is not None:
            self.data["round"] = rnd
        if self.lines is not None:  # the line is built only for a log
            self._log("hit", card.code, *(["--by", by] if by else []),
                      *(["--vs", vs] if vs else []),
                      *(["--difficulty", difficulty] if difficulty is not None else []),
                      *(["--skill", skill] if skill else []), *(["--with", with_] if with_ else []),
                      *([] if mapped else ["--no-map"]), result=out)
        return out

    def _shared(self) -> Any:
        """The last Conflict's assessment while every unit table it was made on is still
        the session's (a change stores a new table, never edits one): the Hits that
        follow read it where their own parts change nothing
        (rules.combat.situation.scoring_from); else None."""
        got = self._assessed
        if got is None:
            return None
        now = self.data.get("units", {})
        if len(now) != len(got[1]):
            return None
        for x, y in zip(got[1], now.values(), strict=True):
            if x is not y:  # a plain loop, not any() over a generator
                return None
        return got[0]

    def crit(self, by: str, target: str, n: int, weapon: str = "Body",
             with_: str | None = None) -> crits.Crit:
        """``crit --weapon W --by UNIT --hits N --target UNIT`` (damage cards drawn from
        the virtual Damage Deck; the log gives them with ``--card``); with ``with_``,
        ``crit --by UNIT --with NAME``: the unit's own weapon (issue 36)."""
        ask = crits.CritAsk(weapon=None if with_ else weapon, hits=n, target=target, by=by,
                            with_=with_)
        # The generator's state is kept for a second look only when Luck may be played:
        # a Player's unit hit while Players hold hands (a Non-Player has no Player), and
        # a Wild or a Character Point among what its Player or an adjacent Ally's holds.
        raw = self.units().get(target)
        offered = self._offers(target) if self.players and (
            raw is None or player_of(raw) is not None) else None
        state = self.rng.getstate() if offered is not None else None
        # The Crit is played on the live units; where Luck may be played that is a first
        # look, which stands unless Luck is played — then the live units it changed are
        # forgotten (the session's tables are as they were) and the same cards are
        # drawn again with the Damage Modifiers played.
        out = self._crit(ask, stored=state is None)
        luck = self._luck(offered, out) if offered is not None else None
        if state is not None:
            if luck is None:
                self._keep(out)
            else:
                self._forget()
                self.rng.setstate(state)
                ask = replace(ask, damage=luck.damage, luck_from=luck.giver)
                out = self._crit(ask)
        if luck is not None and luck.wild is not None:  # 000 l.526: the Wild leaves the hand
            held = self.players[str(player_of(self.data["units"][luck.wild]))]
            wild = next(c for c in held.hand if c.is_wild)
            held.hand.remove(wild)
            held.discard.append(wild)
        if self.lines is not None:
            drawn = [*out.skipped, out.card]
            rated = ["--with", with_] if with_ else ["--weapon", weapon]
            played = ([] if luck is None else
                      [*(["--wild-luck"] if luck.damage.wild_luck else []),
                       *(["--luck", str(luck.damage.luck)] if luck.damage.luck else []),
                       *(["--from", luck.giver] if luck.giver else [])])
            self._logged(shlex.join(
                ["crit", *rated, "--by", by, "--hits", str(n), "--target", target,
                 *played, *[w for c in drawn for w in ("--card", c)]]), out)
        return out

    def _crit(self, ask: crits.CritAsk, stored: bool = True) -> crits.Crit:
        """``crits.crit`` on the live units it reads — the scorer, the target and the
        Ally whose Luck is spent (the whole roster if one is not named exactly) — its
        changes stored (:meth:`_keep`) unless ``stored`` is False (a look before Luck)."""
        raw = self.data.get("units", {})
        names = []  # those named, each a unit of the session (a plain loop: no generators)
        for n in (ask.by, ask.target, ask.luck_from):
            if n is not None:
                if n not in raw:
                    return self._crit_on(self._roster(), ask, stored)
                names.append(n)
        return self._crit_on(self._live_of(raw, names), ask, stored)

    def _crit_on(self, roster: dict[str, Unit], ask: crits.CritAsk,
                 stored: bool) -> crits.Crit:
        """``crits.crit`` on ``roster`` (live units), its changes stored unless not."""
        try:
            out = crits.crit(ask, self.data, lambda: self.rng, self.opts, roster=roster,
                             assessor=self._assess)
        except BaseException:
            self._forget()
            raise
        self._crit_roster = roster
        if stored:
            self._keep(out)
        return out

    def _keep(self, out: crits.Crit) -> None:
        """A Crit's changes stored; the live units it read kept with their new tables —
        the others, which it neither read nor changed, keep theirs (``changes["units"]``
        holds the units it was given: the command gives the whole roster)."""
        changes = out.changes
        for key, value in changes.items():
            if key == "units":
                self.data[key] = {**self.data[key], **value}  # the roster's order kept
            else:
                self.data[key] = value
        stored = changes.get("units")
        if stored is None:
            self._forget()  # nothing stored: the live units are read again
        else:
            live = self._live
            for n, u in self._crit_roster.items():
                if n in stored:
                    live[n] = (stored[n], u)

    def _offers(self, target: str) -> tuple[str, list[damage_play.Offer]] | None:
        """What the Players may spend on a Crit on ``target`` (000 l.526, l.533): the
        Wilds held by the hand of the unit's Player or an adjacent Ally's, the Character
        Points of the unit or of that Ally — the unit's name and the offers, the unit's
        own first; None when nothing can be spent (a Non-Player's unit, or no Wild and
        no Character Point among them). Read before the Crit: it changes none of them
        (hands, Character Points, places, who is down)."""
        raw = self.data.get("units", {})
        name = target if target in raw else units.find(units.roster_view(self.data),
                                                        target).name
        if player_of(raw[name]) is None:
            return None  # a Non-Player's: no unit need be built
        # only the Players' units are read (the unit and its possible givers), in a
        # plain loop (no comprehension's frame)
        roster = {}
        for n, u in raw.items():
            if player_of(u) is not None:
                roster[n] = self.unit(n)
        unit = roster[name]
        givers = [unit]
        for other in roster.values():
            if other.name == unit.name:
                continue
            if placed(unit) is None or placed(other) is None:
                continue  # off the map nobody is adjacent
            if ally_refusal(unit, other) is not None:
                continue
            if not is_down(self.data["units"][other.name]):
                givers.append(other)
        offers = []
        for g in givers:
            offers.append(damage_play.Offer(g.name, self._wilds(g),
                                            int(g.extra.get("cp", 0) or 0)))
        for o in offers:  # a plain loop, not any() over a generator (~8 Crits a fight)
            if o.wilds > 0 or o.cp > 0:
                return name, offers
        return None  # the policy plays nothing whatever the Crit (damage_play.luck)

    def _luck(self, offered: tuple[str, list[damage_play.Offer]],
              dry: crits.Crit) -> Any:
        """Wild Luck and Luck for a Player's unit (000 l.526, l.533), by the PC policy
        (``rules.assistant.damage_play.luck``) once the Crit's card and Hits are seen,
        of what was ``offered`` (:meth:`_offers`). A ``damage_play.Luck``, or None."""
        if dry.hits <= 0:
            return None
        name, offers = offered
        chosen = damage_play.luck(dry.hits, offers)
        if chosen is None:
            return None
        return replace(chosen, giver=None if chosen.giver == name else chosen.giver)

    def _wilds(self, unit: Unit) -> int:
        p = self.players.get(player_of(unit.extra) or "")
        if p is None:
            return 0
        wilds = 0  # counted in a plain loop, not sum() over a generator
        for c in p.hand:
            if c.is_wild:
                wilds += 1
        return wilds

    def task(self, name: str, won: bool, n: int, by: str | None) -> tasks.TaskView:
        """``task win|lose NAME --hits N --by UNIT``"""
        board = tasks.board(self.data)
        out = tasks.resolve(board, name, won, n, by, self.opts.task_win if won else "001")
        self.data["tasks"] = tasks.board_state(board)
        if self.lines is not None:  # the line is built only for a log
            self._log("task", "win" if won else "lose", name, "--hits", n,
                      *(["--by", by] if by else []), result=out)
        return out


__all__ = ["HAND_MAX", "HAND_START", "Exchange", "Player", "Table", "Typed", "player_of"]
