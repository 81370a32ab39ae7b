"""``d2d serve`` in a real process for the tests: started on 127.0.0.1 and any free
port, its first line (the URL) read with a deadline, stopped with ``q`` on stdin."""

from __future__ import annotations

import http.client
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

# The hands d2d holds ([rules] hands = "d2d", issue 31), stacked to known cards; Player1
# then chooses QH Lower face down for the Archer.
HANDS = {"Player1": ["7S", "QH", "KD"], "Player2": ["AD", "RW"]}
# Cards held in hands above (and the face-down choice): never on the public page.
HIDDEN = ("7S", "QH", "KD", "AD", "QHv")


def d2d(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "d2d_cli", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})


def stack_hands(path: Path, hands: dict[str, list[str]]) -> None:
    """Give each Player exactly this hand, the rest of their 54 cards in the deck."""
    from d2d_cli import session
    from d2d_cli.rules.deck.cards import full_deck, parse_card

    with session.edit(path, "test: stack the hands") as tx:
        table = dict(tx.data["players"])
        for player, hand in hands.items():
            held = {parse_card(c).face for c in hand}
            table[player] = {"deck": [c.code for c in full_deck() if c.face not in held],
                             "hand": [parse_card(c).code for c in hand], "discard": []}
        tx.put("players", table)


def table(tmp_path: Path, hands: bool = True) -> Path:
    """combat1 under [rules] hands = "d2d" after a round start, the Fate deck shuffled
    (no public discard shares a face with a hand), two Players' hands stacked and one
    card chosen face down (through the command, as a player would)."""
    path = tmp_path / "table.toml"
    done = d2d("--session", str(path), "--seed", "5", "fate", "status")
    assert done.returncode == 0, done.stderr
    text = path.read_text("utf-8")
    path.write_text(text.replace("[rules]\n", '[rules]\nhands = "d2d"\n', 1), "utf-8")
    for args in (("scene", "load", "combat1"), ("round", "start"), ("fate", "shuffle")):
        done = d2d("--session", str(path), "--seed", "5", *args)
        assert done.returncode == 0, done.stderr
    if hands:
        stack_hands(path, HANDS)
        done = d2d("--session", str(path), "hand", "choose", "Archer", "QHv")
        assert done.returncode == 0, done.stderr
    return path


class Served:
    def __init__(self, proc: subprocess.Popen[str], url: str, players: dict[str, str]
                 ) -> None:
        self.proc, self.url, self.players = proc, url, players
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "", parts.port or 0
        self.token = parse_qs(parts.query)["t"][0]

    def conn(self, timeout: float = 5, source: str | None = None
             ) -> http.client.HTTPConnection:
        """A connection, from another loopback address when ``source`` is given
        (127.0.0.2… are this machine too: another client address to the server)."""
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout,
                                          source_address=(source, 0) if source else None)

    def get(self, path: str, method: str = "GET", headers: dict[str, str] | None = None,
            body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
        c = self.conn()
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            c.close()

    def state(self, player: str | None = None) -> dict[str, Any]:
        status, _, body = self.get(self.path("/state.json", player))
        assert status == 200, body
        return dict(json.loads(body))

    def path(self, route: str, player: str | None = None) -> str:
        if player is None:
            return f"{route}?t={self.token}"
        p = parse_qs(urlsplit(self.players[player]).query)["p"][0]
        return f"/player{route if route != '/' else ''}?t={self.token}&p={p}"


class Stream:
    """An event stream read line by line, every read bounded by a deadline."""

    def __init__(self, served: Served, player: str | None = None,
                 source: str | None = None) -> None:
        self.c = served.conn(timeout=10, source=source)
        self.c.request("GET", served.path("/events", player))
        self.sock = self.c.sock  # the client lets go of it once the answer is read
        self.r = self.c.getresponse()
        assert self.r.status == 200
        self.raw: list[bytes] = []

    def next(self, timeout: float = 5) -> dict[str, Any]:
        """The next state pushed (keepalive comments skipped)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.sock.settimeout(max(0.05, end - time.monotonic()))
            line = self.r.readline()
            if not line:
                raise EOFError("the stream ended")
            self.raw.append(line)
            if line.startswith(b"data: "):
                return dict(json.loads(line[6:]))
        raise TimeoutError("no state pushed in time")

    def close(self) -> None:
        self.r.close()
        self.c.close()


def serve(session: Path, *extra: str) -> Iterator[Served]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "d2d_cli", "--session", str(session), "serve", "--port", "0",
         "--json", *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "d2d serve printed no URL within 30 s"
        first = json.loads(proc.stdout.readline())["result"]
        yield Served(proc, first["url"], first["players"])
    finally:
        if proc.poll() is None:
            assert proc.stdin is not None
            try:
                proc.stdin.write("q\n")
                proc.stdin.flush()
                proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait(timeout=10)


# ----------------------------------------------------------------- the real browser

CHROMIUM = Path("/usr/bin/chromium")
# CI (.ci/run sets up chromium; CI=true) must never skip them: there a missing browser fails.
IN_CI = os.environ.get("CI") == "true"
NEEDS_CHROMIUM = dict(
    condition=not CHROMIUM.exists() and not IN_CI,
    reason="Debian's chromium is not installed at /usr/bin/chromium (.ci/run installs it: "
           "apt-get install chromium); the browser tests drive that one, never a download")


def launch_browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright (executable_path: never a download); the
    body of each browser test module's ``browser`` fixture."""
    import pytest

    if IN_CI:
        import playwright.sync_api as sync
    else:
        sync = pytest.importorskip("playwright.sync_api", reason="playwright is a test "
                                   "dependency: pip install -e .[test]")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM),
                              args=["--no-sandbox", "--disable-gpu"], timeout=30_000)
        yield b
        b.close()
