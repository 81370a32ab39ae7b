"""Stealth tokens, Hide and Detect (``d2d unit stealth``; ``d2d unit act NAME hide`` and
``… detect TARGET``).

000 "Stealth": 000 l.803–807 "Tokens - The number of Tokens on Stealth represents how
Hidden you are. Tokens may not be more than 2xStealth. Forced: Maximum Move=Tokens. IF
Tokens=0 THEN you Reveal immediately. Reveal - Free: You may place your unit anywhere
within Move:Tokens of your Stealth unit, but it must be on or next to a space out of
sight of Rivals. Remove Tokens and Stealth Units. Surprise - IF you reveal adjacent to
a unit, you may give them Stress:+1. Remain Hidden - Clock: Tokens+1".
000 l.792 "Action: Stealth units within Spaces:2xPerception get Token:-1" (Perception:
Alertness).
001 l.561–563 "Hide - Move:-[Action Cost] IF out of sight THEN become Hidden".
001 l.589–593 "Detect - Stun:+1 IF something Hidden is in [Arc:Front] THEN [Mind] vs
[Body]-[Range] to detect"; 000 l.251–253 (Sight: Range Mind×2, Hearing: Mind×1).

The text gives no number of tokens for a unit that has just hidden: d2d places **1**
(the least that keeps it Hidden; ``unit stealth NAME hide N`` sets more, up to
2×Stealth) and the Clock adds one per tick (docs/rules.md "Stealth").
"""

from __future__ import annotations

from d2d_cli.errors import BadInput, RuleViolation
from d2d_cli.rules.core import result as res
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.units.abilities import alive, skill_level
from d2d_cli.rules.units.roster import Unit, effective_stats, find
from d2d_cli.rules.units.unit_state import STEALTH, put, stealth_tokens

FIRST_TOKENS = 1
DETECT_001 = '001 l.593 "[Mind] vs [Body]-[Range] to detect" (read as Body + Range: docs/errata.md)'
DETECT_000 = '000 l.252–253 "Sight - IF a Hidden Unit in Range:Mindx2 … Test Mind vs. Body"'
MAX_RANGE = 1000


tokens = stealth_tokens  # a unit's Stealth tokens (one reader: no wrapper's call)


def most(unit: Unit) -> int:
    """000 l.803 "Tokens may not be more than 2xStealth"."""
    return 2 * skill_level(unit, "Stealth")[1]


def _set(unit: Unit, n: int) -> None:
    put(unit, STEALTH, max(0, n))


@record
class Stealth(Result):
    """A unit's Stealth tokens after ``unit stealth`` (or the Hide action)."""

    unit: str
    action: str  # "hide", "tick", "spot", "reveal" or "show"
    tokens_before: int
    tokens: int
    max_tokens: int
    hidden: bool
    revealed: bool
    forced: bool
    # Reveal: the unit is placed within Move:Tokens of its Stealth unit (000 l.805).
    place_within: int | None
    summary: str = res.hidden("")


def _result(unit: Unit, action: str, before: int, revealed: bool = False,
            forced: bool = False, place_within: int | None = None) -> Stealth:
    now = tokens(unit)
    what = {"hide": f"hides ({now} token{'s' * (now != 1)})",
            "tick": f"remains Hidden: tokens {before} → {now}",
            "spot": f"spotted: tokens {before} → {now}",
            "reveal": "reveals", "show": "stealth"}[action]
    if forced:
        what += ", forced to Reveal"
    return Stealth(unit.name, action, before, now, most(unit), now > 0, revealed, forced,
                   place_within, f"{unit.name} {what}")


def hide(unit: Unit, count: int = FIRST_TOKENS) -> Stealth:
    """Become Hidden with ``count`` tokens (1 to 2×Stealth)."""
    alive(unit)
    cap = most(unit)
    if tokens(unit):
        raise RuleViolation(f"{unit.name} is already Hidden ({tokens(unit)} tokens): "
                            "d2d unit stealth NAME tick adds one")
    if cap == 0:
        raise RuleViolation(f"{unit.name} has no Stealth: tokens may not be more than "
                            "2xStealth = 0 (000 l.803)")
    if not 1 <= count <= cap:
        raise RuleViolation(f"{unit.name} may hold 1 to {cap} Stealth tokens (2xStealth, "
                            f"000 l.803), not {count}")
    _set(unit, count)
    return _result(unit, "hide", 0)


def _held(unit: Unit) -> int:
    if not tokens(unit):
        raise RuleViolation(f"{unit.name} is not Hidden (d2d unit stealth NAME hide, or "
                            "the Hide action)")
    return tokens(unit)


