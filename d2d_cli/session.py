"""The session file: the only module that reads or writes it (DESIGN.md "Session file").

A session is one TOML file with ``schema = 1`` at the top. Reads use ``tomllib``
(fast, no lock: writes are atomic renames, so a reader sees the old or the new
file). Every read-modify-write runs inside :func:`edit`, which

* holds an exclusive lock on ``<file>.lock`` (fcntl/msvcrt, nothing to install),
* parses the file with tomlkit so a comment written by hand survives the write,
* writes a temp file in the same folder, fsyncs it and renames it over the
  session, after keeping the previous good state as ``<file>.bak``,
* appends one line to the journal ``<file>.journal`` (JSON lines) carrying the
  state before the change, which is what ``session undo`` restores.

The journal is bounded: it keeps the last ``JOURNAL_KEEP`` entries and the
undo snapshots of the last ``UNDO_DEPTH`` of them, compacting when it grows.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import re
import sys
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from d2d_cli.errors import BadInput, NotFound, SessionError

SCHEMA = 1
DEFAULT_NAME = "default"
JOURNAL_KEEP = 2000
UNDO_DEPTH = 50
LOCK_TIMEOUT_S = float(os.environ.get("D2D_LOCK_TIMEOUT", "15"))
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


# --------------------------------------------------------------------------- where


def data_dir() -> Path:
    """Where named sessions live: ``$D2D_DATA_DIR``, else the user data dir that
    platformdirs' ``user_data_dir("d2d", appauthor=False)`` gives, worked out here
    (importing platformdirs cost a lookup ~3 ms): ``$XDG_DATA_HOME/d2d`` or
    ``~/.local/share/d2d``; ``~/Library/Application Support/d2d`` on macOS;
    ``%LOCALAPPDATA%\\d2d`` on Windows."""
    override = os.environ.get("D2D_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~/AppData/Local")
    elif sys.platform == "darwin":  # pragma: no cover - exercised on macOS only
        base = os.path.expanduser("~/Library/Application Support")
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "").strip()  # a relative one is ignored (XDG)
        base = xdg if os.path.isabs(xdg) else os.path.expanduser("~/.local/share")
    return Path(base) / "d2d"


def check_name(name: str) -> str:
    if not _NAME_RE.match(name) or name.endswith(".toml") or ".." in name:
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
    if is_path(spec):
        return Path(spec).expanduser().resolve()
    return data_dir() / f"{check_name(spec)}.toml"


def current_name() -> str:
    pointer = data_dir() / "current"
    try:
        name = pointer.read_text(encoding="utf-8").strip()
    except OSError:
        return DEFAULT_NAME
    return name or DEFAULT_NAME


def set_current(spec: str) -> Path:
    path = resolve(spec)
    if not path.exists():
        raise NotFound(f"no session {spec!r} at {path} — create it with: d2d session new {spec}")
    d = data_dir()
    d.mkdir(parents=True, exist_ok=True)
    _atomic_write(d / "current", (str(path) if is_path(spec) else spec) + "\n")
    return path


def list_sessions() -> list[str]:
    d = data_dir()
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.glob("*.toml") if _NAME_RE.match(p.stem))


def display_name(path: Path) -> str:
    return path.stem if path.parent == data_dir() else str(path)


# --------------------------------------------------------------------------- reading


# The last text parsed, and its data (marshalled: a fresh copy costs ~0.1 ms). Inside
# `d2d play` the same file is read for every line and for the status line: a text seen
# before — d2d's own last write included, which _same parses anyway — is not parsed
# again (~7 ms on a 100-unit session). Keyed by the whole text, so any change, by this
# process, another terminal or an editor, is a miss.
_last_parsed: tuple[str, bytes] | None = None


def _loads(text: str) -> dict[str, Any]:
    global _last_parsed
    if _last_parsed is not None and _last_parsed[0] == text:
        copy: dict[str, Any] = marshal.loads(_last_parsed[1])
        return copy
    data = tomllib.loads(text)
    try:
        _last_parsed = (text, marshal.dumps(data))
    except ValueError:  # a TOML date or time (hand-written): not cached
        _last_parsed = None
    return data


def _parse(path: Path, text: str) -> dict[str, Any]:
    try:
        data = _loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SessionError(
            f"{path}: not valid TOML ({e}); the file was left as it is — fix it by hand, "
            f"or restore {path.name}.bak"
        ) from None
    schema = data.get("schema")
    if not isinstance(schema, int):
        raise SessionError(f"{path}: not a d2d session (no 'schema = {SCHEMA}' at the top)")
    if schema > SCHEMA:
        raise SessionError(
            f"{path}: written by a newer d2d (schema {schema}, this d2d reads {SCHEMA}); "
            "refusing to read or overwrite it — upgrade d2d"
        )
    return data


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise SessionError(f"{path}: not a text file; the file was left as it is") from None
    except OSError as e:
        raise SessionError(f"{path}: cannot read it ({e.strerror})") from None


def read(path: Path, *, seed: int | None = None) -> dict[str, Any]:
    """The session as plain data; a missing session is created first (no setup step)."""
    text = _read_text(path)
    if text is None:
        create(path, seed=seed, exist_ok=True)
        text = _read_text(path) or ""
    return _parse(path, text)


# --------------------------------------------------------------------------- writing


def new_state(seed: int) -> dict[str, Any]:
    """A fresh session's data. The Fate deck is shuffled by the caller (rules.fate)."""
    return {
        "schema": SCHEMA,
        "meta": {"created": _now(), "seed": seed, "rng": 0},
        "rules": {},
    }


