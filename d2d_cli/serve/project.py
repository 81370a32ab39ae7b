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
import threading
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
    events: list[dict[str, Any]] = []
    if data.get("fog"):  # Fog of War: the players' map (rules.board.view.players_view)
        from d2d_cli.rules.board import fog
        from d2d_cli.rules.board.view import players_view

        f = fog.of(data, drawn)
        if f is not None:
            v = players_view(v, f)
            events = [{"kind": e.kind, "where": e.where, "text": _public_text(e.text)}
                      for e in f.events if e.revealed]
    title = str(_public_text(_table(data, "scene").get("name"), "a scene") or "d2d board")
    out: dict[str, Any] = to_json(v)
    if events:
        out["events"] = events  # the Events revealed; one face down is never here
    out["legend"] = [{"symbol": k.symbol, "text": mapview.what_it_is(k)} for k in v.legend]
    out["svg"] = mapview.svg(v, title)
    return out


def _oracle(rows: list[dict[str, Any]], hidden: list[str] | None = None
            ) -> list[dict[str, Any]]:
    """The oracle's last answers, newest last: each as the oracle wrote it in its journal
    entry (``rec``), or read from the line of an entry journalled before that."""
    from d2d_cli.rules.assistant import oracle

    out = []
    for row in rows:
        words = _words(row)
        if words[:1] != ["oracle"] or row.get("undone"):
            continue
        got = _oracle_typed(_rec(row).get("oracle")) or _oracle_text(row, words)
        if got is None:
            continue
        question, likelihood, card = got
        if _holds(row, hidden or [], [*words, question]):
            question = SECRET_SHOWN  # the question named a hidden text: the answer stays
        answer, qualifier = oracle.reading(card, likelihood)
        out.append({"question": question, "likelihood": likelihood, "card": card.code,
                    "answer": oracle.words(answer, qualifier), "at": row.get("at")})
    return out[-ORACLE_SHOWN:]


def _oracle_typed(typed: Any) -> tuple[str, str, Any] | None:
    """An oracle's answer as the oracle wrote it in its journal entry (operations/
    oracle.py: question, likelihood, card), or None when there is none fit to read."""
    from d2d_cli.errors import BadInput
    from d2d_cli.rules.assistant import oracle
    from d2d_cli.rules.deck.cards import parse_card

    if not isinstance(typed, dict) or not all(
            isinstance(typed.get(k), str) for k in ("question", "likelihood", "card")):
        return None
    try:
        return (typed["question"], oracle.check_likelihood(typed["likelihood"]),
                parse_card(typed["card"]))
    except BadInput:
        return None


def _oracle_text(row: dict[str, Any], words: list[str]) -> tuple[str, str, Any] | None:
    """An oracle's answer read from its line and summary (an entry journalled before
    typed records): the words as the recap reads them, the card its summary names."""
    from d2d_cli.errors import BadInput
    from d2d_cli.rules.assistant import oracle
    from d2d_cli.rules.deck.cards import parse_card

    question, likelihood = oracle.asked(words)
    code = str(row.get("summary") or "").removeprefix("revealed ").split(";")[0].split()
    try:
        return (question, likelihood, parse_card(code[0])) if code else None
    except BadInput:
        return None


def _rec(row: dict[str, Any]) -> dict[str, Any]:
    """The typed record the operation wrote in the row's journal entry (``rec``), or {}."""
    rec = row.get("rec")
    return rec if isinstance(rec, dict) else {}


def _words(row: dict[str, Any]) -> list[str]:
    """The words of a row's command: as the command was given (its typed record's
    ``words``); for an entry journalled before typed records, parsed from its text."""
    words = _rec(row).get("words")
    if isinstance(words, list) and all(isinstance(w, str) for w in words):
        return words
    command = str(row.get("command") or "")
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


# Text the Narrator marks as theirs alone: a note, event, task or scene text that starts
# with this word never reaches a public page (docs/serve.md "The Narrator's secrets").
SECRET_MARK = "secret:"
SECRET_SHOWN = "(the Narrator's secret)"


def is_secret(text: Any) -> bool:
    return isinstance(text, str) and text.strip().lower().startswith(SECRET_MARK)


def _public_text(text: Any, shown: str = SECRET_SHOWN) -> Any:
    return shown if is_secret(text) else text


