"""The scale conversions that read the session: its ``[rules]`` speed convention and
Power area reading, unless the option gives them (``d2d scale speed|show|map|area``;
the others are pure conversions: ``rules.scale.quantities``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from d2d_cli.errors import BadInput
from d2d_cli.operations import Target

if TYPE_CHECKING:
    from d2d_cli.rules.core.options import Options
    from d2d_cli.rules.scale import quantities
    from d2d_cli.rules.units import powers


def _rules(t: Target, convention: str | None, *, always: bool = False
           ) -> tuple[Options, str]:
    """The session's [rules] and the speed convention (``convention`` wins, and then the
    session is not read at all unless ``always``)."""
    from d2d_cli.rules.core.options import DEFAULTS
    from d2d_cli.rules.scale import quantities as scale

    if convention is not None and not always:
        return DEFAULTS, scale.check_convention(convention)
    opts = t.options(t.read())
    chosen = convention if convention is not None else opts.speed_convention
    return opts, scale.check_convention(chosen)


def speed(t: Target, *value: str, convention: str | None = None) -> quantities.Quantity:
    """``d2d scale speed VALUE [--convention 001|000]``: a real speed → Speed."""
    from d2d_cli.rules.scale import quantities as scale

    _, conv = _rules(t, convention)
    return scale.speed(" ".join(value), conv)


def show(t: Target, stat: str, *, as_: str = "body",
         convention: str | None = None) -> quantities.Quantity:
    """``d2d scale show STAT [--as body|mind|speed] [--convention …]``: a stat in real
    terms (``as_`` is ``--as``)."""
    from d2d_cli.rules.scale import quantities as scale
    from d2d_cli.rules.scale import stats

    st = stats.parse_stat(stat)
    conv = scale.DEFAULT_CONVENTION
    if as_ == "speed":
        _, conv = _rules(t, convention)
    return scale.describe(st, as_, conv)


def map(t: Target, kind: str | None = None, *,  # noqa: A001 - the command's name
        speed: str | None = None, list: bool = False,  # noqa: A002 - the command's --list
        convention: str | None = None) -> quantities.MoveOnMap | quantities.MapList:
    """``d2d scale map TYPE [--speed STAT]`` or ``--list``: a map type's scale, and a
    unit's Move and Action Cost there."""
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.scale import quantities as scale
    from d2d_cli.rules.scale import stats

    rules, conv = _rules(t, convention, always=True)
    rules = replace(rules, speed_convention=conv)
    if list or kind is None:
        if kind is None and not list:
            raise BadInput("give a map TYPE (" + ", ".join(scale.map_types()) +
                           ") or --list")
        return scale.maps_table(rules)
    st = stats.parse_stat(speed) if speed is not None else None
    return scale.move_on_map(kind, st, rules)


def area(t: Target, points: int, *, reading: str | None = None) -> powers.PowerArea:
    """``d2d scale area POINTS [--reading table|formula]``: what Area points buy (a
    ``rules.units.powers.PowerArea``)."""
    from d2d_cli.rules.core.options import DEFAULTS
    from d2d_cli.rules.core.record import replace
    from d2d_cli.rules.units import powers

    if reading is None:
        rules = t.options(t.read())
    elif reading in ("table", "formula"):
        rules = replace(DEFAULTS, power_area=reading)
    else:
        raise BadInput(f"--reading {reading!r}: use table or formula")
    return powers.power_area(points, rules)
