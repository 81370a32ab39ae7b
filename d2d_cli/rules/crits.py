"""Crits: serious damage from the Damage Decks (001 pp.33–38 "Crits", 000 "Damage").

001 p.34 "Crits: Rating": "Power Rating adds Hits. Armor Rating cancels Power Rating …
Stat - Rating may include a Stat: Body+2 with Body:4x1 = Power Rating:6x1 … Compare
Levels: IF Power Level > Armor Level THEN Hits:+1 (eg 7x2 > 2x1 = Hits:+1). Compare
Scales: IF Power Scale >= Armor Scale THEN Hits:+Difference (eg 2x4 > 9x1 = Hits:+3)".

001 p.33: "Find Deck with matching Damage Types. Draw until you find matching a Type" —
that card's location is the Crit location. 001 p.35: "Severity - … Minor - Major -
Critical - Extreme. Rotate - For each Hit > 1, rotate the card to the left to the next
Severity level". 001 p.39 "Resolution": "Hits - For any remaining Hits, place facedown
Damage cards" (Light Damage: Fatigue, Stun, Stress, Slow).

A damage card is written ``TYPE@LOCATION`` (``pierce@head``, ``fear@left_arm``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.stats import Stat, canonical, parse_stat

CHARTS = ("person", "vehicle")
MORTAL_RULES = ("past_extreme", "extreme", "off")


@cache
def damage_table() -> dict[str, Any]:
    return tables.load("damage")


@cache
def default_charts() -> dict[str, Any]:
    return tables.load("locations")


def _key(text: str) -> str:
    return re.sub(r"[\s\-]+", "_", text.strip().lower())


# --------------------------------------------------------------------------- charts


@dataclass(frozen=True)
class Chart:
    """A location chart: ``locations`` is [(key, name, cards per damage type)]."""

    kind: str
    name: str
    locations: tuple[tuple[str, str, int], ...]

    def names(self) -> dict[str, str]:
        return {k: n for k, n, _ in self.locations}


def chart(kind: str, custom: dict[str, Any] | None = None,
          source: str = "d2d default") -> Chart:
    """The person or vehicle chart: the table's own (a ``[rules] locations_file``
    parsed by the caller) where it defines one, else d2d's default."""
    data = (custom or {}).get(kind) or default_charts()[kind]
    where = f"the {kind} chart ({source})" if custom and custom.get(kind) else f"the {kind} chart"
    rows = data.get("locations") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise BadInput(f"{where} needs `locations = [{{key, name, cards}}, …]`")
    out = []
    for row in rows:
        try:
            key, name, cards = _key(str(row["key"])), str(row.get("name", row["key"])), \
                int(row.get("cards", 1))
        except (KeyError, TypeError, ValueError):
            raise BadInput(f"{where}: each location needs a key and whole-number cards, "
                           f"not {row!r}") from None
        if cards < 1 or not key:
            raise BadInput(f"{where}: location {key!r} needs a key and cards ≥ 1")
        out.append((key, name, cards))
    if len({k for k, _, _ in out}) != len(out):
        raise BadInput(f"{where}: a location key is repeated")
    return Chart(kind, str(data.get("name", kind)), tuple(out))


# --------------------------------------------------------------------------- types


def type_decks() -> dict[str, str]:
    """Every damage type → its deck key (``pierce`` → ``wound``)."""
    decks = damage_table()["decks"]
    return {t: d for d in damage_table()["order"] for t in decks[d]["types"]}


def _accepted_types() -> str:
    decks = damage_table()["decks"]
    return "; ".join(f"{decks[d]['name']}: {', '.join(decks[d]['types'])}"
                     for d in damage_table()["order"])


def parse_types(text: str | None) -> tuple[str, list[str]]:
    """``--types pierce,slash`` → (``wound``, [pierce, slash]). No types: the Wound deck
    ("Weapons default to Body", 001 p.31) and the first card is the location."""
    if text is None or not text.strip():
        return "wound", []
    names = [_key(t) for t in re.split(r"[,\s]+", text.strip()) if t]
    known = type_decks()
    bad = [t for t in names if t not in known]
    if bad:
        raise BadInput(f"unknown damage type {', '.join(bad)} — known types: "
                       f"{_accepted_types()}")
    decks = sorted({known[t] for t in names})
    if len(decks) > 1:
        raise BadInput(f"--types {text} name types of different Damage Decks "
                       f"({', '.join(decks)}); rate each deck separately")
    return decks[0], list(dict.fromkeys(names))


