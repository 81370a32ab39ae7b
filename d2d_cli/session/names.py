"""Session names and where their files are: ``--session`` resolved to a file, the
current-session pointer, the nearest names for a typo (docs/architecture.md "The
session file")."""

from __future__ import annotations

import os
from pathlib import Path

from d2d_cli.errors import BadInput, NotFound, SessionError
from d2d_cli.session import dirs, files, journal
from d2d_cli.session.scope import _after_commit, _scope_pending

DEFAULT_NAME = "default"
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_NAME_CHARS = _ALNUM | frozenset("_.-")


def is_name(name: str) -> bool:
    """A session name: 1–64 ASCII letters, digits, ``_``, ``.`` or ``-``, the first a
    letter or digit (the pattern ``[A-Za-z0-9][A-Za-z0-9_.-]{0,63}``, checked by sets:
    every command reads the current session's name, and compiling the pattern cost it
    ~0.1 ms — issue 40)."""
    return 0 < len(name) <= 64 and name[0] in _ALNUM and _NAME_CHARS.issuperset(name)


def data_dir() -> Path:
    """Where named sessions live: ``$D2D_DATA_DIR``, else platformdirs' user data dir
    (:mod:`.dirs`)."""
    return dirs.data_dir()


def _no_surrogates(text: str, what: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{what} is not valid UTF-8: {text!r}") from None
    return text


def check_name(name: str) -> str:
    if (not is_name(name) or name.lower().endswith(".toml") or ".." in name):
        raise BadInput(
            f"bad session name {name!r}: use letters, digits, '-', '_' or '.' (no path "
            "separators, at most 64), or give a path ending in .toml"
        )
    return name


def is_path(spec: str) -> bool:
    return spec.lower().endswith(".toml")


def resolve(spec: str | None) -> Path:
    """The session file for ``--session`` (a name or a ``.toml`` path), else the current one."""
    if not spec:
        spec = current_name()
    _no_surrogates(spec, "the session name")
    if "\x00" in spec:
        raise BadInput(f"bad session name {spec!r}")
    if is_path(spec):
        return files.real(Path(spec).expanduser())  # Path.resolve, remembered
    return data_dir() / f"{check_name(spec)}.toml"


def locate(spec: str | None) -> tuple[Path, bool]:
    """The session file for ``spec`` and whether it may be created silently: only the
    default session, or a ``.toml`` path in an existing folder (DESIGN.md "No setup
    step"). A name that does not exist is refused with the nearest names."""
    name = spec or current_name()
    path = resolve(spec)
    if _scope_pending(path) or _exists(path):
        return path, False
    if is_path(name):
        if not path.parent.is_dir():
            raise NotFound(f"no folder {path.parent} for the session file {path.name} (d2d "
                           "creates the file, never folders)")
        return path, True
    if name == DEFAULT_NAME:
        return path, True
    near = _nearest(name)
    hint = f" — did you mean {near!r}?" if near else ""
    if not spec:
        raise NotFound(f"the current session {name!r} does not exist{hint} (d2d session new "
                       f"{name} creates it; d2d session use NAME picks another)")
    raise NotFound(f"no session {name!r}{hint} (`d2d session new {name}` creates it)")


def _exists(path: Path) -> bool:
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return False


def _nearest(name: str) -> str | None:
    import difflib

    try:
        names = list_sessions()
    except OSError:
        return None
    near = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return near[0] if near else None


def current_name() -> str:
    pointer = data_dir() / "current"
    try:
        raw = files.read_limited(pointer, 4096, "the current-session pointer")
    except OSError as e:
        raise files.trouble(pointer, e, "read it") from None
    if raw is None:
        return DEFAULT_NAME
    try:
        name = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise SessionError(f"{pointer}: not UTF-8 text (it names the current session); fix "
                           "it with d2d session use NAME, or delete it") from None
    if not name:
        return DEFAULT_NAME
    if not is_path(name) and not is_name(name):
        raise SessionError(f"{pointer}: {name[:80]!r} is not a session name; fix it with d2d "
                           "session use NAME, or delete it")
    return name


def set_current(spec: str) -> Path:
    path = resolve(spec)
    if not (_exists(path) or _scope_pending(path)):
        raise NotFound(f"no session {spec!r} at {path} — create it with: d2d session new {spec}")
    d = data_dir()
    value = ((str(path) if is_path(spec) else spec) + "\n").encode("utf-8")

    def write() -> None:
        with files.guard(d, "write the current-session pointer in it"):
            d.mkdir(parents=True, exist_ok=True)
            files.write_atomic(d / "current", value, None)
        files.sweep_orphans(d, "current")  # a killed `session use`'s temp file

    _after_commit(write)
    return path


def list_sessions() -> list[str]:
    d = data_dir()
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.glob("*.toml") if is_name(p.stem))


def display_name(path: Path) -> str:
    return path.stem if path.parent == data_dir() else str(path)


def journal_path(path: Path) -> Path:
    return journal.path_for(_real(path))


def _real(path: Path) -> Path:
    """Symlinks are written through: every file d2d keeps is beside the real file."""
    return files.real(path)
