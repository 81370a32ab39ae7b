"""The session file: the only code that reads or writes it (DESIGN.md "Session file";
docs/architecture.md "The session file" and "Guarantees").

A session is one TOML file with ``schema = 1`` at the top. Reads use ``tomllib`` and
take no lock (writes are atomic renames, so a reader sees the old or the new file);
every file d2d did not write itself is checked against the declared shape
(:mod:`.shape`). Every read-modify-write runs inside :func:`edit` (or is an
:func:`undo` / :func:`redo`), which

* holds an exclusive lock on the session file itself (:mod:`.files`),
* re-renders only the tables that changed so hand-written comments survive
  (:mod:`.text`),
* appends one entry to the journal ``<file>.journal`` with the hunks that changed
  (:mod:`.journal`), then writes a temp file, keeps the old file as ``<file>.bak``
  and renames the temp file over the session — the commit point.

**Commit last.** Inside a CLI command (:func:`deferred`, opened by the error boundary
in ``cli.py``), :func:`edit` does not write when its block ends: it renders the new
text, checks it, and leaves it pending with the lock still held. The boundary commits
it only when the whole command — its output included — has succeeded, so an exit code
other than 0 means the file did not change. Outside a CLI run (tests, the bench)
:func:`edit` commits when its block ends.

**The cache** (one file per session in the user cache folder, :mod:`.dirs`) holds the
parsed data of the last file d2d wrote or read, keyed by the digest of its bytes, so a
1,000-unit session is not parsed (~100 ms) by every command. A file whose digest is
not in the cache is parsed and checked in full. It is bounded: a session file over
``CACHE_SESSION_LIMIT`` bytes gets none, a cache file is at most ``CACHE_LIMIT`` bytes,
and the folder keeps the ``CACHE_KEEP`` most recently written.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from d2d_cli import __version__
from d2d_cli.errors import BadInput, D2DError, NotFound, SessionError, fault
from d2d_cli.rules.core.record import field, record
from d2d_cli.session import dirs, files, journal
from d2d_cli.session import text as T

SCHEMA = 1
DEFAULT_NAME = "default"
JOURNAL_KEEP = journal.JOURNAL_KEEP
UNDO_DEPTH = journal.UNDO_DEPTH
MAX_SESSION_BYTES = 256 * 1024 * 1024
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_CACHE_MAGIC = b"d2d-cache-2\n"
CACHE_SESSION_LIMIT = 16 * 1024 * 1024  # a bigger session file is parsed by every command
CACHE_LIMIT = 32 * 1024 * 1024  # one cache file: two slots of marshalled data
CACHE_KEEP = 16  # session caches kept in the cache folder, the most recently written


# --------------------------------------------------------------------------- where


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
    if (not _NAME_RE.fullmatch(name) or name.lower().endswith(".toml") or ".." in name):
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
        return Path(spec).expanduser().resolve()
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
    if not is_path(name) and not _NAME_RE.fullmatch(name):
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
    return sorted(p.stem for p in d.glob("*.toml") if _NAME_RE.fullmatch(p.stem))


def display_name(path: Path) -> str:
    return path.stem if path.parent == data_dir() else str(path)


def journal_path(path: Path) -> Path:
    return journal.path_for(_real(path))


def _real(path: Path) -> Path:
    """Symlinks are written through: every file d2d keeps is beside the real file."""
    return Path(os.path.realpath(path))


# --------------------------------------------------------------------------- reading


def _fail_shape(path: Path, bad: Any) -> SessionError:
    from d2d_cli.session.shape import where_text

    table, key = where_text(bad.where)
    place = f"[{table}] {key}" if table else f"{key} (top level)"
    return SessionError(f"{path}: {place}: {bad.problem}; the file was left as it is — fix "
                        f"it by hand, or restore {path.name}.bak")


def _parse(path: Path, text: str) -> dict[str, Any]:
    """Parse and check a file d2d did not write itself."""
    import tomllib  # a file met for the first time; else the cache answers (see below)

    from d2d_cli.session import shape

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SessionError(
            f"{path}: not valid TOML ({e}); the file was left as it is — fix it by hand, "
            f"or restore {path.name}.bak"
        ) from None
    except RecursionError:
        raise _too_deep(path, text) from None
    _check_schema(path, data.get("schema"))
    try:
        shape.check(data)
    except shape.Bad as bad:
        raise _fail_shape(path, bad) from None
    return data


def _too_deep(path: Path, text: str) -> SessionError:
    """A value nested past what the TOML parser itself can read: named by its table and
    key as every other refusal is (the parser does not say where)."""
    from d2d_cli.session.shape import MAX_DEPTH, deep_place

    place = deep_place(text)
    where = "" if place is None else (f"[{place[0]}] {place[1]}: " if place[0]
                                      else f"{place[1]} (top level): ")
    return SessionError(f"{path}: {where}nested deeper than {MAX_DEPTH} tables and lists, "
                        f"too deep to be a d2d session; the file was left as it is — fix it "
                        f"by hand, or restore {path.name}.bak")


def _check_schema(path: Path, schema: Any) -> None:
    if type(schema) is not int:
        raise SessionError(f"{path}: not a d2d session (no 'schema = {SCHEMA}' at the top)")
    if schema > SCHEMA:
        raise SessionError(
            f"{path}: written by a newer d2d (schema {schema}, this d2d reads {SCHEMA}); "
            "refusing to read or overwrite it — upgrade d2d"
        )
    if schema < 1:
        raise SessionError(f"{path}: schema (top level): {schema} is not a d2d schema (this "
                           f"d2d reads {SCHEMA}); the file was left as it is")


def _root_schema(path: Path, text: str) -> None:
    """The schema check alone, from the text before the first table (cheap)."""
    import tomllib

    try:
        root = tomllib.loads(T.root_text(text))
    except (tomllib.TOMLDecodeError, RecursionError):
        root = {}
    _check_schema(path, root.get("schema"))


def _read_raw(real: Path) -> bytes | None:
    try:
        return files.read_limited(real, MAX_SESSION_BYTES, "the session file")
    except OSError as e:
        raise files.trouble(real, e, "read it") from None


def _decode(real: Path, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SessionError(f"{real}: not a UTF-8 text file; the file was left as it is") from None


@record(frozen=False)
class _Loaded:
    text: str
    digest: str
    data: dict[str, Any]
    root: frozenset[str] | None
    twin: Callable[[], dict[str, Any]]  # an independent copy of data
    payload: bytes | None  # data, marshalled (for the cache)


def _load(real: Path, raw: bytes) -> _Loaded:
    import marshal

    h = journal.digest(raw)
    text = _decode(real, raw)
    for digest, payload, root in _cache_read(real):
        if digest == h:
            return _Loaded(text, h, marshal.loads(payload), root,
                           functools.partial(marshal.loads, payload), payload)
    data = _parse(real, text)
    payload_or_none: bytes | None = None
    if len(raw) > CACHE_SESSION_LIMIT:
        _cache_drop(real)  # too big to keep a copy of (and to marshal for nothing)
    else:
        with contextlib.suppress(ValueError):  # a hand-written date: marshal cannot hold it
            payload_or_none = marshal.dumps(data)
        if payload_or_none is not None:
            _cache_write(real, [(h, payload_or_none, None)])
    pristine = _copy(data)  # the command may change ``data`` in place
    return _Loaded(text, h, data, None, lambda: _copy(pristine), payload_or_none)


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    import marshal

    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:  # a date or time written by hand: marshal cannot hold it
        import copy

        return copy.deepcopy(data)


def read(path: Path, *, seed: int | None = None, create: bool = True) -> dict[str, Any]:
    """The session as plain data. A missing session is created (when ``create``: the
    default session or a named .toml path); inside a CLI run, only if the command
    succeeds."""
    real = _real(path)
    scope = _scope()
    if scope is not None and real in scope.pending and scope.pending[real].op == "do":
        return _copy(scope.pending[real].new_data)
    raw = _read_raw(real)
    if raw is None:
        if not create:
            raise NotFound(f"no session at {path}")
        state = _fresh(real, seed)
        pending = _Pending(state, state.text, state.data, state.root, "", "", lookup=True)
        if scope is not None:
            scope.pending[real] = pending
        else:
            _commit(pending)
        return state.twin()
    return _load(real, raw).data


# --------------------------------------------------------------------------- the cache


def _cache_path(real: Path) -> Path:
    """``<cache folder>/sessions/<digest of the session's real path>.cache``."""
    return dirs.cache_dir() / "sessions" / f"{journal.digest(os.fsencode(real))}.cache"


