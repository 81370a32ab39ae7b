"""Writing the session: only changed tables are re-rendered; everything else, comments
included, stays byte for byte; whatever is written parses back to exactly the data."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d2d_cli import session
from d2d_cli.rules.deck.cards import full_deck
from d2d_cli.session import text as T

DECK = ", ".join(f'"{c.code}"' for c in full_deck())
BASE = """schema = 1
# a note at the top

[meta]
seed = 1
rng = 0

[fate]
draw = [DECK]  # the Narrator's inline note
discard = []

# about the goblins
[units."Goblin 1"]
kind = "unit"
body = "2x1"  # light

[units."Goblin 1".conditions]
fatigue = 1

[units.Archer]
kind = "character"
body = "8x1"
""".replace("DECK", DECK)


def write(tmp_path: Path, text: str, changes: dict) -> str:
    path = tmp_path / "s.toml"
    path.write_text(text)
    with session.edit(path, "test") as tx:
        for key, value in changes.items():
            tx.put(key, value)
    return path.read_text()


def test_only_the_changed_unit_is_rewritten(tmp_path: Path) -> None:
    data = tomllib.loads(BASE)
    units = data["units"]
    units["Archer"] = {"kind": "character", "body": "8x1", "conditions": {"stun": 2}}
    out = write(tmp_path, BASE, {"units": units})
    assert out == BASE.replace('body = "8x1"\n',
                               'body = "8x1"\n\n[units.Archer.conditions]\nstun = 2\n')


def test_adding_and_removing_units(tmp_path: Path) -> None:
    # every unit has a Body (session/shape.py)
    units = {"Archer": {"kind": "character", "body": "8x1"},
             "Scout": {"kind": "unit", "body": "2x1", "speed": "5x0"}}
    out = write(tmp_path, BASE, {"units": units})
    assert "Goblin 1" not in out
    assert "# a note at the top" in out and "# the Narrator's inline note" in out
    assert out.endswith('[units.Scout]\nkind = "unit"\nbody = "2x1"\nspeed = "5x0"\n')
    assert tomllib.loads(out)["units"] == units


def test_a_new_section_is_appended(tmp_path: Path) -> None:
    knot = {"difficulty": 4, "challenge": 4, "progress": 4}
    out = write(tmp_path, BASE, {"tasks": {"knot": knot}})
    assert out.startswith(BASE)
    assert tomllib.loads(out)["tasks"] == {"knot": knot}


def test_a_header_lookalike_inside_a_string_falls_back_safely(tmp_path: Path) -> None:
    tricky = BASE + '\n[notes]\ntext = """\n[fate]\ndraw = 3\n"""\n'
    data = tomllib.loads(tricky)
    deck = [c.code for c in full_deck()]
    out = write(tmp_path, tricky, {"fate": {"draw": deck[1:], "discard": deck[:1]}})
    expected = {**data, "fate": {"draw": deck[1:], "discard": deck[:1]}}
    assert tomllib.loads(out) == expected


_scalar = st.one_of(st.integers(-5, 5), st.text("ab #[]\"'\n", max_size=6), st.booleans())
_table = st.dictionaries(st.sampled_from(["a", "b c", "d.e", "Fé"]),
                         st.one_of(_scalar, st.lists(_scalar, max_size=3)), max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["units", "tasks", "fate", "meta", "new"]),
                       st.dictionaries(st.sampled_from(["Goblin 1", "Archer", "x", "y z"]),
                                       st.one_of(_table, _scalar), max_size=3),
                       max_size=3))
def test_whatever_is_written_parses_back_to_the_data(changes) -> None:
    # The writer alone (session.edit also checks the declared shape, which arbitrary
    # data would not fit): fast path or fallback, the text reads back as the data, and
    # the data it reports is what a full parse gives, in the same order.
    old = tomllib.loads(BASE)
    new = {**old, **changes}
    out, data, _ = T.render(BASE, old, new, set(changes), None)
    assert tomllib.loads(out) == data == new
    assert json.dumps(data) == json.dumps(tomllib.loads(out))  # the same order, too


def test_the_fast_path_handles_units_spread_over_several_tables() -> None:
    # A unit with sub-tables and an array of tables is several chunks of text; all of
    # them are re-rendered together, and adding a unit needs no whole-file re-render.
    text = BASE + '\n[[units.Archer.crits]]\nlocation = "arm"\n'
    old = tomllib.loads(text)
    units = {**old["units"]}
    units["Goblin 1"] = {"kind": "unit", "body": "2x1", "conditions": {"fatigue": 2},
                         "crits": [{"location": "head"}]}
    units["Archer"] = {"kind": "character", "crits": [{"location": "arm"}, {"location": "leg"}]}
    units["Scout"] = {"kind": "unit"}
    grouped = T.groups(text)
    assert grouped is not None and grouped[0] == old
    spliced = T.splice(text, old, {**old, "units": units}, {"units"}, grouped[1])
    assert spliced is not None
    out, data, grouping = spliced
    assert grouping.layout == T.layout(out)
    assert tomllib.loads(out) == data == {**old, "units": units}
    assert list(data["units"]) == list(tomllib.loads(out)["units"])  # file order
    assert "# the Narrator's inline note" in out and "# about the goblins" in out


def test_a_table_without_comments_is_written_without_tomlkit(tmp_path: Path,
                                                             monkeypatch) -> None:
    """tomlkit's time grows with the square of a table's keys (a unit with 10,000
    skills took 77 s); a group with no comment to keep is written by d2d's own linear
    emitter, and tomlkit only merges into groups that have comments."""
    import tomlkit

    path = tmp_path / "s.toml"
    path.write_text(BASE)
    with session.edit(path, "prime") as tx:  # the grouping is verified on a first write
        tx.put("tasks", {"knot": {"difficulty": 4, "challenge": 4, "progress": 4}})

    def no_tomlkit(*_a: object, **_k: object) -> None:
        raise AssertionError("tomlkit used for a table without comments")

    monkeypatch.setattr(tomlkit, "parse", no_tomlkit)
    monkeypatch.setattr(tomlkit, "dumps", no_tomlkit)
    skills = {f"Skill {i}": 1 for i in range(5000)}
    with session.edit(path, "many skills") as tx:
        units = tx.data["units"]
        units["Archer"] = {**units["Archer"], "skills": skills}
        tx.put("units", units)
    assert tomllib.loads(path.read_text())["units"]["Archer"]["skills"] == skills
    assert "# the Narrator's inline note" in path.read_text()


def test_a_new_sessions_text_is_laid_out_as_tomlkit_lays_it_out(tmp_path) -> None:
    """session new writes its file without importing tomlkit (~5 ms): the same bytes."""
    from d2d_cli.session import fresh

    data = fresh._fresh(tmp_path / "s.toml", seed=7).data
    assert fresh._fresh_text(data) == fresh._fresh_tomlkit(data)


def _roster(n: int) -> dict[str, dict[str, object]]:
    return {f"Goblin {i}": {"kind": "unit", "body": "2x1", "move": i % 7,
                            "conditions": {"fatigue": i % 3 + 1},
                            "skills": {"Stealth": 1}} for i in range(n)}


def test_a_write_cuts_only_the_chunks_it_changes(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26 item 4: after the first write (which verifies the file's grouping once),
    a write on a 300-unit session cuts only the text it re-renders — never the whole
    file — and the layout it leaves in the cache is the new file's own."""
    from d2d_cli.session import cache

    path = tmp_path / "big.toml"
    session.create(path, seed=3)
    with session.edit(path, "setup") as tx:
        tx.put("units", _roster(300))
    cut: list[int] = []
    real_split = T.split
    monkeypatch.setattr(T, "split", lambda text: cut.append(len(text)) or real_split(text))
    for n in range(4):
        with session.edit(path, f"change {n}") as tx:
            units = tx.data["units"]
            units[f"Goblin {n * 50}"]["conditions"]["fatigue"] = 5
            units[f"Goblin {n * 50 + 7}"]["move"] = 9
            if n == 2:
                del units["Goblin 3"]  # a unit removed: its chunks dropped
            tx.put("units", units)
        text = path.read_text(encoding="utf-8")
        assert cut and max(cut) < len(text) // 50, (max(cut), len(text))
        cut.clear()
        slots = cache._cache_read(path.resolve())
        grouping = cache.unpack(slots[0][2])
        assert grouping is not None and grouping.layout == T._layout(real_split(text))
        assert tomllib.loads(text)["units"] == units
