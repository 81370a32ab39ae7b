"""Every command that reads or changes a session is a method of the Python API (issue 26
item 2), and the method and the typed command are one operation: for each leaf command
of the Click tree, the API call and the command — from the same session and the same
``--seed`` — leave byte-identical session files, the same journal (labels and
summaries, exact strings) and the same ``--json`` result (or the same error)."""

from __future__ import annotations

import inspect
import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer

from d2d_cli.api import D2DError, Session, _Op
from d2d_cli.cli import app
from d2d_cli.rules.core.result import to_json
from tests.helpers import Runner

# Commands that are not operations on a session, so no API method (the reason each):
NOT_SESSION = {
    "play": "reads d2d lines from a terminal or a file: a script calls the API itself",
    "tour": "an interactive walkthrough on a throwaway session of its own",
    "ref": "the rules reference text (d2d_cli.tables); no session",
    "session new": "Session.new, the constructor (tests/test_api.py)",
    "session list": "the sessions of the data folder, not one session",
    "session use": "which session a bare `d2d` uses; a script names its session",
    "scale mass": "a pure conversion (rules.scale.quantities.mass); reads no session",
    "scale iq": "a pure conversion (rules.scale.quantities.iq)",
    "scale compare": "a pure comparison (rules.scale.quantities.comparison)",
    "scale samples": "the rules' sample table (rules.scale.quantities.samples)",
    "serve": "a long-running server for the players' screens (d2d_cli.serve), not one call",
}


def _leaves() -> list[tuple[str, Any]]:
    """Every leaf command of the Click tree: ``("unit place", command)``."""
    out: list[tuple[str, Any]] = []

    def walk(path: list[str], cmd: Any) -> None:
        subs = getattr(cmd, "commands", None)
        if subs is not None and hasattr(cmd, "list_commands"):
            if getattr(cmd, "invoke_without_command", False):  # `d2d board` draws
                out.append((" ".join(path), cmd))
            for name in list(subs):
                walk([*path, name], subs[name])
        else:
            out.append((" ".join(path), cmd))

    root = typer.main.get_command(app)
    for name in root.list_commands(None):  # type: ignore[arg-type]
        walk([name], root.get_command(None, name))  # type: ignore[arg-type]
    return out


LEAVES = dict(_leaves())


def _method(path: str) -> _Op[Any, Any] | None:
    """The API's method for a command: ``unit place`` is ``s.unit.place``,
    ``fate high-card`` ``s.fate.high_card``, ``char import`` ``s.char.import_``,
    ``status`` ``s.status``."""
    s = Session("unused.toml")
    obj: Any = s
    words = [w.replace("-", "_") for w in path.split()]
    for w in words[:-1]:
        obj = getattr(obj, w, None)
    last = words[-1]
    owner = type(obj)
    op = inspect.getattr_static(owner, last + "_" if last in ("import",) else last, None)
    if op is None and callable(getattr(obj, last, None)):  # s.board() is s.board.draw()
        op = inspect.getattr_static(type(getattr(obj, last)), "draw", None)
    return op if isinstance(op, _Op) else None


def test_the_tree_has_the_commands_it_is_known_to_have() -> None:
    assert len(LEAVES) == 117
    assert set(NOT_SESSION) <= set(LEAVES)


@pytest.mark.parametrize("path", sorted(LEAVES))
def test_every_session_command_has_an_api_method_of_its_options(path: str) -> None:
    """The method exists, is that command's operation, and its keyword names are the
    command's option names (``--skill`` is ``skill=``), in the command's order."""
    op = _method(path)
    if path in NOT_SESSION:
        assert op is None, f"{path} has an API method: take it off NOT_SESSION"
        return
    assert op is not None, f"d2d {path} has no API method"
    assert op.path == path
    cmd = LEAVES[path]
    flags = [o for p in cmd.params if p.param_type_name == "option" and p.name != "json"
             for o in p.opts if o.startswith("--")]
    order = {f: i for i, f in enumerate(flags)}
    mine = [op.flags.get(n, "--" + n.rstrip("_").replace("_", "-"))
            for n, p in op.signature.parameters.items()
            if p.kind is p.KEYWORD_ONLY and n not in op.extra]
    assert set(mine) <= set(flags), (path, set(mine) - set(flags))
    assert [order[f] for f in mine] == sorted(order[f] for f in mine), (path, mine)
    arguments = [p for p in cmd.params if p.param_type_name == "argument"]
    positional = [p for p in op.signature.parameters.values() if p.kind is not p.KEYWORD_ONLY]
    assert len(positional) <= len(arguments) or any(
        p.kind is p.VAR_POSITIONAL for p in positional), path


