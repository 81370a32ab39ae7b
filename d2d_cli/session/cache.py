"""The parsed cache (one file per session in the user cache folder, :mod:`.dirs`): the
parsed data of the last file d2d wrote or read, keyed by the digest of its bytes, so a
1,000-unit session is not parsed (~100 ms) by every command. It is bounded: a session
file over ``CACHE_SESSION_LIMIT`` bytes gets none, a cache file is at most
``CACHE_LIMIT`` bytes, and the folder keeps the ``CACHE_KEEP`` most recently written.

**The file is the truth** (issue 30 item 4). A slot is served only when

* its key holds the file's own digest, the schema and :func:`build` — a digest of the
  code that reads and checks a file (the session package's readers, the shape, the
  rules modules the shape calls, the tables' module: :func:`readers`, found from their
  text), taken once per process from those files' sizes and modification times and
  the Python running them (kept in a sealed index beside the caches, so a lookup with
  the user's key only ``stat``s them; without it no slot is read, and the build is the
  process's own): data checked by another build (an older, laxer shape check) is never
  served; and
* its MAC checks with the user's own key (``<cache folder>/sessions/key``, 32 random
  bytes, mode 600, made on the first write): a cache planted by someone else, who
  cannot read the key, is ignored; and
* the folder is the user's own and writable by no one else (else the cache is neither
  read nor written: every command parses the file).

The folder also keeps the ``CACHE_KEEP`` build indexes written last (one per installed
d2d), and as many memos: what a pure rules function of a build worked out before, by its
arguments (:func:`memo`: the Status Bar's Move of a unit before its first Refresh),
sealed the same way.
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d2d_cli import __version__
from d2d_cli.errors import D2DError
from d2d_cli.session import dirs, files, journal
from d2d_cli.session.files import real as _real

if TYPE_CHECKING:
    from collections.abc import Callable

    from d2d_cli.session import text as T

SCHEMA = 1
_CACHE_MAGIC = b"d2d-cache-5\n"  # 3: a slot keeps the text's grouping; 4: keyed MAC;
# 5: a slot's data chapter by chapter (:func:`dump`)
_KEY_BYTES = 32
CACHE_SESSION_LIMIT = 16 * 1024 * 1024  # a bigger session file is parsed by every command
CACHE_LIMIT = 32 * 1024 * 1024  # one cache file: two slots of marshalled data
CACHE_KEEP = 16  # session caches kept in the cache folder, the most recently written


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    import marshal

    try:
        copied: dict[str, Any] = marshal.loads(marshal.dumps(data))
        return copied
    except ValueError:  # a date or time written by hand: marshal cannot hold it
        import copy

        return copy.deepcopy(data)


def dump(data: dict[str, Any]) -> bytes:
    """A session's data as a slot holds it: each chapter (a top-level key: ``units``,
    ``fate``, ``scene``…) marshalled on its own, in the data's order, so a reader that
    needs a few chapters unmarshals only those (:func:`load`): a 1,000-unit session's
    ``units`` are ~98% of it, and ``session export`` reads only its scene's name.
    ValueError, as marshal's, for a value marshal cannot hold (a date written by hand)."""
    import marshal

    return marshal.dumps({k: marshal.dumps(v) for k, v in data.items()})


# The last payload's chapters, still marshalled (immutable bytes): ``d2d play`` reads the
# same slot at every lookup, and unmarshalling the outer table again copied every
# chapter's bytes each time (~0.1 ms of a 100-unit session's lookup).
_CHAPTERS: tuple[bytes, dict[str, bytes]] | None = None


def load(payload: bytes, only: frozenset[str] | None = None) -> dict[str, Any]:
    """The data :func:`dump` wrote, a new copy each call; ``only``: just those chapters
    (each one whole), the others not unmarshalled."""
    import marshal

    global _CHAPTERS
    loads = marshal.loads
    known = _CHAPTERS
    if known is not None and known[0] is payload:
        chapters = known[1]
    else:
        chapters = loads(payload)
        _CHAPTERS = (payload, chapters)
    return {k: loads(v) for k, v in chapters.items() if only is None or k in only}


