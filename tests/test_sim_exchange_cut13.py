"""The exchange's thirteenth cut gives what the full path gives (issue 40 item 1): a fight's
:class:`~d2d_cli.rules.combat.situation.Assessor` looks up a kept answer in place — in
``__call__`` (an assessment) and in ``remember`` (a Conflict's preparation, a Hits'
Levels, a Crit's first steps) — and calls to make one only when none is kept for the key
with the very Field and ``[rules]``. Checked against the answer worked out afresh over
whole fights (both ``--pc``), and on planted memories: an answer kept with another Field
or another ``[rules]`` is never given (tests/test_sim_exchange_cut9.py checks that a key
computes once with the arguments given; tests/golden and the 300-fight fingerprints pin
whole fights). And a Player's counter card (``conflict.counter_card``) is found by a plain
loop, checked against ``max`` over every hand of two cards, many of three and whole
fights. And ``rules.core.Numbering`` is the dict it numbers in, called as
``dict.__getitem__`` (a key not yet numbered runs ``__missing__``), checked against the
method it was on planted keys and every key whole fights number."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.combat import conflict, situation
from d2d_cli.rules.combat.situation import Assessor, Terms, Who, assess
from d2d_cli.rules.core import Numbering
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import replace
from d2d_cli.rules.deck.cards import Card, full_deck, parse_card
from d2d_cli.rules.units.roster import Unit
from tests.test_sim_exchange_sixth import _fights


@pytest.fixture(autouse=True)
def _forgotten() -> Iterator[None]:
    """Each test starts and ends with the fights' memory empty (no answer planted here is
    found elsewhere)."""
    engine._ASSESSED.clear()
    yield
    engine._ASSESSED.clear()


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_answer_of_whole_fights_is_the_one_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch, pc: str) -> None:
    """Every assessment and every remembered preparation, Levels and Crit a fight's
    Assessor gives — found or made — equals the one worked out afresh from the same
    arguments (``assess``; ``compute(*args)``), and most are found."""
    was_call, was_remember = Assessor.__call__, Assessor.remember
    seen = {"call": 0, "remember": 0}
    found = {"call": 0, "remember": 0}

    def call(self: Assessor, a: Who, b: Who, terms: Terms, **kw: Any) -> Any:
        size = len(self._kept)
        got = was_call(self, a, b, terms, **kw)
        seen["call"] += 1
        found["call"] += len(self._kept) == size and size > 0
        assert got == assess(a, b, terms, **kw)
        return got

    def remember(self: Assessor, a: Unit, b: Unit, rest: tuple[Any, ...], field: Any,
                 opts: Options, compute: Any, *args: Any) -> Any:
        size = len(self._kept)
        got = was_remember(self, a, b, rest, field, opts, compute, *args)
        seen["remember"] += 1
        found["remember"] += len(self._kept) == size and size > 0
        assert got == compute(*args), rest
        return got

    monkeypatch.setattr(Assessor, "__call__", call)
    monkeypatch.setattr(Assessor, "remember", remember)
    _fights(pc, range(12))
    assert seen["call"] > 10 and seen["remember"] > 100
    assert found["remember"] > seen["remember"] // 2


def _two_levels() -> tuple[Who, Who]:
    return Who(None, 3, "--level-a"), Who(None, 1, "--level-b")


def test_an_assessment_kept_with_another_field_or_rules_is_made_again() -> None:
    """Planted: the one answer kept, its Field or its ``[rules]`` swapped for other
    objects under the same key — the look-up in place gives it no more and a fresh
    assessment is made; left as kept, the very answer is found."""
    kept: dict[tuple[Any, ...], Any] = {}
    memo = Assessor(lambda u: 0, kept)
    a, b = _two_levels()
    first = memo(a, b, Terms())
    assert first == assess(a, b, Terms()) and len(kept) == 1
    assert memo(a, b, Terms()) is first  # found: the very answer
    (key, (field, opts, _)), = kept.items()
    planted = first._replace(modifiers=("planted",))
    other = replace(DEFAULTS, conflict_chart="000")
    for entry in ((object(), opts, planted), (field, other, planted)):
        kept[key] = entry
        again = memo(a, b, Terms())
        assert again is not planted and again == first
        assert kept[key][2] is again  # kept in its place, with the Field and [rules] given
    kept[key] = (field, opts, planted)
    assert memo(a, b, Terms()) is planted  # the same Field and [rules]: found as kept


def test_a_remembered_answer_kept_with_another_field_or_rules_is_made_again() -> None:
    """The same for ``remember``: a kept answer whose Field or ``[rules]`` is another
    object under the same key is made again by ``compute``; one kept with the very two is
    found without a call."""
    calls: list[tuple[Any, ...]] = []

    def compute(*args: Any) -> tuple[Any, ...]:
        calls.append(args)
        return ("made", *args)

    kept: dict[tuple[Any, ...], Any] = {}
    memo = Assessor(lambda u: 7, kept)
    a, b = Unit.from_state("A", {"kind": "Mob"}), Unit.from_state("B", {"kind": "Mob"})
    field = object()
    first = memo.remember(a, b, ("x",), field, DEFAULTS, compute, 1)
    assert first == ("made", 1) and len(calls) == 1
    assert memo.remember(a, b, ("x",), field, DEFAULTS, compute, 2) is first
    assert len(calls) == 1
    (key, _), = kept.items()
    other = replace(DEFAULTS, conflict_chart="000")
    for n, entry in enumerate(((object(), DEFAULTS, "planted"),
                               (field, other, "planted")), start=3):
        kept[key] = entry
        assert memo.remember(a, b, ("x",), field, DEFAULTS, compute, n) == ("made", n)
        assert calls[-1] == (n,)
    kept[key] = (field, DEFAULTS, "planted")
    assert memo.remember(a, b, ("x",), field, DEFAULTS, compute, 9) == "planted"
    assert calls[-1] == (4,)


def test_the_memory_is_emptied_past_its_limit_and_refilled() -> None:
    """Past its limit the memory is emptied before the new answer is kept, both ways."""
    kept: dict[tuple[Any, ...], Any] = {}
    memo = Assessor(lambda u: 0, kept, limit=2)
    a, b = _two_levels()
    for level in (1, 2, 3):
        memo(Who(None, level, "--level-a"), b, Terms())
    assert len(kept) == 1  # two kept, then emptied for the third
    assert situation.Assessor is Assessor and memo(a, b, Terms()) == assess(a, b, Terms())


# --------------------------------------------------------------------------- counter card


def _counter_card_written_out(cards: Any) -> Card | None:
    """``conflict.counter_card`` as written before the cut: ``max`` over a generator."""
    best = max((c for c in cards if not c.is_wild), key=conflict.hit_value, default=None)
    return None if best is None else (best if best.upper else best.flipped(True))


def _both_faces() -> list[Card]:
    return [face for c in full_deck() for face in (c.flipped(True), c.flipped(False))]


def test_the_counter_card_of_every_hand_of_two_and_many_of_three_is_the_rule() -> None:
    """Every hand of two cards (either face, Wilds among them) and every third hand of
    three: the card kept, its face and its identity, is the one ``max`` keeps — the first
    of the best value, turned Upper."""
    cards = _both_faces()
    hands = [list(h) for h in itertools.permutations(cards, 2)]
    hands += [list(h) for n, h in enumerate(itertools.combinations(cards, 3)) if n % 3 == 0]
    for hand in [[], *[[c] for c in cards], *hands]:
        want = _counter_card_written_out(hand)
        got = conflict.counter_card(hand)
        assert got == want and got is want, hand


def test_the_first_card_of_the_best_value_is_kept() -> None:
    """Planted: equal values keep the first (a King before a Queen — both royals — and
    the first of two 9s), a Lower card is turned Upper, Wilds alone give none."""
    k, q = parse_card("KS^"), parse_card("QHv")
    assert conflict.counter_card([q, k]) is q.flipped(True)
    assert conflict.counter_card([k, q]) is k
    nine_a, nine_b = parse_card("9Cv"), parse_card("9D^")
    assert conflict.counter_card([parse_card("2S"), nine_a, nine_b]) is nine_a.flipped(True)
    assert conflict.counter_card([parse_card("RW"), parse_card("BW")]) is None
    assert conflict.counter_card(iter([parse_card("RW"), parse_card("3H")])) == \
        parse_card("3H^")


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_counter_card_of_whole_fights_is_the_rule(
        monkeypatch: pytest.MonkeyPatch, pc: str) -> None:
    """Every hand a fight asks a counter card of (``sim._counter_card``): the card is the
    one the rule written out keeps."""
    asked: list[int] = []

    def checked(cards: Any) -> Card | None:
        hand = list(cards)
        got = conflict.counter_card(hand)
        want = _counter_card_written_out(hand)
        assert got == want and got is want, hand
        asked.append(len(hand))
        return got

    monkeypatch.setattr(sim, "counter_card", checked)
    _fights(pc, range(12))
    assert pc == "fate" or (len(asked) > 50 and max(asked) > 1)


# --------------------------------------------------------------------------- Numbering


class _NumberingWrittenOut:
    """``rules.core.Numbering`` as written before the cut: a table of its own, looked up
    by a method."""

    def __init__(self, limit: int) -> None:
        self._numbers: dict[Any, int] = {}
        self._next = itertools.count()
        self._limit = limit

    def __call__(self, key: Any) -> int:
        numbers = self._numbers
        number = numbers.get(key)
        if number is None:
            if len(numbers) >= self._limit:
                numbers.clear()
            number = numbers[key] = next(self._next)
        return number

    def forget(self) -> None:
        self._numbers.clear()


def _same_numbers(keys: list[Any], limit: int) -> None:
    new, old = Numbering(limit), _NumberingWrittenOut(limit)
    for n, key in enumerate(keys):
        if key is _FORGET:
            new.forget()
            old.forget()
            continue
        assert new(key) == old(key), (n, key)


_FORGET = object()


def test_a_numbering_numbers_as_written_out_through_emptying_and_forgetting() -> None:
    """Planted keys — repeats, equal keys not the same object, keys equal across types
    (1, 1.0, True), unhashable contents refused alike — at limits that empty the table
    often and never: the same number for every key, in order, as the method gave."""
    keys: list[Any] = []
    for i in range(60):
        keys += [("Archer", i % 7), ("Archer", i % 7), i % 5, float(i % 5), i % 2 == 1,
                 ("Scout", (i % 3, "4x1")), "text"]
        if i % 17 == 0:
            keys.append(_FORGET)
    for limit in (1, 2, 3, 5, 8, 4096):
        _same_numbers(keys, limit)
    with pytest.raises(TypeError):
        Numbering(3)(["a list"])
    with pytest.raises(TypeError):
        _NumberingWrittenOut(3)(["a list"])


def test_the_numberings_of_whole_fights_number_as_written_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key the fights' three numberings are asked (the engine's bases and readings,
    the policy's fighters), recorded over whole fights of both ``--pc`` and replayed on
    a fresh numbering and the one written out, at their own limit and at one that
    empties the table: the same numbers."""
    from d2d_cli.rules.assistant import policy

    asked: dict[str, list[Any]] = {"_BASES": [], "_READINGS": [], "_NUMBERS": []}
    for module, name in ((engine, "_BASES"), (engine, "_READINGS"), (policy, "_NUMBERS")):
        was = getattr(module, name)

        def recorded(key: Any, was: Numbering = was, keys: list[Any] = asked[name]) -> int:
            keys.append(key)
            return was(key)

        monkeypatch.setattr(module, name, recorded)
    _fights("best", range(6))
    _fights("fate", range(6, 10))
    for name, keys in asked.items():
        assert len(keys) > 100, name
        for limit in (4096, 5):
            _same_numbers(keys, limit)
