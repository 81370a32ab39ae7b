"""Fog of War and the map's Events (001 l.441–447 "Location Event … Placed under a Place
on the Map. Revealed when searched or explored." / "Fog of War Event … Placed face down
on the Map. Revealed when entered."; 001 l.565 "Search … Quickly search the current
Place"): rules.board.fog, ``d2d board fog|reveal|place|event``, and the exploring a
Player's unit does through ``unit move``, ``unit place`` and ``unit act … search``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import session
from d2d_cli.rules.board import fog
from d2d_cli.rules.board.grid import parse_board, parse_space

OPEN = parse_board({"grid": "\n".join(["......"] * 5)})
WALLED = parse_board({"grid": "......\n..#...\n......\n......\n......"})


def S(*names: str) -> frozenset[tuple[int, int]]:
    return frozenset(parse_space(n) for n in names)


def all_fog(board: Any, sight: int = 0) -> fog.Fog:
    f, _ = fog.cover(board, fog.EMPTY, "all", sight)
    return f


# --------------------------------------------------------------------------- rules


def test_an_area_is_spaces_rectangles_a_place_or_all() -> None:
    f, _ = fog.set_place(OPEN, fog.EMPTY, "Den", "E4:F5")
    assert fog.area(OPEN, f, "B2:C3, A1")[1] == S("B2", "C2", "B3", "C3", "A1")
    assert fog.area(OPEN, f, "den") == ("Den", S("E4", "F4", "E5", "F5"))
    assert len(fog.area(OPEN, f, "all")[1]) == 30
    with pytest.raises(Exception, match="off the map"):
        fog.area(OPEN, f, "Z9")


def test_runs_name_fogged_spaces_as_the_command_takes_them() -> None:
    assert fog.runs(fog.area(OPEN, fog.EMPTY, "A1:F3, B5, D5:E5")[1]) == \
        "A1:F3, B5, D5:E5"
    # read back through area(): the words are the same Spaces
    spaces = S("A1", "B1", "C2", "E4", "E5", "F5")
    assert fog.area(OPEN, fog.EMPTY, fog.runs(spaces))[1] == spaces


def test_entering_reveals_the_path_and_a_fog_of_war_event_on_it() -> None:
    """001 l.445–447: a Fog of War Event is revealed when its Space is entered; with
    sight 0 only the Spaces entered come out of the fog."""
    f = all_fog(OPEN, sight=0)
    f, _ = fog.add_event(OPEN, f, "C3", "A pit trap", "fog")
    f, _ = fog.add_event(OPEN, f, "C5", "Bones", "fog")
    got = fog.entered(OPEN, f, [parse_space("C4"), parse_space("C3")], parse_space("C3"))
    assert got.spaces == S("C4", "C3")
    assert [e.text for e in got.events] == ["A pit trap"]
    assert [e.revealed for e in got.fog.events] == [True, False]
    assert "C3" in got.words and "A pit trap" in got.words


def test_sight_reveals_within_range_and_not_past_a_wall() -> None:
    """A Player's unit sees ``sight`` Spaces into the fog in its Line of Sight (001
    l.707–709): from C3, the wall on C2 hides C1, and B1 and D1 too (the straight edge
    to each passes through C2 first: rules.board.sight.crossed); everything else within
    Range 2 is revealed, the wall itself included, and nothing at Range 3."""
    f = all_fog(WALLED, sight=2)
    got = fog.entered(WALLED, f, [], parse_space("C3"))
    near = {(x, y) for x in range(0, 5) for y in range(0, 5)}  # A1:E5 within Range 2
    assert got.spaces == frozenset(near) - S("B1", "C1", "D1")
    assert parse_space("C2") in got.spaces  # the wall itself is seen


def test_a_location_event_is_revealed_by_a_search_in_its_place_not_by_entering() -> None:
    f, _ = fog.set_place(OPEN, all_fog(OPEN), "Den", "E4:F5")
    f, _ = fog.add_event(OPEN, f, "Den", "A chest of gold", "location")
    entered = fog.entered(OPEN, f, [parse_space("E4")], parse_space("E4"))
    assert entered.events == () and not entered.fog.events[0].revealed
    elsewhere, shown = fog.searched(f, parse_space("A1"))
    assert shown == () and elsewhere is f
    after, shown = fog.searched(f, parse_space("F5"))
    assert [e.text for e in shown] == ["A chest of gold"] and after.events[0].revealed


def test_revealing_a_place_explores_it_and_its_location_events() -> None:
    """000 l.226 Exploration: the Narrator marks a Place explored."""
    f, _ = fog.set_place(OPEN, all_fog(OPEN), "Den", "E4:F5")
    f, _ = fog.add_event(OPEN, f, "Den", "A chest of gold", "location")
    f, _ = fog.add_event(OPEN, f, "A1", "A pit", "fog")
    new, r = fog.reveal(OPEN, f, "Den")
    assert (r.changed, r.fogged) == (4, 26)
    assert [e.text for e in r.events] == ["A chest of gold"]
    assert [e.revealed for e in new.events] == [True, False]


def test_the_section_round_trips() -> None:
    f, _ = fog.set_place(OPEN, all_fog(OPEN, sight=3), "Den", "E4:F5")
    f, _ = fog.add_event(OPEN, f, "Den", "gold", "location")
    f, _ = fog.reveal(OPEN, f, "A1:B2")
    state = f.to_state(OPEN)
    assert state["rows"][0] == "..????" and state["sight"] == 3
    assert fog.read(state, OPEN) == f


# --------------------------------------------------------------------------- commands

SCENE = """
name = "Fog test"
[factions.Adventurers]
goal = "find the gold"
players = ["Player1"]
[factions.Goblins]
goal = "keep it"
players = ["Non-Player"]
[board]
grid = '''
........
........
........
........
........
'''
[units.Archer]
faction = "Adventurers"
player = "Player1"
body = "6x0"
mind = "5x0"
will = "5x0"
speed = "5x0"
space = "A5"
facing = "N"
[units.Goblin]
faction = "Goblins"
player = "Non-Player"
body = "5x0"
mind = "3x0"
will = "3x0"
speed = "5x0"
space = "H1"
facing = "S"
[fog]
sight = 1
[fog.places]
Den = "G1:H2"
[[fog.events]]
at = "A3"
text = "A pit trap"
[[fog.events]]
at = "Den"
kind = "location"
text = "A chest of gold"
"""


@pytest.fixture
def fogged(d2d: Any, tmp_path: Path) -> Path:
    path = tmp_path / "fog.toml"
    (tmp_path / "scene.toml").write_text(SCENE, encoding="utf-8")
    d2d.ok("--session", path, "scene", "load", tmp_path / "scene.toml")
    return path


def _fog(path: Path) -> dict[str, Any]:
    return dict(session.read(path)["fog"])


def test_a_scene_fogs_its_map_and_the_players_unit_sees_around_it(fogged: Path) -> None:
    """A scene's [fog] (spaces default all); the Archer set down on A5 sees Range 1."""
    rows = _fog(fogged)["rows"]
    assert rows == ["????????", "????????", "????????", "..??????", "..??????"]


