"""The exchange's twelfth cut gives what the full path gives (issue 40 item 1): what each
side of a Conflict gets once its outcome is known — the two sides' Effects, B's trimmed,
the notes, the side that counter-attacks — remembered by all it reads
(``conflict._outcome_effects``); an Ally's refusal to spend Luck said without raising
(``damage.ally_refusal``, which the fight's Luck offers ask of every unit); a Crit's
changed units gathered by a plain loop; a rank tiebreak remembered by the two ranks it
reads (``conflict._tiebreak``). Checked against the rule written out over every
value the memo's arguments take, planted placements and whole fights (tests/test_sim.py
and tests/golden pin whole fights and every command's JSON; tests/test_crits.py and
tests/test_qa19.py the light damage flipped to Crits)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from d2d_cli.errors import RuleViolation
from d2d_cli.operations import sim as op
from d2d_cli.rules.assistant import engine, sim
from d2d_cli.rules.assistant import goals as g
from d2d_cli.rules.board import placement, sight
from d2d_cli.rules.combat import conflict, crits, damage, remembered
from d2d_cli.rules.core.options import DEFAULTS
from d2d_cli.rules.deck.cards import Card, full_deck
from d2d_cli.rules.units import sides
from d2d_cli.rules.units.roster import Unit


@pytest.fixture(autouse=True)
def _forgotten() -> Iterator[None]:
    """Each test starts and ends with nothing remembered (another test's planted rule
    never answers here, nor this one's elsewhere)."""
    conflict._outcome_effects.cache_clear()
    yield
    conflict._outcome_effects.cache_clear()


def _written_out(approach_a: str, approach_b: str, outcome: str, evade: str,
                 np_a: bool, np_b: bool, unspent: str | None, b_skill: str | None,
                 range_: int | None, target_action: str
                 ) -> tuple[Any, tuple[str, ...], str | None]:
    """The rule as ``resolve`` wrote it before the cut: each side's effects, B's trimmed,
    and the first side (A, then B) whose effects hold its Counter-attack."""
    effects_b, notes = remembered.trim(
        conflict.effects(approach_b, outcome in ("b", "both"), evade, np_b), unspent,
        remembered.rival_reaches(b_skill, range_), target_action)
    effects_a = conflict.effects(approach_a, outcome in ("a", "both"), evade, np_a)
    striker = None
    for name, got in (("a", effects_a), ("b", effects_b)):
        if any(e.key == "counterattack" for e in got):
            striker = name
            break
    return conflict.Effects(effects_a, effects_b), notes, striker


_GRID = list(itertools.product(
    conflict.approaches(), conflict.approaches(), conflict.OUTCOMES, ("001", "000"),
    (False, True), (False, True), (None, "Goblin spent no Action on Archer's Interact"),
    (None, "Close Combat", "Ranged"), (None, 1, 4), ("001", "000")))


def test_every_outcome_is_the_rule_written_out() -> None:
    """Every approach of each side, every outcome, both Evade and Target-Action
    readings, Non-Player or not, an Action spent or not, a Rival's skill that reaches
    or not at each Range: the answer worked out and the one found again are the rule
    written out."""
    for args in _GRID:
        want = _written_out(*args)
        assert conflict._outcome_effects(*args) == want, args  # worked out
        assert conflict._outcome_effects(*args) == want, args  # found again
    assert conflict._outcome_effects.cache_info().hits == len(_GRID)


def test_each_argument_is_read() -> None:
    """Planted: the same Conflict but for one thing — B's Counter-attack out of reach,
    its Action unspent, B a Non-Player, the Evade reading, the outcome — gives another
    answer, each as the rule says."""
    base = ("fast", "counter", "b", "001", False, False, None, "Close Combat", 1, "001")
    got = conflict._outcome_effects(*base)
    assert got[2] == "b" and got[1] == ()
    far = conflict._outcome_effects(*base[:8], 3, base[9])
    assert far[2] is None and "cannot reach" in far[1][0]
    unspent = conflict._outcome_effects(*base[:6], "B spent no Action", *base[7:])
    assert unspent[2] is None and "No benefit for B" in unspent[1][0]
    evading = ("fast", "evade", "b", "001", False, False, None, None, None, "001")
    assert conflict._outcome_effects(*evading) != conflict._outcome_effects(
        *evading[:3], "000", *evading[4:])
    keeping = ("fast", "block", "b", "001", False, False, None, None, None, "001")
    assert conflict._outcome_effects(*keeping) != conflict._outcome_effects(
        *keeping[:5], True, *keeping[6:])
    assert conflict._outcome_effects(*base[:2], "a", *base[3:]) != got
    for args in (base, evading, keeping):
        assert conflict._outcome_effects(*args) == _written_out(*args)


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_conflict_of_whole_fights_gets_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Conflict of whole fights holds the Effects and notes worked out afresh, and
    counter-attacks on the side the rule names (none when either side is no unit)."""
    real = conflict.resolve
    seen = {"conflicts": 0, "counters": 0, "trimmed": 0}

    def resolving(ask: Any, reveal: Any) -> Any:
        out = real(ask, reveal)
        if not isinstance(out, conflict.Conflict):
            return out
        m, sit = ask.matchup, ask.situation
        want, notes, striker = _written_out(
            out.side_a.approach, out.side_b.approach, out.outcome, ask.evade,
            conflict._non_player(m.a), conflict._non_player(m.b), ask.unspent,
            sit.b.skill, ask.range, ask.target_action)
        assert out.effects == want
        assert out.notes == notes
        units = out.side_a.unit is not None and out.side_b.unit is not None
        assert (out.counter.side if out.counter is not None else None) == (
            striker if units else None)
        seen["conflicts"] += 1
        seen["counters"] += out.counter is not None
        seen["trimmed"] += bool(notes)
        return out

    monkeypatch.setattr(conflict, "resolve", resolving)
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 7, range(8), DEFAULTS, pc)
    assert seen["conflicts"] > 100 and seen["counters"] > 3 and seen["trimmed"] > 3
    assert conflict._outcome_effects.cache_info().hits > 40  # found again, not only made


# --------------------------------------------------------------------------- a Crit's path


def _adjacent_written_out(target: Any, giver: Any) -> str | None:
    """``damage.adjacent_ally``'s test as it was written before the cut (raising), read
    as its refusal's message or None."""
    if giver.name == target.name:
        return None
    mine, theirs = sides.faction_of(target), sides.faction_of(giver)
    if mine is None or mine != theirs:
        return (f"--from {giver.name}: not an Ally of {target.name} (000 l.526 "
                "\"an adjacent Ally may do this instead\")")
    pa, pb = placement.placed(target), placement.placed(giver)
    if pa is not None and pb is not None and min(
            sight.distance(a, b) for a in pa.spaces for b in pb.spaces) > 1:
        return (f"--from {giver.name}: not adjacent to {target.name} on the map "
                "(000 l.533 \"or an adjacent Unit's Player\")")
    return None


def _unit(name: str, **extra: Any) -> Unit:
    _, start, _ = op._start("combat1", {})
    raw = dict(start["units"][name])
    for key, value in extra.items():
        if value is None:
            raw.pop(key, None)
        else:
            raw[key] = value
    return Unit.from_state(name, raw)


@pytest.mark.parametrize("giver", [
    {},  # the Thief where the scene puts it: far off
    {"space": "E8"}, {"space": "F10"}, {"space": "E7"}, {"space": "G9"},  # next to, 2 off
    {"space": "E9"},  # the same Space
    {"space": "E7", "double": True, "facing": "N"},  # its back Space two off
    {"space": "E7", "double": True, "facing": "S"},  # its back Space next to the Archer
    {"space": "G11", "double": True, "facing": "NW"},
    {"space": None},  # off the map: trusted
    {"space": "E8", "faction": "Goblins"}, {"space": "E8", "faction": None},  # no Ally
])
@pytest.mark.parametrize("target", [{}, {"double": True, "facing": "S"}, {"space": None}])
def test_an_allys_refusal_is_the_rule_written_out(giver: dict[str, Any],
                                                  target: dict[str, Any]) -> None:
    """Who may spend for the Archer: the refusal said without raising is the one the
    raising rule gave, on planted Spaces, sizes, Facings and factions; and
    ``adjacent_ally`` raises it, or names the giver."""
    archer, thief = _unit("Archer", **target), _unit("Thief", **giver)
    want = _adjacent_written_out(archer, thief)
    assert damage.ally_refusal(archer, thief) == want
    if want is None:
        assert damage.adjacent_ally(archer, thief) == "Thief, Archer's adjacent Ally"
    else:
        with pytest.raises(RuleViolation) as e:
            damage.adjacent_ally(archer, thief)
        assert e.value.message == want
    assert damage.ally_refusal(archer, archer) is None
    assert damage.adjacent_ally(archer, archer) == "Archer"


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_luck_offer_and_crit_of_whole_fights_is_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each giver a fight weighs for Luck is refused as the raising rule refused it, and
    each Crit on a fight's live units stores the target (and the Ally whose Luck is
    spent) alone, in the roster's order."""
    real_refusal, real_crit = engine.ally_refusal, crits.crit
    seen = {"asked": 0, "refused": 0, "crits": 0}

    def refusal(target: Any, giver: Any) -> str | None:
        got = real_refusal(target, giver)
        assert got == _adjacent_written_out(target, giver)
        seen["asked"] += 1
        seen["refused"] += got is not None
        return got

    def crit(ask: Any, data: Any, *args: Any, roster: Any = None, **kw: Any) -> Any:
        out = real_crit(ask, data, *args, roster=roster, **kw)
        if roster is not None and ask.target is not None:
            changed = {ask.target} | ({ask.luck_from} if ask.luck_from else set())
            assert list(out.changes["units"]) == [n for n in roster if n in changed]
            seen["crits"] += 1
        return out

    monkeypatch.setattr(engine, "ally_refusal", refusal)
    monkeypatch.setattr(crits, "crit", crit)
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 3, range(12), DEFAULTS, pc)
    assert seen["crits"] > 20
    if pc == "best":  # a Players' hands only under --pc best
        assert seen["asked"] > 5 and seen["refused"] > 0


