"""File-system work under the session: atomic writes that keep a file's mode
and owner, the ``.bak`` link, and turning file-system trouble into exit 3 naming the
file (docs/architecture.md "Guarantees").

The lock is in :mod:`d2d_cli.session.lock`.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from d2d_cli.errors import D2DError, SessionError, fault

DEFAULT_LOCK_TIMEOUT_S = 15.0


# Resolved paths, each with the file's (device, inode) when it was resolved (issue 40):
# inside `d2d play` every line resolved the session's path five times, ~10 lstat each.
_REAL: dict[str, tuple[tuple[int, int], Path]] = {}
_REAL_KEEP = 16


def real(path: Path | str) -> Path:
    """Symlinks are written through: every file d2d keeps is beside the real file.

    A path resolved before is served again while one ``stat`` through it still reaches
    the same file (device and inode) as when it was resolved: a session replaced by a
    write (a rename: a new inode), a symlink pointed elsewhere, or a file gone is
    resolved again."""
    where = os.path.abspath(path)
    try:
        st = os.stat(where)
    except (OSError, ValueError):
        return Path(os.path.realpath(where))
    mark = (st.st_dev, st.st_ino)
    known = _REAL.get(where)
    if known is not None and known[0] == mark:
        return known[1]
    resolved = Path(os.path.realpath(where))
    if len(_REAL) >= _REAL_KEEP:
        _REAL.clear()
    _REAL[where] = (mark, resolved)
    return resolved


def lock_timeout() -> float:
    """``$D2D_LOCK_TIMEOUT`` seconds (default 15); anything but a finite number ≥ 0 is
    refused rather than read as "wait forever"."""
    raw = os.environ.get("D2D_LOCK_TIMEOUT", "")
    if not raw.strip():
        return DEFAULT_LOCK_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise SessionError(f"D2D_LOCK_TIMEOUT={raw!r} is not a number of seconds "
                           f"(e.g. {DEFAULT_LOCK_TIMEOUT_S:g}); nothing was changed")
    return value


def trouble(path: Path | str, e: OSError, doing: str, *, changed: bool = False) -> SessionError:
    """A file-system error as one line naming the file (exit 3)."""
    name = e.filename if isinstance(e.filename, str) and e.filename else str(path)
    why = e.strerror or str(e) or type(e).__name__
    if e.errno == errno.EISDIR or (isinstance(e, IsADirectoryError)):
        why = "it is a directory"
    tail = "" if changed else "; nothing was changed"
    return SessionError(f"{name}: cannot {doing} ({why}){tail}")


@contextlib.contextmanager
def guard(path: Path | str, doing: str) -> Iterator[None]:
    """Turn an OSError inside the block into a SessionError naming the file."""
    try:
        yield
    except OSError as e:
        raise trouble(path, e, doing) from None


def check_writable(path: Path, st: os.stat_result) -> None:
    """Refuse a read-only session (mode bits, or no write access for this user):
    d2d never overwrites a file its owner marked read-only."""
    if not stat.S_ISREG(st.st_mode):
        raise SessionError(f"{path}: not a regular file; nothing was changed")
    effective = os.access in os.supports_effective_ids
    if st.st_mode & 0o222 == 0 or not os.access(path, os.W_OK, effective_ids=effective):
        raise SessionError(
            f"{path}: the file is read-only (mode {stat.S_IMODE(st.st_mode):o}); d2d will "
            "not overwrite it — make it writable (chmod u+w) to change it; nothing was changed")


def check_size(path: Path | str, size: int, limit: int, what: str) -> None:
    """Refuse a file over ``limit`` bytes before reading a byte of it (exit 3)."""
    if size > limit:
        raise SessionError(f"{path}: {what} is over {limit:,} bytes ({size:,}); d2d will not "
                           "read it; nothing was changed")


def open_regular(path: Path | str, flags: int, what: str, mode: int = 0o666) -> int:
    """``os.open`` that refuses at once (exit 3, naming the file) anything but a regular
    file: a FIFO would hang a reader for good, a device is not d2d's. The open itself
    never waits (``O_NONBLOCK``); the fd returned blocks as usual."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0),
                     mode)
    except OSError as e:
        if e.errno == errno.ENXIO:  # a FIFO opened for writing with no reader
            raise _not_regular(path, what) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _not_regular(path, what)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _not_regular(path: Path | str, what: str) -> SessionError:
    return SessionError(f"{path}: not a regular file ({what}); nothing was changed")