# --- the same call both ways ------------------------------------------------------

SCENE = ("scene load combat1",)
ROUND = (*SCENE, "round start")
ROOK = (*SCENE, "char new Rook --body 7 --speed 5 --archetype thief",
        "char award Rook --cp 2 --sp 6 --ap 4")
FREED = (*ROUND, "task win Knot 2 --by Thief", "task win Knot 2 --by Thief")
# [rules] hands = "d2d" as a table sets it by hand (the file, not `d2d rules set`: the
# hands dealt are the scene's), then a scene whose Players are dealt their hands (issue 31).
HANDS = ('@rules hands = "d2d"', *SCENE)

Call = Callable[[Session], Any]
CASES: dict[str, tuple[tuple[str, ...], str, Call]] = {
    # command: (setup, the command as typed, the same call through the API)
    "fate draw": (SCENE, "fate draw 3", lambda s: s.fate.draw(3)),
    "fate shuffle": (SCENE, "fate shuffle --reset", lambda s: s.fate.shuffle(reset=True)),
    "fate status": (SCENE, "fate status", lambda s: s.fate.status()),
    "fate coin": (SCENE, "fate coin", lambda s: s.fate.coin()),
    "fate high-card": (SCENE, "fate high-card Archer Thief",
                       lambda s: s.fate.high_card(["Archer", "Thief"])),
    "fate die": (SCENE, "fate die d10 2 --advantage",
                 lambda s: s.fate.die("d10", 2, advantage=True)),
    "conflict": (SCENE, "conflict Archer:7S^ 'Goblin Scout' --skill Ranged --range 3 "
                 "--cover 25 --obstacle C=rock --no-map",
                 lambda s: s.conflict("Archer:7S^", "Goblin Scout", skill="Ranged", range=3,
                                      cover="25", obstacle=["C=rock"], no_map=True)),
    "hit": (SCENE, "hit 2S 3H 4C --vs 'Goblin Scout' --by Archer",
            lambda s: s.hit("2S", "3H", "4C", by="Archer", vs="Goblin Scout")),
    "crit": (SCENE, "crit --power 5x1 --hits 2 --target 'Goblin Scout' --luck 0",
             lambda s: s.crit(power="5x1", hits=2, target="Goblin Scout", luck=0)),
    "status": (ROUND, "status", lambda s: s.status()),
    "board": (SCENE, "board", lambda s: s.board()),
    "board fog": (SCENE, "board fog A1:D4 --sight 2",
                  lambda s: s.board.fog("A1:D4", sight=2)),
    "board reveal": ((*SCENE, "board fog --all"), "board reveal --all",
                     lambda s: s.board.reveal(all=True)),
    "board place": (SCENE, "board place Den J8:K9", lambda s: s.board.place("Den", "J8:K9")),
    "board event add": ((*SCENE, "board place Den J8:K9"),
                        "board event add Den 'A chest of gold' --location",
                        lambda s: s.board.event.add("Den", "A chest of gold", location=True)),
    "board event list": ((*SCENE, "board event add C3 'A pit'"), "board event list",
                         lambda s: s.board.event.list()),
    "board event reveal": ((*SCENE, "board event add C3 'A pit'"), "board event reveal 1",
                           lambda s: s.board.event.reveal(1)),
    "board event rm": ((*SCENE, "board event add C3 'A pit'"), "board event rm 1",
                       lambda s: s.board.event.rm(1)),
    "roll": (SCENE, "roll 'd6 + 2c'", lambda s: s.roll("d6 + 2c")),
    "oracle": (SCENE, "oracle 'Is the guard asleep?' --likely",
               lambda s: s.oracle("Is the guard asleep?", likely=True)),
    "char new": (SCENE, "char new Rook --body 7 --speed 5 --archetype thief "
                 "--motivation Revenge",
                 lambda s: s.char.new("Rook", body="7", speed="5", archetype="thief",
                                      motivation="Revenge")),
    "char show": (ROOK, "char show Rook", lambda s: s.char.show("Rook")),
    "char export": (ROOK, "char export Rook --format toml --output -",
                    lambda s: s.char.export("Rook", format="toml", output="-")),
    "char import": ((*ROOK, "char export Rook --format toml --output {dir}/rook.toml"),
                    "char import {dir}/rook.toml --rename Rook2",
                    lambda s: s.char.import_(s.path.parent / "rook.toml", rename="Rook2")),
    "char list": (ROOK, "char list", lambda s: s.char.list()),
    "char award": (ROOK, "char award Rook --cp 1 --sp 2 --ap 1",
                   lambda s: s.char.award("Rook", cp=1, sp=2, ap=1)),
    "char train": (ROOK, "char train Rook Stealth", lambda s: s.char.train("Rook", "Stealth")),
    "char respec": ((*ROOK, "char train Rook Climbing", "char train Rook Climbing"),
                    "char respec Rook Climbing", lambda s: s.char.respec("Rook", "Climbing")),
    "char learn": ((*ROOK, "char learn Rook Locks --specialty"),
                   "char learn Rook 'Pick Lock' --in Locks",
                   lambda s: s.char.learn("Rook", "Pick Lock", within="Locks")),
    "char unlearn": ((*ROOK, "char learn Rook 'Pick Lock'"), "char unlearn Rook 'Pick Lock'",
                     lambda s: s.char.unlearn("Rook", "Pick Lock")),
    "char feat": (ROOK, "char feat Rook", lambda s: s.char.feat("Rook")),
    "char downtime": (ROOK, "char downtime Rook", lambda s: s.char.downtime(["Rook"])),
    "unit add": (SCENE, "unit add Orc --body 9x1 --mind 4x1 --will 5x1 --speed 4x0 "
                 "--skill 'Close Combat=2'",
                 lambda s: s.unit.add("Orc", body="9x1", mind="4x1", will="5x1",
                                      speed="4x0", skill=["Close Combat=2"])),
    "unit list": (SCENE, "unit list", lambda s: s.unit.list()),
    "unit show": (SCENE, "unit show Archer", lambda s: s.unit.show("Archer")),
    "unit rm": (SCENE, "unit rm 'Goblin Scout'", lambda s: s.unit.rm("Goblin Scout")),
    "unit condition": (SCENE, "unit condition Thief add fatigue 2",
                       lambda s: s.unit.condition("Thief", "add", "fatigue", 2)),
    "unit heal": ((*SCENE, "unit condition Thief add bleeding"), "unit heal Thief --days 1",
                  lambda s: s.unit.heal("Thief", days=1)),
    "unit target": (SCENE, "unit target Archer 'Goblin Scout'",
                    lambda s: s.unit.target("Archer", "Goblin Scout")),
    "unit move": (ROUND, "unit move Archer forward 2",
                  lambda s: s.unit.move("Archer", "forward", "2")),
    "unit act": ((*ROUND, "unit condition Thief add fatigue 2"),
                 "unit act Thief recover fatigue",
                 lambda s: s.unit.act("Thief", "recover", "fatigue")),
    "unit wait": (ROUND, "unit wait 'Goblin Skirmisher' 5",
                  lambda s: s.unit.wait("Goblin Skirmisher", 5)),
    "unit face": (SCENE, "unit face Archer NE", lambda s: s.unit.face("Archer", "NE")),
    "unit ability": (SCENE, "unit ability Archer list",
                     lambda s: s.unit.ability("Archer", "list")),
    "unit stealth": (SCENE, "unit stealth Thief hide", lambda s: s.unit.stealth("Thief", "hide")),
    "unit power": ((*SCENE, "unit add Mage --body 5x1 --mind 6x1 --will 5x1 --speed 4x0 "
                    "--skill Fire=3", "round start"),
                   "unit power Mage use Fire --effect 4 --price fatigue --range 1 --area 3",
                   lambda s: s.unit.power("Mage", "use", "Fire", effect=4, price="fatigue",
                                          range="1", area=3)),
    "unit place": (SCENE, "unit place Archer E7 NE --single",
                   lambda s: s.unit.place("Archer", "E7", "NE", double=False)),
    "unit leave": (FREED, "unit leave Thief", lambda s: s.unit.leave("Thief")),
    "unit free": (SCENE, "unit free Thief", lambda s: s.unit.free("Thief")),
    "unit situation": (ROUND, "unit situation Archer --vs 'Goblin Skirmisher' --cover 50 "
                       "--range 3 --no-high-ground",
                       lambda s: s.unit.situation("Archer", vs="Goblin Skirmisher", cover=50,
                                                  range=3, high_ground=False)),
    "unit interrupt": (ROUND, "unit interrupt 'Goblin Skirmisher' Archer",
                       lambda s: s.unit.interrupt("Goblin Skirmisher", "Archer")),
    "unit respond": ((*ROUND, "unit act 'Goblin Scout' interact Archer"),
                     "unit respond Archer --no-action",
                     lambda s: s.unit.respond("Archer", action=False)),
    "unit gear add": (SCENE, "unit gear add Archer Dagger --proficient Bow",
                      lambda s: s.unit.gear.add("Archer", "Dagger", proficient=["Bow"])),
    "unit gear rm": ((*SCENE, "unit gear add Archer Dagger"), "unit gear rm Archer Dagger",
                     lambda s: s.unit.gear.rm("Archer", "Dagger")),
    "unit gear show": ((*SCENE, "unit gear add Archer Dagger"), "unit gear show Archer",
                       lambda s: s.unit.gear.show("Archer")),
    "task new": (SCENE, "task new Rope 4 --worker Thief",
                 lambda s: s.task.new("Rope", 4, worker=["Thief"])),
    "task win": (SCENE, "task win Knot 2 --by Thief", lambda s: s.task.win("Knot", 2, by="Thief")),
    "task lose": (SCENE, "task lose Knot 1", lambda s: s.task.lose("Knot", 1)),
    "task show": (SCENE, "task show Knot", lambda s: s.task.show("Knot")),
    "task list": (SCENE, "task list", lambda s: s.task.list()),
    "task drop": (SCENE, "task drop Knot", lambda s: s.task.drop("Knot")),
    "clock show": (SCENE, "clock show", lambda s: s.clock.show()),
    "clock set": (SCENE, "clock set 3", lambda s: s.clock.set(3)),
    "clock tick": (SCENE, "clock tick --down", lambda s: s.clock.tick(down=True)),
    "clock advance": (SCENE, "clock advance 3", lambda s: s.clock.advance(3)),
    "clock event add": (SCENE, "clock event add 'Orcs arrive' 5",
                        lambda s: s.clock.event.add("Orcs arrive", 5)),
    "clock event random": (SCENE, "clock event random 'A patrol' 1/4 --repeat",
                           lambda s: s.clock.event.random("A patrol", "1/4", repeat=True)),
    "clock event list": (SCENE, "clock event list", lambda s: s.clock.event.list()),
    "clock event rm": (SCENE, "clock event rm 'Reinforcements: another Goblin Skirmisher "
                       "arrives (the 5th Turn)'", lambda s: s.clock.event.rm(
                           "Reinforcements: another Goblin Skirmisher arrives (the 5th Turn)")),
    "round start": (SCENE, "round start", lambda s: s.round.start()),
    "round end": (ROUND, "round end", lambda s: s.round.end()),
    "round groups": (ROUND, "round groups", lambda s: s.round.groups()),
    "round next": (ROUND, "round next", lambda s: s.round.next()),
    "weather wind": (SCENE, "weather wind", lambda s: s.weather.wind()),
    "weather show": ((*SCENE, "weather wind"), "weather show", lambda s: s.weather.show()),
    "odds conflict": (SCENE, "odds conflict fate 7S^ --level-b 2",
                      lambda s: s.odds.conflict("fate", "7S^", level_b=2)),
    "odds hits": (SCENE, "odds hits 3 --level 2 --vs 2x1",
                  lambda s: s.odds.hits(3, level=2, vs="2x1")),
    "odds die": (SCENE, "odds die d10", lambda s: s.odds.die("d10")),
    "odds weather": (SCENE, "odds weather --fresh", lambda s: s.odds.weather(fresh=True)),
    "odds crit": (SCENE, "odds crit --power 6x1 --armor head=2x1 --hits 2 --types pierce",
                  lambda s: s.odds.crit(power="6x1", armor=["head=2x1"], hits=2,
                                        types="pierce")),
    "scene load": ((), "scene load combat1", lambda s: s.scene.load("combat1")),
    "scene show": (SCENE, "scene show", lambda s: s.scene.show()),
    "session show": (SCENE, "session show", lambda s: s.session.show()),
    "session path": (SCENE, "session path", lambda s: s.session.path()),
    "session log": (SCENE, "session log 5", lambda s: s.session.log(5)),
    "session export": (ROUND, "session export {dir}/story.md --format foundry-cards",
                       lambda s: s.session.export(s.path.parent / "story.md",
                                                  format="foundry-cards")),
    "session undo": ((*SCENE, "fate draw 2"), "session undo", lambda s: s.session.undo()),
    "session redo": ((*SCENE, "fate draw 2", "session undo"), "session redo",
                     lambda s: s.session.redo()),
    "scale speed": (SCENE, "scale speed 40kph", lambda s: s.scale.speed("40kph")),
    "scale show": (SCENE, "scale show 5x0 --as speed",
                   lambda s: s.scale.show("5x0", as_="speed")),
    "scale map": (SCENE, "scale map car --speed 5x1", lambda s: s.scale.map("car", speed="5x1")),
    "scale area": (SCENE, "scale area 4", lambda s: s.scale.area(4)),
    "sim": (SCENE, "sim combat1 3 --workers 1", lambda s: s.sim("combat1", 3, workers=1)),
    "npc plan": (ROUND, "npc plan 'Goblin Scout'", lambda s: s.npc.plan("Goblin Scout")),
    "npc turn": (ROUND, "npc turn 'Goblin Scout'", lambda s: s.npc.turn("Goblin Scout")),
    "unit side": (SCENE, "unit side Archer --faction Goblins --player Ann --new",
                  lambda s: s.unit.side("Archer", faction="Goblins", player="Ann",
                                        new=True)),
    "hand deal": (HANDS, "hand deal Player2", lambda s: s.hand.deal("Player2")),
    "hand show": (HANDS, "hand show Player1", lambda s: s.hand.show("Player1")),
    "hand choose": (HANDS, "hand choose Archer 6Sv", lambda s: s.hand.choose("Archer", "6Sv")),
    "hand draw": (HANDS, "hand draw Player1 2", lambda s: s.hand.draw("Player1", 2)),
    "hand gain": (HANDS, "hand gain Player1", lambda s: s.hand.gain("Player1")),
    "hand drop": (HANDS, "hand drop player2", lambda s: s.hand.drop("player2")),
    "player rename": (HANDS, "player rename Player1 Ann",
                      lambda s: s.player.rename("Player1", "Ann")),
    "rules show": (SCENE, "rules show", lambda s: s.rules.show()),
    "rules set": (SCENE, "rules set hands D2D", lambda s: s.rules.set("hands", "D2D")),
    "rules unset": ((*SCENE, "rules set cover edges"), "rules unset cover",
                    lambda s: s.rules.unset("cover")),
}

