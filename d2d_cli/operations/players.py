"""``d2d player …``: the table's Players by name — a stand-in renamed (``player rename``)
with everything that was theirs (``rules.units.sides.rename``)."""

from __future__ import annotations

from d2d_cli.operations import Target
from d2d_cli.rules.units import sides


def rename(t: Target, old: str, new: str) -> sides.Renamed:
    """``d2d player rename OLD NEW``: Player1 becomes Ann — her units, the scene's list of
    Players and her hand (``[players]``) move to the new name."""
    with t.edit() as tx:
        units = {n: dict(u) for n, u in (tx.data.get("units") or {}).items()}
        scene = dict(tx.data.get("scene") or {})
        if isinstance(scene.get("factions"), dict):
            scene["factions"] = {k: dict(v) if isinstance(v, dict) else v
                                 for k, v in scene["factions"].items()}
        data = {**tx.data, "units": units, "scene": scene,
                "players": dict(tx.data.get("players") or {})}
        result = sides.rename(data, old, new)
        for key in ("units", "scene", "players"):
            if data[key] != (tx.data.get(key) or {}):
                tx.put(key, data[key])
        tx.summary = result.summary
    return result


def known(t: Target) -> tuple[list[str], list[str]]:
    """The factions and the Players this session knows (the ``char new`` wizard's
    choices): its units' and its scene's."""
    data = t.read()
    return sides.known_factions(data), sides.players(data)


__all__ = ["known", "rename"]
