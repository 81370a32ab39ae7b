"""Hits: the degree of success of a Conflict's winner (001 p.31 "Hits").

"Only Fast or Strong Approach score Hits. Level - Your Level - Rival Level (min: 0).
Difficulty - The difficulty of the Conflict. Combo - Play cards to make an allowed
set: Of a Kind - QQ, KK, AA, KKK, AAA, AAAA. Straight - 3+ ordered cards of any suit.
For each > 2, take any card from Discard. Rank - Each card may increase Hits: A-J -
Hits:+1; 2-10 - Hits:+1 IF Rank+Level > Difficulty. No Hits - Glancing Blow: IF
Hits=0 THEN Hits=1 and go to Resolution."

000 l.482–486 reveals combo cards from the deck instead ("Combo - IF you Succeed with a
2-8, Q, K, or A, you may increase your Successes by doing a Combo. Normal - Reveal 2
Conflict. IF they are the next 2 in rank sequence (e.g. 5 then 6, 7) THEN Gain:A and
for each IF Rank+Skill Level > Difficulty THEN Success:+1. Q - Reveal Conflict. IF Q
THEN Success:+1. K - Reveal 2 Conflict. IF K THEN Success:+1 / K. A - Reveal 3
Conflict. IF A THEN Success:+1 / A."): ``[rules] combos = "revealed"``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.combat import conflict
from d2d_cli.rules.combat.situation import (
    Assessed,
    Assessor,
    Modifier,
    Situation,
    Terms,
    Who,
    assess,
    effective_stat,
    scoring_from,
    target_stat,
)
from d2d_cli.rules.core import lazy_module
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import field, record, replace
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.deck.advantage import NORMAL, Standing, reveal_keep
from d2d_cli.rules.deck.cards import Card
from d2d_cli.rules.deck.fate import Revealer
from d2d_cli.rules.scale.stats import Stat, parse_stat

if TYPE_CHECKING:
    from d2d_cli.rules.board.derive import Field, Geometry
    from d2d_cli.rules.units.roster import Unit

# Read at every Hits between units, imported when first read (Hits of a card at given
# Levels read no roster and no map): rules.core.lazy_module
if TYPE_CHECKING:
    from d2d_cli.rules.board import derive as _derive
    from d2d_cli.rules.combat import remembered as _remembered
    from d2d_cli.rules.units import effects as _effects
    from d2d_cli.rules.units import roster as _roster
else:
    _derive = lazy_module("d2d_cli.rules.board.derive", globals(), "_derive")
    _remembered = lazy_module("d2d_cli.rules.combat.remembered", globals(), "_remembered")
    _effects = lazy_module("d2d_cli.rules.units.effects", globals(), "_effects")
    _roster = lazy_module("d2d_cli.rules.units.roster", globals(), "_roster")

_NO_TERMS = Terms()  # nothing told: an immutable tuple, built once
ROYALS = ("A", "J", "Q", "K")
SCORING = ("fast", "strong")

_ALLOWED = ("allowed: QQ, KK, AA, KKK, AAA, AAAA, or a straight of 3 or more ordered "
            "cards 2–10 of any suit (e.g. 2S 3H 4C)")

# 000 l.484–486: how many cards a royal's combo reveals.
_ROYAL_REVEALS = {"Q": 1, "K": 2, "A": 3}


def parse_difficulty(text: str) -> int:
    """``--vs``: a whole number 1 or more, or a stat whose level is the Difficulty
    ("Difficulty - The Goblin Body is 2x1" → 2, 001 p.32)."""
    raw = str(text).strip()
    if re.fullmatch(r"[+-]?\d+", raw):
        value = int(raw)
    elif "x" in raw.lower() or "×" in raw:
        value = parse_stat(raw).level
    else:
        raise BadInput(f"--vs takes a Difficulty: a whole number 1 or more or a stat like "
                       f"2x1, or a unit on the board, not {text!r}")
    if value < 1:
        raise BadInput(f"--vs takes a Difficulty of 1 or more (or a stat like 2x1), not "
                       f"{text!r}")
    return value


def combo(cards: list[Card]) -> tuple[str | None, str, int]:
    """The combo the cards make: (kind or None, its name, discard takes). Refuses a set
    that is not allowed, with the reason."""
    if len(cards) == 1:
        return None, cards[0].rank, 0
    codes = " ".join(c.code for c in cards)
    if any(c.is_wild for c in cards):
        raise RuleViolation(f"not a combo: {codes} — a Wild is in no combo; {_ALLOWED}")
    ranks = [c.rank for c in cards]
    table = conflict.table()["combos"]
    if len(set(ranks)) == 1:
        name = "".join(ranks)
        if name in table["of_a_kind"]:
            return "of_a_kind", name, 0
        raise RuleViolation(f"not a combo: {codes} — {name} is not an allowed set of a "
                            f"kind; {_ALLOWED}")
    if any(r in ROYALS for r in ranks):
        raise RuleViolation(f"not a combo: {codes} — a straight is of 2–10 cards and a set "
                            f"of a kind is one rank; {_ALLOWED}")
    numbers = sorted(c.number or 0 for c in cards)
    if len(cards) < table["straight_min"]:
        raise RuleViolation(f"not a combo: {codes} — a straight needs "
                            f"{table['straight_min']} or more cards; {_ALLOWED}")
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise RuleViolation(f"not a combo: {codes} — the ranks do not follow each other "
                            f"({', '.join(map(str, numbers))}); {_ALLOWED}")
    return "straight", "-".join(map(str, numbers)), len(cards) - 2


@record
class CardHit(Result):
    """One card's share: does it Hit, and why (``2+1=3 > 2``, ``A: Hits +1``)."""

    card: Card
    hit: bool
    why: str


