"""The engine's side of a simulated fight made cheaper (issue 40 item 1): each short cut
gives exactly what the plain way gives — a unit written out as its table, the fight
loop's reads — and whole fights are pinned byte for byte by tests/test_sim.py."""

from __future__ import annotations

import itertools

from d2d_cli.rules.units import roster


def _plain_state(u: roster.Unit) -> dict[str, object]:
    """Unit.to_state as it was written before the short cuts (the oracle)."""
    out: dict[str, object] = {"kind": u.kind}
    out.update({s: str(u.stats[s]) for s in roster.STATS if s in u.stats})
    if u.faction:
        out["faction"] = u.faction
    out["skills"] = dict(u.skills)
    out["conditions"] = {k: v for k, v in u.conditions.items() if v > 0}
    for k in ("target", "move", "action_cost", "turn"):
        if getattr(u, k) is not None:
            out[k] = getattr(u, k)
    out.update(u.extra)
    return out


def test_a_unit_written_out_is_what_the_plain_way_writes_for_every_count_of_conditions(
        ) -> None:
    """Conditions are copied whole unless a count is 0 or below (only those are left
    out): every mix of positive, zero and negative counts over three conditions, with
    and without the other fields, in the same order as the plain way; the table never
    shares a dict with the Unit (a later change to the Unit leaves it as written)."""
    base = {"body": "8x1", "mind": "5x1", "speed": "5x0", "faction": "Adventurers",
            "skills": {"Ranged": 1}, "move": 3, "action_cost": 2, "turn": 2,
            "player": "Player1", "space": "C7", "effects": {"interact": 1}}
    seen = 0
    for counts in itertools.product((-1, 0, 1, 2), repeat=3):
        for extra in ({}, base):
            u = roster.Unit.from_state("Archer", {"body": "8x1", **extra})
            u.conditions = {k: n for k, n in zip(("stun", "fatigue", "dying"), counts,
                                                  strict=True) if n or counts[0] == 0}
            got = u.to_state()
            want = _plain_state(u)
            assert got == want and list(got) == list(want), (counts, extra)
            assert got["conditions"] is not u.conditions and got["skills"] is not u.skills
            u.conditions["stun"] = 9
            u.skills["Ranged"] = 9
            assert got == want  # written out: not changed with the Unit
            seen += 1
    assert seen == 128
