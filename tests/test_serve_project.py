"""The projections ``d2d serve`` sends (d2d_cli/serve/project.py): the public table and
one Player's page. The public one must not depend on a hand's cards or a face-down
choice, for any session (a property test), only on how many cards a hand holds."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli import session
from d2d_cli.rules.deck.cards import full_deck, parse_card
from d2d_cli.serve import project

CODES = [c.code for c in full_deck()] + [c.flipped(False).code for c in full_deck()]


def combat1(d2d: Any, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "--seed", "3", "scene", "load", "combat1")
    d2d.ok("--session", path, "round", "start")
    d2d.ok("--session", path, "oracle", "Is the gate open?", "--likely")
    return session.read(path)


def with_hands(data: dict[str, Any], hands: dict[str, list[str]],
               chosen: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """The session as issue 31 stores hands: [players."NAME"] deck, hand, discard, chosen,
    under [rules] hands = "d2d" (with "table" the pages show none: issue 39 item 5)."""
    out = copy.deepcopy(data)
    out["rules"] = {**out.get("rules", {}), "hands": "d2d"}
    out["players"] = {}
    for name, cards in hands.items():
        out["players"][name] = {"deck": cards[::-1], "hand": cards, "discard": cards[:1]}
        if name in chosen:
            unit, card = chosen[name]
            out["players"][name]["chosen"] = {"unit": unit, "card": card}
    return out


def test_public_table_of_combat1(d2d: Any, tmp_path: Path) -> None:
    data = combat1(d2d, tmp_path)
    log = session.log(tmp_path / "t.toml", 10)
    s = project.public(data, log, "t")
    assert s["scene"] == "Combat #1"
    assert s["round"] == {"number": 1, "phase": "started"}
    # 001 l.499–505: the Countdown reaches the units with the most Move left first
    assert s["next"] == ["Archer", "Goblin Scout", "Goblin Skirmisher"]
    assert [u["name"] for u in s["units"]] == ["Archer", "Thief", "Goblin Scout",
                                               "Goblin Skirmisher"]
    archer = s["units"][0]
    assert (archer["player"], archer["move_left"], archer["actions_left"]) == ("Player1", 5, 2)
    assert s["units"][2]["player"] is None  # "Non-Player" in the scene: nobody's
    assert [p["name"] for p in s["players"]] == ["Player1", "Player2"]
    assert s["clock"]["next_event"]["at"] == 5
    assert s["tasks"][0]["name"] == "Knot"
    assert s["board"]["svg"].startswith("<svg")
    assert [o["question"] for o in s["oracle"]] == ["Is the gate open?"]
    assert [e["command"].split()[0] for e in s["log"]] == ["scene", "round", "oracle"]
    # the next reveal's odds: exact, from the draw pile as a set
    f = s["fate"]
    assert f["remaining"] == 53 and f["discarded"] == 1
    total = sum(Fraction(p["fraction"]) for p in f["next"]["suit"].values())
    assert total == 1
    assert sum(Fraction(p["fraction"]) for p in f["next"]["color"].values()) == 1


def test_who_is_next_is_what_round_next_says(d2d: Any, tmp_path: Path) -> None:
    """The page's "Next" is the Countdown of `d2d round next` (001 l.499–505), one rules
    function for both: a unit that left the map keeps Move but is never next."""
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "--seed", "3", "scene", "load", "combat1")
    assert project.public(session.read(path), [])["next"] == []  # no round yet
    d2d.ok("--session", path, "round", "start")
    for line in (["unit", "place", "Archer", "E10", "S"], ["unit", "leave", "Archer"],
                 ["unit", "move", "Goblin Scout", "forward"],
                 ["unit", "move", "Goblin Skirmisher", "forward"]):
        d2d.ok("--session", path, *line)  # now every unit has Move 4, the Archer off the map
    said = d2d.json("--session", path, "round", "next")
    top = max(u["count"] for u in said["next"])
    want = [u["name"] for u in said["next"] if u["count"] == top]
    assert want == ["Thief", "Goblin Scout", "Goblin Skirmisher"]
    assert project.public(session.read(path), [])["next"] == want


def test_next_reveal_odds_count_the_pile(d2d: Any, tmp_path: Path) -> None:
    """The chance of each suit on the next reveal is its share of the draw pile."""
    data = combat1(d2d, tmp_path)
    draw = [parse_card(c) for c in data["fate"]["draw"]]
    f = project.public(data, [], "t")["fate"]
    for suit in ("wands", "coins", "cups", "swords"):
        n = sum(1 for c in draw if c.suit == suit)
        assert Fraction(f["next"]["suit"][suit]["fraction"]) == Fraction(n, len(draw))
    wild = sum(1 for c in draw if c.suit is None)
    assert Fraction(f["next"]["suit"]["wild"]["fraction"]) == Fraction(wild, len(draw))
    assert f["next"]["upper"]["fraction"] == "1/2"


def test_player_page_shows_their_hand_only(d2d: Any, tmp_path: Path) -> None:
    data = with_hands(combat1(d2d, tmp_path), {"Player1": ["7S", "QH"], "Player2": ["2C"]},
                      {"Player1": ("Archer", "7S^")})
    mine = project.player(data, "Player1")
    assert [c["face"] for c in mine["hand"]] == ["7S", "QH"]
    assert mine["units"] == ["Archer"]
    assert mine["chosen"] == {"unit": "Archer", "card": "7S^", "shown": "7♠ Upper: Fast"}
    assert "2C" not in json.dumps(mine)
    public = project.public(data, [], "t")
    assert [(p["name"], p["hand"], p["ready"]) for p in public["players"]] == [
        ("Player1", 2, True), ("Player2", 1, False)]
    assert [u["hand"] for u in public["units"]] == [2, 1, None, None]


def test_journal_lines_of_hidden_commands_stay_off_the_public_page() -> None:
    rows = [{"at": "x", "command": "hand choose Archer 7S^", "summary": "chose 7S^"},
            {"at": "x", "command": "session undo", "summary": "undid hand choose 7S^"},
            {"at": "x", "command": "fate draw", "summary": "revealed 2C^"}]
    assert [r["command"] for r in project._log(rows)] == ["fate draw"]


HANDS = st.dictionaries(st.sampled_from(["Player1", "Player2", "Zed"]),
                        st.lists(st.sampled_from(CODES), max_size=10), max_size=3)


def test_public_projection_never_depends_on_a_hands_cards(d2d: Any, tmp_path: Path) -> None:
    """Swap every card in every hand (same sizes) and the face-down choice: the public
    projection is byte-identical, so no hidden card can reach it; each player's own
    page holds their cards."""
    base = combat1(d2d, tmp_path)  # one session; the hands vary over the examples

    @settings(max_examples=60, deadline=None)
    @given(hands=HANDS, other=st.lists(st.sampled_from(CODES), min_size=10, max_size=10),
           pick=st.sampled_from(CODES), choose=st.booleans())
    def check(hands: dict[str, list[str]], other: list[str], pick: str, choose: bool) -> None:
        chosen = {n: ("Archer", pick) for n in hands if choose}
        a = with_hands(base, hands, chosen)
        swapped = {n: other[:len(cards)] for n, cards in hands.items()}
        b = with_hands(base, swapped, {n: ("Thief", other[0]) for n in chosen})
        pa = json.dumps(project.public(a, [], "t"), sort_keys=True)
        pb = json.dumps(project.public(b, [], "t"), sort_keys=True)
        assert pa == pb
        for name, cards in hands.items():
            assert [c["code"] for c in project.player(a, name)["hand"]] == [
                parse_card(x).code for x in cards]

    check()


# --------------------------------------------------------------- issue 35: secrets, cards


def test_a_timed_event_is_public_only_once_its_card_comes_up(d2d: Any,
                                                             tmp_path: Path) -> None:
    """001 l.437–439 "Timed Event — Placed in the Clock Deck. Revealed by a Clock card
    being discarded": before its card comes up the public page says where an event
    waits, never what it is (not in the clock, not in "What happened")."""
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "--seed", "3", "scene", "load", "combat1")
    d2d.ok("--session", path, "clock", "event", "add", "Ambush from the north", "3")
    before = json.dumps(project.public(session.read(path), session.log(path, 30), "t"))
    assert "Ambush" not in before and "Reinforcements" not in before
    s = json.loads(before)
    assert s["clock"]["next_event"] == {"at": 3, "text": "an event is set", "ticks": 2}
    assert s["log"][-1]["command"] == "clock event add"
    d2d.ok("--session", path, "clock", "tick")
    d2d.ok("--session", path, "clock", "tick")  # card 3 comes up
    s = project.public(session.read(path), session.log(path, 30), "t")
    assert s["clock"]["revealed"] == [{"at": 3, "text": "Ambush from the north"}]
    assert "Reinforcements" not in json.dumps(s)  # card 5 has not come up


def test_text_marked_secret_never_reaches_the_public_page(d2d: Any, tmp_path: Path) -> None:
    """``secret:`` before an event's, task's or scene's text keeps it the Narrator's,
    even after the event's card came up; the Narrator's own commands still show it."""
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "--seed", "3", "scene", "load", "combat1")
    d2d.ok("--session", path, "clock", "event", "add", "secret: the Scout is a traitor", "2")
    d2d.ok("--session", path, "clock", "event", "random", "secret: the bridge falls", "1/6")
    d2d.ok("--session", path, "task", "new", "secret: find the key", "3")
    d2d.ok("--session", path, "clock", "tick")  # card 2 comes up: still secret
    s = json.dumps(project.public(session.read(path), session.log(path, 30), "t"))
    for word in ("traitor", "bridge", "find the key"):
        assert word not in s, word
    assert project.SECRET_SHOWN in s and '"a task"' in s
    listed = d2d.json("--session", path, "clock", "event", "list")
    assert "traitor" in json.dumps(listed)  # the Narrator's terminal shows it


def test_log_lines_holding_a_hidden_text_are_shown_without_it() -> None:
    rows = [{"at": "x", "command": "oracle 'Is the ambush from the north near?'",
             "summary": "revealed 2C^"},
            {"at": "x", "command": "clock event rm 'Ambush from the north'",
             "summary": "removed"},
            {"at": "x", "command": "fate draw", "summary": "revealed 3C^", "undone": True}]
    out = project._log(rows, ["ambush from the north"])
    assert "mbush" not in json.dumps(out)
    assert [(r["command"], r["undone"]) for r in out] == [
        ("oracle", False), ("clock event rm", False), ("fate draw", True)]


def test_every_card_says_what_upper_and_lower_give_as_conflict_reads_it() -> None:
    """The approach on each card of a Player's page is ``conflict``'s own reading
    (rules.combat.conflict.approach_of), for all 54 cards either way up."""
    from d2d_cli.rules.combat.conflict import approach_of

    for c in full_deck():
        v = project.card_view(c.face)
        assert v["upper"] == approach_of(c.flipped(True)).capitalize()
        assert v["lower"] == approach_of(c.flipped(False)).capitalize()
        assert v["color"] == c.color and v["face"] == c.face
    assert project.card_view("KH") | {} == {
        "code": "KH^", "face": "KH", "name": "K♥ King of Cups", "rank": "K", "symbol": "♥",
        "color": "red", "label": "King of Hearts", "upper": "Fast", "lower": "Block"}


def test_player_page_has_their_units_whose_turn_and_who_has_chosen(d2d: Any,
                                                                   tmp_path: Path) -> None:
    data = with_hands(combat1(d2d, tmp_path), {"Player1": ["7S", "QH"], "Player2": ["2C"]},
                      {"Player2": ("Thief", "2C^")})
    mine = project.player(data, "Player1")
    assert mine["mine"] == [{"name": "Archer", "move": 5, "move_left": 5,
                             "actions_left": 2, "conditions": [], "crit_list": [],
                             "state": None}]
    assert mine["up"] == ["Archer"]  # round next: the Archer's Count comes first
    assert mine["ready"] == {"chosen": ["Player2"], "of": 2}  # who, never what
    assert "2C" not in json.dumps(mine)
    assert project.player(data, "Player2")["up"] == []  # the Thief (Move 4) is not next


def test_the_last_conflict_is_the_headline_with_its_crit(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "--seed", "3", "scene", "load", "combat1")
    d2d.ok("--session", path, "round", "start")
    d2d.ok("--session", path, "fate", "shuffle")
    d2d.ok("--session", path, "conflict", "Archer:KH^", "Goblin Skirmisher", "--card", "2S^")
    d2d.ok("--session", path, "hit")
    d2d.ok("--session", path, "crit", "--power", "6x1", "--types", "pierce")
    data = session.read(path)
    s = project.public(data, session.log(path, 30), "t")
    r = s["result"]
    assert (r["winner"], r["rival"], r["cards"]) == ("Archer", "Goblin Skirmisher", ["KH^"])
    crit = next(u for u in s["units"] if u["name"] == "Goblin Skirmisher")["crit_list"]
    assert len(crit) == 1 and crit[0]["location"][0].isupper()
    assert r["headline"] == (f"Archer's K♥ beats Goblin Skirmisher: {r['hits']} Hit"
                             f"{'s' * (r['hits'] != 1)}, {crit[0]['location']} "
                             f"{crit[0]['severity']}")
    assert project.player(data, "Player1")["last"].startswith(
        "Your Archer's K♥ won against Goblin Skirmisher")


SECRET_TEXT = st.text(alphabet="qxzj kv", min_size=1, max_size=12).map(lambda t: "Qz " + t)


def test_public_projection_never_depends_on_a_hidden_text(d2d: Any, tmp_path: Path) -> None:
    """Swap every hidden text — each Timed Event's not yet come up, each Random Event's
    not yet occurred, and every ``secret:`` text (an event, a task, the scene's name) —
    in the session and in the journal lines that typed them: the public projection is
    byte-identical, so none of them can reach it."""
    base = combat1(d2d, tmp_path)

    def session_with(texts: list[str], secret: str) -> tuple[dict[str, Any], list[Any]]:
        data = copy.deepcopy(base)
        clock = data.setdefault("clock", {"value": 1, "down": False})
        clock["timed"] = [{"at": 3 + i, "text": t, "done": False}
                          for i, t in enumerate(texts)] + [
            {"at": 1, "text": "secret: " + secret, "done": True}]
        clock["random"] = [{"text": t, "k": 1, "n": 6, "repeat": False, "done": False}
                           for t in texts[:1]]
        data["tasks"] = {**data.get("tasks", {}), "secret: " + secret: {
            "difficulty": 3, "challenge": 3, "progress": 3}}
        data["scene"] = {**data["scene"], "name": "secret: " + secret}
        log = [{"at": "x", "command": f"clock event add '{t}' 3", "summary": "timed event"}
               for t in texts] + [
            {"at": "x", "command": f"oracle 'Is {texts[0]} near?' --likely",
             "summary": "revealed 2C^"},
            {"at": "x", "command": f"task new 'secret: {secret}' 3", "summary": "task"},
            {"at": "x", "command": "round start", "summary": "round 1 started"}]
        return data, log

    @settings(max_examples=40, deadline=None)
    @given(texts=st.lists(SECRET_TEXT, min_size=1, max_size=3), other=SECRET_TEXT,
           secret=SECRET_TEXT, secret2=SECRET_TEXT)
    def check(texts: list[str], other: str, secret: str, secret2: str) -> None:
        a = project.public(*session_with(texts, secret), "t")
        b = project.public(*session_with([other + str(i) for i in range(len(texts))],
                                         secret2), "t")
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        assert "Qz" not in json.dumps(a)
        assert a["log"][-1]["summary"] == "round 1 started"  # public lines stay

    check()
