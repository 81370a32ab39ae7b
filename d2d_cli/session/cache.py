"""The parsed cache (one file per session in the user cache folder, :mod:`.dirs`): the
parsed data of the last file d2d wrote or read, keyed by the digest of its bytes, so a
1,000-unit session is not parsed (~100 ms) by every command. It is bounded: a session
file over ``CACHE_SESSION_LIMIT`` bytes gets none, a cache file is at most
``CACHE_LIMIT`` bytes, and the folder keeps the ``CACHE_KEEP`` most recently written."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from d2d_cli import __version__
from d2d_cli.errors import D2DError
from d2d_cli.session import dirs, files, journal
from d2d_cli.session import text as T
from d2d_cli.session.files import real as _real

SCHEMA = 1
_CACHE_MAGIC = b"d2d-cache-3\n"  # 3: a slot keeps the text's grouping
CACHE_SESSION_LIMIT = 16 * 1024 * 1024  # a bigger session file is parsed by every command
CACHE_LIMIT = 32 * 1024 * 1024  # one cache file: two slots of marshalled data
CACHE_KEEP = 16  # session caches kept in the cache folder, the most recently written


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    import marshal

    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:  # a date or time written by hand: marshal cannot hold it
        import copy

        return copy.deepcopy(data)


def _cache_path(real: Path) -> Path:
    """``<cache folder>/sessions/<digest of the session's real path>.cache``."""
    return dirs.cache_dir() / "sessions" / f"{journal.digest(os.fsencode(real))}.cache"


def _cache_key(h: str) -> str:
    """Data in the cache was checked by this d2d (and these [rules] keys) only."""
    from d2d_cli.rules.core.options import FINGERPRINT as checker

    return f"{SCHEMA}:{__version__}:{checker}:{_CACHE_MAGIC.decode().strip()}:{h}"


# digest, marshalled data, marshalled grouping (decoded only by a write: a lookup
# never pays for the layout)
Slot = tuple[str, bytes, bytes | None]


def pack(grouping: T.Grouping | None) -> bytes | None:
    import marshal

    return None if grouping is None else marshal.dumps(grouping.dumps())


def unpack(packed: bytes | None) -> T.Grouping | None:
    """A cached grouping (None if there is none, or it does not decode)."""
    import marshal

    if packed is None:
        return None
    try:
        return T.Grouping.loads(marshal.loads(packed))
    except (ValueError, TypeError, EOFError):
        return None


def _cache_read(real: Path) -> list[Slot]:
    """The cache's slots (newest first) for this d2d; [] if there is none or it is
    damaged (its checksum does not match)."""
    import marshal

    try:
        raw = files.read_limited(_cache_path(real), CACHE_LIMIT, "the cache")
    except (OSError, D2DError):
        return []
    if raw is None or not raw.startswith(_CACHE_MAGIC):
        return []
    n = len(_CACHE_MAGIC)
    check, body = raw[n:n + 32], raw[n + 32:]
    if journal.digest(body).encode() != check:
        return []
    try:
        out = []
        for key, payload, root in marshal.loads(body):
            version, _, digest = key.rpartition(":")
            if f"{version}:" == _cache_key(""):
                out.append((digest, payload, root if type(root) is bytes else None))
        return out
    except (ValueError, TypeError, EOFError):
        return []


def _cache_write(real: Path, slots: list[Slot]) -> None:
    """Best effort and not fsynced: a cache that is lost or stale only costs time. Kept
    private (mode 600) in the user's cache folder; none for data over ``CACHE_LIMIT``."""
    import marshal

    path = _cache_path(real)
    with contextlib.suppress(OSError):
        os.unlink(real.with_name(f".{real.name}.cache"))  # where d2d kept it before
    for keep in (2, 1):
        body = marshal.dumps([(_cache_key(h), payload, r)
                              for h, payload, r in slots[:keep]])
        data = _CACHE_MAGIC + journal.digest(body).encode() + body
        if len(data) <= CACHE_LIMIT:
            break
    else:
        _cache_drop(real)
        return
    with contextlib.suppress(OSError):
        new = not path.exists()
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        files.write_atomic(path, data, None, durable=False, private=True)
        if new:
            _cache_prune(path.parent)


def _cache_drop(real: Path) -> None:
    """No cache for this session (its file is over ``CACHE_SESSION_LIMIT``)."""
    with contextlib.suppress(OSError):
        os.unlink(_cache_path(real))


def forget(path: Path) -> None:
    """A throwaway session file is being deleted (the tour's): drop its cache too, so
    nothing of it is left in the user's cache folder."""
    _cache_drop(_real(path))


def _cache_prune(folder: Path) -> None:
    """Keep the ``CACHE_KEEP`` caches written last (and no temp file of a dead writer)."""
    files.sweep_orphans(folder, "")
    with contextlib.suppress(OSError):
        caches = []
        with os.scandir(folder) as it:
            for entry in it:
                if entry.name.endswith(".cache") and entry.is_file(follow_symlinks=False):
                    caches.append((entry.stat().st_mtime_ns, entry.path))
        for _, old in sorted(caches, reverse=True)[CACHE_KEEP:]:
            with contextlib.suppress(OSError):
                os.unlink(old)


def _stat_or_none(real: Path) -> os.stat_result | None:
    try:
        return os.stat(real)
    except OSError:
        return None
