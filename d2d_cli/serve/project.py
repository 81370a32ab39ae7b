"""What a page may show: the session projected for the table (DESIGN.md "The table:
sides, hands, and the players' page").

* :func:`public` — what every player may see: the round and who acts next, the Status
  Bar (Move, Actions, conditions; a Player's hand *size*), the map, the clock and its
  next Timed Event, weather, tasks, the Fate deck's count and public discards with the
  exact odds of the next reveal, the last things done, the oracle's answers.
* :func:`player` — one Player's own page: their hand and their face-down choice.

Hands are read from the session as issue 31 stores them: ``[players."NAME"]`` with
``deck``, ``hand``, ``discard`` (card codes) and ``[players."NAME".chosen]`` (``unit``,
``card``); a unit's ``player`` names who plays it (absent: a Non-Player).

The public projection reads a hand only through its length and a choice only through
whether one was made (tests/test_serve_project.py proves, for any session a property
test makes, that changing the cards changes nothing in it). The journal lines shown are
those of commands that show nothing hidden (``PUBLIC_COMMANDS``): a command that deals
or chooses cards is left out, whatever its summary says.
"""

from __future__ import annotations

import shlex
from fractions import Fraction
from typing import Any

SCHEMA_VERSION = 1
# The journal entries shown on the public page: commands whose line and summary hold
# only what the table saw. Anything else (hands, a face-down choice, undo of either,
# session housekeeping) is left out.
PUBLIC_COMMANDS = frozenset({"fate", "conflict", "hit", "crit", "oracle", "clock", "round",
                             "weather", "task", "unit", "scene", "npc"})
LOG_SHOWN = 8
NON_PLAYER = "Non-Player"  # a unit's ``player`` when nobody plays it (as combat1 says)
ORACLE_SHOWN = 5


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def player_names(data: dict[str, Any]) -> list[str]:
    """Every Player (``rules.units.sides.players``), then any other hand's holder the
    ``[players]`` table names (the Narrator's, with ``[rules] narrator_hand``)."""
    from d2d_cli.rules.units import sides

    names = sides.players(data)
    return names + [str(n) for n in _table(data, "players")
                    if n not in names and n != NON_PLAYER]


def _prob(p: Fraction) -> dict[str, Any]:
    from d2d_cli.rules.core.probability import Probability

    return {"fraction": f"{p.numerator}/{p.denominator}", "percent": Probability.of(p).percent}


def _fate(data: dict[str, Any]) -> dict[str, Any] | None:
    """The Fate deck as the table sees it: cards left, the discards face up (newest
    last), and the exact chance of each suit and colour on the next reveal — from the
    draw pile as a set (its order is never read), the discards when it is empty."""
    state = data.get("fate")
    if not isinstance(state, dict):
        return None
    from d2d_cli.errors import D2DError
    from d2d_cli.rules.deck import fate
    from d2d_cli.rules.odds import exact

    try:
        deck = fate.Deck.from_state(state)
    except D2DError:
        return None
    piles = exact.Piles.of(deck.draw, deck.discard)
    faces = {c.face: c for c in deck.draw + deck.discard}

    def count(names: tuple[str, ...]) -> dict[Any, int]:
        out: dict[Any, int] = {}
        for n in names:
            out[faces[n]] = out.get(faces[n], 0) + 1
        return out

    def chance(read: Any) -> dict[str, dict[str, Any]]:
        dist = exact.reveal_odds(count(piles.pile), count(piles.discard),
                                 lambda c: [(read(c), 1)], None, lambda _, k: (True, k))
        return {str(k): _prob(p) for k, p in sorted(dist.items(), key=lambda kv: str(kv[0]))}

    return {
        "remaining": len(deck.draw), "discarded": len(deck.discard),
        "discards": [c.code for c in deck.discard],
        "last": [c.code for c in deck.last],
        "next": {"suit": chance(lambda c: c.suit or "wild"),
                 "color": chance(lambda c: c.color),
                 "upper": _prob(Fraction(1, 2))},
    }


def _board(data: dict[str, Any]) -> dict[str, Any] | None:
    from d2d_cli import mapview
    from d2d_cli.rules.board.grid import board_of
    from d2d_cli.rules.board.view import view
    from d2d_cli.rules.core.result import to_json
    from d2d_cli.rules.units.roster import roster

    drawn = board_of(data)
    if drawn is None:
        return None
    v = view(drawn, roster(data).values())
    title = str(_table(data, "scene").get("name") or "d2d board")
    out: dict[str, Any] = to_json(v)
    out["legend"] = [{"symbol": k.symbol, "text": mapview.what_it_is(k)} for k in v.legend]
    out["svg"] = mapview.svg(v, title)
    return out


