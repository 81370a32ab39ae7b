"""Real quantities ↔ stats: mass → Body, speed → Speed, IQ → Mind, and map scales.

000 "Reference > Units": "Body is derived from Mass. Mass - Mass in kg. Human Male
is 80kg = 8x1" · "Mind is equal to IQ-50 (e.g. 5x1)" · "Speed … Below 20 kph -
Running Speed in m/s … Above 20 kph - Cruising Speed in kph". 001 p.10 "Stat"
samples: "Human Male Body - 8x1 = 80kg/176lb, Speed - 5x0 = 5kph/3mph … Speed of
Light - 1x9 = 1x10^9 kph" (the level counts km/h at every speed).

Pure functions over the data in ``tables/units.toml`` and ``tables/maps.toml``.
Unit arithmetic is done with :class:`fractions.Fraction` (every unit factor is an
exact fraction), and values become :class:`decimal.Decimal` only to be rounded to a
stat or printed, so 1e-35 … 1e60 convert exactly.

Helpers other features call: :func:`describe` (a stat as real quantities, a dict),
:func:`summary` (one line for a sheet), :func:`body_kg`, :func:`mind_iq`,
:func:`speed_kph`, :func:`speed_mps`, :func:`move_on_map`.
"""

from __future__ import annotations

import math
import re
import tomllib
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

from d2d_cli.errors import BadInput
from d2d_cli.rules.stats import (
    CTX,
    Stat,
    canonical,
    compare,
    format_stat,
    level_bonus,
    parse_stat,
    scale_difference,
)

KINDS = ("body", "mind", "speed")
CONVENTIONS = ("001", "000")
DEFAULT_CONVENTION = "001"

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_QUANTITY_RE = re.compile(
    rf"^\s*(?P<num>{_NUMBER})?(?:\s*[x×*]\s*10\s*\^\s*(?P<exp>[+-]?\d+))?\s*(?P<unit>.*?)\s*$"
)


@cache
def table(name: str) -> dict[str, Any]:
    """A rules table from ``d2d_cli/tables/<name>.toml`` (read once)."""
    from importlib.resources import files  # ~3 ms: only when a table is needed

    with files("d2d_cli.tables").joinpath(f"{name}.toml").open("rb") as f:
        return tomllib.load(f)


def _units(kind: str) -> dict[str, Any]:
    units: dict[str, Any] = table("units")[kind]["units"]
    return units