def read_fd(fd: int) -> bytes:
    """All of the file open on ``fd``, from its start."""
    parts: list[bytes] = []
    offset = 0
    while True:
        block = os.pread(fd, 1 << 20, offset) if hasattr(os, "pread") else _read_at(fd, offset)
        if not block:
            return b"".join(parts)
        parts.append(block)
        offset += len(block)


def _read_at(fd: int, offset: int) -> bytes:  # pragma: no cover - Windows has no pread
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, 1 << 20)


# --------------------------------------------------------------------------- writing


def temp_path(path: Path, suffix: str = "tmp") -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{suffix}")


def write_temp(path: Path, data: bytes, like: os.stat_result | None,
               suffix: str = "tmp", durable: bool = True, private: bool = False) -> Path:
    """``data`` in a new temp file beside ``path``, fsynced; with the mode (and, when
    allowed, the owner) of ``like``, else mode 600 when ``private``. The caller renames
    it into place or removes it."""
    tmp = temp_path(path, suffix)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    # Created private, then given the old file's mode: a 600 session never has a
    # moment as a world-readable temp file.
    mode = 0o600 if like is not None or private else 0o666
    try:
        fd = os.open(tmp, flags, mode)
    except FileExistsError:  # left by a killed process whose pid is now ours
        os.unlink(tmp)  # (removed only when there: an unlink a write, 0.1-0.3 ms, saved)
        fd = os.open(tmp, flags, mode)

    def prepare() -> None:
        if like is not None:
            keep_owner(fd, like)
        fault("temp")

    _fill(fd, tmp, data, durable, prepare)
    return tmp


def _fill(fd: int, path: Path, data: bytes, durable: bool,
          prepare: Callable[[], None] | None = None) -> None:
    """Write all of ``data`` to the new file ``fd`` (at ``path``) and close it, fsynced
    when ``durable``; on any failure the half-written file is removed."""
    try:
        if prepare is not None:
            prepare()
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if durable:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)


def keep_owner(fd: int, like: os.stat_result) -> None:
    fchmod = getattr(os, "fchmod", None)
    if fchmod is not None:
        fchmod(fd, stat.S_IMODE(like.st_mode))
    fchown = getattr(os, "fchown", None)
    if fchown is None:  # pragma: no cover - Windows
        return
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) != (like.st_uid, like.st_gid):
        with contextlib.suppress(OSError):  # only root may give a file away
            fchown(fd, like.st_uid, like.st_gid)


def replace(tmp: Path, path: Path) -> None:
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(path: Path, data: bytes, like: os.stat_result | None,
                 durable: bool = True, private: bool = False) -> None:
    """Temp file, fsync, rename over ``path``, fsync the folder (not for a cache)."""
    replace(write_temp(path, data, like, durable=durable, private=private), path)
    if durable:
        sync_dir(path.parent)


def _link(src: Path, dst: Path) -> None:
    """``os.link``, over a ``dst`` left by a killed process whose pid is now ours."""
    try:
        os.link(src, dst)
    except FileExistsError:
        os.unlink(dst)  # only when there: a commit no longer removes what is not there
        os.link(src, dst)


class Backup:
    """``<file>.bak`` replaced by the file as it is now, undoably until :meth:`done`."""

    def __init__(self, path: Path, old: bytes, like: os.stat_result) -> None:
        self.bak = path.with_name(path.name + ".bak")
        self.keep: Path | None = temp_path(path, "oldbak")
        tmp = temp_path(path, "bak")
        try:  # a hard link to the same inode: the rename that follows never touches it
            _link(path, tmp)
        except OSError as e:
            if e.errno not in (errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP,
                               errno.EOPNOTSUPP, errno.ENOSYS, errno.EACCES):
                raise
            tmp = write_temp(path, old, like, "bak")  # no hard links here: a copy
        try:
            try:
                _link(self.bak, self.keep)  # the previous .bak, in case we must go back
            except FileNotFoundError:
                self.keep = None
            except OSError:
                if self.bak.is_dir():
                    raise IsADirectoryError(errno.EISDIR, "Is a directory",
                                            str(self.bak)) from None
                raise
            replace(tmp, self.bak)
            # rename() of two links to one file does nothing and keeps both names
            # (POSIX): so it is when the .bak already is the file as it is now — a
            # writer killed after its .bak was in place, before its rename. The .bak
            # holds the right bytes; the temp name goes (gone already otherwise).
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            self.done()
            raise

    def restore(self) -> None:
        """The commit failed: put the previous .bak back."""
        with contextlib.suppress(OSError):
            if self.keep is not None:
                os.replace(self.keep, self.bak)
                self.keep = None
            else:
                os.unlink(self.bak)

    def done(self) -> None:
        if self.keep is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.keep)
            self.keep = None


