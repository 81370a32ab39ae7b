"""The players' pages read typed records, not journal text (issue 35 item 6): each
journal entry carries what the command was, as data written by the operation that made
it (``rec``: its ``path`` and ``words`` as given; the oracle's question, likelihood and
card), and ``serve/project.py`` reads those — never parsing the command line again. An
entry of an older journal, without them, is read from its text as before."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli import session
from d2d_cli.api import Session
from d2d_cli.serve import project
from tests import serve_helpers as h

QUESTION = "Does Wren's torch \"burn\"?"  # quotes of both kinds: shlex.join mangles them
EVENT = "Wren's ambush"


def night(d2d: Any, tmp_path: Path) -> Path:
    path = h.table(tmp_path)  # hands held by d2d, QHv chosen face down for the Archer
    d2d.ok("--session", path, "oracle", QUESTION, "--likely")
    d2d.ok("--session", path, "clock", "event", "add", EVENT, "3")
    d2d.ok("--session", path, "hand", "choose", "Thief", "AD^")
    d2d.ok("--session", path, "unit", "move", "Goblin Scout", "forward", "1")
    Session(str(path)).oracle("Is the gate open?", unlikely=True)  # the Python API's call
    return path


def rows(path: Path, typed: bool = True) -> list[dict[str, Any]]:
    return session.read_with_log(path, 40, typed)[1]


def test_each_entry_carries_its_command_as_typed_data(d2d: Any, tmp_path: Path) -> None:
    path = night(d2d, tmp_path)
    log = rows(path)
    recs = {r["command"]: r["rec"] for r in log if "rec" in r}
    by_path = {rec["path"]: rec for rec in recs.values()}
    assert by_path["clock event add"]["words"] == ["clock", "event", "add", EVENT, "3"]
    assert by_path["unit move"]["words"] == ["unit", "move", "Goblin Scout", "forward", "1"]
    oracles = [r["rec"] for r in log if r.get("rec", {}).get("path") == "oracle"]
    assert [o["words"] for o in oracles] == [["oracle", QUESTION, "--likely"],
                                            ["oracle", "Is the gate open?", "--unlikely"]]
    # the oracle wrote what it read: the card is the one its summary names
    for row, o in zip([r for r in log if r.get("rec", {}).get("path") == "oracle"], oracles,
                      strict=True):
        assert row["summary"].startswith("revealed " + o["oracle"]["card"])
    assert [(o["oracle"]["question"], o["oracle"]["likelihood"]) for o in oracles] == [
        (QUESTION, "likely"), ("Is the gate open?", "unlikely")]
    # the card chosen face down is named nowhere, the typed record included
    chose = by_path["hand choose"]
    assert chose["words"] == ["hand", "choose", "Thief"]
    assert "AD" not in json.dumps(log)
    # session log (and its JSON) is unchanged: no record there
    assert all("rec" not in r for r in rows(path, typed=False))


def test_the_pages_read_the_typed_record_never_the_text(d2d: Any, tmp_path: Path,
                                                        monkeypatch: Any) -> None:
    """With every row typed, the projection never parses a command line (shlex made to
    fail), and the oracle's question is the one asked, quotes and all."""
    path = night(d2d, tmp_path)
    data, log = session.read_with_log(path, 40, typed=True)
    import shlex

    def refuse(*_: Any, **__: Any) -> list[str]:
        raise AssertionError("a typed row was parsed again")

    monkeypatch.setattr(shlex, "split", refuse)
    typed_rows = [r for r in log if "rec" in r]
    state = project.public(data, typed_rows, "t")
    assert [(o["question"], o["likelihood"]) for o in state["oracle"]] == [
        (QUESTION, "likely"), ("Is the gate open?", "unlikely")]
    shown = [e["command"] for e in state["log"]]
    assert "clock event add" in shown and not any(EVENT in str(e) for e in state["log"])
    assert all(not c.startswith("hand") for c in shown)


def test_an_older_journal_without_records_shows_the_same(d2d: Any, tmp_path: Path) -> None:
    """The same entries with their records taken out (a journal written before them) are
    read from their text: the public page and the Players' are the same."""
    path = night(d2d, tmp_path)
    data, log = session.read_with_log(path, 40, typed=True)
    old = [{k: v for k, v in r.items() if k != "rec"} for r in log]
    assert any("rec" in r for r in log) and all("rec" not in r for r in old)
    assert project.public(data, old, "t") == project.public(data, log, "t")
    # a record that is not what the pages expect is ignored, the text read instead
    odd = [{**r, "rec": {"words": "oracle", "oracle": {"question": 3}}} for r in old]
    assert project.public(data, odd, "t") == project.public(data, log, "t")


def test_a_typed_record_shows_what_the_command_did_not_its_text() -> None:
    """The record wins over the text: a row whose text no longer parses (an unclosed
    quote) still shows the oracle's answer as the oracle wrote it."""
    rows_ = [{"at": "x", "command": "oracle 'Is it near? --likely", "summary": "revealed KH^",
              "undone": False, "rec": {"path": "oracle", "words": ["oracle", "Is it near?",
                                                                  "--likely"],
                                       "oracle": {"question": "Is it near?",
                                                  "likelihood": "likely", "card": "KH^"}}}]
    got = project._oracle(rows_)
    assert [(o["question"], o["likelihood"], o["card"]) for o in got] == [
        ("Is it near?", "likely", "KH^")]
    # without the record, the text is all there is: read as it reads (unclosed quote)
    assert project._oracle([{k: v for k, v in rows_[0].items() if k != "rec"}])[0][
        "question"] == "'Is it near?"


SECRET_TEXT = st.text(alphabet="qxzj' kv\"", min_size=1, max_size=12).map(
    lambda t: "Qz " + t)


def test_typed_rows_never_carry_a_hidden_text_to_the_public_page(d2d: Any,
                                                                 tmp_path: Path) -> None:
    """tests/test_serve_project.py's swap of every hidden text, on rows carrying typed
    records (words as given, quotes of both kinds unescaped): the public projection is
    byte-identical whatever the texts."""
    base = session.read(h.table(tmp_path))

    def session_with(texts: list[str]) -> tuple[dict[str, Any], list[Any]]:
        data = copy.deepcopy(base)
        data["clock"] = {**data.get("clock", {}), "timed": [
            {"at": 3 + i, "text": t, "done": False} for i, t in enumerate(texts)]}
        log = [{"at": "x", "command": "clock event add ? 3", "summary": "timed event",
                "rec": {"path": "clock event add", "words": ["clock", "event", "add", t, "3"]}}
               for t in texts] + [
            {"at": "x", "command": "oracle ?", "summary": "revealed 2C^",
             "rec": {"path": "oracle", "words": ["oracle", f"Is {texts[0]} near?"],
                     "oracle": {"question": f"Is {texts[0]} near?", "likelihood": "even",
                                "card": "2C^"}}},
            {"at": "x", "command": "round next", "summary": "next",
             "rec": {"path": "round next", "words": ["round", "next"]}}]
        return data, log

    @settings(max_examples=30, deadline=None)
    @given(texts=st.lists(SECRET_TEXT, min_size=1, max_size=3), other=SECRET_TEXT)
    def check(texts: list[str], other: str) -> None:
        a = project.public(*session_with(texts), "t")
        b = project.public(*session_with([other + str(i) for i in range(len(texts))]), "t")
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        assert "Qz" not in json.dumps(a)
        assert a["oracle"][-1]["question"] == project.SECRET_SHOWN

    check()