@cache
def _unit_names(kind: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, spec in _units(kind).items():
        for name in spec["names"]:
            out[name.lower()] = key
    return out


def unit_factor(kind: str, unit: str) -> Fraction:
    """How many SI units (kg, m/s) one ``unit`` is, exactly."""
    return Fraction(_units(kind)[unit]["si"])


KPH = Fraction(5, 18)  # one km/h in m/s


def dec(x: Fraction | Decimal | int) -> Decimal:
    """A Fraction as a Decimal (exact when it terminates, else 250 digits)."""
    if isinstance(x, Fraction):
        return CTX.divide(Decimal(x.numerator), Decimal(x.denominator))
    return Decimal(x)


def exact_text(x: Fraction | Decimal) -> str:
    """The value as text a person or script can feed back in: exact when the decimal
    terminates (``80``, ``8E+60``, ``50.000…02``), else 34 significant digits."""
    d = dec(x) if isinstance(x, Fraction) else x
    if isinstance(x, Fraction) and not _terminates(x):
        d = round_sig(d, 34)
    d = d.normalize(CTX)
    if -7 <= d.adjusted() < 21:
        return format(d, "f")
    return str(d)


def round_sig(d: Decimal, sig: int) -> Decimal:
    """``d`` rounded to ``sig`` significant digits (half even), at any exponent."""
    return d.quantize(Decimal(1).scaleb(d.adjusted() - sig + 1), context=CTX)


def _terminates(x: Fraction) -> bool:
    den = x.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    return den == 1


def fmt(x: Fraction | Decimal | float, sig: int = 4) -> str:
    """For people: ``80``, ``176.4``, ``100,000``, ``5.97×10^24``, ``9×10^-31``."""
    d = dec(x) if isinstance(x, Fraction) else Decimal(repr(x)) if isinstance(x, float) else x
    if d == 0:
        return "0"
    r = round_sig(d, sig)
    e = r.adjusted()  # after rounding: 9.9996 → 10.00
    if -3 <= e < 7:
        text = format(r, ",f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    mant = r.scaleb(-e, CTX)
    mtext = format(mant.normalize(CTX), "f")
    return f"{mtext}×10^{e}"


# --- parsing real quantities --------------------------------------------------------


def _accepted(kind: str) -> str:
    keys = list(_units(kind))
    return ", ".join(keys)


def _scale_range() -> tuple[int, int]:
    r = table("units")["range"]
    return int(r["min_scale"]), int(r["max_scale"])


def _digits(text: object) -> str:
    """``100,000`` and ``80_000`` are 100000 and 80000 (001 p.10 prints "100,000kph")."""
    return re.sub(r"(?<=\d)[,_](?=\d{3}(?!\d))", "", str(text))


def parse_quantity(text: str, kind: str, *, default_unit: str | None = None
                   ) -> tuple[Fraction, Decimal, str]:
    """``"5.97e24kg"`` → (SI value, the number typed, the unit's key).

    Accepts ``80kg``, ``80 kg``, ``5.97e24kg``, ``5.97x10^24 kg``, ``60 t``,
    ``175 lbs``, ``2 short tons``, ``40 km/h``, ``0.5c``, ``c``. A value must be
    positive and finite, and within the stat range of ``units.toml``.
    """
    what = "a mass" if kind == "mass" else "a speed"
    example = "80kg, 175lb, 5.97e24kg" if kind == "mass" else "4m/s, 40kph, 25mph, 0.5c"
    accepted = f"{what} is a positive number and a unit ({_accepted(kind)}), e.g. {example}"
    m = _QUANTITY_RE.match(_digits(text))
    if not m or (m.group("num") is None and m.group("exp") is not None):
        raise BadInput(f"not {what}: {text!r} — {accepted}")
    raw_unit = re.sub(r"\s+", "", m.group("unit")).lower().rstrip(".")
    if m.group("num") is None:
        if not raw_unit:
            raise BadInput(f"not {what}: {text!r} — {accepted}")
        number = Decimal(1)  # "c" = 1 c
    else:
        number = Decimal(m.group("num"))
        if m.group("exp") is not None:
            number = number.scaleb(_bounded_exp(int(m.group("exp")), text, accepted), CTX)
        _check_magnitude(number, text, accepted)
    if not raw_unit:
        if default_unit is None:
            raise BadInput(f"{text!r} has no unit — {accepted}")
        unit = default_unit
    else:
        names = _unit_names(kind)
        found = names.get(raw_unit)
        if found is None and raw_unit.endswith("s"):
            found = names.get(raw_unit[:-1])
        if found is None and m.group("num") is None:
            raise BadInput(f"not {what}: {text!r} — {accepted}")
        if found is None:
            raise BadInput(f"unknown unit {m.group('unit')!r} in {text!r} — {accepted}")
        unit = found
    if number <= 0:
        raise BadInput(f"{what} must be positive, not {text!r} — {accepted}")
    si = Fraction(number) * unit_factor(kind, unit)
    _check_range(si, text, accepted)
    return si, number, unit


def _bounded_exp(e: int, text: str, accepted: str) -> int:
    if abs(e) > 999:
        _out_of_range(text, accepted)
    return e


def _check_magnitude(d: Decimal, text: str, accepted: str) -> None:
    """Refuse 1e999999999 before any exact arithmetic would build a billion-digit number."""
    if d.is_finite() and d != 0 and abs(d.adjusted()) > 999:
        _out_of_range(text, accepted)


def _out_of_range(text: str, accepted: str) -> None:
    lo, hi = _scale_range()
    raise BadInput(f"{text!r} is beyond the range d2d reads (stats from scale {lo} to "
                   f"+{hi}) — {accepted}")


def _check_range(x: Fraction, text: str, accepted: str) -> None:
    lo, hi = _scale_range()
    e = math.floor(math.log10(x.numerator)) - math.floor(math.log10(x.denominator))
    if not (lo - 2 <= e <= hi + 1):
        _out_of_range(text, accepted)


def check_stat_range(stat: Stat) -> Stat:
    lo, hi = _scale_range()
    if not (lo <= stat.scale <= hi):
        raise BadInput(f"{stat} is beyond the range d2d reads: stats from scale {lo} to +{hi}")
    return stat


def stat_json(stat: Stat) -> dict[str, Any]:
    """The stat fields every scale result carries."""
    return {**stat.to_json(), "partial_stat": format_stat(stat, partial=True)}


# --- Body ↔ mass --------------------------------------------------------------------


def body_kg(stat: Stat) -> Fraction:
    """The mass a Body stat stands for, in kg (000: "Mass in kg. Human Male is 80kg = 8x1")."""
    return Fraction(stat.exact)


def _reading(kind: str, si: Fraction, unit: str) -> dict[str, Any]:
    v = si / unit_factor(kind, unit)
    return {"value": float(dec(v)), "unit": unit, "text": f"{fmt(v)} {unit}"}


def _best(kind: str, system: str, si: Fraction) -> dict[str, Any]:
    """The reading in the largest unit of ``system`` that keeps the number ≥ 1."""
    choices = table("units")[kind]["show"][system]
    best = choices[0]
    for unit in choices:
        if si / unit_factor(kind, unit) >= 1:
            best = unit
    v = si / unit_factor(kind, best)
    if not (Fraction(1, 1000) <= v < 10**7):  # far out of range: one plain unit
        best = choices[1] if len(choices) > 1 else best
    return _reading(kind, si, best)


def mass_readings(kg: Fraction) -> dict[str, Any]:
    """Metric and imperial readings of a mass, with Deadlift, Carry and Load (000
    "Units > Body": "Deadlift - Can lift Mass x 1.5 very briefly. Carry - Can carry
    Mass x 1 for short periods. Load - … Mass / 2 for extended periods")."""
    derived = {}
    for name, factor in table("units")["mass"]["derived"].items():
        x = kg * Fraction(factor)
        derived[name] = {"kg": float(dec(x)), "lb": float(dec(x / unit_factor("mass", "lb"))),
                         "metric": _best("mass", "metric", x)["text"],
                         "imperial": _best("mass", "imperial", x)["text"]}
    return {"metric": _best("mass", "metric", kg), "imperial": _best("mass", "imperial", kg),
            "derived": derived}


def mass(text: str) -> dict[str, Any]:
    """``d2d scale mass``: a real mass → Body, read back in kg (and lb, and derived)."""
    kg, number, unit = parse_quantity(text, "mass", default_unit="kg")
    stat = check_stat_range(canonical(dec(kg)))
    back = body_kg(stat.whole)
    return {**stat_json(stat), "as": "body", "value": float(dec(back)),
            "value_exact": exact_text(back), "unit": "kg", "counts": "kg",
            "input": {"text": text, "value": float(number), "unit": unit,
                      "si_value": float(dec(kg)), "si_unit": "kg"},
            **mass_readings(back)}


# --- Mind ↔ IQ ----------------------------------------------------------------------

_IQ_ACCEPTED = "an IQ is a number above 50 (Mind = IQ − 50), e.g. 100, 110, 1e6"


def _iq_offset() -> Decimal:
    return Decimal(table("units")["mind"]["iq_offset"])


def mind_iq(stat: Stat) -> Decimal:
    """The IQ a Mind stat stands for (000: "Mind is equal to IQ-50"): 5x1 → 100."""
    return CTX.add(stat.exact, _iq_offset())


def iq(text: str) -> dict[str, Any]:
    """``d2d scale iq``: an IQ → Mind (IQ − 50), read back as an IQ; and back: given a
    Mind stat (``5x1``), the IQ it stands for (as ``describe(stat, "mind")``)."""
    if re.search(r"[x×]", str(text), re.IGNORECASE) and "^" not in str(text):
        return describe(parse_stat(str(text)), "mind")
    m = re.fullmatch(rf"\s*(?:iq\s*)?({_NUMBER})\s*(?:iq)?\s*", _digits(text), re.IGNORECASE)
    if not m:
        raise BadInput(f"not an IQ: {text!r} — {_IQ_ACCEPTED}")
    number = Decimal(m.group(1))
    _check_magnitude(number, text, _IQ_ACCEPTED)
    mind = CTX.subtract(number, _iq_offset())
    if mind <= 0:
        raise BadInput(f"IQ {text!r} gives no Mind: {_IQ_ACCEPTED}")
    _check_range(Fraction(mind), text, _IQ_ACCEPTED)
    stat = check_stat_range(canonical(mind))
    back = mind_iq(stat.whole)
    return {**stat_json(stat), "as": "mind", "value": float(back),
            "value_exact": exact_text(back), "unit": "IQ", "counts": "IQ − 50",
            "input": {"text": text, "value": float(number), "unit": "IQ"}}


# --- Speed ↔ speed ------------------------------------------------------------------


def check_convention(convention: object) -> str:
    if str(convention) not in CONVENTIONS:
        raise BadInput(f"speed convention {convention!r} is not one of 001 (the level counts "
                       "km/h) or 000 (below 20 km/h it counts m/s)")
    return str(convention)


def _counts_mps(value: Fraction, convention: str, *, from_stat: bool) -> bool:
    """000 "Units > Speed": "Below 20 kph - Running Speed in m/s". For a real speed the
    test is its km/h; for a stat, its number (below 20 it is m/s: 2x1 = 20 kph)."""
    if convention != "000":
        return False
    below = Fraction(table("units")["speed"]["conventions"]["000"]["below_kph"])
    return value < below if from_stat else value / KPH < below


def speed_stat(mps: Fraction, convention: str = DEFAULT_CONVENTION) -> tuple[Stat, str]:
    """A real speed (m/s) → (Speed stat, the unit its level counts)."""
    if _counts_mps(mps, convention, from_stat=False):
        return canonical(dec(mps)), "m/s"
    return canonical(dec(mps / KPH)), "km/h"


def speed_mps(stat: Stat, convention: str = DEFAULT_CONVENTION) -> tuple[Fraction, str]:
    """A Speed stat → (its real speed in m/s, the unit its level counts)."""
    v = Fraction(stat.exact)
    if _counts_mps(v, convention, from_stat=True):
        return v, "m/s"
    return v * KPH, "km/h"


def speed_kph(stat: Stat, convention: str = DEFAULT_CONVENTION) -> Fraction:
    """A Speed stat in km/h: 5x0 → 5 (001 p.10), or 4x0 → 14.4 under 000."""
    return speed_mps(stat, convention)[0] / KPH


def speed_readings(mps: Fraction) -> dict[str, Any]:
    out: dict[str, Any] = {
        "metric": _reading("speed", mps, "km/h"), "mps": _reading("speed", mps, "m/s"),
        "imperial": _reading("speed", mps, "mph"), "knots": _reading("speed", mps, "knot"),
        "c": _reading("speed", mps, "c"),
    }
    return out


def _other(stat: Stat, mps: Fraction, convention: str) -> dict[str, Any] | None:
    other = "000" if convention == "001" else "001"
    o_stat, o_unit = speed_stat(mps, other)
    if o_stat == stat:
        return None
    return {"convention": other, **stat_json(o_stat), "counts": o_unit}


def speed(text: str, convention: str = DEFAULT_CONVENTION) -> dict[str, Any]:
    """``d2d scale speed``: a real speed → Speed, by the table's convention."""
    check_convention(convention)
    mps, number, unit = parse_quantity(text, "speed")
    stat, counts = speed_stat(mps, convention)
    check_stat_range(stat)
    back, _ = speed_mps(stat.whole, convention)
    return {**stat_json(stat), "as": "speed", "value": float(dec(back)),
            "value_exact": exact_text(back), "unit": "m/s", "counts": counts,
            "convention": convention, "other_convention": _other(stat, mps, convention),
            "input": {"text": text, "value": float(number), "unit": unit,
                      "si_value": float(dec(mps)), "si_unit": "m/s"},
            "readings": speed_readings(back)}


# --- a stat as real quantities ------------------------------------------------------


def describe(stat: Stat, as_: str = "body", convention: str = DEFAULT_CONVENTION
             ) -> dict[str, Any]:
    """What a stat stands for in the real world (``d2d scale show``).

    ``describe(parse_stat("8x1"), "body")`` → value 80, unit kg, 176.4 lb, Deadlift
    120 kg, Carry 80 kg, Load 40 kg. ``"mind"``: 5x1 → IQ 100. ``"speed"``: 5x0 →
    5 km/h (001), with the 000 reading when it differs.
    """
    check_stat_range(stat)
    base = {**stat_json(stat), "as": as_}
    if as_ == "body":
        kg = body_kg(stat)
        return {**base, "value": float(dec(kg)), "value_exact": exact_text(kg), "unit": "kg",
                "counts": "kg", **mass_readings(kg)}
    if as_ == "mind":
        iq_value = mind_iq(stat)
        return {**base, "value": float(iq_value), "value_exact": exact_text(iq_value),
                "unit": "IQ", "counts": "IQ − 50"}
    if as_ == "speed":
        check_convention(convention)
        mps, counts = speed_mps(stat, convention)
        other = "000" if convention == "001" else "001"
        o_mps, o_counts = speed_mps(stat, other)
        return {**base, "value": float(dec(mps)), "value_exact": exact_text(mps),
                "unit": "m/s", "counts": counts, "convention": convention,
                "readings": speed_readings(mps),
                "other_convention": None if o_mps == mps else {
                    "convention": other, "counts": o_counts, "value": float(dec(o_mps)),
                    "unit": "m/s", "readings": speed_readings(o_mps)},
                "back": str(speed_stat(mps, convention)[0])}
    raise BadInput(f"--as {as_!r}: a stat can be shown as body (kg), mind (IQ) or speed")


def summary(stat: Stat, as_: str, convention: str = DEFAULT_CONVENTION) -> str | None:
    """One line for a character sheet, or None for a stat with no real unit (Will).

    Body 8x1 → ``80 kg / 176.4 lb; Deadlift 120 kg, Carry 80 kg, Load 40 kg``;
    Mind 5x1 → ``IQ 100``; Speed 5x0 → ``5 km/h / 3.107 mph``.
    """
    if as_ not in KINDS:
        return None
    d = describe(stat, as_, convention)
    if as_ == "body":
        der = d["derived"]
        return (f"{d['metric']['text']} / {d['imperial']['text']}; Deadlift "
                f"{der['deadlift']['metric']}, Carry {der['carry']['metric']}, "
                f"Load {der['load']['metric']}")
    if as_ == "mind":
        return f"IQ {d['value_exact']}"
    rd = d["readings"]
    unit = rd["mps"] if d["counts"] == "m/s" else rd["metric"]
    return f"{unit['text']} / {rd['imperial']['text']}"


def comparison(a: Stat, b: Stat) -> dict[str, Any]:
    """``d2d scale compare``: which is higher, the Level Bonus, the scale difference.

    001 p.5 "Level Bonus - When comparing Levels, the higher Level gains a bonus equal
    to their difference"; 001 p.34 "Compare Scales … (eg 2x4 > 9x1 = Hits:+3)".
    Both numbers are signed: positive when a's is the higher.
    """
    bonus, diff = level_bonus(a, b), scale_difference(a, b)
    return {"a": stat_json(a), "b": stat_json(b), "higher": compare(a, b),
            "level_bonus": bonus,
            "level_bonus_to": "a" if bonus > 0 else "b" if bonus < 0 else None,
            "scale_difference": diff,
            "higher_scale": "a" if diff > 0 else "b" if diff < 0 else None,
            "ratio": fmt(Fraction(a.exact) / Fraction(b.exact))}


def samples() -> list[dict[str, Any]]:
    """The rules' samples (``tables/scale_samples.toml``), each with d2d's reading:
    ``result`` is what d2d computes from ``value``, to match ``stat``."""
    out = []
    for row in table("scale_samples")["sample"]:
        conv = row.get("convention", DEFAULT_CONVENTION)
        if row["kind"] == "body":
            got = mass(row["value"])
        elif row["kind"] == "mind":
            got = iq(row["value"])
        else:
            got = speed(row["value"], conv)
        out.append({**row, "convention": conv if row["kind"] == "speed" else None,
                    "result": got["stat"], "partial": got["partial"],
                    "canonical": row["printed"] != row["stat"]})
    return out


# --- map scales ---------------------------------------------------------------------


def map_types() -> list[str]:
    return list(table("maps"))


def map_spec(key: str, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A map type's space (m) and round (s), with the table's ``[rules]`` applied."""
    maps = table("maps")
    name = str(key).strip().lower()
    if name not in maps:
        raise BadInput(f"unknown map type {key!r}: one of {', '.join(maps)}")
    spec = maps[name]
    round_s = spec.get("round_s")
    rkey = spec.get("round_key")
    if rkey and rules and rules.get(rkey) is not None:
        round_s = _positive_rule(rkey, rules[rkey])
    space = Fraction(spec["space_m"]) if "space_m" in spec else None
    rnd = Fraction(round_s) if round_s is not None else None
    move_1 = space / rnd if space is not None and rnd is not None else None
    return {"map": name, "name": spec["name"], "space_m": _num(space), "round_s": _num(rnd),
            "space_text": spec["space_text"], "printed": spec["printed"],
            "move_1_kph": _num(move_1 / KPH if move_1 is not None else None),
            "move_1_text": f"{fmt(move_1 / KPH)} km/h" if move_1 is not None else None,
            "_space": space, "_round": rnd}


def _positive_rule(key: str, value: object) -> Fraction:
    try:
        x = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        x = Fraction(0)
    if x <= 0:
        raise BadInput(f"[rules] {key} = {value!r} must be a positive number of seconds "
                       "(001: 6, 000: 2)")
    return x


def _num(x: Fraction | None) -> float | int | None:
    if x is None:
        return None
    return int(x) if x.denominator == 1 else float(dec(x))


def move_on_map(key: str, speed_stat_: Stat | None, convention: str = DEFAULT_CONVENTION,
                rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """How far a unit's Speed takes it on a map, each round.

    ``spaces_per_round`` = real speed × round ÷ space (exact); ``move`` = the whole
    spaces (rounded down: a unit never enters part of a Space); ``action_cost`` =
    Move ÷ 2 rounded down (001 p.19 "Action Cost = Speed/2 (round down)", 000
    "Action - Cost half Move (rounded down)"). On a Narrative map (no fixed scale)
    Move is the Speed level (001 p.19 "Move = Speed").
    """
    spec = map_spec(key, rules)
    space, rnd = spec.pop("_space"), spec.pop("_round")
    out: dict[str, Any] = {**spec, "speed": None, "spaces_per_round": None, "move": None,
                           "action_cost": None, "convention": convention}
    if speed_stat_ is None:
        return out
    check_convention(convention)
    check_stat_range(speed_stat_)
    mps, counts = speed_mps(speed_stat_, convention)
    out["speed"] = {**stat_json(speed_stat_), "counts": counts, "kph": float(dec(mps / KPH))}
    if space is None or rnd is None:
        move = speed_stat_.level
    else:
        spaces = mps * rnd / space
        out["spaces_per_round"] = float(dec(spaces))
        move = math.floor(spaces)
    out["move"] = move
    out["action_cost"] = move // 2
    return out


def maps_table(rules: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every map type (``d2d scale map --list``)."""
    out = []
    for key in map_types():
        spec = map_spec(key, rules)
        spec.pop("_space")
        spec.pop("_round")
        out.append(spec)
    return out
