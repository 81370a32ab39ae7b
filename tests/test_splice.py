"""The session writer's fast path (issue 9): re-rendering only the changed tables and
splicing them into the untouched text. The hypothesis test in test_session_write.py
goes through ``session.edit`` and mostly reached the whole-document fallback; this one
calls the splice directly on sessions shaped like d2d's (tables of named records with
sub-tables) and asserts that the fast path is taken, that its text parses back to
exactly the new data, and that every byte of the unchanged tables is kept."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
import tomlkit
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli.session import text as splicing

NAMES = st.sampled_from(["Archer", "Thief", "Goblin Scout", "Ogre", "Knot", "Door",
                         "Rook", "Skirmisher 1", "x.y", "Ünïcode"])
SCALARS = st.one_of(st.integers(-50, 50), st.booleans(),
                    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)),
                            max_size=8))
RECORD = st.fixed_dictionaries(
    {"kind": st.sampled_from(["character", "creature"]), "move": st.integers(0, 9)},
    optional={"note": SCALARS, "tags": st.lists(st.integers(0, 9), max_size=3),
              "conditions": st.dictionaries(st.sampled_from(["fatigue", "bleeding", "slow"]),
                                            st.integers(1, 5), min_size=1, max_size=3)})
TABLE = st.dictionaries(NAMES, RECORD, min_size=1, max_size=4)
STATE = st.fixed_dictionaries({"units": TABLE, "tasks": TABLE,
                               "clock": st.fixed_dictionaries({"value": st.integers(0, 20)})})
# What a command may leave: a table emptied too (the last unit removed, the last task dropped).
NEW_STATE = st.fixed_dictionaries({"units": st.dictionaries(NAMES, RECORD, max_size=4),
                                   "tasks": st.dictionaries(NAMES, RECORD, max_size=4),
                                   "clock": st.fixed_dictionaries({"value": st.integers(0, 20)})})


def _text(data: dict[str, Any]) -> str:
    body = tomlkit.dumps({"schema": 1, **data})
    # A hand-written comment in every table, as a table would leave in the file.
    return "# my campaign\n" + body.replace("[clock]\n", "[clock]\n# ticks down at night\n")


KEYS = st.sets(st.sampled_from(["units", "tasks", "clock"]), min_size=1)


# Each property runs a few dozen examples in the README's quick command and its
# thorough twin (marked slow, run by .ci/run) the full count.
@settings(max_examples=40, deadline=None, derandomize=True)
@given(STATE, NEW_STATE, KEYS)
def test_splice_writes_exactly_the_new_data_and_keeps_the_rest(
        old: dict[str, Any], other: dict[str, Any], keys: set[str]) -> None:
    _splice_writes(old, other, keys)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True)
@given(STATE, NEW_STATE, KEYS)
def test_splice_writes_exactly_the_new_data_and_keeps_the_rest_thoroughly(
        old: dict[str, Any], other: dict[str, Any], keys: set[str]) -> None:
    _splice_writes(old, other, keys)


def _splice_writes(old: dict[str, Any], other: dict[str, Any], keys: set[str]) -> None:
    old = {"schema": 1, **old}
    new = {**old, **{k: other[k] for k in keys}}
    changed = {k for k in keys if new[k] != old[k]}
    text = _text({k: v for k, v in old.items() if k != "schema"})
    assert tomllib.loads(text) == old
    grouped = splicing.groups(text)
    assert grouped is not None and grouped[0] == old
    spliced = splicing.splice(text, old, new, changed, grouped[1])
    assert spliced is not None, "the fast path was not taken"
    out, data, grouping = spliced
    assert grouping.layout == splicing.layout(out)  # the next write cuts nothing again
    assert tomllib.loads(out) == data == new
    assert out.startswith("# my campaign\n")
    if "clock" not in changed:  # an unchanged table keeps its bytes, comment included
        assert "[clock]\n# ticks down at night\n" in out


def test_an_emptied_table_keeps_its_bare_header() -> None:
    """The last task dropped: ``[tasks]`` stays, empty, spliced (it used to send the whole
    file through tomlkit); with a comment inside, the general path keeps the comment."""
    old = {"schema": 1, "units": {"Ogre": {"kind": "creature", "move": 3}},
           "clock": {"value": 2}}
    new = {**old, "units": {}}
    text = _text({"units": old["units"], "clock": old["clock"]})
    out, data, _ = splicing.splice(text, old, new, {"units"}, splicing.groups(text)[1])
    assert tomllib.loads(out) == data == new
    assert "[units]\n" in out and "[clock]\n# ticks down at night\n" in out
    commented = text.replace("[units.Ogre]\n", "[units.Ogre]\n# my ogre\n")
    assert splicing.splice(commented, old, new, {"units"},
                           splicing.groups(commented)[1]) is None


# No "#" in the texts: a group holding one may hold a comment, and goes to tomlkit.
EVENT = st.fixed_dictionaries({"at": st.integers(-5, 20),
                               "text": SCALARS.map(str).filter(lambda t: "#" not in t),
                               "done": st.booleans()})
WEATHER = st.fixed_dictionaries({"direction": st.sampled_from(["N", "E", "SW"]),
                                 "speed_kph": st.integers(0, 90)},
                                optional={"cards": st.lists(EVENT, min_size=1, max_size=3),
                                          "timed": st.lists(EVENT, min_size=1, max_size=3)})


@settings(max_examples=40, deadline=None, derandomize=True)
@given(TABLE, WEATHER, WEATHER)
def test_splice_rewrites_arrays_of_tables_in_place(units: dict[str, Any], old_w: dict[str, Any],
                                                    new_w: dict[str, Any]) -> None:
    """``[[weather.cards]]``, ``[[clock.timed]]``: a changed array of tables is spliced too
    (it used to send the whole document through tomlkit: ~15 ms a ``weather wind``)."""
    _arrays_spliced(units, old_w, new_w)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True)
@given(TABLE, WEATHER, WEATHER)
def test_splice_rewrites_arrays_of_tables_in_place_thoroughly(
        units: dict[str, Any], old_w: dict[str, Any], new_w: dict[str, Any]) -> None:
    _arrays_spliced(units, old_w, new_w)


def _arrays_spliced(units: dict[str, Any], old_w: dict[str, Any],
                    new_w: dict[str, Any]) -> None:
    old = {"schema": 1, "units": units, "weather": old_w}
    new = {**old, "weather": new_w}
    text = "# my campaign\n" + tomlkit.dumps(old)
    grouped = splicing.groups(text)
    assert grouped is not None and grouped[0] == old
    changed = {"weather"} if new_w != old_w else set()
    spliced = splicing.splice(text, old, new, changed, grouped[1])
    assert spliced is not None, "the fast path was not taken"
    out, data, grouping = spliced
    assert grouping.layout == splicing.layout(out)  # the next write cuts nothing again
    assert tomllib.loads(out) == data == new
    units_text = text[text.index("[units"):text.index("[weather")]
    assert units_text in out  # the unchanged table keeps its bytes


def _commented(text: str, where: int) -> str:
    """A hand-written comment under the ``where``-th ``[units.…]`` header (if any), so
    the tomlkit merge of a commented group is taken too."""
    heads = [i for i in range(len(text)) if text.startswith("\n[units.", i)]
    if not heads:
        return text
    at = text.index("\n", heads[where % len(heads)] + 1) + 1
    return text[:at] + "# by hand\n" + text[at:]


@settings(max_examples=120, deadline=None, derandomize=True)
@pytest.mark.slow  # run by .ci/run, not by the README's quick command
@given(STATE, st.lists(st.tuples(NEW_STATE, st.sets(st.sampled_from(["units", "tasks",
                                                                        "clock"]))),
                       min_size=1, max_size=4), st.integers(0, 5))
def test_a_chain_of_writes_is_byte_identical_to_the_old_writer(
        old: dict[str, Any], edits: list[tuple[dict[str, Any], set[str]]],
        comment: int) -> None:
    """Issue 26 item 4: the splice now finds the changed chunks through the layout the
    last write (or the verification) left, cutting only what it re-renders; on a chain
    of writes its text is the old splice's, byte for byte, and so is its data, and the
    layout it hands on is the new text's own."""
    from tests.splice_before import splice as splice_before

    old = {"schema": 1, **old}
    text = _commented(_text({k: v for k, v in old.items() if k != "schema"}), comment)
    grouped = splicing.groups(text)
    assert grouped is not None and grouped[0] == old
    grouping = grouped[1]
    for other, keys in edits:
        new = {**old, **{k: other[k] for k in keys}}
        changed = {k for k in keys if new[k] != old[k]}
        was = splice_before(text, old, new, changed, grouping.root)
        now = splicing.splice(text, old, new, changed, grouping)
        if was is None:
            assert now is None
            return  # the whole-document path: the same code before and after
        assert now is not None
        assert now[0] == was[0] and now[1] == was[1] == new
        assert list(now[1]) == list(was[1])  # file order too
        text, old, grouping = now
        assert grouping.layout == splicing.layout(text)
