"""``d2d serve`` over HTTP, read with the standard library's client: the first state, a
push after a command in another process, the tokens, the methods, the Host check, the
headers, the blank switch and the player's own page (docs/serve.md)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests import serve_helpers as h


def until(check: Callable[[], bool], seconds: float = 3) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "the page did not follow within the time"
        time.sleep(0.05)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[h.Served]:
    yield from h.serve(h.table(tmp_path))


def test_first_line_is_the_url_and_the_first_state_is_the_table(served: h.Served) -> None:
    assert served.url.startswith("http://127.0.0.1:") and "/?t=" in served.url
    assert sorted(served.players) == ["Player1", "Player2"]
    s = served.state()
    assert (s["scene"], s["round"]) == ("Combat #1", {"number": 1, "phase": "started"})
    stream = h.Stream(served)
    try:
        assert stream.next() == s  # the whole state on connect
    finally:
        stream.close()


def test_a_command_in_another_process_is_pushed_within_a_second(served: h.Served,
                                                                tmp_path: Path) -> None:
    stream = h.Stream(served)
    try:
        assert stream.next()["fate"]["remaining"] == 54
        done = h.d2d("--session", str(tmp_path / "table.toml"), "fate", "draw", "2")
        assert done.returncode == 0, done.stderr
        written = time.monotonic()
        s = stream.next(timeout=3)
        delay = time.monotonic() - written
        assert s["fate"]["remaining"] == 52
        assert delay < 1.0, f"pushed after {delay:.3f} s"
        assert s["log"][-1]["command"] == "fate draw 2"
    finally:
        stream.close()


def test_no_hand_card_or_choice_on_the_public_page_stream_or_state(served: h.Served) -> None:
    stream = h.Stream(served)
    try:
        stream.next()
        _, _, state = served.get(served.path("/state.json"))
        _, _, html = served.get(served.path("/"))
        for text in (state, b"".join(stream.raw), html):
            for card in h.HIDDEN:
                assert card.encode() not in text, card
        players = {p["name"]: p for p in json.loads(state)["players"]}
        # the chosen card has left the hand: two in it, one face down (which: unsaid)
        assert (players["Player1"]["hand"], players["Player1"]["ready"]) == (2, True)
    finally:
        stream.close()


def test_a_players_page_holds_their_hand_and_nobody_elses(served: h.Served) -> None:
    mine = served.state("Player1")
    assert [c["face"] for c in mine["hand"]] == ["7S", "KD"]
    assert mine["chosen"] == {"unit": "Archer", "card": "QHv", "shown": "Q♥ Lower: Block"}
    other = served.state("Player2")
    assert [c["face"] for c in other["hand"]] == ["AD", "RW"] and other["chosen"] is None
    stream = h.Stream(served, "Player2")
    try:
        assert stream.next() == other
    finally:
        stream.close()


def test_a_player_chooses_face_down_from_their_page_and_conflict_uses_it(
        served: h.Served, tmp_path: Path) -> None:
    """The one write: the same operation as ``d2d hand choose`` (journalled, undoable);
    the public stream says only that a card is chosen."""
    stream = h.Stream(served)
    try:
        assert {p["name"]: p["ready"] for p in stream.next()["players"]} == {
            "Player1": True, "Player2": False}
        status, _, body = served.get(
            served.path("/choose", "Player2"), "POST", {"Content-Type": "application/json"},
            json.dumps({"unit": "Thief", "card": "ADv"}).encode())
        assert (status, json.loads(body)) == (200, {"ok": True, "unit": "Thief",
                                                    "card": "ADv"})
        s = stream.next(timeout=3)
        assert {p["name"]: p["ready"] for p in s["players"]} == {"Player1": True,
                                                                 "Player2": True}
        assert b"ADv" not in b"".join(stream.raw)
    finally:
        stream.close()
    assert served.state("Player2")["chosen"] == {"unit": "Thief", "card": "ADv",
                                                 "shown": "A♦ Lower: Counter"}
    session = str(tmp_path / "table.toml")
    log = json.loads(h.d2d("--session", session, "session", "log", "1", "--json").stdout)
    assert log["result"]["entries"][0]["command"].startswith("hand choose Thief")
    assert "AD" not in json.dumps(log)  # the journal never names the card
    # undone and redone like any change, and the page follows
    assert h.d2d("--session", session, "session", "undo").returncode == 0
    until(lambda: served.state("Player2")["chosen"] is None)
    assert h.d2d("--session", session, "session", "redo").returncode == 0
    until(lambda: served.state("Player2")["chosen"] is not None)
    # Player1 changes their mind on the page (QHv goes back to the hand): d2d conflict
    # reveals the card chosen there
    status, _, _ = served.get(
        served.path("/choose", "Player1"), "POST", {"Content-Type": "application/json"},
        json.dumps({"unit": "Archer", "card": "KDv"}).encode())
    assert status == 200
    done = h.d2d("--session", session, "conflict", "Archer", "Goblin Scout", "--skill",
                 "Ranged", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["side_a"]["card"]["code"] == "KDv"
    until(lambda: served.state("Player1")["chosen"] is None)  # played: revealed
    assert [c["face"] for c in served.state("Player1")["hand"]] == ["7S", "QH"]


def test_a_choice_outside_the_players_hand_or_units_is_refused(served: h.Served,
                                                               tmp_path: Path) -> None:
    before = (tmp_path / "table.toml").read_bytes()
    for unit, card, why in (("Thief", "7S^", b"not in"), ("Archer", "ADv", b"not one of"),
                            ("Thief", "nonsense", b"not a card")):
        status, _, body = served.get(
            served.path("/choose", "Player2"), "POST", {"Content-Type": "application/json"},
            json.dumps({"unit": unit, "card": card}).encode())
        assert status == 400 and why in body, body
    for headers, payload in (({"Content-Type": "text/plain"}, b'{"unit":"Thief"}'),
                             ({"Content-Type": "application/json"}, b"[1"),
                             ({"Content-Type": "application/json",
                               "Origin": "http://evil.example"},
                              b'{"unit":"Thief","card":"ADv"}')):
        status, _, _ = served.get(served.path("/choose", "Player2"), "POST", headers, payload)
        assert status in (400, 403)
    assert (tmp_path / "table.toml").read_bytes() == before


def test_tokens_are_required_on_every_route(served: h.Served) -> None:
    last = "B" if served.token.endswith("A") else "A"
    wrong = served.token[:-1] + last  # one character off
    for route in ("/", "/state.json", "/events"):
        assert served.get(route)[0] == 403
        assert served.get(route + "?t=" + wrong)[0] == 403
    p1 = served.path("/state.json", "Player1")
    assert served.get(p1.replace(served.token, "wrong"))[0] == 403
    # the run's token with no player's token, or with a made-up one: refused
    assert served.get(f"/player/state.json?t={served.token}")[0] == 403
    assert served.get(f"/player/state.json?t={served.token}&p={served.token}")[0] == 403
    # another player's token shows that player's page, never this one's
    p2 = served.state("Player2")
    assert "7S" not in json.dumps(p2)
    choose = served.path("/choose", "Player2")
    status, _, body = served.get(choose, "POST", {"Content-Type": "application/json"},
                                 json.dumps({"unit": "Archer", "card": "7S^"}).encode())
    assert status == 400 and b"not one of Player2's units" in body
    assert served.get("/nowhere?t=" + served.token)[0] == 404


def test_other_methods_are_refused(served: h.Served) -> None:
    for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "POST"):
        status, headers, _ = served.get(served.path("/"), method)
        assert status == 405, method
        assert headers["allow"] == "GET, HEAD"
    assert served.get(served.path("/choose", "Player1"))[0] == 405


def test_the_host_header_must_name_this_server(served: h.Served) -> None:
    """DNS rebinding: a page from evil.example resolved to 127.0.0.1 is refused."""
    for host in ("evil.example", f"evil.example:{served.port}", "127.0.0.1:1"):
        assert served.get(served.path("/state.json"), headers={"Host": host})[0] == 421
    assert served.get(served.path("/state.json"),
                      headers={"Host": f"localhost:{served.port}"})[0] == 200


def test_every_answer_carries_the_safety_headers(served: h.Served) -> None:
    status, headers, body = served.get(served.path("/"))
    assert status == 200 and body.startswith(b"<!doctype html>")
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "'unsafe-inline'" not in csp
    assert "script-src 'sha256-" in csp
    assert served.get("/")[1]["referrer-policy"] == "no-referrer"  # a refusal too


def test_the_narrator_blanks_the_screens(served: h.Served) -> None:
    stream = h.Stream(served)
    try:
        assert stream.next()["blank"] is False
        assert served.proc.stdin is not None
        served.proc.stdin.write("b\n")
        served.proc.stdin.flush()
        assert stream.next() == {"v": 1, "blank": True}
        assert served.state() == {"v": 1, "blank": True}
        assert served.state("Player1") == {"v": 1, "blank": True}
        served.proc.stdin.write("b\n")
        served.proc.stdin.flush()
        assert stream.next()["blank"] is False
    finally:
        stream.close()


def test_open_streams_are_shared_out_per_address_and_per_link(served: h.Served) -> None:
    """64 streams in all, 16 per client address, 48 on the table's link (16 always left
    for the Players' pages), 8 per Player; a refusal is a 503 that says the page retries
    by itself (docs/serve.md, "On a LAN nobody trusts")."""
    from d2d_cli.serve import limits

    def refused(source: str, player: str | None = None) -> bytes:
        c = served.conn(source=source)
        try:
            c.request("GET", served.path("/events", player))
            r = c.getresponse()
            assert r.status == 503 and r.getheader("Retry-After") == "2"
            return r.read()
        finally:
            c.close()

    streams: list[h.Stream] = []
    try:
        streams += [h.Stream(served, source="127.0.0.2")
                    for _ in range(limits.STREAMS_PER_ADDRESS)]
        assert b"on this device" in refused("127.0.0.2")
        for n in range(3, 3 + limits.STREAMS_PUBLIC // limits.STREAMS_PER_ADDRESS - 1):
            streams += [h.Stream(served, source=f"127.0.0.{n}")
                        for _ in range(limits.STREAMS_PER_ADDRESS)]
        assert b"on this link" in refused("127.0.0.9")  # the table's link is full
        streams += [h.Stream(served, "Player1", source="127.0.0.10")
                    for _ in range(limits.STREAMS_PER_PLAYER)]
        assert b"on this link" in refused("127.0.0.11", "Player1")
        streams += [h.Stream(served, "Player2", source="127.0.0.12")
                    for _ in range(limits.STREAMS_PER_PLAYER)]
        assert len(streams) == limits.MAX_STREAMS
        assert b"Too many open pages" in refused("127.0.0.13", "Player2")
        for s in streams:
            assert s.next()["v"] == 1
    finally:
        for s in streams:
            s.close()


def test_q_stops_the_server_cleanly(tmp_path: Path) -> None:
    gen = h.serve(h.table(tmp_path, hands=False))
    served = next(gen)
    assert served.proc.stdin is not None
    served.proc.stdin.write("q\n")
    served.proc.stdin.flush()
    assert served.proc.wait(timeout=10) == 0
    assert served.proc.stderr is not None
    assert served.proc.stderr.read().splitlines()[-1] == "d2d serve: stopped"
    gen.close()


def test_started_by_a_script_with_no_stdin_it_serves_until_sigterm(tmp_path: Path) -> None:
    """``d2d serve --port 0 > url &`` in a script: stdin is /dev/null, which must not stop
    it; SIGTERM stops it cleanly (exit 0)."""
    import select
    import signal
    import subprocess
    import sys

    path = h.table(tmp_path, hands=False)
    proc = subprocess.Popen([sys.executable, "-m", "d2d_cli", "--session", str(path), "serve",
                             "--port", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready
        url = proc.stdout.readline().strip()
        time.sleep(0.5)  # stdin's end has been read by now
        assert proc.poll() is None, "stopped at the end of stdin"
        served = h.Served(proc, url, {})
        assert served.state()["round"]["number"] == 1
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_serving_a_session_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    done = h.d2d("--session", "nosuch", "serve", "--port", "0")
    assert done.returncode == 2 and done.stdout == ""


def test_other_commands_do_not_import_the_server() -> None:
    import subprocess
    import sys

    code = ("import sys; from d2d_cli.cli import main; main(['fate', 'draw'])\n")
    probe = (code.replace("main(['fate', 'draw'])",
                          "rc = main(['fate', 'draw']); "
                          "print([m for m in ('http.server', 'd2d_cli.serve', "
                          "'d2d_cli.serve.server', 'socketserver', 'segno') "
                          "if m in sys.modules])"))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr


# ------------------------------------------------------- issue 35: links that survive


def test_a_restart_serves_the_same_links_and_new_links_revokes_them(tmp_path: Path) -> None:
    """The tokens are kept beside the session (mode 600): a restarted ``d2d serve`` on
    the same session and port hands out the same links, so open pages come back; with
    --new-links every old link is refused, and a page opened with one says so in words."""
    import os
    import stat

    path = h.table(tmp_path)
    gen = h.serve(path)
    first = next(gen)
    port = str(first.port)
    links = path.with_name(path.name + ".links")
    assert stat.S_IMODE(os.stat(links).st_mode) == 0o600
    assert first.token in links.read_text("utf-8")
    gen.close()
    gen = h.serve(path, "--port", port)
    again = next(gen)
    try:
        assert (again.url, again.players) == (first.url, first.players)
        assert again.state("Player1")["hand"][0]["face"] == "7S"  # the old phone link works
    finally:
        gen.close()
    gen = h.serve(path, "--new-links")
    fresh = next(gen)
    try:
        assert fresh.token != first.token
        assert set(fresh.players.values()).isdisjoint(first.players.values())
        status, headers, body = fresh.get(f"/?t={first.token}")
        assert status == 403 and headers["content-type"].startswith("text/html")
        assert b"This link no longer works" in body and b"<script" not in body
        old_p = first.players["Player1"].split("&p=")[1]
        status, _, body = fresh.get(f"/player?t={fresh.token}&p={old_p}")
        assert status == 403 and b"Ask the Narrator for the new link" in body
        assert fresh.get(f"/state.json?t={first.token}")[0] == 403  # an API answer: JSON
    finally:
        gen.close()


def test_a_qr_code_for_each_link(tmp_path: Path) -> None:
    import select
    import subprocess
    import sys

    path = h.table(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "d2d_cli", "--session", str(path), "serve",
                             "--port", "0", "--qr"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no URL within 30 s"
        out, _ = proc.communicate("q\n", timeout=20)  # the codes come before the keys' line
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    lines = out.splitlines()
    assert lines[0].startswith("http://127.0.0.1:")  # the first line is still the URL
    assert "The table:" in lines and "Player1's page:" in lines
    blocks = [x for x in lines if "\u2588" in x or "\u2580" in x or "\u2584" in x]
    assert len(blocks) > 30  # three codes drawn with half blocks


def test_the_watcher_outlives_any_error_and_the_pages_say_stale(tmp_path: Path) -> None:
    """An unexpected error while projecting is logged once, the pages' state says stale,
    and the next look recovers — the watcher thread never dies."""
    import io
    import threading

    from d2d_cli.operations import Target
    from d2d_cli.serve import project, server

    path = h.table(tmp_path, hands=False)
    log = io.StringIO()
    table = server.Table(Target(str(path)), log=log)
    table.refresh()
    assert table.state(None).get("stale") is None
    real = project.public
    broken = [True]

    def flaky(*args: object, **kw: object) -> object:
        if broken[0]:
            raise RuntimeError("a bug")
        return real(*args, **kw)  # type: ignore[arg-type]

    project.public = flaky  # type: ignore[assignment]
    watcher = threading.Thread(target=table.watch, daemon=True)
    try:
        watcher.start()
        done = h.d2d("--session", str(path), "round", "end")
        assert done.returncode == 0, done.stderr
        until(lambda: table.state(None).get("stale") == server.STALE)
        assert watcher.is_alive() and log.getvalue().count("RuntimeError: a bug") == 1
        broken[0] = False
        until(lambda: table.state(None).get("stale") is None)
        assert table.state(None)["round"]["phase"] == "ended"
        assert watcher.is_alive()
    finally:
        project.public = real  # type: ignore[assignment]
        table.stop()
        watcher.join(timeout=5)
    assert not watcher.is_alive()
