"""The journal ``<file>.journal``: what ``session log`` lists and ``session undo`` and
``session redo`` walk (docs/architecture.md "The journal").

**Framing.** One entry per line: eight hex digits of the CRC-32 of the JSON that
follows, a space, the JSON, a newline. A line torn by a kill or a full disk has no
newline or a wrong checksum; :func:`repair` cuts it off before anything is appended,
so a torn line can never swallow the next command's entry.

**Entries.** ``{"v": 2, "id": N, "op": "do", "at", "command", "summary", "h0", "h1",
"d": [hunks]}``: ``h0``/``h1`` are digests of the whole file before and after, ``d``
the hunks (``[offset, old text, new text]``, only the tables that changed) that undo
reverses. ``session undo`` and ``session redo`` append ``{"op": "undo"|"redo", "ref":
N}`` naming the entry they reverted or re-applied. A ``do`` entry may also hold ``rec``:
what the command did as typed data, written by the operation that made it (its
``words`` as parsed, its ``path``; the oracle's ``question``, ``likelihood`` and
``card``), which ``d2d serve``'s pages read instead of parsing ``command`` again. It is
additive: an entry without it (an older journal) is read from its text, and a reader
ignores a ``rec`` that is not a JSON object. Because every entry says which file
it produced, an undo checks the file still is that file (a hand edit shows as a
different digest) and that reversing the hunks gives exactly the file before.

**Bounds.** At least the last ``UNDO_DEPTH`` commands keep their hunks and the last
``JOURNAL_KEEP`` entries are listed, while the journal stays under ``bound(size of the
session file)`` bytes: when an append would pass it, the journal is rewritten with
the oldest hunks dropped first, then the oldest entries. A journal over
``MAX_JOURNAL_BYTES`` (which d2d never writes: the bound stops at half of it, and one
command's hunks that alone pass a quarter of it are not kept) is refused before it is
read, with exit 3.
"""

from __future__ import annotations

import contextlib
import functools
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from d2d_cli.errors import fault
from d2d_cli.session import files

try:  # the C module hashlib would load, without hashlib's OpenSSL import (~3 ms)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - builds without _blake2
    from hashlib import blake2b

VERSION = 2
UNDO_DEPTH = 50
JOURNAL_KEEP = 2000
BOUND_FACTOR = 4
BOUND_FLOOR = 1 << 20
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
_BLOCK = 1 << 16