def hidden_texts(data: dict[str, Any]) -> list[str]:
    """Every text the public page must not hold, whatever line carries it: each Timed
    Event's until its card comes up (001 l.437–439 "Placed in the Clock Deck. Revealed by
    a Clock card being discarded"), each Random Event's until it occurs, and every text
    marked ``secret:`` (events, tasks, the scene's name)."""
    clock = _table(data, "clock")
    out: list[str] = []
    for key in ("timed", "random"):
        for e in _list(clock.get(key)):
            if isinstance(e, dict) and isinstance(e.get("text"), str) and (
                    not e.get("done") or is_secret(e["text"])):
                out.append(e["text"])
    for t in _table(data, "tasks").values():
        if isinstance(t, dict) and is_secret(t.get("name")):
            out.append(str(t["name"]))
    for key in _table(data, "tasks"):
        if is_secret(key):
            out.append(str(key))
    name = _table(data, "scene").get("name")
    if is_secret(name):
        out.append(str(name))
    out += _fog_secrets(data)
    return sorted({t.strip() for t in out if t.strip()}, key=len, reverse=True)


def _fog_secrets(data: dict[str, Any]) -> list[str]:
    """What Fog of War hides in any line (rules.board.fog): each Event's text until it is
    revealed (001 l.441–447), and the name of each fogged Space that holds a unit or an
    Event face down (a line naming it would say where)."""
    if not data.get("fog"):
        return []
    from d2d_cli.rules.board import fog
    from d2d_cli.rules.board.grid import board_of, space_name
    from d2d_cli.rules.board.placement import placements_of

    drawn = board_of(data)
    f = fog.of(data, drawn)
    if f is None:
        return []
    out = [e.text for e in f.events if not e.revealed or is_secret(e.text)]
    standing = [s for p in placements_of(_table(data, "units")).values() for s in p.spaces]
    out += [space_name(s) for s in fog.hidden_spaces(f, standing)]
    return out


def _holds(row: dict[str, Any], hidden: list[str], words: list[str]) -> bool:
    """Whether a row's line, summary or words (``words``: :func:`_words`, each word as
    given, unquoted) hold a hidden text."""
    if not hidden:
        return False
    hay = " ".join([str(row.get("command") or ""), str(row.get("summary") or ""),
                    *words]).lower()
    return any(t.lower() in hay for t in hidden)


def _log(rows: list[dict[str, Any]], hidden: list[str] | None = None
         ) -> list[dict[str, Any]]:
    """The last public things done, newest last; an undone one stays, marked undone (the
    TV shows it struck through). A line that holds a hidden text (:func:`hidden_texts`)
    or places a Clock event is shown only as what it is, never with its text."""
    hidden = hidden or []
    shown = []
    for r in rows:
        words = _words(r)
        if not words or words[0] not in PUBLIC_COMMANDS:
            continue
        entry = {"at": r.get("at"), "command": r.get("command"), "summary": r.get("summary"),
                 "undone": bool(r.get("undone"))}
        if words[:2] == ["clock", "event"]:
            entry["command"] = " ".join(words[:3])
            entry["summary"] = "a Clock event was set or taken out (its text is hidden)"
        elif _holds(r, hidden, words):
            entry["command"] = words[0]
            entry["summary"] = SECRET_SHOWN
        shown.append(entry)
    return shown[-LOG_SHOWN:]


# A unit's state word on the Status Bar, the gravest first (001: Dead, Dying; Out: off
# the fight for now).
STATE_WORDS = (("dead", "Dead"), ("dying", "Dying"), ("out", "Out"), ("unconscious", "Out"))


def _crit(c: Any) -> dict[str, str]:
    """One Crit as the table reads it: its place and severity (``crit --target``
    stores them), in words: ``{"location": "Right Arm", "severity": "Critical"}``."""
    c = c if isinstance(c, dict) else {}

    def words(v: Any) -> str:
        return str(v or "?").replace("_", " ").title()

    return {"location": words(c.get("location")), "severity": words(c.get("severity"))}


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
        state = next((word for key, word in STATE_WORDS if row.conditions.get(key)), None)
        units.append({"name": row.name, "faction": row.faction, "player": player,
                      "move": row.move, "action_cost": row.action_cost,
                      "move_left": row.move_left, "actions_left": row.actions_left,
                      "facing": row.facing, "conditions": conditions,
                      "crits": len(row.crits),
                      "crit_list": [_crit(c) for c in row.crits],
                      "state": state,
                      "hand": hands.get(player) if player is not None else None,
                      "weapons": _weapons(row.name, spec)})
    return to_json(dash), units


