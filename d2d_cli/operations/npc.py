"""The NPC policy (docs/solo.md "The NPC policy"): a Non-Player unit's plan, and its
turn carried out through the commands a Narrator would type."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target, cards
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result

if TYPE_CHECKING:
    from d2d_cli.rules.assistant import policy


def goals_of(data: dict[str, Any]) -> Any:
    from d2d_cli.rules.assistant import goals as g

    raw = data.get("scene", {}).get("goals")
    return g.parse(raw, data) if raw else {}


def npc_name(data: dict[str, Any], name: str) -> str:
    """The unit's name as stored; a Player's unit is refused (its Player decides)."""
    from d2d_cli.rules.assistant.engine import player_of
    from d2d_cli.rules.units.roster import find, roster

    unit = find(roster(data), name)
    owner = player_of(data["units"][unit.name])
    if owner is not None:
        raise BadInput(f"{unit.name} is {owner}'s unit: the NPC policy plays Non-Player "
                       "units only (000 l.185 \"IF any Factions are not run by Players\")")
    return unit.name


def plan(t: Target, name: str) -> policy.Plan:
    """``d2d npc plan NAME``: the unit's turn as the round stands (a
    ``rules.assistant.policy.Plan``); changes nothing."""
    from d2d_cli.rules.assistant import policy

    data = t.read()
    return policy.plan_ahead(data, npc_name(data, name), goals_of(data), t.options(data))


def _remember_last(tx: Any, done: list[Any]) -> None:
    """The turn's last Conflict, when nothing after it in the turn used it (the Player's
    unit won and may hit), kept for ``hit`` and ``crit`` as ``conflict`` keeps it, with
    what it was told (``--no-map``…); a Conflict the turn went on to hit and crit leaves
    nothing to reuse — it is kept ``played``, with the Hits counted, as the table's last
    result (the players' pages' headline, issue 35), never for ``hit`` or ``crit``."""
    import shlex

    from d2d_cli.rules.combat import exchange

    fought = [i for i, d in enumerate(done) if hasattr(d.result, "side_a")]
    if not fought:
        return
    last = done[fought[-1]]
    if fought[-1] == len(done) - 1:
        rnd = exchange.after_conflict(tx.data, last.result,
                                      exchange.said_in(shlex.split(last.command)))
    else:
        rnd = exchange.after_conflict(tx.data, None)
        kept = exchange.of_conflict(last.result)
        if kept is not None:
            for d in done[fought[-1] + 1:]:  # the Hits its hit counted, for the headline
                if str(d.command).startswith("hit") and isinstance(
                        getattr(d.result, "hits", None), int):
                    kept["hits"] = d.result.hits
                    break
            rnd = {**(rnd or tx.data.get("round") or {}),
                   exchange.KEY: {**kept, "played": True}}
    if rnd is not None:
        tx.put("round", rnd)


@record
class Done(Result):
    """One command ``npc turn`` carried out: the plan it carries out (an index into
    ``plans``), the line as typed, the command's one-line summary and its result (the
    ``result`` of that command's ``--json``)."""

    plan: int | None
    command: str
    summary: str
    result: Result


@record
class NpcTurn(Result):
    """``npc turn``: each plan carried out, what each command gave, and the commands."""

    units: tuple[str, ...]
    plans: tuple[Any, ...]  # rules.assistant.policy.Plan
    commands: tuple[str, ...]
    goal_reached: str | None
    done: tuple[Done, ...] = ()
    # Where the turn stopped for a Player's card (rules.assistant.asking.Asked), or None.
    asked: Any = None
    hands: tuple[Any, ...] = ()  # what its Conflicts did to d2d's hands (HandMove)
    # --all, one Count at a time (rules.assistant.countdown): the Count each plan was
    # played at, and where the Countdown reached a Player's unit (countdown.Stop) or None
    counts: tuple[int, ...] = ()
    stopped: Any = None