def create(path: Path, *, seed: int | None, exist_ok: bool = False) -> dict[str, Any]:
    """Create a session file with a freshly shuffled Fate deck."""
    from d2d_cli.rules import fate

    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path):
        if path.exists():
            if exist_ok:
                return _parse(path, _read_text(path) or "")
            raise BadInput(f"session {display_name(path)!r} already exists ({path})")
        if seed is None:
            import secrets

            seed = secrets.randbits(48)
        data = new_state(seed)
        data["fate"] = fate.new_deck(rng_for(seed, None, 0)).to_state()
        data["meta"]["rng"] = 1
        _atomic_write(path, _fresh_text(data))
    return data


_HEADER = """\
# d2d session file. Safe to edit by hand while no d2d command runs; comments are kept.
# [rules] holds this table's à la carte choices (see docs/rules.md), e.g.
#   speed_convention = "001"
"""


def _fresh_text(data: dict[str, Any]) -> str:
    import tomlkit

    doc = tomlkit.document()
    doc.add("schema", data["schema"])
    for line in _HEADER.splitlines():
        doc.add(tomlkit.comment(line.removeprefix("# ")))
    for key, value in data.items():
        if key != "schema":
            doc[key] = value
    return tomlkit.dumps(doc)


@dataclass
class Transaction:
    """One read-modify-write: plain ``data`` to read, :meth:`put` to change a section."""

    path: Path
    command: str
    seed: int | None
    data: dict[str, Any]
    _old: dict[str, Any]
    summary: str = ""
    changed: set[str] = field(default_factory=set)

    def put(self, key: str, value: Any) -> None:
        """Replace top-level section ``key`` with ``value`` (plain data)."""
        self.data[key] = value
        self.changed.add(key)

    def rng(self) -> Any:
        """This command's random source: ``--seed`` if given, else the session's own
        seed and counter, so the file alone determines every future shuffle."""
        meta = dict(self.data.get("meta", {}))
        counter = int(meta.get("rng", 0))
        meta["rng"] = counter + 1
        self.put("meta", meta)
        return rng_for(int(meta.get("seed", 0)), self.seed, counter)


def rng_for(session_seed: int, override: int | None, counter: int) -> Any:
    import random

    if override is not None:
        return random.Random(f"d2d:{override}:{counter}")
    return random.Random(f"d2d:{session_seed}:{counter}")


# A table header's first one or two keys: [units."Goblin 1".skills] → units, Goblin 1.
_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_HEADER_RE = re.compile(rf"^[ \t]*\[\[?[ \t]*({_KEY})(?:[ \t]*\.[ \t]*({_KEY}))?")


def _unquote(key: str | None) -> str | None:
    if key is None or key[0] not in "\"'":
        return key
    return json.loads(key) if key[0] == '"' else key[1:-1]


def _render(text: str, tx: Transaction) -> str:
    """The new file text. Fast path: re-render only the tables whose data changed
    (each parsed with tomlkit on its own) and splice them into the untouched text,
    so every other byte — comments included — stays as it was, and a big session
    costs no more to write than a small one. The result is checked by parsing it
    back; anything unusual falls back to tomlkit on the whole document."""
    try:
        out = _splice(text, tx._old, tx.data, tx.changed)
    except Exception:  # noqa: BLE001 - any surprise means: use the general path
        out = None
    if out is not None and _same(out, tx.data):
        return out
    import tomlkit

    doc = tomlkit.parse(text)
    for key in tx.changed:
        value = tx.data[key]
        if value == {}:
            doc[key] = tomlkit.table()  # an empty table keeps its [header]
        elif key in doc and isinstance(value, dict) and hasattr(doc[key], "items"):
            _merge(doc[key], value)
        else:
            doc[key] = value
    return tomlkit.dumps(doc)