_NO_STANDING = Standing(NORMAL, (), None)


@record
class Hits(Result):
    """``d2d hit``: the Hits of the winner's cards. ``level`` is the Level of 001 l.816
    (your Level − the Rival's, after modifiers, min 0); ``sources`` says where each
    number came from; ``advantage`` is the scorer's (it counts for revealed combos)."""

    hits: int
    glancing: bool
    combo: str | None
    combo_name: str | None
    discard_takes: int
    approach: str
    level: int
    difficulty: int
    cards: tuple[CardHit, ...]
    your_level: int = 0
    rival_level: int = 0
    sources: dict[str, str] = field(default_factory=dict)
    modifiers: tuple[Modifier, ...] = ()
    advantage: Standing = _NO_STANDING
    map: Geometry | None = None  # the geometry read off the map (rules.board.derive)
    # [rules] hands = "d2d": the combo cards played from the hitter's hand
    # (rules.units.hands.Spent), or None
    hand: Any = None

    @property
    def summary(self) -> str:
        """``hit``'s last line: ``Hits: 1 (glancing blow)``."""
        return f"Hits: {self.hits}" + (" (glancing blow)" if self.glancing else "")


@record
class RevealedHits(Hits):
    """``[rules] combos = "revealed"`` (000 l.482–486): the combo cards revealed after
    the winning card, whether they made the combo, and 000's "Gain:A" (l.1197 "Choose
    an A from Discard or search your Deck for an A and add it to your hand")."""

    revealed: tuple[CardHit, ...] = ()
    gain_ace: bool = False
    reshuffled: bool = False
    set_aside: tuple[Card, ...] = ()  # revealed with Advantage/Disadvantage, not kept


def _card_hit(card: Card, net: int, difficulty: int, ten_always_hits: bool) -> CardHit:
    assert card.number is not None
    if card.rank in ROYALS or (ten_always_hits and card.rank == "10"):
        return CardHit(card, True, f"{card.rank}: Hits +1")
    total = card.number + net
    hit = total > difficulty
    return CardHit(card, hit, f"{card.number}+{net}={total} {'>' if hit else '≤'} {difficulty}")


def _scoring_approach(card: Card, counter_scores: bool = False) -> str:
    """The approach that scores: Fast or Strong (001 p.31), and a Counter under ``[rules]
    counter = "000"`` (000 l.163 "IF a Fast, Strong, or Counter Succeeds THEN determine
    Successes")."""
    approach = conflict.approach_of(card)
    if approach not in SCORING and not (counter_scores and approach == "counter"):
        raise RuleViolation(
            f"only a Fast or Strong winner scores Hits (001 p.31): {card.code} is "
            f"{approach.capitalize()} — a Counter winner counter-attacks with a Fast or "
            "Strong card (Upper: e.g. 2S^)")
    return approach


