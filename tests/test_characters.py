"""Characters: 22-point creation, archetypes, the sheet, advancement (000 "Character
Creation", "Advancement"; 001 p.42 "Advancement", p.23 "Heroic Feat")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from d2d_cli.commands import characters as char_cmd
from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.scale.stats import Stat
from d2d_cli.rules.units import characters as ch
from d2d_cli.rules.units.roster import Unit
from tests.helpers import rule_text, with_rules


def session_bytes(data_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(data_dir.rglob("*.toml"))}


# --- the 22-point budget --------------------------------------------------------------


def test_templates_are_the_rule_texts_defaults_and_come_to_22() -> None:
    # 000 "Character Creation > Stats": Human Male Body:8x1 Mind:5x1 Will:5x1 Speed:4x0;
    # Human Female Body:6x1 Mind:6x1 Will:6x1 Speed:4x0.
    section = rule_text("000").split("- Stats - A new character gets 22 points")[1]
    for template, heading in (("human-male", "Human Male"), ("human-female", "Human Female")):
        block = section.split(f"- {heading}")[1]
        printed = {s.lower(): re.search(rf"{s}:(\d+x-?\d+)", block).group(1)  # type: ignore[union-attr]
                   for s in ("Body", "Mind", "Will", "Speed")}
        got = {s: str(v) for s, v in ch.templates()[template].items()}
        assert got == printed
        assert ch.budget_check(ch.templates()[template]) == 22


def test_both_templates_create_exactly_22(d2d) -> None:
    male = d2d.json("char", "new", "Al", "--template", "human-male")
    female = d2d.json("char", "new", "Bea", "--template", "human-female")
    assert male["stats"] == {"body": "8x1", "mind": "5x1", "will": "5x1", "speed": "4x0"}
    assert female["stats"] == {"body": "6x1", "mind": "6x1", "will": "6x1", "speed": "4x0"}
    assert male["points"] == female["points"] == 22
    assert (male["cp"], male["sp"], male["ap"], male["archetype"], male["skills"]) == (
        0, 0, 0, None, {})


def test_over_budget_is_refused_with_the_numbers(d2d, data_dir) -> None:
    d2d.ok("status")
    before = session_bytes(data_dir)
    res = d2d("char", "new", "Rook", "--body", "9", "--mind", "6")
    assert res.exit_code == 2
    assert res.stderr.startswith("d2d: error: Body 9 + Mind 6 + Will 5 + Speed 4 = 24: "
                                 "2 over the 22-point budget")
    assert res.stderr.count("\n") == 1
    assert session_bytes(data_dir) == before


def test_under_budget_and_template_overrides_are_checked_the_same_way(d2d) -> None:
    res = d2d("char", "new", "Rook", "--template", "human-female", "--body", "4")
    assert res.exit_code == 2
    assert "Body 4 + Mind 6 + Will 6 + Speed 4 = 20: 2 under the 22-point budget" in res.stderr
    ok = d2d.json("char", "new", "Rook", "--template", "human-female", "--body", "7",
                  "--will", "5")
    assert ok["stats"] == {"body": "7x1", "mind": "6x1", "will": "5x1", "speed": "4x0"}
    assert ok["points"] == 22


@pytest.mark.parametrize("flag,value", [("--body", "11"), ("--speed", "1"), ("--mind", "0"),
                                        ("--will", "4.5x1")])
def test_stats_outside_2_to_10_are_refused(d2d, flag, value) -> None:
    res = d2d("char", "new", "Rook", flag, value)
    assert res.exit_code == 2
    assert "2" in res.stderr and "10" in res.stderr
    assert d2d.json("status")["units"] == []


def test_the_budget_cannot_be_bypassed_through_scale(d2d, data_dir) -> None:
    # Issue 11 item 4. 000 l.1029 "A new character gets 22 points to divide among the 4
    # stats. Default distribution below." and l.1030–1034 "Human Male - Body:8x1 -
    # Mind:5x1 - Will:5x1 - Speed:4x0": the levels are counted on the template's scale.
    d2d.ok("status")
    before = session_bytes(data_dir)
    res = d2d("char", "new", "Titan", "--body", "10x5", "--mind", "4x3", "--will", "4",
              "--speed", "4x2")
    assert res.exit_code == 2
    assert res.stderr == (
        "d2d: error: Body 10x5, Mind 4x3, Speed 4x2: off the character's scale — the "
        "22-point budget (000 l.1029) counts levels on the human-male template's scale "
        "(Body x1, Mind x1, Will x1, Speed x0; 000 l.1030–1034); give a bare level "
        "(--body 10) or one on that scale (--body 10x1)\n")
    assert session_bytes(data_dir) == before
    res = d2d("char", "new", "Mite", "--template", "human-female", "--speed", "4x-1",
              "--body", "6x1")
    assert res.exit_code == 2 and "Speed 4x-1: off the character's scale" in res.stderr
    assert "000 l.1035–1039" in res.stderr
    # The same size written on the template's scale is the same level: 1x2 = 10x1.
    ok = d2d.json("char", "new", "Big", "--body", "1x2", "--mind", "4x1", "--will", "4",
                  "--speed", "4x0")
    assert ok["base_stats"] == {"body": "10x1", "mind": "4x1", "will": "4x1", "speed": "4x0"}
    assert ok["points"] == 22


def test_scale_and_budget_property() -> None:
    """Any four stats (levels 2–10, scales −3…3): accepted iff each is on the human
    template's scale and the levels sum to 22 (000 l.1029–1034)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    stat = st.tuples(st.integers(2, 10), st.integers(-3, 3))

    @settings(max_examples=300, deadline=None)
    @given(st.tuples(stat, stat, stat, stat))
    def check(four) -> None:
        flags = {s: f"{lv}x{sc}" for s, (lv, sc) in zip(("body", "mind", "will", "speed"),
                                                        four, strict=True)}
        on_scale = [sc for _, sc in four] == [1, 1, 1, 0]
        try:
            stats = ch.build_stats("human-male", dict(flags))
        except RuleViolation as err:
            assert not on_scale or sum(lv for lv, _ in four) != 22
            assert ("off the character's scale" in err.message) == (not on_scale)
        else:
            assert on_scale and ch.stat_points(stats) == 22

    check()


