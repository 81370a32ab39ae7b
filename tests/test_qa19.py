"""Issue 19 checked from the shell (qa19): refusals a Narrator met that were missing or
named an option the command does not have. Each refusal exits 2 and changes nothing."""

from __future__ import annotations

import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from tests.helpers import Runner, assert_refused


@pytest.fixture
def table(d2d: Runner) -> Runner:
    d2d.ok("unit", "add", "Archer", "--body", "8x1", "--mind", "5x1", "--will", "5x1",
           "--speed", "4x0", "--skill", "Ranged=1")
    d2d.ok("unit", "add", "Goblin", "--body", "2x1", "--mind", "2x1", "--will", "2x1",
           "--speed", "5x0", "--skill", "Close Combat=1", "--skill", "Stealth=1")
    d2d.ok("round", "start")
    return d2d


def test_odds_hits_without_vs_names_its_own_options(table: Runner, data_dir: Path) -> None:
    # odds hits has no --difficulty: the refusal names --vs only (hit's names both).
    for args in (["odds", "hits", "1"], ["odds", "hits", "1", "--by", "Archer"]):
        res = assert_refused(table, data_dir, args, "Missing option '--vs'")
        assert "--difficulty" not in res.stderr
        assert "not ''" not in res.stderr


def test_a_unit_is_not_its_own_rival(table: Runner, data_dir: Path) -> None:
    # 001 l.789 "Play a Conflict facedown from hand with chosen Approach facing Rival";
    # 001 l.816 "Level - Your Level - Rival Level": the two sides are two units.
    both = "Archer is on both sides"
    for args in (["conflict", "Archer:7S^", "archer:5C^"],
                 ["odds", "conflict", "Archer:fast", "Archer:strong"]):
        assert_refused(table, data_dir, args, both)
    for args in (["hit", "7S", "--by", "Archer", "--vs", "archer"],
                 ["odds", "hits", "1", "--by", "Archer", "--vs", "Archer"]):
        assert_refused(table, data_dir, args, "--by and --vs both name Archer")
    err = table.json("conflict", "Archer:7S^", "Archer:5C^", code=2)["error"]
    assert err["kind"] == "bad_input" and both in err["message"]


def test_detect_reads_the_range_said_or_the_map_never_0(table: Runner,
                                                         data_dir: Path) -> None:
    # 001 l.593 "THEN [Mind] vs [Body]-[Range] to detect": without --range d2d read
    # Range 0 silently. Now: the Range said this round, else the map's, else refused.
    table.ok("unit", "stealth", "Goblin", "hide", "1")
    assert_refused(table, data_dir, ["unit", "act", "Archer", "detect", "Goblin"],
                   "Detect Goblin at what Range? Give --range N")
    table.ok("unit", "situation", "Archer", "--range", "3", "--vs", "Goblin")
    r = table.json("unit", "act", "Archer", "detect", "Goblin")["detect"]
    assert (r["range"], r["difficulty"]) == (3, 5)  # Body 2 + Range 3 (docs/errata.md)


def test_detect_on_the_map_counts_the_spaces(d2d: Runner, tmp_path: Path) -> None:
    # 001 l.681 "Count Spaces to the Target": on Combat #1's map (scene load combat1)
    # the Thief and the Scout stand 2 Spaces apart.
    d2d.ok("--seed", "1", "scene", "load", "combat1")
    d2d.ok("round", "start")
    d2d.ok("unit", "stealth", "Goblin Scout", "hide", "1")
    # Detect needs the Scout in the Thief's Arc:Front (001 l.591, issue 27): facing SW
    d2d.ok("unit", "place", "Thief", "K1", "SW")
    r = d2d.json("unit", "act", "Thief", "detect", "Goblin Scout")["detect"]
    assert r["range"] == 2


def test_odds_crit_reads_the_wielder_as_crit_does(table: Runner, data_dir: Path) -> None:
    # 001 l.603–605 "Grit your Teeth - Stress:+1 / Ignore all penalties this Round":
    # the Archer's Fatigue lowers the Body of "Body+2" in crit --by; Grit gives it back.
    # odds crit --by reads the same stat, so the effect that changes the roll changes
    # its odds (issue 19, "What it must show").
    table.ok("unit", "act", "Archer", "push")  # Fatigue +1: Body 7x1
    args = ["--weapon", "Body+2", "--hits", "1", "--target", "Goblin"]
    assert table.json("odds", "crit", *args, "--by", "Archer")["power"] == "9x1"
    assert table.json("odds", "crit", *args, "--stat", "7x1")["power"] == "9x1"
    table.ok("unit", "act", "Archer", "grit")
    assert table.json("odds", "crit", *args, "--by", "Archer")["power"] == "10x1"
    crit = table.json("--seed", "1", "crit", *args, "--by", "Archer")
    assert crit["sources"]["power"] == "Body+2 with Archer's Body 8x1"
    assert_refused(table, data_dir, ["odds", "crit", "--power", "6x1", "--by", "Archer"],
                   "--by reads the stat of a --weapon formula")