def _check(level: int, rival_level: int, difficulty: int) -> int:
    """001 l.816 "Level - Your Level - Rival Level (min: 0)". The levels may be below 0
    after modifiers; a Difficulty of 0 is a Rival's stat brought to 0."""
    if difficulty < 0:
        raise BadInput(f"--vs takes a Difficulty of 1 or more, not {difficulty}")
    return max(0, level - rival_level)


def count_hits(cards: list[Card], *, level: int, rival_level: int, difficulty: int,
               ten_always_hits: bool = False, counter_scores: bool = False) -> Hits:
    """The Hits of the winner's cards (the played card first, then any combo cards).

    ``ten_always_hits`` is 000's reading ("5) Successes": "10, J, Q, K, A -
    Success:+1"); 001's "A-J" leaves the 10 to the Rank+Level test.
    """
    if not cards:
        raise BadInput("give the winner's card(s), e.g. 2S 3H 4C")
    return _count_hits(tuple(cards), level, rival_level, difficulty, ten_always_hits,
                       counter_scores)


@lru_cache(maxsize=1024)
def _count_hits(cards: tuple[Card, ...], level: int, rival_level: int, difficulty: int,
                ten_always_hits: bool, counter_scores: bool) -> Hits:
    """:func:`count_hits`, remembered by all it reads (a Card and Hits are frozen; a
    fight scores the same few cards at the same few Levels): a refusal raises again."""
    net = _check(level, rival_level, difficulty)
    approach = _scoring_approach(cards[0], counter_scores)
    kind, name, takes = combo(list(cards))
    rows = tuple(_card_hit(card, net, difficulty, ten_always_hits) for card in cards)
    raw = sum(r.hit for r in rows)
    return Hits(hits=max(raw, 1), glancing=raw == 0, combo=kind,
                combo_name=name if kind else None, discard_takes=takes, approach=approach,
                level=net, difficulty=difficulty, cards=rows)


def _combo_rows(card: Card, got: list[Card], net: int, difficulty: int,
                ten_always_hits: bool) -> tuple[list[CardHit], str | None, str | None]:
    """000 l.483–486: the revealed cards' rows and the combo they make, if any."""
    kind: str | None = None
    name: str | None = None
    if card.rank in _ROYAL_REVEALS:
        shown = []
        for c in got:
            same = c.rank == card.rank
            shown.append(CardHit(c, same, f"{c.rank}: Hits +1" if same else
                                 f"{c.rank}: not {card.rank}, no Hit"))
        matched = sum(r.hit for r in shown)
        if matched:
            kind, name = "of_a_kind", card.rank * (matched + 1)
        return shown, kind, name
    assert card.number is not None
    wanted = [card.number + 1, card.number + 2]
    if sorted(c.number or 0 for c in got if not c.is_wild) == wanted:
        shown = [_card_hit(c, net, difficulty, ten_always_hits) for c in got]
        return shown, "straight", "-".join(map(str, [card.number, *wanted]))
    return [CardHit(c, False, f"not {wanted[0]} and {wanted[1]}: no combo") for c in got], \
        None, None


def reveal_combo(card: Card, reveal: Revealer | None, *, level: int, rival_level: int,
                 difficulty: int, ten_always_hits: bool = False,
                 mode: str = NORMAL) -> RevealedHits:
    """000's combo (l.482–486): after a winning 2–8 reveal 2 cards — the next two ranks
    (either order) each score by Rank+Level > Difficulty and Gain:A; after a Q reveal 1,
    a K 2, an A 3 — each card of the same rank scores +1. ``reveal`` is None when no
    combo is tried (the text's "may"). With Advantage (``mode``) one more card is
    revealed and the cards that score the most Hits are kept; with Disadvantage the
    fewest (000 l.1122, l.1178 "Reveal another Conflict and take the best/worse
    result")."""
    net = _check(level, rival_level, difficulty)
    approach = _scoring_approach(card)
    played = _card_hit(card, net, difficulty, ten_always_hits)
    shown: list[CardHit] = []
    aside: tuple[Card, ...] = ()
    kind: str | None = None
    name: str | None = None
    if reveal is not None:
        count = _ROYAL_REVEALS.get(card.rank, 2)
        if card.rank not in _ROYAL_REVEALS and not 2 <= (card.number or 0) <= 8:
            raise RuleViolation(f"no combo after a {card.rank} (000 l.482: \"IF you Succeed "
                                "with a 2-8, Q, K, or A\")")

        def score(cards: list[Card]) -> int:
            rows, _, _ = _combo_rows(card, cards, net, difficulty, ten_always_hits)
            return sum(r.hit for r in rows)

        kept = reveal_keep(reveal, count, mode, score)
        shown, kind, name = _combo_rows(card, kept.cards, net, difficulty, ten_always_hits)
        aside = tuple(kept.dropped)
    raw = played.hit + sum(r.hit for r in shown)
    return RevealedHits(
        hits=max(raw, 1), glancing=raw == 0, combo=kind, combo_name=name, discard_takes=0,
        approach=approach, level=net, difficulty=difficulty, cards=(played,),
        revealed=tuple(shown), gain_ace=kind == "straight",
        reshuffled=reveal.reshuffled if reveal is not None else False, set_aside=aside)