_AT = re.compile(r'"at": "[^"]*"')
_CREATED = re.compile(r'"created": "[^"]*"')
_TIME = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[^\"]*")


def _same(text: str, folder: Path) -> str:
    """A result or a journal with the two folders' names and the times made equal."""
    text = _AT.sub('"at": "<time>"', text.replace(str(folder), "<dir>"))
    # two processes may create the two sessions in two different seconds
    return _CREATED.sub('"created": "<time>"', text)


def test_every_session_command_has_a_case() -> None:
    assert set(CASES) == set(LEAVES) - set(NOT_SESSION)


@pytest.mark.parametrize("path", sorted(CASES))
def test_the_api_and_the_typed_command_leave_the_same_session_and_journal(
        path: str, d2d: Runner, tmp_path: Path) -> None:
    setup, typed, call = CASES[path]
    runs: dict[str, Any] = {}
    for face in ("cli", "api"):
        folder = tmp_path / face
        folder.mkdir()
        f = folder / "s.toml"
        d2d.ok("--seed", "4", "session", "new", f)
        for line in setup:
            if line.startswith("@rules "):  # a [rules] key set by hand
                f.write_text(f.read_text("utf-8").replace("[rules]\n", f"[rules]\n{line[7:]}\n",
                                                          1), "utf-8")
                continue
            d2d.ok("--seed", "4", "--session", f, *shlex.split(line.format(dir=folder)))
        if face == "cli":
            res = d2d("--seed", "4", "--session", f, *shlex.split(typed.format(dir=folder)),
                      "--json")
            out = json.loads(res.stdout) if res.stdout.startswith("{") else res.stdout
            if isinstance(out, dict):
                out = out["result"] if out["ok"] else out["error"]["message"]
        else:
            s = Session(f, seed=4)
            try:
                got = call(s)
            except D2DError as e:
                out = str(e)
            else:
                out = to_json(got)
                if path in ("session undo", "session redo"):  # the command's envelope
                    out = {"reverted" if path.endswith("undo") else "redone": out}
        log = d2d.json("--session", f, "session", "log", "--last", "99")["entries"]
        runs[face] = (_TIME.sub(b"<time>", f.read_bytes()),  # when it was created
                      _same(json.dumps(log), folder),
                      _same(json.dumps(out), folder) if not isinstance(out, str) or
                      path != "char export" else out)
    cli, api = runs["cli"], runs["api"]
    assert api[1] == cli[1], "the journal differs"
    assert api[0] == cli[0], "the session file differs"
    if path != "char export":  # the command prints the record; the API returns it
        assert api[2] == cli[2], "the result differs"


