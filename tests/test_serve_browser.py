"""``d2d serve`` in a real browser: Playwright for Python driving Debian's Chromium
(``/usr/bin/chromium``; ``.ci/run`` installs it — Playwright's own browser download is
never used). At a phone's size (390×844) and a TV's (1920×1080): the page shows the
round, a command in another process changes it within a second, and no hand's card is
in the public page. Screenshots go to tests/artifacts/ (git-ignored), to be looked at."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import serve_helpers as h

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
SIZES = {"phone": (390, 844), "tv": (1920, 1080)}


pytestmark = pytest.mark.skipif(**h.NEEDS_CHROMIUM)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from h.launch_browser()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[h.Served]:
    yield from h.serve(h.table(tmp_path))


def _expect() -> Any:
    # Playwright's own assertions: they read the page without eval, which the page's
    # Content-Security-Policy forbids (a string given to wait_for_function would fail).
    from playwright.sync_api import expect

    return expect


def _page(browser: Any, size: str) -> Any:
    w, hgt = SIZES[size]
    page = browser.new_page(viewport={"width": w, "height": hgt})
    page.set_default_timeout(10_000)
    return page


@pytest.mark.parametrize("size", list(SIZES))
def test_the_public_page_is_live(browser: Any, served: h.Served, tmp_path: Path,
                                 size: str) -> None:
    page = _page(browser, size)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(served.url)
        expect = _expect()
        expect(page.locator("#live")).to_have_class("live")
        # "live" is shown as the stream opens, the state as its first message comes
        expect(page.locator("#round")).to_have_text("Round 1")
        assert page.text_content("#title") == "Combat #1"
        assert "Archer" in page.inner_text("#units")
        assert page.is_visible("#map") and not page.is_visible("#blank")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"serve-{size}.png"))
        shot = ARTIFACTS / f"serve-{size}-full.png"
        page.screenshot(path=str(shot), full_page=True)
        # Nothing wider than the screen: the PNG's width (bytes 16–20) is the viewport's
        assert int.from_bytes(shot.read_bytes()[16:20], "big") == SIZES[size][0]
        done = h.d2d("--session", str(tmp_path / "table.toml"), "round", "end")
        assert done.returncode == 0, done.stderr
        written = time.monotonic()
        expect(page.locator("#round")).to_have_text("Round 1 (ended)", timeout=1_000)
        assert time.monotonic() - written < 1.0
        html = page.content()
        for card in h.HIDDEN:
            assert card not in html, card
        # round end's Draw gave each Player a card (issue 31): counts only, never which
        assert page.inner_text("#players").splitlines() == [
            "Player1: 3 cards in hand · card chosen", "Player2: 3 cards in hand"]
        assert errors == []  # no script blocked by the Content-Security-Policy
    finally:
        page.close()


def test_a_player_chooses_a_card_on_their_phone_and_conflict_uses_it(
        browser: Any, served: h.Served, tmp_path: Path) -> None:
    import json

    page = _page(browser, "phone")
    expect = _expect()
    try:
        page.goto(served.players["Player1"])
        expect(page.locator("#hand button")).to_have_count(2)
        assert [page.locator("#hand button").nth(i).get_attribute("aria-label")
                for i in range(2)] == ["7 of Spades, Upper: Fast",
                                       "King of Diamonds, Upper: Strong"]
        assert page.inner_text("#hand").split() == ["7♠", "↑", "Fast", "↓", "Evade",
                                                    "K♦", "↑", "Strong", "↓", "Counter"]
        assert page.text_content("#chosen") == "Face down for Archer: Q♥ Lower: Block"
        assert "AD" not in page.content()  # Player2's cards
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "player-phone.png"), full_page=True)
        page.get_by_role("button", name="7 of Spades, Upper: Fast").click()
        expect(page.get_by_role("button", name="7 of Spades, Upper: Fast")).to_have_attribute(
            "aria-pressed", "true")
        page.click("#down")
        expect(page.locator("#down")).to_have_text("Lower ↓: Evade")
        page.click("#up")
        expect(page.locator("#up")).to_have_attribute("aria-pressed", "true")
        page.click("#go")
        expect(page.locator("#msg")).to_have_text("Chosen face down: 7S^")
        expect(page.locator("#chosen")).to_have_text("Face down for Archer: 7♠ Upper: Fast")
        expect(page.locator("#hand button")).to_have_count(2)  # QH came back, 7S went
        assert sorted(b.get_attribute("aria-label").split(",")[0]
                      for b in page.locator("#hand button").all()) == [
            "King of Diamonds", "Queen of Hearts"]
        page.screenshot(path=str(ARTIFACTS / "player-phone-chosen.png"), full_page=True)
    finally:
        page.close()
    done = h.d2d("--session", str(tmp_path / "table.toml"), "conflict", "Archer",
                 "Goblin Scout", "--skill", "Ranged", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["side_a"]["card"]["code"] == "7S^"


def test_names_from_files_are_shown_as_text_never_as_html(browser: Any, served: h.Served,
                                                          tmp_path: Path) -> None:
    """A unit's name comes from a file someone else wrote: it shows as the text it is."""
    evil = "<img src=x onerror=alert(1)>"
    done = h.d2d("--session", str(tmp_path / "table.toml"), "unit", "add", evil, "--body",
                 "2x1", "--mind", "2x1", "--will", "2x1", "--speed", "2x0")
    assert done.returncode == 0, done.stderr
    page = _page(browser, "tv")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(served.url)
        expect = _expect()
        expect(page.locator("#units")).to_contain_text(evil)
        assert page.locator("#units img").count() == 0
        page.wait_for_timeout(300)  # an onerror would have fired by now
        assert dialogs == []
    finally:
        page.close()


