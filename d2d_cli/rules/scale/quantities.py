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
:func:`speed_kph`, :func:`speed_mps`, :func:`move_tokens` (Move and Action Cost on a
map: the one rule for them, with the map types, in :mod:`d2d_cli.rules.scale.maps`).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

from d2d_cli import tables
from d2d_cli.errors import BadInput
from d2d_cli.rules.core.options import DEFAULTS, Options
from d2d_cli.rules.core.record import record
from d2d_cli.rules.core.result import Result, renamed

# Move and Action Cost live in their own light module (a unit's Move needs none of the
# readings below); the names are this module's too, as they always were.
from d2d_cli.rules.scale.maps import CONVENTIONS as CONVENTIONS
from d2d_cli.rules.scale.maps import DEFAULT_CONVENTION as DEFAULT_CONVENTION
from d2d_cli.rules.scale.maps import KPH as KPH
from d2d_cli.rules.scale.maps import MoveTokens as MoveTokens
from d2d_cli.rules.scale.maps import check_convention as check_convention
from d2d_cli.rules.scale.maps import counts_mps, geometry, move_1_mps
from d2d_cli.rules.scale.maps import map_key as map_key
from d2d_cli.rules.scale.maps import map_types as map_types
from d2d_cli.rules.scale.maps import move_tokens as move_tokens
from d2d_cli.rules.scale.maps import speed_mps as speed_mps
from d2d_cli.rules.scale.stats import (
    CTX,
    Stat,
    canonical,
    check_stat_range,
    compare,
    format_stat,
    level_bonus,
    parse_stat,
    scale_difference,
    scale_range,
)

KINDS = ("body", "mind", "speed")


_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_QUANTITY_RE = re.compile(
    rf"^\s*(?P<num>{_NUMBER})?(?:\s*[x×*]\s*10\s*\^\s*(?P<exp>[+-]?\d+))?\s*(?P<unit>.*?)\s*$"
)


def _units(kind: str) -> dict[str, Any]:
    units: dict[str, Any] = tables.load("units")[kind]["units"]
    return units