GROUPS = ("fate", "unit", "unit.gear", "task", "clock", "clock.event", "round", "weather",
          "scene", "char", "npc", "hand", "player", "odds", "scale", "session", "rules",
          "board", "board.event")


def api_table() -> str:
    """docs/api.md's table of methods, from the API itself: each method with its
    signature and the command it is."""
    def shown(op: _Op[Any, Any]) -> str:
        parts: list[str] = []
        for n, p in op.signature.parameters.items():
            if p.kind is p.KEYWORD_ONLY and not any(x.startswith("*") for x in parts):
                parts.append("*")
            parts.append(f"*{n}" if p.kind is p.VAR_POSITIONAL else n if p.default is p.empty
                         else f"{n}={p.default!r}")
        return ", ".join(parts)

    rows = ["| Method | Command |", "|---|---|"]
    for name in ("", *GROUPS):
        face: Any = Session("unused.toml")
        for word in name.split(".") if name else ():
            face = getattr(face, word)
        for attr, op in vars(type(face)).items():
            if isinstance(op, _Op):
                rows.append(f"| `s{'.' + name if name else ''}.{attr}({shown(op)})` | "
                            f"`d2d {op.path}` |")
    return "\n".join(rows) + "\n"


def test_docs_api_lists_every_method_with_its_signature() -> None:
    """docs/api.md's table is the API's (regenerate it with
    ``python -c "from tests.test_api_commands import api_table; print(api_table())"``)."""
    from tests.helpers import ROOT

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert api_table() in text
    assert [path for path in CASES if f"| `d2d {path}` |" not in text] == []


