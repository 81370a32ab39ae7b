"""The connection layer of ``d2d serve``: what a client may hold, and for how long, before
it has shown a token (docs/serve.md, "On a LAN nobody trusts").

- Every request (its line, headers and body) must arrive whole within
  ``REQUEST_DEADLINE`` seconds of the connection — one deadline for the request, not a
  timeout per ``recv`` — and within ``MAX_REQUEST_BYTES`` bytes and ``MAX_HEADERS``
  header lines.
- A connection is *pending* until its token has been checked; each client address may
  have ``PENDING_PER_ADDRESS`` pending at once (more are closed unanswered), and when
  ``MAX_CONNECTIONS`` are open the oldest pending one of the busiest address is closed
  to make room. Only a connection past the token check may outlive its deadline.
- Event streams are shared out: ``MAX_STREAMS`` in all, ``STREAMS_PER_ADDRESS`` per
  client address, ``STREAMS_PUBLIC`` for the table's link (the rest stay for the Players'
  pages) and ``STREAMS_PER_PLAYER`` per Player.
- A connection dropped before its answer is one line on the Narrator's terminal at most,
  every ``LOG_EVERY`` seconds (never a traceback), and nothing written there ever waits:
  :class:`Log` hands lines to a thread of its own and drops them when it falls behind.
"""

from __future__ import annotations

import contextlib
import io
import queue
import re
import select
import socket
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

REQUEST_DEADLINE = 5.0  # seconds for a whole request to arrive
WRITE_TIMEOUT = 10.0  # seconds one send may wait on a client that does not read
MAX_REQUEST_BYTES = 16 * 1024  # request line, headers and body together
MAX_HEADERS = 32  # header lines in a request
MAX_CONNECTIONS = 256  # connections open at once
PENDING_PER_ADDRESS = 16  # connections of one address not yet past the token check
MAX_STREAMS = 64  # event streams open at once
STREAMS_PER_ADDRESS = 16  # of them from one client address
STREAMS_PUBLIC = 48  # of them on the table's link: 16 always left for the Players' pages
STREAMS_PER_PLAYER = 8  # of them on one Player's link
BACKLOG = 128  # connections the kernel queues before they are accepted
CHECK = 0.5  # seconds between two looks whether a stream's client has gone
LOG_EVERY = 10.0  # seconds between two lines about dropped connections
RETRY_AFTER = "2"  # seconds a refused page is told to wait


class TooLarge(OSError):
    """A request bigger than ``MAX_REQUEST_BYTES``."""


class _DeadlineReader(io.RawIOBase):
    """A socket's reading side with one deadline for everything read through it and a
    byte budget: each ``recv`` may wait only for the time left."""

    def __init__(self, sock: socket.socket, deadline: float, budget: int) -> None:
        super().__init__()
        self.sock, self.deadline, self.budget = sock, deadline, budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        if self.budget <= 0:
            raise TooLarge("the request is too large")
        self.sock.settimeout(left)
        n = self.sock.recv_into(memoryview(buffer)[:self.budget])
        self.budget -= n
        return n


def bounded_reader(sock: socket.socket) -> io.BufferedReader:
    """What a request is read through: ``REQUEST_DEADLINE`` from now, ``MAX_REQUEST_BYTES``."""
    return io.BufferedReader(_DeadlineReader(sock, time.monotonic() + REQUEST_DEADLINE,
                                             MAX_REQUEST_BYTES))


def gone(sock: socket.socket) -> bool:
    """Whether the client closed or reset this connection (a look, never a wait)."""
    try:
        poller = select.poll()
        poller.register(sock.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
        if not poller.poll(0):
            return False
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):
        return True


