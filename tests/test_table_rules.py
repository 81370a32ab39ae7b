"""``d2d rules`` (issue 37 item 1): the table's à la carte rules shown with value, default
and meaning; set and unset against the one table of keys (rules/core/options.py), a typo
refused with the nearest key and the file unchanged, journalled and undone; ``hands`` set
to "d2d" mid-session deals the hands as ``hand deal`` does (000 l.401 "The hand starts
with 5 new cards at the beginning of a Scene"); ``session new --rule KEY=VALUE``."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from d2d_cli.api import Session
from d2d_cli.rules.core import options
from tests.helpers import assert_refused
from tests.test_hands import SCENE


def rules_of(path: Path) -> dict[str, Any]:
    return dict(tomllib.loads(path.read_text("utf-8"))["rules"])


def fresh(d2d: Any, tmp_path: Path) -> Path:
    path = tmp_path / "night.toml"
    d2d.ok("--seed", 4, "session", "new", path)
    return path


def test_rules_shows_every_key_with_value_default_and_meaning(d2d: Any,
                                                             tmp_path: Path) -> None:
    path = fresh(d2d, tmp_path)
    got = d2d.json("--session", path, "rules")["rules"]
    assert [r["key"] for r in got] == [o.key for o in options.OPTIONS]
    cover = next(r for r in got if r["key"] == "cover")
    assert cover == {"key": "cover", "value": "sweep", "default": "sweep", "changed": False,
                     "accepts": '"sweep" or "edges"',
                     "meaning": "Cover read off the map by 001's sweep or 000's edges",
                     "source": '001 l.714 "Sweep edge across all of Target"'}
    text = d2d.ok("--session", path, "rules")
    assert text.splitlines()[0].split() == ["rule", "value", "default", "meaning"]
    assert len(text.splitlines()) == 1 + len(options.OPTIONS)  # no * note: nothing set
    assert '  hands              "table"     "table"     who holds' in text


def test_rules_set_checks_journals_and_undoes(d2d: Any, tmp_path: Path) -> None:
    path = fresh(d2d, tmp_path)
    r = d2d.json("--session", path, "rules", "set", "cover", "EDGES")
    assert (r["key"], r["value"], r["was"], r["default"]) == ("cover", "edges", "sweep",
                                                              "sweep")
    assert rules_of(path) == {"cover": "edges"}
    text = d2d.ok("--session", path, "rules")
    assert '* cover              "edges"     "sweep"' in text
    assert text.endswith("* set away from its default: d2d rules unset KEY puts it back\n")
    d2d.ok("--session", path, "rules", "set", "personal_round_s", "2")
    d2d.ok("--session", path, "rules", "set", "ten_always_hits", "yes")
    assert rules_of(path) == {"cover": "edges", "personal_round_s": 2,
                              "ten_always_hits": True}
    log = d2d.ok("--session", path, "session", "log", "--last", "1")
    assert "rules set ten_always_hits yes  rules set ten_always_hits: false → true" in log
    d2d.ok("--session", path, "session", "undo")
    d2d.ok("--session", path, "rules", "unset", "cover")
    assert rules_of(path) == {"personal_round_s": 2}


def test_a_typo_gets_did_you_mean_and_changes_nothing(d2d: Any, tmp_path: Path) -> None:
    path = fresh(d2d, tmp_path)
    assert_refused(d2d, tmp_path, ["--session", path, "rules", "set", "hand", "d2d"],
                   "no rule 'hand'; did you mean 'hands'?")
    assert_refused(d2d, tmp_path, ["--session", path, "rules", "set", "hands", "d2e"],
                   "rule hands: 'd2e': use \"table\" or \"d2d\"; did you mean 'd2d'?")
    assert_refused(d2d, tmp_path, ["--session", path, "rules", "set", "personal_round_s",
                                   "0"], "personal_round_s: '0': use a number of seconds")
    assert_refused(d2d, tmp_path, ["--session", path, "rules", "unset", "cuver"],
                   "did you mean 'cover'?")
    assert_refused(d2d, tmp_path, ["session", "new", tmp_path / "b.toml", "--rule",
                                   "hands"], "--rule 'hands': write KEY=VALUE")
    assert_refused(d2d, tmp_path, ["session", "new", tmp_path / "b.toml", "--rule",
                                   "hands=yes"], "rule hands: 'yes'")


def test_hands_to_d2d_mid_session_deals_as_hand_deal_does(d2d: Any, tmp_path: Path) -> None:
    path = fresh(d2d, tmp_path)
    scene = tmp_path / "night.scene.toml"
    scene.write_text(SCENE, "utf-8")
    d2d.ok("--session", path, "scene", "load", scene)
    assert "players" not in tomllib.loads(path.read_text("utf-8"))  # the table's cards
    r = d2d.json("--session", path, "rules", "set", "hands", "d2d")
    assert r["dealt"] == [
        {"player": "Ann", "hand": 5, "deck": 49, "discard": 0, "chosen": None},
        {"player": "Bo", "hand": 5, "deck": 49, "discard": 0, "chosen": None}]
    held = tomllib.loads(path.read_text("utf-8"))["players"]
    assert [len(held[p]["hand"]) for p in ("Ann", "Bo")] == [5, 5]
    # The Narrator's hand, when narrator_hand is turned on under d2d's hands.
    r = d2d.json("--session", path, "rules", "set", "narrator_hand", "true")
    assert [h["player"] for h in r["dealt"]] == ["Narrator"]
    d2d.ok("--session", path, "session", "undo")
    d2d.ok("--session", path, "session", "undo")
    assert "players" not in tomllib.loads(path.read_text("utf-8"))


def test_session_new_takes_rules(d2d: Any, tmp_path: Path) -> None:
    path = tmp_path / "friday.toml"
    d2d.ok("session", "new", path, "--rule", "hands=D2D", "--rule", "cover=edges")
    assert rules_of(path) == {"hands": "d2d", "cover": "edges"}
    scene = tmp_path / "night.scene.toml"
    scene.write_text(SCENE, "utf-8")
    d2d.ok("--session", path, "scene", "load", scene)
    assert d2d.json("--session", path, "hand", "show", "Ann")["player"] == "Ann"


def test_the_api_sets_a_rule_as_the_command_does(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "api.toml", seed=2)
    change = s.rules.set("speed_convention", "000")
    assert (change.key, change.value, change.was) == ("speed_convention", "000", "001")
    assert s.rules.show().rules[0].value == "000"
    s.rules.unset("speed_convention")
    assert rules_of(s.path) == {}


def test_session_new_takes_rules_through_the_api_too(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "api.toml", seed=2, rule=["hands=D2D", "cover=edges"])
    assert rules_of(s.path) == {"hands": "d2d", "cover": "edges"}
    assert s.session.log().entries[-1].command.startswith("session new ")
    import pytest

    from d2d_cli.api import BadInput

    with pytest.raises(BadInput, match="did you mean 'hands'"):
        Session.new(tmp_path / "b.toml", rule=["hand=d2d"])
    assert not (tmp_path / "b.toml").exists()
