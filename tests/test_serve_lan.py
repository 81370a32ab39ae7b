"""``d2d serve`` against someone on the same Wi-Fi (issue 39): no page taken down without
a token, slots given back when a page goes, no timing that tells of another's card,
nothing of the Narrator's machine in an answer, and a terminal that never holds the
server up. Every socket is on loopback (127.0.0.2… are this machine too, and another
client address to the server); every loop ends by itself."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.serve import limits
from tests import serve_helpers as h


@pytest.fixture
def served(tmp_path: Path) -> Iterator[h.Served]:
    yield from h.serve(h.table(tmp_path))


def _stderr(served: h.Served) -> str:
    """What the server wrote on the Narrator's terminal, once it has stopped."""
    assert served.proc.stdin is not None and served.proc.stderr is not None
    served.proc.stdin.write("q\n")
    served.proc.stdin.flush()
    served.proc.wait(timeout=10)
    return served.proc.stderr.read()


def _stderr_after(served: h.Served, wanted: str, within: float = 15.0) -> str:
    """:func:`_stderr`, once the server has written a line holding ``wanted`` (or
    ``within`` seconds have passed): its handler threads meet what the clients did on
    their own time, and stopping it first could lose what they were about to say (a
    loaded machine). A wait for a line, not a time asserted."""
    assert served.proc.stderr is not None
    fd = served.proc.stderr.fileno()  # read raw, before the text reader has read any
    seen = b""
    deadline = time.monotonic() + within
    while wanted.encode() not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            seen += chunk
    return seen.decode() + _stderr(served)


def _slow(served: h.Served, source: str) -> socket.socket | None:
    """A token-less client that starts a request and sends the rest a line at a time."""
    try:
        s = socket.create_connection((served.host, served.port), timeout=2,
                                     source_address=(source, 0))
        s.sendall(b"GET / HTTP/1.1\r\n")
        return s
    except OSError:
        return None


@pytest.mark.slow  # 40 s by design (issue 39 item 1): .ci/run runs it
def test_128_slow_sockets_for_40_s_never_take_the_table_down(served: h.Served) -> None:
    """001 has no rule here; issue 39 item 1: 128 sockets from 8 other addresses, each
    sending one header line a second (a new one at once when the server closes it), held
    40 s; the table's URL answers 200 from another client within 1 s throughout, and the
    Narrator's terminal shows no traceback."""
    sources = [f"127.0.0.{n}" for n in range(2, 10)]
    socks: list[socket.socket | None] = [_slow(served, sources[i % 8]) for i in range(128)]
    stop = threading.Event()
    cut = [0]

    def attack() -> None:
        while not stop.wait(1.0):
            for i, s in enumerate(socks):
                try:
                    if s is None:
                        raise OSError
                    s.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    cut[0] += 1
                    if s is not None:
                        s.close()
                    socks[i] = _slow(served, sources[i % 8])

    attacker = threading.Thread(target=attack, daemon=True)
    attacker.start()
    worst, answers = 0.0, 0
    try:
        end = time.monotonic() + 40
        while time.monotonic() < end:
            t0 = time.monotonic()
            c = served.conn(timeout=1)
            try:
                c.request("GET", served.path("/"))
                r = c.getresponse()
                assert r.status == 200 and r.read().startswith(b"<!doctype html>")
            finally:
                c.close()
            worst = max(worst, time.monotonic() - t0)
            answers += 1
            time.sleep(0.25)
    finally:
        stop.set()
        attacker.join(timeout=10)
        for s in socks:
            if s is not None:
                s.close()
    print(f"slowest answer {worst:.3f} s of {answers}; {cut[0]} slow sockets cut")
    assert worst < 1.0 and answers > 40
    # the whole-request deadline cut each slow socket: 128 sockets × 40 s / 5 s
    assert cut[0] >= 128 * 4
    err = _stderr(served)
    assert "Traceback" not in err and "File \"" not in err, err


def test_a_request_must_arrive_whole_within_its_deadline(served: h.Served) -> None:
    """A line every second keeps no connection open past REQUEST_DEADLINE (the old
    30 s timeout was per recv, so such a client held its slot for ever)."""
    import select

    s = _slow(served, "127.0.0.2")
    assert s is not None
    t0 = time.monotonic()
    cut = None
    try:
        while cut is None and time.monotonic() - t0 < limits.REQUEST_DEADLINE + 5:
            try:
                s.sendall(b"X-Slow: 1\r\n")
                if select.select([s], [], [], 0.5)[0] and s.recv(1024) == b"":
                    cut = time.monotonic() - t0
            except OSError:
                cut = time.monotonic() - t0
    finally:
        s.close()
    assert cut is not None and cut < limits.REQUEST_DEADLINE + 1.5


