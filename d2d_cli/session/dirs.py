"""Where d2d keeps its files: platformdirs' user data, state and cache folders
(docs/architecture.md "Folders").

* **data** — the named sessions (``NAME.toml``, with their journal and ``.bak``) and
  the ``current`` pointer: ``user_data_dir("d2d")``.
* **state** — ``d2d play``'s line history: ``user_state_dir("d2d")``.
* **cache** — the parsed copy of each session (``session/cache``): ``user_cache_dir("d2d")``.

``$D2D_DATA_DIR`` moves all three under one folder: the sessions and the history in
it, the cache in its ``cache`` subfolder — so a test, a second campaign or a portable
install keeps everything in one place and touches nothing else.

platformdirs is imported only when ``$D2D_DATA_DIR`` is not set and the folder is not
one the XDG Base Directory spec alone decides (:func:`_plain_xdg`): importing it costs a
command ~6% of a Typer hello-world (platformdirs 4.14 imports ``tempfile``, hence
``random``), for three paths that on Linux are ``$XDG_*_HOME`` or ``~/...``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "d2d"
ENV = "D2D_DATA_DIR"

# Each folder's XDG variable and its default under the home folder (the XDG Base
# Directory spec; platformdirs' Unix answers).
XDG = {"data": ("XDG_DATA_HOME", ".local/share"), "state": ("XDG_STATE_HOME", ".local/state"),
       "cache": ("XDG_CACHE_HOME", ".cache")}


def _plain_xdg(kind: str) -> Path | None:
    """The folder as the XDG spec gives it where it leaves nothing to judge, else None
    (platformdirs decides). Plain: Linux, not an Android app; the variable unset or
    empty (then ``$HOME`` absolute, and the spec's default under it) or an absolute
    path without spaces around it (then that path). A relative or blank variable, a
    relative or missing ``$HOME`` (platformdirs then asks the password database),
    macOS, Windows and Android go to platformdirs, and so does anything its versions
    answered differently. ``tests/test_dirs.py`` compares the two on every case."""
    if sys.platform != "linux" or hasattr(sys, "getandroidapilevel") or \
            "ANDROID_DATA" in os.environ or "ANDROID_ROOT" in os.environ:
        return None
    var, default = XDG[kind]
    value = os.environ.get(var, "")
    if value:
        return Path(value, APP) if value.startswith("/") and value == value.strip() else None
    home = os.environ.get("HOME", "")
    if not home.startswith("/"):
        return None
    return Path(home, default, APP)


def _override() -> Path | None:
    value = os.environ.get(ENV)
    return Path(value) if value else None


def data_dir() -> Path:
    """The named sessions: ``$D2D_DATA_DIR``, else ``~/.local/share/d2d`` (XDG),
    ``~/Library/Application Support/d2d``, ``%LOCALAPPDATA%\\d2d``."""
    override = _override()
    if override is not None:
        return override
    plain = _plain_xdg("data")
    if plain is not None:
        return plain
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def state_dir() -> Path:
    """``d2d play``'s history: ``$D2D_DATA_DIR``, else ``~/.local/state/d2d`` (XDG; the
    data folder on macOS and Windows, as platformdirs has it)."""
    override = _override()
    if override is not None:
        return override
    plain = _plain_xdg("state")
    if plain is not None:
        return plain
    import platformdirs

    return Path(platformdirs.user_state_dir(APP, appauthor=False))


def cache_dir() -> Path:
    """Caches, which only save time: ``$D2D_DATA_DIR/cache``, else ``~/.cache/d2d``
    (XDG), ``~/Library/Caches/d2d``, ``%LOCALAPPDATA%\\d2d\\Cache``."""
    override = _override()
    if override is not None:
        return override / "cache"
    plain = _plain_xdg("cache")
    if plain is not None:
        return plain
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