def _same(text: str, data: dict[str, Any]) -> bool:
    try:
        return _loads(text) == data
    except tomllib.TOMLDecodeError:
        return False


def _splice(text: str, old: dict[str, Any], new: dict[str, Any],
            changed: set[str]) -> str | None:
    import tomlkit

    # Cut the text into chunks, each owned by the (top key, sub key) of its header.
    chunks: list[tuple[tuple[str, str | None] | None, str]] = []
    owner: tuple[str, str | None] | None = None  # None: the root, before any header
    lines: list[str] = []
    for line in text.splitlines(keepends=True):
        m = _HEADER_RE.match(line)
        if m:
            chunks.append((owner, "".join(lines)))
            owner, lines = (str(_unquote(m.group(1))), _unquote(m.group(2))), []
        lines.append(line)
    chunks.append((owner, "".join(lines)))

    def render(chunk_text: str, key: str, sub: str | None, value: Any) -> str:
        doc = tomlkit.parse(chunk_text)
        table = doc[key] if sub is None else doc[key][sub]
        _merge(table, value)
        return tomlkit.dumps(doc)

    for key in sorted(changed):
        new_k, old_k = new.get(key), old.get(key)
        if not isinstance(new_k, dict) or (key in old and not isinstance(old_k, dict)):
            return None
        mine = [i for i, (o, _) in enumerate(chunks) if o is not None and o[0] == key]
        if not mine:
            sep = "" if not text or text.endswith("\n\n") else "\n"
            chunks.append((None, sep + tomlkit.dumps({key: new_k})))
            continue
        old_k = old_k or {}
        if not new_k:
            return None  # an empty table: the general path writes its bare [header]
        subs = {chunks[i][0][1] for i in mine} - {None}  # type: ignore[index]
        # All chunks of one owner are rendered together into its first chunk (a unit is
        # [units.X], [units.X.conditions], [[units.X.crits]]…), the rest emptied.
        groups: dict[str | None, list[int]] = {}
        for i in mine:
            groups.setdefault(chunks[i][0][1], []).append(i)  # type: ignore[index]
        for sub, idxs in groups.items():
            if sub is None:
                value = {k: v for k, v in new_k.items() if k not in subs}
                if value == {k: v for k, v in old_k.items() if k not in subs}:
                    continue
            elif sub not in new_k:
                value = None
            elif new_k[sub] == old_k.get(sub):
                continue
            elif not isinstance(new_k[sub], dict):
                return None
            else:
                value = new_k[sub]
            combined = "".join(chunks[i][1] for i in idxs)
            rendered = "" if value is None else render(combined, key, sub, value)
            for n, i in enumerate(idxs):
                chunks[i] = (chunks[i][0], rendered if n == 0 else "")
        if None in groups:
            continue  # new sub-tables were rendered inside the [key] table above
        if any(k not in subs and not isinstance(v, dict) for k, v in new_k.items()):
            return None  # plain keys but no [key] table to hold them
        added = [k for k, v in new_k.items() if k not in subs]
        if added:
            last = mine[-1]
            extra = "".join(tomlkit.dumps({key: {k: new_k[k]}}) for k in added)
            o, chunk_text = chunks[last]
            sep = "" if chunk_text.endswith("\n\n") or not chunk_text else "\n"
            chunks[last] = (o, chunk_text + sep + extra)
    return "".join(t for _, t in chunks)


def _merge(table: Any, value: dict[str, Any]) -> None:
    for k in [k for k in table if k not in value]:
        del table[k]
    for k, v in value.items():
        if k in table and isinstance(v, dict) and hasattr(table[k], "items"):
            _merge(table[k], v)
        elif k not in table or _plain(table[k]) != v:
            table[k] = v


def _plain(item: Any) -> Any:
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if callable(unwrap) else item