def test_full_stat_flags_and_scale_kept() -> None:
    stats = ch.build_stats(None, {"body": "7x1", "mind": None, "will": "6", "speed": None})
    assert stats == {"body": Stat(7, 1), "mind": Stat(5, 1), "will": Stat(6, 1),
                     "speed": Stat(4, 0)}


# --- archetypes against the rule text --------------------------------------------------


def _archetypes_in_text() -> list[tuple[str, str, list[str]]]:
    section = rule_text("000").split("## *Character Creation*")[1]
    section = section.split("- Character Conception")[0]
    out, setting = [], None
    for line in section.splitlines():
        s = line.strip()
        if s in ("- Fantasy", "- Modern", "- SciFi"):
            setting = s[2:]
        elif setting and (m := re.match(r"^- (.+?) - (.+)$", s)):
            out.append((setting, m.group(1), [x.strip() for x in m.group(2).split(",")]))
    return out


def test_every_archetype_of_the_rules_with_its_skills() -> None:
    printed = _archetypes_in_text()
    assert len(printed) == 82
    table = [(a["setting"], a["name"], a["skills"]) for a in ch.archetypes().values()]
    assert table == printed
    for _, name, _skills in printed:  # every package resolves to known skills
        assert len(ch.package(name)) == len(set(ch.package(name))) > 0


def test_archetype_gives_its_package_at_level_1(d2d) -> None:
    r = d2d.json("char", "new", "Rook", "--archetype", "thief")
    # 000: "Thief - Athletics, Climbing, Crime, Evasion, Mechanics, Stealth"
    assert r["archetype"] == "Thief"
    assert r["skills"] == {"Athletics": 1, "Climbing": 1, "Crime": 1, "Evasion": 1,
                           "Mechanics": 1, "Stealth": 1}
    # Variant spellings resolve: "Physical Sciences" → Physical Science, "Tradeskills".
    assert ch.package("Sailor") == {"Gunnery": 1, "Physical Science": 1, "Seamanship": 1,
                                    "Survival": 1, "Tradeskill": 1}


def test_unknown_archetype_suggests(d2d) -> None:
    res = d2d("char", "new", "Rook", "--archetype", "theif")
    assert res.exit_code == 2
    assert "unknown archetype 'theif' — did you mean Thief?" in res.stderr