class Gate:
    """Who holds what: the pending connections (oldest first), and the streams by client
    address and by link. Every method is one short critical section."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.pending: dict[socket.socket, str] = {}  # insertion order: oldest first
        self.pending_of: Counter[str] = Counter()
        self.streams_of: Counter[str] = Counter()  # by address
        self.streams_for: Counter[str | None] = Counter()  # by link: None is the table's
        self.streams = 0

    def admit(self, sock: socket.socket, address: str) -> bool:
        """A new connection: True when it may be served."""
        evict = None
        with self.lock:
            if self.pending_of[address] >= PENDING_PER_ADDRESS:
                return False
            if self.open >= MAX_CONNECTIONS:
                if not self.pending:
                    return False
                busiest = self.pending_of.most_common(1)[0][0]
                evict = next(s for s, a in self.pending.items() if a == busiest)
                self._unpend(evict)
            self.open += 1
            self.pending[sock] = address
            self.pending_of[address] += 1
        if evict is not None:
            with contextlib.suppress(OSError):
                evict.shutdown(socket.SHUT_RDWR)  # its thread sees the end and lets go
        return True

    def _unpend(self, sock: socket.socket) -> None:
        address = self.pending.pop(sock, None)
        if address is not None:
            self.pending_of[address] -= 1
            if not self.pending_of[address]:
                del self.pending_of[address]

    def cleared(self, sock: socket.socket) -> None:
        """Its token was checked: it no longer counts against its address's pending."""
        with self.lock:
            self._unpend(sock)

    def closed(self, sock: socket.socket, counted: bool) -> None:
        with self.lock:
            self._unpend(sock)
            if counted:
                self.open -= 1

    def open_stream(self, address: str, link: str | None) -> str | None:
        """Take a stream slot; None when taken, else why it is refused (one sentence)."""
        with self.lock:
            if self.streams >= MAX_STREAMS:
                return "Too many open pages: this one retries by itself."
            if self.streams_of[address] >= STREAMS_PER_ADDRESS:
                return "Too many open pages on this device: this one retries by itself."
            cap = STREAMS_PUBLIC if link is None else STREAMS_PER_PLAYER
            if self.streams_for[link] >= cap:
                return "Too many open pages on this link: this one retries by itself."
            self.streams += 1
            self.streams_of[address] += 1
            self.streams_for[link] += 1
            return None

    def close_stream(self, address: str, link: str | None) -> None:
        with self.lock:
            self.streams -= 1
            self.streams_of[address] -= 1
            self.streams_for[link] -= 1


class Log:
    """A terminal that never holds the server up: lines are queued and written by a thread
    of its own; when the queue is full (nobody reads the pipe), new lines are dropped."""

    def __init__(self, stream: TextIO, size: int = 256) -> None:
        self.stream = stream
        self.lines: queue.Queue[str | None] = queue.Queue(size)
        self.dropped = 0
        self.closed = False
        self.thread = threading.Thread(target=self._pump, name="d2d-log", daemon=True)
        self.thread.start()

    def write(self, text: str) -> int:
        try:
            self.lines.put_nowait(text)
        except queue.Full:
            self.dropped += 1
        return len(text)

    def flush(self) -> None:
        pass

    def _pump(self) -> None:
        while True:
            text = self.lines.get()
            if text is None:
                return
            try:
                self.stream.write(text)
                self.stream.flush()
            except (OSError, ValueError):
                pass

    def close(self, wait: float = 1.0) -> None:
        """Let the last lines out, waiting ``wait`` seconds at most."""
        with contextlib.suppress(queue.Full):
            self.lines.put(None, timeout=wait)
        self.thread.join(wait)


class Dropped:
    """Connections dropped before their answer, told in one line every ``LOG_EVERY`` s."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.last = -LOG_EVERY

    def note(self, log: TextIO, error: BaseException | None) -> None:
        if error is not None and not isinstance(error, OSError):
            # not the client's doing: said at once, in one line (still no traceback)
            log.write(f"d2d serve: a request failed: {type(error).__name__}: "
                      f"{str(error)[:200]}\n")
            return
        with self.lock:
            self.count += 1
            now = time.monotonic()
            if now - self.last < LOG_EVERY:
                return
            n, self.count, self.last = self.count, 0, now
        what = type(error).__name__ if error is not None else "closed"
        log.write(f"d2d serve: {n} connection{'s' if n != 1 else ''} dropped before "
                  f"{'its' if n == 1 else 'their'} answer (last: {what})\n")


# ------------------------------------------------------------------ errors to a page

_PATHLIKE = re.compile(r"(?:^|[\s'\"(=:])(?:/|~[/\\]|[A-Za-z]:[\\/]|\\\\)\S")


_BUSY = re.compile(r"\blocked by another\b|\bbusy\b|\bD2D_LOCK_TIMEOUT\b", re.I)


def for_a_page(message: str, *homes: Path) -> str:
    """An error as a phone may see it: the operation's own sentence when it names nothing
    of this machine, else a short one of ours (no path, no file name)."""
    text = message.strip().splitlines()[0] if message.strip() else ""
    folders = [str(h) for h in homes if str(h) not in ("", ".", "/")]
    if (not text or _PATHLIKE.search(text) or any(f in text for f in folders)
            or ".toml" in text or ".jsonl" in text):
        if _BUSY.search(message):
            return "The session is busy: try again in a moment."
        return "The Narrator's session cannot take this now: ask the Narrator."
    return text


def homes() -> list[Path]:
    """The folders of this machine an error may name: d2d's data folder (its state and
    cache folders are in it, or in the home folder) and the home folder."""
    from d2d_cli import session

    found = [Path.home()]
    with contextlib.suppress(Exception):
        found.append(session.data_dir())
    return found