@record
class HitAsk:
    """``d2d hit`` as typed and checked, for the table's ``[rules] combos`` reading;
    :attr:`reveals` says whether it reveals combo cards (from the deck or ``table``)."""

    cards: tuple[Card, ...]
    level: int
    rival_level: int
    difficulty: int
    ten_always_hits: bool
    combos: str
    combo: bool
    table: list[Card] | None
    situation: Situation | None = None
    difficulty_source: str = ""
    bonus: tuple[Modifier, ...] = ()  # why Hits are added after the count
    bonus_hits: int = 0  # Push the Limit under [rules] push_the_limit = "000"; a Feat
    feat_by: str | None = None  # the character whose Heroic Feat spends 1 CP
    # Where the rest came from, said last in ``Hits.sources`` (e.g. "exchange": what was
    # taken from the Conflict the round remembers)
    said: tuple[tuple[str, str], ...] = ()
    counter_scores: bool = False  # [rules] counter = "000": a Counter card scores

    @property
    def reveals(self) -> bool:
        return self.combos == "revealed" and self.combo

    def count(self, reveal: Revealer | None) -> Hits:
        sit = self.situation
        level = sit.a.level if sit is not None else self.level
        rival = sit.b.level if sit is not None else self.rival_level
        mode = sit.advantage_a.mode if sit is not None else NORMAL
        out: Hits
        if self.combos == "played":
            out = count_hits(list(self.cards), level=level, rival_level=rival,
                             difficulty=self.difficulty, ten_always_hits=self.ten_always_hits,
                             counter_scores=self.counter_scores)
        else:
            out = reveal_combo(self.cards[0], reveal, level=level, rival_level=rival,
                               difficulty=self.difficulty,
                               ten_always_hits=self.ten_always_hits, mode=mode)
        if sit is None:
            return replace(out, sources={**out.sources, **dict(self.said)}) if self.said \
                else out
        found = {"level": sit.a.source, "rival_level": sit.b.source,
                 "difficulty": self.difficulty_source}
        extra = sit.extra_sources
        if extra:  # a remembered assessment's read-only view merged through its copy
            found.update(extra.copy() if type(extra) is MappingProxyType else extra)
        found.update(self.said)
        mods = sit.modifiers
        if self.bonus:
            out = replace(out, hits=max(0, out.hits + self.bonus_hits))
            mods = (*mods, *self.bonus)
        return replace(out, your_level=level, rival_level=rival, sources=found,
                       modifiers=mods, advantage=sit.advantage_a, map=sit.geometry)



_NUMBER = re.compile(r"[+-]?\d+")


def _rival(vs: str | None, units: Mapping[str, Unit]) -> Unit | None:
    """``--vs`` names a unit when it is not a number and a unit has that name."""
    if vs is None or _NUMBER.fullmatch(vs.strip()):
        return None
    if vs in units:  # the name as the roster has it (as roster.find, which reads --by):
        return units[vs]  # a fight's every Hits, without folding every name
    folded = {n.lower(): n for n in units}  # names only: a roster view builds no unit
    name = folded.get(vs.strip().lower())
    return None if name is None else units[name]