@cache
def _unit_names(kind: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, spec in _units(kind).items():
        for name in spec["names"]:
            out[name.lower()] = key
    return out


@cache
def unit_factor(kind: str, unit: str) -> Fraction:
    """How many SI units (kg, m/s) one ``unit`` is, exactly.

    Remembered per (kind, unit): the factor depends only on the built-in table (a
    Fraction, immutable), and a ``scale mass`` reading asks for ~40 of them."""
    return Fraction(_units(kind)[unit]["si"])


@cache
def _shown(kind: str, system: str) -> tuple[tuple[str, Fraction], ...]:
    """The units ``system`` reads ``kind`` in, smallest first, with their factors."""
    return tuple((u, unit_factor(kind, u)) for u in tables.load("units")[kind]["show"][system])


@cache
def _derived_factors() -> tuple[tuple[str, Fraction], ...]:
    """Deadlift, Carry, Load: the multiples of a mass ``tables/units.toml`` derives."""
    return tuple((name, Fraction(f)) for name, f in tables.load("units")["mass"]["derived"].items())



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
    lo, hi = scale_range()
    raise BadInput(f"{text!r} is beyond the range d2d reads (stats from scale {lo} to "
                   f"+{hi}) — {accepted}")


def _check_range(x: Fraction, text: str, accepted: str) -> None:
    lo, hi = scale_range()
    e = math.floor(math.log10(x.numerator)) - math.floor(math.log10(x.denominator))
    if not (lo - 2 <= e <= hi + 1):
        _out_of_range(text, accepted)


# --- results ------------------------------------------------------------------------
# Each scale command's result is one of these; their JSON is the fields in order.


@record
class StatView(Result):
    """A stat as every scale result shows it: ``8x1``, its Level and scale, its partial
    Level (None when whole) and the partial written as a stat (``4.5x1``)."""

    stat: str
    level: int
    scale: int
    partial: float | None
    partial_stat: str

    @classmethod
    def of(cls, stat: Stat) -> StatView:
        return cls(**_stat_fields(stat))


def _stat_fields(stat: Stat) -> dict[str, Any]:
    return {"stat": str(stat.whole), "level": stat.level, "scale": stat.scale,
            "partial": stat.partial, "partial_stat": format_stat(stat, partial=True)}


@record(kw_only=True)
class Quantity(StatView):
    """A stat and the real quantity it stands for: ``value`` (exact as ``value_exact``)
    in ``unit``; ``counts`` is what its Level counts (kg, km/h, m/s, IQ − 50)."""

    as_: str = renamed("as")
    value: float
    value_exact: str
    unit: str
    counts: str


@record
class Reading(Result):
    """One reading of a quantity: ``80 kg``, ``176.4 lb``."""

    value: float
    unit: str
    text: str


@record
class Derived(Result):
    """Deadlift, Carry or Load of a mass, in kg and lb."""

    kg: float
    lb: float
    metric: str
    imperial: str


@record
class Input(Result):
    """What was typed, read: the number, its unit, and the value in SI units."""

    text: str
    value: float
    unit: str
    si_value: float
    si_unit: str


@record
class IQInput(Result):
    text: str
    value: float
    unit: str


@record(kw_only=True)
class MassRead(Quantity):
    """``scale mass``: a mass → Body, read back (metric, imperial, derived)."""

    input: Input
    metric: Reading
    imperial: Reading
    derived: dict[str, Derived]


@record(kw_only=True)
class BodyShown(Quantity):
    """``scale show --as body``: what a Body stat stands for."""

    metric: Reading
    imperial: Reading
    derived: dict[str, Derived]


@record(kw_only=True)
class IQRead(Quantity):
    """``scale iq``: an IQ → Mind."""

    input: IQInput


@record
class SpeedReadings(Result):
    metric: Reading
    mps: Reading
    imperial: Reading
    knots: Reading
    c: Reading


@record
class OtherStat(Result):
    """The other convention's stat for the same real speed."""

    convention: str
    stat: str
    level: int
    scale: int
    partial: float | None
    partial_stat: str
    counts: str


@record
class OtherReading(Result):
    """The other convention's real speed for the same stat."""

    convention: str
    counts: str
    value: float
    unit: str
    readings: SpeedReadings


@record(kw_only=True)
class SpeedRead(Quantity):
    """``scale speed``: a real speed → Speed, by the table's convention."""

    convention: str
    other_convention: OtherStat | None
    input: Input
    readings: SpeedReadings


@record(kw_only=True)
class SpeedShown(Quantity):
    """``scale show --as speed``: what a Speed stat stands for."""

    convention: str
    readings: SpeedReadings
    other_convention: OtherReading | None
    back: str


def _quantity(stat: Stat, as_: str, value: Fraction | Decimal, unit: str,
              counts: str) -> dict[str, Any]:
    return {**_stat_fields(stat), "as_": as_, "value": float(dec(value) if isinstance(
        value, Fraction) else value), "value_exact": exact_text(value), "unit": unit,
        "counts": counts}


# --- Body ↔ mass --------------------------------------------------------------------


def body_kg(stat: Stat) -> Fraction:
    """The mass a Body stat stands for, in kg (000: "Mass in kg. Human Male is 80kg = 8x1")."""
    return Fraction(stat.exact)


def _reading(kind: str, si: Fraction, unit: str) -> Reading:
    v = si / unit_factor(kind, unit)
    return Reading(float(dec(v)), unit, f"{fmt(v)} {unit}")


_MILLI = Fraction(1, 1000)


def _best(kind: str, system: str, si: Fraction) -> Reading:
    """The reading in the largest unit of ``system`` that keeps the number ≥ 1."""
    choices = _shown(kind, system)
    best, factor = choices[0]
    for unit, f in choices:
        if si >= f:  # si / f >= 1, as every factor is positive
            best, factor = unit, f
    v = si / factor
    if not (_MILLI <= v < 10**7):  # far out of range: one plain unit
        best = choices[1][0] if len(choices) > 1 else best
    return _reading(kind, si, best)


def mass_readings(kg: Fraction) -> dict[str, Any]:
    """Metric and imperial readings of a mass, with Deadlift, Carry and Load (000
    "Units > Body": "Deadlift - Can lift Mass x 1.5 very briefly. Carry - Can carry
    Mass x 1 for short periods. Load - … Mass / 2 for extended periods")."""
    derived = {}
    lb = unit_factor("mass", "lb")
    for name, factor in _derived_factors():
        x = kg * factor
        derived[name] = Derived(float(dec(x)), float(dec(x / lb)),
                                _best("mass", "metric", x).text,
                                _best("mass", "imperial", x).text)
    return {"metric": _best("mass", "metric", kg), "imperial": _best("mass", "imperial", kg),
            "derived": derived}


def mass(text: str) -> MassRead:
    """``d2d scale mass``: a real mass → Body, read back in kg (and lb, and derived)."""
    kg, number, unit = parse_quantity(text, "mass", default_unit="kg")
    stat = check_stat_range(canonical(dec(kg)))
    back = body_kg(stat.whole)
    return MassRead(**_quantity(stat, "body", back, "kg", "kg"),
                    input=Input(text, float(number), unit, float(dec(kg)), "kg"),
                    **mass_readings(back))


# --- Mind ↔ IQ ----------------------------------------------------------------------

_IQ_ACCEPTED = "an IQ is a number above 50 (Mind = IQ − 50), e.g. 100, 110, 1e6"


def _iq_offset() -> Decimal:
    return Decimal(tables.load("units")["mind"]["iq_offset"])


def mind_iq(stat: Stat) -> Decimal:
    """The IQ a Mind stat stands for (000: "Mind is equal to IQ-50"): 5x1 → 100."""
    return CTX.add(stat.exact, _iq_offset())


def iq(text: str) -> IQRead | Quantity:
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
    return IQRead(**_quantity(stat, "mind", back, "IQ", "IQ − 50"),
                  input=IQInput(text, float(number), "IQ"))


# --- Speed ↔ speed ------------------------------------------------------------------


def speed_stat(mps: Fraction, convention: str = DEFAULT_CONVENTION) -> tuple[Stat, str]:
    """A real speed (m/s) → (Speed stat, the unit its level counts)."""
    if counts_mps(mps, convention, from_stat=False):
        return canonical(dec(mps)), "m/s"
    return canonical(dec(mps / KPH)), "km/h"


def speed_kph(stat: Stat, convention: str = DEFAULT_CONVENTION) -> Fraction:
    """A Speed stat in km/h: 5x0 → 5 (001 p.10), or 4x0 → 14.4 under 000."""
    return speed_mps(stat, convention)[0] / KPH


def speed_readings(mps: Fraction) -> SpeedReadings:
    return SpeedReadings(_reading("speed", mps, "km/h"), _reading("speed", mps, "m/s"),
                         _reading("speed", mps, "mph"), _reading("speed", mps, "knot"),
                         _reading("speed", mps, "c"))


def _other(stat: Stat, mps: Fraction, convention: str) -> OtherStat | None:
    other = "000" if convention == "001" else "001"
    o_stat, o_unit = speed_stat(mps, other)
    if o_stat == stat:
        return None
    return OtherStat(other, **_stat_fields(o_stat), counts=o_unit)


def speed(text: str, convention: str = DEFAULT_CONVENTION) -> SpeedRead:
    """``d2d scale speed``: a real speed → Speed, by the table's convention."""
    check_convention(convention)
    mps, number, unit = parse_quantity(text, "speed")
    stat, counts = speed_stat(mps, convention)
    check_stat_range(stat)
    back, _ = speed_mps(stat.whole, convention)
    return SpeedRead(**_quantity(stat, "speed", back, "m/s", counts), convention=convention,
                     other_convention=_other(stat, mps, convention),
                     input=Input(text, float(number), unit, float(dec(mps)), "m/s"),
                     readings=speed_readings(back))


# --- a stat as real quantities ------------------------------------------------------


def describe(stat: Stat, as_: str = "body", convention: str = DEFAULT_CONVENTION
             ) -> BodyShown | Quantity | SpeedShown:
    """What a stat stands for in the real world (``d2d scale show``).

    ``describe(parse_stat("8x1"), "body")`` → value 80, unit kg, 176.4 lb, Deadlift
    120 kg, Carry 80 kg, Load 40 kg. ``"mind"``: 5x1 → IQ 100. ``"speed"``: 5x0 →
    5 km/h (001), with the 000 reading when it differs.
    """
    check_stat_range(stat)
    if as_ == "body":
        kg = body_kg(stat)
        return BodyShown(**_quantity(stat, "body", kg, "kg", "kg"), **mass_readings(kg))
    if as_ == "mind":
        return Quantity(**_quantity(stat, "mind", mind_iq(stat), "IQ", "IQ − 50"))
    if as_ == "speed":
        check_convention(convention)
        mps, counts = speed_mps(stat, convention)
        other = "000" if convention == "001" else "001"
        o_mps, o_counts = speed_mps(stat, other)
        return SpeedShown(
            **_quantity(stat, "speed", mps, "m/s", counts), convention=convention,
            readings=speed_readings(mps),
            other_convention=None if o_mps == mps else OtherReading(
                other, o_counts, float(dec(o_mps)), "m/s", speed_readings(o_mps)),
            back=str(speed_stat(mps, convention)[0]))
    raise BadInput(f"--as {as_!r}: a stat can be shown as body (kg), mind (IQ) or speed")


def summary(stat: Stat, as_: str, convention: str = DEFAULT_CONVENTION) -> str | None:
    """One line for a character sheet, or None for a stat with no real unit (Will).

    Body 8x1 → ``80 kg / 176.4 lb; Deadlift 120 kg, Carry 80 kg, Load 40 kg``;
    Mind 5x1 → ``IQ 100``; Speed 5x0 → ``5 km/h / 3.107 mph``.
    """
    if as_ not in KINDS:
        return None
    d = describe(stat, as_, convention)
    if isinstance(d, BodyShown):
        der = d.derived
        return (f"{d.metric.text} / {d.imperial.text}; Deadlift "
                f"{der['deadlift'].metric}, Carry {der['carry'].metric}, "
                f"Load {der['load'].metric}")
    if isinstance(d, SpeedShown):
        unit = d.readings.mps if d.counts == "m/s" else d.readings.metric
        return f"{unit.text} / {d.readings.imperial.text}"
    return f"IQ {d.value_exact}"


@record
class Comparison(Result):
    """``scale compare``: which stat is higher, the Level Bonus, the scale difference."""

    a: StatView
    b: StatView
    higher: str
    level_bonus: int
    level_bonus_to: str | None
    scale_difference: int
    higher_scale: str | None
    ratio: str


def comparison(a: Stat, b: Stat) -> Comparison:
    """``d2d scale compare``: which is higher, the Level Bonus, the scale difference.

    001 p.5 "Level Bonus - When comparing Levels, the higher Level gains a bonus equal
    to their difference"; 001 p.34 "Compare Scales … (eg 2x4 > 9x1 = Hits:+3)".
    Both numbers are signed: positive when a's is the higher.
    """
    bonus, diff = level_bonus(a, b), scale_difference(a, b)
    return Comparison(StatView.of(a), StatView.of(b), compare(a, b), bonus,
                      "a" if bonus > 0 else "b" if bonus < 0 else None, diff,
                      "a" if diff > 0 else "b" if diff < 0 else None,
                      fmt(Fraction(a.exact) / Fraction(b.exact)))


@record
class Sample:
    """One of the rules' samples (``tables/scale_samples.toml``) with d2d's reading:
    ``result`` is what d2d computes from ``value``, to match ``stat``. Its JSON echoes
    the table's row (its keys in the file's order), then d2d's reading."""

    row: dict[str, Any]
    convention: str | None
    result: str
    partial: float | None
    canonical: bool

    @property
    def name(self) -> str:
        return str(self.row["name"])

    @property
    def kind(self) -> str:
        return str(self.row["kind"])

    @property
    def value(self) -> str:
        return str(self.row["value"])

    @property
    def printed(self) -> str:
        return str(self.row["printed"])

    @property
    def stat(self) -> str:
        return str(self.row["stat"])

    @property
    def source(self) -> str:
        return str(self.row["source"])

    def to_json(self) -> dict[str, Any]:
        return {**self.row, "convention": self.convention, "result": self.result,
                "partial": self.partial, "canonical": self.canonical}


@record
class Samples(Result):
    samples: tuple[Sample, ...]


def samples() -> Samples:
    """The rules' samples (``tables/scale_samples.toml``), each with d2d's reading."""
    out = []
    for row in tables.load("scale_samples")["sample"]:
        conv = row.get("convention", DEFAULT_CONVENTION)
        got: StatView
        if row["kind"] == "body":
            got = mass(row["value"])
        elif row["kind"] == "mind":
            got = iq(row["value"])
        else:
            got = speed(row["value"], conv)
        out.append(Sample(dict(row), conv if row["kind"] == "speed" else None, got.stat,
                          got.partial, row["printed"] != row["stat"]))
    return Samples(tuple(out))


# --- map scales, Move and Action Cost ------------------------------------------------


@record
class MapSpec(Result):
    """A map type: its space (m) and round (s) with the table's ``[rules]`` applied
    (None where the map has no fixed scale), the printed text, and ``move_1_kph``: the
    real speed one Move stands for on it (None: Move is the Speed Level)."""

    map: str
    name: str
    space_m: float | int | None
    round_s: float | int | None
    space_text: str
    printed: str
    move_1_kph: float | int | None
    move_1_text: str | None


@record
class SpeedOnMap(StatView):
    """The Speed given to ``scale map``: what its Level counts and its km/h."""

    counts: str
    kph: float


@record(kw_only=True)
class MoveOnMap(MapSpec):
    """``scale map TYPE --speed STAT``: the map, then the Speed's Move and Action Cost on
    it (``spaces_per_round`` is the Move before rounding down; None on a map without a
    scale, where Move is the Speed Level)."""

    speed: SpeedOnMap | None
    spaces_per_round: float | None
    move: int | None
    action_cost: int | None
    convention: str


@record
class MapList(Result):
    maps: tuple[MapSpec, ...]


def map_spec(key: str, opts: Options = DEFAULTS) -> MapSpec:
    """A map type (``scale map TYPE``, each row of ``--list``)."""
    name = map_key(key)
    spec = tables.load("maps")[name]
    space, rnd = geometry(spec, opts)
    rate = move_1_mps(spec, opts)
    return MapSpec(name, spec["name"], _num(space), _num(rnd), spec["space_text"],
                   spec["printed"], _num(rate / KPH if rate is not None else None),
                   f"{fmt(rate / KPH)} km/h" if rate is not None else None)


def _num(x: Fraction | None) -> float | int | None:
    if x is None:
        return None
    return int(x) if x.denominator == 1 else float(dec(x))


def move_on_map(key: str, speed_stat_: Stat | None, opts: Options = DEFAULTS) -> MoveOnMap:
    """``scale map TYPE [--speed STAT]``: the map, and with a Speed its Move and Action
    Cost there (:func:`move_tokens`), by ``opts.speed_convention``."""
    conv = check_convention(opts.speed_convention)
    base = map_spec(key, opts)
    fields = {f: getattr(base, f) for f in ("map", "name", "space_m", "round_s",
                                              "space_text", "printed", "move_1_kph",
                                              "move_1_text")}
    if speed_stat_ is None:
        return MoveOnMap(**fields, speed=None, spaces_per_round=None, move=None,
                         action_cost=None, convention=conv)
    check_stat_range(speed_stat_)
    mps, counts = speed_mps(speed_stat_.whole, conv)
    tokens = move_tokens(speed_stat_, key, opts)
    return MoveOnMap(**fields,
                     speed=SpeedOnMap(**_stat_fields(speed_stat_), counts=counts,
                                      kph=float(dec(mps / KPH))),
                     spaces_per_round=None if tokens.spaces is None else float(
                         dec(tokens.spaces)),
                     move=tokens.move, action_cost=tokens.action_cost, convention=conv)


def maps_table(opts: Options = DEFAULTS) -> MapList:
    """Every map type (``d2d scale map --list``)."""
    return MapList(tuple(map_spec(key, opts) for key in map_types()))


# --- Powers: the area of an Effect ------------------------------------------------------