def _cache_path(real: Path) -> Path:
    """``<cache folder>/sessions/<digest of the session's real path>.cache``."""
    return dirs.cache_dir() / "sessions" / f"{journal.digest(os.fsencode(real))}.cache"


def _root() -> str:
    """The package folder (``d2d_cli/``), as this module was imported from it."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# A reading starts from the session package, every module of it: the one package that
# touches a session file (docs/architecture.md). What it imports, at module level or
# inside a function, is found from its text (:func:`readers`), never listed by hand
# (inert.py was missing from such a list, issue 38).
_READING = "session"
_INDEX_MAGIC = b"d2d-build-1\n"  # the build's index in the cache folder (:func:`build`)


def _found(root: str, dotted: str) -> str | None:
    """The file of module ``d2d_cli.<dotted>`` under ``root`` (a package's
    ``__init__.py``, as Python's finder prefers it), relative; None if there is none."""
    rel = os.path.join(*dotted.split(".")) if dotted else ""
    init = os.path.join(rel, "__init__.py")
    if os.path.isfile(os.path.join(root, init)):
        return init
    if rel and os.path.isfile(os.path.join(root, rel + ".py")):
        return rel + ".py"
    return None


def _closure(root: str) -> tuple[str, ...]:
    """The import closure of the session package (:data:`_READING`) under ``root``, read
    from the modules' text, generously: every dotted name ``d2d_cli.…`` written anywhere
    in a module (``import``, ``from … import``, a ``lazy_module`` or ``import_module``
    string, even a comment), each package on its way, each name a ``from d2d_cli.x
    import (…)`` takes that is a module, and every module of a package named by an
    f-string's prefix (``f"d2d_cli.session.{name}"``). Reading more than is imported only
    costs a ``stat``; tests/test_cache_truth.py checks it holds import-linter's graph and
    what Python's own parser finds imported."""
    import re

    names = re.compile(r"d2d_cli((?:\.\w+)*)(\.\{)?")
    froms = re.compile(r"^[ \t]*from[ \t]+d2d_cli((?:\.\w+)*)[ \t]+import[ \t]+"
                       r"(\([^)]*\)|[^\n]*)", re.M)
    seen: set[str] = set()
    todo: list[str] = []

    def take(rel: str | None) -> bool:
        if rel is None:
            return False
        if rel not in seen:
            seen.add(rel)
            todo.append(rel)
        return True

    asked: set[str] = set()  # dotted names already looked for (a name recurs a lot)

    def module(dotted: str) -> None:  # the module and every package on its way
        if dotted in asked:
            return
        asked.add(dotted)
        parts = dotted.split(".") if dotted else []
        for i in range(len(parts) + 1):
            if not take(_found(root, ".".join(parts[:i]))):
                return

    def package(dotted: str) -> None:  # every module of a package, below it too
        top = os.path.join(root, *dotted.split("."))
        for folder, subs, files_ in os.walk(top):
            subs[:] = [d for d in subs if d != "__pycache__"]
            for name in files_:
                if name.endswith(".py"):
                    take(os.path.relpath(os.path.join(folder, name), root))

    module(_READING)
    package(_READING)
    while todo:
        rel = todo.pop()
        try:  # a module that cannot be read is still a reader (its stat is in the key)
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        for m in names.finditer(text):
            dotted = m.group(1)[1:]
            module(dotted)
            if m.group(2):
                package(dotted)
        for m in froms.finditer(text):
            base = m.group(1)[1:]
            for name in re.findall(r"\w+", m.group(2).partition("#")[0]
                                   if m.group(2)[:1] != "(" else m.group(2)):
                if name != "as":
                    module(f"{base}.{name}" if base else name)
    return tuple(sorted(seen))


@functools.cache
def readers() -> tuple[str, ...]:
    """The code a reading depends on (paths under the package folder): derived, never
    listed — every module of the session package (the readers, the shape check, the
    cache) and everything they import, found from their text (:func:`_closure`), so
    whatever the shape check imports, today or in a later version (inert.py was missing
    from the hand-kept list, issue 38), is part of the build. The tables are read through
    ``tables/_data.py``, one of them. tests/test_cache_truth.py checks that this holds
    the import graph of the session's readers and shape check (import-linter's grimp)."""
    return _closure(_root())


def _folders(names: tuple[str, ...]) -> tuple[str, ...]:
    """The folders of ``names``: a module added to one of them (a package that would now
    be found before a module, a module a ``from … import`` would now take) may change
    what the readers import, so it changes the folder's time and the index is redone."""
    return tuple(sorted({os.path.dirname(n) for n in names}))


def _stamps(root: str, names: tuple[str, ...], folders: tuple[str, ...]
            ) -> tuple[tuple[int, int], ...] | None:
    """Each reader's size and modification time, then each folder's time; None if one
    is gone."""
    stat_ = os.stat
    out = []
    try:
        for n in names:
            st = stat_(os.path.join(root, n))
            out.append((st.st_size, st.st_mtime_ns))
        for d in folders:
            out.append((0, stat_(os.path.join(root, d)).st_mtime_ns))
    except OSError:
        return None
    return tuple(out)


def _digest(names: tuple[str, ...], stamps: tuple[tuple[int, int], ...]) -> str:
    """The build: this d2d and its Python (:func:`_python`), and each reader's name,
    size and modification time (``stamps`` as :func:`_stamps` gives them: the readers'
    first, then the folders')."""
    lines = [f"{n}:{size}:{mtime}"
             for n, (size, mtime) in zip(names, stamps[:len(names)], strict=True)]
    return journal.digest("\n".join([_python(), *lines]).encode())


def _index_path(root: str) -> Path:
    """``<cache folder>/sessions/build-<digest of the package folder>``: one index for
    each installed d2d (a checkout, a pipx install) sharing the user's cache folder."""
    return dirs.cache_dir() / "sessions" / f"build-{journal.digest(os.fsencode(root))}"


@functools.cache
def build() -> str:
    """This d2d's reading code, as a digest of its readers' names, sizes and
    modification times and the Python that runs them (:func:`readers`; once per process;
    a reinstall or an edit of a reader changes it, an edit of a module no reader imports
    does not).

    Finding the readers reads ~50 modules (~15 ms), so the answer is kept in an index in
    the user's cache folder (``sessions/build-…``, sealed like a cache with the user's
    key, in a folder of the user's alone): the readers, their sizes and times and their
    folders' times, and the build. A process takes the build from it after one ``stat``
    of each reader and folder, all equal; anything else (an edit, a module added beside a
    reader, a new version, no index) finds the readers again and writes the index anew —
    twice, and only when both finds agree and no reader or folder changed between them
    (an edit landing during the first would pair the readers of the old text with the
    times of the new: every later process would trust a stale list). A lookup paid a
    walk of the whole package and a ``stat`` of its ~220 files, ~1 ms and ~1% of its
    instructions (issue 40 item 3).

    Without the user's key (a first command, or a cache folder d2d may not use) no slot
    can be read, so nothing is found: the build is this process's own random one (the
    slots it writes are then served to no other process, and the next finds its build).
    tests/test_cache_truth.py derives the key again after each kind of edit."""
    import marshal

    root = _root()
    path = _index_path(root)
    key = _mac_key(path.parent, create=False)
    if key is None:
        return _own()
    with contextlib.suppress(OSError, D2DError, ValueError, TypeError, EOFError):
        raw = files.read_limited(path, CACHE_LIMIT, "the build's index")
        if raw is not None and raw.startswith(_INDEX_MAGIC):
            n = len(_INDEX_MAGIC)
            check, body = raw[n:n + 32], raw[n + 32:]
            if _mac(key, body) == check:
                at, python, names, folders, stamps, known = marshal.loads(body)
                if (at, python) == (root, _python()) and \
                        _stamps(root, names, folders) == stamps:
                    return str(known)
    names = _closure(root)
    folders = _folders(names)
    stamps = _stamps(root, names, folders)
    if stamps is None or _closure(root) != names or _stamps(root, names, folders) != stamps:
        return _own()  # the code changed while it was read: no index, this process's own
    got = _digest(names, stamps)
    body = marshal.dumps((root, _python(), names, folders, stamps, got))
    with contextlib.suppress(OSError):
        files.write_atomic(path, _INDEX_MAGIC + _mac(key, body) + body, None,
                           durable=False, private=True)
        _keep_newest(path.parent, lambda name: name.startswith("build-"))
    return got


def _python() -> str:
    """This d2d's version and the Python that runs it (another Python's ``tomllib`` may
    read a file otherwise): part of the build and of the index's key."""
    import sys

    return f"{__version__} {sys.implementation.name} {sys.version}"


def _own() -> str:
    """A build no other process has: what this one writes is read by none but itself."""
    return "own-" + os.urandom(16).hex()


def _keep_newest(folder: Path, ours: Callable[[str], bool]) -> None:
    """Keep the ``CACHE_KEEP`` files of ``folder`` written last whose names are ``ours``
    (the caches; the build indexes, one per installed d2d: a checkout, a pipx install,
    each test environment's)."""
    with contextlib.suppress(OSError):
        found = []
        with os.scandir(folder) as it:
            for entry in it:
                if ours(entry.name) and entry.is_file(follow_symlinks=False):
                    found.append((entry.stat().st_mtime_ns, entry.path))
        for _, old in sorted(found, reverse=True)[CACHE_KEEP:]:
            with contextlib.suppress(OSError):
                os.unlink(old)


def _cache_key(h: str) -> str:
    """Data in the cache was checked by this build of d2d: its readers include the
    ``[rules]`` keys' checks (``rules/core/options.py``, which ``shape`` imports), so an
    edit of a key or of what it accepts is a new build."""
    return f"{SCHEMA}:{build()}:{_CACHE_MAGIC.decode().strip()}:{h}"


def _own_folder(folder: Path) -> bool:
    """The folder is a real directory of this user that no one else may write to."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # pragma: no cover - Windows: the user's profile folder
        return stat.S_ISDIR(st.st_mode)
    return stat.S_ISDIR(st.st_mode) and st.st_uid == getuid() and not st.st_mode & 0o022


def _mac_key(folder: Path, create: bool) -> bytes | None:
    """The user's cache key (made when ``create`` and missing); None when the folder or
    the key is not this user's alone — then the cache is not used."""
    if not _own_folder(folder):
        return None
    path = folder / "key"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))  # a FIFO: not read, not waited on
    except FileNotFoundError:
        if not create:
            return None
        return _new_key(path)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        # a key that is no regular file (a folder, a device) is not read: not this user's
        key = os.read(fd, _KEY_BYTES + 1) if stat.S_ISREG(st.st_mode) else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    getuid = getattr(os, "getuid", None)
    if (not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077 or len(key) != _KEY_BYTES
            or (getuid is not None and st.st_uid != getuid())):
        return None
    return key