def ask(cards: list[Card], *, level: int | None = None, rival_level: int | None = None,
        vs: str | None = None, combo: bool = False, table: list[Card] | None = None,
        combos: str = "played", ten_always_hits: bool = False,
        data: dict[str, Any] | None = None, by: str | None = None,
        difficulty: int | None = None, terms: Terms | None = None,
        skill: str | None = None, rival_skill: str | None = None,
        opts: Options = DEFAULTS, heroic_feat: str | None = None,
        use_map: bool = True, said: dict[str, str] | None = None,
        roster: Mapping[str, Unit] | None = None,
        shared: Assessed | None = None,
        assessor: Callable[..., Situation] | None = None) -> HitAsk:
    """Check ``d2d hit``'s input against the combo reading: under "played" (001 l.826
    "Play cards to make an allowed set") the combo cards follow the winning card; under
    "revealed" (000 l.482) only the winning card is given and ``--combo`` reveals.

    Units (``data`` is the session's): ``by`` is the Actor, whose Level is its skill's;
    ``vs`` may name the Rival unit, whose defending skill gives the Rival Level and
    whose stat (``terms.stat``, Body by default: 001 l.824 "Weapons default to Body")
    the Difficulty. ``level``, ``rival_level`` and ``difficulty`` override. ``said``:
    further sources the Hits name (the remembered exchange's), last. ``roster``: the
    session's units already built (a simulated fight's live units), read instead of
    ``data``'s tables; ``shared``: the assessment of the Conflict these Hits follow, its
    units unchanged since (:func:`levels`); ``assessor``: ``assess`` as the caller
    remembers it (rules.combat.situation.Assessor)."""
    if not cards:
        raise BadInput("give the winner's card(s), e.g. 2S 3H 4C")
    if combos == "played" and (combo or table is not None):
        raise BadInput("--combo and --card reveal combo cards under [rules] combos = "
                       "\"revealed\" (000); under 001 give the combo cards after the "
                       "winning card (e.g. 2S 3H 4C)")
    if combos == "revealed":
        if len(cards) > 1:
            raise BadInput("[rules] combos = \"revealed\" (000 l.482): combo cards are "
                           "revealed, not played — give the winning card only, and --combo "
                           "to reveal")
        if table is not None and not combo:
            raise BadInput("--card gives the combo cards revealed at the table: add --combo")
    if level is not None:
        conflict.check_level(level, "--level")
    if rival_level is not None:
        conflict.check_level(rival_level, "--rival-level")
    terms = terms or _NO_TERMS
    sit, value, source, actor = levels(data, by=by, vs=vs, level=level,
                                       rival_level=rival_level, difficulty=difficulty,
                                       terms=terms, skill=skill, rival_skill=rival_skill,
                                       opts=opts, use_map=use_map, roster=roster,
                                       shared=shared, assessor=assessor)
    if (terms.advantage or terms.disadvantage) and not (combos == "revealed" and combo):
        raise BadInput("--advantage/--disadvantage keep the best/worst of revealed cards: "
                       "hit reveals only combo cards, with [rules] combos = \"revealed\" "
                       "and --combo (000 l.482)")
    pushed, extra = damage_bonus(actor, opts)
    feat, feat_by, change = heroic_feat_of(heroic_feat, actor, data, vs)
    # the Hits' bonus Modifiers given, in order (a plain test, not a generator: every Hits)
    bonus = (() if feat is None else (feat,)) if pushed is None else \
        (pushed,) if feat is None else (pushed, feat)
    return HitAsk(tuple(cards), level or 0, rival_level or 0, value, ten_always_hits,
                  combos, combo, table, sit, source, bonus, extra + change, feat_by,
                  tuple((said or {}).items()), opts.counter == "000")


def damage_bonus(actor: Unit | None, opts: Options) -> tuple[Modifier | None, int]:
    """``[rules] push_the_limit = "000"``: 000 l.254 "Push the Limit - … Normal
    Damage:+1 this Turn" — Hits +1 per use for the scoring unit (its Level is not
    raised: rules.combat.situation)."""
    effects = _effects
    n = effects.pushed(actor)
    if not n or opts.push_the_limit != "000" or actor is None:
        return None, 0
    # Level 0 on the modifier: the Level is not raised, the Hits are.
    return Modifier("push_the_limit_damage", f"Push the Limit: Normal Damage +{n} (Hits "
                    f"+{n})", "a", 0, "session", effects.PUSH_000), n


