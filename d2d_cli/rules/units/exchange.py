"""What the round remembers between units: what the table said of their position this
round (cover, range, high ground), who Interrupted whom, and who Interacted with whom —
and whether the Target spent an Action in answer.

001 l.625 "Interrupt - Pause the Countdown"; l.637–641 "Target - Target chooses
Skill/Power/Item / Target may spend an Action / IF not Target gains no benefits on a
Win"; 000 l.310 "Interrupt - IF target was moving THEN the target stops moving until this
Interrupt is complete. The target must now choose to spend an Action or not."

Kept on the units (``Unit.extra``) with the round's number, as ``unit_state.spent`` is:
a record of another round counts for nothing, so what was said ends with the round
(``round end``, the next ``round start``) without either knowing about it. Within the
round, what was said holds until it is said again — and, for a unit on a map, only while
it stands on the Space it stood on when it was said (``space``): a unit that moves (or
is placed elsewhere) leaves what was said of it behind, and a Range or High Ground said
between two units lapses when either moves (docs/rules.md "What the round remembers").

- ``said``: ``{"round": N, "cover": {"*" | NAME: PCT}, "range": {NAME: SPACES},
  "high_ground": [NAME…]}`` — ``*`` is cover against every Rival; a range is kept on
  both units; high ground on the higher unit, naming the lower.
- ``interacted``: on a Target, ``{"round": N, "by": ACTOR, "interrupt": bool,
  "action": bool}`` — the last Interact aimed at it this round (``action`` absent until
  the Target answers).
- ``interrupted``: on a unit whose Move was Interrupted, ``{"round": N, "by": [ACTOR…]}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: a conflict of two cards never builds a unit
    from d2d_cli.rules.units.roster import Unit

SAID = "said"
INTERACTED = "interacted"
INTERRUPTED = "interrupted"
ANY = "*"  # cover against every Rival


def _this_round(unit: Unit, key: str, number: int, phase: str) -> dict[str, Any] | None:
    raw = unit.extra.get(key)
    if not isinstance(raw, dict) or phase != "started" or raw.get("round") != number:
        return None
    return raw


# --------------------------------------------------------------------------- said


def moved(unit: Unit, number: int, phase: str) -> bool:
    """Whether the unit stands elsewhere than when something was said of it this round
    (what was said of it has lapsed)."""
    raw = _this_round(unit, SAID, number, phase)
    return raw is not None and "space" in raw and raw["space"] != unit.extra.get("space")


def said(unit: Unit, number: int, phase: str) -> dict[str, Any]:
    """What was said of the unit this round: ``cover``, ``range``, ``high_ground``
    (empty outside a round under way, when said in another round, or when the unit has
    moved since)."""
    raw = _this_round(unit, SAID, number, phase)
    if not raw or ("space" in raw and raw["space"] != unit.extra.get("space")):  # moved
        return {"cover": {}, "range": {}, "high_ground": []}
    return {"cover": {str(k): int(v) for k, v in (raw.get("cover") or {}).items()},
            "range": {str(k): int(v) for k, v in (raw.get("range") or {}).items()},
            "high_ground": [str(n) for n in raw.get("high_ground") or []]}


def keep_said(unit: Unit, number: int, state: dict[str, Any]) -> None:
    kept = {k: v for k, v in state.items() if v and k != "space"}
    if kept:
        where = unit.extra.get("space")
        unit.extra[SAID] = {"round": number, **kept,
                            **({"space": where} if where is not None else {})}
    else:
        unit.extra.pop(SAID, None)


def cover_of(unit: Unit, rival: str | None, number: int, phase: str) -> int | None:
    """The unit's cover against ``rival`` (its own, else against every Rival)."""
    cover: dict[str, int] = said(unit, number, phase)["cover"]
    if rival is not None and rival in cover:
        return cover[rival]
    return cover.get(ANY)


def range_between(a: Unit, b: Unit, number: int, phase: str) -> int | None:
    if moved(a, number, phase) or moved(b, number, phase):
        return None  # said where one of them no longer stands
    mine: dict[str, int] = said(a, number, phase)["range"]
    theirs: dict[str, int] = said(b, number, phase)["range"]
    got = mine.get(b.name)
    return got if got is not None else theirs.get(a.name)


def higher(a: Unit, b: Unit, number: int, phase: str) -> str | None:
    """"a" when ``a`` was said to be higher than ``b``, "b" the other way, else None."""
    if moved(a, number, phase) or moved(b, number, phase):
        return None
    if b.name in said(a, number, phase)["high_ground"]:
        return "a"
    if a.name in said(b, number, phase)["high_ground"]:
        return "b"
    return None


# --------------------------------------------------------------------------- interact


def interacted(target: Unit, number: int, phase: str) -> dict[str, Any] | None:
    """The Interact aimed at ``target`` this round (the last one), or None."""
    return _this_round(target, INTERACTED, number, phase)


def open_interact(actor: Unit, target: Unit, number: int, phase: str) -> dict[str, Any]:
    """``actor`` Interacts with ``target``: the Action of ``actor``'s Interrupt when one is
    pending on ``target`` (``unit interrupt``), else a plain Interact."""
    raw = _this_round(target, INTERRUPTED, number, phase)
    pending = raw is not None and raw.get("pending") == actor.name
    if pending and raw is not None:
        target.extra[INTERRUPTED] = {k: v for k, v in raw.items() if k != "pending"}
    record = {"round": number, "by": actor.name, "interrupt": pending}
    target.extra[INTERACTED] = record
    return record


def answer(target: Unit, spent: bool) -> None:
    record = dict(target.extra[INTERACTED])
    record["action"] = spent
    target.extra[INTERACTED] = record


def interrupted_by(unit: Unit, number: int, phase: str) -> list[str]:
    """Who Interrupted the unit's Move this round, in order."""
    raw = _this_round(unit, INTERRUPTED, number, phase) or {}
    return [str(n) for n in raw.get("by") or []]


def pending_interrupt(unit: Unit, number: int, phase: str) -> str | None:
    raw = _this_round(unit, INTERRUPTED, number, phase) or {}
    got = raw.get("pending")
    return None if got is None else str(got)


def interrupt(actor: Unit, target: Unit, number: int, phase: str) -> list[str]:
    """``actor`` Interrupts ``target``'s Move: kept for the round, and pending until
    ``actor``'s Action (its next Interact with ``target``)."""
    by = interrupted_by(target, number, phase)
    if actor.name not in by:
        by.append(actor.name)
    target.extra[INTERRUPTED] = {"round": number, "by": by, "pending": actor.name}
    return by


def lines(unit: Unit, number: int, phase: str) -> tuple[str, ...]:
    """What the round remembers of the unit, for the Status Bar (``status``)."""
    if phase != "started":
        return ()
    s = said(unit, number, phase)
    out = [f"Cover {v}%" + ("" if k == ANY else f" vs {k}") for k, v in s["cover"].items()]
    out += [f"Range {v} to {k}" for k, v in s["range"].items()]
    out += [f"High Ground over {k}" for k in s["high_ground"]]
    by = interrupted_by(unit, number, phase)
    if by:
        out.append(f"Interrupted by {', '.join(by)}")
    rec = interacted(unit, number, phase)
    if rec is not None:
        given = rec.get("action")
        answer = "not answered" if given is None else (
            "spent an Action" if given else "no Action")
        out.append(f"Target of {rec['by']}: {answer}")
    return tuple(out)