# --------------------------------------------------------------------------- rating


_FORMULA_RE = re.compile(r"^\s*\[?(body|mind|will|speed)\]?\s*(?:([+-])\s*(\d+))?\s*$",
                         re.IGNORECASE)


def power_rating(power: str | None, weapon: str | None, stat: str | None) -> Stat:
    """``--power 6x1``, or ``--weapon "Body+2" --stat 4x1`` → 6x1 (001 p.34)."""
    if power is not None and weapon is not None:
        raise BadInput("give --power or --weapon (with --stat), not both")
    if power is not None:
        return parse_stat(power)
    if weapon is None:
        raise BadInput('give the Power Rating: --power 6x1, or --weapon "Body+2" --stat 4x1')
    m = _FORMULA_RE.match(weapon)
    if not m:
        if "x" in weapon.lower():
            return parse_stat(weapon)
        raise BadInput(f"not a weapon rating: {weapon!r} — a rating is a stat (6x1) or a "
                       "formula STAT[+N|-N] with STAT body, mind, will or speed, e.g. Body+2")
    if stat is None:
        raise BadInput(f"--weapon {weapon} needs --stat: the wielder's "
                       f"{m.group(1).capitalize()}, e.g. --stat 4x1")
    base = parse_stat(stat)
    shift = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
    if base.exact_level + shift <= 0:
        raise BadInput(f"{weapon} with {stat} leaves no rating (level {base.level + shift})")
    return canonical(base.exact_level + shift, base.scale)


def rating_bonus(power: Stat, armor: Stat | None) -> dict[str, int]:
    """Hits from comparing Power with Armor: +1 if the Power's level is higher, +the
    difference of scales if the Power's scale is at least the Armor's. No Armor: the
    text compares with nothing, so no Hits are added (docs/rules.md)."""
    if armor is None:
        return {"level": 0, "scale": 0}
    return {"level": 1 if power.level > armor.level else 0,
            "scale": max(0, power.scale - armor.scale)}


# --------------------------------------------------------------------------- decks


def deck_cards(deck: str, ch: Chart) -> list[str]:
    """Every card of a Damage Deck for a chart: each type × each location × its cards."""
    types = damage_table()["decks"][deck]["types"]
    return [f"{t}@{key}" for t in types for key, _, n in ch.locations for _ in range(n)]


def parse_damage_card(text: str, ch: Chart) -> str:
    """``pierce@head``, ``Pierce @ Left Arm`` → ``pierce@left_arm``."""
    type_, sep, loc = text.partition("@")
    type_, loc = _key(type_), _key(loc)
    if not sep or type_ not in type_decks() or loc not in ch.names():
        raise BadInput(
            f"not a damage card: {text!r} — a damage card is TYPE@LOCATION with a damage "
            f"type ({_accepted_types()}) and a {ch.kind} location "
            f"({', '.join(ch.names())}), e.g. pierce@{ch.locations[0][0]}")
    return f"{type_}@{loc}"


@dataclass
class DamageDeck:
    """One virtual Damage Deck: ``draw`` top first, ``discard`` newest last."""

    draw: list[str]
    discard: list[str] = field(default_factory=list)
    reshuffled: bool = False

    @classmethod
    def from_state(cls, state: dict[str, Any] | None, cards: list[str],
                   rng: random.Random) -> tuple[DamageDeck, bool]:
        """The stored deck, or a freshly shuffled one when there is none or it no longer
        holds exactly ``cards`` (a new location chart). Returns (deck, rebuilt)."""
        if state:
            deck = cls([str(c) for c in state.get("draw", [])],
                       [str(c) for c in state.get("discard", [])])
            if sorted(deck.draw + deck.discard) == sorted(cards):
                return deck, False
        order = list(cards)
        rng.shuffle(order)
        return cls(order), True

    def to_state(self) -> dict[str, Any]:
        return {"draw": list(self.draw), "discard": list(self.discard)}

    def take(self, rng: random.Random) -> str:
        if not self.draw:
            self.draw = self.discard
            rng.shuffle(self.draw)
            self.discard = []
            self.reshuffled = True
        card = self.draw.pop(0)
        self.discard.append(card)
        return card