def test_blank_screens_in_the_browser(browser: Any, served: h.Served) -> None:
    page = _page(browser, "tv")
    try:
        page.goto(served.url)
        expect = _expect()
        expect(page.locator("#round")).to_have_text("Round 1")
        assert served.proc.stdin is not None
        served.proc.stdin.write("b\n")
        served.proc.stdin.flush()
        expect(page.locator("body")).to_have_class("blank", timeout=2_000)
        assert page.is_visible("#blank")
        page.screenshot(path=str(ARTIFACTS / "serve-blank.png"))
    finally:
        page.close()


# ----------------------------------------------------------------- issue 35: the layout


def _width(shot: Path) -> int:
    return int.from_bytes(shot.read_bytes()[16:20], "big")  # a PNG's width


def test_the_tv_shows_the_status_bar_and_the_whole_map_in_the_first_screen(
        browser: Any, served: h.Served, tmp_path: Path) -> None:
    path = str(tmp_path / "table.toml")
    for args in (("conflict", "Archer:KD^", "Goblin Skirmisher", "--card", "2S^"),
                 ("hit",), ("crit", "--power", "6x1", "--types", "pierce")):
        done = h.d2d("--session", path, *args)
        assert done.returncode == 0, done.stderr
    page = _page(browser, "tv")
    try:
        page.goto(served.url)
        expect = _expect()
        # 2♠ Upper (Fast) beats K♦ Upper (Strong); its Hit's Crit on the Archer
        expect(page.locator("#headline")).to_contain_text("Goblin Skirmisher's 2♠ beats "
                                                          "Archer: 1 Hit, ")
        expect(page.locator("#units")).to_contain_text("5 of 5")
        page.wait_for_timeout(300)  # the map image decoded
        m, bar = page.locator("#map").bounding_box(), page.locator("#units").bounding_box()
        assert m is not None and bar is not None
        assert m["y"] + m["height"] <= 1080 and m["width"] > 500
        assert bar["x"] + bar["width"] <= m["x"] and bar["y"] < 300  # side by side
        crit = page.inner_text("#units")
        assert "Critical" in crit or "Serious" in crit or "Minor" in crit, crit
        page.screenshot(path=str(ARTIFACTS / "serve-tv-story.png"))
        done = h.d2d("--session", path, "session", "undo")
        assert done.returncode == 0, done.stderr
        expect(page.locator("#log li").first).to_have_class("undone")
        expect(page.locator("#headline")).to_contain_text("(undone)")
        page.screenshot(path=str(ARTIFACTS / "serve-tv-undone.png"))
    finally:
        page.close()


def test_phone_pages_need_no_horizontal_scroll(browser: Any, served: h.Served) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for name, url in (("table", served.url), ("player", served.players["Player1"])):
        page = _page(browser, "phone")
        try:
            page.goto(url)
            _expect()(page.locator("#live")).to_have_class("live")
            shot = ARTIFACTS / f"phone-{name}-full.png"
            page.screenshot(path=str(shot), full_page=True)
            assert _width(shot) == 390, name
        finally:
            page.close()


