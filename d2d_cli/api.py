"""d2d's Python face for scripts (scene prep): open a session, call the same operations
as the commands, get the same typed results (docs/api.md).

    from d2d_cli.api import Session

    s = Session("prep.toml", seed=11)
    scene = s.scene.load("combat1")
    knot = s.task.win("Knot", hits=2)
    print(knot.challenge, knot.progress)          # 2 4

Each call is one command: it takes the session's lock, is journalled (``d2d session
log`` shows it, ``s.undo()`` or ``d2d session undo`` reverts it) and is written when it
returns — only if it succeeds, as a command (a refused call writes nothing, not even
the new session a lookup would have created). Used as a context manager, the block
is one change: the calls inside see each other's changes, the lock is held until the
block ends, and the file is written then — or not at all if the block raises.

The operations are ``d2d_cli.operations``, the very functions the commands call; the
results are the rules' ``Result`` records (their ``to_json()`` is the ``result`` of the
command's ``--json`` envelope); errors are ``d2d_cli.errors.D2DError`` kinds —
``BadInput``, ``NotFound``, ``RuleViolation`` (a command's exit 2) and ``SessionError``
(exit 3).
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from d2d_cli import operations
from d2d_cli import session as _session
from d2d_cli.errors import BadInput, D2DError, NotFound, RuleViolation, SessionError
from d2d_cli.operations import Target
from d2d_cli.operations import board as _board
from d2d_cli.operations import characters as _char
from d2d_cli.operations import clock as _clock
from d2d_cli.operations import combat as _combat
from d2d_cli.operations import crits as _crits
from d2d_cli.operations import export as _export
from d2d_cli.operations import fate as _fate
from d2d_cli.operations import hands as _hands
from d2d_cli.operations import history as _history
from d2d_cli.operations import hits as _hits
from d2d_cli.operations import npc as _npc
from d2d_cli.operations import odds as _odds
from d2d_cli.operations import oracle as _oracle
from d2d_cli.operations import overview as _overview
from d2d_cli.operations import players as _players
from d2d_cli.operations import roll as _roll
from d2d_cli.operations import rounds as _rounds
from d2d_cli.operations import scale as _scale
from d2d_cli.operations import scene as _scene
from d2d_cli.operations import sim as _sim
from d2d_cli.operations import table_rules as _table_rules
from d2d_cli.operations import tasks as _tasks
from d2d_cli.operations import units as _units
from d2d_cli.operations import weather as _weather

if TYPE_CHECKING:
    from d2d_cli.rules.board.view import BoardView

__all__ = ["BadInput", "D2DError", "NotFound", "RuleViolation", "Session", "SessionError"]

P = ParamSpec("P")
R = TypeVar("R")

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
               inspect.Parameter.VAR_POSITIONAL)


class _Op(Generic[P, R]):
    """One operation (``d2d_cli.operations``) as a method of a :class:`Session` or of one
    of its groups: the operation's own signature, less the :class:`Target` — which this
    gives it, labelled for the journal from the call's bound arguments.

    ``path`` is the command (``unit place``). The operation's positional parameters are
    the command's arguments, its keyword-only parameters the command's options in the
    command's order, each named as the option (``range`` is ``--range``); ``flags``
    names an option spelled otherwise (``within`` is ``--in``), ``off`` the flag a False
    stands for (``double=False`` is ``--single``), ``extra`` a parameter that is no
    option (``sim``'s progress callback ``tick``). tests/test_api_commands.py checks
    every method's label against the typed command's."""

    def __init__(self, path: str, fn: Callable[Concatenate[Target, P], R], *,
                 flags: dict[str, str] | None = None, off: dict[str, str] | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.path, self.fn = path, fn
        self.flags, self.off, self.extra = flags or {}, off or {}, extra
        sig = inspect.signature(fn)
        self.signature = sig.replace(parameters=list(sig.parameters.values())[1:])
        self.__doc__ = fn.__doc__

    def label(self, *args: Any, **kwargs: Any) -> str:
        """The journal's label for this call: the command line it stands for."""
        bound = self.signature.bind(*args, **kwargs).arguments  # what the call gave
        arguments: list[Any] = []
        options: list[tuple[str, str | None, Any]] = []
        for name, p in self.signature.parameters.items():
            if name not in bound or name in self.extra:
                continue
            if p.kind in _POSITIONAL:
                arguments.append(bound[name])
            else:
                flag = self.flags.get(name, "--" + name.rstrip("_").replace("_", "-"))
                options.append((flag, self.off.get(name), bound[name]))
        return operations.label(self.path, arguments, options)

    @overload
    def __get__(self, face: None, owner: type | None = None) -> _Op[P, R]: ...
    @overload
    def __get__(self, face: _Face, owner: type | None = None) -> Callable[P, R]: ...
    def __get__(self, face: _Face | None,
                owner: type | None = None) -> _Op[P, R] | Callable[P, R]:
        if face is None:
            return self
        s = face._session()

        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            # One call is one command (operations.call): its change — a session a
            # lookup creates included — is written only if the whole call succeeds; in a
            # block this thread has open, the block commits (or drops) it.
            return operations.call(self.fn, s.target(self.label(*args, **kwargs)),
                                   *args, **kwargs)

        call.__doc__ = self.fn.__doc__
        call.__name__ = call.__qualname__ = self.fn.__name__
        call.__signature__ = self.signature  # type: ignore[attr-defined]
        return call


class _Face:
    def _session(self) -> Session:
        raise NotImplementedError


class _Group(_Face):
    def __init__(self, s: Session) -> None:
        self._s = s

    def _session(self) -> Session:
        return self._s


class Session(_Face):
    """One session file: a name (under d2d's data folder, as ``--session NAME``) or a
    path ending in ``.toml``; None is the current session. ``seed`` is ``--seed``.

    Its methods and groups are the commands (``s.unit.place(…)`` is ``d2d unit place
    …``), with the commands' arguments and options by the same names: docs/api.md."""

    def __init__(self, session: str | os.PathLike[str] | None = None, *,
                 seed: int | None = None) -> None:
        self.spec = os.fspath(session) if session is not None else None
        self.seed = seed
        self._scope: Any = None
        self.fate = _FateGroup(self)
        self.unit = _UnitGroup(self)
        self.task = _TaskGroup(self)
        self.clock = _ClockGroup(self)
        self.round = _RoundGroup(self)
        self.weather = _WeatherGroup(self)
        self.scene = _SceneGroup(self)
        self.char = _CharGroup(self)
        self.npc = _NpcGroup(self)
        self.hand = _HandGroup(self)
        self.odds = _OddsGroup(self)
        self.scale = _ScaleGroup(self)
        self.session = _SessionGroup(self)
        self.rules = _RulesGroup(self)
        self.player = _PlayerGroup(self)
        self.board = _BoardGroup(self)

    def _session(self) -> Session:
        return self

    @classmethod
    def new(cls, session: str | os.PathLike[str], *, seed: int | None = None,
            rule: list[str] | None = None) -> Session:
        """``d2d session new [--rule KEY=VALUE]…``: create the session (refused if it
        exists), its rules set as given (``rule=["hands=d2d"]``), and open it."""
        s = cls(session, seed=seed)
        chosen = _table_rules.assignments(rule or [])  # a typo: refused, nothing made
        _session.create(s.path, seed=seed)
        if chosen:  # in the journal as the command line says it
            said = operations.label("session new", [os.fspath(session)],
                                    [("--rule", None, rule)])
            operations.call(_table_rules.initial, s.target(said), chosen)
        return s

    @property
    def path(self) -> Path:
        """The session file (it may not exist yet)."""
        return _session.resolve(self.spec)

    def __repr__(self) -> str:
        return f"Session({str(self.path)!r})"

    # --- one change for a whole block ----------------------------------------------

    def __enter__(self) -> Session:
        if self._scope is not None:
            raise RuntimeError("this Session is already inside a with block")
        cm = operations.unit_of_work(join=False)  # its own scope: it holds one session
        self._scope = (cm, cm.__enter__())
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        (cm, scope), self._scope = self._scope, None
        try:
            if kind is None:
                scope.commit()
        finally:
            cm.__exit__(kind, exc, tb)

    # --- what every operation takes ------------------------------------------------

    def target(self, label: str = "") -> Target:
        """The session as an operation takes it, ``label`` what the journal calls the
        change (``fate draw 3``)."""
        return Target(self.spec, self.seed, label)

    def data(self) -> dict[str, Any]:
        """The session's data as plain Python (what the TOML file holds)."""
        return self.target().read()

    # --- the commands that are one word ----------------------------------------------

    conflict = _Op("conflict", _combat.conflict, off={"spent": "--unspent"},
                   extra=("ask_gain",))
    hit = _Op("hit", _hits.hit)
    crit = _Op("crit", _crits.crit, flags={"luck_from": "--from"})
    status = _Op("status", _overview.status, extra=("carries",))
    roll = _Op("roll", _roll.roll)
    oracle = _Op("oracle", _oracle.oracle)
    sim = _Op("sim", _sim.sim, extra=("tick",))
    undo = _Op("session undo", _history.undo)  # also s.session.undo
    redo = _Op("session redo", _history.redo)


class _FateGroup(_Group):
    """``s.fate``: the Fate deck."""

    draw = _Op("fate draw", _fate.draw)
    shuffle = _Op("fate shuffle", _fate.shuffle)
    status = _Op("fate status", _fate.status)
    coin = _Op("fate coin", _fate.coin)
    high_card = _Op("fate high-card", _fate.high_card)
    die = _Op("fate die", _fate.die)


class _UnitGroup(_Group):
    """``s.unit``: units on the board."""

    add = _Op("unit add", _units.add)
    side = _Op("unit side", _units.side)
    list = _Op("unit list", _units.list_)
    show = _Op("unit show", _units.show)
    rm = _Op("unit rm", _units.rm)
    condition = _Op("unit condition", _units.condition)
    heal = _Op("unit heal", _units.heal)
    target = _Op("unit target", _units.target)
    move = _Op("unit move", _units.move)
    act = _Op("unit act", _units.act)
    wait = _Op("unit wait", _units.wait)
    face = _Op("unit face", _units.face)
    ability = _Op("unit ability", _units.ability)
    stealth = _Op("unit stealth", _units.stealth)
    power = _Op("unit power", _units.power, off={"observed": "--unobserved"})
    place = _Op("unit place", _units.place, off={"double": "--single"})
    leave = _Op("unit leave", _units.leave)
    free = _Op("unit free", _units.free)
    situation = _Op("unit situation", _units.situation,
                    off={"high_ground": "--no-high-ground"})
    interrupt = _Op("unit interrupt", _units.interrupt)
    respond = _Op("unit respond", _units.respond, off={"action": "--no-action"})

    def __init__(self, s: Session) -> None:
        super().__init__(s)
        self.gear = _UnitGearGroup(s)


class _UnitGearGroup(_Group):
    """``s.unit.gear``: what a unit carries (weapons, armor, Shield)."""

    add = _Op("unit gear add", _units.gear_add)
    rm = _Op("unit gear rm", _units.gear_rm)
    show = _Op("unit gear show", _units.gear_show)


class _TaskGroup(_Group):
    """``s.task``: Tasks (Challenge and Progress)."""

    new = _Op("task new", _tasks.new)
    win = _Op("task win", _tasks.win)
    lose = _Op("task lose", _tasks.lose)
    show = _Op("task show", _tasks.show)
    list = _Op("task list", _tasks.list_)
    drop = _Op("task drop", _tasks.drop)


class _ClockEventGroup(_Group):
    """``s.clock.event``: Timed and Random Events."""

    add = _Op("clock event add", _clock.add_timed)
    random = _Op("clock event random", _clock.add_random)
    list = _Op("clock event list", _clock.event_list)
    rm = _Op("clock event rm", _clock.remove_event)


class _ClockGroup(_Group):
    """``s.clock``: the scene clock and its events."""

    def __init__(self, s: Session) -> None:
        super().__init__(s)
        self.event = _ClockEventGroup(s)

    show = _Op("clock show", _clock.show)
    set = _Op("clock set", _clock.set_to)
    tick = _Op("clock tick", _clock.tick)
    advance = _Op("clock advance", _clock.advance)


class _BoardEventGroup(_Group):
    """``s.board.event``: Events placed on the map (001 l.441–447)."""

    add = _Op("board event add", _board.event_add)
    list = _Op("board event list", _board.event_list)
    reveal = _Op("board event reveal", _board.event_reveal)
    rm = _Op("board event rm", _board.event_rm)


class _BoardGroup(_Group):
    """``s.board``: the map — ``s.board()`` draws it as ``d2d board`` does (the same as
    ``s.board.draw()``) — its Fog of War, Places and Events."""

    def __init__(self, s: Session) -> None:
        super().__init__(s)
        self.event = _BoardEventGroup(s)

    draw = _Op("board", _overview.board)
    fog = _Op("board fog", _board.fog)
    reveal = _Op("board reveal", _board.reveal)
    place = _Op("board place", _board.place)

    def __call__(self, *, svg: str | Path | None = None,
                 force: bool = False) -> BoardView:
        return self.draw(svg=svg, force=force)


class _RoundGroup(_Group):
    """``s.round``: round start, round end and the round's Groups."""

    start = _Op("round start", _rounds.start)
    end = _Op("round end", _rounds.end)
    groups = _Op("round groups", _rounds.groups)
    next = _Op("round next", _rounds.next)


class _WeatherGroup(_Group):
    """``s.weather``: the scene's wind."""

    wind = _Op("weather wind", _weather.wind)
    show = _Op("weather show", _weather.show)


class _SceneGroup(_Group):
    """``s.scene``: scene files."""

    load = _Op("scene load", _scene.load)
    show = _Op("scene show", _scene.show)


class _CharGroup(_Group):
    """``s.char``: characters and their advancement."""

    new = _Op("char new", _char.new)
    show = _Op("char show", _char.show)
    export = _Op("char export", _char.export)
    import_ = _Op("char import", _char.import_)
    list = _Op("char list", _char.list_)
    award = _Op("char award", _char.award)
    train = _Op("char train", _char.train)
    respec = _Op("char respec", _char.respec)
    learn = _Op("char learn", _char.learn, flags={"within": "--in"})
    unlearn = _Op("char unlearn", _char.unlearn)
    feat = _Op("char feat", _char.feat)
    downtime = _Op("char downtime", _char.downtime)


class _NpcGroup(_Group):
    """``s.npc``: the NPC policy."""

    plan = _Op("npc plan", _npc.plan)
    turn = _Op("npc turn", _npc.turn, extra=("ask", "ask_respond", "keep_question"))


class _HandGroup(_Group):
    """``s.hand``: the Players' Conflict hands, with ``[rules] hands = "d2d"``
    (``choose`` is the face-down choice: the journal never names the card; ``player=``
    refuses a unit that is not that Player's, checked under the session's lock)."""

    deal = _Op("hand deal", _hands.deal)
    show = _Op("hand show", _hands.show)
    choose = _Op("hand choose", _hands.choose, extra=("player",))
    draw = _Op("hand draw", _hands.draw)
    gain = _Op("hand gain", _hands.gain)
    drop = _Op("hand drop", _hands.drop)


class _PlayerGroup(_Group):
    """``s.player``: the table's Players by name."""

    rename = _Op("player rename", _players.rename)


class _OddsGroup(_Group):
    """``s.odds``: exact odds of the next reveals (nothing drawn, nothing written)."""

    conflict = _Op("odds conflict", _odds.conflict)
    hits = _Op("odds hits", _odds.hits)
    die = _Op("odds die", _odds.die)
    weather = _Op("odds weather", _odds.weather)
    crit = _Op("odds crit", _odds.crit)


class _ScaleGroup(_Group):
    """``s.scale``: the conversions that read the session's ``[rules]`` (the others are
    ``d2d_cli.rules.scale.quantities``: mass, iq, comparison, samples)."""

    speed = _Op("scale speed", _scale.speed)
    show = _Op("scale show", _scale.show)
    map = _Op("scale map", _scale.map)
    area = _Op("scale area", _scale.area)


class _RulesGroup(_Group):
    """``s.rules``: the table's à la carte rules (``[rules]``), by key."""

    show = _Op("rules show", _table_rules.show)
    set = _Op("rules set", _table_rules.set_)
    unset = _Op("rules unset", _table_rules.unset)


class _SessionGroup(_Group):
    """``s.session``: the session file and its journal."""

    show = _Op("session show", _history.show)
    path = _Op("session path", _history.path)
    log = _Op("session log", _history.log)
    export = _Op("session export", _export.export)
    undo = _Op("session undo", _history.undo)
    redo = _Op("session redo", _history.redo)