def _cache_key(h: str) -> str:
    """Data in the cache was checked by this d2d (and these [rules] keys) only."""
    from d2d_cli.rules.core.options import FINGERPRINT as checker

    return f"{SCHEMA}:{__version__}:{checker}:{_CACHE_MAGIC.decode().strip()}:{h}"


Slot = tuple[str, bytes, frozenset[str] | None]  # digest, marshalled data, root keys


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
                out.append((digest, payload, None if root is None else frozenset(root)))
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
        body = marshal.dumps([(_cache_key(h), payload, None if r is None else sorted(r))
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


# --------------------------------------------------------------------------- writing


def new_state(seed: int) -> dict[str, Any]:
    """A fresh session's data. The Fate deck is shuffled by the caller (rules.deck.fate)."""
    return {
        "schema": SCHEMA,
        "meta": {"created": _now(), "seed": seed, "rng": 0},
        "rules": {},
    }


_HEADER = """\
# d2d session file. Safe to edit by hand while no d2d command runs; comments are kept.
# [rules] holds this table's à la carte choices (see docs/rules.md), e.g.
#   speed_convention = "001"
"""


def _fresh_text(data: dict[str, Any]) -> str:
    """A new session's text: ``schema``, the header comment, the tables, laid out as
    tomlkit lays them out (text.dump; tomlkit itself only if that would not read back)."""
    body = T.dump((), {k: v for k, v in data.items() if k != "schema"})
    fresh = f"schema = {data['schema']}\n{_HEADER}\n{body}"
    return fresh if T._loads(fresh) == data else _fresh_tomlkit(data)


def _fresh_tomlkit(data: dict[str, Any]) -> str:
    """A new session's text written by tomlkit (the layout :func:`_fresh_text` copies)."""
    import tomlkit

    doc = tomlkit.document()
    doc.add("schema", data["schema"])
    for line in _HEADER.splitlines():
        doc.add(tomlkit.comment(line.removeprefix("# ")))
    for key, value in data.items():
        if key != "schema":
            doc[key] = value
    return tomlkit.dumps(doc)


def _fresh(real: Path, seed: int | None) -> _State:
    """A new session with a freshly shuffled Fate deck, in memory. Only d2d's own data
    folder is created if missing; a path's folder must exist."""
    from d2d_cli.rules.deck import fate

    if not real.parent.is_dir():
        if real.parent != _real(data_dir()):
            raise NotFound(f"no folder {real.parent} for the session file {real.name} (d2d "
                           "creates the file, never folders)")
        with files.guard(real.parent, "create the data folder"):
            real.parent.mkdir(parents=True, exist_ok=True)
    if seed is None:
        seed = int.from_bytes(os.urandom(6), "big")  # 48 random bits (secrets: +5 ms)
    data = new_state(seed)
    data["fate"] = fate.new_deck(rng_for(seed, None, 0)).to_state()
    data["meta"]["rng"] = 1
    text = _fresh_text(data)
    import tomllib

    data = tomllib.loads(text)
    grouped = T.groups(text)
    root = grouped[1] if grouped is not None and grouped[0] == data else None
    pristine = _copy(data)
    return _State(real, text, b"", "", data, root, None, creating=True,
                  twin=lambda: _copy(pristine))


def create(path: Path, *, seed: int | None, exist_ok: bool = False) -> dict[str, Any]:
    """Create a session file with a freshly shuffled Fate deck (inside a CLI run: when
    the command succeeds)."""
    real = _real(path)
    if _exists(real) or _scope_pending(real):
        if exist_ok:
            return read(path)
        raise BadInput(f"session {display_name(path)!r} already exists ({path})")
    state = _fresh(real, seed)
    pending = _Pending(state, state.text, state.data, state.root, "", "")
    scope = _scope()
    if scope is not None:
        scope.pending[real] = pending
    else:
        _commit(pending)
    return state.twin()


@record(frozen=False)
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


@record(frozen=False)
class _State:
    """A session file as a command found it (under the lock)."""

    real: Path
    text: str
    raw: bytes
    digest: str
    data: dict[str, Any]
    root: frozenset[str] | None
    like: os.stat_result | None
    creating: bool = False
    twin: Callable[[], dict[str, Any]] = dict
    payload: bytes | None = None  # data, marshalled, when it came from the cache


@record(frozen=False)
class _Pending:
    """A change ready to commit: the state it starts from and the text it writes."""

    state: _State
    new_text: str
    new_data: dict[str, Any]
    new_root: frozenset[str] | None
    command: str
    summary: str
    op: str = "do"
    ref: int | None = None
    lookup: bool = False  # a session created by a lookup: someone else's is as good
    cached: list[Slot] = field(default_factory=list)


def _begin(real: Path, shown: Path, seed: int | None, create: bool,
           stack: contextlib.ExitStack) -> _State:
    """Lock and load the session (or a fresh one, when it may be created)."""
    try:
        fd = stack.enter_context(files.locked(real))
    except FileNotFoundError:
        if not create:
            raise NotFound(f"no session at {shown}") from None
        return _fresh(real, seed)
    except OSError as e:
        raise files.trouble(real, e, "open it for writing") from None
    with files.guard(real, "read it"):
        like = os.fstat(fd)
        files.check_writable(real, like)
        files.check_size(real, like.st_size, MAX_SESSION_BYTES, "the session file")
        raw = files.read_fd(fd)
    fault("read")
    loaded = _load(real, raw)
    fault("validated")
    return _State(real, loaded.text, raw, loaded.digest, loaded.data, loaded.root, like,
                  twin=loaded.twin, payload=loaded.payload)


@contextlib.contextmanager
def edit(path: Path, command: str, *, seed: int | None = None,
         create: bool = True) -> Iterator[Transaction]:
    """Lock, load, let the caller change sections; then check and render the new file
    and commit it — when the block ends, or (inside a CLI run) when the command has
    succeeded. If the body raises, or nothing was ``put``, nothing is written."""
    real = _real(path)
    scope = _scope()
    with contextlib.ExitStack() as stack:
        before = scope.pending.get(real) if scope is not None else None
        if before is not None:  # a second edit in the same command builds on the first
            state = before.state
            base_text, base_data, base_root = before.new_text, before.new_data, before.new_root
        else:
            state = _begin(real, path, seed, create,
                           scope.locks if scope is not None else stack)
            base_text, base_data, base_root = state.text, state.data, state.root
        tx = Transaction(path, command, seed, _copy(base_data) if before else base_data,
                         _copy(base_data) if before else state.twin())
        yield tx
        if not tx.changed:
            return
        new_text, new_data, new_root = _render(real, base_text, base_root, tx)
        if before is not None:
            before.new_text, before.new_data, before.new_root = new_text, new_data, new_root
            before.summary = "; ".join(s for s in (before.summary, tx.summary) if s)
            before.command = before.command or command
            before.lookup = False
            return
        if new_text == state.text and not state.creating:
            return
        pending = _Pending(state, new_text, new_data, new_root, command, tx.summary)
        if scope is not None:
            scope.pending[real] = pending
        else:
            _commit(pending)


def _render(real: Path, text: str, root: frozenset[str] | None,
            tx: Transaction) -> tuple[str, dict[str, Any], frozenset[str] | None]:
    """The new file text and the data it holds; every changed table is checked against
    the declared shape first (a command must never write what d2d cannot read)."""
    from d2d_cli.session import shape

    try:
        shape.check(tx.data, sorted(tx.changed), tx._old)
    except shape.Bad as bad:
        table, key = shape.where_text(bad.where)
        raise RuntimeError(f"d2d would write [{table}] {key}: {bad.problem}") from None
    try:
        return T.render(text, tx._old, tx.data, tx.changed, root)
    except ValueError as e:
        raise RuntimeError(f"{real}: {e}") from None


def _commit(p: _Pending) -> None:
    """Journal, then temp file, ``.bak``, rename (the commit point). Any failure before
    the rename takes the journal entry back and leaves the file as it was."""
    s = p.state
    real = s.real
    raw_new = p.new_text.encode("utf-8")
    h1 = journal.digest(raw_new)
    entry: dict[str, Any] | None = None
    if p.op != "do" or p.command:
        entry = {"v": journal.VERSION, "id": 0, "op": p.op, "at": _now(),
                 "command": p.command, "summary": p.summary}
        if p.ref is not None:
            entry["ref"] = p.ref
    base_digest = s.digest if not s.creating else journal.digest(s.text.encode("utf-8"))
    if entry is not None:
        entry["h0"], entry["h1"] = base_digest, h1
        if p.op == "do":
            entry["d"] = T.diff(s.text, p.new_text)
    writer = journal.Writer(real, s.like)
    tmp: Path | None = None
    try:
        try:
            if s.creating:
                files.create_exclusive(real, raw_new)  # the commit point of a new session
            else:
                files.sweep_orphans(real.parent, real.name)  # a killed writer's temp files
                writer.open()
                writer.repair(base_digest, s.text)
                if entry is not None:
                    entry["id"] = writer.last_id() + 1
                    writer.append(entry, len(raw_new))
                assert s.like is not None
                tmp = files.write_temp(real, raw_new, s.like)
                bak = files.Backup(real, s.raw, s.like)
                try:
                    fault("backup")
                    files.replace(tmp, real)  # the commit point
                except BaseException:
                    bak.restore()
                    raise
                tmp = None
                bak.done()
        except BaseException as e:
            if writer.appended:
                with contextlib.suppress(OSError):
                    writer.rollback()
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            if isinstance(e, FileExistsError) and s.creating:
                if p.lookup:
                    return  # another command created it first: a lookup needs no more
                raise SessionError(f"{real}: another d2d command created this session at the "
                                   "same moment; nothing was changed — run it again") from None
            if isinstance(e, OSError):
                name = str(e.filename or real)
                if Path(name).name.startswith(f".{real.name}."):
                    name = str(real)  # our temp file: name the session, not the temp
                raise files.trouble(name, e, "write it") from None
            raise
    finally:
        writer.close()
    if s.creating:
        # A journal left by a deleted session of the same name is kept aside; the new
        # session's first command is journalled after the file exists (a failure here
        # only costs that one undo: the command has succeeded).
        with contextlib.suppress(Exception):
            _retire_journal(real)
            if entry is not None:
                writer = journal.Writer(real, _stat_or_none(real))
                try:
                    writer.open()
                    entry["id"] = 1
                    writer.append(entry, len(raw_new))
                finally:
                    writer.close()
    # After the commit point nothing may fail the command: the change is made.
    with contextlib.suppress(Exception):
        fault("renamed")
    with contextlib.suppress(Exception):
        files.sync_dir(real.parent)
    with contextlib.suppress(Exception):
        import marshal

        if len(raw_new) > CACHE_SESSION_LIMIT:
            _cache_drop(real)
        elif p.op == "do":
            slots: list[Slot] = [(h1, marshal.dumps(p.new_data), p.new_root)]
            if not s.creating and s.digest:
                slots.append((s.digest, s.payload or marshal.dumps(s.twin()), s.root))
            _cache_write(real, slots)
        elif p.cached:
            _cache_write(real, p.cached)


def _retire_journal(real: Path) -> None:
    """A journal left by a deleted session of the same name is kept as .journal.old."""
    jp = journal.path_for(real)
    if _exists(jp):
        os.replace(jp, jp.with_name(jp.name + ".old"))


# --------------------------------------------------------------------------- the CLI scope


class Scope:
    """One CLI command's pending changes: the boundary commits them when the command
    has succeeded, and drops them (releasing the locks) otherwise."""

    def __init__(self) -> None:
        self.pending: dict[Path, _Pending] = {}
        self.locks = contextlib.ExitStack()
        self.after: list[Callable[[], None]] = []

    def commit(self) -> None:
        try:
            for p in self.pending.values():
                _commit(p)
            for action in self.after:
                action()
        finally:
            self.close()

    def close(self) -> None:
        self.pending.clear()
        self.after.clear()
        self.locks.close()


_scopes: list[Scope] = []


@contextlib.contextmanager
def deferred() -> Iterator[Scope]:
    """Changes made inside wait for ``scope.commit()``; nested scopes (the tour runs
    commands inside a command) are separate."""
    scope = Scope()
    _scopes.append(scope)
    try:
        yield scope
    finally:
        _scopes.remove(scope)
        scope.close()


def _scope() -> Scope | None:
    return _scopes[-1] if _scopes else None


def _scope_pending(path: Path) -> bool:
    scope = _scope()
    return scope is not None and _real(path) in scope.pending


def _after_commit(action: Callable[[], None]) -> None:
    scope = _scope()
    if scope is None:
        action()
    else:
        scope.after.append(action)


# --------------------------------------------------------------------------- journal


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def log(path: Path, last: int) -> list[dict[str, Any]]:
    """The last ``last`` journal entries, oldest first, without their hunks."""
    if last <= 0:
        return []
    real = _real(path)
    try:
        with journal.opened(real) as fd:
            if fd is None:
                return []
            newest: list[dict[str, Any]] = []
            for entry in journal.newest_first(fd):
                newest.append(entry)
                if len(newest) >= last:
                    break
    except OSError as e:
        raise files.trouble(journal.path_for(real), e, "read it") from None
    return journal.log_view(newest)


def _history_step(path: Path, *, redo: bool, force: bool) -> dict[str, Any]:
    real = _real(path)
    scope = _scope()
    if scope is not None and real in scope.pending:
        raise BadInput("undo and redo cannot follow a change in the same command")
    with contextlib.ExitStack() as stack:
        try:
            fd = (scope.locks if scope is not None else stack).enter_context(
                files.locked(real))
        except FileNotFoundError:
            raise NotFound(f"no session at {path}") from None
        except OSError as e:
            raise files.trouble(real, e, "open it for writing") from None
        with files.guard(real, "read it"):
            like = os.fstat(fd)
            files.check_writable(real, like)
            files.check_size(real, like.st_size, MAX_SESSION_BYTES, "the session file")
            raw = files.read_fd(fd)
        text = _decode(real, raw)
        _root_schema(real, text)  # a newer or foreign file is never replaced
        h = journal.digest(raw)
        jp = journal.path_for(real)
        word = "redo" if redo else "undo"
        target = None
        writer = journal.Writer(real, like)
        try:
            if writer.open(create=False):
                # A torn tail, an entry whose write never happened, the first journal
                # format: all put right first (under the lock), so the walk is exact.
                writer.repair(h, text)
                entries = journal.newest_first(writer.fd)
                target = journal.redo_target(entries) if redo else journal.undo_target(entries)
        except OSError as e:
            raise files.trouble(jp, e, "read it") from None
        finally:
            writer.close()
        if target is None or "d" not in target:
            if redo:
                raise BadInput("nothing to redo: no command was undone since the last change")
            raise BadInput(f"nothing to undo: the journal holds no earlier state (undo reaches "
                           f"back at least {UNDO_DEPTH} commands)")
        name = target.get("command") or "?"
        want = target["h0"] if redo else target["h1"]
        if redo:
            new_text = T.apply(text, target["d"]) if h == want else None
        else:
            new_text = T.apply(text, target["d"], reverse=True) if h == want else None
        if h != want:
            if not force:
                raise SessionError(
                    f"{real}: the file was changed by hand since d2d last wrote it; {word} "
                    f"would lose those edits — rerun with --force to {word} '{name}' anyway "
                    "(edits elsewhere in the file are kept); nothing was changed")
            new_text = (T.apply_reverse_fuzzy(text, target["d"]) if not redo
                        else _apply_forward_fuzzy(text, target["d"]))
            if new_text is None:
                raise SessionError(
                    f"{real}: the hand edits changed the same lines '{name}' did, so {word} "
                    f"--force cannot apply; edit the file by hand, or restore {real.name}.bak "
                    "(nothing was changed)")
            _parse(real, new_text)  # what --force writes must still be a good session
        elif new_text is None or journal.digest(new_text.encode("utf-8")) != (
                target["h1"] if redo else target["h0"]):
            raise SessionError(f"{jp}: the journal entry of '{name}' does not match the file, "
                               f"so {word} cannot restore it exactly; nothing was changed")
        state = _State(real, text, raw, h, {}, None, like)
        pending = _Pending(state, new_text, {}, None, f"session {word}",
                           f"{'re-applied' if redo else 'reverted'} '{name}'", op=word,
                           ref=int(target.get("id", 0)))
        pending.cached = _cache_swap(real, journal.digest(new_text.encode("utf-8")))
        if scope is not None:
            scope.pending[real] = pending
        else:
            _commit(pending)
    return {"command": target.get("command"), "at": target.get("at"),
            "summary": target.get("summary", "")}


def _apply_forward_fuzzy(text: str, hunks: list[Any]) -> str | None:
    """Redo --force: each hunk's old text found where it was or exactly once."""
    return T.apply_reverse_fuzzy(text, [[off, new, old] for off, old, new in hunks])


def _cache_swap(real: Path, h: str) -> list[Slot]:
    """After undo or redo: the cache's slots with the restored file's first, if held."""
    slots = _cache_read(real)
    mine = [x for x in slots if x[0] == h]
    return mine + [x for x in slots if x[0] != h] if mine else []


def undo(path: Path, *, force: bool = False) -> dict[str, Any]:
    """Restore the state before the last state-changing command not yet undone."""
    return _history_step(path, redo=False, force=force)


def redo(path: Path, *, force: bool = False) -> dict[str, Any]:
    """Re-apply the command the last undo reverted (if nothing changed since)."""
    return _history_step(path, redo=True, force=force)