def test_the_situational_options_are_declared_once() -> None:
    """conflict and hit, typed or called, take the situational options of
    operations/situation.py, in its order; --obstacle still follows --cover."""
    from d2d_cli.commands._situation import OPTIONS
    from d2d_cli.operations.situation import SITUATION

    names = list(SITUATION.names)
    assert list(OPTIONS) == names
    for path in ("conflict", "hit"):
        typed = [p.name for p in LEAVES[path].params]
        op = _method(path)
        assert op is not None
        called = list(op.signature.parameters)
        for given in (typed, called):
            assert [n for n in given if n in names] == names
    typed = [p.name for p in LEAVES["conflict"].params]
    assert typed[typed.index("cover") + 1] == "obstacle"


def test_the_crit_damage_options_are_declared_once() -> None:
    """crit and odds crit, typed or called, take the Damage Modifiers and the Difficulty
    of operations/damage.py, in its order (000 l.520–533)."""
    from d2d_cli.commands._crit_options import DAMAGE_OPTIONS
    from d2d_cli.operations.damage import DAMAGE

    names = list(DAMAGE.names)
    assert list(DAMAGE_OPTIONS) == names
    for path in ("crit", "odds crit"):
        op = _method(path)
        assert op is not None
        for given in ([p.name for p in LEAVES[path].params], list(op.signature.parameters)):
            assert [n for n in given if n in names] == names, path


@pytest.mark.parametrize("path", sorted(set(LEAVES) - set(NOT_SESSION)))
def test_every_api_method_says_which_result_it_returns(path: str) -> None:
    """Typed results (issue 26 item 1): a method's return type names the rules' records
    it can give, never ``Any`` nor the bare ``Result`` base (a script's type checker
    then knows ``s.conflict(…).outcome``)."""
    op = _method(path)
    assert op is not None
    returned = str(inspect.signature(op.fn).return_annotation)
    assert returned != str(inspect.Signature.empty), path
    words = set(re.findall(r"[\w.]+", returned))
    assert not words & {"Any", "Result", "object", "typing.Any"}, (path, returned)