# --------------------------------------------------------------------------- tiebreak


def _tiebreak_written_out(card_a: Card, card_b: Card, level_a: int, level_b: int,
                          rule: str) -> conflict.Tiebreak:
    """``conflict.tiebreak`` as it was written before the cut, reading the cards."""
    royals = conflict.table()["tiebreak"]["royals"]

    def key(card: Card, own: int, rival: int) -> tuple[int, int | str]:
        if card.rank in royals:
            return royals.index(card.rank), card.rank
        assert card.number is not None
        adjusted = card.number + rival if rule == "000" else max(2, card.number - own)
        return len(royals) + adjusted - 2, adjusted

    bonus_a, bonus_b = max(0, level_a - level_b), max(0, level_b - level_a)
    key_a, key_b = key(card_a, bonus_a, bonus_b), key(card_b, bonus_b, bonus_a)
    outcome = "both" if key_a[0] == key_b[0] else "a" if key_a[0] < key_b[0] else "b"

    def side(card: Card, k: tuple[int, int | str], bonus: int) -> conflict.RankSide:
        return conflict.RankSide(card.rank, bonus if card.rank not in royals else 0, k[1])

    return conflict.Tiebreak(side(card_a, key_a, bonus_a), side(card_b, key_b, bonus_b),
                             outcome)


