"""The odds of a Player's cards on their phone, in a real browser (issue 35 item 2):
while ``npc turn --wait`` asks Player1 for the Archer's card, each card of their hand
shows the exact chance it wins against the Goblin Skirmisher's Fate — the figure of
their page's state, for the way the card is turned — and the TV shows none. Debian's
Chromium through Playwright, as tests/test_serve_browser.py."""

from __future__ import annotations

import subprocess
import sys
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


def test_the_phone_shows_each_card_s_odds_against_the_attack(browser: Any,
                                                             tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path = h.table(tmp_path, hands=False)
    h.stack_hands(path, {"Player1": ["9C", "KD", "2D"], "Player2": ["AD", "RW"]})
    # The Archer Waits at Count 5, which reaches him with the Goblins (docs/rules.md "npc
    # turn --all, one Count at a time"), so the Skirmisher's attack is the turn's question
    done = h.d2d("--session", str(path), "unit", "wait", "Archer", "5")
    assert done.returncode == 0, done.stderr
    gen = h.serve(path)
    served = next(gen)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    for page in (phone, tv):
        page.set_default_timeout(10_000)
    proc = subprocess.Popen([sys.executable, "-m", "d2d_cli", "--session", str(path), "npc",
                             "turn", "--all", "--wait", "60", "--json"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        phone.goto(served.players["Player1"])
        tv.goto(served.url)
        expect(phone.locator("#asked")).to_have_text(
            "Goblin Skirmisher attacks your Archer — choose a card", timeout=30_000)
        odds = served.state("Player1")["odds"]
        assert odds is not None and odds["attacker"] == "Goblin Skirmisher"
        king = phone.get_by_role("button", name="King of Diamonds")
        up = odds["cards"]["KD^"]
        expect(king.locator(".odds")).to_have_text(f"wins {up['win']['percent']}, both "
                                                   f"{up['both']['percent']}")
        expect(king).to_have_attribute("aria-label", "King of Diamonds, Upper: Strong, "
                                       f"wins {up['win']['percent']}, both "
                                       f"{up['both']['percent']}")
        expect(phone.locator("#odds")).to_contain_text(
            "Exact odds against Goblin Skirmisher's Fate")
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "phone-odds.png"), full_page=True)
        phone.click("#down")  # turned Lower: the Lower card's figure
        down = odds["cards"]["KDv"]
        expect(king.locator(".odds")).to_have_text(f"wins {down['win']['percent']}, tie "
                                                   f"{down['tie']['percent']}")
        # the TV, its state and the other phone: the attack is shown, no chance of a card
        expect(tv.locator("#live")).to_have_class("live")
        expect(tv.locator("#round")).to_contain_text("Round")  # its state shown, not "…"
        public = tv.content() + str(served.state()) + str(served.state("Player2"))
        assert "Exact odds" not in public and "wins " not in public
        assert "'win'" not in public and served.state("Player2")["odds"] is None
    finally:
        proc.kill()
        proc.wait(timeout=10)
        phone.close()
        tv.close()
        gen.close()
