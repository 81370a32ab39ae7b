"""``d2d serve``: the standard library's ``ThreadingHTTPServer`` and Server-Sent Events
(docs/serve.md has the security model).

One thread watches the session file (its size, mtime and inode, every ``POLL``
seconds); on a change it projects the session again (:mod:`.project`) and wakes every
open stream, which sends its page's whole state. A page that (re)connects gets
the whole state at once, so a phone waking up misses nothing.

Fixed routes only, each behind the run's token (``t``), a player's routes also behind
that player's token (``p``), both compared in constant time; the Host header must name
this server (DNS rebinding); nothing is read from disk but the session. What a client
may hold before and after its token is checked is :mod:`.limits`.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TextIO
from urllib.parse import parse_qs, urlsplit

from d2d_cli.errors import BadInput, D2DError, NotFound, SessionError
from d2d_cli.operations import Target
from d2d_cli.serve import limits, page, project

POLL = 0.2  # seconds between two looks at the session file
KEEPALIVE = 15.0  # seconds between two comments on a stream, whatever happens elsewhere
MAX_BODY = 2048  # bytes of a choice sent by a player's page
STALE = "stale — check the Narrator's terminal"  # the pages' word when the watcher fails
ROUTES_GET = {"/", "/state.json", "/events", "/player", "/player/state.json",
              "/player/events"}
ROUTES_POST = {"/player/choose"}


def _json(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


class Table:
    """The projected session shared by every request: the public state and each
    player's, rebuilt when the session changes, with a version that streams wait on."""

    def __init__(self, target: Target, *, log: TextIO | None = None,
                 new_links: bool = False) -> None:
        from d2d_cli import session

        self.target = target
        # The links kept with the session (session/links.py): a restarted server serves
        # the same URLs, so every open page comes back by itself; --new-links drops them.
        kept = None if new_links else session.read_links(target.path())
        self.token = kept["token"] if kept else secrets.token_urlsafe(24)
        self.players: dict[str, str] = dict(kept["players"]) if kept else {}
        self.links_kept = kept is not None
        self.public = project.BLANK
        self.mine: dict[str, dict[str, Any]] = {}
        self.version = 0
        self.blank = False
        self.stopping = False
        # One lock for every structure the threads share (players, new_players, the
        # projections, blank, stale): the watcher writes them, the requests read them.
        self.changed = threading.Condition()
        self.write_lock = threading.Lock()
        self.log = log or sys.stderr
        self.error: str | None = None
        self.fault: D2DError | None = None
        self.stale: str | None = None  # why the pages are not following the session
        self.new_players: list[str] = []
        self.look = threading.Event()  # set: the watcher looks at the session at once
        self._seen: tuple[int, int, int] | None = None

    def save_links(self) -> None:
        """Keep the tokens beside the session (mode 600); a failure only costs the links
        of a restart, so it is said once and the server goes on."""
        from d2d_cli import session

        with self.changed:
            players = dict(self.players)
        try:
            session.write_links(self.target.path(), self.token, players)
        except (OSError, D2DError) as e:
            self.log.write(f"d2d serve: the links could not be kept for a restart "
                           f"({getattr(e, 'message', None) or e.__class__.__name__})\n")

    # -- reading ----------------------------------------------------------------------

    def _stamp(self) -> tuple[int, int, int] | None:
        """The session file's mtime, size and inode. Only the session file: d2d appends
        to the journal *before* it renames the new session into place, so when the
        session changes its journal entry is already there — watching the journal too
        would show a state whose log is ahead of its data."""
        from d2d_cli import session

        return session.stamp(self.target.path())

    def refresh(self) -> bool:
        """Project the session again; True when a page's state changed."""
        from d2d_cli.operations import export

        try:
            snap = export.snapshot(self.target, project.LOG_SHOWN * 4, typed=True)
            public = project.public(snap.data, snap.log, snap.name)
            names = project.player_names(snap.data)
            mine = {n: project.player(snap.data, n) for n in names}
        except D2DError as e:
            if self.error != e.message and self.version:  # before serving: start says it
                self.log.write(f"d2d serve: cannot read the session: {e.message}\n")
            self.error, self.fault = e.message, e
            self._set_stale(STALE)
            return False
        self.error = None
        added = False
        with self.changed:
            for n in names:
                if n not in self.players:
                    self.players[n] = secrets.token_urlsafe(18)
                    self.new_players.append(n)
                    added = True
        if added:
            self.save_links()
        with self.changed:
            changed = not (public == self.public and mine == self.mine and self.stale is None)
            if changed:
                self.public, self.mine, self.stale = public, mine, None
                self.version += 1
                self.changed.notify_all()
        return changed

    def watch(self) -> None:
        """Poll the session file until stopped (the watcher thread). Any error is logged
        once, the pages say "stale", and the next look tries again: the thread never dies
        while the server serves."""
        import traceback

        said: str | None = None
        while not self.stopping:
            try:
                stamp = self._stamp()
                if stamp != self._seen:
                    self._seen = stamp
                    self.refresh()
                said = None
            except Exception as e:  # noqa: BLE001 - the watcher must outlive any bug
                text = f"{e.__class__.__name__}: {e}"
                if text != said:
                    said = text
                    self.log.write("d2d serve: could not follow the session (the pages say "
                                   "stale; trying again):\n" + traceback.format_exc())
                    self.log.flush()
                self._seen = None
                self._set_stale(STALE)
            self.look.wait(POLL)
            self.look.clear()

    def _set_stale(self, why: str | None) -> None:
        with self.changed:
            if self.stale != why:
                self.stale = why
                self.version += 1
                self.changed.notify_all()

    def set_blank(self, on: bool) -> None:
        with self.changed:
            self.blank = on
            self.version += 1
            self.changed.notify_all()

    def stop(self) -> None:
        with self.changed:
            self.stopping = True
            self.changed.notify_all()

    # -- what a page gets ---------------------------------------------------------------

    def state(self, player: str | None) -> dict[str, Any]:
        with self.changed:
            if self.blank:
                return project.BLANK
            doc = self.public if player is None else (
                self.mine.get(player) or project.player({}, player))
            return {**doc, "stale": self.stale} if self.stale else doc

    def player_of(self, token: str) -> str | None:
        """The player whose token this is (every token compared, in constant time); a
        kept token of someone no longer a Player of the session opens nothing."""
        found = None
        with self.changed:
            tokens = list(self.players.items())
            current = set(self.mine)
        for name, tok in tokens:
            if hmac.compare_digest(tok.encode(), token.encode()):
                found = name
        return found if found in current else None

    def choose(self, player: str, unit: str, card: str, respond: bool = False
               ) -> dict[str, Any]:
        """A player's face-down choice, through the command's own operation (journalled,
        under the session's lock, undoable). Only that player's units may choose. When a
        waiting ``npc turn`` asks for this unit's card, ``respond`` (the Target's Action,
        001 l.639–641) goes with it, in the same unit of work."""
        from d2d_cli.operations import hands, label, npc, unit_of_work

        # labelled as the command is (never naming the card); the unit's owner is checked inside the
        # locked write; a page never creates a session (nor shows where it lives)
        t = Target(self.target.spec, None, label("hand choose", [unit, card]), create=False)
        try:
            with self.write_lock, unit_of_work() as scope:  # one unit of work, as call's
                if respond:
                    npc.answer_question(t, unit, True)
                hands.choose(t, unit, card, player=player)
                if scope is not None:
                    scope.commit()
        except NotFound:
            if self._missing(t):
                raise NotFound("the session is not there any more (the Narrator may have "
                               "moved it): nothing was chosen") from None
            raise
        self._seen = None  # look at the file again at once
        self.look.set()
        return {"ok": True, "unit": unit, "card": card}


    @staticmethod
    def _missing(t: Target) -> bool:
        """The session file is gone (the Narrator moved or renamed it)."""
        from d2d_cli import session

        return session.stamp(t.path()) is None


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = limits.BACKLOG  # a table joining at once waits on no retry
    table: Table
    hosts: frozenset[str]
    gate: limits.Gate
    dropped: limits.Dropped

    def process_request(self, request: Any, client_address: Any) -> None:
        # One thread a connection, within the limits of each client address and of all
        # (limits.Gate): the rest are closed unanswered, not given more threads.
        if not self.gate.admit(request, client_address[0]):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except Exception:
            self.gate.closed(request, True)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.gate.closed(request, True)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client gone before its answer: one line now and then, never a traceback.
        self.dropped.note(self.table.log, sys.exc_info()[1])


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "d2d"
    sys_version = ""
    timeout = limits.WRITE_TIMEOUT  # reads have their own deadline: limits.bounded_reader

    # -- plumbing -----------------------------------------------------------------------

    def setup(self) -> None:
        super().setup()
        self.rfile = limits.bounded_reader(self.connection)

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except limits.TooLarge:
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.wfile.write(b"HTTP/1.0 431 Request Header Fields Too Large\r\n"
                                 b"Connection: close\r\nContent-Length: 0\r\n\r\n")

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if len(self.headers) > limits.MAX_HEADERS:
            self.close_connection = True
            self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Too many headers")
            return False
        return True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        pass  # no request log: the URLs hold tokens

    def _send(self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None
              ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self._safety()
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _safety(self) -> None:
        self.send_header("Content-Security-Policy", page.CSP)
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")

    def _fail(self, status: HTTPStatus, text: str, extra: dict[str, str] | None = None
              ) -> None:
        self._send(status, _json({"ok": False, "error": text}),
                   "application/json; charset=utf-8", extra)

    def _gate(self, allowed: set[str]) -> tuple[str, str | None] | None:
        """Host, route, method and token checks; the path and the player, or None when
        an error was sent."""
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self.server.hosts:
            self._fail(HTTPStatus.MISDIRECTED_REQUEST, "unknown Host")
            return None
        parts = urlsplit(self.path)
        route = parts.path
        if route not in ROUTES_GET | ROUTES_POST:
            self._fail(HTTPStatus.NOT_FOUND, "no such page")
            return None
        if route not in allowed:
            allow = "GET, HEAD" if route in ROUTES_GET else "POST"
            self._fail(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed", {"Allow": allow})
            return None
        query = parse_qs(parts.query)
        token = (query.get("t") or [""])[0]
        if not hmac.compare_digest(token.encode(), self.server.table.token.encode()):
            self._refuse(route, "a token is needed: use the link d2d serve printed")
            return None
        player = None
        if route.startswith("/player"):
            player = self.server.table.player_of((query.get("p") or [""])[0])
            if player is None:
                self._refuse(route, "not a player's link")
                return None
        self.server.gate.cleared(self.connection)  # may now outlive its deadline
        return route, player

    def _refuse(self, route: str, text: str) -> None:
        """A wrong or revoked token: a page says so in words (a person opened it), an
        API route in JSON."""
        if route in ("/", "/player") and self.command in ("GET", "HEAD"):
            self._send(HTTPStatus.FORBIDDEN, page.GONE_HTML, "text/html; charset=utf-8")
        else:
            self._fail(HTTPStatus.FORBIDDEN, text)

    def __getattr__(self, name: str) -> Any:
        # Any other method (PUT, DELETE, OPTIONS, TRACE…) on any route: 405, after the
        # Host check. BaseHTTPRequestHandler looks up do_<METHOD>.
        if name.startswith("do_"):
            return self._other
        raise AttributeError(name)

    def _other(self) -> None:
        self._gate(set())

    # -- routes -------------------------------------------------------------------------

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        gate = self._gate(ROUTES_GET)
        if gate is None:
            return
        route, player = gate
        if route in ("/", "/player"):
            html = page.PUBLIC_HTML if route == "/" else page.PLAYER_HTML
            self._send(HTTPStatus.OK, html, "text/html; charset=utf-8")
        elif route.endswith("/state.json"):
            self._send(HTTPStatus.OK, _json(self.server.table.state(player)),
                       "application/json; charset=utf-8")
        elif self.command == "GET":
            self._stream(player)
        else:
            self._send(HTTPStatus.OK, b"", "text/event-stream")

    def do_POST(self) -> None:
        gate = self._gate(ROUTES_POST)
        if gate is None:
            return
        _, player = gate
        assert player is not None
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{self.headers.get('Host', '')}":
            self._fail(HTTPStatus.FORBIDDEN, "a choice is sent from the player's own page")
            return
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if ctype != "application/json" or not 0 < length <= MAX_BODY:
            self._fail(HTTPStatus.BAD_REQUEST, "send {unit, card} as JSON")
            return
        try:
            body = json.loads(self.rfile.read(length))
            unit, card = body["unit"], body["card"]
            respond = body.get("respond", False)  # the Target's Action, when asked
            if not isinstance(unit, str) or not isinstance(card, str) or not isinstance(
                    respond, bool):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            self._fail(HTTPStatus.BAD_REQUEST, "send {unit, card} as JSON")
            return
        table = self.server.table
        if table.blank:
            self._fail(HTTPStatus.CONFLICT, "the Narrator has blanked the screens")
            return
        try:
            answer = table.choose(player, unit, card, respond)
        except D2DError as e:
            self._fail(HTTPStatus.BAD_REQUEST, limits.for_a_page(
                e.message, table.target.path().parent, *limits.homes()))
            return
        self._send(HTTPStatus.OK, _json(answer), "application/json; charset=utf-8")

    def _stream(self, player: str | None) -> None:
        """The page's state whenever *its own* projection changes, and a keep-alive on a
        fixed cadence from the connection on (never sooner because something happened
        elsewhere: the timing of a stream tells nothing of another's page). The slot is
        given back within ``limits.CHECK`` s of the client going."""
        table = self.server.table
        address = self.client_address[0]
        refused = self.server.gate.open_stream(address, player)
        if refused is not None:
            self._fail(HTTPStatus.SERVICE_UNAVAILABLE, refused,
                       {"Retry-After": limits.RETRY_AFTER})
            return
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self._safety()
            self.end_headers()
            self.wfile.write(b"retry: 1000\n\n")
            sent: bytes | None = None
            seen = [-1]
            beat = time.monotonic() + KEEPALIVE
            while not table.stopping:
                with table.changed:
                    table.changed.wait_for(
                        lambda: table.version != seen[0] or table.stopping,
                        timeout=max(0.0, min(limits.CHECK, beat - time.monotonic())))
                    seen[0] = table.version
                    body = _json(table.state(player))
                if table.stopping:
                    break
                out = b""
                if body != sent:
                    out, sent = b"data: " + body + b"\n\n", body
                if time.monotonic() >= beat:
                    out += b": keepalive\n\n"
                    beat += KEEPALIVE
                if out:
                    self.wfile.write(out)
                    self.wfile.flush()
                elif limits.gone(self.connection):
                    break
        except (BrokenPipeError, ConnectionResetError, TimeoutError, OSError):
            pass
        finally:
            self.server.gate.close_stream(address, player)


# --------------------------------------------------------------------------- starting


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (no packet is sent: a UDP
    socket's connect only picks the route)."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("10.255.255.255", 1))
            found.append(s.getsockname()[0])
        finally:
            s.close()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    return [a for a in dict.fromkeys(found) if not a.startswith("127.")]


def start(target: Target, host: str, port: int, lan: list[str],
          log: TextIO | None = None, new_links: bool = False) -> Server:
    """Bind the server and project the session once (a session that cannot be read is
    refused before anything is served). The links kept with the session are served
    again unless ``new_links``; they are kept (again) once the server is bound."""
    target.existing()
    table = Table(target, log=log, new_links=new_links)
    table.refresh()
    if table.error is not None:  # said once, as the error (a damaged file: exit 3)
        kind = SessionError if isinstance(table.fault, SessionError) else BadInput
        raise kind(f"cannot serve this session: {table.error}")
    table._seen = table._stamp()
    with table.changed:
        table.new_players.clear()  # the first ones are announced with the URL
    try:
        server = Server((host, port), Handler)
    except OSError as e:
        raise BadInput(f"cannot listen on {host}:{port}: {e.strerror or e} (try --port 0)"
                       ) from None
    server.table = table
    table.save_links()
    server.gate = limits.Gate()
    server.dropped = limits.Dropped()
    real_port = server.server_address[1]
    names = {"127.0.0.1", "localhost", host.lower(), *lan}
    if host in ("0.0.0.0", ""):
        names |= set(lan_addresses())
    server.hosts = frozenset(f"[{n}]:{real_port}" if ":" in n else f"{n}:{real_port}"
                             for n in names)
    return server


def urls(server: Server, addresses: list[str]) -> tuple[list[str], dict[str, str]]:
    """The public page's URL on each address, and each player's own."""
    port = server.server_address[1]
    t = server.table.token
    with server.table.changed:
        players = {n: tok for n, tok in server.table.players.items() if n in
                   server.table.mine}
    public = [f"http://{a}:{port}/?t={t}" for a in addresses]
    mine = {n: f"http://{addresses[0]}:{port}/player?t={t}&p={tok}"
            for n, tok in players.items()}
    return public, mine


def run(server: Server, addresses: list[str], err: TextIO, stdin: TextIO | None,
        announce: Callable[[], None]) -> int:
    """Serve until Ctrl-C, SIGTERM or ``q`` on stdin (the end of stdin does not stop
    it): the watcher and the listener in threads, stdin's ``b`` toggling the blank
    screen."""
    import signal
    from typing import cast

    log = limits.Log(err)  # the terminal never holds the server up, even a full pipe
    err = cast(TextIO, log)
    table = server.table
    table.log = err
    done = threading.Event()
    threads = [threading.Thread(target=table.watch, name="d2d-watch", daemon=True),
               threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                                name="d2d-http", daemon=True)]
    for th in threads:
        th.start()
    announce()

    def keys() -> None:
        # A stdin at its end (a script's `d2d serve … &`, </dev/null) or unreadable only
        # ends the keys: the server goes on until q, Ctrl-C or SIGTERM.
        assert stdin is not None
        try:
            for line in stdin:
                word = line.strip().lower()
                if word in ("b", "blank"):
                    table.set_blank(not table.blank)
                    err.write("d2d serve: the players' screens are "
                              f"{'blank' if table.blank else 'shown again'}\n")
                    err.flush()
                elif word in ("q", "quit"):
                    done.set()
                    return
        except (OSError, ValueError):
            return

    if stdin is not None and not stdin.closed:
        threading.Thread(target=keys, name="d2d-keys", daemon=True).start()
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        while not done.wait(0.25):
            while True:
                with table.changed:
                    if not table.new_players:
                        break
                    name = table.new_players.pop(0)
                err.write(f"d2d serve: {name}'s page: {urls(server, addresses)[1][name]}\n")
                err.flush()
    except KeyboardInterrupt:
        pass
    finally:
        table.stop()
        server.shutdown()
        server.server_close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        err.write("d2d serve: stopped\n")
        log.close()
    return 0


def qr_codes(links: list[tuple[str, str]]) -> str:
    """A QR code for each link, drawn with half blocks for a terminal (segno, imported
    only here: ~50 ms, paid by ``d2d serve`` alone)."""
    import io

    import segno

    out = io.StringIO()
    for title, url in links:
        out.write(f"\n{title}:\n")
        segno.make(url, error="l").terminal(out=out, compact=True)
    return out.getvalue()
