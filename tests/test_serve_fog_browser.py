"""Fog of War in a real browser (Debian's Chromium through Playwright, as
tests/test_serve_browser.py): a fogged Space's terrain and unit, and a Location Event
not yet searched, are in no public byte (the TV's page, /state.json, its stream, the
other Player's page); after a Search and ``board reveal`` they are. The screenshot goes to
tests/artifacts/serve-tv-fog.png, to be looked at."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import serve_helpers as h

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

pytestmark = pytest.mark.skipif(**h.NEEDS_CHROMIUM)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from h.launch_browser()


def _ok(path: Path, *args: str) -> str:
    done = h.d2d("--session", str(path), *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_fogged_space_and_a_location_event_are_in_no_public_byte(
        browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path = h.table(tmp_path)
    _ok(path, "board", "fog", "H1:L10")  # the wall on L5:L7 and the Goblin Scout on I2
    _ok(path, "board", "place", "Den", "H8:I9")
    _ok(path, "board", "event", "add", "Den", "A chest of gold", "--location")
    gen = h.serve(path)
    served = next(gen)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.set_default_timeout(10_000)
    try:
        page.goto(served.url)
        expect(page.locator("#boardbox")).to_be_visible()
        stream = h.Stream(served)
        state = served.state()
        raw = json.dumps(stream.next()) + json.dumps(state) + page.content() + \
            json.dumps(served.state("Player2"))
        assert "chest" not in raw
        assert all("#" not in row for row in state["board"]["grid"])  # the wall is fog
        assert state["board"]["grid"][1] == "......." + "?" * 5
        # the Scout on I2 stands in fog; the Thief on K1 too, but is a Player's own
        assert [u["name"] for u in state["board"]["units"]] == [
            "Archer", "Thief", "Goblin Skirmisher"]
        assert "Goblin Scout" not in state["board"]["svg"]
        page.screenshot(path=str(ARTIFACTS / "serve-tv-fog.png"))
        # The Thief walks into the Den and Searches it (001 l.565): the chest is found.
        _ok(path, "unit", "place", "Thief", "H8", "S")
        said = _ok(path, "unit", "act", "Thief", "search")
        assert "A chest of gold" in said
        expect(page.locator("#mapevents")).to_contain_text(
            "Location Event under Den: A chest of gold")
        # The place, then the Search: the watcher may push the two changes as one state, so
        # the pushes are read until the chest is in one (bounded: 10 pushes at most)
        pushed: list[str] = []
        for _ in range(10):
            pushed.append(json.dumps(stream.next()))
            if "A chest of gold" in pushed[-1]:
                break
        assert "A chest of gold" in pushed[-1] and not any("chest" in p for p in pushed[:-1])
        _ok(path, "board", "reveal", "--all")
        state = json.loads(pushed[-1])
        for _ in range(10):  # the next push is the reveal (bounded: 10 pushes at most)
            state = stream.next()
            if not any("?" in row for row in state["board"]["grid"]):
                break
        assert "?" not in "".join(state["board"]["grid"])
        assert state["board"]["grid"][4].endswith("#")  # the wall on L5
        assert "Goblin Scout" in [u["name"] for u in state["board"]["units"]]
        expect(page.locator("#mapevents")).to_contain_text("A chest of gold")
        page.screenshot(path=str(ARTIFACTS / "serve-tv-fog-revealed.png"))
        stream.close()
    finally:
        page.close()
        gen.close()