def _weapons(name: str, spec: Any) -> list[str]:
    """What a unit openly carries (issue 36): its weapons, or none (Hand to Hand)."""
    from d2d_cli.rules.units.gear import weapons_of

    return [w.text() for w in weapons_of(spec, name)] if isinstance(spec, dict) else []


def _result(data: dict[str, Any], units: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The round's last Conflict between units as the table saw it revealed: the
    remembered exchange (``[round.exchange]``, rules/combat/exchange.py — the record hit and
    crit read), its winner, Rival, the winner's cards and the Hits once counted, and the
    Rival's state word and Crits now; with ``headline``, the line the TV shows."""
    from d2d_cli.rules.combat.exchange import remembered

    ex = remembered(data, played=True)  # one an npc turn played out is news all the same
    if ex is None:
        return None
    cards = [card_view(c) for c in ex.cards]
    rival = next((u for u in units if u["name"] == ex.rival), None)
    hurt = [] if rival is None else [
        *([rival["state"]] if rival["state"] else []),
        *(f"{c['location']} {c['severity']}" for c in rival["crit_list"][-1:])]
    with_card = f"{ex.winner}'s {' '.join(c['rank'] + c['symbol'] for c in cards)}" \
        if cards else ex.winner
    line = f"{with_card} beats {ex.rival}"
    if ex.hits is not None:
        line += f": {ex.hits} Hit{'s' * (ex.hits != 1)}"
    if hurt and ex.hits:
        line += ", " + ", ".join(hurt)
    return {"winner": ex.winner, "rival": ex.rival, "cards": [c["code"] for c in cards],
            "hits": ex.hits, "rival_state": hurt, "headline": line}


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
    hidden = hidden_texts(data)
    clock = dict(dash["clock"])
    if clock.get("next_event"):  # ahead, so not come up: where it waits, never its text
        clock["next_event"] = {**clock["next_event"], "text": "an event is set"}
    clock["revealed"] = [  # the Timed Events whose card came up, newest last
        {"at": e["at"], "text": _public_text(e["text"])}
        for e in _list(_table(data, "clock").get("timed"))
        if isinstance(e, dict) and e.get("done") and isinstance(e.get("text"), str)
        and isinstance(e.get("at"), int)][-3:]
    tasks = [{**t, "name": _public_text(t.get("name"), "a task")} for t in dash["tasks"]]
    return {
        "v": SCHEMA_VERSION,
        "blank": False,
        "session": name,
        "scene": _public_text(scene.get("name"), "a scene")
        if isinstance(scene.get("name"), str) else None,
        "round": dash["round"],
        "next": _next_up(data),
        "clock": clock,
        "weather": dash["weather"],
        "tasks": tasks,
        "units": units,
        "players": [{"name": n, "hand": len(h["hand"]), "deck": len(h["deck"]),
                     "discard": len(h["discard"]), "ready": h["chosen"] is not None}
                    for n, h in hands.items()],
        "fate": _fate(data),
        "board": _board(data),
        "asking": _question(data),
        "log": _log(log, hidden),
        "result": _result(data, units),
        "oracle": _oracle(log, hidden),
    }


def card_view(code: str) -> dict[str, Any]:
    """A card as a Player's page draws it: rank, suit symbol and colour, a name a screen
    reader says ("King of Hearts"), and the approach it reads as Upper and as Lower — from
    ``rules.combat.conflict.approach_of``, the function ``d2d conflict`` reads a card
    with (000 "Conflict > 2) Select > Upper/Lower")."""
    from d2d_cli.errors import BadInput
    from d2d_cli.rules.combat.conflict import approach_of
    from d2d_cli.rules.deck.cards import SUIT_PLAYING, SUIT_SYMBOL, parse_card

    try:
        c = parse_card(code)
    except BadInput:
        return {"code": code, "face": code, "name": code, "rank": code, "symbol": "",
                "color": "black", "label": code, "upper": None, "lower": None}
    word = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}.get(c.rank, c.rank)
    if c.suit is None:
        label, symbol = f"{c.color.capitalize()} Joker (Wild)", "\u2605"
    else:
        label, symbol = f"{word} of {SUIT_PLAYING[c.suit].capitalize()}", SUIT_SYMBOL[c.suit]
    return {"code": c.code, "face": c.face, "name": c.name()[:-2],
            "rank": "W" if c.is_wild else c.rank, "symbol": symbol, "color": c.color,
            "label": label, "upper": approach_of(c.flipped(True)).capitalize(),
            "lower": approach_of(c.flipped(False)).capitalize()}


