"""What a unit carries into a fight: its weapons, armor and Shield (issue 36).

000 l.506 "Each weapon has a Damage value. IF no Weapon THEN use Hand to Hand Damage";
l.510 "Damage Types - Each Weapon has 1 or 2 Damage Types … Use the deck corresponding
to the Weapon used"; 001 l.274–275 "[Weapon]: Rating:[Body]+2 [Pierce] [Slash]
[1-Handed] [Melee Weapon]"; 000 l.334–335 "Weapon Scale"; 000 l.1213–1214 "Magic Armor
- … In Combat, they provide Armor:+1x1/point" and "Magic Weapon - … Initiative:+1/point
and Target Armor:-1x-1/point"; 000 l.379 "Proficiency - In order to use a Weapon, …
you must have a Proficiency in that type"; 001 l.669 "Melee and Shields act on the
Left OR Right".

Where it lives in the session (the unit's own table, so a file written before it
reads unchanged):

- ``[units.NAME.weapons."Sword: Long"]``: ``rating`` (a formula ``Body+2`` or a rating
  ``6x1``), ``types`` (1 or 2), ``hands``, ``attack`` (melee, reach, ranged, thrown),
  ``range`` (a ranged weapon's bands), ``scale``, ``magic``, ``proficiency``;
- ``[units.NAME.armor]`` (location = rating, read by ``crit`` since issue 19) and
  ``[units.NAME.gear]``: ``armor_names``, ``magic_armor``, ``shield`` with
  ``shield_covers`` and ``shield_arc``, ``shield_name``;
- ``proficiencies`` (a list): when a unit has one, a weapon of a type not in it is
  used at Disadvantage (docs/rules.md "What a unit carries").

The sample items are ``tables/gear.toml``. A unit with no weapon fights Hand to Hand:
its own Body (``Body``, no damage type: the Wound deck, 001 l.824 "Weapons default to
Body").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput, NotFound
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result
from d2d_cli.rules.scale.stats import parse_stat

WEAPONS = "weapons"
PROFICIENCIES = "proficiencies"
ATTACKS = ("melee", "reach", "ranged", "thrown")
ARCS = ("left", "right")
MAX_MAGIC = 5  # 000 l.1213–1214 "Rated from +1 to +5"
MAX_RANGE = 10_000
HAND_TO_HAND = "Hand to Hand"
SOURCES = {
    "weapon": '001 l.274–275 "[Weapon]: Rating:[Body]+2 [Pierce] [Slash] [1-Handed] '
              '[Melee Weapon]"',
    "hand_to_hand": '000 l.506 "IF no Weapon THEN use Hand to Hand Damage"',
    "types": '000 l.510 "Each Weapon has 1 or 2 Damage Types"',
    "magic_weapon": '000 l.1214 "Magic Weapon - … In Combat, they provide Initiative:+1/point '
                    'and Target Armor:-1x-1/point"',
    "magic_armor": '000 l.1213 "Magic Armor - Rated from +1 to +5. In Combat, they provide '
                   'Armor:+1x1/point"',
    "proficiency": '000 l.379 "Proficiency - In order to use a Weapon, Mount, or specialized '
                   'Item, you must have a Proficiency in that type"',
    "shield_arc": '001 l.669 "Melee and Shields act on the Left OR Right"',
    "range": '001 l.693 "Other - Range depends on Power/Item"',
}
# A rating written as a formula, STAT[+N|-N] (001 l.918–920 "Body+2"): the one pattern
# (a weapon's rating here, ``crit --weapon`` in rules.combat.crits).
FORMULA_RE = re.compile(r"^\s*\[?(body|mind|will|speed)\]?\s*(?:([+-])\s*(\d+))?\s*$",
                        re.IGNORECASE)


@cache
def samples() -> dict[str, Any]:
    return tables.load("gear")


def _damage_types() -> dict[str, str]:
    decks = tables.load("damage")["decks"]
    return {t: d for d, spec in decks.items() for t in spec["types"]}


def _key(text: str) -> str:
    return "_".join(str(text).strip().lower().replace("-", " ").split())


@record
class Weapon(Result):
    """One weapon a unit carries (or Hand to Hand)."""

    name: str
    rating: str  # "Body+2" or "6x1"
    types: tuple[str, ...] = ()
    hands: int = 1
    attack: str = "melee"  # melee, reach, ranged, thrown
    range: tuple[int, ...] = ()  # ranged/thrown: [short] or [short, long]
    scale: int | None = None  # the Weapon Scale (None: the wielder's Body's)
    magic: int = 0
    proficiency: str | None = None

    @property
    def kind(self) -> str:
        """The kind of attack the conflict reads (tables/modifiers.toml ``range``):
        a thrown weapon flies as a ranged one."""
        return "ranged" if self.attack == "thrown" else self.attack

    @property
    def hand_to_hand(self) -> bool:
        return self.name == HAND_TO_HAND

    def reaches(self, rng: int) -> bool:
        """Whether it reaches Range ``rng`` (a ranged weapon: its longest band)."""
        if self.kind == "ranged":
            return not self.range or rng <= self.range[-1]
        return rng <= (2 if self.kind == "reach" else 1)

    def long_range(self, rng: int) -> bool:
        """Past its short band, inside its long one: at Disadvantage."""
        return self.kind == "ranged" and len(self.range) == 2 and self.range[0] < rng \
            <= self.range[1]

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rating": self.rating, "types": list(self.types),
                               "hands": self.hands, "attack": self.attack}
        if self.range:
            out["range"] = list(self.range)
        if self.scale is not None:
            out["scale"] = self.scale
        if self.magic:
            out["magic"] = self.magic
        if self.proficiency:
            out["proficiency"] = self.proficiency
        return out

    def text(self) -> str:
        """``Sword: Long (Body+2, pierce/slash, 1-handed, melee)``."""
        bits = [self.rating, "/".join(self.types) or "no type", f"{self.hands}-handed",
                self.attack + (f" {'/'.join(map(str, self.range))}" if self.range else "")]
        if self.scale is not None:
            bits.append(f"Weapon Scale {self.scale}")
        if self.magic:
            bits.append(f"Magic +{self.magic}")
        return f"{self.name} ({', '.join(bits)})"


def hand_to_hand() -> Weapon:
    """000 l.506 "IF no Weapon THEN use Hand to Hand Damage": the unit's own Body, in
    Close Combat reach (001 l.685), no damage type (the Wound deck, 001 l.824)."""
    return Weapon(HAND_TO_HAND, "Body", (), 0, "melee")


def check_rating(text: str, where: str) -> str:
    text = str(text).strip()
    m = FORMULA_RE.match(text)
    if m:
        return m.group(1).capitalize() + (f"{m.group(2)}{m.group(3)}" if m.group(2) else "")
    try:
        return str(parse_stat(text))
    except BadInput:
        raise BadInput(f"{where}: rating {text!r} is a formula STAT[+N|-N] (Body+2) or a "
                       "rating such as 6x1 (001 l.918–920)") from None


def check_types(types: Any, where: str) -> tuple[str, ...]:
    if isinstance(types, str):
        types = [t for t in re.split(r"[,\s/]+", types) if t]
    names = tuple(dict.fromkeys(_key(t) for t in types))
    known = _damage_types()
    bad = [t for t in names if t not in known]
    if bad:
        raise BadInput(f"{where}: unknown damage type {', '.join(bad)} — known: "
                       f"{', '.join(sorted(known))}")
    if not 1 <= len(names) <= 2:
        raise BadInput(f"{where}: a weapon has 1 or 2 Damage Types, not {len(names)} "
                       f"({SOURCES['types']})")
    if len({known[t] for t in names}) > 1:
        raise BadInput(f"{where}: {', '.join(names)} are types of different Damage Decks; "
                       "a weapon's types pick one deck (000 l.510)")
    return names


def _int(value: Any, lo: int, hi: int, what: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) and not str(value).lstrip(
            "-").isdigit():
        raise BadInput(f"{where}: {what} is a whole number, not {value!r}")
    n = int(value)
    if not lo <= n <= hi:
        raise BadInput(f"{where}: {what} is {lo} to {hi}, not {n}")
    return n


def make_weapon(name: str, raw: Mapping[str, Any], where: str | None = None) -> Weapon:
    """A weapon from its table (the session's, a scene file's, a sample's), checked."""
    where = where or f"weapon {name!r}"
    if not isinstance(raw, Mapping):
        raise BadInput(f"{where} must be a table (rating, types, hands, attack…)")
    if "rating" not in raw:
        raise BadInput(f"{where} needs a rating (Body+2, or 6x1)")
    attack = str(raw.get("attack", "melee")).strip().lower()
    if attack not in ATTACKS:
        raise BadInput(f"{where}: attack is one of {', '.join(ATTACKS)}, not {attack!r}")
    bands = raw.get("range", ())
    if isinstance(bands, int | str):
        bands = [bands]
    rng = tuple(_int(b, 1, MAX_RANGE, "a range band", where) for b in bands)
    if attack in ("ranged", "thrown") and not 1 <= len(rng) <= 2:
        raise BadInput(f"{where}: a {attack} weapon needs its range: [short] or "
                       f"[short, long] in Spaces ({SOURCES['range']})")
    if attack not in ("ranged", "thrown") and rng:
        raise BadInput(f"{where}: a {attack} weapon's reach is its kind (001 l.685–691); "
                       "range is for ranged and thrown weapons")
    if len(rng) == 2 and rng[0] >= rng[1]:
        raise BadInput(f"{where}: range [short, long] needs short < long, not {list(rng)}")
    scale = raw.get("scale")
    prof = raw.get("proficiency")
    return Weapon(str(name), check_rating(raw["rating"], where),
                  check_types(raw.get("types", ()), where),
                  _int(raw.get("hands", 1), 0, 2, "hands", where), attack, rng,
                  None if scale is None else _int(scale, -100, 100, "scale", where),
                  _int(raw.get("magic", 0), 0, MAX_MAGIC, "magic", where),
                  str(prof).strip() if prof else None)


def weapons_of(extra: Mapping[str, Any], name: str) -> tuple[Weapon, ...]:
    """A unit's weapons (``[units.NAME.weapons]``), in the order written."""
    raw = extra.get(WEAPONS)
    if not raw:
        return ()
    if not isinstance(raw, Mapping):
        raise BadInput(f"the weapons of unit {name!r} must be a table of weapon = "
                       "{rating, types, …}")
    # Remembered by content (a simulated fight asks for the same weapons thousands of
    # times): a plain table's repr is its content, and a Weapon is frozen.
    key = (name, repr(raw)) if type(raw) is dict else None
    got = _WEAPONS.get(key) if key is not None else None
    if got is None:
        got = tuple(make_weapon(str(k), v, f"unit {name!r}: weapon {k!r}")
                    for k, v in raw.items())
        if key is not None:
            if len(_WEAPONS) >= 1024:
                _WEAPONS.clear()
            _WEAPONS[key] = got
    return got


_WEAPONS: dict[tuple[str, str], tuple[Weapon, ...]] = {}


def find_weapon(extra: Mapping[str, Any], unit: str, name: str) -> Weapon:
    """The unit's weapon ``name`` (case-insensitive), or NotFound naming what it has."""
    held = weapons_of(extra, unit)
    for w in held:
        if w.name.lower() == name.strip().lower():
            return w
    if name.strip().lower() == HAND_TO_HAND.lower():
        return hand_to_hand()
    has = ", ".join(w.name for w in held) or "no weapon (Hand to Hand)"
    raise NotFound(f"{unit} carries no weapon {name!r} — it carries {has}")


def proficient(extra: Mapping[str, Any], weapon: Weapon) -> bool | None:
    """000 l.379: whether the unit has the Proficiency ``weapon`` needs. None: the
    unit keeps no list of Proficiencies (files before it, or a table that does not
    track them) — nothing is checked; Hand to Hand needs none."""
    held = extra.get(PROFICIENCIES)
    if held is None or weapon.hand_to_hand:
        return None
    need = (weapon.proficiency or weapon.name).lower()
    return need in {str(p).strip().lower() for p in held}


# --------------------------------------------------------------------------- samples


def sample(name: str) -> tuple[str, str, dict[str, Any]]:
    """A sample item by name (case-insensitive): (kind, name, spec), kind one of
    weapons, armor, shields."""
    want = name.strip().lower()
    for kind in ("weapons", "armor", "shields"):
        for key, spec in samples().get(kind, {}).items():
            if key.lower() == want:
                return kind, key, dict(spec)
    raise NotFound(f"no sample item {name!r} — the samples: {', '.join(sample_names())}; "
                   "or give your own: --rating (a weapon), --armor, --shield")


def sample_names() -> list[str]:
    return [k for kind in ("weapons", "armor", "shields") for k in samples().get(kind, {})]


def sample_weapon(name: str) -> Weapon | None:
    """``crit --weapon NAME``: a sample weapon by name, or None."""
    want = name.strip().lower()
    for key, spec in samples().get("weapons", {}).items():
        if key.lower() == want:
            return make_weapon(key, spec)
    return None


def armor_value_with_magic(level: int, scale: int, plus: int) -> tuple[float, int]:
    """Magic Armor and Magic Weapons on an Armor Rating, as a quantity (level, scale):
    000 l.1213 "Armor:+1x1/point" adds 1x1 per point; 000 l.1214 "Target Armor:-1x-1/
    point" is read as −1x1 per point (docs/rules.md "What a unit carries": 1x-1 is a
    tenth of the smallest printed armor and would round away)."""
    value = level * 10 ** scale + 10 * plus
    return value, scale


# --------------------------------------------------------------------------- gear view


@record
class GearView(Result):
    """``unit gear show``: what a unit carries."""

    unit: str
    weapons: tuple[Weapon, ...]
    hand_to_hand: bool  # no weapon: Hand to Hand (000 l.506)
    armor: dict[str, str]  # location (or "all") → rating
    armor_names: tuple[str, ...]
    magic_armor: int
    shield: str | None
    shield_name: str | None
    shield_covers: tuple[str, ...]
    shield_arc: str | None
    screen: int
    items: dict[str, str]
    vulnerable: tuple[str, ...]
    proficiencies: tuple[str, ...] | None
    changed: str | None = None  # what add/rm did
    sources: dict[str, str] | None = None


def view(unit_name: str, extra: Mapping[str, Any], changed: str | None = None) -> GearView:
    gear = dict(extra.get("gear") or {})
    armor = extra.get("armor")
    table = {"all": str(armor)} if isinstance(armor, str) else \
        {str(k): str(v) for k, v in dict(armor or {}).items()}
    shield = gear.get("shield")
    profs = extra.get(PROFICIENCIES)
    held = weapons_of(extra, unit_name)
    return GearView(
        unit_name, held, not held, table, tuple(gear.get("armor_names", ())),
        int(gear.get("magic_armor", 0)), None if shield is None else str(shield),
        gear.get("shield_name"), tuple(gear.get("shield_covers", ())), gear.get("shield_arc"),
        int(gear.get("screen", 0)), dict(gear.get("items", {})),
        tuple(gear.get("vulnerable", ())),
        None if profs is None else tuple(str(p) for p in profs), changed,
        {"weapons": SOURCES["weapon"]} if held else {"weapons": SOURCES["hand_to_hand"]})


def sheet_lines(extra: Mapping[str, Any], unit_name: str) -> dict[str, list[str]]:
    """The printable sheet's Weapons and Armor lines (empty: it carries nothing)."""
    weapons = [w.text() for w in weapons_of(extra, unit_name)]
    armor_lines: list[str] = []
    armor = extra.get("armor")
    if isinstance(armor, str):
        armor_lines.append(f"{armor} every location")
    elif armor:
        armor_lines.append(", ".join(f"{k} {v}" for k, v in dict(armor).items()))
    gear = extra.get("gear") or {}
    if gear.get("magic_armor"):
        armor_lines.append(f"Magic Armor +{gear['magic_armor']}")
    if gear.get("shield") is not None:
        arc = f" (Arc:{str(gear['shield_arc']).title()})" if gear.get("shield_arc") else ""
        armor_lines.append(f"{gear.get('shield_name') or 'Shield'} {gear['shield']}{arc}")
    return {"weapons": weapons, "armor": armor_lines}


def summary_line(extra: Mapping[str, Any], unit_name: str) -> str:
    """One line for sheets, ``status --why`` and the players' page: the weapons, armor
    and Shield a unit carries (``Hand to Hand`` without a weapon)."""
    held = weapons_of(extra, unit_name)
    parts = [", ".join(w.text() for w in held) if held else f"{HAND_TO_HAND} (Body)"]
    armor = extra.get("armor")
    if armor:
        parts.append("armor " + (str(armor) if isinstance(armor, str) else ", ".join(
            f"{k} {v}" for k, v in dict(armor).items())))
    gear = extra.get("gear") or {}
    if gear.get("magic_armor"):
        parts.append(f"Magic Armor +{gear['magic_armor']}")
    if gear.get("shield") is not None:
        arc = f" on Arc:{str(gear['shield_arc']).title()}" if gear.get("shield_arc") else ""
        parts.append(f"Shield {gear['shield']}{arc}")
    return "; ".join(parts)


# --------------------------------------------------------------------------- give, take


@record
class GearAsk:
    """``unit gear add UNIT [ITEM]`` as typed: a sample's name, or an item of one's own
    (``rating`` a weapon, ``armor`` armor, ``shield`` a Shield), and Proficiencies."""

    item: str | None = None
    rating: str | None = None
    types: str | None = None
    hands: int | None = None
    attack: str | None = None  # melee, reach, ranged, thrown (ranged with a range)
    range: str | None = None  # "8" or "4,8"
    scale: int | None = None
    magic: int | None = None
    proficiency: str | None = None  # the weapon's type (000 l.379)
    armor: str | None = None
    shield: str | None = None
    covers: str | None = None  # locations, comma-separated
    arc: str | None = None  # left or right (a Shield)
    proficient: tuple[str, ...] = ()  # Proficiencies the unit gains


def _covers(text: Any, locations: tuple[str, ...], where: str) -> list[str]:
    names = [_key(x) for x in (re.split(r"[,+\s]+", text) if isinstance(text, str)
                               else text) if str(x).strip()]
    bad = [n for n in names if n not in locations]
    if bad or not names:
        raise BadInput(f"{where}: {', '.join(bad) or 'no location'} — the locations are "
                       f"{', '.join(locations)} (e.g. --covers head,torso)")
    return names


def _own_weapon(ask: GearAsk) -> dict[str, Any]:
    spec: dict[str, Any] = {"rating": ask.rating, "types": ask.types or ()}
    attack = ask.attack or ("ranged" if ask.range else "melee")
    spec["attack"] = attack
    if ask.range:
        spec["range"] = [b for b in re.split(r"[,\s]+", ask.range) if b]
    for key in ("hands", "scale", "magic", "proficiency"):
        if getattr(ask, key) is not None:
            spec[key] = getattr(ask, key)
    return spec


def give(extra: dict[str, Any], unit_name: str, ask: GearAsk,
         locations: tuple[str, ...]) -> str:
    """Put an item (and Proficiencies) on the unit's record; returns what was done.
    ``locations`` are the person chart's (armor and Shields cover some of them)."""
    own = [o for o, v in (("--rating", ask.rating), ("--armor", ask.armor),
                          ("--shield", ask.shield)) if v is not None]
    if len(own) > 1:
        raise BadInput(f"give one item at a time: {' or '.join(own)}")
    if ask.item is None and not ask.proficient:
        raise BadInput("name the item (a sample such as \"Sword: Long\", or your own with "
                       "--rating, --armor or --shield), or --proficient TYPE")
    weapon_opts = [o for o, v in (("--types", ask.types), ("--hands", ask.hands),
                                  ("--range", ask.range), ("--attack", ask.attack),
                                  ("--scale", ask.scale), ("--proficiency", ask.proficiency))
                   if v is not None]
    if weapon_opts and ask.rating is None and (ask.item is None or own):
        raise BadInput(f"{', '.join(weapon_opts)} describe a weapon of your own: give its "
                       "--rating too")
    done: list[str] = []
    if ask.item is not None:
        name = ask.item.strip()
        if not name or len(name) > 40 or not name.isprintable():
            raise BadInput(f"item name {ask.item!r}: 1–40 printable characters")
        if own:
            kind, spec = {"--rating": "weapons", "--armor": "armor",
                          "--shield": "shields"}[own[0]], {}
            if kind == "weapons":
                spec = _own_weapon(ask)
            else:
                spec = {"rating": ask.armor or ask.shield,
                        "covers": ask.covers or ",".join(locations),
                        **({"arc": ask.arc} if ask.arc else {})}
        else:
            kind, name, spec = sample(name)
            if ask.magic is not None:
                spec["magic"] = ask.magic
            if ask.arc is not None:
                spec["arc"] = ask.arc
            if ask.covers is not None:
                spec["covers"] = ask.covers
        done.append(_put(extra, unit_name, kind, name, spec, locations, ask.magic))
    if ask.proficient:
        have = [str(p) for p in extra.get(PROFICIENCIES, [])]
        new = [p.strip() for p in ask.proficient if p.strip().lower() not in
               {h.lower() for h in have}]
        if any(not p or len(p) > 100 for p in new):
            raise BadInput("--proficient names a type of weapon (e.g. Bow), 1–100 characters")
        extra[PROFICIENCIES] = have + new
        done.append(f"Proficiency {', '.join(ask.proficient)}")
    return "gave " + "; ".join(done)


def _put(extra: dict[str, Any], unit_name: str, kind: str, name: str, spec: dict[str, Any],
         locations: tuple[str, ...], magic: int | None) -> str:
    where = f"{unit_name}: {name}"
    if kind == "weapons":
        w = make_weapon(name, spec, where)
        held = dict(extra.get(WEAPONS) or {})
        if any(k.lower() == name.lower() for k in held):
            raise BadInput(f"{unit_name} already carries {name!r}: unit gear rm it first")
        held[w.name] = w.to_state()
        extra[WEAPONS] = held
        return w.text()
    gear = dict(extra.get("gear") or {})
    rating = str(spec["rating"]).strip().replace("×", "x")
    parse_stat(rating)  # as written (001 prints 1x1), checked
    covers = _covers(spec.get("covers", ()), locations, where)
    if kind == "shields":
        arc = str(spec.get("arc", "left")).strip().lower()
        if arc not in ARCS:
            raise BadInput(f"{where}: a Shield is held on the left or right "
                           f"({SOURCES['shield_arc']}), not {arc!r}")
        if gear.get("shield") is not None:
            raise BadInput(f"{unit_name} already holds a Shield: unit gear rm "
                           f"{unit_name!r} shield first")
        gear.update(shield=rating, shield_covers=covers, shield_arc=arc, shield_name=name)
        extra["gear"] = gear
        return f"Shield {name!r} {rating} on Arc:{arc.title()} over {', '.join(covers)}"
    armor = extra.get("armor")
    table = {c: str(armor) for c in locations} if isinstance(armor, str) else \
        dict(armor or {})
    for c in covers:
        table[c] = rating
    extra["armor"] = table
    gear["armor_names"] = [*gear.get("armor_names", []), name]
    if magic is not None:
        gear["magic_armor"] = _int(magic, 0, MAX_MAGIC, "Magic Armor", where)
    extra["gear"] = gear
    plus = f", Magic Armor +{gear['magic_armor']}" if gear.get("magic_armor") else ""
    return f"armor {name} {rating} over {', '.join(covers)}{plus}"


def take(extra: dict[str, Any], unit_name: str, item: str | None,
         proficient: tuple[str, ...] = ()) -> str:
    """Take a weapon (by name), ``armor`` (all of it), ``shield``, or Proficiencies."""
    done: list[str] = []
    if item is not None:
        want = item.strip().lower()
        held = dict(extra.get(WEAPONS) or {})
        gear = dict(extra.get("gear") or {})
        match = [k for k in held if k.lower() == want]
        if match:
            del held[match[0]]
            if held:
                extra[WEAPONS] = held
            else:
                extra.pop(WEAPONS, None)
            done.append(match[0])
        elif want == "armor" or want in {str(n).lower() for n in gear.get("armor_names", [])}:
            if "armor" not in extra:
                raise NotFound(f"{unit_name} wears no armor")
            extra.pop("armor", None)
            for k in ("armor_names", "magic_armor"):
                gear.pop(k, None)
            done.append("armor")
        elif want == "shield" or want == str(gear.get("shield_name", "")).lower():
            if gear.get("shield") is None:
                raise NotFound(f"{unit_name} holds no Shield")
            for k in ("shield", "shield_covers", "shield_arc", "shield_name"):
                gear.pop(k, None)
            done.append("Shield")
        else:
            has = [*(held or {}), *(["armor"] if "armor" in extra else []),
                   *(["shield"] if gear.get("shield") is not None else [])]
            raise NotFound(f"{unit_name} carries no {item!r} — it carries "
                           f"{', '.join(has) or 'nothing'}")
        if gear:
            extra["gear"] = gear
        else:
            extra.pop("gear", None)
    if proficient:
        have = [str(p) for p in extra.get(PROFICIENCIES, [])]
        drop = {p.strip().lower() for p in proficient}
        missing = drop - {h.lower() for h in have}
        if missing:
            raise NotFound(f"{unit_name} has no Proficiency {', '.join(sorted(missing))}")
        extra[PROFICIENCIES] = [h for h in have if h.lower() not in drop]
        done.append(f"Proficiency {', '.join(proficient)}")
    if not done:
        raise BadInput("name the item to take (a weapon, armor or shield), or --proficient")
    return "took " + ", ".join(done)
