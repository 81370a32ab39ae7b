"""The session lock: an exclusive ``flock`` on the session file, served first come,
first served (docs/architecture.md "The lock").

The lock is on the session file itself, not on a separate ``.lock`` file: a lock file
can be deleted while a writer holds it, and the next command would then lock a new one
and write at the same time. The session file is replaced (renamed over) by every write,
so after getting the lock a command checks that the name still points at the file it
locked, and otherwise locks the new one.

``flock`` keeps no queue, so waiters queue themselves (issue 30 item 6, issue 38). A
command that finds others waiting, or the lock taken, leaves a *ticket* beside the
session, ``.<file>.<time_ns>.<pid>.wait`` (the name older versions use), and
holds an exclusive ``flock`` on it for as long as it waits. The tickets sort in arrival
order. A waiter blocks (in the kernel: no polling, no CPU) on a shared lock of the
nearest live ticket ahead of its own; when that one goes — its owner got the session
lock, gave up, or died — it looks again. The waiter with no live ticket ahead blocks
on the session file's lock itself.

* A ticket is stale only when its owner is gone: its ``flock`` is then free (the kernel
  drops it with the process). No waiter judges another by its own clock, so a waiter's
  ``D2D_LOCK_TIMEOUT`` ends only its own wait; it removes only its own ticket.
* A ticket is made under a temporary ``.new`` name, locked, then renamed into place, so
  no ticket is ever seen unlocked while its owner lives.
* Blocking waits run in a daemon thread so that the deadline still holds; a wait given
  up keeps nothing (its thread closes its own descriptor when ``flock`` returns).
* Where no ticket can be made (a read-only folder) a command blocks on the session's lock
  directly: still no polling, but no order among such waiters.
* Windows (``msvcrt``) has no blocking lock with a deadline and cannot rename an open
  file: there a command polls the lock with a short back-off and keeps no queue —
  correct, but not first come, first served.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from d2d_cli.errors import SessionError
from d2d_cli.session.files import lock_timeout, pid_alive

_TICKET = re.compile(r"(\d{20})\.(\d+)\.(wait|new)")
_last = [0]  # the last stamp this process used: serve's threads get distinct ones
_stamps = threading.Lock()


@contextlib.contextmanager
def locked(path: Path) -> Iterator[int]:
    """An exclusive lock on the session file ``path`` (its real path); yields an fd
    open on the very file that is locked, which is the file at ``path`` for as long as
    the lock is held (every writer holds it). FileNotFoundError if there is no file;
    SessionError (exit 3) after ``D2D_LOCK_TIMEOUT`` seconds of waiting."""
    timeout = lock_timeout()
    fd = _take(path, timeout, time.monotonic() + timeout)
    try:
        yield fd
    finally:
        with contextlib.suppress(OSError):
            _unlock(fd)
        os.close(fd)


def _take(path: Path, timeout: float, deadline: float) -> int:
    queue = _Queue(path)
    try:
        if queue.empty():  # no one waiting: ask at once, no ticket needed
            fd = _attempt(path, None)
            if fd is not None:
                return fd
        queue.join()
        while True:
            ahead = queue.ahead()
            if ahead is None:  # first in line
                fd = _attempt(path, deadline)
                if fd is None:
                    raise _too_long(path, timeout)
                return fd
            try:
                if not _block(ahead, False, deadline):
                    raise _too_long(path, timeout)
            finally:
                os.close(ahead)
    finally:
        queue.leave()


def _too_long(path: Path, timeout: float) -> SessionError:
    return SessionError(
        f"{path}: locked by another d2d command for over {timeout:g}s; try again (or "
        "check for a hung d2d process; D2D_LOCK_TIMEOUT sets the wait); nothing was changed")


def _attempt(path: Path, deadline: float | None) -> int | None:
    """An fd open on the file at ``path``, exclusively locked — waiting until
    ``deadline`` (None: not at all); None when the wait ran out."""
    while True:
        fd = _open_for_lock(path)
        try:
            got = _try(fd, True) if deadline is None else _block(fd, True, deadline)
            same = got and _same_file(fd, path)
        except BaseException:
            os.close(fd)
            raise
        if same:
            return fd
        # Not got, or another command replaced the file while this one waited: then
        # lock the new one.
        with contextlib.suppress(OSError):
            _unlock(fd)
        os.close(fd)
        if not got:
            return None


class _Queue:
    """This command's place in line: its ticket (held locked) and the tickets ahead."""

    def __init__(self, path: Path) -> None:
        self.folder, self.prefix = path.parent, f".{path.name}."
        self.name: str | None = None
        self.fd = -1

    def _listing(self) -> list[tuple[str, re.Match[str]]]:
        n = len(self.prefix)
        with os.scandir(self.folder) as it:
            found = [(e.name, _TICKET.fullmatch(e.name, n)) for e in it
                     if e.name.startswith(self.prefix)]
        return sorted((name, m) for name, m in found if m is not None)

    def empty(self) -> bool:
        if not _QUEUED:
            return True
        try:
            return not any(m[3] == "wait" for _, m in self._listing())
        except OSError:
            return True

    def join(self) -> None:
        """Take a ticket: made under a ``.new`` name, locked, then renamed into place."""
        if not _QUEUED:
            return
        with _stamps:
            _last[0] = stamp = max(time.time_ns(), _last[0] + 1)
        base = f"{self.prefix}{stamp:020d}.{os.getpid()}"
        new, name = self.folder / f"{base}.new", f"{base}.wait"
        try:
            fd = os.open(new, os.O_RDWR | os.O_CREAT | os.O_EXCL | _CLOEXEC | _NOFOLLOW,
                         0o600)
        except OSError:
            return  # a read-only folder: no queue here
        try:
            if not _try(fd, True):  # a fresh file no one else has open
                raise BlockingIOError(errno.EAGAIN, "ticket taken")
            os.rename(new, self.folder / name)
        except OSError:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(new)
            return
        self.name, self.fd = name, fd

    def ahead(self) -> int | None:
        """An fd open on the nearest ticket ahead whose owner still waits, or None when
        this command is first in line. Tickets of commands that are gone are removed."""
        if self.name is None:
            return None
        listing = self._listing()
        for name, m in listing:  # a ticket of a command killed while making it
            if m[3] == "new" and not pid_alive(int(m[2])):
                with contextlib.suppress(OSError):
                    os.unlink(self.folder / name)
        older = [name for name, m in listing if m[3] == "wait" and name < self.name]
        for name in reversed(older):
            path = self.folder / name
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _CLOEXEC | _NOFOLLOW)
            except FileNotFoundError:
                continue  # its owner got the lock or gave up a moment ago
            except OSError as e:
                if e.errno != errno.ELOOP:
                    raise
                raise _not_regular(path) from None
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise _not_regular(path)
            if not _try(fd, False):
                return fd  # its owner is alive and waiting
            with contextlib.suppress(OSError):  # its owner is gone: the ticket is stale
                os.unlink(path)
            os.close(fd)
        return None

    def leave(self) -> None:
        if self.name is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.folder / self.name)  # first the name, then the lock
            os.close(self.fd)
            self.name, self.fd = None, -1