def _question(data: dict[str, Any]) -> dict[str, str] | None:
    """The open question of a waiting ``npc turn`` (``[round.asking]``): who attacks
    which Player's unit. Public: the table sees the attack coming, never the answer."""
    raw = _table(data, "round").get("asking")
    if not isinstance(raw, dict) or not {"attacker", "target", "player"} <= set(raw):
        return None
    return {k: str(raw[k]) for k in ("attacker", "target", "player")}


def _asked(data: dict[str, Any], name: str) -> dict[str, str] | None:
    q = _question(data)
    return q if q is not None and q["player"] == name else None


def _chosen(chosen: dict[str, Any] | None) -> dict[str, Any] | None:
    """The face-down choice with the words its owner reads ("Q♥ Lower: Block")."""
    if chosen is None:
        return None
    v = card_view(str(chosen.get("card", "")))
    way = "Lower" if str(chosen.get("card", "")).endswith("v") else "Upper"
    return {**chosen, "shown": f"{v['rank']}{v['symbol']} {way}: {v[way.lower()]}"}


# The odds of a Player's cards against the coming Conflict, by what they depend on (the
# cards, the attack, and the sections the Levels and the Fate deck are read from): a
# projection runs on every change, the odds only when those change. Bounded: the oldest
# answers go first.
_ODDS_CACHE: dict[tuple[str, ...], dict[str, Any] | None] = {}
_ODDS_KEPT = 256
_ODDS_LOCK = threading.Lock()  # the watcher projects; a request may too (a blank page)
# What ``odds conflict`` reads of the session: the Fate deck, the units and the map, the
# round (what it remembers: cover, range, high ground), the table's rules.
_ODDS_READS = ("fate", "units", "board", "round", "rules", "scene")


def _odds(data: dict[str, Any], name: str, hand: list[str],
          chosen: dict[str, Any] | None) -> dict[str, Any] | None:
    """The exact odds of this Player's cards in the Conflict d2d knows is coming: the
    open question of a waiting ``npc turn`` (``[round.asking]``) — its Non-Player
    attacker reveals Fate (001 l.732 "NPCs use a Fate card instead"), the Player's unit
    plays a card. For each card of the hand, Upper and Lower, and the card chosen face
    down for that unit: the chance it wins, loses, both win, or a tie — computed by
    ``d2d odds conflict``'s own path (``operations.odds.conflict_of``), the attacker with
    the skill and weapon the turn gives it (``rules.assistant.policy.skill_for``,
    ``choose_weapon``), over the Fate
    deck's draw pile as a set: the cards not in the public discard, which the public
    page's next-reveal odds already read (docs/serve.md). None when no such question is
    open for this Player (d2d knows no coming Conflict: no guess)."""
    q = _asked(data, name)
    if q is None:
        return None
    units = _table(data, "units")
    attacker, target = units.get(q["attacker"]), units.get(q["target"])
    if not isinstance(attacker, dict) or not isinstance(target, dict):
        return None
    face_down = str(chosen["card"]) if chosen is not None and str(
        chosen.get("unit", "")).lower() == q["target"].lower() else None
    codes = list(dict.fromkeys([*(f"{c[:-1] if c[-1] in '^v' else c}{o}" for c in hand
                                  for o in "^v"), *([face_down] if face_down else [])]))
    if not codes:
        return None
    import json

    state = json.dumps([data.get(k) for k in _ODDS_READS], sort_keys=True, default=str)
    key = (q["attacker"], q["target"], state, *codes)
    with _ODDS_LOCK:
        known = key in _ODDS_CACHE
        got = _ODDS_CACHE.get(key)
    if not known:
        got = _odds_of(data, q["attacker"], q["target"], attacker, codes)
        with _ODDS_LOCK:
            while len(_ODDS_CACHE) >= _ODDS_KEPT:
                del _ODDS_CACHE[next(iter(_ODDS_CACHE))]
            _ODDS_CACHE[key] = got
    if got is None:
        return None
    return {**got, "chosen": None if face_down is None else {
        "card": face_down, **got["cards"][face_down]} if got["cards"].get(face_down)
        else None}