def test_unit_move_reveals_the_path_and_turns_up_the_fog_of_war_event(
        d2d: Any, fogged: Path) -> None:
    d2d.ok("--session", fogged, "round", "start")
    out = d2d.ok("--session", fogged, "unit", "move", "Archer", "forward", "2")
    assert "#1 Fog of War Event on A3 revealed: A pit trap" in out
    state = _fog(fogged)
    assert state["rows"][:3] == ["????????", "..??????", "..??????"]
    assert state["events"][0]["revealed"] is True
    log = session.log(fogged, 1)[-1]
    assert "A pit trap" in log["summary"]  # the journal says it once revealed
    d2d.ok("--session", fogged, "session", "undo")
    assert "revealed" not in _fog(fogged)["events"][0]  # undo puts it face down again


def test_a_non_players_move_reveals_nothing(d2d: Any, fogged: Path) -> None:
    d2d.ok("--session", fogged, "round", "start")
    before = _fog(fogged)
    d2d.ok("--session", fogged, "unit", "move", "Goblin", "forward", "2")
    assert _fog(fogged) == before


def test_a_search_in_the_place_reveals_its_location_event(d2d: Any, fogged: Path) -> None:
    d2d.ok("--session", fogged, "round", "start")
    d2d.ok("--session", fogged, "unit", "place", "Archer", "G2", "N")
    assert not _fog(fogged)["events"][1].get("revealed")  # entering is not searching
    res = json.loads(d2d.ok("--session", fogged, "unit", "act", "Archer", "search",
                            "--json"))
    assert "#2 Location Event under Den revealed: A chest of gold" in res["result"]["note"]
    assert _fog(fogged)["events"][1]["revealed"] is True