def test_every_tiebreak_is_the_rule_written_out() -> None:
    """Every two cards of the deck a rank tiebreak may compare (each suit and face: the
    one remembered by its ranks is the one any card of them gives), at Levels 0–5, under
    both readings: worked out and found again, as the rule written out gives it."""
    conflict._tiebreak.cache_clear()
    cards = [c.flipped(up) for c in full_deck() if not c.is_wild for up in (True, False)]
    for card_a, card_b in itertools.product(cards, cards[::7]):
        for level_a, level_b, rule in itertools.product(range(6), (0, 2, 5),
                                                        ("001", "000")):
            want = _tiebreak_written_out(card_a, card_b, level_a, level_b, rule)
            assert conflict.tiebreak(card_a, card_b, level_a, level_b, rule) == want
    assert conflict._tiebreak.cache_info().hits > conflict._tiebreak.cache_info().misses


@pytest.mark.parametrize("pc", ["best", "fate"])
def test_every_tiebreak_of_whole_fights_is_the_rule_written_out(
        pc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each tiebreak a fight makes — its Conflicts', its Advantage's pairs', the exact
    odds' walks — is the one the rule written out gives for its cards."""
    real = conflict.tiebreak
    seen = {"asked": 0}

    def tiebreak(card_a: Card, card_b: Card, level_a: int, level_b: int,
                 rule: str = "001") -> conflict.Tiebreak:
        got = real(card_a, card_b, level_a, level_b, rule)
        assert got == _tiebreak_written_out(card_a, card_b, level_a, level_b, rule)
        seen["asked"] += 1
        return got

    monkeypatch.setattr(conflict, "tiebreak", tiebreak)
    _, start, _ = op._start("combat1", {})
    goals = g.parse(start.get("scene", {}).get("goals") or {}, start)
    sim.play_runs(start, goals, 4, range(8), DEFAULTS, pc)
    assert seen["asked"] > 10
