"""One exchange typed once: the last Conflict between units, remembered in the round
(``[round.exchange]``), so that ``hit`` and ``crit`` after it default to its winner, its
Rival and the winner's card (001 p.28–31: the winner of a Conflict counts the Hits of
its cards, then rates each Crit).

A Conflict whose winner may hit (its effects hold Hit or Counter-attack; when both win,
side A's) is remembered; a tie, a Block or one decided by rank is not. ``hit`` adds its
Hits, which ``crit`` then takes. Whatever is typed wins over what is remembered; round
start and round end forget it (they write the round afresh)."""

from __future__ import annotations

from typing import Any

from d2d_cli.rules.core.record import field, record

KEY = "exchange"


@record
class Exchange:  # a record: a NamedTuple class cost ~0.2 ms to build (issue 40 item 3)
    winner: str
    rival: str
    cards: tuple[str, ...]  # the winner's card codes (none when it gave an approach)
    skill: str | None  # the winner's skill, as the Conflict read it
    rival_skill: str | None
    hits: int | None  # the Hits its `hit` counted, once counted
    # what the Conflict was told: --cover, --no-map, situations
    told: dict[str, Any] = field(default_factory=dict)

    def said(self, took: list[str]) -> str:
        """The one line a command says when it takes these defaults (``took``: "card",
        "units", "hits")."""
        parts = []
        if "units" in took:
            parts.append(f"{self.winner} vs {self.rival}")
        if "card" in took:
            parts.append(" ".join(self.cards))
        if "hits" in took and self.hits is not None:
            parts.append(f"{self.hits} Hit{'s' * (self.hits != 1)}")
        if "said" in took and self.told:
            parts.append(" ".join(_option(k, v) for k, v in self.told.items()))
        return "From the conflict: " + ", ".join(parts)


def remembered(data: dict[str, Any] | None, *, played: bool = False) -> Exchange | None:
    """The exchange the round remembers for ``hit`` and ``crit``, or None. One an ``npc
    turn`` already played out (its Hits and Crit done: ``played``) is not theirs to reuse,
    but still the table's last result: ``played=True`` reads it too (the players'
    pages)."""
    raw = _raw(data, played)
    if raw is None:
        return None
    return Exchange(str(raw["winner"]), str(raw["rival"]),
                    tuple(str(c) for c in raw.get("cards", ())),
                    raw.get("skill"), raw.get("rival_skill"),
                    int(raw["hits"]) if "hits" in raw else None,
                    dict(raw.get("said") or {}))


def _raw(data: dict[str, Any] | None, played: bool) -> dict[str, Any] | None:
    """The round's table of the exchange :func:`remembered` reads, or None."""
    raw = ((data or {}).get("round") or {}).get(KEY)
    if not isinstance(raw, dict) or "winner" not in raw or "rival" not in raw:
        return None
    if raw.get("played") and not played:
        return None
    return raw


def _option(key: str, value: Any) -> str:
    flag = "--" + key.replace("_", "-")
    return flag if value is True else f"{flag} {value}"


SAID = ("range", "attack", "cover", "high_ground", "flank", "confined", "outnumbered",
        "weapon_scale")


def said_of(situation: dict[str, Any], no_map: bool) -> dict[str, Any]:
    """What a Conflict was told, to remember: the situational options given, and
    ``--no-map``."""
    out = {k: situation[k] for k in SAID if situation.get(k) is not None}
    return out | ({"no_map": True} if no_map else {})


def said_in(words: list[str]) -> dict[str, Any]:
    """The same from a command line (``npc turn``'s conflicts, as it typed them)."""
    out: dict[str, Any] = {}
    for i, w in enumerate(words):
        key = w.removeprefix("--").replace("-", "_")
        if w.startswith("--") and key in SAID and i + 1 < len(words):
            value = words[i + 1]
            out[key] = int(value) if key in ("range", "weapon_scale") and \
                value.lstrip("-").isdigit() else value
    return out | ({"no_map": True} if "--no-map" in words else {})


def of_conflict(result: Any) -> dict[str, Any] | None:
    """What a resolved Conflict (rules.combat.conflict.Conflict) leaves for ``hit`` and
    ``crit``: None unless both sides are units and one side (or both) won."""
    try:  # a Conflict's (a plain read, not getattr with a default: every Conflict)
        a, b, outcome = result.side_a, result.side_b, result.outcome
    except AttributeError:  # a Redirected (the Cover reveal named an obstacle), say
        return None
    if a is None or b is None or not a.unit or not b.unit or outcome not in ("a", "b",
                                                                               "both"):
        return None
    won, lost = (b, a) if outcome == "b" else (a, b)
    got = result.effects.b if outcome == "b" else result.effects.a
    hit = counterattack = False  # a plain loop: every Conflict of a fight asks
    for e in got:
        if e.key == "hit":
            hit = True
        elif e.key == "counterattack":
            counterattack = True
    if not (hit or counterattack):
        return None
    out: dict[str, Any] = {"winner": won.unit, "rival": lost.unit}
    if won.card is not None and hit:  # a Counter-attack hits with another card
        out["cards"] = [won.card.code]
    counter = getattr(result, "counter", None)
    if counterattack and counter is not None and counter.scores:
        out["cards"] = [counter.card.code]  # played out (001 l.754; 000 l.163)
    if won.skill:
        out["skill"] = won.skill
    if lost.skill:
        out["rival_skill"] = lost.skill
    return out


def with_hits(data: dict[str, Any], by: str | None, vs: str | None,
              hits: int) -> dict[str, Any] | None:
    """The round with the Hits a ``hit`` between the remembered sides counted (for
    ``crit``); a ``hit --by UNIT --vs UNIT`` between two other units (a Conflict played
    at the table) becomes the exchange, so its ``crit`` lands on that Rival. None when
    the hit names no two units."""
    if by is None or vs is None:
        return None
    ex = _raw(data, False)  # its names alone are read: no Exchange built (every Hits)
    rnd = dict(data.get("round") or {})
    # the very names the exchange holds (a fight's every Hits) are the same names folded
    if ex is not None and ((by == ex["winner"] and vs == ex["rival"]) or (
            (by.lower(), vs.lower()) == (str(ex["winner"]).lower(), str(ex["rival"]).lower()))):
        rnd[KEY] = {**rnd[KEY], "hits": hits}
        return rnd
    names = {n.lower(): n for n in (data.get("units") or {})}
    if by.lower() not in names or vs.lower() not in names or by.lower() == vs.lower():
        return None
    rnd[KEY] = {"winner": names[by.lower()], "rival": names[vs.lower()], "hits": hits}
    return rnd


def after_conflict(data: dict[str, Any], result: Any,
                   said: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The round with ``result`` remembered (and ``said``, what the Conflict was told),
    or the exchange before forgotten when this one leaves nothing to hit with; None when
    the round does not change."""
    kept = of_conflict(result)
    if kept is not None and said:
        kept["said"] = dict(said)
    rnd = dict(data.get("round") or {})
    if kept is None and KEY not in rnd:
        return None
    if kept is None:
        del rnd[KEY]
    else:
        rnd[KEY] = kept
    return rnd