def test_a_hand_written_shield_must_cover_a_location(table: Runner, data_dir: Path) -> None:
    # 000 l.530 "Shield - IF you have a Shield and it Shield covers that location THEN
    # reduce by the Armor value": a gear shield whose shield_covers is missing or names
    # no location of the chart stopped nothing, silently. Now it is refused.
    from tests.test_damage_modifiers import gear

    crit = ["crit", "--power", "1x0", "--types", "pierce", "--hits", "2", "--target",
            "Goblin"]
    gear(data_dir, "Goblin", shield=1, shield_covers=["bogus"])
    assert_refused(table, data_dir, crit, "shield_covers: bogus — a Shield covers some of")
    assert_refused(table, data_dir, ["odds", *crit], "shield_covers: bogus")
    gear(data_dir, "Goblin", shield=1)
    assert_refused(table, data_dir, crit, "shield_covers: no location")
    gear(data_dir, "Goblin", shield=1, shield_covers=["torso"])
    rows = table.json("odds", *crit)["locations"]
    assert {r["location"]: r["hits"] for r in rows}["torso"] == 1


def test_interrupt_yourself_names_the_argument_typed(table: Runner, data_dir: Path) -> None:
    # `unit interrupt NAME TARGET` has no --vs: the refusal names TARGET, as typed.
    res = assert_refused(table, data_dir, ["unit", "interrupt", "Archer", "archer"],
                         "TARGET archer: name another unit than Archer")
    assert "--vs" not in res.stderr
    assert_refused(table, data_dir, ["unit", "situation", "Archer", "--vs", "Archer",
                                     "--range", "2"], "--vs Archer: name another unit")


def test_push_the_limit_000_says_what_it_gives(d2d: Runner, tmp_path: Path) -> None:
    # 000 l.254 "Push the Limit - Fatigue:+1 to gain Initiative:+1 and Normal Damage:+1
    # this Turn": under [rules] push_the_limit = "000" the act and the Status Bar said
    # 001's "Skill:+1 this Round" while conflict and hit applied 000's.
    from tests.helpers import with_rules

    s = ("--session", with_rules(d2d, tmp_path, push_the_limit="000"))
    d2d.ok(*s, "unit", "add", "Archer", "--body", "8x1", "--mind", "5x1", "--will", "5x1",
           "--speed", "4x0", "--skill", "Ranged=1")
    d2d.ok(*s, "round", "start")
    r = d2d.json(*s, "unit", "act", "Archer", "push")
    assert r["boosts"] == ["Push the Limit: Initiative:+1 and Hits:+1 this Round"]
    assert r["source"].startswith("000 l.254")
    assert d2d.json(*s, "status")["units"][0]["boosts"] == [
        "Push the Limit: Initiative:+1 and Hits:+1 this Round"]


def test_the_special_actions_act_does_not_take_say_where_they_are(table: Runner,
                                                                   data_dir: Path) -> None:
    # 001 l.585 "Ability - Put the Ability in Cooldown", l.611 "Heroic Feat - Character
    # Point:-1": Special Actions another command takes; unit act names that command.
    assert_refused(table, data_dir, ["unit", "act", "Archer", "ability"],
                   "(an Ability is used with d2d unit ability NAME use ABILITY, 001 l.585)")
    # ... and the command it names is the one that takes it (the hint once left out `use`).
    table.ok("unit", "ability", "Archer", "use", "Rapid Shot", "--skill", "Ranged")
    assert_refused(table, data_dir, ["unit", "act", "Archer", "heroic-feat"],
                   "d2d hit … --heroic-feat a|b, 001 l.611")
    res = assert_refused(table, data_dir, ["unit", "act", "Archer", "dance"],
                         "unknown action 'dance'")
    assert "Heroic" not in res.stderr