def _new_key(path: Path) -> bytes | None:
    key = os.urandom(_KEY_BYTES)
    try:
        files.create_exclusive(path, key, private=True)
    except FileExistsError:  # another command made it first: use theirs
        return _mac_key(path.parent, create=False)
    except OSError:
        return None
    return key


def _mac(key: bytes, body: bytes) -> bytes:
    # keyed BLAKE2 (a MAC by design), through the C module the journal already loaded:
    # hashlib would cost every lookup its import
    return journal.keyed_digest(body, key)


# digest, marshalled data, marshalled grouping (decoded only by a write: a lookup
# never pays for the layout)
Slot = tuple[str, bytes, bytes | None]

# The newest slot this process read from or wrote to each session's cache (issue 40):
# inside `d2d play` every line read the cache file again, checked its MAC and unmarshalled
# both of its slots to find the one whose digest is the file's. A slot is keyed by the
# digest of the session file's bytes and by the build that checked it (:func:`_cache_key`,
# asked again at each use), so it answers for those bytes as the cache file would.
# Bounded: a few sessions at most.
_RECENT: dict[Path, tuple[str, Slot]] = {}
_RECENT_KEEP = 4


def checker() -> str:
    """Who checks what this process reads (the build, its [rules] keys' checks among its
    readers): what the process remembers of a session answers only while it is the
    same."""
    return _cache_key("")


