"""The links ``d2d serve`` hands out, kept beside the session (``<file>.links``, mode
600 like a private session) so a restarted server on the same session serves the same
URLs and every open page comes back by itself. It holds the run's token and each
Player's; ``d2d serve --new-links`` replaces them (every old link stops working).

A links file that cannot be read or is not what d2d wrote is treated as absent: the
server makes new links (and says so), it never fails for it.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from d2d_cli.errors import D2DError
from d2d_cli.session import files

LINKS_LIMIT = 64 * 1024  # bytes: a token each for the table and every Player


def path_for(session: Path) -> Path:
    real = files.real(session)
    return real.with_name(real.name + ".links")


def read(session: Path) -> dict[str, Any] | None:
    """``{"token": str, "players": {name: token}}`` as last written, or None."""
    try:
        raw = files.read_limited(path_for(session), LINKS_LIMIT, "the serve links file")
    except (OSError, D2DError):
        return None
    if raw is None:
        return None
    try:
        doc = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("token"), str):
        return None
    players = doc.get("players")
    if not isinstance(players, dict):
        players = {}
    return {"token": doc["token"],
            "players": {str(k): v for k, v in players.items() if isinstance(v, str)}}


def write(session: Path, token: str, players: dict[str, str]) -> None:
    """Keep the links (atomically, mode 600, never readable by others for a moment)."""
    body = json.dumps({"token": token, "players": players}, ensure_ascii=False,
                      indent=1).encode() + b"\n"
    target = path_for(session)
    files.write_atomic(target, body, None, private=True)
    with contextlib.suppress(OSError):
        os.chmod(target, 0o600)


def drop(session: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path_for(session))
