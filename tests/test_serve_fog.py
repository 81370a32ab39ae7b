"""Fog of War on the players' pages (serve/project.py ``_board``, ``hidden_texts``): the
public projection never depends on what lies under fog — terrain, the units standing
there, Events face down — nor on any other hidden text (001 l.437–447)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli import session
from d2d_cli.rules.board.grid import space_name
from d2d_cli.serve import project

# combat1's map is 12×10; the fog lies over columns G–L of rows 3–10 (no Player's unit
# stands there: the Archer is on E9, the Thief on K1).
FOGGED = [(x, y) for y in range(2, 10) for x in range(6, 12)]
FOG_ROWS = ["." * 12, "." * 12] + ["......" + "?" * 6] * 8
SECRET = st.text(alphabet="qxzj kv", min_size=1, max_size=12).map(lambda t: "Qz " + t)


def combat1(d2d: Any, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "--seed", "3", "scene", "load", "combat1")
    d2d.ok("--session", path, "round", "start")
    return session.read(path)


def test_public_projection_never_depends_on_what_lies_under_fog(d2d: Any,
                                                               tmp_path: Path) -> None:
    """Swap every hidden thing — the terrain under fog, where the Goblin Scout stands in
    it, the Fog of War Events' texts and Spaces, a Location Event's text and its Place,
    each Timed Event's text not come up, a ``secret:`` task — in the session and in the
    journal lines that typed them: the public projection is byte-identical."""
    base = combat1(d2d, tmp_path)

    def session_with(terrain: list[str], scout: int, events: list[tuple[int, str]],
                     place: int, gold: str, timed: str) -> tuple[dict[str, Any], list[Any]]:
        data = copy.deepcopy(base)
        rows = [list(r) for r in data["board"]["rows"]]
        for (x, y), ch in zip(FOGGED, terrain, strict=False):
            rows[y][x] = ch
        sx, sy = FOGGED[scout]
        rows[sy][sx] = "."  # where the Scout stands may be entered
        data["board"]["rows"] = ["".join(r) for r in rows]
        data["units"]["Goblin Scout"]["space"] = space_name((sx, sy))
        den = [space_name(FOGGED[place]), space_name(FOGGED[(place + 1) % len(FOGGED)])]
        data["fog"] = {"rows": FOG_ROWS, "places": {"Den": den}, "events": [
            *({"id": i + 1, "kind": "fog", "at": space_name(FOGGED[at]), "text": text}
              for i, (at, text) in enumerate(events)),
            {"id": 9, "kind": "location", "at": "Den", "text": gold}]}
        data["clock"]["timed"] = [{"at": 4, "text": timed, "done": False}]
        data["tasks"] = {**data.get("tasks", {}), "secret: " + gold: {
            "difficulty": 3, "challenge": 3, "progress": 3}}
        where = space_name((sx, sy))
        log = [{"at": "x", "command": f"board event add {space_name(FOGGED[at])} '{t}'",
                "summary": f"#{i + 1} placed"} for i, (at, t) in enumerate(events)] + [
            {"at": "x", "command": f"unit place 'Goblin Scout' {where} SW",
             "summary": f"Goblin Scout stands on {where} facing SW"},
            {"at": "x", "command": f"clock event add '{timed}' 4", "summary": "set"},
            {"at": "x", "command": f"task new 'secret: {gold}' 3", "summary": "task"},
            {"at": "x", "command": "round start", "summary": "round 1 started"}]
        return data, log

    terrain = st.lists(st.sampled_from(".%~o#"), min_size=len(FOGGED),
                       max_size=len(FOGGED))
    spot = st.integers(0, len(FOGGED) - 1)
    events = st.lists(st.tuples(spot, SECRET), min_size=1, max_size=3)

    @settings(max_examples=40, deadline=None)
    @given(t1=terrain, t2=terrain, s1=spot, s2=spot, e1=events, e2=events, p1=spot,
           p2=spot, g1=SECRET, g2=SECRET, m1=SECRET, m2=SECRET)
    def check(t1: list[str], t2: list[str], s1: int, s2: int, e1: list[Any],
              e2: list[Any], p1: int, p2: int, g1: str, g2: str, m1: str, m2: str) -> None:
        e2 = (e2 * 3)[:len(e1)]  # as many Events: their number is not hidden
        a = project.public(*session_with(t1, s1, e1, p1, g1, m1), "t")
        b = project.public(*session_with(t2, s2, e2, p2, g2, m2), "t")
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        assert "Qz" not in json.dumps(a)
        assert "Goblin Scout" not in [u["name"] for u in a["board"]["units"]]
        assert a["log"][-1]["summary"] == "round 1 started"  # public lines stay

    check()


def test_the_players_map_draws_fog_and_shows_what_was_revealed(d2d: Any,
                                                                tmp_path: Path) -> None:
    data = combat1(d2d, tmp_path)
    data["fog"] = {"rows": FOG_ROWS, "events": [
        {"id": 1, "kind": "fog", "at": "H5", "text": "Bones", "revealed": True},
        {"id": 2, "kind": "fog", "at": "H6", "text": "A pit"}]}
    b = project.public(data, [], "t")["board"]
    assert b["grid"][2] == "......??????"  # fog, its terrain unknown
    assert b["grid"][6] == ".....o??????"
    assert {"symbol": "?", "text": "fog (unexplored)"} in b["legend"]
    assert [u["name"] for u in b["units"]] == ["Archer", "Thief", "Goblin Scout",
                                               "Goblin Skirmisher"]  # none in the fog
    assert b["events"] == [{"kind": "fog", "where": "H5", "text": "Bones"}]
    assert "A pit" not in json.dumps(b) and "#aab4c0" in b["svg"]  # the fog's colour
    data["units"]["Goblin Scout"]["space"] = "J4"  # walks into the fog: off their map
    b = project.public(data, [], "t")["board"]
    assert "Goblin Scout" not in [u["name"] for u in b["units"]]
    assert "Goblin Scout" not in b["svg"]


def test_the_fogged_state_and_a_fogged_scene_fit_their_schemas(d2d: Any,
                                                               tmp_path: Path) -> None:
    """The public state with fog and revealed Events fits state.schema.json; a scene
    file's [fog] fits scene.schema.json (and a misspelt key does not)."""
    import tomllib

    import pytest

    jsonschema = pytest.importorskip("jsonschema")
    from tests.test_board_fog import SCENE
    from tests.test_exports import schema

    data = combat1(d2d, tmp_path)
    data["fog"] = {"rows": FOG_ROWS, "events": [
        {"id": 1, "kind": "fog", "at": "H5", "text": "Bones", "revealed": True}]}
    jsonschema.Draft202012Validator(schema("state")).validate(
        project.public(data, [], "t"))
    scene = tomllib.loads(SCENE)
    jsonschema.Draft202012Validator(schema("scene")).validate(scene)
    scene["fog"]["sights"] = 2
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema("scene")).validate(scene)