def turn(t: Target, name: str | None = None, *, all: bool = False,  # noqa: A002 - --all
         group: int | None = None, answer: list[str] | None = None,
         players_stay: bool = False, card: list[str] | None = None,
         ask: Callable[[Any], str] | None = None, respond: list[str] | None = None,
         ask_respond: Callable[[str, str], bool] | None = None,
         keep_question: bool = False) -> NpcTurn:
    """``d2d npc turn NAME | --all [--group N] [--answer UNIT=CARD]… [--players-stay]
    [--card CARD]…``: each plan carried out, one journal entry, one undo. A Player's unit
    it attacks plays its Player's card (rules.assistant.asking): ``answer``, else the
    card chosen face down, else ``ask(asked)`` gives it (a terminal), else the turn
    stops there (``asked``); ``players_stay``: such a unit Stays instead.
    ``keep_question``: where it stops, the open question is kept in the round
    (``[round.asking]``) for the Player's page; any question kept before is closed.

    The Target's Action (001 l.639–641): ``respond`` names the Players' units that spend
    it when attacked (``unit respond``, then everything a Win gives: Keep and Draw, the
    Hits, Evade's Move); ``ask_respond(attacker, target)`` asks for the others (a
    terminal), else they spend none — the Conflict's notes say what that cost. A
    Non-Player Target spends it by the policy
    (``rules.assistant.policy.responds``).

    ``all``: the Countdown is walked one Count at a time (rules.assistant.countdown):
    each Non-Player it reaches does one thing at its Count, and the turn stops where the
    Count reaches a Player's unit (``stopped``: the Count, the units, what to type)."""
    import copy

    from d2d_cli.rules.assistant import asking, countdown, sim
    from d2d_cli.rules.assistant.engine import Table, player_of
    from d2d_cli.rules.deck import fate

    all_ = all
    if (name is None) == (not all_):
        raise BadInput("name one Non-Player unit, or give --all")
    table_cards = cards(card)
    with t.edit() as tx:
        data = copy.deepcopy(tx.data)
        from d2d_cli.rules.time.round_state import Round
        from d2d_cli.rules.time.turns import under_way

        rnd = Round.from_state(data.get("round"))
        under_way(rnd.number, rnd.phase)  # Actions are taken in a round (001 l.453)
        names = [npc_name(data, name)] if name is not None else [
            n for n, u in data.get("units", {}).items() if player_of(u) is None]
        scope = None  # the Players' units whose Counts stop --all: all, or the Group's
        if group is not None:
            names, scope = _of_group(data, names, group, all_)
        _bounded(names)
        goals = goals_of(data)
        deck = None if table_cards is not None else fate.Deck.from_state(data.get("fate"))
        opts = t.options(data)
        play = Table(data, tx.rng(), opts, True, deck=deck, table_cards=table_cards,
                     hands=False)
        from d2d_cli.rules.units.roster import roster_view

        answers = asking.Answers(play.data, opts.hands,
                                 asking.parse_answers(answer, roster_view(data)),
                                 players_stay, play.rng,
                                 asking.parse_respond(respond, roster_view(data)),
                                 ask_respond)
        if all_:
            answers.carry = ["--all", *(["--group", str(group)] if group else [])]
        play.answers = answers
        plans: list[Any] = []
        counts: list[int] = []
        passed: set[str] = set()
        asked = stopped = None
        while True:
            try:
                if all_:
                    reached, stopped = countdown.play(play, goals, names, scope, plans,
                                                      counts, passed, answers.carry)
                else:  # a unit named: its whole turn, as the Narrator asked
                    reached = sim.turns(play, goals, "fate", only=names, plans=plans)
                break
            except asking.NeedsCard as stop:
                if ask is None:
                    reached, asked = None, stop.asked
                    break
                a = stop.asked  # asked for it: carry on from here (nothing spent yet)
                answers.given.update(asking.parse_answers(
                    [f"{a.target}={ask(a).strip()}"], roster_view(play.data)))
        if play.table is not None and asked is None and stopped is None:
            play.table.finish()
        for key in ("units", "tasks", "damage", "players"):
            if key in play.data and play.data[key] != tx.data.get(key):
                tx.put(key, play.data[key])
        if deck is not None and play.deck.draw != fate.Deck.from_state(tx.data["fate"]).draw:
            tx.put("fate", play.deck.to_state())
        # for hit and crit, the Conflict the turn ended on (i37); the open question
        _remember_last(tx, list(play.done or ()))
        _question(tx, asked if keep_question else None)
        # what each command gave, in its own words (as the command prints it under each
        # plan): the log — and the players' "What happened" — tell the turn, not a count
        steps = "; ".join(str(d.result.summary) for d in play.done or ()
                          if getattr(d.result, "summary", ""))
        tx.summary = (f"npc turn {', '.join(names)}: " + (steps or "nothing done") + (
            f"; stopped: {asked.summary}" if asked is not None else "") + (
            f"; {stopped.summary}" if stopped is not None else ""))[:SUMMARY_MAX]
    done = tuple(Done(d.plan, d.command, d.result.summary, d.result) for d in play.done or ())
    return NpcTurn(tuple(names), tuple(plans), tuple(play.lines or []), reached, done,
                   asked, answers.moves, tuple(counts), stopped)