def _difficulty(difficulty: int | None, vs: str | None, rival: Unit | None,
                units: Mapping[str, Unit], terms: Terms) -> tuple[int, str, Stat | None]:
    """The Difficulty the Hits are scored against (001 l.816), where it came from, and the
    Rival's stat when ``--vs`` gives one: ``--difficulty N``, the Rival unit's stat
    after its conditions, or ``--vs`` as a number or a stat."""
    rival_stat: Stat | None = None
    source: str
    if difficulty is not None:
        if vs is not None and rival is None:
            raise BadInput("give the Difficulty once: --vs DIFFICULTY or --difficulty N")
        if difficulty < 1:
            raise BadInput(f"--difficulty takes a Difficulty of 1 or more, not {difficulty}")
        value, source = difficulty, "--difficulty"
    elif rival is not None:
        stat = target_stat(terms.stat)
        got = effective_stat(rival, stat)
        value, source = got.level, f"{rival.name}'s {stat.capitalize()} {got}"
    elif vs is None:
        raise BadInput("Missing option '--vs': the Difficulty — a number (--vs 2), the "
                       "Rival's stat (--vs 2x1) or a unit on the board (--vs \"Goblin "
                       "Scout\"); or --difficulty N")
    else:
        try:
            value = parse_difficulty(vs)
        except BadInput as e:
            import difflib

            near = difflib.get_close_matches(vs or "", list(units), n=3, cutoff=0.5)
            if near:
                raise BadInput(f"{e} — did you mean {', '.join(near)}?") from None
            raise
        source = f"--vs {vs}"
        if vs is not None and not _NUMBER.fullmatch(vs.strip()):
            rival_stat = parse_stat(vs)
    return value, source, rival_stat


def levels(data: dict[str, Any] | None, *, by: str | None = None, vs: str | None = None,
           level: int | None = None, rival_level: int | None = None,
           difficulty: int | None = None, terms: Terms | None = None,
           skill: str | None = None, rival_skill: str | None = None,
           opts: Options = DEFAULTS, use_map: bool = True,
           roster: Mapping[str, Unit] | None = None, shared: Assessed | None = None,
           assessor: Callable[..., Situation] | None = None
           ) -> tuple[Situation, int, str, Unit | None]:
    """The Levels, the Difficulty and where it came from, and the scoring unit, as
    ``hit`` reads them (``odds hits`` reads the same, so a unit's effects change both).
    ``shared``: the assessment of the Conflict these Hits follow, read as theirs where
    nothing the Hits alone read differs (rules.combat.situation.scoring_from)."""
    terms = terms or _NO_TERMS
    units: Mapping[str, Unit] = {}
    if data and data.get("units"):
        # only the units named are built
        units = roster if roster is not None else _roster.roster_view(data)
    actor = None
    if by is not None:
        actor = _roster.find(units, by)
    rival = _rival(vs, units)
    if actor is not None and actor is rival:
        raise BadInput(f"--by and --vs both name {actor.name}: the Hits are scored against "
                       "a Rival (001 l.816 \"Your Level - Rival Level\")")
    fld = _derive.field(data) if use_map and data and actor and rival else None
    # A fight's Assessor remembers the rest by all it reads, as conflict.ask's: the two
    # units' readings, the Field, the [rules], what the round remembers of the two
    # (remembered.recalled_view), the rest as given
    view = _remembered.recalled_view(data, actor, rival) if isinstance(
        assessor, Assessor) and actor is not None and rival is not None else None
    if view is not None:
        assert isinstance(assessor, Assessor) and actor is not None and rival is not None
        sit, value, source = assessor.remember(
            actor, rival, ("hits", view, vs, level, rival_level, difficulty, terms, skill,
                           rival_skill, use_map), fld, opts,
            _scored, data, actor, rival, units, vs, level, rival_level, difficulty, terms,
            skill, rival_skill, use_map, fld, opts, shared, assessor, True)
    else:
        sit, value, source = _scored(data, actor, rival, units, vs, level, rival_level,
                                     difficulty, terms, skill, rival_skill, use_map, fld,
                                     opts, shared, assessor)
    return sit, value, source, actor