def _odds_of(data: dict[str, Any], attacker: str, target: str, spec: dict[str, Any],
             codes: list[str]) -> dict[str, Any] | None:
    from d2d_cli.errors import D2DError
    from d2d_cli.operations.odds import conflict_of
    from d2d_cli.rules.assistant.policy import choose_weapon, skill_for

    skill = skill_for(spec)
    weapon = choose_weapon(data, attacker, target)[0]  # the plan's: it stands where it
    # moved to, so the weapon that reaches the Target from there is the one it attacks with
    try:
        opts = _options(data)
    except D2DError:
        return None
    cards: dict[str, Any] = {}
    deck = None
    for code in codes:
        try:
            r = conflict_of(data, opts, f"{attacker}:fate", f"{target}:{code}", skill=skill,
                            with_=weapon)
        except D2DError:  # this card cannot be played here (a Block from behind)
            cards[code] = None
            continue
        deck = r.deck
        cards[code] = {"win": _prob(r.b_wins.fraction), "lose": _prob(r.a_wins.fraction),
                       "both": _prob(r.both_win.fraction), "tie": _prob(r.tie.fraction)}
        obstacle = getattr(r, "obstacle", None)
        if obstacle is not None and obstacle.fraction:
            cards[code]["obstacle"] = _prob(obstacle.fraction)  # the Cover reveal's
    if deck is None:
        return None
    return {"attacker": attacker, "target": target, "skill": skill, "weapon": weapon,
            "deck": {"remaining": deck.remaining, "discarded": deck.discarded},
            "cards": cards}


def player(data: dict[str, Any], name: str) -> dict[str, Any]:
    """One Player's own page: their hand (each card drawn with what it gives), their
    face-down choice, their units as the Status Bar reads them, which of them the
    Countdown reaches next ("Your Archer is up"), and how many Players have chosen a card
    face down (who, never what)."""
    h = _hands(data).get(name, {"deck": [], "hand": [], "discard": [], "chosen": None})
    from d2d_cli.rules.units import sides

    mine = sides.units_of(data, name)
    rnd = _table(data, "round")
    everyone = _hands(data)
    _, rows = _units(data, {}) if mine else (None, [])
    up = [u for u in _next_up(data) if u in mine] if mine else []
    result = _result(data, rows) if mine else None
    last = None
    if result is not None and (result["winner"] in mine or result["rival"] in mine):
        won = result["winner"] in mine
        who = result["winner"] if won else result["rival"]
        cards = " ".join(card_view(c)["rank"] + card_view(c)["symbol"]
                         for c in result["cards"])
        hits = result["hits"]
        last = (f"Your {who}" + (f"'s {cards}" if won and cards else "") +
                (" won against " if won else " lost to ") +
                (result["rival"] if won else result["winner"]) +
                (f": {hits} Hit{'s' * (hits != 1)}" if hits is not None else ""))
    return {
        "v": SCHEMA_VERSION,
        "blank": False,
        "player": name,
        "round": {"number": int(rnd.get("number", 0) or 0),
                  "phase": str(rnd.get("phase", "none"))},
        "units": mine,
        "mine": [{k: u[k] for k in ("name", "move", "move_left", "actions_left",
                                     "conditions", "crit_list", "state")}
                 for u in rows if u["name"] in mine],
        "up": up,
        "hand": [card_view(c) for c in h["hand"]],
        "deck": len(h["deck"]),
        "discard": list(h["discard"]),
        "chosen": _chosen(h["chosen"]),
        "ready": {"chosen": [n for n, x in everyone.items() if x["chosen"] is not None],
                  "of": len(everyone)},
        "last": last,
        "asked": _asked(data, name),
        "odds": _odds(data, name, h["hand"], h["chosen"]),
    }


BLANK: dict[str, Any] = {"v": SCHEMA_VERSION, "blank": True}