def test_board_commands_and_their_refusals(d2d: Any, fogged: Path) -> None:
    res = json.loads(d2d.ok("--session", fogged, "board", "reveal", "Den", "--json"))
    assert res["result"]["events"][0]["text"] == "A chest of gold"
    assert res["result"]["changed"] == 4
    d2d.ok("--session", fogged, "board", "fog", "--all", "--sight", "2")
    assert _fog(fogged)["sight"] == 2
    listed = json.loads(d2d.ok("--session", fogged, "board", "event", "list", "--json"))
    assert [e["id"] for e in listed["result"]["events"]] == [1, 2]
    assert listed["result"]["places"] == {"Den": ["G1", "H1", "G2", "H2"]}
    d2d.ok("--session", fogged, "board", "event", "add", "C1", "An owl", "--json")
    d2d.ok("--session", fogged, "board", "event", "reveal", "3")
    d2d.ok("--session", fogged, "board", "event", "rm", "3")
    before = fogged.read_bytes()
    for args, said in ((("board", "fog", "Z9"), "off the map"),
                       (("board", "reveal"), "--all"),
                       (("board", "fog", "A1", "--all"), "not both"),
                       (("board", "event", "add", "Q1", "x"), "off the map"),
                       (("board", "event", "add", "Nowhere", "x", "--location"),
                        "Place"),
                       (("board", "event", "add", "A1", " "), "text"),
                       (("board", "event", "rm", "9"), "no Event #9"),
                       (("board", "event", "reveal", "2"), "revealed already"),
                       (("board", "place", "A1", "B2"), "reads as Spaces"),
                       (("board", "fog", "--sight", "99", "--all"), "0 to 20")):
        res = d2d("--session", fogged, *args)
        assert res.exit_code == 2, (args, res.output)
        assert said in res.output, (args, res.output)
        assert fogged.read_bytes() == before, args


def test_board_still_draws_the_map_and_the_narrator_sees_everything(
        d2d: Any, fogged: Path) -> None:
    out = d2d.ok("--session", fogged, "board")
    assert "Under fog (the players see fog there; drawn dim): A1:H3, C4:H5" in out
    assert "#1 Fog of War Event on A3 (face down): A pit trap" in out
    res = json.loads(d2d.ok("--session", fogged, "board", "--json"))["result"]
    assert res["grid"][0] == "........"  # the Narrator's map keeps its terrain
    assert res["fog"][3] == "..??????" and res["sight"] == 1
    assert [u["name"] for u in res["units"]] == ["Archer", "Goblin"]


def test_a_map_without_fog_keeps_its_json(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    d2d.ok("--session", path, "scene", "load", "combat1")
    res = json.loads(d2d.ok("--session", path, "board", "--json"))["result"]
    assert "fog" not in res and "events" not in res


def test_a_scene_s_fog_is_checked_before_anything_is_written(d2d: Any,
                                                             tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    d2d.ok("--session", path, "scene", "load", "combat1")
    before = path.read_bytes()
    for bad, said in (("[fog]\nsights = 2\n", "unknown key(s) sights"),
                      ("[fog]\nspaces = [\"Z40\"]\n", "fog.spaces: space Z40 is off the map"),
                      ("[[fog.events]]\nat = \"A1\"\n", "fog event #1 needs at"),
                      ("[[fog.events]]\nat = \"A1\"\ntext = \"x\"\nkind = \"trap\"\n",
                       "kind is fog or location"),
                      ("[fog.places]\nA1 = \"B2\"\n", "reads as Spaces")):
        scene = tmp_path / "bad.toml"
        scene.write_text(SCENE.split("[fog]")[0] + bad, encoding="utf-8")
        res = d2d("--session", path, "scene", "load", scene)
        assert res.exit_code == 2 and said in res.output, (bad, res.output)
        assert path.read_bytes() == before
    (tmp_path / "nomap.toml").write_text('name = "x"\n[fog]\n', encoding="utf-8")
    res = d2d("--session", path, "scene", "load", tmp_path / "nomap.toml")
    assert res.exit_code == 2 and "[fog] needs a [board] map" in res.output


def test_a_place_is_forgotten_only_with_nothing_under_it(d2d: Any, fogged: Path) -> None:
    res = d2d("--session", fogged, "board", "place", "Den", "--rm")
    assert res.exit_code == 2 and "a Location Event lies under Den" in res.output
    d2d.ok("--session", fogged, "board", "event", "rm", "2")
    d2d.ok("--session", fogged, "board", "place", "den", "--rm")  # any case
    assert "places" not in _fog(fogged)


def test_a_new_scene_takes_the_last_scene_s_fog_away(d2d: Any, fogged: Path) -> None:
    d2d.ok("--session", fogged, "scene", "load", "combat1")
    assert session.read(fogged)["fog"] == {}
    res = json.loads(d2d.ok("--session", fogged, "board", "--json"))["result"]
    assert "fog" not in res