@pytest.mark.parametrize("extra", [
    "".join(f"X-H{i}: 1\r\n" for i in range(limits.MAX_HEADERS + 1)),
    "X-Big: " + "a" * limits.MAX_REQUEST_BYTES + "\r\n",
], ids=["count", "size"])
def test_headers_are_bounded(served: h.Served, extra: str) -> None:
    s = socket.create_connection((served.host, served.port), timeout=5)
    try:
        s.sendall(f"GET {served.path('/state.json')} HTTP/1.1\r\nHost: "
                  f"{served.host}:{served.port}\r\n{extra}\r\n".encode())
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(4096):
                answer += chunk
    finally:
        s.close()
    assert answer.split(b"\r\n", 1)[0].split(b" ")[1] == b"431"


def test_connections_reset_before_their_answer_are_one_quiet_line(served: h.Served) -> None:
    """40 clients that send a request and reset at once: no traceback, one line at most
    every LOG_EVERY seconds."""
    request = (f"GET {served.path('/')} HTTP/1.1\r\nHost: {served.host}:{served.port}\r\n"
               "\r\n").encode()
    for _ in range(40):
        s = socket.create_connection((served.host, served.port), timeout=5)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.sendall(request)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()  # RST: the page's answer meets a reset connection
    assert served.state()["round"]["number"] == 1
    err = _stderr_after(served, "dropped before")
    assert "Traceback" not in err and "File \"" not in err, err
    assert 1 <= sum("dropped before" in line for line in err.splitlines()) <= 2, err


def test_a_closed_stream_gives_its_slot_back_within_2_s(served: h.Served) -> None:
    streams = [h.Stream(served, "Player1") for _ in range(limits.STREAMS_PER_PLAYER)]
    try:
        for s in streams:
            s.next()
        status, _, _ = served.get(served.path("/events", "Player1"))
        assert status == 503
        streams.pop().close()
        end = time.monotonic() + 2
        while True:
            c = served.conn()
            try:
                c.request("GET", served.path("/events", "Player1"))
                status = c.getresponse().status
            finally:
                c.close()
            if status == 200:
                break
            assert time.monotonic() < end, "the closed stream still holds its slot"
            time.sleep(0.1)
    finally:
        for s in streams:
            s.close()


class RawStream:
    """An event stream on a bare socket, so that every byte after the first state is
    seen as it arrives (no client buffer in between)."""

    def __init__(self, served: h.Served, player: str | None = None) -> None:
        self.sock = socket.create_connection((served.host, served.port), timeout=10)
        self.sock.sendall(f"GET {served.path('/events', player)} HTTP/1.1\r\nHost: "
                          f"{served.host}:{served.port}\r\n\r\n".encode())
        self.got = b""

    def first(self) -> dict[str, Any]:
        """The answer's head and the first state, nothing read beyond its end."""
        while b"\ndata: " not in self.got or not self.got.endswith(b"\n\n"):
            chunk = self.sock.recv(1)
            assert chunk, "the stream ended"
            self.got += chunk
        assert self.got.startswith(b"HTTP/1.0 200")
        return dict(json.loads(self.got.split(b"\ndata: ")[-1]))

    def until(self, deadline: float) -> bytes:
        """Every byte sent from now to ``deadline`` (monotonic)."""
        got = b""
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                break
            if not chunk:
                break
            got += chunk
        return got

    def close(self) -> None:
        self.sock.close()


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_a_re_choice_is_silent_on_every_other_stream_until_the_regular_keepalive(
        served: h.Served) -> None:
    """Issue 39 item 3: Player1 changes the card chosen face down (QHv → KDv); the public
    stream and Player2's send no byte before their next regular keep-alive (KEEPALIVE
    after they opened), then exactly that comment; Player1's own stream gets the change.
    (Before, every stream woke on the change and sent a keep-alive at once.)"""
    from d2d_cli.serve.server import KEEPALIVE

    t0 = time.monotonic()
    public, other = RawStream(served), RawStream(served, "Player2")
    mine = h.Stream(served, "Player1")
    try:
        public.first()
        other.first()
        mine.next()
        status, _, _ = served.get(
            served.path("/choose", "Player1"), "POST", {"Content-Type": "application/json"},
            json.dumps({"unit": "Archer", "card": "KDv"}).encode())
        assert status == 200
        chosen = mine.next(timeout=3)["chosen"]
        assert (chosen["unit"], chosen["card"]) == ("Archer", "KDv")
        quiet = t0 + KEEPALIVE - 0.5
        assert quiet - time.monotonic() > 5
        assert [s.until(quiet) for s in (public, other)] == [b"", b""]
        for s in (public, other):
            assert s.until(time.monotonic() + 2.5) == b": keepalive\n\n"
    finally:
        for s in (public, other, mine):
            s.close()


