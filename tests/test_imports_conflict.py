"""A Conflict of two cards loads only what it asks (issue 40 item 3): it names no unit,
so it reads no roster, no map and no Player's hand, and no stat (``decimal``) — even on a
session with a map, placed units and dealt hands (``[rules] hands = "d2d"``). Timings are
bench/'s; this pins the modules, and that the answer is still the chart's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT

# The map (rules/board), the hands, the roster and a stat's exact value: none is read
# by "conflict 7S^ 5H^" (001 p.28 "Conflict": two cards' approaches and ranks decide).
NOT_FOR_CARDS = {"d2d_cli.rules.board", "d2d_cli.rules.board.derive",
                 "d2d_cli.rules.units.hands", "d2d_cli.rules.units.roster",
                 "d2d_cli.rules.scale.stats", "decimal", "rich"}

# It takes the session's lock (a Conflict may keep or forget the round's exchange: a
# change decided on the locked state), but when it ends up changing nothing it renders
# and commits nothing, so neither the text splicer nor the commit is imported.
NOTHING_WRITTEN = {"d2d_cli.session.text", "d2d_cli.session.headers", "d2d_cli.session.hunks",
                   "d2d_cli.session.tomltext", "d2d_cli.session.commit",
                   "d2d_cli.session.fresh"}

# The Hits and the Crit are operations of their own: a conflict imports neither their
# code nor the Crit's Damage Modifiers (operations/hits.py, crits.py, damage.py).
NOT_A_HIT_OR_CRIT = {"d2d_cli.operations.hits", "d2d_cli.operations.crits",
                     "d2d_cli.operations.damage"}
# Two cards reveal nothing: the Fate deck's module is imported where a reveal is made
# (operations.reveals), not to name a type (rules/combat/conflict.py's Revealer).
NO_FATE = "d2d_cli.rules.deck.fate"

SETUP = ("import sys\nfrom d2d_cli.cli import main\n"
         "for words in (['scene', 'load', 'combat1'], ['round', 'start'],\n"
         "              ['rules', 'set', 'hands', 'd2d'], ['hand', 'deal']):\n"
         "    try:\n        main(['--session', sys.argv[1], *words])\n"
         "    except SystemExit as e:\n        assert not e.code\n")


def _loaded(session: str, *argv: str) -> tuple[str, set[str]]:
    code = ("import sys\nfrom d2d_cli.cli import main\n"
            f"code = main(['--session', sys.argv[1], *{list(argv)!r}])\n"
            "assert not code, code\n"
            "print(sorted(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code, session], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return out, set(eval(out.splitlines()[-1]))  # noqa: S307 - our own list


def test_a_conflict_of_two_cards_reads_no_map_no_hand_no_decimal(tmp_path: Path) -> None:
    session = str(tmp_path / "s.toml")
    subprocess.run([sys.executable, "-c", SETUP, session], cwd=ROOT, check=True,
                   capture_output=True)
    before = Path(session).read_bytes()
    out, loaded = _loaded(session, "conflict", "7S^", "5H^")
    # 7♠↑ and 5♥↑ are both Fast: the higher rank wins (001 p.28 "Fast vs Fast")
    assert out.startswith("B wins (rank 7 vs 5): Fast (7♠↑) vs Fast (5♥↑)\n")
    assert loaded & NOT_FOR_CARDS == set()
    assert loaded & NOTHING_WRITTEN == set()
    assert loaded & NOT_A_HIT_OR_CRIT == set() and NO_FATE not in loaded
    assert "d2d_cli.operations.combat" in loaded  # the conflict's own: not vacuous
    # no Fate revealed and no exchange of the round to forget: answered from a read,
    # without the lock (issue 40 item 2)
    assert "d2d_cli.session.lock" not in loaded
    assert Path(session).read_bytes() == before  # nothing to keep: the file unchanged
    # a unit side still reads them, and locks to keep its exchange (the guards above are
    # about the cards, not a blind spot)
    out, loaded = _loaded(session, "conflict", "Archer:fast", "Goblin Scout")
    assert {"d2d_cli.rules.units.roster", "d2d_cli.rules.board.derive",
            "d2d_cli.rules.units.hands", "d2d_cli.session.lock"} <= loaded
    # a Fate side reveals a card: the deck's module then
    out, loaded = _loaded(session, "conflict", "fate", "7S^")
    assert NO_FATE in loaded and "vs" in out


def test_the_situations_attribute_only_classes_are_records() -> None:
    """A conflict imports rules/combat/situation.py, whose NamedTuple classes were the
    largest single cost of its execution (~0.1 ms each at every run). The five used by
    attribute only are records; Terms and Situation stay tuples (``_replace``,
    ``_asdict``). They still build by position and keyword, compare by value, hash and
    pickle (sim's workers) as the tuples did."""
    import pickle

    from d2d_cli.rules.combat import situation as sit

    for cls in (sit.Who, sit.Fighter, sit.CoverSpec, sit.Skill, sit._Skilled):
        assert not issubclass(cls, tuple), cls.__name__
    assert issubclass(sit.Terms, tuple) and issubclass(sit.Situation, tuple)
    who = sit.Who(None, 3, "--level-b")
    assert who == sit.Who(level=3, level_option="--level-b") and who.unit is None
    assert hash(who) == hash(sit.Who(None, 3, "--level-b")) and bool(who)
    assert sit.parse_cover("b:50") == sit.CoverSpec("b", 50)
    fighter = sit.Fighter("Archer", "Ranged", 2, 3, "Archer Ranged 2", False)
    assert pickle.loads(pickle.dumps(fighter)) == fighter  # noqa: S301 - our own bytes
    melee = sit.known_skill("Melee Combat")  # an alias of the table's Melee
    assert melee is not None and (melee.key, melee.category) == ("melee", "Combat")
