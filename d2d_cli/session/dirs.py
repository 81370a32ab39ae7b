"""Where d2d keeps its files: platformdirs' user data, state and cache folders
(docs/architecture.md "Folders").

* **data** — the named sessions (``NAME.toml``, with their journal and ``.bak``) and
  the ``current`` pointer: ``user_data_dir("d2d")``.
* **state** — ``d2d play``'s line history: ``user_state_dir("d2d")``.
* **cache** — the parsed copy of each session (``session/cache``): ``user_cache_dir("d2d")``.

``$D2D_DATA_DIR`` moves all three under one folder: the sessions and the history in
it, the cache in its ``cache`` subfolder — so a test, a second campaign or a portable
install keeps everything in one place and touches nothing else.

platformdirs is imported only when ``$D2D_DATA_DIR`` is not set (~3 ms on a lookup,
more on a platformdirs that imports ``tempfile``).
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "d2d"
ENV = "D2D_DATA_DIR"


def _override() -> Path | None:
    value = os.environ.get(ENV)
    return Path(value) if value else None


def data_dir() -> Path:
    """The named sessions: ``$D2D_DATA_DIR``, else ``~/.local/share/d2d`` (XDG),
    ``~/Library/Application Support/d2d``, ``%LOCALAPPDATA%\\d2d``."""
    override = _override()
    if override is not None:
        return override
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def state_dir() -> Path:
    """``d2d play``'s history: ``$D2D_DATA_DIR``, else ``~/.local/state/d2d`` (XDG; the
    data folder on macOS and Windows, as platformdirs has it)."""
    override = _override()
    if override is not None:
        return override
    import platformdirs

    return Path(platformdirs.user_state_dir(APP, appauthor=False))


def cache_dir() -> Path:
    """Caches, which only save time: ``$D2D_DATA_DIR/cache``, else ``~/.cache/d2d``
    (XDG), ``~/Library/Caches/d2d``, ``%LOCALAPPDATA%\\d2d\\Cache``."""
    override = _override()
    if override is not None:
        return override / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP, appauthor=False))


HISTORY_FILE = "play_history"


def play_history() -> Path:
    """``d2d play``'s history file, in the state folder (created if need be). A history
    an older d2d kept in the data folder is moved over the first time (one ``stat`` after
    that); if it cannot be moved, it is left where it was and a new one is started."""
    folder = state_dir()
    new = folder / HISTORY_FILE
    old = data_dir() / HISTORY_FILE
    folder.mkdir(parents=True, exist_ok=True)
    if old != new and not new.exists() and old.is_file():
        import contextlib
        import shutil

        with contextlib.suppress(OSError):
            shutil.move(old, new)  # a rename, or a copy when the two are on other disks
    return new