# Non-Player turns one command plays (issue 30 item 6): each takes 0.12-0.25 s on a 1,000-unit
# session, all under the session's lock, which other commands wait 15 s for.
NPC_TURN_LIMIT = 25


def _bounded(names: list[str]) -> None:
    """Refuse, before anything is played, more turns than one command holds the lock
    for; on a terminal, say how many are being played."""
    if len(names) > NPC_TURN_LIMIT:
        raise BadInput(f"npc turn --all would play {len(names)} Non-Player units in one "
                       f"command, holding the session's lock all the while (at most "
                       f"{NPC_TURN_LIMIT}): play them a Group at a time (d2d round groups; "
                       "d2d npc turn --all --group N) or name them one by one")
    import sys

    if len(names) > 5 and sys.stderr.isatty():
        sys.stderr.write(f"npc turn: playing {len(names)} Non-Player units…\n")
        sys.stderr.flush()


def _of_group(data: dict[str, Any], names: list[str], number: int, all_: bool
              ) -> tuple[list[str], set[str]]:
    """The Non-Player units of Group ``number`` as d2d round groups numbers them (001
    l.475 "Split Units into Groups by Target"), and every unit of the Group (its
    Players' units are those whose Counts stop the Group's Non-Players)."""
    from d2d_cli.rules.time.groups import components
    from d2d_cli.rules.units.roster import roster

    if not all_:
        raise BadInput("--group goes with --all (a named unit is played whatever its Group)")
    made = components(roster(data))
    if not 1 <= number <= len(made):
        raise BadInput(f"no Group {number}: this round has {len(made)} (d2d round groups)")
    got = [n for n in names if n in set(made[number - 1])]
    if not got:
        raise BadInput(f"Group {number} ({', '.join(made[number - 1])}) has no Non-Player "
                       "unit")
    return got, set(made[number - 1])


# --------------------------------------------------------------- the Player's question

SUMMARY_MAX = 600  # characters of a turn's journal summary
ASKING = "asking"  # [round.asking]: the open question of a waiting `npc turn`
POLL = 0.2  # seconds between two looks at the session while a turn waits


def _question(tx: Any, asked: Any) -> None:
    """Keep ``asked`` (rules.assistant.asking.Asked) as the round's open question, or
    close the one kept (round start and end forget it too: they write the round anew)."""
    rnd = dict(tx.data.get("round") or {})
    if asked is None and ASKING not in rnd:
        return
    if asked is None:
        del rnd[ASKING]
    else:
        rnd[ASKING] = {"attacker": asked.attacker, "target": asked.target,
                       "player": asked.player}
    tx.put("round", rnd)