def test_a_restarted_server_brings_the_open_page_back(browser: Any, tmp_path: Path) -> None:
    """Same session, same port: the same link, and the open page is live again within
    5 s of the restart without being reloaded."""
    path = h.table(tmp_path)
    gen = h.serve(path)
    first = next(gen)
    page = _page(browser, "phone")
    expect = _expect()
    try:
        page.goto(first.players["Player1"])
        expect(page.locator("#live")).to_have_class("live")
        gen.close()  # q: the server stops
        expect(page.locator("#live")).to_have_class("off", timeout=5_000)
        gen = h.serve(path, "--port", str(first.port))
        again = next(gen)
        assert again.players == first.players
        started = time.monotonic()
        expect(page.locator("#live")).to_have_class("live", timeout=5_000)
        assert time.monotonic() - started < 5
        done = h.d2d("--session", str(path), "round", "end")  # and it follows again
        assert done.returncode == 0, done.stderr
        expect(page.locator("#round")).to_have_text("Round 1 (ended)", timeout=2_000)
        gen.close()
        # --new-links on the same port: the open page is refused, and says so in words
        gen = h.serve(path, "--port", str(first.port), "--new-links")
        assert next(gen).players != first.players
        expect(page.locator("#gone")).to_be_visible(timeout=5_000)
        expect(page.locator("#live")).to_have_text("✖ link no longer valid")
        page.screenshot(path=str(ARTIFACTS / "phone-link-revoked.png"))
    finally:
        page.close()
        gen.close()


def test_a_secret_event_is_in_no_public_byte(browser: Any, tmp_path: Path) -> None:
    """A Timed Event not come up and a ``secret:`` task: not in the TV's page, its
    state, its stream, nor the other Player's page."""
    path = h.table(tmp_path)
    for args in (("clock", "event", "add", "Ambush from the north", "3"),
                 ("task", "new", "secret: open the vault", "4")):
        done = h.d2d("--session", str(path), *args)
        assert done.returncode == 0, done.stderr
    gen = h.serve(path)
    served = next(gen)
    page = _page(browser, "tv")
    try:
        page.goto(served.url)
        _expect()(page.locator("#event")).to_have_text("A Timed Event is set at 3 (2 ticks)")
        stream = h.Stream(served)
        raw = json.dumps(stream.next()) + json.dumps(served.state()) + page.content() + \
            json.dumps(served.state("Player2"))
        stream.close()
        for word in ("Ambush", "vault", "Reinforcements"):
            assert word not in raw, word
        page.screenshot(path=str(ARTIFACTS / "serve-tv-secret.png"))
    finally:
        page.close()
        gen.close()


def test_the_phone_answers_an_npc_turn(browser: Any, tmp_path: Path) -> None:
    """``npc turn --all --wait`` (a script; a terminal or d2d play always waits) asks
    Player1's phone for the Archer's card; the Player picks it there, with the Target's
    Action, and the turn goes on by itself — then asks again for the second attack."""
    import select
    import subprocess
    import sys

    path = h.table(tmp_path, hands=False)
    h.stack_hands(path, {"Player1": ["9C", "KD", "2D"], "Player2": ["AD", "RW"]})
    gen = h.serve(path)
    served = next(gen)
    page = _page(browser, "phone")
    expect = _expect()
    # Group 4: the Skirmisher alone, no Player's unit of its Group to stop its Countdown
    proc = subprocess.Popen([sys.executable, "-m", "d2d_cli", "--session", str(path), "npc",
                             "turn", "--all", "--group", "4", "--wait", "60", "--json"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        page.goto(served.players["Player1"])
        asked = page.locator("#asked")
        expect(asked).to_have_text("Goblin Skirmisher attacks your Archer — choose a card",
                                   timeout=30_000)
        assert page.is_visible("#respondbox")
        page.screenshot(path=str(ARTIFACTS / "phone-asked.png"), full_page=True)
        page.get_by_role("button", name="9 of Clubs, Upper: Strong").click()
        page.check("#respond")
        page.click("#go")
        # the turn went on: the first attack's result is on the phone while it asks again
        expect(page.locator("#last")).to_contain_text("Goblin Skirmisher", timeout=10_000)
        expect(page.locator("#hand button")).to_have_count(2, timeout=10_000)  # 9♣ played
        expect(asked).to_have_text("Goblin Skirmisher attacks your Archer — choose a card")
        page.screenshot(path=str(ARTIFACTS / "phone-answered.png"), full_page=True)
        page.get_by_role("button", name="King of Diamonds, Upper: Strong").click()
        page.click("#go")
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "the NPC turn did not go on"
        out = json.loads(proc.stdout.read())
        assert proc.wait(timeout=10) == 0
        expect(asked).to_be_hidden(timeout=5_000)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        page.close()
        gen.close()
    commands = out["result"]["commands"]
    fights = [c for c in commands if c.startswith(("conflict", "unit respond"))]
    assert fights[0] == "unit respond Archer" and "'Archer:9C^'" in fights[1]
    assert "'Archer:KD^'" in fights[2] and out["result"]["asked"] is None