def _not_regular(path: Path) -> SessionError:
    return SessionError(f"{path}: not a regular file (a lock ticket); nothing was changed")


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _same_file(fd: int, path: Path) -> bool:
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    _QUEUED = False  # an open file cannot be renamed or removed there: no tickets

    def _open_for_lock(path: Path) -> int:
        # Windows cannot rename over an open file; lock a companion file instead.
        if not path.exists():
            raise FileNotFoundError(errno.ENOENT, "No such file", str(path))
        return os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)

    def _same_file(fd: int, path: Path) -> bool:  # noqa: F811 - the Windows variant
        return path.exists()

    def _try(fd: int, exclusive: bool) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _block(fd: int, exclusive: bool, deadline: float) -> bool:
        pause = 0.001
        while not _try(fd, exclusive):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.05)
        return True

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    _QUEUED = True

    def _open_for_lock(path: Path) -> int:
        # O_RDWR: flock over NFS is emulated with byte-range locks, which need it. The
        # file's mode was checked first, so a read-only file never gets here. O_NONBLOCK:
        # a FIFO in its place must not hang the open (it is refused after the lock).
        fd = os.open(path, os.O_RDWR | os.O_NONBLOCK | _CLOEXEC)
        os.set_blocking(fd, True)
        return fd

    def _try(fd: int, exclusive: bool) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _block(fd: int, exclusive: bool, deadline: float) -> bool:
        """Wait in the kernel for the lock on ``fd`` until ``deadline``. The ``flock``
        runs in a daemon thread on a duplicate of ``fd`` (the same open file, so the
        same lock); a wait given up leaves that thread to close its duplicate when the
        lock comes, which frees it at once if ``fd`` was closed meanwhile."""
        if _try(fd, exclusive):
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        mine = os.dup(fd)
        done = threading.Event()
        failed: list[OSError] = []

        def wait() -> None:
            try:
                fcntl.flock(mine, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            except OSError as e:  # pragma: no cover - e.g. ENOLCK on a network folder
                failed.append(e)
            finally:
                os.close(mine)
                done.set()

        threading.Thread(target=wait, name="d2d-lock-wait", daemon=True).start()
        if not done.wait(left):
            return False
        if failed:  # pragma: no cover
            raise failed[0]
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