def question(data: dict[str, Any]) -> dict[str, str] | None:
    """The open question a waiting ``npc turn`` kept (attacker, target, player), or None."""
    raw = (data.get("round") or {}).get(ASKING)
    if not isinstance(raw, dict) or not {"attacker", "target", "player"} <= set(raw):
        return None
    return {k: str(raw[k]) for k in ("attacker", "target", "player")}


def cancel_question(t: Target) -> bool:
    """Close the open question (Ctrl-C, or no answer in time) in a unit of work of its
    own, written at once (a command stopped by Ctrl-C drops its own): True when one was
    open."""
    from d2d_cli.operations import unit_of_work

    with unit_of_work(join=False) as scope:
        with t.edit() as tx:
            if question(tx.data) is None:
                return False
            _question(tx, None)
            tx.summary = "npc turn: the question to the Player was cancelled"
        if scope is not None:
            scope.commit()
    return True


def _chosen_for(data: dict[str, Any], unit: str) -> bool:
    """Whether a card lies face down for ``unit`` (d2d hand choose, from a page or a
    terminal)."""
    for p in (data.get("players") or {}).values():
        chosen = p.get("chosen") if isinstance(p, dict) else None
        if isinstance(chosen, dict) and str(chosen.get("unit", "")).lower() == unit.lower():
            return True
    return False


def _merge(parts: list[NpcTurn]) -> NpcTurn:
    """One result for a turn carried out in parts (it stopped to wait for a card)."""
    plans: list[Any] = []
    done: list[Done] = []
    for r in parts:
        done += [Done(None if d.plan is None else d.plan + len(plans), d.command, d.summary,
                      d.result) for d in r.done]
        plans += r.plans
    last = parts[-1]
    return NpcTurn(tuple(dict.fromkeys(u for r in parts for u in r.units)), tuple(plans),
                   tuple(c for r in parts for c in r.commands), last.goal_reached,
                   tuple(done), last.asked, tuple(m for r in parts for m in r.hands),
                   tuple(c for r in parts for c in r.counts), last.stopped)


def turn_waiting(t: Target, name: str | None = None, *, all: bool = False,  # noqa: A002
                 group: int | None = None, answer: list[str] | None = None,
                 card: list[str] | None = None, respond: list[str] | None = None,
                 wait: float | None = None,
                 typed: Callable[[Any], str | None] | None = None,
                 on_part: Callable[[NpcTurn], None] | None = None,
                 said: Callable[[str], None] | None = None,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], None] | None = None) -> NpcTurn:
    """``npc turn`` that waits for a Player's card without holding the table up: where it
    reaches an attack on a Player's unit and no card is given, it keeps the question in
    the round (the Player's page shows it), commits and so releases the session's lock,
    and waits — ``wait`` seconds at most for each question (None: until answered) — for
    a card chosen face down for that unit (``d2d hand choose``: the Player's page, or
    typed elsewhere), or a card typed at this terminal (``typed(asked)`` returns a line
    once one is typed, else None; EOFError when the input has ended: no answer). Then
    the turn goes on by itself, within ``POLL`` seconds. A card refused (not held, not a
    card) is said and asked again; the turn never ends for it. The Target's Action (001
    l.639–641) comes with the answer: ``respond``, the page's choice (``[round.asking]
    respond``), or a line typed as ``7S^ respond``. Ctrl-C (KeyboardInterrupt) closes
    the question and leaves the session as it was before the attack. No answer in time:
    the question is closed and the result says where it stopped and what to type, as
    without waiting.

    Each part (up to a stop) is one journal entry, one undo; ``on_part`` gets each as
    it is done, so the first attack's result shows before the next question."""
    import time

    now = clock or time.monotonic
    nap = sleep or time.sleep
    parts: list[NpcTurn] = []
    try:  # Ctrl-C anywhere once a question may be out (printing a part too) closes it
        return _parts(t, name, all, group, answer, card, respond, wait, typed, on_part,
                      said, now, nap, parts)
    except KeyboardInterrupt:
        cancel_question(t)
        raise


