"""A pure rules function's answers kept between processes (``session.memo``, issue 40
item 3): the Status Bar's Move and Action Cost of a unit before its first Refresh (001
l.459–463) are worked out once a build, not by every ``status`` and ``unit list`` (each
imported ``fractions`` and ``decimal`` for them). A memo answers only for the very
arguments it was asked with, only for the build that worked them out, and only when it
carries the user's seal."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.scale import maps
from d2d_cli.rules.scale.stats import Stat
from d2d_cli.rules.units import roster as units
from d2d_cli.rules.units import status_bar
from d2d_cli.session import cache

SCOUT = ["unit", "add", "Scout", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
         "--speed", "5x0"]
CAR = ["unit", "add", "Car", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
       "--speed", "8x1"]


def _new_process() -> None:
    """What a new process starts without: the memos it read, the slots it remembers,
    its build (found again now that a command has made the user's key: a process that
    started before there was one has a build of its own, and keeps no memo)."""
    cache._MEMOS.clear()
    cache._RECENT.clear()
    cache.build.cache_clear()
    assert not cache.build().startswith("own-")


def _memo_file() -> Path:
    return cache._memo_path(cache.build(), status_bar.MEMO)


def _rule_refused(*_: object) -> None:
    raise AssertionError("the Move rule was worked out, not read from the memo")


def test_a_lookup_keeps_the_move_and_the_next_process_reads_it(d2d) -> None:
    d2d.ok(*SCOUT)
    d2d.ok(*CAR)
    _new_process()
    first = d2d.json("unit", "list")["units"]
    # Speed 5x0 on the Personal Map: Move 5, Action Cost 2 (001 l.461–463); 8x1 = 80.
    assert [(u["name"], u["move"], u["action_cost"]) for u in first] == [
        ("Scout", 5, 2), ("Car", 80, 40)]
    assert _memo_file().is_file()
    _new_process()
    with pytest.MonkeyPatch.context() as m:  # a new process with the rule out of reach
        m.setattr(maps, "move_tokens", _rule_refused)
        assert d2d.json("unit", "list")["units"] == first
        assert d2d.json("unit", "show", "Car") == first[1]
        rows = {u["name"]: u for u in d2d.json("status")["units"]}
        assert (rows["Car"]["move"], rows["Car"]["action_cost"]) == (80, 40)


def test_a_memo_answers_only_for_the_arguments_it_was_asked_with(d2d) -> None:
    d2d.ok(*CAR)
    _new_process()
    assert d2d.json("unit", "show", "Car")["move"] == 80
    # Another Speed convention (000: "Below 20 kph - Running Speed in m/s"; 8x1 = 80
    # km/h) is another argument: its Move is worked out, not the 001 answer served.
    d2d.ok("rules", "set", "speed_convention", "000")
    _new_process()
    asked: list[tuple[Stat, str]] = []
    real = maps.move_tokens

    def spy(speed: Stat, key: str, opts: Options = DEFAULTS) -> maps.MoveTokens:
        asked.append((speed, key))
        return real(speed, key, opts)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(maps, "move_tokens", spy)
        shown = d2d.json("unit", "show", "Car")
    want = real(Stat(8, 1), "personal", Options(speed_convention="000"))
    assert asked == [(Stat(8, 1), "personal")]
    assert (shown["move"], shown["action_cost"]) == (want.move, want.action_cost)
    # a condition that lowers the Speed (Slow: "A Minor Condition that gives Speed:-1",
    # 000 Glossary) is another Speed: worked out too
    d2d.ok("unit", "condition", "Car", "add", "Slow")
    asked.clear()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(maps, "move_tokens", spy)
        d2d.json("unit", "show", "Car")
    assert asked == [(Stat(7, 1), "personal")]


def test_answers_from_a_memo_equal_the_rule_over_every_argument() -> None:
    # Filled over Speeds 0x-2…10x4, every map and both conventions, then asked again:
    # every answer read from the memo is the rule's for those very arguments (a key
    # missing one of them would serve another's answer).
    known: dict[object, object] = {}
    choices = (DEFAULTS, Options(speed_convention="000"), Options(personal_round_s=2))
    maps_ = [k for k in maps.tables.load("maps")]
    for rounds in range(2):
        for opts in choices:
            for key in maps_:
                for level in range(11):
                    for scale in range(-2, 5):
                        unit = units.Unit(name="U", stats={"speed": Stat(level, scale)})
                        got = status_bar.on_the_bar(unit, key, opts, known)
                        want = maps.move_tokens(Stat(level, scale), key, opts)
                        assert got == (want.move, want.action_cost), (opts, key, level)
        if rounds == 0:
            filled = len(known)
            assert filled == len(choices) * len(maps_) * 11 * 7
    assert len(known) == filled  # the second round asked the memo only


def test_a_memo_without_the_users_seal_or_of_another_build_is_not_read(d2d) -> None:
    d2d.ok(*CAR)
    _new_process()
    d2d.json("unit", "show", "Car")  # keeps the answer: Move 80
    path = _memo_file()
    raw = path.read_bytes()
    n = len(cache._MEMO_MAGIC)
    answers = marshal.loads(raw[n + 32:])
    (ask,) = answers
    body = marshal.dumps({ask: (999, 999)})
    key = path.parent.joinpath("key").read_bytes()
    # sealed by someone without the key (an unkeyed digest): not read
    path.write_bytes(cache._MEMO_MAGIC + b"0" * 32 + body)
    _new_process()
    assert d2d.json("unit", "show", "Car")["move"] == 80
    # sealed with the key, under another build's name: this build never reads it
    other = path.with_name(path.name.replace(cache.build(), "another-build"))
    other.write_bytes(cache._MEMO_MAGIC + cache._mac(key, body) + body)
    path.unlink()
    _new_process()
    assert d2d.json("unit", "show", "Car")["move"] == 80
    # and the same, sealed and named for this build, is what a memo is: read as it is
    # (the proof that the two above were refused by their seal and their build)
    path.write_bytes(cache._MEMO_MAGIC + cache._mac(key, body) + body)
    _new_process()
    assert d2d.json("unit", "show", "Car")["move"] == 999


def test_every_module_that_keeps_a_memo_is_a_reader_of_the_build() -> None:
    # The build is the digest of the readers' code: a memo's module outside them could
    # be edited and its old answers served.
    for name in cache.MEMO_MODULES:
        rel = cache._found(cache._root(), name.removeprefix("d2d_cli."))
        assert rel is not None and rel in cache.readers(), name
    # what the Move rule itself lives in is read too (the memo's module imports it)
    assert "rules/scale/maps.py" in cache.readers()
    with pytest.raises(ValueError, match="keeps no memo"):
        cache.memo("d2d_cli.rules.combat.conflict")


def test_a_memo_is_bounded_and_goes_with_the_last_cache(d2d, data_dir: Path) -> None:
    d2d.ok(*CAR)
    _new_process()
    d2d.json("unit", "show", "Car")
    answers = cache.memo(status_bar.MEMO)
    for i in range(cache.MEMO_KEEP):
        answers[("filler", i)] = (i, i)
    cache.keep_memo(status_bar.MEMO)
    _new_process()
    assert dict(cache.memo(status_bar.MEMO)) == {}  # over the bound: it starts again
    path = _memo_file()
    assert path.is_file()
    # over the file's bound too (a long [rules] locations_file in every key, say)
    answers = cache.memo(status_bar.MEMO)
    answers[("x" * cache.MEMO_LIMIT,)] = (1, 1)
    cache.keep_memo(status_bar.MEMO)
    _new_process()
    assert dict(cache.memo(status_bar.MEMO)) == {}
    assert path.stat().st_size < 100
    cache.forget(data_dir / "default.toml")  # the tour's throwaway session leaves
    assert not list(path.parent.glob("memo-*"))


def test_a_status_whose_units_hold_their_tokens_reads_no_memo(d2d) -> None:
    d2d.ok(*CAR)
    d2d.ok("round", "start")  # the Refresh places every unit's tokens (001 l.459)
    _new_process()

    def unread(name: str) -> dict[object, object]:
        raise AssertionError(f"the memo {name} was read")

    with pytest.MonkeyPatch.context() as m:
        m.setattr(cache, "_answers", unread)
        rows = {u["name"]: u for u in d2d.json("status")["units"]}
        assert rows["Car"]["move"] == 80
        assert d2d.json("unit", "list")["units"][0]["move"] == 80
        assert d2d.json("unit", "show", "Car")["move"] == 80