def _oracle(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from d2d_cli.errors import BadInput
    from d2d_cli.rules.assistant import oracle
    from d2d_cli.rules.deck.cards import parse_card

    out = []
    for row in rows:
        words = _words(str(row.get("command") or ""))
        if words[:1] != ["oracle"] or row.get("undone"):
            continue
        likelihood = ("likely" if "--likely" in words else
                      "unlikely" if "--unlikely" in words else "even")
        question = next((w for w in words[1:] if not w.startswith("-")), "")
        code = str(row.get("summary") or "").removeprefix("revealed ").split(";")[0].split()
        try:
            card = parse_card(code[0]) if code else None
        except BadInput:
            card = None
        if card is None:
            continue
        answer, qualifier = oracle.reading(card, likelihood)
        out.append({"question": question, "likelihood": likelihood, "card": card.code,
                    "answer": oracle.words(answer, qualifier), "at": row.get("at")})
    return out[-ORACLE_SHOWN:]


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _log(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    shown = [{"at": r.get("at"), "command": r.get("command"), "summary": r.get("summary")}
             for r in rows
             if not r.get("undone") and _words(str(r.get("command") or ""))[:1]
             and _words(str(r.get("command")))[0] in PUBLIC_COMMANDS]
    return shown[-LOG_SHOWN:]


def _units(data: dict[str, Any], hands: dict[str, int]) -> tuple[dict[str, Any], list[Any]]:
    from d2d_cli.rules.core.result import to_json
    from d2d_cli.rules.overview.dashboard import dashboard
    from d2d_cli.rules.units import sides, status_bar

    where = status_bar.map_of(data)
    opts = _options(data)
    dash = dashboard(data, bar=lambda u: status_bar.on_the_bar(u, where, opts))
    raw = _table(data, "units")
    units = []
    for row in dash.units:
        spec = raw.get(row.name)
        player = sides.player_of(spec) if isinstance(spec, dict) else None
        conditions = [f"{k} {v}" if v not in (True, 1) else k
                      for k, v in row.conditions.items() if v]
        units.append({"name": row.name, "faction": row.faction, "player": player,
                      "move": row.move, "action_cost": row.action_cost,
                      "move_left": row.move_left, "actions_left": row.actions_left,
                      "facing": row.facing, "conditions": conditions,
                      "crits": len(row.crits),
                      "hand": hands.get(player) if player is not None else None,
                      "weapons": _weapons(row.name, spec)})
    return to_json(dash), units


def _weapons(name: str, spec: Any) -> list[str]:
    """What a unit openly carries (issue 36): its weapons, or none (Hand to Hand)."""
    from d2d_cli.rules.units.gear import weapons_of

    return [w.text() for w in weapons_of(spec, name)] if isinstance(spec, dict) else []


def _options(data: dict[str, Any]) -> Any:
    from d2d_cli.rules.core import options

    return options.parse(data.get("rules"), "the session")


def _hands(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each Player's cards as stored (missing pieces read as empty); all empty when the
    table holds the hands (``[rules] hands = "table"``): cards left in ``[players]`` from
    a time d2d held them are not the hands in play, and are never shown."""
    out: dict[str, dict[str, Any]] = {}
    players = _table(data, "players") if _options(data).hands == "d2d" else {}
    for name in player_names(data):
        p = players.get(name)
        p = p if isinstance(p, dict) else {}
        chosen = p.get("chosen")
        out[name] = {"deck": [str(c) for c in _list(p.get("deck"))],
                     "hand": [str(c) for c in _list(p.get("hand"))],
                     "discard": [str(c) for c in _list(p.get("discard"))],
                     "chosen": dict(chosen) if isinstance(chosen, dict) else None}
    return out


def _next_up(data: dict[str, Any]) -> list[str]:
    """Who acts next by the Countdown: what ``d2d round next`` says (001 l.499–505, the
    same rules function) — in every Group, the units the next Count reaches; none before
    a round starts."""
    from d2d_cli.rules.time import groups
    from d2d_cli.rules.time.round_state import Round
    from d2d_cli.rules.units import roster

    rnd = Round.from_state(data.get("round"))
    up = groups.next_up(roster.roster(data), rnd.number, rnd.phase).next
    top = max((u.count for u in up), default=0)
    return [u.name for u in up if u.count == top]


def public(data: dict[str, Any], log: list[dict[str, Any]], name: str = "") -> dict[str, Any]:
    """The public table (``/state.json`` and the public stream): no hand's cards, no
    face-down choice, no draw pile order."""
    hands = _hands(data)
    dash, units = _units(data, {n: len(h["hand"]) for n, h in hands.items()})
    scene = _table(data, "scene")
    return {
        "v": SCHEMA_VERSION,
        "blank": False,
        "session": name,
        "scene": scene.get("name") if isinstance(scene.get("name"), str) else None,
        "round": dash["round"],
        "next": _next_up(data),
        "clock": dash["clock"],
        "weather": dash["weather"],
        "tasks": dash["tasks"],
        "units": units,
        "players": [{"name": n, "hand": len(h["hand"]), "deck": len(h["deck"]),
                     "discard": len(h["discard"]), "ready": h["chosen"] is not None}
                    for n, h in hands.items()],
        "fate": _fate(data),
        "board": _board(data),
        "log": _log(log),
        "oracle": _oracle(log),
    }


def player(data: dict[str, Any], name: str) -> dict[str, Any]:
    """One Player's own page: their units, their hand and their face-down choice, and
    the round it is for."""
    from d2d_cli.rules.deck.cards import parse_card

    h = _hands(data).get(name, {"deck": [], "hand": [], "discard": [], "chosen": None})
    from d2d_cli.rules.units import sides

    mine = sides.units_of(data, name)

    def card(code: str) -> dict[str, Any]:
        try:
            c = parse_card(code)
        except Exception:
            return {"code": code, "face": code, "name": code}
        return {"code": c.code, "face": c.face, "name": c.name()[:-2]}

    rnd = _table(data, "round")
    return {
        "v": SCHEMA_VERSION,
        "blank": False,
        "player": name,
        "round": {"number": int(rnd.get("number", 0) or 0),
                  "phase": str(rnd.get("phase", "none"))},
        "units": mine,
        "hand": [card(c) for c in h["hand"]],
        "deck": len(h["deck"]),
        "discard": list(h["discard"]),
        "chosen": h["chosen"],
    }


BLANK: dict[str, Any] = {"v": SCHEMA_VERSION, "blank": True}