def _parts(t: Target, name: str | None, all_: bool, group: int | None,
           answer: list[str] | None, card: list[str] | None, respond: list[str] | None,
           wait: float | None, typed: Callable[[Any], str | None] | None,
           on_part: Callable[[NpcTurn], None] | None, said: Callable[[str], None] | None,
           now: Callable[[], float], nap: Callable[[float], None], parts: list[NpcTurn]
           ) -> NpcTurn:
    """:func:`turn_waiting`'s parts, each up to a stop, until no question is left."""
    from d2d_cli.errors import D2DError
    from d2d_cli.operations import unit_of_work

    given = list(answer or [])
    responds = list(respond or [])
    while True:
        try:
            # each part its own unit of work, written now: the lock is free while waiting
            with unit_of_work(join=False) as scope:
                r = turn(t, name, all=all_, group=group, answer=given, card=card,
                         respond=responds, keep_question=True)
                if scope is not None:
                    scope.commit()
        except D2DError as e:
            if not given or not parts:
                raise
            # the card typed for the stop was refused: say so and ask again
            if said is not None:
                said(e.message)
            given = list(answer or [])
            r = parts[-1]
        else:
            parts.append(r)
            if on_part is not None:
                on_part(r)
        if r.asked is None:
            return _merge(parts)
        a = r.asked
        end = None if wait is None else now() + wait  # each question gets its own wait
        try:
            got = _await(t, a, end, typed, now, nap)
        except EOFError:  # the terminal's input ended: nobody left to type it
            got = None
        if got is None:  # no answer in time
            cancel_question(t)
            return _merge(parts)
        text, act = got
        given = list(answer or []) + ([f"{a.target}={text}"] if text else [])
        responds = list(respond or []) + ([a.target] if act else [])  # this answer's


def _await(t: Target, a: Any, end: float | None, typed: Callable[[Any], str | None] | None,
           now: Callable[[], float], nap: Callable[[float], None]
           ) -> tuple[str, bool] | None:
    """Wait for the answer to ``a``: ("", respond) once a card lies face down for its
    target (the turn reads it from the hand; ``respond``: the page asked for the Target's
    Action), (card, respond) typed at the terminal (``7S^`` or ``7S^ respond``), or None
    at ``end``."""
    from d2d_cli import session

    where = t.existing()
    seen = session.stamp(where)  # a change from now on: the stop read what was there
    while end is None or now() < end:
        if typed is not None:
            line = typed(a)
            words = (line or "").split()
            if words:
                act = words[-1].lower() in ("respond", "r", "action") and len(words) > 1
                return " ".join(words[:-1] if act else words), act
        stamp = session.stamp(where)
        if stamp != seen:
            seen = stamp
            data = session.read(where, create=False)
            if _chosen_for(data, a.target):
                q = (data.get("round") or {}).get(ASKING) or {}
                return "", bool(q.get("respond")) if isinstance(q, dict) else False
        nap(POLL)
    return None


def answer_question(t: Target, unit: str, respond: bool) -> bool:
    """The Player's page answers the open question for ``unit``: whether its Target's
    Action is spent (001 l.639–641), kept in ``[round.asking]`` for the waiting turn;
    the card itself is chosen face down (``hand choose``) in the same unit of work.
    False when no question is open for that unit."""
    with t.edit() as tx:
        q = question(tx.data)
        if q is None or q["target"].lower() != unit.lower():
            return False
        rnd = dict(tx.data.get("round") or {})
        rnd[ASKING] = {**rnd[ASKING], "respond": bool(respond)}
        tx.put("round", rnd)
        tx.summary = f"{q['player']} answers for {q['target']}" + (
            ": respond with an Action" if respond else "")
    return True