def test_odds_crit_flips_light_damage_as_crit_does(table: Runner) -> None:
    # 001 l.946–947 "Light Damage - The back of a Damage card represents Light Damage
    # (eg Fatigue) / IF Unit has Stat=0 THEN flip to Crit": crit flipped them while
    # odds crit still promised "+4 Fatigue" for the same Goblin.
    table.ok("unit", "condition", "Goblin", "add", "fatigue")  # Body 2x1 → 1x1
    args = ["--power", "6x1", "--hits", "6", "--target", "Goblin", "--types", "pierce"]
    rows = table.json("odds", "crit", *args)["locations"]
    # Hits 8: Extreme takes 4, 4 light: the first Fatigue takes Body to 0, 3 flip.
    assert {(r["severity"], r["light_damage"], r["flipped"]) for r in rows} == {
        ("extreme", 1, 3)}
    shown = " ".join(table.ok("odds", "crit", *args).split())
    assert "Fatigue, 3 flipped to Crits)" in shown
    got = table.json("--seed", "3", "crit", *args)
    assert (len(got["light_damage"]), len(got["flipped"])) == (1, 3)


def test_odds_conflict_takes_a_level_below_0_as_conflict_does(table: Runner,
                                                              data_dir: Path) -> None:
    # 001 l.718 "Effect - Level:-1 for each 25%": the Archer's Ranged 1 against a Goblin
    # in Cover 75% is Level -2. conflict plays it; odds conflict refused it as if the
    # Narrator had typed "--level-a -2" (an option never typed).
    table.ok("unit", "situation", "Goblin", "--cover", "75")
    played = table.json("conflict", "Archer:7S^", "Goblin:7H^")
    assert (played["side_a"]["level"], played["side_b"]["level"]) == (-2, 1)
    assert played["outcome"] == "b"  # 7 vs 7, Level Bonus 3 for B: B's rank is lower
    odds = table.json("odds", "conflict", "Archer:7S^", "Goblin:7H^")
    assert (odds["level_a"], odds["level_b"], odds["b_wins"]["fraction"]) == (-2, 1, "1/1")
    # Typed Levels are still 0 or more.
    assert_refused(table, data_dir, ["odds", "conflict", "7S^", "7H^", "--level-a", "-1"],
                   "--level-a must be a whole number 0 or more, not -1")


def test_odds_conflict_counts_disadvantage_as_conflict_keeps_the_card(d2d: Runner,
                                                                     tmp_path: Path) -> None:
    # 000 l.424 "Disadvantage - IF you have Disadvantage THEN Reveal Fate. Use the worst of
    # the 2 Conflict cards"; 001 l.695 "Disadvantage at Range:0-1": the Archer's Ranged at
    # Range 1, attacking (the Range is the attacker's, issue 27). odds conflict refused
    # every Advantage or Disadvantage; now its fractions are those of conflict.resolve
    # over every pair of reveals (the Archer's extra card and the Skirmisher's Fate), each
    # card Upper or Lower.
    from d2d_cli.rules.combat import conflict
    from d2d_cli.rules.core.options import parse
    from d2d_cli.rules.deck.cards import full_deck
    from d2d_cli.rules.deck.fate import Revealer

    path = tmp_path / "c1.toml"
    s = ("--session", path)
    d2d.ok(*s, "--seed", "1", "scene", "load", "combat1")
    d2d.ok(*s, "round", "start")
    d2d.ok(*s, "unit", "situation", "Goblin Skirmisher", "--vs", "Archer", "--range", "1")
    sides = ["Archer:5Sv", "Goblin Skirmisher"]
    got = d2d.json(*s, "odds", "conflict", *sides, "--fresh")
    data = tomllib.loads(path.read_text())
    ask = conflict.ask(sides, data, None, opts=parse(data.get("rules", {})))
    assert (ask.situation.advantage_a.mode, ask.obstacles) == ("disadvantage", {})
    seen: Counter[str] = Counter()
    deck = full_deck()
    for first in deck:
        for second in deck:
            if second.face == first.face:
                continue
            # issue 34: a Non-Player's Counter win reveals one more card, its
            # counter-attack (001 l.754), which changes no outcome
            third = next(c for c in deck if c.face not in (first.face, second.face))
            for a in (first.flipped(True), first.flipped(False)):
                for b in (second.flipped(True), second.flipped(False)):
                    r = ask.resolve(Revealer(None, None, table=[a, b, third]))
                    seen[r.outcome] += 1
    total = sum(seen.values())
    frac = [Fraction(seen[o], total) for o in ("a", "b", "both", "tie")]
    want = {k: f"{f.numerator}/{f.denominator}" for k, f in zip(
        ("a_wins", "b_wins", "both_win", "tie"), frac, strict=True)}
    assert {k: got[k]["fraction"] for k in want} == want
    assert seen["a"] and seen["b"] and seen["tie"]  # the Disadvantage card matters