def test_no_answer_names_a_folder_of_the_narrators_machine(tmp_path: Path) -> None:
    """Issue 39 item 4: the session is hand-edited into one d2d cannot read while it is
    served; a Player's choice is refused with a short sentence, and no answer body —
    pages, states, streams, refusals — holds the data folder, the session's folder or
    the home folder."""
    data = tmp_path / "data"
    data.mkdir()
    path = h.table(data)
    gen = h.serve(path)
    served = next(gen)
    try:
        bodies: list[bytes] = []
        for route, player in (("/", None), ("/state.json", None), ("/", "Player1"),
                              ("/state.json", "Player1"), ("/nosuch", None)):
            bodies.append(served.get(served.path(route, player))[2])
        bodies.append(served.get("/?t=wrong")[2])
        text = path.read_text("utf-8")
        path.write_text(text.replace("[clock]\n", "[clock]\nvalue = \"noon\"\n", 1)
                        if "[clock]\n" in text else text + "\n[clock]\nvalue = \"noon\"\n",
                        "utf-8")
        status, _, body = served.get(
            served.path("/choose", "Player1"), "POST", {"Content-Type": "application/json"},
            json.dumps({"unit": "Archer", "card": "KDv"}).encode())
        assert status == 400
        error = json.loads(body)["error"]
        assert error.endswith(".") and len(error) < 80 and "/" not in error, error
        bodies.append(body)
        bodies.append(served.get(served.path("/state.json", "Player1"))[2])
        stream = h.Stream(served)
        try:
            stream.next()
        finally:
            stream.close()
        bodies += stream.raw
    finally:
        gen.close()
    everything = b"\n".join(bodies)
    for folder in (data, tmp_path, Path.home()):
        assert str(folder).encode() not in everything
    assert b".toml" not in everything


def test_the_narrators_terminal_never_holds_the_server_up() -> None:
    """A terminal nobody reads (its pipe full: every write blocks): lines are dropped,
    never waited on."""
    release = threading.Event()

    class Stuck:
        def write(self, text: str) -> int:
            release.wait(30)
            return len(text)

        def flush(self) -> None:
            pass

    log = limits.Log(Stuck(), size=8)  # type: ignore[arg-type]
    t0 = time.monotonic()
    for n in range(1000):
        log.write(f"line {n}\n")
    assert time.monotonic() - t0 < 1.0  # a limit the log promises, not a measurement
    assert log.dropped >= 1000 - 8 - 1
    release.set()
    log.close()


def test_the_gate_keeps_each_address_to_its_share_and_makes_room_from_the_busiest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_CONNECTIONS", 20)
    gate = limits.Gate()
    pairs: list[Any] = []

    def sock() -> socket.socket:
        a, b = socket.socketpair()
        pairs.append((a, b))
        return a

    try:
        first = [sock() for _ in range(limits.PENDING_PER_ADDRESS)]
        assert all(gate.admit(s, "10.0.0.2") for s in first)
        assert not gate.admit(sock(), "10.0.0.2")  # its pending share is taken
        gate.cleared(first[0])  # past the token check: no longer pending
        assert gate.admit(sock(), "10.0.0.2")
        others = [sock() for _ in range(3)]
        assert all(gate.admit(s, "10.0.0.3") for s in others)
        assert gate.open == 20
        newcomer = sock()
        assert gate.admit(newcomer, "10.0.0.4")  # room made from 10.0.0.2's oldest pending
        assert first[1].recv(1) == b""  # that one was shut: its thread sees the end
        assert gate.pending_of["10.0.0.2"] == limits.PENDING_PER_ADDRESS - 1
    finally:
        for a, b in pairs:
            a.close()
            b.close()


def test_an_error_for_a_page_names_nothing_of_the_machine() -> None:
    """The texts of issue 39's report, as a phone would get them."""
    home = Path("/home/narrator")
    assert limits.for_a_page("/home/narrator/.local/share/d2d/default.toml: [clock] value: "
                             "expected a whole number", home) == \
        "The Narrator's session cannot take this now: ask the Narrator."
    assert limits.for_a_page("/home/narrator/x.toml: locked by another d2d command for "
                             "over 10s; try again", home) == \
        "The session is busy: try again in a moment."
    assert limits.for_a_page("C:\\Users\\n\\d2d\\a.toml: bad") .startswith("The Narrator's")
    # an operation's own sentence about the choice is kept
    assert limits.for_a_page("'Archer' is not one of Player2's units", home) == \
        "'Archer' is not one of Player2's units"
