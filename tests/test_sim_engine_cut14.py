"""The engine's fourteenth cut (issue 40 item 1): a simulated fight looks its session's
sections and its units' fields up by the interned texts the code names them with —
``sim._keyed`` gives the unpickled session its sections' names interned, and
``Unit.from_state`` interns its ``extra``'s keys, which every store writes into the
unit's new table. Nothing else may change: the same keys, values and order, and the
same fight. Checked here: the keys are the interned texts (each half of the cut undone
fails it), the tables are what they were, and whole fights played with the cut undone
(plain unpickling, no interning) give the same log, outcome and session."""

from __future__ import annotations

import copy
import pickle
import sys
from typing import Any

import pytest

from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.units import roster
from d2d_cli.rules.units.roster import Unit


def _combat1() -> tuple[dict[str, Any], dict[str, g.Goal]]:
    from d2d_cli import tables
    from d2d_cli.rules.overview import scene

    start = dict(scene.load(copy.deepcopy(tables.load("scenes/combat1")), {})[0])
    return start, g.parse(start["scene"]["goals"], start)


def _new_text(text: str) -> str:
    """An equal text that is not the interned object (as unpickling makes one)."""
    got: str = pickle.loads(pickle.dumps(text, -1))
    assert got == text and got is not sys.intern(text)
    return got


def _interned(keys: Any) -> bool:
    return all(k is sys.intern(k) for k in keys)


def test_keyed_session_same_data_interned_names() -> None:
    start, _ = _combat1()
    loaded = pickle.loads(pickle.dumps(start, -1))
    assert not _interned(loaded)  # what the cut is for: unpickled names are new texts
    got = sim._keyed(loaded)
    assert got == start and list(got) == list(start)
    for k, v in loaded.items():
        assert got[k] is v  # the very sections, only their names interned
    assert _interned(got)


def test_from_state_interns_extra_keys_same_table() -> None:
    start, _ = _combat1()
    for name, raw in pickle.loads(pickle.dumps(start, -1))["units"].items():
        unit = Unit.from_state(name, raw)
        assert _interned(unit.extra)
        assert unit.extra == {k: v for k, v in raw.items() if k not in roster._KNOWN}
        assert list(unit.extra) == [k for k in raw if k not in roster._KNOWN]
        out = unit.to_state()
        assert out == raw and list(out) == list(raw) and _interned(out)
    # a planted table: new texts for keys, and a key that is not a text kept as it is
    raw = {"kind": "unit", "body": "8x1", _new_text("space"): "C7", 3: "x",
           _new_text("notes"): ["a"]}
    unit = Unit.from_state("U", raw)
    assert list(unit.extra) == ["space", 3, "notes"] and unit.extra[3] == "x"
    assert all(k is sys.intern(k) for k in unit.extra if isinstance(k, str))


def _play(seed: int, plain: bool, monkeypatch: pytest.MonkeyPatch,
          start: dict[str, Any], goals: dict[str, g.Goal]) -> Any:
    """One fight with a log (the cut on, or undone: plain unpickling and
    ``Unit.from_state`` without interning)."""
    with monkeypatch.context() as m:
        if plain:
            m.setattr(sim, "_keyed", lambda data: data)
            made = Unit.from_state.__func__  # type: ignore[attr-defined]

            def from_state(cls: type[Unit], name: str, state: dict[str, Any]) -> Unit:
                unit = made(cls, name, state)
                unit.extra = {_new_text(k) if isinstance(k, str) else k: v
                              for k, v in unit.extra.items()}
                return unit

            m.setattr(Unit, "from_state", classmethod(from_state))
        out, t = sim._fight(pickle.dumps(start, -1), goals, sim.run_seed(2, seed),
                            DEFAULTS, True, "best")
        return out, t.lines, pickle.dumps(t.data, -1), t.data


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 7, 11])
def test_whole_fights_same_with_cut_undone(seed: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    start, goals = _combat1()
    engine.forget_tables()
    cut = _play(seed, False, monkeypatch, start, goals)
    plain = _play(seed, True, monkeypatch, start, goals)
    assert cut[0] == plain[0]  # the outcome
    assert cut[1] == plain[1]  # every command, card for card
    assert cut[3] == plain[3] and list(cut[3]) == list(plain[3])
    for n, u in plain[3]["units"].items():
        assert list(cut[3]["units"][n]) == list(u), n
    # the cut's session: every section's name and every unit table's key interned
    data = cut[3]
    assert _interned(data)
    for u in data["units"].values():
        assert _interned(k for k in u if isinstance(k, str)), u
    # the cut undone: some unit table keeps a key that is a new text
    assert not all(_interned(k for k in u if isinstance(k, str))
                   for u in plain[3]["units"].values())


def test_fights_without_log_same_outcomes(monkeypatch: pytest.MonkeyPatch) -> None:
    start, goals = _combat1()
    with monkeypatch.context() as m:
        m.setattr(sim, "_keyed", lambda data: data)
        plain = sim.play_runs(start, goals, 2, range(20), DEFAULTS, "best")
    cut = sim.play_runs(start, goals, 2, range(20), DEFAULTS, "best")
    assert cut == plain