def recent(real: Path, digest: str) -> Slot | None:
    """The slot this process last read or wrote for ``real``, if it is for ``digest``."""
    known = _RECENT.get(real)
    if known is None or known[1][0] != digest or known[0] != _cache_key(""):
        return None
    return known[1]


def remember(real: Path, slot: Slot | None) -> None:
    """``slot`` answers for ``real`` in this process (read from the cache or written)."""
    _RECENT.pop(real, None)
    if slot is not None:
        if len(_RECENT) >= _RECENT_KEEP:
            del _RECENT[next(iter(_RECENT))]
        _RECENT[real] = (_cache_key(""), slot)


def pack(grouping: T.Grouping | None) -> bytes | None:
    import marshal

    return None if grouping is None else marshal.dumps(grouping.dumps())


def unpack(packed: bytes | None) -> T.Grouping | None:
    """A cached grouping (None if there is none, or it does not decode)."""
    import marshal

    from d2d_cli.session import text as T  # a write's splice: a lookup never unpacks

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

    path = _cache_path(real)
    key = _mac_key(path.parent, create=False)
    if key is None:
        return []
    try:
        raw = files.read_limited(path, CACHE_LIMIT, "the cache")
    except (OSError, D2DError):
        return []
    if raw is None or not raw.startswith(_CACHE_MAGIC):
        return []
    n = len(_CACHE_MAGIC)
    check, body = raw[n:n + 32], raw[n + 32:]
    if _mac(key, body) != check:  # a local file: no timing oracle to guard against
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
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = _mac_key(path.parent, create=True)
    if key is None:
        return  # a folder others may write: no cache at all
    remember(real, slots[0] if slots else None)
    for keep in (2, 1):
        body = marshal.dumps([(_cache_key(h), payload, r)
                              for h, payload, r in slots[:keep]])
        data = _CACHE_MAGIC + _mac(key, body) + body
        if len(data) <= CACHE_LIMIT:
            break
    else:
        _cache_drop(real)
        return
    with contextlib.suppress(OSError):
        new = not path.exists()
        files.write_atomic(path, data, None, durable=False, private=True)
        if new:
            _cache_prune(path.parent)


