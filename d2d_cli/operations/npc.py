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


def turn(t: Target, name: str | None = None, *, all: bool = False,  # noqa: A002 - --all
         group: int | None = None, answer: list[str] | None = None,
         players_stay: bool = False, card: list[str] | None = None,
         ask: Callable[[Any], str] | None = None, respond: list[str] | None = None,
         ask_respond: Callable[[str, str], bool] | None = None) -> NpcTurn:
    """``d2d npc turn NAME | --all [--group N] [--answer UNIT=CARD]… [--players-stay]
    [--card CARD]…``: each plan carried out, one journal entry, one undo. A Player's unit
    it attacks plays its Player's card (rules.assistant.asking): ``answer``, else the
    card chosen face down, else ``ask(asked)`` gives it (a terminal), else the turn
    stops there (``asked``); ``players_stay``: such a unit Stays instead.

    The Target's Action (001 l.639–641): ``respond`` names the Players' units that spend
    it when attacked (``unit respond``, then everything a Win gives: Keep and Draw, the
    Hits, Evade's Move); ``ask_respond(attacker, target)`` asks for the others (a
    terminal), else they spend none — the Conflict's notes say what that cost. A
    Non-Player Target spends it by the policy
    (``rules.assistant.policy.responds``)."""
    import copy

    from d2d_cli.rules.assistant import asking, sim
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
        if group is not None:
            names = _of_group(data, names, group, all_)
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
        asked = None
        while True:
            try:
                reached = sim.turns(play, goals, "fate", only=names, plans=plans)
                break
            except asking.NeedsCard as stop:
                if ask is None:
                    reached, asked = None, stop.asked
                    break
                a = stop.asked  # asked for it: carry on from here (nothing spent yet)
                answers.given.update(asking.parse_answers(
                    [f"{a.target}={ask(a).strip()}"], roster_view(play.data)))
        if play.table is not None and asked is None:
            play.table.finish()
        for key in ("units", "tasks", "damage", "players"):
            if key in play.data and play.data[key] != tx.data.get(key):
                tx.put(key, play.data[key])
        if deck is not None and play.deck.draw != fate.Deck.from_state(tx.data["fate"]).draw:
            tx.put("fate", play.deck.to_state())
        tx.summary = f"npc turn {', '.join(names)}: {len(play.lines or [])} commands" + (
            f"; stopped: {asked.summary}" if asked is not None else "")
    done = tuple(Done(d.plan, d.command, d.result.summary, d.result) for d in play.done or ())
    return NpcTurn(tuple(names), tuple(plans), tuple(play.lines or []), reached, done,
                   asked, answers.moves)


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


def _of_group(data: dict[str, Any], names: list[str], number: int, all_: bool) -> list[str]:
    """The Non-Player units of Group ``number`` as d2d round groups numbers them (001
    l.475 "Split Units into Groups by Target")."""
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
    return got