def tick(unit: Unit, count: int = 1) -> Stealth:
    """Remain Hidden: "Clock: Tokens+1" per tick, never above 2×Stealth."""
    before = _held(unit)
    _set(unit, min(most(unit), before + count))
    return _result(unit, "tick", before)


def spot(unit: Unit, count: int = 1) -> Stealth:
    """Tokens taken off (Alertness, 000 l.792, or the Narrator); at 0 the unit Reveals
    at once (000 l.804 "IF Tokens=0 THEN you Reveal immediately")."""
    before = _held(unit)
    _set(unit, max(0, before - count))
    forced = tokens(unit) == 0
    return _result(unit, "spot", before, revealed=forced, forced=forced,
                   place_within=0 if forced else None)


def reveal(unit: Unit) -> Stealth:
    """Reveal (free): place the unit within Move:Tokens of its Stealth unit; the tokens
    come off."""
    before = _held(unit)
    _set(unit, 0)
    return _result(unit, "reveal", before, revealed=True, place_within=before)


STEPS = {"hide": hide, "tick": tick, "spot": spot}


def change(units: dict[str, Unit], name: str, action: str, count: int | None) -> Stealth:
    """``unit stealth NAME hide|tick|spot|reveal|show [N]``."""
    unit = find(units, name)
    if count is not None and not 1 <= count <= 2 * 99:
        raise BadInput(f"{count} tokens: give 1 or more")
    if action == "reveal":
        return reveal(unit)
    if action == "show":
        return _result(unit, "show", tokens(unit))
    step = STEPS.get(action)
    if step is None:
        raise BadInput(f"unknown stealth action {action!r}: hide, tick, spot, reveal or show")
    return step(unit, 1 if count is None else count)


@record
class Detect(Result):
    """The Detect test to run: the detector's Mind against a Difficulty from the Hidden
    unit's Body. 001 l.593 prints "[Mind] vs [Body]-[Range]", which makes distance help
    the detector; d2d reads Body **+** Range (docs/errata.md "Detect"). ``[rules] detect
    = "000"``: 000 l.252–253 "Sight - IF a Hidden Unit in Range:Mindx2 enters your
    Arc:Forward Test Mind vs. Body … Hearing - IF a Hidden Unit enters Range:Mindx1 THEN
    Test Mind vs. Body": Mind vs Body within Mind×2, nothing past it."""

    target: str
    mind: int  # the detecting unit's Mind Level, after conditions (the Stun included)
    body: int  # the Hidden unit's Body Level, after conditions
    range: int
    difficulty: int  # 001 (errata): Body + Range; 000: Body
    target_tokens: int
    reading: str = "001"
    sense: str | None = None  # 000: "sight" (within Mind×2) or "hearing" (within Mind×1)
    source: str = DETECT_001


def detect(actor: Unit, target: Unit, range_: int, reading: str = "001") -> Detect:
    if actor.name == target.name:
        raise BadInput(f"{actor.name} cannot Detect itself")
    if not 0 <= range_ <= MAX_RANGE:
        raise BadInput(f"--range {range_}: give the Spaces to the target, 0 to {MAX_RANGE}")
    if not tokens(target):
        raise RuleViolation(f"{target.name} is not Hidden: nothing to Detect (001 l.591 "
                            "\"IF something Hidden is in [Arc:Front]\")")
    mind = _level(effective_stats(actor).get("mind"))
    body = _level(effective_stats(target).get("body"))
    if reading == "000":
        if range_ > 2 * mind:
            raise RuleViolation(
                f"{target.name} is at Range {range_}, past {actor.name}'s Sight (Range "
                f"Mind×2 = {2 * mind}): nothing to test (000 l.252 \"Sight - IF a Hidden "
                "Unit in Range:Mindx2 enters your Arc:Forward\")")
        sense = "hearing" if range_ <= mind else "sight"
        return Detect(target.name, mind, body, range_, body, tokens(target), "000", sense,
                      DETECT_000)
    return Detect(target.name, mind, body, range_, body + range_, tokens(target))


def _level(stat: str | None) -> int:
    return 0 if stat is None else int(float(stat.partition("x")[0]))


def refuse_hidden(target: Unit, by: str | None = None) -> None:
    """An attack or a Conflict against a Hidden unit: refused until it is found (000
    l.1201 "Hidden - A Unit or Item that cannot automatically be noticed"; Detect, 001
    l.589–593)."""
    if tokens(target):
        import shlex

        who = shlex.quote(by) if by else "ACTOR"
        raise RuleViolation(f"{target.name} is Hidden ({tokens(target)} Stealth tokens) and "
                            "cannot be attacked until it is found (000 l.1201 \"Hidden - A "
                            "Unit or Item that cannot automatically be noticed\"): d2d unit "
                            f"act {who} detect {shlex.quote(target.name)}")