def _scored(data: dict[str, Any] | None, actor: Unit | None, rival: Unit | None,
            units: Mapping[str, Unit], vs: str | None, level: int | None,
            rival_level: int | None, difficulty: int | None, terms: Terms,
            skill: str | None, rival_skill: str | None, use_map: bool, fld: Field | None,
            opts: Options, shared: Assessed | None,
            assessor: Callable[..., Situation] | None,
            kept: bool = False) -> tuple[Situation, int, str]:
    """:func:`levels`' Situation, Difficulty and its source: what the round remembers,
    the Difficulty, the assessment (the Conflict's ``shared`` one where
    :func:`~rules.combat.situation.scoring_from` allows, equal to a fresh one) and what
    was said. ``kept``: remembered for later callers, so what was said is a read-only
    view."""
    remembered = _remembered
    recalled = remembered.recall(data, actor, rival, terms, skill, use_map=use_map)
    terms, skill = recalled.terms, recalled.skill
    value, source, rival_stat = _difficulty(difficulty, vs, rival, units, terms)
    who_a = Who(actor, level, "--level")
    who_b = Who(rival, rival_level, "--rival-level")
    sit = scoring_from(shared, who_a, who_b, terms, skill=skill, rival_skill=rival_skill,
                       rival_stat=rival_stat, field=fld, opts=opts) or \
        (assessor or assess)(who_a, who_b, terms, skill=skill, rival_skill=rival_skill,
               rival_stat=rival_stat, rival_stat_source=source, opts=opts, scoring=True,
               field=fld)
    if recalled.sources:
        said = {k: v for k, v in recalled.sources.items() if k != "target_action"}
        if said:  # the Target's Action alone (a Hits after its own Conflict) adds nothing
            sit = remembered.with_said(sit, said, recalled)
            if kept:
                sit = sit._replace(extra_sources=MappingProxyType(sit.extra_sources))
    return sit, value, source


def names_unit(vs: str | None, data: dict[str, Any]) -> bool:
    """Whether ``--vs`` names a unit of the session (not a number or a stat)."""
    if not vs or not data.get("units"):
        return False
    from d2d_cli.rules.units.roster import roster

    return _rival(vs, roster(data)) is not None


FEAT = '001 l.611–613 "Heroic Feat - Character Point:-1 / Hits:+1 or -1 (e.g. Damage)"'


def heroic_feat_of(side: str | None, actor: Unit | None, data: dict[str, Any] | None,
                   vs: str | None) -> tuple[Modifier | None, str | None, int]:
    """``hit --heroic-feat a|b`` (001 l.611–613): a — the scorer's player spends 1 CP
    for Hits +1; b — the Rival's player spends 1 CP for Hits −1 (the damage it takes).
    A character side pays from its ``cp`` (refused at 0); another side's CP is the
    table's. Returns the modifier (Level 0: it moves no Level), the character that
    pays, and the Hits change."""
    if side is None:
        return None, None, 0
    word = side.strip().lower()
    if word not in ("a", "b"):
        raise BadInput(f"--heroic-feat {side}: a (you: Hits +1) or b (the Rival: Hits -1)")
    unit = actor if word == "a" else None
    if word == "b" and data and data.get("units"):
        from d2d_cli.rules.units.roster import roster

        unit = _rival(vs, roster(data))
    payer = None
    if unit is not None and "cp" in unit.extra:
        if int(unit.extra["cp"]) < 1:
            raise RuleViolation(f"a Heroic Feat costs 1 Character Point (001 l.611); "
                                f"{unit.name} has 0")
        payer = unit.name
    change = 1 if word == "a" else -1
    who = f"{payer} spends 1 Character Point" if payer else "1 Character Point, at the table"
    return Modifier("heroic_feat", f"Heroic Feat: Hits {change:+d} ({who})", word, 0,
                    "option", FEAT), payer, change


def spend_feat(data: dict[str, Any], name: str) -> dict[str, Any]:
    """The Heroic Feat's Character Point off ``name``: the roster to store."""
    from d2d_cli.rules.units.roster import find, roster, roster_state

    units = roster(data)
    unit = find(units, name)
    have = int(unit.extra.get("cp", 0))
    if have < 1:
        raise RuleViolation(f"a Heroic Feat costs 1 Character Point (001 l.611); "
                            f"{unit.name} has 0")
    unit.extra["cp"] = have - 1
    return roster_state(units)
