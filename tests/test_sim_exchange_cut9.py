"""The exchange's ninth cut gives what the full path gives (issue 40 item 1): a
Conflict's ``sources`` and a Hits' ``sources`` merge a remembered assessment's
read-only view of what else it said through the view's copy (the dict under it, merged
as a dict) and merge nothing when it said nothing; an Options keeps its hash, the one
its fields give, and is pickled without it; a Conflict is made with all its fields by
position (tests/test_sim_exchange_cut8.py checks each field of whole fights' Conflicts
against what it is made of; tests/test_sim.py and tests/golden pin whole fights and
every command's JSON byte for byte)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

import pytest

from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.assistant import sim
from d2d_cli.rules.combat import conflict, hits
from d2d_cli.rules.combat.situation import Situation, sources
from d2d_cli.rules.core.options import DEFAULTS

_KEYS = {"a": "level_a", "b": "level_b"}


def _fights(pc: str, runs: range) -> None:
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 5, runs, DEFAULTS, pc)


def _sources_written_out(sit: Situation, keys: Mapping[str, str]) -> list[tuple[str, str]]:
    """The rule as written before the cut: the two Levels' sources, then every other
    source the assessment names, in its order."""
    out = {keys["a"]: sit.a.source, keys["b"]: sit.b.source}
    for k in list(sit.extra_sources):
        out[k] = sit.extra_sources[k]
    return list(out.items())


def _hits_sources_written_out(ask: hits.HitAsk) -> list[tuple[str, str]]:
    sit = ask.situation
    assert sit is not None
    out = {"level": sit.a.source, "rival_level": sit.b.source,
           "difficulty": ask.difficulty_source}
    for k in list(sit.extra_sources):
        out[k] = sit.extra_sources[k]
    for k, v in ask.said:
        out[k] = v
    return list(out.items())


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_conflicts_and_hits_sources_of_whole_fights_as_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole Combat #1 fights (both ``--pc``), each Conflict's and each Hits'
    ``sources`` hold, in order, what the rule written out gives — the remembered
    assessments' read-only views among them, with sources and without — each a dict of
    its own, the assessment's untouched."""
    real_resolve, real_count = conflict.resolve, hits.HitAsk.count
    seen = {"proxy": 0, "empty": 0, "hits": 0}

    def resolving(ask: conflict.ConflictAsk, reveal: Any) -> Any:
        sit = ask.situation
        before = dict(sit.extra_sources)
        out = real_resolve(ask, reveal)
        if isinstance(out, conflict.Conflict):
            assert list(out.sources.items()) == _sources_written_out(sit, _KEYS)
            assert out.sources is not sit.extra_sources
            out.sources["planted"] = "x"  # a dict of its own: the assessment's unchanged
            assert dict(sit.extra_sources) == before
            del out.sources["planted"]
            seen["proxy"] += type(sit.extra_sources) is MappingProxyType
            seen["empty"] += not sit.extra_sources
        return out

    def counting(self: hits.HitAsk, reveal: Any) -> hits.Hits:
        out = real_count(self, reveal)
        if self.situation is not None:
            assert list(out.sources.items()) == _hits_sources_written_out(self)
            seen["hits"] += 1
        return out

    monkeypatch.setattr(conflict, "resolve", resolving)
    monkeypatch.setattr(hits.HitAsk, "count", counting)
    _fights(pc, range(6))
    assert seen["proxy"] > 50 and seen["empty"] > 10 and seen["hits"] > 20