def _cache_drop(real: Path) -> None:
    """No cache for this session (its file is over ``CACHE_SESSION_LIMIT``)."""
    remember(real, None)
    with contextlib.suppress(OSError):
        os.unlink(_cache_path(real))


def forget(path: Path) -> None:
    """A throwaway session file is being deleted (the tour's): drop its cache too, so
    nothing of it is left in the user's cache folder — and the cache key, when no other
    cache needs it (a cache whose key is gone is only parsed again)."""
    real = _real(path)
    _cache_drop(real)
    folder = _cache_path(real).parent
    with contextlib.suppress(OSError):
        if not any(p.suffix == ".cache" for p in folder.iterdir()):
            os.unlink(folder / "key")
            for sealed in (*folder.glob("build-*"), *folder.glob("memo-*")):
                os.unlink(sealed)  # sealed by that key: nothing to read


# A memo: what a pure rules function of this build worked out, by its arguments, kept
# for the next process (:func:`memo`, :func:`keep_memo`). The modules whose functions
# keep one are named here, in the session package's own text, so each is one of the
# :func:`readers` (:func:`_closure` takes every ``d2d_cli.…`` name written in it): an
# edit of one, or of a module it imports, is a new build, whose memo starts empty.
MEMO_MODULES = frozenset({
    "d2d_cli.rules.units.status_bar",  # bar_tokens: the Move before a first Refresh
})
_MEMO_MAGIC = b"d2d-memo-1\n"
MEMO_LIMIT = 64 * 1024  # one memo file
MEMO_KEEP = 256  # answers one memo holds; past that it starts again
# This process's memos: name -> (build, answers, how many answers its file holds)
_MEMOS: dict[str, tuple[str, dict[Any, Any], int]] = {}


def _memo_path(got: str, name: str) -> Path:
    """``<cache folder>/sessions/memo-<build>-<name>``."""
    return dirs.cache_dir() / "sessions" / f"memo-{got}-{name}"