@contextlib.contextmanager
def edit(path: Path, command: str, *, seed: int | None = None) -> Iterator[Transaction]:
    """Lock, load, let the caller change sections, then write atomically and journal.

    If the body raises, nothing is written. If nothing was ``put``, nothing is written.
    """
    if not path.exists():
        create(path, seed=seed, exist_ok=True)
    with _locked(path):
        text = _read_text(path)
        if text is None:  # removed between the check and the lock
            raise SessionError(f"{path}: the session file disappeared")
        data = _parse(path, text)
        import copy

        # A pristine copy tells which tables changed, even if a command mutated
        # tx.data in place (a deep copy costs a fifth of parsing the file again).
        tx = Transaction(path, command, seed, data, copy.deepcopy(data))
        yield tx
        if not tx.changed:
            return
        new_text = _render(text, tx)
        # Journal first: a kill between the two leaves an entry whose undo restores
        # the state as it still is (a no-op), never a change that undo cannot reach.
        _journal_append(path, command, tx.summary, before=text, size_hint=len(new_text))
        _write_with_backup(path, new_text)


def _write_with_backup(path: Path, text: str) -> None:
    bak = path.with_name(path.name + ".bak")
    with contextlib.suppress(FileNotFoundError):
        tmp_bak = path.with_name(f".{path.name}.{os.getpid()}.bak")
        with contextlib.suppress(FileNotFoundError):
            tmp_bak.unlink()
        try:
            os.link(path, tmp_bak)  # the old file keeps its inode: the rename below
        except OSError:  # never touches it (no hard links here: copy instead)
            import shutil

            shutil.copyfile(path, tmp_bak)
        os.replace(tmp_bak, bak)
    _atomic_write(path, text)


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if hasattr(os, "O_DIRECTORY"):
        with contextlib.suppress(OSError):
            fd = os.open(path.parent, os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``<file>.lock``; waits up to LOCK_TIMEOUT_S, then exit 3."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT_S
        delay = 0.002
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise SessionError(
                    f"{path}: locked by another d2d command for over {LOCK_TIMEOUT_S:g}s; "
                    "try again (or check for a hung d2d process)"
                )
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


# --------------------------------------------------------------------------- journal


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _journal_append(path: Path, command: str, summary: str, *, before: str | None,
                    size_hint: int) -> None:
    jp = journal_path(path)
    entry: dict[str, Any] = {"at": _now(), "command": command, "summary": summary}
    if before is not None:
        entry["before"] = before
    with open(jp, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    # Compact when the journal outgrows what UNDO_DEPTH snapshots and JOURNAL_KEEP
    # short lines need: rare, and bounded work when it happens.
    limit = max(4_000_000, 3 * UNDO_DEPTH * size_hint + 200 * JOURNAL_KEEP)
    if jp.stat().st_size > limit:
        _journal_rewrite(jp, _journal_entries(jp))


def _journal_entries(jp: Path) -> list[dict[str, Any]]:
    try:
        lines = jp.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    entries = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a torn last line from a killed process: skip it
    return entries


def _journal_rewrite(jp: Path, entries: list[dict[str, Any]]) -> None:
    entries = entries[-JOURNAL_KEEP:]
    for e in entries[:-UNDO_DEPTH]:
        e.pop("before", None)
    _atomic_write(jp, "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries))


def log(path: Path, last: int) -> list[dict[str, Any]]:
    """The last ``last`` journal entries, oldest first, without their snapshots."""
    entries = _journal_entries(journal_path(path))[-last:] if last > 0 else []
    return [
        {"at": e.get("at"), "command": e.get("command"), "summary": e.get("summary", ""),
         "undone": bool(e.get("undone")), "undoable": "before" in e and not e.get("undone")}
        for e in entries
    ]


def undo(path: Path) -> dict[str, Any]:
    """Restore the state before the last state-changing command that is not yet undone."""
    if not path.exists():
        raise NotFound(f"no session at {path}")
    with _locked(path):
        _parse(path, _read_text(path) or "")  # a newer or broken file is never replaced
        jp = journal_path(path)
        entries = _journal_entries(jp)
        for entry in reversed(entries):
            if "before" in entry and not entry.get("undone"):
                break
        else:
            raise BadInput("nothing to undo: the journal holds no earlier state")
        before = entry["before"]
        _parse(path, before)  # never restore something unreadable
        _write_with_backup(path, before)
        entry["undone"] = True
        entry.pop("before")
        reverted = {"command": entry.get("command"), "at": entry.get("at"),
                    "summary": entry.get("summary", "")}
        entries.append({"at": _now(), "command": "session undo",
                        "summary": f"reverted '{reverted['command']}'"})
        _journal_rewrite(jp, entries)
    return reverted