def find_crit(draw: Callable[[], str], types: list[str],
              limit: int) -> tuple[str | None, list[str]]:
    """Draw until a card of a matching type (any card when no types): (card, skipped).
    Table cards that run out raise ``fate.OutOfCards``."""
    skipped: list[str] = []
    for _ in range(limit):
        card = draw()
        if not types or card.split("@")[0] in types:
            return card, skipped
        skipped.append(card)
    return None, skipped


# --------------------------------------------------------------------------- severity


def check_mortal_rule(value: object) -> str:
    text = str(value)
    if text not in MORTAL_RULES:
        raise BadInput(f"[rules] mortal_wound must be one of {', '.join(MORTAL_RULES)}, "
                       f"not {value!r}")
    return text


def severity(hits: int, mortal_rule: str = "past_extreme") -> dict[str, Any]:
    """Minor at Hits 1, one rotation per Hit above 1, up to Extreme; Hits past Extreme
    are remaining Hits (light damage). A Mortal Wound (000 "4) Harm": "IF 4 or more
    Crits then the Unit has suffered a Mortal Wound and is Dying") comes past Extreme
    by default, at Extreme with ``mortal_rule="extreme"``, never with ``"off"``."""
    levels = damage_table()["severity"]["levels"]
    rotations = min(hits - 1, len(levels) - 1)
    remaining = max(0, hits - len(levels))
    mortal = {"past_extreme": hits > len(levels), "extreme": hits >= len(levels),
              "off": False}[check_mortal_rule(mortal_rule)]
    return {"severity": levels[rotations], "rotations": rotations, "remaining": remaining,
            "mortal": mortal}


# --------------------------------------------------------------------------- the Crit


def check_hits(hits: int) -> int:
    if hits < 1:
        raise BadInput(f"--hits must be 1 or more (a glancing blow is Hits 1), not {hits}")
    return hits


def rate(*, power: Stat, armor: Stat | None, hits: int, deck: str, types: list[str],
         ch: Chart, draw: Callable[[], str], mortal_rule: str = "past_extreme",
         ) -> dict[str, Any]:
    """The whole Crit: bonus Hits, the location card, severity and light damage."""
    check_hits(hits)
    check_mortal_rule(mortal_rule)
    bonus = rating_bonus(power, armor)
    total = hits + bonus["level"] + bonus["scale"]
    card, skipped = find_crit(draw, types, limit=len(deck_cards(deck, ch)))
    if card is None:
        want = ", ".join(types) or "any type"
        raise BadInput(f"no damage card matching {want} was drawn: keep drawing at the "
                       "table and give every card drawn, in order, with --card")
    type_, location = card.split("@")
    sev = severity(total, mortal_rule)
    spec = damage_table()["decks"][deck]
    return {
        "power": str(power),
        "armor": str(armor) if armor is not None else None,
        "bonus": bonus,
        "bonus_hits": bonus["level"] + bonus["scale"],
        "hits_before": hits,
        "hits": total,
        "deck": deck,
        "deck_name": spec["name"],
        "types": types,
        "chart": ch.kind,
        "card": card,
        "type": type_,
        "location": location,
        "location_name": ch.names()[location],
        "skipped": skipped,
        "severity": sev["severity"],
        "rotations": sev["rotations"],
        "mortal_wound": sev["mortal"],
        "light_damage": [spec["light"]] * sev["remaining"],
    }


def apply_to_unit(unit: Any, result: dict[str, Any]) -> dict[str, Any]:
    """Place the Crit on its target (001 p.39 "Crits - Place any Crits on Target"):
    the Crit is kept in the unit's ``crits`` list, each light damage adds its Minor
    Condition, and a Mortal Wound adds ``dying``. Returns what changed."""
    crit = {"card": result["card"], "deck": result["deck"], "location": result["location"],
            "severity": result["severity"], "mortal_wound": result["mortal_wound"]}
    unit.extra["crits"] = [*unit.extra.get("crits", []), crit]
    added: dict[str, int] = {}
    for key in result["light_damage"]:
        added[key] = added.get(key, 0) + 1
    if result["mortal_wound"]:
        added["dying"] = 1
    for key, n in added.items():
        unit.add_condition(key, n)
    return {"unit": unit.name, "crit": crit, "conditions_added": added,
            "conditions": dict(unit.conditions)}