def test_common_skills_are_marked() -> None:
    # 000 "Skills": the skills marked "Common Skill".
    printed = sorted(re.findall(r"^\s+- ([A-Za-z ]+?) - Common Skill", rule_text("000"),
                                re.M))
    assert sorted(s.name for s in ch.skills().values() if s.common) == printed
    assert ch.find_skill("mechanics").specialties[3] == "Pick Lock"


# --- conception, sheet --------------------------------------------------------------------


def test_conception_answers_and_sheet(d2d) -> None:
    d2d.ok("char", "new", "Rook", "--archetype", "Spy", "--motivation", "Revenge",
           "--fear", "Drowning", "--trigger", "Betrayal")
    r = d2d.json("char", "show", "rook")
    assert r["conception"] == {"motivation": "Revenge", "fear": "Drowning",
                               "trigger": "Betrayal"}
    # 000 "Units": Body is Mass in kg; Carry Mass x1; Load Mass / 2; Mind = IQ-50.
    assert r["real"] == {
        "body": "80 kg / 176.4 lb; Deadlift 120 kg, Carry 80 kg, Load 40 kg",
        "mind": "IQ 100", "speed": "4 km/h / 2.485 mph"}
    out = d2d.ok("char", "show", "Rook")
    assert "Body   8x1" in out and "IQ 100" in out and "Revenge" in out


def test_speed_reading_switch() -> None:
    assert ch.readings({"speed": Stat(5, 0)}) == {  # 001 p.6 "5x0 … land:5kph/3mph"
        "speed": "5 km/h / 3.107 mph"}
    assert ch.readings({"speed": Stat(4, 0)}, "000") == {  # 000 "Units": "4x0 = 4 m/s"
        "speed": "4 m/s / 8.948 mph"}


def test_char_show_refuses_a_plain_unit(d2d) -> None:
    d2d.ok("unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0")
    res = d2d("char", "show", "Gob")
    assert res.exit_code == 2 and "is a unit, not a character" in res.stderr


# --- advancement (001 p.42) -------------------------------------------------------------


def _char(**skills: int) -> Unit:
    return Unit("Rook", dict(ch.templates()["human-male"]), kind="character",
                skills=dict(skills), extra={"cp": 0, "sp": 0, "ap": 0, "abilities": []})


def test_train_costs_the_current_level() -> None:
    u = _char(Stealth=2)
    ch.award(u, 0, 3, 0)
    assert ch.train(u, "stealth").sp_spent == 2  # "Spend SP = Current Level"
    assert u.skills["Stealth"] == 3 and ch.points(u)["sp"] == 1
    with pytest.raises(RuleViolation, match="Stealth 3 → 4 costs 3 SP.*Rook has 1"):
        ch.train(u, "Stealth")
    assert ch.train(u, "Climbing").sp_spent == 1  # a new skill: 1 SP (docs/rules.md)
    assert u.skills["Climbing"] == 1 and ch.points(u)["sp"] == 0


def test_new_skill_cost_option() -> None:
    u = _char()
    assert ch.train(u, "Ranged", new_skill_sp=0).to_json() == {
        "skill": "Ranged", "from": 0, "to": 1, "sp_spent": 0, "sp_gained": 0}


def test_respec_001_lost_level_and_000_new_level() -> None:
    # Several respecs in a row: the once-per-Downtime limit is lifted here (limit="none";
    # the limit has its own tests below).
    u = _char(Melee=4)
    # Default: the SP the lost level cost to train, 001 l.1108 "Spend SP = Current Level"
    # (3 → 4 cost 3), so training it back nets 0 (issue 19 item 10).
    assert ch.respec(u, "Melee", limit="none").sp_gained == 3
    # 001 l.1102: "Gain SP equal to lost Level"
    assert ch.respec(u, "Melee", "lost", "none").sp_gained == 3
    assert u.skills["Melee"] == 2
    assert ch.respec(u, "Melee", "new", "none").sp_gained == 1  # 000: "equal to the new level"
    assert ch.points(u)["sp"] == 7
    ch.respec(u, "Melee", limit="none")  # a level-1 skill: what a new skill costs, 1 SP
    assert ch.points(u)["sp"] == 8
    assert "Melee" not in u.skills
    with pytest.raises(RuleViolation, match="no Melee to respec"):
        ch.respec(u, "Melee", limit="none")