class _Plain(Mapping[str, str]):
    """A mapping neither a dict nor a read-only view of one."""

    def __init__(self, items: dict[str, str]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> str:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def _situation(extra: Mapping[str, str]) -> Situation:
    sit: Situation = conflict.ask(["Fast", "Strong"], {}).situation
    return sit._replace(extra_sources=extra)


@pytest.mark.parametrize("kind", [dict, MappingProxyType, _Plain])
def test_sources_merge_every_kind_of_mapping_in_its_order(kind: Any) -> None:
    """A dict, a read-only view and any other mapping of what else was said are merged
    after the Levels' sources, in their order, a key of the Levels' given again by
    them taking its place as a dict's update does; an empty one adds nothing."""
    items = {"weapon": "w", "level_a": "again", "target_action": "t", "cover": "c"}
    sit = _situation(kind(dict(items)))
    got = sources(sit, _KEYS)
    assert list(got.items()) == _sources_written_out(sit, _KEYS)
    assert list(got) == ["level_a", "level_b", "weapon", "target_action", "cover"]
    assert got["level_a"] == "again"
    empty = _situation(kind({}))
    assert list(sources(empty, _KEYS).items()) == [("level_a", empty.a.source),
                                                   ("level_b", empty.b.source)]


def test_a_hits_sources_merge_a_read_only_view_and_a_dict_alike() -> None:
    """A Hits' sources: the Levels', the Difficulty's, then the assessment's others
    (a read-only view or a dict: the same), then what was said, in order."""
    base = hits.ask([conflict.parse_card("7S^")], level=2, rival_level=1,
                    difficulty=2)
    sit = _situation({})
    for kind in (dict, MappingProxyType, _Plain):
        planted = sit._replace(extra_sources=kind({"weapon": "w", "cover": "c"}))
        ask = hits.HitAsk(base.cards, 2, 1, 2, False, "played", False, None, planted,
                          "typed", said=(("exchange", "e"), ("cover", "said")))
        got = ask.count(None)
        assert list(got.sources.items()) == _hits_sources_written_out(ask)
        assert list(got.sources) == ["level", "rival_level", "difficulty", "weapon",
                                     "cover", "exchange"]
        assert got.sources["cover"] == "said"


# --------------------------------------------------------------------------- Options


def _fields_hash(opts: Any) -> int:
    """The hash a record has: its fields' values, in order, as one tuple."""
    from d2d_cli.rules.core.record import fields

    return hash(tuple(getattr(opts, f.name) for f in fields(opts)))


def test_an_options_hash_is_its_fields_hash_however_it_is_made() -> None:
    """An Options' kept hash is the one its fields give, for the defaults, a parsed
    ``[rules]`` table, a ``replace`` copy and one read back from a pickle; Options
    equal hash equal, and one field changed changes it."""
    import pickle

    from d2d_cli.rules.core.options import DEFAULTS, parse
    from d2d_cli.rules.core.record import replace

    parsed = parse({"evade": "000", "counter": "000"})
    copied = replace(DEFAULTS, evade="000", counter="000")
    for opts in (DEFAULTS, parsed, copied, pickle.loads(pickle.dumps(parsed))):
        assert hash(opts) == _fields_hash(opts) and hash(opts) == hash(opts)
    assert parsed == copied and hash(parsed) == hash(copied)
    assert hash(replace(parsed, narrator_hand=True)) == _fields_hash(
        replace(parsed, narrator_hand=True)) != hash(parsed)


def test_an_options_is_pickled_without_its_kept_hash() -> None:
    """A hash belongs to its process (strings hash by the process's seed): an Options
    whose hash was read, pickled, and read back in a process of another hash seed
    hashes there as its fields do there."""
    import os
    import pickle
    import subprocess
    import sys

    from d2d_cli.rules.core.options import parse

    made = parse({"evade": "000"})
    hash(made)  # kept on it
    assert "_hash" not in made.__getstate__()
    code = ("import pickle, sys\n"
            "from d2d_cli.rules.core.record import fields\n"
            "o = pickle.loads(sys.stdin.buffer.read())\n"
            "print(hash(o) == hash(tuple(getattr(o, f.name) for f in fields(o))))\n")
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(made),
                             capture_output=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        assert out.stdout.strip() == b"True"


def test_every_options_hash_of_whole_fights_is_its_fields_hash(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Options a fight's memories hash gives the hash its fields give."""
    from d2d_cli.rules.core import options

    n = {"hashed": 0}
    real = options.Options.__hash__

    def checked(self: options.Options) -> int:
        got = real(self)
        assert got == _fields_hash(self)
        n["hashed"] += 1
        return got

    monkeypatch.setattr(options.Options, "__hash__", checked)
    _fights("best", range(3))
    assert n["hashed"] > 20


# --------------------------------------------------------------------------- remember


def test_the_assessor_computes_with_the_arguments_given_once_a_key() -> None:
    """``Assessor.remember`` calls ``compute`` with exactly the arguments given apart (no
    ``partial`` bound at each call), once a key; another ``rest``, another unit reading,
    another Field object or ``[rules]`` computes afresh; one that raises is not kept."""
    from d2d_cli.rules.combat.situation import Assessor
    from d2d_cli.rules.units.roster import Unit

    calls: list[tuple[Any, ...]] = []

    def compute(*args: Any) -> tuple[Any, ...]:
        calls.append(args)
        return ("made", *args)

    readings = {"A": 1, "B": 2}
    memo = Assessor(lambda u: readings[u.name], {})
    a, b = Unit.from_state("A", {"kind": "Mob"}), Unit.from_state("B", {"kind": "Mob"})
    field_a, field_b = object(), object()
    got = memo.remember(a, b, ("x", 1), field_a, DEFAULTS, compute, 1, "two", None)
    assert got == ("made", 1, "two", None) and calls == [(1, "two", None)]
    again = memo.remember(a, b, ("x", 1), field_a, DEFAULTS, compute, 9, 9, 9)
    assert again is got and len(calls) == 1  # found: not computed
    memo.remember(a, b, ("x", 2), field_a, DEFAULTS, compute, 3)
    memo.remember(a, b, ("x", 1), field_b, DEFAULTS, compute, 4)
    readings["B"] = 5
    memo.remember(a, b, ("x", 1), field_a, DEFAULTS, compute, 5)
    assert calls[1:] == [(3,), (4,), (5,)]

    def refused(n: int) -> None:
        calls.append((n,))
        raise ValueError(n)

    for _ in range(2):
        with pytest.raises(ValueError):
            memo.remember(a, b, ("y",), None, DEFAULTS, refused, 7)
    assert calls[-2:] == [(7,), (7,)]