def memo(name: str) -> MutableMapping[Any, Any]:
    """The memo of module ``name`` (one of :data:`MEMO_MODULES`): the answers of its
    pure function that this build of d2d worked out, by their arguments — those of
    earlier processes and those this one adds to the mapping returned (then
    :func:`keep_memo` keeps them). Its file is read when the memo is first asked, once a
    process: a ``status`` whose units all hold their tokens never reads it.

    The function must read nothing but its arguments, all of them in the key; its
    module is one of the :func:`readers`, so the build is a digest of its code. Sealed
    like a cache (the user's key, a folder of the user's alone): a memo that does not
    check is none; a build of the process's own (no key) has an empty one, never
    written."""
    if name not in MEMO_MODULES:
        raise ValueError(f"{name} keeps no memo: its module is not in MEMO_MODULES")
    return _Memo(name)


class _Memo(MutableMapping[Any, Any]):
    """:func:`memo`'s mapping: the answers (:func:`_answers`) read when first asked."""

    __slots__ = ("_got", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._got: dict[Any, Any] | None = None

    def _answers(self) -> dict[Any, Any]:
        if self._got is None:
            self._got = _answers(self._name)
        return self._got

    def get(self, key: Any, default: Any = None) -> Any:
        return self._answers().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        return self._answers()[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._answers()[key] = value

    def __delitem__(self, key: Any) -> None:
        del self._answers()[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._answers())

    def __len__(self) -> int:
        return len(self._answers())


def _answers(name: str) -> dict[Any, Any]:
    """The memo's answers in this process: read from its file the first time (this
    build's, sealed), then the same dict, answers added to it included."""
    import marshal

    got = build()
    known = _MEMOS.get(name)
    if known is not None and known[0] == got:
        return known[1]
    answers: dict[Any, Any] = {}
    path = _memo_path(got, name)
    key = None if got.startswith("own-") else _mac_key(path.parent, create=False)
    with contextlib.suppress(OSError, D2DError, ValueError, TypeError, EOFError):
        raw = files.read_limited(path, MEMO_LIMIT, "a memo") if key is not None else None
        if raw is not None and raw.startswith(_MEMO_MAGIC):
            n = len(_MEMO_MAGIC)
            check, body = raw[n:n + 32], raw[n + 32:]
            if _mac(key, body) == check:  # type: ignore[arg-type]  # key is not None
                loaded = marshal.loads(body)
                if type(loaded) is dict:
                    answers = loaded
    _MEMOS[name] = (got, answers, len(answers))
    return answers


def keep_memo(name: str) -> None:
    """The answers added to :func:`memo`'s mapping since its file was read, kept for
    the next process: best effort, not fsynced (a memo lost costs only the work again);
    more than :data:`MEMO_KEEP` answers, or more than :data:`MEMO_LIMIT` bytes, and the
    file starts again, empty. The folder keeps the ``CACHE_KEEP`` memos written last."""
    import marshal

    known = _MEMOS.get(name)
    if known is None or len(known[1]) == known[2] or known[0].startswith("own-"):
        return
    got, answers, _ = known
    _MEMOS[name] = (got, answers, len(answers))
    path = _memo_path(got, name)
    key = _mac_key(path.parent, create=False)
    if key is None:
        return
    with contextlib.suppress(ValueError, OSError):  # ValueError: marshal cannot hold it
        body = marshal.dumps(answers if len(answers) <= MEMO_KEEP else {})
        if len(_MEMO_MAGIC) + 32 + len(body) > MEMO_LIMIT:
            body = marshal.dumps({})
        new = not path.exists()
        files.write_atomic(path, _MEMO_MAGIC + _mac(key, body) + body, None,
                           durable=False, private=True)
        if new:
            _keep_newest(path.parent, lambda n: n.startswith("memo-"))


def _cache_prune(folder: Path) -> None:
    """Keep the ``CACHE_KEEP`` caches written last (and no temp file of a dead writer)."""
    files.sweep_orphans(folder, "")
    _keep_newest(folder, lambda name: name.endswith(".cache"))


def _stat_or_none(real: Path) -> os.stat_result | None:
    try:
        return os.stat(real)
    except OSError:
        return None