# --- one respec per Downtime (issue 11 item 5) -------------------------------------------
# 000 l.372 "Respec - Downtime:Between Sessions you may reduce ONE Skill by one level and
# gain SP equal to the new level"; 001 l.1099–1102 "Respec - Reduce ONE Skill or Power by
# 1, Gain SP equal to lost Level"; 001 l.1108 "Spend SP = Current Level of Skill or Power".


def test_one_respec_per_downtime() -> None:
    u = _char(Melee=3, Stealth=2)
    assert ch.respec(u, "Melee").to_json() == {"skill": "Melee", "from": 3, "to": 2,
                                               "sp_spent": 0, "sp_gained": 2}
    with pytest.raises(RuleViolation) as err:
        ch.respec(u, "Stealth")
    assert err.value.message == (
        "Rook has already respecced Melee in this Downtime: ONE skill between sessions "
        "(000 l.372); d2d char downtime starts the next")
    assert (u.skills, ch.points(u)["sp"]) == ({"Melee": 2, "Stealth": 2}, 2)
    assert ch.downtime({"Rook": u}, []).characters == ("Rook",)
    assert ch.respec(u, "Stealth").sp_gained == 1
    assert u.extra[ch.RESPEC_USED] == "Stealth"


def _farm(d2d, session, cycles: int) -> list[int]:
    """Train Stealth 1 → 2 (1 SP), respec it 2 → 1, ``cycles`` times; the SP after each."""
    sp = []
    for _ in range(cycles):
        d2d.ok("--session", session, "char", "train", "Rook", "Stealth")
        res = d2d("--session", session, "char", "respec", "Rook", "Stealth", "--json")
        sp.append(d2d.json("--session", session, "char", "show", "Rook")["sp"]
                  if res.exit_code == 0 else -1)
        if res.exit_code:
            break
    return sp


def test_skill_points_cannot_be_farmed(d2d, tmp_path) -> None:
    # Train costs the current level (1), respec gives back what the level cost (1): a
    # cycle nets 0 SP (issue 19 item 10: each cycle used to net +1).
    session = tmp_path / "farm.toml"
    d2d.ok("--session", session, "char", "new", "Rook", "--archetype", "thief")
    d2d.ok("--session", session, "char", "award", "Rook", "--sp", "1")
    assert _farm(d2d, session, 1) == [1]
    before = session.read_bytes()
    res = d2d("--session", session, "char", "respec", "Rook", "Climbing")
    assert res.exit_code == 2
    assert res.stderr == ("d2d: error: Rook has already respecced Stealth in this "
                          "Downtime: ONE skill between sessions (000 l.372); d2d char "
                          "downtime starts the next\n")
    assert session.read_bytes() == before
    # The next Downtime opens one more respec, and it gains nothing either.
    assert d2d.json("--session", session, "char", "downtime") == {"characters": ["Rook"]}
    assert _farm(d2d, session, 3) == [1, -1]


def test_unlimited_respecs_is_a_table_option(d2d, tmp_path) -> None:
    # [rules] respec_limit = "none": 001 prints no limit; with 001's "lost Level" read as
    # the level itself (respec_sp = "lost") SP then grow without end.
    session = with_rules(d2d, tmp_path, respec_limit="none", respec_sp="lost")
    d2d.ok("--session", session, "char", "new", "Rook", "--archetype", "thief")
    d2d.ok("--session", session, "char", "award", "Rook", "--sp", "1")
    assert _farm(d2d, session, 5) == [2, 3, 4, 5, 6]
    # The default gives back what the level cost: nothing grows.
    session = with_rules(d2d, tmp_path, respec_limit="none")
    d2d.ok("--session", session, "char", "new", "Rook", "--archetype", "thief")
    d2d.ok("--session", session, "char", "award", "Rook", "--sp", "1")
    assert _farm(d2d, session, 5) == [1, 1, 1, 1, 1]
    # 000's gain ("equal to the new level") makes the same cycle gain nothing.
    session = with_rules(d2d, tmp_path, respec_limit="none", respec_sp="new")
    d2d.ok("--session", session, "char", "new", "Rook", "--archetype", "thief")
    d2d.ok("--session", session, "char", "award", "Rook", "--sp", "1")
    assert _farm(d2d, session, 5) == [1, 1, 1, 1, 1]


