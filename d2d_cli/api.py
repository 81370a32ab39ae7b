"""d2d's Python face for scripts (scene prep): open a session, call the same operations
as the commands, get the same typed results (docs/api.md).

    from d2d_cli.api import Session

    s = Session("prep.toml", seed=11)
    scene = s.scene.load("combat1")
    knot = s.task.win("Knot", hits=2)
    print(knot.challenge, knot.progress)          # 2 4

Each call is one command: it takes the session's lock, is journalled (``d2d session
log`` shows it, ``s.undo()`` or ``d2d session undo`` reverts it) and is written when it
returns. Used as a context manager, the block is one change: the calls inside see each
other's changes, the lock is held until the block ends, and the file is written then —
or not at all if the block raises.

The operations are ``d2d_cli.operations``, the very functions the commands call; the
results are the rules' ``Result`` records (their ``to_json()`` is the ``result`` of the
command's ``--json`` envelope); errors are ``d2d_cli.errors.D2DError`` kinds —
``BadInput``, ``NotFound``, ``RuleViolation`` (a command's exit 2) and ``SessionError``
(exit 3).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from d2d_cli import session as _session
from d2d_cli.errors import BadInput, D2DError, NotFound, RuleViolation, SessionError
from d2d_cli.operations import Target

if TYPE_CHECKING:
    from d2d_cli.operations.characters import Exported
    from d2d_cli.operations.history import Step
    from d2d_cli.rules.combat.crits import Crit
    from d2d_cli.rules.combat.hits import Hits
    from d2d_cli.rules.core.result import Result
    from d2d_cli.rules.deck.dice import Thrown
    from d2d_cli.rules.deck.fate import DeckCounts, Drawn
    from d2d_cli.rules.overview.scene import SceneView
    from d2d_cli.rules.time.clock import (
        ClockMoved,
        ClockView,
        RandomAdded,
        TimedAdded,
    )
    from d2d_cli.rules.time.leaving import Freed, Left
    from d2d_cli.rules.time.rounds import RoundEnded, RoundStarted
    from d2d_cli.rules.time.tasks import TaskDropped, TaskView
    from d2d_cli.rules.time.turns import Spending
    from d2d_cli.rules.units.characters import Sheet
    from d2d_cli.rules.units.roster import UnitRow
    from d2d_cli.rules.units.travel import Characters, Imported

__all__ = ["BadInput", "D2DError", "NotFound", "RuleViolation", "Session", "SessionError"]


def _words(*args: Any, **opts: Any) -> str:
    """The command line an operation stands for, as the journal labels it."""
    words = [str(a) for a in args if a is not None]
    for key, value in opts.items():
        flag = "--" + key.rstrip("_").replace("_", "-")
        if value is None or value is False or value == ():
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, list | tuple):
            for v in value:
                words += [flag, str(v)]
        else:
            words += [flag, str(value)]
    return shlex.join(words)


class Session:
    """One session file: a name (under d2d's data folder, as ``--session NAME``) or a
    path ending in ``.toml``; None is the current session. ``seed`` is ``--seed``."""

    def __init__(self, session: str | os.PathLike[str] | None = None, *,
                 seed: int | None = None) -> None:
        self.spec = os.fspath(session) if session is not None else None
        self.seed = seed
        self._scope: Any = None
        self.fate = _Fate(self)
        self.unit = _Unit(self)
        self.task = _Task(self)
        self.clock = _Clock(self)
        self.round = _Round(self)
        self.scene = _Scene(self)
        self.char = _Char(self)

    @classmethod
    def new(cls, session: str | os.PathLike[str], *, seed: int | None = None) -> Session:
        """``d2d session new``: create the session (refused if it exists) and open it."""
        s = cls(session, seed=seed)
        _session.create(s.path, seed=seed)
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
        cm = _session.deferred()
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

    def target(self, *args: Any, **opts: Any) -> Target:
        """The session as an operation takes it, labelled with the command line the
        call stands for (``fate draw 3``)."""
        return Target(self.spec, self.seed, _words(*args, **opts))

    def data(self) -> dict[str, Any]:
        """The session's data as plain Python (what the TOML file holds)."""
        return self.target().read()

    # --- the operations that are one word ------------------------------------------

    def conflict(self, *sides: str, level_a: int | None = None, level_b: int | None = None,
                 skill: str | None = None, rival_skill: str | None = None,
                 obstacle: list[str] | None = None, table_cards: list[str] | None = None,
                 no_map: bool = False, spent: bool | None = None, **situation: Any) -> Result:
        """``d2d conflict SIDE_A SIDE_B`` (or ``conflict("chart")``); ``situation`` is
        the situational options by name (``range=3, cover="25"``; ``advantage=("a",)``)."""
        from d2d_cli.operations import combat
        from d2d_cli.rules.combat.situation import Terms

        edges: dict[str, Any] = {k: tuple(v) if k in ("advantage", "disadvantage") else v
                                 for k, v in situation.items()}
        terms = Terms(**edges)
        return combat.conflict(
            self.target("conflict", *sides, level_a=level_a, level_b=level_b, skill=skill,
                        rival_skill=rival_skill, card=table_cards, **situation),
            list(sides), level_a=level_a, level_b=level_b, skill=skill,
            rival_skill=rival_skill, obstacle=obstacle, card=table_cards, terms=terms,
            use_map=not no_map, spent=spent)

    def hit(self, *cards: str, level: int | None = None, rival_level: int | None = None,
            vs: str | None = None, by: str | None = None, difficulty: int | None = None,
            skill: str | None = None, rival_skill: str | None = None, combo: bool = False,
            advantage: bool = False, disadvantage: bool = False,
            table_cards: list[str] | None = None, no_map: bool = False,
            heroic_feat: str | None = None, **situation: Any) -> Hits:
        """``d2d hit CARD…``: the Hits of the winner's cards (``rules.combat.hits.Hits``)."""
        from d2d_cli.operations import combat
        from d2d_cli.rules.combat.situation import Terms

        terms = Terms(advantage=("a",) if advantage else (),
                      disadvantage=("a",) if disadvantage else (), **situation)
        return combat.hit(
            self.target("hit", *cards, level=level, rival_level=rival_level, vs=vs, by=by,
                        difficulty=difficulty, skill=skill, combo=combo),
            list(cards), level=level, rival_level=rival_level, vs=vs, by=by,
            difficulty=difficulty, skill=skill, rival_skill=rival_skill, combo=combo,
            card=table_cards, terms=terms, use_map=not no_map, heroic_feat=heroic_feat)

    def crit(self, *, vulnerable: bool = False, wild_luck: bool = False,
             screen: int | None = None, shield: str | None = None,
             item_damage: str | None = None, luck: int = 0, **options: Any) -> Crit:
        """``d2d crit``: ``power``, ``weapon``, ``stat``, ``by``, ``armor`` (a list),
        ``hits``, ``types``, ``vehicle``, ``target``, ``card``, ``difficulty`` and the
        Damage Modifiers — the command's options (``rules.combat.crits.Crit``)."""
        from d2d_cli.operations import combat

        damage = combat.damage_ask(vulnerable, wild_luck, screen, shield, item_damage, luck)
        label = self.target("crit", vulnerable=vulnerable, wild_luck=wild_luck, screen=screen,
                            shield=shield, item_damage=item_damage, luck=luck or None,
                            **options)
        return combat.crit(label, damage=damage, **options)

    def undo(self, *, force: bool = False) -> Step:
        """``d2d session undo``: revert the last change (an ``operations.history.Step``)."""
        from d2d_cli.operations import history

        return history.undo(self.target("session", "undo", force=force), force=force)

    def redo(self, *, force: bool = False) -> Step:
        """``d2d session redo``."""
        from d2d_cli.operations import history

        return history.redo(self.target("session", "redo", force=force), force=force)


class _Group:
    def __init__(self, s: Session) -> None:
        self._s = s


class _Fate(_Group):
    """``s.fate``: the Fate deck."""

    def draw(self, n: int = 1, *, peek: bool = False) -> Drawn:
        """``d2d fate draw N [--peek]`` (``rules.deck.fate.Drawn``)."""
        from d2d_cli.operations import fate

        return fate.draw(self._s.target("fate", "draw", n, peek=peek), n, peek=peek)

    def shuffle(self, *, reset: bool = False) -> DeckCounts:
        """``d2d fate shuffle [--reset]`` (``rules.deck.fate.DeckCounts``)."""
        from d2d_cli.operations import fate

        return fate.shuffle(self._s.target("fate", "shuffle", reset=reset), reset=reset)

    def die(self, sides: str, count: int = 1, *, explain: bool = False,
            advantage: bool = False, disadvantage: bool = False,
            table_cards: list[str] | None = None) -> Thrown:
        """``d2d fate die dN [--count N]`` (``rules.deck.dice.Thrown``)."""
        from d2d_cli.operations import fate

        return fate.die(self._s.target("fate", "die", sides, count=count, advantage=advantage,
                                       disadvantage=disadvantage, card=table_cards),
                        sides, count, explain=explain, advantage=advantage,
                        disadvantage=disadvantage, card=table_cards)


class _Unit(_Group):
    """``s.unit``: units on the board."""

    def add(self, name: str, *, body: str, mind: str, will: str, speed: str,
            skills: list[str] | None = None, faction: str | None = None) -> UnitRow:
        """``d2d unit add NAME --body … --skill "Close Combat=1"…`` (``UnitRow``)."""
        from d2d_cli.operations import units

        return units.add(self._s.target("unit", "add", name, body=body, mind=mind, will=will,
                                        speed=speed, skill=skills, faction=faction),
                         name, body=body, mind=mind, will=will, speed=speed, skills=skills,
                         faction=faction)

    def condition(self, name: str, action: str, condition: str, count: int = 1) -> UnitRow:
        """``d2d unit condition NAME add|remove CONDITION [--count N]`` (``UnitRow``)."""
        from d2d_cli.operations import units

        return units.condition(self._s.target("unit", "condition", name, action, condition,
                                              count=count), name, action, condition, count)

    def move(self, name: str, what: str, *rest: str) -> Spending:
        """``d2d unit move NAME N|KIND [COUNT|HEADING]`` (``rules.time.turns.Spending``)."""
        from d2d_cli.operations import units

        return units.move(self._s.target("unit", "move", name, what, *rest), name, what,
                          list(rest))

    def leave(self, name: str, kind: str | None = None, side: str | None = None) -> Left:
        """``d2d unit leave NAME [KIND [SIDE]]``: step off the map at its edge
        (``rules.time.leaving.Left``)."""
        from d2d_cli.operations import units

        return units.leave(self._s.target("unit", "leave", name, *(w for w in (kind, side)
                                                                  if w)), name, kind, side)

    def free(self, name: str) -> Freed:
        """``d2d unit free NAME``: a bound unit set free (``rules.time.leaving.Freed``)."""
        from d2d_cli.operations import units

        return units.free(self._s.target("unit", "free", name), name)

    def act(self, name: str, action: str, arg: str | None = None, *,
            range: int | None = None) -> Spending:  # noqa: A002 - the command's --range
        """``d2d unit act NAME ACTION [CHOICE] [--range N]`` (``turns.Spending``)."""
        from d2d_cli.operations import units

        return units.act(self._s.target("unit", "act", name, action, arg, range_=range),
                         name, action, arg, range_=range)


class _Task(_Group):
    """``s.task``: Tasks (Challenge and Progress)."""

    def new(self, name: str, difficulty: int, workers: list[str] | None = None) -> TaskView:
        """``d2d task new NAME --difficulty D [--worker UNIT]…`` (``TaskView``)."""
        from d2d_cli.operations import tasks

        return tasks.new(self._s.target("task", "new", name, difficulty=difficulty,
                                        worker=workers), name, difficulty, workers)

    def show(self, name: str) -> TaskView:
        """``d2d task show NAME`` (``TaskView``)."""
        from d2d_cli.operations import tasks

        return tasks.show(self._s.target("task", "show", name), name)

    def win(self, name: str, hits: int, by: str | None = None) -> TaskView:
        """``d2d task win NAME --hits H [--by UNIT]`` (``TaskView``)."""
        from d2d_cli.operations import tasks

        return tasks.win(self._s.target("task", "win", name, hits=hits, by=by), name, hits, by)

    def drop(self, name: str) -> TaskDropped:
        """``d2d task drop NAME`` (``TaskDropped``: with the workers it leaves freed or
        still bound)."""
        from d2d_cli.operations import tasks

        return tasks.drop(self._s.target("task", "drop", name), name)

    def lose(self, name: str, hits: int, by: str | None = None) -> TaskView:
        """``d2d task lose NAME --hits H [--by UNIT]`` (``TaskView``)."""
        from d2d_cli.operations import tasks

        return tasks.lose(self._s.target("task", "lose", name, hits=hits, by=by), name, hits,
                          by)


class _Clock(_Group):
    """``s.clock``: the scene clock and its events."""

    def show(self) -> ClockView:
        """``d2d clock show`` (``ClockView``)."""
        from d2d_cli.operations import clock

        return clock.show(self._s.target("clock", "show"))

    def tick(self, *, down: bool = False) -> ClockMoved:
        """``d2d clock tick [--down]`` (``ClockMoved``)."""
        from d2d_cli.operations import clock

        return clock.advance(self._s.target("clock", "tick", down=down), 1, down=down)

    def advance(self, k: int, *, down: bool = False) -> ClockMoved:
        """``d2d clock advance K [--down]`` (``ClockMoved``)."""
        from d2d_cli.operations import clock

        return clock.advance(self._s.target("clock", "advance", k, down=down), k, down=down)

    def set(self, n: int) -> ClockView:
        """``d2d clock set N`` (``ClockView``)."""
        from d2d_cli.operations import clock

        return clock.set_to(self._s.target("clock", "set", n), n)

    def add_event(self, at: int, text: str) -> TimedAdded:
        """``d2d clock event add N TEXT`` (``TimedAdded``)."""
        from d2d_cli.operations import clock

        return clock.add_timed(self._s.target("clock", "event", "add", at, text), at, text)

    def random_event(self, text: str, chance: str, *, repeat: bool = False) -> RandomAdded:
        """``d2d clock event random TEXT --chance K/N [--repeat]`` (``RandomAdded``)."""
        from d2d_cli.operations import clock

        return clock.add_random(self._s.target("clock", "event", "random", text,
                                               chance=chance, repeat=repeat),
                                text, chance, repeat=repeat)


class _Round(_Group):
    """``s.round``: round start and round end."""

    def start(self) -> RoundStarted:
        """``d2d round start`` (``rules.time.rounds.RoundStarted``)."""
        from d2d_cli.operations import rounds

        return rounds.start(self._s.target("round", "start"))

    def end(self, recover: list[str] | None = None,
            table_cards: list[str] | None = None) -> RoundEnded:
        """``d2d round end [--recover NAME=CHOICE]…`` (``rules.time.rounds.RoundEnded``)."""
        from d2d_cli.operations import rounds

        return rounds.end(self._s.target("round", "end", recover=recover, card=table_cards),
                          recover, table_cards)


class _Scene(_Group):
    """``s.scene``: scene files."""

    def load(self, file: str | os.PathLike[str]) -> SceneView:
        """``d2d scene load FILE`` (a path or a built-in scene; ``SceneView``)."""
        from d2d_cli.operations import scene

        spec = os.fspath(file)
        return scene.load(self._s.target("scene", "load", spec), spec)


class _Char(_Group):
    """``s.char``: characters."""

    def new(self, name: str, template: str | None = None, *, body: str | None = None,
            mind: str | None = None, will: str | None = None, speed: str | None = None,
            archetype: str | None = None, **conception: str) -> Sheet:
        """``d2d char new NAME [--template T] [--body L]… [--archetype A]
        [--motivation TEXT]…`` (``rules.units.characters.Sheet``)."""
        from d2d_cli.operations import characters

        stats = {"body": body, "mind": mind, "will": will, "speed": speed}
        return characters.new(
            self._s.target("char", "new", name, template=template,
                           **{k: v for k, v in stats.items() if v is not None},
                           archetype=archetype, **conception),
            name, template, stats=stats, archetype=archetype,
            conception=dict(conception))

    def show(self, name: str) -> Sheet:
        """``d2d char show NAME`` (``Sheet``)."""
        from d2d_cli.operations import characters

        return characters.show(self._s.target("char", "show", name), name)

    def list(self) -> Characters:
        """``d2d char list`` (``rules.units.travel.Characters``)."""
        from d2d_cli.operations import characters

        return characters.list_(self._s.target("char", "list"))

    def export(self, name: str, format: str = "toml",  # noqa: A002 - the command's --format
               output: str | os.PathLike[str] | None = None, *, force: bool = False) -> Exported:
        """``d2d char export NAME --format F [-o FILE]``: with ``output`` the file is
        written; the result's ``text`` is the sheet either way
        (``operations.characters.Exported``)."""
        from d2d_cli.operations import characters

        done = characters.export(self._s.target("char", "export", name, format=format),
                                 name, format)
        if output is None:
            return done
        return characters.write(done, Path(output), force=force, protect=(self._s.path,))

    def import_(self, file: str | os.PathLike[str], *, rename: str | None = None,
                replace: bool = False) -> Imported:
        """``d2d char import FILE [--rename NEW | --replace]``
        (``rules.units.travel.Imported``)."""
        from d2d_cli.operations import characters

        spec = os.fspath(file)
        return characters.import_(self._s.target("char", "import", spec, rename=rename,
                                                 replace=replace),
                                  spec, rename=rename, replace=replace)