def sync_dir(folder: Path) -> None:
    if not hasattr(os, "O_DIRECTORY"):  # pragma: no cover - Windows
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def create_exclusive(path: Path, data: bytes, *, private: bool = False) -> None:
    """Create ``path`` holding ``data`` — atomically, and only if no file is there
    (another command may create it at the same moment): FileExistsError otherwise.
    ``private``: mode 600, else as the umask says."""
    tmp = write_temp(path, data, None, private=private)
    try:
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError as e:
            if e.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP,
                               errno.ENOSYS, errno.EMLINK):
                raise
            _create_by_open(path, data, 0o600 if private else 0o666)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    sync_dir(path.parent)


def _create_by_open(path: Path, data: bytes,
                    mode: int) -> None:  # pragma: no cover - no hard links
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    _fill(fd, path, data, durable=True)


def read_limited(path: Path, limit: int, what: str,
                 error: type[D2DError] = SessionError) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes; None if it does not
    exist. A FIFO, device or directory is refused without opening it for long, with
    ``error`` (a session file: exit 3; a scene file the user named: BadInput, exit 2)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{path}: not a regular file ({what}); nothing was changed")
        if st.st_size > limit:
            raise error(f"{path}: {what} is over {limit:,} bytes ({st.st_size:,}); nothing "
                        "was changed")
        parts, size = [], 0
        while size <= limit:
            block = os.read(fd, min(1 << 20, limit + 1 - size))
            if not block:
                break
            parts.append(block)
            size += len(block)
        if size > limit:
            raise error(f"{path}: {what} is over {limit:,} bytes; nothing was changed")
        data = b"".join(parts)
        return data
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- leftovers

_LEFTOVER_SUFFIXES = ("tmp", "bak", "oldbak")


def sweep_orphans(folder: Path, name: str) -> list[Path]:
    """Remove the temp files a killed writer left in ``folder``: ``.<name>.<pid>.tmp``
    (and ``.bak``/``.oldbak``, the journal's and the old cache's temp files) — each only
    when its pid is not a live process, or it is older than the lock lets a command
    wait (``lock_timeout()``: no live writer holds a temp file that long). ``name`` ""
    sweeps every such file (the cache folder, which is d2d's alone). Called under the
    session's lock by every write; returns what it removed. Never fails the caller."""
    removed: list[Path] = []
    try:
        stale_after = lock_timeout()
    except D2DError:
        stale_after = DEFAULT_LOCK_TIMEOUT_S
    mine = {name, f"{name}.journal", f".{name}.cache"} if name else None
    now = time.time()
    try:
        with os.scandir(folder) as it:
            entries = [e for e in it if e.name.startswith(".")]
    except OSError:
        return removed
    for entry in entries:
        base, _, rest = entry.name[1:].rpartition(".")
        base, _, pid_text = base.rpartition(".")
        if (rest not in _LEFTOVER_SUFFIXES or not pid_text.isdigit() or not base
                or (mine is not None and base not in mine)):
            continue
        pid = int(pid_text)
        try:
            if pid == os.getpid() or not entry.is_file(follow_symlinks=False):
                continue
            old = now - entry.stat(follow_symlinks=False).st_mtime > stale_after
            if old or not pid_alive(pid):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (on Windows, not asked: a signal there would
    end it, so only the age of a leftover counts)."""
    if sys.platform == "win32" or pid <= 0:  # pragma: no cover - Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, and someone else's
        return True
    return True