def test_downtime_for_some_characters(d2d) -> None:
    for name in ("Rook", "Mira"):
        d2d.ok("char", "new", name, "--archetype", "thief")
        d2d.ok("char", "respec", name, "Stealth")
    d2d.ok("unit", "add", "Gob", "--body", "2x1", "--mind", "6x1", "--will", "2x1",
           "--speed", "5x0")
    assert d2d.json("char", "downtime", "mira") == {"characters": ["Mira"]}
    assert d2d("char", "respec", "Rook", "Climbing").exit_code == 2
    assert d2d.json("char", "respec", "Mira", "Climbing")["change"]["sp_gained"] == 1
    res = d2d("char", "downtime", "Gob")
    assert res.exit_code == 2 and "'Gob' is a unit, not a character" in res.stderr
    out = d2d.ok("char", "downtime")
    assert out == ("Downtime for Rook, Mira: each may respec ONE skill again (000 \"Respec "
                   "- Downtime:Between Sessions\").\n")
    assert "Respec used" not in d2d.ok("char", "show", "Rook")
    d2d.ok("char", "respec", "Rook", "Climbing")
    assert "CP 0   SP 2   AP 0   Respec used this Downtime (Climbing)" in d2d.ok(
        "char", "show", "Rook")


def test_learn_costs_1_ap_and_heroic_feat_1_cp() -> None:
    u = _char()
    with pytest.raises(RuleViolation, match="costs 1 AP"):
        ch.learn(u, "Pick Lock")
    ch.award(u, 1, 0, 1)
    assert ch.learn(u, "Pick Lock").to_json() == {"ability": "Pick Lock", "ap_spent": 1,
                                                  "kind": "ability", "specialty": None,
                                                  "nth_in_specialty": None}
    assert u.extra["abilities"] == ["Pick Lock"] and ch.points(u)["ap"] == 0
    assert ch.heroic_feat(u).cp_spent == 1
    with pytest.raises(RuleViolation, match="Heroic Feat costs 1 CP"):
        ch.heroic_feat(u)


def test_award_rejects_negative_and_empty() -> None:
    with pytest.raises(BadInput):
        ch.award(_char(), 0, -1, 0)
    with pytest.raises(BadInput):
        ch.award(_char(), 0, 0, 0)


def test_advancement_through_the_cli(d2d, data_dir) -> None:
    d2d.ok("char", "new", "Rook", "--archetype", "thief")
    r = d2d.json("char", "award", "Rook", "--sp", "2", "--ap", "1", "--cp", "1")
    assert (r["cp"], r["sp"], r["ap"]) == (1, 2, 1)
    r = d2d.json("char", "train", "Rook", "Stealth")
    assert r["skills"]["Stealth"] == 2 and r["sp"] == 1
    assert r["change"] == {"skill": "Stealth", "from": 1, "to": 2, "sp_spent": 1,
                           "sp_gained": 0}
    before = session_bytes(data_dir)
    res = d2d("char", "train", "Rook", "Stealth")
    assert res.exit_code == 2 and "costs 2 SP" in res.stderr and "Rook has 1" in res.stderr
    assert session_bytes(data_dir) == before
    res = d2d("char", "train", "Rook", "Stelth")
    assert res.exit_code == 2 and "did you mean Stealth, " in res.stderr
    assert d2d.json("char", "respec", "Rook", "Climbing")["sp"] == 2
    assert d2d.json("char", "learn", "Rook", "Pick Lock")["abilities"] == ["Pick Lock"]
    assert d2d.json("char", "feat", "Rook")["cp"] == 0


def test_respec_000_rule_from_the_session(d2d, data_dir) -> None:
    d2d.ok("char", "new", "Rook", "--archetype", "thief")
    path = next(data_dir.rglob("*.toml"))
    text = path.read_text("utf-8")
    assert "\n[rules]\n" in text
    path.write_text(text.replace("\n[rules]\n", "\n[rules]\nrespec_sp = \"new\"\n", 1),
                    "utf-8")
    assert d2d.json("char", "respec", "Rook", "Stealth")["change"]["sp_gained"] == 0