def bound(file_size: int) -> int:
    """The most bytes the journal holds beside a session file of ``file_size`` bytes."""
    return min(BOUND_FACTOR * file_size + BOUND_FLOOR, MAX_JOURNAL_BYTES // 2)


def _check_size(fd: int, path: Path) -> None:
    files.check_size(path, os.fstat(fd).st_size, MAX_JOURNAL_BYTES, "the journal")


def digest(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


def keyed_digest(data: bytes, key: bytes) -> bytes:
    """Keyed BLAKE2 of ``data`` (a MAC by design), through the C module already loaded:
    hashlib would cost every lookup its import."""
    return blake2b(data, key=key, digest_size=16).hexdigest().encode()


def path_for(session: Path) -> Path:
    return session.with_name(session.name + ".journal")


def encode(entry: dict[str, Any]) -> bytes:
    import json  # a write or an undo pays for it; a lookup does not

    body = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"%08x " % zlib.crc32(body) + body + b"\n"


def decode(line: bytes) -> dict[str, Any] | None:
    """One entry, or None for a damaged line. Lines of the first journal format (plain
    JSON) read as entries marked ``legacy``."""
    legacy = line.startswith(b"{")
    if not legacy:
        if len(line) < 10 or line[8:9] != b" ":
            return None
        try:
            crc = int(line[:8], 16)
        except ValueError:
            return None
        line = line[9:]
        if zlib.crc32(line) != crc:
            return None
    try:
        entry = _json(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict):
        # a whole line with a good CRC is no torn write: never cut, but never used
        return None if legacy else {"bad": "not a JSON object"}
    if legacy:
        entry["legacy"] = True
        return entry
    problem = _problem(entry)
    if problem is not None:
        return {"bad": problem, "id": entry.get("id") if type(entry.get("id")) is int else None}
    return entry


def _json(line: bytes) -> Any:
    """``json.loads(line)``, for a line of UTF-8 text that is one JSON value from its
    first byte to its last (every line d2d writes) by the decoder's documented
    ``raw_decode``: ``json.loads`` of bytes first guesses their encoding, in Python, at
    each call — ~half the time of a 2,000-entry journal's reading (``session export``,
    issue 40). Anything else (another encoding, a BOM, white space around the value,
    more after it) is read by ``json.loads`` itself: the same value or the same error."""
    import json

    try:
        text = line.decode("utf-8")
        value, end = _decoder().raw_decode(text)
        if end == len(text):
            return value
    except ValueError:  # not UTF-8, or not a value at its first character
        pass
    return json.loads(line)


@functools.cache
def _decoder() -> Any:
    import json

    return json.JSONDecoder()  # json.loads's own, with no hooks


OPS = ("do", "undo", "redo", "log")
_HEX32 = frozenset("0123456789abcdef")


def _problem(e: dict[str, Any]) -> str | None:
    """What is wrong with the structure of an entry whose CRC is good (a line written by
    hand or by another program), or None: issue 30 item 5 — such an entry is never
    undone, redone or cut, even with --force."""
    # Each key looked up once (a 2,000-entry journal is checked on every export).
    get = e.get
    v, op, i = get("v"), get("op"), get("id")
    if type(v) is not int or v != VERSION:
        return f"version {v!r}, not {VERSION}"
    if op not in OPS:
        return f"unknown op {op!r}"
    if type(i) is not int or i < 0:
        return "its id is not a whole number"
    for k in ("at", "command", "summary"):
        if type(get(k, "")) is not str:  # absent is fine; present, it is text
            return f"{k} is not text"
    for k in ("h0", "h1"):
        x = get(k, _HEX32)  # absent is fine
        if x is not _HEX32 and not (type(x) is str and len(x) == 32
                                    and _HEX32.issuperset(x)):
            return f"{k} is not a digest"
    if op in ("undo", "redo") and (type(get("ref")) is not int or e["ref"] < 0):
        return "ref is not an entry's id"
    if "d" in e:
        if op != "do" or "h0" not in e or "h1" not in e:
            return "hunks without the digests they go between"
        d, last = e["d"], 0
        if type(d) is not list:
            return "its hunks are not a list"
        for h in d:
            if (type(h) is not list or len(h) != 3 or type(h[0]) is not int
                    or type(h[1]) is not str or type(h[2]) is not str or h[0] < last):
                return "a hunk is not [offset, old text, new text] in order"
            last = h[0] + len(h[1])
    return None


# --------------------------------------------------------------------------- reading


def _lines_backward(fd: int, size: int) -> Iterator[tuple[int, bytes]]:
    """``(offset, line)`` for each complete line, the last first; the bytes after the
    last newline (a torn line) are never yielded."""
    pos, buf, block = size, b"", _BLOCK
    while True:  # skip a torn tail
        i = buf.rfind(b"\n")
        if i >= 0:
            buf = buf[:i + 1]
            break
        if pos == 0:
            return
        n = min(block, pos)
        pos -= n
        buf = os.pread(fd, n, pos) + buf
        block *= 2
    block = _BLOCK
    end = len(buf) - 1  # buf[end]: the newline after the next line to yield
    while True:
        i = buf.rfind(b"\n", 0, end)
        if i >= 0:
            yield pos + i + 1, buf[i + 1:end]
            end = i  # the buffer is not cut at each line: a 2,000-entry journal's
            block = _BLOCK  # export copied ~32 KB for each of its lines
            continue
        if pos == 0:
            yield 0, buf[:end]
            return
        n = min(block, pos)
        pos -= n
        buf = os.pread(fd, n, pos) + buf[:end + 1]
        end += n
        block *= 2


def newest_first(fd: int, size: int | None = None) -> Iterator[dict[str, Any]]:
    """The entries, the newest first, reading only as far back as the caller goes
    (``size``: the journal's first bytes only — its good part, :meth:`Writer.repair`).
    A damaged line is skipped; a whole line of the wrong structure is ``{"bad": why}``."""
    size = os.fstat(fd).st_size if size is None else size
    for _, line in _lines_backward(fd, size):
        entry = decode(line)
        if entry is not None:
            yield entry


def read_all(fd: int) -> list[dict[str, Any]]:
    data = files.read_fd(fd)
    cut = data.rfind(b"\n")
    out = []
    for line in data[:cut + 1].split(b"\n")[:-1] if cut >= 0 else []:
        entry = decode(line)
        if entry is not None and "bad" not in entry:  # a rewrite drops what d2d cannot read
            out.append(entry)
    return out


@contextlib.contextmanager
def opened(session: Path) -> Iterator[int | None]:
    """The journal open for reading, or None if there is none."""
    jp = path_for(session)
    try:
        fd = files.open_regular(jp, os.O_RDONLY, "the journal")
    except FileNotFoundError:
        yield None
        return
    try:
        _check_size(fd, jp)
        yield fd
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- history


def is_undone(entry: dict[str, Any], state: dict[int, str]) -> bool:
    return bool(entry.get("undone")) or state.get(entry.get("id", -1)) == "undo"


def undo_target(entries: Iterator[dict[str, Any]]) -> dict[str, Any] | None:
    """The command ``session undo`` reverts: the newest 'do' not undone, or None."""
    state: dict[int, str] = {}
    for entry in entries:
        if "bad" in entry:
            return entry  # never walked past: the caller refuses
        op = entry.get("op")
        if op in ("undo", "redo"):
            state.setdefault(entry.get("ref", -1), op)
        elif op == "do":
            if not is_undone(entry, state):
                return entry
        elif entry.get("legacy") or op is None:
            return None
    return None


def redo_target(entries: Iterator[dict[str, Any]]) -> dict[str, Any] | None:
    """The command ``session redo`` re-applies: the newest undone one, if no other
    command ran since it was undone."""
    redone: set[int] = set()
    wanted: int | None = None
    for entry in entries:
        if "bad" in entry:
            return entry  # never walked past: the caller refuses
        op = entry.get("op")
        if wanted is not None:
            if op == "do" and entry.get("id") == wanted:
                return entry
            continue
        if op == "redo":
            redone.add(entry.get("ref", -1))
        elif op == "undo":
            if entry.get("ref") not in redone:
                wanted = entry.get("ref")
        else:
            return None  # a command ran after the undos: there is nothing to redo
    return None


def log_view(entries_newest_first: list[dict[str, Any]], typed: bool = False
             ) -> list[dict[str, Any]]:
    """``session log`` rows, oldest first (the format is unchanged since the first
    journal: at, command, summary, undone, undoable); with ``typed``, a row whose entry
    holds a typed record has it too (``rec``: the pages' reading)."""
    state: dict[int, str] = {}
    rows = []
    for e in entries_newest_first:
        if "bad" in e:
            rows.append({"at": None, "command": None,
                         "summary": f"(an entry d2d cannot read: {e['bad']})",
                         "undone": False, "undoable": False})
            continue
        op = e.get("op")
        if op in ("undo", "redo"):
            state.setdefault(e.get("ref", -1), op)
        undone = op == "do" and is_undone(e, state) or bool(e.get("legacy") and e.get("undone"))
        has_undo = ("d" in e) if not e.get("legacy") else ("before" in e)
        row = {"at": e.get("at"), "command": e.get("command"),
               "summary": e.get("summary", ""), "undone": undone,
               "undoable": has_undo and not undone and op in ("do", None)}
        if typed and isinstance(e.get("rec"), dict):
            row["rec"] = e["rec"]
        rows.append(row)
    return rows[::-1]


# --------------------------------------------------------------------------- writing


class Writer:
    """The journal open for appending, under the session's lock."""

    def __init__(self, session: Path, like: os.stat_result | None) -> None:
        self.path = path_for(session)
        self.like = like
        self.fd = -1
        self.start = 0
        self.appended = False

    def open(self, create: bool = True) -> bool:
        """Open (and by default create) the journal; False if there is none."""
        flags = os.O_RDWR | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        try:
            self.fd = files.open_regular(self.path, flags | (os.O_CREAT if create else 0),
                                         "the journal", 0o600 if self.like is not None else 0o666)
        except FileNotFoundError:
            if create:
                raise
            return False
        try:
            _check_size(self.fd, self.path)
        except BaseException:
            self.close()
            raise
        if self.like is not None:
            mine = os.fstat(self.fd)
            if (mine.st_mode & 0o7777, mine.st_uid, mine.st_gid) != (
                    self.like.st_mode & 0o7777, self.like.st_uid, self.like.st_gid):
                files.keep_owner(self.fd, self.like)  # it holds the file's contents too
        return True

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def repair(self, current: str, text: str, *, cut: bool = True) -> int:
        """Cut a torn or damaged tail, and an entry whose write never happened (its
        ``h0`` is the file as it is now: digest ``current`` of ``text``); carry a
        journal of the first format over to this one. Returns the size of the good
        part; with ``cut`` False nothing is written (undo and redo, which may yet fail:
        the commit repairs it). A whole line with a good CRC is never cut."""
        size = os.fstat(self.fd).st_size
        good = 0
        first = True
        for off, line in _lines_backward(self.fd, size):
            if first:
                good, first = off + len(line) + 1, False
            entry = decode(line)
            if entry is None or ("bad" not in entry and entry.get("h0") == current
                                 and entry.get("h1") != current and "h1" in entry):
                good = off
                continue
            break
        if not cut and not (good and self._legacy()):
            return good
        if good < size:
            os.ftruncate(self.fd, good)
        if good and self._legacy():
            self._migrate(text)
        return os.fstat(self.fd).st_size

    def _legacy(self) -> bool:
        return os.pread(self.fd, 1, 0) == b"{"

    def last_id(self) -> int:
        for entry in newest_first(self.fd):
            if isinstance(entry.get("id"), int):
                return int(entry["id"])
        return 0

    def append(self, entry: dict[str, Any], file_size: int) -> None:
        """Append one entry (fsynced); on any failure, the journal is cut back to where
        it was. A journal that would pass its bound is compacted first."""
        data = encode(entry)
        if len(data) > MAX_JOURNAL_BYTES // 4 and "d" in entry:
            # One command's hunks this big are not kept (it cannot be undone); the
            # journal never grows past what the next command will read.
            data = encode({k: v for k, v in entry.items() if k != "d"})
        size = os.fstat(self.fd).st_size
        if size + len(data) > bound(file_size):
            self.compact(file_size, len(data))
            size = os.fstat(self.fd).st_size
        self.start = size
        try:
            half = len(data) // 2
            self._write(memoryview(data)[:half])
            fault("journal")  # a test breaks the append half-way, as a full disk would
            self._write(memoryview(data)[half:])
            os.fsync(self.fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, size)
            raise
        self.appended = True

    def _write(self, view: memoryview) -> None:
        while view:
            view = view[os.write(self.fd, view):]

    def rollback(self) -> None:
        """Take back the entry just appended (the write it describes did not happen)."""
        os.ftruncate(self.fd, self.start)
        self.appended = False
        with contextlib.suppress(OSError):
            os.fsync(self.fd)

    def compact(self, file_size: int, room: int = 0) -> None:
        """Rewrite the journal within half its bound (so this is rare). The hunks of the
        newest UNDO_DEPTH commands come first, then the newest JOURNAL_KEEP log lines:
        older hunks are dropped, then the oldest log lines, and only if the newest
        commands' hunks alone pass the bound, the oldest of those."""
        entries = read_all(self.fd)[-JOURNAL_KEEP:]
        kept = 0
        for e in reversed(entries):
            if "d" in e:
                kept += 1
                if kept > UNDO_DEPTH:
                    del e["d"]
        lines = [encode(e) for e in entries]
        total = sum(map(len, lines))
        target = max(bound(file_size) // 2 - room, 0)
        first = 0
        while total > target and first < len(lines) and "d" not in entries[first]:
            total -= len(lines[first])
            first += 1
        for i in range(first, len(entries)):
            if total <= target:
                break
            if "d" in entries[i]:
                del entries[i]["d"]
                total -= len(lines[i])
                lines[i] = encode(entries[i])
                total += len(lines[i])
        while total > target and first < len(lines):
            total -= len(lines[first])
            first += 1
        like = self.like or os.fstat(self.fd)
        files.write_atomic(self.path, b"".join(lines[first:]), like)
        self.close()
        self.open()

    def _migrate(self, current: str) -> None:
        """Rewrite a journal of the first format (whole-file snapshots) in this one:
        each snapshot becomes the hunks from it to the next state."""
        from d2d_cli.session import text as T

        entries = read_all(self.fd)
        states = [e for e in entries if isinstance(e.get("before"), str)]
        after: dict[int, str] = {}
        for a, b in zip(states, [*states[1:], None], strict=True):
            after[id(a)] = b["before"] if b is not None else current
        out = []
        for n, e in enumerate(entries, 1):
            new: dict[str, Any] = {"v": VERSION, "id": n, "at": e.get("at"),
                                   "command": e.get("command"), "summary": e.get("summary", "")}
            if e.get("command") == "session undo" and "before" not in e:
                new["op"] = "log"
            else:
                new["op"] = "do"
                if e.get("undone"):
                    new["undone"] = True
            if id(e) in after:
                before, later = e["before"], after[id(e)]
                new.update(h0=digest(before.encode("utf-8")), h1=digest(later.encode("utf-8")),
                           d=T.diff(before, later))
            out.append(new)
        like = self.like or os.fstat(self.fd)
        files.write_atomic(self.path, b"".join(encode(e) for e in out), like)
        self.close()
        self.open()
