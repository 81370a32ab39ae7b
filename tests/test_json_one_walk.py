"""A command's --json envelope is encoded in one walk (issue 40): ``json.dumps`` walks the
result itself and asks ``result.json_default`` only for what it cannot encode — a
Result's fields one level deep, a Fraction, a ``to_json()`` — instead of
``to_json(result)`` building a converted copy of every value first and ``json.dumps``
walking that copy again (``status --json`` of 1,000 units holds ~37,000 values). The
text is the same as the copy's, byte for byte."""

from __future__ import annotations

import json
from collections import namedtuple
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from d2d_cli import render
from d2d_cli.operations import Target
from d2d_cli.operations.overview import status
from d2d_cli.rules.core import result as result_module
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, hidden, json_default, renamed, to_json
from d2d_cli.rules.deck.cards import parse_card
from d2d_cli.rules.scale.stats import parse_stat
from tests.combat1_replay import STEPS


def _both(value: Any) -> tuple[str, str]:
    """(the converted copy's text, the one walk's text)."""
    copy = json.dumps({"result": to_json(value)}, ensure_ascii=False)
    once = json.dumps({"result": value}, ensure_ascii=False, default=json_default)
    return copy, once


@record
class _Inner(Result):
    n: int
    share: Fraction
    card: Any


@record
class _Outer(Result):
    name: str
    inner: _Inner
    many: tuple[_Inner, ...]
    by_name: dict[str, Any]
    pairs: list[Any]
    maybe: _Inner | None
    secret: str = hidden("not shown")
    from_: str = renamed("from", "here")


Pair = namedtuple("Pair", "a b")


def test_nested_results_fractions_cards_and_stats_encode_as_the_copy() -> None:
    inner = _Inner(1, Fraction(3, 4), parse_card("KS^"))
    value = _Outer("Goblin → 5 «é»", inner, (inner, _Inner(2, Fraction(1), None)),
                   {"a": inner, "b": [inner, {"c": Fraction(5, 2)}], "stat": parse_stat("6x1")},
                   [Pair(inner, 2), (1, "x"), {"k": (inner,)}], None)
    copy, once = _both(value)
    assert once == copy
    got = json.loads(once)["result"]
    assert "secret" not in got and got["from"] == "here"  # hidden and renamed as before
    assert got["inner"]["share"] == "3/4" and got["many"][1]["card"] is None


def test_what_has_no_json_view_is_still_refused() -> None:
    with pytest.raises(TypeError, match="no JSON view for set"):
        json.dumps({"x": _Inner(1, Fraction(1, 2), {1, 2})}, default=json_default)


def test_status_json_is_the_copys_text_at_every_step_of_combat1(
        d2d: Any, tmp_path: Path) -> None:
    """Combat #1 step by step (targets, moves, conditions, crits, the round's boosts and
    what was said): the envelope ``d2d status --json`` prints is the text of the
    converted copy of the same dashboard."""
    path = tmp_path / "c.toml"
    for step in STEPS:
        argv = list(step.argv)
        at = 2 if argv[:1] == ["--seed"] else 0
        d2d.ok(*argv[:at], "--session", path, *argv[at:])
        shown = d2d.ok("--session", path, "status", "--json")
        dashboard = status(Target(str(path)))
        copy = render._json_line({"ok": True, "command": "status",
                                  "result": to_json(dashboard)})
        assert shown == copy, step.argv


def test_status_json_builds_no_converted_copy(
        d2d: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The envelope is encoded from the result itself: the deep converted copy
    (``_result_json``, what ``to_json`` builds for a Result) is never made."""
    path = tmp_path / "s.toml"
    for i in range(3):
        d2d.ok("--session", path, "unit", "add", f"Goblin {i}", "--body", "2x1", "--mind",
               "2x1", "--will", "2x1", "--speed", "4x0")
    d2d.ok("--session", path, "unit", "condition", "Goblin 1", "add", "fatigue")
    expected = d2d.ok("--session", path, "status", "--json")

    def refuse(value: Any) -> Any:
        raise AssertionError(f"a converted copy of {type(value).__name__} was built")

    monkeypatch.setattr(result_module, "_result_json", refuse)
    assert d2d.ok("--session", path, "status", "--json") == expected
    assert len(json.loads(expected)["result"]["units"]) == 3