# --- interactive creation ---------------------------------------------------------------


def test_prompts_only_on_a_terminal(d2d, monkeypatch) -> None:
    monkeypatch.setattr(char_cmd, "_interactive", lambda: True)
    # template; Body 9, Mind 6, Will 5, then Speed 4 breaks the budget and only Speed
    # is asked again; "?" lists the archetypes; a typo; the answers.
    answers = ["human-male", "9", "6", "5", "4", "2", "?", "theif", "thief",
               "Glory", *[""] * 7, "?", "Dagger"]  # issue 36: gear last, "?" lists it
    res = d2d("char", "new", "Rook", input="\n".join(answers) + "\n")
    assert res.exit_code == 0, res.stderr
    assert "22 points left" in res.stdout and "13 points left" in res.stdout
    assert "Speed 4 makes 24 points, 2 over the 22-point budget: Speed must be 2 — try " \
        "again" in res.stdout
    assert res.stdout.count("Body (2–10") == 1 and res.stdout.count("Speed (2–10") == 2
    assert "Thaumaturgist, Thief, Tradesman" in res.stdout  # the archetypes, after "?"
    assert "did you mean Thief" in res.stdout
    r = d2d.json("char", "show", "Rook")
    assert r["stats"] == {"body": "9x1", "mind": "6x1", "will": "5x1", "speed": "2x0"}
    assert r["archetype"] == "Thief" and r["conception"] == {"motivation": "Glory"}
    assert "Sword: Long, Javelin, Bow" in res.stdout  # the samples, after "?"
    g = d2d.json("unit", "gear", "show", "Rook")
    assert [w["name"] for w in g["weapons"]] == ["Dagger"]


def test_never_prompts_in_a_script(d2d) -> None:
    # CliRunner's stdin is not a terminal: the defaults are used, no question asked.
    r = d2d.json("char", "new", "Rook")
    assert r["points"] == 22 and r["template"] == "human-male"


# --- exhaustive and property checks ------------------------------------------------------


def test_budget_accepts_exactly_the_22_point_spreads() -> None:
    """Every spread of four levels 2–10 (9⁴ = 6,561): accepted iff they sum to 22."""
    from itertools import product

    accepted = 0
    for levels in product(range(2, 11), repeat=4):
        stats = dict(zip(("body", "mind", "will", "speed"),
                         (Stat(v, 1) for v in levels), strict=True))
        try:
            ch.budget_check(stats)
            accepted += 1
            assert sum(levels) == 22
        except RuleViolation as err:
            assert sum(levels) != 22
            assert f"= {sum(levels)}: {abs(sum(levels) - 22)} " in err.message
    # Levels 2–10 summing to 22 ↔ four 0–8 parts summing to 14: C(17,3) − 4·C(8,3) = 456.
    assert accepted == 456


def test_skill_specs() -> None:
    assert ch.parse_skill_spec("close combat=1") == ("Close Combat", 1)
    assert ch.parse_skill_spec("Stealth:2") == ("Stealth", 2)
    for bad in ("Stealth", "Stealth=0", "Stealth=-1"):
        with pytest.raises(BadInput):
            ch.parse_skill_spec(bad)


@pytest.mark.parametrize("command", ["new", "show", "export", "award", "train", "respec",
                                     "learn", "feat", "downtime"])
def test_every_char_command_has_help_with_an_example(d2d, command) -> None:
    out = d2d.ok("char", command, "--help")
    assert "Example: d2d char" in out


def test_template_readings_match_the_printed_ones() -> None:
    # 000 "Character Creation": Human Male "Body:8x1 (80kg/175lbs)", "Mind:5x1 (100 IQ)";
    # Human Female "Body:6x1 (60kg/130lb)", "Mind:6x1 (110 IQ)", "Speed:4x0 (4m/s)".
    male = ch.readings(ch.templates()["human-male"])
    female = ch.readings(ch.templates()["human-female"], "000")
    assert male["body"].startswith("80 kg / 176.4 lb;") and male["mind"] == "IQ 100"
    assert female["body"].startswith("60 kg / 132.3 lb;") and female["mind"] == "IQ 110"
    assert female["speed"].startswith("4 m/s")
